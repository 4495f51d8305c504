"""House tables run rounds on their clock, with or without players (the hall-server issue).

The table actor in process over the real ledger (in-memory SQLite), as in ``test_table.py``:
a round of every house game opens, times out and settles with nobody seated, a spectator
watches it, a player who sits during the betting window bets in the round under way (the
engine's ``SitIn``, held in the ledger with the log entry), a player-hosted Tài Xỉu table
waits for its host, and a round with a player who sat in resumes after a restart.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from sanh.ledger.audit import audit
from sanh.ledger.model import ISSUER, Transfer, TransferCode, player_account
from sanh.server.hall import Hall
from sanh.server.table import TableActor
from sanh.server.wallet_services import WalletServices
from tests.server.test_table import Seat, _act, _events, _run, _table, _until

HOUSE = ["tai-xiu", "teen-patti-2020", "three-card-poker"]
WINDOW = {"tai-xiu": {"taixiu.betting_s": 20}, "teen-patti-2020": {"teenpatti.betting_s": 20}}
WINDOW["three-card-poker"] = {"tcp.betting_s": 20, "tcp.decision_s": 20}


def _results(seat: Seat) -> list[dict[str, Any]]:
    seat.drain()
    return [m for m in seat.messages if m["type"] == "result"]


@pytest.mark.parametrize("game_id", HOUSE)
def test_rounds_run_with_nobody_seated_and_a_spectator_sees_them(game_id: str) -> None:
    async def body(services: WalletServices, hall: Hall) -> None:
        watcher = Seat(services, "watcher")
        actor = _table(hall, game_id, 5, watcher, WINDOW[game_id])
        await actor.call("join", watcher.conn, None)
        await _until(lambda: actor.hands_completed >= 2, timeout=20)
        assert actor.seated == 0 and actor.hands_voided == 0
        watcher.drain()
        updates = [m for m in watcher.messages if m["type"] == "table" and m["view"]]
        assert updates, "the spectator saw the rounds"
        assert all(m["view"]["viewer"] is None for m in updates), "a spectator's public view"
        assert all(m["watching"] == 1 for m in updates), "the spectator counts as watching"
        assert any("table" in m["deadlines"] for m in updates), "the window's clock was shown"
        results = _results(watcher)
        assert [r["hand"] for r in results][:2] == [1, 2]
        for result in results:
            assert set(result["settlement"]["deltas"]) == {0}
            assert result["seats"] == [None] * 5
            assert result["server_seed"], "the round's seed is revealed"
        assert audit(services.ledger).ok

    _run(body, timer_scale=0.01, between_hands=0.5)


def _place(game_id: str, view: dict[str, Any]) -> dict[str, Any]:
    """A minimum bet on the main area of each game."""
    wanted = {"tai-xiu": "small", "teen-patti-2020": "player_a", "three-card-poker": "ante"}
    for amount_range in view["amount_ranges"]:
        template = amount_range["action"]
        if wanted[game_id] == template.get("bet"):
            return {**template, "amount": amount_range["min"]}
    raise AssertionError(f"no bet on {wanted[game_id]} in {view['amount_ranges']}")


async def _sit_and_bet(actor: TableActor, player: Seat, seat: int, game_id: str) -> None:
    """Join, sit at ``seat`` and place the minimum bet on the game's main area (confirmed
    where the game asks for it: Tài Xỉu's Đồng ý)."""
    await actor.call("join", player.conn, None)
    await actor.call("sit", player.conn, seat)
    view = player.last_view()
    await _act(actor, player, _place(game_id, view), view["version"])
    view = player.last_view()
    for action in view["legal_actions"]:
        if action["type"] == "Confirm":
            await _act(actor, player, action, view["version"])


