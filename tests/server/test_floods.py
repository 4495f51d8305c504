"""One player cannot flood the hall with tables, and floods leave others' latency intact.

* The table limits (sanh/server/limits.py) over the real app on a manual clock
  (:class:`InProcessHall`): 60 ``POST /api/tables`` from one player at once create exactly
  ``tables_per_player`` tables (the rest 409 ``too_many_tables``, nothing built), or, with a
  larger cap, exactly ``tables_burst`` (the rest 429 ``tables_too_fast`` with
  ``Retry-After``); the rate refills on the clock; a table left to bots still counts, an
  empty one stops counting after its grace; ``add_bots`` over HTTP or the WebSocket never
  seats more bots than the table has seats.
* Latency under a flood, against ``sanh serve`` in a subprocess: a normal client's requests
  (``GET /api/me``, one at a time, from a thread of its own) keep a p95 under 100 ms while
  one player sends 60 table creations or one address 60 guest creations (8 streams from a
  process of their own, bounded to a few seconds). The flood is refused past the limits and
  creates nothing past them.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from sanh.server.settings import Settings
from tests.server.conftest import HallProcess, free_port
from tests.server.harness import InProcessHall, WsPlayer

FLOOD = 60
STREAMS = 8
P95_MS = 100.0
TABLE = {"game": "tien-len", "stake": 100, "seats": 4}


def _settings(**kw: Any) -> Settings:
    return Settings(bots_on_start=False, rate_per_second=1000, rate_burst=1000, **kw)


async def _flood(http: httpx.AsyncClient, url: str, token: str, n: int) -> list[httpx.Response]:
    headers = {"authorization": f"Bearer {token}"}
    return list(
        await asyncio.gather(*(http.post(url, json=TABLE, headers=headers) for _ in range(n)))
    )


def _hosted(hall: InProcessHall, player: str) -> list[Any]:
    assert hall.hall is not None
    return [a for a in hall.hall.tables.values() if a.spec.host == player]


def test_a_flood_of_tables_stops_at_the_open_tables_cap_and_bots_do_not_get_around_it(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        async with (
            InProcessHall(tmp_path / "hall.db", _settings()) as hall,
            httpx.AsyncClient(timeout=60) as http,
        ):
            host = await WsPlayer.guest(http, hall.url, "flooder", mode="idle")
            url = f"{hall.url}/api/tables"
            answers = await _flood(http, url, host.token, FLOOD)
            statuses = sorted(a.status_code for a in answers)
            assert statuses == [201] * 3 + [409] * (FLOOD - 3), statuses
            refused = next(a.json() for a in answers if a.status_code == 409)
            assert refused["error"] == "too_many_tables"
            assert refused["text"] == "too_many_tables:3"
            tables = _hosted(hall, host.player)
            assert len(tables) == 3, "nothing built past the cap"
            # Bots fill a table's own seats only, however many are asked for.
            headers = {"authorization": f"Bearer {host.token}"}
            bots = await http.post(
                f"{url}/{tables[0].id}/bots", json={"count": 10**6}, headers=headers
            )
            assert bots.status_code == 200 and bots.json()["seated"] == 4, bots.text
            await host.connect()
            await host.send({"type": "add_bots", "table": tables[1].id, "count": 2**62})
            while tables[1].seated == 0:
                await hall.settle()
                await asyncio.sleep(0.01)
            assert tables[1].seated == 4
            # After the grace an empty table stops counting; a table left to bots does not.
            await hall.advance(601)
            answers = await _flood(http, url, host.token, 10)
            assert sorted(a.status_code for a in answers) == [201] + [409] * 9
            assert len(_hosted(hall, host.player)) == 4
            # Another player is not limited by the flooder's tables.
            other = await WsPlayer.guest(http, hall.url, "other", mode="idle")
            mine = await http.post(
                url, json=TABLE, headers={"authorization": f"Bearer {other.token}"}
            )
            assert mine.status_code == 201, mine.text
            await host.close()

    asyncio.run(main())


def test_a_flood_of_tables_is_paced_by_the_creation_rate(tmp_path: Path) -> None:
    settings = _settings(tables_per_player=1000, tables_per_hour=20, tables_burst=5)

    async def main() -> None:
        async with (
            InProcessHall(tmp_path / "hall.db", settings) as hall,
            httpx.AsyncClient(timeout=60) as http,
        ):
            host = await WsPlayer.guest(http, hall.url, "flooder", mode="idle")
            url = f"{hall.url}/api/tables"
            answers = await _flood(http, url, host.token, FLOOD)
            assert sorted(a.status_code for a in answers) == [201] * 5 + [429] * (FLOOD - 5)
            refused = next(a for a in answers if a.status_code == 429)
            assert refused.json()["error"] == "tables_too_fast"
            assert refused.headers["retry-after"] == "180"  # one table each 3600 / 20 s
            assert refused.json()["text"] == "tables_too_fast:180"
            assert len(_hosted(hall, host.player)) == 5
            await hall.advance(180)
            answers = await _flood(http, url, host.token, 5)
            assert sorted(a.status_code for a in answers) == [201] + [429] * 4
            assert len(_hosted(hall, host.player)) == 6

    asyncio.run(main())


# ----- latency under a flood (a real server in a subprocess) ----------------------------------
class Prober:
    """A normal client: ``GET /api/me`` one at a time, from its own thread, until stopped."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url
        self.token = token
        self.samples: list[float] = []
        self.failures: list[int] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        headers = {"authorization": f"Bearer {self.token}"}
        with httpx.Client(base_url=self.url, timeout=30, headers=headers) as http:
            while not self._stop.is_set():
                began = time.perf_counter()
                response = http.get("/api/me")
                self.samples.append((time.perf_counter() - began) * 1000)
                if response.status_code != 200:
                    self.failures.append(response.status_code)
                self._stop.wait(0.01)

    def __enter__(self) -> Prober:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(30)

    def p95(self) -> float:
        return statistics.quantiles(self.samples, n=20)[-1]


