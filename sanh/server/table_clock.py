"""The table's clock: turn and window deadlines, buy-in panels, reconnection graces, the pause.

RULES.md §2.5. A *turn* (one seat to act, no table action) has the turn timer (15 s, 7 s in
quick mode); a *window* (a phase where the table itself has a legal action, such as a betting
window or a squeeze window) has one table deadline, set when the window opens (a new phase or
new table actions) and kept until it closes; at the deadline the table's default action is
applied, repeatedly while the same window stays open (Three Card Poker folds every pending
decision). Several seats acting at once without a table action keep their own deadlines. The
length of a window is the clock the game declares for its phase
(:class:`~sanh.games.hosting.PhaseClock`), else the turn timer.

One timer per table (:attr:`TableClock.timer`) is set for the earliest of every deadline; it
puts a :class:`~sanh.server.table_commands.Tick` on the actor's queue, and the actor's
:meth:`TableClock.tick` applies what expired.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sanh.games.base import Reason
from sanh.server import table_commands as c
from sanh.server.clock import Handle
from sanh.server.table_types import SeatSlot

if TYPE_CHECKING:
    from sanh.server.table import TableActor

__all__ = ["TableClock"]


class TableClock:
    """Every deadline of one table, and the timers that wake its actor."""

    def __init__(self, table: TableActor) -> None:
        self.t = table
        self.deadlines: dict[int | None, float] = {}
        """Engine seat (``None``: the table's window) -> when its default applies."""
        self.deadline_version = -1
        self.window: tuple[Any, ...] | None = None
        """The current window's key (phase, simultaneity, table actions); a new key opens a
        new window."""
        self.window_version = 0
        """The state version at which the current window opened."""
        self.timer: Handle | None = None
        self.start_handle: Handle | None = None

    def cancel(self) -> None:
        """Drop the pending timers (the actor stops)."""
        for handle in (self.timer, self.start_handle):
            if handle is not None:
                handle.cancel()

    def clear(self) -> None:
        """No hand: no turn or window deadline."""
        self.deadlines = {}
        self.window = None

    @property
    def in_window(self) -> bool:
        """Whether the hand is in a simultaneous window (several may act at once)."""
        return self.window is not None and self.window[1]

    # ----- lengths --------------------------------------------------------------------------------
    def turn_seconds(self) -> float:
        """The turn timer, unscaled (quick mode's when the table is quick)."""
        settings = self.t.settings
        return settings.quick_turn_timer if self.t.quick else settings.turn_timer

    def window_seconds(self, state: Any) -> float:
        """The length of a table window (RULES.md §2.5): the clock the game declares for the
        phase (:class:`~sanh.games.hosting.PhaseClock`: a timer option such as a betting
        window's, or fixed seconds with a quick-mode value), else the turn timer."""
        game = self.t.game
        clock = game.info.hosting.clock(game.phase(state))
        seconds = None
        if clock is not None:
            seconds = clock.length(game.options(state.config), self.t.quick)
        return self.turn_seconds() if seconds is None else seconds

    def buyin_seconds(self) -> float:
        """How long a buy-in panel stays open (the game's timer option, else the hall's)."""
        t = self.t
        seconds = t.settings.buyin_timer
        option = t.game.info.hosting.buyin_timer_option
        if option is not None:
            seconds = float(t.option_values()[option])
        return t.settings.scaled(seconds)

    # ----- absence (RULES.md §2.7, §2.8) ----------------------------------------------------------
    def grace_end(self, slot: SeatSlot) -> float:
        """Until when a disconnected player's turns wait for them (one turn timer)."""
        if slot.dropped_at is None:
            return 0.0
        return slot.dropped_at + self.t.settings.scaled(self.turn_seconds())

    def absence(self, slot: SeatSlot | None, now: float) -> Reason | None:
        """Why a player's seat gets the game's default now: ``leave`` (it left the hand now),
        ``disconnect`` (away past its grace), ``timeout`` (restored after a restart and not
        reclaimed within its grace: RULES.md §2.8's timeouts, applied at once from then on),
        or ``None`` (present, a bot, or still within its grace)."""
        if slot is None or slot.bot is not None:
            return None
        if slot.leaving:
            return "leave"
        if not slot.connected and now >= self.grace_end(slot):
            tournament = self.t.spec.tournament is not None  # passed or folded, never removed
            return "timeout" if slot.restored or tournament else "disconnect"
        return None

    def timeout_reason(self, engine_seat: int) -> Reason:
        """``disconnect`` for a seat whose player is away when its deadline passes."""
        t = self.t
        slot = t.seats[t.hand_players[engine_seat]]
        away = slot is not None and slot.bot is None and not slot.connected and not slot.restored
        if away and t.spec.tournament is None:
            return "disconnect"
        return "timeout"

    def keep_away(self, slot: SeatSlot) -> None:
        """Keep an absent player's seat for the reconnection grace, out of the next hands."""
        if slot.away_deadline is None:
            settings = self.t.settings
            slot.away_deadline = self.t.clock.now() + settings.scaled(settings.reconnect_grace)
            self.reschedule()

    # ----- windows and turns ---------------------------------------------------------------------
    def window_key(self, state: Any) -> tuple[Any, ...]:
        """Which window (or turn) the state is in: phase, table actions, simultaneity."""
        game = self.t.game
        turn = game.to_act(state)
        seats = turn if isinstance(turn, tuple) else ()
        table_actions = tuple(sorted({a.wire for a in game.legal_actions_for(state, None)}))
        simultaneous = bool(table_actions) or len(seats) > 1
        return (game.phase(state), simultaneous, table_actions)

    def update(self) -> None:
        """Set the deadlines of the seats (or the window) to act now."""
        t = self.t
        state = t.state
        assert state is not None
        turn = t.game.to_act(state)
        if not isinstance(turn, tuple):
            self.deadlines = {}
            return
        key = self.window_key(state)
        if key != self.window:
            self.window = key
            self.window_version = state.version
            t.bots.counts = {}
            self.deadlines.pop(None, None)
        now = t.clock.now()
        scaled = t.settings.scaled
        new: dict[int | None, float] = {}
        if key[2]:
            new[None] = self.deadlines.get(None) or now + scaled(self.window_seconds(state))
        else:
            # A simultaneous phase keeps each seat's deadline; a turn keeps it only while the
            # state has not moved since it was set.
            keep = len(turn) > 1 or self.deadline_version == state.version
            for seat in turn:
                if keep and seat in self.deadlines:
                    new[seat] = self.deadlines[seat]
                else:
                    new[seat] = now + scaled(self.turn_seconds())
        self.deadlines = new
        self.deadline_version = state.version
        self.reschedule()

    # ----- the timers -----------------------------------------------------------------------------
    def reschedule(self) -> None:
        """Set the table's one timer for the earliest deadline of any kind."""
        t = self.t
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        times = list(self.deadlines.values())
        now = t.clock.now()
        for index, slot in enumerate(t.seats):
            if slot is not None:
                times += [w for w in (slot.buyin_deadline, slot.away_deadline) if w is not None]
                grace = self.grace_end(slot)
                if grace > now and t.engine_seat(index) is not None:
                    times.append(grace)  # from then on its turns apply at once
        if not times or t.task is None:
            return
        self.timer = t.clock.call_at(min(times), t.submit, c.Tick())

    def schedule_start(self, delay: float | None = None) -> None:
        """Deal the next hand after the pause between hands (if none is under way)."""
        t = self.t
        if t.state is not None or self.start_handle is not None or t.task is None:
            return
        settings = t.settings
        wait = settings.scaled(settings.between_hands if delay is None else delay)
        self.start_handle = t.clock.call_later(wait, t.submit, c.Start())

    def started(self) -> None:
        """The pause's timer fired (:class:`~sanh.server.table_commands.Start`)."""
        self.start_handle = None

    def tick(self) -> None:
        """A deadline passed: buy-in panels take their maximum, absent seats go, and the
        hand's expired turns and window get their defaults."""
        t = self.t
        self.timer = None
        now = t.clock.now()
        t.seating.expire(now)
        if t.state is not None:
            expired = [seat for seat, when in self.deadlines.items() if when <= now]
            for seat in expired:
                if t.state is None:
                    break
                self.deadlines.pop(seat, None)
                if seat is None:
                    self.close_window()
                    continue
                t.runner.apply_default(seat, self.timeout_reason(seat))
            t.runner.advance()
        self.reschedule()

    def close_window(self) -> None:
        """The table's deadline: its default action, again while the same window stays open."""
        t = self.t
        window = self.window
        for _ in range(len(t.hand_players) + 4):
            if t.state is None or t.game.is_terminal(t.state):
                return
            if not t.runner.apply_default(None, "timeout"):
                return
            if self.window_key(t.state) != window:
                return
