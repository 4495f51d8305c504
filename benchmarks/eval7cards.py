"""Seven-card evaluation speed: sanh against phevaluator and eval7, on the same random hands.

Usage: ``python -m benchmarks.eval7cards [--hands N] [--repeat R] [--seed S] [--threads T]``

Every contender evaluates the same N random seven-card hands, each in its natural input form
prepared beforehand (sanh: a list of ``Card`` ints, as the engines pass them; phevaluator: seven int
arguments, which share sanh's card numbering; eval7: a list of ``eval7.Card``). Single-call
contenders are a Python ``for`` loop with one call per hand; batch contenders are one call on an
``(N, 7)`` array, on the threads :func:`sanh.eval.batch.batch_threads` gives (``--threads`` or
``SANH_EVAL_THREADS`` set the limit), and once more on one thread. The rounds are interleaved (every
contender once per round, R rounds) and the best round counts, which filters out the noise of a
shared machine. Before timing, the results are cross-checked: sanh's strength is exactly ``7462 -
phevaluator rank`` on every hand, eval7 orders the hands the same way, and the batch equals the
single calls.
"""

from __future__ import annotations

import argparse
import gc
import os
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import numpy.typing as npt
import phevaluator
from phevaluator import _pheval

from benchmarks._machine import machine_note
from sanh.cards import Card
from sanh.eval import BACKEND, evaluate
from sanh.eval.batch import DEFAULT_THREADS, batch_threads, evaluate_batch, evaluate_batch_numpy
from sanh.eval.poker import evaluate_python

with warnings.catch_warnings():  # eval7 0.1.x imports pyparsing with deprecated names
    warnings.simplefilter("ignore")
    import eval7

__all__ = ["main"]


@dataclass
class Contender:
    """One timed way of evaluating the hands."""

    name: str
    run: Callable[[], object]
    hands: int
    """Hands evaluated by one call of ``run``."""
    kind: str
    """``sanh``, ``peer`` or ``reference`` (shown for context, not part of the comparison)."""
    best: float = float("inf")

    @property
    def rate(self) -> float:
        """Hands per second in the best round."""
        return self.hands / self.best


def random_hands(count: int, seed: int) -> npt.NDArray[np.uint8]:
    """``count`` random seven-card hands (distinct cards in each), seeded."""
    generator = np.random.default_rng(seed)
    return np.argsort(generator.random((count, 52)), axis=1)[:, :7].astype(np.uint8)


def loop(function: Callable[[Sequence[int]], int], hands: list[list[Card]]) -> Callable[[], None]:
    def run() -> None:
        for hand in hands:
            function(hand)

    return run


def star_loop(function: Callable[..., int], hands: list[list[int]]) -> Callable[[], None]:
    def run() -> None:
        for hand in hands:
            function(*hand)

    return run


