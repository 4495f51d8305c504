"""Versioned schema migrations for both stores.

Each :class:`Migration` has a version, a name and its statements for SQLite and for
PostgreSQL. ``schema_migrations`` records the versions applied, and
:meth:`~sanh.ledger.store.LedgerStore.migrate` applies the ones a database still needs.
A store applies each migration in its own transaction, holding the write lock (SQLite
``BEGIN IMMEDIATE``, a PostgreSQL advisory lock), so two processes opening a new database at
once apply each migration once. Migrations only ever get appended: never edit one that has
shipped.

Version 1, the ledger::

    accounts(id TEXT PK, flags INT, debits_pending, debits_posted, credits_pending,
             credits_posted BIGINT >= 0, created_at BIGINT,
             CHECK flags & 1 OR debits_posted + debits_pending <= credits_posted)
    batches(id TEXT PK, size INT, digest TEXT, created_at BIGINT)
    transfers(seq PK, id TEXT UNIQUE, batch_id -> batches, kind, debit_account -> accounts,
              credit_account -> accounts, amount BIGINT > 0, code, pending_id, reversal_of,
              memo, timestamp BIGINT, CHECK debit_account <> credit_account,
              CHECK kind IN (post, void) = pending_id IS NOT NULL)
    indexes: (debit_account, seq), (credit_account, seq), (batch_id), open holds (seq)
             WHERE kind = 'pending', UNIQUE (pending_id) and UNIQUE (reversal_of) where set

``transfers`` and ``batches`` refuse UPDATE and DELETE (triggers): corrections are reversing
transfers. The unique ``pending_id`` lets a hold be posted or voided at most once, and the
unique ``reversal_of`` lets a transfer be reversed at most once, even against concurrent
writers.

Version 2, players, progress and clans::

    players(id PK, username UNIQUE, display_name, language, password_hash, guest,
            created_at, last_login_at)
    clans(id PK, name, name_key UNIQUE, xp, created_at)
    clan_members(player_id PK -> players, clan_id -> clans, role, joined_at)
        with one leader per clan (a partial unique index)
    player_stats(player_id -> players, game, hands, wins, xp, play_time_ms, PK(player_id, game))

Version 3, who may ask for gold, and who looks like whom::

    players.name_key TEXT (sanh/ledger/names.py), indexed: a name confusable with another's
    auth_events(kind, subject, at BIGINT): guests created and registrations per address, failed
        log-ins per account and per address (the server's limits, sanh/server/guard.py), kept
        across restarts; indexed (kind, subject, at)
    the account ``promotions`` (may go negative, like the house): the house's promotions,
        which pays the daily gold (``daily:<player account>:<day>``, once per player and day)

Version 4, friends (sanh/server/friends.py)::

    friend_requests(from_id -> players, to_id -> players, at, PK(from_id, to_id)), by (to_id)
    friendships(player_id -> players, friend_id -> players, since, PK(player_id, friend_id)):
        one row each way
    blocks(player_id -> players, blocked_id -> players, at, PK(player_id, blocked_id))
    players.hide_table INTEGER 0/1: friends see the player online but not at which table

Version 5, leaderboards (sanh/server/leaderboards.py)::

    the hall's hand records (``hands``, ``hand_players``, ``hall_bots``) created here if the
        hall has not created them yet (the same definitions as sanh/server/wallet_services.py)
    leaderboard(game, period, player_id, net, hands, best, PK(game, period, player_id)):
        per game (``*``: every game) and calendar day (``YYYY-MM-DD``; ``all``: all time),
        one player's net gold won, hands played and best single-hand win; written with the
        hand record, in its transaction; bots are never in it. Indexed (game, period, net,
        player_id), the same with hands and best: a day's or all time's top N is an index
        range read, a week's a range of 7 days' rows
    clan_xp(game, period, clan_id, xp, PK(game, period, clan_id)), indexed (game, period, xp,
        clan_id): the XP clans earned, the same way
    the all-time rows filled from the hand records already there (and ``clans.xp`` for every
        game together); earlier days are not rebuilt (their calendar is the hall's zone)

Version 6, Sit & Go tournaments (sanh/server/tournaments.py)::

    tournaments(id TEXT PK, status TEXT, state TEXT (JSON: sanh/tournaments/sitgo.py), created_at),
        by (status, created_at): written in the transaction of each of its ledger batches
        (sanh/ledger/tourney.py) and of each of its table's settlements
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MIGRATIONS", "Migration", "latest_version"]


@dataclass(frozen=True, slots=True)
class Migration:
    """One schema step. ``{now}`` in a statement is replaced by the time in nanoseconds."""

    version: int
    name: str
    sqlite: tuple[str, ...]
    postgresql: tuple[str, ...]

    def statements(self, dialect: str) -> tuple[str, ...]:
        """The statements for ``"sqlite"`` or ``"postgresql"``."""
        return self.sqlite if dialect == "sqlite" else self.postgresql


_ACCOUNTS = """
CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    flags INTEGER NOT NULL DEFAULT 0,
    debits_pending BIGINT NOT NULL DEFAULT 0 CHECK (debits_pending >= 0),
    debits_posted BIGINT NOT NULL DEFAULT 0 CHECK (debits_posted >= 0),
    credits_pending BIGINT NOT NULL DEFAULT 0 CHECK (credits_pending >= 0),
    credits_posted BIGINT NOT NULL DEFAULT 0 CHECK (credits_posted >= 0),
    created_at BIGINT NOT NULL,
    CHECK ((flags & 1) = 1 OR debits_posted + debits_pending <= credits_posted)
)"""

_BATCHES = """
CREATE TABLE batches (
    id TEXT PRIMARY KEY,
    size INTEGER NOT NULL CHECK (size >= 0),
    digest TEXT NOT NULL,
    created_at BIGINT NOT NULL
)"""

_TRANSFERS = """
CREATE TABLE transfers (
    seq {serial},
    id TEXT NOT NULL UNIQUE,
    batch_id TEXT REFERENCES batches (id),
    kind TEXT NOT NULL CHECK (kind IN ('single', 'pending', 'post', 'void')),
    debit_account TEXT NOT NULL REFERENCES accounts (id),
    credit_account TEXT NOT NULL REFERENCES accounts (id),
    amount BIGINT NOT NULL CHECK (amount > 0),
    code TEXT NOT NULL,
    pending_id TEXT,
    reversal_of TEXT,
    memo TEXT NOT NULL DEFAULT '',
    timestamp BIGINT NOT NULL,
    CHECK (debit_account <> credit_account),
    CHECK ((kind IN ('post', 'void')) = (pending_id IS NOT NULL))
)"""

_LEDGER_INDEXES = (
    "CREATE INDEX transfers_by_debit ON transfers (debit_account, seq)",
    "CREATE INDEX transfers_by_credit ON transfers (credit_account, seq)",
    "CREATE INDEX transfers_by_batch ON transfers (batch_id)",
    "CREATE INDEX transfers_holds ON transfers (seq) WHERE kind = 'pending'",
    "CREATE UNIQUE INDEX transfers_resolve_once ON transfers (pending_id)"
    " WHERE pending_id IS NOT NULL",
    "CREATE UNIQUE INDEX transfers_reverse_once ON transfers (reversal_of)"
    " WHERE reversal_of IS NOT NULL",
    "INSERT INTO accounts (id, flags, created_at) VALUES"
    " ('issuer', 1, {now}), ('house', 1, {now}), ('fees', 0, {now}), ('breakage', 0, {now})",
)

_SQLITE_IMMUTABLE = tuple(
    f"CREATE TRIGGER {table}_no_{verb} BEFORE {verb.upper()} ON {table}"
    f" BEGIN SELECT RAISE(ABORT, 'ledger rows are immutable: {table}'); END"
    for table in ("transfers", "batches")
    for verb in ("update", "delete")
)

_PG_IMMUTABLE = (
    """CREATE FUNCTION sanh_reject_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'ledger rows are immutable: %', TG_TABLE_NAME;
