"""Failover of whole hall nodes: kill -9 the node that plays the tables, time the takeover.

Run: ``python -m benchmarks.bench_failover [--kills N] [--lease-ttl S]``. Starts ``sanh serve
--node`` processes on loopback over a private PostgreSQL schema (``$SANH_BENCH_PG``, default
``postgresql://postgres@127.0.0.1:5432/test``) and a private ``redis-server`` (its counters are
this run's alone). Node 0 opens the bot tables; each round kills the node that plays
``bots-tien-len`` at a random moment, and a fresh node is started for the next round. It
prints, per kill, the time from the SIGKILL until another node lists the table as its own, and
until that node has dealt a new hand of it; then the PostgreSQL rows written per hand and the
Redis commands per event-log row over the whole run, and whether ``sanh audit`` is clean.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from benchmarks._machine import machine_note

PG_URL = os.environ.get("SANH_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/test")
TABLE = "bots-tien-len"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _get(url: str) -> Any:
    import httpx

    try:
        response = httpx.get(url, timeout=2)
    except httpx.HTTPError:
        return None
    return response.json() if response.status_code == 200 else None


class _Node:
    def __init__(self, name: str, db: str, redis_url: str, ttl: float, work: Path) -> None:
        self.name = name
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = (work / f"{name}.log").open("ab")
        self.args = [
            sys.executable, "-m", "sanh", "serve", "--port", str(self.port), "--db", db,
            "--timer-scale", "0.05", "--node", name, "--redis", redis_url,
            "--cluster-prefix", "bench", "--lease-ttl", str(ttl),
        ]  # fmt: skip
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, system_tables: bool) -> None:
        args = self.args if system_tables else [*self.args, "--no-system-tables"]
        env = {**os.environ, "SANH_BETWEEN_HANDS": "1", "SANH_BOT_DELAY": "0.5"}
        self.process = subprocess.Popen(args, stdout=self.log, stderr=self.log, env=env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and _get(f"{self.url}/healthz") is None:
            time.sleep(0.05)

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(20)
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait(10)
        self.log.close()


def _wait(check: Any, timeout: float = 60) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.02)
    raise TimeoutError


def _counts(url: str) -> tuple[int, int, int]:
    from sanh.ledger.store import open_store

    store = open_store(url)
    try:
        with store.read() as tx:
            rows = int(tx.execute("SELECT count(*) FROM table_events")[0][0])
            hands = int(tx.execute("SELECT count(*) FROM table_events WHERE seq = 0")[0][0])
            transfers = int(tx.execute("SELECT count(*) FROM transfers")[0][0])
    finally:
        store.close()
    return rows, hands, transfers


def run(kills: int, ttl: float) -> list[str]:
    import psycopg
    import redis

    from sanh.server.wallet_services import WalletServices

    binary = shutil.which("redis-server")
    if binary is None:
        return ["failover skipped: no redis-server"]
    work = Path(tempfile.mkdtemp(prefix="sanh-bench-failover-"))
    redis_port = _free_port()
    server = subprocess.Popen(
        [binary, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(work)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    redis_url = f"redis://127.0.0.1:{redis_port}/0"
    schema = f"sanh_bench_failover_{uuid.uuid4().hex[:8]}"
    db = f"{PG_URL}?schema={schema}"
    nodes: list[_Node] = []
    lines: list[str] = []
    try:
        _wait(lambda: _ping(redis, redis_url), 10)
        WalletServices.open(db).close()
        first = _Node("n0", db, redis_url, ttl, work)
        nodes.append(first)
        first.start(system_tables=True)
        spare = _Node("n1", db, redis_url, ttl, work)
        nodes.append(spare)
        spare.start(system_tables=False)
        owner = first
        _wait(lambda: (_get(f"{owner.url}/api/tables/{TABLE}") or {}).get("hand", 0) >= 1)
        listed: list[float] = []
        dealt: list[float] = []
        rng = random.Random(14)
        for k in range(kills):
            time.sleep(rng.uniform(0.5, 2.5))
            at_kill = int(_get(f"{owner.url}/api/tables/{TABLE}")["hand"])
            assert owner.process is not None
            owner.process.send_signal(signal.SIGKILL)
            killed = time.monotonic()
            owner.process.wait(10)
            survivor = spare

            def entry(node: _Node = survivor) -> Any:
                return _get(f"{node.url}/api/tables/{TABLE}") or {}

            _wait(lambda s=survivor, e=entry: e().get("node") == s.name)
            listed.append(time.monotonic() - killed)
            _wait(lambda e=entry, h=at_kill: e().get("hand", 0) > h)
            dealt.append(time.monotonic() - killed)
            owner = survivor
            spare = _Node(f"n{k + 2}", db, redis_url, ttl, work)
            nodes.append(spare)
            spare.start(system_tables=False)
        for node in nodes:
            node.stop()
        client = redis.Redis.from_url(redis_url)
        info = client.info("stats")
        client.close()
        rows, hands, transfers = _counts(db)
        audit = subprocess.run(
            [sys.executable, "-m", "sanh", "audit", "--db", db],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        lines.append(f"| kills | {kills} (lease TTL {ttl} s, renewed every {ttl / 3:.2f} s) |")
        lines.append(f"| kill -> the table listed as the survivor's, median / max s | "
                     f"{statistics.median(listed):.2f} / {max(listed):.2f} |")  # fmt: skip
        lines.append(f"| kill -> a new hand dealt by the survivor, median / max s | "
                     f"{statistics.median(dealt):.2f} / {max(dealt):.2f} |")  # fmt: skip
        lines.append(f"| event-log rows per hand (every bot table) | {rows / max(1, hands):.1f} |")
        lines.append(f"| ledger transfers per hand | {transfers / max(1, hands):.1f} |")
        commands = int(info["total_commands_processed"])
        lines.append(f"| Redis commands per event-log row | {commands / max(1, rows):.2f} |")
        lines.append(
            f"| `sanh audit` after the run | {'clean' if audit.returncode == 0 else 'FAILED'} |"
        )
    finally:
        for node in nodes:
            with contextlib.suppress(Exception):
                node.stop(signal.SIGKILL)
        server.kill()
        server.wait(10)
        with psycopg.connect(PG_URL, autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        shutil.rmtree(work, ignore_errors=True)
    return lines


def _ping(redis: Any, url: str) -> bool:
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=0.2)
        client.ping()
        client.close()
    except redis.RedisError:
        return False
    return True


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--lease-ttl", type=float, default=2.0)
    args = parser.parse_args(argv)
    print(machine_note())
    print()
    print("| failover of `sanh serve --node` processes | value |")
    print("|---|---|")
    for line in run(args.kills, args.lease_ttl):
        print(line)


if __name__ == "__main__":
    main()
