"""Three-card rankings: Three Card Poker (RULES.md §13.4) and Teen Patti (§14.4).

Both return an integer strength (higher is stronger, equal ties; suits never count).

* Three Card Poker: mini royal (A-K-Q suited) > straight flush > three of a kind > straight >
  flush > pair > high card; A-2-3 is the lowest straight.
* Teen Patti: three aces > three of a kind > straight flush > straight > flush > pair > high card;
  straights order A-K-Q > A-2-3 > K-Q-J > ... > 4-3-2.

>>> from sanh.cards import parse_cards
>>> tcp_rank(parse_cards("4d 3d 2d")) > tcp_rank(parse_cards("3c 2c Ac"))
True
>>> teen_patti_rank(parse_cards("Ah 2c 3d")) > teen_patti_rank(parse_cards("Kh Qc Jd"))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum

__all__ = [
    "TcpCategory",
    "TeenPattiCategory",
    "tcp_category",
    "tcp_rank",
    "teen_patti_category",
    "teen_patti_rank",
]


class TcpCategory(IntEnum):
    """Three Card Poker categories, weakest to strongest."""

    HIGH_CARD = 0
    PAIR = 1
    FLUSH = 2
    STRAIGHT = 3
    THREE_OF_A_KIND = 4
    STRAIGHT_FLUSH = 5
    MINI_ROYAL = 6


class TeenPattiCategory(IntEnum):
    """Teen Patti categories, weakest to strongest."""

    HIGH_CARD = 0
    PAIR = 1
    FLUSH = 2
    STRAIGHT = 3
    STRAIGHT_FLUSH = 4
    THREE_OF_A_KIND = 5
    THREE_ACES = 6


_SHIFT = 12


def _shape(cards: Sequence[int]) -> tuple[list[int], bool, int, int]:
    """Ranks high first, flush flag, straight top (-1 if none; A-2-3 gives 1), pair rank."""
    if len(cards) != 3:
        raise ValueError(f"a three-card hand needs 3 cards, got {len(cards)}")
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    flush = (cards[0] & 3) == (cards[1] & 3) == (cards[2] & 3)
    top = -1
    if ranks[0] != ranks[1] != ranks[2] != ranks[0]:
        if ranks[0] - ranks[2] == 2:
            top = ranks[0]
        elif ranks == [12, 1, 0]:
            top = 1  # A-2-3: its top card is the 3
    pair = ranks[1] if (ranks[0] == ranks[1] or ranks[1] == ranks[2]) else -1
    return ranks, flush, top, pair


def _pack(category: int, ranks: Sequence[int]) -> int:
    value = 0
    for r in ranks:
        value = (value << 4) | r
    return (category << _SHIFT) | (value << 4 * (3 - len(ranks)))


def tcp_rank(cards: Sequence[int]) -> int:
    """The Three Card Poker strength of three cards."""
    ranks, flush, top, pair = _shape(cards)
    if top >= 0 and flush:
        category = TcpCategory.MINI_ROYAL if top == 12 else TcpCategory.STRAIGHT_FLUSH
        return _pack(category, [top])
    if ranks[0] == ranks[2]:
        return _pack(TcpCategory.THREE_OF_A_KIND, [ranks[0]])
    if top >= 0:
        return _pack(TcpCategory.STRAIGHT, [top])
    if flush:
        return _pack(TcpCategory.FLUSH, ranks)
    if pair >= 0:
        kicker = ranks[2] if ranks[0] == ranks[1] else ranks[0]
        return _pack(TcpCategory.PAIR, [pair, kicker])
    return _pack(TcpCategory.HIGH_CARD, ranks)


def tcp_category(strength: int) -> TcpCategory:
    """The category of a :func:`tcp_rank` strength."""
    return TcpCategory(strength >> _SHIFT)


def teen_patti_rank(cards: Sequence[int]) -> int:
    """The Teen Patti strength of three cards."""
    ranks, flush, top, pair = _shape(cards)
    if ranks[0] == ranks[2]:
        category = (
            TeenPattiCategory.THREE_ACES if ranks[0] == 12 else TeenPattiCategory.THREE_OF_A_KIND
        )
        return _pack(category, [ranks[0]])
    if top >= 0:
        # A-K-Q > A-2-3 > K-Q-J > ... > 4-3-2: A-2-3 sits between A-K-Q (13) and K-Q-J (11).
        order = 13 if top == 12 else 12 if top == 1 else top
        category = TeenPattiCategory.STRAIGHT_FLUSH if flush else TeenPattiCategory.STRAIGHT
        return _pack(category, [order])
    if flush:
        return _pack(TeenPattiCategory.FLUSH, ranks)
    if pair >= 0:
        kicker = ranks[2] if ranks[0] == ranks[1] else ranks[0]
        return _pack(TeenPattiCategory.PAIR, [pair, kicker])
    return _pack(TeenPattiCategory.HIGH_CARD, ranks)


def teen_patti_category(strength: int) -> TeenPattiCategory:
    """The category of a :func:`teen_patti_rank` strength."""
    return TeenPattiCategory(strength >> _SHIFT)
