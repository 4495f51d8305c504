"""Shuffle uniformity: a chi-square test of card x position counts over many shuffles.

Usage: ``python -m benchmarks.shuffle_chi2 [--shuffles N] [--seed S] [--source SOURCE]``
(SOURCE: ``seeded``, ``provably-fair`` or ``both``, the default)

Shuffles the 52-card deck N times with :func:`sanh.cards.rng.shuffled` (Fisher-Yates with
rejection sampling) and counts how often each card lands in each position: a 52 x 52 table whose
every cell should hold N / 52. The statistic is Pearson's sum of (observed - expected)^2 /
expected over the 2,704 cells. Every row and every column sums to N by construction, so the
statistic has (52 - 1)^2 = 2,601 degrees of freedom; its p-value is the chi-square survival
function there (scipy). The run also reports the largest standardised cell deviation and the
worst single card and position (51 degrees of freedom each).

``seeded`` draws from :class:`SeededRng` (one seed, one long stream); ``provably-fair`` from
:class:`ProvablyFairRng` (a fresh nonce for every shuffle, as the hall deals rounds).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

import numpy as np
from scipy.stats import chi2

from benchmarks._machine import machine_note
from sanh.cards import DECK_52, ProvablyFairRng, Rng, SeededRng, shuffled

__all__ = ["chi_square_table", "main"]

SIZE = 52


def count_positions(shuffles: int, seed: str, source: str) -> np.ndarray:
    """The card x position count table of ``shuffles`` shuffles."""
    counts = np.zeros((SIZE, SIZE), dtype=np.int64)
    positions = np.arange(SIZE)
    rng: Rng = SeededRng(seed)
    for nonce in range(shuffles):
        if source == "provably-fair":
            rng = ProvablyFairRng(seed, "chi-square", nonce)
        deck = np.fromiter(shuffled(DECK_52, rng), dtype=np.int64, count=SIZE)
        counts[deck, positions] += 1
    return counts


def chi_square_table(counts: np.ndarray) -> tuple[float, int, float]:
    """(statistic, degrees of freedom, p-value) of a table expected to be uniform."""
    expected = counts.sum() / counts.size
    statistic = float(((counts - expected) ** 2 / expected).sum())
    dof = (counts.shape[0] - 1) * (counts.shape[1] - 1)
    return statistic, dof, float(chi2.sf(statistic, dof))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the test and print a Markdown section."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.shuffle_chi2", description=__doc__)
    parser.add_argument("--shuffles", type=int, default=200_000)
    parser.add_argument("--seed", default="sanh-chi-square")
    parser.add_argument("--source", choices=["seeded", "provably-fair", "both"], default="both")
    args = parser.parse_args(argv)
    sources = ["seeded", "provably-fair"] if args.source == "both" else [args.source]
    for number, source in enumerate(sources):
        if number:
            print()
        run(args.shuffles, args.seed, source)
    return 0


def run(shuffles: int, seed: str, source: str) -> None:
    """One run of the test, printed as a Markdown section."""
    start = time.perf_counter()
    counts = count_positions(shuffles, seed, source)
    elapsed = time.perf_counter() - start
    statistic, dof, p_value = chi_square_table(counts)
    expected = shuffles / SIZE
    z = (counts - expected) / np.sqrt(expected * (1 - 1 / SIZE))
    per_card = min(chi_square_row(row, expected) for row in counts)
    per_position = min(chi_square_row(column, expected) for column in counts.T)
    print(f"## Shuffle uniformity (chi-square, 52 cards x 52 positions, {source})\n")
    print(
        "Command: `.venv/bin/python -m benchmarks.shuffle_chi2 "
        f"--shuffles {shuffles} --source {source}`\n"
    )
    print(f"Machine: {machine_note()}\n")
    print(
        f"- {shuffles:,} shuffles (seed {seed!r}) in {elapsed:.1f} s "
        f"({shuffles / elapsed:,.0f} shuffles/s); expected {expected:,.1f} per cell"
    )
    print(f"- chi-square statistic **{statistic:,.1f}** on {dof:,} degrees of freedom")
    print(f"- p-value **{p_value:.4f}** (uniform: p is itself uniform on [0, 1])")
    print(f"- largest |standardised cell deviation|: {np.abs(z).max():.2f} (of 2,704 cells)")
    print(f"- smallest per-card p-value {per_card:.4f}, per-position {per_position:.4f} (of 52)")


def chi_square_row(row: np.ndarray, expected: float) -> float:
    """The p-value of one card's (or one position's) 52 counts, 51 degrees of freedom."""
    statistic = float(((row - expected) ** 2 / expected).sum())
    return float(chi2.sf(statistic, SIZE - 1))


if __name__ == "__main__":
    raise SystemExit(main())
