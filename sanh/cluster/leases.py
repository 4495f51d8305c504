"""Table leases with fencing tokens, kept in PostgreSQL (one owner per table).

A table of the hall is played by exactly one process at a time: the holder of its lease, a row
of ``table_leases``::

    table_leases(table_id TEXT PK, owner TEXT NULL, token BIGINT > 0,
                 expires_at, acquired_at, renewed_at TIMESTAMPTZ)

* ``token`` is the **fencing token**: it grows by one on every change of owner (an acquire of
  a free or released lease, a steal of an expired one) and never otherwise; a trigger refuses
  an update that would lower it or hand the lease over without raising it, and refuses
  deletes (a deleted row would start again at 1).
* Every time is the database's clock (``now()``), never a node's: nodes whose clocks disagree
  still agree on who holds what. ``now()`` is the start of the statement's transaction, so a
  statement that waited on a lock sees an earlier time: it may find a lease not yet expired
  that just did, or renew for a little less; both err on the safe side.
* :class:`Leases` runs each operation as one statement (acquire, renew, release, steal of the
  expired leases of others with ``FOR UPDATE SKIP LOCKED``): two nodes racing for one lease
  are serialised by its row lock, and exactly one of them gets it.
* :class:`LeaseFence` is the check *inside* a write transaction of the table (its event-log
  appends, holds and settlements): it locks the lease row ``FOR SHARE`` and fails with
  :class:`LeaseLost` unless the owner and token are still the ones this process was granted.
  A steal (an ``UPDATE`` of that row) waits for the writing transaction to commit, and a write
  that starts after the steal sees the new token: every write for a table is made by the holder
  of the token current at its commit. The new owner reads the table's log after its steal
  committed, so it sees every write of the old owner, and the old owner can never add one.

A write is valid while its token is current, even past ``expires_at``: expiry only allows a
steal, and a steal changes the token. A process paused inside a fenced transaction would hold
the share lock and stall a steal; the fence therefore sets ``idle_in_transaction_session_timeout``
for its transaction, so the server ends a session that sleeps there (a SIGSTOPped process), and
:meth:`Leases.steal_expired` waits at most ``lock_timeout`` for a row.

The schema is the cluster's own (:func:`ensure_schema`, versions in ``cluster_migrations``),
PostgreSQL only: the one-process SQLite mode has no leases.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sanh.errors import SanhError
from sanh.ledger.model import TxHandle
from sanh.ledger.store import LedgerStore, PostgresStore, StoreTx

log = logging.getLogger("sanh.cluster.leases")

__all__ = [
    "CLUSTER_MIGRATIONS",
    "Lease",
    "LeaseFence",
    "LeaseKeeper",
    "LeaseLost",
    "Leases",
    "TableFence",
    "ensure_schema",
]


class LeaseLost(SanhError):
    """A write for a table whose lease this process no longer holds (it was taken over).

    ``held`` is the token this process wrote with (``None``: it never held one), ``current``
    and ``owner`` what the database holds now (``None``: no lease row at all).
    """

    def __init__(
        self,
        table: str,
        held: int | None,
        current: int | None = None,
        owner: str | None = None,
        *,
        node: str | None = None,
    ) -> None:
        self.table = table
        self.held = held
        self.current = current
        self.owner = owner
        self.node = node
        mine = "no lease" if held is None else f"token {held}"
        now = "no lease row" if current is None else f"token {current} held by {owner or 'nobody'}"
        who = f" by {node}" if node else ""
        super().__init__(f"lease lost for table {table!r}: write{who} with {mine}, now {now}")


class TableFence(Protocol):
    """The fence the event log runs in its write transaction (see :class:`LeaseFence`)."""

    def lost(self, tx: TxHandle, tables: Collection[str]) -> dict[str, LeaseLost]:
        """Lock the leases of ``tables`` for this transaction; those no longer ours."""
        ...

    def check(self, tx: TxHandle, table: str) -> None:
        """Lock ``table``'s lease for this transaction, or raise :class:`LeaseLost`."""
        ...


# ----- schema ---------------------------------------------------------------------------

_LEASES = """
CREATE TABLE table_leases (
    table_id TEXT PRIMARY KEY,
    owner TEXT,
    token BIGINT NOT NULL CHECK (token > 0),
    expires_at TIMESTAMPTZ NOT NULL,
    acquired_at TIMESTAMPTZ NOT NULL,
    renewed_at TIMESTAMPTZ NOT NULL
)"""

