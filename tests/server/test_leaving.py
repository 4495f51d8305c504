"""Leaving a table, over real WebSocket connections (RULES.md §2.7, docs/protocol.md).

- Between hands (after a result, before the next deal) ``leave`` costs nothing: the balance
  is the one the result gave, and the next deal is made without the seat.
- During a hand ``leave`` (or ``stand``) is a leave *after this hand*: ``leave_pending``
  confirms it, the seat plays on (no ``Leave`` is applied for it) and goes at the result;
  ``cancel_leave`` keeps the seat.
- Leaving *now* is quoted first (``quote_leave`` -> ``leave_quote``) and confirmed with
  ``leave_now``: the hand charges at most the quote (exactly it when the game's rule gives
  the amount); an unknown quote, a quote of an earlier hand or one whose cost has changed
  is refused with its code and changes nothing.

Every check reads the hall's database (the event log, the ledger); ``sanh audit`` is clean
at the end. The gap between hands is long (5 s at this scale) only so that a leave sent on
receiving a result reaches the table before the next deal; nothing waits on a clock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.conftest import HallProcess, free_port
from tests.server.harness import WsPlayer, table_log
from tests.server.test_e2e_games import audit, net_of

SCALE = 0.05
NO_LEAVE = frozenset({"Leave"})
"""Sâm's *Rời bàn* is also an action: the players never choose it themselves."""


@pytest.fixture(scope="module")
def leave_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    tmp: Path = tmp_path_factory.mktemp("leaving")
    process = HallProcess(
        tmp / "hall.db",
        free_port(),
        SCALE,
        log=tmp / "hall.log",
        env={
            "SANH_BETWEEN_HANDS": "100",  # 5 s at this scale
            "SANH_BOT_DELAY": "2",
            "SANH_BOT_SAMPLES": "20",
            "SANH_RATE_PER_SECOND": "1000",
            "SANH_RATE_BURST": "1000",
        },
    )
    process.start()
    yield process
    process.stop()


def _http() -> httpx.AsyncClient:
    """An HTTP client that opens a connection per request: the server closes an idle
    keep-alive connection after 5 s, and the tests wait longer than that between requests."""
    return httpx.AsyncClient(timeout=30, limits=httpx.Limits(max_keepalive_connections=0))


def _in_hand(message: dict[str, Any], after: int = 0) -> bool:
    """A view of the player's own seat in a hand under way (numbered above ``after``)."""
    view = message.get("view")
    return (
        message.get("type") == "table"
        and message["hand"] > after
        and view is not None
        and view.get("viewer") is not None
        and not view.get("terminal")
    )


def _of(kind: str, **fields: Any) -> Any:
    return lambda m: m.get("type") == kind and all(m.get(k) == v for k, v in fields.items())


async def _balance(http: httpx.AsyncClient, hall: HallProcess, player: WsPlayer) -> int:
    me = await http.get(f"{hall.url}/api/me", headers={"authorization": f"Bearer {player.token}"})
    me.raise_for_status()
    return int(me.json()["balance"])


def _players_of(hall: HallProcess, table: str, hand: int) -> list[str | None]:
    opening = table_log(hall.db_url, table)[hand][0]
    assert opening["kind"] == "open"
    return list(opening["players"])


def _seat_events(hall: HallProcess, table: str, hand: int, player: str) -> list[dict[str, Any]]:
    """The logged moves made for the player's engine seat in the hand."""
    events = table_log(hall.db_url, table)[hand]
    seat = list(events[0]["players"]).index(player)
    return [e for e in events if e["kind"] == "event" and e.get("seat") == seat]


async def _table(
    http: httpx.AsyncClient,
    hall: HallProcess,
    game: str,
    host: WsPlayer,
    seated: list[WsPlayer],
    bots: int,
    options: dict[str, Any] | None = None,
) -> str:
    created = await http.post(
        f"{hall.url}/api/tables",
        json={"game": game, "stake": 100, "seats": len(seated) + bots, "options": options or {}},
        headers={"authorization": f"Bearer {host.token}"},
    )
    assert created.status_code == 201, created.text
    table: str = created.json()["id"]
    for player in seated:
        await player.connect()
        await player.send({"type": "join", "table": table})
        await player.send({"type": "sit", "table": table})
    if bots:
        await host.send({"type": "add_bots", "table": table, "count": bots})
    return table


async def _guests(http: httpx.AsyncClient, hall: HallProcess, *names: str) -> list[WsPlayer]:
    return [
        await WsPlayer.guest(http, hall.url, name, mode="play", seed=i, avoid=NO_LEAVE)
        for i, name in enumerate(names)
    ]


