"""The game registry.

Every non-underscore module of this package other than ``base``, ``driver`` and ``hosting`` is
a game module defining ``GAMES``, a tuple of :class:`~sanh.games.base.Game` instances. They are
registered by id and by every alias, with and without diacritics (``find_game("Tài Xỉu")``).
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from sanh.games.base import Game, normalize_name

__all__ = ["REGISTRY", "all_games", "find_game"]

REGISTRY: dict[str, Game[Any]] = {}
"""Games by id."""

_ALIASES: dict[str, str] = {}
_NOT_GAMES = {"base", "driver", "hosting"}


def _register(game: Game[Any]) -> None:
    info = game.info
    if info.id in REGISTRY:
        raise RuntimeError(f"game id {info.id!r} registered twice")
    REGISTRY[info.id] = game
    for name in (info.id, info.name, info.name_vi, *info.aliases):
        _ALIASES[normalize_name(name)] = info.id


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
