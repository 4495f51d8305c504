"""``sanh odds GAME``: the exact house edge and RTP of every bet."""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.console import Console
from rich.table import Table

from sanh.analysis.odds import find_odds_provider
from sanh.errors import ConfigError

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``odds`` subcommand."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "odds", help="exact house edge and RTP of every bet (full enumeration, exact fractions)"
    )
    parser.add_argument("game", help="three-card-poker, teen-patti-2020 or tai-xiu")
    parser.add_argument(
        "--rules",
        help="rule set (three-card-poker: tcp.variant s000 or s002; tai-xiu: s001 or macau)",
    )
    parser.add_argument(
        "--table", choices=["system", "player"], help="tai-xiu table kind (taixiu.table)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Compute and print the report."""
    from sanh.games import find_game

    try:
        game_id = find_game(args.game).info.id
        provider = find_odds_provider(game_id)
    except KeyError as exc:
        print(f"sanh odds: {exc.args[0]}")
        return 2
    try:
        report = provider(args.rules, args.table)
    except (ValueError, ConfigError) as exc:
        print(f"sanh odds: {exc}")
        return 2
    if args.json:
        print(json.dumps(report.to_json()))
        return 0
    title = f"{report.game} ({report.rules}" + (f", {report.table} table)" if report.table else ")")
    table = Table(title=title)
    for column in ("bet", "house edge", "RTP", "exact house edge", "notes"):
        table.add_column(column)
    for name, bet in report.bets.items():
        notes = ", ".join(
            f"{k}={float(v):.4%}" if not isinstance(v, str | int) else f"{k}={v}"
            for k, v in bet.extra.items()
        )
        table.add_row(
            name,
            f"{float(bet.house_edge):.4%}",
            f"{float(bet.rtp):.4%}",
            f"{bet.house_edge.numerator}/{bet.house_edge.denominator}",
            notes,
        )
    Console().print(table)
    return 0
