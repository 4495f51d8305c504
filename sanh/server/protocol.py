"""The WebSocket protocol, version 1: typed messages (msgspec), documented in docs/protocol.md.

Its JSON Schema, docs/protocol.schema.json, is generated from these structs
(:func:`schema`): ``python -m sanh.server.protocol --schema > docs/protocol.schema.json``.

Every message is a JSON object with a ``type``. Client messages are decoded strictly (unknown
types and fields, wrong types and oversized frames are refused with a typed :class:`Error`).
An ``act`` carries a client ``nonce`` (a repeated nonce is acknowledged and ignored) and the
``version`` of the state it answers (a stale version is refused).
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from typing import Any

import msgspec

__all__ = [
    "MAX_MESSAGE_BYTES",
    "PROTOCOL_VERSION",
    "SERVER_TYPES",
    "Ack",
    "Act",
    "AddBots",
    "BuyIn",
    "BuyInPanel",
    "CancelLeave",
    "Chat",
    "ChatEntry",
    "ChatHistory",
    "ChatLine",
    "ChatSpectators",
    "ClientMessage",
    "Error",
    "ErrorCode",
    "FriendInvite",
    "FriendPresence",
    "Hello",
    "Host",
    "Join",
    "Leave",
    "LeaveNow",
    "LeavePending",
    "LeaveQuote",
    "Left",
    "LobbyChat",
    "Ping",
    "Pong",
    "Presence",
    "QuoteLeave",
    "RemoveBots",
    "Result",
    "Resume",
    "Sit",
    "Stand",
    "TableUpdate",
    "Welcome",
    "decode_client",
    "encode",
    "schema",
]

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 8192
"""Frames larger than this are refused with ``too_large``."""


class ErrorCode(StrEnum):
    """Typed error codes sent in :class:`Error` messages."""

    MALFORMED = "malformed"
    UNKNOWN_TYPE = "unknown_type"
    TOO_LARGE = "too_large"
    RATE_LIMITED = "rate_limited"
    UNAUTHENTICATED = "unauthenticated"
    ALREADY_AUTHENTICATED = "already_authenticated"
    BAD_PROTOCOL = "bad_protocol"
    NO_SUCH_TABLE = "no_such_table"
    NOT_AT_TABLE = "not_at_table"
    SEAT_TAKEN = "seat_taken"
    TABLE_FULL = "table_full"
    NOT_SEATED = "not_seated"
    ALREADY_SEATED = "already_seated"
    NOT_HOST = "not_host"
    STALE_VERSION = "stale_version"
    ILLEGAL_ACTION = "illegal_action"
    NOT_YOUR_TURN = "not_your_turn"
    INSUFFICIENT_FUNDS = "insufficient_funds"
    BAD_AMOUNT = "bad_amount"
    NO_HAND = "no_hand"
    BAD_RESUME = "bad_resume"
    LEAVE_QUOTE_UNKNOWN = "leave_quote_unknown"
    LEAVE_COST_CHANGED = "leave_cost_changed"
    CHAT_EMPTY = "chat_empty"
    CHAT_TOO_LONG = "chat_too_long"
    CHAT_TOO_FAST = "chat_too_fast"
    CHAT_NOT_ALLOWED = "chat_not_allowed"
    SESSION_REVOKED = "session_revoked"


# ----- client -> server ------------------------------------------------------------------


class ClientMessage(msgspec.Struct, tag_field="type", forbid_unknown_fields=True):
    """Base of every client message."""


class Hello(ClientMessage, tag="hello"):
    """Authenticate the connection with a session token from the HTTP API."""

    token: str
    protocol: int = PROTOCOL_VERSION


class Resume(ClientMessage, tag="resume"):
    """Reclaim a seat after a reconnection, with the private resume token given at sitting."""

    resume_token: str


class Join(ClientMessage, tag="join"):
    """Watch a table (spectator view until seated)."""

    table: str
    invite_code: str | None = None


class Leave(ClientMessage, tag="leave"):
    """Stop watching a table; a seated player also gives up the seat: at once and free
    between hands, after the hand's result during a hand (answered by ``leave_pending``)."""

    table: str


