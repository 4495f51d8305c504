"""The table actor in process, over the real ledger in an in-memory SQLite database.

Each test drives a :class:`~sanh.server.table.TableActor` with fake connections (their outbound
queues are read directly) on a manual clock, and checks one rule of the server: windows and
their deadlines, bots in windows, stale versions, leaving mid-hand, a refused settlement, the
buy-in top-up, the host, private tables, typed action fields, and the carry after a restart.
"""

from __future__ import annotations

import asyncio
import json
import time
import typing
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from sanh.cards.deck import DECKS
from sanh.cards.rng import ProvablyFairRng, commitment_of, shuffled
from sanh.errors import NotationError
from sanh.games import REGISTRY
from sanh.games.base import Action, Shuffle, TableConfig
from sanh.ledger.model import ResultCode, Transfer, TransferCode, player_account
from sanh.notation.jsonable import event_from_json
from sanh.server import protocol as p
from sanh.server.clock import ManualClock
from sanh.server.hall import Hall
from sanh.server.settings import Settings
from sanh.server.table import Connection, TableActor, _ill_typed
from sanh.server.wallet_services import WalletServices
from sanh.texts import TEXTS, describe, parse
from tests.server.harness import advance_to, settle


class Seat:
    """A fake connection and what it received."""

    def __init__(self, services: WalletServices, name: str) -> None:
        self.info = services.guest(name, "vi")
        self.conn = Connection(self.info, send_limit=100_000)
        self.messages: list[dict[str, Any]] = []

    def drain(self) -> list[dict[str, Any]]:
        """Every message queued since the last drain (also kept in ``messages``)."""
        out = []
        while not self.conn.outbox.empty():
            raw = self.conn.outbox.get_nowait()
            if raw is not None:
                message = json.loads(raw)
                message["_t"] = time.monotonic()
                out.append(message)
        self.messages += out
        return out

    def views(self) -> list[dict[str, Any]]:
        self.drain()
        return [m for m in self.messages if m["type"] == "table" and m["view"]]

    def last_view(self) -> dict[str, Any]:
        return self.views()[-1]["view"]


def _settings(**kw: Any) -> Settings:
    base = {"timer_scale": 0.01, "between_hands": 1.0, "bot_delay": 1.0, "bot_samples": 20}
    return Settings(**{**base, **kw})


_ACTIVE: list[tuple[ManualClock, Hall]] = []
"""The manual clock and hall of the test running (see :func:`_run`)."""


async def _until(check: Callable[[], bool], timeout: float = 10, step: float = 0.005) -> None:
    """Wait until ``check()`` holds: on the test's manual clock, by moving it to each due time
    in turn (every table handling what came due before the next), so a wait takes no wall
    time and no deadline can pass while the test is still acting. ``timeout`` bounds a hang
    and the clock's own progress (seconds of the clock, scaled); the wall-clock bound is at
    least a minute, however short ``timeout``, so that a busy machine is never a hang."""
    deadline = time.monotonic() + max(timeout, 60.0)
    clock, hall = _ACTIVE[-1]
    limit = clock.now() + max(timeout, 1_000.0)
    await settle(hall)
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        due = clock.next_due()
        if due is not None and due <= limit:
            clock.advance_to(max(due, clock.now()))
            await settle(hall)
        else:  # nothing on the clock: what is awaited comes from elsewhere
            await asyncio.sleep(step)


def _run(
    body: Callable[[WalletServices, Hall], Awaitable[None]],
    clock: ManualClock | None = None,
    **settings: Any,
) -> WalletServices:
    """Run ``body`` on a hall on a manual clock (``clock``, or a new one): time moves only when
    the test moves it (:func:`advance_to`) or waits for something (:func:`_until`)."""
    services = WalletServices.open("sqlite:///:memory:")
    manual = clock if clock is not None else ManualClock()

    async def main() -> None:
        hall = Hall(_settings(**settings), services.bank, clock=manual)
        _ACTIVE.append((manual, hall))
        try:
            await body(services, hall)
        finally:
            _ACTIVE.pop()
            await hall.close()

    asyncio.run(main())
    return services


def _table(
    hall: Hall, game: str, seats: int, host: Seat, options: dict[str, Any] | None = None, **kw: Any
) -> TableActor:
    return hall.create_table(
        game=game,
        stake=100,
        seats=seats,
        options=options or {},
        quick=kw.get("quick", False),
        private=kw.get("private", False),
        host=host.info.id,
    )


async def _sit(actor: TableActor, *seats: Seat) -> None:
    for seat in seats:
        await actor.call("join", seat.conn, None)
        await actor.call("sit", seat.conn, None)


async def _act(actor: TableActor, seat: Seat, action: dict[str, Any], version: int) -> None:
    message = p.Act(table=actor.id, nonce=uuid.uuid4().hex, version=version, action=action)
    await actor.call("act", seat.conn, message)


def _events(actor: TableActor, hand: int) -> list[dict[str, Any]]:
    bank: Any = actor.bank
    return [e for e in bank._events(actor.id, hand) if e.get("kind") == "event"]


# ----- windows -------------------------------------------------------------------------------
def test_one_decision_deadline_folds_every_pending_seat_at_once() -> None:
    """Three Card Poker: at the decision deadline every pending seat is folded together (the
    table's default applied again while the window stays open), not one per new window; the
    decision window has its own length (``tcp.decision_s``), not what was left of the betting.
    On a manual clock: the deadline is checked on the clock the table reads."""
    clock = ManualClock()

    async def body(services: WalletServices, hall: Hall) -> None:
        players = [Seat(services, f"p{i}") for i in range(3)]
        options = {"tcp.betting_s": 40, "tcp.decision_s": 20}
        actor = _table(hall, "three-card-poker", 3, players[0], options)
        await _sit(actor, *players)
        await advance_to(clock, hall, clock.now() + 1.0)  # the pause before a hand
        assert actor.state is not None
        for player in players:
            view = player.last_view()
            await _act(
                actor,
                player,
                {"type": "Bet", "seat": view["viewer"], "bet": "ante", "amount": 100},
                view["version"],
            )
            view = player.last_view()
            await _act(actor, player, {"type": "Ready", "seat": view["viewer"]}, view["version"])
        # Everyone was ready: betting closed early; the decision window is a fresh 20 s.
        assert getattr(actor.state, "phase", "") == "decision"
        opened = clock.now()
        deadline = actor.deadlines[None]
        assert deadline == opened + 20
        hand = actor.hand
        await advance_to(clock, hall, deadline - 0.001)
        assert getattr(actor.state, "phase", "") == "decision", "folded before the deadline"
        assert not [e for e in _events(actor, hand) if e["type"] == "ForceFold"]
        await advance_to(clock, hall, deadline)
        assert actor.hands_completed == 1, "each pending seat waited for its own window"
        folds = [e for e in _events(actor, hand) if e["type"] == "ForceFold"]
        assert sorted(e["target"] for e in folds) == [0, 1, 2]
        assert all(e["reason"] == "timeout" for e in folds)

    _run(body, clock, timer_scale=1.0)


