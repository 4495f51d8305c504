"""The ASGI app: the HTTP API (OpenAPI at /openapi.json), the WebSocket at /ws, the web client.

``create_app(settings, services)`` builds a Starlette app around a :class:`~sanh.server.hall.Hall`.
Every HTTP endpoint is declared with :meth:`sanh.server.api.Api.endpoint`: its body, query and
answer are the typed msgspec structs below, and the OpenAPI document is built from them. Every
error is JSON ``{"error": code, "message": ..., "text": ...}`` (:class:`~sanh.server.api.Error`)
with a status from :mod:`starlette.status`: ``message`` in English, ``text`` the same as a text
code (sanh/games/_texts.py) for the client to translate; when the message is a parser's free
text, ``field`` names the body or query field as a JSON path and ``text`` is
``field_invalid:<field>``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Annotated, Any, Protocol

import msgspec
from starlette import status
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, WebSocketRoute
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
from sanh.server import friends, leaderboards
from sanh.server import protocol as p
from sanh.server.accesslog import AccessLog
from sanh.server.api import Api, ApiError
from sanh.server.auth import Auth, OpenSessions, bearer
from sanh.server.chat import CHAT_BURST, CHAT_PER_SECOND, clean_line
from sanh.server.clock import Clock, wait_until
from sanh.server.guard import Guard, Throttled
from sanh.server.hall import Hall, offered_options
from sanh.server.limits import TableLimits, TableRefused
from sanh.server.metrics import CONTENT_TYPE, exposition, hall_registry
from sanh.server.passwords import PasswordPool
from sanh.server.rules import rules_document
from sanh.server.services import DailyRefused, PlayerInfo
from sanh.server.settings import Settings
from sanh.server.table import Connection

__all__ = ["HallServices", "create_app"]

log = logging.getLogger("sanh.server")
CREATED = status.HTTP_201_CREATED
WEB_ROOT = Path(__file__).resolve().parent.parent / "web"


# ----- request bodies and queries ------------------------------------------------------------
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


class PasswordRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Change the password: the current one, and the new one."""

    current: str
    new: str


class ProfileRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Change display name or language."""

    name: str | None = None
    language: str | None = None


ClanId = Annotated[int, msgspec.Meta(ge=1, le=2**63 - 1)]
"""A clan's id in a path: a number the database can hold (else 422 ``malformed``)."""


class LimitQuery(msgspec.Struct, forbid_unknown_fields=True):
    """How many rows (at most 500 transfers, 100 hands)."""

    limit: Annotated[int, msgspec.Meta(ge=0)] | None = None


class LobbyQuery(msgspec.Struct, forbid_unknown_fields=True):
    """The lobby's filters."""

    game: str | None = None
    stake_min: int | None = None
    stake_max: int | None = None
    open_seats: bool = False
    """Only tables with a free seat (``1`` or ``true``)."""


# ----- responses -------------------------------------------------------------------------------
class Session(msgspec.Struct):
    """A new session: its bearer token and the player."""

    token: str
    player: str
    name: str
    language: str


class DailyClaim(msgspec.Struct):
    """A daily gold claim paid: the calendar day, the amount and the new balance (minor units)."""

    day: str
    amount: int
    balance: int


class ProfileClan(msgspec.Struct):
    """The player's clan, role and treasury."""

    id: int
    name: str
    xp: int
    role: str
    treasury: int


class Profile(msgspec.Struct):
    """Name, language, balance (minor units), XP, hands and play time per game, clan."""

    player: str
    name: str
    language: str
    guest: bool
    balance: int
    xp: dict[str, int]
    hands: dict[str, int]
    play_seconds: dict[str, float]
    clan: ProfileClan | None


class Transfer(msgspec.Struct):
    """One line of the wallet: a transfer, or a hold with its fate, signed from the
    player's side (see ``WalletServices.statement``)."""

    id: str
    code: str
    kind: str
    status: str
    """``done``, or for a hold ``pending``, ``settled`` or ``released``."""
    amount: int
    """What the line did to the available balance."""
    held: int
    """For a hold, its amount (signed); 0 otherwise."""
    balance: int
    """The available balance after this line."""
    memo: str
    time: str


