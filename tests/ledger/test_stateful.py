"""A hypothesis state machine of random holds, posts, voids, transfers, batches, reversals and
replays, checked against a reference model after every step (STYLE.md §9, tigerbeetle VOPR).

Each example works in its own namespace of accounts (``player:m<n>-...``) in one database per
store, so examples are cheap; the global invariants (debits = credits, no overdraft) cover
the whole database, and a full audit runs at the end of every example.
"""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass, field
from typing import ClassVar

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    invariant,
    rule,
    run_state_machine_as_test,
)

from sanh.ledger import (
    AMOUNT_MAX,
    AccountFlags,
    AccountSpec,
    Ledger,
    ResultCode,
    Transfer,
    TransferCode,
    TransferKind,
)
from sanh.ledger.audit import audit

R = ResultCode
_NAMESPACES = itertools.count()

amounts = st.integers(0, 99).flatmap(
    lambda roll: (
        st.integers(1, 300)
        if roll < 88
        else st.sampled_from([0, -1, -400, AMOUNT_MAX + 1, 2**64, 10**25])
    )
)
"""Mostly valid amounts, with every kind of bad one now and then."""


@dataclass
class Model:
    """The reference ledger: counters per account, transfers, hold resolutions, reversals."""

    counters: dict[str, list[int]] = field(default_factory=dict)  # dp, dpo, cp, cpo
    negative_ok: set[str] = field(default_factory=set)
    transfers: dict[str, Transfer] = field(default_factory=dict)
    resolved: dict[str, TransferKind] = field(default_factory=dict)
    reversed: set[str] = field(default_factory=set)

    def apply(self, t: Transfer) -> ResultCode:
        """The expected code; the model changes only when it is OK."""
        if t.kind in (TransferKind.SINGLE, TransferKind.PENDING) and t.amount == 0:
            return R.AMOUNT_MUST_NOT_BE_ZERO
        if t.amount < 0:
            return R.AMOUNT_MUST_NOT_BE_NEGATIVE
        if t.amount > AMOUNT_MAX:
            return R.AMOUNT_TOO_LARGE
        stored = self.transfers.get(t.id)
        if stored is not None:
            if t.kind in (TransferKind.POST, TransferKind.VOID):
                return R.EXISTS
            return R.EXISTS if t.amount == stored.amount else R.EXISTS_WITH_DIFFERENT_AMOUNT
        if t.kind in (TransferKind.POST, TransferKind.VOID):
            assert t.pending_id is not None
            hold = self.transfers[t.pending_id]
            state = self.resolved.get(hold.id)
            if state is TransferKind.POST:
                return R.PENDING_TRANSFER_ALREADY_POSTED
            if state is TransferKind.VOID:
                return R.PENDING_TRANSFER_ALREADY_VOIDED
            amount = (t.amount or hold.amount) if t.kind is TransferKind.POST else hold.amount
            if amount > hold.amount:
                return R.EXCEEDS_PENDING_TRANSFER_AMOUNT
            debit, credit = self.counters[hold.debit_account], self.counters[hold.credit_account]
            debit[0] -= hold.amount
            credit[2] -= hold.amount
            if t.kind is TransferKind.POST:
                debit[1] += amount
                credit[3] += amount
            self.resolved[hold.id] = t.kind
            self.transfers[t.id] = Transfer(
                t.id,
                hold.debit_account,
                hold.credit_account,
                amount,
                hold.code,
                t.kind,
                pending_id=hold.id,
            )
            return R.OK
        if t.reversal_of is not None and t.reversal_of in self.reversed:
            return R.TRANSFER_ALREADY_REVERSED
        debit, credit = self.counters[t.debit_account], self.counters[t.credit_account]
        if t.debit_account not in self.negative_ok and debit[0] + debit[1] + t.amount > debit[3]:
            return R.EXCEEDS_CREDITS
        if t.kind is TransferKind.SINGLE:
            debit[1] += t.amount
            credit[3] += t.amount
        else:
            debit[0] += t.amount
            credit[2] += t.amount
        if t.reversal_of is not None:
            self.reversed.add(t.reversal_of)
        self.transfers[t.id] = t
        return R.OK

    def apply_batch(self, transfers: list[Transfer]) -> ResultCode:
        """All or nothing: the first failing code, or OK (EXISTS if every one exists)."""
        trial = copy.deepcopy(self)
        codes = [trial.apply(t) for t in transfers]
        failing = [c for c in codes if c not in (R.OK, R.EXISTS)]
        if failing:
            return failing[0]
        if R.EXISTS in codes:
            return R.EXISTS if all(c is R.EXISTS for c in codes) else R.EXISTS_IN_PART
        self.__dict__.update(trial.__dict__)
        return R.OK


