"""Acknowledged means durable, and every recovered hand ends (issue 17, "Durability").

A real ``sanh serve`` is played by WebSocket clients (a Hold'em table and a Tiến lên table of
players only, a Liêng table of one player and two bots). The server is killed with SIGKILL five
times at random moments, each time restarted on the same database, and the clients come back.
Every message each client received is recorded; once the process is dead (what is in the
database is what survived), every ``ack`` must name an action the table's event log holds, at
the version the ack gave, and every view must show a state the log reaches. After the last
kill nobody comes back: every hand open at that kill must end (settled or voided) on its own
timers, restored players and bots included; then the books are audited. Once on SQLite and
once on PostgreSQL (skipped without a server, except under ``CI=true``).
"""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from sanh.ledger.store import open_store
from tests.ledger.conftest import drop_schema, require_postgres
from tests.server.conftest import HallProcess, free_port
from tests.server.harness import WsPlayer, events_by_hand

KILLS = 5
SCALE = 0.05
"""Timers at 1/20: a turn is 0.75 s."""
PROGRESS = 15.0
"""Seconds a recovered hand may go without a logged event: 20 turn timers, for a loaded
machine (each deadline that passes, and each bot's move, logs one)."""
TABLES: tuple[tuple[str, int, int], ...] = (
    ("texas-holdem", 3, 0),  # (game, players, bots)
    ("tien-len", 2, 0),
    ("lieng", 1, 2),
)


