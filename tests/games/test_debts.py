"""One Debt type for every game's payments within a hand, and the one tuple-replace helper."""

from __future__ import annotations

import pytest

from sanh.games._debts import Debt, Purse
from sanh.games._evolve import put
from sanh.games._shedding import between, settle_debts
from sanh.games.base import TableConfig


def test_a_purse_pays_one_payers_debts_capped_at_its_balance() -> None:
    purse = Purse((500, 1000, 1000))
    paid = purse.pay([Debt(0, 1, 400, "bet"), Debt(0, 2, 600, "bet")])
    assert paid == 500
    assert purse.balances == [0, 1200, 1300]  # 400 * 500 // 1000, 600 * 500 // 1000
    assert purse.pay([Debt(None, 0, 50, "ga_pot")]) == 50  # the house is never capped
    settlement = purse.settlement()
    assert settlement.deltas == (-450, 200, 300) and settlement.house == -50
    with pytest.raises(ValueError, match="one payer at a time"):
        purse.pay([Debt(1, 0, 10, "bet"), Debt(2, 0, 10, "bet")])


def test_shedding_debts_are_between_seats_and_settle_in_la() -> None:
    config = TableConfig.make(seats=2, stake=100)
    settlement = settle_debts(config, [Debt(0, 1, 3, "penalty")])
    assert settlement.deltas == (-300, 300)
    assert between(Debt(1, 0, 1, "cut")) == (1, 0)
    with pytest.raises(ValueError, match="between two seats"):
        between(Debt(None, 0, 1, "cut"))


def test_put_replaces_one_entry_of_a_tuple() -> None:
    stacks = (1, 2, 3)
    assert put(stacks, 1, 9) == (1, 9, 3) and stacks == (1, 2, 3)
    assert put(stacks, 2, None) == (1, 2, None)
