"""The table's plain parts: a connection, a seat, a table's setup, the log writer, a leave quote.

Shared by the table actor (:mod:`sanh.server.table`) and its collaborators
(``sanh/server/table_*.py``); nothing here knows a game.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import random
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from sanh.bots import Bot
from sanh.errors import IllegalActionError
from sanh.server import protocol as p
from sanh.server.services import Bank, PlayerInfo

__all__ = [
    "BOT_ACTIONS_PER_WINDOW",
    "MAX_NONCES",
    "RECENT_RECORDS",
    "BotRng",
    "Connection",
    "HoldRefused",
    "LeaveQuote",
    "LogWriter",
    "SeatSlot",
    "TableSpec",
]

BOT_ACTIONS_PER_WINDOW = 3
"""A bot acts at most this many times in one window (a betting window, a squeeze window)."""
RECENT_RECORDS = 100
"""How many hands' public records a table keeps (the Tài Xỉu road's last 100 rounds)."""
MAX_NONCES = 512
"""Accepted nonces remembered per player and table (a repeat is acknowledged, not applied)."""


class HoldRefused(IllegalActionError):
    """A house game's bet that the player's wallet (or the host's bank) cannot cover now."""


class Connection:
    """One WebSocket client as the tables see it: an id, a player and an outbound queue."""

    def __init__(self, player: PlayerInfo, send_limit: int = 256) -> None:
        self.player = player
        self.outbox: asyncio.Queue[bytes | None] = asyncio.Queue(maxsize=send_limit)
        self.tables: set[str] = set()
        self.closed = False
        self.hands_shown: dict[str, int] = {}
        """Table id -> the number of the last hand this connection was sent a view of: an
        ``act`` is for that hand (a version alone does not say which hand it is of)."""

    def send(self, message: p.ServerMessage) -> None:
        """Queue a message; a client too slow to drain its queue is disconnected."""
        if not self.closed:
            self.send_encoded(p.encode(message))

    def send_encoded(self, data: bytes) -> None:
        """Queue a message already encoded (one encoding shared by several connections)."""
        if self.closed:
            return
        try:
            self.outbox.put_nowait(data)
        except asyncio.QueueFull:
            self.close()

    def close(self) -> None:
        """Close the connection (the writer task ends)."""
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.put_nowait(None)


def resume_token(key: bytes, table: str, seat: int, player: str) -> str:
    """The resume token of ``player`` at ``seat`` of ``table``: a MAC under the hall's key
    (:meth:`WalletServices.hall_secret`), so a table rebuilt by another node of the cluster,
    or after a restart, gives its players the tokens they hold already."""
    message = f"resume\0{table}\0{seat}\0{player}".encode()
    digest = hmac.new(key, message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


@dataclass(slots=True)
class SeatSlot:
    """A taken seat."""

    player: PlayerInfo
    resume_token: str
    bot: Bot | None = None
    connected: bool = True
    leaving: bool = False
    """The seat left the hand now (``leave_now``, or a bot sent away): the game's ``"leave"``
    default applies to it, and the seat goes at the end of the hand."""
    after_hand: str | None = None
    """A leave asked for during the hand (``"leave"`` or ``"stand"``): the seat plays on and
    goes at the hand's result, a ``"leave"`` also stops watching (cancelled by
    ``cancel_leave``)."""
    restored: bool = False
    """Rebuilt after a restart and not reclaimed yet: timeouts play it (RULES.md §2.8)."""
    ready: bool = False
    """A Tẩy-game player is ready once bought in; everyone else at once."""
    sat_at: float = field(default_factory=time.time)
    buyin_deadline: float | None = None
    away_deadline: float | None = None
    """A seat whose player is gone between hands is kept until then (the reconnection grace)."""
    dropped_at: float | None = None
    """When the player's last connection dropped (None while connected)."""

    @property
    def present(self) -> bool:
        """Whether a person or a bot is there to play the seat."""
        return self.bot is not None or (self.connected and not self.restored)


@dataclass(slots=True)
class TableSpec:
    """A table's setup, chosen by its host (or the hall for system tables)."""

    game: str
    stake: int
    seats: int
    options: dict[str, Any] = field(default_factory=dict)
    quick: bool = False
    private: bool = False
    invite_code: str | None = None
    host: str | None = None
    system: bool = False
    name: str = ""
    bots: list[int] = field(default_factory=list)
    """Table seats held by bots (kept across restarts)."""
    bank: int = 0
    """A player-hosted table's bank: what its banker (``host``) chose with a ``host`` message;
    0: no banker (betting closed, RULES.md §5.7)."""
    spectator_chat: bool = False
    """The host lets spectators write in the table's chat (``chat_spectators``)."""
    tournament: str | None = None
    """A tournament's table (:mod:`sanh.server.tournaments`): the seats are its entrants'
    (``entrants``, in seat order), the chips its own; nobody sits, leaves or buys in, and an
    absent player is played by the game's timeout default on each turn, never removed."""
    entrants: list[str] = field(default_factory=list)


class LogWriter:
    """The actors' side of the event log's group commit (:mod:`sanh.server.eventlog`).

    An actor awaits :meth:`write` after each command and sends its messages only then, so
    nobody hears of an event before it is durable. The bank commits the events of every table
    in groups, on a writer thread: the commands of many tables share one fsync, and the event
    loop never waits for the disk.
    """

    def __init__(self, bank: Bank) -> None:
        self.bank = bank
        self.events = 0

    async def write(self, table: str, events: list[tuple[int, int, dict[str, Any]]]) -> None:
        """Append ``(hand, seq, event)`` entries of a table; returns once every event handed
        to the bank so far is durable."""
        if events:
            self.bank.log_events([(table, hand, seq, event) for hand, seq, event in events])
            self.events += len(events)
        await self.bank.sync()


@dataclass(frozen=True, slots=True)
class LeaveQuote:
    """What leaving now was quoted to cost one player (``leave_quote``)."""

    quote_id: str
    hand: int
    in_hand: bool
    cost: int
    basis: str


class BotRng:
    """Bots' randomness: a fast PRNG seeded from the OS (bots' choices are not secret draws;
    the deck and the dice always come from the hand's provably fair stream)."""

    def __init__(self) -> None:
        self._random = random.Random(secrets.randbits(128))

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        return self._random.randrange(n)