END
$$""",
    *(
        f"CREATE TRIGGER {table}_immutable BEFORE UPDATE OR DELETE ON {table}"
        " FOR EACH ROW EXECUTE FUNCTION sanh_reject_change()"
        for table in ("transfers", "batches")
    ),
    *(
        f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table}"
        " FOR EACH STATEMENT EXECUTE FUNCTION sanh_reject_change()"
        for table in ("transfers", "batches")
    ),
)

_SQLITE_SERIAL = "INTEGER PRIMARY KEY"
_PG_SERIAL = "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"

_PLAYERS = """
CREATE TABLE players (
    id {serial},
    username TEXT NOT NULL UNIQUE,
    display_name TEXT NOT NULL,
    language TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    guest INTEGER NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    last_login_at BIGINT
)"""

_CLANS = """
CREATE TABLE clans (
    id {serial},
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    xp BIGINT NOT NULL DEFAULT 0 CHECK (xp >= 0),
    created_at BIGINT NOT NULL
)"""

_PLAYER_TABLES = (
    """CREATE TABLE clan_members (
    player_id BIGINT PRIMARY KEY REFERENCES players (id),
    clan_id BIGINT NOT NULL REFERENCES clans (id),
    role TEXT NOT NULL CHECK (role IN ('leader', 'officer', 'member')),
    joined_at BIGINT NOT NULL
)""",
    "CREATE UNIQUE INDEX clan_one_leader ON clan_members (clan_id) WHERE role = 'leader'",
    "CREATE INDEX clan_members_by_clan ON clan_members (clan_id)",
    """CREATE TABLE player_stats (
    player_id BIGINT NOT NULL REFERENCES players (id),
    game TEXT NOT NULL,
    hands BIGINT NOT NULL DEFAULT 0,
    wins BIGINT NOT NULL DEFAULT 0,
    xp BIGINT NOT NULL DEFAULT 0,
    play_time_ms BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (player_id, game)
)""",
)

_SQLITE_PLAYER_SERIAL = "INTEGER PRIMARY KEY AUTOINCREMENT"
_PG_PLAYER_SERIAL = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"

_GUARD = (
    "ALTER TABLE players ADD COLUMN name_key TEXT",
    "CREATE INDEX players_by_name_key ON players (name_key)",
    """CREATE TABLE auth_events (
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    at BIGINT NOT NULL
)""",
    "CREATE INDEX auth_events_by_subject ON auth_events (kind, subject, at)",
    "INSERT INTO accounts (id, flags, created_at) VALUES ('promotions', 1, {now})",
)

_FRIENDS = (
    """CREATE TABLE friend_requests (
    from_id BIGINT NOT NULL REFERENCES players (id),
    to_id BIGINT NOT NULL REFERENCES players (id),
    at BIGINT NOT NULL,
    PRIMARY KEY (from_id, to_id),
    CHECK (from_id <> to_id)
)""",
    "CREATE INDEX friend_requests_to ON friend_requests (to_id)",
    """CREATE TABLE friendships (
    player_id BIGINT NOT NULL REFERENCES players (id),
    friend_id BIGINT NOT NULL REFERENCES players (id),
    since BIGINT NOT NULL,
    PRIMARY KEY (player_id, friend_id),
    CHECK (player_id <> friend_id)
)""",
    """CREATE TABLE blocks (
    player_id BIGINT NOT NULL REFERENCES players (id),
    blocked_id BIGINT NOT NULL REFERENCES players (id),
    at BIGINT NOT NULL,
    PRIMARY KEY (player_id, blocked_id),
    CHECK (player_id <> blocked_id)
)""",
    "CREATE INDEX blocks_by_blocked ON blocks (blocked_id)",
    "ALTER TABLE players ADD COLUMN hide_table INTEGER NOT NULL DEFAULT 0",
)

_HAND_RECORDS = (
    "CREATE TABLE IF NOT EXISTS hall_bots (player_id BIGINT PRIMARY KEY, label TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS hands ("
    " id TEXT PRIMARY KEY, table_id TEXT NOT NULL, hand INTEGER NOT NULL, game TEXT NOT NULL,"
    " players TEXT NOT NULL, config TEXT NOT NULL, events TEXT NOT NULL,"
    " settlement TEXT NOT NULL, server_seed TEXT, finished_at BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS hand_players ("
    " player_id BIGINT NOT NULL, hand_id TEXT NOT NULL, seat INTEGER NOT NULL,"
    " net BIGINT NOT NULL, finished_at BIGINT NOT NULL, PRIMARY KEY (player_id, hand_id))",
)

_BOARD_FILL = """
INSERT INTO leaderboard (game, period, player_id, net, hands, best)
SELECT {game}, 'all', hp.player_id, SUM(hp.net), COUNT(*),
       MAX(CASE WHEN hp.net > 0 THEN hp.net ELSE 0 END)
