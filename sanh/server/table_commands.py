"""The table actor's commands: one frozen dataclass per thing a table can be asked to do.

Connection handlers, the table's own timers and the hall put these on an actor's queue
(:meth:`~sanh.server.table.TableActor.submit`); the actor applies them one at a time, matched
by type (``match command: case Sit(conn, seat): ...``). A client's command carries its
:class:`~sanh.server.table_types.Connection`; the table's own (a timer, the bots, the start of
a hand) carry none.

:func:`from_kind` is the bridge for callers that still name a command by its word
(``actor.submit("sit", conn, 2)``): it checks the payload's type and builds the command, so a
wrong payload is refused at the door, never inside the actor.
"""

from __future__ import annotations

from dataclasses import dataclass

from sanh.server import protocol as p
from sanh.server.table_types import Connection

__all__ = [
    "Act",
    "AddBots",
    "Bots",
    "BuyIn",
    "CancelLeave",
    "Chat",
    "ChatSpectators",
    "Command",
    "Disconnect",
    "Host",
    "Join",
    "Leave",
    "LeaveNow",
    "QuoteLeave",
    "Recover",
    "RemoveBots",
    "Resume",
    "ResumeHand",
    "Sit",
    "Stand",
    "Start",
    "Sync",
    "Tick",
    "client_of",
    "from_kind",
]


# ----- a client's commands (docs/protocol.md) --------------------------------------------------
@dataclass(frozen=True, slots=True)
class Join:
    """Watch the table (a private one needs its ``invite`` code, or a seat, or to host it)."""

    conn: Connection
    invite: str | None = None


@dataclass(frozen=True, slots=True)
class Resume:
    """Take back a seat with its resume token (after a reload or a restart)."""

    conn: Connection
    token: str


@dataclass(frozen=True, slots=True)
class Leave:
    """Stop watching; a seat goes now between hands, after the hand during one."""

    conn: Connection


@dataclass(frozen=True, slots=True)
class Disconnect:
    """The connection dropped (the seat keeps its clock: RULES.md §2.7)."""

    conn: Connection


@dataclass(frozen=True, slots=True)
class Sit:
    """Take ``seat`` (``None``: the first free one)."""

    conn: Connection
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class BuyIn:
    """Bring ``amount`` to a Tẩy table (or top up between hands)."""

    conn: Connection
    amount: int


@dataclass(frozen=True, slots=True)
class Stand:
    """Free the seat but keep watching (after the hand during one)."""

    conn: Connection


@dataclass(frozen=True, slots=True)
class CancelLeave:
    """Cancel a leave (or stand) asked for during the hand."""

    conn: Connection


@dataclass(frozen=True, slots=True)
class QuoteLeave:
    """Ask what leaving now costs (``leave_quote``)."""

    conn: Connection


@dataclass(frozen=True, slots=True)
class LeaveNow:
    """Leave now at the cost of the quote ``quote_id``."""

    conn: Connection
    quote_id: str


@dataclass(frozen=True, slots=True)
class Host:
    """Bank a player-hosted table with ``amount`` (or change the bank for the next round)."""

    conn: Connection
    amount: int


@dataclass(frozen=True, slots=True)
class Chat:
    """A line of table chat."""

    conn: Connection
    text: str


@dataclass(frozen=True, slots=True)
class ChatSpectators:
    """The host lets spectators write in the chat, or not."""

    conn: Connection
    allow: bool


@dataclass(frozen=True, slots=True)
class Act:
    """A player's action in the hand (the protocol's ``act``, checked by the hand runner)."""

    conn: Connection
    message: p.Act


# ----- a client's or the hall's ------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class AddBots:
    """Fill up to ``count`` empty seats with bots (the host, or the hall: ``conn`` None)."""

    conn: Connection | None
    count: int


@dataclass(frozen=True, slots=True)
class RemoveBots:
    """Send the bots away (at the end of the hand for those in it)."""

    conn: Connection | None


