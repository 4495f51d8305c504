"""Plain-JSON forms of engine data (actions, chance events, views, settlements).

Cards become strings ("As"), tuples become lists, dataclasses become objects; an action object
carries its declared wire name (:attr:`~sanh.games.base.Action.wire`, never the Python class
name) under ``"type"``. :func:`event_from_json` reads an event back for a game, by its wire
name or one it had before (:attr:`~sanh.games.base.Action.wire_aliases`), so stored logs
written with an old name still replay.
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from typing import Any

from sanh.cards.card import Card, parse_card
from sanh.errors import NotationError
from sanh.games.base import Action, AmountRange, Game, Roll, Shuffle

__all__ = ["action_types_by_wire", "event_from_json", "to_jsonable"]


def to_jsonable(value: Any) -> Any:
    """A JSON-compatible form of engine data."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, bool | int | str | float) or value is None:
        return value
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, AmountRange):
        return {
            "action": to_jsonable(value.template),
            "field": value.field,
            "min": value.min,
            "max": value.max,
            "step": value.step,
        }
    if isinstance(value, Shuffle):
        return {"type": "shuffle", "order": [str(c) for c in value.order]}
    if isinstance(value, Roll):
        return {"type": "roll", "dice": list(value.dice)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        if isinstance(value, Action):
            out["type"] = value.wire
        for f in dataclasses.fields(value):
            out[f.name] = to_jsonable(getattr(value, f.name))
        return out
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, tuple | list | frozenset | set):
        return [to_jsonable(v) for v in value]
    raise TypeError(f"cannot make {type(value).__name__} JSON: {value!r}")


def event_from_json(game: Game[Any], data: Any) -> Action | Shuffle | Roll:
    """Read an action or chance event of ``game`` from its JSON form.

    :raises NotationError: if the object is not an event of this game.
    """
    if not isinstance(data, dict) or "type" not in data:
        raise NotationError(f"not an event object: {data!r}")
    kind = data["type"]
    if kind == "shuffle":
        return Shuffle(tuple(parse_card(str(c)) for c in _list(data, "order")))
    if kind == "roll":
        dice = _list(data, "dice")
        if not all(isinstance(d, int) and not isinstance(d, bool) for d in dice):
            raise NotationError(f"dice must be integers: {dice!r}")
        return Roll(tuple(dice))
    cls = action_types_by_wire(game.info.action_types).get(kind) if isinstance(kind, str) else None
    if cls is not None:
        return _build(cls, data)
    raise NotationError(f"{game.info.id} has no action {kind!r}")


@lru_cache(maxsize=256)
def action_types_by_wire(action_types: tuple[type[Action], ...]) -> dict[str, type[Action]]:
    """A game's action classes by wire name and by every old name (an old name never takes a
    name in use).

    :raises ValueError: if two action classes of the game declare the same wire name.
    """
    out: dict[str, type[Action]] = {}
    for cls in action_types:
        if out.setdefault(cls.wire, cls) is not cls:
            raise ValueError(f"two actions are named {cls.wire!r} on the wire")
    for cls in action_types:
        for alias in cls.wire_aliases:
            out.setdefault(alias, cls)
    return out


def _list(data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        raise NotationError(f"{key!r} must be a list in {data!r}")
    return value


def _build(cls: type[Action], data: dict[str, Any]) -> Action:
    kwargs: dict[str, Any] = {}
    hints = {f.name: f for f in dataclasses.fields(cls)}
    for old, new in cls.field_aliases:
        if old in data:
            if new in data:
                raise NotationError(f"both {old!r} and {new!r} given for {cls.wire}")
            data = {(new if key == old else key): value for key, value in data.items()}
    extra = set(data) - set(hints) - {"type"}
    if extra:
        raise NotationError(f"unexpected fields {sorted(extra)} for {cls.wire}")
    for name, f in hints.items():
        if name not in data:
            if f.default is not dataclasses.MISSING:
                continue
            raise NotationError(f"missing field {name!r} for {cls.wire}")
        kwargs[name] = _coerce(str(f.type), data[name], name)
    return cls(**kwargs)


def _coerce(type_text: str, value: Any, name: str) -> Any:
    """Coerce JSON to a field type written as a string annotation."""
    if "Card" in type_text:
        if isinstance(value, list):
            return tuple(None if v is None else parse_card(str(v)) for v in value)
        if value is None:
            return None
        return parse_card(str(value))
    if type_text.startswith("tuple"):
        if not isinstance(value, list):
            raise NotationError(f"field {name!r} must be a list")
        return tuple(value)
    if "int" in type_text and "str" not in type_text:
        if value is None and "None" in type_text:
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            if "bool" in type_text and isinstance(value, bool):
                return value
            raise NotationError(f"field {name!r} must be an integer, got {value!r}")
        return value
    if type_text == "bool":
        if not isinstance(value, bool):
            raise NotationError(f"field {name!r} must be true or false")
        return value
    if type_text == "str":
        if not isinstance(value, str):
            raise NotationError(f"field {name!r} must be a string")
        return value
    return value
