"""The ASGI app: the HTTP API (OpenAPI at /openapi.json), the WebSocket at /ws, the web client.

``create_app(settings, services)`` builds a Starlette app around a :class:`~sanh.server.hall.Hall`.
Every HTTP body is a typed msgspec struct; every error is JSON ``{"error": code, "message": ...,
"text": ...}`` with a status from :mod:`starlette.status`: ``message`` in English, ``text`` the
same as a text code (sanh/games/_texts.py) for the client to translate, or null when the message
is a parser's free text.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

import msgspec
from starlette import status
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from sanh.errors import ConfigError
from sanh.games import REGISTRY
from sanh.games._texts import clean, describe, text
from sanh.ledger.players import (
    NAME_LENGTH_MAX,
    PASSWORD_LENGTH_MIN,
    USERNAME_LENGTH,
    PlayerCode,
    PlayerRefused,
)
from sanh.notation.jsonable import to_jsonable
from sanh.server import protocol as p
from sanh.server.hall import Hall
from sanh.server.services import PlayerInfo
from sanh.server.settings import Settings
from sanh.server.table import Connection

__all__ = ["HallServices", "create_app"]

log = logging.getLogger("sanh.server")
WEB_ROOT = Path(__file__).resolve().parent.parent / "web"
T = TypeVar("T")


# ----- request bodies ------------------------------------------------------------------------
class RegisterRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Create an account."""

    username: str
    password: str
    name: str | None = None
    language: str = "vi"


class LoginRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Log in."""

    username: str
    password: str


class GuestRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Play as a guest."""

    name: str | None = None
    language: str = "vi"


class CreateTableRequest(msgspec.Struct, forbid_unknown_fields=True):
    """A new table with the host's options."""

    game: str
    stake: int
    seats: int | None = None
    options: dict[str, str | int | bool] = {}
    quick: bool = False
    private: bool = False
    bots: int = 0
    name: str = ""


class BotsRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Fill empty seats with bots."""

    count: int = 1


class ClanRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Create a clan."""

    name: str


class ProfileRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Change display name or language."""

    name: str | None = None
    language: str | None = None


class HallServices(Protocol):
    """What the app needs from the wallet: accounts, sessions, clans, money and recall.

    Implemented over the ledger in :mod:`sanh.server.wallet_services`.
    """

    @property
    def bank(self) -> Any: ...

    @property
    def accounts(self) -> Any: ...

    @property
    def recall(self) -> Any: ...


class ApiError(Exception):
    """An HTTP error with a typed code, and its words: a text code (``text``, its English the
    message) or, for a parser's complaint, a free English ``message``."""

    def __init__(
        self, status_code: int, code: str, message: str = "", *, text: str | None = None
    ) -> None:
        message = message or describe(text or "")
        super().__init__(message)
        self.status_code = status_code
        self.code = code
        self.message = message
        self.text = text


_PLAYER_TEXTS: dict[PlayerCode, str] = {
    PlayerCode.USERNAME_INVALID: text("username_invalid", *USERNAME_LENGTH),
    PlayerCode.USERNAME_TAKEN: "username_taken",
    PlayerCode.PASSWORD_TOO_SHORT: text("password_too_short", PASSWORD_LENGTH_MIN),
    PlayerCode.BAD_CREDENTIALS: "wrong_credentials",
    PlayerCode.NO_SUCH_PLAYER: "no_such_player",
    PlayerCode.NOT_A_GUEST: "not_a_guest",
    PlayerCode.DISPLAY_NAME_INVALID: text("display_name_invalid", NAME_LENGTH_MAX),
    PlayerCode.LANGUAGE_INVALID: "language_invalid",
    PlayerCode.CLAN_NAME_INVALID: text("clan_name_invalid", 3, NAME_LENGTH_MAX),
    PlayerCode.CLAN_NAME_TAKEN: "clan_name_taken",
    PlayerCode.NO_SUCH_CLAN: "no_such_clan",
    PlayerCode.ALREADY_IN_CLAN: "already_in_clan",
    PlayerCode.NOT_IN_CLAN: "not_in_clan",
    PlayerCode.NOT_ALLOWED: "not_allowed",
    PlayerCode.LEADER_MUST_HAND_OVER: "leader_must_hand_over",
    PlayerCode.ROLE_INVALID: "role_invalid",
}
"""The text code of each account or clan refusal."""