def test_a_ba_cay_chuong_betting_window_lasts_its_option() -> None:
    """RULES.md §2.5: ``bacaychuong.betting_s`` (15 s by default) is the betting window's length,
    chosen per table; the squeeze window after it is 15 s."""
    clock = ManualClock()

    async def body(services: WalletServices, hall: Hall) -> None:
        banker, player = Seat(services, "banker"), Seat(services, "player")
        actor = _table(hall, "ba-cay-chuong", 2, banker, {"bacaychuong.betting_s": 40})
        await _sit(actor, banker, player)
        await advance_to(clock, hall, clock.now() + 1.0)  # the pause before a hand
        assert getattr(actor.state, "phase", "") == "bet"
        opened = clock.now()
        assert actor.deadlines[None] == opened + 40
        await advance_to(clock, hall, opened + 39.999)
        assert getattr(actor.state, "phase", "") == "bet"
        await advance_to(clock, hall, opened + 40)
        assert getattr(actor.state, "phase", "") != "bet"
        if getattr(actor.state, "phase", "") == "squeeze":
            assert actor.deadlines[None] == opened + 40 + 15

    _run(body, clock, timer_scale=1.0)


def test_every_bot_bets_in_a_betting_window() -> None:
    """Tài Xỉu with bots only: each bot places, confirms and is ready within one window."""

    async def body(services: WalletServices, hall: Hall) -> None:
        host = Seat(services, "host")
        actor = _table(hall, "tai-xiu", 5, host, {"taixiu.betting_s": 30})
        await actor.call("add_bots", host.conn, 5)
        await advance_to(clock, hall, clock.now() + 1.0)  # the pause before a hand
        assert actor.state is not None
        closes = actor.deadlines[None]
        while actor.hands_completed == 0:  # the bots act every 0.5 s of the table's clock
            due = clock.next_due()
            assert due is not None and due < closes, "the window had to run out for the bots"
            await advance_to(clock, hall, due)
        kinds = [(e["type"], e.get("seat")) for e in _events(actor, 1)]
        for seat in range(5):
            assert ("Confirm", seat) in kinds, kinds
        assert ("CloseBetting", None) not in kinds, "the window had to run out for the bots"

    clock = ManualClock()
    _run(body, clock, timer_scale=1.0, bot_delay=0.5)


def test_a_version_from_earlier_in_the_window_is_accepted_a_stale_turn_is_not() -> None:
    async def body(services: WalletServices, hall: Hall) -> None:
        a, b = Seat(services, "a"), Seat(services, "b")
        actor = _table(hall, "tai-xiu", 2, a, {"taixiu.betting_s": 60})
        await _sit(actor, a, b)
        await _until(lambda: actor.state is not None)
        view_a, view_b = a.last_view(), b.last_view()
        await _act(actor, b, view_b["legal_actions"][0], view_b["version"])
        assert actor.state.version == view_a["version"] + 1
        await _act(actor, a, view_a["legal_actions"][0], view_a["version"])
        assert actor.state.version == view_a["version"] + 2, a.drain()
        c, d = Seat(services, "c"), Seat(services, "d")
        turns = _table(hall, "tien-len", 2, c)
        await _sit(turns, c, d)
        await _until(lambda: turns.state is not None)
        first = c if c.last_view()["to_act"] == [c.last_view()["viewer"]] else d
        view = first.last_view()
        await _act(turns, first, {"type": "Pass", "seat": view["viewer"]}, view["version"] - 1)
        errors = [m for m in first.drain() if m["type"] == "error"]
        assert errors and errors[-1]["code"] == "stale_version"

    _run(body, timer_scale=0.05)


def test_a_refused_act_carries_its_reason_as_a_text_code_and_in_english() -> None:
    """An act the rules refuse gets an ``error`` whose ``text`` is the engine's reason code and
    whose ``message`` is its English; the wrong seat's act and an out-of-turn act too."""

    async def body(services: WalletServices, hall: Hall) -> None:
        c, d = Seat(services, "c"), Seat(services, "d")
        actor = _table(hall, "tien-len", 2, c)
        await _sit(actor, c, d)
        await _until(lambda: actor.state is not None and actor.game.to_act(actor.state))
        mover = c if c.last_view()["to_act"] == [c.last_view()["viewer"]] else d
        other = d if mover is c else c
        view = mover.last_view()
        me = view["viewer"]
        c.drain(), d.drain()

        async def refusal(seat: Seat, action: dict[str, Any]) -> dict[str, Any]:
            await _act(actor, seat, action, actor.state.version)
            errors = [m for m in seat.drain() if m["type"] == "error"]
            assert len(errors) == 1, errors
            return errors[0]

        error = await refusal(mover, {"type": "Play", "seat": me, "cards": ["As", "Ad", "Ac"]})
        assert error["code"] == "illegal_action"
        held = set(actor.state.hands[me])
        if all(card in {str(c) for c in held} for card in ("As", "Ad", "Ac")):
            assert error["text"].startswith(("not_combination:", "first_play_includes:")), error
        else:
            assert error["text"].startswith("not_held:"), error
            assert error["message"].startswith("you do not hold "), error
        assert parse(error["text"]) and all(code in TEXTS for code, _ in parse(error["text"]))
        assert error["message"] == describe(error["text"]) and "{" not in error["message"]
        error = await refusal(mover, {"type": "Pass", "seat": me})
        assert (error["code"], error["text"]) == ("illegal_action", "leader_must_play")
        assert error["message"] == "the leader must play, not pass"
        seat = other.last_view()["viewer"]
        error = await refusal(other, {"type": "Pass", "seat": seat})
        assert (error["code"], error["text"]) == ("not_your_turn", f"seat_may_not_act:{seat}")
        assert error["message"] == f"p{seat + 1} may not act now"
        error = await refusal(other, {"type": "Pass", "seat": me})
        assert (error["code"], error["text"]) == ("illegal_action", "own_seat_only")
        version = actor.state.version
        await _act(actor, mover, {"type": "Pass", "seat": me}, version - 1)
        errors = [m for m in mover.drain() if m["type"] == "error"]
        stale = f"stale_version:{version}:{version - 1}"
        assert [(e["code"], e["text"]) for e in errors] == [("stale_version", stale)]
        assert errors[0]["message"] == f"the hand is at version {version}, not {version - 1}"

    _run(body, timer_scale=1.0)


