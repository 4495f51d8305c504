"""Server settings: defaults, then a TOML file, then ``SANH_*`` environment, then flags.

Every source is checked against the typed fields of :class:`Settings` (``msgspec.convert``):
a value of the wrong type or out of range, an unknown key in the file, an unknown ``SANH_*``
variable (except :data:`FOREIGN_ENV`, which belong to the tests and tools) or an unknown
``--set`` name is a :class:`SettingsError` naming the setting and where it came from, which
``sanh serve`` prints as one line before exiting with status 2 (never a silent default).

The platform rules of RULES.md that are the hall's, not a table's, are settings here
(``docs/options.md`` maps each RULES.md name): ``platform.turn_timer_s`` is :attr:`turn_timer`
(:attr:`quick_turn_timer` at a quick table), ``platform.xp_*`` are :attr:`xp_per_hand` and
:attr:`xp_per_win`, ``aof.enabled`` is :attr:`aof_enabled`.
"""

from __future__ import annotations

import functools
import os
import time
import tomllib
import typing
from dataclasses import dataclass, fields, replace
from datetime import datetime, timedelta, timezone, tzinfo
from pathlib import Path
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import msgspec
from msgspec import Meta

from sanh.games import REGISTRY
from sanh.ledger.players import HallConfig
from sanh.server.guard import Limits

__all__ = ["FOREIGN_ENV", "Settings", "SettingsError", "load_settings", "parse_assignment"]

_WALLET = HallConfig()
"""The wallet's defaults (grants, XP), which the settings pass on (:meth:`Settings.hall_config`)."""


REVEAL_SEEDS = ("house", "all", "none")
"""The values of :attr:`Settings.reveal_seeds`."""

FOREIGN_ENV = frozenset({"SANH_CONFIG", "SANH_EVAL_THREADS", "SANH_SHARED", "SANH_CHROMIUM"})
"""``SANH_*`` variables that are not hall settings, which :func:`load_settings` lets pass:
the settings file's path, the evaluator's thread limit (``sanh/hostinfo.py``), the test
suite's shared folder and browser; so are every ``SANH_TEST_*`` and ``SANH_BENCH_*``
(the tests' and benchmarks' own knobs)."""

FOREIGN_ENV_PREFIXES = ("SANH_TEST_", "SANH_BENCH_")

Port = Annotated[int, Meta(ge=0, le=65535)]
"""A TCP port; 0 asks the system for a free one."""
Seconds = Annotated[float, Meta(ge=0)]
"""A duration in seconds, never negative."""
Count = Annotated[int, Meta(ge=0)]
"""A count or an amount, never negative."""
DatabaseUrl = Annotated[str, Meta(pattern=r"^(sqlite:///.+|postgres(ql)?://.*|(?![a-z]+://).+)$")]
"""``sqlite:///PATH``, ``postgresql://...`` or a bare SQLite path (``sanh/ledger/store.py``)."""
Positive = Annotated[float, Meta(gt=0)]
Bytes = Annotated[int, Meta(ge=1)]


