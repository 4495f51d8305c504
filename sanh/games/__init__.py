"""The game registry.

Every non-underscore module of this package other than ``base``, ``driver`` and ``hosting`` is
a game module defining ``GAMES``, a tuple of :class:`~sanh.games.base.Game` instances. They are
registered by id and by every alias, with and without diacritics (``find_game("Tài Xỉu")``).

Games from other packages are registered through the ``sanh.games`` entry point group
(:data:`ENTRY_POINT_GROUP`): a distribution declares, in its ``pyproject.toml``::

    [project.entry-points."sanh.games"]
    high-card = "sanh_high_card:GAMES"

where the object named is a module defining ``GAMES``, a tuple (or list) of games, a game, or
a :class:`~sanh.games.base.Game` subclass (instantiated with no argument). They are loaded when
this package is first imported, and again by :func:`load_entry_points` (for entry points
installed since). A built-in id cannot be taken, nor a name or alias already registered; an
entry point that fails to load is skipped with a :class:`RuntimeWarning`.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import pkgutil
import warnings
from types import ModuleType
from typing import Any

from sanh.games.base import Game, normalize_name

__all__ = ["ENTRY_POINT_GROUP", "REGISTRY", "all_games", "find_game", "load_entry_points"]

ENTRY_POINT_GROUP = "sanh.games"
"""The entry point group through which other packages add games."""

REGISTRY: dict[str, Game[Any]] = {}
"""Games by id."""

_ALIASES: dict[str, str] = {}
_NOT_GAMES = {"base", "driver", "hosting"}
_LOADED: set[tuple[str, str]] = set()
"""The entry points already loaded: (name, value)."""


def _register(game: Game[Any], *, keep_names: bool = False) -> None:
    """Register ``game`` by id and names; ``keep_names``: a name already taken stays with its
    game (entry points never take a built-in game's name)."""
    info = game.info
    if info.id in REGISTRY:
        raise RuntimeError(f"game id {info.id!r} registered twice")
    REGISTRY[info.id] = game
    for name in (info.id, info.name, info.name_vi, *info.aliases):
        key = normalize_name(name)
        if not keep_names or key not in _ALIASES:
            _ALIASES[key] = info.id


def _games_of(target: object) -> list[Game[Any]]:
    """The games an entry point names (see the module docstring)."""
    if isinstance(target, ModuleType):
        target = getattr(target, "GAMES", ())
    if isinstance(target, type) and issubclass(target, Game):
        target = target()
    if isinstance(target, Game):
        return [target]
    if isinstance(target, tuple | list) and all(isinstance(g, Game) for g in target):
        return list(target)
    raise TypeError(f"not a game nor a tuple of games: {target!r}")


def _entry_points() -> list[importlib.metadata.EntryPoint]:
    return list(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP))


def load_entry_points() -> list[Game[Any]]:
    """Register the games of the ``sanh.games`` entry points not loaded yet; the games added."""
    added: list[Game[Any]] = []
    for entry in _entry_points():
        key = (entry.name, entry.value)
        if key in _LOADED:
            continue
        _LOADED.add(key)
        try:
            games = _games_of(entry.load())
        except Exception as error:  # a broken plugin must not take the hall down
            message = f"{ENTRY_POINT_GROUP} entry point {entry.name!r}: {error!r}"
            warnings.warn(message, RuntimeWarning, stacklevel=2)
            continue
        for game in games:
            if game.info.id in REGISTRY:
                message = f"{ENTRY_POINT_GROUP} entry point {entry.name!r}: {game.info.id!r} taken"
                warnings.warn(message, RuntimeWarning, stacklevel=2)
                continue
            _register(game, keep_names=True)
            added.append(game)
    return added


def _load() -> None:
    for module_info in pkgutil.iter_modules(__path__):
        name = module_info.name
        if name.startswith("_") or name in _NOT_GAMES:
            continue
        module = importlib.import_module(f"{__name__}.{name}")
        for game in getattr(module, "GAMES", ()):
            _register(game)


def find_game(name: str) -> Game[Any]:
    """The game with this id, name or alias (diacritics and case ignored).

    :raises KeyError: with the known ids, if there is none.
    """
    key = _ALIASES.get(normalize_name(name))
    if key is None:
        known = ", ".join(sorted(REGISTRY))
        raise KeyError(f"unknown game {name!r}; known games: {known}")
    return REGISTRY[key]


def all_games() -> list[Game[Any]]:
    """Every registered game, sorted by id."""
    return [REGISTRY[key] for key in sorted(REGISTRY)]


_load()
load_entry_points()
