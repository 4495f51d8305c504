"""The hall under load: ``sanh loadtest`` against ``sanh serve``, and a table's resume time.

Run: ``python -m benchmarks.hall_load [--clients 2000] [--duration 60] [--think 1.0]``
(never from the tests). For each client count (``--clients 500,1000,2000`` runs several) it
starts ``sanh serve`` in a subprocess on a new SQLite database in a temporary directory (no
system or bot tables), runs ``sanh loadtest`` against it in another subprocess, and prints the
load tool's report with the server's CPU use and the machine's load average. Then, unless
``--no-restart``, it measures a restart under load: a short load runs, the server is killed
with SIGKILL mid-hand, started again on the same database, and the times are taken from the
new process's start to ``/healthz`` answering, and to a spectator of a table that was mid-hand
receiving that hand's view from the resumed table.

Every run is appended as one JSON line to ``--out`` (``benchmarks/results/hall_load.jsonl``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent
DEFAULT_OUT = ROOT / "results" / "hall_load.jsonl"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _loadavg() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])


class Server:
    """``sanh serve`` in a subprocess on a given database."""

    pythonpath: str | None = None
    """Run the server from another checkout (``--serve-pythonpath``, for before/after runs)."""

    def __init__(self, db: Path, log: Path, extra_env: dict[str, str] | None = None) -> None:
        self.db = db
        self.log = log
        self.port = _free_port()
        # Every load client is a guest from 127.0.0.1 that bets: no guest limit, the old grant.
        self.env = {
            **os.environ,
            "SANH_GUESTS_PER_HOUR": "1000000",
            "SANH_GUEST_GRANT": "10000000",
            **(extra_env or {}),
        }
        if Server.pythonpath:
            self.env["PYTHONPATH"] = Server.pythonpath
        self.process: subprocess.Popen[bytes] | None = None
        self.spawned_at = 0.0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60) -> float:
        """Start and wait for ``/healthz``; seconds from spawn to the first 200."""
        args = [sys.executable, "-m", "sanh", "serve", "--port", str(self.port)]
        args += ["--db", f"sqlite:///{self.db}", "--no-system-tables"]
        out = self.log.open("ab")
        self.spawned_at = time.monotonic()
        self.process = subprocess.Popen(args, stdout=out, stderr=out, env=self.env)
        out.close()
        deadline = self.spawned_at + timeout
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return time.monotonic() - self.spawned_at
            if self.process.poll() is not None:
                break
            time.sleep(0.01)
        raise RuntimeError("the hall did not start: " + self.log.read_text()[-3000:])

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()


def _loadtest(url: str, args: argparse.Namespace, clients: int, duration: float) -> list[str]:
    command = [sys.executable, "-m", "sanh", "loadtest", "--url", url, "--json"]
    command += ["--clients", str(clients), "--duration", str(duration), "--game", args.game]
    command += ["--think", str(args.think), "--procs", str(args.procs)]
    command += ["--warmup", str(args.warmup), "--stake", str(args.stake)]
    return command


def load_run(args: argparse.Namespace, clients: int, workdir: Path) -> dict[str, Any]:
    """One load test on a fresh server; the report with the server's figures."""
    server = Server(workdir / f"hall-{clients}.db", workdir / f"serve-{clients}.log")
    server.start()
    try:
        load_before = _loadavg()
        cpu_before = _cpu_seconds(server.pid)
        started = time.monotonic()
        samples: list[float] = []
        tool = subprocess.Popen(
            _loadtest(server.url, args, clients, args.duration),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        cpu_window: list[float] = []
        while tool.poll() is None:
            time.sleep(1.0)
            samples.append(_loadavg())
            cpu_window.append(_cpu_seconds(server.pid))
        out, err = tool.communicate()
        elapsed = time.monotonic() - started
        if tool.returncode != 0:
            raise RuntimeError(f"sanh loadtest failed: {err.decode()[-3000:]}")
        report: dict[str, Any] = json.loads(out.decode().strip().splitlines()[-1])
        cpu = _cpu_seconds(server.pid) - cpu_before
        # The measured window is the last duration(+0.5) seconds of the tool's run.
        window = int(args.duration)
        busy = None
        if len(cpu_window) > window + 2:
            busy = (cpu_window[-2] - cpu_window[-2 - window]) / window
        rate = report.get("actions_per_s") or 0
        report.update(
            {
                "server_cpu_s": round(cpu, 1),
                "server_cpu_busy_in_window": round(busy, 2) if busy is not None else None,
                "server_cpu_ms_per_action": round(1000 * busy / rate, 3)
                if busy is not None and rate
                else None,
                "server_rss_mb": round(_rss_mb(server.pid), 1),
                "tool_wall_s": round(elapsed, 1),
                "loadavg_before": load_before,
                "loadavg_max": max(samples, default=load_before),
                "loadavg_mean": round(sum(samples) / len(samples), 2) if samples else None,
            }
        )
        return report
    finally:
        server.stop()


async def _first_view(ws_url: str, token: str, table: str, timeout: float) -> float:
    """Seconds until a spectator of ``table`` gets an update with a hand's view (from the
    connection, through the hello and its welcome, to the view)."""
    from websockets.asyncio.client import connect

    from sanh.server.protocol import PROTOCOL_VERSION

    started = time.monotonic()
    async with connect(f"{ws_url}/ws", compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "token": token}))
        welcome = json.loads(await asyncio.wait_for(ws.recv(), timeout=timeout))
        if welcome.get("type") != "welcome":
            raise RuntimeError(f"the hello was refused: {welcome}")
        await ws.send(json.dumps({"type": "join", "table": table}))
        while True:
            raw = await asyncio.wait_for(ws.recv(), timeout=timeout)
            message = json.loads(raw)
            if message.get("type") == "table" and message.get("view"):
                return time.monotonic() - started


