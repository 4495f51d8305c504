"""Betting decisions shared by the Xì tố and Liêng bots: from an equity to a legal action.

A bot estimates its equity (its expected share of the pot at a showdown, by Monte Carlo over the
cards it cannot see) and compares it with the price of staying in:

* strong (equity well above a fair share of the pot) → bet or raise, sized with the equity;
* enough to continue (equity at least the pot odds of a call, with a margin, or a small call
  with a near-fair share) → call or check;
* otherwise → check if free, else fold.

A small, seeded chance of a bluff or a slow play keeps it from being read too easily. Every draw
comes from the bot's ``Rng``, so a bot is deterministic under a seed; it only reads its own
seat's :class:`~sanh.games.base.View`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sanh.cards.rng import Rng
from sanh.games.base import Action, AmountRange

__all__ = ["Decision", "decide"]


@dataclass(frozen=True, slots=True)
class Decision:
    """What the bot knows about the spot, besides the legal actions."""

    equity: float
    """Expected share of the whole pot at the showdown (0..1)."""
    opponents: int
    """Live opponents."""
    pot: int
    """Everything put in so far."""
    to_call: int
    """What a call costs now."""
    stack: int
    """What the bot has behind."""
    cheap: int = 0
    """A call this small is made with any hand near a fair share (the table's small bet)."""


BLUFF_RATE = 0.06
SLOW_PLAY_RATE = 0.15


def decide(
    decision: Decision,
    actions: Sequence[Action],
    ranges: Sequence[AmountRange],
    rng: Rng,
) -> Action:
    """A legal action for the spot (one of ``actions`` or an amount within ``ranges``)."""
    by_name = {a.wire: a for a in actions}
    fold, check, call = by_name.get("Fold"), by_name.get("Check"), by_name.get("Call")
    raise_range = ranges[0] if ranges else None
    fair = 1.0 / (decision.opponents + 1)
    equity = decision.equity
    roll = rng.randbelow(1000) / 1000
    free = decision.to_call == 0
    strong = equity >= max(0.55, 1.6 * fair)
    if raise_range is not None and (
        (strong and roll >= SLOW_PLAY_RATE) or (free and roll < BLUFF_RATE)
    ):
        return raise_range.at(_raise_amount(decision, raise_range, rng))
    if free:
        if check is not None:
            return check
        if call is not None:  # Liêng: a call owing nothing is the check
            return call
        # No check (Xì tố variant 2): the smallest bet, unless the hand is hopeless.
        if raise_range is not None and (equity >= 0.5 * fair or fold is None):
            return raise_range.at(raise_range.min)
        assert fold is not None
        return fold
    # Pot odds; an empty pot (Xì tố round 1) counts the calls still to come.
    pot = max(decision.pot, decision.to_call * (decision.opponents + 1))
    price = decision.to_call / (pot + decision.to_call)
    cheap = decision.to_call <= decision.cheap and equity >= 0.6 * fair
    if call is not None and (equity >= price * 1.1 or cheap):
        return call
    if call is not None and fold is None:
        return call
    if fold is not None:
        return fold
    return actions[0]


def _raise_amount(decision: Decision, raise_range: AmountRange, rng: Rng) -> int:
    """Between the minimum and the maximum: bigger with more equity and a bigger pot."""
    low, high = raise_range.min, raise_range.max
    if high <= low:
        return low
    target = low + int((decision.pot * max(0.0, decision.equity - 0.25)) * 1.5)
    jitter = rng.randbelow(max(1, (high - low) // 10 + 1))
    return max(low, min(high, target + jitter))
