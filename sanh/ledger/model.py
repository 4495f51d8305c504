"""The ledger's data: accounts, transfers, batches and result codes (tigerbeetle style).

Double entry: a :class:`Transfer` moves ``amount`` minor units from its *debit* account to its
*credit* account, so the gold in the hall is only ever moved, never made or lost (the
*issuer* account, which may go negative, is where starting grants come from). Every account
keeps four counters, as tigerbeetle does (``docs/reference/account.md``):

* ``debits_posted`` / ``credits_posted``: the sums of its applied debits and credits;
* ``debits_pending`` / ``credits_pending``: the sums of its open holds (two-phase transfers).

``balance = credits_posted - debits_posted`` and ``available = balance - debits_pending``.
Unless an account has :attr:`AccountFlags.DEBITS_MAY_EXCEED_CREDITS` (the issuer and the house
only), ``debits_posted + debits_pending <= credits_posted``: its available balance is never
negative.

Account naming (ids are text, ``kind:name``; see the helpers below):

==========================  =================================================================
``issuer``                  where starting grants and admin grants come from (may go negative)
``house``                   the house, the system bank of banked games (may go negative)
``fees``                    fees taken by the hall (Tài Xỉu's 5 % / 3 %)
``breakage``                rounding remainders
``player:<id>``             a player's wallet
``escrow:<table>``          a table's pass-through account for settlements and holds
``stake:<table>:<player>``  a player's table stake in buy-in (*Tẩy*) games
``clan:<id>``               a clan's treasury (*gold tích lũy của Bang*)
==========================  =================================================================

Transfers are immutable and carry an idempotency ``id``: submitting the same transfer twice
applies it once (the second answer is :attr:`ResultCode.EXISTS`); submitting different contents
under a used id is refused (``EXISTS_WITH_DIFFERENT_*``). Expected refusals are
:class:`ResultCode` members and apply nothing; :class:`~sanh.errors.LedgerError` is raised only
for misuse (a float amount, a string where an enum belongs).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntFlag, StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from sanh.errors import LedgerError

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "AMOUNT_MAX",
    "BREAKAGE",
    "FEES",
    "HOUSE",
    "ID_LENGTH_MAX",
    "ISSUER",
    "PROMOTIONS",
    "SYSTEM_ACCOUNTS",
    "Account",
    "AccountFlags",
    "AccountKind",
    "AccountSpec",
    "Batch",
    "BatchResult",
    "ResultCode",
    "Transfer",
    "TransferCode",
    "TransferKind",
    "TransferResult",
    "TxHandle",
    "batch_digest",
    "clan_account",
    "escrow_account",
    "kind_of",
    "player_account",
    "stake_account",
    "tourney_account",
]

AMOUNT_MAX = 2**63 - 1
"""The largest amount, and the largest value of any account counter (a signed 64-bit int)."""

ID_LENGTH_MAX = 200
"""The longest transfer, batch or account id, in characters."""


def _check_text(what: str, value: object) -> None:
    if not isinstance(value, str):
        raise LedgerError(f"{what} must be a string, not {value!r}")


def _check_int(what: str, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise LedgerError(f"{what} must be an integer number of minor units, not {value!r}")


class AccountKind(StrEnum):
    """What an account is for; the prefix of its id."""

    ISSUER = "issuer"
    HOUSE = "house"
    FEES = "fees"
    BREAKAGE = "breakage"
    PLAYER = "player"
    ESCROW = "escrow"
    STAKE = "stake"
    CLAN = "clan"
    PROMOTIONS = "promotions"
    TOURNEY = "tourney"


class AccountFlags(IntFlag):
    """Account flags (stored as an integer bit set)."""

    NONE = 0
    DEBITS_MAY_EXCEED_CREDITS = 1
    """The balance may go negative: only the issuer and the house have it."""


ISSUER = "issuer"
"""The issuer of starting grants and admin grants; its balance is minus the gold issued."""
HOUSE = "house"
"""The house: the bank of system tables; it may go negative (it never runs out)."""
FEES = "fees"
"""Fees collected by the hall."""
BREAKAGE = "breakage"
"""Rounding remainders (see the rounding policy in :mod:`sanh.games.base`)."""
PROMOTIONS = "promotions"
"""The house's promotions: it pays the daily gold (it may go negative, like the house; its
balance is minus the gold given away)."""


def player_account(player_id: int | str) -> str:
    """The wallet account of a player: ``player:<id>``."""
    return f"player:{player_id}"


def escrow_account(table_id: str) -> str:
    """The escrow account of a table: ``escrow:<table>``."""
    return f"escrow:{table_id}"


def stake_account(table_id: str, player_id: int | str) -> str:
    """A player's stake at a buy-in table: ``stake:<table>:<player>``."""
    return f"stake:{table_id}:{player_id}"


