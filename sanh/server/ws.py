"""The WebSocket at ``/ws`` (docs/protocol.md): one player's connection to the hall.

:func:`ws` is the route's endpoint; it reads the hall from ``websocket.app.state`` (see
:mod:`sanh.server.http_context`) and runs a :class:`_Socket`: the first frame must be a
``hello`` with the session token (never the URL, which the access log prints), within
``hello_timeout``; each frame is checked (size, rate) and decoded strictly into a typed client
message, then answered here (hello, ping, lobby chat) or queued on its table's actor.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import msgspec
from starlette import status
from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketDisconnect

from sanh.server import protocol as p
from sanh.server.chat import CHAT_BURST, CHAT_PER_SECOND, clean_line
from sanh.server.clock import Clock, wait_until
from sanh.server.friends import Social
from sanh.server.hall import Hall
from sanh.server.http_context import HallContext, context
from sanh.server.services import PlayerInfo
from sanh.server.settings import Settings
from sanh.server.table import Connection
from sanh.texts import clean, describe, text

__all__ = ["ws"]

Refusal = tuple[p.ErrorCode, str]
"""An error code and its words as a text code."""


async def ws(websocket: WebSocket) -> None:
    """The WebSocket endpoint: serve one connection until it closes."""
    await _Socket(websocket, context(websocket)).run()


class _Socket:
    """One WebSocket connection: signing in, the frame checks, and the messages it sends."""

    def __init__(self, websocket: WebSocket, ctx: HallContext) -> None:
        self.websocket = websocket
        self.ctx = ctx
        self.hall = ctx.hall
        self.settings = ctx.settings
        clock = ctx.hall.clock
        self.conn: Connection | None = None
        self.session = ""
        """The key of the session the connection signed in with (revoking it closes this)."""
        self.writer: asyncio.Task[None] | None = None
        self.bucket = _Bucket(self.settings.rate_per_second, self.settings.rate_burst, clock)
        self.strikes: list[float] = []
        """When each recent refused frame came (within ``strike_window``)."""
        self.sign_in_by = clock.now() + self.settings.hello_timeout
        self.social: Social = websocket.app.state.social
        """Friends and presence (sanh/server/friends.py)."""

    async def run(self) -> None:
        await self.websocket.accept()
        self.hall.metrics.connections += 1
        try:
            while await self.step():
                pass
        except WebSocketDisconnect:
            pass
        finally:
            await self.finish()

    async def receive(self) -> Message | None:
        """The next frame; None once the connection is gone, or closed for never signing in."""
        if self.conn is not None:
            frame = await self.websocket.receive()
        else:
            try:  # a connection that never signs in does not stay open
                frame = await wait_until(self.hall.clock, self.websocket.receive(), self.sign_in_by)
            except TimeoutError:
                timeout = clean(f"{self.settings.hello_timeout:g}")
                await self.refuse_frame(p.ErrorCode.UNAUTHENTICATED, text("hello_timeout", timeout))
                await self.websocket.close(code=status.WS_1008_POLICY_VIOLATION)
                return None
        return None if frame["type"] == "websocket.disconnect" else frame

    async def step(self) -> bool:
        """Read and answer one frame; False when the connection is to end."""
        frame = await self.receive()
        if frame is None:
            return False
        data = frame.get("text") if frame.get("text") is not None else frame.get("bytes")
        self.hall.metrics.messages_in += 1
        problem = _check_frame(data, self.bucket, self.settings)
        if problem is not None:
            return await self.strike(problem)
        assert data is not None
        try:
            message = p.decode_client(data)
        except msgspec.ValidationError as exc:
            await self.send_free_error(_refusal_code(exc), str(exc))
            return True
        except msgspec.DecodeError as exc:
            await self.send_free_error(p.ErrorCode.MALFORMED, str(exc))
            return True
        return await self.handle(message)

    async def strike(self, problem: Refusal) -> bool:
        """Refuse a frame before it is read; too many within ``strike_window`` close it."""
        now = self.hall.clock.now()
        self.strikes = [t for t in self.strikes if now - t < self.settings.strike_window]
        self.strikes.append(now)
        await self.refuse_frame(*problem)
        if len(self.strikes) > self.settings.max_strikes:
            await self.websocket.close(code=status.WS_1008_POLICY_VIOLATION)
            return False
        return True

    async def handle(self, message: p.ClientMessage) -> bool:
        """Answer a decoded message; False when the connection is to end."""
        if isinstance(message, p.Hello):
            await self.hello(message)
            return True
        conn = self.conn
        if conn is None:
            await self.refuse_frame(p.ErrorCode.UNAUTHENTICATED, "say_hello_first")
            return True
        match message:
            case p.Ping():
                conn.send(p.Pong())
            case p.LobbyChat(watch=watch):
                self.hall.lobby_chat.watch(conn, watch)
            case p.Chat(table=None, text=said):
                _lobby_say(self.hall, conn, said)
            case _:
                _dispatch(self.hall, conn, message)
                return not conn.closed
        return True

    async def hello(self, message: p.Hello) -> None:
        """Sign in (the first hello), or welcome the same player again."""
        player, problem = _check_hello(self.ctx, self.conn, message)
        if problem is not None:
            await self.refuse_frame(*problem)
            return
        first = self.conn is None
        if self.conn is None:
            self.conn = Connection(player)
            self.session = self.ctx.accounts.session_key(message.token)
            self.ctx.open_sessions.add(self.session, self.conn)
            self.writer = asyncio.create_task(_writer(self.websocket, self.conn, self.hall))
        balance = self.ctx.services.bank.balance(player.id)
        self.conn.send(p.Welcome(player=player.id, name=player.name, balance=balance))
        if first:
            self.social.online(self.conn)  # friends see this player come online

    async def finish(self) -> None:
        """The connection is gone: leave its tables (a disconnection) and stop its writer."""
        self.hall.metrics.connections -= 1
        conn = self.conn
        if conn is not None:
            self.ctx.open_sessions.remove(self.session, conn)
            self.social.offline(conn)
            self.hall.lobby_chat.forget(conn)
            for table_id in list(conn.tables):
                actor = self.hall.tables.get(table_id)
                if actor is not None:
                    actor.submit("disconnect", conn)
            conn.close()
        if self.writer is not None:
            self.writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.writer

    async def refuse_frame(self, code: p.ErrorCode, reason: str) -> None:
        """Send an ``error`` whose words are a text code (see :func:`_coded_error`)."""
        await self.send_error(_coded_error(code, reason))

    async def send_free_error(self, code: p.ErrorCode, message: str) -> None:
        """Send an ``error`` in a parser's own English words (a malformed frame: no text code)."""
        await self.send_error(p.Error(code=code, message=message[:300]))

    async def send_error(self, error: p.Error) -> None:
        code = error.code
        errors = self.hall.metrics.errors
        errors[code.value] = errors.get(code.value, 0) + 1
        if self.conn is not None:
            self.conn.send(error)
        else:
            await self.websocket.send_text(p.encode(error).decode())


