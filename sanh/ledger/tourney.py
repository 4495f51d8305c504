"""A tournament's gold: its escrow account, the entries, refunds, prizes and the house's fee.

Every gold movement of a tournament (:mod:`sanh.server.tournaments`) is one linked batch with a
deterministic id, so a replayed request applies nothing more (``EXISTS``)::

    register      tourney:<t>:reg:<player>:<n>     wallet -> tourney:<t>  buy-in (TOURNEY_ENTRY)
                                                    wallet -> tourney:<t>  fee (TOURNEY_FEE)
    unregister    tourney:<t>:unreg:<player>:<n>   tourney:<t> -> wallet  both (TOURNEY_REFUND)
    cancel        tourney:<t>:cancel               tourney:<t> -> each wallet, both back
    the end       tourney:<t>:payout               tourney:<t> -> winners (PRIZE), -> fees
                                                    (FEE), -> breakage (BREAKAGE)

``<n>`` counts a player's entries into the tournament (an entry withdrawn and made again is a
new one). Once a tournament's ``cancel`` or ``payout`` batch is applied its escrow is empty:
``sanh audit`` checks it (``tourney_escrow``). The prize pool is the buy-ins; the fees are the
house's and never in the pool: prizes + breakage = pool, and pool + fees = what was paid in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sanh.errors import LedgerError
from sanh.ledger.book import Ledger
from sanh.ledger.model import (
    BREAKAGE,
    FEES,
    AccountSpec,
    BatchResult,
    Transfer,
    TransferCode,
    TxHandle,
    player_account,
    tourney_account,
)

__all__ = ["cancel", "end_batch_ids", "pay_out", "prizes", "register", "unregister"]

Hook = Callable[[TxHandle], None] | None


def _pair(
    prefix: str, source: str, target: str, buy_in: int, fee: int, refund: bool
) -> list[Transfer]:
    entry = TransferCode.TOURNEY_REFUND if refund else TransferCode.TOURNEY_ENTRY
    fee_code = TransferCode.TOURNEY_REFUND if refund else TransferCode.TOURNEY_FEE
    out = [Transfer.single(f"{prefix}:buyin", source, target, buy_in, entry)]
    if fee > 0:
        out.append(Transfer.single(f"{prefix}:fee", source, target, fee, fee_code))
    return out


def _check(buy_in: int, fee: int) -> None:
    if buy_in <= 0 or fee < 0:
        raise LedgerError(f"a tournament needs a positive buy-in and a fee >= 0: {buy_in}, {fee}")


def register(
    ledger: Ledger,
    tournament: str,
    player_id: int,
    entry: int,
    buy_in: int,
    fee: int,
    on_apply: Hook = None,
) -> BatchResult:
    """The player's ``entry``-th entry: buy-in and fee from the wallet into the escrow."""
    _check(buy_in, fee)
    escrow = tourney_account(tournament)
    batch = f"{escrow}:reg:{player_id}:{entry}"
    transfers = _pair(batch, player_account(player_id), escrow, buy_in, fee, refund=False)
    return ledger.submit(
        transfers, batch_id=batch, accounts=[AccountSpec(escrow)], on_apply=on_apply
    )


def unregister(
    ledger: Ledger,
    tournament: str,
    player_id: int,
    entry: int,
    buy_in: int,
    fee: int,
    on_apply: Hook = None,
) -> BatchResult:
    """The player's ``entry``-th entry withdrawn before the start: both back to the wallet."""
    _check(buy_in, fee)
    escrow = tourney_account(tournament)
    batch = f"{escrow}:unreg:{player_id}:{entry}"
    transfers = _pair(batch, escrow, player_account(player_id), buy_in, fee, refund=True)
    return ledger.submit(transfers, batch_id=batch, on_apply=on_apply)


def cancel(
    ledger: Ledger,
    tournament: str,
    players: Sequence[int],
    buy_in: int,
    fee: int,
    on_apply: Hook = None,
) -> BatchResult:
    """The tournament is called off before its start: every entrant's buy-in and fee back,
    in one batch (an empty tournament's cancel is an empty batch: its id still records it)."""
    _check(buy_in, fee)
    escrow = tourney_account(tournament)
    batch = f"{escrow}:cancel"
    transfers: list[Transfer] = []
    for player in players:
        wallet = player_account(player)
        transfers += _pair(f"{batch}:{player}", escrow, wallet, buy_in, fee, refund=True)
    return ledger.submit(
        transfers, batch_id=batch, accounts=[AccountSpec(escrow)], on_apply=on_apply
    )


def prizes(pool: int, shares: Sequence[int]) -> tuple[tuple[int, ...], int]:
    """Each paid place's prize, the floor of its share (basis points, summing to 10,000) of
    ``pool``, and the breakage left over: ``sum(prizes) + breakage == pool``."""
    if sum(shares) != 10_000 or any(s <= 0 for s in shares):
        raise LedgerError(f"payout shares must be positive and sum to 10000: {list(shares)}")
    paid = tuple(pool * share // 10_000 for share in shares)
    return paid, pool - sum(paid)


def pay_out(
    ledger: Ledger,
    tournament: str,
    winners: Sequence[tuple[int, int]],
    fees: int,
    breakage: int,
    on_apply: Hook = None,
) -> BatchResult:
    """The end: each ``(player, prize)`` paid from the escrow, the fees to the house's fees
    account and the breakage to the breakage account, in one batch. The escrow must hold
    exactly that much (else ``EXCEEDS_CREDITS`` or a non-empty escrow that the audit reports:
    the caller computes these from the same entries it took)."""
    escrow = tourney_account(tournament)
    batch = f"{escrow}:payout"
    transfers = [
        Transfer.single(
            f"{batch}:{place}", escrow, player_account(player), amount, TransferCode.PRIZE
        )
        for place, (player, amount) in enumerate(winners, start=1)
        if amount > 0
    ]
    if fees > 0:
        transfers.append(Transfer.single(f"{batch}:fees", escrow, FEES, fees, TransferCode.FEE))
    if breakage > 0:
        transfers.append(
            Transfer.single(f"{batch}:breakage", escrow, BREAKAGE, breakage, TransferCode.BREAKAGE)
        )
    return ledger.submit(transfers, batch_id=batch, on_apply=on_apply)


def end_batch_ids(tournament: str) -> tuple[str, str]:
    """The ids of the two batches that end a tournament's escrow: cancel and payout."""
    escrow = tourney_account(tournament)
    return f"{escrow}:cancel", f"{escrow}:payout"
