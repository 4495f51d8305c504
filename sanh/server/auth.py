"""Log-in, registration, log-out and password change for the HTTP API, off the event loop.

The endpoints in :mod:`sanh.server.http_accounts` call :class:`Auth`, which keeps every Argon2
hash in the :class:`~sanh.server.passwords.PasswordPool` and only the short database reads and
writes on the event loop:

* **Log-in** (:meth:`Auth.login`): the account limits first (:mod:`sanh.server.guard`: failed
  log-ins back off per account and per address, ``too_many_logins``), then at most one attempt
  in flight per account and ``login_parallel_per_address`` per address (``429
  login_too_fast``, ``Retry-After: 1``): so parallel guesses cannot all pass the limits before
  the first failure is counted. An unknown username (or a guest's) is verified against the
  pool's dummy hash, so it is answered in the time a known one is.
* **Registration** (:meth:`Auth.register`): every check (username, password, name) before the
  hash, so a refused registration costs no hash.
* **Sessions**: :meth:`Auth.logout` revokes the bearer token; :meth:`Auth.change_password`
  checks the current password (a wrong one counts as a failed log-in of the account), stores
  the new one and revokes every other session of the player. A revoked session answers 401 over
  HTTP, and each WebSocket signed in with it (:class:`OpenSessions`) gets an
  ``error`` ``session_revoked`` and is closed.
* A full pool answers ``429 hall_busy`` (``Retry-After: 1``) and changes nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from starlette import status

from sanh.server import protocol as p
from sanh.server.api import ApiError
from sanh.server.guard import Guard, Throttled
from sanh.server.passwords import HallBusy, PasswordPool
from sanh.server.services import PlayerInfo
from sanh.server.table import Connection
from sanh.texts import describe, text

__all__ = ["Auth", "OpenSessions", "bearer"]


def bearer(header: str) -> str:
    """The token of an ``Authorization: Bearer TOKEN`` header ('' without one)."""
    return header.removeprefix("Bearer ").strip()


def _busy() -> ApiError:
    return ApiError(
        status.HTTP_429_TOO_MANY_REQUESTS, "busy", text="hall_busy", headers={"Retry-After": "1"}
    )


def _too_fast() -> ApiError:
    return ApiError(
        status.HTTP_429_TOO_MANY_REQUESTS,
        "rate_limited",
        text="login_too_fast",
        headers={"Retry-After": "1"},
    )


class OpenSessions:
    """The WebSocket connections signed in with each session (by the token's key), to tell
    and close when the session is revoked."""

    def __init__(self) -> None:
        self.connections: dict[str, set[Connection]] = {}

    def add(self, key: str, conn: Connection) -> None:
        self.connections.setdefault(key, set()).add(conn)

    def remove(self, key: str, conn: Connection) -> None:
        held = self.connections.get(key)
        if held is not None:
            held.discard(conn)
            if not held:
                del self.connections[key]

    def revoke(self, keys: Iterable[str]) -> int:
        """Send ``session_revoked`` to every connection of these sessions and close them; how
        many were closed."""
        closed = 0
        for key in keys:
            for conn in self.connections.pop(key, set()):
                conn.send(
                    p.Error(
                        code=p.ErrorCode.SESSION_REVOKED,
                        message=describe("session_revoked"),
                        text="session_revoked",
                    )
                )
                conn.close()
                closed += 1
        return closed


class Auth:
    """The accounts' endpoints' work (see the module docstring)."""

    def __init__(
        self,
        accounts: Any,
        guard: Guard,
        pool: PasswordPool,
        sessions: OpenSessions,
        *,
        parallel_per_address: int = 8,
    ) -> None:
        self.accounts = accounts
        self.guard = guard
        self.pool = pool
        self.sessions = sessions
        self.parallel_per_address = max(1, parallel_per_address)
        self._accounts_in_flight: set[str] = set()
        self._addresses_in_flight: Counter[str] = Counter()

    async def login(self, username: str, password: str, address: str) -> PlayerInfo:
        """The player of these credentials.

        :raises ApiError: 401 ``bad_credentials``; 429 ``too_many_logins``, ``login_too_fast``
            or ``hall_busy``.
        """
        account = username.strip().casefold()[:64]
        try:
            self.guard.check_login(account, address)
        except Throttled as exc:
            raise throttled(exc) from None
        if (
            account in self._accounts_in_flight
            or self._addresses_in_flight[address] >= self.parallel_per_address
        ):
            raise _too_fast()
        self._accounts_in_flight.add(account)
        self._addresses_in_flight[address] += 1
        try:
            found = self.accounts.credentials(username)
            try:
                verified = await self.pool.verify(found[1] if found else None, password)
            except HallBusy:
                raise _busy() from None
            if found is None or not verified.ok:
                self.guard.login_failed(account, address)
                raise ApiError(
                    status.HTTP_401_UNAUTHORIZED, "bad_credentials", text="wrong_credentials"
                )
            player: PlayerInfo = self.accounts.logged_in(found[0], verified.rehash)
        finally:
            self._accounts_in_flight.discard(account)
            self._addresses_in_flight[address] -= 1
            if self._addresses_in_flight[address] <= 0:
                del self._addresses_in_flight[address]
        self.guard.login_succeeded(account)
        return player

    async def register(
        self, username: str, password: str, name: str | None, language: str
    ) -> PlayerInfo:
        """A new registered player (the caller has admitted the address).

        :raises ValueError: (:class:`~sanh.ledger.players.PlayerRefused`) a refused
            registration (nothing is hashed then).
        :raises ApiError: 429 ``hall_busy``.
        """
        self.accounts.check_registration(username, password, name, language or None)
        try:
            password_hash = await self.pool.hash(password)
        except HallBusy:
            raise _busy() from None
        player: PlayerInfo = self.accounts.register(
            username, password, name, language, password_hash=password_hash
        )
        return player

    def logout(self, token: str) -> None:
        """Revoke the session of ``token`` (and close its WebSockets)."""
        key = self.accounts.revoke_session(token)
        if key is not None:
            self.sessions.revoke([key])

    async def change_password(
        self, player: PlayerInfo, token: str, current: str, new: str, address: str
    ) -> int:
        """Change a registered player's password and revoke every other session of theirs;
        how many sessions were revoked.

        :raises ApiError: 409 ``guest_has_no_password``, 409 ``password_too_short``, 403
            ``wrong_password``, 429 ``too_many_logins``, ``login_too_fast`` or ``hall_busy``.
        """
        stored = self.accounts.password_of(player.id)
        if stored is None:
            raise ApiError(status.HTTP_409_CONFLICT, "refused", text="guest_has_no_password")
        self.accounts.check_password(new)  # PlayerRefused: the caller's 409
        account = f"#{player.id}"  # a wrong current password counts against the account
        try:
            self.guard.check_login(account, address)
        except Throttled as exc:
            raise throttled(exc) from None
        if account in self._accounts_in_flight:
            raise _too_fast()
        self._accounts_in_flight.add(account)
        try:
            try:
                verified = await self.pool.verify(stored, current)
                if not verified.ok:
                    self.guard.login_failed(account, address)
                    raise ApiError(
                        status.HTTP_403_FORBIDDEN, "bad_credentials", text="wrong_password"
                    )
                new_hash = await self.pool.hash(new)
            except HallBusy:
                raise _busy() from None
        finally:
            self._accounts_in_flight.discard(account)
        self.accounts.set_password(player.id, new, password_hash=new_hash)
        self.guard.login_succeeded(account)
        revoked = self.accounts.revoke_other_sessions(player.id, token)
        self.sessions.revoke(revoked)
        return len(revoked)


def throttled(exc: Throttled) -> ApiError:
    """A request over one of the account limits: 429 ``rate_limited``, with ``Retry-After``."""
    return ApiError(
        status.HTTP_429_TOO_MANY_REQUESTS,
        "rate_limited",
        text=text(exc.code, exc.retry_after),
        headers={"Retry-After": str(exc.retry_after)},
    )