def tourney_account(tournament_id: str) -> str:
    """The escrow of a tournament's buy-ins and fees: ``tourney:<tournament>``
    (:mod:`sanh.ledger.tourney`)."""
    return f"tourney:{tournament_id}"


def clan_account(clan_id: int | str) -> str:
    """A clan's treasury: ``clan:<id>``."""
    return f"clan:{clan_id}"


def kind_of(account_id: str) -> AccountKind:
    """The kind of an account from its id.

    >>> kind_of("player:7")
    <AccountKind.PLAYER: 'player'>

    :raises LedgerError: if the id does not start with a known kind.
    """
    prefix = account_id.split(":", 1)[0]
    try:
        return AccountKind(prefix)
    except ValueError:
        raise LedgerError(f"account id {account_id!r} has no known kind prefix") from None


@dataclass(frozen=True, slots=True)
class AccountSpec:
    """A request to open an account (opening an existing identical account is a no-op)."""

    id: str
    """The account id, ``kind:name`` (see the module docstring)."""
    flags: AccountFlags = AccountFlags.NONE

    def __post_init__(self) -> None:
        _check_text("account id", self.id)
        if not isinstance(self.flags, int):
            raise LedgerError(f"account flags must be AccountFlags, not {self.flags!r}")
        kind_of(self.id)


SYSTEM_ACCOUNTS = (
    AccountSpec(ISSUER, AccountFlags.DEBITS_MAY_EXCEED_CREDITS),
    AccountSpec(HOUSE, AccountFlags.DEBITS_MAY_EXCEED_CREDITS),
    AccountSpec(FEES),
    AccountSpec(BREAKAGE),
    AccountSpec(PROMOTIONS, AccountFlags.DEBITS_MAY_EXCEED_CREDITS),
)
"""The accounts every ledger has (promotions from migration 3 on)."""


@dataclass(frozen=True, slots=True)
class Account:
    """An account and its counters (read from the store)."""

    id: str
    flags: AccountFlags
    debits_pending: int = 0
    debits_posted: int = 0
    credits_pending: int = 0
    credits_posted: int = 0
    created_at: int = 0
    """When it was opened, in nanoseconds since the epoch."""

    @property
    def kind(self) -> AccountKind:
        """The account's kind, from its id."""
        return kind_of(self.id)

    @property
    def balance(self) -> int:
        """Posted credits less posted debits."""
        return self.credits_posted - self.debits_posted

    @property
    def available(self) -> int:
        """The balance less the open holds on it (what it can still pay)."""
        return self.credits_posted - self.debits_posted - self.debits_pending


class TransferKind(StrEnum):
    """Single-phase, or one of the phases of a two-phase transfer."""

    SINGLE = "single"
    """Applied at once."""
    PENDING = "pending"
    """A hold: reserves ``amount`` on both accounts until posted or voided."""
    POST = "post"
    """Applies (part of) a hold; the rest of the hold is released."""
    VOID = "void"
    """Releases a hold; nothing moves."""


