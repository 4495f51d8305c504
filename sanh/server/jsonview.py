"""A faster :func:`sanh.notation.jsonable.to_jsonable` for the server's hot path (views).

The output is the same as ``to_jsonable``'s (the tests compare them); the speed comes from
dispatching on the exact type and caching each dataclass's field names. Anything unusual
(enums, fractions, amount ranges, chance events) goes to ``to_jsonable`` itself.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from sanh.cards.card import Card
from sanh.games.base import Action, AmountRange, Roll, Shuffle
from sanh.notation.jsonable import to_jsonable

__all__ = ["fast_jsonable"]

_PLAIN = (int, str, bool, float, type(None))
_CARD_NAMES = {index: str(Card(index)) for index in range(52)}
_FIELDS: dict[type, tuple[str, ...] | None] = {}
"""Per dataclass type: its field names (``None``: not a plain dataclass, use to_jsonable)."""


def _fields_of(kind: type) -> tuple[str, ...] | None:
    if kind in _FIELDS:
        return _FIELDS[kind]
    names: tuple[str, ...] | None = None
    plain = not issubclass(kind, AmountRange | Shuffle | Roll)
    if dataclasses.is_dataclass(kind) and plain:
        names = tuple(f.name for f in dataclasses.fields(kind))
    _FIELDS[kind] = names
    return names


def fast_jsonable(value: Any) -> Any:
    """The JSON-compatible form of engine data, exactly as ``to_jsonable`` makes it."""
    kind = type(value)
    if kind is Card:
        return _CARD_NAMES[int(value)]
    if kind in _PLAIN:
        return value
    if kind is tuple or kind is list:
        return [fast_jsonable(item) for item in value]
    if kind is dict:
        return {str(k): fast_jsonable(v) for k, v in value.items()}
    names = _fields_of(kind)
    if names is None:
        return to_jsonable(value)
    out: dict[str, Any] = {}
    if isinstance(value, Action):
        out["type"] = value.wire
    for name in names:
        out[name] = fast_jsonable(getattr(value, name))
    return out
