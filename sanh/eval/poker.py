"""High poker hands of 5, 6 and 7 cards (RULES.md §3.1), best five of N.

``evaluate(cards)`` returns an integer strength: higher is stronger, equal ties. The category is
``category_of(strength)``. Straights run A-high or A-low (A-2-3-4-5, the lowest) and never wrap;
suits never break ties.

>>> from sanh.cards import parse_cards
>>> evaluate(parse_cards("As Ks Qs Js Ts")) > evaluate(parse_cards("9h 9d 9c 9s 2d"))
True
>>> category_of(evaluate(parse_cards("5c 4d 3h 2s Ad Kc Kd")))
<HandCategory.STRAIGHT: 4>
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from itertools import combinations

__all__ = ["HandCategory", "category_of", "evaluate", "evaluate5"]


class HandCategory(IntEnum):
    """Five-card categories, weakest to strongest (royal flush is the top straight flush)."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9


_SHIFT = 20


def _pack(category: int, ranks: Sequence[int]) -> int:
    value = category
    for r in ranks:
        value = (value << 4) | r
    return value << (4 * (5 - len(ranks)))


def category_of(strength: int) -> HandCategory:
    """The category of a strength returned by :func:`evaluate`."""
    return HandCategory(strength >> _SHIFT)


def evaluate5(cards: Sequence[int]) -> int:
    """The strength of exactly five cards (compact integer cards)."""
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    flush = len({c & 3 for c in cards}) == 1
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    distinct = len(counts)
    straight_top = -1
    if distinct == 5:
        if ranks[0] - ranks[4] == 4:
            straight_top = ranks[0]
        elif ranks == [12, 3, 2, 1, 0]:
            straight_top = 3
    if straight_top >= 0 and flush:
        category = HandCategory.ROYAL_FLUSH if straight_top == 12 else HandCategory.STRAIGHT_FLUSH
        return _pack(category, [straight_top])
    if groups[0][1] == 4:
        return _pack(HandCategory.FOUR_OF_A_KIND, [groups[0][0], groups[1][0]])
    if groups[0][1] == 3 and groups[1][1] == 2:
        return _pack(HandCategory.FULL_HOUSE, [groups[0][0], groups[1][0]])
    if flush:
        return _pack(HandCategory.FLUSH, ranks)
    if straight_top >= 0:
        return _pack(HandCategory.STRAIGHT, [straight_top])
    if groups[0][1] == 3:
        return _pack(HandCategory.THREE_OF_A_KIND, [g[0] for g in groups])
    if groups[0][1] == 2 and groups[1][1] == 2:
        return _pack(HandCategory.TWO_PAIR, [g[0] for g in groups])
    if groups[0][1] == 2:
        return _pack(HandCategory.ONE_PAIR, [g[0] for g in groups])
    return _pack(HandCategory.HIGH_CARD, ranks)


def evaluate(cards: Sequence[int]) -> int:
    """The strength of the best five of 5, 6 or 7 cards."""
    if len(cards) == 5:
        return evaluate5(cards)
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"evaluate needs 5 to 7 cards, got {len(cards)}")
    return max(evaluate5(combo) for combo in combinations(cards, 5))
