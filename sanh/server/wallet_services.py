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

The module is the accounts' half (:class:`WalletServices`: sessions, registration, profile,
daily gold, statement, clans, recall); the Bank port is :class:`~sanh.server.wallet_bank.LedgerBank`
(the money of hands) over :class:`~sanh.server.wallet_records.TableRecords` (balances, saved
tables, logged hands, bots), both re-exported here.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import Callable
from typing import Any

from argon2 import PasswordHasher

from sanh.games import find_game
from sanh.ledger.book import Ledger
from sanh.ledger.levels import level
from sanh.ledger.model import (
    PROMOTIONS,
    ResultCode,
    Transfer,
    TransferCode,
    TxHandle,
    player_account,
)
from sanh.ledger.players import Hall as Players
from sanh.ledger.players import HallConfig, PlayerCode, PlayerRefused, check_password
from sanh.ledger.store import StoreTx
from sanh.notation.history import config_from_json
from sanh.server import leaderboards
from sanh.server.recall import recall_hand
from sanh.server.services import DailyRefused, PlayerInfo
from sanh.server.wallet_bank import LedgerBank
from sanh.server.wallet_records import BOT_BANKROLL, ledger_id
from sanh.texts import text

__all__ = ["BOT_BANKROLL", "LedgerBank", "WalletServices"]

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
    "CREATE TABLE IF NOT EXISTS hall_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
)

_TOKEN_HASHER = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)
"""Hashes random guest tokens (high entropy: no need for a slow password hash)."""


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


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

    def hall_secret(self, name: str) -> bytes:
        """A random 256-bit key of the hall's, made once and kept in the database, so every
        process of the hall (each node of a cluster, the next start) reads the same one."""
        fresh = secrets.token_hex(32)

        def work(tx: StoreTx) -> str:
            tx.execute(
                "INSERT INTO hall_secrets (name, value) VALUES (?, ?) ON CONFLICT DO NOTHING",
                (name, fresh),
            )
            rows = tx.execute("SELECT value FROM hall_secrets WHERE name = ?", (name,))
            return str(rows[0][0])

        return bytes.fromhex(self.ledger.store.run_write(work))

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
            "level": level(sum(s.xp for s in stats)),
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
            return self.players.player(ledger_id(player_id)).display_name
        except PlayerRefused:
            return None