FLOOD_SCRIPT = """
import asyncio, collections, json, sys
import httpx

url, path, headers, bodies, streams = json.loads(sys.argv[1])
statuses = collections.Counter()


async def stream():
    async with httpx.AsyncClient(base_url=url, timeout=30, headers=headers) as http:
        while bodies:
            body = bodies.pop()
            statuses[(await http.post(path, json=body)).status_code] += 1


async def main():
    await asyncio.gather(*(stream() for _ in range(streams)))


asyncio.run(main())
print(json.dumps(statuses))
"""
"""The flooder, in a process of its own (its HTTP work does not hold the prober's GIL)."""


def _streams(url: str, path: str, bodies: list[Any], headers: dict[str, str]) -> list[int]:
    """Send every body to ``path`` over :data:`STREAMS` parallel connections from another
    process (60 s at most); the statuses."""
    job = json.dumps([url, path, headers, bodies, STREAMS])
    done = subprocess.run(
        [sys.executable, "-c", FLOOD_SCRIPT, job],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    counts: dict[str, int] = json.loads(done.stdout)
    return [int(code) for code, n in counts.items() for _ in range(n)]


@pytest.fixture
def limited_hall(tmp_path: Path) -> Iterator[HallProcess]:
    """``sanh serve`` with the hall's default limits (not the test halls' lifted ones)."""
    hall = HallProcess(tmp_path / "hall.db", free_port(), 1.0, log=tmp_path / "hall.log")
    hall.env.update(
        SANH_GUESTS_PER_HOUR="20",
        SANH_TABLES_PER_PLAYER="3",
        SANH_TABLES_PER_HOUR="20",
        SANH_TABLES_BURST="5",
        SANH_ACCESS_LOG="false",
    )
    hall.start()
    yield hall
    hall.stop()


def _guest(url: str, name: str) -> dict[str, Any]:
    answer = httpx.post(f"{url}/api/guest", json={"name": name}, timeout=30)
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


@pytest.mark.parametrize("flood", ["tables", "guests"])
def test_a_bounded_flood_keeps_a_normal_clients_p95_under_100_ms(
    limited_hall: HallProcess, flood: str
) -> None:
    url = limited_hall.url
    normal = _guest(url, "normal")
    flooder = _guest(url, "flooder")
    with Prober(url, normal["token"]) as prober:
        time.sleep(0.5)  # a few samples before the flood
        began = time.monotonic()
        if flood == "tables":
            headers = {"authorization": f"Bearer {flooder['token']}"}
            statuses = _streams(url, "/api/tables", [TABLE] * FLOOD, headers)
            created, refused = statuses.count(201), statuses.count(409)
            assert (created, refused) == (3, FLOOD - 3), sorted(statuses)
        else:
            bodies = [{"name": f"flood {i}"} for i in range(FLOOD)]
            statuses = _streams(url, "/api/guest", bodies, {})
            created, refused = statuses.count(201), statuses.count(429)
            assert (created, refused) == (18, FLOOD - 18), sorted(statuses)  # 20 an hour
        elapsed = time.monotonic() - began
        time.sleep(0.3)
    assert elapsed < 30, f"the flood took {elapsed:.1f} s"
    assert not prober.failures, prober.failures
    assert len(prober.samples) >= 20, len(prober.samples)
    p95 = prober.p95()
    assert p95 < P95_MS, (
        f"{flood} flood ({elapsed:.2f} s): normal client p95 {p95:.1f} ms,"
        f" max {max(prober.samples):.1f} ms over {len(prober.samples)} requests"
    )
    tables = httpx.get(f"{url}/api/lobby", timeout=30).json()["tables"]
    hosted = [t for t in tables if t["host"] == flooder["player"]]
    assert len(hosted) == (3 if flood == "tables" else 0)
