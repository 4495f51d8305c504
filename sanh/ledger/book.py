"""The ledger API: open accounts, submit linked batches of transfers, read balances.

>>> from sanh.ledger.model import ISSUER, Transfer, TransferCode, HOUSE, player_account
>>> ledger = Ledger.open("sqlite:///:memory:")
>>> ledger.open_account(player_account(1))
<ResultCode.OK: 'ok'>
>>> grant = Transfer.single("g1", ISSUER, player_account(1), 500, TransferCode.GRANT)
>>> ledger.submit([grant]).code
<ResultCode.OK: 'ok'>
>>> ledger.submit([grant]).code  # an idempotent replay
<ResultCode.EXISTS: 'exists'>
>>> too_much = Transfer.single("t1", player_account(1), HOUSE, 501, TransferCode.LOSS)
>>> ledger.submit([too_much]).code
<ResultCode.EXCEEDS_CREDITS: 'exceeds_credits'>
>>> ledger.balance(player_account(1))
500

How a group of batches is applied (:meth:`Ledger.submit_many`, one database transaction):

1. read the holds and reversed transfers the requests refer to (their rows never change);
2. lock every account involved (PostgreSQL ``FOR UPDATE`` in id order; SQLite already holds
   the write lock), then read which request ids, batch ids, hold resolutions and reversals
   exist now;
3. evaluate each batch in memory, transfer by transfer, against working copies of the
   accounts (a failed batch's changes are undone; the others stand);
4. insert the new accounts, batches and transfers and update the account counters with a
   few multi-row statements, run the batches' ``on_apply`` hooks, and commit once.

Many batches per call is group commit: one durable commit for all of them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sanh.errors import LedgerError
from sanh.ledger.model import (
    AMOUNT_MAX,
    ID_LENGTH_MAX,
    ISSUER,
    Account,
    AccountFlags,
    AccountSpec,
    Batch,
    BatchResult,
    ResultCode,
    Transfer,
    TransferCode,
    TransferKind,
    TransferResult,
    TxHandle,
)
from sanh.ledger.store import LedgerStore, StoreTx, open_store

__all__ = ["Ledger"]

_TRANSFER_COLUMNS = (
    "seq, id, batch_id, kind, debit_account, credit_account, amount, code, pending_id,"
    " reversal_of, memo, timestamp"
)
_ACCOUNT_COLUMNS = (
    "id, flags, debits_pending, debits_posted, credits_pending, credits_posted, created_at"
)
_TRANSFER_INSERT_COLUMNS = (
    ("id", "text"),
    ("batch_id", "text"),
    ("kind", "text"),
    ("debit_account", "text"),
    ("credit_account", "text"),
    ("amount", "bigint"),
    ("code", "text"),
    ("pending_id", "text"),
    ("reversal_of", "text"),
    ("memo", "text"),
    ("timestamp", "bigint"),
)
_ACCOUNT_INSERT_COLUMNS = (
    ("id", "text"),
    ("flags", "integer"),
    ("debits_pending", "bigint"),
    ("debits_posted", "bigint"),
    ("credits_pending", "bigint"),
    ("credits_posted", "bigint"),
    ("created_at", "bigint"),
)
_ACCOUNT_COUNTERS = (
    ("debits_pending", "bigint"),
    ("debits_posted", "bigint"),
    ("credits_pending", "bigint"),
    ("credits_posted", "bigint"),
)
_BATCH_COLUMNS = (("id", "text"), ("size", "integer"), ("digest", "text"), ("created_at", "bigint"))
_INSERT_ACCOUNT = (
    "INSERT INTO accounts (id, flags, debits_pending, debits_posted, credits_pending,"
    " credits_posted, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
)

R = ResultCode
_NEGATIVE_OK = int(AccountFlags.DEBITS_MAY_EXCEED_CREDITS)


def transfer_from_row(row: Sequence[Any]) -> Transfer:
    """A stored transfer from a row of ``_TRANSFER_COLUMNS``."""
    seq, id_, batch_id, kind, debit, credit, amount, code, pending_id, reversal_of, memo, ts = row
    return Transfer(
        id=id_,
        debit_account=debit,
        credit_account=credit,
        amount=int(amount),
        code=TransferCode(code),
        kind=TransferKind(kind),
        pending_id=pending_id,
        reversal_of=reversal_of,
        memo=memo,
        batch_id=batch_id,
        timestamp=int(ts),
        seq=int(seq),
    )


def account_from_row(row: Sequence[Any]) -> Account:
    """An account from a row of ``_ACCOUNT_COLUMNS``."""
    id_, flags, dp, dpo, cp, cpo, created = row
    return Account(
        id_, AccountFlags(int(flags)), int(dp), int(dpo), int(cp), int(cpo), int(created)
    )


def _transfer_columns(alias: str) -> str:
    return ", ".join(f"{alias}.{c.strip()}" for c in _TRANSFER_COLUMNS.split(","))


def _account_columns(alias: str) -> str:
    return ", ".join(f"{alias}.{c.strip()}" for c in _ACCOUNT_COLUMNS.split(","))


@dataclass(frozen=True, slots=True)
class StatementLine:
    """One line of an account's statement (see :meth:`Ledger.statement`)."""

    transfer: Transfer
    """A single transfer, or a hold (``PENDING``)."""
    account: str
    """The account the statement is of."""
    fate: TransferKind | None = None
    """For a hold: ``POST`` (settled), ``VOID`` (released) or ``None`` (still open)."""
    resolved: int = 0
    """For a hold that was posted or released: the amount posted, or released."""

    @property
    def incoming(self) -> bool:
        """Whether the account is the transfer's credit side."""
        return self.transfer.credit_account == self.account

    @property
    def status(self) -> str:
        """``done`` (a single transfer), ``pending``, ``settled`` or ``released``."""
        if self.transfer.kind is not TransferKind.PENDING:
            return "done"
        if self.fate is None:
            return "pending"
        return "settled" if self.fate is TransferKind.POST else "released"

    @property
    def held(self) -> int:
        """For a hold, its amount signed from the account's side; 0 for a single transfer."""
        if self.transfer.kind is not TransferKind.PENDING:
            return 0
        return self.transfer.amount if self.incoming else -self.transfer.amount

    @property
    def effect(self) -> int:
        """What the line did to the account's available balance (which counts holds on its
        debit side, not holds coming in)."""
        sign = 1 if self.incoming else -1
        kind = self.transfer.kind
        if kind is not TransferKind.PENDING:
            return sign * self.transfer.amount
        if self.fate is None:
            return 0 if self.incoming else -self.transfer.amount
        if self.fate is TransferKind.POST:
            return sign * self.resolved
        return 0


