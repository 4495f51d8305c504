"""Bots for the 3-card point games (3 Cây Gà, Ba Cây Chương).

The games leave no decision beyond taking part and the bet: the bot joins (Ready), starts the
deal when it is the host and everyone has decided, bets the table's minimum (L) against the
banker, and flips its cards at once. It never leaves and draws no randomness.
"""

from __future__ import annotations

from sanh.cards.rng import Rng
from sanh.games._three_cards import Flip, Ready, Start
from sanh.games.ba_cay_chuong import Bet
from sanh.games.base import Action, View

__all__ = ["BOTS", "PointGameBot"]

_PREFERENCE = (Ready, Start, Bet, Flip)


class PointGameBot:
    """Ready, start, bet the minimum, flip."""

    def act(self, view: View, rng: Rng) -> Action:
        """The bot's action for its seat (``view.viewer``)."""
        legal = list(view.legal_actions)
        for amount_range in view.amount_ranges:
            if isinstance(amount_range.template, Bet):
                return amount_range.at(amount_range.min)
        for kind in _PREFERENCE:
            for action in legal:
                if isinstance(action, kind):
                    return action
        if not legal:
            raise ValueError("the view has no legal action")
        return legal[0]


BOTS = {"ba-cay-ga": PointGameBot, "ba-cay-chuong": PointGameBot}
