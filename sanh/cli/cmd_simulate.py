"""``sanh simulate GAME --rounds N``: Monte Carlo RTP of every bet with 95 % intervals."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from sanh.analysis.simulate import find_simulator
from sanh.errors import ConfigError

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``simulate`` subcommand."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "simulate", help="Monte Carlo RTP of every bet, with 95 %% confidence intervals"
    )
    parser.add_argument("game")
    parser.add_argument("--rounds", type=int, required=True)
    parser.add_argument("--seed", default="0", help="seed of the deterministic stream")
    parser.add_argument(
        "--rules",
        help="rule set (three-card-poker: tcp.variant s000 or s002;"
        " tai-xiu: taixiu.table system or player, +macau)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Simulate and print the report."""
    from sanh.games import find_game

    if args.rounds <= 0:
        print("sanh simulate: --rounds must be positive", file=sys.stderr)
        return 2
    try:
        game_id = find_game(args.game).info.id
        simulator = find_simulator(game_id)
    except KeyError as exc:
        print(f"sanh simulate: {exc.args[0]}", file=sys.stderr)
        return 2
    show = not args.json and sys.stderr.isatty()
    with Progress(console=Console(stderr=True), disable=not show, transient=True) as progress:
        task = progress.add_task(f"simulating {game_id}", total=args.rounds)
        try:
            report = simulator(
                args.rounds,
                args.seed,
                args.rules,
                lambda done: progress.update(task, completed=done),
            )
        except (ValueError, ConfigError) as exc:
            print(f"sanh simulate: {exc}", file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps(report.to_json()))
        return 0
    table = Table(
        title=f"{report.game} ({report.rules}), {report.rounds:,} rounds, seed {report.seed}"
    )
    for column in ("bet", "RTP", "95 % interval", "house edge"):
        table.add_column(column)
    for name, bet in report.bets.items():
        low, high = bet.ci95
        table.add_row(name, f"{bet.rtp:.4%}", f"{low:.4%} .. {high:.4%}", f"{-bet.mean_return:.4%}")
    Console().print(table)
    return 0
