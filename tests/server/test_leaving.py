"""Leaving a table, through the real server (HTTP and WebSocket) on a manual clock.

- Between hands (after a result, before the next deal) ``leave`` costs nothing: the balance
  is the one the result gave, and the next deal is made without the seat.
- During a hand ``leave`` (or ``stand``) is a leave *after this hand*: ``leave_pending``
  confirms it, the seat plays on (no ``Leave`` is applied for it) and goes at the result;
  ``cancel_leave`` keeps the seat.
- Leaving *now* is quoted first (``quote_leave`` -> ``leave_quote``) and confirmed with
  ``leave_now``: the hand charges at most the quote (exactly it when the game's rule gives
  the amount); an unknown quote, a quote of an earlier hand or one whose cost has changed
  is refused with its code and changes nothing.

The hall runs in the test's loop on a :class:`~sanh.server.clock.ManualClock`
(:class:`~tests.server.harness.InProcessHall`): the players never act themselves (the table's
clock and its bots play every move), and the clock moves only when the test moves it. So the
gap between a result and the next deal stands still while a leave is sent and answered, and
the next hand is dealt only when the test advances the clock past that gap: nothing depends
on how fast the machine is. Every check reads the hall's database (the event log, the
ledger); ``sanh audit`` is clean at the end of every test.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from sanh.server.settings import Settings
from sanh.server.table import TableActor
from tests.server.harness import InProcessHall, WsPlayer, table_log
from tests.server.test_e2e_games import audit, net_of

TURN = 15.0
BETWEEN = 3.0


def _settings() -> Settings:
    return Settings(
        turn_timer=TURN,
        between_hands=BETWEEN,
        bot_delay=0.6,
        bot_samples=20,
        timer_scale=1.0,
        bots_on_start=False,
        rate_per_second=1000,
        rate_burst=1000,
    )


def _run(
    tmp_path: Path, body: Callable[[InProcessHall, httpx.AsyncClient], Awaitable[None]]
) -> None:
    async def main() -> None:
        async with (
            InProcessHall(tmp_path / "hall.db", _settings()) as hall,
            httpx.AsyncClient(timeout=30) as http,
        ):
            await body(hall, http)
            report = audit(hall)
            assert report["ok"] is True, report

    asyncio.run(main())


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


async def _balance(http: httpx.AsyncClient, hall: InProcessHall, player: WsPlayer) -> int:
    me = await http.get(f"{hall.url}/api/me", headers={"authorization": f"Bearer {player.token}"})
    me.raise_for_status()
    return int(me.json()["balance"])


def _players_of(hall: InProcessHall, table: str, hand: int) -> list[str | None]:
    opening = table_log(hall.db_url, table)[hand][0]
    assert opening["kind"] == "open"
    return list(opening["players"])


def _seat_events(hall: InProcessHall, table: str, hand: int, player: str) -> list[dict[str, Any]]:
    """The logged moves made for the player's engine seat in the hand."""
    events = table_log(hall.db_url, table)[hand]
    seat = list(events[0]["players"]).index(player)
    return [e for e in events if e["kind"] == "event" and e.get("seat") == seat]


async def _table(
    hall: InProcessHall,
    http: httpx.AsyncClient,
    game: str,
    host: WsPlayer,
    seated: list[WsPlayer],
    bots: int,
    options: dict[str, Any] | None = None,
) -> TableActor:
    created = await http.post(
        f"{hall.url}/api/tables",
        json={"game": game, "stake": 100, "seats": len(seated) + bots, "options": options or {}},
        headers={"authorization": f"Bearer {host.token}"},
    )
    assert created.status_code == 201, created.text
    table: str = created.json()["id"]
    for player in seated:
        if player.ws is None:  # a player at another table already keeps its one connection
            await player.connect()
        mark = len(player.messages)
        await player.send({"type": "join", "table": table})
        await player.send({"type": "sit", "table": table})
        await player.wait_for(
            lambda m: m.get("type") == "table" and m.get("your_seat") is not None, 30, mark
        )
    assert hall.hall is not None
    actor = hall.hall.tables[table]
    if bots:
        mark = len(host.messages)
        await host.send({"type": "add_bots", "table": table, "count": bots})
        await host.wait_for(
            lambda m: (
                m.get("type") == "table" and sum(bool(s.get("bot")) for s in m["seats"]) >= bots
            ),
            30,
            mark,
        )
    await hall.settle()
    return actor


async def _guests(hall: InProcessHall, http: httpx.AsyncClient, *names: str) -> list[WsPlayer]:
    return [await WsPlayer.guest(http, hall.url, name, mode="idle") for name in names]


async def _deal(hall: InProcessHall, actor: TableActor, after: int) -> int:
    """Move the clock on, one due time at a time, until a hand numbered above ``after`` is
    under way (not one that ended as it was dealt, such as an instant win); its number."""
    while actor.state is None or actor.hand <= after or actor.game.is_terminal(actor.state):
        due = hall.clock.next_due()
        assert due is not None, "nothing is scheduled and no hand is dealt"
        await hall.advance_to(due)
    return actor.hand


