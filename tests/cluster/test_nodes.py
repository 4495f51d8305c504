"""Hall nodes of one cluster, as real ``sanh serve --node`` processes over PostgreSQL and Redis.

Each test starts its nodes on loopback over a private PostgreSQL schema and a private Redis key
prefix: a node lists the other nodes' tables (with their ``node``), sends a client that names a
table of another node there (``moved``), and takes the tables of a node that died (SIGKILL) or
froze (SIGSTOP past its lease) over from the event log; the frozen node, woken, drops them
without writing a row for them. ``sanh audit`` finds the ledger clean after each.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from sanh.ledger.store import open_store
from tests.cluster.conftest import LEASE_TTL, Node
from tests.hall_env import TEST_HALL_ENV
from tests.server.conftest import Client, free_port

pytestmark = pytest.mark.postgres


def wait_for(what: str, check: Callable[[], Any], timeout: float = 60) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = check()
        except (httpx.HTTPError, KeyError, ValueError, AssertionError):  # not there yet
            value = None
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def table_of(node: Node, table: str) -> dict[str, Any]:
    response = httpx.get(f"{node.url}/api/tables/{table}", timeout=10)
    assert response.status_code == 200, response.text
    entry: dict[str, Any] = response.json()
    return entry


def audit(pg_url: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sanh", "audit", "--db", pg_url, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def hands_by_table(pg_url: str, table: str) -> list[int]:
    store = open_store(pg_url)
    try:
        with store.read() as tx:
            rows = tx.execute(
                "SELECT hand FROM table_events WHERE table_id = ? AND seq = 0 ORDER BY hand",
                (table,),
            )
    finally:
        store.close()
    return [int(r[0]) for r in rows]


def cluster_status(pg_url: str, node: Node) -> dict[str, Any]:
    redis_url = node.extra[node.extra.index("--redis") + 1]
    prefix = node.extra[node.extra.index("--cluster-prefix") + 1]
    done = subprocess.run(
        [sys.executable, "-m", "sanh", "cluster", "status", "--db", pg_url, "--redis", redis_url,
         "--prefix", prefix, "--json"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    status: dict[str, Any] = json.loads(done.stdout)
    text = subprocess.run(
        [sys.executable, "-m", "sanh", "cluster", "status", "--db", pg_url, "--redis", redis_url,
         "--prefix", prefix],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert text.returncode == 0 and text.stdout.startswith("2 live node(s)"), text.stdout
    return status


def pid_of_node(name: str) -> int:
    """The process started with ``--node NAME`` (from /proc)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--node" in args and args[args.index(b"--node") + 1 :][:1] == [name.encode()]:
            return int(entry.name)
    raise AssertionError(f"no process of node {name}")


def playing_table(node: Node) -> str:
    """A bot table of ``node`` that is dealing hands."""
    lobby = node.get("/api/lobby")["tables"]
    ids = [t["id"] for t in lobby if t["id"].startswith("bots-") and t["node"] == node.name]
    assert ids, lobby
    return str(ids[0])


def test_a_cluster_without_postgres_or_redis_says_so_in_one_line(
    tmp_path: Path, pg_url: str
) -> None:
    def serve(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "sanh", "serve", "--port", "0", *args],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=tmp_path,
        )

    sqlite = serve("--db", f"sqlite:///{tmp_path / 'h.db'}", "--node", "x", "--redis", "redis://x")
    assert sqlite.returncode == 2
    assert sqlite.stderr.strip().splitlines() == [
        "sanh serve: more than one node needs PostgreSQL: --db postgresql://... "
        f"(not sqlite:///{tmp_path / 'h.db'}; SQLite is for one process)"
    ]
    no_redis = serve("--db", pg_url, "--workers", "2")
    assert no_redis.returncode == 2
    assert no_redis.stderr.strip().splitlines() == [
        "sanh serve: more than one node needs Redis: --redis redis://host:port/0"
    ]
    dead = serve("--db", pg_url, "--node", "x", "--redis", f"redis://127.0.0.1:{free_port()}/0")
    assert dead.returncode == 2
    lines = dead.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sanh serve: cannot reach Redis at redis://")


