"""Xì tố (Hong Kong five-card stud, 28-card deck) hand ranking, RULES.md §6.5-6.6 [S001].

``xito_key(cards, rules)`` returns a tuple: a larger tuple is a stronger hand, equal tuples tie.
The ranking is the seed's, kept literally, with every departure behind a :class:`XiToRules` flag:

* categories, high to low: straight flush (*Thùng phá sảnh*), four of a kind (*Tứ quý*), full
  house (*Cù lũ*), flush (*Thùng*), straight (*Sảnh*), three of a kind (*Xám cô*), two pair
  (*Thú*), pair (*Dzách*/*Đôi*), high card (*Mậu thầu*); ``flush_beats_full_house`` swaps the
  full house and the flush (A-XT10);
* the only straights are 8-9-10-J-Q < 9-10-J-Q-K < 10-J-Q-K-A; ``ace_low_straight`` adds
  A-8-9-10-J as the lowest (A-XT7);
* between two straight flushes **the lower one wins** (``lower_straight_flush_wins``, A-XT6);
* hands equal on every rank are separated by suit, ♥ > ♦ > ♣ > ♠ (*cơ, rô, tép, bích*), on the
  highest card of the deciding group (for a pair, the better-suited card of the pair), after the
  kickers (A-XT8, A-XT9); ``suit_tiebreak=False`` makes them tie (the pot splits) and
  ``suit_before_kickers=True`` compares that suit right after the group's ranks.

>>> from sanh.cards import parse_cards
>>> sf_low = parse_cards("8h 9h Th Jh Qh")
>>> sf_high = parse_cards("9c Tc Jc Qc Kc")
>>> xito_key(sf_low) > xito_key(sf_high)
True
>>> higher_wins = XiToRules(lower_straight_flush_wins=False)
>>> xito_key(sf_low, higher_wins) > xito_key(sf_high, higher_wins)
False
>>> xito_category(parse_cards("As Ac Ad Ah 8c")).name
'FOUR_OF_A_KIND'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from sanh.cards.card import Suit

__all__ = [
    "DEFAULT_XITO_RULES",
    "XITO_SUIT_ORDER",
    "XiToCategory",
    "XiToRules",
    "pair_lead_key",
    "upcard_key",
    "xito_category",
    "xito_key",
    "xito_suit_value",
]


class XiToCategory(IntEnum):
    """Five-card categories in the seed's order, weakest to strongest."""

    HIGH_CARD = 0
    """*Mậu thầu*."""
    ONE_PAIR = 1
    """*Dzách* / *Đôi*."""
    TWO_PAIR = 2
    """*Thú*."""
    THREE_OF_A_KIND = 3
    """*Xám cô* / *Sám cô*."""
    STRAIGHT = 4
    """*Sảnh*."""
    FLUSH = 5
    """*Thùng*."""
    FULL_HOUSE = 6
    """*Cù lũ*."""
    FOUR_OF_A_KIND = 7
    """*Tứ quý*."""
    STRAIGHT_FLUSH = 8
    """*Thùng phá sảnh*."""

    @property
    def vietnamese(self) -> str:
        """The category's name at the table."""
        return _CATEGORY_VI[self]


_CATEGORY_VI = {
    XiToCategory.HIGH_CARD: "Mậu thầu",
    XiToCategory.ONE_PAIR: "Đôi",
    XiToCategory.TWO_PAIR: "Thú",
    XiToCategory.THREE_OF_A_KIND: "Xám cô",
    XiToCategory.STRAIGHT: "Sảnh",
    XiToCategory.FLUSH: "Thùng",
    XiToCategory.FULL_HOUSE: "Cù lũ",
    XiToCategory.FOUR_OF_A_KIND: "Tứ quý",
    XiToCategory.STRAIGHT_FLUSH: "Thùng phá sảnh",
}

