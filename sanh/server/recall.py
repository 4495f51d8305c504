"""A finished hand as one seat may recall it (``GET /api/recall/<hand>``, RULES.md §2.10).

The hand's recorded events replay to its final state. The seat gets its own view of that state
(:meth:`~sanh.games.base.Game.observe`: what the rules show that seat once the hand is over) and
the hand's events as that seat could know them:

* a :class:`~sanh.games.base.Shuffle` is "the deal", ``{"type": "shuffle"}``: the deck order
  (the stock, the undealt cards, the other seats' hands) is never listed;
* a :class:`~sanh.games.base.Roll` (the dice, a random draw) is public, with its values;
* an action is its JSON form (``{"type": "Call", "seat": 1}``, cards as codes), except that
  another seat's action of a type its game keeps private (``GameInfo.private_actions``: the
  bets of house games whose views show only the table's totals) and another seat's
  :class:`~sanh.games.base.SitIn` (it carries that player's stack) are left out.

The actions that name cards name only cards put face up on the table (plays, discards, eats,
melds, a card turned up); a drawn card is not named by the draw.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sanh.games.base import Action, Event, Game, Roll, Shuffle, SitIn, TableConfig
from sanh.notation.jsonable import event_from_json, to_jsonable
from sanh.types import Seat

__all__ = ["recall_event", "recall_hand", "seen_by"]


def seen_by(game: Game[Any], event: Event, seat: Seat) -> bool:
    """Whether ``seat`` may know of ``event`` (its own actions, public ones, chance events)."""
    if isinstance(event, SitIn):
        return event.chair == seat
    if isinstance(event, Action) and isinstance(event, game.info.private_actions):
        return event.seat == seat
    return True


def recall_event(event: Event) -> dict[str, Any]:
    """The JSON form of an event in a recall: a shuffle without its order."""
    if isinstance(event, Shuffle):
        return {"type": "shuffle"}
    if isinstance(event, Roll):
        return {"type": "roll", "dice": list(event.dice)}
    out: dict[str, Any] = to_jsonable(event)
    return out


def recall_hand(
    game: Game[Any], config: TableConfig, events: Iterable[dict[str, Any]], seat: Seat
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Replay a recorded hand: the events ``seat`` may know of, and its view of the end.

    :param events: the hand's events in their JSON form (``event_from_json``), as logged.
    :return: ``(actions, view)``, both plain JSON.
    """
    state = game.new_state(config)
    actions: list[dict[str, Any]] = []
    for raw in events:
        body = {k: v for k, v in raw.items() if k not in {"kind", "seq"}}
        event = event_from_json(game, body)
        state = game.apply(state, event)
        if seen_by(game, event, seat):
            actions.append(recall_event(event))
    view: dict[str, Any] = to_jsonable(game.observe(state, seat))
    return actions, view