class _Acct:
    """A mutable working copy of an account during evaluation."""

    __slots__ = ("cp", "cpo", "created_at", "dirty", "dp", "dpo", "flags", "id", "new")

    def __init__(self, row: Sequence[Any], *, new: bool = False) -> None:
        self.id: str = row[0]
        self.flags = int(row[1])
        self.dp = int(row[2])
        self.dpo = int(row[3])
        self.cp = int(row[4])
        self.cpo = int(row[5])
        self.created_at = int(row[6])
        self.new = new
        self.dirty = False

    def state(self) -> tuple[int, int, int, int, bool, bool]:
        return (self.dp, self.dpo, self.cp, self.cpo, self.new, self.dirty)

    def restore(self, state: tuple[int, int, int, int, bool, bool]) -> None:
        self.dp, self.dpo, self.cp, self.cpo, self.new, self.dirty = state

    @property
    def may_go_negative(self) -> bool:
        return bool(self.flags & _NEGATIVE_OK)


class _Work:
    """Working state of one group: what the database holds plus what the group adds."""

    def __init__(self) -> None:
        self.accounts: dict[str, _Acct | None] = {}
        self.transfers: dict[str, Transfer] = {}
        self.resolved: dict[str, TransferKind] = {}
        self.reversed: set[str] = set()
        self.batches: dict[str, str] = {}
        self.new_transfers: list[tuple[Transfer, str | None]] = []
        self.batch_id: str | None = None
        """The id of the batch being evaluated."""
        self.new_batches: list[tuple[str, int, str]] = []
        self._saved: dict[str, tuple[int, int, int, int, bool, bool] | None] = {}
        self._added: list[tuple[str, str]] = []

    # undo log of the batch being evaluated
    def begin(self) -> None:
        self._saved = {}
        self._added = []

    def touch(self, account: _Acct) -> None:
        if account.id not in self._saved:
            self._saved[account.id] = account.state()

    def add_account(self, account: _Acct) -> None:
        self._saved.setdefault(account.id, None)
        self.accounts[account.id] = account

    def add(self, where: str, key: str) -> None:
        self._added.append((where, key))

    def rollback(self) -> None:
        for account_id, state in self._saved.items():
            if state is None:
                self.accounts[account_id] = None
            else:
                account = self.accounts[account_id]
                assert account is not None
                account.restore(state)
        for where, key in reversed(self._added):
            if where == "transfer":
                del self.transfers[key]
                removed, _ = self.new_transfers.pop()
                assert removed.id == key
            elif where == "resolved":
                del self.resolved[key]
            elif where == "reversed":
                self.reversed.discard(key)
        self.begin()


