"""The Liêng bot: hand strength against unseen hands.

It sees only its :class:`~sanh.games.lieng.LiengView`: its own three cards, the bets and the
balances. Its equity is a Monte Carlo estimate: every live opponent gets three random cards from
the 49 it cannot see, and the hands are compared with the Liêng ranking. The betting decision is
:func:`sanh.bots._stud.decide`; a winner by fold does not show.
"""

from __future__ import annotations

from sanh.bots._stud import Decision, decide
from sanh.cards.deck import DECK_52
from sanh.cards.rng import Rng, shuffled
from sanh.eval.lieng import lieng_key
from sanh.games.base import Action, View
from sanh.games.lieng import LiengView, Muck

__all__ = ["BOTS", "LiengBot", "lieng_equity"]


def lieng_equity(view: LiengView, rng: Rng, samples: int) -> float:
    """The viewer's expected share of the pot at a showdown, by ``samples`` random deals."""
    me = view.viewer
    assert me is not None
    mine = [c for c in view.cards[me] if c is not None]
    opponents = [
        s for s in range(len(view.stacks)) if view.in_hand[s] and not view.folded[s] and s != me
    ]
    unknown = [c for c in DECK_52 if c not in mine]
    my_key = lieng_key(mine)
    total = 0.0
    for _ in range(samples):
        deck = shuffled(unknown, rng)
        ties = 1
        lost = False
        for index in range(len(opponents)):
            key = lieng_key(deck[3 * index : 3 * index + 3])
            if key > my_key:
                lost = True
                break
            if key == my_key:
                ties += 1
        if not lost:
            total += 1.0 / ties
    return total / samples


class LiengBot:
    """A seeded heuristic Liêng player."""

    def __init__(self, samples: int = 300) -> None:
        self.samples = samples
        """Monte Carlo deals per decision."""

    def act(self, view: View, rng: Rng) -> Action:
        """A legal action for the viewer's seat."""
        assert isinstance(view, LiengView) and view.viewer is not None
        me = view.viewer
        actions = list(view.legal_actions)
        if not actions and not view.amount_ranges:
            raise ValueError("the view has no legal action")
        if Muck(me) in actions:
            return Muck(me)
        opponents = sum(
            1 for s in range(len(view.stacks)) if view.in_hand[s] and not view.folded[s] and s != me
        )
        decision = Decision(
            equity=lieng_equity(view, rng, self.samples),
            opponents=opponents,
            pot=sum(view.committed),
            to_call=view.to_call,
            stack=view.stacks[me],
            cheap=view.stake // 10,
        )
        return decide(decision, actions, view.amount_ranges, rng)


BOTS = {"lieng": LiengBot}