def _refused(exc: ValueError) -> ApiError:
    """A refused account or clan operation (409 ``refused``), in words the client translates."""
    if isinstance(exc, PlayerRefused):
        return ApiError(status.HTTP_409_CONFLICT, "refused", text=_PLAYER_TEXTS[exc.code])
    return ApiError(status.HTTP_409_CONFLICT, "refused", str(exc))


def _json(data: Any, status_code: int = status.HTTP_200_OK) -> Response:
    return Response(
        msgspec.json.encode(data), status_code=status_code, media_type="application/json"
    )


async def _body(request: Request, kind: type[T]) -> T:
    raw = await request.body()
    if len(raw) > 16_384:
        raise ApiError(status.HTTP_413_REQUEST_ENTITY_TOO_LARGE, "too_large", text="body_too_large")
    try:
        return msgspec.json.decode(raw or b"{}", type=kind)
    except msgspec.DecodeError as exc:
        raise ApiError(status.HTTP_422_UNPROCESSABLE_CONTENT, "malformed", str(exc)) from None


def create_app(settings: Settings, services: HallServices, hall: Hall | None = None) -> Starlette:
    """The hall's ASGI app."""
    hall = hall if hall is not None else Hall(settings, services.bank)
    accounts = services.accounts

    def player_of(request: Request) -> PlayerInfo:
        # The token only in the Authorization header: a URL (and its query) goes to the log.
        header = request.headers.get("authorization", "")
        token = header.removeprefix("Bearer ").strip()
        player = accounts.by_token(token) if token else None
        if player is None:
            raise ApiError(status.HTTP_401_UNAUTHORIZED, "unauthenticated", text="log_in_first")
        return player  # type: ignore[no-any-return]

    def endpoint(
        handler: Callable[[Request], Awaitable[Response]],
    ) -> Callable[[Request], Awaitable[Response]]:
        async def wrapped(request: Request) -> Response:
            try:
                return await handler(request)
            except ApiError as exc:
                hall.metrics.errors[exc.code] = hall.metrics.errors.get(exc.code, 0) + 1
                return JSONResponse(
                    {"error": exc.code, "message": exc.message, "text": exc.text},
                    status_code=exc.status_code,
                )
            except ConfigError as exc:
                return JSONResponse(
                    {"error": "bad_config", "message": str(exc), "text": exc.text},
                    status_code=status.HTTP_422_UNPROCESSABLE_CONTENT,
                )

        wrapped.__name__ = handler.__name__
        wrapped.__doc__ = handler.__doc__
        return wrapped

    # ----- accounts -------------------------------------------------------------------------
    @endpoint
    async def register(request: Request) -> Response:
        """Create an account and a session; returns the token."""
        body = await _body(request, RegisterRequest)
        try:
            player = accounts.register(body.username, body.password, body.name, body.language)
        except ValueError as exc:
            raise _refused(exc) from None
        return _json(session_body(player), status.HTTP_201_CREATED)

    @endpoint
    async def login(request: Request) -> Response:
        """Log in with a username and password; returns a session token."""
        body = await _body(request, LoginRequest)
        player = accounts.login(body.username, body.password)
        if player is None:
            raise ApiError(
                status.HTTP_401_UNAUTHORIZED, "bad_credentials", text="wrong_credentials"
            )
        return _json(session_body(player))

    @endpoint
    async def guest(request: Request) -> Response:
        """Create a guest account and session."""
        body = await _body(request, GuestRequest)
        player = accounts.guest(body.name, body.language)
        return _json(session_body(player), status.HTTP_201_CREATED)

    def session_body(player: PlayerInfo) -> dict[str, Any]:
        return {
            "token": accounts.new_session(player.id),
            "player": player.id,
            "name": player.name,
            "language": player.language,
        }

    @endpoint
    async def me(request: Request) -> Response:
        """Profile: name, language, balance, XP and play time per game, clan."""
        player = player_of(request)
        if request.method == "PATCH":
            body = await _body(request, ProfileRequest)
            try:
                accounts.update_profile(player.id, name=body.name, language=body.language)
            except ValueError as exc:
                raise _refused(exc) from None
        return _json(accounts.profile(player.id))

    @endpoint
    async def statement(request: Request) -> Response:
        """The player's transfers, newest first (read-only)."""
        player = player_of(request)
        limit = min(int(request.query_params.get("limit", "50")), 500)
        return _json({"transfers": accounts.statement(player.id, limit)})

    # ----- clans ------------------------------------------------------------------------------
    @endpoint
    async def clans(request: Request) -> Response:
        """List clans (GET) or create one (POST)."""
        if request.method == "GET":
            return _json({"clans": accounts.clans()})
        player = player_of(request)
        body = await _body(request, ClanRequest)
        try:
            clan = accounts.create_clan(player.id, body.name)
        except ValueError as exc:
            raise _refused(exc) from None
        return _json(clan, status.HTTP_201_CREATED)

    @endpoint
    async def clan_join(request: Request) -> Response:
        """Join a clan."""
        player = player_of(request)
        try:
            return _json(accounts.join_clan(player.id, request.path_params["clan"]))
        except ValueError as exc:
            raise _refused(exc) from None

    @endpoint
    async def clan_leave(request: Request) -> Response:
        """Leave one's clan."""
        player = player_of(request)
        try:
            accounts.leave_clan(player.id)
        except ValueError as exc:
            raise _refused(exc) from None
        return _json({"ok": True})

    # ----- lobby and tables -------------------------------------------------------------------
    @endpoint
    async def games(request: Request) -> Response:
        """Every registered game with its seats, deck and rule options."""
        out = []
        for game in REGISTRY.values():
            info = game.info
            if not settings.game_offered(info.id):
                continue
            out.append(
                {
                    "id": info.id,
                    "name": info.name,
                    "name_vi": info.name_vi,
                    "seats_min": info.seats_min,
                    "seats_max": info.seats_max,
                    "deck": info.deck,
                    "banked": info.banked,
                    "options": [to_jsonable(o) for o in info.options if not o.replay_only],
                    "actions": [cls.__name__ for cls in info.action_types],
                }
            )
        return _json({"games": sorted(out, key=lambda g: g["id"])})

    @endpoint
    async def lobby(request: Request) -> Response:
        """Tables, filtered by ``game``, ``stake_min``, ``stake_max``, ``open_seats``."""
        q = request.query_params
        try:
            tables = hall.lobby(
                game=q.get("game") or None,
                stake_min=int(q["stake_min"]) if q.get("stake_min") else None,
                stake_max=int(q["stake_max"]) if q.get("stake_max") else None,
                open_seats=q.get("open_seats") in {"1", "true"},
            )
        except ValueError:
            raise ApiError(
                status.HTTP_422_UNPROCESSABLE_CONTENT, "malformed", text="bad_filter"
            ) from None
        return _json({"tables": tables})

    @endpoint
    async def create_table(request: Request) -> Response:
        """Create a table with the host's options (private tables get an invite code)."""
        player = player_of(request)
        body = await _body(request, CreateTableRequest)
        actor = hall.create_table(
            game=body.game,
            stake=body.stake,
            seats=body.seats,
            options=dict(body.options),
            quick=body.quick,
            private=body.private,
            host=player.id,
            name=body.name,
            house_tai_xiu=settings.house_tai_xiu_tables,
        )
        if body.bots:
            await actor.call("add_bots", None, body.bots)
        entry = actor.lobby_entry()
        entry["invite_code"] = actor.spec.invite_code
        return _json(entry, status.HTTP_201_CREATED)

    @endpoint
    async def table_info(request: Request) -> Response:
        """One table (private tables need ``invite_code`` unless you host them)."""
        actor = hall.tables.get(request.path_params["table"])
        if actor is None:
            code = request.path_params["table"]
            actor = hall.by_invite(code)
        if actor is None:
            raise ApiError(status.HTTP_404_NOT_FOUND, "no_such_table", text="no_such_table")
        return _json(actor.lobby_entry())

    @endpoint
    async def add_bots(request: Request) -> Response:
        """The host fills empty seats with bots."""
        player = player_of(request)
        actor = hall.tables.get(request.path_params["table"])
        if actor is None:
            raise ApiError(status.HTTP_404_NOT_FOUND, "no_such_table", text="no_such_table")
        if actor.spec.host != player.id:
            raise ApiError(status.HTTP_403_FORBIDDEN, "not_host", text="host_adds_bots")
        body = await _body(request, BotsRequest)
        await actor.call("add_bots", None, max(0, min(body.count, actor.spec.seats)))
        return _json(actor.lobby_entry())

    # ----- recall --------------------------------------------------------------------------------
    @endpoint
    async def recall_list(request: Request) -> Response:
        """The player's last hands (newest first): own cards, actions, public cards, result."""
        player = player_of(request)
        limit = min(int(request.query_params.get("limit", "20")), 100)
        return _json({"hands": services.recall.hands_for(player.id, limit)})

    @endpoint
    async def recall_one(request: Request) -> Response:
        """One hand as the player's seat could know it: its final view, the events it could
        know of (the deal without the deck order, no other seat's private bets), the settlement,
        the seats' players and names (``sanh/server/recall.py``)."""
        player = player_of(request)
        hand = services.recall.hand_for(player.id, request.path_params["hand"])
        if hand is None:
            raise ApiError(status.HTTP_404_NOT_FOUND, "no_such_hand", text="no_such_hand")
        if not settings.reveals_seed(REGISTRY[hand["game"]].info.banked):
            hand["server_seed"] = None  # the deck order would show folded hands (§2.10)
        return _json(hand)

    # ----- operations ----------------------------------------------------------------------------
    async def healthz(request: Request) -> Response:
        """Liveness: 200 while the hall runs its tables."""
        alive = all(
            actor.task is not None and not actor.task.done() for actor in hall.tables.values()
        )
        code = status.HTTP_200_OK if alive else status.HTTP_503_SERVICE_UNAVAILABLE
        return JSONResponse({"ok": alive, "tables": len(hall.tables)}, status_code=code)

    async def metrics(request: Request) -> Response:
        """Prometheus text format."""
        m = hall.metrics
        lines = [
            "# HELP sanh_connections Open WebSocket connections.",
            "# TYPE sanh_connections gauge",
            f"sanh_connections {m.connections}",
            "# HELP sanh_messages_in_total WebSocket messages received.",
            "# TYPE sanh_messages_in_total counter",
            f"sanh_messages_in_total {m.messages_in}",
            "# HELP sanh_actions_total Actions accepted.",
            "# TYPE sanh_actions_total counter",
            f"sanh_actions_total {m.actions}",
            "# HELP sanh_tables Open tables.",
            "# TYPE sanh_tables gauge",
            f"sanh_tables {len(hall.tables)}",
            "# HELP sanh_hands_total Hands completed per game.",
            "# TYPE sanh_hands_total counter",
        ]
        per_game: dict[str, int] = {}
        voided: dict[str, int] = {}
        for actor in hall.tables.values():
            game_id = actor.game.info.id
            per_game[game_id] = per_game.get(game_id, 0) + actor.hands_completed
            voided[game_id] = voided.get(game_id, 0) + actor.hands_voided
        for game_id, count in sorted(per_game.items()):
            lines.append(f'sanh_hands_total{{game="{game_id}"}} {count}')
        lines += [
            "# HELP sanh_hands_voided_total Hands voided and refunded per game (RULES.md §2.8).",
            "# TYPE sanh_hands_voided_total counter",
        ]
        for game_id, count in sorted(voided.items()):
            lines.append(f'sanh_hands_voided_total{{game="{game_id}"}} {count}')
        lines += [
            "# HELP sanh_messages_out_total WebSocket messages sent.",
            "# TYPE sanh_messages_out_total counter",
            f"sanh_messages_out_total {m.messages_out}",
        ]
        events = getattr(services.bank, "events", None)
        if events is not None:
            lines += [
                "# HELP sanh_eventlog_commits_total Group commits of the table event log.",
                "# TYPE sanh_eventlog_commits_total counter",
                f"sanh_eventlog_commits_total {events.groups}",
                "# HELP sanh_eventlog_rows_total Table events written to the log.",
                "# TYPE sanh_eventlog_rows_total counter",
                f"sanh_eventlog_rows_total {events.rows_written}",
                "# HELP sanh_eventlog_pending Events appended and not yet durable.",
                "# TYPE sanh_eventlog_pending gauge",
                f"sanh_eventlog_pending {events.pending}",
            ]
        lines += m.command_seconds.lines(
            "sanh_command_seconds",
            "Client table commands, from arrival to their answer leaving (events durable first).",
        )
        lines += [
            "# HELP sanh_errors_total Refused requests by code.",
            "# TYPE sanh_errors_total counter",
        ]
        for code, count in sorted(m.errors.items()):
            lines.append(f'sanh_errors_total{{code="{code}"}} {count}')
        lines += [
            "# HELP sanh_uptime_seconds Seconds since start.",
            "# TYPE sanh_uptime_seconds gauge",
            f"sanh_uptime_seconds {time.time() - m.started_at:.1f}",
        ]
        return PlainTextResponse("\n".join(lines) + "\n", media_type="text/plain; version=0.0.4")

    async def openapi(request: Request) -> Response:
        """The OpenAPI document of the HTTP API."""
        return JSONResponse(openapi_document(routes))

    # ----- WebSocket -----------------------------------------------------------------------------
    async def ws(websocket: WebSocket) -> None:
        await websocket.accept()
        hall.metrics.connections += 1
        conn: Connection | None = None
        writer: asyncio.Task[None] | None = None
        bucket = _Bucket(settings.rate_per_second, settings.rate_burst)
        strikes: list[float] = []
        """When each recent refused frame came (within ``strike_window``)."""
        sign_in_by = time.monotonic() + settings.hello_timeout
        try:
            # The session token comes in the first frame (a hello), never in the URL: the
            # access log prints URLs (docs/protocol.md, "Signing in").
            while True:
                if conn is None:
                    try:  # a connection that never signs in does not stay open
                        frame = await asyncio.wait_for(
                            websocket.receive(), max(0.0, sign_in_by - time.monotonic())
                        )
                    except TimeoutError:
                        timeout = clean(f"{settings.hello_timeout:g}")
                        await _send_refusal(
                            websocket,
                            conn,
                            hall,
                            p.ErrorCode.UNAUTHENTICATED,
                            text("hello_timeout", timeout),
                        )
                        await websocket.close(code=status.WS_1008_POLICY_VIOLATION)
                        break
                else:
                    frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                data = frame.get("text") if frame.get("text") is not None else frame.get("bytes")
                hall.metrics.messages_in += 1
                problem = _check_frame(data, bucket, settings)
                if problem is not None:
                    now = time.monotonic()
                    strikes = [t for t in strikes if now - t < settings.strike_window]
                    strikes.append(now)
                    await _send_refusal(websocket, conn, hall, *problem)
                    if len(strikes) > settings.max_strikes:
                        await websocket.close(code=status.WS_1008_POLICY_VIOLATION)
                        break
                    continue
                assert data is not None
                try:
                    message = p.decode_client(data)
                except msgspec.ValidationError as exc:
                    await _send_free_error(websocket, conn, hall, _refusal_code(exc), str(exc))
                    continue
                except msgspec.DecodeError as exc:
                    await _send_free_error(websocket, conn, hall, p.ErrorCode.MALFORMED, str(exc))
                    continue
                if isinstance(message, p.Hello):
                    player, problem = check_hello(conn, message)
                    if problem is not None:
                        await _send_refusal(websocket, conn, hall, *problem)
                        continue
                    if conn is None:
                        conn = Connection(player)
                        writer = asyncio.create_task(_writer(websocket, conn, hall))
                    conn.send(welcome(player))
                    continue
                if conn is None:
                    await _send_refusal(
                        websocket, conn, hall, p.ErrorCode.UNAUTHENTICATED, "say_hello_first"
                    )
                    continue
                if isinstance(message, p.Ping):
                    conn.send(p.Pong())
                    continue
                dispatch(conn, message)
                if conn.closed:
                    break
        except WebSocketDisconnect:
            pass
        finally:
            hall.metrics.connections -= 1
            if conn is not None:
                for table_id in list(conn.tables):
                    actor = hall.tables.get(table_id)
                    if actor is not None:
                        actor.submit("disconnect", conn)
                conn.close()
            if writer is not None:
                writer.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await writer

    def welcome(player: PlayerInfo) -> p.Welcome:
        return p.Welcome(
            player=player.id, name=player.name, balance=services.bank.balance(player.id)
        )

    def check_hello(
        conn: Connection | None, message: p.Hello
    ) -> tuple[Any, tuple[p.ErrorCode, str] | None]:
        """The player a ``hello`` signs in, or why it is refused as a text code (nothing changes
        then).

        A connection is one player's for its whole life: on a signed-in connection a ``hello``
        is answered with the welcome again when its token is this player's, and refused with
        ``already_authenticated`` otherwise (another player's token, or an unknown one).
        """
        if message.protocol != p.PROTOCOL_VERSION:
            return None, (p.ErrorCode.BAD_PROTOCOL, text("bad_protocol", p.PROTOCOL_VERSION))
        player = accounts.by_token(message.token)
        if conn is not None and (player is None or player.id != conn.player.id):
            return None, (p.ErrorCode.ALREADY_AUTHENTICATED, "signed_in_already")
        if player is None:
            return None, (p.ErrorCode.UNAUTHENTICATED, "unknown_token")
        return player, None

    def dispatch(conn: Connection, message: p.ClientMessage) -> None:
        table_id = getattr(message, "table", None)
        if isinstance(message, p.Resume):
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
            return
        actor = hall.tables.get(table_id) if table_id else None
        if actor is None and isinstance(message, p.Join) and table_id:
            actor = hall.by_invite(table_id)
        if actor is None:
            reason = text("no_table_named", clean(table_id or ""))
            conn.send(_coded_error(p.ErrorCode.NO_SUCH_TABLE, reason, table=table_id))
            return
        if isinstance(message, p.Join):
            actor.submit(
                "join", conn, message.invite_code or (table_id if table_id != actor.id else None)
            )
        elif isinstance(message, p.Leave):
            actor.submit("leave", conn)
        elif isinstance(message, p.Sit):
            actor.submit("sit", conn, message.seat)
        elif isinstance(message, p.Stand):
            actor.submit("stand", conn)
        elif isinstance(message, p.BuyIn):
            actor.submit("buyin", conn, message.amount)
        elif isinstance(message, p.Act):
            hall.metrics.actions += 1
            actor.submit("act", conn, message)
        elif isinstance(message, p.AddBots):
            actor.submit("add_bots", conn, max(0, min(message.count, actor.spec.seats)))
        elif isinstance(message, p.RemoveBots):
            actor.submit("remove_bots", conn)
        elif isinstance(message, p.Host):
            actor.submit("host", conn, message.amount)

    routes = [
        Route("/api/register", register, methods=["POST"]),
        Route("/api/login", login, methods=["POST"]),
        Route("/api/guest", guest, methods=["POST"]),
        Route("/api/me", me, methods=["GET", "PATCH"]),
        Route("/api/statement", statement, methods=["GET"]),
        Route("/api/clans", clans, methods=["GET", "POST"]),
        Route("/api/clans/{clan}/join", clan_join, methods=["POST"]),
        Route("/api/clans/leave", clan_leave, methods=["POST"]),
        Route("/api/games", games, methods=["GET"]),
        Route("/api/lobby", lobby, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table}", table_info, methods=["GET"]),
        Route("/api/tables/{table}/bots", add_bots, methods=["POST"]),
        Route("/api/recall", recall_list, methods=["GET"]),
        Route("/api/recall/{hand}", recall_one, methods=["GET"]),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/metrics", metrics, methods=["GET"]),
        Route("/openapi.json", openapi, methods=["GET"]),
        WebSocketRoute("/ws", ws),
    ]
    if WEB_ROOT.is_dir():
        routes.append(Mount("/", app=StaticFiles(directory=WEB_ROOT, html=True), name="web"))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        started = time.monotonic()
        # Recorded tables rebuild themselves lazily: at once when someone comes back to one,
        # else in the background, one at a time, while the hall already serves.
        recorded = hall.open_recorded()
        if settings.bots_on_start:
            hall.open_system_tables()
        log.info(
            "hall started",
            extra={"tables": len(hall.tables), "restoring": len(recorded)},
        )

        async def restore() -> None:
            outcomes = await hall.recover_all(recorded)
            if settings.bots_on_start:
                hall.open_bot_tables()
            log.info(
                "tables restored",
                extra={"restored": outcomes, "resume_s": round(time.monotonic() - started, 3)},
            )

        restorer = asyncio.create_task(restore())
        yield
        restorer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await restorer
        await hall.close()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hall = hall
    app.state.services = services
    return app


