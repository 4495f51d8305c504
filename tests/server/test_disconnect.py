"""Timers, disconnection and reconnection per game (RULES.md §2.5, §2.7), over real WebSockets.

Every registered game gets a table with two players on WebSocket connections (A and B) and
server bots in the other seats. For each game, one after the other on the same table:

1. **Timeouts.** A sits but never acts: every one of A's moves in that hand is the game's
   ``default_action(state, seat, "timeout")``, and a betting window closes with the table's
   own default.
2. **Disconnection.** A drops its socket as a hand starts: every move made for A's seat is the
   game's ``"disconnect"`` default.
3. **Reconnection.** A sits again, plays, drops its socket mid-hand and comes back on a new
   connection with its private resume token: it gets its seat back and its full private view
   (exactly the engine's view of its seat at that version), and plays the hand out.

Every check replays the table's event log from the database. The games run concurrently.
When the moves come (a deadline at its time and not before, the turn clock a dropped player
keeps, then moves at once) is checked on the hall's own clock in ``test_timers.py``: here the
hall runs on this machine's time, whose speed no check may depend on.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from sanh.games import REGISTRY, find_game
from sanh.notation.jsonable import event_from_json, to_jsonable
from tests.server.conftest import HallProcess, free_port
from tests.server.harness import BETTING_PHASES, WsPlayer, replay_hand, table_log

SCALE = 0.04
STAY = frozenset({"Fold", "SitOut", "Muck", "Leave"})
"""Actions the players avoid while A reconnects, so that the hand is still on."""
WINDOWS: dict[str, dict[str, Any]] = {
    "tai-xiu": {"taixiu.betting_s": 40},
    "teen-patti-2020": {"teenpatti.betting_s": 40},
    "three-card-poker": {"tcp.betting_s": 40, "tcp.decision_s": 40},
    "sam-loc": {"samloc.declare_s": 10},
}
"""A house round is one window (1.6 s at this scale): long enough for A to drop its socket and
come back within it on a busy machine (the resume is checked mid-round)."""


@pytest.fixture(scope="module")
def timed_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    tmp: Path = tmp_path_factory.mktemp("timers")
    process = HallProcess(
        tmp / "hall.db",
        free_port(),
        SCALE,
        log=tmp / "hall.log",
        env={
            "SANH_HOUSE_TAI_XIU_TABLES": "1",  # house Tài Xỉu tables with their own clocks
            "SANH_BETWEEN_HANDS": "2",
            "SANH_BOT_DELAY": "6",
            # 20 s: A's drop and return, however slow, come within the reconnection grace.
            "SANH_RECONNECT_GRACE": "500",
            "SANH_BOT_SAMPLES": "30",
            "SANH_RATE_PER_SECOND": "1000",
            "SANH_RATE_BURST": "1000",
        },
    )
    process.start()
    yield process
    process.stop()


def _is_view_of_hand(message: dict[str, Any]) -> bool:
    view = message.get("view")
    return (
        message.get("type") == "table"
        and view is not None
        and view.get("viewer") is not None
        and not view.get("terminal")
    )


def _hand_log(hall: HallProcess, table: str, hand: int) -> Any:
    return replay_hand(table_log(hall.db_url, table)[hand])


def _events_of(hall: HallProcess, table: str, hand: int) -> list[dict[str, Any]]:
    return [e for e in table_log(hall.db_url, table)[hand] if e["kind"] == "event"]


def _check_defaults(
    hall: HallProcess,
    table: str,
    hand: int,
    a: WsPlayer,
    reason: str,
) -> int:
    """Every move made for A's seat in the hand, other than A's own accepted actions, is the
    ``reason`` default (for a disconnection, also the timeout default: a deadline may pass
    before the server has seen the socket close); returns how many there were. When they came
    is checked on the hall's own clock, in ``test_timers.py`` (a deadline at its time, the
    disconnect clock), not here against this machine's speed."""
    replay = _hand_log(hall, table, hand)
    game = find_game(replay.game_id)
    seat = replay.seat_of(a.player)
    own = a.accepted.get((table, hand), set())
    # What A sent itself, even if its ack was lost as A's socket closed.
    sent = list(a.sent_actions.values())
    assert seat is not None, f"{a.player} was not in hand {hand}"
    moves = 0
    events = _events_of(hall, table, hand)
    for version, raw in enumerate(events):
        state = replay.states[version]
        body = {k: v for k, v in raw.items() if k not in {"kind", "seq"}}
        if body["type"] in {"shuffle", "roll"}:
            continue
        event = event_from_json(game, body)
        target = getattr(event, "target", None)
        mine = event.seat == seat or (event.seat is None and target == seat)
        if not mine or version + 1 in own or body in sent:
            continue
        expected = {game.default_action(state, seat, reason)}  # type: ignore[arg-type]
        if reason == "disconnect":  # a deadline that passed before the server saw the drop
            expected.add(game.default_action(state, seat, "timeout"))
        if event.seat is None:
            expected.add(game.default_action(state, None, "timeout"))
        assert event in expected, f"{replay.game_id}: {event} for {reason} at v{version}"
        moves += 1
    return moves