@pytest.mark.parametrize("game_id", HOUSE)
def test_a_player_who_sits_during_the_window_bets_in_that_round(game_id: str) -> None:
    async def body(services: WalletServices, hall: Hall) -> None:
        player = Seat(services, "late")
        actor = _table(hall, game_id, 4, player, WINDOW[game_id])
        await _until(lambda: actor.state is not None, timeout=10)
        hand = actor.hand
        before = services.bank.balance(player.info.id)
        await actor.call("join", player.conn, None)
        await actor.call("sit", player.conn, 2)
        assert actor.hand == hand, "still the round that was open"
        view = player.last_view()
        assert view["viewer"] == 2 and view["amount_ranges"], "a private view with bets at once"
        await _act(actor, player, _place(game_id, view), view["version"])
        view = player.last_view()
        for action in view["legal_actions"]:
            if action["type"] == "Confirm":
                await _act(actor, player, action, view["version"])
        errors = [m for m in player.drain() if m["type"] == "error"]
        assert not errors, errors
        await _until(lambda: actor.hands_completed >= 1, timeout=20)
        result = next(r for r in _results(player) if r["hand"] == hand)
        assert result["seats"][2] == player.info.id
        assert result["seats"].count(None) == 3
        delta = result["settlement"]["deltas"][2]
        mine = [line for line in result["settlement"]["lines"] if line["seat"] == 2]
        assert any(line["stake"] > 0 for line in mine), "the bet was settled (a tie pushes)"
        assert delta == sum(line["amount"] for line in mine)
        assert services.bank.balance(player.info.id) == before + delta
        kinds = [(e["type"], e.get("chair")) for e in _events(actor, hand)]
        assert ("SitIn", 2) in kinds
        assert audit(services.ledger).ok
        assert not services.ledger.open_holds() or actor.state is not None

    _run(body, timer_scale=0.01, between_hands=0.5)


def test_a_player_hosted_tai_xiu_table_waits_for_its_host_the_bank() -> None:
    async def body(services: WalletServices, hall: Hall) -> None:
        host, guest = Seat(services, "host"), Seat(services, "guest")
        options = {"taixiu.table": "player", "taixiu.betting_s": 20}
        actor = _table(hall, "tai-xiu", 3, host, options)
        await _until(lambda: actor.task is not None)
        await actor.call("join", guest.conn, None)
        await actor.call("sit", guest.conn, 1)
        await actor.call("start", None, None)
        assert actor.state is None, "no round without the host's bank"
        await actor.call("join", host.conn, None)
        await actor.call("sit", host.conn, 0)
        await actor.call("start", None, None)
        assert actor.state is None, "sitting does not make anyone the banker"
        await actor.call("host", host.conn, 50_000)
        await _until(lambda: actor.state is not None, timeout=10)
        assert actor.state.config.host == 0
        assert actor.state.config.stacks[0] == 50_000, "the bank the host chose"
        view = guest.last_view()
        assert view["viewer"] == 1 and view["amount_ranges"]
        await _until(lambda: actor.hands_completed >= 1, timeout=20)
        assert audit(services.ledger).ok

    _run(body, timer_scale=0.01, between_hands=0.5)


def test_a_round_interrupted_in_its_window_is_refunded_to_a_player_who_sat_in() -> None:
    """RULES.md §2.8: a failure before the round starts (betting still open) cancels it and
    refunds every stake, a SitIn's hold included; the table goes on with the next round."""

    async def body(services: WalletServices, hall: Hall) -> None:
        player = Seat(services, "late")
        actor = _table(hall, "tai-xiu", 4, player, {"taixiu.betting_s": 200})
        await _until(lambda: actor.state is not None, timeout=10)
        initial = services.bank.balance(player.info.id)
        await _sit_and_bet(actor, player, 3, "tai-xiu")
        assert actor.state.confirmed[3], "the bet is confirmed"
        hand = actor.hand
        assert services.bank.balance(player.info.id) < initial, "the stack is held"
        await actor.stop()  # the process dies; a new actor rebuilds the table from the log
        rebuilt = TableActor(
            actor.id, actor.spec, bank=services.bank, settings=hall.settings, clock=hall.clock
        )
        assert rebuilt.recover() == "voided"
        assert services.bank.balance(player.info.id) == initial
        assert not services.ledger.open_holds()
        hall.tables[actor.id] = rebuilt
        rebuilt.start()
        await _until(lambda: rebuilt.state is not None, timeout=10)
        assert rebuilt.hand == hand + 1
        assert audit(services.ledger).ok

    _run(body, timer_scale=0.01, between_hands=5)


