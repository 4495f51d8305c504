"""The cluster's substrate failing under a whole hall: Redis restarted, PostgreSQL cut mid-hand.

Both run real ``sanh serve --node`` processes. Redis holds presence, the lobby and the routes,
not the state of record: while it is down the tables play on (their leases are in PostgreSQL),
and when it comes back empty each node writes its whole state again, so the lobby and the
redirects work as before. PostgreSQL is the state of record: when the server ends a node's
sessions mid-hand (``pg_terminate_backend``, as a restart of the server or a cut network does),
the node connects again and its hands go on; a write the cut failed before its commit is
retried on the new connection. Each time, no hand is missing or settled twice, and ``sanh
audit`` is clean.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest

from sanh.ledger.store import open_store
from tests.cluster.conftest import Node, PrivateRedis
from tests.cluster.test_failover_load import settled_once
from tests.cluster.test_nodes import audit, playing_table, table_of, wait_for
from tests.server.conftest import Client

pytestmark = pytest.mark.postgres


def node_tables(node: Node) -> set[str]:
    return {t["id"] for t in node.get("/api/lobby")["tables"] if t["node"] == node.name}


def join_answer(client: Client, table: str) -> dict[str, Any] | None:
    """``moved`` for a join of ``table``, or ``None`` if the node does not know the table yet
    (its lobby is rebuilt from the new Redis server, which the owner fills within a heartbeat:
    until then a client, like ``sanh loadtest --reconnect``, asks again)."""
    client.send({"type": "join", "table": table})
    while True:
        message = client.recv(10)
        if message["type"] == "moved":
            return message
        if message["type"] == "error" and message.get("table") == table:
            return None


def test_a_redis_restart_leaves_play_going_and_the_lobby_and_redirects_heal(
    cluster: Callable[..., Node], pg_url: str, private_redis: PrivateRedis
) -> None:
    a = cluster("node-a", True, redis=private_redis.url)
    b = cluster("node-b", False, redis=private_redis.url)
    table = wait_for("a bot table of node-a", lambda: playing_table(a))
    tables = node_tables(a)
    wait_for(
        "node-b to list node-a's tables",
        lambda: tables <= {t["id"] for t in b.get("/api/lobby")["tables"]},
    )
    leases = a.get("/healthz")["leases"]
    hand = wait_for(
        "a hand dealt", lambda: table_of(a, table)["hand"] >= 1 and table_of(a, table)["hand"]
    )

    private_redis.stop()  # everything Redis held is gone (no persistence)
    # the tables play on meanwhile: their leases are in PostgreSQL, renewed as before
    wait_for("a hand dealt with Redis down", lambda: table_of(a, table)["hand"] > hand + 1)
    assert a.get("/healthz")["leases"] == leases and b.get("/healthz")["leases"] == 0
    time.sleep(1.5)
    private_redis.start()  # empty

    # within a heartbeat or two, node-b lists node-a's tables again and routes to node-a
    wait_for(
        "node-b to list node-a's tables again",
        lambda: tables <= {t["id"] for t in b.get("/api/lobby")["tables"]},
        30,
    )
    client = Client.guest(b, "khach")
    client.connect()
    moved = wait_for(
        "node-b to send a client to node-a's table", lambda: join_answer(client, table)
    )
    assert moved["node"] == "node-a" and moved["url"] == f"ws://127.0.0.1:{a.port}/ws"
    client.close()
    # nobody took a table over: node-a kept every lease, and still deals
    assert a.get("/healthz")["leases"] == leases and b.get("/healthz")["leases"] == 0
    dealt = table_of(a, table)["hand"]
    wait_for("a hand dealt after the restart", lambda: table_of(a, table)["hand"] > dealt)
    a.stop()
    b.stop()
    for each in tables:
        settled_once(pg_url, each)
    audit(pg_url)


def cut(pg_url: str, application: str) -> int:
    """End every PostgreSQL session named ``application`` (as a server restart would)."""
    store = open_store(pg_url)
    try:
        rows = store.run_write(
            lambda tx: tx.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = ? AND pid <> pg_backend_pid()",
                (application,),
            )
        )
    finally:
        store.close()
    return sum(1 for (ended,) in rows if ended)


def ends_of(pg_url: str, table: str) -> dict[int, str]:
    """Each ended hand of ``table`` -> ``settle`` or ``void`` (its ledger batch)."""
    store = open_store(pg_url)
    try:
        with store.read() as tx:
            rows = tx.execute("SELECT id FROM batches WHERE id LIKE ?", (f"{table}:h%",))
    finally:
        store.close()
    ends = {}
    for (batch,) in rows:
        hand, _, kind = str(batch).removeprefix(f"{table}:h").partition(":")
        if kind in ("settle", "void"):
            ends[int(hand)] = kind
    return ends


def test_postgresql_sessions_cut_mid_hand_and_the_node_plays_on(
    cluster: Callable[..., Node], pg_url: str
) -> None:
    a = cluster("node-a", True)
    b = cluster("node-b", False)
    table = "bots-tien-len"  # long hands: a cut lands in one
    wait_for("node-a's Tiến lên bot table", lambda: table in node_tables(a))
    tables = node_tables(a)
    leases = a.get("/healthz")["leases"]
    wait_for("a hand dealt", lambda: table_of(a, table)["hand"] >= 2)
    application = a.env["PGAPPNAME"]
    rng = random.Random()
    cut_in: list[int] = []
    for _ in range(4):
        wait_for("a hand in play", lambda: table_of(a, table)["in_hand"])
        time.sleep(rng.uniform(0.0, 0.3))
        entry = table_of(a, table)
        ended = cut(pg_url, application)
        assert ended >= 1  # its ledger, event-log and lease sessions
        if entry["in_hand"]:
            cut_in.append(entry["hand"])
        # the node connects again: its tables deal on, under the leases it kept
        wait_for(
            "the table to deal on at node-a",
            lambda h=entry["hand"]: (
                table_of(a, table)["node"] == "node-a" and table_of(a, table)["hand"] > h + 1
            ),
        )
    assert cut_in, "no cut landed mid-hand"
    # each hand cut mid-way was played to its end and settled (not voided)
    assert all(ends_of(pg_url, table).get(hand) == "settle" for hand in cut_in), (
        cut_in,
        ends_of(pg_url, table),
    )
    assert "connected again after a lost connection" in (a.log.read_text() if a.log else "")
    assert a.get("/healthz")["leases"] == leases and b.get("/healthz")["leases"] == 0
    assert node_tables(a) == tables
    a.stop()
    b.stop()
    for each in tables:
        settled_once(pg_url, each)
    audit(pg_url)