class TransferCode(StrEnum):
    """Why a transfer was made (tigerbeetle's ``code``)."""

    GRANT = "grant"
    """Starting grant of a new player, from the issuer."""
    ADMIN_GRANT = "admin_grant"
    """Gold given by an operator (``sanh admin grant``)."""
    BUY_IN = "buy_in"
    """Wallet to table stake (*Tẩy*)."""
    CASH_OUT = "cash_out"
    """Table stake back to the wallet."""
    STAKE_HOLD = "stake_hold"
    """A bet reserved on the wallet until the hand settles."""
    LOSS = "loss"
    """A seat's net loss, paid into the table's escrow."""
    WIN = "win"
    """A seat's net win, paid out of the table's escrow."""
    HOUSE_PAY = "house_pay"
    """The house (bank) pays its net loss into escrow."""
    HOUSE_WIN = "house_win"
    """The house (bank) collects its net win from escrow."""
    FEE = "fee"
    """Fees, to the fees account."""
    BREAKAGE = "breakage"
    """Rounding remainders, to the breakage account."""
    CLAN_SHARE = "clan_share"
    """A clan member's share of winnings, to the clan treasury."""
    TRANSFER = "transfer"
    """Anything else (an operator's correction between accounts)."""
    REVERSAL = "reversal"
    """Undoes an earlier transfer (corrections are never edits)."""
    DAILY_GOLD = "daily_gold"
    """A player's daily gold, from the promotions account (once per player and day)."""
    REFUND = "refund"
    """Gold a seat paid into a table's escrow for a hand that was then voided, paid back."""
    TOURNEY_ENTRY = "tourney_entry"
    """A tournament's buy-in, from the wallet to the tournament's escrow."""
    TOURNEY_FEE = "tourney_fee"
    """A tournament's entry fee, held in its escrow until the house takes it at the end."""
    TOURNEY_REFUND = "tourney_refund"
    """A buy-in or fee paid back (unregistration, cancellation)."""
    PRIZE = "prize"
    """A tournament place's prize, from its escrow."""


class ResultCode(StrEnum):
    """The outcome of a transfer or a batch. Only ``OK`` applies anything.

    Checks run in this order; the first failing one is the answer: the id; the fields for the
    kind; the amount; idempotency (``EXISTS...``); the accounts; the hold (post/void) or the
    reversed transfer; counter overflow; funds.
    """

    OK = "ok"
    EXISTS = "exists"
    """Already applied with the same contents: nothing done again (a success for retries)."""
    LINKED_EVENT_FAILED = "linked_event_failed"
    """Another transfer of the same batch failed, so this one was not applied."""
    EXISTS_IN_PART = "exists_in_part"
    """Some transfers of the batch exist and others do not: nothing applied."""
    BATCH_EXISTS_WITH_DIFFERENT_CONTENTS = "batch_exists_with_different_contents"
    ID_MUST_NOT_BE_EMPTY = "id_must_not_be_empty"
    ID_TOO_LONG = "id_too_long"
    PENDING_ID_MUST_BE_EMPTY = "pending_id_must_be_empty"
    PENDING_ID_MUST_NOT_BE_EMPTY = "pending_id_must_not_be_empty"
    PENDING_ID_MUST_BE_DIFFERENT = "pending_id_must_be_different"
    REVERSAL_MUST_BE_SINGLE = "reversal_must_be_single"
    CODE_MUST_NOT_BE_EMPTY = "code_must_not_be_empty"
    ACCOUNTS_MUST_BE_DIFFERENT = "accounts_must_be_different"
    AMOUNT_MUST_NOT_BE_ZERO = "amount_must_not_be_zero"
    AMOUNT_MUST_NOT_BE_NEGATIVE = "amount_must_not_be_negative"
    AMOUNT_TOO_LARGE = "amount_too_large"
    EXISTS_WITH_DIFFERENT_KIND = "exists_with_different_kind"
    EXISTS_WITH_DIFFERENT_DEBIT_ACCOUNT = "exists_with_different_debit_account"
    EXISTS_WITH_DIFFERENT_CREDIT_ACCOUNT = "exists_with_different_credit_account"
    EXISTS_WITH_DIFFERENT_AMOUNT = "exists_with_different_amount"
    EXISTS_WITH_DIFFERENT_PENDING_ID = "exists_with_different_pending_id"
    EXISTS_WITH_DIFFERENT_REVERSAL_OF = "exists_with_different_reversal_of"
    EXISTS_WITH_DIFFERENT_CODE = "exists_with_different_code"
    EXISTS_WITH_DIFFERENT_MEMO = "exists_with_different_memo"
    EXISTS_WITH_DIFFERENT_FLAGS = "exists_with_different_flags"
    """An account already exists with other flags."""
    DEBIT_ACCOUNT_NOT_FOUND = "debit_account_not_found"
    CREDIT_ACCOUNT_NOT_FOUND = "credit_account_not_found"
    PENDING_TRANSFER_NOT_FOUND = "pending_transfer_not_found"
    PENDING_TRANSFER_NOT_PENDING = "pending_transfer_not_pending"
    PENDING_TRANSFER_ALREADY_POSTED = "pending_transfer_already_posted"
    PENDING_TRANSFER_ALREADY_VOIDED = "pending_transfer_already_voided"
    PENDING_TRANSFER_HAS_DIFFERENT_DEBIT_ACCOUNT = "pending_transfer_has_different_debit_account"
    PENDING_TRANSFER_HAS_DIFFERENT_CREDIT_ACCOUNT = "pending_transfer_has_different_credit_account"
    PENDING_TRANSFER_HAS_DIFFERENT_CODE = "pending_transfer_has_different_code"
    PENDING_TRANSFER_HAS_DIFFERENT_AMOUNT = "pending_transfer_has_different_amount"
    EXCEEDS_PENDING_TRANSFER_AMOUNT = "exceeds_pending_transfer_amount"
    REVERSED_TRANSFER_NOT_FOUND = "reversed_transfer_not_found"
    REVERSED_TRANSFER_NOT_POSTED = "reversed_transfer_not_posted"
    TRANSFER_ALREADY_REVERSED = "transfer_already_reversed"
    REVERSAL_MUST_MIRROR = "reversal_must_mirror"
    OVERFLOWS_DEBITS = "overflows_debits"
    OVERFLOWS_CREDITS = "overflows_credits"
    EXCEEDS_CREDITS = "exceeds_credits"
    """The debit account's available balance is too small."""

    @property
    def applied_or_exists(self) -> bool:
        """True for ``OK`` and ``EXISTS``: the transfer is in the ledger."""
        return self in (ResultCode.OK, ResultCode.EXISTS)