class Sit(ClientMessage, tag="sit"):
    """Take a seat (``seat`` omitted: the first free one)."""

    table: str
    seat: int | None = None


class Stand(ClientMessage, tag="stand"):
    """Give up the seat and keep watching: at once between hands, after the hand's result
    during a hand (answered by ``leave_pending``)."""

    table: str


class CancelLeave(ClientMessage, tag="cancel_leave"):
    """Keep the seat after all: cancel a pending leave (answered by ``leave_pending``)."""

    table: str


class QuoteLeave(ClientMessage, tag="quote_leave"):
    """Ask what leaving the hand now would cost (answered by ``leave_quote``)."""

    table: str


class LeaveNow(ClientMessage, tag="leave_now"):
    """Leave now, paying the quoted cost: ``quote_id`` from the last ``leave_quote``."""

    table: str
    quote_id: str


class BuyIn(ClientMessage, tag="buyin"):
    """Answer the buy-in panel (Tẩy games) with an amount in minor units."""

    table: str
    amount: int


class Act(ClientMessage, tag="act"):
    """An action, as the JSON object of the engine action (``type`` and its fields)."""

    table: str
    nonce: str
    version: int
    action: dict[str, Any]


class AddBots(ClientMessage, tag="add_bots"):
    """The host asks for bots in empty seats."""

    table: str
    count: int = 1


class RemoveBots(ClientMessage, tag="remove_bots"):
    """The host sends the table's bots away (each leaves at the end of its hand)."""

    table: str


class Host(ClientMessage, tag="host"):
    """Become the banker of a player-hosted table (Tài Xỉu, RULES.md §5.7) with ``amount``
    (minor units) of your balance as the bank; the current banker sends it to change the
    amount for the next round. Nobody is ever made the banker without it."""

    table: str
    amount: int


class Chat(ClientMessage, tag="chat"):
    """Say a line of chat: at ``table`` (watching it), or in the lobby (``table`` omitted,
    after ``lobby_chat``). Plain text, at most ``CHAT_MAX_CHARS`` characters once trimmed
    (sanh/server/chat.py); never read as markup."""

    text: str
    table: str | None = None


class LobbyChat(ClientMessage, tag="lobby_chat"):
    """Hear the lobby's chat (``watch`` true: answered by its ``chat_history``) or stop."""

    watch: bool = True


class ChatSpectators(ClientMessage, tag="chat_spectators"):
    """The host lets the table's spectators write in its chat (``allow``) or not (the
    default: spectators read only)."""

    table: str
    allow: bool


class Ping(ClientMessage, tag="ping"):
    """Keep-alive; answered by ``pong``."""


CLIENT_TYPES = (
    Hello
    | Resume
    | Join
    | Leave
    | Sit
    | Stand
    | CancelLeave
    | QuoteLeave
    | LeaveNow
    | BuyIn
    | Act
    | AddBots
    | RemoveBots
    | Host
    | Chat
    | LobbyChat
    | ChatSpectators
    | Ping
)
_decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(CLIENT_TYPES)


def decode_client(data: str | bytes) -> ClientMessage:
    """Decode one client frame.

    :raises msgspec.ValidationError: wrong fields or an unknown ``type``.
    :raises msgspec.DecodeError: not JSON.
    """
    message: ClientMessage = _decoder.decode(data)
    return message


# ----- server -> client ------------------------------------------------------------------


class ServerMessage(msgspec.Struct, tag_field="type"):
    """Base of every server message."""


class Welcome(ServerMessage, tag="welcome"):
    """The connection is authenticated."""

    player: str
    name: str
    balance: int
    protocol: int = PROTOCOL_VERSION


