"""The table's seating: watching, sitting, the buy-in panel, standing, leaving, the bank's host.

Leaving (docs/protocol.md, "Leaving a table"). Between hands a ``leave`` or ``stand`` frees the
seat at once and costs nothing. During the seat's hand it is a leave *after this hand*
(``leave_pending``): the seat plays on under its clock and goes at the result, unless
cancelled. Leaving *now* is quoted (``leave_quote``: the game's :meth:`Game.leave_cost`, else
the amount held for the seat) and confirmed (``leave_now``); the seat then gets the
``"leave"`` default, at once when that default is an ``anytime`` action or a table action
(Sâm *Rời bàn*, Liêng, Hold'em and Xì tố's ``Leave``, Three Card Poker's forced fold),
otherwise on its turn (:meth:`~sanh.server.table_hand.HandRunner.advance`).

Tẩy games (the game's ``Hosting.table_stake``) open a buy-in panel for a player who sits with
less than the minimum, and between hands for a stake below the top-up level; at the panel's
deadline the most the player may bring is taken (or the seat goes if nothing can be).
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from sanh.server import protocol as p
from sanh.server.table_types import Connection, LeaveQuote, SeatSlot
from sanh.texts import text

if TYPE_CHECKING:
    from sanh.server.table import TableActor

__all__ = ["Seating"]


class Seating:
    """Who watches and who sits, and what sitting, buying in and leaving cost."""

    def __init__(self, table: TableActor) -> None:
        self.t = table
        self.leave_quotes: dict[str, LeaveQuote] = {}
        """Player id -> the last ``leave_quote`` sent (good for its hand while the cost holds)."""

    # ----- watching ------------------------------------------------------------------------------
    def join(self, conn: Connection, invite: str | None) -> None:
        """``join``: watch the table (and take back the player's seat, if they have one)."""
        t = self.t
        invited = invite == t.spec.invite_code or conn.player.id == t.spec.host
        if t.spec.private and not invited and t.seat_of(conn.player.id) is None:
            t.out.refuse(conn, p.ErrorCode.NO_SUCH_TABLE, "table_needs_invite")
            return
        self._watch(conn)
        seat = t.seat_of(conn.player.id)
        if seat is not None:
            self._reclaim(seat)
        t.out.send_update(conn)
        if t.chat.history:
            t.out.send(conn, p.ChatHistory(table=t.id, lines=list(t.chat.history)))
        if t.recent:
            t.out.send(conn, p.Recent(table=t.id, records=list(t.recent)))
        if seat is not None:
            t.runner.advance()

    def _watch(self, conn: Connection) -> None:
        self.t.watchers[id(conn)] = conn
        conn.tables.add(self.t.id)

    def unwatch(self, conn: Connection) -> None:
        """The connection no longer watches the table."""
        self.t.watchers.pop(id(conn), None)
        conn.tables.discard(self.t.id)

    def _reclaim(self, seat: int) -> None:
        t = self.t
        slot = t.seats[seat]
        assert slot is not None
        slot.connected = True
        slot.restored = False
        slot.away_deadline = None
        slot.dropped_at = None
        # A seat kept between hands (a table rebuilt on another node) is dealt in again: the
        # pause's deal may have found too few players back and is not due again by itself.
        t.timers.schedule_start()

    def resume(self, conn: Connection, token: str) -> None:
        """``resume``: take back the seat whose resume token this is."""
        t = self.t
        for index, slot in enumerate(t.seats):
            if slot is not None and slot.resume_token == token and slot.player.id == conn.player.id:
                self._reclaim(index)
                self._watch(conn)
                t.out.send_update(conn)
                t.runner.advance()
                return
        t.out.refuse(conn, p.ErrorCode.BAD_RESUME, "no_seat_for_token")

    def disconnect(self, conn: Connection) -> None:
        """The connection dropped: the seat keeps its clock (RULES.md §2.7)."""
        t = self.t
        t.watchers.pop(id(conn), None)
        seat = t.seat_of(conn.player.id)
        if seat is None:
            return
        if any(w.player.id == conn.player.id for w in t.watchers.values()):
            return  # another tab of the same player is still connected
        slot = t.seats[seat]
        assert slot is not None
        slot.connected = False
        slot.dropped_at = t.clock.now()
        if t.engine_seat(seat) is None:
            t.timers.keep_away(slot)
            t.out.broadcast()
        else:
            t.runner.advance()

    # ----- sitting and buying in -----------------------------------------------------------------
    def sit(self, conn: Connection, wanted: int | None) -> None:
        """``sit``: take a seat (a Tẩy table opens the buy-in panel)."""
        t = self.t
        if t.spec.tournament is not None:
            t.out.refuse(conn, p.ErrorCode.TABLE_FULL, "tournament_seat")
            return
        if t.spec.private and id(conn) not in t.watchers:
            t.out.refuse(conn, p.ErrorCode.NOT_AT_TABLE, "join_with_invite")
            return
        if t.seat_of(conn.player.id) is not None:
            t.out.refuse(conn, p.ErrorCode.ALREADY_SEATED, "already_seated")
            return
        seat = self._free_seat(conn, wanted)
        if seat is None or not self._can_afford(conn):
            return
        slot = SeatSlot(conn.player, t.resume_token(seat, conn.player.id))
        t.seats[seat] = slot
        self._watch(conn)
        if t.spec.host is None and not t.player_banked and not t.spec.system:
            # A player-banked table's banker steps up (host); the hall's own tables have none.
            t.spec.host = conn.player.id
            t.save()
        if t.staked and t.bank.table_stake(t.id, conn.player.id) < t.buyin_range()[0]:
            self.open_panel(slot, conn)
        else:
            slot.ready = True
        if t.runner.sit_in(seat):  # a house round under way: bet in it at once
            t.runner.advance()
            return
        t.out.broadcast()
        t.timers.schedule_start()

    def _free_seat(self, conn: Connection, wanted: int | None) -> int | None:
        """The seat asked for, or the first free one (None: refused)."""
        t = self.t
        if wanted is not None:
            if not 0 <= wanted < len(t.seats):
                t.out.refuse(conn, p.ErrorCode.BAD_AMOUNT, text("no_seat_number", wanted + 1))
                return None
            if t.seats[wanted] is not None:
                t.out.refuse(conn, p.ErrorCode.SEAT_TAKEN, text("seat_number_taken", wanted + 1))
                return None
            return wanted
        free = [i for i, s in enumerate(t.seats) if s is None]
        if not free:
            t.out.refuse(conn, p.ErrorCode.TABLE_FULL, "table_full")
            return None
        return free[0]

    def _can_afford(self, conn: Connection) -> bool:
        """Whether the player's balance lets them sit (refused if not: RULES.md §2.6)."""
        t = self.t
        balance = t.bank.balance(conn.player.id)
        if t.staked:
            low, _ = t.buyin_range()
            if balance + t.bank.table_stake(t.id, conn.player.id) < low:
                t.out.refuse(conn, p.ErrorCode.INSUFFICIENT_FUNDS, text("balance_below_buyin", low))
                return False
        elif balance < t.min_balance()[1]:
            reason = text("seat_needs_multiple", *t.min_balance())
            t.out.refuse(conn, p.ErrorCode.INSUFFICIENT_FUNDS, reason)
            return False
        return True

    def panel_range(self, slot: SeatSlot) -> tuple[int, int]:
        """The amounts a buy-in (or top-up) may add now: the stake must end in the range."""
        t = self.t
        low, high = t.buyin_range()
        have = t.bank.table_stake(t.id, slot.player.id)
        balance = t.bank.balance(slot.player.id)
        return max(low - have, 1), min(high - have, balance)

    def open_panel(self, slot: SeatSlot, conn: Connection | None) -> bool:
        """Open the buy-in panel (the maximum is taken at its deadline); False if impossible."""
        t = self.t
        least, most = self.panel_range(slot)
        if least > most:
            return False
        slot.ready = False
        slot.buyin_deadline = t.clock.now() + t.timers.buyin_seconds()
        panel = p.BuyInPanel(table=t.id, min=least, max=most, deadline=slot.buyin_deadline)
        t.out.to_player(slot.player.id, panel, conn)
        t.timers.reschedule()
        return True

    def on_buyin(self, conn: Connection, amount: int) -> None:
        """``buyin``: bring ``amount`` to the table."""
        seat = self.t.seat_of(conn.player.id)
        if seat is None:
            self.t.out.refuse(conn, p.ErrorCode.NOT_SEATED, "sit_down_first")
            return
        self.buy_in(seat, amount, conn)

    def buy_in(self, seat: int, amount: int, conn: Connection | None) -> None:
        """Bring ``amount`` to the seat's table stake (refused, changing nothing, if not now)."""
        t = self.t
        slot = t.seats[seat]
        assert slot is not None
        if not t.staked or t.spec.tournament is not None:
            t.out.refuse(conn, p.ErrorCode.BAD_AMOUNT, "no_buyin")
            return
        if t.engine_seat(seat) is not None:
            t.out.refuse(conn, p.ErrorCode.BAD_AMOUNT, "top_up_between_hands")
            return
        least, most = self.panel_range(slot)
        if not least <= amount <= most:
            t.out.refuse(conn, p.ErrorCode.BAD_AMOUNT, text("buy_in_between", least, most))
            return
        if not t.bank.buy_in(t.id, slot.player.id, amount):
            t.out.refuse(conn, p.ErrorCode.INSUFFICIENT_FUNDS, "not_enough_gold")
            return
        slot.ready = True
        slot.buyin_deadline = None
        t.out.broadcast()
        t.timers.schedule_start()

    def is_ready(self, slot: SeatSlot | None) -> bool:
        """Whether a seat can be dealt into the next hand (or sit in a house round)."""
        t = self.t
        if slot is not None and t.spec.tournament is not None:
            return t.bank.table_stake(t.id, slot.player.id) > 0  # present or not (§2.7)
        if slot is None or not slot.ready or slot.leaving or slot.after_hand or not slot.present:
            return False
        if slot.buyin_deadline is not None:
            return False
        if t.staked:
            return t.bank.table_stake(t.id, slot.player.id) > 0
        if t.banked:
            return True  # a house game needs only the amount bet
        return t.bank.balance(slot.player.id) >= t.min_balance()[1]

    def ready_seats(self) -> list[int]:
        """The table seats that can be dealt into the next hand."""
        return [index for index, slot in enumerate(self.t.seats) if self.is_ready(slot)]

    def expire(self, now: float) -> None:
        """Deadlines of seats passed: a panel takes its maximum (or the seat goes), an
        absent player's kept seat goes."""
        t = self.t
        if t.spec.tournament is not None:
            return  # a tournament's seats are kept until their chips are gone
        for index, slot in enumerate(t.seats):
            if slot is not None and slot.buyin_deadline is not None and slot.buyin_deadline <= now:
                slot.buyin_deadline = None
                least, most = self.panel_range(slot)
                if least <= most and t.engine_seat(index) is None:
                    self.buy_in(index, most, None)
                elif t.engine_seat(index) is None:
                    self.remove(index)
                    t.out.broadcast()
        for index, slot in enumerate(t.seats):
            if slot is None or slot.away_deadline is None or slot.away_deadline > now:
                continue
            slot.away_deadline = None
            if not slot.present and t.engine_seat(index) is None:
                self.remove(index)
                t.out.broadcast()

    # ----- leaving (RULES.md §2.7; docs/protocol.md "Leaving a table") ---------------------------
    def leave(self, conn: Connection) -> None:
        """``leave``: stop watching; the seat goes now, or after the hand it is in."""
        t = self.t
        if id(conn) not in t.watchers and t.seat_of(conn.player.id) is None:
            t.out.refuse(conn, p.ErrorCode.NOT_AT_TABLE, "not_at_table")
            return
        seat = t.seat_of(conn.player.id)
        if seat is not None and t.spec.tournament is not None:
            self.disconnect(conn)  # stops watching; the seat keeps its chips (§2.7)
            return
        if seat is not None and t.engine_seat(seat) is not None:
            self._leave_after_hand(seat, conn, "leave")
            return
        self.unwatch(conn)
        if seat is not None:
            self._leave_between_hands(seat, conn)

    def stand(self, conn: Connection) -> None:
        """``stand``: free the seat and keep watching (after the hand during one)."""
        t = self.t
        seat = t.seat_of(conn.player.id)
        if seat is None:
            t.out.refuse(conn, p.ErrorCode.NOT_SEATED, "no_seat_here")
            return
        if t.spec.tournament is not None:
            t.out.refuse(conn, p.ErrorCode.BAD_AMOUNT, "tournament_seat")
            return
        if t.engine_seat(seat) is not None:
            self._leave_after_hand(seat, conn, "stand")
            return
        self._leave_between_hands(seat, conn)

    def _leave_between_hands(self, seat: int, conn: Connection | None) -> None:
        """The seat is not in a hand: it goes at once and costs nothing (a Tẩy stake is
        cashed out); the next deal is made without it."""
        t = self.t
        slot = t.seats[seat]
        if slot is None:
            return
        if not self.banker_leaves(seat):
            self.remove(seat)
        t.out.to_player(slot.player.id, p.Left(table=t.id, hand=t.hand), conn)
        t.out.broadcast()

    def _leave_after_hand(self, seat: int, conn: Connection, mode: str) -> None:
        """A leave (or stand) asked for during a hand: the seat plays on under its clock
        (timeouts, or the disconnection rule if the player goes away) and goes at the hand's
        result (:meth:`between_hands`); the player keeps watching until then and may cancel."""
        t = self.t
        slot = t.seats[seat]
        assert slot is not None
        slot.after_hand = mode
        pending = p.LeavePending(table=t.id, hand=t.hand, pending=True, stand=mode == "stand")
        t.out.to_player(slot.player.id, pending, conn)
        t.out.broadcast()

    def cancel_leave(self, conn: Connection) -> None:
        """``cancel_leave``: the seat stays after the hand."""
        t = self.t
        seat = t.seat_of(conn.player.id)
        slot = t.seats[seat] if seat is not None else None
        if slot is None:
            t.out.refuse(conn, p.ErrorCode.NOT_SEATED, "no_seat_here")
            return
        slot.after_hand = None
        cancelled = p.LeavePending(table=t.id, hand=t.hand, pending=False)
        t.out.to_player(slot.player.id, cancelled, conn)
        t.out.broadcast()

    def leave_cost(self, seat: int) -> tuple[int, str]:
        """What leaving now costs the seat, and its basis (``leave_quote``): nothing between
        hands; in a hand the game's exact amount (:meth:`Game.leave_cost`), else the bound the
        hall holds for the seat (its stack: ``min(balance, max_loss)``, the Tẩy stake; in a
        house game the bets held so far, which stand)."""
        t = self.t
        engine_seat = t.engine_seat(seat)
        if t.state is None or engine_seat is None:
            return 0, "free"
        exact = t.game.leave_cost(t.state, engine_seat)
        if exact is not None:
            return int(exact), "exact"
        if t.banked:
            return t.held.get(engine_seat, 0), "bound"
        return int(t.state.config.stacks[engine_seat]), "bound"

    def quote_leave(self, conn: Connection) -> None:
        """``quote_leave``: what leaving now costs, good for this hand while the cost holds."""
        t = self.t
        seat = t.seat_of(conn.player.id)
        if seat is None:
            t.out.refuse(conn, p.ErrorCode.NOT_SEATED, "no_seat_here")
            return
        cost, basis = self.leave_cost(seat)
        in_hand = t.engine_seat(seat) is not None
        quote = LeaveQuote(secrets.token_urlsafe(12), t.hand, in_hand, cost, basis)
        self.leave_quotes[conn.player.id] = quote
        message = p.LeaveQuote(
            table=t.id, hand=t.hand, cost=cost, basis=basis, quote_id=quote.quote_id
        )
        t.out.send(conn, message)

    def leave_now(self, conn: Connection, quote_id: str) -> None:
        """Leave now at the quoted cost: refused, changing nothing, if the quote is not the
        player's last one for this hand (``leave_quote_unknown``) or the cost is no longer
        the quoted one (``leave_cost_changed``; a state that moved on at the same cost is
        fine)."""
        t = self.t
        if t.spec.tournament is not None:
            t.out.refuse(conn, p.ErrorCode.BAD_AMOUNT, "tournament_seat")
            return
        seat = t.seat_of(conn.player.id)
        if seat is None:
            t.out.refuse(conn, p.ErrorCode.NOT_SEATED, "no_seat_here")
            return
        quote = self.leave_quotes.get(conn.player.id)
        in_hand = t.engine_seat(seat) is not None
        if (
            quote is None
            or quote.quote_id != quote_id
            or quote.hand != t.hand
            or quote.in_hand != in_hand
        ):
            t.out.refuse(conn, p.ErrorCode.LEAVE_QUOTE_UNKNOWN, "leave_quote_unknown")
            return
        cost, basis = self.leave_cost(seat)
        if (cost, basis) != (quote.cost, quote.basis):
            reason = text("leave_cost_changed", quote.cost, cost)
            t.out.refuse(conn, p.ErrorCode.LEAVE_COST_CHANGED, reason)
            return
        del self.leave_quotes[conn.player.id]
        self.unwatch(conn)
        if not in_hand:
            self._leave_between_hands(seat, conn)
            return
        t.out.send(conn, p.Left(table=t.id, hand=t.hand))
        self._leave_hand_now(seat)

    def _leave_hand_now(self, seat: int) -> None:
        """The seat leaves the hand under way: the game's ``"leave"`` default, at once when it
        is an ``anytime`` action or a table action, otherwise on the seat's turn; the seat goes
        at the end of the hand."""
        t = self.t
        if self.banker_leaves(seat):  # a player-hosted bank: the round is voided, refunded
            return
        slot = t.seats[seat]
        engine_seat = t.engine_seat(seat)
        assert slot is not None and engine_seat is not None
        slot.leaving = True
        slot.after_hand = None
        t.runner.leave_at_once(engine_seat)
        t.runner.advance()

    def banker_leaves(self, seat: int) -> bool:
        """The banker of a player-hosted table stands up: the round under way (whose bets
        only the bank could pay) is voided and every bet refunded, the table has no banker
        and closes its betting until a player steps up (``host``). True if it was the banker."""
        t = self.t
        if t.banker() != seat:
            return False
        if t.state is not None:
            t.runner.void("void_no_host")  # removes nobody: the banker is still seated
        t.spec.bank = 0
        self.remove(seat)
        t.out.broadcast()
        return True

    def remove(self, seat: int) -> None:
        """The seat is free (a Tẩy stake cashed out; the host's role passes on)."""
        t = self.t
        slot = t.seats[seat]
        if slot is None:
            return
        if t.staked:
            t.bank.cash_out(t.id, slot.player.id)
        t.seats[seat] = None
        if seat in t.spec.bots:
            t.spec.bots.remove(seat)
        if t.player_banked and t.spec.host == slot.player.id:
            t.spec.host, t.spec.bank = None, 0  # nobody inherits the bank
            t.save()
        elif t.spec.host == slot.player.id and not t.spec.system:
            remaining = [s for s in t.seats if s is not None and s.bot is None]
            remaining.sort(key=lambda s: s.sat_at)
            t.spec.host = remaining[0].player.id if remaining else None
            t.save()

    def between_hands(self) -> None:
        """Between hands: leaving and absent players go, stakes below the level are topped
        up (a bot's at once, a player's through the panel)."""
        t = self.t
        if t.spec.tournament is not None:
            for index, slot in enumerate(t.seats):
                if slot is not None and t.bank.table_stake(t.id, slot.player.id) <= 0:
                    self.remove(index)  # out of the tournament
            return
        for index, slot in enumerate(t.seats):
            if slot is None:
                continue
            if slot.leaving:
                self.remove(index)
            elif slot.after_hand is not None:
                self._remove_after_hand(index, slot)
            elif not slot.present:
                t.timers.keep_away(slot)
            elif slot.bot is not None and t.staked:
                t.bots.bank_for(slot)
            elif (
                t.staked
                and slot.buyin_deadline is None
                and t.bank.table_stake(t.id, slot.player.id) < t.topup_below()
                and not self.open_panel(slot, None)
            ):
                self.remove(index)

    def _remove_after_hand(self, seat: int, slot: SeatSlot) -> None:
        """A pending leave at the hand's result: the seat goes (``left``); a ``leave`` also
        stops watching (the result reached it first)."""
        t = self.t
        mode = slot.after_hand
        self.remove(seat)
        for watcher in t.out.connections_of(slot.player.id):
            t.out.send(watcher, p.Left(table=t.id, hand=t.hand))
            if mode == "leave":
                self.unwatch(watcher)

    # ----- a player-hosted bank (RULES.md §5.7) ------------------------------------------------
    def host(self, conn: Connection, amount: int) -> None:
        """``host {amount}``: become the banker of a player-hosted table, or change the bank
        for the next round (the current banker)."""
        t = self.t
        if not t.player_banked:
            t.out.refuse(conn, p.ErrorCode.NOT_HOST, "no_bank_here")
            return
        seat = t.seat_of(conn.player.id)
        if seat is None:
            t.out.refuse(conn, p.ErrorCode.NOT_SEATED, "sit_down_first")
            return
        banker = t.banker()
        if banker is not None and banker != seat:
            t.out.refuse(conn, p.ErrorCode.NOT_HOST, "bank_taken")
            return
        least = t.game.bank_minimum(t.spec.stake, t.spec.options)
        most = t.bank.balance(conn.player.id)
        if most < least:
            t.out.refuse(conn, p.ErrorCode.INSUFFICIENT_FUNDS, text("bank_needs", least))
            return
        if not least <= amount <= most:
            t.out.refuse(conn, p.ErrorCode.BAD_AMOUNT, text("bank_between", least, most))
            return
        t.spec.host, t.spec.bank = conn.player.id, amount
        t.save()
        t.out.broadcast()
        t.timers.schedule_start()
