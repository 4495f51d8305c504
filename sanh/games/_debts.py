"""Payments within one hand, capped at what each payer holds (RULES.md §2.6).

A :class:`Debt` is one obligation of a hand, in every game that has them. Two payment rules
pay them: a :class:`Purse` as the hand runs (the 3 cây games, Phỏm) and
:func:`sanh.games._shedding.settle_debts` at its end (Tiến lên, Sâm).

A :class:`Purse` follows every seat's running balance through a hand, starting from
``config.stacks``. A payer's debts of one moment (one payment event, to one or several
receivers) are capped at the payer's balance: if the balance is short, it is split among the
receivers pro rata, each share rounded down, and the integer remainder is booked to breakage
(the sanh rounding policy, :mod:`sanh.games.base`). Balances therefore never go negative and a
seat never loses more than its stack. The house (``None``) stands for a table pot or bank
escrow; its balance is not capped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sanh.games.base import Settlement, SettlementLine
from sanh.texts import join, text
from sanh.types import Chips, Seat

__all__ = ["Debt", "Purse"]


@dataclass(frozen=True, slots=True)
class Debt:
    """One obligation: ``payer`` owes ``payee`` ``amount`` for ``item`` (``None``: the house,
    a table pot or bank escrow).

    ``amount`` is in minor units when a :class:`Purse` pays it; the shedding games count their
    debts in lá (× the bet level L), which their ``settle_debts`` turns into units at the end.
    """

    payer: Seat | None
    payee: Seat | None
    amount: int
    item: str
    """``bet``, ``ga``, ``an_1``, ``penalty``, ``cong``, ``cut``, ``instant_win``, ``leave`` …"""
    detail: str = ""
    """A text code (:mod:`sanh.texts`) saying more about the debt, or ``""``."""


class Purse:
    """Running balances and itemised lines of one hand."""

    def __init__(self, stacks: Sequence[Chips]) -> None:
        self.stacks = tuple(stacks)
        self.balances = list(stacks)
        self.house = 0
        self.breakage = 0
        self.lines: list[SettlementLine] = []

    def pay(self, debts: Sequence[Debt]) -> Chips:
        """Pay ``debts``, one payer's debts of one moment, at once, capped at the payer's
        balance; returns what was paid.

        The house (``payer=None``) is never capped.

        :raises ValueError: if the debts have more than one payer.
        """
        debts = [d for d in debts if d.amount > 0]
        total = sum(d.amount for d in debts)
        if total == 0:
            return 0
        payer = debts[0].payer
        if any(d.payer != payer for d in debts):
            raise ValueError("debts of several payers are paid one payer at a time")
        available = total if payer is None else max(0, self.balances[payer])
        if total <= available:
            shares = [d.amount for d in debts]
            paid = total
        else:
            shares = [d.amount * available // total for d in debts]
            paid = available
        for debt, share in zip(debts, shares, strict=True):
            detail = debt.detail
            if share != debt.amount:
                detail = join(detail, text("capped", debt.amount))
            self._move(payer, -share, debt.item, debt.amount, detail)
            self._move(debt.payee, share, debt.item, debt.amount, detail)
        remainder = paid - sum(shares)
        if remainder:
            self._move(payer, -remainder, "breakage", 0, text("rounding_capped"))
            self.breakage += remainder
        return paid

    def _move(self, seat: Seat | None, amount: Chips, item: str, stake: Chips, detail: str) -> None:
        if amount == 0:
            return
        if seat is None:
            self.house += amount
        else:
            self.balances[seat] += amount
        self.lines.append(SettlementLine(seat, item, amount, stake, detail))

    def settlement(self, detail: tuple[tuple[str, object], ...] = ()) -> Settlement:
        """The settlement of everything paid so far (checked to balance)."""
        deltas = tuple(b - s for b, s in zip(self.balances, self.stacks, strict=True))
        settlement = Settlement(
            deltas=deltas,
            house=self.house,
            breakage=self.breakage,
            lines=tuple(self.lines),
            detail=detail,
        )
        settlement.check()
        return settlement