# ----- leaving, faults ------------------------------------------------------------------------
async def _leave_now(actor: TableActor, seat: Seat) -> None:
    """Leave the hand now: ask for the quote, confirm it (``leave_now``)."""
    await actor.call("quote_leave", seat.conn, None)
    quote = [m for m in seat.drain() if m["type"] == "leave_quote"][-1]
    await actor.call("leave_now", seat.conn, quote["quote_id"])


def test_a_stand_mid_hand_waits_for_the_result() -> None:
    """Tiến lên: standing up during a hand is pending (``leave_pending``): nothing is applied
    for the seat, which goes at the result."""

    async def body(services: WalletServices, hall: Hall) -> None:
        players = [Seat(services, f"p{i}") for i in range(3)]
        actor = _table(hall, "tien-len", 3, players[0])
        await _sit(actor, *players)
        await _until(lambda: actor.state is not None and not actor.game.is_terminal(actor.state))
        hand, seen = actor.hand, len(_events(actor, actor.hand))
        await actor.call("stand", players[1].conn, None)
        pending = [m for m in players[1].drain() if m["type"] == "leave_pending"]
        assert [(m["pending"], m["stand"], m["hand"]) for m in pending] == [(True, True, hand)]
        assert len(_events(actor, hand)) == seen
        slot = actor.seats[1]
        assert slot is not None and slot.after_hand == "stand" and not slot.leaving

    _run(body, timer_scale=1.0)


def test_leaving_now_applies_an_anytime_leave_at_once() -> None:
    """Tiến lên: a player who leaves now out of turn leaves the hand at once (an automatic
    loss, RULES.md §12.7), not when its turn comes."""

    async def body(services: WalletServices, hall: Hall) -> None:
        players = [Seat(services, f"p{i}") for i in range(3)]
        actor = _table(hall, "tien-len", 3, players[0])
        await _sit(actor, *players)
        await _until(lambda: actor.state is not None and not actor.game.is_terminal(actor.state))
        view = players[0].last_view()
        leaver = next(p for p in players if p.last_view()["viewer"] not in view["to_act"])
        seat = leaver.last_view()["viewer"]
        await _leave_now(actor, leaver)
        assert _events(actor, actor.hand)[-1] == {
            "kind": "event",
            "type": "Leave",
            "seat": seat,
            "seq": len(_events(actor, actor.hand)),
        }
        assert actor.state.in_play[seat] is False

    _run(body, timer_scale=1.0)


def test_a_liêng_player_who_acted_then_leaves_is_out_at_once_and_cannot_win() -> None:
    """Issue 11 / seed 001 Liêng: a player who leaves after acting, out of turn, is out of the
    hand at once (the engine's Leave is logged when he stands up), loses exactly what he put in
    and never takes the pot; the two others play on."""

    async def body(services: WalletServices, hall: Hall) -> None:
        players = [Seat(services, f"p{i}") for i in range(3)]
        before = {p.info.id: services.bank.balance(p.info.id) for p in players}
        actor = _table(hall, "lieng", 3, players[0])
        await _sit(actor, *players)
        await _until(lambda: actor.state is not None and actor.state.phase == "bet")
        by_seat = {p.last_view()["viewer"]: p for p in players}
        first = actor.state.betting.actor
        await _act(actor, by_seat[first], {"type": "Call", "seat": first}, actor.state.version)
        assert actor.state.betting.actor != first
        await _leave_now(actor, by_seat[first])
        events = _events(actor, actor.hand)
        assert (events[-1]["type"], events[-1]["seat"]) == ("Leave", first)
        assert actor.state.betting.folded[first]
        hand = actor.hand
        while actor.state is not None and actor.hand == hand and actor.state.phase == "bet":
            seat = actor.state.betting.actor
            assert seat != first
            await _act(actor, by_seat[seat], {"type": "Call", "seat": seat}, actor.state.version)
        other = next(p for s, p in by_seat.items() if s != first)
        await _until(lambda: any(m["type"] == "result" for m in other.drain()))
        results = [m for m in other.messages if m["type"] == "result"]
        assert results
        leaver = by_seat[first].info.id
        await _until(lambda: services.bank.balance(leaver) == before[leaver] - 100)
        total = sum(services.bank.balance(p.info.id) for p in players)
        assert total == sum(before.values())

    _run(body, timer_scale=1.0)


def test_a_liêng_player_who_drops_out_of_turn_is_removed_when_his_grace_ends() -> None:
    """Seed 001 Liêng: a disconnection takes the player out of the hand ("không được tham gia
    chơi ván đó nữa"), wherever the turn is: p1 acts and drops while p2 is to act; p2 times
    out (a fold); during p3's turn p1's grace (one turn timer) ends and he is removed at once,
    so p3 wins the pot without acting."""

    async def body(services: WalletServices, hall: Hall) -> None:
        players = [Seat(services, f"p{i}") for i in range(3)]
        actor = _table(hall, "lieng", 3, players[0])
        await _sit(actor, *players)
        await _until(lambda: actor.state is not None and actor.state.phase == "bet")
        by_seat = {p.last_view()["viewer"]: p for p in players}
        first = actor.state.betting.actor
        await _act(actor, by_seat[first], {"type": "Call", "seat": first}, actor.state.version)
        second = actor.state.betting.actor
        await actor.call("disconnect", by_seat[first].conn, None)
        hand = actor.hand
        await _until(lambda: actor.hand != hand or actor.state is None, timeout=20)
        events = _events(actor, hand)
        kinds = [(e["type"], e["seat"]) for e in events if e.get("seat") is not None]
        assert ("Fold", second) in kinds and ("Leave", first) in kinds
        third = ({0, 1, 2} - {first, second}).pop()
        assert ("Call", third) not in kinds and ("Raise", third) not in kinds
        assert actor.last_result is not None
        deltas = actor.last_result["settlement"]["deltas"]
        assert deltas[first] < 0 and deltas[third] > 0

    _run(body, timer_scale=1.0, turn_timer=0.5)


