"""How many tables one player may host, and how fast they may create them.

``POST /api/tables`` asks :meth:`TableLimits.admit` before it builds anything, and tells
:meth:`TableLimits.created` once the table exists (both on the event loop, with no ``await``
between them and the creation, so parallel requests cannot slip past the count):

* **Open tables** (``tables_per_player``): a table counts against its host while anyone, a
  person or a bot, sits at it, and while it is new (created within :attr:`TableLimits.grace`
  seconds, before anyone sat). A table left to bots still counts: bots are no way around the
  limit, and they only ever fill a table's own empty seats. Beyond: 409 ``too_many_tables``.
* **Creation rate** (``tables_per_hour``): a token bucket of ``tables_burst`` tokens, refilled
  at ``tables_per_hour`` an hour; a creation takes one. Without one: 429 ``tables_too_fast``
  with the whole seconds until the next token (``Retry-After``).

Only the player's own creations count: the hall's own tables (system, house and bot tables,
``host`` None) are not limited, nor are tables built in process (tests, the hall itself). The
time is the hall's clock (:class:`~sanh.server.clock.Clock`), so tests move it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

__all__ = ["TableLimits", "TableRefused"]


class TableRefused(Exception):
    """A table creation over a limit: the text code, its HTTP status and, for the rate, the
    whole seconds until the next creation may be tried."""

    def __init__(self, code: str, status: int, limit: int, retry_after: int | None = None) -> None:
        super().__init__(f"{code}: {limit}")
        self.code = code
        self.status = status
        self.limit = limit
        self.retry_after = retry_after


@dataclass(slots=True)
class _Player:
    tokens: float
    stamp: float
    new: dict[str, float] = field(default_factory=dict)
    """Table id -> when the player created it (kept for :attr:`TableLimits.grace`)."""


class TableLimits:
    """The per-player limits on creating tables (see the module's documentation)."""

    def __init__(
        self,
        *,
        per_player: int,
        per_hour: int,
        burst: int,
        now: Callable[[], float],
        grace: float = 600.0,
    ) -> None:
        self.per_player = per_player
        self.per_hour = per_hour
        self.burst = max(1, burst)
        self.now = now
        self.grace = grace
        self._players: dict[str, _Player] = {}

    def _player(self, player_id: str, now: float) -> _Player:
        state = self._players.get(player_id)
        if state is None:
            state = self._players[player_id] = _Player(float(self.burst), now)
        rate = self.per_hour / 3600.0
        state.tokens = min(float(self.burst), state.tokens + (now - state.stamp) * rate)
        state.stamp = now
        state.new = {t: at for t, at in state.new.items() if now - at < self.grace}
        return state

    def open_tables(self, player_id: str, hosted: Iterable[tuple[str, int]]) -> int:
        """How many of the player's tables count as open: ``hosted`` is ``(table id, seats
        taken)`` for every table the player hosts."""
        state = self._players.get(player_id)
        new = state.new if state is not None else {}
        now = self.now()
        return sum(
            1
            for table, seated in hosted
            if seated > 0 or now - new.get(table, -math.inf) < self.grace
        )

    def admit(self, player_id: str, hosted: Iterable[tuple[str, int]]) -> None:
        """Check that the player may create a table now.

        :raises TableRefused: ``too_many_tables`` (409) or ``tables_too_fast`` (429)."""
        now = self.now()
        state = self._player(player_id, now)
        if self.open_tables(player_id, hosted) >= self.per_player:
            raise TableRefused("too_many_tables", 409, self.per_player)
        if state.tokens < 1:
            rate = self.per_hour / 3600.0
            wait = math.ceil((1 - state.tokens) / rate) if rate > 0 else 3600
            raise TableRefused("tables_too_fast", 429, self.per_hour, max(1, wait))

    def created(self, player_id: str, table_id: str) -> None:
        """Record that the player created ``table_id`` (takes a token)."""
        now = self.now()
        state = self._player(player_id, now)
        state.tokens = max(0.0, state.tokens - 1)
        state.new[table_id] = now
