"""Driving games outside the engines: chance events from an Rng, random legal play.

This is where randomness meets the engines: :func:`chance_event` turns a game's
:class:`~sanh.games.base.ChanceSpec` into a :class:`~sanh.games.base.Shuffle` or
:class:`~sanh.games.base.Roll` drawn from an :class:`~sanh.cards.rng.Rng`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sanh.cards.rng import Rng, roll_dice, shuffled
from sanh.games.base import CHANCE, Action, Event, Game, Roll, Shuffle, TableConfig

__all__ = ["chance_event", "random_action", "random_playout"]


def chance_event(game: Game[Any], state: Any, rng: Rng) -> Shuffle | Roll:
    """The chance event due now, drawn from ``rng``."""
    spec = game.chance_spec(state)
    if spec.kind == "shuffle":
        return Shuffle(shuffled(spec.deck, rng))
    return Roll(roll_dice(rng, spec.dice, spec.sides))


def random_action(game: Game[Any], state: Any, rng: Rng) -> Action:
    """A uniformly chosen legal action; amounts are drawn uniformly from their ranges."""
    actions = list(game.legal_actions(state))
    ranges = game.amount_ranges(state)
    choice = rng.randbelow(len(actions) + len(ranges))
    if choice < len(actions):
        return actions[choice]
    rng_range = ranges[choice - len(actions)]
    steps = (rng_range.max - rng_range.min) // rng_range.step
    amount = rng_range.min + rng_range.step * rng.randbelow(steps + 1)
    return rng_range.at(amount)


def random_playout(
    game: Game[Any],
    config: TableConfig,
    rng: Rng,
    *,
    policy: Callable[[Game[Any], Any, Rng], Action] = random_action,
    on_event: Callable[[Any, Event], None] | None = None,
) -> Any:
    """Play one hand to the end: chance from ``rng``, actions from ``policy``.

    :raises RuntimeError: if the hand does not end within ``game.info.max_actions`` events.
    """
    state = game.new_state(config)
    for _ in range(game.info.max_actions):
        turn = game.to_act(state)
        if turn is None:
            return state
        event: Event = (
            chance_event(game, state, rng) if turn is CHANCE else policy(game, state, rng)
        )
        if on_event is not None:
            on_event(state, event)
        state = game.apply(state, event)
    if game.to_act(state) is None:
        return state
    raise RuntimeError(f"{game.info.id}: hand not over after {game.info.max_actions} events")
