"""Password hashing off the event loop: a small pool of worker threads with a bounded queue.

An Argon2 hash costs tens to hundreds of milliseconds of CPU (argon2-cffi's defaults: 64 MiB,
3 passes, 4 lanes). Done on the event loop, a flood of wrong log-ins stalls every table and
every request of the hall (issue 17: a normal client's latency went from 1 ms to 3.8 s). So
every hash and every verification runs in a :class:`PasswordPool`:

* ``workers`` threads (``password_workers``, 2) hash at once; argon2-cffi releases the GIL
  while it hashes, so the event loop keeps running. On Linux each worker lowers its own
  scheduling priority (``nice`` +10 is per thread there), so the hall's loop wins the CPU
  when both want it.
* At most ``queue`` more jobs (``password_queue``, 32) wait. Beyond, :class:`HallBusy` is
  raised at once and the hall answers ``429 hall_busy`` (``Retry-After: 1``): nothing waits
  unbounded, and nothing is changed.
* :meth:`PasswordPool.verify` of an unknown account (no stored hash) verifies against a dummy
  hash made once, so an unknown username is answered in the time a known one is.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import sys
import threading
from collections.abc import Callable
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

__all__ = ["HallBusy", "PasswordPool", "Verified"]

T = TypeVar("T")

NICE = 10
"""How much lower than the event loop's a worker thread's priority is (Linux only)."""


class HallBusy(Exception):
    """Too many passwords are waiting to be hashed: try again in a second."""


class Verified:
    """The outcome of a verification: whether the password matched, and the new hash to store
    when the stored one used older parameters (None otherwise)."""

    __slots__ = ("ok", "rehash")

    def __init__(self, ok: bool, rehash: str | None = None) -> None:
        self.ok = ok
        self.rehash = rehash


def _lower_priority() -> None:
    """A worker's initializer: on Linux, ``nice`` changes the calling thread only."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError):
            os.nice(NICE)


class PasswordPool:
    """Hash and verify passwords in ``workers`` threads, with at most ``queue`` jobs waiting."""

    def __init__(
        self, hasher: PasswordHasher | None = None, *, workers: int = 2, queue: int = 32
    ) -> None:
        self.hasher = hasher or PasswordHasher()
        self.workers = max(1, workers)
        self.capacity = self.workers + max(0, queue)
        """Jobs running or waiting at most."""
        self.pending = 0
        """Jobs running or waiting now."""
        self.refused = 0
        """Jobs refused with :class:`HallBusy` so far."""
        self._lock = threading.Lock()
        self._executor = concurrent.futures.ThreadPoolExecutor(
            max_workers=self.workers,
            thread_name_prefix="sanh-password",
            initializer=_lower_priority,
        )
        self._dummy = self._executor.submit(self.hasher.hash, "sanh: no such account")
        """A hash nobody's password matches, for unknown accounts (made once, in a worker)."""

    async def _run(self, work: Callable[[], T]) -> T:
        with self._lock:
            if self.pending >= self.capacity:
                self.refused += 1
                raise HallBusy
            self.pending += 1
        try:
            future = self._executor.submit(work)
            return await asyncio.wrap_future(future)
        finally:
            with self._lock:
                self.pending -= 1

    async def hash(self, password: str) -> str:
        """The password's Argon2 hash. :raises HallBusy: when the queue is full."""
        return await self._run(lambda: self.hasher.hash(password))

    async def verify(self, stored: str | None, password: str) -> Verified:
        """Whether ``password`` matches ``stored`` (None: an unknown account, checked against
        the dummy hash in the same time, never a match), and its rehash if one is due.

        :raises HallBusy: when the queue is full.
        """
        dummy = stored is None

        def work() -> Verified:
            target = self._dummy.result() if stored is None else stored
            try:
                self.hasher.verify(target, password)
            except (VerificationError, InvalidHashError):
                return Verified(False)
            if dummy:
                return Verified(False)
            rehash = self.hasher.hash(password) if self.hasher.check_needs_rehash(target) else None
            return Verified(True, rehash)

        return await self._run(work)

    def close(self) -> None:
        """Stop the workers (jobs already running finish)."""
        self._executor.shutdown(wait=False, cancel_futures=True)
