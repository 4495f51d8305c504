"""Table and lobby chat over real WebSockets (sanh/server/chat.py, docs/protocol.md ``chat``).

The hall runs in the test's loop on a manual clock (:class:`~tests.server.harness.InProcessHall`):
the chat rate limit counts on the hall's clock, so "too fast" and "fine again" are decided by
the test moving the clock, never by how fast the machine is.

* A line reaches everyone at the table (seated players and spectators) exactly as typed: HTML
  and script are plain text to the server (the client shows them as text, tests/web/test_chat.py).
* A bad line (empty, over-long, too fast, a spectator's while the host has not allowed it, a
  table not joined) gets its error code and is said nowhere: nobody hears it, the table's history
  and the hand's kept chat do not change, and it costs the speaker no chat token.
* The host lets spectators write (``chat_spectators``); nobody else may.
* The lobby chat: listeners get its history and every line.
* Lines said during a hand are in that hand's recall for its seated players; a spectator has no
  recall of the hand.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from sanh.server.chat import CHAT_BURST, CHAT_MAX_CHARS, CHAT_PER_SECOND
from tests.server.harness import InProcessHall, WsPlayer
from tests.server.test_leaving import _deal, _guests, _of, _play_out, _run, _table

XSS = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>'


def _lines(player: WsPlayer, start: int = 0) -> list[str]:
    """The chat lines a player heard (from message ``start`` on)."""
    return [m["line"]["text"] for m in player.messages[start:] if m.get("type") == "chat"]


async def _heard(player: WsPlayer, start: int, expected: list[str]) -> None:
    """The player hears exactly ``expected`` from message ``start`` on: it waits for the last
    one (a connection's messages come in order, so a line said in between came before it)."""
    await player.wait_for(lambda _m: len(_lines(player, start)) >= len(expected), 30, start)
    assert _lines(player, start) == expected, player.name


async def _say(player: WsPlayer, text: str, table: str | None) -> dict[str, Any]:
    """Send a line; the speaker's answer: its own ``chat`` line or an ``error`` (the speaker
    waits for each answer, so the next line of its own is this one's)."""
    mark = len(player.messages)
    message: dict[str, Any] = {"type": "chat", "text": text}
    if table is not None:
        message["table"] = table
    await player.send(message)
    return await player.wait_for(
        lambda m: (
            m.get("type") == "error"
            or (m.get("type") == "chat" and m["line"]["player"] == player.player)
        ),
        30,
        mark,
    )


async def _watch(hall: InProcessHall, player: WsPlayer, table: str) -> None:
    await player.connect()
    mark = len(player.messages)
    await player.send({"type": "join", "table": table})
    await player.wait_for(_of("table", table=table), 30, mark)


def test_a_line_reaches_everyone_at_the_table_as_typed(tmp_path: Path) -> None:
    async def body(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        host, guest, watcher = await _guests(hall, http, "lan", "minh", "hoa")
        actor = await _table(hall, http, "tien-len", host, [host, guest], bots=0)
        await _watch(hall, watcher, actor.id)
        marks = [len(p.messages) for p in (host, guest, watcher)]
        said = await _say(guest, f"  {XSS}  ", actor.id)
        assert said["type"] == "chat", said
        line = said["line"]
        assert line["text"] == XSS, "trimmed, otherwise exactly as typed (no markup made)"
        assert (line["player"], line["name"]) == (guest.player, "minh")
        assert said["table"] == actor.id and line["seat"] == actor._seat_of(guest.player)
        for player, mark in zip((host, guest, watcher), marks, strict=True):
            await _heard(player, mark, [XSS])
        # Control characters become spaces; a line of exactly the limit is fine.
        assert (await _say(host, "a\nb\tc", actor.id))["line"]["text"] == "a b c"
        full = "đ" * CHAT_MAX_CHARS
        assert (await _say(host, full, actor.id))["line"]["text"] == full
        # Whoever joins gets the table's last lines.
        late = (await _guests(hall, http, "quan"))[0]
        await late.connect()
        await late.send({"type": "join", "table": actor.id})
        history = await late.wait_for(_of("chat_history", table=actor.id), 30)
        assert [entry["text"] for entry in history["lines"]] == [XSS, "a b c", full]
        for player in (host, guest, watcher, late):
            await player.close()

    _run(tmp_path, body)


def test_bad_lines_are_refused_with_their_code_and_said_nowhere(tmp_path: Path) -> None:
    async def body(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        host, guest, watcher, stranger = await _guests(hall, http, "lan", "minh", "hoa", "tu")
        actor = await _table(hall, http, "tien-len", host, [host, guest], bots=0)
        await _watch(hall, watcher, actor.id)
        await stranger.connect()
        marks = [len(p.messages) for p in (host, guest, watcher)]

        async def refused(player: WsPlayer, text: str, code: str, words: str) -> None:
            history = list(actor.chat_history)
            answer = await _say(player, text, actor.id)
            assert answer["type"] == "error", answer
            assert (answer["code"], answer["text"]) == (code, words), answer
            await hall.settle()
            assert list(actor.chat_history) == history, "a refused line is kept nowhere"

        await refused(guest, "", "chat_empty", "chat_empty")
        await refused(guest, " \n\t ", "chat_empty", "chat_empty")
        await refused(
            guest, "x" * (CHAT_MAX_CHARS + 1), "chat_too_long", f"chat_too_long:{CHAT_MAX_CHARS}"
        )
        await refused(watcher, "xin chào", "chat_not_allowed", "spectators_read_only")
        await refused(stranger, "xin chào", "not_at_table", "not_at_table")
        for frame in (
            {"type": "chat", "table": actor.id, "text": 5},
            {"type": "chat", "table": actor.id, "text": "hi", "html": "<b>hi</b>"},
            {"type": "chat", "table": actor.id},
        ):
            mark = len(guest.messages)
            await guest.send(frame)
            answer = await guest.wait_for(_of("error"), 30, mark)
            assert answer["code"] == "malformed", answer
        answer = await _say(guest, "hi", "no-such-table")
        assert (answer["code"], answer["table"]) == ("no_such_table", "no-such-table")
        await hall.settle()
        assert not actor.chat_history, "nothing was said"
        # The refusals cost no token: the whole burst is still there, then the rate holds.
        for n in range(CHAT_BURST):
            assert (await _say(guest, f"line {n}", actor.id))["type"] == "chat"
        fast = f"chat_too_fast:{CHAT_BURST}:{1 / CHAT_PER_SECOND:g}"
        await refused(guest, "one more", "chat_too_fast", fast)
        # The limit is per player: another seat may still talk; the clock gives a token back.
        assert (await _say(host, "host here", actor.id))["type"] == "chat"
        await hall.advance(1 / CHAT_PER_SECOND)
        assert (await _say(guest, "one more", actor.id))["type"] == "chat"
        await refused(guest, "and another", "chat_too_fast", fast)
        said = [f"line {n}" for n in range(CHAT_BURST)] + ["host here", "one more"]
        for player, mark in zip((host, guest, watcher), marks, strict=True):
            await _heard(player, mark, said)  # no refused line among them
        assert [e.text for e in actor.chat_history] == said
        # Only the host lets spectators write.
        mark = len(guest.messages)
        await guest.send({"type": "chat_spectators", "table": actor.id, "allow": True})
        answer = await guest.wait_for(_of("error"), 30, mark)
        assert (answer["code"], answer["text"]) == ("not_host", "host_sets_chat")
        assert actor.spec.spectator_chat is False
        await refused(watcher, "xin chào", "chat_not_allowed", "spectators_read_only")
        mark = len(watcher.messages)
        await host.send({"type": "chat_spectators", "table": actor.id, "allow": True})
        update = await watcher.wait_for(_of("table", table=actor.id), 30, mark)
        assert update["spectator_chat"] is True
        mark = len(host.messages)
        answer = await _say(watcher, "xin chào", actor.id)
        assert answer["type"] == "chat" and answer["line"]["seat"] is None
        await _heard(host, mark, ["xin chào"])
        for player in (host, guest, watcher, stranger):
            await player.close()

    _run(tmp_path, body)


def test_the_lobby_chat_reaches_its_listeners(tmp_path: Path) -> None:
    async def body(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        an, binh, chi = await _guests(hall, http, "an", "binh", "chi")
        for player in (an, binh, chi):
            await player.connect()
        answer = await _say(an, "chào cả nhà", None)
        assert (answer["code"], answer["text"]) == ("not_at_table", "lobby_chat_first")
        for player in (an, binh):
            await player.send({"type": "lobby_chat"})
            history = await player.wait_for(_of("chat_history", table=None), 30)
            assert history["lines"] == []
        marks = [len(p.messages) for p in (an, binh, chi)]
        said = await _say(an, f"chào {XSS}", None)
        assert said["type"] == "chat" and said["table"] is None, said
        assert said["line"]["text"] == f"chào {XSS}"
        await _heard(binh, marks[1], [f"chào {XSS}"])
        assert (await _say(binh, "   ", None))["code"] == "chat_empty"
        assert (await _say(binh, "y" * 201, None))["code"] == "chat_too_long"
        # Stop listening: no more lines.
        await binh.send({"type": "lobby_chat", "watch": False})
        await an.send({"type": "ping"})
        await binh.send({"type": "ping"})
        await binh.wait_for(_of("pong"), 30, marks[1])
        assert (await _say(an, "ai còn đó?", None))["type"] == "chat"
        await chi.send({"type": "lobby_chat"})
        history = await chi.wait_for(_of("chat_history", table=None), 30, marks[2])
        assert [e["text"] for e in history["lines"]] == [f"chào {XSS}", "ai còn đó?"]
        mark = len(binh.messages)
        await binh.send({"type": "ping"})
        await binh.wait_for(_of("pong"), 30, mark)
        assert _lines(binh, marks[1]) == [f"chào {XSS}"]
        assert _lines(chi, marks[2]) == []
        for player in (an, binh, chi):
            await player.close()

    _run(tmp_path, body)


def test_the_chat_of_a_hand_is_in_its_recall_for_its_seated_players(tmp_path: Path) -> None:
    async def body(hall: InProcessHall, http: httpx.AsyncClient) -> None:
        host, guest, watcher = await _guests(hall, http, "lan", "minh", "hoa")
        actor = await _table(hall, http, "tien-len", host, [host, guest], bots=0)
        await _watch(hall, watcher, actor.id)
        await host.send({"type": "chat_spectators", "table": actor.id, "allow": True})
        await hall.settle()
        before = await _say(guest, "before the deal", actor.id)
        assert before["type"] == "chat"
        hand = await _deal(hall, actor, 0)
        assert (await _say(guest, "chúc may mắn", actor.id))["type"] == "chat"
        assert (await _say(watcher, XSS, actor.id))["type"] == "chat"
        await _play_out(hall, actor, 1)
        hand_id = f"{actor.id}:{hand}"
        for player in (host, guest):
            recalled = await http.get(
                f"{hall.url}/api/recall/{hand_id}",
                headers={"authorization": f"Bearer {player.token}"},
            )
            assert recalled.status_code == 200, recalled.text
            chat = recalled.json()["chat"]
            assert [(c["player"], c["text"]) for c in chat] == [
                (guest.player, "chúc may mắn"),
                (watcher.player, XSS),
            ], "the lines said during the hand, and only those"
            assert chat[0]["seat"] == actor._seat_of(guest.player) and chat[1]["seat"] is None
        nosy = await http.get(
            f"{hall.url}/api/recall/{hand_id}",
            headers={"authorization": f"Bearer {watcher.token}"},
        )
        assert nosy.status_code == 404, "a spectator has no recall of the hand"
        for player in (host, guest, watcher):
            await player.close()

    _run(tmp_path, body)