def test_nodes_share_the_lobby_redirect_a_client_and_take_a_dead_nodes_tables_over(
    cluster: Callable[..., Node], pg_url: str
) -> None:
    a = cluster("node-a", True)
    b = cluster("node-b", False)
    table = wait_for("a bot table of node-a", lambda: playing_table(a))
    # node-b lists node-a's tables, each with its node; its own list is empty
    remote = wait_for(
        "node-a's tables in node-b's lobby",
        lambda: [t for t in b.get("/api/lobby")["tables"] if t["id"] == table],
    )
    assert remote[0]["node"] == "node-a"
    assert table_of(b, table)["node"] == "node-a"
    health_a, health_b = a.get("/healthz"), b.get("/healthz")
    assert health_a["node"] == "node-a" and health_a["leases"] == health_a["tables"] > 0
    assert health_b == {"ok": True, "tables": 0, "node": "node-b", "leases": 0}

    # sanh cluster status names both nodes, node-a's tables and its leases
    status = cluster_status(pg_url, a)
    assert [n["node"] for n in status["nodes"]] == ["node-a", "node-b"]
    assert table in status["nodes"][0]["tables"] and status["nodes"][1]["tables"] == []
    lease = next(row for row in status["leases"] if row["table"] == table)
    assert lease["owner"] == "node-a" and lease["token"] == 1 and lease["remaining_ms"] > 0

    # a client of node-b that joins node-a's table is sent to node-a, and plays there
    client = Client.guest(b, "khach")
    client.connect()
    client.send({"type": "join", "table": table})
    moved = client.until("moved", 30)
    assert moved == {
        "type": "moved",
        "table": table,
        "node": "node-a",
        "url": f"ws://127.0.0.1:{a.port}/ws",
    }
    client.close()
    client.hall = a
    client.connect()  # the same session token signs in on node-a
    client.send({"type": "join", "table": table})
    assert client.until("table", 30)["table"] == table
    client.close()

    before = wait_for(
        "a hand dealt", lambda: table_of(a, table)["hand"] >= 1 and table_of(a, table)["hand"]
    )
    count = a.get("/healthz")["leases"]
    a.kill()  # SIGKILL: no hand-over, its leases expire
    killed = time.monotonic()
    moved_to_b = wait_for(
        "node-b to play node-a's table",
        lambda: table_of(b, table)["node"] == "node-b" and table_of(b, table),
    )
    took = time.monotonic() - killed
    wait_for(
        "the table to deal on at node-b",
        lambda: table_of(b, table)["hand"] > max(before, moved_to_b["hand"]),
    )
    wait_for("node-b to hold every lease", lambda: b.get("/healthz")["leases"] >= count)
    assert took < 30
    # the same client, back on node-b, plays there now
    client.hall = b
    client.connect()
    client.send({"type": "join", "table": table})
    assert client.until("table", 30)["table"] == table
    client.close()
    hands = hands_by_table(pg_url, table)
    assert hands == sorted(set(hands)) and hands == list(range(hands[0], hands[-1] + 1))
    b.stop()
    audit(pg_url)


def test_a_frozen_node_loses_its_tables_and_never_writes_for_them_again(
    cluster: Callable[..., Node], pg_url: str, tmp_path: Path
) -> None:
    a = cluster("node-a", True)
    b = cluster("node-b", False)
    table = wait_for("a bot table of node-a", lambda: playing_table(a))
    wait_for("a hand dealt", lambda: table_of(a, table)["hand"] >= 1)
    count = a.get("/healthz")["leases"]
    assert a.process is not None
    os.kill(a.process.pid, signal.SIGSTOP)  # past its lease: node-b takes the tables over
    wait_for("node-b to hold node-a's leases", lambda: b.get("/healthz")["leases"] >= count)
    taken = table_of(b, table)["hand"]
    wait_for("the table to deal on at node-b", lambda: table_of(b, table)["hand"] > taken)
    os.kill(a.process.pid, signal.SIGCONT)
    # node-a wakes up, finds its leases gone and drops every table without a write
    wait_for("node-a to drop its tables", lambda: a.get("/healthz")["leases"] == 0)
    wait_for("node-a to have no table", lambda: a.get("/healthz")["tables"] == 0)
    dealt = table_of(b, table)["hand"]
    wait_for("the table to deal on at node-b", lambda: table_of(b, table)["hand"] > dealt)
    hands = hands_by_table(pg_url, table)
    assert hands == sorted(set(hands)) and hands == list(range(hands[0], hands[-1] + 1))
    a.stop()
    b.stop()
    audit(pg_url)


def test_a_node_stopped_gracefully_hands_its_tables_over_at_once(
    cluster: Callable[..., Node], pg_url: str
) -> None:
    a = cluster("node-a", True)
    b = cluster("node-b", False)
    table = wait_for("a bot table of node-a", lambda: playing_table(a))
    wait_for("a hand dealt", lambda: table_of(a, table)["hand"] >= 1)
    count = a.get("/healthz")["leases"]
    a.stop()  # SIGTERM: the tables stop, their leases are released, node-a leaves the bus
    wait_for("node-b to hold node-a's leases", lambda: b.get("/healthz")["leases"] >= count)
    assert table_of(b, table)["node"] == "node-b"
    dealt = table_of(b, table)["hand"]
    wait_for("the table to deal on at node-b", lambda: table_of(b, table)["hand"] > dealt)
    hands = hands_by_table(pg_url, table)
    assert hands == list(range(hands[0], hands[-1] + 1))
    b.stop()
    audit(pg_url)