def test_a_dealt_round_with_a_player_who_sat_in_resumes_after_a_restart() -> None:
    """Three Card Poker: the player sat in, bet, and the cards were dealt; after a restart the
    round is rebuilt from the log with the player in their seat (the ``join`` entry), the
    pending decision times out (RULES.md §2.8) and the round settles exactly."""

    async def body(services: WalletServices, hall: Hall) -> None:
        player = Seat(services, "late")
        options = {"tcp.betting_s": 20, "tcp.decision_s": 300}
        actor = _table(hall, "three-card-poker", 3, player, options)
        await _until(lambda: actor.state is not None, timeout=10)
        initial = services.bank.balance(player.info.id)
        await _sit_and_bet(actor, player, 1, "three-card-poker")
        await _until(lambda: getattr(actor.state, "phase", "") == "decision", timeout=10)
        hand, version = actor.hand, actor.state.version
        await actor.stop()
        rebuilt = TableActor(
            actor.id, actor.spec, bank=services.bank, settings=hall.settings, clock=hall.clock
        )
        assert rebuilt.recover() == "resumed"
        assert rebuilt.hand == hand and rebuilt.state.version == version
        slot = rebuilt.seats[1]
        assert slot is not None and slot.player.id == player.info.id and slot.restored
        assert rebuilt.state.decisions[1] == "pending"
        hall.tables[actor.id] = rebuilt
        rebuilt.start()  # the decision window runs again: 3 s at this scale
        await _until(lambda: rebuilt.hands_completed >= 1, timeout=10)
        assert rebuilt.last_result is not None and rebuilt.last_result["hand"] == hand
        assert rebuilt.last_result["players"][1] == player.info.id
        settlement = rebuilt.last_result["settlement"]
        delta = settlement["deltas"][1]
        lines = [line for line in settlement["lines"] if line["seat"] == 1]
        (ante,) = [line for line in lines if line["item"] == "ante"]
        # The timed-out decision folded the Ante (at s000 a timeout earns no Ante Bonus, seed
        # 000; the side bets still settle, so the net may be 0 or more).
        assert ante["amount"] == -ante["stake"] < 0, lines
        assert ante["detail"] == "forced_fold:timeout", lines
        assert delta == sum(line["amount"] for line in lines)
        assert services.bank.balance(player.info.id) == initial + delta
        assert audit(services.ledger).ok

    _run(body, timer_scale=0.01, between_hands=5)


def test_a_house_bet_is_held_as_it_is_placed_and_refused_when_the_wallet_cannot_cover_it() -> None:
    """A house game needs only the amount bet (RULES.md §2.6): nothing is held when the round
    opens, each bet is held as it is placed (so a big bet is not capped), and a bet that the
    wallet can no longer cover (its gold went to a bet at another table) is refused with
    ``insufficient_funds`` and changes nothing."""

    async def body(services: WalletServices, hall: Hall) -> None:
        player = Seat(services, "whale")
        grant = Transfer.single(  # a guest starts with 1,000 gold: a whale is given more
            f"whale:{player.info.id}",
            ISSUER,
            player_account(player.info.id),
            10_000_000,
            TransferCode.ADMIN_GRANT,
        )
        assert services.ledger.submit([grant]).ok
        first = _table(hall, "tai-xiu", 3, player, {"taixiu.betting_s": 300})
        second = _table(hall, "tai-xiu", 3, player, {"taixiu.betting_s": 300})
        await _until(lambda: first.state is not None and second.state is not None, timeout=10)
        wallet = services.bank.balance(player.info.id)
        for actor in (first, second):
            await actor.call("join", player.conn, None)
            await actor.call("sit", player.conn, 0)
        assert services.bank.balance(player.info.id) == wallet, "sitting in holds nothing"
        big = wallet * 6 // 10  # thousands of L: a house bet is capped only by the wallet
        assert big > 1000 * 100
        view = player.last_view()
        assert view["viewer"] == 0
        bet = {"type": "Place", "seat": 0, "bet": "big", "amount": big}
        await _act(first, player, bet, first.state.version)
        assert services.bank.balance(player.info.id) == wallet - big, "held as it was placed"
        assert first.held == {0: big}
        told = [m["balance"] for m in player.drain() if m["type"] == "balance"]
        assert told == [wallet - big], "the page is told of the wallet's new balance"
        before = repr(second.state)
        player.drain()
        await _act(second, player, bet, second.state.version)
        errors = [m for m in player.drain() if m["type"] == "error"]
        assert [e["code"] for e in errors] == ["insufficient_funds"], errors
        assert errors[0]["text"].startswith("wallet_short:0:"), errors
        assert errors[0]["message"].startswith("p1's wallet cannot cover "), errors
        assert repr(second.state) == before and second.held == {}
        assert services.bank.balance(player.info.id) == wallet - big
        small = {"type": "Place", "seat": 0, "bet": "small", "amount": 100}
        await _act(second, player, small, second.state.version)
        assert second.held == {0: 100}
        assert services.bank.balance(player.info.id) == wallet - big - 100
        assert audit(services.ledger).ok

    _run(body, timer_scale=0.01, between_hands=0.5)


