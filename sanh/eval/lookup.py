"""Hand-strength tables, built as data (the uoftcprg/pokerkit ``lookups.py`` way).

A :class:`Lookup` is declared as a list of rows, weakest to strongest: each row is a category, the
rank patterns that belong to it (weakest first) and whether the cards are all of one suit. The
builder walks the rows in order and gives every pattern the next index, so a hand's strength is
simply its index: higher is stronger, equal is a tie, and the category of an index is a table
look-up. Suits never break ties, so the key of a hand is its rank multiset (a base-5 count key,
``sum(5 ** rank)``) plus a suited flag.

Three tables are declared here:

* :data:`POKER_LOOKUP`: the 7,462 classes of five-card high poker (RULES.md §3.1);
* :data:`TCP_LOOKUP`: the 741 classes of Three Card Poker (RULES.md §13.4);
* :data:`TEEN_PATTI_LOOKUP`: the 741 classes of Teen Patti (RULES.md §14.4).

The fast evaluators (:mod:`sanh.eval.poker`, :mod:`sanh.eval.three_card`, and the C speedups when
they are built) derive every other table from these, so these rows are the single source of truth
for the order of hands.

>>> entry = POKER_LOOKUP.get_entry((12, 11, 10, 9, 8), suited=True)
>>> entry.index == len(POKER_LOOKUP) - 1, entry.category.name
(True, 'ROYAL_FLUSH')
>>> TCP_LOOKUP.get_entry((12, 1, 0), suited=False).category.name
'STRAIGHT'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import combinations, product
from typing import Generic, TypeVar

__all__ = [
    "POKER_LOOKUP",
    "TCP_LOOKUP",
    "TEEN_PATTI_LOOKUP",
    "Entry",
    "HandCategory",
    "Lookup",
    "Row",
    "TcpCategory",
    "TeenPattiCategory",
    "multisets",
    "rank_key",
]

C = TypeVar("C", bound=IntEnum)

ACE = 12
"""The index of the ace among the ranks 2..A = 0..12."""

_POW5 = tuple(5**rank for rank in range(13))


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


def rank_key(ranks: Iterable[int]) -> int:
    """The base-5 count key of a rank multiset: ``sum(5 ** rank)``.

    Each rank's count (at most 4) is one base-5 digit, so the key names the multiset exactly, and
    the key of a hand is the sum of its cards' keys.

    >>> rank_key((0, 0, 1)) == 2 + 5
    True
    """
    return sum(_POW5[rank] for rank in ranks)


def multisets(
    counts: Sequence[int], *, exclude: Iterable[Sequence[int]] = ()
) -> list[tuple[int, ...]]:
    """Every rank pattern with these group sizes, weakest first.

    ``counts`` lists the group sizes, largest first (``(2, 2, 1)`` is two pair). A pattern is the
    tuple of its ranks in order of significance: the bigger groups first, and within groups of one
    size the higher rank first; each rank repeated by its group size. Patterns compare as tuples,
    which is exactly how such hands compare. Rank sets in ``exclude`` (straights) are left out.

    >>> multisets((3, 2))[:2]
    [(0, 0, 0, 1, 1), (0, 0, 0, 2, 2)]
    """
    if list(counts) != sorted(counts, reverse=True):
        raise ValueError(f"group sizes must be largest first: {counts!r}")
    banned = {frozenset(ranks) for ranks in exclude}
    sizes = sorted(set(counts), reverse=True)
    choices = [
        [
            (frozenset(chosen), tuple(rank for rank in chosen for _ in range(size)))
            for chosen in combinations(range(ACE, -1, -1), counts.count(size))
        ]
        for size in sizes
    ]
    patterns: list[tuple[int, ...]] = []
    for picks in product(*choices):
        used = frozenset().union(*(ranks for ranks, _ in picks))
        if len(used) == len(counts) and used not in banned:
            patterns.append(tuple(rank for _, pattern in picks for rank in pattern))
    patterns.sort()
    return patterns


def straights(length: int) -> list[tuple[int, ...]]:
    """The straights of ``length`` cards in poker order, weakest first, A low first.

    A plays high (A-K-Q...) or low (...3-2-A, the lowest); straights never wrap around.

    >>> straights(3)[0], straights(3)[-1]
    ((1, 0, 12), (12, 11, 10))
    """
    low = (*range(length - 2, -1, -1), ACE)
    runs = [tuple(range(top, top - length, -1)) for top in range(length - 1, ACE + 1)]
    return [low, *runs]


@dataclass(frozen=True, slots=True)
class Entry(Generic[C]):
    """One strength class of a :class:`Lookup`."""

    index: int
    """The strength: the class's position in the table, 0 for the weakest."""
    category: C
    """The category the class belongs to."""


@dataclass(frozen=True, slots=True)
class Row(Generic[C]):
    """One row of a lookup declaration: a category's patterns, weakest first."""

    category: C
    """The category of every pattern in the row."""
    patterns: tuple[tuple[int, ...], ...]
    """Rank patterns, weakest first (each is the hand's ranks)."""
    suited: bool
    """True if the cards are all of one suit (flushes), False otherwise."""


