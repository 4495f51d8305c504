"""Subprocesses of the cluster tests: ``python -m tests.cluster.workers ...``.

``race URL NODE TABLE ROUNDS DIR``
    for each round ``r``: waits for ``DIR/go-r``, then tries to acquire ``TABLE``'s lease at
    once; prints ``{"round": r, "node": NODE, "token": token or null}``.
``fenced URL NODE TABLE TTL_MS OUT``
    takes ``TABLE``'s lease, prints ``ready``, then loops: renews the lease (whatever the
    answer: it keeps trying to write, as a node that has not noticed its loss would, and it
    forgets the event log's memory of a loss before each write), appends one event-log row
    ``{"writer": NODE, "i": i}`` and syncs it. One line per step in OUT: ``ok i``, ``lost i``
    (LeaseLost), ``renew-lost i``, ``error i ...`` (a database error: it reconnects). Stops
    after 5 ``lost``.
``node REDIS_URL PREFIX NAME``
    joins the bus with two tables (``NAME-t1``, ``NAME-t2``, routed to itself; heartbeat
    0.2 s, TTL 1 s), prints ``ready`` and runs until killed.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time

from sanh.cluster.leases import LeaseFence, LeaseLost, Leases
from sanh.ledger.store import open_store
from sanh.server.eventlog import EventLog


def race(url: str, node: str, table: str, rounds: int, directory: str) -> None:
    store = open_store(url)
    leases = Leases(store, node, ttl_ms=60_000)
    print(json.dumps({"ready": node}), flush=True)
    for r in range(rounds):
        go = os.path.join(directory, f"go-{r}")
        while not os.path.exists(go):
            time.sleep(0.0005)
        lease = leases.acquire(table)
        token = None if lease is None else lease.token
        print(json.dumps({"round": r, "node": node, "token": token}), flush=True)
    store.close()


def fenced(url: str, node: str, table: str, ttl_ms: int, out_path: str) -> None:
    store = open_store(url)
    leases = Leases(store, node, ttl_ms=ttl_ms)
    fence = LeaseFence(node, idle_timeout_ms=500)
    lease = leases.acquire(table)
    if lease is None:
        raise SystemExit(f"{node} could not take the lease of {table}")
    fence.grant(lease)
    events = EventLog(store, threaded=False, fence=fence)
    loop = asyncio.new_event_loop()
    lost = 0
    with open(out_path, "a", buffering=1) as out:
        print("ready", lease.token, flush=True)
        for i in range(1, 1_000_000):
            try:
                renewed = leases.renew(lease)
                if renewed is None:
                    out.write(f"renew-lost {i}\n")
                else:
                    lease = renewed
                events.admit(table)  # a write that does not trust what it was told before
                events.append(table, 1, i, json.dumps({"writer": node, "i": i}))
                loop.run_until_complete(events.sync(table))
                out.write(f"ok {i}\n")
            except LeaseLost:
                out.write(f"lost {i}\n")
                lost += 1
                if lost >= 5:
                    break
            except Exception as error:  # the server ended the session of a paused process
                out.write(f"error {i} {type(error).__name__}\n")
                store = open_store(url)
                leases = Leases(store, node, ttl_ms=ttl_ms)
                events.store = store
            time.sleep(0.005)
    loop.close()


def node(url: str, prefix: str, name: str) -> None:
    from sanh.cluster.bus import Bus

    async def run() -> None:
        bus = Bus(url, name, prefix=prefix, heartbeat_s=0.2, ttl_s=1.0)
        for table in (f"{name}-t1", f"{name}-t2"):
            await bus.upsert(table, {"game": "tien_len", "seats": 4})
            await bus.claim_route(table)
        await bus.start()
        print("ready", flush=True)
        await asyncio.sleep(3600)

    asyncio.run(run())


if __name__ == "__main__":
    command, *args = sys.argv[1:]
    if command == "race":
        race(args[0], args[1], args[2], int(args[3]), args[4])
    elif command == "fenced":
        fenced(args[0], args[1], args[2], int(args[3]), args[4])
    elif command == "node":
        node(args[0], args[1], args[2])
    else:
        raise SystemExit(f"unknown command {command}")