class _Bucket:
    """A token bucket for the per-connection rate limit."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.capacity = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def _refusal_code(exc: msgspec.ValidationError) -> p.ErrorCode:
    """``unknown_type`` when the ``type`` field is missing or names no client message, else
    ``malformed`` (msgspec names the field in backquotes: `type`, at `$.type`)."""
    text = str(exc)
    return (
        p.ErrorCode.UNKNOWN_TYPE
        if "`type`" in text or "`$.type`" in text
        else p.ErrorCode.MALFORMED
    )


def _check_frame(
    data: str | bytes | None, bucket: _Bucket, settings: Settings
) -> tuple[p.ErrorCode, str] | None:
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


async def _send_refusal(
    websocket: WebSocket, conn: Connection | None, hall: Hall, code: p.ErrorCode, reason: str
) -> None:
    """Send an ``error`` whose words are a text code (see :func:`_coded_error`)."""
    await _send_error(websocket, conn, hall, _coded_error(code, reason))


async def _send_free_error(
    websocket: WebSocket, conn: Connection | None, hall: Hall, code: p.ErrorCode, message: str
) -> None:
    """Send an ``error`` in a parser's own English words (a malformed frame: no text code)."""
    await _send_error(websocket, conn, hall, p.Error(code=code, message=message[:300]))


