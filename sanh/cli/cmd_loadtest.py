"""``sanh loadtest``: N real WebSocket clients playing as bots against a running hall.

Each client signs in as a guest, joins a table of the chosen game (tables are created as needed,
filled to their seat count; Tài Xỉu's house-banked table is the hall's own, ``tai-xiu-system``,
which the clients join, as a hall creates no other unless ``house_tai_xiu_tables`` is on),
sits, and answers every turn with a random legal action taken from its own view, after an
optional think time (``--think``, the mean pause in seconds, drawn uniformly from half to one
and a half times it; 0 answers at once).

A client has at most one action in flight, and acts again only on a view that includes its
last accepted action (the ``ack``'s version): a view sent for another seat's action while its
own was on the way still lists what it has just done, so acting on it would be refused. An
action the table refuses anyway (it was in flight while the clock closed a window) is counted
under ``refusals`` by code and reason, and the client waits for the next view.

Phases: set-up over HTTP (guests and tables), connection (every client connects, signs in with
a first ``hello`` frame, waits for its welcome, joins and sits; play starts as soon as a table
has enough players), a warm-up (``--warmup`` seconds of play, not measured), then the measured
window of ``--duration`` seconds (or until ``--hands`` hands are completed). Reported for the
window: hands completed, actions sent and per second, p50/p95/p99/max latency from sending an
action to receiving the table update that answers it, and errors.

The clients can run in several processes (``--procs``), so that the load tool is not the
bottleneck; each process runs its share of the clients on one event loop.

A cluster: give every node (``--url`` repeated, or separated by commas). Guests and tables are
created on the nodes in turn, and each client connects to its table's node; a client sent on
(``moved``) follows. With ``--reconnect`` a client whose connection is lost (its node was
killed) connects again, to the next node, which sends it on to the node that took the table
over (or answers that nobody has yet: it asks again shortly); joining takes its seat back. The
report then gives the outages (lost connection to the table's next update), the reconnections
and the clients still cut off at the end (``stranded``). SIGTERM ends the measured window early
(one process), with the report.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import resource
import signal
import time
import uuid
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``loadtest`` subcommand."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "loadtest", help="N WebSocket clients playing as bots against a running hall"
    )
    parser.add_argument(
        "--url",
        action="append",
        default=None,
        help="a node of the hall (repeat, or separate with commas, for the nodes of a cluster:"
        " tables are created on them in turn; default http://127.0.0.1:8000)",
    )
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--duration", type=float, default=10.0, help="measured seconds")
    parser.add_argument(
        "--hands",
        type=int,
        default=0,
        help="end the measured window early once this many hands are completed (one process)",
    )
    parser.add_argument("--game", default="tien-len")
    parser.add_argument("--stake", type=int, default=100)
    parser.add_argument(
        "--seats",
        type=int,
        default=0,
        help="seats per table (default: the game's most, at most 50 at a house game)",
    )
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean seconds a client waits before acting"
    )
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds of play not measured")
    parser.add_argument("--procs", type=int, default=1, help="client processes")
    parser.add_argument(
        "--reconnect",
        action="store_true",
        help="a client whose connection is lost (its node died) connects again, to the other"
        " nodes in turn, and rejoins its seat; the report gives the outages",
    )
    parser.add_argument(
        "--tokens-file",
        default=None,
        help="write the guests' session tokens here (JSON), to check their wallets afterwards",
    )
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)


@dataclass
class Plan:
    """What one client process runs: its clients' (token, table, ws url of the table's node)
    and the timing."""

    nodes: list[str]
    """Every node's WebSocket base URL (a lost client tries them in turn)."""
    clients: list[tuple[str, str, str]]
    duration: float
    warmup: float
    think: float
    seed: int
    hands: int = 0
    """End the window once this many hands are completed (0: run the whole duration)."""
    reconnect: bool = False


