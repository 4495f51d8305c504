"""A restart rebuilds recorded tables lazily: a table someone comes back to resumes at once."""

from __future__ import annotations

import json
import time

from tests.server.conftest import Client, HallProcess


def _restored_lines(hall: HallProcess) -> list[dict[str, object]]:
    assert hall.log is not None
    return [
        json.loads(line)
        for line in hall.log.read_text().splitlines()
        if line.startswith("{") and '"tables restored"' in line
    ]


def test_a_table_killed_mid_hand_resumes_for_a_spectator_after_a_restart(
    hall: HallProcess,
) -> None:
    """SIGKILL mid-hand; after the restart a spectator's join rebuilds the table and sees the
    same hand in play (the view it is sent was durable before the kill)."""
    players = [Client.guest(hall, f"p{i}") for i in range(2)]
    table = players[0].http("POST", "/api/tables", json={"game": "tien-len", "stake": 100})
    table_id = table.json()["id"]
    for client in players:
        client.connect()
        client.send({"type": "join", "table": table_id})
        client.send({"type": "sit", "table": table_id})
    deadline = time.monotonic() + 20
    hand = 0
    while not hand and time.monotonic() < deadline:
        update = players[0].until("table")
        if update["view"] and update["view"]["to_act"]:
            hand = update["hand"]
    assert hand
    hall.kill()
    for client in players:
        client.close()
    hall.start()
    watcher = Client.guest(hall, "watcher")
    watcher.connect()
    watcher.send({"type": "join", "table": table_id})
    update = watcher.until("table")
    assert update["hand"] == hand
    assert update["view"] is not None and not update["view"]["terminal"]
    deadline = time.monotonic() + 20
    while len(_restored_lines(hall)) < 2 and time.monotonic() < deadline:  # one per start
        time.sleep(0.05)
    assert _restored_lines(hall)[-1]["restored"] == {table_id: "resumed"}
    watcher.close()