@dataclass(frozen=True, slots=True)
class Transfer:
    """A request to move gold, or (read back from the store) a transfer that moved it.

    For ``POST`` and ``VOID`` the accounts may be left empty and the code ``None``: they are
    taken from the hold. A ``POST`` with ``amount=0`` posts the whole hold; a ``VOID`` releases
    it whole (``amount`` 0 or the hold's amount). Stored transfers always have their accounts,
    code and the amount actually posted or released.
    """

    id: str
    """Idempotency key, unique in the ledger (e.g. ``"hand:t7:42:3"``)."""
    debit_account: str = ""
    credit_account: str = ""
    amount: int = 0
    """Minor units, 1 .. :data:`AMOUNT_MAX`."""
    code: TransferCode | None = None
    kind: TransferKind = TransferKind.SINGLE
    pending_id: str | None = None
    """For ``POST``/``VOID``: the id of the hold."""
    reversal_of: str | None = None
    """For a reversal: the id of the transfer it undoes."""
    memo: str = ""
    """Free text (a table and hand, an operator's note); part of the identity of the transfer."""
    batch_id: str | None = None
    """Set by the ledger: the batch it was applied in."""
    timestamp: int = 0
    """Set by the ledger: when it was applied, in nanoseconds since the epoch."""
    seq: int = 0
    """Set by the store: the transfer's position in the ledger (increasing)."""

    def __post_init__(self) -> None:
        _check_text("transfer id", self.id)
        _check_text("debit account", self.debit_account)
        _check_text("credit account", self.credit_account)
        _check_int("amount", self.amount)
        _check_text("memo", self.memo)
        if self.code is not None and not isinstance(self.code, TransferCode):
            raise LedgerError(f"transfer code must be a TransferCode, not {self.code!r}")
        if not isinstance(self.kind, TransferKind):
            raise LedgerError(f"transfer kind must be a TransferKind, not {self.kind!r}")
        if self.pending_id is not None:
            _check_text("pending id", self.pending_id)
        if self.reversal_of is not None:
            _check_text("reversal_of", self.reversal_of)

    # ----- constructors ---------------------------------------------------------------
    @staticmethod
    def single(
        id: str, debit: str, credit: str, amount: int, code: TransferCode, memo: str = ""
    ) -> Transfer:
        """A transfer applied at once."""
        return Transfer(id, debit, credit, amount, code, TransferKind.SINGLE, memo=memo)

    @staticmethod
    def hold(
        id: str, debit: str, credit: str, amount: int, code: TransferCode, memo: str = ""
    ) -> Transfer:
        """A hold (pending transfer): reserves ``amount`` until posted or voided."""
        return Transfer(id, debit, credit, amount, code, TransferKind.PENDING, memo=memo)

    @staticmethod
    def post(id: str, pending_id: str, amount: int = 0, memo: str = "") -> Transfer:
        """Post ``amount`` of a hold (0: all of it); the rest is released."""
        return Transfer(id, amount=amount, kind=TransferKind.POST, pending_id=pending_id, memo=memo)

    @staticmethod
    def void(id: str, pending_id: str, memo: str = "") -> Transfer:
        """Release a hold."""
        return Transfer(id, kind=TransferKind.VOID, pending_id=pending_id, memo=memo)

    @staticmethod
    def reversal(id: str, original: Transfer, memo: str = "") -> Transfer:
        """The transfer undoing ``original`` (a stored single or post transfer)."""
        return Transfer(
            id,
            original.credit_account,
            original.debit_account,
            original.amount,
            TransferCode.REVERSAL,
            TransferKind.SINGLE,
            reversal_of=original.id,
            memo=memo,
        )

    def digest_fields(self) -> str:
        """The request's identity (what an idempotent replay must repeat), as one string."""
        code = "\x00" if self.code is None else self.code._value_
        pending = "\x00" if self.pending_id is None else self.pending_id
        reversal = "\x00" if self.reversal_of is None else self.reversal_of
        return (
            f"{self.id}\x1f{self.kind._value_}\x1f{self.debit_account}\x1f"
            f"{self.credit_account}\x1f{self.amount}\x1f{pending}\x1f{reversal}\x1f"
            f"{code}\x1f{self.memo}"
        )


