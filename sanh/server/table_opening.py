"""Opening a hand: its lineup, what each player can commit, its config, its seed and holds.

:meth:`HandOpener.open` is the first half of the hand runner's work
(:mod:`sanh.server.table_hand`): from the ready seats it makes the hand's engine seats (every
table seat in a house game), each player's cap (the Tẩy stake; the balance bounded by the
game's :meth:`~sanh.games.base.Game.max_loss`; a house game's whole balance, held bet by bet),
the config with the carried data renumbered by player, the provably fair seed, and has the
bank hold the commitments with the hand's ``open`` log entry. Nothing changes if any of it is
refused: the hand waits for the next pause.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING, Any

from sanh.cards.rng import ProvablyFairRng, commitment_of, new_server_seed
from sanh.errors import ConfigError
from sanh.games.base import Game, SitIn, TableConfig
from sanh.notation.history import config_to_json as history_config
from sanh.server.table_types import SeatSlot

if TYPE_CHECKING:
    from sanh.server.table import TableActor

__all__ = ["HandOpener"]

log = logging.getLogger("sanh.table")

Opened = tuple[Any, list[int], str, ProvablyFairRng]
"""A hand just opened: its state, its lineup (engine seat -> table seat), seed and RNG."""


class HandOpener:
    """Works out and opens the next hand of one table."""

    def __init__(self, table: TableActor) -> None:
        self.t = table

    def _lineup(self, ready: list[int]) -> tuple[list[int], int | None] | None:
        """The hand's engine seats (table seats) and its bank seat, or None (no hand yet)."""
        info = self.t.game.info
        if self.t.banked:
            return self._house_lineup(ready)
        if len(ready) < info.seats_min:
            return None
        return ready[: info.seats_max], None

    def open(self) -> Opened | None:
        """Open the next hand if the ready seats allow one (None: not now; the clock tries
        again after the pause when the engine or the bank refused it)."""
        t = self.t
        ready = t.seating.ready_seats()
        opening = self._lineup(ready)
        if opening is None:
            return None
        lineup, host_seat = opening
        dealt = set(ready)
        players = [t.seats[i] if i in dealt else None for i in lineup]
        config, caps = self._config(players, host_seat)
        t.hand += 1
        t.chat.hand_lines = []
        seed = new_server_seed()
        if t.rng_factory is not None:
            seed = f"{t.id}:{t.hand}"
        try:
            state, config = self._new_hand_state(config)
        except Exception:
            log.exception("table %s: cannot start a hand", t.id)
            t.hand -= 1
            t.timers.schedule_start()  # again after the pause (a seat back may make it possible)
            return None
        ids = [s.player.id if s is not None else None for s in players]
        opened = t.bank.open_hand(
            t.id,
            t.hand,
            {} if t.banked else caps,  # a house game holds each bet as it comes
            {
                "kind": "open",
                "game": t.game.info.id,
                "staked": t.staked,
                "players": ids,
                "seats": lineup,
                "config": history_config(config),
                "commitment": commitment_of(seed),
                "server_seed": seed,
            },
        )
        if opened.refused:
            log.warning("table %s: commitments refused for %s", t.id, opened.refused)
            t.hand -= 1
            t.timers.schedule_start()
            return None
        return state, lineup, seed, ProvablyFairRng(seed, t.id, t.hand)

    def _config(
        self, players: list[SeatSlot | None], host_seat: int | None
    ) -> tuple[TableConfig, dict[str, int]]:
        """The new hand's config (stacks: each player's cap; host, carry, clans) and the
        caps by player."""
        t = self.t
        balances = {
            s.player.id: t.bank.balance(s.player.id)
            for s in players
            if s is not None and not t.staked
        }
        bound = self._loss_bound(players, balances)
        ids = [s.player.id if s is not None else None for s in players]
        caps = {
            s.player.id: self.hand_cap(s, bound, balances.get(s.player.id))
            for s in players
            if s is not None
        }
        host = 0
        for engine_seat, slot in enumerate(players):
            if slot is not None and slot.player.id == t.spec.host:
                host = engine_seat
        if host_seat is not None:
            host = host_seat
        clans = t.bank.clan_members([i for i in ids if i is not None])
        config = TableConfig.make(
            seats=len(players),
            stake=t.spec.stake,
            stacks=[caps[i] if i is not None else 0 for i in ids],
            options=dict(t.spec.options),
            host=host,
            carry=self._carry_for(ids),
            clan_members=[i is not None and i in clans for i in ids],
        )
        return config, caps

    def _carry_for(self, ids: list[str | None]) -> Any:
        """The carry for a new hand whose engine seats hold the players ``ids``: the last
        settled hand's carry with its engine seats renumbered by player
        (:meth:`~sanh.games.base.Game.remap_carry`), so a carried winner, banker or gà member
        stays the same player when someone left or sat down between hands."""
        t = self.t
        if t.carry is None or t.carry_players is None:
            return t.carry
        new_seat = {pid: seat for seat, pid in enumerate(ids) if pid is not None}
        seats = {
            old: new_seat.get(pid) if pid is not None else None
            for old, pid in enumerate(t.carry_players)
        }
        return t.game.remap_carry(t.carry, seats)

    def _new_hand_state(self, config: TableConfig) -> tuple[Any, TableConfig]:
        """The new hand's state and config. A carry that still does not fit the lineup (it
        cannot once remapped by player, :meth:`_carry_for`; a last resort) is dealt as if every
        seat it names had left (``remap_carry(carry, {})``: a gà pot keeps its money). Only a
        game that does not remap its carry (its carry holds no money) has it dropped; for
        another the hand does not start (raised) rather than lose a carried pot."""
        t = self.t
        game = t.game
        try:
            return game.new_state(config), config
        except ConfigError:
            if config.carry is None:
                raise
            log.warning("table %s: the carry does not fit this lineup", t.id)
            remapping = type(game).remap_carry is not Game.remap_carry
            fallback = game.remap_carry(config.carry, {}) if remapping else None
            config = dataclasses.replace(config, carry=fallback)
            state = game.new_state(config)  # raises for a money carry: the hand waits
            if not remapping:
                t.carry = None
            return state, config

    def hand_cap(self, slot: SeatSlot, bound: int | None = None, balance: int | None = None) -> int:
        """What the player can commit in the hand: the table stake (Tẩy); in a house game
        the whole balance (not held: each bet is held as it comes); otherwise the balance, at
        most ``bound``, the most the hand can cost a seat (:meth:`_loss_bound`), held for the
        hand: holding that is the same as capping debts at the whole balance (RULES.md §2.6)."""
        t = self.t
        if t.staked:
            return t.bank.table_stake(t.id, slot.player.id)
        if balance is None:
            balance = t.bank.balance(slot.player.id)
        if t.banked and t.player_banked and slot.player.id == t.spec.host:
            return min(balance, t.spec.bank)  # the bank the banker chose (RULES.md §5.7)
        if t.banked:
            return balance  # what the player may bet; each bet is held as it comes
        return balance if bound is None else min(balance, bound)

    def _loss_bound(self, players: list[SeatSlot | None], balances: dict[str, int]) -> int | None:
        """``Game.max_loss`` of a non-Tẩy player-vs-player hand with these engine seats, read
        with their ``balances`` as stacks; ``None``: no bound (or options the game refuses)."""
        t = self.t
        if t.staked or t.banked:
            return None
        stacks = [balances[s.player.id] if s is not None else 0 for s in players]
        config = TableConfig.make(
            seats=len(players), stake=t.spec.stake, stacks=stacks, options=t.spec.options
        )
        try:
            return t.game.max_loss(config)
        except ConfigError:
            return None

    def _house_lineup(self, ready: list[int]) -> tuple[list[int], int | None] | None:
        """A house round's engine seats (every table seat) and its bank seat, or None.

        The round runs with or without players; a player-hosted Tài Xỉu table needs its host,
        the bank, seated and able to pay (RULES.md §5.7).
        """
        t = self.t
        lineup = list(range(len(t.seats)))
        if not t.player_banked:
            return lineup, None
        host = t.banker()
        if host is None or host not in ready:
            return None
        slot = t.seats[host]
        if slot is None or self.hand_cap(slot) <= 0:
            return None
        return lineup, host

    def sit_in_action(self, seat: int, slot: SeatSlot) -> SitIn | None:
        """The :class:`SitIn` giving a player who sat down in a house round's betting window
        their stack (None: they cannot bet in this round)."""
        t = self.t
        cap = self.hand_cap(slot)
        clan = slot.player.id in t.bank.clan_members([slot.player.id])
        action = SitIn(None, chair=seat, stack=cap, clan=clan)
        if cap <= 0 or not t.game.is_legal(t.state, action):
            return None
        return action
