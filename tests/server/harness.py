"""Async WebSocket players for the server tests, and readers of the hall's database.

A :class:`WsPlayer` is a real WebSocket client (the ``websockets`` library) that records every
message the server sends it, answers buy-in panels, and plays random legal actions taken from
its own view (or idles, or only watches). The database helpers read the table event log that
the server writes, and replay a hand to every state version, so that tests can compare what a
client was sent with what the engine says that client may see.

:class:`InProcessHall` serves the real app (uvicorn, HTTP and WebSocket on a free port) inside
the test's own event loop, on a :class:`~sanh.server.clock.ManualClock`: the test moves the
hall's time (:meth:`InProcessHall.advance`) instead of sleeping, and checks each deadline on the
clock the server reads, however busy the machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import httpx
import msgspec
from websockets.asyncio.client import ClientConnection, connect

from sanh.games import find_game
from sanh.notation.history import config_from_json
from sanh.notation.jsonable import event_from_json
from sanh.server.app import create_app
from sanh.server.clock import ManualClock
from sanh.server.hall import Hall
from sanh.server.protocol import PROTOCOL_VERSION
from sanh.server.settings import Settings
from sanh.server.wallet_services import WalletServices

Mode = Literal["play", "idle", "watch", "bettor"]
"""``play``: random legal actions; ``idle``: never acts; ``watch``: a spectator; ``bettor``:
acts only in a betting window on the table's clock (then lets the clock play its seat)."""
BETTING_PHASES = frozenset({"betting", "bet", "ready"})
_decode = msgspec.json.Decoder().decode


@dataclass
class WsPlayer:
    """One guest over one WebSocket."""

    base_url: str
    token: str
    player: str
    name: str
    mode: Mode = "play"
    seed: int = 0
    idle_rate: float = 0.0
    """In ``play`` mode: the chance of leaving a decision to the clock."""
    max_window_actions: int = 4
    avoid: frozenset[str] = frozenset()
    """Action types not to choose while there is another choice (``Fold``...)."""
    messages: list[dict[str, Any]] = field(default_factory=list)
    ws: ClientConnection | None = None
    sent_acts: int = 0
    resume_tokens: dict[str, str] = field(default_factory=dict)
    accepted: dict[tuple[str, int], set[int]] = field(default_factory=dict)
    """(table, hand) -> the state versions the player's accepted actions led to."""
    sent_actions: dict[str, dict[str, Any]] = field(default_factory=dict)
    """nonce -> the action sent in that ``act``."""
    _sent: dict[str, tuple[str, int]] = field(default_factory=dict)
    _unanswered: set[str] = field(default_factory=set)
    _reader: asyncio.Task[None] | None = None
    _changed: asyncio.Event = field(default_factory=asyncio.Event)
    _answered: set[tuple[str, int, int]] = field(default_factory=set)
    _window_acts: dict[tuple[str, int, str], int] = field(default_factory=dict)
    _rnd: random.Random = field(default_factory=random.Random)

    def __post_init__(self) -> None:
        self._rnd = random.Random(self.seed)

    @classmethod
    async def guest(cls, http: httpx.AsyncClient, base_url: str, name: str, **kw: Any) -> WsPlayer:
        """A new guest account (not connected yet)."""
        response = await http.post(f"{base_url}/api/guest", json={"name": name})
        response.raise_for_status()
        data = response.json()
        return cls(base_url, data["token"], data["player"], name, **kw)

    async def connect(self) -> None:
        """Open the WebSocket, start recording, sign in with a first ``hello`` frame (the
        session token) and wait for the welcome."""
        url = self.base_url.replace("http://", "ws://") + "/ws"
        self.ws = await connect(url, max_size=2**22, open_timeout=30)
        mark = len(self.messages)
        self._reader = asyncio.get_running_loop().create_task(self._read())
        await self.send({"type": "hello", "protocol": PROTOCOL_VERSION, "token": self.token})
        answer = await self.wait_for(lambda m: m.get("type") in {"welcome", "error"}, 30, mark)
        if answer["type"] != "welcome":
            raise ConnectionError(f"{self.name}: the hello was refused: {answer}")

    async def close(self) -> None:
        """Close the WebSocket (the server sees a disconnection)."""
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        self.ws = None
        self._reader = None

    async def send(self, message: dict[str, Any]) -> None:
        """Send one JSON message."""
        assert self.ws is not None
        await self.ws.send(json.dumps(message))

    async def send_raw(self, frame: str | bytes) -> None:
        """Send one frame as it is."""
        assert self.ws is not None
        await self.ws.send(frame)

    async def _read(self) -> None:
        assert self.ws is not None
        with contextlib.suppress(Exception):
            async for raw in self.ws:
                message = _decode(raw)
                message["_t"] = time.monotonic()
                message["_wall"] = time.time()  # comparable with the server's deadlines
                self.messages.append(message)
                self._changed.set()
                await self._react(message)
        self._changed.set()

    async def _react(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "table" and message.get("resume_token"):
            self.resume_tokens[message["table"]] = message["resume_token"]
        if kind == "ack" and message["nonce"] in self._sent and not message["duplicate"]:
            self.accepted.setdefault(self._sent[message["nonce"]], set()).add(message["version"])
        if kind in {"ack", "error"} and message.get("nonce"):
            self._unanswered.discard(message["nonce"])
        if self.mode == "bettor" and kind == "table" and message.get("view"):
            view = message["view"]
            window = "table" in message.get("deadlines", {})
            if not window or view.get("phase") not in BETTING_PHASES:
                return
        elif self.mode not in ("play", "bettor"):
            return
        if kind == "buyin_panel":
            await self.send({"type": "buyin", "table": message["table"], "amount": message["max"]})
        elif kind == "table" and message.get("view"):
            await self._maybe_act(message)

    async def _maybe_act(self, message: dict[str, Any]) -> None:
        view = message["view"]
        table, hand, version = message["table"], message["hand"], view["version"]
        if (table, hand, version) in self._answered or view.get("terminal"):
            return
        action = choose_action(view, self._rnd, self.avoid)
        if action is None:
            return
        self._answered.add((table, hand, version))
        simultaneous = len(view.get("to_act", ())) > 1 or "table" in message.get("deadlines", {})
        if simultaneous:
            key = (table, hand, str(view.get("phase", view.get("street", ""))))
            if self._window_acts.get(key, 0) >= self.max_window_actions:
                return
            self._window_acts[key] = self._window_acts.get(key, 0) + 1
        if self._rnd.random() < self.idle_rate:
            return
        self.sent_acts += 1
        nonce = uuid.uuid4().hex
        self._sent[nonce] = (table, hand)
        self.sent_actions[nonce] = action
        self._unanswered.add(nonce)
        await self.send(
            {"type": "act", "table": table, "nonce": nonce, "version": version, "action": action}
        )

    async def wait_for(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 30, start: int = 0
    ) -> dict[str, Any]:
        """The first message from index ``start`` on that satisfies ``predicate``."""
        deadline = time.monotonic() + timeout
        index = start
        while True:
            while index < len(self.messages):
                message = self.messages[index]
                index += 1
                if predicate(message):
                    return message
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: no such message in {timeout} s")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(left, 1.0))

    async def answered(self, timeout: float = 30) -> None:
        """Wait until every action sent has been acknowledged or refused."""
        deadline = time.monotonic() + timeout
        while self._unanswered:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}: {len(self._unanswered)} actions unanswered")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), 0.5)

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        """The messages received of one type."""
        return [m for m in self.messages if m.get("type") == kind]