async def _send_error(
    websocket: WebSocket, conn: Connection | None, hall: Hall, error: p.Error
) -> None:
    code = error.code
    hall.metrics.errors[code.value] = hall.metrics.errors.get(code.value, 0) + 1
    if conn is not None:
        conn.send(error)
    else:
        await websocket.send_text(p.encode(error).decode())


async def _writer(websocket: WebSocket, conn: Connection, hall: Hall) -> None:
    while True:
        data = await conn.outbox.get()
        if data is None:
            with contextlib.suppress(Exception):
                await websocket.close()
            return
        hall.metrics.messages_out += 1
        await websocket.send_text(data.decode())


ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "Every HTTP error's body.",
    "properties": {
        "error": {"type": "string", "description": "the error code (bad_config, refused, ...)"},
        "message": {"type": "string", "description": "what went wrong, in English"},
        "text": {
            "type": ["string", "null"],
            "description": "the same as a text code (sanh/games/_texts.py SERVER_TEXTS) for the"
            " client to translate; null for a parser's words",
        },
    },
    "required": ["error", "message", "text"],
}
ERROR_RESPONSE: dict[str, Any] = {
    "description": "typed error",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}


def openapi_document(routes: list[Any]) -> dict[str, Any]:
    """An OpenAPI 3.1 document for the HTTP routes, with msgspec schemas for the bodies."""
    bodies = {
        "/api/register": RegisterRequest,
        "/api/login": LoginRequest,
        "/api/guest": GuestRequest,
        "/api/tables": CreateTableRequest,
        "/api/tables/{table}/bots": BotsRequest,
        "/api/clans": ClanRequest,
        "/api/me": ProfileRequest,
    }
    (schemas, components) = msgspec.json.schema_components(
        list(bodies.values()), ref_template="#/components/schemas/{name}"
    )
    refs = dict(zip(bodies, schemas, strict=True))
    paths: dict[str, Any] = {}
    for route in routes:
        if not isinstance(route, Route):
            continue
        entry: dict[str, Any] = {}
        for method in sorted(route.methods or ()):
            if method == "HEAD":
                continue
            operation: dict[str, Any] = {
                "summary": (route.endpoint.__doc__ or "").strip().splitlines()[0]
                if route.endpoint.__doc__
                else route.path,
                "responses": {"200": {"description": "OK"}, "4XX": ERROR_RESPONSE},
            }
            if method in {"POST", "PATCH"} and route.path in refs:
                operation["requestBody"] = {
                    "content": {"application/json": {"schema": refs[route.path]}}
                }
            if route.path.startswith("/api/") and route.path not in {
                "/api/register",
                "/api/login",
                "/api/guest",
                "/api/games",
                "/api/lobby",
            }:
                operation["security"] = [{"bearer": []}]
            entry[method.lower()] = operation
        paths[route.path] = entry
    return {
        "openapi": "3.1.0",
        "info": {"title": "sanh hall", "version": "1", "description": "Play money only."},
        "paths": paths,
        "components": {
            "schemas": {**components, "Error": ERROR_SCHEMA},
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }
