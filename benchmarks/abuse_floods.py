"""Floods against the hall: a normal client's latency while one client abuses it (issue 17).

Run: ``.venv/bin/python -m benchmarks.abuse_floods [--base /tmp/abuse-base] [--rounds 1]``
(never from the tests). ``--base`` is a second checkout to compare with, typically ``main``'s
code (``git worktree add /tmp/abuse-base main``); without it only this checkout runs.

For each checkout and each flood it starts ``sanh serve`` from that checkout (its own
``sanh`` package first on ``PYTHONPATH``, this virtualenv's Python) on a new SQLite database
with the hall's default limits, signs a normal client in as a guest and has it send
``GET /api/me`` one at a time (10 ms apart) from a thread of its own, then runs the flood over
8 parallel connections:

* **log-ins**: 200 wrong-password log-ins to one registered account;
* **tables**: 60 ``POST /api/tables`` from one player;
* **guests**: 60 ``POST /api/guest`` from one address.

It prints one Markdown row per (flood, checkout): what the flood got (statuses), how long it
took, and the normal client's p50 / p95 / max latency during it, with the machine's load
average before the run. Results go in BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent.parent
STREAMS = 8
TABLE = {"game": "tien-len", "stake": 100, "seats": 4}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def serve(checkout: Path, workdir: Path) -> Iterator[str]:
    """``sanh serve`` from ``checkout`` on a new database; yields its URL."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SANH_")}
    env.update(PYTHONPATH=str(checkout), SANH_ACCESS_LOG="false", SANH_LOG_JSON="false")
    db = workdir / f"hall-{port}.db"
    log = (workdir / f"hall-{port}.log").open("wb")
    args = [sys.executable, "-m", "sanh", "serve", "--port", str(port), "--db", f"sqlite:///{db}"]
    process = subprocess.Popen(
        [*args, "--no-system-tables"], cwd=checkout, env=env, stdout=log, stderr=log
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError(f"the hall from {checkout} did not start")
            time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
        log.close()


class Prober:
    """The normal client: ``GET /api/me`` one at a time from its own thread."""

    def __init__(self, url: str, token: str) -> None:
        self.url, self.token = url, token
        self.samples: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        headers = {"authorization": f"Bearer {self.token}"}
        with httpx.Client(base_url=self.url, timeout=60, headers=headers) as http:
            while not self._stop.is_set():
                began = time.perf_counter()
                http.get("/api/me")
                self.samples.append((time.perf_counter() - began) * 1000)
                self._stop.wait(0.01)

    def __enter__(self) -> Prober:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(60)


async def _streams(
    url: str, path: str, bodies: list[Any], headers: dict[str, str]
) -> collections.Counter[int]:
    statuses: collections.Counter[int] = collections.Counter()
    todo = list(bodies)

    async def stream() -> None:
        async with httpx.AsyncClient(base_url=url, timeout=120, headers=headers) as http:
            while todo:
                body = todo.pop()
                statuses[(await http.post(path, json=body)).status_code] += 1

    await asyncio.gather(*(stream() for _ in range(STREAMS)))
    return statuses


def _guest(url: str, name: str) -> dict[str, Any]:
    answer = httpx.post(f"{url}/api/guest", json={"name": name}, timeout=60)
    answer.raise_for_status()
    data: dict[str, Any] = answer.json()
    return data


def run_flood(url: str, flood: str) -> dict[str, Any]:
    """One flood against a running hall, with the normal client probing."""
    normal = _guest(url, "normal")
    if flood == "log-ins":
        account = {"username": "victim", "password": "correct-horse-1"}
        httpx.post(f"{url}/api/register", json=account, timeout=60).raise_for_status()
        path, bodies, headers = "/api/login", [{**account, "password": "wrong"}] * 200, {}
    elif flood == "tables":
        token = _guest(url, "flooder")["token"]
        path, bodies = "/api/tables", [TABLE] * 60
        headers = {"authorization": f"Bearer {token}"}
    else:
        path, bodies, headers = "/api/guest", [{"name": f"g{i}"} for i in range(60)], {}
    load = os.getloadavg()[0]
    with Prober(url, normal["token"]) as prober:
        time.sleep(0.3)
        before = len(prober.samples)
        began = time.monotonic()
        statuses = asyncio.run(_streams(url, path, bodies, headers))
        elapsed = time.monotonic() - began
        during = prober.samples[before:]
    during = during or prober.samples
    return {
        "flood": flood,
        "statuses": dict(sorted(statuses.items())),
        "seconds": elapsed,
        "p50": statistics.median(during),
        "p95": statistics.quantiles(during, n=20)[-1] if len(during) >= 2 else during[0],
        "max": max(during),
        "samples": len(during),
        "load": load,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, help="a second checkout to compare (main's code)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--floods", default="log-ins,tables,guests")
    args = parser.parse_args(argv)
    checkouts = [("this branch", HERE)]
    if args.base is not None:
        checkouts.insert(0, ("base", args.base.resolve()))
    print("| flood | code | answers | flood s | normal p50 ms | p95 ms | max ms | load 1 min |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="sanh-floods-") as tmp:
        for _ in range(args.rounds):
            for flood in args.floods.split(","):
                for label, checkout in checkouts:
                    with serve(checkout, Path(tmp)) as url:
                        r = run_flood(url, flood)
                    answers = ", ".join(f"{n}×{code}" for code, n in r["statuses"].items())
                    print(
                        f"| {flood} | {label} | {answers} | {r['seconds']:.2f} |"
                        f" {r['p50']:.1f} | {r['p95']:.1f} | {r['max']:.1f} | {r['load']:.2f} |",
                        flush=True,
                    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
