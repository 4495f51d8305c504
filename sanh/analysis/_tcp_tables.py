"""Shared tables of Three Card Poker analysis: every three-card hand, ranked once.

Built lazily and cached: the 22,100 three-card hands (sorted card triples, their
:func:`~sanh.eval.tcp_rank` strength, category, and whether a dealer holding them qualifies), and
a lookup over ordered card triples (``52 * 52 * 52`` entries) for the vectorised simulator.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

from sanh.eval import tcp_category, tcp_rank
from sanh.games.three_card_poker import dealer_qualifies

__all__ = ["ThreeCardTable", "three_card_table"]


@dataclass(frozen=True)
class ThreeCardTable:
    """Every three-card hand of a 52-card deck, with its strength."""

    cards: npt.NDArray[np.int64]
    """(22100, 3) card integers, ascending within a row, rows in combination order."""
    strength: npt.NDArray[np.int64]
    """The :func:`~sanh.eval.tcp_rank` strength of each hand."""
    dense: npt.NDArray[np.int32]
    """The strength as a dense order 0..K-1 (equal strengths share a number)."""
    category: npt.NDArray[np.int8]
    """The :class:`~sanh.eval.TcpCategory` of each hand."""
    qualifies: npt.NDArray[np.bool_]
    """Whether a dealer holding the hand qualifies (RULES.md §13.5)."""
    by_triple: npt.NDArray[np.int32]
    """``by_triple[a * 2704 + b * 52 + c]``: the row of hand {a, b, c} (any order), -1 if not
    three distinct cards."""


@cache
def three_card_table() -> ThreeCardTable:
    """The table (built once per process, about 0.1 s)."""
    triples = list(combinations(range(52), 3))
    cards = np.array(triples, dtype=np.int64)
    strength = np.array([tcp_rank(t) for t in triples], dtype=np.int64)
    category = np.array([int(tcp_category(s)) for s in strength.tolist()], dtype=np.int8)
    qualifies = np.array([dealer_qualifies(t) for t in triples], dtype=np.bool_)
    _, dense = np.unique(strength, return_inverse=True)
    by_triple = np.full(52 * 52 * 52, -1, dtype=np.int32)
    rows = np.arange(len(triples), dtype=np.int32)
    a, b, c = cards[:, 0], cards[:, 1], cards[:, 2]
    for x, y, z in ((a, b, c), (a, c, b), (b, a, c), (b, c, a), (c, a, b), (c, b, a)):
        by_triple[x * 2704 + y * 52 + z] = rows
    return ThreeCardTable(
        cards=cards,
        strength=strength,
        dense=dense.astype(np.int32),
        category=category,
        qualifies=qualifies,
        by_triple=by_triple,
    )
