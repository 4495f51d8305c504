"""The table's hand runner: open a hand, apply its events, finish (settle) or void it.

Hand flow: when enough players are ready the runner opens a hand (holding every player's
commitment in the ledger: :mod:`sanh.server.table_opening` works out the lineup, the caps and
the config), draws chance events from the table's RNG (provably fair: the commitment to the
hand's server seed is published when the hand opens and the seed is revealed with the result),
applies actions, applies absent seats' defaults (RULES.md §2.7), settles through the ledger in
one batch, and after a pause the clock starts the next hand.

Every applied event is written to the table's event log through the
:class:`~sanh.server.services.Bank` before anyone is told about it: :meth:`HandRunner.apply`
buffers the entry, the actor awaits :meth:`HandRunner.make_durable` after each command and only
then releases the command's messages.

House games (Tài Xỉu, Three Card Poker, Teen Patti) hold each bet as it is placed
(:meth:`HandRunner._hold_bets`); a bet the wallet cannot cover is refused
(:class:`~sanh.server.table_types.HoldRefused`). In a player-vs-player game a seat out for good
has its loss posted at once and the rest of its hold released (:meth:`Game.out_loss`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from sanh.cards.rng import Rng
from sanh.errors import IllegalActionError
from sanh.games.base import CHANCE, Action, Event, Reason
from sanh.games.driver import chance_event
from sanh.notation.jsonable import to_jsonable
from sanh.server import protocol as p
from sanh.server.jsonview import fast_jsonable
from sanh.server.table_opening import HandOpener
from sanh.server.table_types import HoldRefused
from sanh.texts import describe, text

if TYPE_CHECKING:
    from sanh.server.table import TableActor

__all__ = ["HandRunner"]

log = logging.getLogger("sanh.table")


def _event_json(event: Event) -> dict[str, Any]:
    value: dict[str, Any] = fast_jsonable(event)
    return value


class HandRunner:
    """The hand under way: its seed and RNG, its event sequence, its log entries."""

    def __init__(self, table: TableActor) -> None:
        self.t = table
        self.opener = HandOpener(table)
        self.server_seed: str | None = None
        self.hand_rng: Rng | None = None
        self.seq = 0
        self.out_seats: set[int] = set()
        """Engine seats out of the hand in progress whose holds were settled at once."""
        self.log_buffer: list[tuple[int, int, dict[str, Any]]] = []
        """Events applied and not yet written: (hand, seq, event)."""
        self.logged = False
        """Events of the command being handled went to the bank (await their durability)."""

    # ----- opening -------------------------------------------------------------------------------
    def start(self) -> None:
        """The pause is over: open a hand if the seats allow one (:class:`HandOpener`)."""
        t = self.t
        t.timers.started()
        if t.state is not None or t.draining:
            return
        opened = self.opener.open()
        if opened is None:
            return
        state, lineup, seed, rng = opened
        t.state = state
        t.hand_players = lineup
        t.held = {}
        self.server_seed, self.hand_rng, self.seq = seed, rng, 0
        self.out_seats = set()
        t.timers.clear()
        t.bots.counts = {}
        self.advance()

    def resume(self, server_seed: str | None, rng: Rng, seq: int) -> None:
        """A hand rebuilt from the log (:mod:`sanh.server.table_recovery`) goes on from here."""
        self.server_seed, self.hand_rng, self.seq = server_seed, rng, seq

    def sit_in(self, seat: int) -> bool:
        """A player sat down at a house table during the betting window: give the empty
        engine seat a stack (the balance; its bets are held as they come) so that they bet in
        this round. The ``join`` log entry names the player for a rebuild."""
        t = self.t
        slot = t.seats[seat]
        if t.state is None or not t.banked or slot is None or not t.seating.is_ready(slot):
            return False
        action = self.opener.sit_in_action(seat, slot)
        if action is None:
            return False
        self.flush_log()
        self.seq += 1
        entry = {"kind": "join", "seat": seat, "player": slot.player.id}
        if not t.bank.join_hand(t.id, t.hand, self.seq, slot.player.id, 0, entry):
            self.seq -= 1
            return False
        self.apply(action)
        return True

    # ----- applying ------------------------------------------------------------------------------
    def apply(self, event: Event) -> None:
        """Validate, log, then apply one event (raises IllegalActionError, changing nothing).

        The log entry is buffered and written (one transaction for the command's events)
        before anyone hears of the change: see :meth:`flush_log`.
        """
        t = self.t
        assert t.state is not None
        state = t.game.apply(t.state, event)  # validates; pure, so nothing changes yet
        if t.banked:
            self._hold_bets(event, state)  # the bet's gold is held before the bet counts
        self.seq += 1
        self.log_buffer.append((t.hand, self.seq, {"kind": "event", **_event_json(event)}))
        t.state = state
        if not t.banked and not t.staked:
            self._release_out_seats(state)

    def apply_default(self, seat: int | None, reason: Reason) -> bool:
        """Apply the game's default for ``seat`` (``None``: the table) if it is legal now."""
        t = self.t
        action = t.game.default_action(t.state, seat, reason)
        if action is None or not t.game.is_legal(t.state, action):
            return False
        self.apply(action)
        return True

    def leave_at_once(self, engine_seat: int) -> None:
        """The seat left the hand now: its ``"leave"`` default applies at once when it is an
        ``anytime`` action or a table action (otherwise on its turn, :meth:`advance`)."""
        t = self.t
        action = t.game.default_action(t.state, engine_seat, "leave")
        immediate = action is not None and (action.seat is None or type(action).anytime)
        if immediate and action is not None and t.game.is_legal(t.state, action):
            self.apply(action)

    def apply_unfunded(self, engine_seat: int, event: Action) -> bool:
        """The wallet could not cover ``event``: apply what the game does then
        (:meth:`~sanh.games.base.Game.unfunded_action`: Three Card Poker's Play becomes the
        seed's fold); True if something was applied."""
        t = self.t
        assert t.state is not None
        action = t.game.unfunded_action(t.state, engine_seat, event)
        if action is None or not t.game.is_legal(t.state, action):
            return False
        try:
            self.apply(action)
        except IllegalActionError:  # its own hold refused too: nothing more to do
            return False
        return True

    def _release_out_seats(self, state: Any) -> None:
        """A hold never outlives a seat's part in the hand: a seat out for good
        (:meth:`Game.out_loss`: a Liêng fold, whether played, timed out or caused by leaving)
        has its loss posted from its hold at once and the rest released, so its player can
        play elsewhere while the hand goes on (RULES.md §2.6). The event that put it out is
        written in the same transaction; the settlement counts the loss as paid."""
        t = self.t
        for engine_seat in range(len(t.hand_players)):
            if engine_seat in self.out_seats:
                continue
            loss = t.game.out_loss(state, engine_seat)
            if loss is None:
                continue
            self.out_seats.add(engine_seat)
            slot = t.seats[t.hand_players[engine_seat]]
            if slot is None:
                continue
            self.flush_log()
            t.bank.out_hand(t.id, t.hand, slot.player.id, loss)
            if slot.bot is None:
                balance = p.BalanceUpdate(balance=t.bank.balance(slot.player.id))
                t.out.to_player(slot.player.id, balance)

    def _hold_bets(self, event: Event, state: Any) -> None:
        """House games need only the amount bet (RULES.md §2.6): hold what a seat's bets (or
        a player-hosted bank's reservations) put at risk as they grow.

        :raises HoldRefused: the wallet cannot cover it (the event does not count).
        """
        t = self.t
        seats = {state.config.host}
        if isinstance(event, Action) and event.seat is not None:
            seats.add(event.seat)
        for seat in sorted(seats):
            risk = t.game.at_risk(state, seat) or 0
            need = risk - t.held.get(seat, 0)
            slot = t.seats[t.hand_players[seat]]
            if need <= 0 or slot is None:
                continue
            if not t.bank.hold_bet(t.id, t.hand, slot.player.id, need):
                raise HoldRefused(event, text("wallet_short", seat, need), state.version - 1)
            t.held[seat] = risk
            if slot.bot is None:  # the wallet shown in the page drops with the bet
                balance = p.BalanceUpdate(balance=t.bank.balance(slot.player.id))
                t.out.to_player(slot.player.id, balance)

    # ----- the log --------------------------------------------------------------------------------
    def flush_log(self) -> None:
        """Hand the buffered events to the bank now: the hand's settlement commits them first."""
        if self.log_buffer:
            t = self.t
            events, self.log_buffer = self.log_buffer, []
            t.bank.log_events([(t.id, hand, seq, event) for hand, seq, event in events])
            self.logged = True

    async def make_durable(self) -> None:
        """Write the command's events to the log (a group commit shared by every table)."""
        events, self.log_buffer = self.log_buffer, []
        if events or self.logged:
            self.logged = False
            await self.t.log_writer.write(self.t.id, events)

    # ----- moving on ------------------------------------------------------------------------------
    def advance(self) -> None:
        """Run chance, absent seats' defaults and bots until someone present must act."""
        t = self.t
        for _ in range(10_000):
            if t.state is None:
                return
            turn = t.game.to_act(t.state)
            if turn is None:
                self.finish()
                return
            if turn is CHANCE:
                assert self.hand_rng is not None
                self.apply(chance_event(t.game, t.state, self.hand_rng))
                continue
            if self._apply_removals():
                continue
            if not self._apply_absent_defaults(turn):
                break
        t.timers.update()
        t.bots.schedule()
        t.out.broadcast()

    def _apply_absent_defaults(self, turn: tuple[int, ...]) -> bool:
        """Apply the default of the first leaving or long-disconnected seat to act; True if one
        applied.

        A player whose connection drops keeps the turn clock (a reload or a short drop costs
        nothing): when a deadline passes while they are away, the game's ``"disconnect"``
        default applies (RULES.md §2.7, :meth:`TableClock.tick`); once they have been away for
        a whole turn timer, it applies at once whenever they must act.
        """
        t = self.t
        now = t.clock.now()
        for engine_seat in turn:
            reason = t.timers.absence(t.seats[t.hand_players[engine_seat]], now)
            if reason is not None and self.apply_default(engine_seat, reason):
                return True
        return False

    def _apply_removals(self) -> bool:
        """Apply the removal of the first leaving or long-disconnected seat, wherever the turn
        is, when the game's default for it is the seat's own ``anytime`` action (RULES.md §2.7:
        Liêng, Hold'em and Xì tố leaving, TLMN and Phỏm disconnections...); True if one
        applied. The seat's chips stay in the hand and it can win nothing."""
        t = self.t
        assert t.state is not None
        now = t.clock.now()
        for engine_seat, table_seat in enumerate(t.hand_players):
            reason = t.timers.absence(t.seats[table_seat], now)
            if reason is None:
                continue
            action = t.game.default_action(t.state, engine_seat, reason)
            if action is None or action.seat != engine_seat or not type(action).anytime:
                continue
            if t.game.is_legal(t.state, action):
                self.apply(action)
                return True
        return False

    # ----- the end -------------------------------------------------------------------------------
    def finish(self) -> None:
        """Settle the finished hand through the ledger and tell everyone its result."""
        t = self.t
        state = t.state
        assert state is not None
        settlement = t.game.settle(state)
        settlement.check()
        players = self.player_ids()
        record = t.game.public_record(state)
        event: dict[str, Any] = {
            "kind": "settle",
            "settlement": to_jsonable(settlement),
            "server_seed": self.server_seed,
        }
        if record is not None:
            event["record"] = record
        self.flush_log()
        try:
            t.bank.settle_hand(
                t.id,
                t.hand,
                players,
                settlement,
                staked=t.staked,
                game=t.game.info.id,
                event=event,
            )
        except Exception:
            log.exception("table %s: hand %s cannot be settled; voided", t.id, t.hand)
            self.void("void_settlement")
            return
        t.hands_completed += 1
        self._keep_chat()
        t.carry = t.game.carry(state)
        t.carry_players = players
        result = fast_jsonable(settlement)
        t.last_result = {"hand": t.hand, "settlement": result, "players": players}
        entry = None if record is None else {"hand": t.hand, **record}
        if entry is not None:
            t.recent.append(entry)
        self._tell_result(players, result, entry)
        if t.on_hand_end is not None:
            summary = {
                "hand": t.hand,
                "players": players,
                "state": state,
                "settlement": settlement,
                "server_seed": self.server_seed,
            }
            t.on_hand_end(t, summary)
        final_views = {id(conn): t.out.view_json(conn, state) for conn in t.watchers.values()}
        self.after_hand()
        t.out.broadcast(final_views)

    def _keep_chat(self) -> None:
        """The lines said during the settled hand go with it (for its seats' recall)."""
        t = self.t
        if t.chat.hand_lines:
            try:
                t.bank.keep_chat(t.id, t.hand, t.chat.hand_lines)
            except Exception:  # the hand is settled: a chat that cannot be kept is only lost
                log.exception("table %s: hand %s's chat cannot be kept", t.id, t.hand)
            t.chat.hand_lines = []

    def _tell_result(
        self,
        players: list[str | None],
        result: dict[str, Any],
        entry: dict[str, Any] | None,
        voided: str | None = None,
    ) -> None:
        """The ``result`` message, to every watcher with their own balance."""
        t = self.t
        seed = t.revealed_seed()
        words = None if voided is None else describe(voided)
        for conn in list(t.watchers.values()):
            message = p.Result(
                table=t.id,
                hand=t.hand,
                settlement=result,
                seats=players,
                server_seed=seed,
                balance=t.bank.balance(conn.player.id),
                voided=words,
                voided_text=voided,
                record=entry,
            )
            t.out.send(conn, message)

    def player_ids(self) -> list[str | None]:
        """Engine seat -> player id (None: an empty seat of a house game, or a seat gone)."""
        t = self.t
        players: list[str | None] = []
        for table_seat in t.hand_players:
            slot = t.seats[table_seat]
            in_hand = slot is not None and t.engine_seat(table_seat) is not None
            players.append(slot.player.id if slot is not None and in_hand else None)
        return players

    def void(self, reason: str) -> None:
        """Void the hand in progress: every hold released, nothing paid (RULES.md §2.8).

        ``reason`` is a text code (``void_fault``): the ledger and ``voided`` get its English,
        ``voided_text`` the code for the client to translate.
        """
        t = self.t
        players = self.player_ids()
        # The events applied so far go first, in the void's transaction: an ack (or a view)
        # already queued for this command names them, and leaves with the void's result.
        self.flush_log()
        t.bank.void_hand(t.id, t.hand, describe(reason))
        t.hands_voided += 1
        self._tell_result(players, {}, None, voided=reason)
        self.after_hand()
        t.out.broadcast({})

    def fault(self) -> None:
        """After an unexpected error with a hand open: void it (RULES.md §2.8)."""
        t = self.t
        if t.state is None:
            return
        try:
            self.void("void_fault")
        except Exception:
            log.exception("table %s: cannot void hand %s", t.id, t.hand)

    def clear(self) -> None:
        """No hand under way."""
        t = self.t
        t.seating.leave_quotes = {}
        t.state = None
        t.timers.clear()
        t.hand_players = []

    def after_hand(self) -> None:
        """Between hands: absent players go, stakes below the level are topped up."""
        t = self.t
        self.clear()
        t.levels.clear()  # the hand's XP: read the seats' levels again
        t.seating.between_hands()
        t.timers.reschedule()
        t.timers.schedule_start()
