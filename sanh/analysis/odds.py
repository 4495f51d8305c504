"""Exact odds reports and their registry.

A module ``sanh/analysis/odds_<name>.py`` defines ``PROVIDERS``: a dict from game id to a function
``(rules: str | None, table: str | None) -> OddsReport`` that computes every bet's house edge by
full enumeration or exact combinatorics, as :class:`fractions.Fraction` (no sampling, no rounding).

The JSON form (``sanh odds GAME --json``) is
``{"game": G, "rules": R, "bets": {BET: {"house_edge": float, "rtp": float,
"exact_house_edge": "p/q", ...extra}}}``.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sanh.analysis

__all__ = ["BetOdds", "OddsReport", "find_odds_provider", "odds_providers"]


@dataclass(frozen=True, slots=True)
class BetOdds:
    """One bet's exact expectation per unit staked (the initial stake)."""

    house_edge: Fraction
    """Expected loss per unit of initial stake."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Further facts: element of risk, strategy, hit frequency (floats, strings or Fractions)."""

    @property
    def rtp(self) -> Fraction:
        """Return to player: 1 - house edge."""
        return 1 - self.house_edge


@dataclass(frozen=True, slots=True)
class OddsReport:
    """Every bet of a game under one rule set."""

    game: str
    rules: str
    bets: dict[str, BetOdds]
    table: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` form."""
        bets: dict[str, Any] = {}
        for name, bet in self.bets.items():
            entry: dict[str, Any] = {
                "house_edge": float(bet.house_edge),
                "rtp": float(bet.rtp),
                "exact_house_edge": _frac(bet.house_edge),
                "exact_rtp": _frac(bet.rtp),
            }
            for key, value in bet.extra.items():
                if isinstance(value, Fraction):
                    entry[key] = float(value)
                    entry["exact_" + key] = _frac(value)
                else:
                    entry[key] = value
            bets[name] = entry
        out: dict[str, Any] = {"game": self.game, "rules": self.rules, "bets": bets}
        if self.table is not None:
            out["table"] = self.table
        return out


def _frac(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


OddsProvider = Callable[[str | None, str | None], OddsReport]


def odds_providers() -> dict[str, OddsProvider]:
    """Every registered provider by game id."""
    providers: dict[str, OddsProvider] = {}
    for module_info in pkgutil.iter_modules(sanh.analysis.__path__):
        if module_info.name.startswith("odds_"):
            module = importlib.import_module(f"sanh.analysis.{module_info.name}")
            providers.update(getattr(module, "PROVIDERS", {}))
    return providers


def find_odds_provider(game_id: str) -> OddsProvider:
    """The provider for a game id. :raises KeyError: if the game has no exact odds."""
    providers = odds_providers()
    if game_id not in providers:
        raise KeyError(f"no exact odds for {game_id!r}; available: {', '.join(sorted(providers))}")
    return providers[game_id]
