"""Server settings: defaults, then a TOML file, then ``SANH_*`` environment, then flags.

The platform rules of RULES.md that are the hall's, not a table's, are settings here
(``docs/options.md`` maps each RULES.md name): ``platform.turn_timer_s`` is :attr:`turn_timer`
(:attr:`quick_turn_timer` at a quick table), ``platform.xp_*`` are :attr:`xp_per_hand` and
:attr:`xp_per_win`, ``aof.enabled`` is :attr:`aof_enabled`.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from sanh.ledger.players import HallConfig

__all__ = ["Settings", "load_settings"]

_WALLET = HallConfig()
"""The wallet's defaults (grants, XP), which the settings pass on (:meth:`Settings.hall_config`)."""


REVEAL_SEEDS = ("house", "all", "none")
"""The values of :attr:`Settings.reveal_seeds`."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the hall server is configured by. Durations are seconds."""

    host: str = "127.0.0.1"
    port: int = 8000
    db: str = "sqlite:///sanh.db"
    """Database URL: ``sqlite:///path`` (embedded default) or ``postgresql://...``."""
    starting_grant: int = _WALLET.starting_grant
    """Play gold granted to a registered player's new wallet, in minor units (100,000 gold)."""
    guest_grant: int = _WALLET.guest_grant
    """Play gold granted to a new guest, in minor units (100,000 gold)."""
    xp_per_hand: int = _WALLET.xp_per_hand
    """``platform.xp_per_hand`` (RULES.md §2.9 ``platform.xp_*``): XP for each hand played, in
    the games that count XP (not Tài Xỉu)."""
    xp_per_win: int = _WALLET.xp_per_win
    """``platform.xp_per_win``: extra XP for a hand with a positive result."""
    turn_timer: float = 15.0
    """``platform.turn_timer_s`` (RULES.md §2.5): a turn's time, seconds."""
    quick_turn_timer: float = 7.0
    """``platform.turn_timer_s`` at a quick table (``table.quick_mode``, A-PL5)."""
    aof_enabled: bool = True
    """``aof.enabled`` (RULES.md §4.9, A-HE8): the hall offers All-in or Fold (``poker-aof``),
    its own game: a bot table at start and new tables. Off, tables already open play on."""
    buyin_timer: float = 5.0
    between_hands: float = 3.0
    bot_delay: float = 0.6
    reconnect_grace: float = 30.0
    """How long the seat of a player who is gone between hands is kept for them."""
    bot_samples: int = 150
    """Most Monte-Carlo samples a bot may draw per decision (its thinking time blocks the
    table loop: 150 samples is about 10 ms); 0 keeps each bot's own setting."""
    timer_scale: float = 1.0
    """Multiplies every duration (tests run the clock fast)."""
    bots_on_start: bool = True
    """Open the system tables (and bot tables) when the server starts."""
    max_message_bytes: int = 8192
    """Client frames larger than this get a ``too_large`` error (and change nothing)."""
    max_frame_bytes: int = 65536
    """Frames larger than this close the connection (code 1009) before they are read."""
    ws_compression: bool = False
    """permessage-deflate on the WebSocket (off: views are small, CPU is dear)."""
    rate_per_second: float = 20.0
    rate_burst: int = 40
    hello_timeout: float = 10.0
    """A WebSocket that has not signed in (a valid ``hello``) this long after it opened is
    closed (code 1008)."""
    max_strikes: int = 200
    """Refused frames (too large, too fast) that close a connection (code 1008)..."""
    strike_window: float = 60.0
    """...within this many seconds: older strikes are forgotten."""
    log_json: bool = True
    reveal_seeds: str = "house"
    """Whose hands' server seeds are revealed after the hand (provably fair, issue 2):
    ``house`` (default) reveals a house game's round (Tài Xỉu, Three Card Poker, Teen Patti:
    every hand dealt is shown at settlement, and the seed proves the deal); a player-vs-player
    hand's seed stays in the hand's record, for the operator to check with ``sanh verify``,
    because it rebuilds the deck and so folded hands and the stock, which RULES.md §2.10 says
    are never sent. ``all`` reveals every hand's seed; ``none`` none."""

    house_tai_xiu_tables: bool = False
    """Let ``POST /api/tables`` open house-banked Tài Xỉu tables. Off (the rule): seed 001 has
    exactly one table for playing against the house, the hall's own (``tai-xiu-system``), and
    players create player-hosted Tài Xỉu tables only; test suites that need several house
    rounds with their own clocks turn it on."""

    def __post_init__(self) -> None:
        if self.reveal_seeds not in REVEAL_SEEDS:
            allowed = ", ".join(REVEAL_SEEDS)
            raise ValueError(f"reveal_seeds must be one of {allowed}, not {self.reveal_seeds!r}")

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
        """Whether the hall offers this game (``poker-aof`` only with :attr:`aof_enabled`)."""
        return game_id != "poker-aof" or self.aof_enabled


def _coerce(kind: Any, raw: str) -> Any:
    if kind in (int, "int"):
        return int(raw)
    if kind in (float, "float"):
        return float(raw)
    if kind in (bool, "bool"):
        return raw.strip().lower() in {"1", "true", "yes", "on"}
    return raw


def load_settings(
    *, file: str | Path | None = None, env: dict[str, str] | None = None, **overrides: Any
) -> Settings:
    """Settings from defaults < TOML file < environment (``SANH_PORT``...) < keyword overrides.

    The file defaults to ``$SANH_CONFIG`` or ``sanh.toml`` in the working directory, if present.
    """
    environ = dict(os.environ if env is None else env)
    settings = Settings()
    path = Path(file or environ.get("SANH_CONFIG", "sanh.toml"))
    if path.is_file():
        data = tomllib.loads(path.read_text())
        data = data.get("server", data)
        known = {f.name for f in fields(Settings)}
        settings = replace(settings, **{k: v for k, v in data.items() if k in known})
    changes: dict[str, Any] = {}
    for f in fields(Settings):
        key = "SANH_" + f.name.upper()
        if key in environ:
            changes[f.name] = _coerce(f.type, environ[key])
    settings = replace(settings, **changes)
    return replace(settings, **{k: v for k, v in overrides.items() if v is not None})