class TableUpdate(ServerMessage, tag="table"):
    """A table's state as this connection may see it."""

    table: str
    game: str
    seats: list[dict[str, Any]]
    your_seat: int | None
    hand: int
    view: dict[str, Any] | None
    deadlines: dict[str, float]
    """Engine seat (as a string, ``"table"`` for the table clock) -> deadline (epoch seconds)."""
    commitment: str | None = None
    """SHA-256 of the current hand's server seed (provably fair)."""
    resume_token: str | None = None
    status: str | None = None
    """What the table waits for, as a text code (``waiting_for_host``: a player-hosted table
    without a banker, its betting closed); ``None`` when it plays."""
    bank: int | None = None
    """A player-hosted table's bank: the amount its banker chose (``None``: no banker, or a
    table the house banks)."""
    spectator_chat: bool = False
    """The host lets spectators write in the table's chat (``chat_spectators``)."""
    watching: int = 0
    """Players watching the table without a seat (as of this update)."""


class BuyInPanel(ServerMessage, tag="buyin_panel"):
    """Choose a buy-in; the maximum is taken at the deadline."""

    table: str
    min: int
    max: int
    deadline: float


class Result(ServerMessage, tag="result"):
    """A hand's settlement, line by line, with the seat mapping."""

    table: str
    hand: int
    settlement: dict[str, Any]
    seats: list[str | None]
    """Engine seat -> player id."""
    server_seed: str | None = None
    balance: int | None = None
    voided: str | None = None
    """Why the hand was voided (every stake refunded, RULES.md §2.8), in English; the settlement
    is empty."""
    voided_text: str | None = None
    """The same reason as a text code (``void_fault``; sanh/server/texts.py) to translate."""
    record: dict[str, Any] | None = None
    """The hand's public record for the table's recent results (the Tài Xỉu road), with its
    ``hand``; ``None`` for a game that keeps none (see ``recent``)."""


class Moved(ServerMessage, tag="moved"):
    """The table is played by another node of the hall's cluster (docs/SCALING.md): the
    client connects to ``url`` (the same sign-in works there) and sends its message again."""

    table: str
    node: str | None
    """The node that holds the table now; ``None``: no live node holds it yet (the table is
    being taken over: try again shortly, here or anywhere)."""
    url: str | None
    """The WebSocket to connect to (``ws://host:port/ws``); ``None`` with ``node``."""


class Ack(ServerMessage, tag="ack"):
    """An ``act`` was accepted (or was a repeat of an accepted nonce)."""

    nonce: str
    version: int
    duplicate: bool = False


class Error(ServerMessage, tag="error"):
    """A refused message; nothing changed."""

    code: ErrorCode
    message: str
    """What went wrong, in English."""
    nonce: str | None = None
    table: str | None = None
    text: str | None = None
    """What went wrong as a text code (a refused action's reason, ``betting_closed``,
    ``cannot_check:500``, or the hall's, ``table_full``, ``buy_in_between:4000:20000``;
    sanh/texts.py) for the client to translate; ``message`` holds its English. None only
    for a malformed message, whose ``message`` is the parser's own words."""


class LeavePending(ServerMessage, tag="leave_pending"):
    """A leave asked for during a hand: the seat plays on and goes at the hand's result."""

    table: str
    hand: int
    pending: bool
    """True: the seat goes at this hand's result; False: the leave was cancelled."""
    stand: bool = False
    """True: the player keeps watching after the seat goes (a ``stand``)."""


class LeaveQuote(ServerMessage, tag="leave_quote"):
    """What leaving now would cost: confirm with ``leave_now`` and this ``quote_id``."""

    table: str
    hand: int
    cost: int
    """Minor units: the most the hand charges the seat if it leaves now (0 between hands)."""
    basis: str
    """``exact`` (the game's leaving rule gives the amount), ``bound`` (the amount held for
    the seat: the game's ``max_loss`` bound or the stack) or ``free`` (between hands)."""
    quote_id: str


