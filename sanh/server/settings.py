"""Server settings: defaults, then a TOML file, then ``SANH_*`` environment, then flags."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

__all__ = ["Settings", "load_settings"]


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the hall server is configured by. Durations are seconds."""

    host: str = "127.0.0.1"
    port: int = 8000
    db: str = "sqlite:///sanh.db"
    """Database URL: ``sqlite:///path`` (embedded default) or ``postgresql://...``."""
    starting_grant: int = 1_000_000
    """Play gold granted to a new account, in minor units (10,000 gold)."""
    turn_timer: float = 15.0
    quick_turn_timer: float = 7.0
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
    log_json: bool = True

    def scaled(self, seconds: float) -> float:
        """A duration after :attr:`timer_scale`."""
        return seconds * self.timer_scale


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
