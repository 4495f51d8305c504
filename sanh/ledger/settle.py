"""From a game's settlement to one linked batch of transfers: the engines never touch money.

:func:`settlement_batch` turns any game's :class:`~sanh.games.base.Settlement` into one
:class:`~sanh.ledger.model.Batch` whose id is the settlement id, so that settling the same hand
twice applies it once (``EXISTS``). The gold flows through the table's escrow account, which
nets to zero::

    holds posted (seat -> escrow), the rest of each hold voided
    losers (seat -> escrow)          LOSS        what their holds did not cover
    the house (house -> escrow)      HOUSE_PAY   when the house (bank) loses
    escrow -> winners                WIN
    escrow -> house                  HOUSE_WIN   when the house wins
    escrow -> fees                   FEE
    escrow -> breakage               BREAKAGE
    escrow -> clan treasuries        CLAN_SHARE  per seat, to that seat's clan

A seat that went out of the hand early (it folded or left) may have paid its loss already:
the server posted that much of its hold into the escrow at once and released the rest
(``paid``, RULES.md §2.6). The settlement collects only what the seat still owes, or returns
what it paid beyond its loss, so no hold outlives its hand.

Losses come first, so the escrow never goes negative along the way. Transfer ids are
``<settlement id>:<role>[:<seat>]`` (``t7-h42:win:2``). A seat's account is its wallet
(``player:<id>``) where stakes come straight from the balance, or its table stake
(``stake:<table>:<id>``) in buy-in (*Tẩy*) games, which :func:`buy_in` and :func:`cash_out`
move in and out.

Each of these functions takes an ``on_apply`` hook (as :meth:`Ledger.submit` does for a
hold), run inside the batch's transaction when it is newly applied: with many processes over
one database, the caller passes the table's lease fence there (``LeaseFence.hook(table)``,
:mod:`sanh.cluster.leases`), so a hold or settlement of a table whose lease was taken over
raises ``LeaseLost`` and moves no gold.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from sanh.errors import LedgerError
from sanh.games.base import Settlement
from sanh.ledger.book import Ledger
from sanh.ledger.model import (
    BREAKAGE,
    FEES,
    HOUSE,
    AccountSpec,
    Batch,
    BatchResult,
    Transfer,
    TransferCode,
    TransferKind,
    TxHandle,
    escrow_account,
    player_account,
    stake_account,
)

__all__ = ["SeatAccount", "buy_in", "cash_out", "settle", "settlement_batch"]


@dataclass(frozen=True, slots=True)
class SeatAccount:
    """Where a seat's gold is, and the treasury of its player's clan (if any)."""

    account: str
    """``player:<id>`` or ``stake:<table>:<id>``."""
    clan: str | None = None
    """``clan:<id>``: where this seat's ``clan_share`` goes."""


