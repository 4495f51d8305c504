"""Batch evaluation with NumPy: many hands per call, for analysis and simulation.

Each function takes an integer array of shape ``(N, k)`` (one hand a row, card indices
``rank * 4 + suit``) and returns an ``int32`` array of N strengths, equal to what the single-hand
evaluator returns for each row (the tests check this on random hands):

* :func:`evaluate_batch`: best five of k = 5, 6 or 7 cards, as :func:`sanh.eval.evaluate`;
* :func:`tcp_rank_batch`: three cards, as :func:`sanh.eval.tcp_rank`;
* :func:`teen_patti_rank_batch`: three cards, as :func:`sanh.eval.teen_patti_rank`.

Any integer dtype works without a copy when the array is C-contiguous; 1- and 2-byte dtypes
(``uint8``, ``int16``...) are the fastest. A row with a card outside 0..51 or a repeated card
raises ValueError naming the first such row. The C speedups run the loop when they are built;
otherwise the same tables are applied with NumPy.

Threads: the C loop of :func:`evaluate_batch` splits a batch of at least
``2 * MIN_ROWS_PER_THREAD`` rows across worker threads (the GIL is released), one for every
``MIN_ROWS_PER_THREAD`` rows up to a limit: the ``threads`` argument, else the environment
variable ``SANH_EVAL_THREADS`` (read at import), else the CPUs this process may run on.
``threads=1`` keeps the whole batch in the calling thread. The results do not depend on it;
:func:`batch_threads` says how many threads a batch would use.

>>> import numpy as np
>>> from sanh.cards import parse_cards
>>> hands = np.array([parse_cards("As Ks Qs Js Ts 2c 3d"), parse_cards("2c 3d 4h 5s 7c 8d 9h")])
>>> evaluate_batch(hands).tolist()
[7461, 48]
>>> tcp_rank_batch(np.array([parse_cards("As Ks Qs")])).tolist()
[740]
"""

from __future__ import annotations

from array import array
from functools import cache
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from sanh.eval._backend import SPEEDUPS
from sanh.eval.poker import pure_tables
from sanh.eval.three_card import SUITED_OFFSET, TCP_TABLE, TEEN_PATTI_TABLE
from sanh.hostinfo import eval_threads

__all__ = [
    "DEFAULT_THREADS",
    "MIN_ROWS_PER_THREAD",
    "Strengths",
    "batch_threads",
    "evaluate_batch",
    "evaluate_batch_numpy",
    "rank_three_batch_numpy",
    "tcp_rank_batch",
    "teen_patti_rank_batch",
]

Strengths: TypeAlias = npt.NDArray[np.int32]
"""An array of strengths, one per hand."""

TCP, TEEN_PATTI = 0, 1
"""The kinds of :func:`rank_three_batch_numpy`."""
_POW5 = np.array([5**rank for rank in range(13)], dtype=np.int64)
_CARD_NAMES = [r + s for r in "23456789TJQKA" for s in "cdhs"]


MIN_ROWS_PER_THREAD = 32_768
"""Rows each thread of a threaded batch gets at least. Waking a worker costs some tens of
microseconds on a VM (starting one, after 0.2 s idle, up to 60), what the C loop spends on
10,000 to 20,000 rows, and a worker that finds every CPU busy only shares the caller's: on the
2-core development VM two threads gained from about 32,768 rows on a quiet machine and lost
nothing at 65,536 on a busy one (BENCHMARKS.md)."""


DEFAULT_THREADS = eval_threads()
"""The thread limit of :func:`evaluate_batch` when it is not given: ``SANH_EVAL_THREADS``, else
the CPUs this process may run on."""


