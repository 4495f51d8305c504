"""The ledger's semantics on both stores: transfers, refusals, holds, linked batches, reversals."""

from __future__ import annotations

from typing import Any

import pytest

from sanh.errors import LedgerError
from sanh.ledger import (
    AMOUNT_MAX,
    HOUSE,
    ISSUER,
    AccountFlags,
    AccountSpec,
    Batch,
    Ledger,
    ResultCode,
    Transfer,
    TransferCode,
    TransferKind,
    escrow_account,
    player_account,
)
from sanh.ledger.audit import audit
from sanh.ledger.migrations import latest_version
from sanh.ledger.model import TxHandle
from sanh.ledger.store import open_store

R = ResultCode
A = player_account(1)
B = player_account(2)
ESCROW = escrow_account("t1")


def snapshot(ledger: Ledger) -> tuple[Any, ...]:
    """Everything a refused request must leave unchanged."""
    return (ledger.counts(), tuple(ledger.accounts()))


def funded(ledger: Ledger, amount: int = 1_000) -> None:
    for account in (A, B, ESCROW):
        assert ledger.open_account(account) is R.OK
    grant = Transfer.single("grant:a", ISSUER, A, amount, TransferCode.GRANT)
    assert ledger.transfer(grant) is R.OK


def assert_clean(ledger: Ledger) -> None:
    report = audit(ledger)
    assert report.ok, report.to_text()


def test_new_ledger_has_system_accounts_and_latest_schema(ledger: Ledger) -> None:
    ids = {account.id for account in ledger.accounts()}
    assert ids == {"issuer", "house", "fees", "breakage", "promotions"}
    assert ledger.account(ISSUER).flags == AccountFlags.DEBITS_MAY_EXCEED_CREDITS  # type: ignore[union-attr]
    assert ledger.account("fees").flags == AccountFlags.NONE  # type: ignore[union-attr]
    assert ledger.store.schema_version() == latest_version()
    assert ledger.store.migrate() == []  # nothing left to apply
    assert_clean(ledger)


def test_reopening_migrates_nothing_and_keeps_data(db_url: str) -> None:
    with Ledger.open(db_url) as first:
        funded(first)
    with Ledger.open(db_url) as second:
        assert second.balance(A) == 1_000
        assert second.store.migrate() == []


def test_grant_and_idempotent_replay(ledger: Ledger) -> None:
    funded(ledger)
    before = snapshot(ledger)
    replay = Transfer.single("grant:a", ISSUER, A, 1_000, TransferCode.GRANT)
    assert ledger.transfer(replay) is R.EXISTS
    assert snapshot(ledger) == before
    assert ledger.balance(A) == 1_000
    assert ledger.balance(ISSUER) == -1_000
    assert ledger.total_issued() == 1_000


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"amount": 999}, R.EXISTS_WITH_DIFFERENT_AMOUNT),
        ({"debit_account": HOUSE}, R.EXISTS_WITH_DIFFERENT_DEBIT_ACCOUNT),
        ({"credit_account": B}, R.EXISTS_WITH_DIFFERENT_CREDIT_ACCOUNT),
        ({"code": TransferCode.ADMIN_GRANT}, R.EXISTS_WITH_DIFFERENT_CODE),
        ({"memo": "other"}, R.EXISTS_WITH_DIFFERENT_MEMO),
        ({"kind": TransferKind.PENDING}, R.EXISTS_WITH_DIFFERENT_KIND),
    ],
)
def test_duplicate_id_with_different_contents_is_refused(
    ledger: Ledger, change: dict[str, Any], code: ResultCode
) -> None:
    funded(ledger)
    before = snapshot(ledger)
    fields: dict[str, Any] = {
        "id": "grant:a",
        "debit_account": ISSUER,
        "credit_account": A,
        "amount": 1_000,
        "code": TransferCode.GRANT,
    }
    fields.update(change)
    assert ledger.transfer(Transfer(**fields)) is code
    assert snapshot(ledger) == before


