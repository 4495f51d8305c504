"""``sanh serve``: start the hall (HTTP API, WebSocket, web client) on uvicorn.

The order is what makes a failure honest: the settings are checked (a bad or unknown one is
one line and exit status 2), the socket is bound (a port in use is one line and exit status 1),
the database's hall lock is taken (another hall on it: one line, exit status 1), and only then
is the wallet opened and are the recorded tables restored, served on the socket bound first.
Nothing before the lock reads or writes a table.

With ``--node`` (or ``--workers N``, a supervisor of N nodes on consecutive ports) the hall is
one node of a cluster (:mod:`sanh.cluster.node`): it needs PostgreSQL and Redis (one line and
exit status 2 otherwise) and takes no hall lock, since each table's lease says which node may
write for it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import logging
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from typing import Any

__all__ = ["EXIT_BAD_SETTING", "EXIT_FAILED", "JsonFormatter", "RedactTokens", "register"]

EXIT_BAD_SETTING = 2
"""The exit status of a bad or unknown setting (as argparse's for a bad command line)."""
EXIT_FAILED = 1
"""The exit status when the hall cannot start: port in use, database held or unreachable."""


def register(sub: Any) -> None:
    """Add the ``serve`` subcommand."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "serve", help="start the hall server (http://127.0.0.1:8000 by default)"
    )
    parser.add_argument("--host", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", help="port (default 8000; 0 picks a free one)")
    parser.add_argument("--db", help="database URL (default $SANH_DB or sqlite:///sanh.db)")
    parser.add_argument("--config", help="a TOML settings file (default $SANH_CONFIG or sanh.toml)")
    parser.add_argument("--timer-scale", help="multiply every timer (tests)")
    parser.add_argument("--no-system-tables", action="store_true", help="open no house tables")
    cluster = parser.add_argument_group(
        "cluster", "many processes over one PostgreSQL database and Redis (docs/SCALING.md)"
    )
    cluster.add_argument("--node", help="this process's node name (a cluster of nodes)")
    cluster.add_argument("--redis", help="the cluster's Redis URL (redis://host:port/db)")
    cluster.add_argument(
        "--workers",
        type=int,
        default=0,
        help="start N nodes on this machine, on ports PORT..PORT+N-1 (needs --redis)",
    )
    cluster.add_argument("--cluster-prefix", default="sanh", help="Redis key prefix (sanh)")
    cluster.add_argument(
        "--public-url",
        help="the http:// URL clients of other nodes reach this node at (default its bind address)",
    )
    cluster.add_argument(
        "--lease-ttl", type=float, default=5.0, help="seconds a table lease lasts (default 5)"
    )
    cluster.add_argument(
        "--drain-timeout",
        type=float,
        default=60.0,
        help="on SIGTERM, seconds a node waits for its hands under way to end (dealing no new"
        " one) before it hands its tables over; 0 hands them over at once (default 60)",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="any setting of docs/options.md (repeatable), e.g. --set lock_wait=0",
    )
    parser.set_defaults(func=run)


class JsonFormatter(logging.Formatter):
    """One JSON object per log line: time, level, logger, message and extra fields."""

    _skip = set(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {
        "message",
        "color_message",  # uvicorn's copy of the message with terminal colours
    }
    _ansi = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

    def format(self, record: logging.LogRecord) -> str:
        """The JSON line of a record (terminal escape sequences taken out of the message).

        >>> record = logging.LogRecord("sanh.access", logging.INFO, "", 0, "GET / 200", (), None)
        >>> record.status = 200
        >>> record.color_message = "\x1b[1mGET\x1b[0m / 200"
        >>> line = json.loads(JsonFormatter().format(record))
        >>> line["msg"], line["status"], "color_message" in line
        ('GET / 200', 200, False)
        """
        data: dict[str, Any] = {
            "ts": round(time.time(), 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": self._ansi.sub("", record.getMessage()),
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


def bind_socket(host: str, port: int, backlog: int = 4096) -> socket.socket:
    """A listening TCP socket on ``host:port`` (``port`` 0: a free one the system picks).

    :raises OSError: the address cannot be bound (in use, not this host's).
    """
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(backlog)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def _fail(message: str, status: int = EXIT_FAILED) -> int:
    print(f"sanh serve: {message}", file=sys.stderr)
    return status


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    import uvicorn

    from sanh.server.app import create_app
    from sanh.server.dblock import HallLockBusy, hall_lock
    from sanh.server.hall import Hall
    from sanh.server.settings import SettingsError, load_settings, parse_assignment
    from sanh.server.wallet_services import WalletServices

    text: dict[str, tuple[str, str]] = {}
    for name in ("host", "port", "db", "timer_scale"):
        value = getattr(args, name)
        if value is not None:
            text[name] = ("--" + name.replace("_", "-"), value)
    overrides: dict[str, Any] = {"bots_on_start": False} if args.no_system_tables else {}
    try:
        for item in args.set:
            name, value = parse_assignment(item)
            text[name] = (f"--set {name}", value)
        settings = load_settings(file=args.config, text=text, **overrides)
    except SettingsError as exc:
        return _fail(str(exc), EXIT_BAD_SETTING)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if settings.log_json else logging.Formatter())
    handler.addFilter(RedactTokens())
    logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)
    try:
        sock = bind_socket(settings.host, settings.port)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        return _fail(f"cannot listen on {settings.host}:{settings.port}: {reason}")
    port = int(sock.getsockname()[1])
    clustered = bool(args.node or args.redis or args.workers)
    if clustered:
        problem = _cluster_unfit(settings.db, args)
        if problem is not None:
            sock.close()
            return _fail(problem, EXIT_BAD_SETTING)
    if args.workers:
        sock.close()
        return _supervise(args, settings.host, port)
    try:
        lock = (
            contextlib.nullcontext()
            if clustered
            else hall_lock(settings.db, wait=settings.lock_wait, port=port)
        )
    except HallLockBusy as exc:
        sock.close()
        return _fail(str(exc))
    except Exception as exc:  # the database cannot be reached: one line, not a traceback
        sock.close()
        return _fail(f"cannot lock the database {_safe_url(settings.db)}: {_one_line(exc)}")
    with lock:
        try:
            services = WalletServices.open(settings.db, settings.hall_config())
        except Exception as exc:
            sock.close()
            return _fail(f"cannot open the database {_safe_url(settings.db)}: {_one_line(exc)}")
        try:
            _tune_gc()
            hall = Hall(settings, services.bank)
            node = None
            if clustered:
                node = _node(args, settings, services, hall, port)
            app = create_app(settings, services, hall, cluster=node)
            config = uvicorn.Config(
                app,
                log_config=None,
                access_log=False,  # the app logs each request with its fields (access_log)
                ws="websockets-sansio",
                ws_max_size=settings.max_frame_bytes,
                ws_per_message_deflate=settings.ws_compression,
                backlog=4096,
            )
            server = _server(config, node, args.drain_timeout)
            where = f"[{settings.host}]" if ":" in settings.host else settings.host
            print(f"sanh: the hall is on http://{where}:{port}", file=sys.stderr, flush=True)
            server.run(sockets=[sock])
        finally:
            sock.close()
            services.close()
    return 0 if server.started else EXIT_FAILED


def _server(config: Any, node: Any, drain_timeout: float) -> Any:
    """uvicorn's server; a cluster node's drains on the first SIGTERM or SIGINT.

    Draining: the node deals no new hand, hands each table over as soon as its hand under
    way has ended (the others take them over from the log, between hands), and exits when it
    holds none, or after ``drain_timeout`` seconds (the rest handed over mid-hand). Another
    signal meanwhile exits at once, as without a drain."""
    import uvicorn

    class DrainingServer(uvicorn.Server):
        draining = False

        def handle_exit(self, sig: int, frame: Any) -> None:
            loop = getattr(node, "_loop", None)
            if node is None or loop is None or self.draining or self.should_exit:
                super().handle_exit(sig, frame)
                return
            self.draining = True
            self._captured_signals.append(sig)  # re-raised after the shutdown, as uvicorn does
            loop.call_soon_threadsafe(self._drain)

        def _drain(self) -> None:
            async def drain() -> None:
                try:
                    await node.drain(drain_timeout)
                finally:
                    self.should_exit = True

            self._drainer = asyncio.ensure_future(drain())

    return DrainingServer(config)


def _cluster_unfit(db: str, args: argparse.Namespace) -> str | None:
    """Why this cluster cannot start, in one line (``None``: it can)."""
    if not db.startswith(("postgresql://", "postgres://")):
        return (
            "more than one node needs PostgreSQL: --db postgresql://... "
            f"(not {_safe_url(db)}; SQLite is for one process)"
        )
    if not args.redis:
        return "more than one node needs Redis: --redis redis://host:port/0"
    if args.lease_ttl < 0.3:
        return "--lease-ttl must be at least 0.3 seconds"
    if args.workers < 0 or args.workers > 64:
        return "--workers must be between 1 and 64"
    if not 0 <= args.drain_timeout <= 3600:
        return "--drain-timeout must be between 0 and 3600 seconds"
    import redis

    try:
        client = redis.Redis.from_url(args.redis, socket_timeout=2, socket_connect_timeout=2)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as exc:
        return f"cannot reach Redis at {_safe_url(args.redis)}: {_one_line(exc)}"
    return None


def _node(args: argparse.Namespace, settings: Any, services: Any, hall: Any, port: int) -> Any:
    """This process's :class:`~sanh.cluster.node.ClusterNode` (a name is made if none given)."""
    from sanh.cluster.node import ClusterNode

    name = args.node or f"{socket.gethostname()}-{port}-{secrets.token_hex(3)}"
    public = args.public_url
    if not public:
        where = f"[{settings.host}]" if ":" in settings.host else settings.host
        public = f"http://{where}:{port}"
    public = public.rstrip("/")
    ws_url = "ws" + public.removeprefix("http") + "/ws"
    return ClusterNode(
        hall,
        services.bank,
        db_url=settings.db,
        redis_url=args.redis,
        name=name,
        ws_url=ws_url,
        http_url=public,
        prefix=args.cluster_prefix,
        ttl_ms=int(args.lease_ttl * 1000),
    )


def _supervise(args: argparse.Namespace, host: str, port: int) -> int:
    """``--workers N``: N node processes on ports ``port``...``port+N-1``, each restarted
    (under a new node name) when it dies, until this process is interrupted."""
    base = args.node or f"{socket.gethostname()}-w"
    argv = list(sys.argv[1:])
    command = _worker_argv(argv)
    children: dict[int, subprocess.Popen[bytes]] = {}
    generation: dict[int, int] = {}
    stopping = False

    def spawn(index: int) -> None:
        generation[index] = generation.get(index, 0) + 1
        name = f"{base}{index}-{generation[index]}"
        child = [
            sys.executable, "-m", "sanh", "serve", *command,
            "--node", name, "--port", str(port + index),
        ]  # fmt: skip
        children[index] = subprocess.Popen(child)
        print(f"sanh: worker {name} on port {port + index}", file=sys.stderr, flush=True)

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for index in range(args.workers):
        spawn(index)
    where = f"[{host}]" if ":" in host else host
    print(
        f"sanh: {args.workers} workers, the hall is on http://{where}:{port}"
        f"..{port + args.workers - 1}",
        file=sys.stderr,
        flush=True,
    )
    while not stopping:
        time.sleep(0.2)
        for index, child in list(children.items()):
            if child.poll() is not None and not stopping:
                print(
                    f"sanh: worker {index} exited ({child.returncode}); starting another",
                    file=sys.stderr,
                    flush=True,
                )
                spawn(index)
    for child in children.values():
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    for child in children.values():
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(args.drain_timeout + 30)  # a worker drains its hands first
        if child.poll() is None:
            child.kill()
    return 0


def _worker_argv(argv: list[str]) -> list[str]:
    """The supervisor's own ``serve`` arguments less ``--workers``, ``--node`` and ``--port``.

    >>> _worker_argv(["serve", "--workers", "2", "--port=8000", "--db", "x", "--node", "n"])
    ['--db', 'x']
    """
    out: list[str] = []
    skip = False
    for item in argv:
        if skip:
            skip = False
            continue
        if item == "serve" and not out:
            continue
        name = item.split("=", 1)[0]
        if name in ("--workers", "--node", "--port"):
            skip = "=" not in item
            continue
        out.append(item)
    return out


def _one_line(exc: BaseException) -> str:
    """An exception as one line (its first line, with its type when it says nothing)."""
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def _safe_url(url: str) -> str:
    """A database URL without its password, for a message.

    >>> _safe_url("postgresql://hall:s3cret@db.example:5432/sanh")
    'postgresql://hall:***@db.example:5432/sanh'
    >>> _safe_url("sqlite:///sanh.db")
    'sqlite:///sanh.db'
    """
    return re.sub(r"^(\w+://[^:/@]+):[^@/]*@", r"\1:***@", url)