def test_a_refused_settlement_voids_the_hand_and_refunds() -> None:
    async def body(services: WalletServices, hall: Hall) -> None:
        players = [Seat(services, f"p{i}") for i in range(2)]
        before = {p.info.id: services.bank.balance(p.info.id) for p in players}

        def refuse(*args: Any, **kw: Any) -> None:
            raise RuntimeError("the ledger refused the batch")

        services.bank.settle_hand = refuse  # type: ignore[method-assign]
        actor = _table(hall, "tien-len", 2, players[0])
        await _sit(actor, *players)
        await _until(lambda: actor.state is not None and not actor.game.is_terminal(actor.state))
        await _leave_now(actor, players[0])  # an automatic loss ends the hand
        await _until(lambda: actor.state is None and actor.hands_voided >= 1)
        results = [m for m in players[1].drain() if m["type"] == "result"]
        assert results and results[-1]["voided"] == "the settlement was refused"
        assert results[-1]["voided_text"] == "void_settlement"
        assert services.ledger.open_holds() == []
        assert {p.info.id: services.bank.balance(p.info.id) for p in players} == before

    _run(body, timer_scale=1.0)


# ----- Tẩy, host, private tables -------------------------------------------------------------
def test_a_short_stake_is_topped_up_between_hands_with_the_maximum_by_default() -> None:
    async def body(services: WalletServices, hall: Hall) -> None:
        a, b = Seat(services, "a"), Seat(services, "b")
        actor = _table(hall, "texas-holdem", 2, a)
        low, high = actor.buyin_range()
        assert (low, high) == (4000, 20000)  # 20 and 100 big blinds, BB = 2 L
        await _sit(actor, a, b)
        panel = next(m for m in a.drain() if m["type"] == "buyin_panel")
        assert (panel["min"], panel["max"]) == (4000, 20000)
        await actor.call("buyin", a.conn, 4000)
        await actor.call("buyin", b.conn, 20000)
        await _until(lambda: actor.state is not None)
        # Between hands with 150 left (below the 200 big blind): the panel opens again.
        await actor.stop()
        actor.state = None
        services.bank.cash_out(actor.id, a.info.id)
        services.bank.buy_in(actor.id, a.info.id, 150)
        actor.start()
        actor._after_hand()
        actor._release()
        seat = actor._seat_of(a.info.id)
        assert seat is not None and actor.seats[seat] is not None
        assert actor.seats[seat].ready is False  # type: ignore[union-attr]
        panel = [m for m in a.drain() if m["type"] == "buyin_panel"][-1]
        assert (panel["min"], panel["max"]) == (4000 - 150, 20000 - 150)
        await _until(lambda: services.bank.table_stake(actor.id, a.info.id) == 20000)
        # Leaving cashes the stake out.
        wallet = services.bank.balance(a.info.id)
        await actor.call("leave", a.conn, None)
        if actor.state is None:
            assert services.bank.balance(a.info.id) == wallet + 20000

    _run(body, timer_scale=0.01)


def test_the_host_role_passes_to_the_longest_seated_and_is_saved() -> None:
    async def body(services: WalletServices, hall: Hall) -> None:
        a, b, c = (Seat(services, n) for n in "abc")
        actor = _table(hall, "lieng", 4, a)
        await _sit(actor, a)
        await _sit(actor, b)
        await _sit(actor, c)
        await actor.call("leave", a.conn, None)
        await _until(lambda: actor.spec.host != a.info.id, timeout=20)
        assert actor.spec.host == b.info.id
        saved = dict(services.bank.saved_tables())[actor.id]
        assert saved["host"] == b.info.id
        await actor.call("add_bots", a.conn, 1)
        assert [m for m in a.drain() if m["type"] == "error"][-1]["code"] == "not_host"

    _run(body, timer_scale=0.01)


def test_a_private_table_needs_its_invite_code() -> None:
    async def body(services: WalletServices, hall: Hall) -> None:
        host, guest, stranger = (Seat(services, n) for n in ("host", "guest", "stranger"))
        actor = _table(hall, "lieng", 4, host, private=True)
        code = actor.spec.invite_code
        assert code and hall.lobby() == [] and hall.by_invite(code.lower()) is actor
        await actor.call("join", stranger.conn, None)
        await actor.call("sit", stranger.conn, None)
        codes = [m["code"] for m in stranger.drain() if m["type"] == "error"]
        assert codes == ["no_such_table", "not_at_table"]
        await actor.call("join", guest.conn, code)
        await actor.call("sit", guest.conn, None)
        assert actor._seat_of(guest.info.id) is not None

    _run(body)


# ----- typed fields, restart --------------------------------------------------------------------
JUNK: dict[Any, tuple[Any, ...]] = {
    int: ("100", True, 1.5, [1], {"a": 1}, None, 2**70),
    bool: (1, "true", None, [True]),
    str: (1, True, None, [1], {"a": 1}, "x" * 100),
    int | None: ("1", 1.5, False, [1]),
    tuple[int, ...]: (["1"], [True], [1.5], [[1]]),
}
"""Values of the wrong type for a field of each type the engines' actions use."""


def test_a_client_action_with_an_ill_typed_field_is_refused_before_the_engine() -> None:
    """``event_from_json`` passes many JSON values through to int and str fields; the engines
    trust their types, so the server refuses them (an engine crash would void the hand)."""
    refused = 0
    for game in REGISTRY.values():
        for cls in game.info.action_types:
            hints = typing.get_type_hints(cls)
            for name in cls.__dataclass_fields__:
                if name == "seat":
                    continue
                for junk in JUNK.get(hints[name], ()):
                    data = {"type": cls.__name__, "seat": 0, name: junk}
                    try:
                        action = event_from_json(game, data)
                    except NotationError:
                        continue  # refused while parsing already
                    assert isinstance(action, Action)
                    assert _ill_typed(action) is not None, (game.info.id, data)
                    refused += 1
    assert refused > 20
    game = REGISTRY["texas-holdem"]
    good = event_from_json(game, {"type": "RaiseTo", "seat": 0, "amount": 400})
    assert _ill_typed(good) is None


