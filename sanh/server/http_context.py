"""What the HTTP and WebSocket endpoints share: the hall's parts in ``app.state``, the signed-in
player, and the refusals several endpoints send.

:func:`sanh.server.app.create_app` builds one :class:`HallContext` and keeps it in
``app.state.context`` (with ``app.state.hall``, ``app.state.services`` and ``app.state.settings``
beside it); each endpoint, a plain module-level function, reads it with :func:`context` from its
request or WebSocket, the Starlette way (``request.app.state``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Protocol

import msgspec
from starlette import status
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from sanh.errors import ConfigError
from sanh.ledger.players import (
    NAME_LENGTH_MAX,
    PASSWORD_LENGTH_MIN,
    USERNAME_LENGTH,
    PlayerCode,
    PlayerRefused,
)
from sanh.server.api import ApiError
from sanh.server.auth import Auth, OpenSessions, bearer
from sanh.server.guard import Guard, Throttled
from sanh.server.hall import Hall
from sanh.server.limits import TableLimits
from sanh.server.passwords import PasswordPool
from sanh.server.services import PlayerInfo
from sanh.server.settings import Settings
from sanh.texts import text

__all__ = [
    "CREATED",
    "HallContext",
    "HallServices",
    "LimitQuery",
    "Ok",
    "address",
    "config_refused",
    "context",
    "count_error",
    "player_of",
    "refused",
    "throttled",
]

CREATED = status.HTTP_201_CREATED


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


@dataclass(frozen=True)
class HallContext:
    """The hall's parts one app serves, built once by ``create_app``."""

    settings: Settings
    services: HallServices
    hall: Hall
    accounts: Any
    """The accounts port (``services.accounts``: sessions, profiles, clans, statements)."""
    wall_time: Callable[[], float]
    """The time (seconds since the epoch) the account limits and the daily gold read."""
    guard: Guard
    pool: PasswordPool
    open_sessions: OpenSessions
    auth: Auth
    table_limits: TableLimits
    registry: Any
    """The ``/metrics`` registry (sanh/server/metrics.py)."""
    document: dict[str, Any]
    """The OpenAPI document (``/openapi.json``)."""


def context(connection: HTTPConnection) -> HallContext:
    """The hall's parts, from the app a request or a WebSocket came to."""
    found = connection.app.state.context
    if not isinstance(found, HallContext):
        raise TypeError("the app holds no HallContext in app.state.context")
    return found


def player_of(request: Request) -> PlayerInfo:
    """The signed-in player of a request, or 401 ``unauthenticated``."""
    # The token only in the Authorization header: a URL (and its query) goes to the log.
    token = bearer(request.headers.get("authorization", ""))
    player = context(request).accounts.by_token(token) if token else None
    if player is None:
        raise ApiError(status.HTTP_401_UNAUTHORIZED, "unauthenticated", text="log_in_first")
    return player  # type: ignore[no-any-return]


def count_error(request: Request, exc: ApiError) -> Response | None:
    """Count a refusal in the hall's metrics (and answer it as usual)."""
    errors = context(request).hall.metrics.errors
    errors[exc.code] = errors.get(exc.code, 0) + 1
    return None


def config_refused(exc: Exception) -> ApiError | None:
    """A setup the lobby or the game refuses: 422 ``bad_config`` with its text code."""
    if isinstance(exc, ConfigError):
        return ApiError(
            status.HTTP_422_UNPROCESSABLE_CONTENT, "bad_config", str(exc), text=exc.text
        )
    return None


def throttled(exc: Throttled) -> ApiError:
    """A request over one of the account limits: 429 ``rate_limited``, with ``Retry-After``."""
    return ApiError(
        status.HTTP_429_TOO_MANY_REQUESTS,
        "rate_limited",
        text=text(exc.code, exc.retry_after),
        headers={"Retry-After": str(exc.retry_after)},
    )


def address(request: Request) -> str:
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


def refused(exc: ValueError) -> ApiError:
    """A refused account or clan operation (409 ``refused``), in words the client translates."""
    if isinstance(exc, PlayerRefused):
        return ApiError(status.HTTP_409_CONFLICT, "refused", text=_PLAYER_TEXTS[exc.code])
    return ApiError(status.HTTP_409_CONFLICT, "refused", str(exc))


# ----- structs several areas use ---------------------------------------------------------------
class LimitQuery(msgspec.Struct, forbid_unknown_fields=True):
    """How many rows (at most 500 transfers, 100 hands)."""

    limit: Annotated[int, msgspec.Meta(ge=0)] | None = None


class Ok(msgspec.Struct):
    ok: bool