@pytest.mark.parametrize("game", ["tien-len", "sam-loc", "phom"])
def test_leaving_between_hands_costs_nothing(leave_hall: HallProcess, game: str) -> None:
    async def main() -> None:
        async with _http() as http:
            leaver, other = await _guests(http, leave_hall, "lan", "minh")
            table = await _table(http, leave_hall, game, other, [leaver, other], bots=1)
            result = await leaver.wait_for(_of("result"), 90)
            mark = len(leaver.messages)
            await leaver.send({"type": "leave", "table": table})
            answer = await leaver.wait_for(_of("left"), 30, mark)
            assert answer["hand"] == result["hand"]
            assert not leaver.of_type("leave_pending"), "a leave between hands is not deferred"
            assert await _balance(http, leave_hall, leaver) == result["balance"]
            # The next hand is dealt without the seat, and the leaver paid nothing for it.
            hand = result["hand"]
            await other.wait_for(lambda m: _in_hand(m, hand), 60)
            assert leaver.player not in _players_of(leave_hall, table, hand + 1)
            assert await _balance(http, leave_hall, leaver) == result["balance"]
            for player in (leaver, other):
                await player.close()

    asyncio.run(main())


def test_leaving_during_a_hand_waits_for_its_result_and_can_be_cancelled(
    leave_hall: HallProcess,
) -> None:
    async def main() -> None:
        async with _http() as http:
            leaver, other = await _guests(http, leave_hall, "hoa", "quan")
            start = await _balance(http, leave_hall, leaver)
            leaver.mode = other.mode = "idle"  # the clock plays: the hand outlasts the messages
            table = await _table(http, leave_hall, "tien-len", other, [leaver, other], bots=1)
            # A stand asked for in a hand is pending; cancelled, the seat stays for the next.
            dealt = await leaver.wait_for(_in_hand, 90)
            hand = dealt["hand"]
            mark = len(leaver.messages)
            await leaver.send({"type": "stand", "table": table})
            pending = await leaver.wait_for(_of("leave_pending"), 30, mark)
            assert (pending["pending"], pending["stand"], pending["hand"]) == (True, True, hand)
            update = await leaver.wait_for(
                lambda m: (
                    m.get("type") == "table"
                    and any(
                        s["player"] == leaver.player and s["leave_after_hand"] for s in m["seats"]
                    )
                ),
                30,
                mark,
            )
            assert update["your_seat"] is not None
            mark = len(leaver.messages)
            await leaver.send({"type": "cancel_leave", "table": table})
            cancelled = await leaver.wait_for(_of("leave_pending"), 30, mark)
            assert cancelled["pending"] is False
            leaver.mode = other.mode = "play"
            await leaver.wait_for(_of("result", hand=hand), 90, mark)
            nxt = await leaver.wait_for(lambda m: _in_hand(m, hand), 60, mark)
            hand = nxt["hand"]
            assert leaver.player in _players_of(leave_hall, table, hand)
            # A leave in this hand: the seat plays on and goes at the result (no Leave for it).
            mark = len(leaver.messages)
            await leaver.send({"type": "leave", "table": table})
            pending = await leaver.wait_for(_of("leave_pending"), 30, mark)
            assert (pending["pending"], pending["stand"]) == (True, False)
            result = await leaver.wait_for(_of("result", hand=hand), 90, mark)
            left = await leaver.wait_for(_of("left"), 30, mark)
            assert left["hand"] == hand
            assert leaver.player in result["seats"], "the leaver played the hand out"
            moves = _seat_events(leave_hall, table, hand, leaver.player)
            assert all(e["type"] != "Leave" for e in moves), moves
            await other.wait_for(lambda m: _in_hand(m, hand), 60)
            assert leaver.player not in _players_of(leave_hall, table, hand + 1)
            # Nothing was charged but the settlements of the hands played.
            assert await _balance(http, leave_hall, leaver) == start + net_of(
                leave_hall, leaver.player
            )
            for player in (leaver, other):
                await player.close()

    asyncio.run(main())