def batch_digest(transfers: Sequence[Transfer], accounts: Sequence[AccountSpec] = ()) -> str:
    """A digest of a batch's contents, to recognise an idempotent replay of a batch id."""
    text = "\x1e".join(
        [
            *(f"{spec.id}\x1f{int(spec.flags)}" for spec in accounts),
            "\x1d",
            *(transfer.digest_fields() for transfer in transfers),
        ]
    )
    return hashlib.sha256(text.encode()).hexdigest()[:32]


class TxHandle(Protocol):
    """The open database transaction given to a batch's ``on_apply`` hook."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run one statement (``?`` placeholders); return its rows (empty if none)."""
        ...


@dataclass(frozen=True, slots=True)
class Batch:
    """Transfers that apply all together or not at all (a linked chain).

    With an ``id``, the batch itself is idempotent: a replay of the same id and contents
    answers ``EXISTS``, even for an empty batch. ``accounts`` are opened (if absent) before the
    transfers. ``on_apply`` runs inside the same database transaction only when the batch is
    newly applied (for records that must be exactly-once with the money, such as XP).
    """

    transfers: tuple[Transfer, ...]
    id: str | None = None
    accounts: tuple[AccountSpec, ...] = ()
    on_apply: Callable[[TxHandle], None] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.id is not None:
            _check_text("batch id", self.id)
        for transfer in self.transfers:
            if not isinstance(transfer, Transfer):
                raise LedgerError(f"a batch holds Transfers, not {transfer!r}")

    @property
    def digest(self) -> str:
        """The digest of the batch's contents."""
        return batch_digest(self.transfers, self.accounts)


@dataclass(frozen=True, slots=True)
class TransferResult:
    """The outcome of one transfer of a batch."""

    id: str
    code: ResultCode


@dataclass(frozen=True, slots=True)
class BatchResult:
    """The outcome of a batch: ``code`` is ``OK``, ``EXISTS`` or the first refusal."""

    code: ResultCode
    results: tuple[TransferResult, ...] = ()
    batch_id: str | None = None

    @property
    def ok(self) -> bool:
        """Whether the batch is in the ledger (applied now, or already before)."""
        return self.code.applied_or_exists

    @property
    def applied(self) -> bool:
        """Whether this call applied the batch."""
        return self.code is ResultCode.OK

    def __str__(self) -> str:
        failing = [f"{r.id}: {r.code}" for r in self.results if r.code not in _QUIET]
        tail = f" ({'; '.join(failing)})" if failing and not self.ok else ""
        return f"{self.code}{tail}"


_QUIET = {ResultCode.OK, ResultCode.EXISTS, ResultCode.LINKED_EVENT_FAILED}
