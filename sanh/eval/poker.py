"""High poker hands of 5, 6 and 7 cards (RULES.md §3.1), best five of N.

``evaluate(cards)`` returns an integer strength: higher is stronger, equal ties. A strength is the
index of the hand's class in :data:`sanh.eval.lookup.POKER_LOOKUP`, from 0 (7-5-4-3-2 of mixed
suits) to 7,461 (a royal flush); there are 7,462 classes. The category is
``category_of(strength)``. Straights run A-high or A-low (A-2-3-4-5, the lowest) and never wrap;
suits never break ties.

Two implementations give identical results: the C speedups (:mod:`sanh.eval._speedups`, built by
``make install``; about 0.1 µs a call) and a pure-Python fallback over the same tables. See
``BENCHMARKS.md`` for the measurements behind this choice.

>>> from sanh.cards import parse_cards
>>> evaluate(parse_cards("As Ks Qs Js Ts")) > evaluate(parse_cards("9h 9d 9c 9s 2d"))
True
>>> category_of(evaluate(parse_cards("5c 4d 3h 2s Ad Kc Kd")))
<HandCategory.STRAIGHT: 4>
>>> evaluate(parse_cards("As Ks Qs Js Ts")), evaluate(parse_cards("7c 5d 4h 3s 2c"))
(7461, 0)
"""

from __future__ import annotations

import operator
from array import array
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import SupportsIndex

from sanh.eval._backend import SPEEDUPS
from sanh.eval.lookup import POKER_LOOKUP, HandCategory, rank_key

__all__ = ["HandCategory", "category_of", "evaluate", "evaluate5"]

EMPTY = 0xFFFF
"""Marks an unused slot in the flush table."""

_POW5 = tuple(5**rank for rank in range(13))
# A card's key: 5 ** rank (the sum over a hand is its count key) plus a 4-bit counter per suit
# from bit 32, started at 3, whose top bit is set once a suit has 5 cards (as in _speedups.c).
_CARD_KEYS = tuple(5 ** (card >> 2) | 1 << (32 + 4 * (card & 3)) for card in range(52))
_SUIT_INIT = 0x3333 << 32
_FLUSH_BITS = 0x8888 << 32
_CATEGORIES = POKER_LOOKUP.categories


def category_of(strength: int) -> HandCategory:
    """The category of a strength returned by :func:`evaluate`.

    :raises ValueError: if ``strength`` is not a poker strength.
    """
    if 0 <= strength < 7462:
        return _CATEGORIES[strength]
    raise ValueError(f"not a poker strength: {strength!r}")


def five_card_tables() -> tuple[array[int], array[int], array[int]]:
    """The five-card tables, from :data:`POKER_LOOKUP`: the data every other table derives from.

    :return: ``(keys, values, flush)``: the count key (uint32) and strength (uint16) of each of the
        6,175 rank multisets of five cards not all of one suit, and the strength of a flush by its
        13-bit rank mask (uint16, 8,192 entries; :data:`EMPTY` where the mask has not 5 bits).
    """
    keys = array("I")
    values = array("H")
    flush = array("H", [EMPTY]) * 8192
    for index, (pattern, suited) in enumerate(POKER_LOOKUP.patterns):
        if suited:
            flush[sum([1 << rank for rank in pattern])] = index
        else:
            keys.append(rank_key(pattern))
            values.append(index)
    return keys, values, flush


@cache
def pure_tables() -> tuple[dict[int, int], list[int]]:
    """The best-five-of-N tables of the pure-Python path, built on first use (about 0.2 s).

    :return: the strength of every rank multiset of 5, 6 or 7 cards by count key (when no five
        cards share a suit), and of every flush by its rank mask (5 to 7 bits).
    """
    keys, values, flush5 = five_card_tables()
    layer = dict(zip(keys, values, strict=True))
    unsuited = dict(layer)
    for _ in (6, 7):
        bigger: dict[int, int] = {}
        for key, value in layer.items():
            for power in _POW5:
                if key // power % 5 < 4:
                    grown = key + power
                    if bigger.get(grown, -1) < value:
                        bigger[grown] = value
        unsuited.update(bigger)
        layer = bigger
    flush = list(flush5)
    for bits in (6, 7):
        for mask in range(8192):
            if mask.bit_count() == bits:
                flush[mask] = max(flush[mask ^ (1 << r)] for r in range(13) if mask >> r & 1)
    return unsuited, flush


def check_cards(cards: Iterable[SupportsIndex], low: int, high: int, what: str) -> list[int]:
    """The cards as a list of ints, checked: ``low``..``high`` distinct card indices.

    :raises ValueError: on a wrong number of cards, a card out of range or a repeated card.
    :raises TypeError: on something that is not an integer.
    """
    hand = [operator.index(card) for card in cards]
    if not low <= len(hand) <= high:
        needs = f"{low}" if low == high else f"{low} to {high}"
        raise ValueError(f"{what} needs {needs} cards, got {len(hand)}")
    seen = 0
    for card in hand:
        if not 0 <= card < 52:
            raise ValueError(f"card index out of range: {card!r}")
        if seen >> card & 1:
            raise ValueError(f"duplicate card {'23456789TJQKA'[card >> 2]}{'cdhs'[card & 3]}")
        seen |= 1 << card
    return hand


def evaluate_python(cards: Sequence[int]) -> int:
    """The pure-Python :func:`evaluate` (the fallback, and a cross-check of the C path)."""
    cards = check_cards(cards, 5, 7, "evaluate")
    if len(cards) == 5:
        return evaluate5_python(cards)
    unsuited, flush = pure_tables()
    key = _SUIT_INIT + sum([_CARD_KEYS[card] for card in cards])
    if key & _FLUSH_BITS:
        suit = ((key & _FLUSH_BITS).bit_length() - 36) // 4
        return flush[sum([1 << (card >> 2) for card in cards if card & 3 == suit])]
    return unsuited[key & 0xFFFFFFFF]


def evaluate5_python(cards: Sequence[int]) -> int:
    """The pure-Python :func:`evaluate5`."""
    cards = check_cards(cards, 5, 5, "evaluate5")
    suit = cards[0] & 3
    if all(card & 3 == suit for card in cards):
        return POKER_LOOKUP.get_entry((card >> 2 for card in cards), suited=True).index
    return POKER_LOOKUP.get_entry((card >> 2 for card in cards), suited=False).index


evaluate: Callable[[Sequence[int]], int]
"""The strength of the best five of 5, 6 or 7 cards (card indices, any order).

:raises ValueError: on a wrong number of cards, a card out of range or a repeated card.
"""

evaluate5: Callable[[Sequence[int]], int]
"""The strength of exactly five cards.

:raises ValueError: on a wrong number of cards, a card out of range or a repeated card.
"""

if SPEEDUPS is not None:
    SPEEDUPS.init_poker(*(table.tobytes() for table in five_card_tables()))
    evaluate = SPEEDUPS.evaluate
    evaluate5 = SPEEDUPS.evaluate5
else:  # pragma: no cover - exercised when the C speedups are not built
    evaluate = evaluate_python
    evaluate5 = evaluate5_python