class SettingsError(ValueError):
    """A setting that cannot be used: one line naming the setting and its source."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the hall server is configured by. Durations are seconds."""

    host: str = "127.0.0.1"
    port: Port = 8000
    db: DatabaseUrl = "sqlite:///sanh.db"
    """Database URL: ``sqlite:///path`` (embedded default) or ``postgresql://...``."""
    starting_grant: Count = _WALLET.starting_grant
    """Play gold granted to a registered player's new wallet, in minor units (100,000 gold)."""
    guest_grant: Count = _WALLET.guest_grant
    """Play gold granted to a new guest, in minor units (1,000 gold)."""
    xp_per_hand: Count = _WALLET.xp_per_hand
    """``platform.xp_per_hand`` (RULES.md §2.9 ``platform.xp_*``): XP for each hand played, in
    the games that count XP (not Tài Xỉu)."""
    xp_per_win: Count = _WALLET.xp_per_win
    """``platform.xp_per_win``: extra XP for a hand with a positive result."""
    turn_timer: Positive = 15.0
    """``platform.turn_timer_s`` (RULES.md §2.5): a turn's time, seconds."""
    quick_turn_timer: Positive = 7.0
    """``platform.turn_timer_s`` at a quick table (``table.quick_mode``, A-PL5)."""
    aof_enabled: bool = True
    """``aof.enabled`` (RULES.md §4.9, A-HE8): the hall offers All-in or Fold (the game that
    declares this setting, ``Hosting.enabled_by``), its own game: a bot table at start and new
    tables. Off, tables already open play on."""
    buyin_timer: Positive = 5.0
    between_hands: Seconds = 3.0
    bot_delay: Seconds = 0.6
    reconnect_grace: Seconds = 30.0
    """How long the seat of a player who is gone between hands is kept for them."""
    bot_samples: Count = 150
    """Most Monte-Carlo samples a bot may draw per decision (its thinking time blocks the
    table loop: 150 samples is about 10 ms); 0 keeps each bot's own setting."""
    timer_scale: Positive = 1.0
    """Multiplies every duration (tests run the clock fast)."""
    bots_on_start: bool = True
    """Open the system tables (and bot tables) when the server starts."""
    max_message_bytes: Bytes = 8192
    """Client frames larger than this get a ``too_large`` error (and change nothing)."""
    max_frame_bytes: Bytes = 65536
    """Frames larger than this close the connection (code 1009) before they are read."""
    ws_compression: bool = False
    """permessage-deflate on the WebSocket (off: views are small, CPU is dear)."""
    rate_per_second: Positive = 20.0
    rate_burst: Count = 40
    hello_timeout: Positive = 10.0
    """A WebSocket that has not signed in (a valid ``hello``) this long after it opened is
    closed (code 1008)."""
    max_strikes: Count = 200
    """Refused frames (too large, too fast) that close a connection (code 1008)..."""
    strike_window: Seconds = 60.0
    """...within this many seconds: older strikes are forgotten."""
    log_json: bool = True
    """Log lines as JSON objects (access log lines with their fields), else plain text."""
    access_log: bool = True
    """Log every HTTP request: method, path, status, ``duration_ms``, ``request_id``."""
    lock_wait: Seconds = 3.0
    """How long ``sanh serve`` waits for another hall to let go of the database (one hall per
    database) before it gives up, exiting non-zero without touching a table."""
    reveal_seeds: Literal["house", "all", "none"] = "house"
    """Whose hands' server seeds are revealed after the hand (provably fair, issue 2):
    ``house`` (default) reveals a house game's round (Tài Xỉu, Three Card Poker, Teen Patti:
    every hand dealt is shown at settlement, and the seed proves the deal); a player-vs-player
    hand's seed stays in the hand's record, for the operator to check with ``sanh verify``,
    because it rebuilds the deck and so folded hands and the stock, which RULES.md §2.10 says
    are never sent. ``all`` reveals every hand's seed; ``none`` none."""
    guests_per_hour: Count = 20
    """Guests one client address may create in any hour (``429 too_many_guests`` beyond)."""
    registrations_per_hour: Count = 10
    """Registrations from one client address in any hour (``429 too_many_registrations``)."""
    tables_per_player: Count = 3
    """Open tables one player may host (``409 too_many_tables`` beyond): a table counts while
    anyone, a person or a bot, sits at it, or for 10 minutes after its creation
    (sanh/server/limits.py). The hall's own tables are not counted."""
    tables_per_hour: Count = 20
    """Tables one player may create in an hour, after a burst of :attr:`tables_burst`
    (``429 tables_too_fast`` with ``Retry-After``)."""
    tables_burst: Count = 5
    """Tables one player may create at once before :attr:`tables_per_hour` paces them."""
    login_free_failures: Count = 5
    """Failed log-ins to one account before each further attempt waits (``429
    too_many_logins``): :attr:`login_backoff` after the last failure, doubled per failure."""
    login_free_failures_per_address: Count = 20
    """The same from one client address, whatever the accounts."""
    login_backoff: Seconds = 2.0
    """The first wait after too many failed log-ins, seconds."""
    login_backoff_max: Seconds = 900.0
    """The longest wait, seconds."""
    login_parallel_per_address: Count = 8
    """Log-ins from one client address being checked at once (one per account); more answer
    ``429 login_too_fast`` (sanh/server/auth.py)."""
    password_workers: Count = 2
    """Threads that hash and verify passwords, off the event loop (sanh/server/passwords.py)."""
    password_queue: Count = 32
    """Passwords waiting for a worker at most; beyond, ``429 hall_busy``."""
    daily_gold: Count = 100_000
    """The daily gold (``POST /api/daily``), minor units (1,000 gold), from the promotions
    account, once per player and calendar day in :attr:`day_zone`..."""
    daily_below: Count = 100_000
    """...to a player whose gold (wallet, held gold and table stakes) is below this."""
    day_zone: str = "Asia/Ho_Chi_Minh"
    """The time zone whose calendar days the daily gold counts."""
    fixed_now: Seconds = 0.0
    """For tests: the time (seconds since the epoch) the account limits and the daily gold
    read instead of the clock; 0 reads the clock."""

    house_tai_xiu_tables: bool = False
    """Let ``POST /api/tables`` open house-banked Tài Xỉu tables. Off (the rule): seed 001 has
    exactly one table for playing against the house, the hall's own (``<game>-system``), and
    players create player-hosted Tài Xỉu tables only; test suites that need several house
    rounds with their own clocks turn it on."""

    def __post_init__(self) -> None:
        if self.reveal_seeds not in REVEAL_SEEDS:
            allowed = ", ".join(REVEAL_SEEDS)
            raise ValueError(f"reveal_seeds must be one of {allowed}, not {self.reveal_seeds!r}")
        if self.day_zone != "Asia/Ho_Chi_Minh":  # that one has a fallback (calendar_day)
            try:
                ZoneInfo(self.day_zone)
            except (ZoneInfoNotFoundError, ValueError):
                raise ValueError(f"day_zone: no time zone {self.day_zone!r}") from None

    def wall_time(self) -> float:
        """Seconds since the epoch for the account limits and the daily gold
        (:attr:`fixed_now` when set)."""
        return self.fixed_now or time.time()

    def limits(self) -> Limits:
        """The account limits (:mod:`sanh.server.guard`) of these settings."""
        return Limits(
            guests_per_hour=self.guests_per_hour,
            registrations_per_hour=self.registrations_per_hour,
            login_free_failures=self.login_free_failures,
            login_free_failures_per_address=self.login_free_failures_per_address,
            login_backoff=self.login_backoff,
            login_backoff_max=self.login_backoff_max,
        )

    def calendar_day(self, now: float) -> str:
        """The day (``YYYY-MM-DD``) in :attr:`day_zone` at ``now`` (seconds since the epoch)."""
        try:
            zone: tzinfo = ZoneInfo(self.day_zone)
        except ZoneInfoNotFoundError:
            if self.day_zone != "Asia/Ho_Chi_Minh":
                raise
            zone = timezone(timedelta(hours=7))  # no tz database: Vietnam has no DST
        return datetime.fromtimestamp(now, zone).date().isoformat()

    def reveals_seed(self, banked: bool) -> bool:
        """Whether a hand's server seed goes to its players after the hand (:attr:`reveal_seeds`;
        ``banked``: a house game)."""
        return self.reveal_seeds == "all" or (self.reveal_seeds == "house" and banked)

    def scaled(self, seconds: float) -> float:
        """A duration after :attr:`timer_scale`."""
        return seconds * self.timer_scale

    def hall_config(self) -> HallConfig:
        """The wallet's platform settings (grants, XP) from these settings."""
        return replace(
            _WALLET,
            starting_grant=self.starting_grant,
            guest_grant=self.guest_grant,
            xp_per_hand=self.xp_per_hand,
            xp_per_win=self.xp_per_win,
        )

    def game_offered(self, game_id: str) -> bool:
        """Whether the hall offers this game: always, unless the game declares the setting that
        switches it (``Hosting.enabled_by``: All-in or Fold's :attr:`aof_enabled`)."""
        game = REGISTRY.get(game_id)
        setting = None if game is None else game.info.hosting.enabled_by
        return setting is None or getattr(self, setting, False) is True


