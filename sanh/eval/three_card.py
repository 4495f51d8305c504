"""Three-card rankings: Three Card Poker (RULES.md §13.4) and Teen Patti (§14.4).

Both return an integer strength (higher is stronger, equal ties; suits never count): the index of
the hand's class in :data:`sanh.eval.lookup.TCP_LOOKUP` or :data:`TEEN_PATTI_LOOKUP`, 0 to 740.

* Three Card Poker: mini royal (A-K-Q suited) > straight flush > three of a kind > straight >
  flush > pair > high card; A-2-3 is the lowest straight.
* Teen Patti: three aces > three of a kind > straight flush > straight > flush > pair > high card;
  straights order A-K-Q > A-2-3 > K-Q-J > ... > 4-3-2.

A hand is looked up in a dense table of 2 x 13**3 entries indexed by its three ranks (in the
order given) and whether it is suited; the C speedups use the same table.

>>> from sanh.cards import parse_cards
>>> tcp_rank(parse_cards("4d 3d 2d")) > tcp_rank(parse_cards("3c 2c Ac"))
True
>>> teen_patti_rank(parse_cards("Ah 2c 3d")) > teen_patti_rank(parse_cards("Kh Qc Jd"))
True
>>> tcp_category(tcp_rank(parse_cards("As Ks Qs"))).name
'MINI_ROYAL'
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from enum import IntEnum
from itertools import permutations
from typing import TypeVar

from sanh.eval._backend import SPEEDUPS
from sanh.eval.lookup import (
    TCP_LOOKUP,
    TEEN_PATTI_LOOKUP,
    Lookup,
    TcpCategory,
    TeenPattiCategory,
)
from sanh.eval.poker import EMPTY, check_cards

__all__ = [
    "TcpCategory",
    "TeenPattiCategory",
    "tcp_category",
    "tcp_rank",
    "teen_patti_category",
    "teen_patti_rank",
]

C = TypeVar("C", bound=IntEnum)

SUITED_OFFSET = 13**3
"""Where the suited half of a dense three-card table starts."""


def dense_table(lookup: Lookup[C]) -> array[int]:
    """A three-card lookup as a dense uint16 table.

    Entry ``r0 * 169 + r1 * 13 + r2`` (+ :data:`SUITED_OFFSET` when the three cards share a suit)
    is the strength of ranks ``r0, r1, r2`` in any order; :data:`EMPTY` where no hand exists
    (suited cards of equal rank).
    """
    table = array("H", [EMPTY]) * (2 * SUITED_OFFSET)
    for index, (pattern, suited) in enumerate(lookup.patterns):
        offset = SUITED_OFFSET if suited else 0
        for r0, r1, r2 in set(permutations(pattern)):
            table[offset + r0 * 169 + r1 * 13 + r2] = index
    return table


TCP_TABLE = dense_table(TCP_LOOKUP)
"""The dense Three Card Poker table (see :func:`dense_table`)."""

TEEN_PATTI_TABLE = dense_table(TEEN_PATTI_LOOKUP)
"""The dense Teen Patti table (see :func:`dense_table`)."""


def _rank_python(table: array[int], cards: Sequence[int]) -> int:
    a, b, c = check_cards(cards, 3, 3, "a three-card hand")
    index = (a >> 2) * 169 + (b >> 2) * 13 + (c >> 2)
    if a & 3 == b & 3 == c & 3:
        index += SUITED_OFFSET
    return table[index]


def tcp_rank_python(cards: Sequence[int]) -> int:
    """The pure-Python :func:`tcp_rank`."""
    return _rank_python(TCP_TABLE, cards)


def teen_patti_rank_python(cards: Sequence[int]) -> int:
    """The pure-Python :func:`teen_patti_rank`."""
    return _rank_python(TEEN_PATTI_TABLE, cards)


tcp_rank: Callable[[Sequence[int]], int]
"""The Three Card Poker strength of three cards.

:raises ValueError: unless given three distinct card indices.
"""

teen_patti_rank: Callable[[Sequence[int]], int]
"""The Teen Patti strength of three cards.

:raises ValueError: unless given three distinct card indices.
"""

if SPEEDUPS is not None:
    SPEEDUPS.init_three(0, TCP_TABLE.tobytes())
    SPEEDUPS.init_three(1, TEEN_PATTI_TABLE.tobytes())
    tcp_rank = SPEEDUPS.tcp_rank
    teen_patti_rank = SPEEDUPS.teen_patti_rank
else:  # pragma: no cover - exercised when the C speedups are not built
    tcp_rank = tcp_rank_python
    teen_patti_rank = teen_patti_rank_python

_TCP_CATEGORIES = TCP_LOOKUP.categories
_TEEN_PATTI_CATEGORIES = TEEN_PATTI_LOOKUP.categories


def tcp_category(strength: int) -> TcpCategory:
    """The category of a :func:`tcp_rank` strength.

    :raises ValueError: if ``strength`` is not a Three Card Poker strength.
    """
    if 0 <= strength < len(_TCP_CATEGORIES):
        return _TCP_CATEGORIES[strength]
    raise ValueError(f"not a three-card-poker strength: {strength!r}")


def teen_patti_category(strength: int) -> TeenPattiCategory:
    """The category of a :func:`teen_patti_rank` strength.

    :raises ValueError: if ``strength`` is not a Teen Patti strength.
    """
    if 0 <= strength < len(_TEEN_PATTI_CATEGORIES):
        return _TEEN_PATTI_CATEGORIES[strength]
    raise ValueError(f"not a teen-patti strength: {strength!r}")
