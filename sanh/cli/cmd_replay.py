"""``sanh replay FILE [FILE ...] [--json]``: replay hand histories, print stacks and results.

Each file is a sanh JSON hand history (``sanh-history/1``, any game, :mod:`sanh.notation.history`)
or a PHH text (``.phh``: one hand; ``.phhs``: several, :mod:`sanh.notation.phh`). Every event is
replayed through the engine (and validated); the final stacks and the settlement are printed.
With ``--json``: one JSON object per hand, one per line, in the order given, each with
``"final_stacks"`` in seat order (PHH: ``p1`` first) as numbers in the file's own units (minor
units for sanh histories; PHH amounts as the file writes them, ``200.30``).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from sanh.errors import IllegalActionError, NotationError, SanhError
from sanh.types import format_gold

__all__ = ["ReplayResult", "register", "replay_text"]


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """The outcome of one replayed hand, amounts in the file's units."""

    source: str
    hand: str | None
    """The hand's key in a ``.phhs`` file, else ``None``."""
    format: str
    game: str
    complete: bool
    final_stacks: list[int | Decimal] | None
    deltas: list[int | Decimal] | None
    settlement: dict[str, Any] | None

    def to_json(self) -> str:
        """One line of JSON; decimal amounts are written exactly (``200.30``)."""
        marks: dict[str, str] = {}

        def number(value: Any) -> Any:
            if isinstance(value, Decimal):
                mark = f"\x00{len(marks)}\x00"
                marks[json.dumps(mark)] = str(value)
                return mark
            if isinstance(value, list):
                return [number(v) for v in value]
            if isinstance(value, dict):
                return {k: number(v) for k, v in value.items()}
            return value

        data = {
            "file": self.source,
            "hand": self.hand,
            "format": self.format,
            "game": self.game,
            "complete": self.complete,
            "final_stacks": number(self.final_stacks),
            "deltas": number(self.deltas),
            "settlement": number(self.settlement),
        }
        text = json.dumps(data, ensure_ascii=False)
        for quoted, literal in marks.items():
            text = text.replace(quoted, literal)
        return text


def replay_text(text: str, source: str = "-") -> list[ReplayResult]:
    """Replay every hand in a history text (sanh JSON or PHH).

    :raises NotationError: if the text is neither, or an event is illegal.
    """
    if text.lstrip().startswith("{"):
        return [_replay_sanh(text, source)]
    return _replay_phh(text, source)


def _replay_sanh(text: str, source: str) -> ReplayResult:
    from sanh.notation.history import FORMAT, load_history, replay_history
    from sanh.notation.jsonable import to_jsonable

    history = load_history(text)
    try:
        _state, settlement = replay_history(history)
    except IllegalActionError as error:
        raise NotationError(f"{source}: {error}") from None
    stacks = list(history.config.stacks)
    if settlement is None:
        return ReplayResult(source, None, FORMAT, history.game, False, None, None, None)
    deltas: list[int | Decimal] = list(settlement.deltas)
    final: list[int | Decimal] = [
        stack + delta for stack, delta in zip(stacks, settlement.deltas, strict=True)
    ]
    return ReplayResult(
        source, None, FORMAT, history.game, True, final, deltas, to_jsonable(settlement)
    )


def _replay_phh(text: str, source: str) -> list[ReplayResult]:
    from sanh.notation.phh import parse_phh, replay_phh, to_file_units

    results = []
    for hand in parse_phh(text):
        replay = replay_phh(hand)
        decimals = hand.decimals
        start = hand.config.stacks
        final = replay.final_stacks_in_file_units()
        deltas = [
            to_file_units(end - begin, decimals)
            for end, begin in zip(replay.final_stacks, start, strict=True)
        ]
        settlement: dict[str, Any] | None = None
        if replay.complete:
            settlement = {
                "deltas": deltas,
                "pots": [
                    {
                        "amount": to_file_units(amount, decimals),
                        "winners": [f"p{seat + 1}" for seat in winners],
                    }
                    for amount, _eligible, winners in replay.state.pots
                ],
            }
        results.append(
            ReplayResult(
                source,
                hand.key,
                "phh",
                "texas-holdem",
                replay.complete,
                list(final),
                list(deltas),
                settlement,
            )
        )
    return results


def register(sub: Any) -> None:
    """Add the ``replay`` subcommand."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "replay", help="replay hand histories (sanh JSON or PHH) and print the results"
    )
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--json", action="store_true", help="one JSON object per hand")
    parser.set_defaults(func=run)


def _show(value: int | Decimal, result: ReplayResult) -> str:
    if result.format == "phh":
        return str(value)
    return format_gold(int(value))


def run(args: argparse.Namespace) -> int:
    """Replay each file and print one result per hand."""
    status = 0
    for path in args.files:
        try:
            text = Path(path).read_text(encoding="utf-8")
            results = replay_text(text, path)
        except (OSError, UnicodeDecodeError, SanhError) as error:
            print(f"sanh replay: {path}: {error}", file=sys.stderr)
            status = 1
            continue
        for result in results:
            if args.json:
                print(result.to_json())
                continue
            name = path if result.hand is None else f"{path} [{result.hand}]"
            if result.final_stacks is None or result.deltas is None:
                print(f"{name}: {result.game}: the history stops before the end of the hand")
                continue
            stacks = "  ".join(_show(v, result) for v in result.final_stacks)
            deltas = "  ".join(("+" if v > 0 else "") + _show(v, result) for v in result.deltas)
            state = "" if result.complete else " (incomplete)"
            print(f"{name}: {result.game}{state}")
            print(f"  final stacks: {stacks}")
            print(f"  net:          {deltas}")
            if result.settlement and "pots" in result.settlement:
                for pot in result.settlement["pots"]:
                    print(f"  pot {pot['amount']} to {', '.join(pot['winners'])}")
    return status