_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})
_FIELDS = {f.name: f for f in fields(Settings)}


def _text_value(name: str, raw: str) -> Any:
    """A setting written as text (environment, ``--set``, a flag), before type checks: the
    booleans' words are read here, numbers by ``msgspec.convert``."""
    if _FIELDS[name].type == "bool":
        word = raw.strip().lower()
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
    return raw


def parse_assignment(text: str) -> tuple[str, str]:
    """``NAME=VALUE`` (a ``--set`` argument) as its name and text.

    >>> parse_assignment("turn_timer=20")
    ('turn_timer', '20')
    >>> parse_assignment("lock-wait = 0")
    ('lock_wait', '0')
    """
    name, sep, value = text.partition("=")
    name = name.strip().replace("-", "_")
    if not sep or not name:
        raise SettingsError(f"--set {text!r}: expected NAME=VALUE")
    return name, value.strip()


def _file_settings(named: str | Path | None) -> dict[str, tuple[Any, str]]:
    """The settings of the TOML file (``named``, else ``sanh.toml`` if present) with their
    source: a file that is named must exist."""
    path = Path(named or "sanh.toml")
    if named and not path.is_file():
        raise SettingsError(f"settings file {path}: not found")
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SettingsError(f"settings file {path}: {exc}") from None
    if isinstance(data.get("server"), dict):
        others = sorted(set(data) - {"server"})
        if others:
            raise SettingsError(f"settings file {path}: unknown table or key {others[0]}")
        data = data["server"]
    out: dict[str, tuple[Any, str]] = {}
    for key, value in data.items():
        if key not in _FIELDS:
            raise SettingsError(f"unknown setting {key} (settings file {path})")
        out[key] = value, f"settings file {path}"
    return out


