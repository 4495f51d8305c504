"""People, not ids: finding players by name, with their level and the public tables they sit at.

``GET /api/players?q=`` (:func:`players`, signed-in players only) finds players whose display
name contains the query, compared by :func:`~sanh.ledger.names.name_key` (case, accents and
look-alike letters aside: ``tuan`` finds "Trần Minh Tuấn"). A row is the player's id, display
name, level (:func:`sanh.ledger.levels.level` of the XP of every game together), whether it
is a guest or one of the hall's bots (bots are listed, flagged ``bot: true``, so a player can
find the table of a bot they played; ``bots=false`` leaves them out), and the public tables
where it holds a seat (a private table is never named). Nothing else of an account leaves the
server: no username (the log-in name), no language, no balance, no dates.

The search reads one query: the ``players`` rows whose ``name_key`` contains the query's key
(a scan of the key column; at most :data:`SEARCH_LIMIT` rows, exact keys first).
:data:`ENDPOINTS` is one of the app's endpoint groups (``app.GROUPS``).
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from starlette import status
from starlette.requests import Request

from sanh.ledger.levels import level
from sanh.ledger.names import name_key
from sanh.ledger.store import LedgerStore
from sanh.server.api import ApiError, Endpoints
from sanh.server.hall import Hall
from sanh.server.services import PlayerInfo

__all__ = ["ENDPOINTS", "FoundPlayer", "FoundPlayers", "PlayerQuery", "players", "search"]

SEARCH_LIMIT = 20
"""The most rows a search answers."""


class PlayerQuery(msgspec.Struct, forbid_unknown_fields=True):
    """``q``: part of a display name (2 to 32 characters); ``bots``: list the hall's bots."""

    q: Annotated[str, msgspec.Meta(min_length=1, max_length=32)]
    bots: bool = True
    limit: Annotated[int, msgspec.Meta(ge=1, le=SEARCH_LIMIT)] = SEARCH_LIMIT


class FoundPlayer(msgspec.Struct):
    """A player as anyone signed in may see them."""

    id: str
    name: str
    level: int
    xp: int
    """XP of every game together (the level's measure)."""
    guest: bool
    bot: bool
    tables: list[str]
    """The public tables where the player holds a seat."""


class FoundPlayers(msgspec.Struct):
    players: list[FoundPlayer]


_SEARCH = (
    "SELECT p.id, p.display_name, p.guest,"
    " EXISTS (SELECT 1 FROM hall_bots b WHERE b.player_id = p.id),"
    " COALESCE((SELECT SUM(s.xp) FROM player_stats s WHERE s.player_id = p.id), 0)"
    " FROM players p WHERE p.name_key LIKE ?"
    " ORDER BY CASE WHEN p.name_key = ? THEN 0 ELSE 1 END, p.display_name, p.id LIMIT ?"
)


def search(
    store: LedgerStore, hall: Hall, query: str, *, bots: bool, limit: int
) -> list[FoundPlayer]:
    """The players whose name's key contains ``query``'s key (see the module)."""
    key = name_key(query)
    if len(key) < 2:
        return []
    # A key is letters and digits only (name_key), so it holds no LIKE wildcard.
    with store.read() as tx:
        rows = tx.execute(_SEARCH, (f"%{key}%", key, limit if bots else limit * 4))
    seated = _public_seats(hall)
    out = []
    for row in rows:
        is_bot = bool(row[3])
        if is_bot and not bots:
            continue
        player = str(row[0])
        xp = int(row[4])
        out.append(
            FoundPlayer(
                id=player,
                name=str(row[1]),
                level=level(xp),
                xp=xp,
                guest=bool(row[2]),
                bot=is_bot,
                tables=sorted(seated.get(player, ())),
            )
        )
    return out[:limit]


def _public_seats(hall: Hall) -> dict[str, set[str]]:
    """Player id -> the public tables where it holds a seat."""
    out: dict[str, set[str]] = {}
    for actor in hall.tables.values():
        if actor.spec.private:
            continue
        for slot in actor.seats:
            if slot is not None:
                out.setdefault(slot.player.id, set()).add(actor.id)
    return out


async def players(request: Request, player: PlayerInfo, query: PlayerQuery) -> Any:
    """Players whose display name contains ``q`` (accents and case aside), with their level
    and the public tables they sit at; the hall's bots flagged ``bot`` (``bots=false``: left
    out). A query of fewer than two letters or digits is 422 ``query_too_short``."""
    if len(name_key(query.q)) < 2:
        raise ApiError(
            status.HTTP_422_UNPROCESSABLE_CONTENT, "query_too_short", text="query_too_short"
        )
    state = request.app.state
    store = state.services.accounts.ledger.store
    rows = search(store, state.hall, query.q, bots=query.bots, limit=query.limit)
    return FoundPlayers(players=rows)


ENDPOINTS = Endpoints()
"""The people endpoint (``GET /api/players``)."""
ENDPOINTS.endpoint("GET", "/api/players", response=FoundPlayers, errors=[401, 422])(players)
