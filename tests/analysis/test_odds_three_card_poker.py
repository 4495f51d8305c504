"""Exact Three Card Poker odds: the published figures, and the counting checked by brute force."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations, product
from math import comb

import numpy as np
import pytest

from sanh.analysis._tcp_tables import three_card_table
from sanh.analysis.odds import find_odds_provider
from sanh.analysis.odds_three_card_poker import (
    DEALER_HANDS,
    ante_play,
    ante_play_counts,
    multiset_categories,
    odds,
    pair_plus,
    rank_multisets,
    six_card_bonus,
    six_card_category_counts,
    three_card_category_counts,
)
from sanh.analysis.sim_three_card_poker import six_card_pays
from sanh.cards import SeededRng, parse_cards
from sanh.cli import main
from sanh.eval import HandCategory, TcpCategory, tcp_rank
from sanh.games.three_card_poker import ANTE_BONUS, SIX_CARD_BONUS, dealer_qualifies


def test_three_card_category_counts() -> None:
    """Issue 2 'Must show': the 22,100 three-card hands split 48/52/720/1,096/3,744/16,440 (the
    mini royals, 4 of them, are part of the 48 straight flushes)."""
    counts = three_card_category_counts()
    assert counts[TcpCategory.MINI_ROYAL] == 4
    assert counts[TcpCategory.STRAIGHT_FLUSH] + counts[TcpCategory.MINI_ROYAL] == 48
    assert counts[TcpCategory.THREE_OF_A_KIND] == 52
    assert counts[TcpCategory.STRAIGHT] == 720
    assert counts[TcpCategory.FLUSH] == 1096
    assert counts[TcpCategory.PAIR] == 3744
    assert counts[TcpCategory.HIGH_CARD] == 16440


def brute_force(player: tuple[int, ...]) -> tuple[int, int, int]:
    """Dealer hands among the other 49 cards: not qualifying, qualifying and lower, tying."""
    rank = tcp_rank(player)
    rest = [c for c in range(52) if c not in player]
    not_qualifying = lower = tie = 0
    for dealer in combinations(rest, 3):
        if not dealer_qualifies(dealer):
            not_qualifying += 1
        else:
            other = tcp_rank(dealer)
            lower += other < rank
            tie += other == rank
    return not_qualifying, lower, tie


def test_inclusion_exclusion_counts_match_brute_force() -> None:
    """The per-hand dealer counts (inclusion-exclusion over shared cards) equal a direct count
    over the 18,424 dealer hands, for hands of every category and at the strategy threshold."""
    table = three_card_table()
    rows = {tuple(int(c) for c in row): i for i, row in enumerate(table.cards)}
    not_qualifying, lower, tie = ante_play_counts()
    rng = SeededRng("tcp-odds-brute-force")
    hands = [
        tuple(sorted(parse_cards(h))) for h in ("Qs 6h 4d", "Qs 6h 3d", "As Ks Qs", "2c 2d 2h")
    ]
    hands += [tuple(int(c) for c in table.cards[rng.randbelow(len(table.cards))]) for _ in range(4)]
    for hand in hands:
        row = rows[tuple(int(c) for c in hand)]
        expected = brute_force(hand)
        assert (not_qualifying[row], lower[row], tie[row]) == expected, hand
        assert sum(expected) <= DEALER_HANDS


def test_ante_play_published_house_edge_and_threshold() -> None:
    """Issue 2 'Must show': Ante/Play house edge 3.37 % under the optimal "play Q-6-4 or better"
    strategy, with the 1-4-5 Ante Bonus (both rule sets); the element of risk is 2.01 %."""
    result = ante_play()
    assert result.threshold == "Q-6-4" and result.is_threshold
    assert result.indifferent == 0
    assert round(float(result.house_edge) * 100, 2) == 3.37
    assert round(float(result.element_of_risk) * 100, 2) == 2.01
    assert result.element_of_risk == result.house_edge / (1 + result.play_frequency)
    assert result.house_edge_playing_from(tcp_rank(parse_cards("Qs 6h 4d"))) == result.house_edge
    # Play Q-6-3 too, or fold Q-6-4: both cost more.
    for worse in ("Qs 6h 3d", "Qs 6h 5d"):
        assert result.house_edge_playing_from(tcp_rank(parse_cards(worse))) > result.house_edge


def test_ante_play_value_of_one_hand() -> None:
    """The value of Play for one hand, recomputed from the brute-force counts (per Ante):
    non-qualifying +1, win +2, tie 0, lose -2, plus the Ante Bonus."""
    table = three_card_table()
    result = ante_play()
    for text in ("Qs 6h 4d", "Qs 6h 3d", "5c 5d 5h"):
        hand = tuple(sorted(parse_cards(text)))
        row = int(np.flatnonzero((table.cards == np.array(hand)).all(axis=1))[0])
        not_qualifying, lower, tie = brute_force(hand)
        higher = DEALER_HANDS - not_qualifying - lower - tie
        bonus = ANTE_BONUS.get(TcpCategory(int(table.category[row])), 0)
        value = Fraction(not_qualifying + 2 * lower - 2 * higher, DEALER_HANDS) + bonus
        assert value == Fraction(int(result.play_value[row]), DEALER_HANDS)
        assert bool(result.plays[row]) is (value > -1)


def test_pair_plus_published_figures() -> None:
    """Issue 2 'Must show': Pair Plus 40-30-6-3-1 (the S002 paytable) has a 7.28 % house edge;
    the S000 paytable 40-30-5-4-1 gives 1,232/22,100 = 5.57 %."""
    assert round(float(pair_plus("40-30-6-3-1")) * 100, 2) == 7.28
    counts = three_card_category_counts()
    sf = counts[TcpCategory.STRAIGHT_FLUSH] + counts[TcpCategory.MINI_ROYAL]
    expected = -(
        40 * sf
        + 30 * counts[TcpCategory.THREE_OF_A_KIND]
        + 5 * counts[TcpCategory.STRAIGHT]
        + 4 * counts[TcpCategory.FLUSH]
        + counts[TcpCategory.PAIR]
        - counts[TcpCategory.HIGH_CARD]
    )
    assert pair_plus("40-30-5-4-1") == Fraction(expected, 22100)
    assert round(float(pair_plus("40-30-5-4-1")) * 100, 2) == 5.57


def test_six_card_category_counts() -> None:
    """The best-five categories of all C(52, 6) = 20,358,520 six-card hands: royal flushes
    4 x 47, straight flushes 4 x 9 x 46, four of a kind 13 x C(48, 2), and the published
    six-card frequencies for the rest."""
    counts = six_card_category_counts()
    assert sum(counts.values()) == comb(52, 6)
    assert counts[HandCategory.ROYAL_FLUSH] == 4 * 47
    assert counts[HandCategory.STRAIGHT_FLUSH] == 4 * 9 * 46
    assert counts[HandCategory.FOUR_OF_A_KIND] == 13 * comb(48, 2)
    assert counts[HandCategory.FULL_HOUSE] == 165_984
    assert counts[HandCategory.FLUSH] == 205_792
    assert counts[HandCategory.STRAIGHT] == 361_620
    assert counts[HandCategory.THREE_OF_A_KIND] == 732_160


def test_rank_multiset_counts_match_every_suit_assignment() -> None:
    """For sampled rank multisets, the counted categories equal a classification of every suit
    assignment (through the vectorised classifier, itself checked against sanh.eval)."""
    multisets = rank_multisets(6)
    assert len(multisets) == len(set(multisets))
    rng = SeededRng("tcp-six-card-multisets")
    wide = [m for m in multisets if sum(1 for c in m if c) >= 5]
    sample = [wide[rng.randbelow(len(wide))] for _ in range(40)]
    sample += [multisets[rng.randbelow(len(multisets))] for _ in range(40)]
    pays_to_category = {pay: category for category, pay in SIX_CARD_BONUS.items()}
    for multiset in sample:
        per_rank = [
            [tuple(r * 4 + s for s in suits) for suits in combinations(range(4), count)]
            for r, count in enumerate(multiset)
            if count
        ]
        hands = np.array([sum(parts, ()) for parts in product(*per_rank)], dtype=np.int8)
        pays = six_card_pays(hands)
        counted = {
            category: n
            for category, n in multiset_categories(multiset).items()
            if category in SIX_CARD_BONUS
        }
        brute: dict[HandCategory, int] = {}
        for pay in pays.tolist():
            if pay > 0:
                brute[pays_to_category[pay]] = brute.get(pays_to_category[pay], 0) + 1
        assert counted == brute, multiset


def test_six_card_bonus_house_edge_from_counts() -> None:
    """The 6 Card Bonus (S000, 1000-200-100-20-15-10-7) house edge is its paytable over the
    six-card counts; every non-paying hand loses the stake."""
    counts = six_card_category_counts()
    value = sum(n * SIX_CARD_BONUS.get(category, -1) for category, n in counts.items())
    assert six_card_bonus() == Fraction(-value, comb(52, 6))
    assert 0.08 < float(six_card_bonus()) < 0.09


def test_reports_per_rule_set() -> None:
    """s000 reports ante_play, pair_plus and six_card_bonus; s002 has no 6 Card Bonus and pays
    Pair Plus 40-30-6-3-1."""
    s000 = odds("s000")
    assert list(s000.bets) == ["ante_play", "pair_plus", "six_card_bonus"]
    assert s000.bets["pair_plus"].house_edge == pair_plus("40-30-5-4-1")
    s002 = odds("s002")
    assert list(s002.bets) == ["ante_play", "pair_plus"]
    assert s002.bets["pair_plus"].house_edge == pair_plus("40-30-6-3-1")
    assert s002.bets["ante_play"].house_edge == s000.bets["ante_play"].house_edge
    assert odds(None).rules == "s000"
    assert find_odds_provider("three-card-poker") is odds
    with pytest.raises(ValueError, match="s000 and s002"):
        odds("s001")


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    """`sanh odds three-card-poker --rules s002 --json` prints the documented JSON shape."""
    assert main(["odds", "three-card-poker", "--rules", "s002", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "three-card-poker" and data["rules"] == "s002"
    ante = data["bets"]["ante_play"]
    assert ante["threshold"] == "Q-6-4" and "element_of_risk" in ante
    assert Fraction(ante["exact_house_edge"]) == ante_play().house_edge
    assert round(data["bets"]["pair_plus"]["house_edge"], 4) == 0.0728