# ----- the table's own ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Tick:
    """A deadline passed (a turn, a window, a buy-in panel, a reconnection grace)."""


@dataclass(frozen=True, slots=True)
class Bots:
    """The bots to act at state ``version`` think no longer (ignored if the state moved on)."""

    version: int


@dataclass(frozen=True, slots=True)
class Start:
    """The pause between hands is over: deal if enough players are ready."""


@dataclass(frozen=True, slots=True)
class ResumeHand:
    """Play on a hand rebuilt after a restart (RULES.md §2.8)."""


@dataclass(frozen=True, slots=True)
class Recover:
    """Nothing more than the lazy rebuild every first command of a restored table does."""


@dataclass(frozen=True, slots=True)
class Sync:
    """Nothing: awaited, it tells that every command before it was handled."""


Command = (
    Join
    | Resume
    | Leave
    | Disconnect
    | Sit
    | BuyIn
    | Stand
    | CancelLeave
    | QuoteLeave
    | LeaveNow
    | Host
    | Chat
    | ChatSpectators
    | Act
    | AddBots
    | RemoveBots
    | Tick
    | Bots
    | Start
    | ResumeHand
    | Recover
    | Sync
)
"""Every command a table actor applies."""


def _int(kind: str, data: object) -> int:
    if isinstance(data, bool) or not isinstance(data, int):
        raise TypeError(f"table command {kind!r} needs an int, not {data!r}")
    return data


def _str(kind: str, data: object) -> str:
    if not isinstance(data, str):
        raise TypeError(f"table command {kind!r} needs a str, not {data!r}")
    return data


def _client(kind: str, conn: Connection | None) -> Connection:
    if conn is None:
        raise TypeError(f"table command {kind!r} needs a connection")
    return conn


def from_kind(kind: str, conn: Connection | None = None, data: object = None) -> Command:
    """The command named ``kind`` with its payload ``data`` (the words of
    ``actor.submit("sit", conn, 2)``), its types checked; :exc:`TypeError` for a wrong one,
    :exc:`ValueError` for an unknown word."""
    match kind:
        case "join":
            return Join(_client(kind, conn), None if data is None else _str(kind, data))
        case "resume":
            return Resume(_client(kind, conn), _str(kind, data))
        case "leave":
            return Leave(_client(kind, conn))
        case "disconnect":
            return Disconnect(_client(kind, conn))
        case "sit":
            return Sit(_client(kind, conn), None if data is None else _int(kind, data))
        case "buyin":
            return BuyIn(_client(kind, conn), _int(kind, data))
        case "stand":
            return Stand(_client(kind, conn))
        case "cancel_leave":
            return CancelLeave(_client(kind, conn))
        case "quote_leave":
            return QuoteLeave(_client(kind, conn))
        case "leave_now":
            return LeaveNow(_client(kind, conn), _str(kind, data))
        case "host":
            return Host(_client(kind, conn), _int(kind, data))
        case "chat":
            return Chat(_client(kind, conn), _str(kind, data))
        case "chat_spectators":
            return ChatSpectators(_client(kind, conn), bool(data))
        case "act":
            if not isinstance(data, p.Act):
                raise TypeError(f"table command 'act' needs a protocol Act, not {data!r}")
            return Act(_client(kind, conn), data)
        case "add_bots":
            return AddBots(conn, _int(kind, data))
        case "remove_bots":
            return RemoveBots(conn)
        case "tick":
            return Tick()
        case "bots":
            return Bots(_int(kind, data))
        case "start":
            return Start()
        case "resume_hand":
            return ResumeHand()
        case "recover":
            return Recover()
        case "sync":
            return Sync()
    raise ValueError(f"no table command {kind!r}")


def client_of(command: Command) -> Connection | None:
    """The connection a command came from (None: the table's own, or the hall's)."""
    match command:
        case Tick() | Bots() | Start() | ResumeHand() | Recover() | Sync():
            return None
        case _:
            return command.conn
