"""The table event log's group commit (sanh/server/eventlog.py)."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from sanh.ledger.store import open_store
from sanh.server.eventlog import EventLog
from sanh.server.wallet_services import WalletServices


def _rows(path: Path) -> list[tuple[str, int, int, str]]:
    with sqlite3.connect(path) as db:
        return db.execute(
            "SELECT table_id, hand, seq, payload FROM table_events ORDER BY rowid"
        ).fetchall()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "log.db"
    WalletServices.open(f"sqlite:///{path}").close()  # the schema
    return path


def test_sync_makes_every_appended_event_durable_in_few_transactions(db: Path) -> None:
    """Events appended by many tables are committed in groups; sync returns after the commit."""
    store = open_store(f"sqlite:///{db}")
    events = EventLog(store)

    async def tables() -> None:
        async def table(name: str) -> None:
            for seq in range(1, 21):
                events.append(name, 1, seq, f'{{"n": {seq}}}')
                await events.sync()
                # Durable now: visible to another connection.
                assert (name, 1, seq, f'{{"n": {seq}}}') in _rows(db)

        await asyncio.gather(*(table(f"t{i}") for i in range(10)))

    asyncio.run(tables())
    events.close()
    store.close()
    rows = _rows(db)
    assert len(rows) == 200
    for name in (f"t{i}" for i in range(10)):
        assert [r[2] for r in rows if r[0] == name] == list(range(1, 21))
    assert events.rows_written == 200
    assert events.groups < 200  # tables waiting at once shared a commit


def test_a_ledger_write_carries_the_pending_events_before_its_own(db: Path) -> None:
    """run_with_log writes the events still pending in the batch's transaction, first."""
    store = open_store(f"sqlite:///{db}")
    events = EventLog(store)
    events.append("t1", 1, 1, "a")
    events.append("t1", 1, 2, "b")

    def own(tx: object) -> None:
        tx.execute(  # type: ignore[attr-defined]
            "INSERT INTO table_events (table_id, hand, seq, payload) VALUES ('t1', 1, 9, 'c')"
        )

    result = events.run_with_log(lambda on_apply: store.run_write(on_apply), own)
    assert result is None
    assert [r[3] for r in _rows(db)] == ["a", "b", "c"]
    assert events.pending == 0
    events.close()
    store.close()


def test_a_failed_ledger_write_leaves_the_events_pending(db: Path) -> None:
    """If the batch's transaction fails, its events stay pending and are written later."""
    store = open_store(f"sqlite:///{db}")
    events = EventLog(store)
    events.append("t1", 1, 1, "a")

    def broken(tx: object) -> None:
        raise RuntimeError("refused")

    with pytest.raises(RuntimeError):
        events.run_with_log(lambda on_apply: store.run_write(on_apply), broken)
    assert _rows(db) == []
    assert events.pending == 1
    events.close()  # writes what is pending
    assert [r[3] for r in _rows(db)] == ["a"]
    store.close()


def test_an_in_memory_database_is_written_on_the_callers_connection() -> None:
    """sqlite :memory: cannot be opened twice: sync commits on the ledger's own connection."""
    services = WalletServices.open("sqlite:///:memory:")
    events = services.bank.events
    assert not events.threaded
    events.append("t1", 1, 1, "a")
    asyncio.run(events.sync())
    with services.ledger.store.read() as tx:
        assert tx.execute("SELECT payload FROM table_events") == [("a",)]
    services.close()


def test_events_taken_by_a_retried_attempt_stay_pending_when_the_retry_runs_no_hook(
    db: Path,
) -> None:
    """A ledger write whose first attempt ran the hook (taking the pending events) and then
    hit a retryable conflict, and whose retry applied nothing (so ran no hook: the batch was
    refused this time), committed none of those events: they stay pending, and are written."""
    store = open_store(f"sqlite:///{db}")
    events = EventLog(store)
    events.append("t1", 1, 1, "a")
    events.append("t1", 1, 2, "b")
    attempts = []

    def batch(on_apply: Callable[[object], None]) -> str:
        def attempt(tx: object) -> str:
            attempts.append(tx)
            if len(attempts) == 1:
                on_apply(tx)  # applied: the hook takes and inserts the events ...
                raise sqlite3.OperationalError("database is locked")  # ... then a conflict
            return "refused"  # the retry applies nothing: no hook

        return store.run_write(attempt)

    assert events.run_with_log(batch, lambda tx: None) == "refused"
    assert len(attempts) == 2
    assert _rows(db) == []
    assert events.pending == 2  # not counted durable: nothing committed them
    events.close()  # writes what is pending
    assert [r[3] for r in _rows(db)] == ["a", "b"]
    store.close()
