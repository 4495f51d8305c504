"""The HTTP API's operations: liveness, the Prometheus metrics, and the OpenAPI document."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette import status
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from sanh.server.api import Endpoints
from sanh.server.http_context import context
from sanh.server.metrics import CONTENT_TYPE, exposition

__all__ = ["ENDPOINTS"]

ENDPOINTS = Endpoints()
endpoint = ENDPOINTS.endpoint


class Health(msgspec.Struct):
    ok: bool
    tables: int
    node: str | None = None
    """In a cluster (``sanh serve --node``): this node's name."""
    leases: int | None = None
    """In a cluster: the table leases this node holds now."""


@endpoint("GET", "/healthz", response=Health, also={503: Health})
async def healthz(request: Request) -> Any:
    """Liveness: 200 while the hall runs its tables (503 with the same body otherwise)."""
    hall = context(request).hall
    alive = all(actor.task is not None and not actor.task.done() for actor in hall.tables.values())
    code = status.HTTP_200_OK if alive else status.HTTP_503_SERVICE_UNAVAILABLE
    body: dict[str, Any] = {"ok": alive, "tables": len(hall.tables)}
    if hall.placement is not None:
        body["node"] = hall.placement.name
        body["leases"] = getattr(hall.placement, "leases_held", None)
    return JSONResponse(body, status_code=code)


@endpoint("GET", "/metrics", media_type=CONTENT_TYPE)
async def metrics(request: Request) -> Any:
    """Prometheus text format: the hall's counters and the process' (sanh/server/metrics.py)."""
    return Response(exposition(context(request).registry), media_type=CONTENT_TYPE)


@endpoint("GET", "/openapi.json", response=dict[str, Any])
async def openapi(request: Request) -> Any:
    """The OpenAPI document of the HTTP API (this document)."""
    return context(request).document
