"""The WebSocket protocol, version 1: typed messages (msgspec), documented in docs/protocol.md.

Every message is a JSON object with a ``type``. Client messages are decoded strictly (unknown
types and fields, wrong types and oversized frames are refused with a typed :class:`Error`).
An ``act`` carries a client ``nonce`` (a repeated nonce is acknowledged and ignored) and the
``version`` of the state it answers (a stale version is refused).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import msgspec

__all__ = [
    "MAX_MESSAGE_BYTES",
    "PROTOCOL_VERSION",
    "Ack",
    "Act",
    "AddBots",
    "BuyIn",
    "BuyInPanel",
    "ClientMessage",
    "Error",
    "ErrorCode",
    "Hello",
    "Host",
    "Join",
    "Leave",
    "Ping",
    "Pong",
    "RemoveBots",
    "Result",
    "Resume",
    "Sit",
    "Stand",
    "TableUpdate",
    "Welcome",
    "decode_client",
    "encode",
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
    """Stop watching a table; a seated player also stands up (per the game's leaving rule)."""

    table: str


class Sit(ClientMessage, tag="sit"):
    """Take a seat (``seat`` omitted: the first free one)."""

    table: str
    seat: int | None = None


class Stand(ClientMessage, tag="stand"):
    """Give up the seat (per the game's leaving rule if a hand is in progress)."""

    table: str


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


class Ping(ClientMessage, tag="ping"):
    """Keep-alive; answered by ``pong``."""


CLIENT_TYPES = (
    Hello | Resume | Join | Leave | Sit | Stand | BuyIn | Act | AddBots | RemoveBots | Host | Ping
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
    """The same reason as a text code (``void_fault``; sanh/games/_texts.py) to translate."""


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
    sanh/games/_texts.py) for the client to translate; ``message`` holds its English. None only
    for a malformed message, whose ``message`` is the parser's own words."""


class Pong(ServerMessage, tag="pong"):
    """Answer to ``ping``."""


class BalanceUpdate(ServerMessage, tag="balance"):
    """The player's account balance changed."""

    balance: int


_encoder = msgspec.json.Encoder()


def encode(message: ServerMessage) -> bytes:
    """The JSON bytes of a server message."""
    return _encoder.encode(message)
