"""Leaderboards per game and for every game together, for today, this week and all time.

Four boards: net gold won, hands played, the biggest pot (the most a player won in one hand:
their net for that hand), and clans by the XP they earned. They read two tables of migration 5
(sanh/ledger/migrations.py) that :func:`record` writes with each hand record, in the same
transaction as the hand's settlement, so a board is exactly the sum of the hands recorded:

* ``leaderboard(game, period, player_id, net, hands, best)``: per game (``*`` for every
  game) and calendar day (``YYYY-MM-DD`` in the hall's ``day_zone``, the daily gold's calendar)
  plus ``all`` for all time; bots are never written (the house is no player);
* ``clan_xp(game, period, clan_id, xp)``: the clan XP each hand gave, the same way.

A day's or all time's top N is one index range read (``ORDER BY net DESC`` on the index
``(game, period, net, player_id)``, no sort, no scan); a week (Monday to today) sums at most
seven days' rows per player. ``benchmarks/leaderboards.py`` measures one on 1,000,000 hands.

``GET /api/leaderboards/{game}?period=day|week|all`` (``game``: a game id or ``all``) is
:func:`leaderboard`, a module-level endpoint reading ``request.app.state``, declared on
:data:`ENDPOINTS`, one of the app's endpoint groups (``app.GROUPS``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, datetime, timedelta, timezone
from typing import Annotated, Any, Literal

import msgspec
from starlette import status
from starlette.requests import Request

from sanh.games import REGISTRY
from sanh.ledger.model import TxHandle
from sanh.ledger.store import StoreTx
from sanh.server.api import ApiError, Endpoints
from sanh.texts import clean, text

__all__ = [
    "ALL_GAMES",
    "ENDPOINTS",
    "BoardQuery",
    "ClanRow",
    "Leaderboard",
    "PlayerRow",
    "board",
    "leaderboard",
    "period_range",
    "record",
    "vietnam_day",
]

ALL_GAMES = "*"
"""The ``game`` of the rows that count every game together."""
ALL_TIME = "all"
BOARDS = ("net", "hands", "best")

Period = Literal["day", "week", "all"]


def vietnam_day(now: float) -> str:
    """The calendar day at ``now`` (epoch seconds) in Vietnam (UTC+7, no DST): the default
    of :attr:`sanh.server.settings.Settings.day_zone`."""
    return datetime.fromtimestamp(now, timezone(timedelta(hours=7))).date().isoformat()


class BoardQuery(msgspec.Struct, forbid_unknown_fields=True):
    """Which period (``day``: today, ``week``: Monday to today, ``all``) and how many rows."""

    period: Period = "day"
    limit: Annotated[int, msgspec.Meta(ge=1, le=100)] = 20


class PlayerRow(msgspec.Struct):
    rank: int
    player: str
    name: str
    net: int
    """Net gold won (minor units) in the period: what the player's hands paid them less what
    they cost, fees included."""
    hands: int
    best: int
    """The biggest pot: the most the player won in one hand (0 if no hand won)."""


class ClanRow(msgspec.Struct):
    rank: int
    clan: str
    name: str
    xp: int


class Leaderboard(msgspec.Struct):
    """The four boards of a game (or ``all``) for a period, best first."""

    game: str
    period: Period
    first_day: str | None
    """The first calendar day counted (``None`` for all time)."""
    last_day: str | None
    net: list[PlayerRow]
    hands: list[PlayerRow]
    best: list[PlayerRow]
    clans: list[ClanRow]


# ----- writing ---------------------------------------------------------------------------------
_UPSERT = (
    "INSERT INTO leaderboard (game, period, player_id, net, hands, best)"
    " VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (game, period, player_id) DO UPDATE SET"
    " net = leaderboard.net + excluded.net, hands = leaderboard.hands + 1,"
    " best = CASE WHEN excluded.best > leaderboard.best THEN excluded.best"
    " ELSE leaderboard.best END"
)
_CLAN_UPSERT = (
    "INSERT INTO clan_xp (game, period, clan_id, xp) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (game, period, clan_id) DO UPDATE SET xp = clan_xp.xp + excluded.xp"
)


def record(
    tx: TxHandle,
    game: str,
    day: str,
    players: Sequence[int],
    nets: Sequence[int],
    clan_xp: Sequence[int] = (),
) -> None:
    """Count one settled hand: seat ``i`` is player ``players[i]`` (``-1``: nobody) with net
    ``nets[i]`` and ``clan_xp[i]`` XP for their clan. Bots are left out."""
    seated = sorted({pid for pid in players if pid >= 0})
    if not seated:
        return
    marks = ", ".join("?" for _ in seated)
    bots = {
        int(r[0])
        for r in tx.execute(f"SELECT player_id FROM hall_bots WHERE player_id IN ({marks})", seated)
    }
    clans = {
        int(r[0]): int(r[1])
        for r in tx.execute(
            f"SELECT player_id, clan_id FROM clan_members WHERE player_id IN ({marks})", seated
        )
    }
    periods = [(g, p) for g in (game, ALL_GAMES) for p in (day, ALL_TIME)]
    gained: dict[int, int] = {}
    for seat, pid in enumerate(players):
        if pid < 0 or pid in bots:
            continue
        net = int(nets[seat])
        for g, p in periods:
            tx.execute(_UPSERT, (g, p, pid, net, max(net, 0)))
        xp = int(clan_xp[seat]) if seat < len(clan_xp) else 0
        if xp > 0 and pid in clans:
            gained[clans[pid]] = gained.get(clans[pid], 0) + xp
    for clan, xp in sorted(gained.items()):
        for g, p in periods:
            tx.execute(_CLAN_UPSERT, (g, p, clan, xp))


# ----- reading ---------------------------------------------------------------------------------
def period_range(period: Period, today: str) -> tuple[str, str] | None:
    """The first and last calendar day of a period ending ``today`` (``None``: all time)."""
    if period == "all":
        return None
    if period == "day":
        return today, today
    day = date.fromisoformat(today)
    return (day - timedelta(days=day.weekday())).isoformat(), today


def _players(tx: StoreTx, game: str, span: tuple[str, str] | None, by: str, limit: int) -> Any:
    assert by in BOARDS
    if span is None or span[0] == span[1]:
        period = ALL_TIME if span is None else span[0]
        return tx.execute(
            "SELECT l.player_id, p.display_name, l.net, l.hands, l.best FROM leaderboard l"
            " JOIN players p ON p.id = l.player_id WHERE l.game = ? AND l.period = ?"
            f" ORDER BY l.{by} DESC, l.player_id DESC LIMIT ?",
            (game, period, limit),
        )
    return tx.execute(
        "SELECT w.player_id, p.display_name, w.net, w.hands, w.best FROM ("
        " SELECT player_id, SUM(net) AS net, SUM(hands) AS hands, MAX(best) AS best"
        " FROM leaderboard WHERE game = ? AND period >= ? AND period <= ?"
        " GROUP BY player_id) w JOIN players p ON p.id = w.player_id"
        f" ORDER BY w.{by} DESC, w.player_id DESC LIMIT ?",
        (game, span[0], span[1], limit),
    )


def _clans(tx: StoreTx, game: str, span: tuple[str, str] | None, limit: int) -> Any:
    if span is None or span[0] == span[1]:
        period = ALL_TIME if span is None else span[0]
        return tx.execute(
            "SELECT c.clan_id, k.name, c.xp FROM clan_xp c JOIN clans k ON k.id = c.clan_id"
            " WHERE c.game = ? AND c.period = ? ORDER BY c.xp DESC, c.clan_id DESC LIMIT ?",
            (game, period, limit),
        )
    return tx.execute(
        "SELECT w.clan_id, k.name, w.xp FROM ("
        " SELECT clan_id, SUM(xp) AS xp FROM clan_xp"
        " WHERE game = ? AND period >= ? AND period <= ? GROUP BY clan_id) w"
        " JOIN clans k ON k.id = w.clan_id ORDER BY w.xp DESC, w.clan_id DESC LIMIT ?",
        (game, span[0], span[1], limit),
    )


def board(store: Any, game: str, period: Period, today: str, limit: int = 20) -> Leaderboard:
    """The boards of ``game`` (a game id, or ``all``) for ``period`` ending ``today``."""
    key = ALL_GAMES if game == "all" else game
    span = period_range(period, today)
    with store.read() as tx:
        rows = {by: _players(tx, key, span, by, limit) for by in BOARDS}
        clans = _clans(tx, key, span, limit)

    def players(found: Any) -> list[PlayerRow]:
        return [
            PlayerRow(
                rank=i + 1, player=str(r[0]), name=str(r[1]), net=int(r[2]), hands=int(r[3]),
                best=int(r[4]),
            )
            for i, r in enumerate(found)
        ]  # fmt: skip

    return Leaderboard(
        game=game,
        period=period,
        first_day=span[0] if span else None,
        last_day=span[1] if span else None,
        net=players(rows["net"]),
        hands=players(rows["hands"]),
        best=players(rows["best"]),
        clans=[
            ClanRow(rank=i + 1, clan=str(r[0]), name=str(r[1]), xp=int(r[2]))
            for i, r in enumerate(clans)
        ],
    )


# ----- the HTTP endpoint -----------------------------------------------------------------------
async def leaderboard(request: Request, game: str, query: BoardQuery) -> Any:
    """The leaderboards of a game (or ``all``) for today, this week or all time.

    Net gold won, hands played, the biggest pot (the most won in one hand) and clans by the
    XP they earned; bots are left out. Days are the hall's calendar (``day_zone``)."""
    state = request.app.state
    if game != "all" and (game not in REGISTRY or not state.settings.game_offered(game)):
        raise ApiError(
            status.HTTP_404_NOT_FOUND,
            "no_such_game",
            text=text("board_unknown_game", clean(game, 40)),
        )
    day: Callable[[float], str] = state.settings.calendar_day
    today = day(state.wall_time())
    store = state.services.accounts.ledger.store
    return board(store, game, query.period, today, query.limit)


ENDPOINTS = Endpoints()
"""The leaderboard endpoint (``GET /api/leaderboards/{game}``)."""
ENDPOINTS.endpoint("GET", "/api/leaderboards/{game}", response=Leaderboard, errors=[404])(
    leaderboard
)
