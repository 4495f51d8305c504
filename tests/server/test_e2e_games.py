"""End to end over real WebSocket connections: every registered game, a player and bots.

A guest creates a table of the game with bots in the other seats, sits, answers the buy-in
panel, and plays random legal actions from its own view until hands have been settled. Then
the database must show that the player's gold changed by exactly the settlements it took part
in, and ``sanh audit`` must find the ledger clean.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
import uuid
from typing import Any

import pytest

from sanh.games import REGISTRY
from sanh.ledger.book import Ledger
from sanh.ledger.model import player_account
from tests.server.conftest import Client, HallProcess

GAMES = sorted(REGISTRY)
HANDS = 2


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


def play_hands(client: Client, table: str, hands: int, rnd: random.Random) -> list[dict[str, Any]]:
    """Play until ``hands`` results arrive; returns the result messages."""
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
            mine.append(settlement["deltas"][result["seats"].index(client.player)])
    client.send({"type": "leave", "table": table})
    time.sleep(0.3)
    client.close()
    time.sleep(0.5)
    assert net_of(hall, client.player) == sum(mine) or len(mine) < len(results)
    hall.stop()
    assert gold_of(hall, client.player) == start + net_of(hall, client.player)
    report = audit(hall)
    assert report["ok"] is True
