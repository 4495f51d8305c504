"""A hold never outlives its hand (issue 11), through the real server over WebSocket.

For every registered game: a guest who leaves a hand under way, and one whose connection drops
in a hand under way, hold nothing for that hand once it has ended (settled or voided), and
``sanh audit`` (with its ``hold_past_hand`` check) finds the books clean. At Liêng, a player
who leaves mid-hand is out at once (seed 001: he loses what he put in): his hold is settled
while the others play on, and he can sit and bet at another table straight away.
"""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal

import pytest

from sanh.games import REGISTRY
from sanh.ledger.book import Ledger
from sanh.ledger.model import player_account
from tests.server.conftest import Client, HallProcess, free_port
from tests.server.test_e2e_games import audit, choose, seats_for

GAMES = sorted(REGISTRY)
HANG = 90.0
"""Seconds that only bound a hang (the hall plays on a 0.05 timer scale)."""


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[HallProcess]:
    """A hall whose guests may open house Tài Xỉu tables too (each test has its own)."""
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


def open_table(client: Client, game_id: str, seats: int | None = None) -> str:
    seats = seats_for(game_id) if seats is None else seats
    created = client.http(
        "POST",
        "/api/tables",
        json={"game": game_id, "stake": 100, "seats": seats, "bots": seats - 1},
    )
    assert created.status_code == 201, created.text
    table: str = created.json()["id"]
    return table


def act(client: Client, table: str, view: dict[str, Any], action: dict[str, Any]) -> str:
    nonce = uuid.uuid4().hex
    client.send(
        {
            "type": "act",
            "table": table,
            "nonce": nonce,
            "version": view["version"],
            "action": action,
        }
    )
    return nonce


def play_into_a_hand(client: Client, table: str, rnd: random.Random) -> int:
    """Play random legal actions until one is accepted in a hand; that hand's number."""
    sent: dict[str, int] = {}
    answered: set[tuple[int, int]] = set()
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        message = client.recv(timeout=HANG)
        kind = message["type"]
        if kind == "buyin_panel":
            client.send({"type": "buyin", "table": table, "amount": message["max"]})
        elif kind == "ack" and message["nonce"] in sent and not message["duplicate"]:
            return sent[message["nonce"]]
        elif kind == "table" and message.get("view") and not message["view"].get("terminal"):
            view, hand = message["view"], int(message["hand"])
            if (hand, view["version"]) in answered:
                continue
            action = choose(view, rnd)
            if action is not None:
                answered.add((hand, view["version"]))
                sent[act(client, table, view, action)] = hand
    raise TimeoutError("no action of the player was accepted")


def hand_end(hall: HallProcess, table: str, hand: int) -> str:
    """Wait until the hand is settled or voided; which of the two."""
    ids = (f"{table}:h{hand}:settle", f"{table}:h{hand}:void")
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        with Ledger.open(hall.db_url) as ledger:
            for batch_id in ids:
                if ledger.batch_exists(batch_id):
                    return batch_id.rsplit(":", 1)[1]
        time.sleep(0.1)
    raise TimeoutError(f"{table} hand {hand} never ended")


def open_holds_of(hall: HallProcess, table: str, hand: int, player: str) -> list[str]:
    prefix = f"{table}:h{hand}:hold:"
    with Ledger.open(hall.db_url) as ledger:
        return [
            h.id
            for h in ledger.open_holds()
            if h.id.startswith(prefix) and h.id[len(prefix) :].split(":", 1)[0] == player
        ]


def leave_mid_hand(hall: HallProcess, game_id: str, how: Literal["leave", "drop"]) -> None:
    client = Client.guest(hall, name=f"{how}-{game_id}")
    table = open_table(client, game_id)
    client.connect()
    client.send({"type": "join", "table": table})
    client.send({"type": "sit", "table": table})
    hand = play_into_a_hand(client, table, random.Random(f"{game_id}/{how}"))
    if how == "leave":
        client.send({"type": "leave", "table": table})
        # The leave is answered (deferred to the hand's end, or done) before the drop.
        deadline = time.monotonic() + HANG
        while client.recv(timeout=max(deadline - time.monotonic(), 0.001))["type"] not in {
            "leave_pending",
            "left",
        }:
            pass
    client.close()
    hand_end(hall, table, hand)
    assert open_holds_of(hall, table, hand, client.player) == [], (game_id, how, hand)