_GUARD = """
CREATE FUNCTION sanh_lease_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'table leases are never deleted: %', OLD.table_id;
    END IF;
    IF NEW.token < OLD.token THEN
        RAISE EXCEPTION 'fencing token of % would go down: % -> %',
            OLD.table_id, OLD.token, NEW.token;
    END IF;
    IF NEW.owner IS NOT NULL AND NEW.owner IS DISTINCT FROM OLD.owner
            AND NEW.token <= OLD.token THEN
        RAISE EXCEPTION 'lease of % handed to % without a new token', OLD.table_id, NEW.owner;
    END IF;
    RETURN NEW;
END
$$"""

CLUSTER_MIGRATIONS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (
        1,
        "table leases with fencing tokens",
        (
            _LEASES,
            "CREATE INDEX table_leases_by_owner ON table_leases (owner)",
            "CREATE INDEX table_leases_by_expiry ON table_leases (expires_at)"
            " WHERE owner IS NOT NULL",
            _GUARD,
            "CREATE TRIGGER table_leases_guard BEFORE UPDATE OR DELETE ON table_leases"
            " FOR EACH ROW EXECUTE FUNCTION sanh_lease_guard()",
            "CREATE TRIGGER table_leases_no_truncate BEFORE TRUNCATE ON table_leases"
            " FOR EACH STATEMENT EXECUTE FUNCTION sanh_reject_change()",
        ),
    ),
)
"""The cluster's own migrations (version, name, PostgreSQL statements), applied in order."""

_MIGRATION_LOCK = 7292