@pytest.mark.parametrize(
    ("transfer", "code"),
    [
        (Transfer.single("x", A, B, 0, TransferCode.TRANSFER), R.AMOUNT_MUST_NOT_BE_ZERO),
        (Transfer.single("x", A, B, -5, TransferCode.TRANSFER), R.AMOUNT_MUST_NOT_BE_NEGATIVE),
        (Transfer.single("x", A, B, 2**63, TransferCode.TRANSFER), R.AMOUNT_TOO_LARGE),
        (Transfer.single("x", A, B, 10**30, TransferCode.TRANSFER), R.AMOUNT_TOO_LARGE),
        (Transfer.single("x", A, A, 5, TransferCode.TRANSFER), R.ACCOUNTS_MUST_BE_DIFFERENT),
        (Transfer.single("x", "player:9", B, 5, TransferCode.TRANSFER), R.DEBIT_ACCOUNT_NOT_FOUND),
        (Transfer.single("x", A, "player:9", 5, TransferCode.TRANSFER), R.CREDIT_ACCOUNT_NOT_FOUND),
        (Transfer.single("", A, B, 5, TransferCode.TRANSFER), R.ID_MUST_NOT_BE_EMPTY),
        (Transfer.single("x" * 201, A, B, 5, TransferCode.TRANSFER), R.ID_TOO_LONG),
        (Transfer("x", A, B, 5), R.CODE_MUST_NOT_BE_EMPTY),
        (Transfer("x", A, B, 5, TransferCode.LOSS, pending_id="p"), R.PENDING_ID_MUST_BE_EMPTY),
        (Transfer.single("x", A, B, 1_001, TransferCode.TRANSFER), R.EXCEEDS_CREDITS),
        (Transfer.hold("x", A, B, 1_001, TransferCode.STAKE_HOLD), R.EXCEEDS_CREDITS),
        (Transfer.post("x", "nothing"), R.PENDING_TRANSFER_NOT_FOUND),
        (Transfer.void("x", "nothing"), R.PENDING_TRANSFER_NOT_FOUND),
        (Transfer.post("x", "x"), R.PENDING_ID_MUST_BE_DIFFERENT),
        (Transfer(id="x", kind=TransferKind.POST), R.PENDING_ID_MUST_NOT_BE_EMPTY),
        (Transfer.post("x", "grant:a"), R.PENDING_TRANSFER_NOT_PENDING),
        (
            Transfer("x", B, A, 5, TransferCode.REVERSAL, reversal_of="nope"),
            R.REVERSED_TRANSFER_NOT_FOUND,
        ),
        (
            Transfer("x", A, B, 5, TransferCode.REVERSAL, TransferKind.PENDING, reversal_of="g"),
            R.REVERSAL_MUST_BE_SINGLE,
        ),
    ],
    ids=lambda value: value.value if isinstance(value, ResultCode) else "",
)
def test_bad_input_is_a_typed_refusal_that_applies_nothing(
    ledger: Ledger, transfer: Transfer, code: ResultCode
) -> None:
    """Issue 6 'Bad input': zero/negative amounts, same account, past 2^63, unknown ids."""
    funded(ledger)
    before = snapshot(ledger)
    result = ledger.submit([transfer])
    assert result.code is code
    assert not result.ok
    assert result.results[0].code is code
    assert snapshot(ledger) == before
    assert_clean(ledger)


def test_wrong_python_types_are_misuse(ledger: Ledger) -> None:
    for amount in (1.5, True, "5"):
        with pytest.raises(LedgerError):
            Transfer.single("x", A, B, amount, TransferCode.TRANSFER)  # type: ignore[arg-type]
    with pytest.raises(LedgerError):
        Transfer("x", A, B, 5, "loss")  # type: ignore[arg-type]
    with pytest.raises(LedgerError):
        AccountSpec("nokind:1")
    with pytest.raises(LedgerError):
        ledger.balance("player:404")


def test_amount_max_and_counter_overflow(ledger: Ledger) -> None:
    funded(ledger, amount=1)
    big = Transfer.single("big", ISSUER, B, AMOUNT_MAX - 1, TransferCode.GRANT)
    assert ledger.transfer(big) is R.OK  # the issuer has now issued AMOUNT_MAX
    before = snapshot(ledger)
    one_more = Transfer.single("more", ISSUER, A, 1, TransferCode.GRANT)
    assert ledger.transfer(one_more) is R.OVERFLOWS_DEBITS
    assert snapshot(ledger) == before
    assert ledger.transfer(Transfer.single("fill", A, B, 1, TransferCode.TRANSFER)) is R.OK
    assert ledger.balance(B) == AMOUNT_MAX
    before = snapshot(ledger)
    from_house = Transfer.single("more", HOUSE, B, 1, TransferCode.WIN)
    assert ledger.transfer(from_house) is R.OVERFLOWS_CREDITS
    assert snapshot(ledger) == before
    assert_clean(ledger)


