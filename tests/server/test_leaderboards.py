"""Leaderboards after random play over real WebSockets, against a brute-force sum over the
ledger (sanh/server/leaderboards.py, ``GET /api/leaderboards/{game}``).

Two players and a bot play hands of two games (the players' moves random and legal, the bot's
its own, the clock's defaults for what nobody plays). Then, for each game and for ``all``, and
for today, this week and all time, every board row is checked against what the ledger says
each hand did to the player's wallet: the net is the sum of the credits less the debits of
the player's wallet in the hand's batches (posted holds and single transfers), hands are the
settled hands the player held gold in, the biggest pot is the largest single-hand net won.
Bots played and are in none of the boards; clans' XP is ``clans.xp``.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx

from sanh.ledger.model import player_account
from tests.server.harness import InProcessHall, WsPlayer, db_path
from tests.server.test_leaving import _deal, _run, _table

GAMES = ("tien-len", "lieng")
HANDS = 4


def _ledger_truth(
    db_url: str, tables: dict[str, str], players: list[str]
) -> dict[str, dict[str, tuple[int, int, int]]]:
    """Per game (and ``all``), per player: (net, hands, best) from the ledger's transfers."""
    per_hand: dict[tuple[str, str, str], int] = defaultdict(int)
    held: set[tuple[str, str, str]] = set()
    settled: set[tuple[str, str]] = set()
    with contextlib.closing(sqlite3.connect(db_path(db_url))) as db:
        rows = db.execute(
            "SELECT batch_id, kind, debit_account, credit_account, amount FROM transfers"
        ).fetchall()
    wallets = {player_account(p): p for p in players}
    for batch, kind, debit, credit, amount in rows:
        table, _, rest = (batch or "").partition(":h")
        if table not in tables or not rest:
            continue
        hand, _, step = rest.partition(":")
        if step == "settle":
            settled.add((table, hand))
        if kind == "pending" and debit in wallets:
            held.add((table, hand, wallets[debit]))
        if kind not in ("single", "post"):
            continue
        if credit in wallets:
            per_hand[(table, hand, wallets[credit])] += amount
        if debit in wallets:
            per_hand[(table, hand, wallets[debit])] -= amount
    out: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    for table, hand, player in held:
        if (table, hand) not in settled:
            continue  # a voided hand (every hold released) counts nowhere
        net = per_hand[(table, hand, player)]
        for game in (tables[table], "all"):
            row = out[game][player]
            row[0] += net
            row[1] += 1
            row[2] = max(row[2], net)
    return {g: {p: (r[0], r[1], r[2]) for p, r in rows_.items()} for g, rows_ in out.items()}


async def _finish(hall: InProcessHall, actor: Any, hand: int) -> None:
    """Move the clock on until hand ``hand`` has its result. The players here act in real time
    over their WebSockets, so the next hand may already be dealt when the loop looks: only the
    settled hands count below (a hand still under way at the end is in no board and in no sum)."""
    while actor.state is not None and actor.hand == hand:
        due = hall.clock.next_due()
        assert due is not None, "nothing is scheduled and the hand is not over"
        await hall.advance_to(due)


def _board(rows: list[dict[str, Any]]) -> dict[str, tuple[int, int, int]]:
    return {r["player"]: (r["net"], r["hands"], r["best"]) for r in rows}


def test_leaderboards_are_the_ledger_s_sums_without_bots(tmp_path: Path) -> None:
    async def body(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        lan = await WsPlayer.guest(http, hall.url, "lan", mode="play", seed=1)
        minh = await WsPlayer.guest(http, hall.url, "minh", mode="play", seed=2)
        clan = await http.post(
            f"{hall.url}/api/clans",
            json={"name": "Rồng Vàng"},
            headers={"authorization": f"Bearer {lan.token}"},
        )
        assert clan.status_code == 201, clan.text
        tables: dict[str, str] = {}
        for game in GAMES:
            actor = await _table(hall, http, game, lan, [lan, minh], bots=1)
            tables[actor.id] = game
            played = 0
            for _ in range(HANDS):
                hand = await _deal(hall, actor, played)
                await _finish(hall, actor, hand)
                played = hand
        for player in (lan, minh):
            await player.close()

        humans = [lan.player, minh.player]
        assert hall.services is not None
        with hall.services.ledger.store.read() as tx:
            bots = [str(r[0]) for r in tx.execute("SELECT player_id FROM hall_bots")]
            clan_xp = {str(r[0]): int(r[1]) for r in tx.execute("SELECT id, xp FROM clans")}
        assert bots, "a bot played"
        truth = _ledger_truth(hall.db_url, tables, humans + bots)
        assert all(truth["all"].get(b, (0, 0, 0))[1] > 0 for b in bots), "the bots played"
        for game in (*GAMES, "all"):
            expected = {p: truth[game][p] for p in humans if p in truth[game]}
            assert expected and all(v[1] > 0 for v in expected.values()), game
            for period in ("day", "week", "all"):
                answer = await http.get(
                    f"{hall.url}/api/leaderboards/{game}", params={"period": period}
                )
                assert answer.status_code == 200, answer.text
                data = answer.json()
                assert data["game"] == game and data["period"] == period
                for by, index in (("net", 0), ("hands", 1), ("best", 2)):
                    rows = data[by]
                    assert _board(rows) == expected, (game, period, by)
                    assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
                    values = [(r[by], int(r["player"])) for r in rows]
                    assert values == sorted(values, reverse=True), (game, period, by)
                    assert all(_board(rows)[p][index] == expected[p][index] for p in expected)
                    assert not set(_board(rows)) & set(bots), "bots are left out"
                names = {r["player"]: r["name"] for r in data["net"]}
                assert names == {p: n for p, n in ((lan.player, "lan"), (minh.player, "minh"))
                                 if p in expected}  # fmt: skip
                if game == "all":
                    expected_clans = {c: xp for c, xp in clan_xp.items() if xp > 0}
                    assert {c["clan"]: c["xp"] for c in data["clans"]} == expected_clans

        for bad, status in (("no-such-game", 404), ("tien-len?period=month", 422)):
            answer = await http.get(f"{hall.url}/api/leaderboards/{bad}")
            assert answer.status_code == status, answer.text
        answer = await http.get(f"{hall.url}/api/leaderboards/no-such-game")
        assert answer.json()["text"] == "board_unknown_game:no-such-game"

    _run(tmp_path, body)