class Ledger:
    """A double-entry ledger of play gold over a :class:`~sanh.ledger.store.LedgerStore`.

    One ``Ledger`` owns one database connection: use one per process or thread.
    """

    def __init__(self, store: LedgerStore, *, clock: Callable[[], int] = time.time_ns) -> None:
        self.store = store
        self._clock = clock

    @classmethod
    def open(cls, url: str | None = None, *, clock: Callable[[], int] = time.time_ns) -> Ledger:
        """Open (and migrate) the ledger at a database URL (default ``$SANH_DB``)."""
        store = open_store(url)
        try:
            store.migrate()
        except BaseException:
            store.close()
            raise
        return cls(store, clock=clock)

    def close(self) -> None:
        """Close the database connection."""
        self.store.close()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----- accounts ---------------------------------------------------------------------
    def open_accounts(self, specs: Sequence[AccountSpec]) -> list[ResultCode]:
        """Open accounts: ``OK``, ``EXISTS`` (same flags) or ``EXISTS_WITH_DIFFERENT_FLAGS``."""

        def work(tx: StoreTx) -> list[ResultCode]:
            rows = tx.select_in(
                f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE {{where}}",
                "id",
                [spec.id for spec in specs],
            )
            known = {row[0]: int(row[1]) for row in rows}
            codes: list[ResultCode] = []
            now = self._clock()
            for spec in specs:
                code = _check_id(spec.id)
                if code is None:
                    if spec.id in known:
                        same = known[spec.id] == int(spec.flags)
                        code = R.EXISTS if same else R.EXISTS_WITH_DIFFERENT_FLAGS
                    else:
                        tx.execute(_INSERT_ACCOUNT, (spec.id, int(spec.flags), 0, 0, 0, 0, now))
                        known[spec.id] = int(spec.flags)
                        code = R.OK
                codes.append(code)
            return codes

        return self.store.run_write(work)

    def open_account(self, account_id: str, flags: AccountFlags = AccountFlags.NONE) -> ResultCode:
        """Open one account (see :meth:`open_accounts`)."""
        return self.open_accounts([AccountSpec(account_id, flags)])[0]

    def account(self, account_id: str) -> Account | None:
        """The account with this id, or ``None``."""
        with self.store.read() as tx:
            rows = tx.execute(
                f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE id = ?", (account_id,)
            )
        return account_from_row(rows[0]) if rows else None

    def accounts(self, prefix: str = "") -> list[Account]:
        """Every account whose id starts with ``prefix``, by id."""
        with self.store.read() as tx:
            rows = tx.execute(
                f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE substr(id, 1, ?) = ? ORDER BY id",
                (len(prefix), prefix),
            )
        return [account_from_row(row) for row in rows]

    def balance(self, account_id: str) -> int:
        """The posted balance of an account.

        :raises LedgerError: if there is no such account.
        """
        account = self.account(account_id)
        if account is None:
            raise LedgerError(f"no account {account_id!r}")
        return account.balance

    def total_issued(self) -> int:
        """All the gold the issuer has put into the hall (minus its balance)."""
        return -self.balance(ISSUER)

    # ----- transfers --------------------------------------------------------------------
    def submit(
        self,
        transfers: Iterable[Transfer],
        *,
        batch_id: str | None = None,
        accounts: Sequence[AccountSpec] = (),
        on_apply: Callable[[TxHandle], None] | None = None,
    ) -> BatchResult:
        """Apply ``transfers`` as one linked batch: all of them, or none.

        :param batch_id: makes the whole batch idempotent (see :class:`Batch`).
        :param accounts: accounts to open first if they are absent.
        :param on_apply: runs in the same transaction when the batch is newly applied.
        """
        batch = Batch(tuple(transfers), batch_id, tuple(accounts), on_apply)
        return self.submit_many([batch])[0]

    def transfer(self, transfer: Transfer) -> ResultCode:
        """Apply one transfer; its result code."""
        return self.submit([transfer]).code

    def submit_many(self, batches: Sequence[Batch]) -> list[BatchResult]:
        """Apply independent batches in one database transaction (group commit).

        Each batch succeeds or fails on its own, in order; later batches see the effects of
        earlier ones. If an ``on_apply`` hook raises, nothing at all is applied and the
        exception propagates.
        """
        if not batches:
            return []
        return self.store.run_write(lambda tx: self._apply_group(tx, batches))

    def reverse(self, transfer_id: str, reversal_id: str, *, memo: str = "") -> BatchResult:
        """Undo a posted transfer with a mirrored transfer (code ``REVERSAL``).

        ``TRANSFER_ALREADY_REVERSED``, ``REVERSED_TRANSFER_NOT_FOUND`` or
        ``REVERSED_TRANSFER_NOT_POSTED`` when it cannot be; ``EXCEEDS_CREDITS`` if the
        receiver no longer has the gold.
        """
        original = self.get_transfer(transfer_id)
        if original is None:
            result = TransferResult(reversal_id, R.REVERSED_TRANSFER_NOT_FOUND)
            return BatchResult(R.REVERSED_TRANSFER_NOT_FOUND, (result,))
        return self.submit([Transfer.reversal(reversal_id, original, memo)])

    # ----- reading ----------------------------------------------------------------------
    def get_transfer(self, transfer_id: str) -> Transfer | None:
        """The stored transfer with this id, or ``None``."""
        with self.store.read() as tx:
            rows = tx.execute(
                f"SELECT {_TRANSFER_COLUMNS} FROM transfers WHERE id = ?", (transfer_id,)
            )
        return transfer_from_row(rows[0]) if rows else None

    def transfers_of(
        self, account_id: str, *, limit: int = 100, before_seq: int | None = None
    ) -> list[Transfer]:
        """An account's transfers, newest first (``before_seq`` pages back)."""
        before = before_seq if before_seq is not None else AMOUNT_MAX
        with self.store.read() as tx:
            rows = tx.execute(
                f"SELECT {_TRANSFER_COLUMNS} FROM transfers"
                " WHERE (debit_account = ? OR credit_account = ?) AND seq < ?"
                " ORDER BY seq DESC LIMIT ?",
                (account_id, account_id, before, limit),
            )
        return [transfer_from_row(row) for row in rows]

    def statement(self, account_id: str, *, limit: int = 100) -> tuple[int, list[StatementLine]]:
        """An account's available balance and its last ``limit`` lines, newest first, read
        in one transaction (so the lines end at exactly that balance).

        A line is a single transfer or a hold *with its fate*: the post or void that
        resolved it is folded into the hold's line rather than listed on its own. So each
        line's :attr:`StatementLine.effect` is what it did to the available balance (a hold
        open on the account's debit side: minus the hold; settled: minus what was posted;
        released: nothing), and the effects of all an account's lines sum to its available
        balance.
        """
        with self.store.read() as tx:
            rows = tx.execute(
                f"SELECT {_account_columns('a')} FROM accounts a WHERE a.id = ?", (account_id,)
            )
            available = account_from_row(rows[0]).available if rows else 0
            rows = tx.execute(
                f"SELECT {_transfer_columns('p')}, r.kind, r.amount FROM transfers p"
                " LEFT JOIN transfers r ON r.pending_id = p.id"
                " WHERE (p.debit_account = ? OR p.credit_account = ?)"
                " AND p.kind IN ('single', 'pending')"
                " ORDER BY p.seq DESC LIMIT ?",
                (account_id, account_id, limit),
            )
        lines = []
        for row in rows:
            transfer = transfer_from_row(row[:-2])
            fate = None if row[-2] is None else TransferKind(row[-2])
            resolved = 0 if row[-1] is None else int(row[-1])
            lines.append(StatementLine(transfer, account_id, fate, resolved))
        return available, lines

    def open_holds(self, account_id: str | None = None) -> list[Transfer]:
        """Holds not yet posted or voided (of one account, or all), oldest first."""
        sql = (
            f"SELECT {_TRANSFER_COLUMNS} FROM transfers p WHERE p.kind = 'pending'"
            " AND NOT EXISTS (SELECT 1 FROM transfers r WHERE r.pending_id = p.id)"
        )
        params: tuple[Any, ...] = ()
        if account_id is not None:
            sql += " AND (p.debit_account = ? OR p.credit_account = ?)"
            params = (account_id, account_id)
        with self.store.read() as tx:
            rows = tx.execute(sql + " ORDER BY p.seq", params)
        return [transfer_from_row(row) for row in rows]

    def batch_exists(self, batch_id: str) -> bool:
        """Whether a batch with this id was applied."""
        with self.store.read() as tx:
            return bool(tx.execute("SELECT 1 FROM batches WHERE id = ?", (batch_id,)))

    def counts(self) -> dict[str, int]:
        """How many accounts, batches and transfers the ledger holds."""
        with self.store.read() as tx:
            return {
                table: int(tx.execute(f"SELECT COUNT(*) FROM {table}")[0][0])
                for table in ("accounts", "batches", "transfers")
            }

    # ----- the engine -------------------------------------------------------------------
    def _apply_group(self, tx: StoreTx, batches: Sequence[Batch]) -> list[BatchResult]:
        work = _Work()
        self._load(tx, batches, work)
        results: list[BatchResult] = []
        applied: list[Batch] = []
        for batch in batches:
            result = self._evaluate_batch(batch, work)
            results.append(result)
            if result.code is R.OK:
                applied.append(batch)
        if applied:
            self._write(tx, work)
            for batch in applied:
                if batch.on_apply is not None:
                    batch.on_apply(tx)
        return results

    def _load(self, tx: StoreTx, batches: Sequence[Batch], work: _Work) -> None:
        ids: list[str] = []
        referenced: set[str] = set()
        account_ids: set[str] = set()
        batch_ids: list[str] = []
        for batch in batches:
            if batch.id is not None:
                batch_ids.append(batch.id)
            account_ids.update(spec.id for spec in batch.accounts)
            for transfer in batch.transfers:
                ids.append(transfer.id)
                if transfer.pending_id:
                    referenced.add(transfer.pending_id)
                if transfer.reversal_of:
                    referenced.add(transfer.reversal_of)
                if transfer.debit_account:
                    account_ids.add(transfer.debit_account)
                if transfer.credit_account:
                    account_ids.add(transfer.credit_account)
        # 1. holds and reversed transfers (immutable rows), for their accounts
        sql = f"SELECT {_TRANSFER_COLUMNS} FROM transfers WHERE {{where}}"
        for row in tx.select_in(sql, "id", sorted(referenced)):
            transfer = transfer_from_row(row)
            work.transfers[transfer.id] = transfer
            account_ids.add(transfer.debit_account)
            account_ids.add(transfer.credit_account)
        # 2. lock the accounts, in id order
        account_sql = f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE {{where}} ORDER BY id"
        locked = tx.select_in(account_sql, "id", sorted(account_ids), lock=True)
        for account_id in account_ids:
            work.accounts[account_id] = None
        for row in locked:
            work.accounts[row[0]] = _Acct(row)
        # 3. what exists now
        for row in tx.select_in(sql, "id", ids):
            transfer = transfer_from_row(row)
            work.transfers[transfer.id] = transfer
        if referenced:
            resolved_sql = "SELECT pending_id, kind FROM transfers WHERE {where}"
            for pending_id, kind in tx.select_in(resolved_sql, "pending_id", sorted(referenced)):
                work.resolved[pending_id] = TransferKind(kind)
            reversed_sql = "SELECT reversal_of FROM transfers WHERE {where}"
            for (reversal_of,) in tx.select_in(reversed_sql, "reversal_of", sorted(referenced)):
                work.reversed.add(reversal_of)
        batch_sql = "SELECT id, digest FROM batches WHERE {where}"
        for batch_id, digest in tx.select_in(batch_sql, "id", batch_ids):
            work.batches[batch_id] = digest

    def _evaluate_batch(self, batch: Batch, work: _Work) -> BatchResult:
        digest = batch.digest if batch.id is not None else ""
        if batch.id is not None:
            known = work.batches.get(batch.id)
            if known is not None:
                same = R.EXISTS if known == digest else R.BATCH_EXISTS_WITH_DIFFERENT_CONTENTS
                return BatchResult(
                    same, tuple(TransferResult(t.id, same) for t in batch.transfers), batch.id
                )
            bad_id = _check_id(batch.id)
            if bad_id is not None:
                return _failed(batch, bad_id, None)
        work.begin()
        work.batch_id = batch.id
        for spec in batch.accounts:
            refused = self._open_in(work, spec)
            if refused is not None:
                work.rollback()
                return _failed(batch, refused, None)
        codes: list[ResultCode] = []
        for index, transfer in enumerate(batch.transfers):
            code = self._evaluate(transfer, work)
            codes.append(code)
            if code not in (R.OK, R.EXISTS):
                work.rollback()
                return _failed(batch, code, index)
        existing = codes.count(R.EXISTS)
        if existing and existing < len(codes):
            work.rollback()
            results = tuple(
                TransferResult(t.id, R.EXISTS if c is R.EXISTS else R.LINKED_EVENT_FAILED)
                for t, c in zip(batch.transfers, codes, strict=True)
            )
            return BatchResult(R.EXISTS_IN_PART, results, batch.id)
        if existing:
            work.rollback()  # only account openings could have happened: keep it all-or-none
            results = tuple(TransferResult(t.id, R.EXISTS) for t in batch.transfers)
            return BatchResult(R.EXISTS, results, batch.id)
        if batch.id is not None:
            work.batches[batch.id] = digest
            work.new_batches.append((batch.id, len(batch.transfers), digest))
        results = tuple(TransferResult(t.id, R.OK) for t in batch.transfers)
        return BatchResult(R.OK, results, batch.id)

    def _open_in(self, work: _Work, spec: AccountSpec) -> ResultCode | None:
        code = _check_id(spec.id)
        if code is not None:
            return code
        account = work.accounts.get(spec.id)
        if account is not None:
            return None if account.flags == int(spec.flags) else R.EXISTS_WITH_DIFFERENT_FLAGS
        created = _Acct((spec.id, int(spec.flags), 0, 0, 0, 0, self._clock()), new=True)
        work.add_account(created)
        return None

    def _evaluate(self, t: Transfer, work: _Work) -> ResultCode:
        """Check one transfer against the working state and apply it there if it is OK."""
        code = _check_id(t.id)
        if code is not None:
            return code
        kind = t.kind
        two_phase_end = kind is TransferKind.POST or kind is TransferKind.VOID
        if not two_phase_end:
            if t.pending_id is not None:
                return R.PENDING_ID_MUST_BE_EMPTY
            if t.reversal_of is not None and kind is not TransferKind.SINGLE:
                return R.REVERSAL_MUST_BE_SINGLE
            if t.code is None:
                return R.CODE_MUST_NOT_BE_EMPTY
            if t.debit_account == t.credit_account:
                return R.ACCOUNTS_MUST_BE_DIFFERENT
            if t.amount == 0:
                return R.AMOUNT_MUST_NOT_BE_ZERO
        else:
            if not t.pending_id:
                return R.PENDING_ID_MUST_NOT_BE_EMPTY
            if t.pending_id == t.id:
                return R.PENDING_ID_MUST_BE_DIFFERENT
            if t.reversal_of is not None:
                return R.REVERSAL_MUST_BE_SINGLE
            if t.debit_account and t.debit_account == t.credit_account:
                return R.ACCOUNTS_MUST_BE_DIFFERENT
        if t.amount < 0:
            return R.AMOUNT_MUST_NOT_BE_NEGATIVE
        if t.amount > AMOUNT_MAX:
            return R.AMOUNT_TOO_LARGE
        stored = work.transfers.get(t.id)
        if stored is not None:
            return _compare(t, stored)
        if two_phase_end:
            return self._evaluate_resolution(t, work)
        debit = work.accounts.get(t.debit_account)
        if debit is None:
            return R.DEBIT_ACCOUNT_NOT_FOUND
        credit = work.accounts.get(t.credit_account)
        if credit is None:
            return R.CREDIT_ACCOUNT_NOT_FOUND
        amount = t.amount
        if t.reversal_of is not None:
            original = work.transfers.get(t.reversal_of)
            if original is None:
                return R.REVERSED_TRANSFER_NOT_FOUND
            if original.kind not in (TransferKind.SINGLE, TransferKind.POST):
                return R.REVERSED_TRANSFER_NOT_POSTED
            if t.reversal_of in work.reversed:
                return R.TRANSFER_ALREADY_REVERSED
            mirrored = (original.credit_account, original.debit_account, original.amount)
            if (t.debit_account, t.credit_account, amount) != mirrored:
                return R.REVERSAL_MUST_MIRROR
        if debit.dpo + debit.dp + amount > AMOUNT_MAX:
            return R.OVERFLOWS_DEBITS
        if credit.cpo + credit.cp + amount > AMOUNT_MAX:
            return R.OVERFLOWS_CREDITS
        if not debit.may_go_negative and debit.dpo + debit.dp + amount > debit.cpo:
            return R.EXCEEDS_CREDITS
        work.touch(debit)
        work.touch(credit)
        if kind is TransferKind.SINGLE:
            debit.dpo += amount
            credit.cpo += amount
        else:
            debit.dp += amount
            credit.cp += amount
        debit.dirty = credit.dirty = True
        if t.reversal_of is not None:
            work.reversed.add(t.reversal_of)
            work.add("reversed", t.reversal_of)
        self._record(work, t)
        return R.OK

    def _evaluate_resolution(self, t: Transfer, work: _Work) -> ResultCode:
        assert t.pending_id is not None
        hold = work.transfers.get(t.pending_id)
        if hold is None:
            return R.PENDING_TRANSFER_NOT_FOUND
        if hold.kind is not TransferKind.PENDING:
            return R.PENDING_TRANSFER_NOT_PENDING
        resolution = work.resolved.get(hold.id)
        if resolution is TransferKind.POST:
            return R.PENDING_TRANSFER_ALREADY_POSTED
        if resolution is TransferKind.VOID:
            return R.PENDING_TRANSFER_ALREADY_VOIDED
        if t.debit_account and t.debit_account != hold.debit_account:
            return R.PENDING_TRANSFER_HAS_DIFFERENT_DEBIT_ACCOUNT
        if t.credit_account and t.credit_account != hold.credit_account:
            return R.PENDING_TRANSFER_HAS_DIFFERENT_CREDIT_ACCOUNT
        if t.code is not None and t.code != hold.code:
            return R.PENDING_TRANSFER_HAS_DIFFERENT_CODE
        if t.kind is TransferKind.POST:
            amount = t.amount or hold.amount
            if amount > hold.amount:
                return R.EXCEEDS_PENDING_TRANSFER_AMOUNT
        else:
            if t.amount not in (0, hold.amount):
                return R.PENDING_TRANSFER_HAS_DIFFERENT_AMOUNT
            amount = hold.amount
        debit = work.accounts.get(hold.debit_account)
        credit = work.accounts.get(hold.credit_account)
        assert debit is not None and credit is not None, f"hold {hold.id} lost its accounts"
        work.touch(debit)
        work.touch(credit)
        debit.dp -= hold.amount
        credit.cp -= hold.amount
        if t.kind is TransferKind.POST:
            debit.dpo += amount
            credit.cpo += amount
        assert debit.dp >= 0 and credit.cp >= 0, f"hold {hold.id} was not on its accounts"
        debit.dirty = credit.dirty = True
        work.resolved[hold.id] = t.kind
        work.add("resolved", hold.id)
        stored = Transfer(
            t.id,
            hold.debit_account,
            hold.credit_account,
            amount,
            hold.code,
            t.kind,
            pending_id=hold.id,
            memo=t.memo,
        )
        self._record(work, stored)
        return R.OK

    def _record(self, work: _Work, transfer: Transfer) -> None:
        work.transfers[transfer.id] = transfer
        work.new_transfers.append((transfer, work.batch_id))
        work.add("transfer", transfer.id)

    def _write(self, tx: StoreTx, work: _Work) -> None:
        new_accounts = []
        updates = []
        for account in work.accounts.values():
            if account is None:
                continue
            if account.new:
                new_accounts.append(
                    (
                        account.id,
                        account.flags,
                        account.dp,
                        account.dpo,
                        account.cp,
                        account.cpo,
                        account.created_at,
                    )
                )
            elif account.dirty:
                updates.append((account.dp, account.dpo, account.cp, account.cpo, account.id))
        now = self._clock()
        tx.insert_rows("accounts", _ACCOUNT_INSERT_COLUMNS, new_accounts)
        tx.insert_rows("batches", _BATCH_COLUMNS, [(*row, now) for row in work.new_batches])
        rows = []
        for offset, (t, batch_id) in enumerate(work.new_transfers):
            rows.append(
                (
                    t.id,
                    batch_id,
                    t.kind._value_,
                    t.debit_account,
                    t.credit_account,
                    t.amount,
                    t.code._value_ if t.code is not None else "",
                    t.pending_id,
                    t.reversal_of,
                    t.memo,
                    now + offset,
                )
            )
        tx.insert_rows("transfers", _TRANSFER_INSERT_COLUMNS, rows)
        tx.update_rows("accounts", _ACCOUNT_COUNTERS, ("id", "text"), updates)