def _lobby_say(hall: Hall, conn: Connection, raw: str) -> None:
    """A line of lobby chat, from a listener (sanh/server/chat.py)."""
    if id(conn) not in hall.lobby_chat.listeners:
        conn.send(_coded_error(p.ErrorCode.NOT_AT_TABLE, "lobby_chat_first"))
        return
    line, problem = clean_line(raw)
    if problem is not None:
        conn.send(_coded_error(*problem))
        return
    player = conn.player.id
    if not hall.chat_limiter.allows(player):
        reason = text("chat_too_fast", CHAT_BURST, f"{1 / CHAT_PER_SECOND:g}")
        conn.send(_coded_error(p.ErrorCode.CHAT_TOO_FAST, reason))
        return
    hall.chat_limiter.take(player)
    hall.lobby_chat.say(
        p.ChatEntry(player=player, name=conn.player.name, text=line, at=hall.clock.now())
    )


def _check_hello(
    ctx: HallContext, conn: Connection | None, message: p.Hello
) -> tuple[Any, Refusal | None]:
    """The player a ``hello`` signs in, or why it is refused as a text code (nothing changes
    then).

    A connection is one player's for its whole life: on a signed-in connection a ``hello``
    is answered with the welcome again when its token is this player's, and refused with
    ``already_authenticated`` otherwise (another player's token, or an unknown one).
    """
    if message.protocol != p.PROTOCOL_VERSION:
        return None, (p.ErrorCode.BAD_PROTOCOL, text("bad_protocol", p.PROTOCOL_VERSION))
    player: PlayerInfo | None = ctx.accounts.by_token(message.token)
    if conn is not None and (player is None or player.id != conn.player.id):
        return None, (p.ErrorCode.ALREADY_AUTHENTICATED, "signed_in_already")
    if player is None:
        return None, (p.ErrorCode.UNAUTHENTICATED, "unknown_token")
    return player, None