def test_the_carry_survives_a_restart() -> None:
    """The button (Hold'em's carry) moves on after a restart as if nothing had happened."""
    holder: dict[str, Any] = {}

    async def body(services: WalletServices, hall: Hall) -> None:
        host = Seat(services, "host")
        actor = _table(hall, "texas-holdem", 3, host)
        await actor.call("add_bots", host.conn, 3)
        await _until(lambda: actor.hands_completed >= 2, timeout=30)
        await actor.call("remove_bots", host.conn, None)
        await _until(lambda: actor.state is None and actor.seated == 0, timeout=30)
        holder["carry"] = actor.carry
        holder["id"] = actor.id
        rebuilt = TableActor(
            actor.id, actor.spec, bank=services.bank, settings=hall.settings, clock=hall.clock
        )
        assert rebuilt.recover() == "clean"
        holder["rebuilt"] = rebuilt.carry

    _run(body, timer_scale=0.01, bot_delay=0.5)
    assert holder["carry"] is not None
    assert holder["rebuilt"] == holder["carry"]


def test_an_engine_fault_mid_hand_voids_the_hand_and_releases_its_holds() -> None:
    """An unexpected error while a hand is open voids it (RULES.md §2.8): holds released."""

    async def body(services: WalletServices, hall: Hall) -> None:
        players = [Seat(services, f"p{i}") for i in range(2)]
        actor = _table(hall, "lieng", 2, players[0])
        await _sit(actor, *players)
        await _until(lambda: actor.state is not None)
        assert services.ledger.open_holds()

        def broken(*args: Any, **kw: Any) -> None:
            raise RuntimeError("engine bug")

        actor.game = type(actor.game)()
        actor.game.observe = broken  # type: ignore[method-assign]
        await actor.call("tick", None, None)
        assert actor.hands_voided == 1 and actor.state is None
        assert services.ledger.open_holds() == []
        results = [m for m in players[0].drain() if m["type"] == "result"]
        assert results[-1]["voided"] == "unrecoverable server fault"
        assert results[-1]["voided_text"] == "void_fault"

    _run(body, timer_scale=1.0)


def test_an_ack_sent_before_a_fault_names_an_action_the_log_keeps() -> None:
    """A command that fails after its action was applied and acknowledged (here the views
    sent after it) voids the hand; the ack still leaves with the command's other messages,
    so the action it names must be in the event log, written before the void."""

    async def body(services: WalletServices, hall: Hall) -> None:
        players = [Seat(services, f"p{i}") for i in range(3)]
        actor = _table(hall, "lieng", 3, players[0])
        await _sit(actor, *players)
        await _until(lambda: actor.state is not None and actor.state.phase == "bet")
        by_seat = {p.last_view()["viewer"]: p for p in players}
        first = actor.state.betting.actor
        hand = actor.hand

        def broken(*args: Any, **kw: Any) -> None:
            raise RuntimeError("engine bug")

        actor.game = type(actor.game)()
        actor.game.observe = broken  # type: ignore[method-assign]
        nonce = uuid.uuid4().hex
        message = p.Act(
            table=actor.id,
            nonce=nonce,
            version=actor.state.version,
            action={"type": "Call", "seat": first},
        )
        await actor.call("act", by_seat[first].conn, message)
        assert actor.hands_voided == 1 and actor.state is None
        acks = [m for m in by_seat[first].drain() if m["type"] == "ack" and m["nonce"] == nonce]
        assert len(acks) == 1
        bank: Any = actor.bank
        logged = bank._events(actor.id, hand)
        calls = [e for e in logged if e.get("type") == "Call" and e.get("seat") == first]
        assert len(calls) == 1
        assert logged[-1]["kind"] == "void"  # the action, then the void

    _run(body, timer_scale=1.0)


def test_a_restored_hand_nobody_comes_back_to_ends_within_a_turn_timer() -> None:
    """After a restart, the seats rebuilt from the log count as away (RULES.md §2.8): their
    players get one turn timer to come back, then their timeout default applies at once
    whenever they must act, so a hand nobody returns to ends one turn timer after it resumes
    (not one timer per turn: a Tiến lên hand has dozens)."""
    clock = ManualClock()

    async def body(services: WalletServices, hall: Hall) -> None:
        players = [Seat(services, f"p{i}") for i in range(3)]
        actor = _table(hall, "tien-len", 3, players[0])
        await _sit(actor, *players)
        await _until(lambda: actor.state is not None and actor.state.version > 1)
        hand, version = actor.hand, actor.state.version
        await actor.stop()
        rebuilt = TableActor(
            actor.id, actor.spec, bank=services.bank, settings=hall.settings, clock=hall.clock
        )
        assert rebuilt.recover() == "resumed"
        assert rebuilt.state.version == version
        assert all(s is not None and s.restored and not s.present for s in rebuilt.seats)
        hall.tables[actor.id] = rebuilt
        resumed = clock.now()
        rebuilt.start()
        await settle(hall)
        assert rebuilt.state is not None and rebuilt.hand == hand  # waits for its players
        turn = hall.settings.scaled(hall.settings.turn_timer)
        await advance_to(clock, hall, resumed + turn + 1e-6)
        assert rebuilt.hands_completed >= 1, rebuilt.state
        assert rebuilt.last_result is not None and rebuilt.last_result["hand"] == hand
        bank: Any = rebuilt.bank
        assert bank._events(rebuilt.id, hand)[-1]["kind"] == "settle"

    _run(body, clock=clock, timer_scale=1.0, between_hands=5)


