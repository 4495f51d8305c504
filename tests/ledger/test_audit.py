"""``sanh audit`` finds each kind of discrepancy; ``sanh admin`` grants, states and reverses."""

from __future__ import annotations

import json
import time

import pytest

from sanh.cli import main
from sanh.cli.cmd_admin import parse_gold
from sanh.ledger import (
    ISSUER,
    Ledger,
    ResultCode,
    Transfer,
    TransferCode,
    escrow_account,
    player_account,
)
from sanh.ledger.audit import audit
from sanh.ledger.migrations import latest_version

A = player_account(1)
B = player_account(2)


def books(ledger: Ledger) -> None:
    for account in (A, B, escrow_account("t")):
        ledger.open_account(account)
    ledger.submit(
        [
            Transfer.single("g1", ISSUER, A, 1_000, TransferCode.GRANT),
            Transfer.single("t1", A, B, 100, TransferCode.TRANSFER),
            Transfer.hold("h1", A, escrow_account("t"), 50, TransferCode.STAKE_HOLD),
        ],
        batch_id="b1",
    )


def raw_transfer(
    ledger: Ledger,
    id_: str,
    kind: str,
    debit: str,
    credit: str,
    amount: int,
    *,
    pending_id: str | None = None,
    batch_id: str | None = None,
    reversal_of: str | None = None,
    timestamp: int | None = None,
) -> None:
    """Write a row behind the ledger's back (what a bug or a hand edit could do)."""
    with ledger.store.write() as tx:
        tx.execute(
            "INSERT INTO transfers (id, batch_id, kind, debit_account, credit_account, amount,"
            " code, pending_id, reversal_of, memo, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?,"
            " '', ?)",
            (
                id_,
                batch_id,
                kind,
                debit,
                credit,
                amount,
                "transfer",
                pending_id,
                reversal_of,
                timestamp if timestamp is not None else time.time_ns(),
            ),
        )


def checks(ledger: Ledger, **kwargs: object) -> set[tuple[str, str]]:
    return {(d.check, d.subject) for d in audit(ledger, **kwargs).discrepancies}  # type: ignore[arg-type]


def test_clean_books(ledger: Ledger) -> None:
    books(ledger)
    report = audit(ledger)
    assert report.ok, report.to_text()
    assert report.stats["open_holds"] == 1
    assert report.stats["total_issued"] == 1_000
    assert report.stats["transfers"] == 3 and report.stats["batches"] == 1
    assert json.loads(report.to_json())["ok"] is True


def test_tampered_counters_are_named(ledger: Ledger) -> None:
    books(ledger)
    with ledger.store.write() as tx:
        tx.execute("UPDATE accounts SET credits_posted = credits_posted + 7 WHERE id = ?", (B,))
    found = checks(ledger)
    assert ("account_counters", B) in found
    assert ("debits_equal_credits", "*") in found


def test_the_database_itself_refuses_a_negative_balance(ledger: Ledger) -> None:
    """Defence in depth: even a hand-edited counter cannot make a player's balance negative
    (a CHECK constraint), so the audit's ``negative_balance`` check can only fire on a
    database whose constraints were removed."""
    books(ledger)
    with pytest.raises(Exception, match=r"(?i)check constraint"), ledger.store.write() as tx:
        tx.execute("UPDATE accounts SET debits_posted = debits_posted + 5000 WHERE id = ?", (B,))
    assert audit(ledger).ok


def test_orphaned_holds_and_resolutions(ledger: Ledger) -> None:
    books(ledger)
    assert checks(ledger, now_ns=time.time_ns() + 2 * 86_400 * 10**9) == {("orphaned_hold", "h1")}
    assert checks(ledger, hold_max_age_s=None, now_ns=time.time_ns() + 10**15) == set()
    raw_transfer(ledger, "p-missing", "post", A, B, 5, pending_id="nothing")
    raw_transfer(ledger, "p-not-hold", "void", A, B, 100, pending_id="t1")
    found = checks(ledger)
    assert ("orphaned_resolution", "p-missing") in found
    assert ("orphaned_resolution", "p-not-hold") in found


def test_a_hold_left_open_past_its_hand_is_flagged(ledger: Ledger) -> None:
    """``hold_past_hand``: a hand's hold still open after the hand's settlement (or after a
    later hand of the table ended) is named; the open hold of a hand under way is not."""
    books(ledger)
    escrow = escrow_account("t")
    hold = Transfer.hold("t:h1:hold:1", A, escrow, 200, TransferCode.STAKE_HOLD)
    live = Transfer.hold("t:h3:hold:2", B, escrow, 50, TransferCode.STAKE_HOLD)
    assert ledger.submit([hold, live], batch_id="t:h1:open").ok
    assert audit(ledger).ok  # both hands under way
    # hand 1 settles without releasing player 1's hold (what a lost seat used to do)
    settled = Transfer.single("t:h1:settle:x", A, B, 10, TransferCode.TRANSFER)
    assert ledger.submit([settled], batch_id="t:h1:settle").ok
    assert checks(ledger) == {("hold_past_hand", "t:h1:hold:1")}
    stale = Transfer.hold("t:h2:hold:1", A, escrow, 20, TransferCode.STAKE_HOLD)
    assert ledger.submit([stale], batch_id="t:h2:open").ok
    assert ledger.submit([Transfer.void("t:h1:hold:1:void", "t:h1:hold:1")], batch_id="fix").ok
    assert checks(ledger) == set()  # hand 2 has not ended: its hold may be open
    # hand 3 is voided (its hold released): hand 2's hold is now past its hand too
    assert ledger.submit(
        [Transfer.void("t:h3:hold:2:void", "t:h3:hold:2")], batch_id="t:h3:void"
    ).ok
    (found,) = audit(ledger).discrepancies
    assert (found.check, found.subject) == ("hold_past_hand", "t:h2:hold:1")
    assert "later hand 3" in found.detail


