"""Shared parts of the two 3-card point games (3 Cây Gà, Ba Cây Chương; RULES.md §10-11).

Both deal three face-down cards from the 36-card deck and then give every player
**15 s (7 s in quick mode)** to squeeze (*nặn*: look at one card privately) or flip (*lật*: turn
the whole hand face up) [S001]. The clock is the server's: :func:`timers` gives the durations as
data, the table action :class:`TimeUp` is what the server applies when the window closes (every
hand still face down is flipped automatically), and the window also ends as soon as every player
has flipped. Each card is face down to everyone, seen by its owner once squeezed, and public
once flipped.

:class:`Leave` is an *anytime* action (:attr:`sanh.games.base.Action.anytime`): a seat may leave
or disconnect out of turn. It is not listed in ``legal_actions`` (bots never pick it); the server
applies it through ``default_action(state, seat, "disconnect" | "leave")``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from sanh.cards.card import Card
from sanh.eval.points import ba_cay_rank, ba_cay_score, top_card
from sanh.games.base import Action, OptionSpec, TableConfig, option
from sanh.games.hosting import PhaseClock
from sanh.types import Seat

__all__ = [
    "HAND_SIZE",
    "QUICK_MODE",
    "SQUEEZE_CLOCK",
    "Flip",
    "Leave",
    "Ready",
    "SitOut",
    "Squeeze",
    "Start",
    "TimeUp",
    "best_seat",
    "hand_text",
    "quick_mode_field",
    "squeeze_seconds",
    "timers",
    "visible_cards",
]

HAND_SIZE = 3

QUICK_MODE = OptionSpec(
    "table.quick_mode",
    False,
    help="quick mode: 7 s instead of 15 s to squeeze or flip (RULES.md §2.2, §16B)",
)


def quick_mode_field() -> Any:
    """:data:`QUICK_MODE` as a field of a game's :class:`~sanh.games.base.Rules`."""
    return option(QUICK_MODE.name, QUICK_MODE.default, help=QUICK_MODE.help)


@dataclass(frozen=True, slots=True)
class Ready(Action):
    """Sẵn sàng: join the round (3 Cây Gà: pay the gà if one is collected and stake L)."""

    wire = "Ready"


@dataclass(frozen=True, slots=True)
class SitOut(Action):
    """Sit this round out (not ready / no bet when the window closes)."""

    wire = "SitOut"


@dataclass(frozen=True, slots=True)
class Start(Action):
    """Bắt đầu: the host (3 Cây Gà) or the banker (Ba Cây Chương) starts the deal.

    Listed once every player has decided; accepted earlier too (an anytime action) once the
    round can start, and then every undecided player sits the round out.
    """

    wire = "Start"

    anytime: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Squeeze(Action):
    """Nặn: look at one of one's own face-down cards (``index`` 0..2); only the owner sees it."""

    wire = "Squeeze"

    index: int


@dataclass(frozen=True, slots=True)
class Flip(Action):
    """Lật bài: turn one's whole hand face up for everyone."""

    wire = "Flip"


@dataclass(frozen=True, slots=True)
class Leave(Action):
    """Leave the table or disconnect during the round (anytime; never listed)."""

    wire = "Leave"

    anytime: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class TimeUp(Action):
    """The table's clock closed the current window (``seat=None``)."""

    wire = "TimeUp"


def squeeze_seconds(quick_mode: bool) -> int:
    """The squeeze/flip window: 15 s, or 7 s in quick mode [S001]."""
    return 7 if quick_mode else 15


SQUEEZE_CLOCK = PhaseClock(
    "squeeze", seconds=squeeze_seconds(False), quick_seconds=squeeze_seconds(True)
)
"""The squeeze window's clock, as the 3 cây games declare it to the hall."""


def timers(config: TableConfig, **extra: int) -> dict[str, int]:
    """The game's clock durations in seconds, as data for the server and the client."""
    quick = bool(dict(config.options).get(QUICK_MODE.name, False))
    return {"squeeze_s": squeeze_seconds(quick), **extra}


def visible_cards(
    cards: Sequence[Card], seen: int, flipped: bool, owner: Seat, viewer: Seat | None
) -> tuple[Card | None, ...]:
    """What ``viewer`` sees of ``owner``'s hand: flipped cards, or squeezed ones to the owner."""
    if flipped:
        return tuple(cards)
    if viewer == owner:
        return tuple(c if seen >> i & 1 else None for i, c in enumerate(cards))
    return (None,) * len(cards)


def best_seat(hands: Sequence[tuple[Card, ...]], seats: Sequence[Seat]) -> Seat | None:
    """The seat with the strongest hand (score, then top card) among ``seats``."""
    if not seats:
        return None
    return max(seats, key=lambda s: ba_cay_rank(hands[s]))


def hand_text(cards: Sequence[Card | None]) -> str:
    """A hand for the terminal: ``8♦ A♠ ??`` with its score and top card once fully visible."""
    shown = " ".join("??" if c is None else c.pretty for c in cards)
    if cards and all(c is not None for c in cards):
        known = [c for c in cards if c is not None]
        return f"{shown}  = {ba_cay_score(known)} điểm, lá cao {top_card(known).pretty}"
    return shown
