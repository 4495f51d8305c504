"""``sanh loadtest``: N real WebSocket clients playing as bots against a running hall.

Each client signs in as a guest, joins a table of the chosen game (tables are created as needed,
filled to their seat count), sits, and answers every turn with a random legal action taken from
its own view. Reported: hands completed, actions per second, p50/p95/p99 latency from sending an
action to receiving the update that answers it, and errors. Loops are bounded by ``--duration``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``loadtest`` subcommand."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "loadtest", help="N WebSocket clients playing as bots against a running hall"
    )
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--duration", type=float, default=10.0, help="seconds")
    parser.add_argument("--game", default="tien-len")
    parser.add_argument("--stake", type=int, default=100)
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)


@dataclass
class Stats:
    """Shared counters."""

    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    hands: set[tuple[str, int]] = field(default_factory=set)
    errors: dict[str, int] = field(default_factory=dict)
    connected: int = 0


def run(args: argparse.Namespace) -> int:
    """Run the load test and print the report."""
    stats = asyncio.run(_main(args))
    report = _report(stats, args)
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key:>20}: {value}")
    return 0 if report["connected"] > 0 else 1


def _report(stats: Stats, args: argparse.Namespace) -> dict[str, Any]:
    lat = sorted(stats.latencies)

    def pct(q: float) -> float | None:
        if not lat:
            return None
        return round(lat[min(len(lat) - 1, int(q * len(lat)))] * 1000, 2)

    return {
        "clients": args.clients,
        "connected": stats.connected,
        "duration_s": args.duration,
        "game": args.game,
        "hands_completed": len(stats.hands),
        "actions": stats.actions,
        "actions_per_s": round(stats.actions / args.duration, 1),
        "latency_p50_ms": pct(0.50),
        "latency_p95_ms": pct(0.95),
        "latency_p99_ms": pct(0.99),
        "errors": stats.errors,
    }


async def _main(args: argparse.Namespace) -> Stats:
    import httpx

    stats = Stats()
    base = args.url.rstrip("/")
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        games = (await http.get("/api/games")).json()["games"]
        info = next((g for g in games if g["id"] == args.game), None)
        if info is None:
            raise SystemExit(f"sanh loadtest: the hall has no game {args.game!r}")
        seats = info["seats_max"] if not info["banked"] else min(info["seats_max"], 50)
        tokens = []
        for index in range(args.clients):
            response = await http.post("/api/guest", json={"name": f"load{index}"})
            tokens.append(response.json()["token"])
        tables: list[str] = []
        for start in range(0, args.clients, seats):
            body = {"game": args.game, "stake": args.stake, "seats": seats}
            headers = {"authorization": f"Bearer {tokens[start]}"}
            created = await http.post("/api/tables", json=body, headers=headers)
            if created.status_code != 201:
                raise SystemExit(f"sanh loadtest: cannot create a table: {created.text}")
            tables.append(created.json()["id"])
    deadline = time.monotonic() + args.duration
    ws_base = base.replace("http://", "ws://").replace("https://", "wss://")
    clients = [
        _client(ws_base, tokens[i], tables[i // seats], deadline, stats, random.Random(i))
        for i in range(args.clients)
    ]
    await asyncio.gather(*clients, return_exceptions=True)
    return stats


async def _client(
    ws_base: str, token: str, table: str, deadline: float, stats: Stats, rnd: random.Random
) -> None:
    import websockets

    pending: dict[int, float] = {}
    try:
        async with websockets.connect(f"{ws_base}/ws?token={token}", max_size=2**22) as ws:
            stats.connected += 1
            await ws.send(json.dumps({"type": "join", "table": table}))
            await ws.send(json.dumps({"type": "sit", "table": table}))
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=remaining)
                except TimeoutError:
                    return
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "error":
                    code = message.get("code", "?")
                    stats.errors[code] = stats.errors.get(code, 0) + 1
                    continue
                if kind == "buyin_panel":
                    await ws.send(
                        json.dumps({"type": "buyin", "table": table, "amount": message["max"]})
                    )
                    continue
                if kind == "result":
                    stats.hands.add((message["table"], message["hand"]))
                    continue
                if kind != "table" or not message.get("view"):
                    continue
                view = message["view"]
                version = view["version"]
                now = time.monotonic()
                for sent_version in [v for v in pending if v < version]:
                    stats.latencies.append(now - pending.pop(sent_version))
                action = _choose(view, rnd)
                if action is None or version in pending:
                    continue
                pending[version] = time.monotonic()
                stats.actions += 1
                await ws.send(
                    json.dumps(
                        {
                            "type": "act",
                            "table": table,
                            "nonce": uuid.uuid4().hex,
                            "version": version,
                            "action": action,
                        }
                    )
                )
    except Exception as exc:  # a failed client is an error in the report, not a crash
        name = type(exc).__name__
        stats.errors[name] = stats.errors.get(name, 0) + 1


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
