"""Benchmark: the Phỏm meld arranger on 10-card hands (issue 5: median under 1 ms).

Run: ``.venv/bin/python -m benchmarks.phom_melds [--hands N] [--seed S]``. It times
:func:`sanh.eval.melds.best_arrangement` (fewest deadwood points) and
:func:`sanh.eval.melds.most_melded` (the Ù test) and
:func:`sanh.eval.melds.maximal_arrangements` (the legal lay-downs) on seeded random 10-card
hands from the full deck, and on "meld-rich" hands drawn from A-6 of every suit, where sets
and runs overlap most. Each hand is timed once, cold (the arranger keeps no cache between calls).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence

from sanh.cards.card import Card
from sanh.cards.deck import DECK_52
from sanh.cards.rng import SeededRng, shuffled
from sanh.eval.melds import best_arrangement, maximal_arrangements, most_melded, phom_rank

__all__ = ["main", "run"]


def _time(
    function: Callable[[Sequence[Card]], object], hands: list[tuple[Card, ...]]
) -> list[float]:
    out = []
    for hand in hands:
        start = time.perf_counter()
        function(hand)
        out.append(time.perf_counter() - start)
    return out


def run(hands: int = 5000, seed: str = "bench-melds") -> dict[str, dict[str, float]]:
    """Median, 99th percentile and max (µs) per function and hand family."""
    rng = SeededRng(seed)
    rich_pool = tuple(c for c in DECK_52 if phom_rank(c) <= 6)
    families = {
        "random": [shuffled(DECK_52, rng)[:10] for _ in range(hands)],
        "meld-rich": [shuffled(rich_pool, rng)[:10] for _ in range(hands)],
    }
    results: dict[str, dict[str, float]] = {}
    for family, sample in families.items():
        functions: tuple[tuple[str, Callable[[Sequence[Card]], object]], ...] = (
            ("best_arrangement", best_arrangement),
            ("most_melded", most_melded),
            ("maximal_arrangements", maximal_arrangements),
        )
        for name, function in functions:
            times = sorted(_time(function, sample))
            results[f"{name}/{family}"] = {
                "median_us": statistics.median(times) * 1e6,
                "p99_us": times[int(len(times) * 0.99)] * 1e6,
                "max_us": times[-1] * 1e6,
            }
    return results


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", default="bench-melds")
    args = parser.parse_args()
    print(f"{'case':32} {'median µs':>10} {'p99 µs':>10} {'max µs':>10}")
    for case, row in run(args.hands, args.seed).items():
        print(f"{case:32} {row['median_us']:10.1f} {row['p99_us']:10.1f} {row['max_us']:10.1f}")


if __name__ == "__main__":
    main()
