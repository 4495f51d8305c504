"""Three Card Poker performance: simulated rounds per second and each `sanh odds` wall time.

Run: ``.venv/bin/python -m benchmarks.tcp_simulate [--rounds N] [--repeat K]``. Targets
(issue 2): ``sanh simulate three-card-poker`` at least 1,000,000 rounds per second, and each
``sanh odds three-card-poker [--rules s000|s002] [--json]`` under 2 s of wall time.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from sanh.analysis.odds_three_card_poker import ante_play
from sanh.analysis.sim_three_card_poker import simulate

SANH = str(Path(sys.executable).with_name("sanh"))


def simulate_rate(rounds: int, rules: str, repeat: int) -> float:
    """Best rounds per second of the in-process simulator over ``repeat`` runs (tables warm)."""
    ante_play()  # the shared tables are built once per process
    best = 0.0
    for k in range(repeat):
        start = time.perf_counter()
        simulate(rounds, f"bench-{k}", rules)
        best = max(best, rounds / (time.perf_counter() - start))
    return best


def wall_time(args: list[str], repeat: int) -> float:
    """Best wall time of a command, in seconds, over ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, env=dict(os.environ))
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    """Print one line per measurement."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"cpu count {os.cpu_count()}, python {sys.version.split()[0]}")
    for rules in ("s000", "s002"):
        rate = simulate_rate(args.rounds, rules, args.repeat)
        print(f"simulate three-card-poker {rules}: {rate:,.0f} rounds/s (in process, best)")
    cli = [SANH, "simulate", "three-card-poker", "--rounds", str(args.rounds), "--json"]
    seconds = wall_time(cli, args.repeat)
    print(
        f"sanh simulate --rounds {args.rounds:,}: {seconds:.2f} s wall, "
        f"{args.rounds / seconds:,.0f} rounds/s including start-up"
    )
    for extra in (
        [],
        ["--rules", "s000"],
        ["--rules", "s002"],
        ["--json"],
        ["--rules", "s002", "--json"],
    ):
        seconds = wall_time([SANH, "odds", "three-card-poker", *extra], args.repeat)
        verdict = "ok" if seconds < 2 else "OVER 2 s"
        print(f"sanh odds three-card-poker {' '.join(extra)}: {seconds:.3f} s wall ({verdict})")


if __name__ == "__main__":
    main()
