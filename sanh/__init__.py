"""sanh: a real-time card-game hall with exact rules engines, a play-money ledger and bots.

The stable API is re-exported here; everything else is reachable through its subpackage.
"""

from __future__ import annotations

from sanh.errors import (
    ConfigError,
    IllegalActionError,
    LedgerError,
    NotationError,
    NotYourTurnError,
    ProtocolError,
    SanhError,
)
from sanh.types import UNITS_PER_GOLD, Chips, Seat, format_gold

__version__ = "0.1.0"

__all__ = [
    "UNITS_PER_GOLD",
    "Chips",
    "ConfigError",
    "IllegalActionError",
    "LedgerError",
    "NotYourTurnError",
    "NotationError",
    "ProtocolError",
    "SanhError",
    "Seat",
    "__version__",
    "format_gold",
]
