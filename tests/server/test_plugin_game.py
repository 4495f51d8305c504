"""A game defined outside sanh, hosted by the hall from its declarations alone (issue 13, item 1).

High card (``tests/games_plugin/sanh_high_card.py``) is laid out as an installed distribution
(the module and its ``dist-info/entry_points.txt`` in the ``sanh.games`` group): with that
directory on the path, :func:`sanh.games.load_entry_points` registers it through
``importlib.metadata``, and nothing in ``sanh/`` names it. It is a Tẩy game (buy-in panel with
its own range and timer option) whose hand is a simultaneous betting window on its own clock
(``highcard.betting_s``), closed by the table.

- the entry point registers the game (and only once; no built-in name is taken), and the
  game passes the conformance suite;
- over real WebSockets on the manual clock (:class:`~tests.server.harness.InProcessHall`): the
  buy-in panel's range and deadline, the betting window's deadline, the table closing it, the
  settlement between table stakes; then a hall stopped mid-hand and a new one on the same
  database rebuilds the table from its event log and plays the hand out on its clock;
- a real ``sanh serve`` with the plugin on its ``PYTHONPATH`` is killed (SIGKILL) mid-hand,
  restarted, and the hand resumes and ends; the books are audited after each.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import sanh.games
from sanh.games import REGISTRY, find_game, load_entry_points
from sanh.server.settings import Settings
from sanh.server.table import TableActor
from tests.games import test_conformance as conformance
from tests.server.conftest import Client, HallProcess, free_port
from tests.server.harness import InProcessHall, WsPlayer, table_log
from tests.server.test_e2e_games import audit, gold_of

PLUGIN = Path(__file__).resolve().parents[1] / "games_plugin"
GAME = "high-card"
STAKE = 100
BETTING_S = 12
BUYIN_S = 9


@pytest.fixture
def plugin(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The plugin directory on ``sys.path`` (and ``PYTHONPATH``, for ``sanh audit``), its
    entry point loaded; the registry as it was afterwards."""
    assert GAME not in REGISTRY
    registry, aliases = dict(REGISTRY), dict(sanh.games._ALIASES)
    loaded = set(sanh.games._LOADED)
    monkeypatch.syspath_prepend(str(PLUGIN))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(PLUGIN), *sys.path])))
    added = load_entry_points()
    try:
        assert [g.info.id for g in added] == [GAME]
        yield added[0]
    finally:
        REGISTRY.clear()
        REGISTRY.update(registry)
        sanh.games._ALIASES.clear()
        sanh.games._ALIASES.update(aliases)
        sanh.games._LOADED.clear()
        sanh.games._LOADED.update(loaded)
        sys.modules.pop("sanh_high_card", None)


def test_the_entry_point_registers_the_game_once(plugin: Any) -> None:
    names = {e.name: e.value for e in importlib.metadata.entry_points(group="sanh.games")}
    assert names[GAME] == "sanh_high_card:GAMES"
    assert type(plugin).__module__ == "sanh_high_card"  # loaded from the entry point's module
    assert find_game("Bài Cao") is plugin and find_game("high card") is plugin
    assert load_entry_points() == []  # already loaded
    assert find_game("poker").info.id == "texas-holdem"  # built-in names stay theirs


