"""Hand evaluators. Every evaluator returns an integer: higher is stronger, equal is a tie."""

from __future__ import annotations

from sanh.eval.poker import HandCategory, category_of, evaluate, evaluate5
from sanh.eval.three_card import (
    TcpCategory,
    TeenPattiCategory,
    tcp_category,
    tcp_rank,
    teen_patti_category,
    teen_patti_rank,
)

__all__ = [
    "HandCategory",
    "TcpCategory",
    "TeenPattiCategory",
    "category_of",
    "evaluate",
    "evaluate5",
    "tcp_category",
    "tcp_rank",
    "teen_patti_category",
    "teen_patti_rank",
]
