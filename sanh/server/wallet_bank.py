"""The server's Bank port over the ledger: buy-ins, the holds of a hand, a seat out of a hand,
settlements, voids, the table log (see :mod:`sanh.server.wallet_services` for the whole picture).
"""

from __future__ import annotations

import dataclasses
import json
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sanh.games.base import Settlement
from sanh.ledger.model import (
    AccountSpec,
    Transfer,
    TransferCode,
    TxHandle,
    escrow_account,
    player_account,
    stake_account,
)
from sanh.ledger.settle import buy_in, cash_out
from sanh.ledger.store import StoreTx
from sanh.notation.jsonable import to_jsonable
from sanh.server import leaderboards
from sanh.server.eventlog import INSERT, EventLog
from sanh.server.services import HandOpen
from sanh.server.wallet_records import TableRecords, ledger_id

if TYPE_CHECKING:
    from sanh.server.wallet_services import WalletServices

__all__ = ["LedgerBank"]


def _log_entry(
    table: str, hand: int, seq: int, event: dict[str, Any]
) -> Callable[[TxHandle], None]:
    """A ledger batch's hook that writes one table-log entry in the batch's transaction."""
    payload = json.dumps(event)

    def write(tx: TxHandle) -> None:
        tx.execute(INSERT, (table, hand, seq, payload))

    return write


@dataclass
class _OpenHand:
    holds: dict[str, list[Transfer]]
    """Per player, the hand's holds (one at the opening, or one per bet in a house game)."""
    config: dict[str, Any]
    opened_at: float
    events: list[dict[str, Any]]
    paid: dict[str, int] = dataclasses.field(default_factory=dict)
    """Per player out of the hand, the loss already posted from its holds into the escrow."""


def _hand_writer(
    record: dict[str, Any],
    ids: list[int],
    settlement: Settlement,
    seq: int,
    settle: str,
    calendar_day: Callable[[float], str],
) -> Callable[[TxHandle], None]:
    """A settlement batch's hook that writes, in the batch's transaction, the settle event
    (at ``seq``), the hand's record (``hands``, for recall and replay), each seated
    player's net (``hand_players``) and the hand's leaderboard rows (on ``calendar_day``)."""
    deltas = settlement.deltas

    def write(tx: TxHandle) -> None:
        now = time.time_ns()
        tx.execute(INSERT, (record["table"], record["hand"], seq, settle))
        tx.execute(
            "INSERT INTO hands (id, table_id, hand, game, players, config, events,"
            " settlement, server_seed, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                record["id"],
                record["table"],
                record["hand"],
                record["game"],
                json.dumps(record["players"]),
                json.dumps(record["config"]),
                json.dumps(record["events"]),
                json.dumps(record["settlement"]),
                record["server_seed"],
                now,
            ),
        )
        for seat, player in enumerate(ids):
            if player < 0:
                continue  # an empty seat (house games) or a seat gone
            tx.execute(
                "INSERT INTO hand_players (player_id, hand_id, seat, net, finished_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (player, record["id"], seat, deltas[seat], now),
            )
        day = calendar_day(now / 1e9)
        leaderboards.record(tx, record["game"], day, ids, deltas, settlement.clan_xp)

    return write