@pytest.mark.parametrize("game_id", GAMES)
def test_no_hold_outlives_a_hand_left_or_dropped(hall: HallProcess, game_id: str) -> None:
    """Leaving and disconnecting mid-hand, at two tables of the game at once."""
    with ThreadPoolExecutor(2) as pool:
        for done in [pool.submit(leave_mid_hand, hall, game_id, how) for how in ("leave", "drop")]:
            done.result()
    hall.stop()
    report = audit(hall)
    assert report["ok"] is True, report["discrepancies"]


def test_a_liêng_leaver_is_released_at_once_and_bets_elsewhere(hall: HallProcess) -> None:
    """The leaver's fold is final: what he put in is posted and the rest of his wallet is
    free while the bots play the hand out; he sits at another table and bets there."""
    client = Client.guest(hall, name="leaver")
    with Ledger.open(hall.db_url) as ledger:
        start = ledger.balance(player_account(int(client.player)))
    first = open_table(client, "lieng", 4)
    client.connect()
    client.send({"type": "join", "table": first})
    client.send({"type": "sit", "table": first})
    # Leave on the player's own turn, so that the fold is applied by the leave itself.
    deadline = time.monotonic() + HANG
    while True:
        assert time.monotonic() < deadline, "the player never had a turn"
        message = client.recv(timeout=HANG)
        view = message.get("view") if message["type"] == "table" else None
        if view and not view.get("terminal") and view.get("legal_actions"):
            hand = int(message["hand"])
            break
    held_at_leave = start - ledger_balance(hall, client.player)
    assert held_at_leave > 0  # the whole hand's commitment was held
    client.send({"type": "leave", "table": first})
    out = f"{first}:h{hand}:out:{client.player}:0"
    wait_for_transfer(hall, out)
    assert open_holds_of(hall, first, hand, client.player) == []
    balance = ledger_balance(hall, client.player)
    with Ledger.open(hall.db_url) as ledger:
        posted = ledger.get_transfer(out)
    assert posted is not None
    assert balance == start - posted.amount  # only what he put in is gone
    # At once, at another table: sit and have a bet accepted.
    second = open_table(client, "lieng", 3)
    client.send({"type": "join", "table": second})
    client.send({"type": "sit", "table": second})
    rnd = random.Random(3)
    nonces: set[str] = set()
    deadline = time.monotonic() + HANG
    while True:
        assert time.monotonic() < deadline, "no bet accepted at the second table"
        message = client.recv(timeout=HANG)
        if message["type"] == "error":
            assert message.get("text") not in {"seat_needs_multiple", "not_enough_gold"}, message
        if message["type"] == "ack" and message["nonce"] in nonces:
            break
        view = message.get("view") if message["type"] == "table" else None
        if message.get("table") == second and view and not view.get("terminal"):
            action = choose(view, rnd)
            if action is not None:
                nonces.add(act(client, second, view, action))
    client.close()
    # The first hand's settlement counts the posted loss as paid: nothing charged twice.
    assert hand_end(hall, first, hand) == "settle"
    with Ledger.open(hall.db_url) as ledger, ledger.store.read() as tx:
        (net,) = tx.execute(
            "SELECT net FROM hand_players WHERE player_id = ? AND hand_id = ?",
            (int(client.player), f"{first}:{hand}"),
        )[0]
    assert net == -posted.amount
    hall.stop()
    report = audit(hall)
    assert report["ok"] is True, report["discrepancies"]


def ledger_balance(hall: HallProcess, player: str) -> int:
    """The wallet's available gold (holds excluded)."""
    with Ledger.open(hall.db_url) as ledger:
        account = ledger.account(player_account(int(player)))
        assert account is not None
        return int(account.available)


def wait_for_transfer(hall: HallProcess, transfer_id: str) -> None:
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        with Ledger.open(hall.db_url) as ledger:
            if ledger.get_transfer(transfer_id) is not None:
                return
        time.sleep(0.05)
    raise TimeoutError(f"no transfer {transfer_id}")
