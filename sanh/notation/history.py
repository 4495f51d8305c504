"""Hand histories shared by every game: a JSON file that replays to the same states.

A history holds the game id, the table config, the events (chance events included, so the deck
order or the dice are recorded), an optional seed note and the settlement. ``replay`` applies
every event through the engine (validating each) and checks the recorded settlement.

Format (``"format": "sanh-history/1"``)::

    {"format": "sanh-history/1", "game": "three-card-poker",
     "config": {"seats": 1, "stake": 100, "stacks": [100000], "options": {}, "host": 0,
                "carry": null, "clan_members": [false]},
     "seed": "42", "events": [{"type": "Bet", "seat": 0, ...}, {"type": "shuffle", ...}],
     "settlement": {...}}

Hold'em also reads and writes PHH (:mod:`sanh.notation.phh`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sanh.errors import NotationError
from sanh.games import find_game
from sanh.games.base import Event, Game, Settlement, TableConfig
from sanh.notation.jsonable import event_from_json, to_jsonable

__all__ = [
    "FORMAT",
    "HandHistory",
    "config_from_json",
    "config_to_json",
    "dump_history",
    "load_history",
    "record_history",
    "replay_history",
]

FORMAT = "sanh-history/1"


@dataclass(frozen=True, slots=True)
class HandHistory:
    """One hand: enough to replay it exactly."""

    game: str
    config: TableConfig
    events: tuple[Event, ...]
    seed: str | None = None
    settlement: dict[str, Any] | None = None
    """The recorded settlement in JSON form, checked on replay."""


def record_history(game: Game[Any], state: Any, *, seed: str | None = None) -> HandHistory:
    """The history of a state (settled if terminal)."""
    settlement = to_jsonable(game.settle(state)) if game.is_terminal(state) else None
    return HandHistory(game.info.id, state.config, tuple(state.history), seed, settlement)


def config_to_json(config: TableConfig) -> dict[str, Any]:
    """The JSON form of a table config (read back by :func:`config_from_json`)."""
    return {
        "seats": config.seats,
        "stake": config.stake,
        "stacks": list(config.stacks),
        "options": dict(config.options),
        "host": config.host,
        "carry": to_jsonable(config.carry),
        "clan_members": list(config.clan_members),
    }


def dump_history(history: HandHistory) -> str:
    """The JSON text of a history."""
    data = {
        "format": FORMAT,
        "game": history.game,
        "config": config_to_json(history.config),
        "seed": history.seed,
        "events": [to_jsonable(e) for e in history.events],
        "settlement": history.settlement,
    }
    return json.dumps(data, ensure_ascii=False, indent=1)


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    if isinstance(value, dict):
        return {k: _tuples(v) for k, v in value.items()}
    return value


def config_from_json(data: Any, game: Game[Any] | None = None) -> TableConfig:
    """A table config from its JSON form. :raises NotationError: if malformed.

    With ``game``, options written under a deprecated name (configs recorded before the options
    took RULES.md's names: ``variant`` for ``tcp.variant``...) are read under their name.
    """
    if not isinstance(data, dict):
        raise NotationError("config must be an object")
    try:
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise NotationError("options must be an object")
        if game is not None:
            options = game.canonical_options(options)
        return TableConfig(
            seats=int(data["seats"]),
            stake=int(data["stake"]),
            stacks=tuple(int(s) for s in data["stacks"]),
            options=tuple(sorted(options.items())),
            host=int(data.get("host", 0)),
            carry=_tuples(data.get("carry")),
            clan_members=tuple(bool(c) for c in data.get("clan_members", ())),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise NotationError(f"bad config: {exc}") from None


def load_history(text: str) -> HandHistory:
    """Parse a history. :raises NotationError: if it is not a sanh history."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotationError(f"not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise NotationError(f"not a {FORMAT} document")
    try:
        game = find_game(str(data["game"]))
    except KeyError as exc:
        raise NotationError(str(exc)) from None
    events = data.get("events")
    if not isinstance(events, list):
        raise NotationError("events must be a list")
    return HandHistory(
        game=game.info.id,
        config=config_from_json(data.get("config"), game),
        events=tuple(event_from_json(game, e) for e in events),
        seed=data.get("seed"),
        settlement=data.get("settlement"),
    )


def replay_history(history: HandHistory) -> tuple[Any, Settlement | None]:
    """Replay every event; return the final state and its settlement (if terminal).

    :raises IllegalActionError: if an event is illegal.
    :raises NotationError: if the recorded settlement differs from the replayed one.
    """
    game = find_game(history.game)
    state = game.replay(history.config, history.events)
    if not game.is_terminal(state):
        return state, None
    settlement = game.settle(state)
    if history.settlement is not None and to_jsonable(settlement) != history.settlement:
        raise NotationError("the replayed settlement differs from the recorded one")
    return state, settlement
