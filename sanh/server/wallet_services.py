"""The hall server's services over the wallet: sessions, accounts, money, event log, recall.

Every chip moves through :class:`sanh.ledger.book.Ledger`:

* a non-Tẩy hand holds each player's commitment (a pending transfer wallet -> table escrow)
  when it opens (a house game holds each bet as it is placed instead, ``hold_bet``: it needs
  only the amount bet); a seat that goes out of a hand for good (a Liêng fold, ``out_hand``)
  has its loss posted from its hold at once and the rest released; the settlement is one
  linked batch (``record_hand``) that posts what each
  seat lost from its hold, releases the rest, pays winners, the house, fees, breakage and
  clan treasuries, and records XP;
* in Tẩy games the buy-in moves gold to ``stake:<table>:<player>``, hands settle between those
  stake accounts, and leaving cashes the stake out.

The table event log (``table_events``), the finished hands (``hands``, for recall and replay)
and the tables (``hall_tables``) live in the same database; an event with a money effect is
written inside the ledger transaction that applies it (the batch's ``on_apply``), the others
in their own transaction before anyone is told of them.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher

from sanh.games import find_game
from sanh.games._texts import text
from sanh.games.base import Settlement
from sanh.ledger.book import Ledger
from sanh.ledger.model import (
    ISSUER,
    PROMOTIONS,
    AccountSpec,
    ResultCode,
    Transfer,
    TransferCode,
    TxHandle,
    escrow_account,
    player_account,
    stake_account,
)
from sanh.ledger.players import Hall as Players
from sanh.ledger.players import HallConfig, PlayerCode, PlayerRefused, check_password
from sanh.ledger.settle import buy_in, cash_out
from sanh.ledger.store import StoreTx
from sanh.notation.history import config_from_json
from sanh.notation.jsonable import to_jsonable
from sanh.server import leaderboards
from sanh.server.eventlog import INSERT, EventLog
from sanh.server.recall import recall_hand
from sanh.server.services import DailyRefused, HandOpen, PlayerInfo

__all__ = ["LedgerBank", "WalletServices"]

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS hall_sessions ("
    " token_hash TEXT PRIMARY KEY, player_id BIGINT NOT NULL, created_at BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS hall_bots (player_id BIGINT PRIMARY KEY, label TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS hall_tables ("
    " id TEXT PRIMARY KEY, spec TEXT NOT NULL, closed INTEGER NOT NULL DEFAULT 0,"
    " created_at BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS table_events ("
    " table_id TEXT NOT NULL, hand INTEGER NOT NULL, seq INTEGER NOT NULL, payload TEXT NOT NULL,"
    " PRIMARY KEY (table_id, hand, seq))",
    "CREATE TABLE IF NOT EXISTS hands ("
    " id TEXT PRIMARY KEY, table_id TEXT NOT NULL, hand INTEGER NOT NULL, game TEXT NOT NULL,"
    " players TEXT NOT NULL, config TEXT NOT NULL, events TEXT NOT NULL,"
    " settlement TEXT NOT NULL, server_seed TEXT, finished_at BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS hand_players ("
    " player_id BIGINT NOT NULL, hand_id TEXT NOT NULL, seat INTEGER NOT NULL,"
    " net BIGINT NOT NULL, finished_at BIGINT NOT NULL, PRIMARY KEY (player_id, hand_id))",
    "CREATE INDEX IF NOT EXISTS hand_players_recent ON hand_players (player_id, finished_at)",
    "CREATE INDEX IF NOT EXISTS hands_by_table ON hands (table_id, hand)",
    "CREATE TABLE IF NOT EXISTS hand_chat ("
    " hand_id TEXT NOT NULL, seq INTEGER NOT NULL, line TEXT NOT NULL,"
    " PRIMARY KEY (hand_id, seq))",
)

_TOKEN_HASHER = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)
"""Hashes random guest tokens (high entropy: no need for a slow password hash)."""

BOT_BANKROLL = 100_000_000
"""A bot's wallet is topped up to this (1,000,000 gold) from the issuer when it runs low."""


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _pid(player: str) -> int:
    return int(player)


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