def choose_action(
    view: dict[str, Any], rnd: random.Random, avoid: frozenset[str] = frozenset()
) -> dict[str, Any] | None:
    """A random legal action of the viewer, amounts at their minimum (``avoid``: action types
    chosen only when nothing else is legal)."""
    candidates: dict[str, dict[str, Any]] = {}
    for action in view.get("legal_actions") or []:
        key = repr(sorted((k, v) for k, v in action.items() if k != "amount"))
        if key not in candidates or action.get("amount", 0) < candidates[key].get("amount", 0):
            candidates[key] = action
    for amount_range in view.get("amount_ranges") or []:
        action = dict(amount_range["action"])
        action[amount_range["field"]] = amount_range["min"]
        key = repr(sorted((k, v) for k, v in action.items() if k != "amount"))
        candidates.setdefault(key, action)
    if not candidates:
        return None
    keys = sorted(k for k, a in candidates.items() if a.get("type") not in avoid)
    return candidates[rnd.choice(keys or sorted(candidates))]


# ----- a hall in the test's own loop, on a manual clock ----------------------------------------
async def settle(hall: Hall) -> None:
    """Wait until every table has handled every command queued so far (a ``sync`` barrier)."""
    for actor in list(hall.tables.values()):
        if actor.task is not None and not actor.task.done():
            await actor.call("sync")


async def advance_to(clock: ManualClock, hall: Hall, when: float) -> None:
    """Move the clock to ``when`` one due time at a time; at each, every table handles what
    came due (and what that scheduled) before the clock moves on."""
    await settle(hall)
    while (due := clock.next_due()) is not None and due <= when:
        clock.advance_to(max(due, clock.now()))
        await settle(hall)
    clock.advance_to(max(when, clock.now()))
    await settle(hall)


