"""Hand evaluators. Every evaluator returns an integer: higher is stronger, equal is a tie.

* :func:`evaluate` (best five of 5 to 7 cards), :func:`evaluate5`, :func:`category_of`:
  high poker, RULES.md §3.1; strengths 0..7,461.
* :func:`tcp_rank`, :func:`tcp_category`: Three Card Poker, RULES.md §13.4; strengths 0..740.
* :func:`teen_patti_rank`, :func:`teen_patti_category`: Teen Patti, RULES.md §14.4; 0..740.
* :func:`evaluate_batch`, :func:`tcp_rank_batch`, :func:`teen_patti_rank_batch`: the same on
  NumPy arrays of hands (:mod:`sanh.eval.batch`, imported on first use so that the engines never
  load NumPy); a big :func:`evaluate_batch` runs on several threads (``SANH_EVAL_THREADS``).

The order of hands is declared as data in :mod:`sanh.eval.lookup`; the C speedups
(``sanh/eval/_speedups.c``, built by ``make install``) run the look-ups when they are built, and a
pure-Python path gives the same results otherwise (:data:`BACKEND` says which).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sanh.eval._backend import BACKEND
from sanh.eval.poker import HandCategory, category_of, evaluate, evaluate5
from sanh.eval.three_card import (
    TcpCategory,
    TeenPattiCategory,
    tcp_category,
    tcp_rank,
    teen_patti_category,
    teen_patti_rank,
)

if TYPE_CHECKING:
    from sanh.eval.batch import evaluate_batch, tcp_rank_batch, teen_patti_rank_batch

__all__ = [
    "BACKEND",
    "HandCategory",
    "TcpCategory",
    "TeenPattiCategory",
    "category_of",
    "evaluate",
    "evaluate5",
    "evaluate_batch",
    "tcp_category",
    "tcp_rank",
    "tcp_rank_batch",
    "teen_patti_category",
    "teen_patti_rank",
    "teen_patti_rank_batch",
]

_BATCH = {"evaluate_batch", "tcp_rank_batch", "teen_patti_rank_batch"}


def __getattr__(name: str) -> Any:
    if name in _BATCH:
        from sanh.eval import batch

        return getattr(batch, name)
    raise AttributeError(f"module 'sanh.eval' has no attribute {name!r}")
