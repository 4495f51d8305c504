"""The Redis bus (sanh/cluster/bus.py): presence, the lobby of every node, routing."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from sanh.cluster.bus import Bus
from tests.cluster.conftest import PrivateRedis

pytestmark = pytest.mark.redis

ROOT = Path(__file__).resolve().parents[2]


def _prefix() -> str:
    return f"sanh_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"


async def eventually(check: Callable[[], object], timeout: float = 10.0) -> None:
    """Wait until ``check()`` is true (awaiting it if it is a coroutine)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        result = check()
        if asyncio.iscoroutine(result):
            result = await result
        if result:
            return
        assert asyncio.get_running_loop().time() < deadline, "condition not met in time"
        await asyncio.sleep(0.05)


def _tables(bus: Bus) -> set[tuple[str, str]]:
    return {(entry["node"], entry["table"]) for entry in bus.lobby_tables()}


def test_a_joining_node_publishes_a_full_snapshot_that_replaces_stale_entries(
    redis_url: str,
) -> None:
    prefix = _prefix()

    async def run() -> None:
        observer = Bus(redis_url, "obs", prefix=prefix, heartbeat_s=0.2, ttl_s=1.0)
        await observer.start()
        a = Bus(redis_url, "a", prefix=prefix, heartbeat_s=0.2, ttl_s=1.0)
        await a.upsert("t1", {"game": "tien_len"})
        await a.upsert("t2", {"game": "phom"})
        await a.start()
        await eventually(lambda: _tables(observer) == {("a", "t1"), ("a", "t2")})
        await a.upsert("t3", {"game": "lieng"})
        await a.remove("t1")
        await eventually(lambda: _tables(observer) == {("a", "t2"), ("a", "t3")})
        entry = next(e for e in observer.lobby_tables() if e["table"] == "t3")
        assert entry == {"game": "lieng", "table": "t3", "node": "a"}
        # A node joining later reads everyone's stored lobby: no waiting for updates.
        late = Bus(redis_url, "late", prefix=prefix, heartbeat_s=0.2, ttl_s=1.0)
        await late.start()
        assert _tables(late) == {("a", "t2"), ("a", "t3")}
        # Node a restarts (a new incarnation, counting from 1 again) with one table: its
        # snapshot replaces what the others held, so t2 and t3 do not linger.
        await a.stop(leave=False)
        a2 = Bus(redis_url, "a", prefix=prefix, heartbeat_s=0.2, ttl_s=1.0)
        await a2.upsert("t9", {"game": "xi_to"})
        await a2.start()
        for bus in (observer, late):
            await eventually(lambda bus=bus: _tables(bus) == {("a", "t9")})
        assert set(await observer.nodes()) == {"obs", "a", "late"}
        await a2.stop()  # leaving: gone at once, not after the TTL
        for bus in (observer, late):
            await eventually(lambda bus=bus: _tables(bus) == set())
        assert set(await observer.nodes()) == {"obs", "late"}
        assert a2.published >= 3 and observer.received >= 4
        await late.stop()
        await observer.stop()

    asyncio.run(run())


def test_a_killed_node_leaves_presence_lobby_and_routing_when_its_ttl_runs_out(
    redis_url: str,
) -> None:
    prefix = _prefix()
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.cluster.workers", "node", redis_url, prefix, "doomed"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )

    async def run() -> None:
        observer = Bus(redis_url, "obs", prefix=prefix, heartbeat_s=0.2, ttl_s=1.0)
        await observer.start()
        await eventually(lambda: ("doomed", "doomed-t1") in _tables(observer))
        assert await observer.route("doomed-t1") == "doomed"
        assert "doomed" in await observer.nodes()
        os.kill(child.pid, signal.SIGKILL)
        child.wait(10)
        started = asyncio.get_running_loop().time()

        async def gone() -> bool:
            return "doomed" not in await observer.nodes()

        await eventually(gone, timeout=5)
        await eventually(lambda: _tables(observer) == set(), timeout=5)
        assert asyncio.get_running_loop().time() - started < 3  # TTL 1 s + a heartbeat
        assert await observer.route("doomed-t1") is None  # no route to a dead node
        await observer.stop()

    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        asyncio.run(run())
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        if child.stdout is not None:
            child.stdout.close()


def test_the_bus_survives_a_redis_restart_and_publishes_everything_again(
    private_redis: PrivateRedis,
) -> None:
    """A private redis-server (this test owns it) is killed and started again, empty: the
    node writes its presence, lobby and routes again and the other node's cache follows."""
    prefix = _prefix()

    async def run() -> None:
        a = Bus(private_redis.url, "a", prefix=prefix, heartbeat_s=0.2, ttl_s=1.0)
        await a.upsert("t1", {"game": "tien_len"})
        await a.claim_route("t1")
        await a.start()
        b = Bus(private_redis.url, "b", prefix=prefix, heartbeat_s=0.2, ttl_s=1.0)
        await b.start()
        await eventually(lambda: _tables(b) == {("a", "t1")})
        assert await b.route("t1") == "a"
        private_redis.stop()
        await eventually(lambda: not a.connected and not b.connected)
        await a.upsert("t2", {"game": "phom"})  # while Redis is down: kept, sent later
        private_redis.start()
        await eventually(lambda: _tables(b) == {("a", "t1"), ("a", "t2")})
        await eventually(lambda: a.connected and b.connected)

        async def routed() -> bool:
            return await b.route("t1") == "a"

        async def both() -> bool:
            return set(await b.nodes()) == {"a", "b"}

        await eventually(routed)
        await eventually(both)
        await a.upsert("t3", {"game": "lieng"})
        await eventually(lambda: ("a", "t3") in _tables(b))
        assert a.republished >= 2
        await b.stop()
        await a.stop()

    asyncio.run(run())
