"""End to end over real WebSocket connections: every registered game, a player and bots.

A guest creates a table of the game with bots in the other seats, sits, answers the buy-in
panel, and plays random legal actions from its own view until hands have been settled. Then
the database must show that the player's gold changed by exactly the settlements it took part
in, and ``sanh audit`` must find the ledger clean; and every message the server sent the player
must validate against the published JSON Schema of the protocol (docs/protocol.schema.json).
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from sanh.games import REGISTRY
from sanh.ledger.book import Ledger
from sanh.ledger.model import player_account
from tests.server.conftest import Client, HallProcess, free_port
from tests.server.protocol_schema import server_problems

GAMES = sorted(REGISTRY)
HANDS = 2


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[HallProcess]:
    """A hall whose guests may open house Tài Xỉu tables too (one per test)."""
    process = HallProcess(
        tmp_path / "hall.db",
        free_port(),
        0.05,
        log=tmp_path / "hall.log",
        env={"SANH_HOUSE_TAI_XIU_TABLES": "1"},
    )
    process.start()
    yield process
    process.stop()


def seats_for(game_id: str) -> int:
    info = REGISTRY[game_id].info
    return info.seats_min if info.banked else min(max(info.seats_min, 3), info.seats_max)


def choose(view: dict[str, Any], rnd: random.Random) -> dict[str, Any] | None:
    actions = list(view.get("legal_actions") or [])
    ranges = list(view.get("amount_ranges") or [])
    if not actions and not ranges:
        return None
    pick = rnd.randrange(len(actions) + len(ranges))
    if pick < len(actions):
        chosen: dict[str, Any] = actions[pick]
        return chosen
    amount_range = ranges[pick - len(actions)]
    action = dict(amount_range["action"])
    action[amount_range["field"]] = amount_range["min"]
    return action


def play_hands(
    client: Client,
    table: str,
    hands: int,
    rnd: random.Random,
    sent: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Play until ``hands`` results arrive; returns the result messages (and appends each
    action sent to ``sent``)."""
    results: list[dict[str, Any]] = []
    answered: set[int] = set()
    deadline = time.monotonic() + 60
    while len(results) < hands:
        if time.monotonic() > deadline:
            raise TimeoutError(f"only {len(results)} hands in 60 s")
        message = client.recv(timeout=30)
        kind = message["type"]
        if kind == "buyin_panel":
            client.send({"type": "buyin", "table": table, "amount": message["max"]})
        elif kind == "result":
            results.append(message)
        elif kind == "table" and message.get("view"):
            view = message["view"]
            if view["version"] in answered:
                continue
            action = choose(view, rnd)
            if action is not None:
                answered.add(view["version"])
                if sent is not None:
                    sent.append(action)
                client.send(
                    {
                        "type": "act",
                        "table": table,
                        "nonce": uuid.uuid4().hex,
                        "version": view["version"],
                        "action": action,
                    }
                )
    return results


def audit(hall: HallProcess) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "sanh", "audit", "--db", hall.db_url, "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    report: dict[str, Any] = json.loads(out.stdout)
    return report


def gold_of(hall: HallProcess, player: str) -> int:
    """Wallet plus every table stake of the player."""
    with Ledger.open(hall.db_url) as ledger:
        total = ledger.balance(player_account(int(player)))
        for account in ledger.accounts("stake:"):
            if account.id.endswith(f":{player}"):
                total += account.balance
        return total


def net_of(hall: HallProcess, player: str) -> int:
    with Ledger.open(hall.db_url) as ledger, ledger.store.read() as tx:
        rows = tx.execute("SELECT SUM(net) FROM hand_players WHERE player_id = ?", (int(player),))
    return int(rows[0][0] or 0)


def hand_net(hall: HallProcess, player: str, hand_id: str) -> int:
    with Ledger.open(hall.db_url) as ledger, ledger.store.read() as tx:
        rows = tx.execute(
            "SELECT net FROM hand_players WHERE player_id = ? AND hand_id = ?",
            (int(player), hand_id),
        )
    assert len(rows) == 1, f"{hand_id}: {rows}"
    return int(rows[0][0])


