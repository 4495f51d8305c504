"""Sit & Go tournaments in the hall, end to end over HTTP and real WebSockets
(sanh/server/tournaments.py, sanh/server/http_tournaments.py, sanh/ledger/tourney.py).

A player registers into a Sit & Go the hall's bots fill, plays it over the WebSocket (random
legal moves) to the end on the hall's manual clock; the prizes are the payout table's shares of
the pool, the fee is the house's, the escrow ends empty and ``sanh audit`` is clean. Before the
start, unregistering and cancelling pay back exactly, and replayed requests change nothing.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from sanh.ledger.book import Ledger
from sanh.ledger.model import FEES, player_account, tourney_account
from sanh.tournaments.sitgo import payout_shares
from tests.server.harness import InProcessHall, WsPlayer
from tests.server.test_leaving import _settings

BUY_IN, FEE = 5_000, 500


def _gold(hall: InProcessHall, player: str) -> int:
    with Ledger.open(hall.db_url) as ledger:
        return ledger.balance(player_account(int(player)))


def _escrow(hall: InProcessHall, tournament: str) -> tuple[int, int]:
    with Ledger.open(hall.db_url) as ledger:
        return ledger.balance(tourney_account(tournament)), ledger.balance(FEES)


def _audit(hall: InProcessHall) -> dict[str, Any]:
    import json
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "sanh", "audit", "--db", hall.db_url, "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    report: dict[str, Any] = json.loads(out.stdout)
    return report


def _run(tmp_path: Path, body: Any) -> None:
    async def main() -> None:
        async with (
            InProcessHall(tmp_path / "hall.db", _settings()) as hall,
            httpx.AsyncClient(timeout=30) as http,
        ):
            await body(hall, http)

    asyncio.run(main())


def _auth(player: WsPlayer) -> dict[str, str]:
    return {"authorization": f"Bearer {player.token}"}


@pytest.mark.parametrize("game", ["poker-aof", "texas-holdem", "tien-len"])
def test_a_sit_and_go_plays_to_the_end_and_pays_the_pool_exactly(tmp_path: Path, game: str) -> None:
    async def body(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        lan = await WsPlayer.guest(http, hall.url, "lan", mode="play", seed=3)
        before = _gold(hall, lan.player)
        made = await http.post(
            f"{hall.url}/api/tournaments",
            headers=_auth(lan),
            json={"game": game, "seats": 4, "buy_in": BUY_IN, "fee": FEE, "bots": 3},
        )
        assert made.status_code == 200, made.text
        sitgo = made.json()
        tid = sitgo["id"]
        assert sitgo["status"] == "registering" and len(sitgo["entrants"]) == 3
        _, fees_before = _escrow(hall, tid)

        joined = await http.post(f"{hall.url}/api/tournaments/{tid}/register", headers=_auth(lan))
        assert joined.status_code == 200, joined.text
        sitgo = joined.json()
        assert sitgo["status"] == "running" and sitgo["registered"] and sitgo["table"]
        assert _gold(hall, lan.player) == before - BUY_IN - FEE
        assert _escrow(hall, tid)[0] == 4 * (BUY_IN + FEE)
        again = await http.post(f"{hall.url}/api/tournaments/{tid}/register", headers=_auth(lan))
        assert again.status_code == 409  # running: nothing more is taken
        assert _gold(hall, lan.player) == before - BUY_IN - FEE

        # The player plays the table over the WebSocket; bots play theirs; the clock runs.
        await lan.connect()
        await lan.send({"type": "join", "table": sitgo["table"]})
        for _ in range(2_000):
            await hall.advance(2.0)
            await asyncio.sleep(0)
            state = (await http.get(f"{hall.url}/api/tournaments/{tid}", headers=_auth(lan))).json()
            if state["status"] == "finished":
                break
        assert state["status"] == "finished", state
        await lan.close()
        mine_seen = [
            m for m in lan.messages
            if m.get("type") == "table" and (m.get("view") or {}).get("viewer") is not None
        ]  # fmt: skip
        assert mine_seen, "the player was dealt in at the tournament's table"

        places = sorted(state["entrants"], key=lambda e: e["place"])
        assert [e["place"] for e in places] == [1, 2, 3, 4]
        if game != "tien-len":  # the poker games end when one player has every chip
            assert places[0]["chips"] == 4 * state["starting_chips"]
        else:  # Tiến lên after its games, places by chips
            assert state["hands"] == state["games"]
            assert [e["chips"] for e in places] == sorted(
                (e["chips"] for e in places), reverse=True
            )
        assert sum(e["chips"] for e in state["entrants"]) == 4 * state["starting_chips"]
        pool = 4 * BUY_IN
        shares = payout_shares(4)
        prizes = [e["prize"] for e in places if e["prize"] is not None]
        assert prizes == [pool * s // 10_000 for s in shares]
        assert sum(prizes) + state["breakage"] == pool
        escrow, fees_after = _escrow(hall, tid)
        assert escrow == 0
        assert fees_after - fees_before == 4 * FEE
        mine = next(e for e in state["entrants"] if e["player"] == lan.player)
        assert _gold(hall, lan.player) == before - BUY_IN - FEE + (mine["prize"] or 0)
        report = _audit(hall)
        assert report["ok"] is True, report

    _run(tmp_path, body)


def test_unregister_and_cancel_pay_back_once(tmp_path: Path) -> None:
    async def body(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        lan = await WsPlayer.guest(http, hall.url, "lan")
        minh = await WsPlayer.guest(http, hall.url, "minh")
        start = {p.player: _gold(hall, p.player) for p in (lan, minh)}
        made = await http.post(
            f"{hall.url}/api/tournaments",
            headers=_auth(lan),
            json={"game": "tien-len", "seats": 4, "buy_in": BUY_IN, "fee": FEE},
        )
        tid = made.json()["id"]
        url = f"{hall.url}/api/tournaments/{tid}"
        for player in (lan, minh):
            for _ in range(2):  # a replayed registration takes nothing more
                answer = await http.post(f"{url}/register", headers=_auth(player))
                assert answer.status_code == 200, answer.text
            assert _gold(hall, player.player) == start[player.player] - BUY_IN - FEE
        for _ in range(2):
            answer = await http.post(f"{url}/unregister", headers=_auth(minh))
            assert answer.status_code == 200, answer.text
        assert _gold(hall, minh.player) == start[minh.player]
        assert (await http.post(f"{url}/cancel", headers=_auth(minh))).status_code == 409
        for _ in range(2):
            answer = await http.post(f"{url}/cancel", headers=_auth(lan))
            assert answer.status_code == 200, answer.text
            assert answer.json()["status"] == "cancelled"
        assert _gold(hall, lan.player) == start[lan.player]
        assert _escrow(hall, tid)[0] == 0
        late = await http.post(f"{url}/register", headers=_auth(minh))
        assert late.status_code == 409 and late.json()["text"] == "tournament_not_registering"
        bad = await http.post(
            f"{hall.url}/api/tournaments",
            headers=_auth(lan),
            json={"game": "phom", "seats": 4, "buy_in": BUY_IN},
        )
        assert bad.status_code == 409 and bad.json()["text"] == "tournament_game"
        rich = await http.post(
            f"{hall.url}/api/tournaments",
            headers=_auth(lan),
            json={"game": "texas-holdem", "seats": 2, "buy_in": 10**8},
        )
        poor = await http.post(
            f"{hall.url}/api/tournaments/{rich.json()['id']}/register", headers=_auth(minh)
        )
        assert poor.status_code == 409 and poor.json()["text"] == "tournament_no_gold"
        assert _gold(hall, minh.player) == start[minh.player]
        assert (
            await http.get(f"{hall.url}/api/tournaments/nope", headers=_auth(lan))
        ).status_code == 404
        report = _audit(hall)
        assert report["ok"] is True, report

    _run(tmp_path, body)


def test_a_restart_resumes_a_running_sit_and_go(tmp_path: Path) -> None:
    """The hall stops mid-tournament; a new hall on the same database resumes the table and
    plays the tournament to its end, paying it out once."""
    state: dict[str, Any] = {}

    async def first(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        lan = await WsPlayer.guest(http, hall.url, "lan")
        made = await http.post(
            f"{hall.url}/api/tournaments",
            headers=_auth(lan),
            json={"game": "texas-holdem", "seats": 3, "buy_in": BUY_IN, "fee": FEE, "bots": 3},
        )
        sitgo = made.json()
        assert sitgo["status"] == "running", sitgo
        for _ in range(6):
            await hall.advance(2.0)
        now = await http.get(f"{hall.url}/api/tournaments/{sitgo['id']}", headers=_auth(lan))
        state.update(now.json(), token=lan.token)
        assert state["status"] == "running", state

    async def second(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        url = f"{hall.url}/api/tournaments/{state['id']}"
        headers = {"authorization": f"Bearer {state['token']}"}
        resumed = (await http.get(url, headers=headers)).json()
        assert resumed["hands"] >= state["hands"]
        assert sum(e["chips"] for e in resumed["entrants"]) == 3 * resumed["starting_chips"]
        for _ in range(2_000):
            await hall.advance(2.0)
            resumed = (await http.get(url, headers=headers)).json()
            if resumed["status"] == "finished":
                break
        assert resumed["status"] == "finished", resumed
        assert sum(e["prize"] or 0 for e in resumed["entrants"]) + resumed["breakage"] == 3 * BUY_IN
        assert _escrow(hall, state["id"])[0] == 0
        report = _audit(hall)
        assert report["ok"] is True, report

    _run(tmp_path, first)
    _run(tmp_path, second)