def cross_check(array: npt.NDArray[np.uint8], cards: list[list[Card]]) -> None:
    """Every contender must agree before any is timed."""
    ours = [evaluate(hand) for hand in cards]
    assert evaluate_batch(array).tolist() == ours, "batch != single"
    assert [7462 - phevaluator.evaluate_7cards(*hand) for hand in cards] == ours, "phevaluator"
    deck = [eval7.Card("23456789TJQKA"[i // 4] + "cdhs"[i % 4]) for i in range(52)]
    theirs = [eval7.evaluate([deck[c] for c in hand]) for hand in cards]
    pairs = sorted(zip(ours, theirs, strict=True))
    for (a, x), (b, y) in pairwise(pairs):
        assert (a < b) == (x < y) and (a == b) == (x == y), "eval7 orders differently"


def run_benchmark(hands: int, repeat: int, seed: int, threads: int) -> list[Contender]:
    array = random_hands(hands, seed)
    cards = [[Card(c) for c in row] for row in array.tolist()]
    ints = array.tolist()
    deck = [eval7.Card("23456789TJQKA"[i // 4] + "cdhs"[i % 4]) for i in range(52)]
    eval7_hands = [[deck[c] for c in row] for row in ints]
    wide = array.astype(np.int64)
    few = max(hands // 10, 1)
    cross_check(array[:20000], cards[:20000])

    def batch(arr: npt.NDArray[np.integer], times: int, limit: int) -> Callable[[], None]:
        def run() -> None:
            for _ in range(times):
                evaluate_batch(arr, threads=limit)

        return run

    used = batch_threads(hands, threads)
    threaded = f"{used} thread{'s' if used > 1 else ''}"
    alone = evaluate_batch(array, threads=1).tolist()
    assert evaluate_batch(array, threads=threads).tolist() == alone, "threads != one thread"
    assert evaluate_batch(wide, threads=threads).tolist() == alone, "int64 != uint8"

    inner = 20
    contenders = [
        Contender(
            f"sanh evaluate ({BACKEND}), one hand a call", loop(evaluate, cards), hands, "sanh"
        ),
        Contender(
            "phevaluator evaluate_7cards, one hand a call",
            star_loop(phevaluator.evaluate_7cards, ints),
            hands,
            "peer",
        ),
        Contender(
            "eval7 evaluate, one hand a call", loop(eval7.evaluate, eval7_hands), hands, "peer"
        ),
        Contender(
            f"sanh evaluate_batch, uint8 (N, 7), {threaded}",
            batch(array, inner, threads),
            hands * inner,
            "sanh",
        ),
        Contender(
            f"sanh evaluate_batch, int64 (N, 7), {threaded}",
            batch(wide, inner, threads),
            hands * inner,
            "sanh",
        ),
        Contender(
            "sanh evaluate_batch, uint8 (N, 7), 1 thread",
            batch(array, inner, 1),
            hands * inner,
            "sanh",
        ),
        Contender(
            "phevaluator private C core _pheval.evaluate_7cards, one hand a call",
            star_loop(_pheval.evaluate_7cards, ints),
            hands,
            "reference",
        ),
        Contender(
            "sanh pure-Python fallback evaluate, one hand a call",
            loop(evaluate_python, cards[:few]),
            few,
            "reference",
        ),
        Contender(
            "sanh NumPy fallback evaluate_batch_numpy",
            lambda: evaluate_batch_numpy(array),
            hands,
            "reference",
        ),
    ]
    gc.disable()
    try:
        for _ in range(repeat):
            for contender in contenders:
                start = time.perf_counter()
                contender.run()
                contender.best = min(contender.best, time.perf_counter() - start)
    finally:
        gc.enable()
    return contenders


def report(
    contenders: list[Contender], hands: int, repeat: int, seed: int, threads: int
) -> list[str]:
    single = next(c for c in contenders if c.kind == "sanh" and "one hand" in c.name)
    batches = [c for c in contenders if c.name.startswith("sanh evaluate_batch, uint8")]
    batch, one_thread = batches
    peers = [c for c in contenders if c.kind == "peer"]
    fastest = max(peers, key=lambda c: c.rate)
    used = batch_threads(hands, threads)
    lines = [
        f"{hands:,} random 7-card hands, seed {seed}, best of {repeat} interleaved rounds; "
        f"batch threads: {used} (limit {threads}, CPUs available {DEFAULT_CPUS})",
        "",
        "| contender | hands/s | ns/hand |",
        "|---|---:|---:|",
    ]
    for c in contenders:
        note = " (context)" if c.kind == "reference" else ""
        lines.append(f"| {c.name}{note} | {c.rate:,.0f} | {1e9 / c.rate:,.1f} |")
    lines += [
        "",
        f"- fastest peer: {fastest.name} ({fastest.rate:,.0f} hands/s)",
        f"- sanh single call / fastest peer: **{single.rate / fastest.rate:.2f}x**",
        f"- sanh batch (uint8, {used} threads) / sanh single call: "
        f"**{batch.rate / single.rate:.1f}x**",
        f"- sanh batch (uint8, 1 thread) / sanh single call: "
        f"**{one_thread.rate / single.rate:.1f}x**",
        f"- sanh batch (uint8, {used} threads) / fastest peer: "
        f"**{batch.rate / fastest.rate:.1f}x**",
        f"- batch on {used} threads / on 1 thread: {batch.rate / one_thread.rate:.2f}x",
    ]
    return lines


DEFAULT_CPUS = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def load_average() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print a Markdown table."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.eval7cards", description=__doc__)
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=11)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--threads",
        type=int,
        default=DEFAULT_THREADS,
        help="thread limit of the batch (default: SANH_EVAL_THREADS, else the CPUs available)",
    )
    args = parser.parse_args(argv)
    if args.threads < 1:
        parser.error("--threads must be at least 1")
    print("## 7-card evaluation: sanh vs phevaluator vs eval7\n")
    print("Command: `.venv/bin/python -m benchmarks.eval7cards`\n")
    print(f"Machine: {machine_note()}\n")
    contenders = run_benchmark(args.hands, args.repeat, args.seed, args.threads)
    print("\n".join(report(contenders, args.hands, args.repeat, args.seed, args.threads)))
    print(f"\nLoad average after the run: {load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