class Statement(msgspec.Struct):
    balance: int
    """The available balance the lines end at (the newest line's ``balance``)."""
    transfers: list[Transfer]


class Clan(msgspec.Struct):
    id: str
    name: str
    xp: int


class Clans(msgspec.Struct):
    clans: list[Clan]


class Membership(msgspec.Struct):
    clan: str
    role: str


class Ok(msgspec.Struct):
    ok: bool


class GameInfo(msgspec.Struct):
    """A game: seats, deck, whether the house banks it, its rule options and action types."""

    id: str
    name: str
    name_vi: str
    seats_min: int
    seats_max: int
    deck: str
    banked: bool
    options: list[dict[str, Any]]
    actions: list[str]


class Games(msgspec.Struct):
    games: list[GameInfo]


class RulesText(msgspec.Struct):
    """A game's rules in one language: a short "how to play" and the main rules."""

    how_to_play: str
    rules: list[str]


class HouseBet(msgspec.Struct):
    """A house bet: its payout and its exact house edge (sanh.analysis, full enumeration)."""

    bet: str
    table: str | None
    """Tài Xỉu's kind of table (``system``: fee 5 %, ``player``: fee 3 %); null elsewhere."""
    payout: str
    """``n:1``, or the paytable from the best hand down (``40-30-5-4-1``)."""
    house_edge: float
    exact_house_edge: str
    """The house edge as a fraction ``p/q`` of the stake."""
    rtp: float


class GameRules(msgspec.Struct):
    """One game's rules at hand, in Vietnamese and English; its house bets."""

    id: str
    name: str
    name_vi: str
    banked: bool
    section: str
    """Where RULES.md gives the rules in full."""
    vi: RulesText
    en: RulesText
    bets: list[HouseBet]


class Rules(msgspec.Struct):
    games: list[GameRules]


class TableEntry(msgspec.Struct):
    """What the lobby shows of a table."""

    id: str
    game: str
    name: str
    stake: int
    seats: int
    seated: int
    options: dict[str, Any]
    quick: bool
    private: bool
    system: bool
    host: str | None
    hand: int
    in_hand: bool


class CreatedTable(TableEntry):
    """A new table; ``invite_code`` is set for a private one."""

    invite_code: str | None


class Lobby(msgspec.Struct):
    tables: list[TableEntry]


class HandSummary(msgspec.Struct):
    id: str
    game: str
    hand: int
    table: str
    net: int


class Hands(msgspec.Struct):
    hands: list[HandSummary]


class RecalledHand(msgspec.Struct):
    """One hand as the player's seat could know it (sanh/server/recall.py)."""

    id: str
    game: str
    hand: int
    table: str
    seat: int
    players: list[str | None]
    names: list[str | None]
    actions: list[dict[str, Any]]
    view: dict[str, Any] | None
    settlement: dict[str, Any]
    server_seed: str | None
    chat: list[p.ChatEntry] = []
    """The table chat said during the hand (kept for the hand's seated players only)."""


class Health(msgspec.Struct):
    ok: bool
    tables: int


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


def _throttled(exc: Throttled) -> ApiError:
    """A request over one of the account limits: 429 ``rate_limited``, with ``Retry-After``."""
    return ApiError(
        status.HTTP_429_TOO_MANY_REQUESTS,
        "rate_limited",
        text=text(exc.code, exc.retry_after),
        headers={"Retry-After": str(exc.retry_after)},
    )


def _table_refused(exc: TableRefused) -> ApiError:
    """409 ``too_many_tables`` or 429 ``tables_too_fast`` (with ``Retry-After``)."""
    if exc.retry_after is None:
        return ApiError(
            status.HTTP_409_CONFLICT, "too_many_tables", text=text("too_many_tables", exc.limit)
        )
    return ApiError(
        status.HTTP_429_TOO_MANY_REQUESTS,
        "tables_too_fast",
        text=text("tables_too_fast", exc.retry_after),
        headers={"Retry-After": str(exc.retry_after)},
    )


def _address(request: Request) -> str:
    """The client's address (the limits count per address)."""
    return request.client.host if request.client is not None else "unknown"