FROM hand_players hp JOIN hands h ON h.id = hp.hand_id
WHERE hp.player_id NOT IN (SELECT player_id FROM hall_bots)
GROUP BY {group}hp.player_id"""

_BOARDS = (
    *_HAND_RECORDS,
    """CREATE TABLE leaderboard (
    game TEXT NOT NULL,
    period TEXT NOT NULL,
    player_id BIGINT NOT NULL,
    net BIGINT NOT NULL,
    hands BIGINT NOT NULL,
    best BIGINT NOT NULL,
    PRIMARY KEY (game, period, player_id)
)""",
    "CREATE INDEX leaderboard_net ON leaderboard (game, period, net, player_id)",
    "CREATE INDEX leaderboard_hands ON leaderboard (game, period, hands, player_id)",
    "CREATE INDEX leaderboard_best ON leaderboard (game, period, best, player_id)",
    """CREATE TABLE clan_xp (
    game TEXT NOT NULL,
    period TEXT NOT NULL,
    clan_id BIGINT NOT NULL REFERENCES clans (id),
    xp BIGINT NOT NULL,
    PRIMARY KEY (game, period, clan_id)
)""",
    "CREATE INDEX clan_xp_top ON clan_xp (game, period, xp, clan_id)",
    _BOARD_FILL.replace("{game}", "h.game").replace("{group}", "h.game, "),
    _BOARD_FILL.replace("{game}", "'*'").replace("{group}", ""),
    "INSERT INTO clan_xp (game, period, clan_id, xp)"
    " SELECT '*', 'all', id, xp FROM clans WHERE xp > 0",
)
"""Earlier hands fill the all-time rows only: their calendar day depends on the hall's zone."""