def test_a_table_rebuilt_between_hands_keeps_its_players_seats_until_they_come_back() -> None:
    """Rebuilt between hands (another node took the table over, or the hall restarted), the
    last hand's players keep their seats and resume tokens (made with the hall's key kept in
    the database); no seat is dealt until its player comes back, one who comes back plays on,
    and one who does not loses the seat when the reconnection grace ends."""
    clock = ManualClock()

    async def body(services: WalletServices, hall: Hall) -> None:
        hall.resume_key = services.hall_secret("resume")
        actor, first, _ = await _finished_lieng_hand(services, hall)
        await _until(lambda: actor.state is None)
        seats = {i: (s.player.id, s.resume_token) for i, s in enumerate(actor.seats) if s}
        assert len(seats) == 2
        await actor.stop()
        rebuilt = TableActor(
            actor.id, actor.spec, bank=services.bank, settings=hall.settings, clock=hall.clock
        )
        rebuilt.resume_key = services.hall_secret("resume")  # the same key, read again
        assert rebuilt.recover() == "clean"
        assert {i: (s.player.id, s.resume_token) for i, s in enumerate(rebuilt.seats) if s} == (
            seats
        )
        assert all(s is not None and s.restored and not s.present for s in rebuilt.seats)
        assert rebuilt.seating.ready_seats() == []  # nobody is dealt in while away
        hall.tables[actor.id] = rebuilt
        rebuilt.start()
        await settle(hall)
        assert rebuilt.state is None and rebuilt.hand == actor.hand
        first.drain()
        token = seats[rebuilt.seat_of(first.info.id)][1]
        await rebuilt.call("resume", first.conn, token)  # the token held from before works
        mine = rebuilt.seats[rebuilt.seat_of(first.info.id)]
        assert mine is not None and mine.present
        grace = hall.settings.scaled(hall.settings.reconnect_grace)
        await advance_to(clock, hall, clock.now() + grace + 1e-6)
        assert [s.player.id for s in rebuilt.seats if s] == [first.info.id]  # the other went
        assert rebuilt.hands_completed == 0 and rebuilt.state is None

    _run(body, clock=clock, timer_scale=0.01, between_hands=1_000)


def test_players_back_at_a_rebuilt_table_after_its_pause_are_dealt_the_next_hand() -> None:
    """The rebuilt table's pause ran out before anyone was back (no hand: nobody present); the
    players who come back afterwards are dealt in after one more pause, not left waiting."""
    clock = ManualClock()

    async def body(services: WalletServices, hall: Hall) -> None:
        hall.resume_key = services.hall_secret("resume")
        players = [Seat(services, f"p{i}") for i in range(2)]
        actor = _table(hall, "lieng", 2, players[0])
        await _sit(actor, *players)
        await _until(lambda: actor.hands_completed >= 1 and actor.state is None)
        tokens = {s.player.id: s.resume_token for s in actor.seats if s}
        await actor.stop()
        rebuilt = TableActor(
            actor.id, actor.spec, bank=services.bank, settings=hall.settings, clock=hall.clock
        )
        rebuilt.resume_key = hall.resume_key
        assert rebuilt.recover() == "clean"
        hall.tables[actor.id] = rebuilt
        rebuilt.start()
        pause = hall.settings.scaled(hall.settings.between_hands)
        await advance_to(clock, hall, clock.now() + pause + 1e-6)  # its deal: nobody back
        assert rebuilt.state is None and rebuilt.hand == actor.hand
        for seat in players:
            await rebuilt.call("resume", seat.conn, tokens[seat.info.id])
        await advance_to(clock, hall, clock.now() + pause + 1e-6)
        assert rebuilt.state is not None and rebuilt.hand == actor.hand + 1
        assert len(rebuilt.seats) == 2 and all(s is not None and s.present for s in rebuilt.seats)

    _run(body, clock=clock, timer_scale=0.01, between_hands=1_000, reconnect_grace=5_000)


# ----- holds ---------------------------------------------------------------------------------
def _move_gold(services: WalletServices, source: Seat, target: Seat, amount: int) -> None:
    result = services.ledger.transfer(
        Transfer.single(
            f"test:{uuid.uuid4().hex}",
            player_account(source.info.id),
            player_account(target.info.id),
            amount,
            TransferCode.TRANSFER,
        )
    )
    assert result is ResultCode.OK


def _holds(services: WalletServices) -> dict[str, int]:
    return {t.debit_account: t.amount for t in services.ledger.open_holds()}


def test_a_hand_holds_what_it_can_cost_at_most_the_balance() -> None:
    """RULES.md §2.6: a non-Tẩy hand holds ``min(balance, Game.max_loss)`` of each player, so
    debts are capped at the whole balance and no more is held (Tiến lên, 3 seats: 155 L)."""

    async def body(services: WalletServices, hall: Hall) -> None:
        players = [Seat(services, f"p{i}") for i in range(3)]
        _move_gold(
            services, players[1], players[2], services.bank.balance(players[1].info.id) - 12_000
        )
        actor = _table(hall, "tien-len", 3, players[0])
        bound = actor.game.max_loss(TableConfig.make(seats=3, stake=100))
        assert bound == 15_500
        await _sit(actor, *players)
        await _until(lambda: actor.state is not None)
        expected = {
            player_account(p.info.id): h
            for p, h in zip(players, [bound, 12_000, bound], strict=True)
        }
        # Hand 1's holds by id: a deal with an instant win (tới trắng) settles hand 1 at once
        # and the next hand opens from the new balances, so the open holds may be hand 2's.
        first = {
            player_account(p.info.id): services.ledger.get_transfer(
                f"{actor.id}:h1:hold:{p.info.id}"
            )
            for p in players
        }
        assert {a: t.amount for a, t in first.items() if t is not None} == expected
        if actor.hand == 1:
            assert sorted(actor.state.config.stacks) == sorted(expected.values())

    _run(body, timer_scale=1.0)


def test_a_lieng_hand_holds_at_most_the_second_largest_balance() -> None:
    """Liêng: nobody can lose more than the second-largest balance at the table, so only the
    richest player's hold is trimmed, to one unit more than it."""

    async def body(services: WalletServices, hall: Hall) -> None:
        players = [Seat(services, f"p{i}") for i in range(3)]
        _move_gold(
            services, players[1], players[2], services.bank.balance(players[1].info.id) - 50_000
        )
        balances = [services.bank.balance(p.info.id) for p in players]
        actor = _table(hall, "lieng", 3, players[0])
        await _sit(actor, *players)
        await _until(lambda: actor.state is not None)
        expected = [balances[0], 50_000, balances[0] + 1]
        assert _holds(services) == {
            player_account(p.info.id): h for p, h in zip(players, expected, strict=True)
        }

    _run(body, timer_scale=1.0)