def load_settings(
    *,
    file: str | Path | None = None,
    env: dict[str, str] | None = None,
    text: dict[str, tuple[str, str]] | None = None,
    **overrides: Any,
) -> Settings:
    """Settings from defaults < TOML file < environment (``SANH_PORT``...) < ``text`` <
    keyword overrides, checked against the fields' types.

    The file is ``file``, else ``$SANH_CONFIG``, else ``sanh.toml`` in the working directory if
    present (a file named by ``file`` or ``$SANH_CONFIG`` must exist). ``text`` maps setting
    names to (source, value as text): flags and ``--set``. ``None`` overrides are ignored.

    :raises SettingsError: one line naming the bad or unknown setting and its source.

    >>> load_settings(env={"SANH_PORT": "0"}, file="/nonexistent", text={}).port
    Traceback (most recent call last):
    ...
    sanh.server.settings.SettingsError: settings file /nonexistent: not found
    >>> load_settings(env={"SANH_PORT": "9001", "SANH_LOG_JSON": "off"}).port
    9001
    >>> load_settings(env={"SANH_PORT": "http"})
    Traceback (most recent call last):
    ...
    sanh.server.settings.SettingsError: setting port (SANH_PORT='http'): Expected `int`, got `str`
    >>> load_settings(env={"SANH_TURN_TIMR": "9"})
    Traceback (most recent call last):
    ...
    sanh.server.settings.SettingsError: unknown setting turn_timr (SANH_TURN_TIMR)
    """
    environ = dict(os.environ if env is None else env)
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for key, value in _file_settings(file or environ.get("SANH_CONFIG")).items():
        values[key], sources[key] = value
    for key, raw in sorted(environ.items()):
        if not key.startswith("SANH_") or key in FOREIGN_ENV:
            continue
        if key.startswith(FOREIGN_ENV_PREFIXES):
            continue
        name = key.removeprefix("SANH_").lower()
        if name not in _FIELDS:
            raise SettingsError(f"unknown setting {name} ({key})")
        values[name] = _text_value(name, raw)
        sources[name] = f"{key}={raw!r}"
    for name, (source, raw) in (text or {}).items():
        if name not in _FIELDS:
            raise SettingsError(f"unknown setting {name} ({source})")
        values[name] = _text_value(name, raw)
        sources[name] = f"{source}={raw!r}"
    for name, value in overrides.items():
        if value is None:
            continue
        if name not in _FIELDS:
            raise SettingsError(f"unknown setting {name}")
        values[name] = value
        sources[name] = f"{name}={value!r}"
    checked: dict[str, Any] = {}
    for name, value in values.items():
        try:
            checked[name] = msgspec.convert(value, _types()[name], strict=False)
        except msgspec.ValidationError as exc:
            reason = str(exc).replace("\n", " ").removesuffix(" - at `$`")
            if "matching regex" in reason and name == "db":
                reason = "expected sqlite:///PATH, postgresql://... or a file path"
            raise SettingsError(f"setting {name} ({sources[name]}): {reason}") from None
    try:
        return replace(Settings(), **checked)
    except ValueError as exc:  # a check of Settings itself, across fields
        raise SettingsError(f"settings: {exc}") from None


@functools.cache
def _types() -> dict[str, Any]:
    """Each setting's type, with its bounds (``Annotated``), for ``msgspec.convert``."""
    return typing.get_type_hints(Settings, include_extras=True)
