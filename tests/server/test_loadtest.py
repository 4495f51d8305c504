"""``sanh loadtest`` against a real hall: its clients send only what their views allow.

The hall runs as a subprocess (``sanh serve``) with the rule texts' own timers (scale 1), so no
clock closes a window while the clients play: each table is full (``--seats`` = ``--clients``),
so a betting window closes as soon as every client is done, and a turn is answered at once.
Each run stops after a few hands (``--hands``; ``--duration`` only bounds a hang). A refused
action would mean a client acted on a view that did not allow it (before this fix, a view sent
for another seat's action while the client's own was in flight: 63 of 83 actions were refused
as ``not_your_turn``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.conftest import HallProcess, free_port


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    path: Path = tmp_path_factory.mktemp("loadtest")
    process = HallProcess(path / "hall.db", free_port(), 1.0, log=path / "hall.log")
    process.start()
    yield process
    process.stop()


def _loadtest(hall: HallProcess, game: str, clients: int) -> dict[str, Any]:
    command = [
        sys.executable,
        "-m",
        "sanh",
        "loadtest",
        "--url",
        hall.url,
        "--game",
        game,
        "--clients",
        str(clients),
        "--seats",
        str(clients),
        "--hands",
        "3",
        "--duration",
        "120",
        "--warmup",
        "0",
        "--json",
    ]
    done = subprocess.run(command, capture_output=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    report: dict[str, Any] = json.loads(done.stdout)
    return report


@pytest.mark.parametrize(
    ("game", "clients"),
    [("three-card-poker", 3), ("teen-patti-2020", 3), ("tien-len", 4)],
)
def test_loadtest_clients_send_only_allowed_actions(
    hall: HallProcess, game: str, clients: int
) -> None:
    report = _loadtest(hall, game, clients)
    assert report["connected"] == clients == report["playing"]
    assert report["hands_completed"] >= 3, report
    assert report["actions_sent"] > 0
    assert report["refused"] == 0 and report["refusals"] == {}, report
    assert report["errors"] == {}, report


def test_loadtest_tai_xiu_plays_at_the_halls_system_table(tmp_path: Path) -> None:
    """Seed 001: the one house-banked Tài Xỉu table is the hall's own, so ``--game tai-xiu``
    seats its clients at ``tai-xiu-system`` (the hall refuses to create another).

    That table has empty seats (50 seats, a few bots, 3 clients), so its betting window does
    not close when the clients are done but on the clock (``taixiu.betting_s``, here scaled to
    6 s): a client still betting when the clock closes a window may have a bet in flight then,
    refused as ``illegal_action:betting_closed`` (the window closed) or ``no_hand:no_hand_for_you``
    (the dice were rolled and the hand ended too). Those are the only refusals allowed (with the
    rule texts' 30 s, scale 1, a run saw none, but took two minutes for three hands)."""
    hall = HallProcess(tmp_path / "hall.db", free_port(), 0.2, log=tmp_path / "hall.log")
    hall.start(system_tables=True)
    try:
        report = _loadtest(hall, "tai-xiu", 3)
        assert report["connected"] == 3 == report["playing"]
        assert report["hands_completed"] >= 3, report
        assert report["actions_sent"] > report["refused"]
        closed = {"illegal_action:betting_closed", "no_hand:no_hand_for_you"}
        assert set(report["refusals"]) <= closed, report
        assert set(report["errors"]) <= {"illegal_action", "no_hand"}, report
        assert sum(report["errors"].values()) == report["refused"], report
        lobby = httpx.get(f"{hall.url}/api/lobby", params={"game": "tai-xiu"}).json()
        assert [t["id"] for t in lobby["tables"]] == ["tai-xiu-system"]
    finally:
        hall.stop()
