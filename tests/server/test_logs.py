"""The hall's log never holds a session token (nor a seat's resume token).

Clients sign in with a first ``hello`` frame, so the WebSocket URL is a bare ``/ws``; the HTTP
API takes the token in the Authorization header only. A client that still puts the token in
the URL (``/ws?token=...``, ``/api/me?token=...``) is not signed in by it: uvicorn's line for
the WebSocket shows ``token=[redacted]``, and the hall's access line for a request has its path
without the query (``sanh/server/accesslog.py``).
"""

from __future__ import annotations

import asyncio
import json

import httpx
from websockets.asyncio.client import connect

from tests.server.conftest import HallProcess
from tests.server.harness import WsPlayer


def test_the_log_holds_no_token_after_clients_connect_and_play(hall: HallProcess) -> None:
    async def main() -> tuple[list[WsPlayer], set[str]]:
        async with httpx.AsyncClient(timeout=30) as http:
            anna = await WsPlayer.guest(http, hall.url, "anna", seed=1)
            binh = await WsPlayer.guest(http, hall.url, "binh", seed=2)
            players = [anna, binh]
            created = await http.post(
                f"{hall.url}/api/tables",
                json={"game": "tien-len", "stake": 100, "seats": 2},
                headers={"authorization": f"Bearer {anna.token}"},
            )
            assert created.status_code == 201, created.text
            table = created.json()["id"]
            for player in players:
                await player.connect()
                await player.send({"type": "join", "table": table})
                await player.send({"type": "sit", "table": table})
            for player in players:  # a whole hand, played by both, settled
                await player.wait_for(lambda m: m.get("type") == "result", 60)
            resume_tokens = {t for p in players for t in p.resume_tokens.values()}
            assert len(resume_tokens) == 2
            # A reconnection with the seat's resume token.
            await anna.close()
            await anna.connect()
            mark = len(anna.messages)
            await anna.send({"type": "resume", "resume_token": anna.resume_tokens[table]})
            back = await anna.wait_for(lambda m: m.get("type") == "table", 30, mark)
            assert back["your_seat"] is not None
            # An old client with the token in the URL: the URL does not sign it in.
            ws_url = hall.url.replace("http://", "ws://")
            async with connect(f"{ws_url}/ws?token={binh.token}") as old:
                await old.send(json.dumps({"type": "join", "table": table}))
                refusal = json.loads(await asyncio.wait_for(old.recv(), 30))
                assert refusal["code"] == "unauthenticated", refusal
            me = await http.get(f"{hall.url}/api/me", params={"token": binh.token})
            assert me.status_code == 401
            for player in players:
                await player.send({"type": "leave", "table": table})
                await player.close()
            return players, resume_tokens

    players, resume_tokens = asyncio.run(main())
    hall.stop()
    assert hall.log is not None
    text = hall.log.read_text(errors="replace")
    records = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    lines = [record["msg"] for record in records]
    # The access lines are there (the check below looks at the real log), with bare URLs.
    assert sum('"WebSocket /ws" [accepted]' in line for line in lines) >= 3, text[-3000:]
    assert any('"WebSocket /ws?token=[redacted]" [accepted]' in line for line in lines)
    assert any(
        (r.get("logger"), r.get("method"), r.get("path"), r.get("status"))
        == ("sanh.access", "GET", "/api/me", 401)
        for r in records
    )
    for player in players:
        assert player.token not in text, f"{player.name}'s session token is in the log"
    for token in resume_tokens:
        assert token not in text, "a resume token is in the log"
