"""The storage port of the ledger and its URL-selected adapters.

A :class:`LedgerStore` gives the ledger transactions over one database connection; the
:class:`~sanh.ledger.book.Ledger` does all the bookkeeping itself, so both stores run the
same logic. SQL is written once with ``?`` placeholders and translated for PostgreSQL.

Database URLs (:func:`open_store`):

* ``sqlite:///sanh.db`` a file relative to the working directory; ``sqlite:////var/x.db`` an
  absolute path; ``sqlite:///:memory:`` a private in-memory database; a bare path (no
  ``://``) is a SQLite file too. SQLite runs in WAL mode with ``synchronous=FULL`` (every
  commit is durable) and ``foreign_keys=ON``; writers take the lock up front
  (``BEGIN IMMEDIATE``), so the ledger never races with itself.
* ``postgresql://user@host:port/dbname`` (``postgres://`` too), any libpq URL. An extra
  ``schema=NAME`` query parameter puts every table in that schema (created if absent), which
  the tests use to isolate runs. Writers lock the rows of the accounts they touch
  (``SELECT ... FOR UPDATE``, in id order, so no deadlock between two batches), and the
  UNIQUE constraints on transfer ids, hold resolutions and reversals make a racing duplicate
  fail; such conflicts are retried from the start, where they become ``EXISTS`` or a refusal.

:data:`DEFAULT_URL` is ``$SANH_DB`` if set, else ``sqlite:///sanh.db``.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
import urllib.parse
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any, ClassVar, TypeVar

from sanh.errors import LedgerError
from sanh.ledger.migrations import MIGRATIONS

__all__ = [
    "DEFAULT_URL_FALLBACK",
    "CommitInDoubt",
    "LedgerStore",
    "PostgresStore",
    "SqliteStore",
    "StoreTx",
    "default_url",
    "open_existing_store",
    "open_store",
]

T = TypeVar("T")

log = logging.getLogger("sanh.ledger.store")


class CommitInDoubt(RuntimeError):
    """The connection was lost while a commit was on its way: it may or may not have
    committed, so the write is not retried (the caller decides, e.g. by reading back)."""


DEFAULT_URL_FALLBACK = "sqlite:///sanh.db"
"""The database used when neither ``--db`` nor ``$SANH_DB`` is given."""

_RETRIES = 12


def default_url() -> str:
    """``$SANH_DB`` if set, else :data:`DEFAULT_URL_FALLBACK`."""
    return os.environ.get("SANH_DB") or DEFAULT_URL_FALLBACK


class StoreTx(ABC):
    """One open transaction. SQL uses ``?`` placeholders in both dialects."""

    @abstractmethod
    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one statement and return its rows (empty when it returns none)."""

    @abstractmethod
    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement for each row of parameters."""

    @abstractmethod
    def where_in(self, column: str, values: Sequence[Any]) -> tuple[str, Any]:
        """A condition ``column IN values`` and its single parameter."""

    @abstractmethod
    def lock_for_update(self) -> str:
        """The clause that locks selected rows until commit (empty where not needed)."""

    def insert_rows(
        self, table: str, columns: Sequence[tuple[str, str]], rows: Sequence[Sequence[Any]]
    ) -> None:
        """Insert many rows; ``columns`` are ``(name, SQL type)`` pairs."""
        if rows:
            names = ", ".join(name for name, _ in columns)
            marks = ", ".join("?" for _ in columns)
            self.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows)

    def update_rows(
        self,
        table: str,
        columns: Sequence[tuple[str, str]],
        key: tuple[str, str],
        rows: Sequence[Sequence[Any]],
    ) -> None:
        """Update many rows by key; each row is the new ``columns`` values, then the key."""
        if rows:
            sets = ", ".join(f"{name} = ?" for name, _ in columns)
            self.executemany(f"UPDATE {table} SET {sets} WHERE {key[0]} = ?", rows)

    def select_in(
        self, sql: str, column: str, values: Sequence[Any], *, lock: bool = False
    ) -> list[tuple[Any, ...]]:
        """Run ``sql`` (a SELECT with ``{where}``) for ``column IN values``; none if empty."""
        if not values:
            return []
        condition, param = self.where_in(column, values)
        text = sql.replace("{where}", condition)
        if lock:
            text += self.lock_for_update()
        return self.execute(text, (param,))


class LedgerStore(ABC):
    """A database holding one ledger (and its players)."""

    dialect: ClassVar[str]
    url: str
    write_attempts: int = 0
    """Write transactions begun by :meth:`run_write` (a retry counts again): tells a hook
    run in an earlier attempt from one run in the attempt that committed."""

    @abstractmethod
    def write(self) -> Any:
        """A context manager: one write transaction (``StoreTx``), committed on success."""

    @abstractmethod
    def read(self) -> Any:
        """A context manager: one read-only snapshot transaction (``StoreTx``)."""

    @abstractmethod
    def is_retryable(self, error: BaseException) -> bool:
        """Whether a failed write transaction may be retried from the start."""

    @abstractmethod
    def close(self) -> None:
        """Close the connection."""

    def run_write(self, work: Callable[[StoreTx], T]) -> T:
        """Run ``work`` in a write transaction, retrying it on write conflicts."""
        for attempt in range(_RETRIES):
            self.write_attempts += 1
            try:
                with self.write() as tx:
                    return work(tx)
            except Exception as error:
                if not self.is_retryable(error) or attempt == _RETRIES - 1:
                    raise
                time.sleep(self.retry_delay(error, attempt))
        raise AssertionError("unreachable")

    def retry_delay(self, error: BaseException, attempt: int) -> float:
        """Seconds to wait before retrying a write that failed with ``error``."""
        return 0.001 * (attempt + 1)

    def migrate(self) -> list[int]:
        """Apply the pending migrations, each in its own transaction; return their versions."""
        applied: list[int] = []
        for migration in MIGRATIONS:
            with self.write() as tx:
                self._lock_migrations(tx)
                tx.execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations ("
                    " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                    " applied_at BIGINT NOT NULL)"
                )
                done = tx.execute(
                    "SELECT 1 FROM schema_migrations WHERE version = ?", (migration.version,)
                )
                if done:
                    continue
                now = str(time.time_ns())
                for statement in migration.statements(self.dialect):
                    tx.execute(statement.replace("{now}", now))
                tx.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (migration.version, migration.name, time.time_ns()),
                )
                applied.append(migration.version)
        return applied

    def schema_version(self) -> int:
        """The highest migration applied (0 for an empty database)."""
        with self.read() as tx:
            if not self._has_table(tx, "schema_migrations"):
                return 0
            rows = tx.execute("SELECT MAX(version) FROM schema_migrations")
            return int(rows[0][0] or 0)

    def _lock_migrations(self, tx: StoreTx) -> None:  # noqa: B027 (a hook, empty by default)
        """Serialise migrations between processes (SQLite's write lock already does)."""

    @abstractmethod
    def _has_table(self, tx: StoreTx, name: str) -> bool: ...


# ----- SQLite ---------------------------------------------------------------------------


class _SqliteTx(StoreTx):
    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self._connection.execute(sql, params).fetchall()

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            self._connection.executemany(sql, rows)

    def where_in(self, column: str, values: Sequence[Any]) -> tuple[str, Any]:
        return f"{column} IN (SELECT value FROM json_each(?))", json.dumps(list(values))

    def lock_for_update(self) -> str:
        return ""


class SqliteStore(LedgerStore):
    """SQLite: one file, WAL, ``synchronous=FULL`` (durable commits), ``BEGIN IMMEDIATE``."""

    dialect: ClassVar[str] = "sqlite"

    def __init__(self, path: str, *, url: str | None = None) -> None:
        self.path = path
        self.url = url or f"sqlite:///{path}"
        self._connection = sqlite3.connect(path, isolation_level=None, timeout=30.0)
        self._connection.execute("PRAGMA busy_timeout = 30000")
        if path != ":memory:":
            # Switching to WAL needs a moment alone with the file and does not wait on the
            # busy timeout: retry while another opener holds it.
            for attempt in range(200):
                try:
                    self._connection.execute("PRAGMA journal_mode = WAL")
                    break
                except sqlite3.OperationalError as error:
                    if "locked" not in str(error) or attempt == 199:
                        raise
                    time.sleep(0.05)
        self._connection.execute("PRAGMA synchronous = FULL")
        self._connection.execute("PRAGMA foreign_keys = ON")

    @contextmanager
    def write(self) -> Iterator[StoreTx]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT`` (rolled back on any exception)."""
        self._connection.execute("BEGIN IMMEDIATE")
        try:
            yield _SqliteTx(self._connection)
        except BaseException:
            self._connection.execute("ROLLBACK")
            raise
        self._connection.execute("COMMIT")

    @contextmanager
    def read(self) -> Iterator[StoreTx]:
        """A deferred transaction: one consistent snapshot for all its reads."""
        self._connection.execute("BEGIN")
        try:
            yield _SqliteTx(self._connection)
        finally:
            self._connection.execute("ROLLBACK")

    def is_retryable(self, error: BaseException) -> bool:
        """``database is locked`` after the busy timeout."""
        return isinstance(error, sqlite3.OperationalError) and "locked" in str(error)

    def close(self) -> None:
        """Close the connection."""
        self._connection.close()

    def _has_table(self, tx: StoreTx, name: str) -> bool:
        return bool(
            tx.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,))
        )


# ----- PostgreSQL -----------------------------------------------------------------------


class _PostgresTx(StoreTx):
    _cache: ClassVar[dict[str, str]] = {}

    def __init__(self, connection: Any) -> None:
        self._connection = connection
        self._cursor = connection.cursor()

    @classmethod
    def _sql(cls, sql: str) -> str:
        text = cls._cache.get(sql)
        if text is None:
            text = sql.replace("%", "%%").replace("?", "%s")
            cls._cache[sql] = text
        return text

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        cursor = self._cursor
        if params:
            cursor.execute(self._sql(sql), params)
        else:
            cursor.execute(sql)
        if cursor.description is None:
            return []
        return list(cursor.fetchall())

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            self._cursor.executemany(self._sql(sql), rows)

    def where_in(self, column: str, values: Sequence[Any]) -> tuple[str, Any]:
        return f"{column} = ANY(?)", list(values)

    def lock_for_update(self) -> str:
        return " FOR UPDATE"

    def insert_rows(
        self, table: str, columns: Sequence[tuple[str, str]], rows: Sequence[Sequence[Any]]
    ) -> None:
        """One ``INSERT ... SELECT FROM unnest(arrays)`` statement: one round trip."""
        if rows:
            names = ", ".join(name for name, _ in columns)
            arrays = ", ".join(f"?::{kind}[]" for _, kind in columns)
            self.execute(
                f"INSERT INTO {table} ({names}) SELECT * FROM unnest({arrays})",
                [list(column) for column in zip(*rows, strict=True)],
            )

    def update_rows(
        self,
        table: str,
        columns: Sequence[tuple[str, str]],
        key: tuple[str, str],
        rows: Sequence[Sequence[Any]],
    ) -> None:
        """One ``UPDATE ... FROM unnest(arrays)`` statement: one round trip."""
        if rows:
            every = [*columns, key]
            sets = ", ".join(f"{name} = u.{name}" for name, _ in columns)
            arrays = ", ".join(f"?::{kind}[]" for _, kind in every)
            names = ", ".join(name for name, _ in every)
            self.execute(
                f"UPDATE {table} AS t SET {sets} FROM unnest({arrays}) AS u({names})"
                f" WHERE t.{key[0]} = u.{key[0]}",
                [list(column) for column in zip(*rows, strict=True)],
            )


class PostgresStore(LedgerStore):
    """PostgreSQL through psycopg 3: row locks on accounts, retries on write conflicts."""

    dialect: ClassVar[str] = "postgresql"

    def __init__(self, url: str) -> None:
        import psycopg

        self.url = url
        conninfo, schema = _split_schema(url)
        self.schema = schema
        # Point lookups by id must use the indexes: random_page_cost=1.1 (SSD) keeps them
        # while the statistics of a young, fast-growing transfers table are stale, and
        # force_custom_plan stops psycopg's prepared statements from settling on a generic
        # plan (a sequential scan chosen while the table was small, kept as it grows).
        options = "-c random_page_cost=1.1 -c plan_cache_mode=force_custom_plan"
        if schema:
            options += f" -c search_path={schema}"
        self._conninfo = psycopg.conninfo.make_conninfo(conninfo, options=options)
        self._session: list[str] = []
        """Session settings, applied again on every new connection (:meth:`on_connect`)."""
        self.reconnects = 0
        """New connections after a lost one (a cut, a server restart)."""
        self._connection = psycopg.connect(self._conninfo, autocommit=False)
        if schema:
            self._ensure_schema(schema)

    def on_connect(self, statement: str) -> None:
        """Run a session setting (``SET ...``) now and on every new connection."""
        self._session.append(statement)
        self._connection.execute(statement)
        self._connection.commit()

    def _lost(self) -> bool:
        """The connection broke (one closed on purpose by :meth:`close` stays closed)."""
        return bool(self._connection.broken)

    def _live(self) -> Any:
        """The connection, a new one if the last was lost (its settings applied again).

        :raises psycopg.OperationalError: if the server cannot be reached (retryable).
        """
        if not self._lost():
            return self._connection
        import psycopg

        connection = psycopg.connect(self._conninfo, autocommit=False)
        for statement in self._session:
            connection.execute(statement)
        connection.commit()
        with suppress(Exception):
            self._connection.close()
        self._connection = connection
        self.reconnects += 1
        log.warning("postgresql: connected again after a lost connection (%d)", self.reconnects)
        return connection

    def _ensure_schema(self, schema: str) -> None:
        with self._connection.cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,))
            exists = cursor.fetchone() is not None
        self._connection.commit()
        if exists:
            return
        from psycopg import sql

        with self._connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(7291)")
            cursor.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
        self._connection.commit()

    @contextmanager
    def write(self) -> Iterator[StoreTx]:
        """A READ COMMITTED transaction (row locks do the isolation).

        A connection lost before the commit (the server ended it, restarted, or the network
        was cut) fails the transaction with ``psycopg.OperationalError``, which
        :meth:`run_write` retries on a new connection: nothing was committed. Lost *during*
        the commit, nobody can say whether it committed: :class:`CommitInDoubt`, not retried.
        """
        import psycopg

        connection = self._live()
        try:
            yield _PostgresTx(connection)
        except BaseException:
            if not self._lost():  # a lost connection rolled the transaction back itself
                connection.rollback()
            raise
        try:
            connection.commit()
        except psycopg.OperationalError as error:
            if self._lost():
                raise CommitInDoubt(f"the connection was lost during a commit: {error}") from error
            raise

    @contextmanager
    def read(self) -> Iterator[StoreTx]:
        """A REPEATABLE READ, READ ONLY transaction: one snapshot for all its reads (on a new
        connection if the last one was lost, found when this snapshot begins)."""
        import psycopg

        connection = self._live()
        try:
            connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        except psycopg.OperationalError:
            if not self._lost():
                raise
            connection = self._live()
            connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        try:
            yield _PostgresTx(connection)
        finally:
            if not self._lost():
                connection.rollback()

    def is_retryable(self, error: BaseException) -> bool:
        """Unique violations, deadlocks and serialization failures between writers, and a
        connection lost before the commit (or not to be had yet)."""
        import psycopg
        from psycopg import errors

        if isinstance(error, psycopg.OperationalError) and self._lost():
            return True
        return isinstance(
            error, errors.UniqueViolation | errors.DeadlockDetected | errors.SerializationFailure
        )

    def retry_delay(self, error: BaseException, attempt: int) -> float:
        if self._lost():  # a new connection: give a restarting server time
            return min(0.05 * 2.0**attempt, 0.5)
        return super().retry_delay(error, attempt)

    def close(self) -> None:
        """Close the connection."""
        self._connection.close()

    def _lock_migrations(self, tx: StoreTx) -> None:
        tx.execute("SELECT pg_advisory_xact_lock(7291)")

    def _has_table(self, tx: StoreTx, name: str) -> bool:
        return bool(tx.execute("SELECT to_regclass(?) IS NOT NULL", (name,))[0][0])


def _split_schema(url: str) -> tuple[str, str | None]:
    """Take our ``schema=`` query parameter out of a libpq URL."""
    parts = urllib.parse.urlsplit(url)
    query = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
    schema = None
    kept = []
    for key, value in query:
        if key == "schema":
            schema = value
        else:
            kept.append((key, value))
    if schema is not None and not schema.replace("_", "").isalnum():
        raise LedgerError(f"schema name {schema!r} must be letters, digits and underscores")
    rebuilt = parts._replace(query=urllib.parse.urlencode(kept))
    scheme = "postgresql" if rebuilt.scheme == "postgres" else rebuilt.scheme
    return urllib.parse.urlunsplit(rebuilt._replace(scheme=scheme)), schema


def open_store(url: str | None = None) -> LedgerStore:
    """The store a database URL names (see the module docstring); not yet migrated.

    :raises LedgerError: for an unknown URL scheme.
    """
    url = url or default_url()
    if "://" not in url:
        return SqliteStore(url, url=f"sqlite:///{url}")
    scheme, _, rest = url.partition("://")
    if scheme == "sqlite":
        if not rest.startswith("/"):
            raise LedgerError(f"a SQLite URL is sqlite:///PATH, not {url!r}")
        path = rest[1:]
        if not path:
            raise LedgerError(f"no database path in {url!r}")
        return SqliteStore(path, url=url)
    if scheme in ("postgresql", "postgres"):
        return PostgresStore(url)
    raise LedgerError(f"unknown database URL scheme {scheme!r} (sqlite:/// or postgresql://)")


def open_existing_store(url: str | None = None) -> LedgerStore:
    """The store at ``url``, which must already hold a ledger (nothing is created).

    :raises LedgerError: if there is no database or no ledger there.
    """
    url = url or default_url()
    path: str | None = None
    if "://" not in url:
        path = url
    elif url.startswith("sqlite:///"):
        path = url[len("sqlite:///") :]
    if path is not None and path != ":memory:" and not os.path.exists(path):
        raise LedgerError(f"no database at {url}")
    store = open_store(url)
    if store.schema_version() < 1:
        store.close()
        raise LedgerError(f"no sanh ledger at {url}")
    return store