_PLAYER_TEXTS: dict[PlayerCode, str] = {
    PlayerCode.USERNAME_INVALID: text("username_invalid", *USERNAME_LENGTH),
    PlayerCode.USERNAME_TAKEN: "username_taken",
    PlayerCode.PASSWORD_TOO_SHORT: text("password_too_short", PASSWORD_LENGTH_MIN),
    PlayerCode.BAD_CREDENTIALS: "wrong_credentials",
    PlayerCode.NO_SUCH_PLAYER: "no_such_player",
    PlayerCode.NOT_A_GUEST: "not_a_guest",
    PlayerCode.DISPLAY_NAME_INVALID: text("display_name_invalid", NAME_LENGTH_MAX),
    PlayerCode.LANGUAGE_INVALID: "language_invalid",
    PlayerCode.DISPLAY_NAME_RESERVED: "display_name_reserved",
    PlayerCode.DISPLAY_NAME_TAKEN: "display_name_taken",
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


def create_app(
    settings: Settings,
    services: HallServices,
    hall: Hall | None = None,
    *,
    now: Callable[[], float] | None = None,
) -> Starlette:
    """The hall's ASGI app. ``now``: the time (seconds since the epoch) the account limits and
    the daily gold read (default :meth:`Settings.wall_time`)."""
    hall = hall if hall is not None else Hall(settings, services.bank)
    accounts = services.accounts
    wall_time = now or settings.wall_time
    guard = Guard(accounts.ledger.store, settings.limits(), wall_time)
    pool = PasswordPool(workers=settings.password_workers, queue=settings.password_queue)
    open_sessions = OpenSessions()
    auth = Auth(
        accounts,
        guard,
        pool,
        open_sessions,
        parallel_per_address=settings.login_parallel_per_address,
    )
    table_limits = TableLimits(
        per_player=settings.tables_per_player,
        per_hour=settings.tables_per_hour,
        burst=settings.tables_burst,
        now=hall.clock.now,
    )

    def player_of(request: Request) -> PlayerInfo:
        # The token only in the Authorization header: a URL (and its query) goes to the log.
        token = bearer(request.headers.get("authorization", ""))
        player = accounts.by_token(token) if token else None
        if player is None:
            raise ApiError(status.HTTP_401_UNAUTHORIZED, "unauthenticated", text="log_in_first")
        return player  # type: ignore[no-any-return]

    def counted(exc: ApiError) -> None:
        hall.metrics.errors[exc.code] = hall.metrics.errors.get(exc.code, 0) + 1

    def config_refused(exc: Exception) -> ApiError | None:
        if isinstance(exc, ConfigError):
            return ApiError(
                status.HTTP_422_UNPROCESSABLE_CONTENT, "bad_config", str(exc), text=exc.text
            )
        return None

    api = Api(player_of, lambda exc: counted(exc))
    api.translate(config_refused)
    social = friends.Social(hall, accounts)
    endpoint = api.endpoint

    # ----- accounts -------------------------------------------------------------------------
    @endpoint("POST", "/api/register", status=CREATED, response=Session, errors=[409, 429])
    async def register(request: Request, body: RegisterRequest) -> Any:
        """Create an account and a session; returns the token."""
        address = _address(request)
        try:
            guard.admit_registration(address)
            player = await auth.register(body.username, body.password, body.name, body.language)
        except Throttled as exc:
            raise _throttled(exc) from None
        except ValueError as exc:
            raise _refused(exc) from None
        guard.created("register", address)
        return session_body(player)

    @endpoint("POST", "/api/login", response=Session, errors=[401, 429])
    async def login(request: Request, body: LoginRequest) -> Any:
        """Log in with a username and password; returns a session token."""
        player = await auth.login(body.username, body.password, _address(request))
        return session_body(player)

    @endpoint("POST", "/api/logout", response=Ok)
    async def logout(request: Request, player: PlayerInfo) -> Any:
        """End this session: its token answers 401 from now on, its WebSockets are closed."""
        auth.logout(bearer(request.headers.get("authorization", "")))
        return Ok(ok=True)

    @endpoint("POST", "/api/password", response=Ok, errors=[403, 409, 429])
    async def change_password(request: Request, player: PlayerInfo, body: PasswordRequest) -> Any:
        """Change the password (the current one is asked) and end every other session."""
        token = bearer(request.headers.get("authorization", ""))
        try:
            await auth.change_password(player, token, body.current, body.new, _address(request))
        except ValueError as exc:
            raise _refused(exc) from None
        return Ok(ok=True)

    @endpoint("POST", "/api/guest", status=CREATED, response=Session, errors=[409, 429])
    async def guest(request: Request, body: GuestRequest) -> Any:
        """Create a guest account and session."""
        address = _address(request)
        try:
            guard.admit_guest(address)
            # Two commits: the player, then its wallet, session and the guard's record.
            player, token = accounts.guest_session(
                body.name, body.language, guard.recorder("guest", address)
            )
        except Throttled as exc:
            raise _throttled(exc) from None
        except ValueError as exc:
            raise _refused(exc) from None
        return Session(token=token, player=player.id, name=player.name, language=player.language)

    def session_body(player: PlayerInfo) -> Session:
        return Session(
            token=accounts.new_session(player.id),
            player=player.id,
            name=player.name,
            language=player.language,
        )

    @endpoint("GET", "/api/me", response=Profile)
    async def me(player: PlayerInfo) -> Any:
        """Profile: name, language, balance, XP and play time per game, clan."""
        return accounts.profile(player.id)

    @endpoint("PATCH", "/api/me", response=Profile, errors=[409])
    async def update_me(player: PlayerInfo, body: ProfileRequest) -> Any:
        """Change the display name or the language; returns the profile."""
        try:
            accounts.update_profile(player.id, name=body.name, language=body.language)
        except ValueError as exc:
            raise _refused(exc) from None
        return accounts.profile(player.id)

    @endpoint("GET", "/api/statement", response=Statement)
    async def statement(player: PlayerInfo, query: LimitQuery) -> Any:
        """The player's wallet lines, newest first, with a running balance (read-only;
        ``limit`` 50, at most 500): a hold is one line, ``pending`` until it is ``settled``
        or ``released``."""
        limit = min(50 if query.limit is None else query.limit, 500)
        return accounts.statement(player.id, limit)

    @endpoint("POST", "/api/daily", response=DailyClaim, errors=[409])
    async def daily(player: PlayerInfo) -> Any:
        """Claim the daily gold: once per calendar day (``day_zone``), below ``daily_below``."""
        day = settings.calendar_day(wall_time())
        try:
            balance = accounts.daily_gold(
                player.id, day, amount=settings.daily_gold, below=settings.daily_below
            )
        except DailyRefused as exc:
            raise ApiError(status.HTTP_409_CONFLICT, "refused", text=exc.code) from None
        return DailyClaim(day=day, amount=settings.daily_gold, balance=balance)

    # ----- clans ------------------------------------------------------------------------------
    @endpoint("GET", "/api/clans", response=Clans)
    async def clans() -> Any:
        """List clans, by XP."""
        return {"clans": accounts.clans()}

    @endpoint("POST", "/api/clans", status=CREATED, response=Clan, errors=[409])
    async def create_clan(player: PlayerInfo, body: ClanRequest) -> Any:
        """Found a clan (the founder leads it)."""
        try:
            return accounts.create_clan(player.id, body.name)
        except ValueError as exc:
            raise _refused(exc) from None

    @endpoint("POST", "/api/clans/{clan}/join", response=Membership, errors=[409])
    async def clan_join(player: PlayerInfo, clan: ClanId) -> Any:
        """Join a clan."""
        try:
            return accounts.join_clan(player.id, str(clan))
        except ValueError as exc:
            raise _refused(exc) from None

    @endpoint("POST", "/api/clans/leave", response=Ok, errors=[409])
    async def clan_leave(player: PlayerInfo) -> Any:
        """Leave one's clan."""
        try:
            accounts.leave_clan(player.id)
        except ValueError as exc:
            raise _refused(exc) from None
        return Ok(ok=True)

    # ----- lobby and tables -------------------------------------------------------------------
    @endpoint("GET", "/api/games", response=Games)
    async def games() -> Any:
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
                    "options": [
                        to_jsonable(o) for o in offered_options(info, settings.house_tai_xiu_tables)
                    ],
                    "actions": [cls.__name__ for cls in info.action_types],
                }
            )
        return {"games": sorted(out, key=lambda g: g["id"])}

    @endpoint("GET", "/api/rules", response=Rules)
    async def rules() -> Any:
        """Each offered game's rules and "how to play" in Vietnamese and English, and each
        house bet's payout and exact house edge (``sanh.analysis``; sanh/server/rules.py)."""
        offered = [
            (g.info.id, g.info.name, g.info.name_vi, g.info.banked)
            for g in REGISTRY.values()
            if settings.game_offered(g.info.id)
        ]
        # The first call enumerates every bet (about a second): off the event loop.
        return {"games": await asyncio.to_thread(rules_document, sorted(offered))}

    @endpoint("GET", "/api/lobby", response=Lobby)
    async def lobby(query: LobbyQuery) -> Any:
        """Tables, filtered by ``game``, ``stake_min``, ``stake_max``, ``open_seats``."""
        try:
            tables = hall.lobby(
                game=query.game or None,
                stake_min=query.stake_min,
                stake_max=query.stake_max,
                open_seats=query.open_seats,
            )
        except ValueError:
            raise ApiError(
                status.HTTP_422_UNPROCESSABLE_CONTENT, "malformed", text="bad_filter"
            ) from None
        return {"tables": tables}

    @endpoint("POST", "/api/tables", status=CREATED, response=CreatedTable, errors=[409, 429])
    async def create_table(player: PlayerInfo, body: CreateTableRequest) -> Any:
        """Create a table with the host's options (private tables get an invite code).

        A setup the lobby or the game refuses is 422 ``bad_config`` with its text code; a
        player who hosts ``tables_per_player`` open tables already is 409 ``too_many_tables``,
        one creating faster than ``tables_per_hour`` 429 ``tables_too_fast``
        (sanh/server/limits.py).
        """
        hosted = [(a.id, a.seated) for a in hall.tables.values() if a.spec.host == player.id]
        try:
            table_limits.admit(player.id, hosted)
        except TableRefused as exc:
            raise _table_refused(exc) from None
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
        table_limits.created(player.id, actor.id)  # no await since admit: parallel ones wait
        if body.bots:
            await actor.call("add_bots", None, max(0, min(body.bots, actor.spec.seats)))
        entry = actor.lobby_entry()
        entry["invite_code"] = actor.spec.invite_code
        return entry

    @endpoint("GET", "/api/tables/{table}", response=TableEntry, errors=[404])
    async def table_info(table: str) -> Any:
        """One table, by its id or a private table's invite code."""
        actor = hall.tables.get(table)
        if actor is None:
            actor = hall.by_invite(table)
        if actor is None:
            raise ApiError(status.HTTP_404_NOT_FOUND, "no_such_table", text="no_such_table")
        return actor.lobby_entry()

    @endpoint("POST", "/api/tables/{table}/bots", response=TableEntry, errors=[403, 404])
    async def add_bots(player: PlayerInfo, table: str, body: BotsRequest) -> Any:
        """The host fills empty seats with bots."""
        actor = hall.tables.get(table)
        if actor is None:
            raise ApiError(status.HTTP_404_NOT_FOUND, "no_such_table", text="no_such_table")
        if actor.spec.host != player.id:
            raise ApiError(status.HTTP_403_FORBIDDEN, "not_host", text="host_adds_bots")
        await actor.call("add_bots", None, max(0, min(body.count, actor.spec.seats)))
        return actor.lobby_entry()

    # ----- recall --------------------------------------------------------------------------------
    @endpoint("GET", "/api/recall", response=Hands)
    async def recall_list(player: PlayerInfo, query: LimitQuery) -> Any:
        """The player's last hands, newest first (``limit`` 20, at most 100)."""
        limit = min(20 if query.limit is None else query.limit, 100)
        return {"hands": services.recall.hands_for(player.id, limit)}

    @endpoint("GET", "/api/recall/{hand}", response=RecalledHand, errors=[404])
    async def recall_one(player: PlayerInfo, hand: str) -> Any:
        """One hand as the player's seat could know it.

        Its final view, the events it could know of (the deal without the deck order, no other
        seat's private bets), the settlement, the seats' players and names
        (``sanh/server/recall.py``).
        """
        recalled = services.recall.hand_for(player.id, hand)
        if recalled is None:
            raise ApiError(status.HTTP_404_NOT_FOUND, "no_such_hand", text="no_such_hand")
        if not settings.reveals_seed(REGISTRY[recalled["game"]].info.banked):
            recalled["server_seed"] = None  # the deck order would show folded hands (§2.10)
        return recalled

    # ----- operations ----------------------------------------------------------------------------
    @endpoint("GET", "/healthz", response=Health, also={503: Health})
    async def healthz() -> Any:
        """Liveness: 200 while the hall runs its tables (503 with the same body otherwise)."""
        alive = all(
            actor.task is not None and not actor.task.done() for actor in hall.tables.values()
        )
        code = status.HTTP_200_OK if alive else status.HTTP_503_SERVICE_UNAVAILABLE
        return JSONResponse({"ok": alive, "tables": len(hall.tables)}, status_code=code)

    registry = hall_registry(hall, services.bank)

    @endpoint("GET", "/metrics", media_type=CONTENT_TYPE)
    async def metrics() -> Any:
        """Prometheus text format: the hall's counters and the process' (sanh/server/metrics.py)."""
        return Response(exposition(registry), media_type=CONTENT_TYPE)

    @endpoint("GET", "/openapi.json", response=dict[str, Any])
    async def openapi() -> Any:
        """The OpenAPI document of the HTTP API (this document)."""
        return document

    # ----- WebSocket -----------------------------------------------------------------------------
    async def ws(websocket: WebSocket) -> None:
        await websocket.accept()
        hall.metrics.connections += 1
        conn: Connection | None = None
        session = ""
        """The key of the session the connection signed in with (revoking it closes this)."""
        writer: asyncio.Task[None] | None = None
        clock = hall.clock
        bucket = _Bucket(settings.rate_per_second, settings.rate_burst, clock)
        strikes: list[float] = []
        """When each recent refused frame came (within ``strike_window``)."""
        sign_in_by = clock.now() + settings.hello_timeout
        try:
            # The session token comes in the first frame (a hello), never in the URL: the
            # access log prints URLs (docs/protocol.md, "Signing in").
            while True:
                if conn is None:
                    try:  # a connection that never signs in does not stay open
                        frame = await wait_until(clock, websocket.receive(), sign_in_by)
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
                    now = clock.now()
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
                        session = accounts.session_key(message.token)
                        open_sessions.add(session, conn)
                        writer = asyncio.create_task(_writer(websocket, conn, hall))
                        conn.send(welcome(player))
                        social.online(conn)
                        continue
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
                if isinstance(message, p.LobbyChat):
                    hall.lobby_chat.watch(conn, message.watch)
                    continue
                if isinstance(message, p.Chat) and message.table is None:
                    lobby_say(conn, message.text)
                    continue
                dispatch(conn, message)
                if conn.closed:
                    break
        except WebSocketDisconnect:
            pass
        finally:
            hall.metrics.connections -= 1
            if conn is not None:
                open_sessions.remove(session, conn)
                social.offline(conn)
                hall.lobby_chat.forget(conn)
                for table_id in list(conn.tables):
                    actor = hall.tables.get(table_id)
                    if actor is not None:
                        actor.submit("disconnect", conn)
                conn.close()
            if writer is not None:
                writer.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await writer

    def lobby_say(conn: Connection, raw: str) -> None:
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
        elif isinstance(message, p.CancelLeave):
            actor.submit("cancel_leave", conn)
        elif isinstance(message, p.QuoteLeave):
            actor.submit("quote_leave", conn)
        elif isinstance(message, p.LeaveNow):
            actor.submit("leave_now", conn, message.quote_id)
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
        elif isinstance(message, p.Chat):
            actor.submit("chat", conn, message.text)
        elif isinstance(message, p.ChatSpectators):
            actor.submit("chat_spectators", conn, message.allow)

    friends.declare(api)
    leaderboards.declare(api)
    document = api.document(
        title="sanh hall", version=str(p.PROTOCOL_VERSION), description="Play money only."
    )
    routes: list[BaseRoute] = [*api.routes(fallback="/api"), WebSocketRoute("/ws", ws)]
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
        pool.close()

    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(AccessLog, enabled=settings.access_log)],
    )
    app.state.hall = hall
    app.state.services = services
    app.state.settings = settings
    app.state.social = social
    app.state.wall_time = wall_time
    accounts.calendar_day = settings.calendar_day
    return app


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
