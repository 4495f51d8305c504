"""The house betting window's table actions, written once for every game that has one.

Tài Xỉu, Three Card Poker and Teen Patti 20-20 open a betting window each round: seats bet
while it is open, each may say it is done (:class:`Ready`), and the table closes it
(:class:`CloseBetting`, ``seat=None``: the default at the deadline). What a close does to
chips not yet confirmed, and what a ready seat may still do, is each game's rule (its module
docstring); the actions, their wire names and their JSON forms are these.
"""

from __future__ import annotations

from dataclasses import dataclass

from sanh.games.base import Action

__all__ = ["CloseBetting", "Ready"]


@dataclass(frozen=True, slots=True)
class Ready(Action):
    """The seat has finished betting this window: its bets stand and it is not asked again."""

    wire = "Ready"


@dataclass(frozen=True, slots=True)
class CloseBetting(Action):
    """The table closes the betting window (``seat=None``; the default at the deadline)."""

    wire = "CloseBetting"