async def _scenario(hall: HallProcess, http: httpx.AsyncClient, game_id: str) -> dict[str, Any]:
    players: list[WsPlayer] = []
    report: dict[str, Any] = {"phase": "setup"}
    try:
        return await _phases(hall, http, game_id, players, report)
    except Exception as exc:
        tail = [
            {k: v for k, v in m.items() if k in {"type", "code", "message", "hand", "your_seat"}}
            for m in (players[0].messages[-6:] if players else [])
        ]
        raise AssertionError(f"{game_id}, {report['phase']}: {exc!r}; A got {tail}") from exc
    finally:
        for player in players:  # closed even after a failure (no socket left to the GC)
            with contextlib.suppress(Exception):
                await player.close()


async def _phases(
    hall: HallProcess,
    http: httpx.AsyncClient,
    game_id: str,
    players: list[WsPlayer],
    report: dict[str, Any],
) -> dict[str, Any]:
    info = REGISTRY[game_id].info
    seats = min(max(info.seats_min, 3), info.seats_max)
    # Names are unique in the hall (one hall for every game here): each game's pair has its own.
    a = await WsPlayer.guest(http, hall.url, f"anna {game_id}", mode="bettor", seed=1)
    b = await WsPlayer.guest(http, hall.url, f"binh {game_id}", mode="play", seed=2)
    players += [a, b]
    created = await http.post(
        f"{hall.url}/api/tables",
        json={"game": game_id, "stake": 100, "seats": seats, "options": WINDOWS.get(game_id, {})},
        headers={"authorization": f"Bearer {b.token}"},
    )
    assert created.status_code == 201, created.text
    table = created.json()["id"]
    for player in (a, b):
        await player.connect()
        await player.send({"type": "join", "table": table})
        await player.send({"type": "sit", "table": table})
    # A idles but takes the buy-in panel's default (the maximum, at its deadline).
    await b.send({"type": "add_bots", "table": table, "count": seats - 2})
    report["table"] = table
    report["phase"] = "timeouts"

    # 1. Timeouts: A never acts in its first hand.
    first = await a.wait_for(_is_view_of_hand, timeout=60)
    hand = first["hand"]
    await a.wait_for(lambda m: m.get("type") == "result" and m["hand"] == hand, timeout=90)
    report["timeouts"] = _check_defaults(hall, table, hand, a, "timeout")

    # 2. Disconnection: A drops its socket as its next hand starts (after its first bet, in
    # the games with a betting window: the bets stand, what follows is the clock's).
    report["phase"] = "disconnect"
    mark = len(a.messages)
    dealt = await a.wait_for(lambda m: _is_view_of_hand(m) and m["hand"] > hand, 60, mark)
    hand = dealt["hand"]
    if "table" in dealt["deadlines"] and dealt["view"].get("phase") in BETTING_PHASES:
        await a.wait_for(lambda m: m.get("type") in {"ack", "result"}, 60, mark)
    a.mode = "idle"
    await a.answered()
    await a.close()
    await b.wait_for(lambda m: m.get("type") == "result" and m["hand"] == hand, timeout=90)
    report["disconnects"] = _check_defaults(hall, table, hand, a, "disconnect")

    # 3. Reconnection with the resume token, mid-hand (nobody folds: the hand goes on).
    report["phase"] = "resume"
    a.avoid = b.avoid = STAY
    await a.connect()
    a.mode = "play"
    await a.send({"type": "join", "table": table})
    await a.send({"type": "sit", "table": table})
    for attempt in range(8):
        mark = len(a.messages)
        playing = await a.wait_for(
            lambda m, after=hand: _is_view_of_hand(m) and m["hand"] > after, 60, mark
        )
        hand = playing["hand"]
        seat_before = playing["your_seat"]
        # Drop the socket just after A has acted (the others move before A's turn is back),
        # or, every other time, as soon as the hand starts (short hands end after one act).
        if attempt % 2 == 0:
            mark = len(a.messages)
            await a.wait_for(lambda m: m.get("type") in {"ack", "result"}, 60, mark)
        token = a.resume_tokens[table]
        a.mode = "idle"
        await a.answered()
        await a.close()
        await a.connect()
        mark = len(a.messages)
        await a.send({"type": "resume", "resume_token": token})
        back = await a.wait_for(lambda m: m.get("type") == "table", 30, mark)
        assert back["your_seat"] == seat_before, f"{game_id}: resumed at another seat"
        a.mode = "play"
        view = back["view"]
        if view is None or back["hand"] != hand or view.get("terminal"):
            continue  # the hand ended while A was away (its seat was kept): again
        replay = _hand_log(hall, table, hand)
        engine_seat = replay.seat_of(a.player)
        assert view["viewer"] == engine_seat, f"{game_id}: resumed with a view of another seat"
        game = find_game(game_id)
        expected = to_jsonable(game.observe(replay.states[view["version"]], engine_seat))
        assert view == expected, f"{game_id}: the resumed view is not the seat's private view"
        report["resumed_view"] = True
        await a._maybe_act(back)
        await a.wait_for(
            lambda m, now=hand: m.get("type") == "result" and m["hand"] == now, 90, mark
        )
        break
    # A wrong token, or another player's, gets a typed refusal and changes nothing.
    report["phase"] = "bad tokens"
    a.mode = "idle"

    def refusal(m: dict[str, Any]) -> bool:
        return m.get("type") == "error" and m.get("nonce") is None

    mark = len(a.messages)
    await a.send({"type": "resume", "resume_token": "not-a-token"})
    error = await a.wait_for(refusal, 30, mark)
    assert error["code"] == "bad_resume"
    other = b.resume_tokens[table]
    mark = len(a.messages)
    await a.send({"type": "resume", "resume_token": other})
    error = await a.wait_for(refusal, 30, mark)
    assert error["code"] == "bad_resume"
    assert error.get("table") is None, "another player's token names no table"
    await b.send({"type": "remove_bots", "table": table})
    for player in (a, b):
        await player.close()
    return report


def test_timers_disconnection_and_reconnection_in_every_game(timed_hall: HallProcess) -> None:
    async def main() -> dict[str, Any]:
        async with httpx.AsyncClient(timeout=30) as http:
            games = sorted(REGISTRY)
            outcomes = await asyncio.gather(
                *(_scenario(timed_hall, http, g) for g in games), return_exceptions=True
            )
        return dict(zip(games, outcomes, strict=True))

    results = asyncio.run(main())
    print(
        {
            g: (r["timeouts"], r["disconnects"], r.get("resumed_view"))
            for g, r in results.items()
            if not isinstance(r, BaseException)
        }
    )
    failures = {g: r for g, r in results.items() if isinstance(r, BaseException)}
    if failures:
        for game_id, error in failures.items():
            print(f"{game_id}: {type(error).__name__}: {error}")
        raise next(iter(failures.values()))
    resumed_views = [g for g, r in results.items() if r.get("resumed_view")]
    assert len(resumed_views) == len(REGISTRY), f"resumed mid-hand only in {resumed_views}"
    # The defaults did something for A in most games (some hands give A no turn at all).
    acted = [g for g, r in results.items() if r["timeouts"] + r["disconnects"] > 0]
    assert len(acted) >= len(REGISTRY) // 2, results
