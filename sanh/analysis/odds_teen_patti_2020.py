"""Exact odds of Teen Patti 20-20 (RULES.md §14): every bet by full enumeration.

The deal is a uniformly random ordered pair of disjoint three-card hands (A, B): the alternate
deal A1 B1 A2 B2 A3 B3 of a shuffled deck gives each of the ``C(52,3) × C(49,3) = 407,170,400``
ordered pairs the same probability. Bets (``sanh odds teen-patti-2020``):

* ``player_a`` / ``player_b``: for every hand A, the number of disjoint hands B below, equal to
  and above it is counted exactly by inclusion-exclusion over the cards A holds (all hands minus
  the hands sharing one of A's cards plus those sharing two of them, each looked up in sorted
  rank tables by bisection). Hands A are taken one per suit-isomorphism class (1,755 classes
  with weights, instead of 22,100 hands). The 5 % commission is exact (a win pays 19/20).
* ``tie``: the same enumeration's ties (same category and same three ranks, A-TT1), 50:1.
* ``pair_plus``: the category counts of the 22,100 three-card hands (one hand; the bets on A and
  on B have the same odds).
* ``six_card_bonus``: the best-five-of-six category counts of all ``C(52,6) = 20,358,520`` sets
  of six cards, counted exactly by rank shape (pairs, trips, quads by formula; five or six
  distinct ranks enumerated for straights, less their flush suit assignments) plus the flushes
  counted by their suited ranks.

``house_edge`` is the expected loss per unit staked (a push counts as staked and returned).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations
from math import comb, factorial, prod

from sanh.analysis.odds import BetOdds, OddsReport
from sanh.eval import HandCategory, TeenPattiCategory, teen_patti_category, teen_patti_rank
from sanh.games.teen_patti_2020 import Paytable

__all__ = [
    "PROVIDERS",
    "class_representatives",
    "main_bet_counts",
    "six_card_category_counts",
    "teen_patti_odds",
    "three_card_category_counts",
]

RULES = "s004"


def _hands() -> tuple[dict[tuple[int, int, int], int], list[int]]:
    """Every three-card hand (sorted card triple) with its Teen Patti strength."""
    ranks: dict[tuple[int, int, int], int] = {}
    for hand in combinations(range(52), 3):
        ranks[hand] = teen_patti_rank(hand)
    return ranks, sorted(ranks.values())


def class_representatives() -> Iterator[tuple[tuple[int, int, int], int]]:
    """One hand per suit-isomorphism class, with the number of hands in its class.

    Three distinct ranks: all one suit (4 hands), two cards sharing a suit and the third
    different (three classes, by which card differs: 12 each), three suits (24). A pair: the odd
    card in one of the pair's suits (12) or in a third suit (12). Three of a kind: 4.
    """
    for high in range(13):
        for middle in range(high):
            for low in range(middle):
                for suits, weight in (
                    ((0, 0, 0), 4),
                    ((0, 0, 1), 12),
                    ((0, 1, 0), 12),
                    ((1, 0, 0), 12),
                    ((0, 1, 2), 24),
                ):
                    cards = (high * 4 + suits[0], middle * 4 + suits[1], low * 4 + suits[2])
                    yield tuple(sorted(cards)), weight  # type: ignore[misc]
    for pair in range(13):
        for odd in range(13):
            if odd == pair:
                continue
            for odd_suit, weight in ((0, 12), (2, 12)):
                cards = (pair * 4, pair * 4 + 1, odd * 4 + odd_suit)
                yield tuple(sorted(cards)), weight  # type: ignore[misc]
    for trips in range(13):
        yield (trips * 4, trips * 4 + 1, trips * 4 + 2), 4


def main_bet_counts() -> tuple[int, int, int]:
    """Ordered pairs (A, B) of disjoint hands where A wins, ties, loses (exact counts)."""
    ranks, everything = _hands()
    by_card: list[list[int]] = [[] for _ in range(52)]
    for hand, strength in ranks.items():
        for card in hand:
            by_card[card].append(strength)
    for row in by_card:
        row.sort()

    def below_equal(table: list[int], strength: int) -> tuple[int, int]:
        lo = bisect_left(table, strength)
        return lo, bisect_right(table, strength) - lo

    wins = ties = losses = 0
    total_b = comb(49, 3)
    for hand, weight in class_representatives():
        strength = ranks[hand]
        below, equal = below_equal(everything, strength)
        for card in hand:
            card_below, card_equal = below_equal(by_card[card], strength)
            below -= card_below
            equal -= card_equal
        for first, second in combinations(hand, 2):
            for third in range(52):
                if third in (first, second):
                    continue
                other = ranks[tuple(sorted((first, second, third)))]  # type: ignore[index]
                if other < strength:
                    below += 1
                elif other == strength:
                    equal += 1
        equal -= 1  # A itself shares all three cards: added three times, removed three times
        wins += weight * below
        ties += weight * equal
        losses += weight * (total_b - below - equal)
    return wins, ties, losses


def three_card_category_counts() -> Counter[TeenPattiCategory]:
    """How many of the 22,100 three-card hands fall in each Teen Patti category."""
    return Counter(
        teen_patti_category(teen_patti_rank(hand)) for hand in combinations(range(52), 3)
    )


def _best_straight(present: set[int] | tuple[int, ...]) -> int:
    """The top rank of the best five-card straight among ``present`` ranks, -1 if none."""
    ranks = set(present)
    for top in range(12, 2, -1):
        if all(r in ranks for r in range(top - 4, top + 1)):
            return top
    if {12, 0, 1, 2, 3} <= ranks:
        return 3
    return -1


_SHAPES: tuple[tuple[tuple[int, ...], HandCategory], ...] = (
    ((4, 2), HandCategory.FOUR_OF_A_KIND),
    ((4, 1, 1), HandCategory.FOUR_OF_A_KIND),
    ((3, 3), HandCategory.FULL_HOUSE),
    ((3, 2, 1), HandCategory.FULL_HOUSE),
    ((3, 1, 1, 1), HandCategory.THREE_OF_A_KIND),
    ((2, 2, 2), HandCategory.TWO_PAIR),
    ((2, 2, 1, 1), HandCategory.TWO_PAIR),
)
"""Six-card rank shapes with at most four distinct ranks: no straight or flush is possible."""


def _shape_hands(shape: tuple[int, ...]) -> int:
    """How many six-card sets have this rank shape (counts of the distinct ranks)."""
    assignments = prod(range(13, 13 - len(shape), -1))
    for count in set(shape):
        assignments //= factorial(shape.count(count))
    return assignments * prod(comb(4, c) for c in shape)


def _suited_category(suited: tuple[int, ...]) -> HandCategory:
    """The category of a hand whose best five come from these suited ranks (5 or 6 of them)."""
    top = _best_straight(suited)
    if top == 12:
        return HandCategory.ROYAL_FLUSH
    if top >= 0:
        return HandCategory.STRAIGHT_FLUSH
    return HandCategory.FLUSH


def six_card_category_counts() -> Counter[HandCategory]:
    """The best-five-of-six category counts of all C(52,6) six-card sets, exactly.

    Shapes with at most four distinct ranks are counted by formula; five or six distinct ranks
    are enumerated (straight or not), less the suit assignments holding five or six cards of
    one suit, which the flush pass counts by their suited ranks.
    """
    counts: Counter[HandCategory] = Counter()
    for shape, category in _SHAPES:
        counts[category] += _shape_hands(shape)
    # A pair and four singles: 6 x 4^4 suit assignments, 12 of them with the five ranks suited
    # (the pair's other card off-suit).
    for ranks in combinations(range(13), 5):
        category = HandCategory.STRAIGHT if _best_straight(ranks) >= 0 else HandCategory.ONE_PAIR
        counts[category] += 5 * (6 * 4**4 - 12)
    # Six distinct ranks: 4^6 assignments, 76 with five or six of one suit (4 all suited, and
    # 4 suits x 6 odd cards x 3 other suits).
    for six in combinations(range(13), 6):
        category = HandCategory.STRAIGHT if _best_straight(six) >= 0 else HandCategory.HIGH_CARD
        counts[category] += 4**6 - 76
    for suited in combinations(range(13), 6):
        counts[_suited_category(suited)] += 4
    for suited in combinations(range(13), 5):
        counts[_suited_category(suited)] += 4 * 39
    return counts


def _edge(outcomes: dict[Fraction, int], total: int) -> Fraction:
    """House edge of a bet from ``{net return per unit: how many outcomes}``."""
    return -sum((net * count for net, count in outcomes.items()), Fraction(0)) / total


def teen_patti_odds(rules: str | None = None, table: str | None = None) -> OddsReport:
    """Every Teen Patti 20-20 bet's exact house edge under the default paytable (seed 004).

    :raises ValueError: for another rule set.
    """
    if rules not in (None, RULES, "default"):
        raise ValueError(f"teen-patti-2020 has one rule set, {RULES!r}, not {rules!r}")
    paytable = Paytable()
    wins, ties, losses = main_bet_counts()
    deals = wins + ties + losses
    assert deals == comb(52, 3) * comb(49, 3)
    pays = Fraction(paytable.main_pays_pct, 100)
    bets: dict[str, BetOdds] = {}
    tie_p = Fraction(ties, deals)
    for name, won, lost in (("player_a", wins, losses), ("player_b", losses, wins)):
        edge = _edge({pays: won, Fraction(0): ties, Fraction(-1): lost}, deals)
        bets[name] = BetOdds(
            edge,
            {
                "win_probability": Fraction(won, deals),
                "push_probability": tie_p,
                "pays": f"{pays.numerator}/{pays.denominator}:1, push on a tie",
            },
        )
    bets["tie"] = BetOdds(
        _edge({Fraction(paytable.tie): ties, Fraction(-1): wins + losses}, deals),
        {"hit_frequency": tie_p, "pays": f"{paytable.tie}:1"},
    )
    three = three_card_category_counts()
    order = (
        TeenPattiCategory.THREE_ACES,
        TeenPattiCategory.THREE_OF_A_KIND,
        TeenPattiCategory.STRAIGHT_FLUSH,
        TeenPattiCategory.STRAIGHT,
        TeenPattiCategory.FLUSH,
        TeenPattiCategory.PAIR,
    )
    outcomes: Counter[Fraction] = Counter()
    for category, count in three.items():
        odds = paytable.pair_plus[order.index(category)] if category in order else -1
        outcomes[Fraction(odds)] += count
    hands = sum(three.values())
    bets["pair_plus"] = BetOdds(
        _edge(dict(outcomes), hands),
        {
            "hit_frequency": Fraction(hands - outcomes[Fraction(-1)], hands),
            "pays": "-".join(map(str, paytable.pair_plus)),
        },
    )
    six = six_card_category_counts()
    six_order = (
        HandCategory.ROYAL_FLUSH,
        HandCategory.STRAIGHT_FLUSH,
        HandCategory.FOUR_OF_A_KIND,
        HandCategory.FULL_HOUSE,
        HandCategory.FLUSH,
        HandCategory.STRAIGHT,
        HandCategory.THREE_OF_A_KIND,
    )
    six_outcomes: Counter[Fraction] = Counter()
    for six_category, count in six.items():
        odds = paytable.six_card[six_order.index(six_category)] if six_category in six_order else -1
        six_outcomes[Fraction(odds)] += count
    sets = sum(six.values())
    assert sets == comb(52, 6)
    bets["six_card_bonus"] = BetOdds(
        _edge(dict(six_outcomes), sets),
        {
            "hit_frequency": Fraction(sets - six_outcomes[Fraction(-1)], sets),
            "pays": "-".join(map(str, paytable.six_card)),
        },
    )
    return OddsReport(game="teen-patti-2020", rules=RULES, bets=bets, table=None)


PROVIDERS = {"teen-patti-2020": teen_patti_odds}
