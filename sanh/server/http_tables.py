"""The HTTP API's games and tables: the games offered and their rules, the lobby, creating a
table, one table, and the host's bots."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

import msgspec
from starlette import status
from starlette.requests import Request

from sanh.games import REGISTRY
from sanh.notation.jsonable import to_jsonable
from sanh.server.api import ApiError, Endpoints
from sanh.server.hall import offered_options
from sanh.server.http_context import CREATED, context
from sanh.server.limits import TableRefused
from sanh.server.rules import rules_document
from sanh.server.services import PlayerInfo
from sanh.texts import text

__all__ = ["ENDPOINTS"]

ENDPOINTS = Endpoints()
endpoint = ENDPOINTS.endpoint


# ----- bodies and queries ----------------------------------------------------------------------
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


class LobbyQuery(msgspec.Struct, forbid_unknown_fields=True):
    """The lobby's filters."""

    game: str | None = None
    stake_min: int | None = None
    stake_max: int | None = None
    open_seats: bool = False
    """Only tables with a free seat (``1`` or ``true``)."""
    q: Annotated[str, msgspec.Meta(max_length=40)] = ""
    """Only tables whose name, host's name or game's name contains this (accents, case and
    look-alike letters aside: :func:`sanh.ledger.names.name_key`)."""


# ----- responses -------------------------------------------------------------------------------
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
    """The player who hosts the table (null where the house banks it: no player is its host
    there)."""
    host_name: str | None
    """The host's display name while they are seated (null where the house banks)."""
    house: bool
    """The house banks every seat (the game's declared seat model, not its id)."""
    seat_model: Literal["house", "player_bank", "players"]
    """``house``: the house banks; ``player_bank``: a seated player banks the table;
    ``players``: player against player."""
    bots: int
    """How many of the seated are the hall's bots."""
    hand: int
    in_hand: bool


class CreatedTable(TableEntry):
    """A new table; ``invite_code`` is set for a private one."""

    invite_code: str | None


class LobbyTable(TableEntry):
    """A table of the lobby."""

    node: str | None = None
    """In a cluster: the node that plays the table (its WebSocket redirects there)."""


class Lobby(msgspec.Struct):
    tables: list[LobbyTable]


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


def _no_such_table() -> ApiError:
    return ApiError(status.HTTP_404_NOT_FOUND, "no_such_table", text="no_such_table")


# ----- endpoints -------------------------------------------------------------------------------
@endpoint("GET", "/api/games", response=Games)
async def games(request: Request) -> Any:
    """Every registered game with its seats, deck and rule options."""
    settings = context(request).settings
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
                "actions": [cls.wire for cls in info.action_types],
            }
        )
    return {"games": sorted(out, key=lambda g: g["id"])}


@endpoint("GET", "/api/rules", response=Rules)
async def rules(request: Request) -> Any:
    """Each offered game's rules and "how to play" in Vietnamese and English, and each
    house bet's payout and exact house edge (``sanh.analysis``; sanh/server/rules.py)."""
    settings = context(request).settings
    offered = [
        (g.info.id, g.info.name, g.info.name_vi, g.info.banked)
        for g in REGISTRY.values()
        if settings.game_offered(g.info.id)
    ]
    # The first call enumerates every bet (about a second): off the event loop.
    return {"games": await asyncio.to_thread(rules_document, sorted(offered))}


@endpoint("GET", "/api/lobby", response=Lobby)
async def lobby(request: Request, query: LobbyQuery) -> Any:
    """Tables, filtered by ``game``, ``stake_min``, ``stake_max``, ``open_seats`` and ``q``
    (part of the table's name, its host's name or its game's name)."""
    try:
        tables = context(request).hall.lobby(
            game=query.game or None,
            stake_min=query.stake_min,
            stake_max=query.stake_max,
            open_seats=query.open_seats,
            q=query.q,
        )
    except ValueError:
        raise ApiError(
            status.HTTP_422_UNPROCESSABLE_CONTENT, "malformed", text="bad_filter"
        ) from None
    return {"tables": tables}


@endpoint("POST", "/api/tables", status=CREATED, response=CreatedTable, errors=[409, 429])
async def create_table(request: Request, player: PlayerInfo, body: CreateTableRequest) -> Any:
    """Create a table with the host's options (private tables get an invite code).

    A setup the lobby or the game refuses is 422 ``bad_config`` with its text code; a
    player who hosts ``tables_per_player`` open tables already is 409 ``too_many_tables``,
    one creating faster than ``tables_per_hour`` 429 ``tables_too_fast``
    (sanh/server/limits.py).
    """
    ctx = context(request)
    hall = ctx.hall
    hosted = [(a.id, a.seated) for a in hall.tables.values() if a.spec.host == player.id]
    try:
        ctx.table_limits.admit(player.id, hosted)
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
        house_tai_xiu=ctx.settings.house_tai_xiu_tables,
    )
    ctx.table_limits.created(player.id, actor.id)  # no await since admit: parallel ones wait
    if body.bots:
        await actor.call("add_bots", None, max(0, min(body.bots, actor.spec.seats)))
    entry = actor.lobby_entry()
    entry["invite_code"] = actor.spec.invite_code
    return entry


@endpoint("GET", "/api/tables/{table}", response=LobbyTable, errors=[404])
async def table_info(request: Request, table: str) -> Any:
    """One table, by its id or a private table's invite code (in a cluster, any node's)."""
    hall = context(request).hall
    actor = hall.tables.get(table)
    if actor is None:
        actor = hall.by_invite(table)
    if actor is None and hall.placement is not None:
        where = hall.placement.locate(table)
        remote = {e["id"]: e for e in hall.placement.remote_lobby()}
        if where is not None and where["id"] in remote:
            return remote[where["id"]]
    if actor is None:
        raise _no_such_table()
    entry = actor.lobby_entry()
    if hall.placement is not None:
        entry["node"] = hall.placement.name
    return entry


@endpoint("POST", "/api/tables/{table}/bots", response=TableEntry, errors=[403, 404])
async def add_bots(request: Request, player: PlayerInfo, table: str, body: BotsRequest) -> Any:
    """The host fills empty seats with bots."""
    actor = context(request).hall.tables.get(table)
    if actor is None:
        raise _no_such_table()
    if actor.spec.host != player.id:
        raise ApiError(status.HTTP_403_FORBIDDEN, "not_host", text="host_adds_bots")
    await actor.call("add_bots", None, max(0, min(body.count, actor.spec.seats)))
    return actor.lobby_entry()
