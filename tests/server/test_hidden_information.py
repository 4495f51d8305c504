"""Hidden information over real WebSocket connections (RULES.md §2.10).

One hall runs a table of every registered game at once, each with two players on real WebSocket
connections (random legal actions, some decisions left to the clock), a server bot and a
spectator, for :data:`ROUNDS` rounds. Every message each client received is recorded. Then the
table event log in the database (the deck order included) is replayed to every state version,
and for every message:

* a view is exactly the engine's view for that client at that version: its own seat's
  ``observe`` if it plays in the hand, the public view otherwise (never another seat's view,
  never a later state);
* no card in the message is hidden from that client by the rules at that version
  (:func:`tests.server.oracle.hidden_cards`, written from the raw state: the deck and the stock,
  other seats' face-down cards until a showdown or a flip, folded hands, the dealer's cards);
* a result names only cards the final state shows that client; other messages name no card.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from sanh.games import REGISTRY, find_game
from sanh.notation.jsonable import to_jsonable
from tests.server.conftest import HallProcess, free_port
from tests.server.harness import HandReplay, WsPlayer, query, replay_hand, table_log
from tests.server.oracle import cards_in, hidden_cards

ROUNDS = int(os.environ.get("SANH_TEST_HIDDEN_ROUNDS", "200"))
"""Settled rounds per game (the issue asks for hundreds)."""
STALL = 120
"""Seconds without a settled round that count as a hang (the only time limit of the play)."""
SCALE = 0.01
"""Timer scale: a 15 s turn is 0.15 s."""
FAST_WINDOWS: dict[str, dict[str, Any]] = {
    "tai-xiu": {"taixiu.betting_s": 10},
    "teen-patti-2020": {"teenpatti.betting_s": 10},
    "three-card-poker": {"tcp.betting_s": 10, "tcp.decision_s": 10},
    "sam-loc": {"samloc.declare_s": 10},
}
"""Shorter betting windows (table options), so that hundreds of rounds fit in the test."""


TABLES = {"phom": 3, "tien-len": 3, "sam-loc": 2, "texas-holdem": 2, "xi-to": 2}
"""Tables per game: the long games play on several tables at once."""
SHARED_HANDS = {"teen-patti-2020", "three-card-poker"}
"""Games where no seat holds a card the others may not see (a shared or public deal)."""


@pytest.fixture(scope="module")
def fast_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    tmp: Path = tmp_path_factory.mktemp("hidden")
    process = HallProcess(
        tmp / "hall.db",
        free_port(),
        SCALE,
        log=tmp / "hall.log",
        env={
            "SANH_HOUSE_TAI_XIU_TABLES": "1",  # house Tài Xỉu tables with their own clocks
            "SANH_BETWEEN_HANDS": "0.5",
            "SANH_BOT_DELAY": "0.25",
            "SANH_BOT_SAMPLES": "30",
            # Players answer every update at once, faster than people: no rate limit here.
            "SANH_RATE_PER_SECOND": "1000",
            "SANH_RATE_BURST": "1000",
        },
    )
    process.start()
    yield process
    process.stop()


async def _open_table(
    http: httpx.AsyncClient, hall: HallProcess, game_id: str, index: int
) -> tuple[str, list[WsPlayer]]:
    base = hall.url
    info = REGISTRY[game_id].info
    seats = max(info.seats_min, 3) if info.seats_max >= 3 else info.seats_max
    players = [
        await WsPlayer.guest(
            http, base, f"{game_id} t{index} p{k}", seed=index * 10 + k, idle_rate=0.02
        )
        for k in range(2)
    ]  # names are unique in a hall: each table's players have their own
    watcher = await WsPlayer.guest(http, base, f"{game_id} t{index} w", mode="watch")
    host = players[0]
    created = await http.post(
        f"{base}/api/tables",
        json={
            "game": game_id,
            "stake": 100,
            "seats": seats,
            "options": FAST_WINDOWS.get(game_id, {}),
        },
        headers={"authorization": f"Bearer {host.token}"},
    )
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    for player in (*players, watcher):
        await player.connect()
        await player.send({"type": "join", "table": table})
    for player in players:
        await player.send({"type": "sit", "table": table})
    await host.send({"type": "add_bots", "table": table, "count": seats - len(players)})
    return table, [*players, watcher]


def _settled(hall: HallProcess, table: str) -> int:
    rows = query(hall.db_url, "SELECT COUNT(*) FROM hands WHERE table_id = ?", (table,))
    return int(rows[0][0])


async def _play(hall: HallProcess) -> dict[str, list[tuple[str, list[WsPlayer]]]]:
    tables: dict[str, list[tuple[str, list[WsPlayer]]]] = {}
    async with httpx.AsyncClient(timeout=30) as http:
        index = 0
        for game_id in sorted(REGISTRY):
            tables[game_id] = []
            for _ in range(TABLES.get(game_id, 1)):
                tables[game_id].append(await _open_table(http, hall, game_id, index))
                index += 1
        # Only a hang fails: the tables play as fast as the machine lets them, and the check
        # is that rounds keep settling (STALL seconds without one is a hang), not how fast.
        loop = asyncio.get_running_loop()
        progress, moved = -1, loop.time()
        playing = dict(tables)
        while playing:
            await asyncio.sleep(1)
            total = sum(_settled(hall, t) for ts in playing.values() for t, _ in ts)
            if total != progress:
                progress, moved = total, loop.time()
            for game_id, game_tables in list(playing.items()):
                if sum(_settled(hall, table) for table, _ in game_tables) < ROUNDS:
                    continue
                # Enough rounds: the bots go, everyone leaves, the tables fall quiet.
                for table, clients in game_tables:
                    await clients[0].send({"type": "remove_bots", "table": table})
                await asyncio.sleep(0.2)
                for _, clients in game_tables:
                    for client in clients:
                        await client.close()
                del playing[game_id]
            if playing and loop.time() - moved > STALL:
                counts = {g: sum(_settled(hall, t) for t, _ in ts) for g, ts in playing.items()}
                raise AssertionError(f"no round settled in {STALL} s (a hang): {counts}")
    return tables


def _scrub(message: dict[str, Any]) -> dict[str, Any]:
    """The message without client-side stamps and player-chosen names."""
    clean = {k: v for k, v in message.items() if k != "_t"}
    if (
        isinstance(clean.get("seats"), list)
        and clean["seats"]
        and isinstance(clean["seats"][0], dict)
    ):
        clean["seats"] = [{k: v for k, v in s.items() if k != "name"} for s in clean["seats"]]
    return clean


def _check_record(
    game_id: str, client: WsPlayer, hands: dict[int, HandReplay], record: dict[str, Any]
) -> None:
    replay = hands[record["hand"]]
    final = replay.states[-1]
    assert find_game(game_id).is_terminal(final)
    hidden = hidden_cards(game_id, final, replay.seat_of(client.player))
    leak = cards_in(record) & hidden
    assert not leak, f"{game_id}: a record sent to {client.name} names hidden {sorted(leak)}"


def _check_client(
    game_id: str, client: WsPlayer, hands: dict[int, HandReplay], views_cache: dict[Any, Any]
) -> tuple[int, int]:
    """Check every message one client received; returns (messages, views) checked."""
    game = find_game(game_id)
    checked_views = 0
    shown: set[str] = set()  # every card the client's views have shown it so far
    for raw in client.messages:
        message = _scrub(raw)
        kind = message["type"]
        if kind == "table" and message.get("view") is not None:
            replay = hands[message["hand"]]
            view = message["view"]
            state = replay.states[view["version"]]
            viewer = replay.seat_at(client.player, view["version"])
            key = (id(replay), view["version"], viewer)
            if key not in views_cache:
                expected = to_jsonable(game.observe(state, viewer))
                hidden = hidden_cards(game_id, state, viewer)
                views_cache[key] = (expected, cards_in(expected) & hidden, hidden)
            expected, view_leak, hidden = views_cache[key]
            assert view == expected, (
                f"{game_id}: {client.name} was sent another view than its own"
                f" (hand {message['hand']} v{view['version']}, seat {viewer})"
            )
            rest = {k: v for k, v in message.items() if k != "view"}
            leak = view_leak | (cards_in(rest) & hidden)
            assert not leak, f"{game_id}: {client.name} saw hidden {sorted(leak)} at {view}"
            shown |= cards_in(view)
            checked_views += 1
        elif kind == "result" and message.get("settlement"):
            replay = hands[message["hand"]]
            final = replay.states[-1]
            assert game.is_terminal(final)
            hidden = hidden_cards(game_id, final, replay.seat_of(client.player))
            leak = cards_in(message["settlement"]) & hidden
            assert not leak, f"{game_id}: {client.name}'s result names hidden {sorted(leak)}"
            if message.get("record") is not None:
                _check_record(game_id, client, hands, message["record"])
        elif kind == "recent":
            # A hand's public record (the table's last results) names only cards every seat
            # saw at the end of that hand.
            for record in message["records"]:
                _check_record(game_id, client, hands, record)
        elif kind == "error" and message.get("nonce") in client.sent_actions:
            # A refused act may name the cards the client sent in it ("not_held:Tc") or has
            # been shown ("does_not_beat:...", the combination on the table), no other.
            sent = cards_in(client.sent_actions[message["nonce"]])
            assert cards_in(message) <= sent | shown, f"{game_id}: a card in {message}"
        else:
            assert not cards_in(message), f"{game_id}: a card in {message}"
    return len(client.messages), checked_views


_JOBS: list[tuple[str, str, list[WsPlayer], str]] = []
"""The tables to check (set before forking the checking processes)."""


def _check_table(index: int) -> tuple[int, int, int]:
    """Check every client of one table; returns (rounds settled, messages, views)."""
    game_id, table, clients, db_url = _JOBS[index]
    log = table_log(db_url, table)
    hands = {hand: replay_hand(events) for hand, events in log.items()}
    settled = sum(1 for h in hands.values() if h.outcome == "settle")
    cache: dict[Any, Any] = {}
    messages = views = 0
    for client in clients:
        got, seen = _check_client(game_id, client, hands, cache)
        messages += got
        views += seen
    return settled, messages, views


def test_no_client_is_sent_a_card_hidden_from_it(fast_hall: HallProcess) -> None:
    started = time.monotonic()
    tables = asyncio.run(_play(fast_hall))
    played = time.monotonic() - started
    jobs = [(g, t, clients) for g, ts in tables.items() for t, clients in ts]
    for game_id, _, clients in jobs:
        # Every client took part: the players acted, everyone saw the table.
        for client in clients:
            assert client.of_type("table"), f"{game_id}: {client.name} got no update"
        assert any(c.sent_acts for c in clients[:2]), f"{game_id}: the players never acted"
    # The check is CPU work over recorded messages: two processes (fork) share it.
    _JOBS[:] = [(g, t, c, fast_hall.db_url) for g, t, c in jobs]
    context = multiprocessing.get_context("fork")
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=context) as pool:
        results = list(pool.map(_check_table, range(len(_JOBS))))
    _JOBS.clear()
    totals: dict[str, list[int]] = {}
    for (game_id, _, _), counts in zip(jobs, results, strict=True):
        total = totals.setdefault(game_id, [0, 0, 0])
        for i, count in enumerate(counts):
            total[i] += count
    for game_id, (settled, _, _) in totals.items():
        assert settled >= ROUNDS, f"{game_id}: {settled} rounds"
    checked = time.monotonic() - started - played
    print(f"\nhidden information: play {played:.0f} s, check {checked:.0f} s:", totals)


def test_the_oracle_catches_a_wrong_view_or_the_deck() -> None:
    """The check has teeth: seat 0's private view shown to seat 1 is caught (in every game with
    private hands), and so is the deck order shown to anyone (in every card game)."""
    from sanh.cards.rng import SeededRng
    from sanh.games.base import Shuffle, TableConfig
    from sanh.games.driver import random_playout

    for game_id, game in sorted(REGISTRY.items()):
        if game.info.deck == "dice":
            continue
        caught = deck_caught = 0
        for seed in range(40):

            def check(state: Any, event: Any, game: Any = game, game_id: str = game_id) -> None:
                nonlocal caught, deck_caught
                mine = cards_in(to_jsonable(game.observe(state, 0)))
                if mine & hidden_cards(game_id, state, 1):
                    caught += 1
                if isinstance(event, Shuffle):
                    after = game.apply(state, event)
                    if cards_in(to_jsonable(event)) & hidden_cards(game_id, after, 1):
                        deck_caught += 1

            seats = min(max(3, game.info.seats_min), game.info.seats_max)
            random_playout(game, TableConfig.make(seats=seats), SeededRng(seed), on_event=check)
        assert deck_caught, f"{game_id}: the oracle never catches the deck order"
        if game_id not in SHARED_HANDS:
            assert caught, f"{game_id}: the oracle never catches a swapped view"