def batch_threads(rows: int, threads: int | None = None) -> int:
    """How many threads :func:`evaluate_batch` uses for ``rows`` rows with this ``threads``.

    One per :data:`MIN_ROWS_PER_THREAD` rows, at most ``threads`` (default
    :data:`DEFAULT_THREADS`); always 1 without the C speedups or where they have no threads.

    :raises ValueError: if ``threads`` is below 1.
    """
    limit = DEFAULT_THREADS if threads is None else threads
    if limit < 1:
        raise ValueError(f"threads must be at least 1, got {limit}")
    if SPEEDUPS is None:
        return 1
    most: int = SPEEDUPS.max_threads()
    return max(1, min(limit, most, rows // MIN_ROWS_PER_THREAD))


def evaluate_batch(cards: npt.ArrayLike, *, threads: int | None = None) -> Strengths:
    """The poker strength of each row of ``cards`` (shape ``(N, k)``, k = 5, 6 or 7).

    ``threads`` limits the threads a big batch is split across (see :func:`batch_threads`);
    the results are the same for any value.

    :raises ValueError: on a wrong shape or dtype, a row with a bad or repeated card (the first
        such row is named), or ``threads`` below 1.
    """
    if SPEEDUPS is None:
        batch_threads(0, threads)  # the same check of the argument
        return evaluate_batch_numpy(cards)
    hands = _card_array(cards, (5, 6, 7))
    rows, width = hands.shape
    used = batch_threads(rows, threads)
    out = np.empty(rows, dtype=np.int32)
    _check(hands, SPEEDUPS.evaluate_batch(width, hands, rows, hands.itemsize, out, used))
    return out


def tcp_rank_batch(cards: npt.ArrayLike) -> Strengths:
    """The Three Card Poker strength of each row of ``cards`` (shape ``(N, 3)``).

    :raises ValueError: on a wrong shape or dtype, or a row with a bad or repeated card.
    """
    return _rank_three(TCP, cards)


def teen_patti_rank_batch(cards: npt.ArrayLike) -> Strengths:
    """The Teen Patti strength of each row of ``cards`` (shape ``(N, 3)``).

    :raises ValueError: on a wrong shape or dtype, or a row with a bad or repeated card.
    """
    return _rank_three(TEEN_PATTI, cards)


def _rank_three(kind: int, cards: npt.ArrayLike) -> Strengths:
    if SPEEDUPS is None:
        return rank_three_batch_numpy(kind, cards)
    hands = _card_array(cards, (3,))
    rows = hands.shape[0]
    out = np.empty(rows, dtype=np.int32)
    _check(hands, SPEEDUPS.rank_three_batch(kind, hands, rows, hands.itemsize, out))
    return out


def _card_array(cards: npt.ArrayLike, widths: tuple[int, ...]) -> npt.NDArray[np.integer]:
    hands = np.asarray(cards)
    if hands.ndim != 2 or hands.shape[1] not in widths:
        wanted = " or ".join(str(w) for w in widths)
        raise ValueError(f"expected an array of shape (N, {wanted}), got shape {hands.shape}")
    if hands.dtype == np.bool_ or not np.issubdtype(hands.dtype, np.integer):
        if hands.size == 0:
            hands = hands.astype(np.uint8)
        else:
            raise ValueError(f"card arrays must hold integers, got dtype {hands.dtype}")
    return np.ascontiguousarray(hands, dtype=hands.dtype.newbyteorder("="))


def _check(hands: npt.NDArray[np.integer], bad: tuple[int, bool] | None) -> None:
    if bad is not None:
        raise _bad_row(hands, *bad)


def _bad_row(hands: npt.NDArray[np.integer], row: int, duplicate: bool) -> ValueError:
    values = [int(v) for v in hands[row]]
    if duplicate:
        card = next(v for i, v in enumerate(values) if v in values[:i])
        return ValueError(f"row {row}: duplicate card {_CARD_NAMES[card]} in {values}")
    card = next(v for v in values if not 0 <= v < 52)
    return ValueError(f"row {row}: card index out of range: {card} in {values}")


def _validate_numpy(hands: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """Check every row as the C loop does; return the cards as int64."""
    wide = hands.astype(np.int64)
    out_of_range = np.asarray(((wide < 0) | (wide >= 52)).any(axis=1), dtype=np.bool_)
    ordered = np.sort(wide, axis=1)
    repeated = np.asarray((ordered[:, 1:] == ordered[:, :-1]).any(axis=1), dtype=np.bool_)
    bad = np.flatnonzero(out_of_range | repeated)
    if bad.size:
        row = int(bad[0])
        raise _bad_row(hands, row, not bool(out_of_range[row]))
    return wide


@cache
def _numpy_poker_tables() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32], Strengths]:
    unsuited, flush = pure_tables()
    keys = np.array(sorted(unsuited), dtype=np.int64)
    values = np.array([unsuited[int(k)] for k in keys], dtype=np.int32)
    return keys, values, np.array(flush, dtype=np.int32)


def evaluate_batch_numpy(cards: npt.ArrayLike) -> Strengths:
    """The NumPy path of :func:`evaluate_batch` (used when the C speedups are not built)."""
    wide = _validate_numpy(_card_array(cards, (5, 6, 7)))
    keys, values, flush_table = _numpy_poker_tables()
    ranks = wide >> 2
    suits = wide & 3
    count_keys = _POW5[ranks].sum(axis=1)
    suit_counts = np.stack([(suits == suit).sum(axis=1) for suit in range(4)], axis=1)
    flush_suit = suit_counts.argmax(axis=1)
    is_flush = suit_counts.max(axis=1) >= 5
    masks = np.where(suits == flush_suit[:, None], 1 << ranks, 0).sum(axis=1)
    unsuited = values[np.searchsorted(keys, count_keys)]
    strengths: Strengths = np.where(is_flush, flush_table[masks], unsuited).astype(np.int32)
    return strengths


@cache
def _numpy_three_table(kind: int) -> Strengths:
    table: array[int] = TCP_TABLE if kind == TCP else TEEN_PATTI_TABLE
    return np.array(table, dtype=np.int32)


def rank_three_batch_numpy(kind: int, cards: npt.ArrayLike) -> Strengths:
    """The NumPy path of the three-card batches (kind 0: Three Card Poker, 1: Teen Patti)."""
    wide = _validate_numpy(_card_array(cards, (3,)))
    ranks = wide >> 2
    suits = wide & 3
    index = ranks[:, 0] * 169 + ranks[:, 1] * 13 + ranks[:, 2]
    suited = (suits[:, 0] == suits[:, 1]) & (suits[:, 1] == suits[:, 2])
    strengths: Strengths = _numpy_three_table(kind)[index + SUITED_OFFSET * suited]
    return strengths
