"""People, not ids (issue 12, item 10) over the real server: bots' names, levels, the player
search ``GET /api/players`` (sanh/server/people.py) and the lobby's table fields.

* Bots sit with generated Vietnamese full names (sanh/ledger/bot_names.py), never ``Bot ...``,
  and every seat carries a level (sanh/ledger/levels.py) from the XP the ledger recorded.
* The search finds a player by part of the name without accents, answers only the public
  fields (no username, language, balance or dates), flags bots (``bots=false`` leaves them
  out), names the public table a player sits at, and refuses a query too short and a caller
  not signed in.
* The lobby tells a table the house banks (``house``, ``seat_model``, no host) from one a
  player hosts (its host's name), and its ``q`` finds a table by its host's name.
"""

from __future__ import annotations

import contextlib
import sqlite3
import unicodedata
from pathlib import Path
from typing import Any

import httpx

from sanh.ledger.bot_names import BOT_NAMES
from sanh.ledger.levels import level
from sanh.server.people import FoundPlayer
from tests.server.harness import InProcessHall, WsPlayer, db_path
from tests.server.test_leaving import _deal, _guests, _play_out, _run, _table


def _auth(player: WsPlayer) -> dict[str, str]:
    return {"authorization": f"Bearer {player.token}"}


def _bare(name: str) -> str:
    """The name without accents (đ as d), lower case."""
    folded = name.casefold().replace("đ", "d")
    return "".join(c for c in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(c))


async def _search(
    hall: InProcessHall, http: httpx.AsyncClient, who: WsPlayer, **query: Any
) -> list[dict[str, Any]]:
    answer = await http.get(f"{hall.url}/api/players", params=query, headers=_auth(who))
    assert answer.status_code == 200, answer.text
    rows: list[dict[str, Any]] = answer.json()["players"]
    return rows


def _xp(hall: InProcessHall, player: str) -> int:
    with contextlib.closing(sqlite3.connect(db_path(hall.db_url))) as db:
        row = db.execute(
            "SELECT COALESCE(SUM(xp), 0) FROM player_stats WHERE player_id = ?", (int(player),)
        ).fetchone()
    return int(row[0])


def test_bots_have_names_players_levels_and_the_search_finds_both(tmp_path: Path) -> None:
    async def body(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        lan, minh = await _guests(hall, http, "Lan Ngọc", "Minh")
        actor = await _table(hall, http, "tien-len", lan, [lan], bots=2)
        seats = [s for s in actor.out.seats_json() if s["player"] is not None]
        bots = [s for s in seats if s["bot"]]
        assert len(bots) == 2
        for bot in bots:
            assert bot["name"] in BOT_NAMES and not bot["name"].startswith("Bot")
        assert all(s["level"] == 1 for s in seats)  # nobody has XP yet

        # A hand played: the XP the ledger recorded is the level the seats and search show.
        hand = await _deal(hall, actor, 0)
        await _play_out(hall, actor, hand)
        await hall.settle()
        xp = _xp(hall, lan.player)
        assert xp >= 1  # Tiến lên counts XP: one a hand played
        actor.levels.clear()
        mine = next(s for s in actor.out.seats_json() if s["player"] == lan.player)
        assert mine["level"] == level(xp)

        rows = await _search(hall, http, minh, q="lan ngoc")
        assert [r["id"] for r in rows] == [lan.player]
        row = rows[0]
        assert set(row) == set(FoundPlayer.__struct_fields__)  # nothing but the public fields
        assert row == {
            "id": lan.player,
            "name": "Lan Ngọc",
            "level": level(xp),
            "xp": xp,
            "guest": True,
            "bot": False,
            "tables": [actor.id],
        }
        # A bot by its name without accents: flagged, at its table; left out on request.
        bot = bots[0]
        found = await _search(hall, http, minh, q=_bare(bot["name"]))
        assert [(r["id"], r["bot"], r["tables"]) for r in found] == [
            (bot["player"], True, [actor.id])
        ]
        assert await _search(hall, http, minh, q=_bare(bot["name"]), bots="false") == []
        # Refusals: too short a query, no sign-in.
        short = await http.get(f"{hall.url}/api/players", params={"q": "ạ"}, headers=_auth(minh))
        assert (short.status_code, short.json()["text"]) == (422, "query_too_short")
        anonymous = await http.get(f"{hall.url}/api/players", params={"q": "lan"})
        assert anonymous.status_code == 401

        # The lobby: a player-hosted table names its host, and q finds it by that name.
        lobby = (await http.get(f"{hall.url}/api/lobby", params={"q": "LAN NGOC"})).json()
        entry = next(t for t in lobby["tables"] if t["id"] == actor.id)
        assert (entry["house"], entry["seat_model"], entry["host"], entry["host_name"]) == (
            False,
            "players",
            lan.player,
            "Lan Ngọc",
        )
        assert entry["bots"] == 2
        nothing = (await http.get(f"{hall.url}/api/lobby", params={"q": "zzqq"})).json()
        assert nothing["tables"] == []

    _run(tmp_path, body)


def test_a_house_table_has_no_player_host(tmp_path: Path) -> None:
    async def body(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        (hoa,) = await _guests(hall, http, "Hoa")
        actor = await _table(hall, http, "three-card-poker", hoa, [hoa], bots=1)
        assert actor.spec.host == hoa.player  # she manages its bots...
        seats = [s for s in actor.out.seats_json() if s["player"] is not None]
        assert seats and not any(s["host"] for s in seats)  # ...but is no host there
        assert [s["player"] for s in seats if s["manages"]] == [hoa.player]
        lobby = (await http.get(f"{hall.url}/api/lobby")).json()
        entry = next(t for t in lobby["tables"] if t["id"] == actor.id)
        assert (entry["house"], entry["seat_model"], entry["host"], entry["host_name"]) == (
            True,
            "house",
            None,
            None,
        )

    _run(tmp_path, body)
