"""One hall process against ``sanh serve --workers 2``, the same load, side by side in one run.

Run: ``python -m benchmarks.bench_workers [--clients 1200] [--think 0.25] [--duration 30]``.
Both halls run over PostgreSQL (``$SANH_BENCH_PG``, default
``postgresql://postgres@127.0.0.1:5432/test``; a private schema each, dropped afterwards), so the
only difference is the number of processes; the workers share a private ``redis-server``. For
each, ``sanh loadtest`` (``--procs`` client processes) creates its Tiến lên tables and guests on
every node in turn and plays; the report gives actions per second, the p99 of action to table
update, the server's CPU milliseconds per action (every process of it) and the load average.
The load tool runs on the same machine and takes CPU of its own: on two cores, two workers and
the clients compete for them, with PostgreSQL's backends and Redis: the table gives the CPU
seconds each took over the load tool's whole run (setup and warm-up included).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

from benchmarks._machine import machine_note
from benchmarks.hall_load import _cpu_seconds

PG_URL = os.environ.get("SANH_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/test")


def _free_port(span: int = 1) -> int:
    """A port ``p`` with ``p..p+span-1`` free (checked once)."""
    while True:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        try:
            for offset in range(span):
                with socket.socket() as probe:
                    probe.bind(("127.0.0.1", port + offset))
        except OSError:
            continue
        return port


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants (from /proc)."""
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        for task in Path(f"/proc/{current}/task").iterdir():
            with contextlib.suppress(OSError):
                todo += [int(c) for c in (task / "children").read_text().split()]
    return out


def _named_cpu(name: str) -> float:
    """CPU seconds of every live process called ``name`` (PostgreSQL's backends, Redis)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                if (entry / "comm").read_text().strip() == name:
                    total += _cpu_seconds(int(entry.name))
    return total


def _loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def _schema(base: str) -> tuple[str, str]:
    name = f"sanh_bench_workers_{uuid.uuid4().hex[:10]}"
    return f"{base}?schema={name}", name


def _drop(base: str, name: str) -> None:
    import psycopg

    with psycopg.connect(base, autocommit=True) as connection:
        connection.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


def _wait(url: str, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not start")


def run(mode: str, args: argparse.Namespace, redis_url: str | None, log: Path) -> dict[str, Any]:
    workers = 2 if mode == "workers" else 1
    db, schema = _schema(args.pg)
    port = _free_port(workers)
    serve = [sys.executable, "-m", "sanh", "serve", "--port", str(port), "--db", db]
    serve += ["--no-system-tables"]
    if workers > 1:
        assert redis_url is not None
        serve += ["--workers", str(workers), "--redis", redis_url]
        serve += ["--cluster-prefix", f"bench-{uuid.uuid4().hex[:8]}"]
    # Every load client is a guest from 127.0.0.1 that bets: no guest limit, the old grant.
    env = {**os.environ, "SANH_GUESTS_PER_HOUR": "1000000", "SANH_GUEST_GRANT": "10000000"}
    out = log.open("ab")
    server = subprocess.Popen(serve, stdout=out, stderr=out, env=env)
    try:
        urls = [f"http://127.0.0.1:{port + i}" for i in range(workers)]
        for url in urls:
            _wait(url)
        time.sleep(1.0)
        pids = _tree(server.pid)
        before = {pid: _cpu_seconds(pid) for pid in pids}
        load_before = _loadavg()
        pg_before, redis_before = _named_cpu("postgres"), _named_cpu("redis-server")
        loadtest = [sys.executable, "-m", "sanh", "loadtest", "--url", ",".join(urls)]
        loadtest += ["--clients", str(args.clients), "--think", str(args.think)]
        loadtest += ["--duration", str(args.duration), "--warmup", str(args.warmup)]
        loadtest += ["--procs", str(args.procs), "--json"]
        started = time.monotonic()
        done = subprocess.run(loadtest, capture_output=True, text=True, timeout=900)
        wall = time.monotonic() - started
        if done.returncode != 0:
            raise RuntimeError(f"loadtest failed: {done.stderr[-2000:]}")
        report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
        cpu = {pid: _cpu_seconds(pid) - before.get(pid, 0.0) for pid in _tree(server.pid)}
        report["server_cpu_s"] = round(sum(cpu.values()), 2)
        report["postgres_cpu_s"] = round(_named_cpu("postgres") - pg_before, 1)
        report["redis_cpu_s"] = round(_named_cpu("redis-server") - redis_before, 1)
        report["server_cpu_split"] = sorted(
            (round(v, 1) for v in cpu.values() if v > 0.5), reverse=True
        )
        report["wall_s"] = round(wall, 1)
        report["load_before"] = load_before
        report["load_after"] = _loadavg()
        report["mode"] = mode
        return report
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)
        out.close()
        _drop(args.pg, schema)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--clients", type=int, default=1200)
    parser.add_argument("--think", type=float, default=0.25, help="seconds between actions")
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=8.0)
    parser.add_argument("--procs", type=int, default=2, help="load tool processes")
    parser.add_argument("--pg", default=PG_URL)
    parser.add_argument("--modes", default="one,workers")
    args = parser.parse_args(argv)
    binary = shutil.which("redis-server")
    if binary is None:
        print("redis-server is not installed: --workers cannot run")
        return 1
    print(machine_note())
    with tempfile.TemporaryDirectory() as directory:
        redis_port = _free_port()
        redis = subprocess.Popen(
            [binary, "--bind", "127.0.0.1", "--port", str(redis_port), "--save", "",
             "--appendonly", "no", "--dir", directory],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            time.sleep(0.5)
            redis_url = f"redis://127.0.0.1:{redis_port}/0"
            log = Path(directory) / "serve.log"
            rows = [run(mode, args, redis_url, log) for mode in args.modes.split(",")]
        finally:
            redis.kill()
            redis.wait(10)
    print(
        f"\n{args.clients} clients, think {args.think} s, {args.duration:.0f} s measured"
        f" after {args.warmup:.0f} s, {args.procs} load processes; PostgreSQL for both\n"
    )
    print(
        "| hall | actions/s | p50 / p99 ms | server CPU ms/action (per process s)"
        " | CPU s: load tool / PostgreSQL / Redis | load before -> after |"
    )
    print("|---|---|---|---|---|---|")
    for row in rows:
        actions = row.get("actions_per_s") or 0
        total = row.get("actions") or 1
        per_action = row["server_cpu_s"] * 1000 / total
        print(
            f"| {row['mode']} | {actions:.0f} |"
            f" {row.get('latency_p50_ms')} / {row.get('latency_p99_ms')} |"
            f" {per_action:.2f} ({', '.join(map(str, row['server_cpu_split']))}) |"
            f" {row.get('client_cpu_s')} / {row['postgres_cpu_s']} / {row['redis_cpu_s']} |"
            f" {row['load_before']} -> {row['load_after']} |"
        )
    if len(rows) == 2 and rows[0].get("actions_per_s"):
        ratio = (rows[1].get("actions_per_s") or 0) / rows[0]["actions_per_s"]
        print(f"\nworkers 2 / one process: {ratio:.2f}x actions/s")
    for row in rows:
        print(json.dumps(row, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
