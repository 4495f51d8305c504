"""The Xì tố bot: hand strength against what is showing.

It sees only its :class:`~sanh.games.xi_to.XiToView`: its own cards (hole card included), every
face-up card at the table, the bets and stacks. Its equity is a Monte Carlo estimate: the cards it
cannot see (the others' hole cards and the cards still to come) are dealt at random from the
28-card deck minus every card it can see, and each run's five-card hands are compared with the
Xì tố ranking. The betting decision is :func:`sanh.bots._stud.decide`.

Other steps: in variant 2 it turns up its lower card (keeping the stronger one hidden); as the
first bettor choosing the table rules it keeps them off; a winner by fold does not show.
"""

from __future__ import annotations

from sanh.bots._stud import Decision, decide
from sanh.cards.deck import DECK_28
from sanh.cards.rng import Rng, shuffled
from sanh.eval.xito import xito_key, xito_suit_value
from sanh.games.base import Action, View
from sanh.games.xi_to import Muck, SetRules, TurnUp, XiToView

__all__ = ["BOTS", "XiToBot", "xito_equity"]


def xito_equity(view: XiToView, rng: Rng, samples: int) -> float:
    """The viewer's expected share of the pot at a showdown, by ``samples`` random deals."""
    me = view.viewer
    assert me is not None
    live = [s for s in range(len(view.stacks)) if view.in_hand[s] and not view.folded[s]]
    known = {c for seat_cards in view.cards for c in seat_cards if c is not None}
    unknown = [c for c in DECK_28 if c not in known]
    needed = {s: 5 - sum(1 for c in view.cards[s] if c is not None) for s in live}
    total = 0.0
    for _ in range(samples):
        deck = shuffled(unknown, rng)
        position = 0
        best: tuple[int, ...] | None = None
        winners: list[int] = []
        for seat in live:
            hand = [c for c in view.cards[seat] if c is not None]
            hand.extend(deck[position : position + needed[seat]])
            position += needed[seat]
            key = xito_key(hand)
            if best is None or key > best:
                best, winners = key, [seat]
            elif key == best:
                winners.append(seat)
        if me in winners:
            total += 1.0 / len(winners)
    return total / samples


class XiToBot:
    """A seeded heuristic Xì tố player."""

    def __init__(self, samples: int = 200) -> None:
        self.samples = samples
        """Monte Carlo deals per decision."""

    def act(self, view: View, rng: Rng) -> Action:
        """A legal action for the viewer's seat."""
        assert isinstance(view, XiToView) and view.viewer is not None
        me = view.viewer
        actions = list(view.legal_actions)
        if not actions and not view.amount_ranges:
            raise ValueError("the view has no legal action")
        turn_ups = [a for a in actions if isinstance(a, TurnUp)]
        if turn_ups:
            return min(turn_ups, key=lambda a: (a.card >> 2, xito_suit_value(a.card)))
        if any(isinstance(a, SetRules) for a in actions):
            return SetRules(me, False, False)
        if Muck(me) in actions:
            return Muck(me)
        live = [
            s for s in range(len(view.stacks)) if view.in_hand[s] and not view.folded[s] and s != me
        ]
        decision = Decision(
            equity=xito_equity(view, rng, self.samples),
            opponents=len(live),
            pot=sum(view.committed),
            to_call=view.to_call,
            stack=view.stacks[me],
            cheap=view.stake // 10,
        )
        return decide(decision, actions, view.amount_ranges, rng)


BOTS = {"xi-to": XiToBot}