@dataclass
class Stats:
    """Counters of one client process (merged across processes for the report)."""

    latencies: list[float] = field(default_factory=list)
    """Seconds from sending an action to the update that answers it (measured window only)."""
    actions: int = 0
    hands: set[tuple[str, int]] = field(default_factory=set)
    errors: dict[str, int] = field(default_factory=dict)
    refusals: dict[str, int] = field(default_factory=dict)
    """The client's own actions refused, by ``code:reason`` (the whole run, not only the window)."""
    sent: int = 0
    """Actions sent over the whole run (warm-up included)."""
    connected: int = 0
    playing: int = 0
    """Clients that had an action answered in the window."""
    cpu_s: float = 0.0
    window_s: float = 0.0
    """The measured window's length (shorter than the duration when ``--hands`` ended it)."""
    moved: int = 0
    """``moved`` answers followed (the table is played by another node)."""
    reconnects: int = 0
    """Connections made again after one was lost or could not be made (``--reconnect``:
    every attempt that was welcomed, while a dead node's tables are being taken over)."""
    outages: list[float] = field(default_factory=list)
    """Seconds from a lost connection to the client's table update on the new connection."""
    stranded: int = 0
    """Clients whose connection was lost and not back at the end."""

    def error(self, code: str) -> None:
        """Count one error."""
        self.errors[code] = self.errors.get(code, 0) + 1

    def refusal(self, code: str, reason: str) -> None:
        """Count one refused action."""
        key = f"{code}:{reason}"
        self.refusals[key] = self.refusals.get(key, 0) + 1

    def to_json(self) -> dict[str, Any]:
        """A picklable summary (sent from a worker process)."""
        return {
            "latencies": self.latencies,
            "actions": self.actions,
            "hands": sorted(self.hands),
            "errors": self.errors,
            "refusals": self.refusals,
            "sent": self.sent,
            "connected": self.connected,
            "playing": self.playing,
            "cpu_s": self.cpu_s,
            "window_s": self.window_s,
            "moved": self.moved,
            "reconnects": self.reconnects,
            "outages": self.outages,
            "stranded": self.stranded,
        }


def run(args: argparse.Namespace) -> int:
    """Run the load test and print the report."""
    started = time.monotonic()
    nodes, pairs = _run_loop(_setup(args))
    setup_s = time.monotonic() - started
    if args.tokens_file:
        with open(args.tokens_file, "w", encoding="utf-8") as out:
            json.dump([token for token, _, _ in pairs], out)
    procs = max(1, min(args.procs, len(pairs) or 1))
    # Whole tables per process (a table's clients stay together), spread evenly.
    shares: list[list[tuple[str, str, str]]] = [[] for _ in range(procs)]
    by_table: dict[str, list[tuple[str, str, str]]] = {}
    for pair in pairs:
        by_table.setdefault(pair[1], []).append(pair)
    for index, group in enumerate(by_table.values()):
        shares[index % procs].extend(group)
    plans = [
        Plan(nodes, share, args.duration, args.warmup, args.think, seed, args.hands, args.reconnect)
        for seed, share in enumerate(shares)
    ]
    results = [_worker(plans[0], None)] if procs == 1 else _in_processes(plans)
    report = _report(results, args, setup_s)
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key:>20}: {value}")
    return 0 if report["connected"] > 0 else 1


def _run_loop(coro: Coroutine[Any, Any, Any]) -> Any:
    return asyncio.run(coro)


def _in_processes(plans: list[Plan]) -> list[dict[str, Any]]:
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(len(plans))
    queue = context.Queue()
    workers = [
        context.Process(target=_worker_process, args=(plan, barrier, queue), daemon=True)
        for plan in plans
    ]
    for worker in workers:
        worker.start()
    results = []
    timeout = 120 + max(p.duration + p.warmup for p in plans) + 10 * len(plans[0].clients) / 100
    for _ in workers:
        results.append(queue.get(timeout=timeout))
    for worker in workers:
        worker.join(10)
    return results


def _worker_process(plan: Plan, barrier: Any, queue: Any) -> None:
    queue.put(_worker(plan, barrier))


def _worker(plan: Plan, barrier: Any) -> dict[str, Any]:
    stats: Stats = _run_loop(_play(plan, barrier))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    stats.cpu_s = usage.ru_utime + usage.ru_stime
    return stats.to_json()