def test_a_broken_or_clashing_entry_point_is_skipped(
    plugin: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An entry point that does not load, names no game, or takes a registered id is skipped
    with a warning; the registry is unchanged."""
    entries = [
        importlib.metadata.EntryPoint("missing", "sanh_no_such_module:GAMES", "sanh.games"),
        importlib.metadata.EntryPoint("not-games", "sanh.games.hosting:Hosting", "sanh.games"),
        importlib.metadata.EntryPoint("clash", "sanh.games.tai_xiu:GAMES", "sanh.games"),
    ]
    monkeypatch.setattr(sanh.games, "_entry_points", lambda: entries)
    before = dict(REGISTRY)
    with pytest.warns(RuntimeWarning) as warned:
        assert load_entry_points() == []
    assert len(warned) == 3
    assert "'tai-xiu' taken" in str(warned[2].message)
    assert before == REGISTRY


def test_the_plugin_game_passes_the_conformance_suite(plugin: Any) -> None:
    """The engine contract every registered game is held to (tests/games/test_conformance.py),
    for the game registered through its entry point."""
    conformance.test_random_hands_follow_the_contract(GAME)
    conformance.test_same_seed_same_hand(GAME)
    conformance.test_registry_names(GAME)


def _settings() -> Settings:
    return Settings(
        turn_timer=15.0,
        between_hands=3.0,
        bot_delay=0.6,
        timer_scale=1.0,
        bots_on_start=False,
        rate_per_second=1000,
        rate_burst=1000,
    )


def _betting(message: dict[str, Any], hand: int = 0) -> bool:
    view = message.get("view")
    return (
        message.get("type") == "table"
        and message["hand"] > hand
        and view is not None
        and view.get("phase") == "betting"
        and view.get("viewer") is not None
    )


async def _sit(player: WsPlayer, table: str) -> dict[str, Any]:
    await player.connect()
    mark = len(player.messages)
    await player.send({"type": "join", "table": table})
    await player.send({"type": "sit", "table": table})
    return await player.wait_for(lambda m: m.get("type") == "buyin_panel", 30, mark)


async def _act(player: WsPlayer, message: dict[str, Any], kind: str) -> None:
    view = message["view"]
    action = next(a for a in view["legal_actions"] if a["type"] == kind)
    mark = len(player.messages)
    await player.send(
        {
            "type": "act",
            "table": message["table"],
            "nonce": f"{player.name}-{view['version']}",
            "version": view["version"],
            "action": action,
        }
    )
    answer = await player.wait_for(lambda m: m.get("type") in {"ack", "error"}, 30, mark)
    assert answer["type"] == "ack", answer


async def _step_until(hall: InProcessHall, check: Any, limit: float) -> None:
    """Move the hall's clock on in half-second steps until ``check()``, at most ``limit`` s."""
    start = hall.clock.now()
    while not check():
        assert hall.clock.now() - start <= limit, "the clock moved on and nothing happened"
        await hall.advance(0.5)


def test_the_hall_hosts_the_plugin_game_with_its_clocks_and_recovers_it(
    plugin: Any, tmp_path: Path
) -> None:
    db = tmp_path / "hall.db"

    async def first(http: httpx.AsyncClient) -> tuple[str, list[WsPlayer], int, dict[str, int]]:
        async with InProcessHall(db, _settings()) as hall:
            games = (await http.get(f"{hall.url}/api/games")).json()["games"]
            offered = next(g for g in games if g["id"] == GAME)
            assert {o["name"] for o in offered["options"]} == {
                "highcard.betting_s",
                "highcard.buyin_s",
            }
            rules = (await http.get(f"{hall.url}/api/rules")).json()
            assert any(g["id"] == GAME for g in rules["games"])
            players = [
                await WsPlayer.guest(http, hall.url, name, mode="idle") for name in ("an", "binh")
            ]
            created = await http.post(
                f"{hall.url}/api/tables",
                json={
                    "game": GAME,
                    "stake": STAKE,
                    "seats": 3,
                    "options": {"highcard.betting_s": BETTING_S, "highcard.buyin_s": BUYIN_S},
                },
                headers={"authorization": f"Bearer {players[0].token}"},
            )
            assert created.status_code == 201, created.text
            table = created.json()["id"]
            assert hall.hall is not None and hall.services is not None
            actor: TableActor = hall.hall.tables[table]
            bank = hall.services.bank
            # The buy-in panel: the game's range (4 L to 20 L) and its timer option.
            sat = hall.clock.now()
            for player in players:
                panel = await _sit(player, table)
                assert (panel["min"], panel["max"]) == (4 * STAKE, 20 * STAKE)
                assert panel["deadline"] == pytest.approx(sat + BUYIN_S)
            gold = {p.player: gold_of(hall, p.player) for p in players}
            mark = len(players[0].messages)
            await players[0].send({"type": "buyin", "table": table, "amount": 4 * STAKE})
            await players[0].wait_for(lambda m: m.get("type") == "table", 30, mark)
            # The second player lets the panel's clock take the maximum, at its deadline.
            await hall.advance(BUYIN_S - 0.5)
            assert bank.table_stake(table, players[1].player) == 0 and actor.state is None
            await hall.advance(0.5)
            assert bank.table_stake(table, players[1].player) == 20 * STAKE
            assert bank.table_stake(table, players[0].player) == 4 * STAKE
            await _step_until(hall, lambda: actor.state is not None, 10)
            opened = hall.clock.now()
            message = await players[0].wait_for(_betting, 30)
            hand = message["hand"]
            # The betting window: one table deadline, the game's option (not the turn timer).
            assert message["deadlines"] == {"table": pytest.approx(opened + BETTING_S)}
            assert len(message["view"]["to_act"]) == 2
            assert message["view"]["cards"].count(None) == 1  # the other card is hidden
            await _act(players[0], message, "Play")
            await hall.settle()
            assert actor.state is not None and actor.game.phase(actor.state) == "betting"
            version = actor.state.version
            for player in players:
                await player.close()
        return table, players, hand, {"version": version, **gold}

    async def second(
        http: httpx.AsyncClient,
        table: str,
        players: list[WsPlayer],
        hand: int,
        seen: dict[str, int],
    ) -> None:
        async with InProcessHall(db, _settings()) as hall:
            # A new hall on the same database: a returning player's join rebuilds the table
            # from its event log, in the same hand at the same version.
            watcher = players[1]
            watcher.base_url = hall.url  # the new hall listens elsewhere
            await watcher.connect()
            mark = len(watcher.messages)
            await watcher.send({"type": "join", "table": table})
            update = await watcher.wait_for(lambda m: m.get("type") == "table", 30, mark)
            assert update["hand"] == hand and update["view"]["version"] == seen["version"]
            assert update["view"]["phase"] == "betting"
            assert hall.hall is not None
            actor = hall.hall.tables[table]
            assert actor.recovery == "resumed"
            # The window's clock closes the bets: the seat that never chose folds.
            await _step_until(hall, lambda: actor.state is None, BETTING_S + 30)
            result = await watcher.wait_for(lambda m: m.get("type") == "result", 30, mark)
            assert result["hand"] == hand
            events = [e for e in table_log(hall.db_url, table)[hand] if e["kind"] == "event"]
            assert [e["type"] for e in events] == ["shuffle", "Play", "CloseBetting"]
            assert events[-1]["seat"] is None
            # The player who played takes the folded ante; no chip was made or lost.
            net = {p.player: gold_of(hall, p.player) - seen[p.player] for p in players}
            assert net == {players[0].player: STAKE, players[1].player: -STAKE}
            await watcher.close()

    async def main() -> None:
        async with httpx.AsyncClient(timeout=120) as http:
            table, players, hand, seen = await first(http)
            await second(http, table, players, hand, seen)

    asyncio.run(main())
    report = audit(_Db(db))
    assert report["ok"] is True, report


class _Db:
    """What :func:`audit` reads of a hall: its database URL."""

    def __init__(self, db: Path) -> None:
        self.db_url = f"sqlite:///{db}"


def test_a_real_server_killed_mid_hand_of_the_plugin_game_resumes_it(
    plugin: Any, tmp_path: Path
) -> None:
    """``sanh serve`` finds the game through the entry point on its ``PYTHONPATH``; SIGKILL
    while the betting window is open, after one acknowledged Play; after the restart the hand
    resumes with that Play and ends on the clock, and the books are audited."""
    hall = HallProcess(
        tmp_path / "hall.db",
        free_port(),
        0.1,
        log=tmp_path / "hall.log",
        env={"PYTHONPATH": os.environ["PYTHONPATH"]},
    )
    hall.start()
    try:
        players = [Client.guest(hall, f"p{i}") for i in range(2)]
        created = players[0].http(
            "POST",
            "/api/tables",
            json={"game": GAME, "stake": STAKE, "seats": 2, "options": {"highcard.betting_s": 60}},
        )
        assert created.status_code == 201, created.text
        table = created.json()["id"]
        gold = {c.player: gold_of(hall, c.player) for c in players}
        for client in players:
            client.connect()
            client.send({"type": "join", "table": table})
            client.send({"type": "sit", "table": table})
            panel = client.until("buyin_panel")
            client.send({"type": "buyin", "table": table, "amount": panel["max"]})
        deadline = time.monotonic() + 60  # bounds a hang only
        hand = 0
        while not hand:
            assert time.monotonic() < deadline, "no hand was dealt"
            update = players[0].until("table")
            view = update["view"]
            if view and view.get("phase") == "betting" and view["legal_actions"]:
                hand = update["hand"]
                play = next(a for a in view["legal_actions"] if a["type"] == "Play")
                players[0].send(
                    {
                        "type": "act",
                        "table": table,
                        "nonce": "n1",
                        "version": view["version"],
                        "action": play,
                    }
                )
        assert players[0].until("ack")["nonce"] == "n1"
        hall.kill()
        for client in players:
            client.close()
        hall.start()
        watcher = Client.guest(hall, "watcher")
        watcher.connect()
        watcher.send({"type": "join", "table": table})
        update = watcher.until("table")
        assert update["hand"] == hand and update["view"]["phase"] == "betting"
        assert update["view"]["decided"].count(True) == 1  # the acknowledged Play survived
        # The 60 s window (6 s at this scale) closes on the restarted hall's clock.
        deadline = time.monotonic() + 90  # bounds a hang only
        while True:
            assert time.monotonic() < deadline, "the resumed hand did not end"
            message = watcher.recv(90)
            if message.get("type") == "result":
                assert message["hand"] == hand
                break
        events = [e for e in table_log(hall.db_url, table)[hand] if e["kind"] == "event"]
        # The restored seat that never came back is played by the clock (RULES.md §2.8: a
        # timeout once its turn timer has passed since the resumption, or the window's close).
        assert [e["type"] for e in events[:2]] == ["shuffle", "Play"]
        assert [(e["type"], e["seat"]) for e in events[2:]] in (
            [("Fold", 1)],
            [("CloseBetting", None)],
        )
        net = {c.player: gold_of(hall, c.player) - gold[c.player] for c in players}
        assert net == {players[0].player: STAKE, players[1].player: -STAKE}
        watcher.close()
    finally:
        hall.stop()
    report = audit(hall)
    assert report["ok"] is True, report
