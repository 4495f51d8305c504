"""Ledger throughput: settlements (linked batches of about 6 transfers) per second.

Run: ``python -m benchmarks.bench_ledger [--store sqlite|postgresql|both] [--rounds N]``
(never from the tests). Each settlement is a 4-seat hand: two losers, a winner, a fee and
breakage, through the table's escrow (6 transfers), applied with durable commits: SQLite in
WAL mode with ``synchronous=FULL``, PostgreSQL with ``synchronous_commit=on``. It reports one
commit per settlement, and group commit (``Ledger.submit_many``, many settlements per commit).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import uuid

from sanh.games.base import Settlement
from sanh.ledger import AccountSpec, Ledger, Transfer, TransferCode, player_account
from sanh.ledger.audit import audit
from sanh.ledger.model import ISSUER
from sanh.ledger.settle import SeatAccount, settlement_batch

PLAYERS = 64
TABLES = 16
PG_URL = os.environ.get("SANH_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/test")


def _prepare(ledger: Ledger) -> None:
    specs = [AccountSpec(player_account(p)) for p in range(PLAYERS)]
    grants = [
        Transfer.single(f"g{p}", ISSUER, player_account(p), 10**15, TransferCode.GRANT)
        for p in range(PLAYERS)
    ]
    assert ledger.submit(grants, accounts=specs).ok


def _batches(count: int, tag: str) -> list:  # type: ignore[type-arg]
    out = []
    for n in range(count):
        base = n * 4
        players = [(base + k) % PLAYERS for k in range(4)]
        settlement = Settlement(deltas=(170, -100, -80, 0), fee=9, breakage=1)
        out.append(
            settlement_batch(
                settlement,
                settlement_id=f"{tag}{n}",
                table_id=f"t{n % TABLES}",
                seats=[SeatAccount(player_account(p)) for p in players],
            )
        )
    return out


def run(url: str, rounds: int, group: int) -> float:
    """Settlements per second at ``url`` with ``group`` settlements per commit."""
    with Ledger.open(url) as ledger:
        _prepare(ledger)
        batches = _batches(rounds, f"b{group}-")
        start = time.perf_counter()
        for offset in range(0, rounds, group):
            results = ledger.submit_many(batches[offset : offset + group])
            assert all(r.applied for r in results)
        elapsed = time.perf_counter() - start
        assert audit(ledger).ok
    return rounds / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--store", default="both", choices=["sqlite", "postgresql", "both"])
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=2, help="report the best of N runs")
    args = parser.parse_args()
    stores = ["sqlite", "postgresql"] if args.store == "both" else [args.store]
    for store in stores:
        for group in (1, 10, 100, 1000):
            rounds = min(args.rounds, 2_000) if group == 1 else args.rounds
            rate = max(_measure(store, rounds, group) for _ in range(args.repeat))
            print(
                f"{store:<10} {group:>5} settlements/commit  {rounds:>6} settlements"
                f"  {rate:>9.0f} settlements/s  {rate * 6:>9.0f} transfers/s",
                flush=True,
            )


def _measure(store: str, rounds: int, group: int) -> float:
    """One run on a new database (a temporary SQLite file, or a fresh PostgreSQL schema)."""
    if store == "sqlite":
        with tempfile.TemporaryDirectory() as tmp:
            return run(f"sqlite:///{tmp}/bench.db", rounds, group)
    import psycopg

    schema = f"bench_{uuid.uuid4().hex[:8]}"
    try:
        return run(f"{PG_URL}?schema={schema}", rounds, group)
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")


if __name__ == "__main__":
    main()
