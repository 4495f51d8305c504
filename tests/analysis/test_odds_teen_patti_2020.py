"""Exact Teen Patti 20-20 odds: the counts behind them, checked independently."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations, permutations
from math import comb, prod

import pytest

from sanh.analysis.odds import OddsReport, find_odds_provider
from sanh.analysis.odds_teen_patti_2020 import (
    _best_straight,
    _suited_category,
    class_representatives,
    main_bet_counts,
    six_card_category_counts,
    teen_patti_odds,
    three_card_category_counts,
)
from sanh.cli import main
from sanh.eval import HandCategory, TeenPattiCategory, category_of, evaluate, teen_patti_rank


@pytest.fixture(scope="module")
def report() -> OddsReport:
    return teen_patti_odds(None, None)


def test_six_card_counts_match_the_standard_table() -> None:
    """The best-five-of-six frequencies of all C(52,6) = 20,358,520 sets (the standard table)."""
    counts = six_card_category_counts()
    assert counts == {
        HandCategory.ROYAL_FLUSH: 188,
        HandCategory.STRAIGHT_FLUSH: 1_656,
        HandCategory.FOUR_OF_A_KIND: 14_664,
        HandCategory.FULL_HOUSE: 165_984,
        HandCategory.FLUSH: 205_792,
        HandCategory.STRAIGHT: 361_620,
        HandCategory.THREE_OF_A_KIND: 732_160,
        HandCategory.TWO_PAIR: 2_532_816,
        HandCategory.ONE_PAIR: 9_730_740,
        HandCategory.HIGH_CARD: 6_612_900,
    }
    assert sum(counts.values()) == comb(52, 6)


def _rank_vectors(cards: int, ranks: int = 13) -> Iterator[tuple[int, ...]]:
    """Every way to hold ``cards`` cards as counts per rank (each count 0..4)."""
    if ranks == 1:
        if cards <= 4:
            yield (cards,)
        return
    for here in range(min(cards, 4) + 1):
        for rest in _rank_vectors(cards - here, ranks - 1):
            yield (here, *rest)


def test_six_card_counts_by_an_independent_method() -> None:
    """A second count: every six-card rank multiset (18,395 of them), its category from
    sanh.eval.evaluate on a flush-free representative (suits dealt round-robin, so no suit holds
    three cards), weighted by its suit assignments less the flush ones, plus the flushes."""
    counts: Counter[HandCategory] = Counter()
    multisets = 0
    for vector in _rank_vectors(6):
        cards: list[int] = []
        for rank, count in enumerate(vector):
            for _ in range(count):
                cards.append(rank * 4 + len(cards) % 4)
        distinct = sum(1 for c in vector if c)
        ways = prod(comb(4, c) for c in vector)
        flushes = {6: 76, 5: 12}.get(distinct, 0)
        counts[category_of(evaluate(cards))] += ways - flushes
        multisets += 1
    assert multisets == 18_395
    for size, weight in ((6, 4), (5, 4 * 39)):
        for ranks in combinations(range(13), size):
            counts[category_of(evaluate([rank * 4 + 3 for rank in ranks]))] += weight
    assert counts == six_card_category_counts()


def test_best_straight() -> None:
    """Straights run A-high or A-low (the wheel, top card 5) and never wrap (RULES.md §3.1)."""
    assert _best_straight((8, 9, 10, 11, 12)) == 12
    assert _best_straight((12, 0, 1, 2, 3)) == 3
    assert _best_straight((12, 0, 1, 2, 3, 4)) == 4
    assert _best_straight((10, 11, 12, 0, 1)) == -1


def test_suited_categories_agree_with_the_evaluator() -> None:
    """Five or six suited ranks: royal flush, straight flush or flush as sanh.eval says."""
    for size in (5, 6):
        for ranks in combinations(range(13), size):
            cards = [rank * 4 + 3 for rank in ranks]
            assert category_of(evaluate(cards)) == _suited_category(ranks)


def test_class_representatives_cover_every_hand_once() -> None:
    """The 1,755 suit-isomorphism classes and their weights, against brute force over the 24
    suit permutations of every one of the 22,100 hands."""

    def canonical(hand: tuple[int, ...]) -> tuple[int, ...]:
        return min(
            tuple(sorted((c >> 2) * 4 + perm[c & 3] for c in hand))
            for perm in permutations(range(4))
        )

    brute = Counter(canonical(hand) for hand in combinations(range(52), 3))
    ours = Counter({canonical(hand): weight for hand, weight in class_representatives()})
    assert len(ours) == len(brute) == 1755
    assert ours == brute


def test_ties_by_direct_enumeration() -> None:
    """The tie count again, directly: every ordered pair of disjoint hands of equal strength."""
    groups: dict[int, list[int]] = {}
    for hand in combinations(range(52), 3):
        mask = (1 << hand[0]) | (1 << hand[1]) | (1 << hand[2])
        groups.setdefault(teen_patti_rank(hand), []).append(mask)
    ties = 0
    for masks in groups.values():
        for first in masks:
            for second in masks:
                if not first & second:
                    ties += 1
    wins, counted_ties, losses = main_bet_counts()
    assert counted_ties == ties == 450_528
    assert wins == losses  # A and B are dealt symmetrically
    assert wins + ties + losses == comb(52, 3) * comb(49, 3)


def test_three_card_category_counts() -> None:
    """The 22,100 three-card hands under the Teen Patti ranking (§14.4)."""
    assert three_card_category_counts() == {
        TeenPattiCategory.THREE_ACES: 4,
        TeenPattiCategory.THREE_OF_A_KIND: 48,
        TeenPattiCategory.STRAIGHT_FLUSH: 48,
        TeenPattiCategory.STRAIGHT: 720,
        TeenPattiCategory.FLUSH: 1_096,
        TeenPattiCategory.PAIR: 3_744,
        TeenPattiCategory.HIGH_CARD: 16_440,
    }


def test_s004_player_bets_rtp_is_97_50(report: OddsReport) -> None:
    """S004 'Tỷ lệ hoàn trả cho người chơi (RTP) tối đa của trò chơi là 97,50%': the best bets,
    Player A and Player B at 0.95:1 with a push on ties, return 97.50 %."""
    for bet in ("player_a", "player_b"):
        odds = report.bets[bet]
        win = Fraction(203_359_936, 407_170_400)
        assert odds.house_edge == -(win * Fraction(19, 20) - win)
        assert odds.house_edge == Fraction(244_423, 9_787_750)
        assert round(float(odds.rtp) * 100, 2) == 97.50
    assert max(bet.rtp for bet in report.bets.values()) == report.bets["player_a"].rtp


def test_side_bet_edges(report: OddsReport) -> None:
    """Tie 50:1, Pair Plus 50-40-30-6-3-1 and 6 Card Bonus 1000-200-100-20-15-10-7 (S004),
    from the category counts above."""
    tie = Fraction(450_528, 407_170_400)
    assert report.bets["tie"].house_edge == -(tie * 50 - (1 - tie))
    pair_plus = Fraction(4 * 50 + 48 * 40 + 48 * 30 + 720 * 6 + 1096 * 3 + 3744 - 16440, 22100)
    assert report.bets["pair_plus"].house_edge == -pair_plus == Fraction(382, 5525)
    six = Fraction(
        188 * 1000 + 1656 * 200 + 14664 * 100 + 165984 * 20 + 205792 * 15 + 361620 * 10
        + 732160 * 7 - (2532816 + 9730740 + 6612900),
        comb(52, 6),
    )  # fmt: skip
    assert report.bets["six_card_bonus"].house_edge == -six == Fraction(12816, 149695)


def test_odds_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    """``sanh odds "Teen Patti" --json``: the issue's JSON shape and bet keys."""
    assert find_odds_provider("teen-patti-2020") is teen_patti_odds
    assert main(["odds", "Teen Patti", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "teen-patti-2020" and data["rules"] == "s004"
    assert set(data["bets"]) == {"player_a", "player_b", "tie", "pair_plus", "six_card_bonus"}
    for bet in data["bets"].values():
        assert {"house_edge", "rtp", "exact_house_edge"} <= set(bet)
        p, q = bet["exact_house_edge"].split("/")
        assert abs(int(p) / int(q) - bet["house_edge"]) < 1e-15
    assert main(["odds", "teen-patti-2020", "--rules", "s000"]) == 2