OLD_NAMES = {"tcp.variant": "variant", "tcp.betting_s": "betting_s", "tcp.decision_s": "decision_s"}
"""Three Card Poker options as tables and logs recorded them before they took RULES.md's names."""


def _rename_options(data: dict[str, Any]) -> dict[str, Any]:
    return {OLD_NAMES.get(name, name): value for name, value in data.items()}


def test_a_table_and_a_round_recorded_under_the_old_option_names_resume() -> None:
    """A table saved, and a round logged, before the options took RULES.md's names (``variant``,
    ``betting_s``, ``decision_s``): after a restart the hall rebuilds the table under the new
    names (``tcp.*``), the round resumes under its recorded rules (s002: a hand per player) and
    settles; a finished hand recorded under the old names still replays in recall."""

    async def body(services: WalletServices, hall: Hall) -> None:
        player = Seat(services, "old")
        options = {"tcp.variant": "s002", "tcp.betting_s": 20, "tcp.decision_s": 300}
        actor = _table(hall, "three-card-poker", 3, player, options)
        await _until(lambda: actor.state is not None, timeout=10)
        await _sit_and_bet(actor, player, 1, "three-card-poker")
        await _until(lambda: getattr(actor.state, "phase", "") == "decision", timeout=10)
        hand, version = actor.hand, actor.state.version
        await actor.stop()
        hall.tables.pop(actor.id)
        (spec,) = [data for table_id, data in services.bank.saved_tables() if table_id == actor.id]
        (opening,) = [e for e in services.bank._events(actor.id, hand) if e["kind"] == "open"]
        assert opening["config"]["options"] == options
        spec["options"] = _rename_options(spec["options"])
        opening["config"]["options"] = _rename_options(opening["config"]["options"])
        del opening["seq"]

        def rewrite(tx: Any) -> None:
            tx.execute("UPDATE hall_tables SET spec = ? WHERE id = ?", (json.dumps(spec), actor.id))
            tx.execute(
                "UPDATE table_events SET payload = ? WHERE table_id = ? AND hand = ? AND seq = 0",
                (json.dumps(opening), actor.id, hand),
            )

        services.ledger.store.run_write(rewrite)
        assert hall.restore() == {actor.id: "resumed"}
        rebuilt = hall.tables[actor.id]
        assert rebuilt.spec.options == options
        assert rebuilt.state.version == version and rebuilt.state.config.option_map == options
        assert rebuilt.state.rules.variant == "s002" and not rebuilt.state.rules.shared_player_hand
        await _until(lambda: rebuilt.hands_completed >= 1, timeout=10)
        assert rebuilt.last_result is not None and rebuilt.last_result["hand"] == hand
        (recorded,) = services.hands_for(player.info.id, 5)
        old_config = {**opening["config"]}

        def rewrite_hand(tx: Any) -> None:
            tx.execute(
                "UPDATE hands SET config = ? WHERE id = ?",
                (json.dumps(old_config), recorded["id"]),
            )

        services.ledger.store.run_write(rewrite_hand)
        recalled = services.hand_for(player.info.id, recorded["id"])
        assert recalled is not None and recalled["view"]["variant"] == "s002"
        assert recalled["settlement"] == rebuilt.last_result["settlement"]
        assert audit(services.ledger).ok

    _run(body, timer_scale=0.01, between_hands=5)