@dataclass
class InProcessHall:
    """The real app (uvicorn: HTTP and WebSocket) in the running loop, on a manual clock."""

    db: Path
    settings: Settings
    clock: ManualClock = field(default_factory=ManualClock)
    services: WalletServices | None = None
    hall: Hall | None = None
    port: int = 0
    _server: Any = None
    _task: asyncio.Task[None] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def db_url(self) -> str:
        return f"sqlite:///{self.db}"

    async def __aenter__(self) -> InProcessHall:
        import socket

        import uvicorn

        self.services = WalletServices.open(self.db_url, self.settings.hall_config())
        self.hall = Hall(self.settings, self.services.bank, clock=self.clock)
        app = create_app(self.settings, self.services, self.hall)
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = int(sock.getsockname()[1])
        config = uvicorn.Config(
            app, log_config=None, ws="websockets-sansio", lifespan="on", log_level="warning"
        )
        self._server = uvicorn.Server(config)
        self._task = asyncio.get_running_loop().create_task(self._server.serve(sockets=[sock]))
        deadline = time.monotonic() + 30  # bounds a hang only
        while not self._server.started:
            if self._task.done() or time.monotonic() > deadline:
                raise RuntimeError("the in-process hall did not start")
            await asyncio.sleep(0.01)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._task, 30)
        if self.services is not None:
            self.services.close()

    async def settle(self) -> None:
        """Every table has handled what was queued (see :func:`settle`)."""
        assert self.hall is not None
        await settle(self.hall)

    async def advance(self, seconds: float) -> None:
        """Move the hall's clock ``seconds`` on (see :func:`advance_to`)."""
        assert self.hall is not None
        await advance_to(self.clock, self.hall, self.clock.now() + seconds)

    async def advance_to(self, when: float) -> None:
        """Move the hall's clock to ``when`` (see :func:`advance_to`)."""
        assert self.hall is not None
        await advance_to(self.clock, self.hall, when)


# ----- the hall's database -------------------------------------------------------------------
def db_path(db_url: str) -> Path:
    """The SQLite file of a ``sqlite:///`` URL."""
    return Path(db_url.removeprefix("sqlite:///"))


def table_log(db_url: str, table: str) -> dict[int, list[dict[str, Any]]]:
    """Every logged event of a table, by hand, in order (``seq`` added)."""
    with contextlib.closing(sqlite3.connect(db_path(db_url), timeout=30)) as db:
        rows = db.execute(
            "SELECT hand, seq, payload FROM table_events WHERE table_id = ? ORDER BY hand, seq",
            (table,),
        ).fetchall()
    return events_by_hand(rows)


def events_by_hand(rows: Iterable[Sequence[Any]]) -> dict[int, list[dict[str, Any]]]:
    """``table_events`` rows ``(hand, seq, payload)`` as decoded events by hand (``seq`` added)."""
    out: dict[int, list[dict[str, Any]]] = {}
    for hand, seq, payload in rows:
        event = json.loads(payload)
        event["seq"] = int(seq)
        out.setdefault(int(hand), []).append(event)
    return out


def query(db_url: str, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Rows of one read-only query on the hall's database."""
    with contextlib.closing(sqlite3.connect(db_path(db_url), timeout=30)) as db:
        return db.execute(sql, params).fetchall()


@dataclass
class HandReplay:
    """One logged hand replayed: the state at every version and who sat where."""

    game_id: str
    players: list[str | None]
    """Engine seat -> player id (None: an empty seat of a house round)."""
    states: list[Any]
    """``states[v]`` is the state at version ``v``."""
    outcome: str
    """``settle``, ``void`` or ``open`` (unfinished)."""

    def seat_of(self, player: str) -> int | None:
        """The player's engine seat in this hand, or None."""
        return self.players.index(player) if player in self.players else None

    def seat_at(self, player: str, version: int) -> int | None:
        """The player's engine seat at a version: in a house round, a seat is the player's
        once it has a stack (at the opening or from the player's SitIn), before that the
        player watches like a spectator."""
        seat = self.seat_of(player)
        if seat is None or not find_game(self.game_id).info.banked:
            return seat
        return seat if self.states[version].config.stacks[seat] > 0 else None


def replay_hand(events: list[dict[str, Any]]) -> HandReplay:
    """Replay one hand's logged events (the opening event first)."""
    opening = events[0]
    assert opening["kind"] == "open", opening
    game = find_game(opening["game"])
    state = game.new_state(config_from_json(opening["config"]))
    states = [state]
    outcome = "open"
    players: list[str | None] = list(opening["players"])
    for event in events[1:]:
        if event["kind"] in {"settle", "void"}:
            outcome = event["kind"]
            continue
        if event["kind"] == "join":  # a player sat in during a house round's window
            players[event["seat"]] = event["player"]
            continue
        body = {k: v for k, v in event.items() if k not in {"kind", "seq"}}
        state = game.apply(state, event_from_json(game, body))
        states.append(state)
    return HandReplay(game.info.id, players, states, outcome)
