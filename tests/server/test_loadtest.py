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

import pytest

from tests.server.conftest import HallProcess, free_port


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    path: Path = tmp_path_factory.mktemp("loadtest")
    process = HallProcess(path / "hall.db", free_port(), 1.0, log=path / "hall.log")
    process.start()
    yield process
    process.stop()


@pytest.mark.parametrize(
    ("game", "clients"),
    [("three-card-poker", 3), ("teen-patti-2020", 3), ("tien-len", 4)],
)
def test_loadtest_clients_send_only_allowed_actions(
    hall: HallProcess, game: str, clients: int
) -> None:
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
    report = json.loads(done.stdout)
    assert report["connected"] == clients == report["playing"]
    assert report["hands_completed"] >= 3, report
    assert report["actions_sent"] > 0
    assert report["refused"] == 0 and report["refusals"] == {}, report
    assert report["errors"] == {}, report