def ensure_schema(store: LedgerStore) -> list[int]:
    """Apply the cluster migrations this database still needs; their versions.

    Needs the ledger's schema first (``sanh_reject_change``); each migration runs in its own
    transaction under an advisory lock, so two nodes starting at once apply it once.

    :raises SanhError: on a SQLite store (leases need PostgreSQL).
    """
    if store.dialect != "postgresql":
        raise SanhError("table leases need PostgreSQL (--db postgresql://...), not SQLite")
    applied: list[int] = []
    for version, name, statements in CLUSTER_MIGRATIONS:
        with store.write() as tx:
            tx.execute("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))
            tx.execute(
                "CREATE TABLE IF NOT EXISTS cluster_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
            )
            if tx.execute("SELECT 1 FROM cluster_migrations WHERE version = ?", (version,)):
                continue
            for statement in statements:
                tx.execute(statement)
            tx.execute(
                "INSERT INTO cluster_migrations (version, name) VALUES (?, ?)", (version, name)
            )
            applied.append(version)
    return applied


# ----- leases ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Lease:
    """A lease as granted or renewed: valid for writes while ``token`` is current."""

    table: str
    owner: str
    token: int
    expires_at: datetime
    """By the database's clock."""
    remaining_ms: int
    """``expires_at`` minus the database's ``now()`` when this was read."""


@dataclass(frozen=True, slots=True)
class LeaseRow:
    """One row of ``table_leases`` as :meth:`Leases.status` reads it."""

    table: str
    owner: str | None
    token: int
    expires_at: datetime
    remaining_ms: int
    """Negative once expired."""
    age_ms: int
    """Since the current owner acquired it."""


_TTL = "(?::float8 * interval '1 millisecond')"
_LEFT = "(extract(epoch FROM expires_at - now()) * 1000)::bigint"

_ACQUIRE = f"""
INSERT INTO table_leases AS l (table_id, owner, token, expires_at, acquired_at, renewed_at)
VALUES (?, ?, 1, now() + {_TTL}, now(), now())
ON CONFLICT (table_id) DO UPDATE
SET owner = EXCLUDED.owner, token = l.token + 1, expires_at = EXCLUDED.expires_at,
    acquired_at = now(), renewed_at = now()
WHERE l.owner IS NULL OR l.expires_at <= now()
RETURNING l.token, l.expires_at, {_LEFT.replace("expires_at", "l.expires_at")}"""

_RENEW = f"""
UPDATE table_leases AS l SET expires_at = now() + {_TTL}, renewed_at = now()
FROM unnest(?::text[], ?::bigint[]) AS h(table_id, token)
WHERE l.table_id = h.table_id AND l.token = h.token AND l.owner = ?
RETURNING l.table_id, l.token, l.expires_at, {_LEFT.replace("expires_at", "l.expires_at")}"""

_RELEASE = """
UPDATE table_leases SET owner = NULL, expires_at = now()
WHERE table_id = ? AND owner = ? AND token = ?
RETURNING token"""

_STEAL = f"""
UPDATE table_leases AS l
SET owner = ?, token = l.token + 1, expires_at = now() + {_TTL}, acquired_at = now(),
    renewed_at = now()
FROM (
    SELECT table_id FROM table_leases
    WHERE owner IS NOT NULL AND owner <> ? AND expires_at <= now()
    ORDER BY expires_at, table_id LIMIT ? FOR UPDATE SKIP LOCKED
) AS e
WHERE l.table_id = e.table_id AND l.owner IS NOT NULL AND l.expires_at <= now()
RETURNING l.table_id, l.token, l.expires_at, {_LEFT.replace("expires_at", "l.expires_at")}"""


class Leases:
    """One node's lease operations on a PostgreSQL store (each one statement).

    :param store: a migrated store (:func:`ensure_schema`); not shared with another thread.
    :param node: this process's name, unique in the cluster for its lifetime (a restarted
        process takes a new name, or waits for its old leases to expire).
    :param ttl_ms: how long a grant or renewal lasts; renew well within it (a third).
    """

    def __init__(self, store: LedgerStore, node: str, *, ttl_ms: int = 5000) -> None:
        if store.dialect != "postgresql":
            raise SanhError("table leases need PostgreSQL (--db postgresql://...), not SQLite")
        if not node or ttl_ms <= 0:
            raise SanhError("a lease needs a node name and a positive TTL")
        self.store = store
        self.node = node
        self.ttl_ms = ttl_ms
        # A process paused inside one of these transactions (holding a lease row) must not
        # hold a steal up for longer than a lease lasts: the server ends such a session.
        # (A session setting: applied again on the store's every new connection.)
        setting = f"SET idle_in_transaction_session_timeout = {max(ttl_ms, 100)}"
        if isinstance(store, PostgresStore):
            store.on_connect(setting)
        else:
            with store.write() as tx:
                tx.execute(setting)

    def acquire(self, table: str) -> Lease | None:
        """Take ``table``'s lease if it is free, released or expired (a new token); else
        ``None`` (someone holds it, possibly this node: use :meth:`renew`)."""
        rows = self.store.run_write(
            lambda tx: tx.execute(_ACQUIRE, (table, self.node, self.ttl_ms))
        )
        if not rows:
            return None
        token, expires, left = rows[0]
        return Lease(table, self.node, int(token), expires, int(left))

    def renew(self, lease: Lease) -> Lease | None:
        """Extend a lease this node holds; ``None`` if it was lost (its token is not current)."""
        renewed, _ = self.renew_all([lease])
        return renewed[0] if renewed else None

    def renew_all(self, leases: Iterable[Lease]) -> tuple[list[Lease], list[Lease]]:
        """Extend many leases in one statement: (renewed, lost)."""
        held = {lease.table: lease for lease in leases}
        if not held:
            return [], []
        rows = self.store.run_write(
            lambda tx: tx.execute(
                _RENEW,
                (
                    self.ttl_ms,
                    list(held),
                    [lease.token for lease in held.values()],
                    self.node,
                ),
            )
        )
        renewed = [
            Lease(str(table), self.node, int(token), expires, int(left))
            for table, token, expires, left in rows
        ]
        kept = {lease.table for lease in renewed}
        return renewed, [lease for table, lease in held.items() if table not in kept]

    def release(self, lease: Lease) -> bool:
        """Give a lease up (a graceful hand-over); ``False`` if it was no longer ours."""
        rows = self.store.run_write(
            lambda tx: tx.execute(_RELEASE, (lease.table, self.node, lease.token))
        )
        return bool(rows)

    def steal_expired(self, *, limit: int = 100, lock_timeout_ms: int = 1000) -> list[Lease]:
        """Take over up to ``limit`` expired leases of other nodes (each gets a new token).

        Rows another stealer is taking are skipped; a row locked by a writer of the old owner
        is waited on for at most ``lock_timeout_ms`` (then nothing is taken this time).
        """

        def steal(tx: StoreTx) -> list[tuple[Any, ...]]:
            tx.execute(f"SET LOCAL lock_timeout = {int(lock_timeout_ms)}")
            return tx.execute(_STEAL, (self.node, self.ttl_ms, self.node, limit))

        try:
            rows = self.store.run_write(steal)
        except Exception as error:
            if _is_lock_timeout(error):
                return []
            raise
        return [
            Lease(str(table), self.node, int(token), expires, int(left))
            for table, token, expires, left in rows
        ]

    def status(self) -> list[LeaseRow]:
        """Every lease, by table (for ``/healthz`` and ``sanh cluster status``)."""
        with self.store.read() as tx:
            rows = tx.execute(
                f"SELECT table_id, owner, token, expires_at, {_LEFT},"
                " (extract(epoch FROM now() - acquired_at) * 1000)::bigint"
                " FROM table_leases ORDER BY table_id"
            )
        return [
            LeaseRow(str(t), o, int(k), e, int(left), int(age)) for t, o, k, e, left, age in rows
        ]


def _is_lock_timeout(error: BaseException) -> bool:
    from psycopg import errors

    return isinstance(error, errors.LockNotAvailable)


# ----- the fence --------------------------------------------------------------------------


class LeaseFence:
    """The tokens this node was granted, checked inside the writes for their tables.

    Grant a lease with :meth:`grant` (after :meth:`Leases.acquire`, :meth:`Leases.steal_expired`
    or a renewal) and forget it with :meth:`revoke`. A table never granted is refused too.

    :param idle_timeout_ms: the fenced transaction's ``idle_in_transaction_session_timeout``:
        a process paused inside it loses its session after this long, so it cannot hold a
        steal up.
    """

    def __init__(self, node: str, *, idle_timeout_ms: int = 2000) -> None:
        self.node = node
        self.idle_timeout_ms = idle_timeout_ms
        self._tokens: dict[str, int] = {}
        self._lock = threading.Lock()
        self.checks = 0
        """Fenced transactions so far (for the metrics)."""

    def grant(self, lease: Lease) -> None:
        """Write for ``lease.table`` with ``lease.token`` from now on."""
        if lease.owner != self.node:
            raise SanhError(f"lease of {lease.table} is {lease.owner}'s, not {self.node}'s")
        with self._lock:
            self._tokens[lease.table] = lease.token

    def revoke(self, table: str) -> None:
        """Stop writing for ``table`` (its writes are refused from now on)."""
        with self._lock:
            self._tokens.pop(table, None)

    def token(self, table: str) -> int | None:
        """The token this node writes ``table`` with, if any."""
        with self._lock:
            return self._tokens.get(table)

    def lost(self, tx: TxHandle, tables: Collection[str]) -> dict[str, LeaseLost]:
        """Lock the lease rows of ``tables`` ``FOR SHARE`` until ``tx`` ends, in id order;
        the tables whose lease is not ours (with the reason), none if every one is."""
        if not tables:
            return {}
        names = sorted(set(tables))
        with self._lock:
            held = {table: self._tokens.get(table) for table in names}
        self.checks += 1
        # One round trip: the lock, and the session timeout for this transaction (set_config
        # runs before any row is locked; with no lease row there is no lock to worry about).
        rows = tx.execute(
            "SELECT l.table_id, l.owner, l.token FROM table_leases AS l,"
            " set_config('idle_in_transaction_session_timeout', ?, true) AS s"
            " WHERE l.table_id = ANY(?) ORDER BY l.table_id FOR SHARE OF l",
            (str(int(self.idle_timeout_ms)), names),
        )
        found = {str(table): (owner, int(token)) for table, owner, token in rows}
        lost: dict[str, LeaseLost] = {}
        for table in names:
            mine = held[table]
            owner, current = found.get(table, (None, None))
            if mine is None or owner != self.node or current != mine:
                lost[table] = LeaseLost(table, mine, current, owner, node=self.node)
        return lost

    def check(self, tx: TxHandle, table: str) -> None:
        """Lock ``table``'s lease for ``tx``; raise :class:`LeaseLost` unless it is ours."""
        refused = self.lost(tx, (table,))
        if refused:
            raise refused[table]

    def hook(
        self, table: str, then: Callable[[TxHandle], None] | None = None
    ) -> Callable[[TxHandle], None]:
        """A ledger batch's ``on_apply`` that fences ``table`` and then runs ``then``: for the
        holds and settlements of a table (:mod:`sanh.ledger.settle`)."""

        def fenced(tx: TxHandle) -> None:
            self.check(tx, table)
            if then is not None:
                then(tx)

        return fenced


class LeaseKeeper:
    """A node's leases kept alive: renewed together every ``ttl/3``, granted to its fence.

    A lease found lost at a renewal (taken over) is revoked from the fence and reported to
    ``on_lost(table)``. When renewals fail (PostgreSQL unreachable) for a whole TTL, counted
    from the start of the last one that succeeded, every lease is revoked locally as well: the
    database lets another node take them from about then on, so this node stops writing for
    them on its own (the fence refuses any write after a takeover regardless).
    """

    def __init__(
        self,
        leases: Leases,
        fence: LeaseFence,
        *,
        on_lost: Callable[[str], None] | None = None,
        every_s: float | None = None,
    ) -> None:
        if fence.node != leases.node:
            raise SanhError("the keeper's fence and leases must be the same node's")
        self.leases = leases
        self.fence = fence
        self.on_lost = on_lost
        self.every_s = every_s if every_s is not None else leases.ttl_ms / 3000
        self.held: dict[str, Lease] = {}
        self._lock = threading.Lock()
        """One statement at a time on the leases' connection (loop thread and renewals)."""
        self._last_ok = time.monotonic()
        self.renewals = 0

    def take(self, table: str) -> Lease | None:
        """Acquire ``table``'s lease (free, released or expired) and write with it."""
        with self._lock:
            if not self.held:
                self._last_ok = time.monotonic()
            lease = self.leases.acquire(table)
        if lease is not None:
            self._adopt(lease)
        return lease

    def take_expired(self, *, limit: int = 100) -> list[Lease]:
        """Take over expired leases of other nodes (failover); the ones taken."""
        with self._lock:
            stolen = self.leases.steal_expired(limit=limit)
        for lease in stolen:
            self._adopt(lease)
        return stolen

    def release(self, table: str) -> bool:
        """Stop writing for ``table`` and give its lease up (a graceful hand-over)."""
        lease = self.held.pop(table, None)
        self.fence.revoke(table)
        if lease is None:
            return False
        with self._lock:
            return self.leases.release(lease)

    def renew_once(self) -> list[str]:
        """Renew every held lease in one statement; the tables lost (revoked, reported)."""
        held = list(self.held.values())
        lost: list[str] = []
        started = time.monotonic()  # not later than the database's now() for the renewal
        try:
            with self._lock:
                renewed, gone = self.leases.renew_all(held)
        except Exception as error:
            if time.monotonic() - self._last_ok < self.leases.ttl_ms / 1000:
                log.warning("lease renewal of %s failed: %s", self.leases.node, error)
                return []
            log.error(
                "no lease renewal of %s for a whole TTL: giving its tables up", self.leases.node
            )
            renewed, gone = [], held
        else:
            self._last_ok = started
            self.renewals += 1
        for lease in renewed:
            if lease.table in self.held:
                self.held[lease.table] = lease
        for lease in gone:
            if self.held.pop(lease.table, None) is not None:
                self.fence.revoke(lease.table)
                lost.append(lease.table)
                if self.on_lost is not None:
                    self.on_lost(lease.table)
        return lost

    async def run(self) -> None:
        """Renew for ever (cancel to stop), off the event loop."""
        while True:
            await asyncio.to_thread(self.renew_once)
            await asyncio.sleep(self.every_s)

    def _adopt(self, lease: Lease) -> None:
        self.held[lease.table] = lease
        self.fence.grant(lease)


def wait_until_expired(leases: Leases, table: str, *, timeout: float = 30.0) -> None:
    """Block until ``table``'s lease has expired by the database's clock (for tests and drains).

    :raises TimeoutError: if it is still live after ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = [row for row in leases.status() if row.table == table]
        if not rows or rows[0].owner is None or rows[0].remaining_ms <= 0:
            return
        time.sleep(max(0.01, min(0.2, rows[0].remaining_ms / 1000)))
    raise TimeoutError(f"the lease of {table} did not expire within {timeout} s")
