"""``sanh serve``: start the hall (HTTP API, WebSocket, web client) on uvicorn."""

from __future__ import annotations

import argparse
import gc
import json
import logging
import re
import sys
import time
from typing import Any

__all__ = ["JsonFormatter", "RedactTokens", "register"]


def register(sub: Any) -> None:
    """Add the ``serve`` subcommand."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "serve", help="start the hall server (http://127.0.0.1:8000 by default)"
    )
    parser.add_argument("--host", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port (default 8000)")
    parser.add_argument("--db", help="database URL (default $SANH_DB or sqlite:///sanh.db)")
    parser.add_argument("--config", help="a TOML settings file (default $SANH_CONFIG or sanh.toml)")
    parser.add_argument("--timer-scale", type=float, help="multiply every timer (tests)")
    parser.add_argument("--no-system-tables", action="store_true", help="open no house tables")
    parser.set_defaults(func=run)


class JsonFormatter(logging.Formatter):
    """One JSON object per log line: time, level, logger, message and extra fields."""

    _skip = set(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {"message"}

    def format(self, record: logging.LogRecord) -> str:
        """The JSON line of a record."""
        data: dict[str, Any] = {
            "ts": round(time.time(), 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in self._skip:
                data[key] = value
        if record.exc_info:
            data["exc"] = self.formatException(record.exc_info)
        return json.dumps(data, default=str)


class RedactTokens(logging.Filter):
    """Blanks the value of any ``...token=`` query parameter in a log line.

    Neither the WebSocket nor the HTTP API takes a token in the URL, but uvicorn logs a
    request's path with its query before the app sees it: a client that still sends
    ``/ws?token=...`` (an old page in a browser's cache, a hand-written client) must not put a
    session token in the log.
    """

    _query_token = re.compile(r"([?&][\w.-]*token=)[^&\s\"']*", re.IGNORECASE)

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record's message if it holds a token parameter; never drops a record."""
        message = record.getMessage()
        if "token=" in message.lower():
            record.msg = self._query_token.sub(r"\1[redacted]", message)
            record.args = None
        return True


GC_THRESHOLDS = (700, 10, 100)
"""The collector's thresholds for the server (Python's are 700, 10, 10)."""


def _tune_gc() -> None:
    """Rare full garbage collections: a pause of the event loop is latency for every table.

    The modules and registries loaded so far are frozen (kept out of every later collection)
    and a full collection runs 10 times less often than Python's default. Under 2,000 clients
    a full collection stopped the hall for 250-350 ms about every ten seconds; the young
    generations keep Python's thresholds, which keep their pauses short (larger ones made
    each collection walk the live states of hundreds of tables at once). BENCHMARKS.md has
    the figures.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    import uvicorn

    from sanh.ledger.store import default_url
    from sanh.server.app import create_app
    from sanh.server.settings import load_settings
    from sanh.server.wallet_services import WalletServices

    overrides: dict[str, Any] = {
        "host": args.host,
        "port": args.port,
        "db": args.db,
        "timer_scale": args.timer_scale,
    }
    if args.no_system_tables:
        overrides["bots_on_start"] = False
    settings = load_settings(file=args.config, **overrides)
    if args.db is None and "SANH_DB" in __import__("os").environ:
        settings = load_settings(file=args.config, **{**overrides, "db": default_url()})
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if settings.log_json else logging.Formatter())
    handler.addFilter(RedactTokens())
    logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)
    services = WalletServices.open(settings.db, settings.hall_config())
    _tune_gc()
    app = create_app(settings, services)
    print(f"sanh: the hall is on http://{settings.host}:{settings.port}", file=sys.stderr)
    try:
        uvicorn.run(
            app,
            host=settings.host,
            port=settings.port,
            log_config=None,
            ws="websockets-sansio",
            ws_max_size=settings.max_frame_bytes,
            ws_per_message_deflate=settings.ws_compression,
            backlog=4096,
        )
    finally:
        services.close()
    return 0