@pytest.mark.parametrize("game", ["tien-len", "sam-loc"])
def test_leaving_now_charges_at_most_the_quote(leave_hall: HallProcess, game: str) -> None:
    async def main() -> None:
        async with _http() as http:
            leaver, other = await _guests(http, leave_hall, "vy", "son")
            before = await _balance(http, leave_hall, leaver)
            leaver.mode = "idle"
            table = await _table(http, leave_hall, game, other, [leaver, other], bots=1)
            dealt = await leaver.wait_for(_in_hand, 90)
            hand = dealt["hand"]
            # An unknown quote is refused and changes nothing.
            mark = len(leaver.messages)
            await leaver.send({"type": "leave_now", "table": table, "quote_id": "no-such-quote"})
            error = await leaver.wait_for(_of("error"), 30, mark)
            assert (error["code"], error["text"]) == ("leave_quote_unknown", "leave_quote_unknown")
            assert not leaver.of_type("left")
            await leaver.send({"type": "quote_leave", "table": table})
            quote = await leaver.wait_for(_of("leave_quote"), 30, mark)
            assert quote["hand"] == hand and quote["basis"] in {"exact", "bound"}
            assert quote["cost"] > 0
            mark = len(leaver.messages)
            await leaver.send({"type": "leave_now", "table": table, "quote_id": quote["quote_id"]})
            left = await leaver.wait_for(_of("left"), 30, mark)
            assert left["hand"] == hand
            await other.wait_for(_of("result", hand=hand), 90)
            charged = before - await _balance(http, leave_hall, leaver)
            assert charged == -net_of(leave_hall, leaver.player)
            if quote["basis"] == "exact":
                assert charged == quote["cost"]
            else:
                assert 0 < charged <= quote["cost"]
            # The game's leaving rule was applied for the seat (at once: an anytime Leave).
            kinds = [e["type"] for e in _seat_events(leave_hall, table, hand, leaver.player)]
            assert kinds.count("Leave") == 1 and kinds[-1] == "Leave", kinds
            await other.wait_for(lambda m: _in_hand(m, hand), 60)
            assert leaver.player not in _players_of(leave_hall, table, hand + 1)
            for player in (leaver, other):
                await player.close()

    asyncio.run(main())


def test_a_stale_quote_is_refused_and_changes_nothing(leave_hall: HallProcess) -> None:
    """Three Card Poker (a house game: the quote is the gold held for the seat's bets): a
    quote taken before a bet no longer holds after it, a quote of an earlier hand is unknown."""

    async def main() -> None:
        async with _http() as http:
            (player,) = await _guests(http, leave_hall, "tam")
            player.mode = "idle"
            options = {"tcp.betting_s": 100, "tcp.decision_s": 20}
            table = await _table(
                http, leave_hall, "three-card-poker", player, [player], bots=0, options=options
            )
            betting = await player.wait_for(
                lambda m: _in_hand(m) and m["view"].get("phase") == "betting", 90
            )
            hand = betting["hand"]
            mark = len(player.messages)
            await player.send({"type": "quote_leave", "table": table})
            quote = await player.wait_for(_of("leave_quote"), 30, mark)
            assert (quote["cost"], quote["basis"]) == (0, "bound")
            ante = next(
                r for r in betting["view"]["amount_ranges"] if r["action"].get("spot") == "ante"
            )
            bet = {**ante["action"], ante["field"]: ante["min"]}
            await player.send(
                {
                    "type": "act",
                    "table": table,
                    "nonce": "ante-1",
                    "version": betting["view"]["version"],
                    "action": bet,
                }
            )
            ack = await player.wait_for(lambda m: m.get("type") in {"ack", "error"}, 30, mark)
            assert ack["type"] == "ack", ack
            mark = len(player.messages)
            await player.send({"type": "leave_now", "table": table, "quote_id": quote["quote_id"]})
            error = await player.wait_for(_of("error"), 30, mark)
            assert error["code"] == "leave_cost_changed"
            assert error["text"] == f"leave_cost_changed:0:{ante['min']}"
            # Nothing changed: still seated and in the round, no leave pending.
            await player.send({"type": "quote_leave", "table": table})
            fresh = await player.wait_for(_of("leave_quote"), 30, mark)
            assert (fresh["cost"], fresh["hand"]) == (ante["min"], hand)
            assert not player.of_type("left")
            # A quote of a finished round is unknown in the next one.
            await player.wait_for(_of("result", hand=hand), 90, mark)
            await player.wait_for(lambda m: _in_hand(m, hand), 90, mark)
            mark = len(player.messages)
            await player.send({"type": "leave_now", "table": table, "quote_id": fresh["quote_id"]})
            error = await player.wait_for(_of("error"), 30, mark)
            assert error["code"] == "leave_quote_unknown"
            assert not player.of_type("left")
            await player.close()

    asyncio.run(main())


def test_the_ledger_is_clean_after_the_leaves(leave_hall: HallProcess) -> None:
    report = audit(leave_hall)
    assert report["ok"] is True, report