def _unfinished_tables(db: Path) -> list[str]:
    """Tables whose last hand was dealt and neither settled nor voided (oldest table first)."""
    with sqlite3.connect(db) as con:
        rows = con.execute(
            "SELECT e.table_id FROM table_events e JOIN hall_tables t ON t.id = e.table_id"
            " WHERE e.hand = (SELECT MAX(hand) FROM table_events WHERE table_id = e.table_id)"
            " GROUP BY e.table_id HAVING MAX(e.seq) < 1000000"
            ' AND SUM(e.payload LIKE \'%"type": "shuffle"%\') > 0'
            " ORDER BY MIN(t.created_at), e.table_id"
        ).fetchall()
    return [r[0] for r in rows]


def _wait_for_line(log: Path, marker: str, timeout: float, offset: int = 0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with log.open("rb") as f:
            f.seek(offset)
            text = f.read().decode(errors="replace")
        for line in text.splitlines()[::-1]:
            if line.startswith("{") and marker in line:
                found: dict[str, Any] = json.loads(line)
                return found
        time.sleep(0.01)
    return {}


def restart_run(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    """Kill the server with SIGKILL under load, restart it, and time the tables' resumption."""
    server = Server(workdir / "restart.db", workdir / "restart.log")
    server.start()
    clients = args.restart_clients
    tool = subprocess.Popen(
        _loadtest(server.url, args, clients, 600),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        # Let the hands get going, then kill the server in the middle of them.
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            time.sleep(1.0)
            with contextlib.suppress(httpx.HTTPError):
                tables = httpx.get(f"{server.url}/api/lobby", timeout=5).json()["tables"]
                busy = [t for t in tables if t["in_hand"] and t["hand"] >= 2]
                if len(busy) >= max(1, len(tables) // 2):
                    break
        time.sleep(2.0)
        server.kill()
    finally:
        tool.kill()
        tool.wait(30)
    unfinished = _unfinished_tables(server.db)
    marker = server.log.stat().st_size
    healthy_s = server.start()
    spawned = server.spawned_at
    first_view: float | None = None
    if unfinished:
        # A spectator of the most recently created table in mid-hand (the last one the
        # background restorer would reach): the join makes the table rebuild itself at once.
        guest = httpx.post(f"{server.url}/api/guest", json={"name": "watcher"}, timeout=10)
        ws_url = server.url.replace("http://", "ws://")
        asyncio.run(_first_view(ws_url, guest.json()["token"], unfinished[-1], 10))
        first_view = time.monotonic() - spawned
    restored = _wait_for_line(server.log, '"tables restored"', 120, marker)
    all_restored = time.monotonic() - spawned
    tables = httpx.get(f"{server.url}/api/lobby", timeout=10).json()["tables"]
    outcomes = restored.get("restored", {})
    server.stop()
    return {
        "kind": "restart",
        "clients_before_kill": clients,
        "tables": len(tables),
        "tables_mid_hand_at_kill": len(unfinished),
        "tables_resumed_mid_hand": sum(1 for v in outcomes.values() if v == "resumed"),
        "tables_voided": sum(1 for v in outcomes.values() if v == "voided"),
        "spawn_to_healthz_s": round(healthy_s, 3),
        "spawn_to_resumed_view_s": round(first_view, 3) if first_view is not None else None,
        "startup_to_all_restored_s": restored.get("resume_s"),
        "spawn_to_all_restored_s": round(all_restored, 3),
    }


def main() -> None:
    """Parse arguments, run, print and record."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", default="2000", help="comma-separated client counts")
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--procs", type=int, default=2, help="load tool processes")
    parser.add_argument("--game", default="tien-len")
    parser.add_argument("--stake", type=int, default=100)
    parser.add_argument("--restart-clients", type=int, default=2000)
    parser.add_argument("--no-restart", action="store_true")
    parser.add_argument("--no-load", action="store_true")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--keep", type=Path, help="keep the databases and server logs here")
    parser.add_argument(
        "--serve-pythonpath", help="run sanh serve from this source tree (the load tool stays)"
    )
    args = parser.parse_args()
    Server.pythonpath = args.serve_pythonpath
    args.out.parent.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="sanh-hall-load-") as tmp:
        workdir = Path(tmp)
        if args.keep is not None:
            args.keep.mkdir(parents=True, exist_ok=True)
            workdir = args.keep
        if not args.no_load:
            for count in (int(c) for c in args.clients.split(",")):
                report = load_run(args, count, workdir)
                report["kind"] = "load"
                rows.append(report)
                _print(report)
        if not args.no_restart:
            report = restart_run(args, workdir)
            rows.append(report)
            _print(report)
    with args.out.open("a") as out:
        for row in rows:
            out.write(json.dumps({"at": stamp, "cpus": os.cpu_count(), **row}) + "\n")


def _print(report: dict[str, Any]) -> None:
    print(f"--- {report.get('kind')}")
    for key, value in report.items():
        print(f"{key:>28}: {value}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
