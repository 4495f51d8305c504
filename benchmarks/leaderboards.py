"""One leaderboard query on 1,000,000 recorded hands, SQLite or PostgreSQL.

Run: ``python -m benchmarks.leaderboards [--hands 1000000] [--players 5000] [--days 30]
[--db postgresql://127.0.0.1/postgres]`` (never from the tests). Without ``--db`` the database
is a new SQLite file; with a PostgreSQL URL the benchmark creates a database of its own on that
server (``sanh_bench_boards``), and drops it at the end. It builds a migrated database with
that many hand records (``hands`` and ``hand_players``: 3 players a hand, 3 games, spread over
the days) and the leaderboard rows those hands make (``leaderboard``: per game and ``*``, per
day and ``all``; summed in Python from the same generated hands, the sums
:func:`sanh.server.leaderboards.record` keeps), then times, side by side:

* the board's query (``sanh.server.leaderboards._players``): a day's and all time's top 20
  by net gold (an index range read), and a week's (a range of 7 days' rows);
* the same top 20 computed by scanning the hand records (``hand_players JOIN hands``), the
  query the leaderboard tables replace;

and prints each one's ``EXPLAIN QUERY PLAN``. Figures go in BENCHMARKS.md with ``uptime``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections import defaultdict
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from benchmarks._machine import machine_note
from sanh.ledger.store import open_store
from sanh.server.leaderboards import _players, period_range

GAMES = ("tien-len", "phom", "texas-holdem")
SCAN = (
    "SELECT hp.player_id, SUM(hp.net) AS net FROM hand_players hp"
    " JOIN hands h ON h.id = hp.hand_id WHERE h.game = ? AND hp.finished_at >= ?"
    " AND hp.player_id NOT IN (SELECT player_id FROM hall_bots)"
    " GROUP BY hp.player_id ORDER BY net DESC, hp.player_id DESC LIMIT 20"
)


def build(url: str, hands: int, players: int, days: int, seed: int = 7) -> tuple[Any, str]:
    store = open_store(url)
    store.migrate()
    rnd = random.Random(seed)
    first = date(2026, 11, 4)
    day0_ns = 1_793_750_400 * 10**9  # 2026-11-04 00:00 UTC (the day strings are labels here)
    boards: dict[tuple[str, str, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    with store.write() as tx:
        tx.executemany(
            "INSERT INTO players (id, username, display_name, language, password_hash,"
            " created_at) VALUES (?, ?, ?, 'vi', '', 0)",
            [(p, f"u{p}", f"p{p}") for p in range(1, players + 1)],
        )
    chunk = 50_000
    for start in range(0, hands, chunk):
        hand_rows, seat_rows = [], []
        for n in range(start, min(hands, start + chunk)):
            game = GAMES[n % len(GAMES)]
            offset = n * days // hands
            day = (first + timedelta(days=offset)).isoformat()
            at = day0_ns + offset * 86_400 * 10**9 + n
            hid = f"t{n % 997}:{n}"
            hand_rows.append((hid, f"t{n % 997}", n, game, "[]", "{}", "[]", "{}", None, at))
            seats = rnd.sample(range(1, players + 1), 3)
            a, b = rnd.randrange(1, 5000), rnd.randrange(1, 5000)
            for seat, (pid, net) in enumerate(zip(seats, (a + b, -a, -b), strict=True)):
                seat_rows.append((pid, hid, seat, net, at))
                for g in (game, "*"):
                    for period in (day, "all"):
                        row = boards[(g, period, pid)]
                        row[0] += net
                        row[1] += 1
                        row[2] = max(row[2], net)
        with store.write() as tx:
            tx.executemany(
                "INSERT INTO hands (id, table_id, hand, game, players, config, events,"
                " settlement, server_seed, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                hand_rows,
            )
            tx.executemany(
                "INSERT INTO hand_players (player_id, hand_id, seat, net, finished_at)"
                " VALUES (?, ?, ?, ?, ?)",
                seat_rows,
            )
    with store.write() as tx:
        tx.execute("CREATE INDEX IF NOT EXISTS hand_players_recent"
                   " ON hand_players (player_id, finished_at)")  # fmt: skip
        tx.executemany(
            "INSERT INTO leaderboard (game, period, player_id, net, hands, best)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [(g, p, pid, *v) for (g, p, pid), v in boards.items()],
        )
    with store.write() as tx:
        tx.execute("ANALYZE")
    last = (first + timedelta(days=days - 1)).isoformat()
    return store, last


BENCH_DB = "sanh_bench_boards"


def postgres_database(server: str, drop: bool = False) -> str:
    """A new, empty database on the PostgreSQL ``server`` (its URL), or with ``drop`` none."""
    import psycopg

    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {BENCH_DB}")
        if not drop:
            conn.execute(f"CREATE DATABASE {BENCH_DB}")
    base, _, _ = server.rpartition("/")
    return f"{base}/{BENCH_DB}"


def timed(store: Any, run: Any, repeat: int) -> tuple[float, Any]:
    times, rows = [], None
    for _ in range(repeat):
        with store.read() as tx:
            began = time.perf_counter()
            rows = run(tx)
            times.append(time.perf_counter() - began)
    return statistics.median(times), rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--db", default=None, help="a PostgreSQL server URL (default: SQLite)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'boards.db'}"
        if args.db:
            url = postgres_database(args.db)
        began = time.perf_counter()
        store, today = build(url, args.hands, args.players, args.days)
        built = time.perf_counter() - began
        print(f"built {args.hands:,} hands in {built:.1f} s; {machine_note()}")
        with store.read() as tx:
            count = tx.execute("SELECT COUNT(*) FROM hands")[0][0]
            rows = tx.execute("SELECT COUNT(*) FROM leaderboard")[0][0]
        print(f"hands {count:,}, hand_players rows {3 * count:,}, leaderboard rows {rows:,}")
        game = "tien-len"
        for period in ("day", "week", "all"):
            span = period_range(period, today)  # type: ignore[arg-type]
            seconds, top = timed(
                store, lambda tx, s=span: _players(tx, game, s, "net", 20), args.repeat
            )
            first = top[0][:3] if top else None
            print(f"board {game} {period}: {seconds * 1000:.2f} ms, top {first}")
        week = period_range("week", today)
        assert week is not None
        since = (date.fromisoformat(week[0]) - date(2026, 11, 4)).days
        since_ns = 1_793_750_400 * 10**9 + since * 86_400 * 10**9
        for label, start in (("week", since_ns), ("all", 0)):
            seconds, top = timed(store, lambda tx, s=start: tx.execute(SCAN, (game, s)), 1)
            print(f"scan  {game} {label}: {seconds * 1000:.2f} ms, top {top[0] if top else None}")
        with store.read() as tx:
            for label, sql, params in (
                ("board day/all", "SELECT l.player_id FROM leaderboard l"
                 " WHERE l.game = ? AND l.period = ? ORDER BY l.net DESC, l.player_id DESC"
                 " LIMIT 20", (game, "all")),
                ("board week", "SELECT player_id, SUM(net) AS net FROM leaderboard"
                 " WHERE game = ? AND period >= ? AND period <= ? GROUP BY player_id"
                 " ORDER BY net DESC LIMIT 20", (game, week[0], week[1])),
                ("scan", SCAN, (game, 0)),
            ):  # fmt: skip
                explain = "EXPLAIN" if args.db else "EXPLAIN QUERY PLAN"
                plan = tx.execute(f"{explain} {sql}", params)
                print(f"plan {label}: " + " | ".join(str(r[-1]).strip() for r in plan))
        store.close()
        if args.db:
            postgres_database(args.db, drop=True)


if __name__ == "__main__":
    main()