class Left(ServerMessage, tag="left"):
    """The seat is given up: between hands, at once; a pending leave, at the hand's result;
    a ``leave_now``, as it is applied."""

    table: str
    hand: int
    """The last hand the seat was in (or the hand under way for a ``leave_now``)."""


class ChatEntry(msgspec.Struct):
    """One line of chat."""

    player: str
    name: str
    text: str
    """Plain text as the player typed it (trimmed): a client shows it as text, never markup."""
    at: float
    """When it was said (epoch seconds, the hall's clock)."""
    seat: int | None = None
    """The speaker's table seat (``None``: a spectator, or the lobby)."""


class ChatLine(ServerMessage, tag="chat"):
    """A line said at ``table`` (``None``: in the lobby)."""

    table: str | None
    line: ChatEntry


class ChatHistory(ServerMessage, tag="chat_history"):
    """The last lines of a table's chat (on ``join``) or the lobby's (on ``lobby_chat``)."""

    table: str | None
    lines: list[ChatEntry]


class Recent(ServerMessage, tag="recent"):
    """The public records of a table's last hands (up to 100, oldest first), sent on
    ``join`` to a game that keeps them; each ``result`` then brings the next ``record``."""

    table: str
    records: list[dict[str, Any]]


class Pong(ServerMessage, tag="pong"):
    """Answer to ``ping``."""


class BalanceUpdate(ServerMessage, tag="balance"):
    """The player's account balance changed."""

    balance: int


class FriendPresence(msgspec.Struct):
    """A friend: online (an open connection) and at which table, unless they hide it."""

    player: str
    name: str
    online: bool
    table: str | None
    """The table they sit at, else one they watch (``None``: none, hidden, or private)."""
    game: str | None
    private: bool
    """At a private table (its id is not shown: it opens with its invite code)."""


class Presence(ServerMessage, tag="presence"):
    """Friends' presence (sanh/server/friends.py): after the welcome and after a friendship
    changes the whole list (``full``), else the entries that changed."""

    friends: list[FriendPresence]
    full: bool


class FriendInvite(ServerMessage, tag="friend_invite"):
    """A friend invites you to a table: ``join`` opens it (a ``join`` message's ``table``:
    the table's id, or a private table's invite code)."""

    player: str
    name: str
    table: str
    game: str
    join: str


_encoder = msgspec.json.Encoder()


def encode(message: ServerMessage) -> bytes:
    """The JSON bytes of a server message."""
    return _encoder.encode(message)


SERVER_TYPES = (
    Welcome
    | TableUpdate
    | BuyInPanel
    | Result
    | Ack
    | Error
    | Pong
    | BalanceUpdate
    | LeavePending
    | LeaveQuote
    | Left
    | ChatLine
    | ChatHistory
    | Presence
    | FriendInvite
    | Moved
)
"""Every message the server sends."""


def schema() -> dict[str, Any]:
    """The JSON Schema (2020-12) of the protocol: a server message validates against the
    document itself, a client message against ``#/$defs/client_message``."""
    (server, client), defs = msgspec.json.schema_components(
        [SERVER_TYPES, CLIENT_TYPES], ref_template="#/$defs/{name}"
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://sanh.invalid/protocol.schema.json",
        "title": f"sanh WebSocket protocol {PROTOCOL_VERSION}",
        "description": (
            "Generated from sanh/server/protocol.py (python -m sanh.server.protocol --schema):"
            " the document validates a message the server sends; #/$defs/client_message"
            " validates one a client sends. See docs/protocol.md."
        ),
        "$ref": "#/$defs/server_message",
        "$defs": {**defs, "server_message": server, "client_message": client},
    }


def _main(argv: list[str]) -> int:
    if argv != ["--schema"]:
        print("usage: python -m sanh.server.protocol --schema", file=sys.stderr)
        return 2
    print(json.dumps(schema(), indent=2, ensure_ascii=False, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