XITO_SUIT_ORDER: tuple[Suit, ...] = (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES)
"""Suits strongest first: ♥ > ♦ > ♣ > ♠ (*cơ, rô, tép, bích*) [S001, Xì tố variant 2]."""

_SUIT_VALUE = {suit: len(XITO_SUIT_ORDER) - i for i, suit in enumerate(XITO_SUIT_ORDER)}

_ACE = 12
_EIGHT = 6
_JACK = 9


def xito_suit_value(card: int) -> int:
    """The Xì tố strength of a card's suit: ♥ 4, ♦ 3, ♣ 2, ♠ 1.

    >>> from sanh.cards import parse_card
    >>> xito_suit_value(parse_card("Ah")) > xito_suit_value(parse_card("As"))
    True
    """
    return _SUIT_VALUE[Suit(card & 3)]


@dataclass(frozen=True, slots=True)
class XiToRules:
    """The ranking flags of RULES.md §15 (A-XT6 to A-XT10); defaults are the seed's reading."""

    lower_straight_flush_wins: bool = True
    """``xito.lower_straight_flush_wins`` (A-XT6): the LOWER straight flush wins."""
    ace_low_straight: bool = False
    """``xito.ace_low_straight`` (A-XT7): A-8-9-10-J is a straight (the lowest)."""
    suit_tiebreak: bool = True
    """``xito.suit_tiebreak`` (A-XT8): equal hands are separated by suit; False splits."""
    suit_before_kickers: bool = False
    """``xito.suit_before_kickers`` (A-XT9): compare the suit before the kickers."""
    flush_beats_full_house: bool = False
    """``xito.flush_beats_full_house`` (A-XT10): flush ranks above full house."""


DEFAULT_XITO_RULES = XiToRules()
"""The default (literal) reading of the seed."""


def _straight_top(ranks_desc: Sequence[int], rules: XiToRules) -> int:
    """The top rank of a straight, or -1. A-8-9-10-J plays as J-high when allowed."""
    if len(set(ranks_desc)) != 5:
        return -1
    if ranks_desc[0] - ranks_desc[4] == 4:
        return ranks_desc[0]
    if rules.ace_low_straight and list(ranks_desc) == [_ACE, _JACK, _JACK - 1, _JACK - 2, _EIGHT]:
        return _JACK
    return -1


def _analyse(
    cards: Sequence[int], rules: XiToRules
) -> tuple[XiToCategory, list[int], list[int], int]:
    """Category, group ranks (deciding group first), kicker ranks, and the deciding card."""
    if len(cards) != 5:
        raise ValueError(f"a Xì tố hand has 5 cards, got {len(cards)}")
    if len(set(cards)) != 5:
        raise ValueError("a Xì tố hand has 5 distinct cards")
    ordered = sorted(cards, key=lambda c: (c >> 2, xito_suit_value(c)), reverse=True)
    ranks = [c >> 2 for c in ordered]
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    flush = len({c & 3 for c in ordered}) == 1
    top = _straight_top(ranks, rules)

    def best_of(rank: int) -> int:
        return max((c for c in ordered if c >> 2 == rank), key=xito_suit_value)

    if top >= 0:
        deciding = best_of(top)
        category = XiToCategory.STRAIGHT_FLUSH if flush else XiToCategory.STRAIGHT
        return category, [top], [], deciding
    if groups[0][1] == 4:
        return XiToCategory.FOUR_OF_A_KIND, [groups[0][0]], [groups[1][0]], best_of(groups[0][0])
    if groups[0][1] == 3 and groups[1][1] == 2:
        group = [groups[0][0], groups[1][0]]
        return XiToCategory.FULL_HOUSE, group, [], best_of(groups[0][0])
    if flush:
        return XiToCategory.FLUSH, ranks[:1], ranks[1:], ordered[0]
    if groups[0][1] == 3:
        kickers = [g[0] for g in groups[1:]]
        return XiToCategory.THREE_OF_A_KIND, [groups[0][0]], kickers, best_of(groups[0][0])
    if groups[0][1] == 2 and groups[1][1] == 2:
        group = [groups[0][0], groups[1][0]]
        return XiToCategory.TWO_PAIR, group, [groups[2][0]], best_of(groups[0][0])
    if groups[0][1] == 2:
        kickers = [g[0] for g in groups[1:]]
        return XiToCategory.ONE_PAIR, [groups[0][0]], kickers, best_of(groups[0][0])
    return XiToCategory.HIGH_CARD, ranks[:1], ranks[1:], ordered[0]