def _report(
    results: list[dict[str, Any]], args: argparse.Namespace, setup_s: float
) -> dict[str, Any]:
    lat: list[float] = sorted(x for r in results for x in r["latencies"])
    outages: list[float] = sorted(x for r in results for x in r["outages"])
    window_s = max(r["window_s"] for r in results)
    actions = sum(r["actions"] for r in results)
    errors: dict[str, int] = {}
    refusals: dict[str, int] = {}
    for r in results:
        for code, count in r["errors"].items():
            errors[code] = errors.get(code, 0) + count
        for key, count in r["refusals"].items():
            refusals[key] = refusals.get(key, 0) + count

    def pct(q: float) -> float | None:
        if not lat:
            return None
        return round(lat[min(len(lat) - 1, int(q * len(lat)))] * 1000, 2)

    return {
        "clients": args.clients,
        "connected": sum(r["connected"] for r in results),
        "playing": sum(r["playing"] for r in results),
        "duration_s": round(window_s, 2),
        "game": args.game,
        "think_s": args.think,
        "procs": len(results),
        "hands_completed": len({tuple(h) for r in results for h in r["hands"]}),
        "actions": actions,
        "actions_per_s": round(actions / window_s, 1) if window_s else 0.0,
        "answered": len(lat),
        "latency_p50_ms": pct(0.50),
        "latency_p95_ms": pct(0.95),
        "latency_p99_ms": pct(0.99),
        "latency_max_ms": round(lat[-1] * 1000, 2) if lat else None,
        "errors": errors,
        "actions_sent": sum(r["sent"] for r in results),
        "refused": sum(refusals.values()),
        "refusals": refusals,
        "nodes": len(_urls(args)),
        "moved": sum(r["moved"] for r in results),
        "reconnects": sum(r["reconnects"] for r in results),
        "outages": len(outages),
        "stranded": sum(r["stranded"] for r in results),
        "outage_p50_s": round(outages[len(outages) // 2], 2) if outages else None,
        "outage_max_s": round(outages[-1], 2) if outages else None,
        "setup_s": round(setup_s, 1),
        "client_cpu_s": round(sum(r["cpu_s"] for r in results), 1),
    }


def _urls(args: argparse.Namespace) -> list[str]:
    """The nodes' HTTP base URLs, in the order given."""
    given = args.url or ["http://127.0.0.1:8000"]
    return [u.strip().rstrip("/") for item in given for u in item.split(",") if u.strip()]


def _ws(base: str) -> str:
    return base.replace("http://", "ws://").replace("https://", "wss://")


async def _setup(
    args: argparse.Namespace,
) -> tuple[list[str], list[tuple[str, str, str]]]:
    """Create the guests and the tables over HTTP: (every node's ws url, [(token, table, ws url
    of the table's node)]). With several nodes, guests and tables are created on each in turn
    (a table is played by the node that opened it; a session works on every node)."""
    import httpx

    bases = _urls(args)
    limits = httpx.Limits(max_connections=16)
    clients = [httpx.AsyncClient(base_url=b, timeout=60, limits=limits) for b in bases]
    try:
        return [_ws(b) for b in bases], await _create(args, bases, clients)
    finally:
        for http in clients:
            await http.aclose()


async def _create(
    args: argparse.Namespace, bases: list[str], https: list[Any]
) -> list[tuple[str, str, str]]:
    http = https[0]
    games = (await http.get("/api/games")).json()["games"]
    info = next((g for g in games if g["id"] == args.game), None)
    if info is None:
        raise SystemExit(f"sanh loadtest: the hall has no game {args.game!r}")
    seats = info["seats_max"] if not info["banked"] else min(info["seats_max"], 50)
    if args.seats:
        seats = max(info["seats_min"], min(args.seats, info["seats_max"]))
    gate = asyncio.Semaphore(16)
    run = uuid.uuid4().hex[:6]

    async def guest(index: int) -> str:
        async with gate:
            # Names are unique in a hall: a run's guests are told apart from an earlier run's.
            name = f"load{index} {run}"
            node = https[index % len(https)]
            response = await node.post("/api/guest", json={"name": name})
            if response.status_code == 429:  # the hall's guests_per_hour
                raise SystemExit(
                    "sanh loadtest: the hall refuses more guests from this address: start"
                    " it with SANH_GUESTS_PER_HOUR above --clients (and SANH_GUEST_GRANT"
                    " for big bets)"
                )
            if response.status_code != 201:
                raise SystemExit(f"sanh loadtest: cannot create a guest: {response.text}")
            token: str = response.json()["token"]
            return token

    tokens = await asyncio.gather(*(guest(i) for i in range(args.clients)))

    async def table(number: int) -> tuple[str, str]:
        async with gate:
            body = {"game": args.game, "stake": args.stake, "seats": seats}
            headers = {"authorization": f"Bearer {tokens[number * seats]}"}
            node = number % len(https)
            created = await https[node].post("/api/tables", json=body, headers=headers)
            if created.status_code != 201:
                raise SystemExit(f"sanh loadtest: cannot create a table: {created.text}")
            table_id: str = created.json()["id"]
            return table_id, _ws(bases[node])

    if _house_table_only(info):
        home = _ws(bases[0])  # a client sent on to the node that plays the table follows
        return [(token, t, home) for token, t in await _system_seats(http, args, tokens)]
    count = (args.clients + seats - 1) // seats
    tables = await asyncio.gather(*(table(n) for n in range(count)))
    return [(tokens[i], *tables[i // seats]) for i in range(args.clients)]


def _house_table_only(info: dict[str, Any]) -> bool:
    """Whether the hall creates no house-banked table of this game for players: Tài Xỉu, whose
    bank option (``taixiu.table``) offers only ``player`` unless the hall's test-only setting
    ``house_tai_xiu_tables`` is on (seed 001: the one house table is the hall's own)."""
    bank = next((o for o in info["options"] if o["name"] == "taixiu.table"), None)
    return bank is not None and "system" not in bank["choices"]


async def _system_seats(
    http: Any, args: argparse.Namespace, tokens: list[str]
) -> list[tuple[str, str]]:
    """Every client at the hall's own house tables of the game (``tai-xiu-system``): their free
    seats must hold them all."""
    lobby = (await http.get("/api/lobby", params={"game": args.game})).json()["tables"]
    house = [t for t in lobby if t["system"] and t["options"].get("taixiu.table") != "player"]
    free = [(t["id"], t["seats"] - t["seated"]) for t in house]
    room = sum(n for _, n in free)
    if room < args.clients:
        raise SystemExit(
            f"sanh loadtest: the hall creates no house {args.game} tables and its own have"
            f" {room} free seats for {args.clients} clients (lower --clients, or start the"
            " hall with SANH_HOUSE_TAI_XIU_TABLES=1 to let it create them)"
        )
    places: list[str] = [table for table, n in free for _ in range(n)]
    return [(token, places[i]) for i, token in enumerate(tokens)]


async def _play(plan: Plan, barrier: Any) -> Stats:
    stats = Stats()
    window = _Window()
    rnd = random.Random(plan.seed)
    clients = [
        _Client(home, token, table, stats, window, plan.think, random.Random(rnd.random()))
        for token, table, home in plan.clients
    ]
    for client in clients:
        client.nodes = plan.nodes
        client.reconnect = plan.reconnect
    gate = asyncio.Semaphore(64)
    tasks = [asyncio.create_task(c.run(gate)) for c in clients]
    # Wait until every client has connected (or failed), then for the other processes.
    await asyncio.gather(*(c.ready.wait() for c in clients))
    if barrier is not None:
        await asyncio.to_thread(barrier.wait, 600)
    window.start = time.monotonic() + plan.warmup
    window.end = window.start + plan.duration
    window.hands = plan.hands
    if barrier is None:  # one process: SIGTERM ends the window early, with the report
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, window.done.set)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(window.done.wait(), plan.warmup + plan.duration)
    window.end = min(window.end, time.monotonic())
    stats.window_s = window.end - window.start
    await asyncio.sleep(0.5)  # answers to the last actions of the window
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for client in clients:
        client.abort()
    stats.connected = sum(1 for c in clients if c.connected)
    stats.playing = sum(1 for c in clients if c.answered)
    stats.stranded = sum(1 for c in clients if c.lost_at is not None)
    return stats


@dataclass
class _Window:
    start: float = float("inf")
    end: float = float("inf")
    hands: int = 0
    """The hands that end the window early (0: none)."""
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def __contains__(self, moment: float) -> bool:
        return self.start <= moment < self.end


class _Client:
    """One player: reads its updates and answers its turns."""

    def __init__(
        self,
        ws_url: str,
        token: str,
        table: str,
        stats: Stats,
        window: _Window,
        think: float,
        rnd: random.Random,
    ) -> None:
        self.url = f"{ws_url}/ws"
        self.nodes: list[str] = [ws_url]
        """Every node's ws base URL: after a lost connection the others are tried in turn."""
        self.reconnect = False
        self.lost = False
        """The last connection was lost (the next welcome counts as a reconnection)."""
        self.lost_at: float | None = None
        """When the connection was lost (cleared by the table update on a new one)."""
        self.moved_to: str | None = None
        """Where a ``moved`` (or a table not there yet) sends this client next."""
        self.token = token
        self.table = table
        self.stats = stats
        self.window = window
        self.think = think
        self.rnd = rnd
        self.ready = asyncio.Event()
        self.connected = False
        self.answered = False
        self.ws: Any = None
        self.view: dict[str, Any] | None = None
        self.hand = 0
        """The hand of the latest view."""
        self.pending: tuple[tuple[int, int], str, float] | None = None
        """((hand, version) acted on, nonce, monotonic time sent) of the action awaiting its
        ack."""
        self.wait_for: tuple[int, int] = (0, 0)
        """No action on a view older than this (hand, version): the one the last accepted
        action led to (from its ``ack``), or after a refusal the next version."""
        self.answer: tuple[tuple[int, int], float] | None = None
        """((hand, version), monotonic time sent) of an accepted action whose update has not
        come."""
        self.scheduled: int | None = None
        """The version a delayed action is waiting to answer."""

    def abort(self) -> None:
        """Drop the connection without a closing handshake."""
        if self.ws is not None:
            with contextlib.suppress(Exception):
                self.ws.transport.abort()

    async def run(self, gate: asyncio.Semaphore) -> None:
        """Connect, sign in (a first ``hello`` frame), join, sit and play until cancelled;
        follow ``moved`` to the node that plays the table, and with ``reconnect`` connect
        again (to the next node) after a lost connection."""
        from msgspec.json import Decoder

        decode = Decoder().decode
        attempt = 0
        while True:
            try:
                sat = await self._session(gate, decode)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a failed client is an error in the report, not a crash
                self.ready.set()
                sat = False
                if not self.reconnect:
                    prefix = "" if self.connected else "connect:"
                    self.stats.error(f"{prefix}{type(exc).__name__}")
                    return
            if sat:
                attempt = 0
                continue  # moved: straight to the node named
            if not self.reconnect:
                return
            attempt += 1
            self.lost = True
            if self.lost_at is None:
                self.lost_at = time.monotonic()
            self._forget_turn()
            self.url = f"{self._next_node()}/ws"
            await asyncio.sleep(min(2.0, 0.1 * attempt))

    def _next_node(self) -> str:
        """The node after the current one (a dead node is skipped on the next attempt)."""
        current = self.url.removesuffix("/ws")
        if current in self.nodes:
            return self.nodes[(self.nodes.index(current) + 1) % len(self.nodes)]
        return self.nodes[0]

    def _forget_turn(self) -> None:
        """Nothing is in flight on a connection that is gone."""
        self.pending = None
        self.answer = None
        self.scheduled = None
        self.moved_to = None

    async def _session(self, gate: asyncio.Semaphore, decode: Any) -> bool:
        """One connection: True when it ended on a ``moved`` (``self.url`` is the new node),
        False when it was lost."""
        from websockets.asyncio.client import connect

        from sanh.server.protocol import PROTOCOL_VERSION

        try:
            async with gate:
                self.ws = await connect(
                    self.url, max_size=2**22, compression=None, open_timeout=30, ping_interval=None
                )
                hello = {"type": "hello", "protocol": PROTOCOL_VERSION, "token": self.token}
                await self.ws.send(json.dumps(hello))
                answer = decode(await asyncio.wait_for(self.ws.recv(), 60))
            if answer.get("type") != "welcome":
                self.stats.error(f"hello:{answer.get('code', answer.get('type'))}")
                if not self.reconnect or not self.connected:
                    self.reconnect = False
                return False
            if self.lost:
                self.stats.reconnects += 1
                self.lost = False
            # joining takes the player's seat back (the table rebuilt elsewhere kept it)
            await self.ws.send(json.dumps({"type": "join", "table": self.table}))
            if not self.connected:
                await self.ws.send(json.dumps({"type": "sit", "table": self.table}))
            self.connected = True
        finally:
            self.ready.set()
        self.moved_to = None
        try:
            async for raw in self.ws:
                await self._on_message(decode(raw))
                if self.moved_to is not None:
                    break
        finally:
            with contextlib.suppress(Exception):
                self.ws.transport.abort()
        if self.moved_to is not None:
            moved = self.moved_to
            self.url = moved if moved.endswith("/ws") else f"{moved}/ws"
            self._forget_turn()
            return True
        return False

    async def _on_message(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "table":
            view = message.get("view")
            if not view:
                return
            self.view = view
            self.hand = int(message.get("hand", 0))
            if self.lost_at is not None:
                self.stats.outages.append(time.monotonic() - self.lost_at)
                self.lost_at = None
            answer = self.answer
            if answer is not None and (self.hand, view["version"]) >= answer[0]:
                self.answer = None
                if answer[1] in self.window:
                    self.stats.latencies.append(time.monotonic() - answer[1])
                    self.answered = True
            await self._maybe_act(view)
        elif kind == "ack":
            pending = self.pending
            if pending is not None and message.get("nonce") == pending[1]:
                self.pending = None
                led_to = (pending[0][0], int(message["version"]))
                self.wait_for = max(self.wait_for, led_to)
                self.answer = (led_to, pending[2])
                if self.view is not None:
                    await self._maybe_act(self.view)
        elif kind == "moved":
            self.stats.moved += 1
            if self.lost_at is None and self.view is not None:
                self.lost_at = time.monotonic()  # it was playing here: an outage begins
            if message.get("url"):
                self.moved_to = str(message["url"])
            else:  # being taken over: ask the next node in a moment
                await asyncio.sleep(0.2)
                self.moved_to = f"{self._next_node()}/ws"
        elif kind == "error" and message.get("code") == "no_such_table" and self.reconnect:
            # the table's node died and no other has taken it over yet: ask again shortly
            if self.lost_at is None:
                self.lost_at = time.monotonic()
            await asyncio.sleep(0.25)
            self.moved_to = f"{self._next_node()}/ws"
        elif kind == "error":
            code = message.get("code", "?")
            self.stats.error(code)
            pending = self.pending
            if pending is not None and message.get("nonce") == pending[1]:
                self.pending = None
                self.stats.refusal(code, str(message.get("text") or ""))
                # The view acted on is the table's latest as far as this client knows: wait
                # for the next one rather than choose again from the same view.
                self.wait_for = max(self.wait_for, (pending[0][0], pending[0][1] + 1))
                if self.view is not None:
                    await self._maybe_act(self.view)
        elif kind == "buyin_panel":
            await self.ws.send(
                json.dumps({"type": "buyin", "table": self.table, "amount": message["max"]})
            )
        elif kind == "result" and time.monotonic() in self.window:
            self.stats.hands.add((message["table"], message["hand"]))
            if self.window.hands and len(self.stats.hands) >= self.window.hands:
                self.window.done.set()

    async def _maybe_act(self, view: dict[str, Any]) -> None:
        """Act on ``view`` if nothing is in flight or scheduled and the view is recent enough."""
        if self.pending is not None or self.scheduled is not None:
            return
        if (self.hand, view["version"]) < self.wait_for:
            return
        if self.think > 0:
            if _choose(view, self.rnd) is not None:
                self.scheduled = view["version"]
                delay = self.think * (0.5 + self.rnd.random())
                asyncio.get_running_loop().call_later(delay, self._wake, view["version"])
        else:
            await self._act(view)

    def _wake(self, version: int) -> None:
        self.scheduled = None
        view = self.view
        if view is None or self.pending is not None or (self.hand, view["version"]) < self.wait_for:
            return
        task = asyncio.ensure_future(self._act(view))
        task.add_done_callback(_quiet)

    async def _act(self, view: dict[str, Any]) -> None:
        action = _choose(view, self.rnd)
        if action is None:
            return
        nonce = uuid.uuid4().hex
        now = time.monotonic()
        self.pending = ((self.hand, view["version"]), nonce, now)
        self.stats.sent += 1
        if now in self.window:
            self.stats.actions += 1
        body = {
            "type": "act",
            "table": self.table,
            "nonce": nonce,
            "version": view["version"],
            "action": action,
        }
        await self.ws.send(json.dumps(body))


def _quiet(task: asyncio.Future[None]) -> None:
    if not task.cancelled():
        task.exception()


def _choose(view: dict[str, Any], rnd: random.Random) -> dict[str, Any] | None:
    actions = list(view.get("legal_actions") or [])
    ranges = list(view.get("amount_ranges") or [])
    if not actions and not ranges:
        return None
    pick = rnd.randrange(len(actions) + len(ranges))
    if pick < len(actions):
        chosen: dict[str, Any] = actions[pick]
        return chosen
    amount_range = ranges[pick - len(actions)]
    action = dict(amount_range["action"])
    low, high = amount_range["min"], amount_range["max"]
    action[amount_range["field"]] = low if rnd.random() < 0.7 else high
    return action
