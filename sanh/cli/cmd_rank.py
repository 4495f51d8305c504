"""``sanh rank KIND``: the strength of each hand read from standard input.

One hand a line, cards separated by spaces (``As Kd 10h``; anything :func:`sanh.cards.parse_cards`
reads). One integer a line comes out: higher is stronger, equal is a tie, and the numbers are
comparable only within one KIND. ``--names`` adds a tab and the category name.

* ``poker``: the best five of 5, 6 or 7 cards (RULES.md §3.1); 0..7,461.
* ``three-card-poker``: three cards, Three Card Poker order (RULES.md §13.4); 0..740.
* ``teen-patti``: three cards, Teen Patti order (RULES.md §14.4); 0..740.

A blank line (or one of only spaces) gives a blank output line, so that output line N always
answers input line N. A malformed or repeated card, or a wrong number of cards, is reported on
standard error as ``sanh rank: line N: 'TEXT': reason`` for every bad line; then nothing is
printed on standard output and the exit status is 2. All input is read before anything is printed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from enum import IntEnum
from typing import Any

from sanh.cards import parse_cards
from sanh.errors import NotationError
from sanh.eval import (
    category_of,
    evaluate,
    tcp_category,
    tcp_rank,
    teen_patti_category,
    teen_patti_rank,
)

__all__ = ["KINDS", "BadLines", "RankKind", "rank_lines", "register", "run"]


class BadLines(NotationError):
    """Some input lines are not hands; :attr:`problems` says which and why."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        """One ``line N: 'TEXT': reason`` message per bad line."""
        super().__init__("; ".join(problems))


class RankKind:
    """One KIND of ``sanh rank``: how many cards a hand has, its evaluator and its categories."""

    def __init__(
        self,
        name: str,
        sizes: tuple[int, ...],
        rank: Callable[[Sequence[int]], int],
        category: Callable[[int], IntEnum],
    ) -> None:
        self.name = name
        """The KIND as written on the command line."""
        self.sizes = sizes
        """The numbers of cards a hand may have."""
        self.rank = rank
        """The evaluator: cards to strength."""
        self.category = category
        """A strength to its category."""


KINDS: dict[str, RankKind] = {
    kind.name: kind
    for kind in (
        RankKind("poker", (5, 6, 7), evaluate, category_of),
        RankKind("three-card-poker", (3,), tcp_rank, tcp_category),
        RankKind("teen-patti", (3,), teen_patti_rank, teen_patti_category),
    )
}
"""The KINDs ``sanh rank`` knows, by name."""


def register(sub: Any) -> None:
    """Add the ``rank`` subcommand."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "rank",
        help="print the strength of each hand read from stdin (higher = stronger, equal = tie)",
        description=(
            "Read one hand per line on stdin (cards separated by spaces, e.g. 'As Kd 10h') and "
            "print one integer per line: higher is stronger, equal is a tie. A blank line gives "
            "a blank line. A bad line is reported on stderr with its number and the exit status "
            "is 2."
        ),
    )
    parser.add_argument("kind", metavar="KIND", choices=sorted(KINDS), help=", ".join(KINDS))
    parser.add_argument(
        "--names", action="store_true", help="add a tab and the category name to each line"
    )
    parser.set_defaults(func=run)


def _category_name(category: IntEnum) -> str:
    return category.name.lower().replace("_", " ")


def rank_lines(kind: RankKind, lines: Sequence[str], *, names: bool = False) -> list[str]:
    """The output lines for these input lines.

    :raises BadLines: naming every bad line.
    """
    out: list[str] = []
    errors: list[str] = []
    for number, line in enumerate(lines, start=1):
        text = line.rstrip("\r\n")
        if not text.strip():
            out.append("")
            continue
        try:
            cards = parse_cards(text)
            if len(cards) not in kind.sizes:
                low, high = kind.sizes[0], kind.sizes[-1]
                sizes = f"{low} to {high}" if low != high else f"{low}"
                raise NotationError(f"{kind.name} needs {sizes} cards, got {len(cards)}")
        except NotationError as exc:
            errors.append(f"line {number}: {text!r}: {exc}")
            continue
        strength = kind.rank(cards)
        if names:
            out.append(f"{strength}\t{_category_name(kind.category(strength))}")
        else:
            out.append(str(strength))
    if errors:
        raise BadLines(errors)
    return out


def run(args: argparse.Namespace) -> int:
    """Read stdin, print the strengths; status 2 if any line is bad."""
    try:
        out = rank_lines(KINDS[args.kind], sys.stdin.readlines(), names=args.names)
    except BadLines as exc:
        for message in exc.problems:
            print(f"sanh rank: {message}", file=sys.stderr)
        return 2
    if out:
        sys.stdout.write("\n".join(out) + "\n")
    return 0
