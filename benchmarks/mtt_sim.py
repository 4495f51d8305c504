"""A 1,000-entrant scheduled tournament simulated to the end (``benchmarks/mtt_sim.py``).

Run: ``python -m benchmarks.mtt_sim [--entrants 1000] [--seed mtt-bench] [--peer-samples 24]``
(never from the tests). It plays the same tournament (``sanh.tournaments.mtt``: 9-seat tables,
the default turbo schedule, balancing after every hand round, every hand through the Hold'em
engine's public API) twice, side by side in one process:

* with :class:`~sanh.tournaments.mtt.TournamentBot` (the hall's Hold'em bot with a preflop
  equity table and quicker deals), what ``tests/tournaments/test_mtt.py`` uses;
* with the hall's :class:`~sanh.bots.holdem.HoldemBot` as it is, ``--peer-samples`` deals a
  decision at every street (the named peer).

The two bots play different tournaments (their choices differ), so each line gives its hands
and decisions beside its wall and CPU time. Figures go in BENCHMARKS.md with the load average.
"""

from __future__ import annotations

import argparse
import time

from benchmarks._machine import machine_note
from sanh.bots.base import Bot
from sanh.bots.holdem import HoldemBot
from sanh.cards.rng import SeededRng
from sanh.tournaments.mtt import (
    MttSpec,
    MttState,
    RoundResult,
    TournamentBot,
    new_tournament,
    register,
    run,
    start,
)


def simulate(entrants: int, seed: str, bot: Bot) -> dict[str, float]:
    """Play one tournament to the end; its counts and times."""
    spec = MttSpec(id="bench", opens_at=0, starts_at=1, buy_in=10_000, max_entrants=entrants)
    state = new_tournament(spec)
    for index in range(entrants):
        state = register(state, f"p{index:04}", 0)
    rng = SeededRng(seed)
    counts = {"hands": 0, "events": 0}

    def count(_state: MttState, result: RoundResult) -> None:
        counts["hands"] += len(result.hands)
        counts["events"] += sum(hand.events for hand in result.hands)

    wall, cpu = time.perf_counter(), time.process_time()
    state = run(start(state, 1, rng), rng, lambda _entry: bot, on_round=count)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert state.status == "finished"
    return {"rounds": state.rounds, **counts, "wall": wall, "cpu": cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entrants", type=int, default=1_000)
    parser.add_argument("--seed", default="mtt-bench")
    parser.add_argument("--peer-samples", type=int, default=24)
    args = parser.parse_args()
    print(machine_note())
    bots: list[tuple[str, Bot]] = [
        ("TournamentBot()", TournamentBot()),
        (f"HoldemBot(samples={args.peer_samples})", HoldemBot(samples=args.peer_samples)),
    ]
    for name, bot in bots:
        figures = simulate(args.entrants, args.seed, bot)
        print(
            f"{name}: {figures['rounds']:.0f} rounds, {figures['hands']:.0f} hands,"
            f" {figures['events']:.0f} events; wall {figures['wall']:.1f} s,"
            f" CPU {figures['cpu']:.1f} s ({figures['events'] / figures['cpu']:,.0f} events/CPU s)"
        )
    print(machine_note())


if __name__ == "__main__":
    main()
