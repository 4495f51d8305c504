"""The hall's limits on asking for accounts and guessing passwords, kept in the database.

* **Guests** (:meth:`Guard.admit_guest`): at most ``guests_per_hour`` per client address in
  any hour; beyond, :class:`Throttled` says when the oldest one in the hour leaves the window.
* **Registrations** (:meth:`Guard.admit_registration`): at most ``registrations_per_hour`` per
  address in any hour.
* **Log-ins** (:meth:`Guard.check_login`): after ``login_free_failures`` failed log-ins to an
  account within ``login_window`` seconds (``login_free_failures_per_address`` from one
  address), the next attempt waits ``login_backoff`` seconds after the last failure, doubled
  with each further failure up to ``login_backoff_max``; an attempt refused while waiting
  counts for nothing, and a successful log-in forgets its account's failures.

Every event is a row of ``auth_events`` (migration 3), so the limits hold across restarts and
between processes on one database. The time is the ``now`` the guard is given (seconds since
the epoch), so tests move it instead of sleeping.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from sanh.ledger.model import TxHandle
from sanh.ledger.store import LedgerStore, StoreTx

__all__ = ["Guard", "Limits", "Throttled"]

HOUR = 3600.0


class Throttled(Exception):
    """A request over a limit: its text code, and the whole seconds until it may be tried."""

    def __init__(self, code: str, retry_after: int) -> None:
        super().__init__(f"{code}: retry after {retry_after} s")
        self.code = code
        self.retry_after = retry_after


@dataclass(frozen=True, slots=True)
class Limits:
    """The limits (see the module docstring); durations in seconds."""

    guests_per_hour: int = 20
    registrations_per_hour: int = 10
    login_free_failures: int = 5
    login_free_failures_per_address: int = 20
    login_backoff: float = 2.0
    login_backoff_max: float = 900.0
    login_window: float = 3600.0


def _ns(seconds: float) -> int:
    return int(seconds * 1e9)


def _wait(seconds_ns: int) -> int:
    """Whole seconds to wait, at least 1."""
    return max(1, math.ceil(seconds_ns / 1e9))


class Guard:
    """The limits over a ledger store's ``auth_events``."""

    def __init__(self, store: LedgerStore, limits: Limits, now: Callable[[], float]) -> None:
        self.store = store
        self.limits = limits
        self.now = now

    # ----- account creation ---------------------------------------------------------------
    def admit_guest(self, address: str) -> None:
        """Check that ``address`` may create a guest now. :raises Throttled: ``too_many_guests``."""
        self._admit("guest", address, self.limits.guests_per_hour, "too_many_guests")

    def admit_registration(self, address: str) -> None:
        """Check that ``address`` may register now. :raises Throttled:
        ``too_many_registrations``."""
        self._admit(
            "register", address, self.limits.registrations_per_hour, "too_many_registrations"
        )

    def created(self, kind: str, address: str) -> None:
        """Record that ``address`` created an account (``guest`` or ``register``)."""
        self._record([(kind, address)])

    def recorder(self, kind: str, address: str) -> Callable[[TxHandle], None]:
        """The same record, as work for a transaction of the caller's (the new account's)."""
        return self._work([(kind, address)])

    def _admit(self, kind: str, address: str, limit: int, code: str) -> None:
        now = _ns(self.now())
        since = now - _ns(HOUR)
        with self.store.read() as tx:
            rows = tx.execute(
                "SELECT COUNT(*), MIN(at) FROM auth_events"
                " WHERE kind = ? AND subject = ? AND at > ?",
                (kind, address, since),
            )
        count, oldest = int(rows[0][0]), rows[0][1]
        if count >= limit:
            oldest_at = int(oldest) if oldest is not None else now
            raise Throttled(code, _wait(oldest_at + _ns(HOUR) - now))

    # ----- log-in ---------------------------------------------------------------------------
    def check_login(self, account: str, address: str) -> None:
        """Check that a log-in to ``account`` from ``address`` may be tried now.

        :raises Throttled: ``too_many_logins``, with the seconds left of the backoff.
        """
        now = _ns(self.now())
        since = now - _ns(self.limits.login_window)
        waits = []
        with self.store.read() as tx:
            for kind, subject, free in (
                ("login_account", account, self.limits.login_free_failures),
                ("login_address", address, self.limits.login_free_failures_per_address),
            ):
                until = self._blocked_until(tx, kind, subject, free, since)
                if until is not None and until > now:
                    waits.append(until - now)
        if waits:
            raise Throttled("too_many_logins", _wait(max(waits)))

    def _blocked_until(
        self, tx: StoreTx, kind: str, subject: str, free: int, since: int
    ) -> int | None:
        rows = tx.execute(
            "SELECT COUNT(*), MAX(at) FROM auth_events WHERE kind = ? AND subject = ? AND at > ?",
            (kind, subject, since),
        )
        failures, last = int(rows[0][0]), rows[0][1]
        if failures < free or last is None:
            return None
        backoff = min(
            self.limits.login_backoff * 2 ** min(failures - free, 60),
            self.limits.login_backoff_max,
        )
        return int(last) + _ns(backoff)

    def login_failed(self, account: str, address: str) -> None:
        """Record a failed log-in."""
        self._record([("login_account", account), ("login_address", address)])

    def login_succeeded(self, account: str) -> None:
        """Forget the account's failed log-ins."""

        def work(tx: StoreTx) -> None:
            tx.execute(
                "DELETE FROM auth_events WHERE kind = 'login_account' AND subject = ?", (account,)
            )

        self.store.run_write(work)

    def _record(self, events: list[tuple[str, str]]) -> None:
        self.store.run_write(self._work(events))

    def _work(self, events: list[tuple[str, str]]) -> Callable[[TxHandle], None]:
        now = _ns(self.now())
        horizon = now - _ns(max(HOUR, self.limits.login_window))

        def work(tx: TxHandle) -> None:
            for kind, subject in events:
                tx.execute(
                    "INSERT INTO auth_events (kind, subject, at) VALUES (?, ?, ?)",
                    (kind, subject, now),
                )
                # Events older than every window count for nothing: forget the subject's.
                tx.execute(
                    "DELETE FROM auth_events WHERE kind = ? AND subject = ? AND at <= ?",
                    (kind, subject, horizon),
                )

        return work
