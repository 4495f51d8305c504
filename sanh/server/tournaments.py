"""Sit & Go tournaments in the hall: their gold in the ledger, their table like any other.

:class:`Tournaments` keeps every Sit & Go (:mod:`sanh.tournaments.sitgo`) in the
``tournaments`` table, each change written in the same transaction as the ledger batch that
goes with it (:mod:`sanh.ledger.tourney`): a registration with its buy-in and fee, an
unregistration or a cancellation with its refunds, the end with its prizes and the house's
fee. A replayed request changes nothing: registering again while registered answers the
tournament as it is, and each batch's id is fixed by the tournament, the player and the entry.

When the last seat is taken the tournament starts: the hall opens its table
(``TableSpec.tournament``), a :class:`~sanh.server.table.TableActor` driven by the same
engine code as every table, whose bank is a :class:`ChipBank`: the stakes are the
tournament's chips, not gold. The chip bank writes each hand's opening, settlement and void
to the table's event log (so :mod:`~sanh.server.table_recovery` rebuilds a hand under way after
a crash, as at any table) and each settlement's new stacks into the tournament, in one
transaction: after a restart :meth:`Tournaments.resume` opens the table of every running
tournament again and the table resumes where its log ends. Between hands a player without
chips is out (the seat goes); the blinds follow the hands played.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sanh.games.base import Settlement
from sanh.ledger import tourney
from sanh.ledger.model import TxHandle
from sanh.notation.jsonable import to_jsonable
from sanh.server.eventlog import INSERT
from sanh.server.services import HandOpen, PlayerInfo
from sanh.server.table_types import TableSpec
from sanh.tournaments import sitgo as sg
from sanh.tournaments.sitgo import SitGo, SitGoError, SitGoSpec

if TYPE_CHECKING:
    from sanh.server.hall import Hall
    from sanh.server.wallet_bank import LedgerBank

__all__ = ["ChipBank", "Tournaments"]

_UPSERT = (
    "INSERT INTO tournaments (id, status, state, created_at) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (id) DO UPDATE SET status = excluded.status, state = excluded.state"
)
_HAND = (
    "INSERT INTO hands (id, table_id, hand, game, players, config, events, settlement,"
    " server_seed, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def _write(sitgo: SitGo) -> Callable[[TxHandle], None]:
    payload = json.dumps(sitgo.to_json())
    created = int(sitgo.created_at * 1e9)

    def write(tx: TxHandle) -> None:
        tx.execute(_UPSERT, (sitgo.id, sitgo.status, payload, created))

    return write


def _copy(sitgo: SitGo) -> SitGo:
    return SitGo.from_json(json.loads(json.dumps(sitgo.to_json())))


class Tournaments:
    """Every Sit & Go of a hall (see the module)."""

    def __init__(self, hall: Hall, bank: LedgerBank) -> None:
        self.hall = hall
        self.bank = bank
        self.ledger = bank.ledger
        self.items: dict[str, SitGo] = {}
        with self.ledger.store.read() as tx:
            rows = tx.execute("SELECT state FROM tournaments ORDER BY created_at, id")
        for (state,) in rows:
            sitgo = SitGo.from_json(json.loads(state))
            self.items[sitgo.id] = sitgo
        hall.table_bank = self._table_bank

    # ----- reading ------------------------------------------------------------------------
    def get(self, tournament: str) -> SitGo:
        """The tournament, or :class:`SitGoError` ``tournament_unknown``."""
        found = self.items.get(tournament)
        if found is None:
            raise SitGoError("tournament_unknown")
        return found

    def listing(self) -> list[SitGo]:
        """Every tournament, newest first."""
        return sorted(self.items.values(), key=lambda s: (-s.created_at, s.id))

    # ----- registration -------------------------------------------------------------------
    def create(self, creator: str, spec: SitGoSpec, bots: int = 0) -> SitGo:
        """A new Sit & Go, with ``bots`` of the hall's bots registered (it starts if full)."""
        if not 0 <= bots <= spec.seats:
            raise SitGoError("tournament_seats")
        sitgo = SitGo("sg" + secrets.token_hex(4), spec, creator, created_at=time.time())
        self.ledger.store.run_write(_write(sitgo))
        self.items[sitgo.id] = sitgo
        for index in range(bots):
            bot = self.bank.bot_player(f"sitgo:{index + 1}")
            self.register(sitgo.id, bot.id)
        return self.items[sitgo.id]

    def register(self, tournament: str, player: str) -> SitGo:
        """Enter ``player``: the buy-in and fee held in the escrow (a replay changes nothing);
        the tournament starts when this fills it."""
        sitgo = self.get(tournament)
        if player in sitgo.entrants and sitgo.status == "registering":
            return sitgo  # a replayed request
        trial = _copy(sitgo)
        full = sg.register(trial, player)
        spec = trial.spec
        entry = trial.entries[player]
        result = tourney.register(
            self.ledger, trial.id, int(player), entry, spec.buy_in, spec.fee, _write(trial)
        )
        if not result.ok:
            raise SitGoError("tournament_no_gold")
        self.items[trial.id] = trial
        if full:
            self._start(trial)
        return self.items[trial.id]

    def unregister(self, tournament: str, player: str) -> SitGo:
        """Withdraw before the start: both paid back (a replay changes nothing)."""
        sitgo = self.get(tournament)
        if player not in sitgo.entrants and sitgo.status == "registering":
            return sitgo  # already withdrawn
        trial = _copy(sitgo)
        sg.unregister(trial, player)
        spec = trial.spec
        entry = trial.entries[player]
        result = tourney.unregister(
            self.ledger, trial.id, int(player), entry, spec.buy_in, spec.fee, _write(trial)
        )
        if not result.ok:
            raise RuntimeError(f"tournament {trial.id}: refund refused: {result}")
        self.items[trial.id] = trial
        return trial

    def cancel(self, tournament: str, player: PlayerInfo, admin: bool = False) -> SitGo:
        """Call off before the start (its creator or an admin): every entry paid back."""
        sitgo = self.get(tournament)
        if sitgo.status == "cancelled":
            return sitgo
        if player.id != sitgo.creator and not admin:
            raise SitGoError("tournament_not_yours")
        if sitgo.status != "registering":
            raise SitGoError("tournament_not_registering")
        trial = _copy(sitgo)
        trial.status = "cancelled"
        spec = trial.spec
        players = [int(p) for p in trial.entrants]
        result = tourney.cancel(
            self.ledger, trial.id, players, spec.buy_in, spec.fee, _write(trial)
        )
        if not result.ok:
            raise RuntimeError(f"tournament {trial.id}: refunds refused: {result}")
        self.items[trial.id] = trial
        return trial

    # ----- the table ----------------------------------------------------------------------
    def _start(self, sitgo: SitGo) -> None:
        sg.start(sitgo, f"{sitgo.id}-t")
        self.ledger.store.run_write(_write(sitgo))
        self._open_table(sitgo)

    def _spec(self, sitgo: SitGo) -> TableSpec:
        spec = sitgo.spec
        return TableSpec(
            game=spec.game,
            stake=spec.stake,
            seats=spec.seats,
            system=True,
            name=f"Sit & Go {sitgo.id}",
            # Tiến lên: a seat with any chips is dealt in (a loss is capped at the stack): no
            # multiple of the stake is asked of it, as the game asks of gold
            options={"platform.min_balance_multiple": 0} if spec.game not in sg.POKER else {},
            tournament=sitgo.id,
            entrants=list(sitgo.entrants),
        )

    def _blinds(self, sitgo: SitGo, spec: TableSpec) -> None:
        """The next hand's blinds (poker) on the table's spec."""
        if sitgo.spec.game in sg.POKER:
            small, big = sg.blinds(sitgo)
            assert big == 2 * small  # the games' default big blind: twice the stake
            spec.stake = small

    def _table_bank(self, spec: TableSpec) -> ChipBank:
        sitgo = self.get(spec.tournament or "")
        self._blinds(sitgo, spec)
        return ChipBank(self, sitgo.id)

    def _open_table(self, sitgo: SitGo) -> None:
        assert sitgo.table is not None
        if sitgo.table in self.hall.tables:
            return
        actor = self.hall._add(sitgo.table, self._spec(sitgo), start=False)
        actor.restorer.seat_entrants()
        actor.start()

    def resume(self) -> None:
        """After a start: open the table of every running tournament the hall has not
        restored from its saved tables (the tables it has rebuild their hands themselves)."""
        from sanh.server.hall import TableElsewhere

        for sitgo in self.items.values():
            if sitgo.status == "running":
                try:
                    self._open_table(sitgo)
                except TableElsewhere:
                    continue  # another node of the cluster plays it

    def hand_settled(
        self, tournament: str, deltas: dict[str, int], write: Callable[[TxHandle], None]
    ) -> None:
        """A hand's chips: the new stacks, the players out, the end and its prizes, with the
        hand's own log entries (``write``) in the same transaction."""
        trial = _copy(self.get(tournament))
        sg.after_hand(trial, deltas)
        if trial.status != "finished":
            save = _write(trial)

            def both(tx: TxHandle) -> None:
                write(tx)
                save(tx)

            self.ledger.store.run_write(both)
        else:
            paid, breakage = tourney.prizes(trial.pool, sg.payout_shares(len(trial.entrants)))
            trial.prizes, trial.breakage = list(paid), breakage
            winners = [(int(p), prize) for p, prize in zip(trial.places, paid, strict=False)]
            save = _write(trial)
            table = trial.table

            def end(tx: TxHandle) -> None:
                write(tx)
                save(tx)
                tx.execute("UPDATE hall_tables SET closed = 1 WHERE id = ?", (table,))

            fees = trial.spec.fee * len(trial.entrants)
            result = tourney.pay_out(self.ledger, trial.id, winners, fees, breakage, end)
            if not result.ok:
                raise RuntimeError(f"tournament {trial.id}: the payout was refused: {result}")
        self.items[trial.id] = trial
        actor = self.hall.tables.get(trial.table or "")
        if actor is not None:
            self._blinds(trial, actor.spec)


