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

With a ``fence`` (several processes over one PostgreSQL database, :mod:`sanh.cluster.leases`),
every transaction that writes rows first locks the leases of their tables and checks that this
process still holds them: the rows of a table whose lease was taken over are refused (never
written, counted in ``rows_refused``), the table is marked lost, and ``sync(table)`` for it
raises :class:`~sanh.cluster.leases.LeaseLost` (``sync()`` without a table raises it when a row
it waited for was refused). Without a fence (one process, SQLite) nothing changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from sanh.cluster.leases import LeaseLost, TableFence
from sanh.ledger.model import TxHandle
from sanh.ledger.store import LedgerStore, StoreTx, open_store

__all__ = ["INSERT", "EventLog", "hand_lineup"]

log = logging.getLogger("sanh.eventlog")


def hand_lineup(events: Sequence[dict[str, Any]]) -> list[tuple[int, str | None]]:
    """(table seat, player id) of a logged hand's players: its opening event's seats (``None``
    for an empty seat of a house round), then whoever sat in during the hand (``join``)."""
    opening = events[0]
    lineup = list(zip(opening["seats"], opening["players"], strict=True))
    return lineup + [(e["seat"], e["player"]) for e in events if e.get("kind") == "join"]


R = TypeVar("R")
Row = tuple[str, int, int, str]
"""(table id, hand, seq, JSON payload)"""

INSERT = "INSERT INTO table_events (table_id, hand, seq, payload) VALUES (?, ?, ?, ?)"
_ATTEMPTS = 20


