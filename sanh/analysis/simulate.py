"""Monte Carlo simulation reports and their registry.

A module ``sanh/analysis/sim_<name>.py`` defines ``SIMULATORS``: a dict from game id to a function
``(rounds: int, seed: int | str, rules: str | None, progress: Callable[[int], None]) -> SimReport``.
It plays ``rounds`` rounds (through the real engine, or through a vectorised path that the tests
prove equal to the engine) and reports each bet's mean return with a 95 % confidence interval.
``progress(n)`` is called with the number of rounds done so far.
"""

from __future__ import annotations

import importlib
import math
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sanh.analysis

__all__ = ["BetSim", "SimReport", "Simulator", "bet_sim", "find_simulator", "simulators"]


@dataclass(frozen=True, slots=True)
class BetSim:
    """A bet's simulated return per unit of initial stake."""

    rounds: int
    mean_return: float
    """Mean of (amount returned - stake) / stake: minus the house edge."""
    stderr: float

    @property
    def rtp(self) -> float:
        """Simulated return to player."""
        return 1.0 + self.mean_return

    @property
    def ci95(self) -> tuple[float, float]:
        """95 % confidence interval of the RTP."""
        half = 1.959963984540054 * self.stderr
        return (self.rtp - half, self.rtp + half)


def bet_sim(rounds: int, total: float, total_sq: float) -> BetSim:
    """A :class:`BetSim` from the sum and the sum of squares of per-round net returns."""
    mean = total / rounds
    variance = max(total_sq / rounds - mean * mean, 0.0) * rounds / max(rounds - 1, 1)
    return BetSim(rounds, mean, math.sqrt(variance / rounds))


@dataclass(frozen=True, slots=True)
class SimReport:
    """A simulation run: the seed makes it reproducible."""

    game: str
    rules: str
    rounds: int
    seed: str
    bets: dict[str, BetSim]
    method: str
    """``engine`` or ``vectorised``."""

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` form."""
        return {
            "game": self.game,
            "rules": self.rules,
            "rounds": self.rounds,
            "seed": self.seed,
            "method": self.method,
            "bets": {
                name: {
                    "rtp": bet.rtp,
                    "house_edge": -bet.mean_return,
                    "stderr": bet.stderr,
                    "ci95": list(bet.ci95),
                }
                for name, bet in self.bets.items()
            },
        }


Simulator = Callable[[int, "int | str", "str | None", Callable[[int], None]], SimReport]


def simulators() -> dict[str, Simulator]:
    """Every registered simulator by game id."""
    found: dict[str, Simulator] = {}
    for module_info in pkgutil.iter_modules(sanh.analysis.__path__):
        if module_info.name.startswith("sim_"):
            module = importlib.import_module(f"sanh.analysis.{module_info.name}")
            found.update(getattr(module, "SIMULATORS", {}))
    return found


def find_simulator(game_id: str) -> Simulator:
    """The simulator for a game id. :raises KeyError: if there is none."""
    found = simulators()
    if game_id not in found:
        raise KeyError(f"no simulator for {game_id!r}; available: {', '.join(sorted(found))}")
    return found[game_id]
