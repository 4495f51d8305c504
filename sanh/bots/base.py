"""The bot protocol. A bot sees a :class:`View` (never the state) and returns a legal action.

Bots are deterministic given their ``Rng``: the same view and the same random stream give the
same action.
"""

from __future__ import annotations

from typing import Protocol

from sanh.cards.rng import Rng
from sanh.games.base import Action, View

__all__ = ["Bot", "RandomBot"]


class Bot(Protocol):
    """Something that picks an action for the seat whose view it is given."""

    def act(self, view: View, rng: Rng) -> Action:
        """An action from ``view.legal_actions`` or within ``view.amount_ranges``."""
        ...


class RandomBot:
    """Picks uniformly among the view's legal actions and amount ranges."""

    def act(self, view: View, rng: Rng) -> Action:
        """A uniformly random legal action of the viewer."""
        actions = list(view.legal_actions)
        ranges = list(view.amount_ranges)
        if not actions and not ranges:
            raise ValueError("the view has no legal action")
        choice = rng.randbelow(len(actions) + len(ranges))
        if choice < len(actions):
            return actions[choice]
        amount_range = ranges[choice - len(actions)]
        steps = (amount_range.max - amount_range.min) // amount_range.step
        return amount_range.at(amount_range.min + amount_range.step * rng.randbelow(steps + 1))