def _resume(hall: Hall, conn: Connection, message: p.Resume) -> None:
    """Resume the player's own seat named by a resume token."""
    for candidate in hall.tables.values():
        if any(  # only the player's own seat: another's token names no table
            s is not None
            and s.resume_token == message.resume_token
            and s.player.id == conn.player.id
            for s in candidate.seats
        ):
            candidate.submit("resume", conn, message.resume_token)
            return
    conn.send(_coded_error(p.ErrorCode.BAD_RESUME, "no_seat_for_token"))


def _dispatch(hall: Hall, conn: Connection, message: p.ClientMessage) -> None:
    """Queue a table's message on its actor (or refuse a table that is not there)."""
    if isinstance(message, p.Resume):
        _resume(hall, conn, message)
        return
    table_id = getattr(message, "table", None)
    actor = hall.tables.get(table_id) if table_id else None
    if actor is None and isinstance(message, p.Join) and table_id:
        actor = hall.by_invite(table_id)
    if actor is None and table_id and hall.placement is not None:
        elsewhere = hall.placement.locate(table_id)
        if elsewhere is not None:  # another node plays it: the client follows
            conn.send(p.Moved(table=elsewhere["id"], node=elsewhere["node"], url=elsewhere["url"]))
            return
    if actor is None:
        reason = text("no_table_named", clean(table_id or ""))
        conn.send(_coded_error(p.ErrorCode.NO_SUCH_TABLE, reason, table=table_id))
        return
    match message:
        case p.Join(invite_code=code):
            actor.submit("join", conn, code or (table_id if table_id != actor.id else None))
        case p.Leave():
            actor.submit("leave", conn)
        case p.Sit(seat=seat):
            actor.submit("sit", conn, seat)
        case p.Stand():
            actor.submit("stand", conn)
        case p.CancelLeave():
            actor.submit("cancel_leave", conn)
        case p.QuoteLeave():
            actor.submit("quote_leave", conn)
        case p.LeaveNow(quote_id=quote):
            actor.submit("leave_now", conn, quote)
        case p.BuyIn(amount=amount):
            actor.submit("buyin", conn, amount)
        case p.Act():
            hall.metrics.actions += 1
            actor.submit("act", conn, message)
        case p.AddBots(count=count):
            actor.submit("add_bots", conn, max(0, min(count, actor.spec.seats)))
        case p.RemoveBots():
            actor.submit("remove_bots", conn)
        case p.Host(amount=amount):
            actor.submit("host", conn, amount)
        case p.Chat(text=said):
            actor.submit("chat", conn, said)
        case p.ChatSpectators(allow=allow):
            actor.submit("chat_spectators", conn, allow)


class _Bucket:
    """A token bucket for the per-connection rate limit."""

    def __init__(self, rate: float, burst: int, clock: Clock) -> None:
        self.rate = rate
        self.capacity = float(burst)
        self.tokens = float(burst)
        self.clock = clock
        self.stamp = clock.now()

    def take(self) -> bool:
        now = self.clock.now()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def _refusal_code(exc: msgspec.ValidationError) -> p.ErrorCode:
    """``unknown_type`` when the ``type`` field is missing or names no client message, else
    ``malformed`` (msgspec names the field in backquotes: `type`, at `$.type`)."""
    words = str(exc)
    return (
        p.ErrorCode.UNKNOWN_TYPE
        if "`type`" in words or "`$.type`" in words
        else p.ErrorCode.MALFORMED
    )


def _check_frame(data: str | bytes | None, bucket: _Bucket, settings: Settings) -> Refusal | None:
    """Why a frame is refused before it is read (a text code), or None."""
    if data is None:
        return p.ErrorCode.MALFORMED, "empty_frame"
    size = len(data.encode() if isinstance(data, str) else data)
    if size > settings.max_message_bytes:
        return p.ErrorCode.TOO_LARGE, text("frame_too_large", settings.max_message_bytes)
    if not bucket.take():
        return p.ErrorCode.RATE_LIMITED, "slow_down"
    return None


def _coded_error(code: p.ErrorCode, reason: str, table: str | None = None) -> p.Error:
    """An ``error`` whose words are a text code: its English in ``message``, the code in
    ``text``."""
    return p.Error(code=code, message=describe(reason), table=table, text=reason)


async def _writer(websocket: WebSocket, conn: Connection, hall: Hall) -> None:
    while True:
        data = await conn.outbox.get()
        if data is None:
            with contextlib.suppress(Exception):
                await websocket.close()
            return
        hall.metrics.messages_out += 1
        await websocket.send_text(data.decode())
