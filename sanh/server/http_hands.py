"""The HTTP API's recall: the player's last hands, and one hand as the player's seat could know
it (sanh/server/recall.py)."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette import status
from starlette.requests import Request

from sanh.games import REGISTRY
from sanh.server import protocol as p
from sanh.server.api import ApiError, Endpoints
from sanh.server.http_context import LimitQuery, context
from sanh.server.services import PlayerInfo

__all__ = ["ENDPOINTS"]

ENDPOINTS = Endpoints()
endpoint = ENDPOINTS.endpoint


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


@endpoint("GET", "/api/recall", response=Hands)
async def recall_list(request: Request, player: PlayerInfo, query: LimitQuery) -> Any:
    """The player's last hands, newest first (``limit`` 20, at most 100)."""
    limit = min(20 if query.limit is None else query.limit, 100)
    return {"hands": context(request).services.recall.hands_for(player.id, limit)}


@endpoint("GET", "/api/recall/{hand}", response=RecalledHand, errors=[404])
async def recall_one(request: Request, player: PlayerInfo, hand: str) -> Any:
    """One hand as the player's seat could know it.

    Its final view, the events it could know of (the deal without the deck order, no other
    seat's private bets), the settlement, the seats' players and names
    (``sanh/server/recall.py``).
    """
    ctx = context(request)
    recalled = ctx.services.recall.hand_for(player.id, hand)
    if recalled is None:
        raise ApiError(status.HTTP_404_NOT_FOUND, "no_such_hand", text="no_such_hand")
    if not ctx.settings.reveals_seed(REGISTRY[recalled["game"]].info.banked):
        recalled["server_seed"] = None  # the deck order would show folded hands (§2.10)
    return recalled