@pytest.mark.parametrize("game_id", GAMES)
def test_a_player_and_bots_play_full_hands(hall: HallProcess, game_id: str) -> None:
    client = Client.guest(hall)
    start = gold_of(hall, client.player)
    seats = seats_for(game_id)
    created = client.http(
        "POST",
        "/api/tables",
        json={"game": game_id, "stake": 100, "seats": seats, "bots": seats - 1},
    )
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    assert client.connect()["player"] == client.player
    client.send({"type": "join", "table": table})
    client.send({"type": "sit", "table": table})
    results = play_hands(client, table, HANDS, random.Random(game_id))
    mine = []
    for result in results:
        settlement = result["settlement"]
        assert (
            sum(settlement["deltas"])
            + settlement["house"]
            + settlement["fee"]
            + settlement["breakage"]
            + sum(settlement["clan_share"])
            == 0
        )
        if client.player in result["seats"]:
            mine.append(
                (result["hand"], settlement["deltas"][result["seats"].index(client.player)])
            )
    assert mine, "the player was in a settled hand"
    client.send({"type": "leave", "table": table})
    time.sleep(0.3)
    # Every message the server sent validates against the published schema
    # (docs/protocol.schema.json, generated from sanh/server/protocol.py).
    assert client.ws is not None
    with contextlib.suppress(TimeoutError):
        for _ in range(1000):  # what was already on its way (bounded: bots play on)
            client.recv(timeout=0.2)
    assert server_problems(client.received) == []
    assert {"welcome", "table", "result"} <= {m["type"] for m in client.received}
    client.close()
    time.sleep(0.5)
    # Every settlement the player was told of is exactly what the ledger's hand record holds
    # (a hand still under way when the player left settles later, unseen by this client).
    for hand, delta in mine:
        assert hand_net(hall, client.player, f"{table}:{hand}") == delta
    hall.stop()
    assert gold_of(hall, client.player) == start + net_of(hall, client.player)
    report = audit(hall)
    assert report["ok"] is True


PROMETHEUS_LINE = re.compile(
    r"^(# (HELP|TYPE) [a-z_]+ .+|[a-z_]+(\{[a-z]+=\"[^\"]*\"(,[a-z]+=\"[^\"]*\")*\})? -?[0-9.e+]+)$"
)


def test_metrics_count_what_happened_in_the_prometheus_text_format(hall: HallProcess) -> None:
    client = Client.guest(hall)
    created = client.http(
        "POST", "/api/tables", json={"game": "lieng", "stake": 100, "seats": 3, "bots": 2}
    )
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    client.connect()
    client.send({"type": "join", "table": table})
    client.send({"type": "sit", "table": table})
    # The player may not act in a hand (both bots fold before its turn): play until it has.
    sent: list[dict[str, Any]] = []
    rnd = random.Random(7)
    for _ in range(10):
        play_hands(client, table, 1, rnd, sent)
        if sent:
            break
    assert sent, "the player acted in one of ten hands"
    text = httpx.get(f"{hall.url}/metrics", timeout=10).text
    assert text.endswith("\n")
    values: dict[str, float] = {}
    for line in text.splitlines():
        assert PROMETHEUS_LINE.match(line), f"not the Prometheus text format: {line!r}"
        if not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            values[name] = float(value)
    assert values['sanh_hands_total{game="lieng"}'] >= 1
    assert values['sanh_hands_voided_total{game="lieng"}'] == 0
    assert values["sanh_connections"] >= 1
    assert values["sanh_messages_in_total"] >= 3 and values["sanh_messages_out_total"] >= 3
    assert values["sanh_actions_total"] >= 1
    assert values["sanh_eventlog_rows_total"] > 0 and values["sanh_eventlog_commits_total"] > 0
    count = values["sanh_command_seconds_count"]
    assert count >= 3, "join, sit and the actions were timed"
    assert values['sanh_command_seconds_bucket{le="+Inf"}'] == count
    buckets = [v for k, v in values.items() if k.startswith("sanh_command_seconds_bucket")]
    assert buckets == sorted(buckets), "cumulative buckets"
    client.close()
