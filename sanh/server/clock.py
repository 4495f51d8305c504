"""The hall's clock: what every server deadline reads, injectable so that tests never wait.

A :class:`Clock` tells the time (:meth:`Clock.now`, seconds on the Unix epoch's scale, since
deadlines go to clients as Unix times) and runs callbacks at given times
(:meth:`Clock.call_at`, :meth:`Clock.call_later`). The table actors' timers (turn and window
deadlines, the pause between hands, the bots' delay, the buy-in panel, the reconnection grace)
and the WebSocket's own limits (the sign-in time, the rate limit, the strike window) all read
the hall's clock.

:class:`LoopClock` is production's: the asyncio loop's monotonic time, anchored once to the
wall clock, so a deadline announced to a client is a Unix time, and a timer fires when the
clock reads its time (never earlier: a step of the system clock moves nothing).
:class:`ManualClock` is the tests': time stands still until the test moves it
(:meth:`ManualClock.advance`, :meth:`ManualClock.advance_to`), and then the callbacks that
have come due run in order of their times, each seeing the clock read its own time. A test
so checks a deadline on the clock the code reads, however slow or busy the machine.

>>> clock = ManualClock(start=100.0)
>>> fired = []
>>> handle = clock.call_later(5, fired.append, "a")
>>> _ = clock.call_at(103.0, fired.append, "b")
>>> clock.next_due(), clock.pending()
(103.0, 2)
>>> clock.advance(2.999)
>>> fired
[]
>>> clock.advance_to(103.0)
>>> fired
['b']
>>> handle.cancel()
>>> clock.advance(10)
>>> fired, clock.now(), clock.pending()
(['b'], 113.0, 0)
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

__all__ = ["Clock", "Handle", "LoopClock", "ManualClock", "wait_until"]

T = TypeVar("T")


class Handle(Protocol):
    """A scheduled callback; :meth:`cancel` drops it if it has not run."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    """What the server's deadlines read (see the module's docstring)."""

    def now(self) -> float:
        """The time, in seconds on the Unix epoch's scale."""
        ...

    def call_at(self, when: float, callback: Callable[..., object], *args: Any) -> Handle:
        """Run ``callback(*args)`` once :meth:`now` reads ``when`` or later."""
        ...

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> Handle:
        """Run ``callback(*args)`` ``delay`` seconds from now."""
        ...


class LoopClock:
    """The running asyncio loop's time, on the Unix epoch's scale (production's clock).

    The offset from the loop's monotonic time to the epoch is taken once, at the first use
    inside a running loop; from then on the clock and the loop's timers agree exactly.
    """

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._offset = 0.0
        # asyncio runs a timer up to its clock's resolution early, and an epoch-scale float
        # keeps only about 0.24 us: a timer runs 1 us late so that the clock reads its time.
        self._late = max(time.get_clock_info("monotonic").resolution, 1e-6)

    def _bound(self) -> asyncio.AbstractEventLoop:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._loop = loop
            self._offset = time.time() - loop.time()
        return loop

    def now(self) -> float:
        try:
            loop = self._bound()
        except RuntimeError:  # outside the loop (a synchronous caller): the wall clock
            return time.time()
        return loop.time() + self._offset

    def call_at(self, when: float, callback: Callable[..., object], *args: Any) -> Handle:
        loop = self._bound()
        return loop.call_at(when - self._offset + self._late, callback, *args)

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> Handle:
        return self.call_at(self.now() + max(0.0, delay), callback, *args)


class _ManualHandle:
    __slots__ = ("args", "callback", "cancelled", "when")

    def __init__(self, when: float, callback: Callable[..., object], args: tuple[Any, ...]) -> None:
        self.when = when
        self.callback = callback
        self.args = args
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that only moves when told to (the tests' clock)."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._queue: list[tuple[float, int, _ManualHandle]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: Callable[..., object], *args: Any) -> Handle:
        handle = _ManualHandle(when, callback, args)
        heapq.heappush(self._queue, (when, next(self._order), handle))
        return handle

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> Handle:
        return self.call_at(self._now + max(0.0, delay), callback, *args)

    def _drop_cancelled(self) -> None:
        while self._queue and self._queue[0][2].cancelled:
            heapq.heappop(self._queue)

    def next_due(self) -> float | None:
        """When the earliest pending callback is due (None if nothing is pending)."""
        self._drop_cancelled()
        return self._queue[0][0] if self._queue else None

    def pending(self) -> int:
        """How many callbacks wait (cancelled ones not counted)."""
        return sum(1 for _, _, handle in self._queue if not handle.cancelled)

    def advance_to(self, when: float) -> None:
        """Move the clock to ``when`` (never back), running every callback due by then in
        order of its time; while one runs, the clock reads that callback's time."""
        if when < self._now:
            raise ValueError(f"the clock does not go back ({when} < {self._now})")
        while True:
            self._drop_cancelled()
            if not self._queue or self._queue[0][0] > when:
                break
            due, _, handle = heapq.heappop(self._queue)
            self._now = max(self._now, due)
            handle.cancelled = True
            handle.callback(*handle.args)
        self._now = when

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` on (see :meth:`advance_to`)."""
        if seconds < 0:
            raise ValueError("the clock does not go back")
        self.advance_to(self._now + seconds)


async def wait_until(clock: Clock, awaitable: Awaitable[T], when: float) -> T:
    """Await ``awaitable`` until the clock reads ``when``. :raises TimeoutError: if it had not
    finished by then (it is cancelled)."""
    task: asyncio.Future[T] = asyncio.ensure_future(awaitable)
    expired = False

    def expire() -> None:
        nonlocal expired
        if not task.done():
            expired = True
            task.cancel()

    handle = clock.call_at(when, expire)
    try:
        return await task
    except asyncio.CancelledError:
        if expired:
            raise TimeoutError from None
        raise
    finally:
        handle.cancel()
