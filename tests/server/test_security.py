"""Security at the WebSocket edge, over real connections.

* Every action is authenticated to its seat: a client cannot act for another seat, for the
  table itself, at a table where it has no seat, or before it has signed in.
* Limits: frames over ``max_message_bytes`` get a typed ``too_large`` error; frames over
  ``max_frame_bytes`` close the connection (1009); a burst over the rate limit gets
  ``rate_limited`` errors; a connection that keeps breaking the limits is closed (1008).
* A fuzz run sends thousands of malformed, unknown, oversized, ill-typed, misdirected, stale
  and replayed frames over one real connection, mid-hand: every one of them gets a typed error
  (a replayed action its first acknowledgement again), and nothing changes: the hand's event
  log, its version and every balance are as they were, and the server stays healthy.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from sanh.server.protocol import PROTOCOL_VERSION, ErrorCode
from sanh.server.settings import Settings
from tests.server.conftest import HallProcess, free_port
from tests.server.harness import InProcessHall, WsPlayer, choose_action, query, table_log

FUZZ_FRAMES = 3000
CODES = {code.value for code in ErrorCode}


@pytest.fixture(scope="module")
def guarded_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    """A hall with the default limits (20 messages/s, bursts of 40, 8 KiB messages)."""
    tmp: Path = tmp_path_factory.mktemp("guarded")
    process = HallProcess(tmp / "hall.db", free_port(), 0.05, log=tmp / "hall.log")
    process.start()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def slow_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    """A two-minute turn, so that a hand stands still while it is fuzzed, and no rate limit."""
    tmp: Path = tmp_path_factory.mktemp("fuzz")
    process = HallProcess(
        tmp / "hall.db",
        free_port(),
        1.0,
        log=tmp / "hall.log",
        env={
            "SANH_BETWEEN_HANDS": "0.3",
            "SANH_TURN_TIMER": "120",
            "SANH_RATE_PER_SECOND": "100000",
            # A bucket of 40 still runs dry when cheap frames are read faster than 10 µs
            # each, and a rate_limited answer to a replayed action broke the count of acks.
            "SANH_RATE_BURST": "100000",
        },
    )
    process.start()
    yield process
    process.stop()


async def _raw(hall: HallProcess | InProcessHall, token: str | None = None) -> Any:
    """A WebSocket to the hall; with ``token``, its first frame is a hello (the welcome is left
    for the caller to read)."""
    ws = await connect(hall.url.replace("http://", "ws://") + "/ws", max_size=2**22)
    if token is not None:
        await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "token": token}))
    return ws


async def _answer(ws: Any, timeout: float = 30) -> dict[str, Any]:
    """The next answer to what the test sent (friends' ``presence``, pushed after a welcome,
    is not an answer)."""
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if message.get("type") != "presence":
            return message


def test_limits_and_authentication(guarded_hall: HallProcess) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(timeout=30) as http:
            player = await WsPlayer.guest(http, guarded_hall.url, "limits")
            # Not signed in: everything but hello is refused, and a bad hello too.
            ws = await _raw(guarded_hall)
            await ws.send(json.dumps({"type": "sit", "table": "t1"}))
            assert (await _answer(ws))["code"] == "unauthenticated"
            await ws.send(json.dumps({"type": "hello", "token": "forged"}))
            assert (await _answer(ws))["code"] == "unauthenticated"
            await ws.send(json.dumps({"type": "hello", "token": player.token, "protocol": 9}))
            assert (await _answer(ws))["code"] == "bad_protocol"
            await ws.send(json.dumps({"type": "hello", "token": player.token}))
            assert (await _answer(ws))["type"] == "welcome"
            # Decoding: the type missing or unknown, or a bad field (one named type2, too).
            for frame, code in (
                ({"table": "t1"}, "unknown_type"),
                ({"type": "fold"}, "unknown_type"),
                ({"type": 5}, "unknown_type"),
                ({"type": "ping", "type2": 1}, "malformed"),
                ({"type": "sit", "table": 5}, "malformed"),
                ([], "malformed"),
            ):
                await ws.send(json.dumps(frame))
                assert (await _answer(ws))["code"] == code, frame
            await ws.close()
            # Size: a typed error below the frame limit, a closed connection above it.
            ws = await _raw(guarded_hall, player.token)
            assert (await _answer(ws))["type"] == "welcome"
            await ws.send(json.dumps({"type": "ping", "pad": "x" * 10_000}))
            assert (await _answer(ws))["code"] == "too_large"
            await ws.send(json.dumps({"type": "ping"}))
            assert (await _answer(ws))["type"] == "pong"
            await ws.send("x" * 200_000)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await _answer(ws)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
            # Rate: a burst beyond the bucket is refused, the connection lives on.
            ws = await _raw(guarded_hall, player.token)
            assert (await _answer(ws))["type"] == "welcome"
            for _ in range(100):
                await ws.send(json.dumps({"type": "ping"}))
            answers = [await _answer(ws) for _ in range(100)]
            kinds = [a.get("code", a["type"]) for a in answers]
            # A burst of 40 frames, the hello one of them; how many more are refused depends on
            # how fast they went (the exact count on the hall's clock: the rate-limit test).
            assert kinds.count("pong") >= 39 and set(kinds) <= {"pong", "rate_limited"}, kinds
            await asyncio.sleep(1.5)  # at least 30 tokens back, however slow the machine
            await ws.send(json.dumps({"type": "ping"}))
            assert (await _answer(ws))["type"] == "pong"
            # A client that keeps breaking the limits is cut off (policy violation).
            with pytest.raises(ConnectionClosed) as closed:
                for _ in range(400):
                    await ws.send("y" * 9000)
                while True:
                    await _answer(ws)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
            # The HTTP API: no token, no table; an oversized body is refused.
            assert (await http.post(f"{guarded_hall.url}/api/tables", json={})).status_code == 401
            big = await http.post(
                f"{guarded_hall.url}/api/tables",
                content=b"{" + b" " * 20_000 + b"}",
                headers={"authorization": f"Bearer {player.token}"},
            )
            assert big.status_code == 413
        health = httpx.get(f"{guarded_hall.url}/healthz", timeout=10)
        assert health.status_code == 200

    asyncio.run(main())


def test_a_second_hello_with_another_players_token_is_refused(guarded_hall: HallProcess) -> None:
    """A connection is one player's: a hello with another player's token (or an unknown one)
    gets ``already_authenticated`` and the connection goes on as its first player; the same
    player's token gets the welcome again."""

    async def main() -> None:
        async with httpx.AsyncClient(timeout=30) as http:
            anna = await WsPlayer.guest(http, guarded_hall.url, "anna")
            binh = await WsPlayer.guest(http, guarded_hall.url, "binh")
            created = await http.post(
                f"{guarded_hall.url}/api/tables",
                json={"game": "tien-len", "stake": 100, "seats": 2},
                headers={"authorization": f"Bearer {anna.token}"},
            )
            table = created.json()["id"]
            ws = await _raw(guarded_hall)
            await ws.send(json.dumps({"type": "hello", "token": anna.token}))
            welcome = await _answer(ws)
            assert welcome["type"] == "welcome" and welcome["player"] == anna.player
            await ws.send(json.dumps({"type": "sit", "table": table}))
            seated = await _answer(ws)
            assert seated["type"] == "table" and seated["your_seat"] == 0
            for token in (binh.token, "forged"):
                await ws.send(json.dumps({"type": "hello", "token": token}))
                refusal = await _answer(ws)
                assert refusal["type"] == "error", refusal
                assert refusal["code"] == "already_authenticated", refusal
            # Still Anna's connection: she has her seat, Binh has none.
            await ws.send(json.dumps({"type": "sit", "table": table}))
            assert (await _answer(ws))["code"] == "already_seated"
            await ws.send(json.dumps({"type": "join", "table": table}))
            update = await _answer(ws)
            assert update["your_seat"] == 0
            assert [s["player"] for s in update["seats"]] == [anna.player, None]
            await ws.send(json.dumps({"type": "hello", "token": anna.token}))
            again = await _answer(ws)
            assert again["type"] == "welcome" and again["player"] == anna.player
            # Binh's own connection is not seated anywhere and can take the other seat.
            other = await _raw(guarded_hall)
            await other.send(json.dumps({"type": "hello", "token": binh.token}))
            assert (await _answer(other))["player"] == binh.player
            await other.send(json.dumps({"type": "join", "table": table}))
            watched = await _answer(other)
            assert watched["your_seat"] is None
            await ws.close()
            await other.close()

    asyncio.run(main())


