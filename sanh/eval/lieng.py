"""Liêng three-card ranking, RULES.md §8.3 [S001].

``lieng_key(cards, rules)`` returns a tuple: a larger tuple is a stronger hand, equal tuples tie
(which only happens with ``points_tie="split"``).

Categories, high to low: three of a kind (*Sáp*; A-A-A highest, then K down to 2-2-2), suited
straight (*Liêng đồng chất*), straight (*Liêng*), faces (*Ảnh*: three J/Q/K cards that are not a
Sáp or a Liêng), then points 9 down to 0 (total mod 10; A = 1, 2-9 at face value, 10/J/Q/K = 0).
Straights run from Q-K-A (highest) down to A-2-3 (lowest); K-A-2 is not a straight.

The suit order is ♦ > ♥ > ♣ > ♠ (*Rô > Cơ > Tép/Chuồn > Bích*). The *top card* of a hand is its
card in the highest suit, the highest-ranked (A > K > ... > 2) if there are several.

Ties (the flags of RULES.md §15):

* straights of the same ranks: the suit of the highest-ranked card (for A-2-3 the 3)
  (``straight_tie="highest_card"``, A-LI6) or the top cards (``"top_card"``);
* faces: the ranks from the highest (K > Q > J), then the top cards
  (``face_compare="ranks_then_suit"``, A-LI2) or the top cards alone (``"top_card"``);
* equal points: the top cards (``points_tie="top_card"``, A-LI3) or a tie (``"split"``);
* ``suited_straight_above_trips`` puts the suited straight above the Sáp (A-LI1).

>>> from sanh.cards import parse_cards
>>> lieng_key(parse_cards("4d 5d 6d")) > lieng_key(parse_cards("4c 5c 6c"))
True
>>> lieng_points(parse_cards("Ad 8s Qc"))
9
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Literal

from sanh.cards.card import Suit

__all__ = [
    "DEFAULT_LIENG_RULES",
    "LIENG_SUIT_ORDER",
    "LiengCategory",
    "LiengRules",
    "lieng_category",
    "lieng_key",
    "lieng_points",
    "lieng_suit_value",
    "top_card",
]


class LiengCategory(IntEnum):
    """Liêng categories, weakest to strongest."""

    POINTS = 0
    """*Điểm*: 0 to 9 points."""
    FACES = 1
    """*Ảnh*: three J/Q/K."""
    STRAIGHT = 2
    """*Liêng*: three consecutive ranks."""
    SUITED_STRAIGHT = 3
    """*Liêng đồng chất*: three consecutive ranks of one suit."""
    TRIPS = 4
    """*Sáp*: three of a rank."""

    @property
    def vietnamese(self) -> str:
        """The category's name at the table."""
        return _CATEGORY_VI[self]


_CATEGORY_VI = {
    LiengCategory.POINTS: "Điểm",
    LiengCategory.FACES: "Ảnh",
    LiengCategory.STRAIGHT: "Liêng",
    LiengCategory.SUITED_STRAIGHT: "Liêng đồng chất",
    LiengCategory.TRIPS: "Sáp",
}

LIENG_SUIT_ORDER: tuple[Suit, ...] = (Suit.DIAMONDS, Suit.HEARTS, Suit.CLUBS, Suit.SPADES)
"""Suits strongest first: ♦ > ♥ > ♣ > ♠ (*Rô > Cơ > Tép > Bích*) [S001]."""

_SUIT_VALUE = {suit: len(LIENG_SUIT_ORDER) - i for i, suit in enumerate(LIENG_SUIT_ORDER)}
_ACE = 12
_FACE_RANKS = frozenset({9, 10, 11})  # J, Q, K


def lieng_suit_value(card: int) -> int:
    """The Liêng strength of a card's suit: ♦ 4, ♥ 3, ♣ 2, ♠ 1."""
    return _SUIT_VALUE[Suit(card & 3)]


