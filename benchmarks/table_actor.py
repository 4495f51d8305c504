"""One table actor in process: CPU per applied event with bots playing and spectators watching.

Run: ``python -m benchmarks.table_actor [--game tien-len] [--hands 150] [--spectators 0,20]``
(never from the tests). A hall on an in-memory SQLite ledger runs one table of bots (timers
scaled to milliseconds) with ``--spectators`` watching connections whose queues are drained,
until ``--hands`` hands are settled, and prints the process CPU per hand and per applied event
(the settled hands' histories). Only the table's public surface is used (``call("join", ...)``,
``call("add_bots", ...)``), so the same script measures another checkout:
``PYTHONPATH=/path/to/other/tree python -m benchmarks.table_actor``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any

from sanh.server.hall import Hall
from sanh.server.settings import Settings
from sanh.server.table import Connection, TableActor
from sanh.server.wallet_services import WalletServices


async def _run(game: str, seats: int, hands: int, spectators: int) -> dict[str, Any]:
    services = WalletServices.open("sqlite:///:memory:")
    settings = Settings(timer_scale=0.001, between_hands=1.0, bot_delay=1.0, bot_samples=20)
    hall = Hall(settings, services.bank)
    events = 0

    def counted(actor: TableActor, summary: dict[str, Any]) -> None:
        nonlocal events
        events += len(summary["state"].history)

    try:
        host = services.guest("host", "vi")
        actor = hall.create_table(
            game=game, stake=100, seats=seats, options={}, quick=False, private=False, host=None
        )
        previous = actor.on_hand_end

        def on_hand_end(table: TableActor, summary: dict[str, Any]) -> None:
            counted(table, summary)
            if previous is not None:
                previous(table, summary)

        actor.on_hand_end = on_hand_end
        watchers = [
            Connection(services.guest(f"w{i}", "vi"), send_limit=1_000_000)
            for i in range(spectators)
        ]
        del host
        for conn in watchers:
            await actor.call("join", conn, None)
        cpu0, wall0 = time.process_time(), time.perf_counter()
        await actor.call("add_bots", None, seats)
        received = 0
        while actor.hands_completed < hands:
            await asyncio.sleep(0.05)
            for conn in watchers:
                while not conn.outbox.empty():
                    conn.outbox.get_nowait()
                    received += 1
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        return {
            "game": game,
            "spectators": spectators,
            "hands": actor.hands_completed,
            "events": events,
            "cpu_s": round(cpu, 2),
            "wall_s": round(wall, 2),
            "cpu_ms_per_hand": round(1000 * cpu / actor.hands_completed, 3),
            "cpu_ms_per_event": round(1000 * cpu / max(events, 1), 4),
            "spectator_messages": received,
        }
    finally:
        await hall.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tien-len")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--hands", type=int, default=150)
    parser.add_argument("--spectators", default="0,20")
    args = parser.parse_args()
    for count in (int(c) for c in args.spectators.split(",")):
        print(json.dumps(asyncio.run(_run(args.game, args.seats, args.hands, count))), flush=True)


if __name__ == "__main__":
    main()