def test_issuer_and_house_may_go_negative_players_may_not(ledger: Ledger) -> None:
    funded(ledger)
    assert ledger.transfer(Transfer.single("h", HOUSE, B, 500, TransferCode.WIN)) is R.OK
    assert ledger.balance(HOUSE) == -500
    assert ledger.transfer(Transfer.single("b", B, A, 501, TransferCode.TRANSFER)) is (
        R.EXCEEDS_CREDITS
    )
    assert ledger.transfer(Transfer.single("b", B, A, 500, TransferCode.TRANSFER)) is R.OK
    assert ledger.balance(B) == 0
    assert_clean(ledger)


def test_hold_then_post_in_part(ledger: Ledger) -> None:
    funded(ledger)
    assert ledger.transfer(Transfer.hold("h1", A, ESCROW, 600, TransferCode.STAKE_HOLD)) is R.OK
    account = ledger.account(A)
    assert account is not None
    assert (account.balance, account.available, account.debits_pending) == (1_000, 400, 600)
    assert ledger.transfer(Transfer.hold("h2", A, ESCROW, 401, TransferCode.STAKE_HOLD)) is (
        R.EXCEEDS_CREDITS
    )
    assert [hold.id for hold in ledger.open_holds(A)] == ["h1"]
    assert ledger.transfer(Transfer.post("p1", "h1", 700)) is R.EXCEEDS_PENDING_TRANSFER_AMOUNT
    assert ledger.transfer(Transfer.post("p1", "h1", 250)) is R.OK
    assert ledger.transfer(Transfer.post("p1", "h1", 250)) is R.EXISTS
    account = ledger.account(A)
    assert account is not None
    assert (account.balance, account.available, account.debits_pending) == (750, 750, 0)
    assert ledger.balance(ESCROW) == 250
    stored = ledger.get_transfer("p1")
    assert stored is not None
    assert (stored.debit_account, stored.credit_account, stored.code) == (
        A,
        ESCROW,
        TransferCode.STAKE_HOLD,
    )
    assert ledger.open_holds() == []
    before = snapshot(ledger)
    assert ledger.transfer(Transfer.post("p2", "h1")) is R.PENDING_TRANSFER_ALREADY_POSTED
    assert ledger.transfer(Transfer.void("v2", "h1")) is R.PENDING_TRANSFER_ALREADY_POSTED
    assert snapshot(ledger) == before


def test_hold_then_void(ledger: Ledger) -> None:
    funded(ledger)
    assert ledger.transfer(Transfer.hold("h1", A, ESCROW, 600, TransferCode.STAKE_HOLD)) is R.OK
    assert ledger.transfer(Transfer("v1", amount=5, kind=TransferKind.VOID, pending_id="h1")) is (
        R.PENDING_TRANSFER_HAS_DIFFERENT_AMOUNT
    )
    assert ledger.transfer(Transfer("v1", B, kind=TransferKind.VOID, pending_id="h1")) is (
        R.PENDING_TRANSFER_HAS_DIFFERENT_DEBIT_ACCOUNT
    )
    assert ledger.transfer(Transfer("v1", "", B, kind=TransferKind.VOID, pending_id="h1")) is (
        R.PENDING_TRANSFER_HAS_DIFFERENT_CREDIT_ACCOUNT
    )
    assert (
        ledger.transfer(
            Transfer("v1", code=TransferCode.LOSS, kind=TransferKind.VOID, pending_id="h1")
        )
        is R.PENDING_TRANSFER_HAS_DIFFERENT_CODE
    )
    assert ledger.transfer(Transfer.void("v1", "h1")) is R.OK
    account = ledger.account(A)
    assert account is not None
    assert (account.balance, account.available, account.debits_pending) == (1_000, 1_000, 0)
    assert ledger.account(ESCROW).credits_pending == 0  # type: ignore[union-attr]
    assert ledger.transfer(Transfer.post("p1", "h1")) is R.PENDING_TRANSFER_ALREADY_VOIDED
    assert ledger.transfer(Transfer.void("v1", "h1")) is R.EXISTS
    assert_clean(ledger)


