"""The server's deadlines on a manual clock, through the real server (HTTP and WebSocket).

The hall runs in the test's loop on a :class:`~sanh.server.clock.ManualClock`
(:class:`~tests.server.harness.InProcessHall`): time moves only when the test moves it, so each
check is on the clock the server reads, exact to the instant, however busy the machine. A turn
deadline fires at its time and not before; a table's deadline folds every pending seat at
once; the next hand opens exactly ``between_hands`` after a result; a player who drops keeps
the turn clock for one turn timer, then their turns play at once; a seat left between hands is
kept for the reconnection grace and freed when it ends.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

from sanh.server.settings import Settings
from sanh.server.table import TableActor
from tests.server.harness import InProcessHall, WsPlayer

TURN = 15.0
BETWEEN = 3.0
GRACE = 30.0


def _settings() -> Settings:
    return Settings(
        turn_timer=TURN,
        between_hands=BETWEEN,
        reconnect_grace=GRACE,
        bot_delay=0.6,
        timer_scale=1.0,
        bots_on_start=False,
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

    asyncio.run(main())


async def _until(check: Callable[[], bool], timeout: float = 30) -> None:
    """Wait for something the server does on its own (a disconnection noticed); the timeout
    only bounds a hang."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.01)


async def _table(
    hall: InProcessHall, http: httpx.AsyncClient, game: str, seats: int, *players: WsPlayer
) -> TableActor:
    created = await http.post(
        f"{hall.url}/api/tables",
        json={"game": game, "stake": 100, "seats": seats, "options": {}},
        headers={"authorization": f"Bearer {players[0].token}"},
    )
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    for player in players:
        await player.connect()
        mark = len(player.messages)
        await player.send({"type": "join", "table": table})
        await player.send({"type": "sit", "table": table})
        await player.wait_for(
            lambda m: m.get("type") == "table" and m.get("your_seat") is not None, 30, mark
        )
    assert hall.hall is not None
    actor = hall.hall.tables[table]
    await hall.settle()
    return actor


async def _players(hall: InProcessHall, http: httpx.AsyncClient, *names: str) -> list[WsPlayer]:
    return [await WsPlayer.guest(http, hall.url, name, mode="idle") for name in names]


def _to_act(actor: TableActor) -> tuple[int, ...]:
    turn = actor.game.to_act(actor.state) if actor.state is not None else None
    return turn if isinstance(turn, tuple) else ()


