"""A faster :func:`sanh.notation.jsonable.to_jsonable` for the server's hot path (views).

Same output, value for value (``tests/server/test_fastjson.py`` checks it over random hands of
every game): the converter of each type is found once, by exact type, and cached; a dataclass's
converter knows its field names; cards come from a table of 52 strings. Anything unusual (a
subclass of a builtin, a type first seen) goes through ``to_jsonable`` itself, so the two can
never disagree on it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from enum import Enum
from typing import Any

from sanh.cards.card import Card
from sanh.games.base import Action, AmountRange, Roll, Shuffle
from sanh.notation.jsonable import to_jsonable

__all__ = ["jsonable"]

_CARD_TEXT = tuple(str(Card(i)) for i in range(52))


def _identity(value: Any) -> Any:
    return value


def _card(value: Any) -> Any:
    return _CARD_TEXT[value]


def _sequence(value: Any) -> Any:
    return [_convert(v) for v in value]


def _mapping(value: Any) -> Any:
    return {str(k): _convert(v) for k, v in value.items()}


_CONVERTERS: dict[type, Callable[[Any], Any]] = {
    Card: _card,
    bool: _identity,
    int: _identity,
    str: _identity,
    float: _identity,
    type(None): _identity,
    tuple: _sequence,
    list: _sequence,
    frozenset: _sequence,
    set: _sequence,
    dict: _mapping,
}


def _dataclass_converter(cls: type) -> Callable[[Any], Any]:
    names = tuple(f.name for f in dataclasses.fields(cls))
    tag = cls.__name__ if issubclass(cls, Action) else None

    def convert(value: Any) -> Any:
        out: dict[str, Any] = {} if tag is None else {"type": tag}
        for name in names:
            out[name] = _convert(getattr(value, name))
        return out

    return convert


def _converter(cls: type) -> Callable[[Any], Any]:
    special = (AmountRange, Shuffle, Roll)
    if issubclass(cls, Enum) and not issubclass(cls, bool | int | str | float):
        converter: Callable[[Any], Any] = _enum
    elif dataclasses.is_dataclass(cls) and not issubclass(cls, special):
        converter = _dataclass_converter(cls)
    else:
        converter = to_jsonable
    _CONVERTERS[cls] = converter
    return converter


def _enum(value: Any) -> Any:
    return value.value


def _convert(value: Any) -> Any:
    converter = _CONVERTERS.get(type(value))
    if converter is None:
        converter = _converter(type(value))
    return converter(value)


def jsonable(value: Any) -> Any:
    """The JSON-compatible form of engine data, exactly as ``to_jsonable`` gives it."""
    return _convert(value)
