"""The baselines of sanh.env against each other: the hall's heuristic bot against random play.

Run: ``.venv/bin/python -m benchmarks.env_baselines [--hands 200] [--games tien-len,...]``.

Two seats (one seat for the house games, where the bot plays alone against the house): the bot
in seat 0 against a uniformly random policy in seat 1, then the seats swapped, over the same
seeded hands. Printed: the bot's mean reward per hand (stake or big-blind units) with its 95 %
confidence interval, and the random policy's in the same seat, for comparison.
"""

from __future__ import annotations

import argparse

import numpy as np

import sanh.env
from benchmarks._machine import machine_note
from sanh.env.policies import BotPolicy, Policy, RandomPolicy, play_hand
from sanh.games import all_games


def main(argv: list[str] | None = None) -> None:
    """Print a Markdown table: bot vs random per game."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=200, help="hands per seat arrangement")
    parser.add_argument("--games", default="", help="comma-separated ids (default: all)")
    args = parser.parse_args(argv)
    wanted = [g for g in args.games.split(",") if g]
    print(f"Machine: {machine_note()}\n")
    print("| game | seats | bot, mean ± 95 % CI | random in the same seat |")
    print("|---|---:|---:|---:|")
    for game in all_games():
        if wanted and game.info.id not in wanted:
            continue
        seats = 1 if game.info.banked else 2
        env = sanh.env.make(game.info.id, seats=seats)
        agents = env.possible_agents
        bot: list[float] = []
        rand: list[float] = []
        for seat in range(seats):
            with_bot: dict[str, Policy] = {
                a: BotPolicy(7) if i == seat else RandomPolicy(7) for i, a in enumerate(agents)
            }
            only_random: dict[str, Policy] = {a: RandomPolicy(7 + i) for i, a in enumerate(agents)}
            for h in range(args.hands):
                bot.append(play_hand(env, with_bot, seed=1000 + h)[agents[seat]])
                rand.append(play_hand(env, only_random, seed=1000 + h)[agents[seat]])
        print(f"| {game.info.id} | {seats} | {_interval(bot)} | {_interval(rand)} |", flush=True)


def _interval(values: list[float]) -> str:
    data = np.asarray(values, dtype=np.float64)
    half = 1.96 * float(data.std(ddof=1)) / np.sqrt(len(data))
    return f"{data.mean():+.3f} ± {half:.3f}"


if __name__ == "__main__":
    main()
