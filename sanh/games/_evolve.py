"""``evolve``: :func:`dataclasses.replace` for the engines' frozen states, without its cost.

``dataclasses.replace`` walks the class's fields, builds a keyword dict and calls ``__init__``
(which sets every field through ``object.__setattr__``): some 5 µs for a 25-field state, paid
several times per event. :func:`evolve` does the same job from a function generated once per
class and set of changed fields (each slot set once, through its descriptor), several times
faster. It is exact for
frozen ``slots`` dataclasses without ``__post_init__`` or ``init=False`` fields, which is what
every game state is; any other class goes through ``dataclasses.replace`` itself.

:func:`put` is the tuple's own copy with one entry replaced.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["evolve", "put"]

T = TypeVar("T")

_MAKERS: dict[tuple[Any, ...], Callable[..., Any]] = {}


def evolve(obj: T, /, **changes: Any) -> T:
    """A copy of the dataclass instance ``obj`` with ``changes`` (like ``dataclasses.replace``).

    :raises TypeError: on a name that is not a field of ``obj``'s class.
    """
    key = (type(obj), *changes)
    make = _MAKERS.get(key)
    if make is None:
        make = _maker(type(obj), tuple(changes))
        if len(_MAKERS) < 4096:
            _MAKERS[key] = make
    result: T = make(obj, *changes.values())
    return result


def put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """A copy of the tuple ``values`` with ``values[index]`` replaced by ``value`` (a seat's
    entry of a per-seat field: ``put(state.stacks, seat, 0)``); the one tuple-replace helper
    of the engines."""
    return (*values[:index], value, *values[index + 1 :])


def _maker(cls: type, names: tuple[str, ...]) -> Callable[..., Any]:
    """A function ``(obj, *values)`` doing ``evolve(obj, **dict(zip(names, values)))``."""
    fields = dataclasses.fields(cls)
    plain = (
        "__slots__" in cls.__dict__
        and not hasattr(cls, "__post_init__")
        and all(f.init for f in fields)
        and {f.name for f in fields} == set(_all_slots(cls))
    )
    if not plain:
        return lambda obj, *values: dataclasses.replace(
            obj, **dict(zip(names, values, strict=True))
        )
    known = {f.name for f in fields}
    for name in names:
        if name not in known:
            raise TypeError(f"{cls.__name__} has no field {name!r}")
    return replacer(cls, names)


def _descriptor(cls: type, name: str) -> Any:
    return next(klass.__dict__[name] for klass in cls.__mro__ if name in klass.__dict__)


def _all_slots(cls: type) -> list[str]:
    slots: list[str] = []
    for klass in cls.__mro__:
        own = klass.__dict__.get("__slots__", ())
        slots.extend([own] if isinstance(own, str) else own)
    return [name for name in slots if name not in ("__weakref__", "__dict__")]


def builder(cls: type[T], names: tuple[str, ...]) -> Callable[..., T]:
    """A constructor of ``cls`` taking the fields ``names`` positionally, in that order,
    without ``__init__``: the caller gives every field (no defaults, no checks). For the hot
    paths that build a state per event."""
    setters = {name: _descriptor(cls, name).__set__ for name in names}
    args = ", ".join(f"a{index}" for index in range(len(names)))
    lines = [f"def build({args}):", "    new = new_(cls)"]
    lines += [f"    set_{index}(new, a{index})" for index in range(len(names))]
    lines.append("    return new")
    scope: dict[str, Any] = {"cls": cls, "new_": object.__new__}
    scope.update({f"set_{index}": setters[name] for index, name in enumerate(names)})
    exec("\n".join(lines), scope)  # the code is built from the class's own field names
    build: Callable[..., T] = scope["build"]
    return build


def replacer(cls: type[T], names: tuple[str, ...]) -> Callable[..., T]:
    """``f(obj, *values)``: a copy of ``obj`` (a ``cls``, exactly) with the fields ``names``
    set to ``values``, the others copied; :func:`evolve` for one fixed set of changes."""
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    args = ", ".join(f"a{index}" for index in range(len(names)))
    lines = [f"def replace(obj, {args}):", "    new = new_(cls)"]
    scope: dict[str, Any] = {"cls": cls, "new_": object.__new__}
    for index, f in enumerate(fields):
        scope[f"set_{index}"] = _descriptor(cls, f.name).__set__
        value = f"a{names.index(f.name)}" if f.name in names else f"obj.{f.name}"
        lines.append(f"    set_{index}(new, {value})")
    lines.append("    return new")
    exec("\n".join(lines), scope)  # the code is built from the class's own field names
    replace: Callable[..., T] = scope["replace"]
    return replace
