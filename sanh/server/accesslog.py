"""The access log: one structured line per HTTP request, with a request id.

Each request is logged by ``sanh.access`` with the fields ``method``, ``path`` (never the
query, which may carry what does not belong in a log), ``status``, ``duration_ms``,
``request_id`` and ``client``; ``sanh serve`` writes them as JSON (``log_json``). A client's
``X-Request-ID`` (up to 128 letters, digits and ``._-:``) is kept, else one is made; either
way the response carries it back in ``X-Request-ID``.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

__all__ = ["AccessLog", "request_id"]

log = logging.getLogger("sanh.access")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")


def request_id(header: bytes | None) -> str:
    """The request id: the client's ``X-Request-ID`` if it is a sane one, else a new one.

    >>> request_id(b"req-42")
    'req-42'
    >>> len(request_id(b"two words")), len(request_id(None))
    (32, 32)
    """
    if header is not None:
        value = header.decode("latin-1")
        if _ID.fullmatch(value):
            return value
    return uuid.uuid4().hex


class AccessLog:
    """ASGI middleware: logs every HTTP request once it is answered (WebSockets pass)."""

    def __init__(self, app: ASGIApp, *, enabled: bool = True) -> None:
        self.app = app
        self.enabled = enabled

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        header = next((v for k, v in scope.get("headers", ()) if k == b"x-request-id"), None)
        rid = request_id(header)
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                headers = [*message.get("headers", ()), (b"x-request-id", rid.encode())]
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            if self.enabled:
                method = scope.get("method", "")
                path = scope.get("path", "")
                duration = round((time.perf_counter() - started) * 1000, 3)
                client = scope.get("client")
                log.info(
                    "%s %s %d %.1fms %s",
                    method,
                    path,
                    status,
                    duration,
                    rid,
                    extra={
                        "method": method,
                        "path": path,
                        "status": status,
                        "duration_ms": duration,
                        "request_id": rid,
                        "client": f"{client[0]}:{client[1]}" if client else None,
                    },
                )