def _junk(
    rnd: random.Random,
    *,
    table: str,
    other_table: str,
    hand_view: dict[str, Any],
    replay: str,
    other_seat_action: dict[str, Any],
) -> str | bytes:
    """One frame that must be refused (or, for ``replay``, acknowledged as a repeat)."""
    version = hand_view["version"]
    choice = rnd.randrange(20)
    if choice == 0:
        return bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 64)))
    if choice == 1:
        return "".join(chr(rnd.randrange(32, 0x3000)) for _ in range(rnd.randrange(1, 64)))
    if choice == 2:
        return json.dumps({"type": "act", "table": table})[: rnd.randrange(1, 30)]
    if choice == 3:
        return json.dumps(rnd.choice([[], [1, 2], 3, "act", None, True, {"no": "type"}]))
    if choice == 4:
        return json.dumps({"type": rnd.choice(["fold", "ACT", "admin", "", "hello2"]), "x": 1})
    if choice == 5:
        return json.dumps({"type": "sit", "table": table, "seat": "zero", "extra": 1})
    if choice == 6:
        return json.dumps({"type": "ping", "pad": "z" * rnd.randrange(8200, 20_000)})
    if choice == 7:
        return "[" * rnd.randrange(100, 3000) + "]" * rnd.randrange(100, 3000)
    if choice == 8:
        return replay
    nonce = uuid.uuid4().hex
    act: dict[str, Any] = {"type": "act", "table": table, "nonce": nonce, "version": version}
    if choice == 9:  # another seat's action
        return json.dumps({**act, "action": other_seat_action})
    if choice == 10:  # the table's own action
        return json.dumps({**act, "action": {**other_seat_action, "seat": None}})
    if choice == 11:  # a table where this client has no seat
        return json.dumps({**act, "table": other_table, "action": other_seat_action})
    if choice == 12:  # a stale or a future version
        stale = rnd.choice([version - 1, version + 1, -5, 10**12])
        return json.dumps({**act, "version": stale, "action": other_seat_action})
    if choice == 13:  # an action no game has, or the right type with wrong fields
        action = rnd.choice(
            [
                {"type": "Win", "seat": hand_view["viewer"]},
                {"type": "Play", "seat": hand_view["viewer"], "cards": ["Zz", 7]},
                {"type": "Play", "seat": hand_view["viewer"], "cards": "As"},
                {"type": "Play", "seat": hand_view["viewer"]},
                {"type": "Pass", "seat": hand_view["viewer"], "amount": 5},
                {"type": "Pass", "seat": str(hand_view["viewer"])},
                {"type": "shuffle", "order": []},
                {"type": "roll", "dice": [6, 6, 6]},
                {"seat": hand_view["viewer"]},
                [],
            ]
        )
        return json.dumps({**act, "action": action})
    if choice == 14:  # it is not this client's turn
        return json.dumps({**act, "action": {"type": "Pass", "seat": hand_view["viewer"]}})
    if choice == 15:
        return json.dumps({"type": "resume", "resume_token": uuid.uuid4().hex})
    if choice == 16:
        return json.dumps({"type": rnd.choice(["add_bots", "remove_bots"]), "table": table})
    if choice == 17:
        return json.dumps({"type": "buyin", "table": table, "amount": rnd.randrange(-10, 10**9)})
    if choice == 18:
        return json.dumps({"type": "join", "table": uuid.uuid4().hex[:9]})
    return json.dumps({"type": "hello", "token": uuid.uuid4().hex})


