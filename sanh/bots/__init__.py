"""Bots: players that see only their own seat's :class:`~sanh.games.base.View`.

Every module ``sanh/bots/<name>.py`` (not starting with ``_``, not ``base``) defines ``BOTS``,
a dict from game id to a factory taking no arguments and returning a :class:`Bot`.
:func:`bot_for` gives the registered bot of a game, or :class:`~sanh.bots.base.RandomBot`.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable

from sanh.bots.base import Bot, RandomBot

__all__ = ["BOT_FACTORIES", "Bot", "RandomBot", "bot_for"]

BOT_FACTORIES: dict[str, Callable[[], Bot]] = {}


def _load() -> None:
    for module_info in pkgutil.iter_modules(__path__):
        if module_info.name.startswith("_") or module_info.name == "base":
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        for game_id, factory in getattr(module, "BOTS", {}).items():
            if game_id in BOT_FACTORIES:
                raise RuntimeError(f"two bots registered for {game_id}")
            BOT_FACTORIES[game_id] = factory


def bot_for(game_id: str) -> Bot:
    """A new bot for the game (the game's own heuristic bot, else a random legal player)."""
    factory = BOT_FACTORIES.get(game_id)
    return factory() if factory is not None else RandomBot()


_load()