class EventLog:
    """The table event log with group commit (see the module docstring)."""

    def __init__(
        self,
        store: LedgerStore,
        *,
        threaded: bool | None = None,
        fence: TableFence | None = None,
    ) -> None:
        self.store = store
        self.fence = fence
        """Checks this process's leases in every write (see the module docstring)."""
        self.lost: dict[str, LeaseLost] = {}
        """Tables whose rows were refused by the fence (until :meth:`admit`)."""
        self._refused: list[tuple[int, LeaseLost]] = []
        """(position, why) of refused rows a waiter may still ask about."""
        self.rows_refused = 0
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
        self._waiters: list[tuple[int, int, str | None, asyncio.Future[None]]] = []
        """(durable when it began, target, table, future)"""
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

    async def sync(self, table: str | None = None) -> None:
        """Wait until every event appended so far is committed.

        :param table: the caller's table: with a fence, raise if that table is lost.
        :raises LeaseLost: with a fence, if ``table`` is lost (or, without ``table``, a row
            this call waited for was refused).
        :raises Exception: the database error if the rows could not be written.
        """
        target = self._appended
        start = self._durable
        if table is not None and table in self.lost:
            raise self.lost[table]
        if start >= target:
            return
        if not self.threaded:
            self.flush()
            error = self._refusal(start, target, table)
            if error is not None:
                raise error
            return
        loop = asyncio.get_running_loop()
        self._loop = loop
        self._start()
        self._prune()
        future: asyncio.Future[None] = loop.create_future()
        self._waiters.append((start, target, table, future))
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
            first = upto - len(rows) + 1
            try:
                refused = self.store.run_write(lambda tx: self._insert(tx, rows, first))
            except BaseException:
                self._put_back(rows)
                raise
            self._count(rows, refused)
        self._committed(upto, refused)

    def run_with_log(
        self,
        work: Callable[[Callable[[TxHandle], None]], R],
        then: Callable[[TxHandle], None],
        *,
        table: str | None = None,
    ) -> R:
        """Run ``work(on_apply)``, a ledger write given ``on_apply`` as its batch's hook.

        ``on_apply(tx)`` writes the pending events, then runs ``then(tx)`` (the batch's own
        record), all in the batch's transaction. The writer is held off meanwhile (so this
        blocks for at most one of its commits). Rows count as durable only if the hook ran in
        the store's last write attempt, the one that committed: rows taken by an attempt that
        was rolled back and retried without the hook stay pending.

        With a fence, ``table`` (the batch's own table) is checked too: if its lease is lost
        the hook raises :class:`~sanh.cluster.leases.LeaseLost` and the batch is not applied.
        """
        with self._commit_lock:
            taken: list[tuple[list[Row], int]] = []
            hooked = [-1]
            """The store's write attempt in which the hook last ran."""
            refused: list[Sequence[tuple[int, LeaseLost]]] = [()]

            def on_apply(tx: TxHandle) -> None:
                if self.fence is not None and table is not None:
                    self.fence.check(tx, table)
                if not taken:  # a retried transaction writes the same rows again
                    taken.append(self._take())
                hooked[0] = self.store.write_attempts
                rows, upto = taken[0]
                refused[0] = self._insert(tx, rows, upto - len(rows) + 1)
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
                self._count(taken[0][0], refused[0])
        if taken and taken[0][0]:
            self._committed(taken[0][1], refused[0])
        return result

    def admit(self, table: str) -> None:
        """Forget that ``table`` was lost (this process holds a new lease of it)."""
        self.lost.pop(table, None)

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

    def _count(self, rows: list[Row], refused: Sequence[tuple[int, LeaseLost]] = ()) -> None:
        self.groups += 1
        self.rows_written += len(rows) - len(refused)

    def _insert(
        self, tx: StoreTx | TxHandle, rows: list[Row], first: int
    ) -> list[tuple[int, LeaseLost]]:
        """Write ``rows`` (positions ``first``...), less those the fence refuses: those."""
        if not rows:
            return []
        if self.fence is None:
            _insert(tx, rows)
            return []
        lost = self.fence.lost(tx, {row[0] for row in rows})
        if not lost:
            _insert(tx, rows)
            return []
        _insert(tx, [row for row in rows if row[0] not in lost])
        return [(first + i, lost[row[0]]) for i, row in enumerate(rows) if row[0] in lost]

    def _committed(self, upto: int, refused: Sequence[tuple[int, LeaseLost]] = ()) -> None:
        """Rows up to position ``upto`` are durable (or refused by the fence): wake their
        waiters (loop thread)."""
        if refused:
            with self._rows_lock:
                self._refused.extend(refused)
            self.rows_refused += len(refused)
            for _, error in refused:
                if error.table not in self.lost:
                    log.warning("event log: %s", error)
                self.lost[error.table] = error
        if upto <= self._durable:
            return
        self._durable = upto
        still = []
        for start, target, table, future in self._waiters:
            if target <= upto:
                if not future.done():
                    why = self._refusal(start, target, table)
                    if why is None:
                        future.set_result(None)
                    else:
                        future.set_exception(why)
            else:
                still.append((start, target, table, future))
        self._waiters = still

    def _done(self, done: tuple[int, Sequence[tuple[int, LeaseLost]]]) -> None:
        self._committed(*done)

    def _refusal(self, start: int, target: int, table: str | None) -> LeaseLost | None:
        """Why a waiter for rows ``start+1..target`` (of ``table``) must fail, if it must."""
        if table is not None:
            return self.lost.get(table)
        with self._rows_lock:
            for position, error in self._refused:
                if start < position <= target:
                    return error
        return None

    def _prune(self) -> None:
        """Forget refusals no waiter, present or future, can still ask about."""
        if self._refused:
            keep = min([self._durable, *(start for start, _, _, _ in self._waiters)])
            with self._rows_lock:
                self._refused = [entry for entry in self._refused if entry[0] > keep]

    def _failed(self, error: BaseException) -> None:
        waiters, self._waiters = self._waiters, []
        for _, _, _, future in waiters:
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
            first = upto - len(rows) + 1
            refused: list[tuple[int, LeaseLost]] = []
            for attempt in range(_ATTEMPTS):
                try:
                    refused = store.run_write(lambda tx: self._insert(tx, rows, first))
                    break
                except Exception as error:
                    if attempt == _ATTEMPTS - 1:
                        self._put_back(rows)
                        log.exception("event log: %d rows not written", len(rows))
                        self._notify(self._failed, error)
                        return
                    time.sleep(0.01 * (attempt + 1))
            self._count(rows, refused)
        self._notify(self._done, (upto, refused))

    def _notify(self, callback: Callable[[Any], None], value: Any) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(callback, value)


def _insert(tx: StoreTx | TxHandle, rows: list[Row]) -> None:
    if not rows:
        return
    if isinstance(tx, StoreTx):
        tx.executemany(INSERT, rows)
    else:
        for row in rows:
            tx.execute(INSERT, row)