class LedgerBank(TableRecords):
    """The server's :class:`~sanh.server.services.Bank` over the ledger."""

    def __init__(self, services: WalletServices) -> None:
        self.services = services
        self.ledger = services.ledger
        self.open: dict[tuple[str, int], _OpenHand] = {}
        self.events = EventLog(self.ledger.store)
        """The table event log, committed in groups (see :mod:`sanh.server.eventlog`)."""

    # ----- buy-in and cash-out ----------------------------------------------------------------
    def buy_in(self, table: str, player: str, amount: int) -> bool:
        """Wallet -> table stake."""
        result = buy_in(
            self.ledger,
            table_id=table,
            player_id=ledger_id(player),
            amount=amount,
            transfer_id=f"buyin:{table}:{player}:{secrets.token_hex(6)}",
        )
        return result.ok

    def cash_out(self, table: str, player: str) -> int:
        """Table stake -> wallet; returns the amount."""
        stake = self.table_stake(table, player)
        if stake <= 0:
            return 0
        result = cash_out(
            self.ledger,
            table_id=table,
            player_id=ledger_id(player),
            transfer_id=f"cashout:{table}:{player}:{secrets.token_hex(6)}",
        )
        return stake if result.ok else 0

    # ----- hands --------------------------------------------------------------------------------
    def open_hand(
        self, table: str, hand: int, caps: dict[str, int], event: dict[str, Any]
    ) -> HandOpen:
        """Hold each commitment (non-Tẩy games) and log the hand's opening event."""
        staked = bool(event.get("staked"))
        escrow = escrow_account(table)
        holds: dict[str, Transfer] = {}
        if not staked:
            for player, cap in caps.items():
                if cap > 0:
                    holds[player] = Transfer.hold(
                        f"{table}:h{hand}:hold:{player}",
                        player_account(ledger_id(player)),
                        escrow,
                        cap,
                        TransferCode.STAKE_HOLD,
                        memo=str(event.get("game", "")),
                    )
        log = _log_entry(table, hand, 0, event)

        result = self.events.run_with_log(
            lambda on_apply: self.ledger.submit(
                list(holds.values()),
                batch_id=f"{table}:h{hand}:open",
                accounts=[AccountSpec(escrow)],
                on_apply=on_apply,
            ),
            log,
            table=table,
        )
        if not result.ok:
            return HandOpen(held={}, refused=tuple(caps))
        self.open[(table, hand)] = _OpenHand(
            {player: [hold] for player, hold in holds.items()},
            event.get("config", {}),
            time.time(),
            [event],
        )
        return HandOpen(held=dict(caps), refused=())

    def join_hand(
        self, table: str, hand: int, seq: int, player: str, cap: int, event: dict[str, Any]
    ) -> bool:
        """Hold a player's cap for a hand under way (nothing when ``cap`` is 0: a house game
        holds each bet as it comes) and log ``event`` at ``seq`` with it."""
        opened = self._opened(table, hand)
        if player in opened.holds or cap < 0:
            return False
        escrow = escrow_account(table)
        transfers = []
        if cap > 0:
            transfers.append(self._hold(table, hand, player, cap, opened, escrow))
        log = _log_entry(table, hand, seq, event)

        result = self.events.run_with_log(
            lambda on_apply: self.ledger.submit(
                transfers,
                batch_id=f"{table}:h{hand}:join:{player}",
                accounts=[AccountSpec(escrow)],
                on_apply=on_apply,
            ),
            log,
            table=table,
        )
        if not result.ok:
            return False
        opened.holds[player] = transfers
        opened.events.append({**event, "seq": seq})
        return True

    def hold_bet(self, table: str, hand: int, player: str, amount: int) -> bool:
        """Hold ``amount`` more of the player's gold for a hand under way (a house game's
        bet); False, with nothing held, when the wallet cannot cover it."""
        if amount <= 0:
            return amount == 0
        opened = self._opened(table, hand)
        escrow = escrow_account(table)
        hold = self._hold(table, hand, player, amount, opened, escrow)
        result = self.events.run_with_log(
            lambda on_apply: self.ledger.submit(
                [hold], accounts=[AccountSpec(escrow)], on_apply=on_apply
            ),
            lambda tx: None,
            table=table,
        )
        if not result.ok:
            return False
        opened.holds.setdefault(player, []).append(hold)
        return True

    def held_in_hand(self, table: str, hand: int) -> dict[str, int]:
        """Per player, the gold held for a hand under way."""
        opened = self._opened(table, hand)
        return {p: sum(h.amount for h in holds) for p, holds in opened.holds.items() if holds}

    def out_hand(self, table: str, hand: int, player: str, loss: int) -> int:
        """A player is out of a hand under way for good and loses ``loss``: post that much of
        their holds into the escrow and release the rest, at once, in one batch (with the
        events logged so far). Returns the amount posted (the settlement counts it as paid);
        0 when the player holds nothing in the hand."""
        opened = self._opened(table, hand)
        holds = opened.holds.get(player) or []
        if not holds or player in opened.paid:
            return 0
        left = max(0, loss)
        transfers = []
        for index, hold in enumerate(holds):
            taken = min(left, hold.amount)
            role = f"{table}:h{hand}:out:{player}:{index}"
            if taken > 0:
                transfers.append(Transfer.post(role, hold.id, taken, memo=hold.memo))
            else:
                transfers.append(Transfer.void(role, hold.id, memo=hold.memo))
            left -= taken
        result = self.events.run_with_log(
            lambda on_apply: self.ledger.submit(
                transfers, batch_id=f"{table}:h{hand}:out:{player}", on_apply=on_apply
            ),
            lambda tx: None,
            table=table,
        )
        if not result.ok:
            raise RuntimeError(f"{table} hand {hand}: the holds of {player} stay: {result}")
        posted = max(0, loss) - left
        opened.holds[player] = []
        opened.paid[player] = posted
        return posted

    def _ledger_paid(self, table: str, hand: int) -> dict[str, int]:
        """Per player, what :meth:`out_hand` posted in a hand (read back after a restart)."""
        prefix = f"{table}:h{hand}:out:"
        with self.ledger.store.read() as tx:
            rows = tx.execute(
                "SELECT id, amount FROM transfers WHERE kind = 'post' AND substr(id, 1, ?) = ?",
                (len(prefix), prefix),
            )
        out: dict[str, int] = {}
        for transfer_id, amount in rows:
            owner = str(transfer_id)[len(prefix) :].split(":", 1)[0]
            out[owner] = out.get(owner, 0) + int(amount)
        return out

    def _hold(
        self, table: str, hand: int, player: str, amount: int, opened: _OpenHand, escrow: str
    ) -> Transfer:
        count = len(opened.holds.get(player, ()))
        suffix = f":{count}" if count else ""
        return Transfer.hold(
            f"{table}:h{hand}:hold:{player}{suffix}",
            player_account(ledger_id(player)),
            escrow,
            amount,
            TransferCode.STAKE_HOLD,
            memo=str(opened.events[0].get("game", "")) if opened.events else "",
        )

    def _opened(self, table: str, hand: int) -> _OpenHand:
        """The open hand's record; rebuilt from the ledger and the log after a restart."""
        opened = self.open.get((table, hand))
        if opened is None:
            events = self._events(table, hand)
            opened = _OpenHand(
                self._ledger_holds(table, hand),
                events[0].get("config", {}) if events else {},
                time.time(),
                events,
                self._ledger_paid(table, hand),
            )
            self.open[(table, hand)] = opened
        return opened

    def _ledger_holds(self, table: str, hand: int) -> dict[str, list[Transfer]]:
        """The open holds of a hand in the ledger, per player (ids ``...:hold:<player>[:n]``)."""
        prefix = f"{table}:h{hand}:hold:"
        out: dict[str, list[Transfer]] = {}
        for hold in self.ledger.open_holds(escrow_account(table)):
            if hold.id.startswith(prefix):
                owner = hold.id[len(prefix) :].split(":", 1)[0]
                out.setdefault(owner, []).append(hold)
        return out

    def clan_members(self, players: list[str]) -> set[str]:
        """Which of these players belong to a clan."""
        ids = [ledger_id(p) for p in players]
        clans = self.services.players.clans_of(ids)
        return {p for p, pid in zip(players, ids, strict=True) if pid in clans}

    def log_events(self, rows: list[tuple[str, int, int, dict[str, Any]]]) -> None:
        """Append events ``(table, hand, seq, event)`` to the tables' logs: durable when a later
        :meth:`sync` returns (or when a later settlement or void of the hand commits)."""
        for table, hand, seq, event in rows:
            self.events.append(table, hand, seq, json.dumps(event))
            opened = self.open.get((table, hand))
            if opened is not None:
                opened.events.append(event)

    async def sync(self) -> None:
        """Wait until every event logged so far is committed (one group commit)."""
        await self.events.sync()

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
        """Post the settlement, XP and the hand record in one transaction."""
        opened = self.open.pop((table, hand), None)
        ids = [ledger_id(p) if p is not None else -1 for p in players]
        holds: dict[int, Sequence[Transfer]] = {}
        by_owner = opened.holds if opened is not None else self._ledger_holds(table, hand)
        paid_by = opened.paid if opened is not None else self._ledger_paid(table, hand)
        paid: dict[int, int] = {}
        for seat, player in enumerate(players):
            if player is not None and by_owner.get(player):
                holds[seat] = list(by_owner[player])
            if player is not None and paid_by.get(player):
                paid[seat] = paid_by[player]
        accounts = (
            [stake_account(table, pid) for pid in ids]
            if staked
            else [player_account(pid) for pid in ids]
        )
        events = list(opened.events) if opened is not None else self._events(table, hand)
        config = events[0].get("config", {}) if events else {}
        seq = max((e.get("seq", 0) for e in events), default=0) + 1
        played_ms = int((time.time() - opened.opened_at) * 1000) if opened else 0
        record = {
            "id": f"{table}:{hand}",
            "table": table,
            "hand": hand,
            "game": game,
            "players": players,
            "config": config,
            "events": [e for e in events if e.get("kind") == "event"],
            "settlement": to_jsonable(settlement),
            "server_seed": event.get("server_seed"),
        }
        write = _hand_writer(
            record,
            ids,
            settlement,
            1_000_000 + seq,
            json.dumps(event),
            self.services.calendar_day,
        )
        result = self.events.run_with_log(
            lambda on_apply: self.services.players.record_hand(
                game,
                settlement,
                settlement_id=f"{table}:h{hand}:settle",
                table_id=table,
                players=ids,
                play_time_ms=played_ms,
                accounts=accounts,
                holds=holds,
                paid=paid,
                on_apply=on_apply,
            ),
            write,
            table=table,
        )
        if not result.ok:
            raise RuntimeError(f"settlement of {table} hand {hand} refused: {result}")

    def keep_chat(self, table: str, hand: int, lines: list[dict[str, Any]]) -> None:
        """Keep the chat lines said during a settled hand (``hand_chat``), for its seats'
        recall."""
        hand_id = f"{table}:{hand}"

        def work(tx: StoreTx) -> None:
            for seq, line in enumerate(lines):
                tx.execute(
                    "INSERT INTO hand_chat (hand_id, seq, line) VALUES (?, ?, ?)",
                    (hand_id, seq, json.dumps(line, ensure_ascii=False)),
                )

        self.ledger.store.run_write(work)

    def void_hand(self, table: str, hand: int, reason: str) -> None:
        """Release every hold of the hand and log why (a refund); a player out of the hand
        early gets back the loss already posted from their hold."""
        opened = self.open.pop((table, hand), None)
        by_owner = opened.holds if opened is not None else self._ledger_holds(table, hand)
        paid_by = opened.paid if opened is not None else self._ledger_paid(table, hand)
        holds = [h for player_holds in by_owner.values() for h in player_holds]
        log = _log_entry(table, hand, 2_000_000, {"kind": "void", "reason": reason})
        transfers = [Transfer.void(f"{h.id}:void", h.id) for h in holds]
        escrow = escrow_account(table)
        for player, amount in sorted(paid_by.items()):
            if amount > 0:
                transfers.append(
                    Transfer.single(
                        f"{table}:h{hand}:refund:{player}",
                        escrow,
                        player_account(ledger_id(player)),
                        amount,
                        TransferCode.REFUND,
                    )
                )

        self.events.run_with_log(
            lambda on_apply: self.ledger.submit(
                transfers,
                batch_id=f"{table}:h{hand}:void",
                on_apply=on_apply,
            ),
            log,
            table=table,
        )
