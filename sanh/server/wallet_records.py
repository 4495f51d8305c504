"""The half of the ledger bank that reads and records tables: balances, the saved tables, the
logged hands a restart rebuilds from, the last settled hand's lineup, and the bots' wallets.

:class:`TableRecords` is the base of :class:`sanh.server.wallet_bank.LedgerBank`, which adds
the money of hands; both read one ledger and its database (the tables ``hall_tables``,
``table_events``, ``hands`` and ``hall_bots`` of :mod:`sanh.server.wallet_services`).
"""

from __future__ import annotations

import json
import secrets
import time
from typing import TYPE_CHECKING, Any

from sanh.ledger.book import Ledger
from sanh.ledger.bot_names import BOT_NAMES, bot_name
from sanh.ledger.levels import level
from sanh.ledger.model import ISSUER, Transfer, TransferCode, player_account, stake_account
from sanh.ledger.players import Player, PlayerCode, PlayerRefused
from sanh.ledger.store import StoreTx
from sanh.server.eventlog import EventLog, hand_lineup
from sanh.server.services import PlayerInfo

if TYPE_CHECKING:
    from sanh.server.wallet_services import WalletServices

__all__ = ["BOT_BANKROLL", "TableRecords", "ledger_id"]

BOT_BANKROLL = 100_000_000
"""A bot's wallet is topped up to this (1,000,000 gold) from the issuer when it runs low."""


def ledger_id(player: str) -> int:
    """The ledger's id of a player id as the server writes it (a decimal string)."""
    return int(player)


class TableRecords:
    """Balances, saved tables, logged hands and bots over the ledger (see the module)."""

    services: WalletServices
    ledger: Ledger
    events: EventLog

    # ----- balances ---------------------------------------------------------------------------
    def balance(self, player: str) -> int:
        """Available gold in the player's wallet."""
        account = self.ledger.account(player_account(ledger_id(player)))
        return account.available if account is not None else 0

    def table_stake(self, table: str, player: str) -> int:
        """The player's stake at a Tẩy table."""
        account = self.ledger.account(stake_account(table, ledger_id(player)))
        return account.available if account is not None else 0

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

    def last_lineup(self, table: str) -> list[tuple[int, str]]:
        """(table seat, player id) of the last hand's players (opening event and sit-ins)."""
        hand = self.last_hand(table)
        if hand == 0:
            return []
        events = self._events(table, hand)
        if not events or "seats" not in events[0]:
            return []
        lineup = hand_lineup(events)
        return [(int(seat), str(player)) for seat, player in lineup if player is not None]

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
        player = self.services.players.player(ledger_id(player_id))
        with self.ledger.store.read() as tx:
            bot = bool(tx.execute("SELECT 1 FROM hall_bots WHERE player_id = ?", (player.id,)))
        return PlayerInfo(
            id=str(player.id), name=player.display_name, language=player.language, bot=bot
        )

    def levels(self, players: list[str]) -> dict[str, int]:
        """Each player's level (sanh/ledger/levels.py) from the XP of every game together."""
        if not players:
            return {}
        ids = [ledger_id(player) for player in players]
        marks = ", ".join("?" for _ in ids)
        with self.ledger.store.read() as tx:
            rows = tx.execute(
                "SELECT player_id, SUM(xp) FROM player_stats"
                f" WHERE player_id IN ({marks}) GROUP BY player_id",
                tuple(ids),
            )
        xp = {str(row[0]): int(row[1]) for row in rows}
        return {player: level(xp.get(player, 0)) for player in players}

    def bot_player(self, label: str) -> PlayerInfo:
        """A bot with a wallet (reused by label), topped up from the issuer when low. A new bot
        is named from its label (:func:`sanh.ledger.bot_names.bot_name`); a bot of an older
        hall, named ``Bot <label>``, is renamed so the first time it plays again."""
        with self.ledger.store.read() as tx:
            rows = tx.execute("SELECT player_id FROM hall_bots WHERE label = ?", (label,))
        if rows:
            player = self.services.players.player(int(rows[0][0]))
            if player.display_name.startswith("Bot "):
                player = self._bot_named(label, player.id)
        else:
            player = self._bot_named(label, None)

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

    def _bot_named(self, label: str, player_id: int | None) -> Player:
        """A new bot (``player_id`` None) or that bot renamed, with the first free candidate
        name of its label (a name another player has is skipped)."""
        for attempt in range(len(BOT_NAMES)):
            name = bot_name(label, attempt)
            try:
                if player_id is not None:
                    return self.services.players.set_display_name(player_id, name, system=True)
                return self.services.guests.create_guest(display_name=name, system=True)[0]
            except PlayerRefused as refused:
                if refused.code is not PlayerCode.DISPLAY_NAME_TAKEN:
                    raise
        raise AssertionError("every bot name is taken")
