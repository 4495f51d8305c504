"""The threaded C batch loop: same results as the single calls, whatever the thread count."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading

import numpy as np
import numpy.typing as npt
import pytest

from sanh.eval import evaluate
from sanh.eval._backend import SPEEDUPS
from sanh.eval.batch import (
    DEFAULT_THREADS,
    MIN_ROWS_PER_THREAD,
    batch_threads,
    evaluate_batch,
    evaluate_batch_numpy,
)
from tests.eval.conftest import random_hands

needs_c = pytest.mark.skipif(SPEEDUPS is None, reason="the C speedups are not built")

BIG = 4 * MIN_ROWS_PER_THREAD + 1_234
"""Rows enough for four threads, and not a multiple of any block size."""

DTYPES = [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


@pytest.fixture(scope="module")
def big_hands() -> npt.NDArray[np.uint8]:
    return random_hands(BIG, 7, seed=77).astype(np.uint8)


@pytest.fixture(scope="module")
def big_expected(big_hands: npt.NDArray[np.uint8]) -> list[int]:
    return [evaluate(hand) for hand in big_hands.tolist()]


def c_batch(hands: npt.NDArray[np.integer], threads: int) -> tuple[list[int], object]:
    """The C entry point itself, on exactly ``threads`` threads (no row threshold)."""
    assert SPEEDUPS is not None
    hands = np.ascontiguousarray(hands)
    out = np.full(len(hands), -1, dtype=np.int32)
    bad = SPEEDUPS.evaluate_batch(hands.shape[1], hands, len(hands), hands.itemsize, out, threads)
    return out.tolist(), bad


def test_batch_threads_follows_the_rows_and_the_limit() -> None:
    assert batch_threads(0, 4) == 1
    assert batch_threads(2 * MIN_ROWS_PER_THREAD - 1, 4) == 1
    assert batch_threads(BIG, 1) == 1
    assert DEFAULT_THREADS >= 1
    assert batch_threads(BIG) == batch_threads(BIG, DEFAULT_THREADS)
    for bad in (0, -2):
        with pytest.raises(ValueError, match="threads must be at least 1"):
            batch_threads(10, bad)
        with pytest.raises(ValueError, match="threads must be at least 1"):
            evaluate_batch(np.zeros((0, 7), dtype=np.uint8), threads=bad)
    if SPEEDUPS is None or SPEEDUPS.max_threads() == 1:
        assert batch_threads(BIG, 4) == 1  # no threads: every batch in the calling thread
    else:
        assert batch_threads(2 * MIN_ROWS_PER_THREAD, 4) == 2
        assert batch_threads(BIG, 4) == 4
        assert batch_threads(BIG, 64) == 4


@needs_c
@pytest.mark.parametrize("threads", [1, 2, 3, 4, 64])
def test_big_batch_equals_single_calls(
    big_hands: npt.NDArray[np.uint8], big_expected: list[int], threads: int
) -> None:
    assert evaluate_batch(big_hands, threads=threads).tolist() == big_expected


@needs_c
def test_big_batch_equals_the_numpy_path(big_hands: npt.NDArray[np.uint8]) -> None:
    assert evaluate_batch(big_hands, threads=4).tolist() == evaluate_batch_numpy(big_hands).tolist()


@needs_c
@pytest.mark.parametrize("width", [5, 6])
def test_big_batch_of_five_and_six_cards(big_hands: npt.NDArray[np.uint8], width: int) -> None:
    hands = np.ascontiguousarray(big_hands[:, :width])
    expected = [evaluate(hand) for hand in hands.tolist()]
    assert evaluate_batch(hands, threads=4).tolist() == expected


@needs_c
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_big_batch_in_any_integer_dtype(
    big_hands: npt.NDArray[np.uint8], big_expected: list[int], dtype: type[np.integer]
) -> None:
    assert evaluate_batch(big_hands.astype(dtype), threads=4).tolist() == big_expected


@needs_c
def test_big_batch_non_contiguous_and_swapped(
    big_hands: npt.NDArray[np.uint8], big_expected: list[int]
) -> None:
    wide = np.concatenate([big_hands, big_hands], axis=1).astype(np.int16)
    assert evaluate_batch(wide[:, :7], threads=4).tolist() == big_expected  # a strided view
    assert evaluate_batch(np.asfortranarray(big_hands), threads=4).tolist() == big_expected
    swapped = big_hands.astype(np.int32).byteswap().view(np.dtype(np.int32).newbyteorder())
    assert evaluate_batch(swapped, threads=4).tolist() == big_expected
    reversed_rows = big_hands[::-1]
    assert evaluate_batch(reversed_rows, threads=4).tolist() == big_expected[::-1]


@needs_c
@pytest.mark.parametrize("rows", [1, 2, 63, 64, 65, 1_000, 5_003])
@pytest.mark.parametrize("threads", [2, 3, 7, 64])
def test_any_thread_count_on_small_batches(rows: int, threads: int) -> None:
    """The C loop on exactly this many threads, however few rows each gets."""
    hands = random_hands(rows, 7, seed=rows)
    for dtype in (np.uint8, np.int64):
        assert c_batch(hands.astype(dtype), threads) == c_batch(hands.astype(dtype), 1)
    assert c_batch(hands, threads)[0] == [evaluate(hand) for hand in hands.tolist()]


def with_bad_rows(
    hands: npt.NDArray[np.integer], bad: dict[int, list[int]], dtype: type[np.integer]
) -> npt.NDArray[np.integer]:
    spoiled = hands.astype(dtype)
    for row, cards in bad.items():
        spoiled[row] = np.array(cards).astype(dtype)
    return spoiled


DUPLICATE = [0, 1, 4, 4, 5, 6, 7]
OUT_OF_RANGE = [0, 1, 2, 3, 4, 5, 52]
NEGATIVE = [-1, 1, 2, 3, 4, 5, 6]
HUGE = [0, 1, 2, 3, 4, 5, 300]


@needs_c
@pytest.mark.parametrize(
    ("bad", "first", "message"),
    [
        ({0: DUPLICATE}, 0, "duplicate card 3c"),
        ({BIG - 1: OUT_OF_RANGE}, BIG - 1, "card index out of range: 52"),
        ({BIG // 2: DUPLICATE, BIG - 1: OUT_OF_RANGE}, BIG // 2, "duplicate card 3c"),
        ({BIG - 5: DUPLICATE, 70_001: HUGE, 100: OUT_OF_RANGE}, 100, "out of range: 52"),
        ({MIN_ROWS_PER_THREAD + 7: NEGATIVE, BIG - 2: DUPLICATE}, MIN_ROWS_PER_THREAD + 7, "-1"),
        ({row: DUPLICATE for row in range(3_000, BIG, 997)}, 3_000, "duplicate card 3c"),
    ],
    ids=["first", "last", "two", "three-unordered", "negative", "many"],
)
@pytest.mark.parametrize("dtype", [np.int16, np.int64], ids=lambda d: np.dtype(d).name)
def test_the_first_bad_row_is_reported(
    big_hands: npt.NDArray[np.uint8],
    bad: dict[int, list[int]],
    first: int,
    message: str,
    dtype: type[np.integer],
) -> None:
    spoiled = with_bad_rows(big_hands, bad, dtype)
    for threads in (1, 2, 4, 64):
        with pytest.raises(ValueError, match=rf"^row {first}: .*{message}"):
            evaluate_batch(spoiled, threads=threads)
        assert c_batch(spoiled, threads)[1] == (first, bad[first] == DUPLICATE)


@needs_c
def test_a_bad_row_in_every_block_position() -> None:
    """Small batches on many threads: the lowest of several bad rows, wherever it falls."""
    hands = random_hands(2_000, 7, seed=9).astype(np.uint8)
    generator = np.random.default_rng(10)
    for _ in range(40):
        rows = sorted(set(generator.integers(0, len(hands), size=int(generator.integers(1, 5)))))
        spoiled = with_bad_rows(hands, {int(r): OUT_OF_RANGE for r in rows}, np.uint8)
        for threads in (1, 3, 8):
            assert c_batch(spoiled, threads)[1] == (rows[0], False)


@needs_c
def test_concurrent_callers(big_hands: npt.NDArray[np.uint8], big_expected: list[int]) -> None:
    """Several Python threads batching at once (the GIL is released) all get their results."""
    results: dict[int, list[int]] = {}

    def work(index: int) -> None:
        hands = big_hands if index % 2 == 0 else big_hands[::-1]
        results[index] = evaluate_batch(hands, threads=4).tolist()

    workers = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    for index in range(4):
        assert results[index] == (big_expected if index % 2 == 0 else big_expected[::-1])


ENVIRONMENT_SCRIPT = textwrap.dedent(
    """
    import warnings
    warnings.simplefilter("error", RuntimeWarning)
    try:
        from sanh.eval import batch
    except RuntimeWarning as warning:
        print("warning", warning)
    else:
        print(batch.DEFAULT_THREADS)
    """
)


def default_threads_with(value: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "SANH_EVAL_THREADS"}
    if value is not None:
        env["SANH_EVAL_THREADS"] = value
    result = subprocess.run(
        [sys.executable, "-c", ENVIRONMENT_SCRIPT],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    return result.stdout.strip()


def test_sanh_eval_threads_sets_the_default() -> None:
    assert default_threads_with("3") == "3"
    assert default_threads_with(" 1 ") == "1"
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert default_threads_with(None) == str(cpus)
    assert default_threads_with("") == str(cpus)
    for bad in ("0", "many", "-2"):
        assert default_threads_with(bad).startswith("warning SANH_EVAL_THREADS=")


FORK_SCRIPT = textwrap.dedent(
    """
    import os
    import numpy as np
    from sanh.eval import evaluate
    from sanh.eval.batch import evaluate_batch
    rng = np.random.default_rng(1)
    hands = np.argsort(rng.random((200_000, 52)), axis=1)[:, :7].astype(np.uint8)
    expected = [evaluate(h) for h in hands[:1000].tolist()]
    assert evaluate_batch(hands, threads=2)[:1000].tolist() == expected  # workers in the parent
    pid = os.fork()
    if pid == 0:
        ok = evaluate_batch(hands, threads=2)[:1000].tolist() == expected
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.WEXITSTATUS(status) == 0, status
    print("ok")
    """
)


@needs_c
@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork()")
def test_threaded_batch_after_fork() -> None:
    """A child forked after a threaded batch (no workers of its own yet) batches too."""
    result = subprocess.run(
        [sys.executable, "-c", FORK_SCRIPT], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


IDLE_SCRIPT = textwrap.dedent(
    """
    import time
    import numpy as np
    from sanh.eval.batch import evaluate_batch

    def threads():
        with open("/proc/self/stat") as stat:
            return int(stat.read().rsplit(")", 1)[1].split()[17])

    hands = np.argsort(np.random.default_rng(2).random((200_000, 52)), axis=1)[:, :7]
    before = threads()
    evaluate_batch(hands.astype(np.uint8), threads=3)
    during = threads()
    deadline = time.monotonic() + 5
    while threads() > before and time.monotonic() < deadline:
        time.sleep(0.05)
    print(during - before, threads() - before)
    """
)


@needs_c
@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="needs Linux's /proc")
def test_idle_workers_leave() -> None:
    """The workers of a threaded batch stay for the next one, then leave when idle."""
    assert SPEEDUPS is not None
    if SPEEDUPS.max_threads() == 1:
        pytest.skip("the C speedups were built without threads")
    result = subprocess.run(
        [sys.executable, "-c", IDLE_SCRIPT], capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["2", "0"]
