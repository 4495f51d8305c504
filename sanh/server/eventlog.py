"""Group commit of the table event log: one writer, one durable transaction per group.

Every accepted command and chance outcome of every table is appended here (:meth:`append`,
no I/O). A writer thread with its own database connection commits everything appended so far
in one transaction (one fsync for many tables' events) and then resolves the waiters of
:meth:`sync`; a table actor awaits ``sync()`` before it tells anyone of its new state, so no
client ever sees an event that a crash could lose. Appends that arrive while a commit is in
progress form the next group, so the group size grows with the load and nothing waits for a
timer.

A ledger batch with a table effect (opening, settling or voiding a hand) runs through
:meth:`run_with_log`: it holds the writer's lock, and its ``on_apply`` hook first writes the
events still pending, in the same transaction as the money moves. So the log's order is the
order of the actors' appends, and an event is never committed after the settlement that
follows it.

An in-memory SQLite database cannot be shared between two connections: there the log is
written on the caller's connection when :meth:`sync` is awaited (still one transaction per
group of appends).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from sanh.ledger.model import TxHandle
from sanh.ledger.store import LedgerStore, StoreTx, open_store

__all__ = ["INSERT", "EventLog"]

log = logging.getLogger("sanh.eventlog")

R = TypeVar("R")
Row = tuple[str, int, int, str]
"""(table id, hand, seq, JSON payload)"""

INSERT = "INSERT INTO table_events (table_id, hand, seq, payload) VALUES (?, ?, ?, ?)"
_ATTEMPTS = 20


class EventLog:
    """The table event log with group commit (see the module docstring)."""

    def __init__(self, store: LedgerStore, *, threaded: bool | None = None) -> None:
        self.store = store
        if threaded is None:
            threaded = getattr(store, "path", None) != ":memory:"
        self.threaded = threaded
        self._rows: list[Row] = []
        self._appended = 0
        """Rows ever appended; a row's position is its index + 1."""
        self._taken = 0
        """Rows handed to a transaction (committed or in flight)."""
        self._durable = 0
        """Rows known committed."""
        self._waiters: list[tuple[int, asyncio.Future[None]]] = []
        self._rows_lock = threading.Lock()
        self._commit_lock = threading.Lock()
        """Held from taking rows until their commit (the writer or a ledger batch)."""
        self._wake = threading.Event()
        self._kicked = False
        """The writer was woken and has not yet taken the rows (skip a redundant wake-up)."""
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closing = False
        self.groups = 0
        """Transactions that carried log rows (for the metrics)."""
        self.rows_written = 0

    # ----- the actors' side (event loop thread) ------------------------------------------
    def append(self, table: str, hand: int, seq: int, payload: str) -> None:
        """Add one event to the next group (durable once a later :meth:`sync` returns)."""
        with self._rows_lock:
            self._rows.append((table, hand, seq, payload))
            self._appended += 1

    @property
    def pending(self) -> int:
        """Rows appended but not yet known durable."""
        return self._appended - self._durable

    async def sync(self) -> None:
        """Wait until every event appended so far is committed.

        :raises Exception: the database error if the rows could not be written.
        """
        target = self._appended
        if self._durable >= target:
            return
        if not self.threaded:
            self.flush()
            return
        loop = asyncio.get_running_loop()
        self._loop = loop
        self._start()
        future: asyncio.Future[None] = loop.create_future()
        self._waiters.append((target, future))
        if not self._kicked:
            self._kicked = True
            self._wake.set()
        await future

    def flush(self) -> None:
        """Commit the pending rows now, on the caller's thread (blocks for the fsync)."""
        with self._commit_lock:
            rows, upto = self._take()
            if not rows:
                return
            try:
                self.store.run_write(lambda tx: _insert(tx, rows))
            except BaseException:
                self._put_back(rows)
                raise
            self._count(rows)
        self._committed(upto)

    def run_with_log(
        self,
        work: Callable[[Callable[[TxHandle], None]], R],
        then: Callable[[TxHandle], None],
    ) -> R:
        """Run ``work(on_apply)``, a ledger write given ``on_apply`` as its batch's hook.

        ``on_apply(tx)`` writes the pending events, then runs ``then(tx)`` (the batch's own
        record), all in the batch's transaction. The writer is held off meanwhile (so this
        blocks for at most one of its commits). Rows count as durable only if the hook ran in
        the store's last write attempt, the one that committed: rows taken by an attempt that
        was rolled back and retried without the hook stay pending.
        """
        with self._commit_lock:
            taken: list[tuple[list[Row], int]] = []
            hooked = [-1]
            """The store's write attempt in which the hook last ran."""

            def on_apply(tx: TxHandle) -> None:
                if not taken:  # a retried transaction writes the same rows again
                    taken.append(self._take())
                hooked[0] = self.store.write_attempts
                for row in taken[0][0]:
                    tx.execute(INSERT, row)
                then(tx)

            try:
                result = work(on_apply)
            except BaseException:
                if taken:
                    self._put_back(taken[0][0])
                raise
            if taken and hooked[0] != self.store.write_attempts:
                # The attempt that committed ran no hook (a retry that applied nothing, or
                # another write after it): the rows taken earlier were rolled back with
                # their attempt, so they are still to be written.
                self._put_back(taken[0][0])
                taken.clear()
            if taken and taken[0][0]:
                self._count(taken[0][0])
        if taken and taken[0][0]:
            self._committed(taken[0][1])
        return result

    def close(self) -> None:
        """Write what is pending and stop the writer."""
        self._closing = True
        if self._thread is not None:
            self._wake.set()
            self._thread.join(30)
            self._thread = None
        self.flush()

    # ----- internals -------------------------------------------------------------------------
    def _take(self) -> tuple[list[Row], int]:
        with self._rows_lock:
            self._kicked = False
            rows, self._rows = self._rows, []
            self._taken += len(rows)
            return rows, self._taken

    def _put_back(self, rows: list[Row]) -> None:
        with self._rows_lock:
            self._rows[:0] = rows
            self._taken -= len(rows)

    def _count(self, rows: list[Row]) -> None:
        self.groups += 1
        self.rows_written += len(rows)

    def _committed(self, upto: int) -> None:
        """Rows up to position ``upto`` are durable: wake their waiters (loop thread)."""
        if upto <= self._durable:
            return
        self._durable = upto
        still = []
        for target, future in self._waiters:
            if target <= upto:
                if not future.done():
                    future.set_result(None)
            else:
                still.append((target, future))
        self._waiters = still

    def _failed(self, error: BaseException) -> None:
        waiters, self._waiters = self._waiters, []
        for _, future in waiters:
            if not future.done():
                future.set_exception(error)

    def _start(self) -> None:
        if self._thread is None and not self._closing:
            self._thread = threading.Thread(target=self._writer, name="sanh-eventlog", daemon=True)
            self._thread.start()

    def _writer(self) -> None:
        store: LedgerStore | None = None
        try:
            store = open_store(self.store.url)
            while True:
                self._wake.wait()
                if not self._closing:
                    self._wake.clear()
                if self._closing and self._appended == self._taken:
                    return
                self._write_group(store)
        except BaseException as error:  # the writer must not die silently
            log.exception("event log writer stopped")
            self._notify(self._failed, error)
        finally:
            self._thread = None
            if store is not None:
                with contextlib.suppress(Exception):
                    store.close()

    def _write_group(self, store: LedgerStore) -> None:
        with self._commit_lock:
            rows, upto = self._take()
            if not rows:
                return
            for attempt in range(_ATTEMPTS):
                try:
                    store.run_write(lambda tx: _insert(tx, rows))
                    break
                except Exception as error:
                    if attempt == _ATTEMPTS - 1:
                        self._put_back(rows)
                        log.exception("event log: %d rows not written", len(rows))
                        self._notify(self._failed, error)
                        return
                    time.sleep(0.01 * (attempt + 1))
            self._count(rows)
        self._notify(self._committed, upto)

    def _notify(self, callback: Callable[[Any], None], value: Any) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(callback, value)


def _insert(tx: StoreTx, rows: list[Row]) -> None:
    if rows:
        tx.executemany(INSERT, rows)
