"""Monte Carlo simulation of Tài Xỉu (``sanh simulate tai-xiu``), vectorised over a table the
engine itself settles.

The table: for each of the 216 rolls, one engine round (:mod:`sanh.games.tai_xiu`) in which one
seat stakes :data:`STAKE` units on every bet area, settled by the engine; the net amount of each
area's settlement line is stored. The simulation rolls dice in NumPy (a generator seeded by
SHA-256 of the seed) and looks each roll up in that table, so every simulated round pays
exactly what the engine pays (``tests/analysis`` also replays seeded rounds through the engine
and compares).

``--rules`` picks the table (option ``taixiu.table``): ``system`` (default, also ``s001``) or
``player``, optionally with ``macau`` for the classic total paytable (``taixiu.total_paytable``),
joined by ``+`` (``player+macau``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from sanh.analysis.odds_tai_xiu import ROLLS
from sanh.analysis.sim_teen_patti_2020 import generator_for
from sanh.analysis.simulate import BetSim, SimReport, bet_sim
from sanh.games.base import Roll, TableConfig
from sanh.games.tai_xiu import AREAS, CloseBetting, Confirm, Place, TaiXiu

__all__ = ["REPORTED", "SIMULATORS", "STAKE", "payout_table", "roll_index", "simulate_tai_xiu"]

STAKE = 100
"""Units staked on each area (a multiple of 100: the 5 % and 3 % fees are whole units)."""

REPORTED: dict[str, str] = {
    "small": "small",
    "big": "big",
    "single": "single_1",
    "combination": "combination_1_2",
    "double": "double_1",
    "triple": "triple_1",
    "any_triple": "any_triple",
    **{f"total_{k}": f"total_{k}" for k in range(4, 18)},
}
"""Reported bet → the area simulated for it (numbered bets are symmetric in the numbers)."""

CHUNK = 500_000

IntArray = npt.NDArray[np.int64]


def _parse_rules(rules: str | None) -> tuple[str, str]:
    table, paytable = "system", "asian"
    for token in (rules or "s001").replace(",", "+").split("+"):
        if token in ("system", "player"):
            table = token
        elif token in ("macau", "asian"):
            paytable = token
        elif token != "s001":
            raise ValueError(f"tai-xiu simulate rules: system|player[+macau], not {rules!r}")
    return table, paytable


@lru_cache(maxsize=8)
def payout_table(table: str = "system", paytable: str = "asian") -> IntArray:
    """216 × 50 net amounts (units): the engine's settlement of :data:`STAKE` on every area."""
    game = TaiXiu()
    config = TableConfig.make(
        seats=2,
        stake=1,
        stacks=[10**15, 10**9],
        host=0,
        options={
            "taixiu.table": table,
            "taixiu.allow_opposite_bets": True,
            "taixiu.total_paytable": paytable,
        },
    )
    state = game.new_state(config)
    for area in AREAS:
        state = game.apply(state, Place(1, area, STAKE))
    state = game.apply(state, Confirm(1))
    state = game.apply(state, CloseBetting(None))
    out = np.zeros((len(ROLLS), len(AREAS)), dtype=np.int64)
    column = {area: index for index, area in enumerate(AREAS)}
    for row, dice in enumerate(ROLLS):
        settlement = game.settle(game.apply(state, Roll(dice)))
        for line in settlement.lines:
            if line.seat == 1:
                out[row, column[line.item]] = line.amount
    return out


def roll_index(dice: IntArray) -> IntArray:
    """The row of :data:`~sanh.analysis.odds_tai_xiu.ROLLS` of each roll (``n × 3`` dice)."""
    return (dice[:, 0] - 1) * 36 + (dice[:, 1] - 1) * 6 + (dice[:, 2] - 1)


def simulate_tai_xiu(
    rounds: int,
    seed: int | str = 0,
    rules: str | None = None,
    progress: Callable[[int], None] = lambda done: None,
) -> SimReport:
    """Simulate ``rounds`` rolls; each bet's RTP with a 95 % interval.

    :raises ValueError: if ``rounds`` is not positive, or on unknown rules.
    """
    table, paytable = _parse_rules(rules)
    payouts = payout_table(table, paytable)
    columns = {bet: AREAS.index(area) for bet, area in REPORTED.items()}
    if rounds <= 0:
        raise ValueError(f"rounds must be positive, not {rounds}")
    rng = generator_for(seed)
    sums = dict.fromkeys(REPORTED, 0.0)
    squares = dict.fromkeys(REPORTED, 0.0)
    done = 0
    while done < rounds:
        size = min(CHUNK, rounds - done)
        rows = roll_index(rng.integers(1, 7, size=(size, 3)))
        counts = np.bincount(rows, minlength=len(ROLLS))
        for bet, column in columns.items():
            unit = payouts[:, column] / STAKE
            sums[bet] += float((counts * unit).sum())
            squares[bet] += float((counts * unit * unit).sum())
        done += size
        progress(done)
    bets: dict[str, BetSim] = {bet: bet_sim(rounds, sums[bet], squares[bet]) for bet in REPORTED}
    name = table if paytable == "asian" else f"{table}+{paytable}"
    return SimReport(
        game="tai-xiu", rules=name, rounds=rounds, seed=str(seed), bets=bets, method="vectorised"
    )


SIMULATORS = {"tai-xiu": simulate_tai_xiu}
