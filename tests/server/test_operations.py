"""Operations that fail loudly and honestly, through real ``sanh serve`` processes.

A bad or unknown setting is one line and exit status 2; a port in use is one line and a
non-zero exit before the database is opened; a second hall on a database that a hall serves
exits non-zero without touching a table (SQLite's lock file, PostgreSQL's advisory lock); the
access log is JSON with the request's fields; ``/metrics`` has the process' metrics.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from sanh.server.dblock import HallLockBusy, hall_lock
from tests.ledger.conftest import drop_schema, require_postgres
from tests.server.conftest import Client, HallProcess, free_port

START_TIMEOUT = 60.0
"""Bounds a hang only: a refused start exits long before."""


def serve(
    directory: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``sanh serve`` to its end (it must refuse to start); its status and output."""
    return subprocess.run(
        [sys.executable, "-m", "sanh", "serve", *args],
        cwd=directory,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT,
        check=False,
    )


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    """The single line a refused start printed (and nothing else, no traceback)."""
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("sanh serve: "), lines
    assert "the hall is on" not in lines[0]
    return lines[0]


def snapshot(directory: Path) -> dict[str, str]:
    """Every file of a directory and a digest of its bytes."""
    return {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(directory.iterdir())
        if path.is_file()
    }


def current_update(client: Client, table_id: str, hand: int) -> dict[str, Any]:
    """The table's state sent to a (re)joining client: the first update of ``hand`` (older
    updates still queued are skipped)."""
    client.send({"type": "join", "table": table_id})
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        update = client.until("table")
        if update["hand"] >= hand:
            return update
    raise TimeoutError("no update of the hand")


def hand_in_play(hall: HallProcess) -> tuple[list[Client], str, int]:
    """Two players at a Tiến lên table whose hand is dealt and waiting for a move."""
    players = [Client.guest(hall, f"p{i}") for i in range(2)]
    table = players[0].http("POST", "/api/tables", json={"game": "tien-len", "stake": 100})
    table_id = table.json()["id"]
    for client in players:
        client.connect()
        client.send({"type": "join", "table": table_id})
        client.send({"type": "sit", "table": table_id})
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        update = players[0].until("table")
        if update["view"] and update["view"]["to_act"]:
            return players, table_id, int(update["hand"])
    raise TimeoutError("no hand was dealt")


# ----- settings ------------------------------------------------------------------------------
BAD_VALUES = [
    pytest.param(["--port", "eighty"], {}, "", "port", id="flag"),
    pytest.param(["--set", "turn_timer=fast"], {}, "", "turn_timer", id="set"),
    pytest.param([], {"SANH_RATE_BURST": "-3"}, "", "rate_burst", id="env-range"),
    pytest.param([], {"SANH_REVEAL_SEEDS": "everyone"}, "", "reveal_seeds", id="env-choice"),
    pytest.param([], {"SANH_AOF_ENABLED": "maybe"}, "", "aof_enabled", id="env-bool"),
    pytest.param([], {}, 'lock_wait = "soon"\n', "lock_wait", id="file"),
    pytest.param(["--db", "mysql://hall"], {}, "", "db", id="db-url"),
]


@pytest.mark.parametrize(("args", "env", "toml", "name"), BAD_VALUES)
def test_a_bad_setting_is_one_line_naming_it_and_exit_status_2(
    tmp_path: Path, args: list[str], env: dict[str, str], toml: str, name: str
) -> None:
    if toml:
        (tmp_path / "sanh.toml").write_text("[server]\n" + toml)
    done = serve(tmp_path, "--db", f"sqlite:///{tmp_path / 'hall.db'}", *args, env=env)
    assert done.returncode == 2
    line = one_line(done)
    assert f"setting {name} " in line
    assert not (tmp_path / "hall.db").exists(), "nothing opened"


UNKNOWN_KEYS = [
    pytest.param([], {"SANH_TURN_TIMR": "9"}, "", "turn_timr", id="env"),
    pytest.param(["--set", "colour=red"], {}, "", "colour", id="set"),
    pytest.param([], {}, "[server]\nbogus = 1\n", "bogus", id="file"),
    pytest.param([], {}, "[servr]\nport = 1\n", "servr", id="file-misspelt-table"),
]


@pytest.mark.parametrize(("args", "env", "toml", "name"), UNKNOWN_KEYS)
def test_an_unknown_setting_is_one_line_naming_it_and_exit_status_2(
    tmp_path: Path, args: list[str], env: dict[str, str], toml: str, name: str
) -> None:
    if toml:
        (tmp_path / "sanh.toml").write_text(toml)
    done = serve(tmp_path, "--db", f"sqlite:///{tmp_path / 'hall.db'}", *args, env=env)
    assert done.returncode == 2
    line = one_line(done)
    assert f"unknown setting {name} " in line
    assert not (tmp_path / "hall.db").exists()


