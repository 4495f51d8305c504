"""The table's recovery: rebuilding a table from its event log after a restart (RULES.md §2.8).

The hand counter continues from the log and the carried data (button, previous winner) from
the last settled hand. A hand interrupted before any card was dealt (or die rolled) is voided
and every hold released; a hand already dealt is rebuilt by replaying its logged events (each
chance event re-drawn from the hand's seed, which must agree), its players' seats restored,
and it is played on: players who come back continue, timeouts play those who do not. A hand
whose log cannot be replayed is void (an unrecoverable fault). Bots sit again in their seats;
table stakes of players not in the rebuilt hand go back to their wallets.

A seat restored after a restart counts as away from the hand's resumption
(:meth:`Recovery.resume_hand`): its player has one turn timer to come back, then the
``"timeout"`` default applies at once on every turn, so a recovered hand ends within its timers.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from sanh.cards.rng import ProvablyFairRng
from sanh.games.base import Roll, Shuffle
from sanh.games.driver import chance_event
from sanh.notation.history import config_from_json
from sanh.notation.jsonable import event_from_json
from sanh.server.eventlog import hand_lineup
from sanh.server.table_types import RECENT_RECORDS, SeatSlot
from sanh.texts import describe

if TYPE_CHECKING:
    from sanh.server.table import TableActor

__all__ = ["Recovery"]

log = logging.getLogger("sanh.table")


def _event_body(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k not in {"kind", "seq"}}


class Recovery:
    """Rebuilds one table from the log, at once or lazily at its first command."""

    def __init__(self, table: TableActor) -> None:
        self.t = table
        self.pending = False
        """Rebuild from the log before the first command (lazy restore: :meth:`now`)."""
        self.outcome: str | None = None
        """What the rebuild did (``clean``, ``resumed``, ``voided``, ``failed``)."""
        self.resumed_at: float | None = None
        """When a hand rebuilt after a restart first moved on (for the resume-time metric)."""

    def recover(self) -> str:
        """Rebuild after a restart (RULES.md §2.8); returns what was done."""
        t = self.t
        t.hand = t.bank.last_hand(t.id)
        t.recent.extend(t.bank.recent_records(t.id, RECENT_RECORDS))
        outcome = "clean"
        seated: set[str] = set()
        unfinished = t.bank.unfinished_hand(t.id)
        if unfinished is not None:
            hand, events = unfinished
            moves = [e for e in events if e.get("kind") == "event"]
            dealt = any(e.get("type") in {"shuffle", "roll"} for e in moves)
            if not dealt:
                t.bank.void_hand(t.id, hand, describe("void_interrupted"))
                t.hands_voided += 1
                outcome = "voided"
            else:
                try:
                    seated = self._rebuild(hand, events[0], moves, events)
                    outcome = "resumed"
                except Exception:
                    log.exception("table %s hand %s: cannot replay; voided", t.id, hand)
                    t.runner.clear()
                    t.bank.void_hand(t.id, hand, describe("void_no_replay"))
                    t.hands_voided += 1
                    outcome = "voided"
        if t.state is None:
            t.carry = self._last_carry()
            t.carry_players = t.bank.last_settled_players(t.id)
            if t.spec.tournament is None:
                seated |= self._keep_seats()
        self.seat_entrants()
        for index in list(t.spec.bots):
            if 0 <= index < len(t.seats) and t.seats[index] is None:
                t.bots.seat(index)
        if t.spec.tournament is None:
            t.spec.bots = [i for i, s in enumerate(t.seats) if s is not None and s.bot]
        if t.staked:
            for player_id in t.bank.stakes_at(t.id):
                if player_id not in seated and not t.is_bot_player(player_id):
                    t.bank.cash_out(t.id, player_id)
        return outcome

    def _rebuild(
        self,
        hand: int,
        opening: dict[str, Any],
        moves: list[dict[str, Any]],
        events: list[dict[str, Any]],
    ) -> set[str]:
        t = self.t
        game = t.game
        config = config_from_json(opening["config"], game)
        state = game.new_state(config)
        server_seed = opening.get("server_seed")
        rng = ProvablyFairRng(server_seed or "", t.id, hand)
        for event in moves:
            logged = event_from_json(game, _event_body(event))
            if isinstance(logged, Shuffle | Roll):
                # Re-draw to move the stream on; the log must agree with the seed.
                drawn = chance_event(game, state, rng)
                if drawn != logged:
                    raise ValueError(f"hand {hand}: a logged chance event disagrees with its seed")
            state = game.apply(state, logged)
        # Players who sat in during a house round's betting window (SitIn) are in the log too.
        lineup = hand_lineup(events)
        seated = self._restore_seats(lineup)
        t.state = state
        seq = max([0, *(int(e.get("seq", 0)) for e in events if "seq" in e)])
        t.runner.resume(server_seed, rng, seq)
        t.hand_players = list(opening["seats"])
        if t.banked:  # the bets' holds, as the ledger has them
            held = t.bank.held_in_hand(t.id, hand)
            t.held = {seat: held[pid] for seat, pid in lineup if pid is not None and pid in held}
        return seated

    def _restore_seats(self, lineup: list[tuple[int, str | None]]) -> set[str]:
        """Seat the rebuilt hand's players again; a person is away until they come back."""
        t = self.t
        seated: set[str] = set()
        for table_seat, player_id in lineup:
            if player_id is None:
                continue  # an empty seat of a house round
            info = t.bank.player_info(player_id)
            bot = t.bots.new_bot() if info.bot else None
            # A restored player is away until they come back: one turn timer from the
            # resumption (:meth:`resume_hand` starts it), then their timeout default.
            human = bot is None
            t.seats[table_seat] = SeatSlot(
                info,
                t.resume_token(table_seat, player_id),
                bot=bot,
                ready=True,
                restored=human,
                connected=not human,
                dropped_at=t.clock.now() if human else None,
            )
            seated.add(player_id)
        return seated

    def _keep_seats(self) -> set[str]:
        """Rebuilt between hands (on another node, or after a restart): the last hand's
        players keep their seats for the reconnection grace. Such a seat is dealt nothing
        until its player comes back (``join`` or ``resume``: it is not ``present``), and goes
        when the grace ends without them (a Tẩy seat with its stake, cashed out then)."""
        t = self.t
        now = t.clock.now()
        grace = t.settings.scaled(t.settings.reconnect_grace)
        kept: set[str] = set()
        for seat, player_id in t.bank.last_lineup(t.id):
            if not 0 <= seat < len(t.seats) or t.seats[seat] is not None or player_id in kept:
                continue
            if seat in t.spec.bots:
                continue  # the table's bots come back from its spec
            info = t.bank.player_info(player_id)
            if info.bot:
                continue
            if t.staked and t.bank.table_stake(t.id, player_id) <= 0:
                continue
            t.seats[seat] = SeatSlot(
                info,
                t.resume_token(seat, player_id),
                ready=True,
                restored=True,
                connected=False,
                dropped_at=now,
                away_deadline=now + grace,
            )
            kept.add(player_id)
        return kept

    def seat_entrants(self) -> None:
        """A tournament's table: seat each entrant with chips left where the tournament put
        them (a bot with its bot, a person away until they come: played by the timeout
        default meanwhile, RULES.md §2.7)."""
        t = self.t
        if t.spec.tournament is None:
            return
        t.spec.bots = []
        for index, player_id in enumerate(t.spec.entrants):
            if index >= len(t.seats) or t.seats[index] is not None:
                continue
            if t.bank.table_stake(t.id, player_id) <= 0:
                continue
            info = t.bank.player_info(player_id)
            bot = t.bots.new_bot() if info.bot else None
            t.seats[index] = SeatSlot(
                info,
                t.resume_token(index, player_id),
                bot=bot,
                ready=True,
                connected=bot is not None,
                dropped_at=t.clock.now() if bot is None else None,
            )

    def _last_carry(self) -> Any:
        t = self.t
        record = t.bank.last_settled_hand(t.id)
        if record is None:
            return None
        try:
            config, events = record
            state = t.game.replay(
                config_from_json(config, t.game),
                [event_from_json(t.game, _event_body(e)) for e in events],
            )
            return t.game.carry(state) if t.game.is_terminal(state) else None
        except Exception:
            log.exception("table %s: the last hand does not replay; no carry", t.id)
            return None

    def now(self) -> None:
        """Rebuild from the log, then play on (the first command of a restored table)."""
        t = self.t
        self.pending = False
        try:
            self.outcome = self.recover()
        except Exception:
            log.exception("table %s cannot be restored", t.id)
            self.outcome = "failed"
            t.runner.clear()
            return
        if t.state is not None:
            self.resume_hand()
        else:
            t.timers.reschedule()  # the kept seats' graces
            t.timers.schedule_start()

    def resume_hand(self) -> None:
        """Play on the rebuilt hand: restored seats' graces run from now."""
        t = self.t
        self.resumed_at = t.clock.now()
        for slot in t.seats:
            if slot is not None and slot.restored:
                slot.dropped_at = self.resumed_at  # their grace runs from the resumption
        t.runner.advance()