def test_a_play_the_wallet_can_no_longer_cover_is_the_seeds_fold() -> None:
    """Seed 000: a Play the balance cannot cover "mặc định là BỎ BÀI". The Ante was held when
    placed; the wallet then went to a bet at another table, so the Play's hold is refused: the
    player is told ``insufficient_funds`` and the server tells the engine, which folds the
    seat (``no_balance``) at once; by the s000 default that fold earns no Ante Bonus."""

    async def body(services: WalletServices, hall: Hall) -> None:
        player = Seat(services, "short")
        options = {"tcp.betting_s": 20, "tcp.decision_s": 300, "tcp.bet_max_multiple": 10**6}
        tcp = _table(hall, "three-card-poker", 3, player, options)
        dice = _table(hall, "tai-xiu", 3, player, {"taixiu.betting_s": 300})
        await _until(lambda: tcp.state is not None and dice.state is not None, timeout=10)
        wallet = services.bank.balance(player.info.id)
        ante = wallet * 4 // 10
        await tcp.call("join", player.conn, None)
        await tcp.call("sit", player.conn, 1)
        bet = {"type": "Bet", "seat": 1, "bet": "ante", "amount": ante}
        await _act(tcp, player, bet, tcp.state.version)
        assert tcp.held == {1: ante}
        await dice.call("join", player.conn, None)
        await dice.call("sit", player.conn, 0)
        spend = {"type": "Place", "seat": 0, "bet": "big", "amount": wallet * 5 // 10}
        await _act(dice, player, spend, dice.state.version)
        assert services.bank.balance(player.info.id) < ante
        await _until(lambda: getattr(tcp.state, "phase", "") == "decision", timeout=10)
        hand = tcp.hand
        assert tcp.state.decisions[1] == "pending"
        player.drain()
        await _act(tcp, player, {"type": "Play", "seat": 1}, tcp.state.version)
        errors = [m for m in player.drain() if m["type"] == "error"]
        assert [e["code"] for e in errors] == ["insufficient_funds"], errors
        await _until(lambda: tcp.last_result is not None and tcp.last_result["hand"] == hand)
        assert tcp.last_result is not None
        lines = [line for line in tcp.last_result["settlement"]["lines"] if line["seat"] == 1]
        (ante_line,) = [line for line in lines if line["item"] == "ante"]
        assert ante_line["amount"] == -ante
        assert ante_line["detail"] == "forced_fold:no_balance"
        assert not [line for line in lines if line["item"] == "ante_bonus"]
        events = _events(tcp, hand)
        assert {"type": "ForceFold", "target": 1, "reason": "no_balance"}.items() <= next(
            e for e in events if e["type"] == "ForceFold"
        ).items()
        assert audit(services.ledger).ok

    _run(body, timer_scale=0.01, between_hands=5)


@pytest.mark.parametrize("game_id", HOUSE)
def test_the_last_rounds_are_kept_sent_on_join_and_restored_after_a_restart(
    game_id: str,
) -> None:
    """The road (issue 12, item 7): each result brings the round's public record; a spectator
    who joins later gets the records of the rounds so far (``recent``); a table rebuilt from
    the log after a restart has the same list; and nothing in a record is hidden at the end."""

    async def body(services: WalletServices, hall: Hall) -> None:
        early = Seat(services, "early")
        actor = _table(hall, game_id, 5, early, WINDOW[game_id])
        await _until(lambda: actor.state is not None, timeout=10)
        # Three Card Poker deals only to a bet (a round nobody bets in has no record): the
        # player bets in the first round; the dice and Teen Patti's cards come anyway.
        await _sit_and_bet(actor, early, 1, game_id)
        await _until(lambda: actor.hands_completed >= 3, timeout=30)
        results = _results(early)
        records = [r["record"] for r in results if r["record"] is not None]
        assert records and records[0]["hand"] == 1, records
        if game_id != "three-card-poker":
            assert [r["hand"] for r in records] == [r["hand"] for r in results]
        for record in records:
            if game_id == "tai-xiu":
                assert len(record["dice"]) == 3 and record["total"] == sum(record["dice"])
                assert record["result"] in {"tai", "xiu", "triple"}
            elif game_id == "teen-patti-2020":
                assert record["outcome"] in {"A", "B", "tie"}
                assert len(record["hand_a"]) == len(record["hand_b"]) == 3
            else:
                assert len(record["dealer"]) == 3 and isinstance(record["qualifies"], bool)
        late = Seat(services, "late")
        await actor.call("join", late.conn, None)
        late.drain()
        (recent,) = [m for m in late.messages if m["type"] == "recent"]
        assert recent["records"][: len(records)] == records
        await actor.stop()
        rebuilt = TableActor(
            actor.id, actor.spec, bank=services.bank, settings=hall.settings, clock=hall.clock
        )
        rebuilt.recover()
        assert list(rebuilt.recent) == list(actor.recent)
        assert list(rebuilt.recent)[: len(records)] == records

    _run(body, timer_scale=0.01, between_hands=0.5)
