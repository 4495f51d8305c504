"""The Sit & Go endpoints: list, create, register, unregister, cancel, one tournament's page.

Every gold movement goes through :class:`~sanh.server.tournaments.Tournaments` (its ledger
batches are idempotent: a replayed request changes nothing). A refusal is a 404 (no such
tournament) or a 409 with the text code of why (:mod:`sanh.server.texts`), and changes nothing.
"""

from __future__ import annotations

from typing import Any

import msgspec
from starlette import status
from starlette.requests import Request

from sanh.server.api import ApiError, Endpoints
from sanh.server.services import PlayerInfo
from sanh.server.tournaments import Tournaments
from sanh.tournaments import sitgo as sg
from sanh.tournaments.sitgo import SitGo, SitGoError, SitGoSpec

__all__ = ["ENDPOINTS"]


class SitGoCreate(msgspec.Struct, forbid_unknown_fields=True):
    """A new Sit & Go: ``game`` (one of :data:`sanh.tournaments.sitgo.GAMES`), ``seats``
    (2 to the game's most), ``buy_in`` and ``fee`` in minor units of gold, the chips each entrant
    starts with, the hands between blind levels (poker), the games played (Tiến lên), and how
    many of the hall's bots enter at once (the creator is not entered: they register)."""

    game: str
    seats: int
    buy_in: int
    fee: int = 0
    starting_chips: int = 1_000
    hands_per_level: int = 5
    games: int = 4
    bots: int = 0


class Entrant(msgspec.Struct):
    """An entrant: chips now, place and prize once known (``place`` 1 is the winner)."""

    player: str
    name: str
    bot: bool
    chips: int
    out: bool
    place: int | None = None
    prize: int | None = None


class Tournament(msgspec.Struct):
    """A Sit & Go as its lobby and its page show it."""

    id: str
    game: str
    seats: int
    buy_in: int
    fee: int
    starting_chips: int
    status: str
    """``registering``, ``running``, ``finished`` or ``cancelled``."""
    creator: str
    entrants: list[Entrant]
    pool: int
    """The prize pool (the buy-ins; the fees are the house's)."""
    payout_shares: list[int]
    """The paid places' shares of the pool in basis points, first place first."""
    hands: int
    level: int
    small_blind: int | None
    big_blind: int | None
    hands_per_level: int
    games: int
    table: str | None
    registered: bool
    """Whether the asking player is an entrant."""
    breakage: int


class TournamentList(msgspec.Struct):
    """Every Sit & Go of the hall, newest first."""

    tournaments: list[Tournament]


def _tournaments(request: Request) -> Tournaments:
    found: Tournaments = request.app.state.tournaments
    return found


def _view(tournaments: Tournaments, sitgo: SitGo, viewer: str) -> Tournament:
    spec = sitgo.spec
    places = {p: i + 1 for i, p in enumerate(sitgo.places)}
    prizes = dict(zip(sitgo.places, sitgo.prizes, strict=False))
    entrants = []
    for player in sitgo.entrants:
        info = tournaments.bank.player_info(player)
        entrants.append(
            Entrant(
                player=player,
                name=info.name,
                bot=info.bot,
                chips=sitgo.stacks.get(player, spec.starting_chips)
                if sitgo.status != "registering"
                else spec.starting_chips,
                out=player in sitgo.out,
                place=places.get(player),
                prize=prizes.get(player),
            )
        )
    poker = spec.game in sg.POKER
    small, big = sg.blinds(sitgo) if poker else (None, None)
    return Tournament(
        id=sitgo.id,
        game=spec.game,
        seats=spec.seats,
        buy_in=spec.buy_in,
        fee=spec.fee,
        starting_chips=spec.starting_chips,
        status=sitgo.status,
        creator=sitgo.creator,
        entrants=entrants,
        pool=sitgo.pool,
        payout_shares=list(sg.payout_shares(spec.seats)),
        hands=sitgo.hands,
        level=sg.level(sitgo),
        small_blind=small,
        big_blind=big,
        hands_per_level=spec.hands_per_level,
        games=spec.games,
        table=sitgo.table,
        registered=viewer in sitgo.entrants,
        breakage=sitgo.breakage,
    )


def _refused(exc: SitGoError) -> ApiError:
    if exc.code == "tournament_unknown":
        return ApiError(status.HTTP_404_NOT_FOUND, "no_such_tournament", text=exc.code)
    return ApiError(status.HTTP_409_CONFLICT, "refused", text=exc.code)


async def tournaments_list(request: Request, player: PlayerInfo) -> Any:
    """Every Sit & Go: registering, running, finished and cancelled, newest first."""
    found = _tournaments(request)
    return TournamentList([_view(found, s, player.id) for s in found.listing()])


async def tournament_create(request: Request, player: PlayerInfo, body: SitGoCreate) -> Any:
    """Open a Sit & Go; ``bots`` of the hall's bots register at once (a full one starts)."""
    found = _tournaments(request)
    try:
        spec = SitGoSpec(
            game=body.game,
            seats=body.seats,
            buy_in=body.buy_in,
            fee=body.fee,
            starting_chips=body.starting_chips,
            hands_per_level=body.hands_per_level,
            games=body.games,
        )
        sitgo = found.create(player.id, spec, bots=body.bots)
    except SitGoError as exc:
        raise _refused(exc) from None
    return _view(found, sitgo, player.id)


async def tournament_get(request: Request, player: PlayerInfo, tournament: str) -> Any:
    """One Sit & Go: its entrants and chips, blind level, places, prizes and table."""
    found = _tournaments(request)
    try:
        return _view(found, found.get(tournament), player.id)
    except SitGoError as exc:
        raise _refused(exc) from None


async def tournament_register(request: Request, player: PlayerInfo, tournament: str) -> Any:
    """Enter: the buy-in and fee go from your wallet into the tournament's escrow; when this
    fills it, it starts. Registering again while registered changes nothing."""
    found = _tournaments(request)
    try:
        return _view(found, found.register(tournament, player.id), player.id)
    except SitGoError as exc:
        raise _refused(exc) from None


async def tournament_unregister(request: Request, player: PlayerInfo, tournament: str) -> Any:
    """Withdraw before the start: the buy-in and fee come back (again: nothing more)."""
    found = _tournaments(request)
    try:
        return _view(found, found.unregister(tournament, player.id), player.id)
    except SitGoError as exc:
        raise _refused(exc) from None


async def tournament_cancel(request: Request, player: PlayerInfo, tournament: str) -> Any:
    """Call a Sit & Go off before it starts (its creator only): every entry paid back."""
    found = _tournaments(request)
    try:
        return _view(found, found.cancel(tournament, player), player.id)
    except SitGoError as exc:
        raise _refused(exc) from None


ENDPOINTS = Endpoints()
"""The Sit & Go endpoints (``/api/tournaments``)."""
ENDPOINTS.endpoint("GET", "/api/tournaments", response=TournamentList)(tournaments_list)
ENDPOINTS.endpoint("POST", "/api/tournaments", response=Tournament, errors=[409])(tournament_create)
ENDPOINTS.endpoint("GET", "/api/tournaments/{tournament}", response=Tournament, errors=[404])(
    tournament_get
)
for _path, _handler in (
    ("register", tournament_register),
    ("unregister", tournament_unregister),
    ("cancel", tournament_cancel),
):
    ENDPOINTS.endpoint(
        "POST", f"/api/tournaments/{{tournament}}/{_path}", response=Tournament, errors=[404, 409]
    )(_handler)
