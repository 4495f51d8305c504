"""The ASGI app: the HTTP API (OpenAPI at /openapi.json), the WebSocket at /ws, the web client.

``create_app(settings, services)`` builds a Starlette app around a :class:`~sanh.server.hall.Hall`
and keeps the hall's parts in ``app.state`` (:class:`~sanh.server.http_context.HallContext`).
The endpoints are module-level functions that read them from their request, grouped by area:
:mod:`~sanh.server.http_accounts`, :mod:`~sanh.server.http_clans`,
:mod:`~sanh.server.http_tables`, :mod:`~sanh.server.http_hands` (recall),
:mod:`~sanh.server.http_ops` (health, metrics, the OpenAPI document) and :mod:`~sanh.server.ws`.
Every HTTP endpoint is declared with :meth:`sanh.server.api.Endpoints.endpoint`: its body, query
and answer are typed msgspec structs, and the OpenAPI document is built from them. Every error
is JSON ``{"error": code, "message": ..., "text": ...}`` (:class:`~sanh.server.api.Error`) with a
status from :mod:`starlette.status`: ``message`` in English, ``text`` the same as a text code
(sanh/games/_texts.py) for the client to translate; when the message is a parser's free text,
``field`` names the body or query field as a JSON path and ``text`` is ``field_invalid:<field>``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Mount, WebSocketRoute
from starlette.staticfiles import StaticFiles

from sanh.server import (
    friends,
    http_accounts,
    http_clans,
    http_hands,
    http_ops,
    http_tables,
    http_tournaments,
    leaderboards,
    people,
)
from sanh.server import protocol as p
from sanh.server.accesslog import AccessLog
from sanh.server.api import Api
from sanh.server.auth import Auth, OpenSessions
from sanh.server.guard import Guard
from sanh.server.hall import Hall
from sanh.server.http_context import (
    HallContext,
    HallServices,
    config_refused,
    count_error,
    player_of,
)
from sanh.server.limits import TableLimits
from sanh.server.metrics import hall_registry
from sanh.server.passwords import PasswordPool
from sanh.server.settings import Settings
from sanh.server.tournaments import Tournaments
from sanh.server.ws import ws

if TYPE_CHECKING:
    from sanh.cluster.node import ClusterNode

__all__ = ["HallServices", "create_app"]

log = logging.getLogger("sanh.server")
WEB_ROOT = Path(__file__).resolve().parent.parent / "web"
GROUPS = (
    http_accounts.ENDPOINTS,
    http_clans.ENDPOINTS,
    http_tables.ENDPOINTS,
    http_hands.ENDPOINTS,
    http_ops.ENDPOINTS,
    friends.ENDPOINTS,
    leaderboards.ENDPOINTS,
    people.ENDPOINTS,
    http_tournaments.ENDPOINTS,
)
"""The HTTP API's endpoints, area by area (the order of the OpenAPI document's paths)."""


def create_app(
    settings: Settings,
    services: HallServices,
    hall: Hall | None = None,
    *,
    now: Callable[[], float] | None = None,
    cluster: ClusterNode | None = None,
) -> Starlette:
    """The hall's ASGI app. ``now``: the time (seconds since the epoch) the account limits and
    the daily gold read (default :meth:`Settings.wall_time`); ``cluster``: the node this hall
    is of a cluster (:mod:`sanh.cluster.node`, built over ``hall``), joined at start-up."""
    api = Api(player_of, count_error, GROUPS)
    api.translate(config_refused)
    routes: list[BaseRoute] = [*api.routes(fallback="/api"), WebSocketRoute("/ws", ws)]
    if WEB_ROOT.is_dir():
        routes.append(Mount("/", app=StaticFiles(directory=WEB_ROOT, html=True), name="web"))
    app = Starlette(
        routes=routes,
        lifespan=_lifespan,
        middleware=[Middleware(AccessLog, enabled=settings.access_log)],
    )
    hall = hall if hall is not None else Hall(settings, services.bank)
    secret = getattr(services.accounts, "hall_secret", None)
    if secret is not None:  # the ledger's accounts keep the key (a test double may not)
        hall.resume_key = secret("resume")
    app.state.hall = hall
    app.state.cluster = cluster
    app.state.services = services
    app.state.settings = settings
    app.state.wall_time = now or settings.wall_time
    app.state.social = friends.Social(hall, services.accounts)
    app.state.tournaments = Tournaments(hall, services.bank)
    services.accounts.calendar_day = settings.calendar_day
    app.state.context = _context(settings, services, hall, app.state.wall_time, api)
    return app


def _context(
    settings: Settings,
    services: HallServices,
    hall: Hall,
    wall_time: Callable[[], float],
    api: Api,
) -> HallContext:
    """The hall's parts the endpoints share: the account limits, the password pool, the
    sessions, the table limits, the metrics and the OpenAPI document."""
    accounts = services.accounts
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
    document = api.document(
        title="sanh hall", version=str(p.PROTOCOL_VERSION), description="Play money only."
    )
    return HallContext(
        settings=settings,
        services=services,
        hall=hall,
        accounts=accounts,
        wall_time=wall_time,
        guard=guard,
        pool=pool,
        open_sessions=open_sessions,
        auth=auth,
        table_limits=table_limits,
        registry=hall_registry(hall, services.bank),
        document=document,
    )


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    """Restore the recorded tables (lazily, in the background), open the system tables, and on
    shutdown close the hall and the password pool."""
    ctx: HallContext = app.state.context
    hall, settings = ctx.hall, ctx.settings
    started = time.monotonic()
    cluster: ClusterNode | None = app.state.cluster
    if cluster is not None:  # join before opening a table: each one is claimed first
        await cluster.start()
    # Recorded tables rebuild themselves lazily: at once when someone comes back to one,
    # else in the background, one at a time, while the hall already serves.
    recorded = hall.open_recorded()
    if settings.bots_on_start:
        hall.open_system_tables()
    log.info("hall started", extra={"tables": len(hall.tables), "restoring": len(recorded)})

    async def restore() -> None:
        outcomes = await hall.recover_all(recorded)
        app.state.tournaments.resume()  # a running Sit & Go whose table was not recorded
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
    if cluster is not None:  # the tables stopped: hand their leases over at once
        await cluster.stop()
    ctx.pool.close()