class DurableHall(HallProcess):
    """A hall on any database URL (SQLite file or PostgreSQL schema)."""

    url_of_db: str = ""

    @property
    def db_url(self) -> str:
        return self.url_of_db or super().db_url


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def durable_hall(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[DurableHall]:
    hall = DurableHall(
        tmp_path / "hall.db",
        free_port(),
        SCALE,
        log=tmp_path / "hall.log",
        env={
            "SANH_BETWEEN_HANDS": "1",
            "SANH_BOT_DELAY": "0.5",
            "SANH_BOT_SAMPLES": "20",
            "SANH_RECONNECT_GRACE": "200",
            "SANH_RATE_PER_SECOND": "1000",
            "SANH_RATE_BURST": "1000",
        },
    )
    schema = None
    base = ""
    if request.param == "postgresql":
        base = require_postgres()
        schema = f"durable_{uuid.uuid4().hex[:12]}"
        hall.url_of_db = f"{base}?schema={schema}"
    hall.start()
    try:
        yield hall
    finally:
        hall.stop()
        if schema is not None:
            drop_schema(base, schema)


def _log(db_url: str, table: str) -> dict[int, list[dict[str, Any]]]:
    """Every logged event of a table, by hand, in order (``seq`` added)."""
    store = open_store(db_url)
    try:
        with store.read() as tx:
            rows = tx.execute(
                "SELECT hand, seq, payload FROM table_events WHERE table_id = ? ORDER BY hand, seq",
                (table,),
            )
    finally:
        store.close()
    return events_by_hand(rows)


def _moves(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A hand's applied events in order: the ``n``-th led to state version ``n``."""
    return [e for e in events if e.get("kind") == "event"]


def _restarts(hall: HallProcess) -> int:
    assert hall.log is not None
    return sum(
        1
        for line in hall.log.read_text(errors="replace").splitlines()
        if line.startswith("{") and '"tables restored"' in line
    )


async def _wait(check: Any, timeout: float, what: str) -> None:
    """Poll ``check`` (a hang bound only: a busy machine is slow, never wrong)."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.2)


async def _join(clients: dict[str, list[WsPlayer]]) -> None:
    for table, players in clients.items():
        for player in players:
            await player.connect()
            await player.send({"type": "join", "table": table})
            await player.send({"type": "sit", "table": table})


async def _close(clients: dict[str, list[WsPlayer]]) -> None:
    for players in clients.values():
        for player in players:
            await player.close()


def _check_acknowledged(db_url: str, clients: dict[str, list[WsPlayer]]) -> tuple[int, int]:
    """Every ack and view received so far against the log; (acks, views) checked."""
    logs = {table: _log(db_url, table) for table in clients}
    acks = views = 0
    lost: list[str] = []
    for table, players in clients.items():
        for player in players:
            for message in player.messages:
                kind = message.get("type")
                if kind == "ack" and not message.get("duplicate"):
                    where = player._sent.get(message["nonce"])
                    if where is None:
                        continue
                    t, hand = where
                    action = player.sent_actions[message["nonce"]]
                    moves = _moves(logs[t].get(hand, []))
                    version = int(message["version"])
                    acks += 1
                    if len(moves) < version:
                        lost.append(f"{t} hand {hand} v{version}: {action} not in the log")
                        continue
                    logged = moves[version - 1]
                    if logged.get("type") != action.get("type") or logged.get("seat") != action.get(
                        "seat"
                    ):
                        lost.append(f"{t} hand {hand} v{version}: {action} logged as {logged}")
                elif kind == "table" and message.get("view") and message.get("table") == table:
                    views += 1
                    hand, version = int(message["hand"]), int(message["view"]["version"])
                    moves = _moves(logs[table].get(hand, []))
                    if len(moves) < version:
                        lost.append(f"{table} hand {hand}: a view at v{version}, log v{len(moves)}")
    assert not lost, lost
    return acks, views


def _last_hand(db_url: str, table: str) -> tuple[int, bool]:
    """The table's last hand and whether it ended (settled or voided)."""
    log = _log(db_url, table)
    if not log:
        return 0, True
    hand = max(log)
    return hand, any(e.get("kind") in {"settle", "void"} for e in log[hand])


def _ends(db_url: str, table: str, hand: int) -> int:
    return sum(1 for e in _log(db_url, table).get(hand, []) if e.get("kind") in {"settle", "void"})


def _open_holds(db_url: str) -> int:
    store = open_store(db_url)
    try:
        with store.read() as tx:
            rows = tx.execute(
                "SELECT COUNT(*) FROM transfers p WHERE p.kind = 'pending'"
                " AND NOT EXISTS (SELECT 1 FROM transfers r WHERE r.pending_id = p.id)"
            )
    finally:
        store.close()
    return int(rows[0][0])


async def _follow_to_the_end(db_url: str, hands: dict[str, int]) -> dict[str, float]:
    """Watch each table's open hand (polled every 0.1 s) from the restore until it ends;
    fail at once if it goes ``PROGRESS`` seconds without a new event. The longest gap seen
    per table."""
    seen = {table: len(_log(db_url, table).get(hand, [])) for table, hand in hands.items()}
    last = dict.fromkeys(hands, time.monotonic())
    longest = dict.fromkeys(hands, 0.0)
    left = dict(hands)
    while left:
        now = time.monotonic()
        for table, hand in list(left.items()):
            events = _log(db_url, table).get(hand, [])
            if len(events) > seen[table]:
                longest[table] = max(longest[table], now - last[table])
                seen[table], last[table] = len(events), now
            if any(e.get("kind") in {"settle", "void"} for e in events):
                del left[table]  # (the restore itself may have voided it)
            elif now - last[table] > PROGRESS:
                raise AssertionError(
                    f"hand {hand} of {table} went {now - last[table]:.1f} s without an event"
                    f" (its last: {events[-1] if events else None})"
                )
        await asyncio.sleep(0.1)
    return longest


async def _run(hall: DurableHall) -> dict[str, Any]:
    rnd = random.Random(17)
    clients: dict[str, list[WsPlayer]] = {}
    async with httpx.AsyncClient(timeout=30) as http:
        for index, (game, humans, bots) in enumerate(TABLES):
            players = [
                await WsPlayer.guest(http, hall.url, f"d{index}{k}", seed=index * 11 + k)
                for k in range(humans)
            ]
            response = await http.post(
                f"{hall.url}/api/tables",
                json={"game": game, "stake": 100, "seats": humans + bots, "bots": bots},
                headers={"authorization": f"Bearer {players[0].token}"},
            )
            assert response.status_code == 201, response.text
            clients[response.json()["id"]] = players
    await _join(clients)
    checked = (0, 0)
    open_at_last: dict[str, int] = {}
    for kill in range(KILLS):
        # Play until every table has dealt a hand since the (re)start, then a random moment.
        await _wait(
            lambda: all(p.of_type("table") for ps in clients.values() for p in ps), 60, "views"
        )
        await asyncio.sleep(rnd.uniform(1.0, 3.0))
        hall.kill()
        await _close(clients)
        checked = _check_acknowledged(hall.db_url, clients)
        if kill == KILLS - 1:
            for table in clients:
                hand, ended = _last_hand(hall.db_url, table)
                if not ended:
                    open_at_last[table] = hand
        seen = _restarts(hall)
        hall.start()
        await _wait(lambda s=seen: _restarts(hall) > s, 60, "the restore")
        if kill < KILLS - 1:
            await _join(clients)
    # Nobody comes back: every hand open at the last kill ends on its timers (restored
    # players get one turn timer, then their timeout default; the bots play on). Its
    # deadlines are kept: from the restore on, the hand never goes PROGRESS seconds without
    # a logged event (a turn timer is 0.75 s here, a bot's delay 0.5 s).
    gaps = await _follow_to_the_end(hall.db_url, open_at_last)
    for table, hand in open_at_last.items():
        assert _ends(hall.db_url, table, hand) == 1, (table, hand)
    # Wind down: the Liêng player comes back to send the bots away and leave.
    bot_table = next(t for t, ps in clients.items() if len(ps) == 1)
    host = clients[bot_table][0]
    await host.connect()
    await host.send({"type": "join", "table": bot_table})
    await host.send({"type": "remove_bots", "table": bot_table})
    await host.send({"type": "leave", "table": bot_table})
    await _wait(
        lambda: (
            all(_last_hand(hall.db_url, t)[1] for t in clients) and _open_holds(hall.db_url) == 0
        ),
        90,
        "every hand to end",
    )
    await host.close()
    return {"checked": checked, "open_at_last": open_at_last, "longest_gaps": gaps}


def test_every_ack_survives_five_sigkills_and_every_recovered_hand_ends(
    durable_hall: DurableHall,
) -> None:
    run = asyncio.run(_run(durable_hall))
    acks, views = run["checked"]
    print(f"\ndurability: {acks} acks and {views} views checked against the log; {run}")
    assert acks > 0 and views > 0
    durable_hall.stop()
    audit = subprocess.run(
        [sys.executable, "-m", "sanh", "audit", "--db", durable_hall.db_url, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert audit.returncode == 0, audit.stdout + audit.stderr