def test_a_draining_node_plays_its_hands_to_the_end_then_hands_its_tables_over(
    cluster: Callable[..., Node], pg_url: str
) -> None:
    """SIGTERM with a drain: the hand under way is played to its result on node-a (its
    watcher sees it), no new hand is dealt there, then the table goes (``moved``) and node-b
    deals the next hand."""
    from tests.cluster.test_outages import ends_of

    a = cluster("node-a", True, drain=120)
    b = cluster("node-b", False)
    table = "bots-tien-len"  # long hands: the signal lands in one
    wait_for("node-a's Tiến lên bot table", lambda: table_of(a, table)["node"] == "node-a")
    wait_for(
        "a hand in play", lambda: table_of(a, table)["hand"] >= 1 and table_of(a, table)["in_hand"]
    )
    watcher = Client.guest(a, "xem")
    watcher.connect()
    watcher.send({"type": "join", "table": table})
    view = watcher.until("table", 30)
    hand = view["hand"]
    assert view["view"] is not None and table_of(a, table)["in_hand"]
    assert a.process is not None
    a.process.send_signal(signal.SIGTERM)
    result = watcher.until("result", 120)  # node-a plays the hand on to its end
    assert result["hand"] == hand
    moved = watcher.until("moved", 60)
    assert moved == {"type": "moved", "table": table, "node": None, "url": None}
    assert ends_of(pg_url, table).get(hand) == "settle"  # settled by node-a, before it let go
    watcher.close()
    a.process.wait(60)
    log = a.log.read_text() if a.log else ""
    assert "drains" in log and "drained" in log
    wait_for(
        "node-b to deal the next hand",
        lambda: table_of(b, table)["node"] == "node-b" and table_of(b, table)["hand"] > hand,
    )
    hands = hands_by_table(pg_url, table)
    assert hands == list(range(hands[0], hands[-1] + 1))
    assert ends_of(pg_url, table).get(hand) == "settle"
    b.stop()
    audit(pg_url)


def test_workers_start_n_nodes_and_a_dead_one_is_replaced(
    tmp_path: Path, pg_url: str, redis_url: str
) -> None:
    port = free_port()
    while True:  # two free ports in a row
        try:
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", port + 1))
            break
        except OSError:
            port = free_port()
    prefix = f"test-{uuid.uuid4().hex[:10]}"
    out = (tmp_path / "workers.log").open("ab")
    supervisor = subprocess.Popen(
        [sys.executable, "-m", "sanh", "serve", "--workers", "2", "--port", str(port),
         "--db", pg_url, "--redis", redis_url, "--cluster-prefix", prefix,
         "--lease-ttl", str(LEASE_TTL), "--node", "w", "--timer-scale", "0.05"],
        stdout=out, stderr=out, env={**os.environ, **TEST_HALL_ENV},
    )  # fmt: skip
    try:
        urls = [f"http://127.0.0.1:{port + i}" for i in range(2)]

        def health(url: str) -> Any:
            return httpx.get(f"{url}/healthz", timeout=2).json()

        first = [wait_for(f"worker {url}", lambda u=url: health(u)) for url in urls]
        assert sorted(h["node"] for h in first) == ["w0-1", "w1-1"]
        tables = sum(h["tables"] for h in first)
        assert tables > 0 and sum(h["leases"] for h in first) == tables
        # one lobby: each worker lists every table, each with its node
        lobby = wait_for(
            "one lobby",
            lambda: (lambda t: len(t) == tables and t)(
                httpx.get(f"{urls[1]}/api/lobby", timeout=2).json()["tables"]
            ),
        )
        assert {t["node"] for t in lobby} <= {"w0-1", "w1-1"}
        # a worker killed is started again under a new name; its tables are taken over
        os.kill(pid_of_node("w0-1"), signal.SIGKILL)
        wait_for("a new worker 0", lambda: health(urls[0])["node"] == "w0-2", timeout=60)
        wait_for(
            "every table leased again",
            lambda: sum(health(u)["leases"] for u in urls) == tables,
            timeout=60,
        )
    finally:
        supervisor.terminate()
        try:
            supervisor.wait(60)
        finally:
            if supervisor.poll() is None:
                supervisor.kill()
            out.close()
    assert supervisor.returncode == 0
    audit(pg_url)