def test_broken_batches_reversals_and_escrow(ledger: Ledger) -> None:
    books(ledger)
    with ledger.store.write() as tx:
        tx.execute("INSERT INTO batches (id, size, digest, created_at) VALUES ('b2', 3, 'x', 0)")
    raw_transfer(ledger, "half", "single", A, escrow_account("t"), 5, batch_id="b2")
    raw_transfer(ledger, "r", "single", A, B, 100, reversal_of="t1")  # not mirrored
    stuck = Transfer.single("stuck", A, escrow_account("t"), 5, TransferCode.LOSS)
    assert ledger.transfer(stuck) is ResultCode.OK  # a settlement left half done
    found = checks(ledger)
    assert ("batch", "b2") in found
    assert ("reversal", "r") in found
    assert ("escrow_not_empty", escrow_account("t")) in found


def test_audit_cli(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    with Ledger.open(db_url) as ledger:
        books(ledger)
    assert main(["audit", "--db", db_url]) == 0
    assert "audit clean" in capsys.readouterr().out
    assert main(["audit", "--db", db_url, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True
    with Ledger.open(db_url) as ledger, ledger.store.write() as tx:
        tx.execute("UPDATE accounts SET debits_pending = 0 WHERE id = ?", (A,))
    assert main(["audit", "--db", db_url]) == 1
    out = capsys.readouterr().out
    assert "AUDIT FAILED" in out and f"account_counters: {A}: debits_pending is 0" in out
    assert main(["audit", "--db", db_url, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False
    assert {"check": "debits_equal_credits", "subject": "*"}.items() <= report["discrepancies"][
        -1
    ].items() or any(d["check"] == "debits_equal_credits" for d in report["discrepancies"])


def test_audit_of_a_missing_database(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "--db", f"sqlite:///{tmp_path}/none.db"]) == 2
    assert "no database" in capsys.readouterr().err


def test_admin_grant_statement_reverse(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["admin", "migrate", "--db", db_url]) == 0
    assert f"schema version {latest_version()}" in capsys.readouterr().out
    from sanh.ledger.players import Hall
    from tests.ledger.test_players import FAST_HASHER

    with Ledger.open(db_url) as ledger:
        player = Hall(ledger, hasher=FAST_HASHER).register("mai", "secret-1")
    start = 10_000_000
    assert main(["admin", "grant", "mai", "12.50", "--db", db_url, "--id", "gift-1"]) == 0
    assert "ok: gift-1 12.50" in capsys.readouterr().out
    assert (
        main(
            ["admin", "grant", str(player.id), "1250", "--units", "--db", db_url, "--id", "gift-1"]
        )
        == 0
    )
    assert "exists" in capsys.readouterr().out
    assert main(["admin", "grant", "mai", "1.234", "--db", db_url]) == 2
    assert main(["admin", "grant", "mai", "-5", "--db", db_url]) == 1
    assert "amount_must_not_be_negative" in capsys.readouterr().out
    assert main(["admin", "statement", player.account, "--db", db_url, "--json"]) == 0
    statement = json.loads(capsys.readouterr().out)
    assert statement["balance"] == start + 1_250
    assert [line["id"] for line in statement["transfers"]] == ["gift-1", f"grant:{player.account}"]
    assert statement["transfers"][0]["balance_after"] == start + 1_250
    assert statement["transfers"][1]["balance_after"] == start
    assert main(["admin", "reverse", "gift-1", "--db", db_url]) == 0
    assert main(["admin", "reverse", "gift-1", "--db", db_url, "--id", "again"]) == 1
    assert ResultCode.TRANSFER_ALREADY_REVERSED.value in capsys.readouterr().out
    assert main(["admin", "statement", "mai", "--db", db_url]) == 0
    out = capsys.readouterr().out
    assert "reversal:gift-1" in out and "100,000.00" in out
    with pytest.raises(SystemExit, match="no player"):
        main(["admin", "statement", "nobody", "--db", db_url])
    assert main(["audit", "--db", db_url]) == 0


def test_parse_gold() -> None:
    assert parse_gold("12.50") == 1_250
    assert parse_gold("1,000") == 100_000
    for bad in ("abc", "1.001", "nan"):
        with pytest.raises(ValueError):
            parse_gold(bad)