@dataclass(frozen=True, slots=True)
class LiengRules:
    """The ranking flags of RULES.md §15 (A-LI1, A-LI2, A-LI3, A-LI6); defaults first."""

    suited_straight_above_trips: bool = False
    """``lieng.suited_straight_above_trips`` (A-LI1)."""
    face_compare: Literal["ranks_then_suit", "top_card"] = "ranks_then_suit"
    """``lieng.face_compare`` (A-LI2)."""
    points_tie: Literal["top_card", "split"] = "top_card"
    """``lieng.points_tie`` (A-LI3)."""
    straight_tie: Literal["highest_card", "top_card"] = "highest_card"
    """``lieng.straight_tie`` (A-LI6)."""


DEFAULT_LIENG_RULES = LiengRules()
"""The default reading."""


def _card_key(card: int) -> tuple[int, int]:
    return (lieng_suit_value(card), card >> 2)


def top_card(cards: Sequence[int]) -> int:
    """The card in the highest suit; the highest-ranked of them if there are several.

    >>> from sanh.cards import parse_cards
    >>> str(top_card(parse_cards("4c 5h 6h")))
    '6h'
    """
    return max(cards, key=_card_key)


def lieng_points(cards: Sequence[int]) -> int:
    """The points of three cards: total mod 10, A = 1, 2-9 face value, 10/J/Q/K = 0."""
    total = 0
    for card in cards:
        rank = card >> 2
        if rank == _ACE:
            total += 1
        elif rank <= 7:  # 2..9
            total += rank + 2
    return total % 10


def _straight_height(ranks: Sequence[int]) -> int:
    """The straight's height (A-2-3 lowest = 1 ... Q-K-A highest = 12), or -1."""
    ordered = sorted(ranks)
    if ordered == [0, 1, _ACE]:  # A-2-3: the 3 is the highest-ranked card
        return 1
    if ordered[1] == ordered[0] + 1 and ordered[2] == ordered[1] + 1:
        return ordered[2]
    return -1


def _highest_ranked(cards: Sequence[int], height: int) -> int:
    """The highest-ranked card of a straight of this height (the 3 of A-2-3)."""
    return next(c for c in cards if c >> 2 == height)


def _check(cards: Sequence[int]) -> None:
    if len(cards) != 3 or len(set(cards)) != 3:
        raise ValueError(f"a Liêng hand has 3 distinct cards, got {list(cards)!r}")


def lieng_category(cards: Sequence[int]) -> LiengCategory:
    """The category of a three-card hand.

    :raises ValueError: unless ``cards`` are three distinct cards.
    """
    _check(cards)
    ranks = [c >> 2 for c in cards]
    if len(set(ranks)) == 1:
        return LiengCategory.TRIPS
    if _straight_height(ranks) >= 0:
        if len({c & 3 for c in cards}) == 1:
            return LiengCategory.SUITED_STRAIGHT
        return LiengCategory.STRAIGHT
    if all(rank in _FACE_RANKS for rank in ranks):
        return LiengCategory.FACES
    return LiengCategory.POINTS


def lieng_key(cards: Sequence[int], rules: LiengRules = DEFAULT_LIENG_RULES) -> tuple[int, ...]:
    """The comparison key of a three-card hand: larger is stronger, equal ties.

    :raises ValueError: unless ``cards`` are three distinct cards.
    """
    category = lieng_category(cards)
    order = int(category)
    if rules.suited_straight_above_trips:
        if category is LiengCategory.TRIPS:
            order = int(LiengCategory.SUITED_STRAIGHT)
        elif category is LiengCategory.SUITED_STRAIGHT:
            order = int(LiengCategory.TRIPS)
    top = _card_key(top_card(cards))
    ranks = [c >> 2 for c in cards]
    if category is LiengCategory.TRIPS:
        return (order, ranks[0])
    if category in (LiengCategory.SUITED_STRAIGHT, LiengCategory.STRAIGHT):
        height = _straight_height(ranks)
        if rules.straight_tie == "top_card":
            return (order, height, *top)
        return (order, height, lieng_suit_value(_highest_ranked(cards, height)))
    if category is LiengCategory.FACES:
        if rules.face_compare == "top_card":
            return (order, *top)
        return (order, *sorted(ranks, reverse=True), *top)
    points = lieng_points(cards)
    if rules.points_tie == "split":
        return (order, points)
    return (order, points, *top)
