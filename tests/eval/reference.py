"""Naive reference rankings for the evaluator tests, written from the rules text alone.

They share no code or tables with :mod:`sanh.eval`: each returns a sort key (a tuple) built the
obvious way, slowly. Two hands compare as their keys compare; equal keys tie.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

# Five-card categories, weakest first (RULES.md §3.1).
HIGH_CARD, ONE_PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, ROYAL = (
    range(10)
)


def _groups(ranks: Sequence[int]) -> list[tuple[int, int]]:
    """(count, rank) pairs, the biggest group first, then the higher rank."""
    return sorted(((n, r) for r, n in Counter(ranks).items()), reverse=True)


def poker5_key(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """(category, tie-break ranks) of exactly five cards; RULES.md §3.1 and S003."""
    assert len(cards) == 5 and len(set(cards)) == 5
    ranks = sorted((c // 4 for c in cards), reverse=True)
    flush = len({c % 4 for c in cards}) == 1
    top = -1
    if len(set(ranks)) == 5:
        if ranks[0] - ranks[4] == 4:
            top = ranks[0]
        elif ranks == [12, 3, 2, 1, 0]:  # A-2-3-4-5: the five is the top card
            top = 3
    groups = _groups(ranks)
    by_group = tuple(r for _, r in groups)
    shape = tuple(n for n, _ in groups)
    if top >= 0 and flush:
        return (ROYAL if top == 12 else STRAIGHT_FLUSH, (top,))
    if shape == (4, 1):
        return (QUADS, by_group)
    if shape == (3, 2):
        return (FULL_HOUSE, by_group)
    if flush:
        return (FLUSH, tuple(ranks))
    if top >= 0:
        return (STRAIGHT, (top,))
    if shape == (3, 1, 1):
        return (TRIPS, by_group)
    if shape == (2, 2, 1):
        return (TWO_PAIR, by_group)
    if shape == (2, 1, 1, 1):
        return (ONE_PAIR, by_group)
    return (HIGH_CARD, tuple(ranks))


def poker_best_key(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """The best five-card key among all five-card subsets (brute force)."""
    return max(poker5_key(five) for five in combinations(cards, 5))


def _three(cards: Sequence[int]) -> tuple[list[int], bool, int]:
    """Ranks high first, whether the three share a suit, and how many ranks are distinct."""
    assert len(cards) == 3 and len(set(cards)) == 3
    ranks = sorted((c // 4 for c in cards), reverse=True)
    suited = len({c % 4 for c in cards}) == 1
    return ranks, suited, len(set(ranks))


def tcp_key(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """Three Card Poker (RULES.md §13.4, S000): 6 mini royal ... 0 high card."""
    ranks, suited, distinct = _three(cards)
    straight_top = -1
    if distinct == 3 and ranks[0] - ranks[2] == 2:
        straight_top = ranks[0]
    if ranks == [12, 1, 0]:
        straight_top = 1  # 3-2-A, the lowest straight: its top card is the three
    if straight_top >= 0 and suited:
        return (6 if straight_top == 12 else 5, (straight_top,))
    if distinct == 1:
        return (4, (ranks[0],))
    if straight_top >= 0:
        return (3, (straight_top,))
    if suited:
        return (2, tuple(ranks))
    if distinct == 2:
        pair = ranks[1]
        kicker = ranks[0] if ranks[0] != pair else ranks[2]
        return (1, (pair, kicker))
    return (0, tuple(ranks))


def teen_patti_key(cards: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """Teen Patti (RULES.md §14.4, S004): 6 three aces ... 0 high card."""
    ranks, suited, distinct = _three(cards)
    order: dict[tuple[int, ...], int] = {(12, 11, 10): 13, (12, 1, 0): 12}  # then K-Q-J = 11
    straight = -1
    if tuple(ranks) in order:
        straight = order[tuple(ranks)]
    elif distinct == 3 and ranks[0] - ranks[2] == 2:
        straight = ranks[0]
    if distinct == 1:
        return (6 if ranks[0] == 12 else 5, (ranks[0],))
    if straight >= 0:
        return (4 if suited else 3, (straight,))
    if suited:
        return (2, tuple(ranks))
    if distinct == 2:
        pair = ranks[1]
        kicker = ranks[0] if ranks[0] != pair else ranks[2]
        return (1, (pair, kicker))
    return (0, tuple(ranks))
