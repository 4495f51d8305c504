"""The ``sanh`` command line.

Each subcommand lives in a module ``sanh/cli/cmd_<name>.py`` defining ``register(subparsers)``,
which adds its parser and sets ``func`` (taking the parsed arguments, returning an exit status).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="sanh", description="sanh: a card-game hall (play money only)."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module_info.name.startswith("cmd_"):
            module = importlib.import_module(f"{__name__}.{module_info.name}")
            module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        status = func(args)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    return int(status or 0)
