"""Exact odds of Three Card Poker (RULES.md §13), rule sets (``tcp.variant``) ``s000`` and ``s002``.

Everything is counted exactly over every deal, as integers, and reported as
:class:`~fractions.Fraction` (no sampling):

* ``ante_play``: the Ante with its Play decision, per unit of Ante. For each of the 22,100
  Player hands the expected value of Play (Ante, Play and Ante Bonus) is counted against all
  18,424 dealer hands drawn from the other 49 cards, and compared with Fold (the Ante lost, no
  Ante Bonus). The optimal strategy plays whenever Play is worth more. The dealer-hand counts
  per Player hand come from inclusion-exclusion over the Player's cards (hands sharing one card,
  two cards, all three) with sorted keys, so the 407 million (Player, dealer) pairs are counted
  with a few vectorised searches. The report gives the strategy threshold found (the weakest
  hand played, e.g. ``Q-6-4``, checked to be a clean threshold in hand order), the play
  frequency and the element of risk (house edge over the average total wager, Ante + Play).
* ``pair_plus``: the category counts of the 22,100 hands against the paytable of the rule set.
  Folding never changes it under the optimal Ante strategy (every folded hand is a high card,
  which loses Pair Plus anyway), so ``tcp.fold_forfeits_pairplus`` (s002) leaves it unchanged.
* ``six_card_bonus`` (s000 only; s002 has no such bet): the best five of the Player's three and
  the dealer's three cards, a uniform six-card subset of the deck. The category counts over all
  20,358,520 six-card hands come from rank multisets (at most four of a rank) times their suit
  assignments: with at most four distinct ranks the category is fixed by the ranks; with five or
  six distinct ranks the flush assignments (five or six cards of one suit) are counted apart.

Published figures reproduced: Ante/Play 3.37 % under "play Q-6-4 or better" with the 1-4-5
Ante Bonus (both rule sets); Pair Plus 40-30-6-3-1 (s002) 7.28 %.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from math import comb

import numpy as np
import numpy.typing as npt

from sanh.analysis._tcp_tables import three_card_table
from sanh.analysis.odds import BetOdds, OddsReport
from sanh.cards.card import Rank
from sanh.eval import HandCategory, TcpCategory
from sanh.games.three_card_poker import (
    ANTE_BONUS,
    PAIR_PLUS_PAYTABLES,
    SIX_CARD_BONUS,
    VARIANT_DEFAULTS,
)

__all__ = [
    "PROVIDERS",
    "AntePlayResult",
    "ante_play",
    "ante_play_counts",
    "multiset_categories",
    "odds",
    "pair_plus",
    "rank_multisets",
    "six_card_bonus",
    "six_card_category_counts",
    "three_card_category_counts",
]

HANDS = comb(52, 3)
"""Player hands: 22,100."""
DEALER_HANDS = comb(49, 3)
"""Dealer hands for one Player hand: 18,424."""
SIX_CARD_HANDS = comb(52, 6)


def three_card_category_counts() -> dict[TcpCategory, int]:
    """How many of the 22,100 three-card hands fall in each category."""
    table = three_card_table()
    counts = np.bincount(table.category, minlength=len(TcpCategory))
    return {category: int(counts[category]) for category in TcpCategory}


# ----- Ante / Play --------------------------------------------------------------------------


def ante_play_counts() -> tuple[npt.NDArray[np.int64], ...]:
    """Per Player hand (rows of the three-card table): the dealer hands among the other 49
    cards that do not qualify, that qualify and are lower, and that qualify and tie.

    Inclusion-exclusion: a count over the dealer hands disjoint from {a, b, c} is the count over
    all hands, less those holding a, b or c, plus those holding two of them, less {a, b, c}.
    """
    return _ante_play_counts()


@cache
def _ante_play_counts() -> tuple[npt.NDArray[np.int64], ...]:
    table = three_card_table()
    cards, dense, qualifies = table.cards, table.dense.astype(np.int64), table.qualifies
    width = int(dense.max()) + 2
    pairs = ((0, 1), (0, 2), (1, 2))
    q_rows = np.flatnonzero(qualifies)
    nq_rows = np.flatnonzero(~qualifies)

    # Keys (group * width + dense strength) of qualifying hands, by holding card and card pair.
    single_keys = np.sort(
        np.concatenate([cards[q_rows, i] * width + dense[q_rows] for i in range(3)])
    )
    pair_ids = [cards[:, i] * 52 + cards[:, j] for i, j in pairs]
    pair_keys = np.sort(np.concatenate([pid[q_rows] * width + dense[q_rows] for pid in pair_ids]))
    all_sorted = np.sort(dense[q_rows])

    def below(keys: npt.NDArray[np.int64], group: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        base = group * width
        return np.searchsorted(keys, base + dense) - np.searchsorted(keys, base)

    def equal(keys: npt.NDArray[np.int64], group: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        target = group * width + dense
        return np.searchsorted(keys, target, "right") - np.searchsorted(keys, target, "left")

    zero = np.zeros(len(cards), dtype=np.int64)
    lower = np.searchsorted(all_sorted, dense).astype(np.int64)
    tie = (np.searchsorted(all_sorted, dense, "right") - np.searchsorted(all_sorted, dense)).astype(
        np.int64
    )
    for i in range(3):
        lower -= below(single_keys, cards[:, i])
        tie -= equal(single_keys, cards[:, i])
    for pid in pair_ids:
        lower += below(pair_keys, pid)
        tie += equal(pair_keys, pid)
    tie -= qualifies.astype(np.int64)  # the Player hand itself, tied with itself

    nq_single = np.bincount(cards[nq_rows].ravel(), minlength=52)
    nq_pair = np.bincount(np.concatenate([pid[nq_rows] for pid in pair_ids]), minlength=52 * 52)
    not_qualifying = zero + len(nq_rows)
    for i in range(3):
        not_qualifying -= nq_single[cards[:, i]]
    for pid in pair_ids:
        not_qualifying += nq_pair[pid]
    not_qualifying -= (~qualifies).astype(np.int64)
    return not_qualifying, lower, tie


class AntePlayResult:
    """The Ante/Play analysis: per-hand values and the optimal strategy."""

    def __init__(self, ante_bonus: dict[TcpCategory, int]) -> None:
        table = three_card_table()
        not_qualifying, lower, tie = ante_play_counts()
        higher = DEALER_HANDS - not_qualifying - lower - tie
        bonus_by_category = np.zeros(len(TcpCategory), dtype=np.int64)
        for category, multiple in ante_bonus.items():
            bonus_by_category[category] = multiple
        bonus = bonus_by_category[table.category]
        self.play_value: npt.NDArray[np.int64] = (
            not_qualifying + 2 * lower - 2 * higher + bonus * DEALER_HANDS
        )
        """Per Player hand: the value of Play x 18,424 (Ante, Play and Ante Bonus, per Ante)."""
        self.fold_value = -DEALER_HANDS
        """The value of Fold x 18,424: the Ante is lost."""
        self.plays: npt.NDArray[np.bool_] = self.play_value > self.fold_value
        self.indifferent = int(np.count_nonzero(self.play_value == self.fold_value))
        """Hands where Play and Fold are worth exactly the same (counted as Fold)."""
        total = int(np.where(self.plays, self.play_value, self.fold_value).sum())
        self.house_edge = Fraction(-total, HANDS * DEALER_HANDS)
        """Per unit of Ante, under the optimal strategy."""
        self.play_frequency = Fraction(int(self.plays.sum()), HANDS)
        self.element_of_risk = self.house_edge / (1 + self.play_frequency)
        """Expected loss over the average total wager (Ante + Play)."""
        strength = table.strength
        weakest = int(np.argmin(np.where(self.plays, strength, np.iinfo(np.int64).max)))
        self.threshold_strength = int(strength[weakest])
        self.threshold = "-".join(
            Rank(r).label for r in sorted((int(c) >> 2 for c in table.cards[weakest]), reverse=True)
        )
        """The weakest hand played, as ranks high to low: ``Q-6-4``."""
        self.is_threshold = bool(np.array_equal(self.plays, strength >= self.threshold_strength))
        """Whether the strategy is exactly "play the threshold hand or better"."""

    def house_edge_playing_from(self, strength: int) -> Fraction:
        """The house edge per Ante of "play every hand at least this strong"."""
        plays = three_card_table().strength >= strength
        total = int(np.where(plays, self.play_value, self.fold_value).sum())
        return Fraction(-total, HANDS * DEALER_HANDS)


@cache
def ante_play() -> AntePlayResult:
    """The Ante/Play analysis with the 1-4-5 Ante Bonus of both rule sets."""
    return AntePlayResult(ANTE_BONUS)


# ----- Pair Plus -----------------------------------------------------------------------------


def pair_plus(paytable: str) -> Fraction:
    """The house edge of Pair Plus under a paytable name (``40-30-5-4-1`` ...)."""
    pays = PAIR_PLUS_PAYTABLES[paytable]
    value = 0
    for category, count in three_card_category_counts().items():
        value += count * pays.get(category, -1)
    return Fraction(-value, HANDS)


# ----- 6 Card Bonus --------------------------------------------------------------------------

_STRAIGHT_MASKS: tuple[tuple[int, int], ...] = tuple(
    (top, sum(1 << ((top - k) % 13 if top - k >= 0 else 12) for k in range(5)))
    for top in range(12, 2, -1)
)
"""(top rank, 13-bit rank mask) of each straight, highest first; top 3 is A-2-3-4-5."""


def _straight_top(mask: int) -> int:
    for top, straight in _STRAIGHT_MASKS:
        if mask & straight == straight:
            return top
    return -1


def _suited_category(mask: int) -> HandCategory:
    top = _straight_top(mask)
    if top == Rank.ACE:
        return HandCategory.ROYAL_FLUSH
    return HandCategory.STRAIGHT_FLUSH if top >= 0 else HandCategory.FLUSH


def rank_multisets(size: int) -> list[tuple[int, ...]]:
    """Every tuple of 13 rank counts (0..4) summing to ``size``."""
    out: list[tuple[int, ...]] = []

    def extend(prefix: tuple[int, ...], left: int) -> None:
        if len(prefix) == 13:
            if left == 0:
                out.append(prefix)
            return
        for count in range(min(4, left) + 1):
            extend((*prefix, count), left - count)

    extend((), size)
    return out


def multiset_categories(multiset: tuple[int, ...]) -> dict[HandCategory, int]:
    """How the six-card hands with these rank counts (13 counts, 0..4, summing to 6) split
    into best-five categories, over all their suit assignments."""
    counts: Counter[HandCategory] = Counter()
    ways = 1
    for count in multiset:
        ways *= comb(4, count)
    present = [r for r in range(13) if multiset[r]]
    mask = sum(1 << r for r in present)
    most = max(multiset)
    if len(present) <= 4:
        if most == 4:
            counts[HandCategory.FOUR_OF_A_KIND] += ways
        elif most == 3 and sorted(multiset)[-2] >= 2:
            counts[HandCategory.FULL_HOUSE] += ways
        elif most == 3:
            counts[HandCategory.THREE_OF_A_KIND] += ways
        else:
            counts[HandCategory.TWO_PAIR] += ways
        return dict(counts)
    plain = HandCategory.STRAIGHT if _straight_top(mask) >= 0 else HandCategory.HIGH_CARD
    if len(present) == 6:
        # Six of one suit (4 ways), or five of one suit and one of another (4 x 6 x 3).
        flushes = 4
        counts[_suited_category(mask)] += 4
        for off in present:
            counts[_suited_category(mask & ~(1 << off))] += 4 * 3
            flushes += 4 * 3
    else:
        # Five ranks, one paired: a flush takes one card of each rank in one suit; the
        # pair's other card is one of the 3 other suits.
        flushes = 4 * 3
        counts[_suited_category(mask)] += flushes
        if plain is HandCategory.HIGH_CARD:
            plain = HandCategory.ONE_PAIR
    counts[plain] += ways - flushes
    return dict(counts)


@cache
def six_card_category_counts() -> dict[HandCategory, int]:
    """How many of the 20,358,520 six-card hands have each best-five category."""
    counts: Counter[HandCategory] = Counter()
    for multiset in rank_multisets(6):
        counts.update(multiset_categories(multiset))
    assert sum(counts.values()) == SIX_CARD_HANDS
    return dict(counts)


def six_card_bonus() -> Fraction:
    """The house edge of the 6 Card Bonus (S000 paytable 1000-200-100-20-15-10-7)."""
    value = 0
    for category, count in six_card_category_counts().items():
        value += count * SIX_CARD_BONUS.get(category, -1)
    return Fraction(-value, SIX_CARD_HANDS)


# ----- the report ----------------------------------------------------------------------------


def odds(rules: str | None = None, table: str | None = None) -> OddsReport:
    """Every bet of the rule set ``rules`` (``tcp.variant``: ``s000`` by default, or ``s002``).

    :raises ValueError: on an unknown rule set.
    """
    variant = rules or "s000"
    if variant not in VARIANT_DEFAULTS:
        raise ValueError(f"three-card-poker has rule sets s000 and s002, not {rules!r}")
    flags = VARIANT_DEFAULTS[variant]
    result = ante_play()
    strategy = (
        f"play {result.threshold} or better"
        if result.is_threshold
        else "play where Play beats Fold (not a single threshold)"
    )
    bets: dict[str, BetOdds] = {
        "ante_play": BetOdds(
            result.house_edge,
            {
                "element_of_risk": result.element_of_risk,
                "threshold": result.threshold,
                "strategy": strategy,
                "play_frequency": result.play_frequency,
                "ante_bonus": "straight flush 5, three of a kind 4, straight 1",
            },
        )
    }
    paytable = str(flags["tcp.pairplus_paytable"])
    hit = sum(
        count
        for category, count in three_card_category_counts().items()
        if category >= TcpCategory.PAIR
    )
    bets["pair_plus"] = BetOdds(
        pair_plus(paytable), {"paytable": paytable, "hit_frequency": Fraction(hit, HANDS)}
    )
    if flags["tcp.six_card_bonus"]:
        wins = sum(
            count
            for category, count in six_card_category_counts().items()
            if category in SIX_CARD_BONUS
        )
        bets["six_card_bonus"] = BetOdds(
            six_card_bonus(),
            {
                "paytable": "1000-200-100-20-15-10-7",
                "hit_frequency": Fraction(wins, SIX_CARD_HANDS),
            },
        )
    return OddsReport(game="three-card-poker", rules=variant, bets=bets)


PROVIDERS = {"three-card-poker": odds}