def test_linked_batch_is_all_or_nothing(ledger: Ledger) -> None:
    funded(ledger)
    before = snapshot(ledger)
    result = ledger.submit(
        [
            Transfer.single("l1", A, ESCROW, 300, TransferCode.LOSS),
            Transfer.single("l2", ESCROW, B, 300, TransferCode.WIN),
            Transfer.single("l3", ESCROW, B, 1, TransferCode.WIN),  # escrow is empty now
        ]
    )
    assert result.code is R.EXCEEDS_CREDITS
    assert [r.code for r in result.results] == [
        R.LINKED_EVENT_FAILED,
        R.LINKED_EVENT_FAILED,
        R.EXCEEDS_CREDITS,
    ]
    assert snapshot(ledger) == before
    ok = ledger.submit(
        [
            Transfer.hold("h", A, ESCROW, 300, TransferCode.STAKE_HOLD),
            Transfer.post("p", "h"),
            Transfer.single("w", ESCROW, B, 300, TransferCode.WIN),
        ]
    )
    assert ok.code is R.OK and ok.applied
    assert (ledger.balance(A), ledger.balance(B), ledger.balance(ESCROW)) == (700, 300, 0)


def test_batch_that_exists_in_part_applies_nothing(ledger: Ledger) -> None:
    funded(ledger)
    grant = Transfer.single("grant:a", ISSUER, A, 1_000, TransferCode.GRANT)
    before = snapshot(ledger)
    result = ledger.submit([grant, Transfer.single("new", A, B, 5, TransferCode.TRANSFER)])
    assert result.code is R.EXISTS_IN_PART
    assert [r.code for r in result.results] == [R.EXISTS, R.LINKED_EVENT_FAILED]
    assert snapshot(ledger) == before


def test_batch_ids_are_idempotent(ledger: Ledger) -> None:
    funded(ledger)
    transfers = [Transfer.single("s1:loss", A, B, 10, TransferCode.LOSS)]
    assert ledger.submit(transfers, batch_id="s1").code is R.OK
    assert ledger.submit(transfers, batch_id="s1").code is R.EXISTS
    other = [Transfer.single("s1:loss", A, B, 11, TransferCode.LOSS)]
    assert ledger.submit(other, batch_id="s1").code is R.BATCH_EXISTS_WITH_DIFFERENT_CONTENTS
    assert ledger.submit([], batch_id="empty").code is R.OK
    assert ledger.submit([], batch_id="empty").code is R.EXISTS
    assert ledger.batch_exists("empty") and ledger.batch_exists("s1")
    assert ledger.get_transfer("s1:loss").batch_id == "s1"  # type: ignore[union-attr]
    assert ledger.balance(B) == 10


def test_batch_opens_its_accounts_only_if_it_applies(ledger: Ledger) -> None:
    funded(ledger)
    new = escrow_account("t9")
    refused = ledger.submit(
        [Transfer.single("x", A, new, 5_000, TransferCode.LOSS)], accounts=[AccountSpec(new)]
    )
    assert refused.code is R.EXCEEDS_CREDITS
    assert ledger.account(new) is None
    applied = ledger.submit(
        [Transfer.single("x", A, new, 5, TransferCode.LOSS)], accounts=[AccountSpec(new)]
    )
    assert applied.code is R.OK
    assert ledger.balance(new) == 5
    assert (
        ledger.submit([], accounts=[AccountSpec(new, AccountFlags.DEBITS_MAY_EXCEED_CREDITS)]).code
        is R.EXISTS_WITH_DIFFERENT_FLAGS
    )


def test_group_commit_batches_stand_or_fall_alone(ledger: Ledger) -> None:
    funded(ledger)
    results = ledger.submit_many(
        [
            Batch((Transfer.single("g1", A, B, 600, TransferCode.TRANSFER),)),
            Batch((Transfer.single("g2", A, B, 600, TransferCode.TRANSFER),)),  # A has 400 left
            Batch((Transfer.single("g3", B, A, 100, TransferCode.TRANSFER),)),  # sees g1
            Batch((Transfer.single("g1", A, B, 600, TransferCode.TRANSFER),)),  # replay in group
        ]
    )
    assert [r.code for r in results] == [R.OK, R.EXCEEDS_CREDITS, R.OK, R.EXISTS]
    assert (ledger.balance(A), ledger.balance(B)) == (500, 500)
    assert ledger.submit_many([]) == []
    assert_clean(ledger)


