"""The HTTP API's clans: the list by XP, founding one, joining and leaving."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from starlette.requests import Request

from sanh.server.api import Endpoints
from sanh.server.http_context import CREATED, Ok, context, refused
from sanh.server.services import PlayerInfo

__all__ = ["ENDPOINTS"]

ENDPOINTS = Endpoints()
endpoint = ENDPOINTS.endpoint


class ClanRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Create a clan."""

    name: str


ClanId = Annotated[int, msgspec.Meta(ge=1, le=2**63 - 1)]
"""A clan's id in a path: a number the database can hold (else 422 ``malformed``)."""


class Clan(msgspec.Struct):
    id: str
    name: str
    xp: int


class Clans(msgspec.Struct):
    clans: list[Clan]


class Membership(msgspec.Struct):
    clan: str
    role: str


@endpoint("GET", "/api/clans", response=Clans)
async def clans(request: Request) -> Any:
    """List clans, by XP."""
    return {"clans": context(request).accounts.clans()}


@endpoint("POST", "/api/clans", status=CREATED, response=Clan, errors=[409])
async def create_clan(request: Request, player: PlayerInfo, body: ClanRequest) -> Any:
    """Found a clan (the founder leads it)."""
    try:
        return context(request).accounts.create_clan(player.id, body.name)
    except ValueError as exc:
        raise refused(exc) from None


@endpoint("POST", "/api/clans/{clan}/join", response=Membership, errors=[409])
async def clan_join(request: Request, player: PlayerInfo, clan: ClanId) -> Any:
    """Join a clan."""
    try:
        return context(request).accounts.join_clan(player.id, str(clan))
    except ValueError as exc:
        raise refused(exc) from None


@endpoint("POST", "/api/clans/leave", response=Ok, errors=[409])
async def clan_leave(request: Request, player: PlayerInfo) -> Any:
    """Leave one's clan."""
    try:
        context(request).accounts.leave_clan(player.id)
    except ValueError as exc:
        raise refused(exc) from None
    return Ok(ok=True)
