"""A Three Card Poker bot: the table minimum on the Ante, then the optimal "Q-6-4 or better".

It sees only its :class:`~sanh.games.three_card_poker.TcpView`. In the betting window it places
the minimum Ante (and nothing else) and says Ready; at the decision it plays every hand at least
as strong as Q-6-4 (the optimal strategy found by ``sanh odds three-card-poker``) and folds the
rest.
"""

from __future__ import annotations

from sanh.bots.base import RandomBot
from sanh.cards.card import parse_cards
from sanh.cards.rng import Rng
from sanh.eval import tcp_rank
from sanh.games.base import Action, View
from sanh.games.three_card_poker import Fold, Play, Ready, TcpView

__all__ = ["BOTS", "ThreeCardPokerBot"]

PLAY_FROM = tcp_rank(parse_cards("Qc 6d 4h"))
"""The weakest hand the optimal strategy plays."""


class ThreeCardPokerBot:
    """Minimum Ante, then Play with Q-6-4 or better."""

    def act(self, view: View, rng: Rng) -> Action:
        """The bot's action for its own view."""
        if isinstance(view, TcpView) and view.viewer is not None:
            if view.phase == "betting":
                for amount_range in view.amount_ranges:
                    if getattr(amount_range.template, "bet", "") == "ante":
                        return amount_range.at(amount_range.min)
                if Ready(view.viewer) in view.legal_actions:
                    return Ready(view.viewer)
            if view.phase == "decision":
                hand = [c for c in view.player_hand if c is not None]
                play = Play(view.viewer)
                if len(hand) == 3 and tcp_rank(hand) >= PLAY_FROM and play in view.legal_actions:
                    return play
                return Fold(view.viewer)
        return RandomBot().act(view, rng)


BOTS = {"three-card-poker": ThreeCardPokerBot}