def _state_of(hall: HallProcess, tables: list[str]) -> Any:
    logs = {t: table_log(hall.db_url, t) for t in tables}
    balances = query(
        hall.db_url,
        "SELECT id, debits_posted, credits_posted, debits_pending,"
        " credits_pending FROM accounts ORDER BY id",
    )
    return logs, balances


def test_fuzzing_a_seat_mid_hand_changes_nothing(slow_hall: HallProcess) -> None:
    async def main() -> dict[str, Any]:
        async with httpx.AsyncClient(timeout=30) as http:
            fuzzer = await WsPlayer.guest(http, slow_hall.url, "fuzzer", mode="idle")
            other = await WsPlayer.guest(http, slow_hall.url, "other", mode="idle")
            stranger = await WsPlayer.guest(http, slow_hall.url, "stranger", mode="idle")
            tables = []
            for host in (other, stranger):
                created = await http.post(
                    f"{slow_hall.url}/api/tables",
                    json={"game": "tien-len", "stake": 100, "seats": 2},
                    headers={"authorization": f"Bearer {host.token}"},
                )
                tables.append(created.json()["id"])
            table, other_table = tables
            for player, where in ((other, table), (fuzzer, table), (stranger, other_table)):
                await player.connect()
                await player.send({"type": "join", "table": where})
                await player.send({"type": "sit", "table": where})
            # Play until the fuzzer has acted once and the other player is to act.
            replay = ""
            rnd = random.Random(7)
            while True:
                update = await fuzzer.wait_for(
                    lambda m: m.get("type") == "table" and m.get("view") is not None,
                    30,
                    len(fuzzer.messages) - 1,
                )
                view = update["view"]
                me = view["viewer"]
                if replay and view["to_act"] and me not in view["to_act"]:
                    break
                actor = fuzzer if me in view["to_act"] else other
                latest = [m for m in actor.messages if m.get("type") == "table" and m.get("view")][
                    -1
                ]
                action = choose_action(latest["view"], rnd, frozenset({"Pass"}))
                assert action is not None
                frame = json.dumps(
                    {
                        "type": "act",
                        "table": table,
                        "nonce": uuid.uuid4().hex,
                        "version": latest["view"]["version"],
                        "action": action,
                    }
                )
                mark = len(actor.messages)
                await actor.send_raw(frame)
                ack = await actor.wait_for(lambda m: m.get("type") in {"ack", "error"}, 10, mark)
                assert ack["type"] == "ack", ack
                if actor is fuzzer:
                    replay = frame
                await fuzzer.wait_for(
                    lambda m, v=ack["version"]: (
                        m.get("type") == "table"
                        and m.get("view") is not None
                        and m["view"]["version"] >= v
                    ),
                    10,
                    mark if actor is fuzzer else 0,
                )
            # The other player's update of the same version may still be on its way.
            other_update = await other.wait_for(
                lambda m, v=view["version"]: (
                    m.get("type") == "table"
                    and m.get("view") is not None
                    and m["view"]["version"] == v
                ),
                10,
            )
            other_view = other_update["view"]
            other_action = other_view["legal_actions"][0]
            before = _state_of(slow_hall, tables)
            version = view["version"]
            # Thousands of bad frames, in chunks, each answered before the next chunk.
            mark = len(fuzzer.messages)
            sent = replays = 0
            for _ in range(FUZZ_FRAMES // 100):
                for _ in range(100):
                    frame = _junk(
                        rnd,
                        table=table,
                        other_table=other_table,
                        hand_view=view,
                        replay=replay,
                        other_seat_action=other_action,
                    )
                    replays += frame == replay
                    await fuzzer.send_raw(frame)
                    sent += 1
                await fuzzer.wait_for(
                    lambda m, n=sent: len(fuzzer.messages) - mark >= n, 30, len(fuzzer.messages)
                )
            await asyncio.sleep(0.5)
            answers = fuzzer.messages[mark:]
            after = _state_of(slow_hall, tables)
            # Still healthy: the other player can act, and so can the fuzzer after that.
            latest = [m for m in other.messages if m.get("type") == "table" and m.get("view")][-1]
            await other.send(
                {
                    "type": "act",
                    "table": table,
                    "nonce": uuid.uuid4().hex,
                    "version": latest["view"]["version"],
                    "action": choose_action(latest["view"], rnd),
                }
            )
            moved = await fuzzer.wait_for(
                lambda m: (
                    m.get("type") == "table"
                    and m.get("view") is not None
                    and m["view"]["version"] > version
                ),
                30,
                len(answers) + mark,
            )
            for player in (fuzzer, other, stranger):
                await player.close()
        return {
            "answers": answers,
            "sent": sent,
            "replays": replays,
            "before": before,
            "after": after,
            "moved": moved,
            "version": version,
        }

    run = asyncio.run(main())
    answers = run["answers"]
    assert len(answers) == run["sent"], (len(answers), run["sent"])
    for answer in answers:
        if answer["type"] == "ack":
            assert answer["duplicate"] is True, answer
        else:
            assert answer["type"] == "error" and answer["code"] in CODES, answer
    assert sum(1 for a in answers if a["type"] == "ack") == run["replays"]
    moves = [a for a in answers if a["type"] == "table"]
    assert not moves, f"a junk frame moved the table: {moves[:2]}"
    assert run["before"] == run["after"], "the fuzz changed the event log or a balance"
    assert run["moved"]["view"]["version"] > run["version"]
    codes = {a.get("code") for a in answers}
    tally: dict[str, int] = {}
    for answer in answers:
        key = answer.get("code") or answer["type"]
        tally[key] = tally.get(key, 0) + 1
    print(f"\nfuzz: {run['sent']} frames answered {tally}")
    expected = {
        "malformed",
        "unknown_type",
        "too_large",
        "illegal_action",
        "not_seated",
        "stale_version",
        "not_your_turn",
        "bad_resume",
        "not_host",
        "already_authenticated",
    }
    assert expected <= codes, expected - codes
    assert httpx.get(f"{slow_hall.url}/healthz", timeout=10).status_code == 200


def test_a_silent_connection_is_closed_and_strikes_are_forgotten(tmp_path: Path) -> None:
    """A WebSocket that never signs in is closed at ``hello_timeout`` on the hall's clock (not
    before); one that signs in in time stays open; refused frames close a connection only when
    too many come within ``strike_window``. The hall runs on a manual clock, so what counts is
    the clock the server reads, not how fast this machine is."""
    settings = Settings(hello_timeout=10, max_strikes=5, strike_window=60, bots_on_start=False)

    async def closed(ws: Any, timeout: float = 30) -> int | None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                await asyncio.wait_for(ws.recv(), timeout)
        return ws.close_code  # type: ignore[no-any-return]

    async def main() -> None:
        async with InProcessHall(tmp_path / "hall.db", settings) as hall:
            async with httpx.AsyncClient(timeout=30) as http:
                anna = await WsPlayer.guest(http, hall.url, "anna")
            silent = await _raw(hall)
            await hall.advance(9.999)
            ws = await _raw(hall, anna.token)
            assert (await _answer(ws))["type"] == "welcome"
            await ws.send(json.dumps({"type": "ping"}))
            assert (await _answer(ws))["type"] == "pong"
            assert silent.close_code is None, "closed before its hello_timeout"
            await hall.advance(0.001)
            refusal = await _answer(silent, timeout=30)
            assert refusal["code"] == "unauthenticated" and "hello" in refusal["message"]
            assert await closed(silent) == 1008
            await hall.advance(20)  # past the sign-in time: a signed-in connection stays
            await ws.send(json.dumps({"type": "ping"}))
            assert (await _answer(ws))["type"] == "pong"
            junk = "x" * 10_000  # over max_message_bytes: a strike
            for _ in range(5):
                await ws.send(junk)
                assert (await _answer(ws))["code"] == "too_large"
            await hall.advance(60)  # those strikes are forgotten
            for _ in range(5):
                await ws.send(junk)
                assert (await _answer(ws))["code"] == "too_large"
            await ws.send(junk)  # the sixth within the window closes it
            assert await closed(ws) == 1008

    asyncio.run(main())


def test_the_rate_limit_counts_on_the_halls_clock(tmp_path: Path) -> None:
    """20 frames a second in bursts of 40: with the hall's clock standing still, a burst of 100
    frames (the hello one of the 40) gets exactly 39 answers and 61 refusals, and 1.5/20 s of
    the clock gives one and a half frames back."""
    settings = Settings(rate_per_second=20, rate_burst=40, bots_on_start=False)

    async def main() -> None:
        async with InProcessHall(tmp_path / "hall.db", settings) as hall:
            async with httpx.AsyncClient(timeout=30) as http:
                anna = await WsPlayer.guest(http, hall.url, "anna")
            ws = await _raw(hall, anna.token)
            assert (await _answer(ws))["type"] == "welcome"
            for _ in range(100):
                await ws.send(json.dumps({"type": "ping"}))
            kinds = [(await _answer(ws)).get("code", "pong") for _ in range(100)]
            assert kinds.count("pong") == 39 and kinds.count("rate_limited") == 61, kinds
            await hall.advance(0.075)
            for _ in range(2):
                await ws.send(json.dumps({"type": "ping"}))
            kinds = [(await _answer(ws)).get("code", "pong") for _ in range(2)]
            assert kinds == ["pong", "rate_limited"], kinds
            await ws.close()

    asyncio.run(main())
