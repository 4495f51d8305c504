"""The table's chat: who may write, the rate, the history sent to whoever joins.

A line comes from a seated player, the host, or a spectator if the host allows
(``spectator_chat``); refused lines are said nowhere (:mod:`sanh.server.chat`). The lines said
during a hand are kept with it for its seats' recall (the hand runner hands them to the bank
with the settlement).
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from sanh.server import protocol as p
from sanh.server.chat import CHAT_BURST, CHAT_HISTORY, CHAT_PER_SECOND, ChatLimiter, clean_line
from sanh.server.table_types import Connection
from sanh.texts import text

if TYPE_CHECKING:
    from sanh.server.table import TableActor

__all__ = ["TableChat"]


class TableChat:
    """One table's chat."""

    def __init__(self, table: TableActor) -> None:
        self.t = table
        self.limiter = ChatLimiter(table.clock)
        """Each player's chat rate (the hall gives every table its own shared one)."""
        self.history: deque[p.ChatEntry] = deque(maxlen=CHAT_HISTORY)
        """The table's last chat lines, sent to whoever joins."""
        self.hand_lines: list[dict[str, Any]] = []
        """The lines said during the hand under way: kept with it for its seats' recall."""

    def say(self, conn: Connection, said: str) -> None:
        """``chat``: a line of table chat, to every watcher."""
        t = self.t
        player = conn.player.id
        if id(conn) not in t.watchers:
            t.out.refuse(conn, p.ErrorCode.NOT_AT_TABLE, "not_at_table")
            return
        seat = t.seat_of(player)
        if seat is None and player != t.spec.host and not t.spec.spectator_chat:
            t.out.refuse(conn, p.ErrorCode.CHAT_NOT_ALLOWED, "spectators_read_only")
            return
        line, problem = clean_line(said)
        if problem is not None:
            t.out.refuse(conn, *problem)
            return
        if not self.limiter.allows(player):
            reason = text("chat_too_fast", CHAT_BURST, f"{1 / CHAT_PER_SECOND:g}")
            t.out.refuse(conn, p.ErrorCode.CHAT_TOO_FAST, reason)
            return
        self.limiter.take(player)
        entry = p.ChatEntry(
            player=player, name=conn.player.name, text=line, at=t.clock.now(), seat=seat
        )
        self.history.append(entry)
        if t.state is not None:
            self.hand_lines.append(
                {"player": player, "name": entry.name, "text": line, "at": entry.at, "seat": seat}
            )
        t.out.to_all(p.ChatLine(table=t.id, line=entry))

    def allow_spectators(self, conn: Connection, allow: bool) -> None:
        """``chat_spectators``: the host lets spectators write in the chat, or not."""
        t = self.t
        if conn.player.id != t.spec.host:
            t.out.refuse(conn, p.ErrorCode.NOT_HOST, "host_sets_chat")
            return
        t.spec.spectator_chat = allow
        t.save()
        t.out.broadcast()