def _check_id(value: str) -> ResultCode | None:
    if not value:
        return R.ID_MUST_NOT_BE_EMPTY
    if len(value) > ID_LENGTH_MAX:
        return R.ID_TOO_LONG
    return None


def _compare(request: Transfer, stored: Transfer) -> ResultCode:
    """``EXISTS`` if ``request`` repeats ``stored``, else the first field that differs."""
    inherit = request.kind in (TransferKind.POST, TransferKind.VOID)
    if request.kind is not stored.kind:
        return R.EXISTS_WITH_DIFFERENT_KIND
    if request.debit_account != stored.debit_account and not (
        inherit and not request.debit_account
    ):
        return R.EXISTS_WITH_DIFFERENT_DEBIT_ACCOUNT
    if request.credit_account != stored.credit_account and not (
        inherit and not request.credit_account
    ):
        return R.EXISTS_WITH_DIFFERENT_CREDIT_ACCOUNT
    if request.amount != stored.amount and not (inherit and request.amount == 0):
        return R.EXISTS_WITH_DIFFERENT_AMOUNT
    if request.pending_id != stored.pending_id:
        return R.EXISTS_WITH_DIFFERENT_PENDING_ID
    if request.reversal_of != stored.reversal_of:
        return R.EXISTS_WITH_DIFFERENT_REVERSAL_OF
    if request.code != stored.code and not (inherit and request.code is None):
        return R.EXISTS_WITH_DIFFERENT_CODE
    if request.memo != stored.memo:
        return R.EXISTS_WITH_DIFFERENT_MEMO
    return R.EXISTS


def _failed(batch: Batch, code: ResultCode, failing: int | None) -> BatchResult:
    results = tuple(
        TransferResult(t.id, code if index == failing else R.LINKED_EVENT_FAILED)
        for index, t in enumerate(batch.transfers)
    )
    return BatchResult(code, results, batch.id)
