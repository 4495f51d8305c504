"""A tournament's escrow: entries, refunds, cancellation and the payout, all idempotent, and
``sanh audit``'s ``tourney_escrow`` check."""

from __future__ import annotations

from sanh.ledger import ISSUER, Ledger, ResultCode, Transfer, TransferCode, player_account, tourney
from sanh.ledger.audit import audit
from sanh.ledger.model import BREAKAGE, FEES, tourney_account

BUY_IN, FEE = 1_000, 100


def fund(ledger: Ledger, *players: int) -> None:
    for player in players:
        ledger.open_account(player_account(player))
        grant = Transfer.single(
            f"g{player}", ISSUER, player_account(player), 5_000, TransferCode.GRANT
        )
        assert ledger.submit([grant]).ok


def test_entries_refunds_and_the_payout_balance_exactly(ledger: Ledger) -> None:
    fund(ledger, 1, 2, 3)
    for player in (1, 2, 3):
        assert tourney.register(ledger, "s1", player, 1, BUY_IN, FEE).ok
    # a replayed registration changes nothing
    assert tourney.register(ledger, "s1", 1, 1, BUY_IN, FEE).code is ResultCode.EXISTS
    assert ledger.balance(player_account(1)) == 5_000 - BUY_IN - FEE
    assert ledger.balance(tourney_account("s1")) == 3 * (BUY_IN + FEE)
    # player 3 withdraws, then enters again (a second entry)
    assert tourney.unregister(ledger, "s1", 3, 1, BUY_IN, FEE).ok
    assert tourney.unregister(ledger, "s1", 3, 1, BUY_IN, FEE).code is ResultCode.EXISTS
    assert ledger.balance(player_account(3)) == 5_000
    assert tourney.register(ledger, "s1", 3, 2, BUY_IN, FEE).ok
    assert audit(ledger).ok  # a running tournament's escrow holds its entries
    paid, breakage = tourney.prizes(3 * BUY_IN, (6_667, 3_333))
    assert sum(paid) + breakage == 3 * BUY_IN
    winners = [(2, paid[0]), (1, paid[1])]
    fees_before = ledger.balance(FEES)
    assert tourney.pay_out(ledger, "s1", winners, 3 * FEE, breakage).ok
    assert tourney.pay_out(ledger, "s1", winners, 3 * FEE, breakage).code is ResultCode.EXISTS
    assert ledger.balance(tourney_account("s1")) == 0
    assert ledger.balance(FEES) - fees_before == 3 * FEE
    assert ledger.balance(player_account(2)) == 5_000 - BUY_IN - FEE + paid[0]
    assert ledger.balance(BREAKAGE) >= breakage
    report = audit(ledger)
    assert report.ok, report.to_text()
    assert report.stats["tournaments_ended"] == 1


def test_cancel_refunds_everyone_once(ledger: Ledger) -> None:
    fund(ledger, 1, 2)
    for player in (1, 2):
        assert tourney.register(ledger, "s2", player, 1, BUY_IN, FEE).ok
    assert tourney.cancel(ledger, "s2", [1, 2], BUY_IN, FEE).ok
    assert tourney.cancel(ledger, "s2", [1, 2], BUY_IN, FEE).code is ResultCode.EXISTS
    assert ledger.balance(player_account(1)) == ledger.balance(player_account(2)) == 5_000
    assert audit(ledger).ok


def test_an_ended_tournament_with_gold_left_is_reported(ledger: Ledger) -> None:
    fund(ledger, 1, 2)
    for player in (1, 2):
        assert tourney.register(ledger, "s3", player, 1, BUY_IN, FEE).ok
    # the payout forgets the fees: the escrow keeps them after the end
    assert tourney.pay_out(ledger, "s3", [(1, 2 * BUY_IN)], 0, 0).ok
    checks = {(d.check, d.subject) for d in audit(ledger).discrepancies}
    assert ("tourney_escrow", tourney_account("s3")) in checks


def test_only_entries_move_before_the_end(ledger: Ledger) -> None:
    fund(ledger, 1)
    assert tourney.register(ledger, "s4", 1, 1, BUY_IN, FEE).ok
    stray = Transfer.single("stray", tourney_account("s4"), player_account(1), 50, TransferCode.WIN)
    assert ledger.submit([stray]).ok
    checks = {(d.check, d.subject) for d in audit(ledger).discrepancies}
    assert ("tourney_escrow", "stray") in checks