def test_a_settings_file_named_but_missing_is_exit_status_2(tmp_path: Path) -> None:
    done = serve(tmp_path, "--config", str(tmp_path / "nowhere.toml"))
    assert done.returncode == 2
    assert "nowhere.toml: not found" in one_line(done)


def test_the_tools_own_variables_are_not_settings(tmp_path: Path) -> None:
    """``SANH_TEST_*``, ``SANH_SHARED``... pass (settings.FOREIGN_ENV); the start goes on to the
    port, which is taken here, so it stops there with that line."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {"SANH_TEST_ANYTHING": "1", "SANH_SHARED": "/nowhere", "SANH_EVAL_THREADS": "1"}
        done = serve(tmp_path, "--port", str(port), env=env)
    assert done.returncode == 1
    assert "Address already in use" in one_line(done)


# ----- the socket first ---------------------------------------------------------------------
def test_a_port_in_use_is_one_line_before_the_database_is_touched(hall: HallProcess) -> None:
    """A hall killed mid-hand leaves a table to restore; a start on a taken port fails on the
    port, and every byte of the database (and its lock file) stays as it was."""
    players, _, _ = hand_in_play(hall)
    hall.kill()
    for client in players:
        client.close()
    before = snapshot(hall.db.parent)
    assert "hall.db" in before and "hall.db.lock" in before
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = serve(hall.db.parent, "--port", str(port), "--db", hall.db_url)
    assert done.returncode == 1
    assert one_line(done) == (
        f"sanh serve: cannot listen on 127.0.0.1:{port}: Address already in use"
    )
    assert snapshot(hall.db.parent) == {**before, "hall.log": snapshot(hall.db.parent)["hall.log"]}


def test_port_0_listens_on_a_free_port_and_says_which(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'hall.db'}"
    process = subprocess.Popen(
        [sys.executable, "-m", "sanh", "serve", "--port", "0", "--no-system-tables", "--db", db],
        cwd=tmp_path,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stderr is not None
        announced = ""
        for line in process.stderr:  # the line comes once the socket is bound
            if line.startswith("sanh: the hall is on "):
                announced = line.split()[-1]
                break
        port = int(announced.rsplit(":", 1)[1])
        assert port > 0
        assert httpx.get(f"{announced}/healthz", timeout=10).json()["ok"] is True
    finally:
        process.terminate()
        process.wait(30)
        if process.stderr is not None:
            process.stderr.close()


# ----- one hall per database ------------------------------------------------------------------
def test_a_second_hall_on_the_same_sqlite_database_exits_and_the_first_plays_on(
    hall: HallProcess,
) -> None:
    players, table_id, hand = hand_in_play(hall)
    assert hall.process is not None
    done = serve(
        hall.db.parent,
        *("--port", str(free_port()), "--db", hall.db_url, "--set", "lock_wait=0"),
    )
    assert done.returncode == 1
    line = one_line(done)
    assert "another hall holds the database" in line
    assert f"pid={hall.process.pid} " in line, "the holder is named"
    # The first hall's hand goes on: its table answers, and nothing was voided.
    update: dict[str, Any] = current_update(players[1], table_id, hand)
    assert update["hand"] == hand and update["view"] is not None
    assert not update["view"]["terminal"]
    with contextlib.closing(sqlite3.connect(hall.db, timeout=30)) as db:
        kinds = [
            json.loads(payload)["kind"]
            for (payload,) in db.execute(
                "SELECT payload FROM table_events WHERE table_id = ?", (table_id,)
            )
        ]
    assert "open" in kinds and "void" not in kinds
    for client in players:
        client.close()


@pytest.fixture
def postgres_url() -> Iterator[str]:
    base = require_postgres()
    schema = f"ops_{uuid.uuid4().hex[:12]}"
    yield f"{base}?schema={schema}"
    drop_schema(base, schema)


class PgHall(HallProcess):
    """A hall over a PostgreSQL schema."""

    pg_url: str = ""

    @property
    def db_url(self) -> str:
        return self.pg_url


@pytest.mark.postgres
def test_a_second_hall_on_the_same_postgres_schema_exits_and_the_first_plays_on(
    tmp_path: Path, postgres_url: str
) -> None:
    import psycopg

    hall = PgHall(tmp_path / "unused.db", free_port(), 0.05, log=tmp_path / "hall.log")
    hall.pg_url = postgres_url
    hall.start()
    try:
        players, table_id, hand = hand_in_play(hall)
        assert hall.process is not None
        done = serve(
            tmp_path, "--port", str(free_port()), "--db", postgres_url, "--set", "lock_wait=0"
        )
        assert done.returncode == 1
        line = one_line(done)
        assert "another hall holds the database (advisory lock" in line
        assert f"pid={hall.process.pid} " in line, "the holder is named"
        update: dict[str, Any] = current_update(players[1], table_id, hand)
        assert update["hand"] == hand and not update["view"]["terminal"]
        base, schema = postgres_url.split("?schema=")
        with psycopg.connect(base) as db:
            rows = db.execute(
                f"SELECT payload FROM {schema}.table_events WHERE table_id = %s", (table_id,)
            ).fetchall()
        kinds = [json.loads(payload)["kind"] for (payload,) in rows]
        assert "open" in kinds and "void" not in kinds
        for client in players:
            client.close()
    finally:
        hall.stop()


# ----- logs and metrics ------------------------------------------------------------------------
def test_the_access_log_is_json_with_the_request_fields(hall: HallProcess) -> None:
    response = httpx.get(f"{hall.url}/healthz", headers={"X-Request-ID": "ops-check-1"})
    assert response.headers["x-request-id"] == "ops-check-1"
    fresh = httpx.get(f"{hall.url}/api/lobby?token=secret")
    made = fresh.headers["x-request-id"]
    assert len(made) == 32
    assert hall.log is not None
    deadline = time.monotonic() + START_TIMEOUT
    entries: dict[str, dict[str, object]] = {}
    while len(entries) < 2 and time.monotonic() < deadline:
        text = hall.log.read_text()
        for line in text.splitlines():
            if line.startswith("{"):
                data = json.loads(line)
                if data.get("logger") == "sanh.access":
                    entries[str(data["request_id"])] = data
        entries = {k: v for k, v in entries.items() if k in {"ops-check-1", made}}
        time.sleep(0.05)
    checked = entries["ops-check-1"]
    assert (checked["method"], checked["path"], checked["status"]) == ("GET", "/healthz", 200)
    assert isinstance(checked["duration_ms"], float) and checked["duration_ms"] >= 0
    assert entries[made]["path"] == "/api/lobby", "the path without its query"
    text = hall.log.read_text()
    assert "\x1b" not in text, "no terminal escapes in the JSON log"
    assert "secret" not in text
    for line in text.splitlines():  # the log, after the one line saying where the hall is
        if not line.startswith("sanh: the hall is on "):
            assert line.startswith("{") and json.loads(line), line


def test_metrics_come_with_the_process_metrics(hall: HallProcess) -> None:
    response = httpx.get(f"{hall.url}/metrics")
    assert response.headers["content-type"].startswith("text/plain")
    values = {
        line.split(" ")[0]: float(line.rsplit(" ", 1)[1])
        for line in response.text.splitlines()
        if line and not line.startswith("#")
    }
    assert values["process_resident_memory_bytes"] > 0
    assert values["process_start_time_seconds"] > 0
    assert "process_cpu_seconds_total" in values and "process_open_fds" in values
    assert any(name.startswith("python_info") for name in values)
    assert values["sanh_tables"] == 0 and values["sanh_connections"] == 0
    assert "# TYPE sanh_command_seconds histogram" in response.text


# ----- the lock's wait, on a manual clock ------------------------------------------------------
def test_a_hall_lock_waits_for_its_holder_up_to_lock_wait(tmp_path: Path) -> None:
    """The second taker polls while the clock is within ``wait``: the holder letting go in
    that time hands it over; a holder that stays makes it give up, naming the holder."""
    url = f"sqlite:///{tmp_path / 'hall.db'}"
    now = [0.0]

    def clock() -> float:
        return now[0]

    first = hall_lock(url, wait=0, port=1234)
    naps: list[float] = []

    def let_go_while_waiting(seconds: float) -> None:
        naps.append(seconds)
        now[0] += seconds
        if len(naps) == 3:
            first.release()

    second = hall_lock(url, wait=3, port=5678, clock=clock, sleep=let_go_while_waiting)
    assert len(naps) == 3, "it waited for the first to let go"
    assert f"pid={os.getpid()} " in (tmp_path / "hall.db.lock").read_text()
    assert "port=5678" in (tmp_path / "hall.db.lock").read_text()

    def stay(seconds: float) -> None:
        now[0] += seconds

    now[0] = 100.0
    with pytest.raises(HallLockBusy, match=r"hall\.db\.lock: sanh serve pid=\d+ .*port=5678"):
        hall_lock(url, wait=1, clock=clock, sleep=stay)
    assert now[0] >= 101.0, "it gave up only once lock_wait had passed on its clock"
    second.release()
    hall_lock(url, wait=0).release()


def test_an_in_memory_database_needs_no_lock() -> None:
    with hall_lock("sqlite:///:memory:", wait=0) as lock:
        assert "no lock" in lock.description
