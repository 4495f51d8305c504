"""The table's bot driver: bots sit, buy in, think after a short delay and act like players.

A bot's seat is a :class:`~sanh.server.table_types.SeatSlot` with a :class:`~sanh.bots.Bot`;
the driver schedules a :class:`~sanh.server.table_commands.Bots` command a moment after the
state where a bot must act, and applies the bot's choice through the hand runner like any
action (an illegal choice gets the game's timeout default instead). In a window a bot acts at
most :data:`~sanh.server.table_types.BOT_ACTIONS_PER_WINDOW` times.
"""

from __future__ import annotations

import logging
import secrets
from typing import TYPE_CHECKING

from sanh.bots import Bot, bot_for
from sanh.errors import IllegalActionError
from sanh.games.base import Action
from sanh.server import protocol as p
from sanh.server import table_commands as c
from sanh.server.clock import Handle
from sanh.server.table_types import BOT_ACTIONS_PER_WINDOW, Connection, SeatSlot

if TYPE_CHECKING:
    from sanh.server.table import TableActor

__all__ = ["BotDriver"]

log = logging.getLogger("sanh.table")


class BotDriver:
    """Seats, funds and plays a table's bots."""

    def __init__(self, table: TableActor) -> None:
        self.t = table
        self.counts: dict[int, int] = {}
        """Engine seat -> how many times its bot acted in the current window."""
        self.handle: Handle | None = None

    def cancel(self) -> None:
        """Drop the pending thought (the actor stops)."""
        if self.handle is not None:
            self.handle.cancel()

    # ----- seating -----------------------------------------------------------------------------
    def new_bot(self) -> Bot:
        """The game's bot, its thinking capped at :attr:`Settings.bot_samples` samples."""
        bot = bot_for(self.t.game.info.id)
        cap = self.t.settings.bot_samples
        samples = getattr(bot, "samples", None)
        if cap > 0 and isinstance(samples, int) and samples > cap:
            bot.samples = cap  # type: ignore[attr-defined]
        return bot

    def seat(self, index: int) -> None:
        """Seat a bot at the empty table seat ``index`` (bought in at a Tẩy table)."""
        t = self.t
        info = t.bank.bot_player(f"{t.id}:{index + 1}")
        slot = SeatSlot(info, secrets.token_urlsafe(8), bot=self.new_bot())
        t.seats[index] = slot
        if index not in t.spec.bots:
            t.spec.bots.append(index)
        if t.staked:
            self.bank_for(slot)
        slot.ready = True

    def bank_for(self, slot: SeatSlot) -> None:
        """Buy a bot in at the maximum its balance allows."""
        t = self.t
        high = t.buyin_range()[1]
        have = t.bank.table_stake(t.id, slot.player.id)
        amount = min(high - have, t.bank.balance(slot.player.id))
        if amount > 0:
            t.bank.buy_in(t.id, slot.player.id, amount)

    def add(self, count: int) -> None:
        """Fill up to ``count`` empty seats with bots."""
        t = self.t
        sat_in = False
        for _ in range(count):
            free = [i for i, s in enumerate(t.seats) if s is None]
            if not free:
                break
            self.seat(free[0])
            sat_in = t.runner.sit_in(free[0]) or sat_in
        t.save()
        if sat_in:
            t.runner.advance()
            return
        t.out.broadcast()
        t.timers.schedule_start()

    def on_add(self, conn: Connection | None, count: int) -> None:
        """``add_bots``: the host's (or the hall's, ``conn`` None)."""
        if conn is not None and conn.player.id != self.t.spec.host:
            self.t.out.refuse(conn, p.ErrorCode.NOT_HOST, "host_adds_bots")
            return
        self.add(count)

    def on_remove(self, conn: Connection | None) -> None:
        """``remove_bots``: they go now, or at the end of the hand they are in."""
        t = self.t
        if conn is not None and conn.player.id != t.spec.host:
            t.out.refuse(conn, p.ErrorCode.NOT_HOST, "host_removes_bots")
            return
        for index, slot in enumerate(t.seats):
            if slot is None or slot.bot is None:
                continue
            if t.engine_seat(index) is None:
                t.seating.remove(index)
            else:
                slot.leaving = True
        t.save()
        t.out.broadcast()

    # ----- playing -----------------------------------------------------------------------------
    def schedule(self) -> None:
        """Let the bots to act think for a moment (a :class:`Bots` command at this version)."""
        t = self.t
        if t.state is None or self.handle is not None or t.task is None:
            return
        if not self.seats_to_act():
            return
        delay = t.settings.scaled(t.settings.bot_delay)
        self.handle = t.clock.call_later(delay, t.submit, c.Bots(t.state.version))

    def seats_to_act(self) -> list[int]:
        """The engine seats whose bots may act now."""
        t = self.t
        game, state = t.game, t.state
        turn = game.to_act(state)
        if not isinstance(turn, tuple):
            return []
        seats = []
        simultaneous = t.timers.in_window
        for engine_seat in turn:
            slot = t.seats[t.hand_players[engine_seat]]
            if slot is None or slot.bot is None:
                continue
            if simultaneous and self.counts.get(engine_seat, 0) >= BOT_ACTIONS_PER_WINDOW:
                continue
            if game.legal_actions_for(state, engine_seat) or game.amount_ranges_for(
                state, engine_seat
            ):
                seats.append(engine_seat)
        return seats

    def on_think(self, version: int) -> None:
        """The thinking delay is over: the bots act if the state is still the one they saw."""
        t = self.t
        self.handle = None
        if t.state is not None and version == t.state.version:
            self.act()
        t.runner.advance()

    def act(self) -> None:
        """One action of the bot to act (in a window: one action of every bot that may act)."""
        t = self.t
        simultaneous = t.timers.in_window
        for engine_seat in self.seats_to_act():
            if t.state is None or t.game.is_terminal(t.state):
                return
            slot = t.seats[t.hand_players[engine_seat]]
            assert slot is not None and slot.bot is not None
            view = t.game.observe(t.state, engine_seat)
            if not view.legal_actions and not view.amount_ranges:
                continue
            action: Action = slot.bot.act(view, t.bot_rng)
            try:
                t.runner.apply(action)
            except IllegalActionError:
                log.warning(
                    "table %s: bot %s chose an illegal action %s", t.id, engine_seat, action
                )
                if not t.runner.apply_default(engine_seat, "timeout"):
                    continue
            self.counts[engine_seat] = self.counts.get(engine_seat, 0) + 1
            if not simultaneous or t.timers.window_key(t.state) != t.timers.window:
                return
