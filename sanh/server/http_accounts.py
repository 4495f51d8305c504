"""The HTTP API's accounts: registration, log-in and out, guests, the password, the profile, the
wallet's statement and the daily gold (the area's structs are its OpenAPI schemas)."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette import status
from starlette.requests import Request

from sanh.server.api import ApiError, Endpoints
from sanh.server.auth import bearer
from sanh.server.guard import Throttled
from sanh.server.http_context import (
    CREATED,
    LimitQuery,
    Ok,
    address,
    context,
    refused,
    throttled,
)
from sanh.server.services import DailyRefused, PlayerInfo

__all__ = ["ENDPOINTS"]

ENDPOINTS = Endpoints()
endpoint = ENDPOINTS.endpoint


# ----- request bodies --------------------------------------------------------------------------
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


class PasswordRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Change the password: the current one, and the new one."""

    current: str
    new: str


class ProfileRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Change display name or language."""

    name: str | None = None
    language: str | None = None


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
    level: int
    """The level of the XP of every game together (sanh/ledger/levels.py: level n needs
    5·n·(n−1) XP)."""
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


def _session_body(request: Request, player: PlayerInfo) -> Session:
    return Session(
        token=context(request).accounts.new_session(player.id),
        player=player.id,
        name=player.name,
        language=player.language,
    )


# ----- endpoints -------------------------------------------------------------------------------
@endpoint("POST", "/api/register", status=CREATED, response=Session, errors=[409, 429])
async def register(request: Request, body: RegisterRequest) -> Any:
    """Create an account and a session; returns the token."""
    ctx = context(request)
    where = address(request)
    try:
        ctx.guard.admit_registration(where)
        player = await ctx.auth.register(body.username, body.password, body.name, body.language)
    except Throttled as exc:
        raise throttled(exc) from None
    except ValueError as exc:
        raise refused(exc) from None
    ctx.guard.created("register", where)
    return _session_body(request, player)


@endpoint("POST", "/api/login", response=Session, errors=[401, 429])
async def login(request: Request, body: LoginRequest) -> Any:
    """Log in with a username and password; returns a session token."""
    player = await context(request).auth.login(body.username, body.password, address(request))
    return _session_body(request, player)


@endpoint("POST", "/api/logout", response=Ok)
async def logout(request: Request, player: PlayerInfo) -> Any:
    """End this session: its token answers 401 from now on, its WebSockets are closed."""
    context(request).auth.logout(bearer(request.headers.get("authorization", "")))
    return Ok(ok=True)


@endpoint("POST", "/api/password", response=Ok, errors=[403, 409, 429])
async def change_password(request: Request, player: PlayerInfo, body: PasswordRequest) -> Any:
    """Change the password (the current one is asked) and end every other session."""
    token = bearer(request.headers.get("authorization", ""))
    try:
        await context(request).auth.change_password(
            player, token, body.current, body.new, address(request)
        )
    except ValueError as exc:
        raise refused(exc) from None
    return Ok(ok=True)


@endpoint("POST", "/api/guest", status=CREATED, response=Session, errors=[409, 429])
async def guest(request: Request, body: GuestRequest) -> Any:
    """Create a guest account and session."""
    ctx = context(request)
    where = address(request)
    try:
        ctx.guard.admit_guest(where)
        # Two commits: the player, then its wallet, session and the guard's record.
        player, token = ctx.accounts.guest_session(
            body.name, body.language, ctx.guard.recorder("guest", where)
        )
    except Throttled as exc:
        raise throttled(exc) from None
    except ValueError as exc:
        raise refused(exc) from None
    return Session(token=token, player=player.id, name=player.name, language=player.language)


@endpoint("GET", "/api/me", response=Profile)
async def me(request: Request, player: PlayerInfo) -> Any:
    """Profile: name, language, balance, XP and play time per game, clan."""
    return context(request).accounts.profile(player.id)


@endpoint("PATCH", "/api/me", response=Profile, errors=[409])
async def update_me(request: Request, player: PlayerInfo, body: ProfileRequest) -> Any:
    """Change the display name or the language; returns the profile."""
    accounts = context(request).accounts
    try:
        accounts.update_profile(player.id, name=body.name, language=body.language)
    except ValueError as exc:
        raise refused(exc) from None
    return accounts.profile(player.id)


@endpoint("GET", "/api/statement", response=Statement)
async def statement(request: Request, player: PlayerInfo, query: LimitQuery) -> Any:
    """The player's wallet lines, newest first, with a running balance (read-only;
    ``limit`` 50, at most 500): a hold is one line, ``pending`` until it is ``settled``
    or ``released``."""
    limit = min(50 if query.limit is None else query.limit, 500)
    return context(request).accounts.statement(player.id, limit)


@endpoint("POST", "/api/daily", response=DailyClaim, errors=[409])
async def daily(request: Request, player: PlayerInfo) -> Any:
    """Claim the daily gold: once per calendar day (``day_zone``), below ``daily_below``."""
    ctx = context(request)
    settings = ctx.settings
    day = settings.calendar_day(ctx.wall_time())
    try:
        balance = ctx.accounts.daily_gold(
            player.id, day, amount=settings.daily_gold, below=settings.daily_below
        )
    except DailyRefused as exc:
        raise ApiError(status.HTTP_409_CONFLICT, "refused", text=exc.code) from None
    return DailyClaim(day=day, amount=settings.daily_gold, balance=balance)