class LedgerMachine(RuleBasedStateMachine):
    """Random operations on one namespace of accounts, against :class:`Model`."""

    ledger: ClassVar[Ledger]

    known = Bundle("known")

    def __init__(self) -> None:
        super().__init__()
        space = f"m{next(_NAMESPACES)}"
        self.bank = f"player:{space}-bank"
        self.players = [f"player:{space}-{n}" for n in range(3)]
        self.escrow = f"stake:{space}:table"  # not an escrow: those must end settlements empty
        self.model = Model()
        self.holds_added: list[Transfer] = []
        self.posted_added: list[Transfer] = []
        self.ids = (f"{space}:{n}" for n in itertools.count())
        specs = [AccountSpec(self.bank, AccountFlags.DEBITS_MAY_EXCEED_CREDITS)]
        specs += [AccountSpec(a) for a in (*self.players, self.escrow)]
        assert all(code is R.OK for code in self.ledger.open_accounts(specs))
        for spec in specs:
            self.model.counters[spec.id] = [0, 0, 0, 0]
        self.model.negative_ok.add(self.bank)
        for player in self.players:
            self.fund_player(player, 1_000)

    def fund_player(self, player: str, amount: int) -> Transfer:
        transfer = Transfer.single(next(self.ids), self.bank, player, amount, TransferCode.GRANT)
        assert self.check([transfer]) is R.OK
        self.posted_added.append(transfer)
        return transfer

    def accounts(self) -> st.SearchStrategy[str]:
        return st.sampled_from([self.bank, *self.players, self.escrow])

    def check(self, transfers: list[Transfer]) -> ResultCode:
        expected = self.model.apply_batch(transfers)
        got = self.ledger.submit(transfers).code
        assert got is expected, (got, expected, transfers)
        return got

    @rule(target=known, data=st.data(), amount=amounts, hold=st.booleans())
    def move(self, data: st.DataObject, amount: int, hold: bool) -> Transfer:
        debit = data.draw(self.accounts(), "debit")
        credit = data.draw(self.accounts().filter(lambda a: a != debit), "credit")
        make = Transfer.hold if hold else Transfer.single
        transfer = make(next(self.ids), debit, credit, amount, TransferCode.TRANSFER)
        code = self.check([transfer])
        if code is R.OK:
            if hold:
                self.holds_added.append(transfer)
            else:
                self.posted_added.append(transfer)
        return transfer

    @rule(target=known, player=st.integers(0, 2), amount=st.integers(1, 1_000))
    def fund(self, player: int, amount: int) -> Transfer:
        return self.fund_player(self.players[player], amount)

    @rule(data=st.data(), fraction=st.sampled_from([0, 1, 2, 4]))
    def post(self, data: st.DataObject, fraction: int) -> None:
        if not self.holds_added:
            return
        hold = data.draw(st.sampled_from(self.holds_added), "hold")
        amount = 0 if fraction == 0 else max(1, hold.amount // fraction) + (fraction == 1)
        transfer = Transfer.post(next(self.ids), hold.id, amount)
        if self.check([transfer]) is R.OK:
            self.posted_added.append(self.model.transfers[transfer.id])

    @rule(data=st.data())
    def void(self, data: st.DataObject) -> None:
        if self.holds_added:
            hold = data.draw(st.sampled_from(self.holds_added), "hold")
            self.check([Transfer.void(next(self.ids), hold.id)])

    @rule(data=st.data())
    def reverse(self, data: st.DataObject) -> None:
        if self.posted_added:
            original = data.draw(st.sampled_from(self.posted_added), "original")
            stored = self.model.transfers[original.id]
            self.check([Transfer.reversal(next(self.ids), stored)])

    @rule(transfer=known, change=st.booleans())
    def replay(self, transfer: Transfer, change: bool) -> None:
        if change and transfer.kind in (TransferKind.SINGLE, TransferKind.PENDING):
            transfer = Transfer(
                transfer.id,
                transfer.debit_account,
                transfer.credit_account,
                transfer.amount + 1,
                transfer.code,
                transfer.kind,
            )
        self.check([transfer])

    @rule(data=st.data(), size=st.integers(2, 4))
    def linked(self, data: st.DataObject, size: int) -> None:
        batch = []
        for _ in range(size):
            debit = data.draw(self.accounts(), "debit")
            others = [a for a in (self.bank, *self.players, self.escrow) if a != debit]
            credit = data.draw(st.sampled_from(others), "credit")
            amount = data.draw(amounts, "amount")
            batch.append(
                Transfer.single(next(self.ids), debit, credit, amount, TransferCode.TRANSFER)
            )
        if self.check(batch) is R.OK:
            self.posted_added.extend(batch)

    @invariant()
    def counters_match_the_model(self) -> None:
        accounts = {a.id: a for a in self.ledger.accounts()}
        for account_id, (dp, dpo, cp, cpo) in self.model.counters.items():
            account = accounts[account_id]
            got = [account.debits_pending, account.debits_posted]
            got += [account.credits_pending, account.credits_posted]
            assert got == [dp, dpo, cp, cpo], account_id
            if account_id not in self.model.negative_ok:
                assert account.available >= 0

    @invariant()
    def debits_equal_credits(self) -> None:
        with self.ledger.store.read() as tx:
            row = tx.execute(
                "SELECT SUM(debits_posted) - SUM(credits_posted),"
                " SUM(debits_pending) - SUM(credits_pending) FROM accounts"
            )[0]
        assert (int(row[0]), int(row[1])) == (0, 0)

    def teardown(self) -> None:
        report = audit(self.ledger)
        assert report.ok, report.to_text()


def test_random_operations_match_the_model(ledger: Ledger) -> None:
    """Invariants after every step; a clean audit after every example."""
    LedgerMachine.ledger = ledger
    run_state_machine_as_test(
        LedgerMachine,
        settings=settings(
            max_examples=30,
            stateful_step_count=30,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        ),
    )
