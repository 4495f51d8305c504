"""A Tài Xỉu bot: the table minimum on Tài or Xỉu, confirmed ("Đồng ý"), then Ready.

It sees only its :class:`~sanh.games.tai_xiu.TaiXiuView`. Tài (big) and Xỉu (small) are the
bets with the lowest edge (``sanh odds tai-xiu``); the bot picks one at random, places the
minimum the table and the bank allow, confirms it and says Ready.
"""

from __future__ import annotations

from sanh.bots.base import RandomBot
from sanh.cards.rng import Rng
from sanh.games.base import Action, View
from sanh.games.tai_xiu import Confirm, Ready, TaiXiuView

__all__ = ["BOTS", "TaiXiuBot"]


class TaiXiuBot:
    """Minimum on Tài or Xỉu, Confirm, Ready."""

    def act(self, view: View, rng: Rng) -> Action:
        """The bot's action for its own view."""
        if isinstance(view, TaiXiuView) and view.viewer is not None and view.phase == "betting":
            seat = view.viewer
            if view.my_pending:
                return Confirm(seat)
            if not view.my_confirmed:
                sides = ("big", "small")[:: 1 if rng.randbelow(2) else -1]
                for side in sides:
                    for amount_range in view.amount_ranges:
                        if getattr(amount_range.template, "bet", "") == side:
                            return amount_range.at(amount_range.min)
            if Ready(seat) in view.legal_actions:
                return Ready(seat)
        return RandomBot().act(view, rng)


BOTS = {"tai-xiu": TaiXiuBot}