def test_a_turn_deadline_fires_at_its_time_and_not_before(tmp_path: Path) -> None:
    async def body(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        a, b = await _players(hall, http, "anna", "binh")
        actor = await _table(hall, http, "tien-len", 2, a, b)
        sat = hall.clock.now()
        await hall.advance_to(sat + BETWEEN - 0.001)
        assert actor.state is None, "the hand opened before the pause between hands ended"
        await hall.advance_to(sat + BETWEEN)
        assert actor.state is not None and actor.hand == 1
        (seat,) = _to_act(actor)
        version = actor.state.version
        deadline = sat + BETWEEN + TURN
        assert actor.deadlines == {seat: deadline}
        # The client is told the same deadline, on the server's clock.
        shown = await a.wait_for(
            lambda m: (
                m.get("type") == "table" and bool(m.get("view")) and m["view"]["version"] == version
            )
        )
        assert shown["deadlines"] == {str(seat): deadline}
        await hall.advance_to(deadline - 0.001)
        assert actor.state.version == version, "the default came before the deadline"
        await hall.advance_to(deadline)
        assert actor.state.version > version, "the deadline passed and nothing was played"
        assert seat not in _to_act(actor) or actor.deadlines[seat] == deadline + TURN
        await a.wait_for(
            lambda m: (
                m.get("type") == "table" and bool(m.get("view")) and m["view"]["version"] > version
            )
        )
        for player in (a, b):
            await player.close()

    _run(tmp_path, body)


def test_a_table_deadline_folds_every_pending_seat_at_once(tmp_path: Path) -> None:
    """Three Card Poker: nobody bets in the betting window; at its deadline it closes, and at
    the decision deadline every pending decision is folded in one go (RULES.md §2.5)."""

    async def body(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        players = await _players(hall, http, "anna", "binh", "chi")
        actor = await _table(hall, http, "three-card-poker", 3, *players)
        await hall.advance(BETWEEN)
        assert actor.state is not None
        hand = actor.hand
        for player in players:
            view = await player.wait_for(
                lambda m: m.get("type") == "table" and m.get("hand") == hand and bool(m.get("view"))
            )
            seat = view["view"]["viewer"]
            mark = len(player.messages)
            await player.send(
                {
                    "type": "act",
                    "table": actor.id,
                    "nonce": f"ante-{seat}",
                    "version": view["view"]["version"],
                    "action": {"type": "Bet", "seat": seat, "bet": "ante", "amount": 100},
                }
            )
            ack = await player.wait_for(lambda m: m.get("type") in {"ack", "error"}, 30, mark)
            assert ack["type"] == "ack", ack
        await hall.settle()
        assert getattr(actor.state, "phase", "") == "betting"
        closes = actor.deadlines[None]
        await hall.advance_to(closes)
        assert getattr(actor.state, "phase", "") == "decision"
        decided = actor.deadlines[None]
        assert decided > closes
        await hall.advance_to(decided - 0.001)
        assert getattr(actor.state, "phase", "") == "decision"
        await hall.advance_to(decided)
        assert actor.hands_completed == 1, "a pending seat waited for a window of its own"
        result = await players[0].wait_for(lambda m: m.get("type") == "result")
        assert result["hand"] == hand
        for player in players:
            await player.close()

    _run(tmp_path, body)


def test_the_next_hand_opens_exactly_between_hands_after_a_result(tmp_path: Path) -> None:
    async def body(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        a, b = await _players(hall, http, "anna", "binh")
        actor = await _table(hall, http, "tien-len", 2, a, b)
        await hall.advance(BETWEEN)
        assert actor.hand == 1
        while actor.hands_completed == 0:  # the clock plays both idle seats
            due = hall.clock.next_due()
            assert due is not None
            await hall.advance_to(due)
        ended = hall.clock.now()
        assert actor.state is None
        await hall.advance_to(ended + BETWEEN - 0.001)
        assert actor.state is None and actor.hand == 1
        await hall.advance_to(ended + BETWEEN)
        assert actor.state is not None and actor.hand == 2
        for player in (a, b):
            await player.close()

    _run(tmp_path, body)


def test_a_dropped_player_keeps_the_turn_clock_for_one_turn_timer(tmp_path: Path) -> None:
    """RULES.md §2.7, in Sâm lốc (whose disconnect default plays on: pass, or lead the lowest
    single): a deadline that passes while the player is away applies the default at the
    deadline, not before; once away for a whole turn timer, their turns play at once (they
    never hold a deadline of their own again)."""

    async def body(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        a, b = await _players(hall, http, "anna", "binh")
        actor = await _table(hall, http, "sam-loc", 2, a, b)
        await hall.advance(BETWEEN)
        while actor.state is None or actor.game.is_terminal(actor.state):  # an instant win
            due = hall.clock.next_due()
            assert due is not None
            await hall.advance_to(due)
        hand, done = actor.hand, actor.hands_completed
        while len(_to_act(actor)) != 1 or None in actor.deadlines:  # past the Sâm window
            due = hall.clock.next_due()
            assert due is not None and actor.state is not None
            await hall.advance_to(due)
        (first,) = _to_act(actor)
        slot = actor.seats[actor.hand_players[first]]
        assert slot is not None
        away, other = (a, b) if slot.player.id == a.player else (b, a)
        deadline = actor.deadlines[first]
        version = actor.state.version
        await away.close()
        await _until(lambda: slot.dropped_at is not None)
        await hall.settle()
        dropped = slot.dropped_at
        assert dropped == hall.clock.now()
        await hall.advance_to(deadline - 0.001)
        assert actor.state.version == version, "the away seat lost its turn clock"
        await hall.advance_to(deadline)
        assert actor.hands_completed == done + 1 or actor.state.version > version
        grace_end = dropped + TURN
        # From the end of the grace on, the away seat never holds a deadline.
        while actor.hands_completed == done:
            if hall.clock.now() >= grace_end:
                assert first not in actor.deadlines, (hall.clock.now() - dropped, actor.deadlines)
            due = hall.clock.next_due()
            assert due is not None
            await hall.advance_to(due)
        bank: Any = actor.bank
        moves = [e for e in bank._events(actor.id, hand) if e.get("kind") == "event"]
        assert sum(e.get("seat") == first for e in moves) >= 2, "the away seat moved once only"
        await other.close()

    _run(tmp_path, body)


def test_a_seat_left_between_hands_is_kept_for_the_reconnection_grace(tmp_path: Path) -> None:
    async def body(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        (a,) = await _players(hall, http, "anna")
        actor = await _table(hall, http, "tien-len", 2, a)
        slot = actor.seats[0]
        assert slot is not None and actor.state is None
        await a.close()
        await _until(lambda: slot.dropped_at is not None)
        await hall.settle()
        dropped = hall.clock.now()
        assert slot.away_deadline == dropped + GRACE
        await hall.advance_to(dropped + GRACE - 0.001)
        assert actor.seats[0] is slot, "the seat went before the grace ended"
        await hall.advance_to(dropped + GRACE)
        assert actor.seats[0] is None, "the seat outlived the grace"

    _run(tmp_path, body)