_TOURNAMENTS = (
    """CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    state TEXT NOT NULL,
    created_at BIGINT NOT NULL
)""",
    "CREATE INDEX tournaments_by_status ON tournaments (status, created_at)",
)

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "ledger: accounts, batches, immutable transfers, system accounts",
        sqlite=(
            _ACCOUNTS,
            _BATCHES,
            _TRANSFERS.replace("{serial}", _SQLITE_SERIAL),
            *_LEDGER_INDEXES,
            *_SQLITE_IMMUTABLE,
        ),
        postgresql=(
            _ACCOUNTS,
            _BATCHES,
            _TRANSFERS.replace("{serial}", _PG_SERIAL),
            *_LEDGER_INDEXES,
            *_PG_IMMUTABLE,
        ),
    ),
    Migration(
        2,
        "players, per-game progress, clans",
        sqlite=(
            _PLAYERS.replace("{serial}", _SQLITE_PLAYER_SERIAL),
            _CLANS.replace("{serial}", _SQLITE_PLAYER_SERIAL),
            *_PLAYER_TABLES,
        ),
        postgresql=(
            _PLAYERS.replace("{serial}", _PG_PLAYER_SERIAL),
            _CLANS.replace("{serial}", _PG_PLAYER_SERIAL),
            *_PLAYER_TABLES,
        ),
    ),
    Migration(
        3,
        "display-name keys, the server's limits, the promotions account",
        sqlite=_GUARD,
        postgresql=_GUARD,
    ),
    Migration(4, "friends, requests, blocks, hiding one's table", _FRIENDS, _FRIENDS),
    Migration(5, "leaderboards by game and day, clans' XP by day", _BOARDS, _BOARDS),
    Migration(6, "Sit & Go tournaments", _TOURNAMENTS, _TOURNAMENTS),
)
"""Every migration, in order of version."""


def latest_version() -> int:
    """The version a fully migrated database has."""
    return MIGRATIONS[-1].version
