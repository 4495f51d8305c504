"""Chat: table chat (in each :class:`~sanh.server.table.TableActor`) and the lobby's (here).

A line is plain text: trimmed, its control characters turned into spaces, at most
:data:`CHAT_MAX_CHARS` characters; it is stored and sent as the player typed it and the client
shows it as text (never as markup). Each player may say :data:`CHAT_BURST` lines at once, then
one every ``1 / CHAT_PER_SECOND`` seconds, over every table and the lobby together (a token
bucket on the hall's clock). A refused line (``chat_empty``, ``chat_too_long``,
``chat_too_fast``, ``chat_not_allowed``) is said nowhere and costs no token.

Muting a player is the client's (per browser): the server sends every line to everyone who may
read it.
"""

from __future__ import annotations

import re
from collections import deque
from typing import TYPE_CHECKING

from sanh.server import protocol as p
from sanh.server.clock import Clock
from sanh.texts import text

if TYPE_CHECKING:
    from sanh.server.table import Connection

__all__ = [
    "CHAT_BURST",
    "CHAT_HISTORY",
    "CHAT_MAX_CHARS",
    "CHAT_PER_SECOND",
    "ChatLimiter",
    "LobbyChat",
    "clean_line",
]

CHAT_MAX_CHARS = 200
"""The longest line (characters, once trimmed)."""
CHAT_BURST = 5
"""Lines a player may say at once."""
CHAT_PER_SECOND = 0.5
"""Lines a player may say per second once the burst is spent (one every 2 s)."""
CHAT_HISTORY = 30
"""Lines a table or the lobby keeps for those who come in."""

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def clean_line(raw: str) -> tuple[str, tuple[p.ErrorCode, str] | None]:
    """The line to say, or why it is refused (an error code and its text code)."""
    line = _CONTROL.sub(" ", raw).strip()
    if not line:
        return line, (p.ErrorCode.CHAT_EMPTY, "chat_empty")
    if len(line) > CHAT_MAX_CHARS:
        return line, (p.ErrorCode.CHAT_TOO_LONG, text("chat_too_long", CHAT_MAX_CHARS))
    return line, None


class ChatLimiter:
    """Per player token buckets (:data:`CHAT_BURST`, :data:`CHAT_PER_SECOND`)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}
        """Player id -> (tokens, when counted)."""

    def _tokens(self, player: str) -> tuple[float, float]:
        now = self.clock.now()
        tokens, stamp = self._buckets.get(player, (float(CHAT_BURST), now))
        return min(float(CHAT_BURST), tokens + (now - stamp) * CHAT_PER_SECOND), now

    def allows(self, player: str) -> bool:
        """Whether the player may say a line now (nothing is taken)."""
        return self._tokens(player)[0] >= 1

    def take(self, player: str) -> None:
        """Count a line said (after :meth:`allows`)."""
        tokens, now = self._tokens(player)
        self._buckets[player] = (tokens - 1, now)
        if len(self._buckets) > 10_000:  # forget the players whose buckets are full again
            self._buckets = {
                k: v
                for k, v in self._buckets.items()
                if v[0] + (now - v[1]) * CHAT_PER_SECOND < CHAT_BURST
            }


class LobbyChat:
    """The lobby's chat: the connections that listen and its last lines."""

    def __init__(self) -> None:
        self.listeners: dict[int, Connection] = {}
        self.history: deque[p.ChatEntry] = deque(maxlen=CHAT_HISTORY)

    def watch(self, conn: Connection, on: bool) -> None:
        """Start (answered by the history) or stop listening."""
        if on:
            self.listeners[id(conn)] = conn
            conn.send(p.ChatHistory(table=None, lines=list(self.history)))
        else:
            self.listeners.pop(id(conn), None)

    def forget(self, conn: Connection) -> None:
        """A connection closed."""
        self.listeners.pop(id(conn), None)

    def say(self, entry: p.ChatEntry) -> None:
        """Send a line to every listener and keep it."""
        self.history.append(entry)
        message = p.ChatLine(table=None, line=entry)
        for conn in list(self.listeners.values()):
            conn.send(message)