class LedgerBank:
    """The server's :class:`~sanh.server.services.Bank` over the ledger."""

    def __init__(self, services: WalletServices) -> None:
        self.services = services
        self.ledger = services.ledger
        self.open: dict[tuple[str, int], _OpenHand] = {}
        self.events = EventLog(self.ledger.store)
        """The table event log, committed in groups (see :mod:`sanh.server.eventlog`)."""

    # ----- balances ---------------------------------------------------------------------------
    def balance(self, player: str) -> int:
        """Available gold in the player's wallet."""
        account = self.ledger.account(player_account(_pid(player)))
        return account.available if account is not None else 0

    def table_stake(self, table: str, player: str) -> int:
        """The player's stake at a Tẩy table."""
        account = self.ledger.account(stake_account(table, _pid(player)))
        return account.available if account is not None else 0

    def buy_in(self, table: str, player: str, amount: int) -> bool:
        """Wallet -> table stake."""
        result = buy_in(
            self.ledger,
            table_id=table,
            player_id=_pid(player),
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
            player_id=_pid(player),
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
                        player_account(_pid(player)),
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
            player_account(_pid(player)),
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
        ids = [_pid(p) for p in players]
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
        ids = [_pid(p) if p is not None else -1 for p in players]
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
        settle_payload = json.dumps(event)

        def write(tx: TxHandle) -> None:
            now = time.time_ns()
            tx.execute(INSERT, (table, hand, 1_000_000 + seq, settle_payload))
            tx.execute(
                "INSERT INTO hands (id, table_id, hand, game, players, config, events,"
                " settlement, server_seed, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    record["id"],
                    table,
                    hand,
                    game,
                    json.dumps(players),
                    json.dumps(config),
                    json.dumps(record["events"]),
                    json.dumps(record["settlement"]),
                    record["server_seed"],
                    now,
                ),
            )
            for seat, pid in enumerate(ids):
                if pid < 0:
                    continue  # an empty seat (house games) or a seat gone
                tx.execute(
                    "INSERT INTO hand_players (player_id, hand_id, seat, net, finished_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (pid, record["id"], seat, settlement.deltas[seat], now),
                )
            day = self.services.calendar_day(now / 1e9)
            leaderboards.record(tx, game, day, ids, settlement.deltas, settlement.clan_xp)

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
                        player_account(_pid(player)),
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
        )

    def _events(self, table: str, hand: int) -> list[dict[str, Any]]:
        self.events.flush()
        with self.ledger.store.read() as tx:
            rows = tx.execute(
                "SELECT seq, payload FROM table_events WHERE table_id = ? AND hand = ?"
                " ORDER BY seq",
                (table, hand),
            )
        out = []
        for seq, payload in rows:
            event = json.loads(payload)
            event["seq"] = int(seq)
            out.append(event)
        return out

    # ----- tables and recovery -------------------------------------------------------------------
    def save_table(self, table: str, spec: dict[str, Any]) -> None:
        """Record a table (its spec) so that a restart rebuilds it."""
        payload = json.dumps(spec)

        def work(tx: StoreTx) -> None:
            if tx.execute("SELECT 1 FROM hall_tables WHERE id = ?", (table,)):
                tx.execute("UPDATE hall_tables SET spec = ? WHERE id = ?", (payload, table))
            else:
                tx.execute(
                    "INSERT INTO hall_tables (id, spec, closed, created_at) VALUES (?, ?, 0, ?)",
                    (table, payload, time.time_ns()),
                )

        self.ledger.store.run_write(work)

    def saved_tables(self) -> list[tuple[str, dict[str, Any]]]:
        """Every open table recorded, oldest first."""
        with self.ledger.store.read() as tx:
            rows = tx.execute(
                "SELECT id, spec FROM hall_tables WHERE closed = 0 ORDER BY created_at, id"
            )
        return [(r[0], json.loads(r[1])) for r in rows]

    def last_hand(self, table: str) -> int:
        """The highest hand number the table has logged (0 for none)."""
        with self.ledger.store.read() as tx:
            rows = tx.execute("SELECT MAX(hand) FROM table_events WHERE table_id = ?", (table,))
        return int(rows[0][0] or 0)

    def unfinished_hand(self, table: str) -> tuple[int, list[dict[str, Any]]] | None:
        """The table's last hand if it was opened but neither settled nor voided."""
        hand = self.last_hand(table)
        if hand == 0:
            return None
        events = self._events(table, hand)
        if not events or any(e.get("kind") in {"settle", "void"} for e in events):
            return None
        return hand, events

    def last_settled_hand(self, table: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """The config and events of the table's last settled hand."""
        with self.ledger.store.read() as tx:
            rows = tx.execute(
                "SELECT config, events FROM hands WHERE table_id = ? ORDER BY hand DESC LIMIT 1",
                (table,),
            )
        if not rows:
            return None
        return json.loads(rows[0][0]), json.loads(rows[0][1])

    def recent_records(self, table: str, limit: int) -> list[dict[str, Any]]:
        """The public records of the table's last ``limit`` settled hands that have one,
        oldest first (read from the settle events of the log: ``seq`` 1,000,000 and up, below
        a void's 2,000,000)."""
        with self.ledger.store.read() as tx:
            rows = tx.execute(
                "SELECT hand, payload FROM table_events WHERE table_id = ?"
                " AND seq >= 1000000 AND seq < 2000000 ORDER BY hand DESC LIMIT ?",
                (table, limit),
            )
        out = []
        for hand, payload in reversed(rows):
            record = json.loads(payload).get("record")
            if isinstance(record, dict):
                out.append({"hand": int(hand), **record})
        return out

    def last_settled_players(self, table: str) -> list[str | None] | None:
        """Engine seat -> player id of the table's last settled hand (``None``: a seat gone
        or empty), the lineup its carry is numbered by."""
        with self.ledger.store.read() as tx:
            rows = tx.execute(
                "SELECT players FROM hands WHERE table_id = ? ORDER BY hand DESC LIMIT 1",
                (table,),
            )
        if not rows:
            return None
        players = json.loads(rows[0][0])
        return [p if isinstance(p, str) else None for p in players]

    def stakes_at(self, table: str) -> list[str]:
        """Players with gold in a stake account of this table."""
        prefix = stake_account(table, 0)[: -len("0")]
        return [
            account.id[len(prefix) :]
            for account in self.ledger.accounts(prefix)
            if account.available > 0
        ]

    # ----- bots ---------------------------------------------------------------------------------
    def player_info(self, player_id: str) -> PlayerInfo:
        """A player (or bot) by id."""
        player = self.services.players.player(_pid(player_id))
        with self.ledger.store.read() as tx:
            bot = bool(tx.execute("SELECT 1 FROM hall_bots WHERE player_id = ?", (player.id,)))
        return PlayerInfo(
            id=str(player.id), name=player.display_name, language=player.language, bot=bot
        )

    def bot_player(self, label: str) -> PlayerInfo:
        """A bot with a wallet (reused by label), topped up from the issuer when low."""
        with self.ledger.store.read() as tx:
            rows = tx.execute("SELECT player_id FROM hall_bots WHERE label = ?", (label,))
        if rows:
            player = self.services.players.player(int(rows[0][0]))
        else:
            player, _ = self.services.guests.create_guest(
                display_name=f"Bot {label[-6:]}", system=True
            )

            def work(tx: StoreTx) -> None:
                tx.execute(
                    "INSERT INTO hall_bots (player_id, label) VALUES (?, ?)", (player.id, label)
                )

            self.ledger.store.run_write(work)
        balance = self.balance(str(player.id))
        if balance < BOT_BANKROLL // 10:
            transfer = Transfer.single(
                f"bot-topup:{player.id}:{secrets.token_hex(6)}",
                ISSUER,
                player_account(player.id),
                BOT_BANKROLL - balance,
                TransferCode.ADMIN_GRANT,
                memo="bot bankroll",
            )
            self.ledger.submit([transfer])
        return PlayerInfo(id=str(player.id), name=player.display_name, bot=True)


class WalletServices:
    """Accounts, sessions, money and recall for the app, over one ledger."""

    def __init__(self, ledger: Ledger, config: HallConfig | None = None) -> None:
        self.ledger = ledger
        self.players = Players(ledger, config)
        self.guests = Players(ledger, config, hasher=_TOKEN_HASHER)
        """Creates guests and bots: their login secret is a random 192-bit token, so a light
        Argon2 setting is as safe as the password setting and 100 times cheaper."""
        self._migrate()
        self.bank = LedgerBank(self)
        self.accounts = self
        self.recall = self
        self.calendar_day: Callable[[float], str] = leaderboards.vietnam_day
        """The calendar day of a time (the hall's ``day_zone``): a hand's leaderboard day."""

    @classmethod
    def open(cls, url: str, config: HallConfig | None = None) -> WalletServices:
        """Open (and migrate) the database at ``url``."""
        return cls(Ledger.open(url), config)

    def close(self) -> None:
        """Write the pending table events and close the database."""
        self.bank.events.close()
        self.ledger.close()

    def _migrate(self) -> None:
        def work(tx: StoreTx) -> None:
            for statement in _SCHEMA:
                tx.execute(statement)

        self.ledger.store.run_write(work)
        self.players.backfill_name_keys()

    # ----- sessions and accounts --------------------------------------------------------------
    def _info(self, player_id: int) -> PlayerInfo:
        player = self.players.player(player_id)
        return PlayerInfo(
            id=str(player.id),
            name=player.display_name,
            language=player.language,
            guest=player.guest,
        )

    def new_session(self, player_id: str) -> str:
        """A new session token for the player."""
        token = secrets.token_urlsafe(32)

        def work(tx: StoreTx) -> None:
            tx.execute(
                "INSERT INTO hall_sessions (token_hash, player_id, created_at) VALUES (?, ?, ?)",
                (_hash(token), int(player_id), time.time_ns()),
            )

        self.ledger.store.run_write(work)
        return token

    def by_token(self, token: str) -> PlayerInfo | None:
        """The player of a session token."""
        if not token or len(token) > 200:
            return None
        with self.ledger.store.read() as tx:
            rows = tx.execute(
                "SELECT player_id FROM hall_sessions WHERE token_hash = ?", (_hash(token),)
            )
        return self._info(int(rows[0][0])) if rows else None

    def revoke_session(self, token: str) -> str | None:
        """End the session of ``token``: its key (see :meth:`session_key`) if it was one."""
        if not token or len(token) > 200:
            return None
        key = _hash(token)

        def work(tx: StoreTx) -> bool:
            rows = tx.execute(
                "DELETE FROM hall_sessions WHERE token_hash = ? RETURNING token_hash", (key,)
            )
            return bool(rows)

        return key if self.ledger.store.run_write(work) else None

    def revoke_other_sessions(self, player_id: str, token: str) -> list[str]:
        """End every session of the player but the one of ``token``; their keys."""
        keep = _hash(token)

        def work(tx: StoreTx) -> list[str]:
            rows = tx.execute(
                "DELETE FROM hall_sessions WHERE player_id = ? AND token_hash <> ?"
                " RETURNING token_hash",
                (int(player_id), keep),
            )
            return [str(row[0]) for row in rows]

        return self.ledger.store.run_write(work)

    @staticmethod
    def session_key(token: str) -> str:
        """The key a session is stored (and its WebSockets are known) by: the token's hash."""
        return _hash(token)

    def register(
        self,
        username: str,
        password: str,
        name: str | None,
        language: str,
        *,
        password_hash: str | None = None,
    ) -> PlayerInfo:
        """Register. :raises ValueError: (PlayerRefused) on a taken name or bad input."""
        player = self.players.register(
            username,
            password,
            display_name=name,
            language=language or "vi",
            password_hash=password_hash,
        )
        return self._info(player.id)

    def check_registration(
        self, username: str, password: str, name: str | None, language: str | None
    ) -> None:
        """Check a registration before its password is hashed. :raises ValueError:
        (PlayerRefused) as :meth:`register`."""
        self.players.check_registration(username, password, name, language)

    def credentials(self, username: str) -> tuple[int, str] | None:
        """A registered player's id and stored password hash, or None (unknown, or a guest)."""
        return self.players.credentials(username)

    def logged_in(self, player_id: int, rehash: str | None) -> PlayerInfo:
        """Finish a log-in whose password was verified (``rehash``: a new hash to store)."""
        return self._info(self.players.logged_in(player_id, rehash).id)

    def password_of(self, player_id: str) -> str | None:
        """The player's stored password hash; None for a guest."""
        return self.players.password_of(int(player_id))

    @staticmethod
    def check_password(password: str) -> None:
        """:raises ValueError: (PlayerRefused ``PASSWORD_TOO_SHORT``) for a too short one."""
        check_password(password)

    def set_password(self, player_id: str, password: str, *, password_hash: str) -> None:
        """Store a registered player's new password hash."""
        self.players.set_password(int(player_id), password, password_hash=password_hash)

    def login(self, username: str, password: str) -> PlayerInfo | None:
        """Log in, or None."""
        try:
            return self._info(self.players.login(username, password).id)
        except PlayerRefused:
            return None

    def guest(self, name: str | None, language: str) -> PlayerInfo:
        """A new guest."""
        player, _ = self.guests.create_guest(display_name=name, language=language or "vi")
        return self._info(player.id)

    def guest_session(
        self, name: str | None, language: str, also: Callable[[TxHandle], None] | None = None
    ) -> tuple[PlayerInfo, str]:
        """A new guest and a session token for it, in two commits: the player, then its wallet
        with the session (and ``also``, the hall's record of the creation) in one transaction."""
        token = secrets.token_urlsafe(32)

        def opened(tx: TxHandle, player: Any) -> None:
            tx.execute(
                "INSERT INTO hall_sessions (token_hash, player_id, created_at) VALUES (?, ?, ?)",
                (_hash(token), int(player.id), time.time_ns()),
            )
            if also is not None:
                also(tx)

        player, _ = self.guests.create_guest(
            display_name=name, language=language or "vi", on_wallet=opened
        )
        return self._info(player.id), token

    def worth(self, player_id: str) -> int:
        """The player's gold: the wallet's posted balance (gold held for hands under way
        included) and the stakes at Tẩy tables."""
        pid = int(player_id)
        wallet = self.ledger.account(player_account(pid))
        with self.ledger.store.read() as tx:
            rows = tx.execute(
                "SELECT COALESCE(SUM(credits_posted - debits_posted), 0) FROM accounts"
                " WHERE id LIKE ?",
                (f"stake:%:{pid}",),
            )
        return (wallet.balance if wallet is not None else 0) + int(rows[0][0])

    def daily_gold(self, player_id: str, day: str, *, amount: int, below: int) -> int:
        """Pay the player's daily gold for ``day`` (``YYYY-MM-DD``) from the promotions
        account, once: batch and transfer ``daily:player:<id>:<day>``. Returns the wallet's
        available balance after.

        :raises DailyRefused: ``daily_claimed`` (already paid for this day) or
            ``daily_not_eligible`` (the player's :meth:`worth` is not below ``below``);
            nothing is changed then.
        """
        account = player_account(int(player_id))
        batch_id = f"daily:{account}:{day}"
        if self.ledger.batch_exists(batch_id):
            raise DailyRefused("daily_claimed")
        if self.worth(player_id) >= below:
            raise DailyRefused(text("daily_not_eligible", below))
        transfer = Transfer.single(
            batch_id, PROMOTIONS, account, amount, TransferCode.DAILY_GOLD, memo=f"daily {day}"
        )
        result = self.ledger.submit([transfer], batch_id=batch_id)
        if result.code is not ResultCode.OK:  # a claim at the same moment was first
            raise DailyRefused("daily_claimed")
        return self.bank.balance(player_id)

    def update_profile(self, player_id: str, *, name: str | None, language: str | None) -> None:
        """Change display name and/or language. :raises ValueError: on bad values."""
        if name is not None:
            self.players.set_display_name(int(player_id), name)
        if language is not None:
            self.players.set_language(int(player_id), language)

    def profile(self, player_id: str) -> dict[str, Any]:
        """Name, language, balance, XP, play time and clan."""
        pid = int(player_id)
        player = self.players.player(pid)
        stats = self.players.stats(pid)
        member = self.players.membership(pid)
        clan = None
        if member is not None:
            info = self.players.clan(member.clan_id)
            clan = {
                "id": info.id,
                "name": info.name,
                "xp": info.xp,
                "role": str(member.role),
                "treasury": self.players.treasury(info.id),
            }
        return {
            "player": str(pid),
            "name": player.display_name,
            "language": player.language,
            "guest": player.guest,
            "balance": self.bank.balance(player_id),
            "xp": {s.game: s.xp for s in stats},
            "hands": {s.game: s.hands for s in stats},
            "play_seconds": {s.game: s.play_time_ms / 1000 for s in stats},
            "clan": clan,
        }

    def statement(self, player_id: str, limit: int) -> dict[str, Any]:
        """The wallet's lines, newest first, signed from the player's side, and the balance
        they end at.

        A hold is one line with its fate (``pending`` while open, then ``settled`` with the
        amount posted or ``released``); ``amount`` is what the line did to the available
        balance and ``balance`` the available balance after it, so going down the list each
        line's ``balance`` is the one above less that line's ``amount``.
        """
        account = player_account(int(player_id))
        available, lines = self.ledger.statement(account, limit=limit)
        out = []
        running = available
        for line in lines:
            transfer = line.transfer
            out.append(
                {
                    "id": transfer.id,
                    "code": str(transfer.code),
                    "kind": str(transfer.kind),
                    "status": line.status,
                    "amount": line.effect,
                    "held": line.held,
                    "balance": running,
                    "memo": transfer.memo,
                    "time": time.strftime(
                        "%Y-%m-%d %H:%M:%S", time.localtime(transfer.timestamp / 1e9)
                    ),
                }
            )
            running -= line.effect
        return {"balance": available, "transfers": out}

    def clans(self) -> list[dict[str, Any]]:
        """Clans by XP."""
        with self.ledger.store.read() as tx:
            rows = tx.execute("SELECT id, name, xp FROM clans ORDER BY xp DESC, id LIMIT 200")
        return [{"id": str(r[0]), "name": r[1], "xp": int(r[2])} for r in rows]

    def create_clan(self, player_id: str, name: str) -> dict[str, Any]:
        """Found a clan (the founder leads it)."""
        clan = self.players.create_clan(int(player_id), name)
        return {"id": str(clan.id), "name": clan.name, "xp": clan.xp}

    def join_clan(self, player_id: str, clan_id: str) -> dict[str, Any]:
        """Join a clan."""
        try:
            cid = int(clan_id)
        except ValueError:
            raise PlayerRefused(PlayerCode.NO_SUCH_CLAN, f"no clan {clan_id!r}") from None
        member = self.players.join_clan(int(player_id), cid)
        return {"clan": str(member.clan_id), "role": str(member.role)}

    def leave_clan(self, player_id: str) -> None:
        """Leave one's clan."""
        self.players.leave_clan(int(player_id))

    # ----- recall ------------------------------------------------------------------------------
    def hands_for(self, player_id: str, limit: int) -> list[dict[str, Any]]:
        """The player's last hands, newest first."""
        with self.ledger.store.read() as tx:
            rows = tx.execute(
                "SELECT hp.hand_id, h.game, h.hand, h.table_id, hp.net, hp.finished_at"
                " FROM hand_players hp JOIN hands h ON h.id = hp.hand_id"
                " WHERE hp.player_id = ? ORDER BY hp.finished_at DESC LIMIT ?",
                (int(player_id), limit),
            )
        return [
            {"id": r[0], "game": r[1], "hand": int(r[2]), "table": r[3], "net": int(r[4])}
            for r in rows
        ]

    def hand_for(self, player_id: str, hand_id: str) -> dict[str, Any] | None:
        """One hand as the player's seat could know it (:func:`~sanh.server.recall.recall_hand`):
        its final view, the events it could know of, the seats' names, the settlement."""
        with self.ledger.store.read() as tx:
            rows = tx.execute(
                "SELECT h.game, h.hand, h.table_id, h.players, h.config, h.events, h.settlement,"
                " h.server_seed, hp.seat FROM hands h JOIN hand_players hp ON hp.hand_id = h.id"
                " WHERE h.id = ? AND hp.player_id = ?",
                (hand_id, int(player_id)),
            )
        if not rows:
            return None
        game_id, hand, table, players, config, events, settlement, seed, seat = rows[0]
        game = find_game(game_id)
        actions, view = recall_hand(
            game, config_from_json(json.loads(config), game), json.loads(events), int(seat)
        )
        seated: list[str | None] = json.loads(players)
        with self.ledger.store.read() as tx:
            chat = tx.execute(
                "SELECT line FROM hand_chat WHERE hand_id = ? ORDER BY seq", (hand_id,)
            )
        return {
            "chat": [json.loads(r[0]) for r in chat],
            "id": hand_id,
            "game": game_id,
            "hand": int(hand),
            "table": table,
            "seat": int(seat),
            "players": seated,
            "names": [self._display_name(p) for p in seated],
            "actions": actions,
            "view": view,
            "settlement": json.loads(settlement),
            "server_seed": seed,
        }

    def _display_name(self, player_id: str | None) -> str | None:
        """A seat's player's display name (as shown at the table), or None for an empty seat."""
        if player_id is None:
            return None
        try:
            return self.players.player(_pid(player_id)).display_name
        except PlayerRefused:
            return None