class ChipBank:
    """A tournament table's :class:`~sanh.server.services.Bank`: the stakes are the
    tournament's chips; the log, the players and the bots are the hall's (``LedgerBank``)."""

    def __init__(self, tournaments: Tournaments, tournament: str) -> None:
        self.tournaments = tournaments
        self.tournament = tournament
        self.hall_bank = tournaments.bank
        self.events = tournaments.bank.events

    def _chips(self, player: str) -> int:
        sitgo = self.tournaments.get(self.tournament)
        return sitgo.stacks.get(player, 0) if sitgo.status == "running" else 0

    def _log(self, write: Callable[[TxHandle], None]) -> None:
        store = self.hall_bank.ledger.store
        self.events.run_with_log(lambda on_apply: store.run_write(on_apply), write)

    # ----- chips ----------------------------------------------------------------------------
    def balance(self, player: str) -> int:
        """The player's chips."""
        return self._chips(player)

    def table_stake(self, table: str, player: str) -> int:
        """The player's chips (the stake of a Tẩy game)."""
        return self._chips(player)

    def buy_in(self, table: str, player: str, amount: int) -> bool:
        """Nobody buys in: every entrant has its chips."""
        return False

    def cash_out(self, table: str, player: str) -> int:
        """Chips are never gold."""
        return 0

    def stakes_at(self, table: str) -> list[str]:
        """No gold stakes at a tournament table."""
        return []

    def open_hand(
        self, table: str, hand: int, caps: dict[str, int], event: dict[str, Any]
    ) -> HandOpen:
        """Log the hand's opening (the caps are the stacks: nothing to hold)."""
        payload = json.dumps(event)

        def write(tx: TxHandle) -> None:
            tx.execute(INSERT, (table, hand, 0, payload))

        self._log(write)
        return HandOpen(held=dict(caps), refused=())

    def join_hand(
        self, table: str, hand: int, seq: int, player: str, cap: int, event: dict[str, Any]
    ) -> bool:
        """No house games in tournaments."""
        return False

    def hold_bet(self, table: str, hand: int, player: str, amount: int) -> bool:
        """No house games in tournaments."""
        return False

    def out_hand(self, table: str, hand: int, player: str, loss: int) -> int:
        """A seat out early: its loss is counted in the settlement's deltas."""
        return 0

    def held_in_hand(self, table: str, hand: int) -> dict[str, int]:
        """Nothing is held."""
        return {}

    def clan_members(self, players: list[str]) -> set[str]:
        """No clan shares of tournament chips."""
        return set()

    def settle_hand(
        self,
        table: str,
        hand: int,
        players: list[str | None],
        settlement: Settlement,
        *,
        staked: bool,
        game: str,
        event: dict[str, Any],
    ) -> None:
        """The hand's chips into the tournament, with its settle event and hand record."""
        deltas: dict[str, int] = {}
        for seat, player in enumerate(players):
            if player is not None:
                deltas[player] = deltas.get(player, 0) + settlement.deltas[seat]
        events = self.hall_bank._events(table, hand)
        config = events[0].get("config", {}) if events else {}
        seq = max((int(e.get("seq", 0)) for e in events), default=0) + 1
        settle = json.dumps(event)
        record = (
            f"{table}:{hand}",
            table,
            hand,
            game,
            json.dumps(players),
            json.dumps(config),
            json.dumps([e for e in events if e.get("kind") == "event"]),
            json.dumps(to_jsonable(settlement)),
            event.get("server_seed"),
            time.time_ns(),
        )

        def write(tx: TxHandle) -> None:
            tx.execute(INSERT, (table, hand, 1_000_000 + seq, settle))
            tx.execute(_HAND, record)

        self.tournaments.hand_settled(self.tournament, deltas, write)

    def void_hand(self, table: str, hand: int, reason: str) -> None:
        """Log the void (no chip moved)."""
        payload = json.dumps({"kind": "void", "reason": reason})

        def write(tx: TxHandle) -> None:
            tx.execute(INSERT, (table, hand, 2_000_000, payload))

        self._log(write)

    # ----- the hall's log, players and bots -------------------------------------------------
    def log_events(self, rows: list[tuple[str, int, int, dict[str, Any]]]) -> None:
        """The hall's event log."""
        self.hall_bank.log_events(rows)

    async def sync(self) -> None:
        """The hall's event log."""
        await self.hall_bank.sync()

    def keep_chat(self, table: str, hand: int, lines: list[dict[str, Any]]) -> None:
        """The hall's."""
        self.hall_bank.keep_chat(table, hand, lines)

    def save_table(self, table: str, spec: dict[str, Any]) -> None:
        """The hall's."""
        self.hall_bank.save_table(table, spec)

    def saved_tables(self) -> list[tuple[str, dict[str, Any]]]:
        """The hall's."""
        return self.hall_bank.saved_tables()

    def last_hand(self, table: str) -> int:
        """The hall's."""
        return self.hall_bank.last_hand(table)

    def unfinished_hand(self, table: str) -> tuple[int, list[dict[str, Any]]] | None:
        """The hall's."""
        return self.hall_bank.unfinished_hand(table)

    def last_settled_hand(self, table: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """The hall's."""
        return self.hall_bank.last_settled_hand(table)

    def recent_records(self, table: str, limit: int) -> list[dict[str, Any]]:
        """The hall's."""
        return self.hall_bank.recent_records(table, limit)

    def last_lineup(self, table: str) -> list[tuple[int, str]]:
        """The hall's."""
        return self.hall_bank.last_lineup(table)

    def last_settled_players(self, table: str) -> list[str | None] | None:
        """The hall's."""
        return self.hall_bank.last_settled_players(table)

    def player_info(self, player_id: str) -> PlayerInfo:
        """The hall's."""
        return self.hall_bank.player_info(player_id)

    def levels(self, players: list[str]) -> dict[str, int]:
        """The hall's."""
        return self.hall_bank.levels(players)

    def bot_player(self, label: str) -> PlayerInfo:
        """The hall's."""
        return self.hall_bank.bot_player(label)