class Lookup(Generic[C]):
    """A strength table: every class of hand, weakest (index 0) to strongest.

    :param name: a label for messages.
    :param rows: the declaration, weakest row first.
    """

    def __init__(self, name: str, rows: Sequence[Row[C]]) -> None:
        self.name = name
        """A label for messages."""
        self._indices: dict[tuple[int, bool], int] = {}
        categories: list[C] = []
        pow5 = _POW5
        for row in rows:
            category = row.category
            for pattern in row.patterns:
                key = (sum([pow5[rank] for rank in pattern]), row.suited)
                if key in self._indices:
                    raise ValueError(f"{name}: pattern {pattern} declared twice")
                self._indices[key] = len(categories)
                categories.append(category)
        self.categories: tuple[C, ...] = tuple(categories)
        """The category of every index."""
        self.rows: tuple[Row[C], ...] = tuple(rows)
        """The declaration this table was built from."""
        self.patterns: tuple[tuple[tuple[int, ...], bool], ...] = tuple(
            (pattern, row.suited) for row in rows for pattern in row.patterns
        )
        """The rank pattern and suitedness of every index, weakest first."""

    def __len__(self) -> int:
        return len(self.categories)

    def get_entry_or_none(self, ranks: Iterable[int], *, suited: bool) -> Entry[C] | None:
        """The entry of a hand with these ranks (any order), or None if there is none."""
        index = self._indices.get((rank_key(ranks), suited))
        return None if index is None else Entry(index, self.categories[index])

    def get_entry(self, ranks: Iterable[int], *, suited: bool) -> Entry[C]:
        """The entry of a hand with these ranks (any order).

        :raises ValueError: if no hand has these ranks and suitedness.
        """
        ranks = tuple(ranks)
        entry = self.get_entry_or_none(ranks, suited=suited)
        if entry is None:
            raise ValueError(f"{self.name}: no hand has ranks {ranks} (suited={suited})")
        return entry

    def entries(self) -> list[Entry[C]]:
        """Every entry, weakest first."""
        return [Entry(index, category) for index, category in enumerate(self.categories)]

    def category_of(self, strength: int) -> C:
        """The category of an index.

        :raises ValueError: if ``strength`` is not an index of this table.
        """
        if not 0 <= strength < len(self.categories):
            raise ValueError(f"{self.name}: not a strength: {strength!r}")
        return self.categories[strength]


def _poker_rows() -> list[Row[HandCategory]]:
    runs = straights(5)
    single = multisets((1, 1, 1, 1, 1), exclude=runs)
    H = HandCategory
    return [
        Row(H.HIGH_CARD, tuple(single), suited=False),
        Row(H.ONE_PAIR, tuple(multisets((2, 1, 1, 1))), suited=False),
        Row(H.TWO_PAIR, tuple(multisets((2, 2, 1))), suited=False),
        Row(H.THREE_OF_A_KIND, tuple(multisets((3, 1, 1))), suited=False),
        Row(H.STRAIGHT, tuple(runs), suited=False),
        Row(H.FLUSH, tuple(single), suited=True),
        Row(H.FULL_HOUSE, tuple(multisets((3, 2))), suited=False),
        Row(H.FOUR_OF_A_KIND, tuple(multisets((4, 1))), suited=False),
        Row(H.STRAIGHT_FLUSH, tuple(runs[:-1]), suited=True),
        Row(H.ROYAL_FLUSH, tuple(runs[-1:]), suited=True),
    ]


def _three_card_rows_tcp() -> list[Row[TcpCategory]]:
    runs = straights(3)
    single = multisets((1, 1, 1), exclude=runs)
    T = TcpCategory
    return [
        Row(T.HIGH_CARD, tuple(single), suited=False),
        Row(T.PAIR, tuple(multisets((2, 1))), suited=False),
        Row(T.FLUSH, tuple(single), suited=True),
        Row(T.STRAIGHT, tuple(runs), suited=False),
        Row(T.THREE_OF_A_KIND, tuple(multisets((3,))), suited=False),
        Row(T.STRAIGHT_FLUSH, tuple(runs[:-1]), suited=True),
        Row(T.MINI_ROYAL, tuple(runs[-1:]), suited=True),
    ]


def teen_patti_straights() -> list[tuple[int, ...]]:
    """Teen Patti straights weakest first: 4-3-2 < ... < K-Q-J < A-2-3 < A-K-Q (RULES.md §14.4)."""
    runs = straights(3)
    low, middle, top = runs[0], runs[1:-1], runs[-1]
    return [*middle, low, top]


def _three_card_rows_teen_patti() -> list[Row[TeenPattiCategory]]:
    runs = teen_patti_straights()
    single = multisets((1, 1, 1), exclude=runs)
    trips = multisets((3,))
    T = TeenPattiCategory
    return [
        Row(T.HIGH_CARD, tuple(single), suited=False),
        Row(T.PAIR, tuple(multisets((2, 1))), suited=False),
        Row(T.FLUSH, tuple(single), suited=True),
        Row(T.STRAIGHT, tuple(runs), suited=False),
        Row(T.STRAIGHT_FLUSH, tuple(runs), suited=True),
        Row(T.THREE_OF_A_KIND, tuple(trips[:-1]), suited=False),
        Row(T.THREE_ACES, tuple(trips[-1:]), suited=False),
    ]


POKER_LOOKUP: Lookup[HandCategory] = Lookup("poker", _poker_rows())
"""Five-card high poker, RULES.md §3.1: 7,462 classes."""

TCP_LOOKUP: Lookup[TcpCategory] = Lookup("three-card-poker", _three_card_rows_tcp())
"""Three Card Poker, RULES.md §13.4: 741 classes."""

TEEN_PATTI_LOOKUP: Lookup[TeenPattiCategory] = Lookup("teen-patti", _three_card_rows_teen_patti())
"""Teen Patti, RULES.md §14.4: 741 classes."""