def test_reversal_is_the_only_correction(ledger: Ledger) -> None:
    funded(ledger)
    assert ledger.transfer(Transfer.single("t", A, B, 300, TransferCode.TRANSFER)) is R.OK
    result = ledger.reverse("t", "r")
    assert result.code is R.OK
    assert (ledger.balance(A), ledger.balance(B)) == (1_000, 0)
    assert ledger.reverse("t", "r2").code is R.TRANSFER_ALREADY_REVERSED
    assert ledger.reverse("t", "r").code is R.EXISTS
    assert ledger.reverse("missing", "r3").code is R.REVERSED_TRANSFER_NOT_FOUND
    assert ledger.transfer(Transfer.hold("h", A, B, 5, TransferCode.STAKE_HOLD)) is R.OK
    assert ledger.reverse("h", "r4").code is R.REVERSED_TRANSFER_NOT_POSTED
    assert ledger.transfer(Transfer.single("t2", A, B, 300, TransferCode.TRANSFER)) is R.OK
    assert ledger.transfer(Transfer.single("t3", B, A, 300, TransferCode.TRANSFER)) is R.OK
    assert ledger.reverse("t2", "r5").code is R.EXCEEDS_CREDITS  # B spent it
    half = Transfer("r6", B, A, 299, TransferCode.REVERSAL, reversal_of="t3")
    assert ledger.transfer(half) is R.REVERSAL_MUST_MIRROR
    statement = ledger.transfers_of(A, limit=3)
    assert [t.id for t in statement] == ["t3", "t2", "h"]
    assert [t.id for t in ledger.transfers_of(A, before_seq=statement[-1].seq)][:2] == ["r", "t"]
    assert_clean(ledger)


def test_stored_rows_are_immutable(ledger: Ledger) -> None:
    funded(ledger)
    assert ledger.submit([], batch_id="b").code is R.OK
    for statement in (
        "UPDATE transfers SET amount = 1",
        "DELETE FROM transfers",
        "UPDATE batches SET size = 3",
        "DELETE FROM batches",
    ):
        with pytest.raises(Exception, match="immutable"), ledger.store.write() as tx:
            tx.execute(statement)
    assert ledger.balance(A) == 1_000
    assert ledger.counts()["transfers"] == 1


def test_on_apply_runs_once_in_the_same_transaction(ledger: Ledger) -> None:
    funded(ledger)
    calls: list[str] = []

    def hook(tx: TxHandle) -> None:
        calls.append("x")
        assert tx.execute("SELECT COUNT(*) FROM transfers WHERE id = ?", ("o1",))[0][0] == 1

    transfer = Transfer.single("o1", A, B, 1, TransferCode.TRANSFER)
    assert ledger.submit([transfer], batch_id="o", on_apply=hook).code is R.OK
    assert ledger.submit([transfer], batch_id="o", on_apply=hook).code is R.EXISTS
    assert calls == ["x"]

    def failing(tx: TxHandle) -> None:
        raise RuntimeError("boom")

    before = snapshot(ledger)
    with pytest.raises(RuntimeError, match="boom"):
        ledger.submit([Transfer.single("o2", A, B, 1, TransferCode.TRANSFER)], on_apply=failing)
    assert snapshot(ledger) == before


def test_open_account_codes(ledger: Ledger) -> None:
    assert ledger.open_account(A) is R.OK
    assert ledger.open_account(A) is R.EXISTS
    assert ledger.open_account(A, AccountFlags.DEBITS_MAY_EXCEED_CREDITS) is (
        R.EXISTS_WITH_DIFFERENT_FLAGS
    )
    assert ledger.open_account("player:" + "9" * 300) is R.ID_TOO_LONG
    assert [a.id for a in ledger.accounts("player:")] == [A]


def test_database_urls(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(LedgerError, match="scheme"):
        open_store("mysql://x")
    with pytest.raises(LedgerError):
        open_store("sqlite://relative.db")
    monkeypatch.chdir(tmp_path)
    store = open_store("sqlite:///here.db")
    store.close()
    assert (tmp_path / "here.db").exists()
    monkeypatch.setenv("SANH_DB", f"{tmp_path}/env.db")
    with Ledger.open() as ledger:
        assert ledger.store.url.endswith("env.db")
    assert (tmp_path / "env.db").exists()
