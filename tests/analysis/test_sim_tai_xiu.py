"""The vectorised Tài Xỉu simulator pays what the engine pays and agrees with the exact odds."""

from __future__ import annotations

import json
from statistics import NormalDist

import numpy as np
import pytest

from sanh.analysis.odds_tai_xiu import ROLLS
from sanh.analysis.sim_tai_xiu import (
    REPORTED,
    STAKE,
    payout_table,
    roll_index,
    simulate_tai_xiu,
)
from sanh.analysis.simulate import find_simulator
from sanh.cards.rng import SeededRng, roll_dice
from sanh.cli import main
from sanh.games import find_game
from sanh.games.base import Roll, TableConfig
from sanh.games.tai_xiu import AREAS, CloseBetting, Confirm, Place, TaiXiu

_FOUND = find_game("tai-xiu")
assert isinstance(_FOUND, TaiXiu)
GAME: TaiXiu = _FOUND


def test_roll_index_orders_rolls_like_the_odds() -> None:
    """Row k of the payout table is ROLLS[k], the roll the exact odds enumerate."""
    dice = np.array(ROLLS, dtype=np.int64)
    assert roll_index(dice).tolist() == list(range(216))


@pytest.mark.parametrize("table", ["system", "player"])
def test_lookup_equals_fresh_engine_rounds(table: str) -> None:
    """Seeded rounds replayed through the engine, with three bettors sharing the reported
    areas, pay exactly the looked-up amounts."""
    payouts = payout_table(table, "asian")
    rng = SeededRng(f"tai-xiu/lookup/{table}")
    areas = list(REPORTED.values())
    owner = {area: index % 3 + 1 for index, area in enumerate(areas)}
    config = TableConfig.make(
        seats=4,
        stake=1,
        stacks=[10**12, 10**8, 10**8, 10**8],
        options={"taixiu.table": table, "taixiu.allow_opposite_bets": True},
    )
    state = GAME.new_state(config)
    for area in areas:
        state = GAME.apply(state, Place(owner[area], area, STAKE))
    for seat in (1, 2, 3):
        state = GAME.apply(state, Confirm(seat))
    state = GAME.apply(state, CloseBetting(None))
    for _ in range(80):
        dice = roll_dice(rng, 3, 6)
        settlement = GAME.settle(GAME.apply(state, Roll(dice)))
        row = roll_index(np.array([dice], dtype=np.int64))[0]
        for line in settlement.lines:
            if line.seat in (1, 2, 3):
                assert owner[line.item] == line.seat
                assert payouts[row, AREAS.index(line.item)] == line.amount, (dice, line)


@pytest.mark.parametrize("table", ["system", "player"])
def test_simulate_agrees_with_odds(table: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 2 'Must show': ``sanh simulate`` agrees with ``sanh odds`` within its interval
    (both through the command line, --json).

    21 bets are compared at once, and each 95 % interval misses the true value 5 % of the time,
    so a fixed per-bet 95 % test would fail for about two seeds in three. The test therefore
    asks (1) every bet inside its family-wise 95 % interval (Bonferroni: z = 3.04 for 21
    intervals, instead of 1.96) and (2) at least 17 of the 21 bets inside their own reported
    95 % interval (more than four misses has probability under 2 %)."""
    assert main(["odds", "tai-xiu", "--table", table, "--json"]) == 0
    exact = json.loads(capsys.readouterr().out)["bets"]
    args = ["simulate", "tai-xiu", "--rounds", "400000", "--seed", "7", "--rules", table]
    assert main([*args, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["method"] == "vectorised" and report["rules"] == table
    assert set(report["bets"]) == set(exact)
    z_family = NormalDist().inv_cdf(1 - 0.05 / (2 * len(exact)))
    assert round(z_family, 2) == 3.04
    inside = 0
    for name, bet in report["bets"].items():
        low, high = bet["ci95"]
        inside += low <= exact[name]["rtp"] <= high
        assert abs(bet["rtp"] - exact[name]["rtp"]) <= z_family * bet["stderr"], (name, bet)
    assert inside >= 17, inside


def test_simulator_registry_and_errors() -> None:
    """Registered; progress reported; rules parsed; bad input raises."""
    assert find_simulator("tai-xiu") is simulate_tai_xiu
    seen: list[int] = []
    report = simulate_tai_xiu(1000, "x", "player+macau", seen.append)
    assert seen[-1] == 1000 and report.rules == "player+macau" and report.seed == "x"
    with pytest.raises(ValueError):
        simulate_tai_xiu(10, 0, "casino")
    with pytest.raises(ValueError):
        simulate_tai_xiu(0, 0, None)
