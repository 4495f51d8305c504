"""Players, guests, per-game progress and clans, on the ledger's database.

* **Registration and login.** Usernames are 3 to 24 characters ``a-z 0-9 _ .`` (case folded;
  ``guest`` prefixes are reserved); passwords are at least 6 characters and are stored as
  salted argon2id hashes (argon2-cffi), rehashed on login when the parameters change.
* **Display names** are unique among all players, registered and guests alike, up to case,
  accents and look-alike letters (:func:`~sanh.ledger.names.name_key`), and none may pass for
  the house, the staff or a bot (:func:`~sanh.ledger.names.reserved`). A name the hall picks
  (``Guest 3f2a1c9d``, a username) gets another suffix when it meets another player's.
* **Guests** play without registering: :meth:`Hall.create_guest` returns the player and a
  random secret token (stored hashed like a password) that logs the guest back in;
  :meth:`Hall.upgrade_guest` gives a guest a username and password, keeping its gold.
* **Starting grant.** Every new player's wallet ``player:<id>`` is opened with a grant from
  the issuer (:attr:`HallConfig.starting_grant`, :attr:`HallConfig.guest_grant`), applied as
  batch ``grant:player:<id>``: idempotent, and repaired at the next login if the process died
  between creating the player and granting the gold.
* **Progress.** :meth:`Hall.record_hand` settles a hand through the ledger
  (:func:`~sanh.ledger.settle.settlement_batch`) and, in the same database transaction and
  only if the batch is newly applied, adds the hand, the win, XP and play time to each
  player's per-game stats (none for games whose ``info.counts_xp`` is false: Tài Xỉu, RULES.md
  §5.6) and the settlement's ``clan_xp`` to each seat's clan. XP amounts are not in the seeds
  (RULES.md §2.9, ``platform.xp_*``): by default 1 XP per hand played and 1 more per hand won.
* **Clans** (*Bang hội*): create (the creator leads), join, leave, kick, roles ``leader``,
  ``officer``, ``member``; one clan per player. The leader hands over leadership with
  :meth:`Hall.set_role` before leaving a clan that still has members; an emptied clan keeps
  its name, XP and treasury and the next player to join it leads it. Each clan has a treasury
  account ``clan:<id>`` that receives the settlements' ``clan_share`` (RULES.md §5.6: 1 % of a
  member's Tài Xỉu winnings). How a treasury is spent is not in the rules, so nothing spends it.

Expected refusals (a taken username, a wrong password, joining a second clan) raise
:class:`PlayerRefused` with a :class:`PlayerCode`; nothing is changed.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from sanh.errors import SanhError
from sanh.games.base import Settlement
from sanh.ledger.book import Ledger
from sanh.ledger.model import (
    ISSUER,
    AccountSpec,
    BatchResult,
    Transfer,
    TransferCode,
    TxHandle,
    clan_account,
    player_account,
)
from sanh.ledger.names import NAME_LENGTH_MAX, clean_display_name, name_key, reserved
from sanh.ledger.settle import SeatAccount, settlement_batch
from sanh.ledger.store import StoreTx

__all__ = [
    "LANGUAGES",
    "NAME_LENGTH_MAX",
    "PASSWORD_LENGTH_MIN",
    "USERNAME_LENGTH",
    "Clan",
    "ClanMember",
    "ClanRole",
    "GameStats",
    "Hall",
    "HallConfig",
    "Player",
    "PlayerCode",
    "PlayerRefused",
    "check_password",
]

_USERNAME = re.compile(r"[a-z0-9_.]{3,24}")
USERNAME_LENGTH = (3, 24)
"""The shortest and longest username (as in ``_USERNAME``)."""
LANGUAGES = ("vi", "en")
"""The languages a player may choose (those of the client's strings)."""
PASSWORD_LENGTH_MIN = 6


class PlayerCode(StrEnum):
    """Why a player or clan operation was refused."""

    USERNAME_INVALID = "username_invalid"
    USERNAME_TAKEN = "username_taken"
    PASSWORD_TOO_SHORT = "password_too_short"
    BAD_CREDENTIALS = "bad_credentials"
    NO_SUCH_PLAYER = "no_such_player"
    NOT_A_GUEST = "not_a_guest"
    DISPLAY_NAME_INVALID = "display_name_invalid"
    LANGUAGE_INVALID = "language_invalid"
    DISPLAY_NAME_RESERVED = "display_name_reserved"
    """The name looks like the house's, the staff's or a bot's (sanh/ledger/names.py)."""
    DISPLAY_NAME_TAKEN = "display_name_taken"
    """The name is confusable with a registered player's."""
    CLAN_NAME_INVALID = "clan_name_invalid"
    CLAN_NAME_TAKEN = "clan_name_taken"
    NO_SUCH_CLAN = "no_such_clan"
    ALREADY_IN_CLAN = "already_in_clan"
    NOT_IN_CLAN = "not_in_clan"
    NOT_ALLOWED = "not_allowed"
    """The acting member's role does not allow it."""
    LEADER_MUST_HAND_OVER = "leader_must_hand_over"
    ROLE_INVALID = "role_invalid"


class PlayerRefused(SanhError, ValueError):
    """An expected refusal of a player or clan operation; nothing was changed."""

    def __init__(self, code: PlayerCode, message: str) -> None:
        self.code = code
        super().__init__(f"{code}: {message}")


class ClanRole(StrEnum):
    """A clan member's role."""

    LEADER = "leader"
    OFFICER = "officer"
    MEMBER = "member"


@dataclass(frozen=True, slots=True)
class HallConfig:
    """Platform settings of the wallet (RULES.md §2.9; amounts in minor units)."""

    starting_grant: int = 10_000_000
    """Gold granted to a registered player's new wallet: 100,000.00 gold [DEF]."""
    guest_grant: int = 100_000
    """Gold granted to a new guest: 1,000.00 gold [DEF] (a guest costs nothing to make: the
    hall limits how many an address makes, and gives little)."""
    xp_per_hand: int = 1
    """``platform.xp_per_hand``: XP for each hand played (games that count XP) [DEF]."""
    xp_per_win: int = 1
    """``platform.xp_per_win``: extra XP for a hand with a positive result [DEF]."""
    default_language: str = "vi"


@dataclass(frozen=True, slots=True)
class Player:
    """A player (registered or guest)."""

    id: int
    username: str
    display_name: str
    language: str
    guest: bool
    created_at: int
    """Nanoseconds since the epoch."""

    @property
    def account(self) -> str:
        """The player's wallet account id."""
        return player_account(self.id)


@dataclass(frozen=True, slots=True)
class Clan:
    """A clan (*Bang hội*)."""

    id: int
    name: str
    xp: int
    created_at: int

    @property
    def treasury(self) -> str:
        """The clan's treasury account id."""
        return clan_account(self.id)


@dataclass(frozen=True, slots=True)
class ClanMember:
    """A player's membership of a clan."""

    player_id: int
    clan_id: int
    role: ClanRole
    joined_at: int


@dataclass(frozen=True, slots=True)
class GameStats:
    """A player's progress in one game."""

    game: str
    hands: int
    wins: int
    xp: int
    play_time_ms: int


_PLAYER_COLUMNS = "id, username, display_name, language, guest, created_at"


def _player(row: Sequence[Any]) -> Player:
    return Player(int(row[0]), row[1], row[2], row[3], bool(row[4]), int(row[5]))


def _clan(row: Sequence[Any]) -> Clan:
    return Clan(int(row[0]), row[1], int(row[2]), int(row[3]))


def _member(row: Sequence[Any]) -> ClanMember:
    return ClanMember(int(row[0]), int(row[1]), ClanRole(row[2]), int(row[3]))


class Hall:
    """Players, guests, progress and clans over a :class:`~sanh.ledger.book.Ledger`."""

    def __init__(
        self,
        ledger: Ledger,
        config: HallConfig | None = None,
        *,
        hasher: PasswordHasher | None = None,
        clock: Callable[[], int] = time.time_ns,
    ) -> None:
        self.ledger = ledger
        self.config = config or HallConfig()
        self.hasher = hasher or PasswordHasher()
        self._clock = clock

    # ----- registration and login --------------------------------------------------------
    def register(
        self,
        username: str,
        password: str,
        *,
        display_name: str | None = None,
        language: str | None = None,
        password_hash: str | None = None,
    ) -> Player:
        """Register a player and grant the starting gold.

        ``password_hash``: the password's hash made already (the hall server hashes in its
        worker pool, :mod:`sanh.server.passwords`), else it is hashed here. Without a
        ``display_name`` the username is the name, with a short suffix when another player's
        name looks like it.

        :raises PlayerRefused: ``USERNAME_INVALID``, ``USERNAME_TAKEN``,
            ``PASSWORD_TOO_SHORT``, ``DISPLAY_NAME_INVALID``, ``DISPLAY_NAME_RESERVED``,
            ``DISPLAY_NAME_TAKEN``, ``LANGUAGE_INVALID``.
        """
        key, name, lang = self.check_registration(username, password, display_name, language)
        password_hash = password_hash or self.hasher.hash(password)
        for attempt in range(20):
            candidate = name if attempt == 0 else f"{name} {secrets.token_hex(2)}"
            try:
                player = self._insert_player(key, candidate, lang, password_hash, guest=False)
            except PlayerRefused as refused:
                if refused.code is PlayerCode.DISPLAY_NAME_TAKEN and display_name is None:
                    continue  # the name was picked for the player: pick another
                raise
            self.ensure_wallet(player)
            return player
        raise AssertionError("no free name after 20 tries")

    def check_registration(
        self,
        username: str,
        password: str,
        display_name: str | None = None,
        language: str | None = None,
    ) -> tuple[str, str, str]:
        """The username key, display name and language a registration would use, checked
        (before any hash is made); :raises PlayerRefused: as :meth:`register` (a taken name
        only when it was chosen)."""
        key = _check_username(username)
        check_password(password)
        name = _check_player_name(display_name if display_name is not None else username)
        lang = _check_language(language or self.config.default_language)
        with self.ledger.store.read() as tx:
            if tx.execute("SELECT 1 FROM players WHERE username = ?", (key,)):
                raise PlayerRefused(PlayerCode.USERNAME_TAKEN, f"{key!r} is taken")
            if display_name is not None:
                self._name_key_free(tx, name, None)
        return key, name, lang

    def create_guest(
        self,
        *,
        display_name: str | None = None,
        language: str | None = None,
        system: bool = False,
        on_wallet: Callable[[TxHandle, Player], None] | None = None,
    ) -> tuple[Player, str]:
        """A guest player and the secret token that logs it back in.

        ``system``: the hall's own player (a bot), whose name may be reserved (``Bot ...``).
        ``on_wallet``: runs in the transaction that opens the guest's wallet (the hall writes
        the session there: two commits for a guest, not four).
        """
        lang = _check_language(language or self.config.default_language)
        if display_name is not None and not system:
            _check_player_name(display_name)
        token = secrets.token_urlsafe(24)
        token_hash = self.hasher.hash(token)
        for _ in range(20):
            suffix = secrets.token_hex(4)
            name = _check_display_name(display_name or f"Guest {suffix}")
            try:
                player = self._insert_player(
                    f"guest_{suffix}", name, lang, token_hash, guest=True, system=system
                )
            except PlayerRefused as refused:
                if refused.code is PlayerCode.USERNAME_TAKEN or (
                    refused.code is PlayerCode.DISPLAY_NAME_TAKEN and display_name is None
                ):
                    continue  # a picked name or username met another's: pick another
                raise
            self.ensure_wallet(player, on_apply=_bound(on_wallet, player))
            return player, token
        raise AssertionError("no free guest name after 20 tries")

    def login(self, username: str, password: str) -> Player:
        """The player with these credentials.

        :raises PlayerRefused: ``BAD_CREDENTIALS`` (unknown name or wrong password alike).
        """
        key = username.strip().casefold()
        row = self._fetch_login(
            "SELECT id, password_hash, guest FROM players WHERE username = ?", key
        )
        if row is None or bool(row[2]):
            raise PlayerRefused(PlayerCode.BAD_CREDENTIALS, "unknown username or wrong password")
        return self._finish_login(int(row[0]), row[1], password)

    def credentials(self, username: str) -> tuple[int, str] | None:
        """The id and stored password hash of the registered player with this username, or
        None (no such player, or a guest): the first half of a log-in, whose hash the caller
        verifies (off the event loop) before :meth:`logged_in`."""
        row = self._fetch_login(
            "SELECT id, password_hash, guest FROM players WHERE username = ?",
            username.strip().casefold(),
        )
        if row is None or bool(row[2]):
            return None
        return int(row[0]), str(row[1])

    def password_of(self, player_id: int) -> str | None:
        """A registered player's stored password hash; None for a guest (who has none).

        :raises PlayerRefused: ``NO_SUCH_PLAYER``.
        """
        row = self._fetch_login(
            "SELECT id, password_hash, guest FROM players WHERE id = ?", player_id
        )
        if row is None:
            raise PlayerRefused(PlayerCode.NO_SUCH_PLAYER, f"no player {player_id}")
        return None if bool(row[2]) else str(row[1])

    def set_password(
        self, player_id: int, password: str, *, password_hash: str | None = None
    ) -> None:
        """Store a registered player's new password (``password_hash``: made already).

        :raises PlayerRefused: ``PASSWORD_TOO_SHORT``, ``NO_SUCH_PLAYER``;
            ``BAD_CREDENTIALS`` for a guest (a guest has no password).
        """
        check_password(password)
        new_hash = password_hash or self.hasher.hash(password)

        def work(tx: StoreTx) -> None:
            rows = tx.execute("SELECT guest FROM players WHERE id = ?", (player_id,))
            if not rows:
                raise PlayerRefused(PlayerCode.NO_SUCH_PLAYER, f"no player {player_id}")
            if rows[0][0]:
                raise PlayerRefused(PlayerCode.BAD_CREDENTIALS, "a guest has no password")
            tx.execute("UPDATE players SET password_hash = ? WHERE id = ?", (new_hash, player_id))

        self.ledger.store.run_write(work)

    def login_guest(self, player_id: int, token: str) -> Player:
        """A guest, by id and token. :raises PlayerRefused: ``BAD_CREDENTIALS``."""
        row = self._fetch_login(
            "SELECT id, password_hash, guest FROM players WHERE id = ?", player_id
        )
        if row is None or not bool(row[2]):
            raise PlayerRefused(PlayerCode.BAD_CREDENTIALS, "unknown guest or wrong token")
        return self._finish_login(int(row[0]), row[1], token)

    def upgrade_guest(self, player_id: int, token: str, username: str, password: str) -> Player:
        """Turn a guest into a registered player (same id, same wallet).

        :raises PlayerRefused: ``BAD_CREDENTIALS``, ``NOT_A_GUEST``, or a registration code.
        """
        self.login_guest(player_id, token)
        key = _check_username(username)
        check_password(password)
        password_hash = self.hasher.hash(password)

        def work(tx: StoreTx) -> None:
            if tx.execute("SELECT 1 FROM players WHERE username = ?", (key,)):
                raise PlayerRefused(PlayerCode.USERNAME_TAKEN, f"{key!r} is taken")
            rows = tx.execute("SELECT guest FROM players WHERE id = ?", (player_id,))
            if not rows or not rows[0][0]:
                raise PlayerRefused(PlayerCode.NOT_A_GUEST, f"player {player_id}")
            tx.execute(
                "UPDATE players SET username = ?, password_hash = ?, guest = 0 WHERE id = ?",
                (key, password_hash, player_id),
            )

        self.ledger.store.run_write(work)
        return self.player(player_id)

    def ensure_wallet(
        self, player: Player, *, on_apply: Callable[[TxHandle], None] | None = None
    ) -> BatchResult:
        """Open the player's wallet with its grant, once (``EXISTS`` afterwards); ``on_apply``
        runs in the same transaction when it is opened."""
        amount = self.config.guest_grant if player.guest else self.config.starting_grant
        batch_id = f"grant:{player.account}"
        transfers = (
            [Transfer.single(batch_id, ISSUER, player.account, amount, TransferCode.GRANT)]
            if amount > 0
            else []
        )
        return self.ledger.submit(
            transfers, batch_id=batch_id, accounts=[AccountSpec(player.account)], on_apply=on_apply
        )

    def player(self, player_id: int) -> Player:
        """The player with this id. :raises PlayerRefused: ``NO_SUCH_PLAYER``."""
        with self.ledger.store.read() as tx:
            rows = tx.execute(f"SELECT {_PLAYER_COLUMNS} FROM players WHERE id = ?", (player_id,))
        if not rows:
            raise PlayerRefused(PlayerCode.NO_SUCH_PLAYER, f"no player {player_id}")
        return _player(rows[0])

    def find(self, username: str) -> Player | None:
        """The player with this username (case folded), or ``None``."""
        with self.ledger.store.read() as tx:
            rows = tx.execute(
                f"SELECT {_PLAYER_COLUMNS} FROM players WHERE username = ?",
                (username.strip().casefold(),),
            )
        return _player(rows[0]) if rows else None

    def set_display_name(
        self, player_id: int, display_name: str, *, system: bool = False
    ) -> Player:
        """Change a player's display name (``system``: the hall's own player, a bot, whose
        name may be reserved)."""
        name = _check_display_name(display_name) if system else _check_player_name(display_name)

        def work(tx: StoreTx) -> None:
            self._require_player(tx, player_id)
            key = self._name_key_free(tx, name, player_id)
            tx.execute(
                "UPDATE players SET display_name = ?, name_key = ? WHERE id = ?",
                (name, key, player_id),
            )

        self.ledger.store.run_write(work)
        return self.player(player_id)

    def set_language(self, player_id: int, language: str) -> Player:
        """Change a player's language (``vi``, ``en``...)."""
        self._update_player(player_id, "language", _check_language(language))
        return self.player(player_id)

    def balance(self, player_id: int) -> int:
        """The player's wallet balance."""
        return self.ledger.balance(player_account(player_id))

    # ----- progress ----------------------------------------------------------------------
    def record_hand(
        self,
        game_id: str,
        settlement: Settlement,
        *,
        settlement_id: str,
        table_id: str,
        players: Sequence[int],
        play_time_ms: int = 0,
        accounts: Sequence[str] | None = None,
        holds: Mapping[int, Sequence[Transfer]] | None = None,
        paid: Mapping[int, int] | None = None,
        counts_xp: bool | None = None,
        on_apply: Callable[[TxHandle], None] | None = None,
    ) -> BatchResult:
        """Settle a hand through the ledger and record its progress, exactly once.

        ``on_apply`` runs in the same transaction after the progress records (the hall server
        writes its event log and hand record there).

        :param players: the player id of each seat (negative: an empty seat, no progress).
        :param accounts: each seat's money account if not the wallet (``stake:...``).
        :param holds: per seat, its open holds for the hand.
        :param paid: per seat, its loss already posted into the escrow when it went out.
        :param counts_xp: default: the game's ``info.counts_xp`` from the registry.
        :return: the ledger's result; progress is recorded only when it is ``OK``.
        """
        if counts_xp is None:
            from sanh.games import find_game

            counts_xp = find_game(game_id).info.counts_xp
        clans = self._clans_of(players)
        seats = [
            SeatAccount(
                accounts[seat] if accounts is not None else player_account(player_id),
                clan_account(clans[player_id]) if player_id in clans else None,
            )
            for seat, player_id in enumerate(players)
        ]
        config = self.config
        deltas = settlement.deltas
        clan_xp = settlement.clan_xp

        def record(tx: TxHandle) -> None:
            if counts_xp:
                for seat, player_id in enumerate(players):
                    if player_id < 0:
                        continue  # no player in this seat (an empty seat of a house game)
                    won = 1 if deltas[seat] > 0 else 0
                    tx.execute(
                        "INSERT INTO player_stats (player_id, game, hands, wins, xp, play_time_ms)"
                        " VALUES (?, ?, 1, ?, ?, ?) ON CONFLICT (player_id, game) DO UPDATE SET"
                        " hands = player_stats.hands + 1,"
                        " wins = player_stats.wins + excluded.wins,"
                        " xp = player_stats.xp + excluded.xp,"
                        " play_time_ms = player_stats.play_time_ms + excluded.play_time_ms",
                        (
                            player_id,
                            game_id,
                            won,
                            config.xp_per_hand + config.xp_per_win * won,
                            play_time_ms,
                        ),
                    )
            for seat, xp in enumerate(clan_xp):
                clan_id = clans.get(players[seat])
                if xp > 0 and clan_id is not None:
                    tx.execute("UPDATE clans SET xp = xp + ? WHERE id = ?", (xp, clan_id))
            if on_apply is not None:
                on_apply(tx)

        batch = settlement_batch(
            settlement,
            settlement_id=settlement_id,
            table_id=table_id,
            seats=seats,
            holds=holds,
            paid=paid,
            memo=game_id,
            on_apply=record,
        )
        return self.ledger.submit_many([batch])[0]

    def stats(self, player_id: int) -> list[GameStats]:
        """The player's progress per game, by game id."""
        with self.ledger.store.read() as tx:
            rows = tx.execute(
                "SELECT game, hands, wins, xp, play_time_ms FROM player_stats"
                " WHERE player_id = ? ORDER BY game",
                (player_id,),
            )
        return [GameStats(r[0], int(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in rows]

    # ----- clans -------------------------------------------------------------------------
    def create_clan(self, leader_id: int, name: str) -> Clan:
        """Found a clan led by ``leader_id``, with its treasury account.

        :raises PlayerRefused: ``CLAN_NAME_INVALID``, ``CLAN_NAME_TAKEN``,
            ``ALREADY_IN_CLAN``, ``NO_SUCH_PLAYER``.
        """
        clean = " ".join(name.split())
        if not 3 <= len(clean) <= NAME_LENGTH_MAX:
            raise PlayerRefused(PlayerCode.CLAN_NAME_INVALID, f"{name!r}: 3 to 32 characters")
        key = clean.casefold()
        now = self._clock()

        def work(tx: StoreTx) -> int:
            self._require_player(tx, leader_id)
            if tx.execute("SELECT 1 FROM clan_members WHERE player_id = ?", (leader_id,)):
                raise PlayerRefused(PlayerCode.ALREADY_IN_CLAN, f"player {leader_id}")
            if tx.execute("SELECT 1 FROM clans WHERE name_key = ?", (key,)):
                raise PlayerRefused(PlayerCode.CLAN_NAME_TAKEN, f"{clean!r} is taken")
            rows = tx.execute(
                "INSERT INTO clans (name, name_key, xp, created_at) VALUES (?, ?, 0, ?)"
                " RETURNING id",
                (clean, key, now),
            )
            clan_id = int(rows[0][0])
            tx.execute(
                "INSERT INTO clan_members (player_id, clan_id, role, joined_at)"
                " VALUES (?, ?, 'leader', ?)",
                (leader_id, clan_id, now),
            )
            return clan_id

        clan_id = self.ledger.store.run_write(work)
        self.ledger.open_account(clan_account(clan_id))
        return self.clan(clan_id)

    def join_clan(self, player_id: int, clan_id: int) -> ClanMember:
        """Join a clan as a member (as leader if it is empty).

        :raises PlayerRefused: ``ALREADY_IN_CLAN``, ``NO_SUCH_CLAN``, ``NO_SUCH_PLAYER``.
        """
        now = self._clock()

        def work(tx: StoreTx) -> None:
            self._require_player(tx, player_id)
            if not tx.execute("SELECT 1 FROM clans WHERE id = ?", (clan_id,)):
                raise PlayerRefused(PlayerCode.NO_SUCH_CLAN, f"no clan {clan_id}")
            if tx.execute("SELECT 1 FROM clan_members WHERE player_id = ?", (player_id,)):
                raise PlayerRefused(PlayerCode.ALREADY_IN_CLAN, f"player {player_id}")
            empty = not tx.execute("SELECT 1 FROM clan_members WHERE clan_id = ?", (clan_id,))
            role = ClanRole.LEADER if empty else ClanRole.MEMBER
            tx.execute(
                "INSERT INTO clan_members (player_id, clan_id, role, joined_at)"
                " VALUES (?, ?, ?, ?)",
                (player_id, clan_id, role.value, now),
            )

        self.ledger.store.run_write(work)
        member = self.membership(player_id)
        assert member is not None
        return member

    def leave_clan(self, player_id: int) -> None:
        """Leave one's clan.

        :raises PlayerRefused: ``NOT_IN_CLAN``; ``LEADER_MUST_HAND_OVER`` for a leader whose
            clan has other members.
        """

        def work(tx: StoreTx) -> None:
            member = self._membership(tx, player_id)
            if member is None:
                raise PlayerRefused(PlayerCode.NOT_IN_CLAN, f"player {player_id}")
            if member.role is ClanRole.LEADER:
                count = tx.execute(
                    "SELECT COUNT(*) FROM clan_members WHERE clan_id = ?", (member.clan_id,)
                )[0][0]
                if int(count) > 1:
                    raise PlayerRefused(
                        PlayerCode.LEADER_MUST_HAND_OVER, "make another member leader first"
                    )
            tx.execute("DELETE FROM clan_members WHERE player_id = ?", (player_id,))

        self.ledger.store.run_write(work)

    def remove_member(self, actor_id: int, member_id: int) -> None:
        """Remove a member: the leader removes anyone else, an officer removes members.

        :raises PlayerRefused: ``NOT_IN_CLAN``, ``NOT_ALLOWED``.
        """

        def work(tx: StoreTx) -> None:
            actor, member = self._pair(tx, actor_id, member_id)
            allowed = actor.role is ClanRole.LEADER or (
                actor.role is ClanRole.OFFICER and member.role is ClanRole.MEMBER
            )
            if not allowed or actor_id == member_id:
                raise PlayerRefused(PlayerCode.NOT_ALLOWED, f"{actor.role} cannot remove")
            tx.execute("DELETE FROM clan_members WHERE player_id = ?", (member_id,))

        self.ledger.store.run_write(work)

    def set_role(self, actor_id: int, member_id: int, role: ClanRole | str) -> None:
        """The leader makes a member an officer or a member, or hands over the leadership
        (``role="leader"``: the old leader becomes an officer).

        :raises PlayerRefused: ``NOT_IN_CLAN``, ``NOT_ALLOWED``, ``ROLE_INVALID``.
        """
        try:
            new_role = ClanRole(role)
        except ValueError:
            raise PlayerRefused(PlayerCode.ROLE_INVALID, f"{role!r}") from None

        def work(tx: StoreTx) -> None:
            actor, _member = self._pair(tx, actor_id, member_id)
            if actor.role is not ClanRole.LEADER or actor_id == member_id:
                raise PlayerRefused(PlayerCode.NOT_ALLOWED, "only the leader sets roles")
            if new_role is ClanRole.LEADER:
                tx.execute(
                    "UPDATE clan_members SET role = 'officer' WHERE player_id = ?", (actor_id,)
                )
            tx.execute(
                "UPDATE clan_members SET role = ? WHERE player_id = ?",
                (new_role.value, member_id),
            )

        self.ledger.store.run_write(work)

    def clan(self, clan_id: int) -> Clan:
        """The clan with this id. :raises PlayerRefused: ``NO_SUCH_CLAN``."""
        with self.ledger.store.read() as tx:
            rows = tx.execute("SELECT id, name, xp, created_at FROM clans WHERE id = ?", (clan_id,))
        if not rows:
            raise PlayerRefused(PlayerCode.NO_SUCH_CLAN, f"no clan {clan_id}")
        return _clan(rows[0])

    def membership(self, player_id: int) -> ClanMember | None:
        """The player's clan membership, if any."""
        with self.ledger.store.read() as tx:
            return self._membership(tx, player_id)

    def members(self, clan_id: int) -> list[ClanMember]:
        """A clan's members, leader first."""
        with self.ledger.store.read() as tx:
            rows = tx.execute(
                "SELECT player_id, clan_id, role, joined_at FROM clan_members"
                " WHERE clan_id = ? ORDER BY CASE role WHEN 'leader' THEN 0"
                " WHEN 'officer' THEN 1 ELSE 2 END, joined_at, player_id",
                (clan_id,),
            )
        return [_member(row) for row in rows]

    def treasury(self, clan_id: int) -> int:
        """A clan treasury's balance."""
        account = self.ledger.account(clan_account(clan_id))
        return account.balance if account is not None else 0

    # ----- internals ---------------------------------------------------------------------
    def backfill_name_keys(self) -> int:
        """Give every player without one its :func:`~sanh.ledger.names.name_key` (players
        made before migration 3); how many were given one."""
        with self.ledger.store.read() as tx:
            rows = tx.execute("SELECT id, display_name FROM players WHERE name_key IS NULL")
        if not rows:
            return 0

        def work(tx: StoreTx) -> None:
            for player_id, display_name in rows:
                tx.execute(
                    "UPDATE players SET name_key = ? WHERE id = ?",
                    (name_key(display_name), player_id),
                )

        self.ledger.store.run_write(work)
        return len(rows)

    def _name_key_free(self, tx: StoreTx, display_name: str, player_id: int | None) -> str:
        """The name's key; :raises PlayerRefused: ``DISPLAY_NAME_TAKEN`` when a player other
        than ``player_id`` (registered or guest) has a name with the same key."""
        key = name_key(display_name)
        rows = tx.execute("SELECT id FROM players WHERE name_key = ?", (key,))
        if any(int(row[0]) != player_id for row in rows):
            raise PlayerRefused(
                PlayerCode.DISPLAY_NAME_TAKEN, f"{display_name!r} looks like another player's"
            )
        return key

    def _insert_player(
        self,
        username: str,
        display_name: str,
        language: str,
        password_hash: str,
        *,
        guest: bool,
        system: bool = False,
    ) -> Player:
        now = self._clock()

        def work(tx: StoreTx) -> int:
            if tx.execute("SELECT 1 FROM players WHERE username = ?", (username,)):
                raise PlayerRefused(PlayerCode.USERNAME_TAKEN, f"{username!r} is taken")
            key = name_key(display_name) if system else self._name_key_free(tx, display_name, None)
            rows = tx.execute(
                "INSERT INTO players (username, display_name, language, password_hash, guest,"
                " created_at, name_key) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (username, display_name, language, password_hash, int(guest), now, key),
            )
            return int(rows[0][0])

        return Player(
            self.ledger.store.run_write(work), username, display_name, language, guest, now
        )

    def _fetch_login(self, sql: str, key: object) -> Sequence[Any] | None:
        with self.ledger.store.read() as tx:
            rows = tx.execute(sql, (key,))
        return rows[0] if rows else None

    def _finish_login(self, player_id: int, stored_hash: str, secret: str) -> Player:
        try:
            self.hasher.verify(stored_hash, secret)
        except (VerificationError, InvalidHashError):
            raise PlayerRefused(
                PlayerCode.BAD_CREDENTIALS, "unknown username or wrong password"
            ) from None
        new_hash = self.hasher.hash(secret) if self.hasher.check_needs_rehash(stored_hash) else None
        return self.logged_in(player_id, new_hash)

    def logged_in(self, player_id: int, rehash: str | None = None) -> Player:
        """The second half of a log-in whose password was verified: note the time, store the
        ``rehash`` (the password hashed with the current parameters) if any, repair the
        wallet's grant; the player."""
        now = self._clock()

        def work(tx: StoreTx) -> None:
            tx.execute("UPDATE players SET last_login_at = ? WHERE id = ?", (now, player_id))
            if rehash is not None:
                tx.execute("UPDATE players SET password_hash = ? WHERE id = ?", (rehash, player_id))

        self.ledger.store.run_write(work)
        player = self.player(player_id)
        self.ensure_wallet(player)
        return player

    def _update_player(self, player_id: int, column: str, value: str) -> None:
        def work(tx: StoreTx) -> None:
            self._require_player(tx, player_id)
            tx.execute(f"UPDATE players SET {column} = ? WHERE id = ?", (value, player_id))

        self.ledger.store.run_write(work)

    def _require_player(self, tx: StoreTx, player_id: int) -> None:
        if not tx.execute("SELECT 1 FROM players WHERE id = ?", (player_id,)):
            raise PlayerRefused(PlayerCode.NO_SUCH_PLAYER, f"no player {player_id}")

    def _membership(self, tx: StoreTx, player_id: int) -> ClanMember | None:
        rows = tx.execute(
            "SELECT player_id, clan_id, role, joined_at FROM clan_members WHERE player_id = ?",
            (player_id,),
        )
        return _member(rows[0]) if rows else None

    def _pair(self, tx: StoreTx, actor_id: int, member_id: int) -> tuple[ClanMember, ClanMember]:
        actor = self._membership(tx, actor_id)
        member = self._membership(tx, member_id)
        if actor is None or member is None or actor.clan_id != member.clan_id:
            raise PlayerRefused(PlayerCode.NOT_IN_CLAN, "both must be in the same clan")
        return actor, member

    def clans_of(self, players: Sequence[int]) -> dict[int, int]:
        """Player id -> clan id, for the players of ``players`` who are in a clan."""
        return self._clans_of([p for p in players if p >= 0])

    def _clans_of(self, players: Sequence[int]) -> dict[int, int]:
        if not players:
            return {}
        with self.ledger.store.read() as tx:
            rows = tx.select_in(
                "SELECT player_id, clan_id FROM clan_members WHERE {where}",
                "player_id",
                sorted(set(players)),
            )
        return {int(player_id): int(clan_id) for player_id, clan_id in rows}


def _check_username(username: str) -> str:
    key = username.strip().casefold()
    if not _USERNAME.fullmatch(key) or key.startswith("guest"):
        raise PlayerRefused(
            PlayerCode.USERNAME_INVALID,
            f"{username!r}: 3 to 24 of a-z 0-9 _ . and not starting with 'guest'",
        )
    return key


def check_password(password: str) -> None:
    """:raises PlayerRefused: ``PASSWORD_TOO_SHORT``."""
    if len(password) < PASSWORD_LENGTH_MIN:
        raise PlayerRefused(
            PlayerCode.PASSWORD_TOO_SHORT, f"at least {PASSWORD_LENGTH_MIN} characters"
        )


def _check_display_name(name: str) -> str:
    clean = clean_display_name(name)
    if clean is None or not clean.isprintable():
        raise PlayerRefused(
            PlayerCode.DISPLAY_NAME_INVALID, f"{name!r}: 1 to {NAME_LENGTH_MAX} characters"
        )
    return clean


def _check_player_name(name: str) -> str:
    """A name a player chose: clean (:func:`_check_display_name`) and not reserved."""
    clean = _check_display_name(name)
    if reserved(clean):
        raise PlayerRefused(
            PlayerCode.DISPLAY_NAME_RESERVED, f"{clean!r} looks like the house, staff or a bot"
        )
    return clean


def _bound(
    hook: Callable[[TxHandle, Player], None] | None, player: Player
) -> Callable[[TxHandle], None] | None:
    """``hook`` with its player given (None stays None)."""
    if hook is None:
        return None
    return lambda tx: hook(tx, player)


def _check_language(language: str) -> str:
    if language not in LANGUAGES:
        raise PlayerRefused(PlayerCode.LANGUAGE_INVALID, f"{language!r} is not vi or en")
    return language