def settlement_batch(
    settlement: Settlement,
    *,
    settlement_id: str,
    table_id: str,
    seats: Sequence[SeatAccount],
    holds: Mapping[int, Sequence[Transfer]] | None = None,
    paid: Mapping[int, int] | None = None,
    memo: str = "",
    on_apply: Callable[[TxHandle], None] | None = None,
) -> Batch:
    """The one linked batch that applies ``settlement`` (see the module docstring).

    :param settlement_id: unique per hand; the batch id and the prefix of transfer ids.
    :param seats: one :class:`SeatAccount` per seat of the settlement.
    :param holds: per seat, its open holds (stored ``PENDING`` transfers from the seat's
        account to the table's escrow, e.g. Tài Xỉu bets): the seat's loss is posted from
        them first, and what is left of them is released.
    :param paid: per seat, gold it already moved into the escrow for this hand (its loss,
        posted when it went out): counted against its loss; any excess is paid back.
    :param memo: stored on every transfer (e.g. the game id and hand number).
    :raises LedgerError: if the settlement does not balance, the seats do not match it, a
        clan share has no clan, or a hold is not this seat's hold into this table's escrow.
    """
    deltas = settlement.deltas
    if len(seats) != len(deltas):
        raise LedgerError(f"{len(seats)} seat accounts for {len(deltas)} seats")
    if settlement.total != 0:
        raise LedgerError(f"settlement {settlement_id} does not balance: {settlement.total}")
    if settlement.fee < 0 or settlement.breakage < 0:
        raise LedgerError(f"settlement {settlement_id}: negative fee or breakage")
    escrow = escrow_account(table_id)
    prefix = settlement_id
    transfers: list[Transfer] = []
    holds = holds or {}
    paid = paid or {}
    if any(amount < 0 for amount in paid.values()):
        raise LedgerError(f"settlement {settlement_id}: a negative amount already paid")

    def move(role: str, debit: str, credit: str, amount: int, code: TransferCode) -> None:
        if amount > 0:
            transfers.append(Transfer.single(f"{prefix}:{role}", debit, credit, amount, code, memo))

    # 1. holds, then direct losses
    for seat, seat_account in enumerate(seats):
        loss = max(0, -deltas[seat] - paid.get(seat, 0))
        for index, hold in enumerate(holds.get(seat, ())):
            if (
                hold.kind is not TransferKind.PENDING
                or hold.debit_account != seat_account.account
                or hold.credit_account != escrow
            ):
                raise LedgerError(f"{hold.id} is not a hold of seat {seat} into {escrow}")
            taken = min(loss, hold.amount)
            role = f"{seat}:{index}"
            if taken > 0:
                transfers.append(Transfer.post(f"{prefix}:post:{role}", hold.id, taken, memo))
            else:
                transfers.append(Transfer.void(f"{prefix}:void:{role}", hold.id, memo))
            loss -= taken
        move(f"loss:{seat}", seat_account.account, escrow, loss, TransferCode.LOSS)
    move("house_pay", HOUSE, escrow, -settlement.house, TransferCode.HOUSE_PAY)
    # 2. payouts
    for seat, seat_account in enumerate(seats):
        owed = deltas[seat] + paid.get(seat, 0)
        move(f"win:{seat}", escrow, seat_account.account, owed, TransferCode.WIN)
    move("house_win", escrow, HOUSE, settlement.house, TransferCode.HOUSE_WIN)
    move("fee", escrow, FEES, settlement.fee, TransferCode.FEE)
    move("breakage", escrow, BREAKAGE, settlement.breakage, TransferCode.BREAKAGE)
    clans: list[AccountSpec] = []
    for seat, share in enumerate(settlement.clan_share):
        if share < 0:
            raise LedgerError(f"settlement {settlement_id}: negative clan share")
        if share == 0:
            continue
        clan = seats[seat].clan
        if clan is None:
            raise LedgerError(f"settlement {settlement_id}: a clan share for clanless seat {seat}")
        clans.append(AccountSpec(clan))
        move(f"clan:{seat}", escrow, clan, share, TransferCode.CLAN_SHARE)
    return Batch(
        tuple(transfers),
        settlement_id,
        (AccountSpec(escrow), *dict.fromkeys(clans)),
        on_apply,
    )


def settle(
    ledger: Ledger,
    settlement: Settlement,
    *,
    settlement_id: str,
    table_id: str,
    seats: Sequence[SeatAccount],
    holds: Mapping[int, Sequence[Transfer]] | None = None,
    paid: Mapping[int, int] | None = None,
    memo: str = "",
    on_apply: Callable[[TxHandle], None] | None = None,
) -> BatchResult:
    """Apply a settlement (:func:`settlement_batch`) in its own transaction."""
    batch = settlement_batch(
        settlement,
        settlement_id=settlement_id,
        table_id=table_id,
        seats=seats,
        holds=holds,
        paid=paid,
        memo=memo,
        on_apply=on_apply,
    )
    return ledger.submit_many([batch])[0]


def buy_in(
    ledger: Ledger,
    *,
    table_id: str,
    player_id: int,
    amount: int,
    transfer_id: str,
    on_apply: Callable[[TxHandle], None] | None = None,
) -> BatchResult:
    """Move ``amount`` from a player's wallet to their stake at a buy-in table (*Tẩy*).

    :param on_apply: runs in the same transaction when the transfer is newly applied.
    """
    stake = stake_account(table_id, player_id)
    transfer = Transfer.single(
        transfer_id, player_account(player_id), stake, amount, TransferCode.BUY_IN
    )
    return ledger.submit([transfer], accounts=[AccountSpec(stake)], on_apply=on_apply)


def cash_out(
    ledger: Ledger,
    *,
    table_id: str,
    player_id: int,
    transfer_id: str,
    on_apply: Callable[[TxHandle], None] | None = None,
) -> BatchResult:
    """Move all of a player's stake at a table back to their wallet.

    The amount is read just before; ``AMOUNT_MUST_NOT_BE_ZERO`` if nothing is left, and a
    retry with the same id is ``EXISTS``. ``on_apply`` as for :func:`buy_in`.
    """
    stake = stake_account(table_id, player_id)
    account = ledger.account(stake)
    amount = account.available if account is not None else 0
    transfer = Transfer.single(
        transfer_id, stake, player_account(player_id), amount, TransferCode.CASH_OUT
    )
    return ledger.submit([transfer], on_apply=on_apply)
