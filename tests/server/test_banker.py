"""Nobody becomes the banker by accident (issue 11), over WebSocket through the real server.

At a player-hosted Tài Xỉu table the bank is a seated player who asked for it (``host`` with
an amount of their balance, RULES.md §5.7). Sitting never makes anyone the banker; without one
the table's betting is closed (``status: waiting_for_host``); the banker leaving voids the
round under way (every bet refunded), and the next player to sit is not made the banker.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sanh.ledger.book import Ledger
from sanh.ledger.model import player_account
from tests.server.conftest import Client, HallProcess, free_port

HANG = 60.0
"""Seconds that only bound a hang."""
GOLD = 100


def available(hall: HallProcess, player: str) -> int:
    with Ledger.open(hall.db_url) as ledger:
        account = ledger.account(player_account(int(player)))
        assert account is not None
        return int(account.available)


def until(client: Client, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    deadline = time.monotonic() + HANG
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "no such message"
        message = client.recv(timeout=left)
        if test(message):
            return message


def table_update(table: str) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == "table" and m["table"] == table


def last_update(client: Client, table: str) -> dict[str, Any]:
    return [m for m in client.received if table_update(table)(m)][-1]


def seated(hall: HallProcess, name: str, table: str) -> Client:
    client = Client.guest(hall, name=name)
    client.connect()
    client.send({"type": "join", "table": table})
    client.send({"type": "sit", "table": table})
    until(client, lambda m: m["type"] == "table" and m.get("your_seat") is not None)
    return client


def test_the_banker_is_who_asks_with_the_amount_they_choose(hall: HallProcess) -> None:
    owner = Client.guest(hall, name="owner")
    created = owner.http(
        "POST",
        "/api/tables",
        json={
            "game": "tai-xiu",
            "stake": 100,
            "seats": 4,
            "options": {"taixiu.table": "player", "taixiu.betting_s": 400},
        },
    )
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    bettor = seated(hall, "bettor", table)
    banker = seated(hall, "banker", table)
    start_bettor, start_banker = (available(hall, c.player) for c in (bettor, banker))
    # Nobody asked: no banker, betting closed, nothing held.
    update = last_update(banker, table)
    assert update["status"] == "waiting_for_host" and update["bank"] is None
    assert update["hand"] == 0 and update["view"] is None
    lobby = owner.http("GET", "/api/lobby").json()
    entry = next(t for t in lobby["tables"] if t["id"] == table)
    assert entry["waiting"] == "waiting_for_host"
    # A bank out of range is refused with its text code, and changes nothing.
    for amount in (100 * GOLD, start_banker + 1):
        banker.send({"type": "host", "table": table, "amount": amount})
        error = until(banker, lambda m: m["type"] == "error")
        assert error["code"] == "bad_amount" and error["text"].startswith("bank_between:")
    owner.connect()
    owner.send({"type": "host", "table": table, "amount": 1_000 * GOLD})
    error = until(owner, lambda m: m["type"] == "error")
    assert error["code"] == "not_seated" and error["text"] == "sit_down_first"
    # The banker steps up with 2,000 gold: a round opens with exactly that bank.
    bank = 2_000 * GOLD
    banker.send({"type": "host", "table": table, "amount": bank})
    view = until(bettor, lambda m: table_update(table)(m) and m.get("view") is not None)
    assert view["bank"] == bank and view["status"] is None
    assert view["view"]["bank_available"] == bank
    bettor.send({"type": "host", "table": table, "amount": bank})
    error = until(bettor, lambda m: m["type"] == "error")
    assert error["text"] == "bank_taken"
    # The bettor puts a chip on the table: it is held.
    ranges = view["view"]["amount_ranges"]
    action = dict(ranges[0]["action"])
    action[ranges[0]["field"]] = ranges[0]["min"]
    nonce = uuid.uuid4().hex
    bettor.send(
        {
            "type": "act",
            "table": table,
            "nonce": nonce,
            "version": view["view"]["version"],
            "action": action,
        }
    )
    until(bettor, lambda m: m["type"] == "ack" and m["nonce"] == nonce)
    assert available(hall, bettor.player) == start_bettor - ranges[0]["min"]
    hand = view["hand"]
    # The banker asks to leave mid-round: that is after the round (leave_pending)...
    banker.send({"type": "leave", "table": table})
    pending = until(banker, lambda m: m["type"] == "leave_pending")
    assert pending["pending"] is True
    # ...but leaving now, confirmed at its quote, voids the round: the chip comes back.
    banker.send({"type": "quote_leave", "table": table})
    quote = until(banker, lambda m: m["type"] == "leave_quote")
    banker.send({"type": "leave_now", "table": table, "quote_id": quote["quote_id"]})
    result = until(bettor, lambda m: m["type"] == "result" and m["hand"] == hand)
    assert result["voided_text"] == "void_no_host"
    assert available(hall, bettor.player) == start_bettor
    assert available(hall, banker.player) == start_banker
    update = until(bettor, lambda m: table_update(table)(m) and m["status"] is not None)
    assert update["status"] == "waiting_for_host"
    # A newcomer sits: he is a bettor-to-be, not the banker, and no round opens for him.
    newcomer = seated(hall, "newcomer", table)
    update = last_update(newcomer, table)
    assert update["status"] == "waiting_for_host" and update["bank"] is None
    with Ledger.open(hall.db_url) as ledger:
        assert [h for h in ledger.open_holds() if h.id.startswith(f"{table}:")] == []
    # He chooses to bank 1,500 gold: the next round has that bank.
    newcomer.send({"type": "host", "table": table, "amount": 1_500 * GOLD})
    view = until(newcomer, lambda m: table_update(table)(m) and m.get("view") is not None)
    assert view["hand"] == hand + 1 and view["bank"] == 1_500 * GOLD
    assert view["view"]["bank_available"] == 1_500 * GOLD
    for client in (owner, bettor, banker, newcomer):
        client.close()


def test_one_house_tai_xiu_table_the_halls_own(tmp_path: Path) -> None:
    """Seed 001: "chỉ có 1 bàn chơi duy nhất dành cho người chơi muốn chơi cùng hệ thống". The
    hall opens its house-banked Tài Xỉu table itself; players may create player-hosted ones
    only (``tai_xiu_system_table_only``): ``/api/games`` offers only that kind, and a table
    created without the option is one."""
    hall = HallProcess(tmp_path / "hall.db", free_port(), 0.05, log=tmp_path / "hall.log")
    hall.start(system_tables=True)
    try:
        player = Client.guest(hall)
        games = player.http("GET", "/api/games").json()["games"]
        tai_xiu = next(g for g in games if g["id"] == "tai-xiu")
        bank = next(o for o in tai_xiu["options"] if o["name"] == "taixiu.table")
        assert (bank["default"], bank["choices"]) == ("player", ["player"])
        refused = player.http(
            "POST",
            "/api/tables",
            json={
                "game": "tai-xiu",
                "stake": 100,
                "seats": 5,
                "options": {"taixiu.table": "system"},
            },
        )
        assert refused.status_code == 422, refused.text
        assert refused.json()["text"] == "tai_xiu_system_table_only"
        hosted = [
            player.http(
                "POST",
                "/api/tables",
                json={"game": "Tài Xỉu", "stake": 100, "seats": 5, "options": options},
            )
            for options in ({"taixiu.table": "player"}, {})
        ]
        for answer in hosted:
            assert answer.status_code == 201, answer.text
            assert answer.json()["options"]["taixiu.table"] == "player"
            assert answer.json()["waiting"] == "waiting_for_host"
        tables = player.http("GET", "/api/lobby").json()["tables"]
        house = [
            t
            for t in tables
            if t["game"] == "tai-xiu" and t["options"].get("taixiu.table", "system") != "player"
        ]
        assert [(t["id"], t["system"]) for t in house] == [("tai-xiu-system", True)]
        assert {a.json()["id"] for a in hosted} <= {t["id"] for t in tables}
    finally:
        hall.stop()