def test_the_tables_refusals_carry_text_codes_and_english() -> None:
    """A full table, sitting on a missing or taken seat, a buy-in out of range or without a
    seat, bots asked for by a guest: each ``error`` has its text code and the code's English."""

    async def body(services: WalletServices, hall: Hall) -> None:
        a, b, c = (Seat(services, n) for n in "abc")

        async def refusal(seat: Seat, command: str, data: Any) -> tuple[str, str, str]:
            seat.drain()
            await actor.call(command, seat.conn, data)
            errors = [m for m in seat.drain() if m["type"] == "error"]
            assert len(errors) == 1, errors
            error = errors[0]
            assert error["message"] == describe(error["text"]), error
            return error["code"], error["text"], error["message"]

        actor = _table(hall, "texas-holdem", 2, a)
        await _sit(actor, a)
        assert await refusal(a, "buyin", 10) == (
            "bad_amount",
            "buy_in_between:4000:20000",
            "buy in between 40.00 and 200.00",
        )
        assert await refusal(b, "buyin", 4000) == ("not_seated", "sit_down_first", "sit down first")
        no_seat = ("bad_amount", "no_seat_number:6", "there is no seat 6")
        assert await refusal(b, "sit", 5) == no_seat
        taken = actor._seat_of(a.info.id)
        assert taken is not None
        assert await refusal(b, "sit", taken) == (
            "seat_taken",
            f"seat_number_taken:{taken + 1}",
            f"seat {taken + 1} is taken",
        )
        await _sit(actor, b)
        assert await refusal(c, "sit", None) == ("table_full", "table_full", "the table is full")
        assert await refusal(b, "add_bots", 1) == (
            "not_host",
            "host_adds_bots",
            "only the host can add bots",
        )
        assert await refusal(b, "remove_bots", None) == (
            "not_host",
            "host_removes_bots",
            "only the host can send bots away",
        )
        assert await refusal(c, "stand", None) == (
            "not_seated",
            "no_seat_here",
            "you have no seat here",
        )

    _run(body, timer_scale=1.0)


# ----- provably fair seeds -------------------------------------------------------------------
async def _finished_lieng_hand(
    services: WalletServices, hall: Hall
) -> tuple[TableActor, Seat, dict[str, Any]]:
    """A heads-up Liêng hand played out by its turn timers: the table, a player, its result."""
    players = [Seat(services, f"p{i}") for i in range(2)]
    actor = _table(hall, "lieng", 2, players[0])
    await _sit(actor, *players)
    await _until(lambda: actor.hands_completed >= 1)
    results = [m for m in players[0].drain() if m["type"] == "result"]
    return actor, players[0], results[0]


def test_a_player_vs_player_hand_keeps_its_seed_by_default() -> None:
    """RULES.md §2.10: the seed rebuilds the deck, so folded hands and the undealt cards; a
    Liêng hand's result and its recall carry no seed (the hand's record keeps it)."""

    async def body(services: WalletServices, hall: Hall) -> None:
        _, seat, result = await _finished_lieng_hand(services, hall)
        assert result["hand"] == 1 and result["server_seed"] is None
        commitments = {m["commitment"] for m in seat.messages if m.get("commitment")}
        assert len(commitments) == 1, "the commitment was published during the hand"
        (listed,) = services.recall.hands_for(seat.info.id, 5)
        recalled = services.recall.hand_for(seat.info.id, listed["id"])
        assert recalled is not None and recalled["server_seed"] is not None  # kept, server side

    _run(body, timer_scale=0.01)


def test_a_hall_revealing_every_seed_proves_the_deal() -> None:
    """``reveal_seeds = "all"``: the Liêng result's seed matches the commitment published
    during the hand and rebuilds the logged deck (what ``sanh verify`` computes)."""

    async def body(services: WalletServices, hall: Hall) -> None:
        actor, seat, result = await _finished_lieng_hand(services, hall)
        seed = result["server_seed"]
        assert seed, "revealed"
        commitments = {m["commitment"] for m in seat.messages if m.get("commitment")}
        assert commitments == {commitment_of(seed)}
        deck = shuffled(DECKS[actor.game.info.deck], ProvablyFairRng(seed, actor.id, 1))
        logged = [
            event_from_json(actor.game, {k: v for k, v in e.items() if k not in {"kind", "seq"}})
            for e in _events(actor, 1)
        ]
        shuffles = [e for e in logged if isinstance(e, Shuffle)]
        assert shuffles and shuffles[0].order == tuple(deck)

    _run(body, timer_scale=0.01, reveal_seeds="all")


def test_reveal_seeds_takes_only_its_three_values() -> None:
    assert Settings(reveal_seeds="none").reveals_seed(banked=True) is False
    assert Settings().reveals_seed(banked=True) and not Settings().reveals_seed(banked=False)
    with pytest.raises(ValueError, match="reveal_seeds must be one of house, all, none"):
        Settings(reveal_seeds="sometimes")


def test_a_carried_winner_away_deals_a_first_game_at_once() -> None:
    """Phỏm carries the last winner's engine seat; with that player away the lineup is
    shorter: the carry is renumbered by player (:meth:`Game.remap_carry`), the winner is not in
    it, and the game is dealt at once as a first game (``{"winner": None}``)."""
    clock = ManualClock()

    async def body(services: WalletServices, hall: Hall) -> None:
        players = [Seat(services, f"p{i}") for i in range(3)]
        actor = _table(hall, "phom", 3, players[0])
        await _sit(actor, *players)
        actor.carry = {"winner": 2}  # the third seat won the last hand
        actor.carry_players = [p.info.id for p in players]
        await actor.call("disconnect", players[2].conn, None)
        await advance_to(clock, hall, clock.now() + 1.0)  # the pause
        assert actor.state is not None and actor.hand == 1
        assert actor.state.config.carry == {"winner": None}
        assert len(actor.hand_players) == 2

    _run(body, clock, timer_scale=1.0)


