"""The statement a player can follow (issue 12, item 8), through the real server on a manual
clock (see :mod:`tests.server.test_leaving` for the pattern).

- A hold is one line: ``pending`` while its hand is open, then ``settled`` (with the amount
  posted) or ``released``; the post or void that resolved it is not a line of its own.
- Every line's ``amount`` is what it did to the available balance and ``balance`` the
  available balance after it: going down the list each line's ``balance`` is the one above
  less that line's ``amount``, the newest line's is the balance ``/api/me`` shows, and all the
  lines of a wallet sum to it.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import httpx
import pytest

from sanh.ledger.model import player_account
from tests.server.harness import InProcessHall, WsPlayer
from tests.server.test_leaving import _balance, _deal, _guests, _of, _play_out, _run, _table


async def _statement(http: httpx.AsyncClient, hall: InProcessHall, player: WsPlayer) -> Any:
    got = await http.get(
        f"{hall.url}/api/statement?limit=500",
        headers={"authorization": f"Bearer {player.token}"},
    )
    got.raise_for_status()
    return got.json()


def _check_running_balance(statement: Any, shown: int) -> None:
    lines = statement["transfers"]
    assert statement["balance"] == shown
    assert lines and lines[0]["balance"] == shown
    for upper, lower in itertools.pairwise(lines):
        assert lower["balance"] == upper["balance"] - upper["amount"], (upper, lower)
    # The whole wallet is listed (limit 500): its lines sum to the balance, the oldest line
    # starts from nothing.
    assert sum(line["amount"] for line in lines) == shown
    assert lines[-1]["balance"] == lines[-1]["amount"]
    for line in lines:
        assert line["kind"] in {"single", "pending"}, line
        assert line["status"] in {"done", "pending", "settled", "released"}, line
        if line["kind"] == "single":
            assert line["status"] == "done" and line["held"] == 0
        elif line["status"] == "pending":
            assert line["amount"] == min(line["held"], 0)
        elif line["status"] == "released":
            assert line["amount"] == 0 and line["held"] != 0
        else:  # settled: at most the hold was posted
            assert abs(line["amount"]) <= abs(line["held"])


@pytest.mark.parametrize("games", [("tien-len", "phom", "sam-loc")])
def test_the_statement_follows_holds_and_sums_to_the_balance(
    tmp_path: Path, games: tuple[str, ...]
) -> None:
    async def body(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        player, other = await _guests(hall, http, "thu", "khoa")
        for game in games:
            actor = await _table(hall, http, game, other, [player, other], bots=1)
            for _ in range(2):
                hand = await _deal(hall, actor, actor.hand)
                # Mid-hand: the hand's holds are open lines, and the running balance ends
                # at the balance shown, which already counts them.
                open_holds = [
                    h for h in hall_holds(hall, player) if h.id.startswith(f"{actor.id}:h{hand}:")
                ]
                statement = await _statement(http, hall, player)
                _check_running_balance(statement, await _balance(http, hall, player))
                pending = {
                    line["id"] for line in statement["transfers"] if line["status"] == "pending"
                }
                assert pending == {h.id for h in open_holds}
                assert pending, f"{game}: no hold is open for the seat mid-hand"
                await _play_out(hall, actor, hand)
                result = await player.wait_for(_of("result", hand=hand, table=actor.id), 30)
                statement = await _statement(http, hall, player)
                me = await _balance(http, hall, player)
                assert statement["balance"] == result["balance"] == me
                _check_running_balance(statement, result["balance"])
                fates = {
                    line["id"]: line["status"]
                    for line in statement["transfers"]
                    if line["id"] in pending
                }
                assert set(fates) == pending
                assert all(f in {"settled", "released"} for f in fates.values()), fates
            await player.send({"type": "leave", "table": actor.id})
            await player.wait_for(_of("left", table=actor.id), 30)
            await other.send({"type": "leave", "table": actor.id})
            await other.wait_for(_of("left", table=actor.id), 30)
        for who in (player, other):
            await who.close()

    _run(tmp_path, body)


def hall_holds(hall: InProcessHall, player: WsPlayer) -> list[Any]:
    """The player's open holds, read from the hall's own ledger."""
    assert hall.hall is not None
    bank: Any = hall.hall.bank
    return list(bank.ledger.open_holds(player_account(player.player)))


def test_a_house_bet_is_a_pending_line_until_its_round_settles(tmp_path: Path) -> None:
    """Three Card Poker: the ante placed is a pending line (the balance shown already less
    it); the round's result settles it, and the statement still sums to the balance."""

    async def body(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        (player,) = await _guests(hall, http, "tam")
        options = {"tcp.betting_s": 100, "tcp.decision_s": 20}
        actor = await _table(
            hall, http, "three-card-poker", player, [player], bots=0, options=options
        )
        hand = await _deal(hall, actor, 0)
        betting = await player.wait_for(
            lambda m: (
                m.get("type") == "table"
                and m.get("hand") == hand
                and (m.get("view") or {}).get("phase") == "betting"
            ),
            30,
        )
        before = await _statement(http, hall, player)
        ante = next(r for r in betting["view"]["amount_ranges"] if r["action"].get("bet") == "ante")
        mark = len(player.messages)
        await player.send(
            {
                "type": "act",
                "table": actor.id,
                "nonce": "ante-1",
                "version": betting["view"]["version"],
                "action": {**ante["action"], ante["field"]: ante["min"]},
            }
        )
        ack = await player.wait_for(lambda m: m.get("type") in {"ack", "error"}, 30, mark)
        assert ack["type"] == "ack", ack
        during = await _statement(http, hall, player)
        shown = await _balance(http, hall, player)
        assert shown == before["balance"] - ante["min"]
        _check_running_balance(during, shown)
        pending = [line for line in during["transfers"] if line["status"] == "pending"]
        assert [line["amount"] for line in pending] == [-ante["min"]], pending
        await _play_out(hall, actor, hand)
        result = await player.wait_for(_of("result", hand=hand, table=actor.id), 30, mark)
        after = await _statement(http, hall, player)
        _check_running_balance(after, result["balance"])
        (line,) = [x for x in after["transfers"] if x["id"] == pending[0]["id"]]
        assert line["status"] in {"settled", "released"}
        await player.close()

    _run(tmp_path, body)
