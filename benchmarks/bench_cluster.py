"""What the cluster's coordination costs: lease renewals, the fence, Redis per lobby update.

Run: ``python -m benchmarks.bench_cluster [--rounds N]``. Needs PostgreSQL
(``$SANH_BENCH_PG``, default ``postgresql://postgres@127.0.0.1:5432/test``; a private schema,
dropped afterwards) and ``redis-server`` (a private server on a free port, so that its command
counters are this benchmark's alone). Prints Markdown for docs/SCALING.md; skips what it
cannot reach.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable

from benchmarks._machine import machine_note

PG_URL = os.environ.get("SANH_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/test")


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"{statistics.median(ordered) * 1000:.3f} / {p99 * 1000:.3f}"


def _time(work: Callable[[], object], rounds: int) -> list[float]:
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        samples.append(time.perf_counter() - start)
    return samples


def bench_postgres(rounds: int) -> list[str]:
    import psycopg

    from sanh.cluster.leases import LeaseFence, Leases, ensure_schema
    from sanh.ledger.store import open_store
    from sanh.server.eventlog import EventLog
    from sanh.server.wallet_services import WalletServices

    try:
        with psycopg.connect(PG_URL, connect_timeout=3):
            pass
    except psycopg.Error as error:
        return [f"PostgreSQL skipped: {str(error).strip().splitlines()[0]}"]
    schema = f"sanh_bench_cluster_{uuid.uuid4().hex[:8]}"
    url = f"{PG_URL}?schema={schema}"
    lines = ["| PostgreSQL operation | median / p99 ms |", "|---|---|"]
    try:
        WalletServices.open(url).close()
        store = open_store(url)
        ensure_schema(store)
        leases = Leases(store, "bench", ttl_ms=60_000)
        counter = iter(range(10**9))
        acquire = _time(lambda: leases.acquire(f"a{next(counter)}"), rounds)
        lines.append(f"| acquire a free lease (1 statement) | {_ms(acquire)} |")
        for n in (1, 10, 100):
            held = [lease for i in range(n) if (lease := leases.acquire(f"r{n}-{i}"))]
            samples = _time(lambda held=held: leases.renew_all(held), rounds)
            lines.append(f"| renew {n} leases (1 statement) | {_ms(samples)} |")
        fence = LeaseFence("bench")
        for lease in held:
            fence.grant(lease)
        plain = EventLog(store, threaded=False)
        fenced = EventLog(store, threaded=False, fence=fence)
        seq = iter(range(1, 10**9))

        def group(log: EventLog, tables: int) -> Callable[[], None]:
            def write() -> None:
                for t in range(tables):
                    for _ in range(4):
                        log.append(f"r100-{t}", 1, next(seq), "{}")
                log.flush()

            return write

        for tables in (1, 10):
            a: list[float] = []
            b: list[float] = []
            for _ in range(rounds):  # interleaved, same conditions
                a += _time(group(plain, tables), 1)
                b += _time(group(fenced, tables), 1)
            lines.append(
                f"| event-log group of {4 * tables} rows, {tables} table(s), no fence | {_ms(a)} |"
            )
            lines.append(
                f"| the same group with the fence (FOR SHARE in the transaction) | {_ms(b)} |"
            )
        store.close()
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    return lines


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def bench_redis(rounds: int) -> list[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        return ["Redis skipped: no redis-server"]
    import redis

    from sanh.cluster.bus import Bus

    port = _free_port()
    directory = tempfile.mkdtemp(prefix="sanh-bench-redis-")
    server = subprocess.Popen(
        [binary, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--dir", directory],
        stdout=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        client = redis.Redis.from_url(url)
        for _ in range(100):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)

        def commands() -> int:
            return int(client.info("stats")["total_commands_processed"])

        async def run() -> list[str]:
            seen: asyncio.Queue[None] = asyncio.Queue()
            observers = [
                Bus(
                    url,
                    f"obs{i}",
                    heartbeat_s=30,
                    ttl_s=60,
                    on_change=lambda: seen.put_nowait(None),
                )
                for i in range(3)
            ]
            node = Bus(url, "node", heartbeat_s=30, ttl_s=60)
            await node.start()
            for observer in observers:
                await observer.start()
            await asyncio.sleep(0.2)
            while not seen.empty():
                seen.get_nowait()
            before, published = commands(), node.published
            received = sum(o.received for o in observers)
            latencies = []
            for i in range(rounds):
                start = time.perf_counter()
                await node.upsert(f"t{i % 50}", {"game": "tien_len", "seated": i % 4})
                for _ in observers:
                    await seen.get()
                latencies.append(time.perf_counter() - start)
            used = commands() - before - 1  # less the INFO call itself
            messages = node.published - published
            delivered = sum(o.received for o in observers) - received
            beat_before = commands()
            for _ in range(rounds):
                async with node._redis.pipeline(transaction=False) as pipe:  # one heartbeat
                    pipe.set("sanh:node:node", "{}", px=60_000, get=True)
                    pipe.pexpire("sanh:lobby:node", 60_000)
                    await pipe.execute()
            beat = (commands() - beat_before - 1) / rounds
            for observer in observers:
                await observer.stop()
            await node.stop()
            return [
                "| Redis, per lobby update (1 node, 3 observers) | value |",
                "|---|---|",
                f"| commands executed by Redis | {used / rounds:.1f} (MULTI, 2 HSET, PEXPIRE,"
                " PUBLISH, EXEC) |",
                f"| messages published | {messages / rounds:.1f} |",
                f"| messages delivered (one per subscribed node) | {delivered / rounds:.1f} |",
                f"| update to all 3 caches, median / p99 ms | {_ms(latencies)} |",
                f"| commands per heartbeat of a node | {beat:.1f} (SET GET PX, PEXPIRE) |",
            ]

        lines = asyncio.run(run())
        client.close()
        return lines
    finally:
        server.kill()
        server.wait(10)
        shutil.rmtree(directory, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    rounds = args.rounds
    print(f"Machine: {machine_note()}\n")
    print(
        f"`uptime`: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}\n"
    )
    for line in bench_postgres(rounds):
        print(line)
    print()
    for line in bench_redis(rounds):
        print(line)


if __name__ == "__main__":
    main()
