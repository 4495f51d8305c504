"""One hall per database: the exclusive lock ``sanh serve`` takes before it restores a table.

Two halls over one database would both rebuild the recorded tables, and the second would void
the first's live rounds. So ``sanh serve`` takes :func:`hall_lock` before it opens anything:

* PostgreSQL: a session advisory lock (``pg_try_advisory_lock``) held on a connection of its
  own for the hall's whole life; its key is derived from the ``schema=`` of the URL, so two
  schemas of one database are two halls. The connection's ``application_name`` names the
  holder (``sanh serve pid=... host=... port=...``), which a second hall reads from
  ``pg_stat_activity`` to say who holds it.
* SQLite: ``<database>.lock`` beside the file, locked with ``fcntl.flock`` (released by the
  system when the process ends, even killed); the holder writes who it is into it. An
  in-memory database is private to its process and needs no lock.

A lock held by another hall is waited for up to ``lock_wait`` seconds (it may be a hall that
is stopping), then :class:`HallLockBusy` says who holds it.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["HallLock", "HallLockBusy", "hall_lock", "lock_key", "sqlite_lock_path"]

POLL = 0.1
"""Seconds between two tries while another hall holds the lock."""


class HallLockBusy(RuntimeError):
    """Another hall holds the database: the message names it when it can."""


def lock_key(schema: str | None) -> int:
    """The advisory lock key of a hall over one PostgreSQL schema (a signed 64-bit integer).

    >>> lock_key(None) == lock_key(None) != lock_key("run_1")
    True
    >>> -(2**63) <= lock_key("run_1") < 2**63
    True
    """
    digest = hashlib.sha256(f"sanh hall {schema or 'public'}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def sqlite_lock_path(url: str) -> Path | None:
    """The lock file of a SQLite database URL (``None``: in memory, or not SQLite).

    >>> sqlite_lock_path("sqlite:///data/sanh.db")
    PosixPath('data/sanh.db.lock')
    >>> sqlite_lock_path("sqlite:////var/lib/sanh.db")
    PosixPath('/var/lib/sanh.db.lock')
    >>> sqlite_lock_path("sanh.db"), sqlite_lock_path("sqlite:///:memory:")
    (PosixPath('sanh.db.lock'), None)
    >>> sqlite_lock_path("postgresql://127.0.0.1/test") is None
    True
    """
    if "://" not in url:
        path = url
    elif url.startswith("sqlite:///"):
        path = url[len("sqlite:///") :]
    else:
        return None
    if not path or path == ":memory:" or path.startswith("file:"):
        return None
    return Path(path + ".lock")


def holder_name(port: int | None) -> str:
    """How this process names itself as the lock's holder."""
    where = f" port={port}" if port is not None else ""
    return f"sanh serve pid={os.getpid()} host={socket.gethostname()}{where}"


class HallLock:
    """A held hall lock; :meth:`release` (or the end of the process) lets it go."""

    def __init__(self, release: Callable[[], None], description: str) -> None:
        self._release: Callable[[], None] | None = release
        self.description = description
        """What is locked (the lock file, or the advisory key and schema)."""

    def release(self) -> None:
        """Let the lock go (idempotent)."""
        if self._release is not None:
            release, self._release = self._release, None
            release()

    def __enter__(self) -> HallLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def hall_lock(
    url: str,
    *,
    wait: float,
    port: int | None = None,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> HallLock:
    """Take the hall's exclusive lock on the database at ``url``, waiting up to ``wait``
    seconds for another hall to let go of it.

    :raises HallLockBusy: another hall still holds it (the message names the holder).
    """
    if url.startswith(("postgresql://", "postgres://")):
        return _postgres_lock(url, wait, port, clock, sleep)
    path = sqlite_lock_path(url)
    if path is None:
        return HallLock(lambda: None, "in-memory database (no lock)")
    return _file_lock(path, wait, port, clock, sleep)


def _file_lock(
    path: Path,
    wait: float,
    port: int | None,
    clock: Callable[[], float],
    sleep: Callable[[float], None],
) -> HallLock:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    deadline = clock() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if clock() >= deadline:
                holder = ""
                with contextlib.suppress(OSError):
                    holder = path.read_text().strip()
                os.close(fd)
                raise HallLockBusy(
                    f"another hall holds the database ({path}: {holder or 'unknown holder'})"
                ) from None
            sleep(POLL)
    os.ftruncate(fd, 0)
    os.pwrite(fd, (holder_name(port) + "\n").encode(), 0)

    def release() -> None:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        os.close(fd)

    return HallLock(release, str(path))


def _postgres_lock(
    url: str,
    wait: float,
    port: int | None,
    clock: Callable[[], float],
    sleep: Callable[[float], None],
) -> HallLock:
    import psycopg

    from sanh.ledger.store import _split_schema

    conninfo, schema = _split_schema(url)
    key = lock_key(schema)
    name = holder_name(port)[:63]  # PostgreSQL keeps 63 bytes of an application_name
    connection: Any = psycopg.connect(conninfo, autocommit=True, application_name=name)
    deadline = clock() + wait
    try:
        while True:
            row = connection.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
            if row is not None and row[0]:
                break
            if clock() >= deadline:
                holder = _postgres_holder(connection, key)
                raise HallLockBusy(
                    f"another hall holds the database (advisory lock {key}, schema "
                    f"{schema or 'public'}: {holder or 'unknown holder'})"
                )
            sleep(POLL)
    except BaseException:
        connection.close()
        raise
    return HallLock(connection.close, f"advisory lock {key} (schema {schema or 'public'})")


def _postgres_holder(connection: Any, key: int) -> str:
    """The application name and address of the session holding the advisory lock ``key``."""
    unsigned = key & 0xFFFFFFFFFFFFFFFF
    row = connection.execute(
        "SELECT a.application_name, a.client_addr, a.pid FROM pg_locks l"
        " JOIN pg_stat_activity a ON a.pid = l.pid"
        " WHERE l.locktype = 'advisory' AND l.granted"
        " AND l.classid::bigint = %s AND l.objid::bigint = %s AND l.objsubid = 1"
        " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())",
        (unsigned >> 32, unsigned & 0xFFFFFFFF),
    ).fetchone()
    if row is None:
        return ""
    app, addr, pid = row
    return f"{app or 'a session'} (backend {pid}{f', from {addr}' if addr else ''})"