def test_a_money_carry_that_cannot_be_used_is_kept_and_the_hand_tried_again() -> None:
    """3 Cây Gà: a carried pot whose carry the engine refuses is never dropped (that would
    lose the pot's chips): the hand does not open, the carry is kept, and the table tries again
    after each pause (between hands, on its clock) instead of standing still."""
    clock = ManualClock()

    async def body(services: WalletServices, hall: Hall) -> None:
        players = [Seat(services, f"p{i}") for i in range(2)]
        actor = _table(hall, "ba-cay-ga", 2, players[0])
        actor.carry = {"pot": 300, "members": "broken"}
        await _sit(actor, *players)
        await advance_to(clock, hall, clock.now() + 1.0)  # the pause: no hand
        assert actor.state is None and actor.hand == 0
        assert actor.carry == {"pot": 300, "members": "broken"}
        assert clock.next_due() == clock.now() + 1.0, "no new try scheduled"

    _run(body, clock, timer_scale=1.0)


# ----- the carry across a changed lineup ------------------------------------------------------
_PREFER = ("Ready", "Start", "Bet", "Flip")


async def _drive(actor: TableActor, humans: list[Seat], until: Callable[[], bool]) -> None:
    """Play for ``humans`` (each acts its first legal action of :data:`_PREFER`, else lets its
    timer run) and move the clock one due time at a time until ``until()`` holds."""
    clock, hall = _ACTIVE[-1]
    sent: set[tuple[str, int, str]] = set()
    deadline = time.monotonic() + 60
    while not until():
        assert time.monotonic() < deadline, "timed out"
        acted = False
        for human in humans:
            views = human.views()
            if not views or actor.state is None:
                continue
            view = views[-1]["view"]
            legal = [a for a in view.get("legal_actions") or [] if a["type"] in _PREFER]
            legal.sort(key=lambda a: _PREFER.index(a["type"]))
            key = (human.info.id, view["version"], legal[0]["type"]) if legal else None
            if key is not None and key not in sent:
                sent.add(key)
                await _act(actor, human, legal[0], view["version"])
                acted = True
        await settle(hall)
        if not acted and not until():
            due = clock.next_due()
            if due is None:
                await asyncio.sleep(0.005)
            else:
                clock.advance_to(max(due, clock.now()))
                await settle(hall)


def _between_hands(actor: TableActor, hands: int) -> Callable[[], bool]:
    return lambda: actor.hands_completed >= hands and actor.state is None


def _money(services: WalletServices, players: list[Seat], table: str) -> int:
    """The players' posted balances, the house's (where a gà pot lives) and the escrow's."""
    accounts = [player_account(p.info.id) for p in players] + ["house", f"escrow:{table}"]
    return sum(services.ledger.balance(a) for a in accounts)


def test_a_ga_pot_stays_whole_when_a_member_leaves_between_rounds() -> None:
    """3 Cây Gà: a carried pot with three members; the middle member leaves between rounds
    (the last one's engine seat moves from 2 to 1). The next round is dealt as a carried round
    of the two members still here, with the whole pot (RULES.md §10.6: the leaver's gà stays),
    and no chip is created or lost: players + house + escrow unchanged, the audit clean."""
    from sanh.ledger.audit import audit

    async def body(services: WalletServices, hall: Hall) -> None:
        players = [Seat(services, f"g{i}") for i in range(3)]
        actor = _table(hall, "ba-cay-ga", 3, players[0])
        await _sit(actor, *players)
        carry: dict[str, Any] = {}
        for hands in range(1, 30):  # until a round ends with nobody on 10: the pot carries
            await _drive(actor, players, _between_hands(actor, hands))
            carry = actor.carry
            if carry["pot"] > 0 and len(carry["members"]) == 3:
                break
        assert carry["pot"] > 0 and carry["members"] == (0, 1, 2), carry
        before = _money(services, players, actor.id)
        await actor.call("leave", players[1].conn, None)
        await _until(lambda: actor.state is not None)
        state = actor.state
        assert state.config.carry == {"pot": carry["pot"], "members": (0, 1)}
        assert state.pot == carry["pot"] and not state.collecting
        assert [actor.seats[t].player.id for t in actor.hand_players] == [  # type: ignore[union-attr]
            players[0].info.id,
            players[2].info.id,
        ]
        assert _money(services, players, actor.id) == before
        report = audit(services.ledger, hold_max_age_s=None)
        assert report.ok, report

    _run(body, timer_scale=0.01)


def test_a_carried_phom_winner_stays_the_same_player_after_a_leave() -> None:
    """Phỏm: the winner's engine seat changes when a seat before it leaves between games;
    the next game's carry names the same player."""

    async def body(services: WalletServices, hall: Hall) -> None:
        players = [Seat(services, f"f{i}") for i in range(4)]
        # Ù K off: a next game that ended as it was dealt would carry its own winner on.
        actor = _table(hall, "phom", 4, players[0], {"phom.u_k": "off"})
        await _sit(actor, *players)
        winner: str | None = None
        for hands in range(1, 20):  # until the winner sits past seat 0 (someone before it)
            await _drive(actor, players, _between_hands(actor, hands))
            if actor.carry and actor.carry.get("winner"):
                winner = actor.carry_players[actor.carry["winner"]]  # type: ignore[index]
                break
        assert winner is not None
        first = actor.carry_players[0]  # type: ignore[index]
        leaver = next(p for p in players if p.info.id == first)  # seats after it move down
        await actor.call("leave", leaver.conn, None)
        await _until(lambda: actor.state is not None)
        seat = actor.state.config.carry["winner"]
        assert actor.seats[actor.hand_players[seat]].player.id == winner  # type: ignore[union-attr]

    _run(body, timer_scale=0.01)


def test_the_ba_cay_chuong_banker_stays_the_same_player_after_another_leaves() -> None:
    """Ba Cây Chương: the host (the last seat) banks; a player before it leaves between
    rounds, so the banker's engine seat moves from 3 to 2: the next round's banker is the same
    player (the carry is renumbered, not dropped)."""

    async def body(services: WalletServices, hall: Hall) -> None:
        players = [Seat(services, f"c{i}") for i in range(4)]
        actor = _table(hall, "ba-cay-chuong", 4, players[3])
        await _sit(actor, *players)
        await _drive(actor, players, _between_hands(actor, 1))
        banker = actor.carry_players[actor.carry["banker"]]  # type: ignore[index]
        leaver = next(p for p in players[:3] if p.info.id != banker)
        await actor.call("leave", leaver.conn, None)
        await _until(lambda: actor.state is not None)
        seat = actor.state.config.carry["banker"]
        assert actor.state.banker == seat
        assert actor.seats[actor.hand_players[seat]].player.id == banker  # type: ignore[union-attr]

    _run(body, timer_scale=0.01)
