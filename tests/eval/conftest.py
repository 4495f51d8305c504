"""Shared fixtures for the evaluator tests: every implementation, and every five-card hand."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

import numpy as np
import numpy.typing as npt
import pytest

from sanh.eval import poker, three_card
from sanh.eval._backend import SPEEDUPS
from sanh.eval.batch import (
    TCP,
    TEEN_PATTI,
    evaluate_batch,
    evaluate_batch_numpy,
    rank_three_batch_numpy,
    tcp_rank_batch,
    teen_patti_rank_batch,
)

Single = Callable[[Sequence[int]], int]
Batch = Callable[[npt.ArrayLike], npt.NDArray[np.int32]]

# Every implementation of each evaluator: the pure-Python path always, the C path when built.
POKER: dict[str, Single] = {"python": poker.evaluate_python}
POKER5: dict[str, Single] = {"python": poker.evaluate5_python}
TCP_SINGLE: dict[str, Single] = {"python": three_card.tcp_rank_python}
TEEN_PATTI_SINGLE: dict[str, Single] = {"python": three_card.teen_patti_rank_python}
POKER_BATCH: dict[str, Batch] = {"numpy": evaluate_batch_numpy}
TCP_BATCH: dict[str, Batch] = {"numpy": lambda cards: rank_three_batch_numpy(TCP, cards)}
TEEN_PATTI_BATCH: dict[str, Batch] = {
    "numpy": lambda cards: rank_three_batch_numpy(TEEN_PATTI, cards)
}


def _portable_batch(cards: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """The C batch through its portable loops (no popcnt), whatever the CPU has."""
    assert SPEEDUPS is not None
    previous = SPEEDUPS.set_fast_popcount(False)
    try:
        return evaluate_batch(cards)
    finally:
        SPEEDUPS.set_fast_popcount(previous)


if SPEEDUPS is not None:
    POKER_BATCH["c-portable"] = _portable_batch
    POKER["c"] = SPEEDUPS.evaluate
    POKER5["c"] = SPEEDUPS.evaluate5
    TCP_SINGLE["c"] = SPEEDUPS.tcp_rank
    TEEN_PATTI_SINGLE["c"] = SPEEDUPS.teen_patti_rank
    POKER_BATCH["c"] = evaluate_batch
    TCP_BATCH["c"] = tcp_rank_batch
    TEEN_PATTI_BATCH["c"] = teen_patti_rank_batch


@pytest.fixture(scope="session")
def all_five_card_hands() -> npt.NDArray[np.uint8]:
    """All 2,598,960 five-card hands, one a row (uint8 card indices)."""
    return np.fromiter(combinations(range(52), 5), dtype=np.dtype((np.uint8, 5)), count=2_598_960)


@pytest.fixture(scope="session")
def all_three_card_hands() -> npt.NDArray[np.uint8]:
    """All 22,100 three-card hands, one a row."""
    return np.array(list(combinations(range(52), 3)), dtype=np.uint8)


def random_hands(rows: int, width: int, seed: int) -> npt.NDArray[np.int64]:
    """``rows`` random hands of ``width`` distinct cards (a seeded NumPy generator)."""
    generator = np.random.default_rng(seed)
    return np.argsort(generator.random((rows, 52)), axis=1)[:, :width]
