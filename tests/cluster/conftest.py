"""Fixtures of the cluster tests: a private PostgreSQL schema and private Redis servers.

PostgreSQL is the local server (``$SANH_TEST_PG`` or the candidates of tests/ledger/conftest.py);
each test gets a fresh schema holding the hall's tables and ``table_leases``, dropped afterwards.
Redis is ``$SANH_TEST_REDIS`` (default ``redis://127.0.0.1:6379/0``); a test that must restart
Redis starts a private ``redis-server`` of its own on another port instead. Without a server the
tests skip with the reason, except under ``CI=true``, where they fail (``.ci/run`` starts both).
"""

from __future__ import annotations

import functools
import gc
import os
import shutil
import signal
import socket
import subprocess
import time
import uuid
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from sanh.cluster.leases import ensure_schema
from sanh.ledger.store import open_store
from sanh.server.wallet_services import WalletServices
from tests.ledger.conftest import drop_schema, require_postgres
from tests.server.conftest import HallProcess, free_port

REDIS_DEFAULT = "redis://127.0.0.1:6379/0"


def _missing(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true needs this server: {reason}")
    pytest.skip(reason)


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL schema with the hall's tables and the cluster's leases."""
    base = require_postgres()
    schema = f"sanh_cluster_{os.getpid()}_{uuid.uuid4().hex[:10]}"
    url = f"{base}?schema={schema}"
    try:
        WalletServices.open(url).close()
        store = open_store(url)
        try:
            ensure_schema(store)
        finally:
            store.close()
        yield url
    finally:
        drop_schema(base, schema)


@functools.cache
def redis_base() -> tuple[str | None, str]:
    """A Redis URL that answers, or ``None`` and why not."""
    try:
        import redis
    except ImportError:
        return None, "the redis package is not installed (pip install -e '.[cluster]')"
    url = os.environ.get("SANH_TEST_REDIS") or REDIS_DEFAULT
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=2)
        client.ping()
        client.close()
    except redis.RedisError as error:
        return None, f"no Redis server answers at {url} ({error})"
    return url, ""


@pytest.fixture
def redis_url() -> str:
    """The shared Redis server (tests use their own key prefix on it)."""
    url, reason = redis_base()
    if url is None:
        _missing(reason)
    assert url is not None
    return url


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PrivateRedis:
    """A ``redis-server`` this test owns (no persistence): it may stop and restart it."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary is not None
        self.process = subprocess.Popen(
            [
                binary,
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.directory),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"the private redis-server on port {self.port} did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    """A private Redis server (started), stopped at the end of the test."""
    if shutil.which("redis-server") is None:
        _missing("redis-server (apt install redis-server) for a private Redis")
    if redis_base()[0] is None and "not installed" in redis_base()[1]:
        _missing(redis_base()[1])
    server = PrivateRedis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(autouse=True)
def _collect_dropped_transports() -> Iterator[None]:
    """A Redis server killed under a client (the restart test) leaves asyncio transports that
    only the garbage collector closes; collect them here, while their ResourceWarning is
    expected, instead of in whichever later test the collector happens to run (where the
    warning became an unraisable error inside ``ast.parse`` in tests/test_architecture.py)."""
    yield
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()


LEASE_TTL = 3.0
"""Seconds; long enough that a node starved of CPU by the tests beside it (xdist, a browser
starting) still renews in time, short enough that a failover takes a few seconds."""


class Node(HallProcess):
    """A ``sanh serve --node`` process of a test's cluster."""

    name: str = ""
    pg_url: str = ""

    @property
    def db_url(self) -> str:
        return self.pg_url

    def get(self, path: str) -> Any:
        return httpx.get(f"{self.url}{path}", timeout=10).json()


@pytest.fixture
def cluster(tmp_path: Path, pg_url: str, redis_url: str) -> Iterator[Callable[..., Node]]:
    """Start nodes of one private cluster: ``start(name, system_tables, ttl=, port=, redis=,
    drain=)`` (a node started again after a kill takes its old port, under a new name; ``redis``
    another server than the shared one; ``drain`` its ``--drain-timeout``, 0 by default: a
    stopped node hands its tables over at once). A node's PostgreSQL sessions are named
    ``{prefix}-{name}`` (``application_name``), so a test can cut them."""
    prefix = f"test-{uuid.uuid4().hex[:10]}"
    nodes: list[Node] = []

    def start(
        name: str,
        system_tables: bool = False,
        ttl: float = LEASE_TTL,
        port: int = 0,
        redis: str | None = None,
        drain: float = 0.0,
    ) -> Node:
        log = tmp_path / f"{name}.log"
        node = Node(tmp_path / f"{name}.db", port or free_port(), 0.05, log=log)
        node.name, node.pg_url = name, pg_url
        node.env = {"PGAPPNAME": f"{prefix}-{name}"}  # its PostgreSQL sessions, by name
        node.extra = ["--node", name, "--redis", redis or redis_url, "--cluster-prefix", prefix]
        node.extra += ["--lease-ttl", str(ttl), "--drain-timeout", str(drain)]
        nodes.append(node)
        node.start(system_tables=system_tables)
        return node

    try:
        yield start
    finally:
        for node in nodes:
            if node.process is not None and node.process.poll() is None:
                os.kill(node.process.pid, signal.SIGCONT)
            node.stop()