def xito_category(cards: Sequence[int], rules: XiToRules = DEFAULT_XITO_RULES) -> XiToCategory:
    """The category of a five-card Xì tố hand.

    :raises ValueError: unless ``cards`` are five distinct cards.
    """
    return _analyse(cards, rules)[0]


def _category_order(category: XiToCategory, rules: XiToRules) -> int:
    if rules.flush_beats_full_house:
        if category is XiToCategory.FLUSH:
            return int(XiToCategory.FULL_HOUSE)
        if category is XiToCategory.FULL_HOUSE:
            return int(XiToCategory.FLUSH)
    return int(category)


def xito_key(cards: Sequence[int], rules: XiToRules = DEFAULT_XITO_RULES) -> tuple[int, ...]:
    """The comparison key of a five-card hand: larger is stronger, equal ties.

    :raises ValueError: unless ``cards`` are five distinct cards.
    """
    category, group, kickers, deciding = _analyse(cards, rules)
    if category is XiToCategory.STRAIGHT_FLUSH and rules.lower_straight_flush_wins:
        group = [-group[0]]
    key = [_category_order(category, rules), *group]
    if not rules.suit_tiebreak:
        return (*key, *kickers)
    suit = xito_suit_value(deciding)
    if rules.suit_before_kickers:
        return (*key, suit, *kickers)
    return (*key, *kickers, suit)


def upcard_key(cards: Sequence[int]) -> tuple[int, ...]:
    """Standard stud strength of 1 to 4 face-up cards (``xito.lead_rule = all_upcards``).

    Four of a kind > three of a kind > two pair > pair > high card; then ranks of the groups and
    kickers from the highest; then the suit of the best card of the deciding group (♥ > ♦ > ♣ >
    ♠). Straights and flushes do not count with fewer than five cards.
    """
    if not 1 <= len(cards) <= 5:
        raise ValueError(f"1 to 5 face-up cards, got {len(cards)}")
    counts: dict[int, int] = {}
    for card in cards:
        counts[card >> 2] = counts.get(card >> 2, 0) + 1
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [count for _, count in groups]
    if shape[0] == 4:
        level = 6
    elif shape[0] == 3:
        level = 3
    elif shape[0] == 2 and len(shape) > 1 and shape[1] == 2:
        level = 2
    elif shape[0] == 2:
        level = 1
    else:
        level = 0
    ranks = [rank for rank, _ in groups]
    best = max((c for c in cards if c >> 2 == ranks[0]), key=xito_suit_value)
    return (level, *ranks, *([-1] * (5 - len(ranks))), xito_suit_value(best))


def pair_lead_key(newest: int, earlier: int) -> tuple[int, int, int, int]:
    """The strength of a 2-card combination for the leader rule (RULES.md §6.4, A-XT2).

    A pair beats no pair; pairs compare by rank; non-pairs compare the higher card, then the
    lower card; then the suit of the higher card (for a pair, its better-suited card), with
    ♥ > ♦ > ♣ > ♠.

    >>> from sanh.cards import parse_card as c
    >>> pair_lead_key(c("Qh"), c("9d")) > pair_lead_key(c("Js"), c("Th"))
    True
    """
    high, low = sorted((newest, earlier), key=lambda x: (x >> 2, xito_suit_value(x)))[::-1]
    is_pair = int(high >> 2 == low >> 2)
    return (is_pair, high >> 2, low >> 2, xito_suit_value(high))