async def _play_out(hall: InProcessHall, actor: TableActor, hand: int) -> None:
    """Move the clock on (the table's defaults and its bots play every seat) until hand
    ``hand``, the one under way, has its result; the next one is not dealt.

    It waits for that hand, not for a count of completed hands: a hand that ended as it was
    dealt (an instant win, which :func:`_deal` steps over) is completed too."""
    assert actor.hand == hand, (actor.hand, hand)
    while actor.state is not None:
        due = hall.clock.next_due()
        assert due is not None, "nothing is scheduled and the hand is not over"
        await hall.advance_to(due)
    assert actor.hand == hand, "the next hand was dealt before the test looked"


@pytest.mark.parametrize("game", ["tien-len", "sam-loc", "phom"])
def test_leaving_between_hands_costs_nothing(tmp_path: Path, game: str) -> None:
    async def body(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        leaver, other = await _guests(hall, http, "lan", "minh")
        actor = await _table(hall, http, game, other, [leaver, other], bots=1)
        hand = await _deal(hall, actor, 0)
        await _play_out(hall, actor, hand)
        # The clock stands still between the result and the next deal.
        assert actor.state is None and actor.hand == hand
        result = await leaver.wait_for(_of("result", hand=hand), 30)
        mark = len(leaver.messages)
        await leaver.send({"type": "leave", "table": actor.id})
        answer = await leaver.wait_for(_of("left"), 30, mark)
        assert answer["hand"] == result["hand"] == hand
        assert not leaver.of_type("leave_pending"), "a leave between hands is not deferred"
        assert await _balance(http, hall, leaver) == result["balance"]
        # The next hand is dealt (only once the clock moves) without the seat, and the
        # leaver paid nothing for it.
        await hall.settle()
        assert actor.state is None, "the next hand was dealt while the clock stood still"
        nxt = await _deal(hall, actor, hand)
        assert nxt > hand  # hand + 1, or a later one when hand + 1 ended as dealt (instant win)
        await other.wait_for(lambda m: _in_hand(m, hand), 30)
        assert leaver.player not in _players_of(hall, actor.id, hand + 1)
        assert await _balance(http, hall, leaver) == result["balance"]
        for player in (leaver, other):
            await player.close()

    _run(tmp_path, body)


def test_leaving_during_a_hand_waits_for_its_result_and_can_be_cancelled(tmp_path: Path) -> None:
    async def body(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        leaver, other = await _guests(hall, http, "hoa", "quan")
        start = await _balance(http, hall, leaver)
        actor = await _table(hall, http, "tien-len", other, [leaver, other], bots=1)
        # A stand asked for in a hand is pending; cancelled, the seat stays for the next.
        hand = await _deal(hall, actor, 0)
        mark = len(leaver.messages)
        await leaver.send({"type": "stand", "table": actor.id})
        pending = await leaver.wait_for(_of("leave_pending"), 30, mark)
        assert (pending["pending"], pending["stand"], pending["hand"]) == (True, True, hand)
        update = await leaver.wait_for(
            lambda m: (
                m.get("type") == "table"
                and any(s["player"] == leaver.player and s["leave_after_hand"] for s in m["seats"])
            ),
            30,
            mark,
        )
        assert update["your_seat"] is not None
        mark = len(leaver.messages)
        await leaver.send({"type": "cancel_leave", "table": actor.id})
        cancelled = await leaver.wait_for(_of("leave_pending"), 30, mark)
        assert cancelled["pending"] is False
        await _play_out(hall, actor, hand)
        await leaver.wait_for(_of("result", hand=hand), 30, mark)
        hand = await _deal(hall, actor, hand)
        await leaver.wait_for(lambda m: _in_hand(m, hand - 1), 30, mark)
        assert leaver.player in _players_of(hall, actor.id, hand)
        # A leave in this hand: the seat plays on and goes at the result (no Leave for it).
        mark = len(leaver.messages)
        await leaver.send({"type": "leave", "table": actor.id})
        pending = await leaver.wait_for(_of("leave_pending"), 30, mark)
        assert (pending["pending"], pending["stand"]) == (True, False)
        await _play_out(hall, actor, hand)
        result = await leaver.wait_for(_of("result", hand=hand), 30, mark)
        left = await leaver.wait_for(_of("left"), 30, mark)
        assert left["hand"] == hand
        assert leaver.player in result["seats"], "the leaver played the hand out"
        moves = _seat_events(hall, actor.id, hand, leaver.player)
        assert all(e["type"] != "Leave" for e in moves), moves
        await _deal(hall, actor, hand)
        await other.wait_for(lambda m: _in_hand(m, hand), 30)
        assert leaver.player not in _players_of(hall, actor.id, hand + 1)
        # Nothing was charged but the settlements of the hands played.
        assert await _balance(http, hall, leaver) == start + net_of(hall, leaver.player)
        for player in (leaver, other):
            await player.close()

    _run(tmp_path, body)


@pytest.mark.parametrize("game", ["tien-len", "sam-loc"])
def test_leaving_now_charges_at_most_the_quote(tmp_path: Path, game: str) -> None:
    async def body(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        leaver, other = await _guests(hall, http, "vy", "son")
        before = await _balance(http, hall, leaver)
        actor = await _table(hall, http, game, other, [leaver, other], bots=1)
        hand = await _deal(hall, actor, 0)
        # An unknown quote is refused and changes nothing.
        mark = len(leaver.messages)
        await leaver.send({"type": "leave_now", "table": actor.id, "quote_id": "no-such-quote"})
        error = await leaver.wait_for(_of("error"), 30, mark)
        assert (error["code"], error["text"]) == ("leave_quote_unknown", "leave_quote_unknown")
        assert not leaver.of_type("left")
        await leaver.send({"type": "quote_leave", "table": actor.id})
        quote = await leaver.wait_for(_of("leave_quote"), 30, mark)
        assert quote["hand"] == hand and quote["basis"] in {"exact", "bound"}
        assert quote["cost"] > 0
        mark = len(leaver.messages)
        await leaver.send({"type": "leave_now", "table": actor.id, "quote_id": quote["quote_id"]})
        left = await leaver.wait_for(_of("left"), 30, mark)
        assert left["hand"] == hand
        await _play_out(hall, actor, hand)
        await other.wait_for(_of("result", hand=hand), 30)
        charged = before - await _balance(http, hall, leaver)
        assert charged == -net_of(hall, leaver.player)
        if quote["basis"] == "exact":
            assert charged == quote["cost"]
        else:
            assert 0 < charged <= quote["cost"]
        # The game's leaving rule was applied for the seat (at once: an anytime Leave).
        kinds = [e["type"] for e in _seat_events(hall, actor.id, hand, leaver.player)]
        assert kinds.count("Leave") == 1 and kinds[-1] == "Leave", kinds
        await _deal(hall, actor, hand)
        await other.wait_for(lambda m: _in_hand(m, hand), 30)
        assert leaver.player not in _players_of(hall, actor.id, hand + 1)
        for player in (leaver, other):
            await player.close()

    _run(tmp_path, body)


def test_a_stale_quote_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """Three Card Poker (a house game: the quote is the gold held for the seat's bets): a
    quote taken before a bet no longer holds after it, a quote of an earlier hand is unknown."""

    async def body(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        (player,) = await _guests(hall, http, "tam")
        options = {"tcp.betting_s": 100, "tcp.decision_s": 20}
        actor = await _table(
            hall, http, "three-card-poker", player, [player], bots=0, options=options
        )
        hand = await _deal(hall, actor, 0)
        betting = await player.wait_for(
            lambda m: _in_hand(m, hand - 1) and m["view"].get("phase") == "betting", 30
        )
        assert betting["hand"] == hand
        mark = len(player.messages)
        await player.send({"type": "quote_leave", "table": actor.id})
        quote = await player.wait_for(_of("leave_quote"), 30, mark)
        assert (quote["cost"], quote["basis"]) == (0, "bound")
        ante = next(r for r in betting["view"]["amount_ranges"] if r["action"].get("bet") == "ante")
        bet = {**ante["action"], ante["field"]: ante["min"]}
        await player.send(
            {
                "type": "act",
                "table": actor.id,
                "nonce": "ante-1",
                "version": betting["view"]["version"],
                "action": bet,
            }
        )
        ack = await player.wait_for(lambda m: m.get("type") in {"ack", "error"}, 30, mark)
        assert ack["type"] == "ack", ack
        mark = len(player.messages)
        await player.send({"type": "leave_now", "table": actor.id, "quote_id": quote["quote_id"]})
        error = await player.wait_for(_of("error"), 30, mark)
        assert error["code"] == "leave_cost_changed"
        assert error["text"] == f"leave_cost_changed:0:{ante['min']}"
        # Nothing changed: still seated and in the round, no leave pending.
        await player.send({"type": "quote_leave", "table": actor.id})
        fresh = await player.wait_for(_of("leave_quote"), 30, mark)
        assert (fresh["cost"], fresh["hand"]) == (ante["min"], hand)
        assert not player.of_type("left")
        # A quote of a finished round is unknown in the next one.
        await _play_out(hall, actor, hand)
        await player.wait_for(_of("result", hand=hand), 30, mark)
        await _deal(hall, actor, hand)
        await player.wait_for(lambda m: _in_hand(m, hand), 30, mark)
        mark = len(player.messages)
        await player.send({"type": "leave_now", "table": actor.id, "quote_id": fresh["quote_id"]})
        error = await player.wait_for(_of("error"), 30, mark)
        assert error["code"] == "leave_quote_unknown"
        assert not player.of_type("left")
        await player.close()

    _run(tmp_path, body)
