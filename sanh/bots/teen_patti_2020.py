"""A Teen Patti 20-20 bot: the table minimum on Player A or Player B, then Ready.

It sees only its :class:`~sanh.games.teen_patti_2020.TeenPattiView`. Player A and Player B are
the best bets of the table (house edge 2.50 %, ``sanh odds teen-patti-2020``); the bot picks one
of the two at random, bets the minimum once, and says Ready.
"""

from __future__ import annotations

from sanh.bots.base import RandomBot
from sanh.cards.rng import Rng
from sanh.games.base import Action, View
from sanh.games.teen_patti_2020 import Ready, TeenPattiView

__all__ = ["BOTS", "TeenPattiBot"]


class TeenPattiBot:
    """Minimum on Player A or Player B (chosen at random), then Ready."""

    def act(self, view: View, rng: Rng) -> Action:
        """The bot's action for its own view."""
        if isinstance(view, TeenPattiView) and view.viewer is not None and view.phase == "betting":
            if not any(amount for _, amount in view.my_bets):
                side = ("player_a", "player_b")[rng.randbelow(2)]
                for amount_range in view.amount_ranges:
                    if getattr(amount_range.template, "bet", "") == side:
                        return amount_range.at(amount_range.min)
            if Ready(view.viewer) in view.legal_actions:
                return Ready(view.viewer)
        return RandomBot().act(view, rng)


BOTS = {"teen-patti-2020": TeenPattiBot}
