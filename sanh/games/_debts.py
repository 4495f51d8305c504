"""Payments within one hand, capped at what each payer holds (RULES.md §2.6).

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
    """An amount ``payer`` owes ``receiver`` (``None``: the house or table pot)."""

    receiver: Seat | None
    amount: Chips
    item: str
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

    def pay(self, payer: Seat | None, debts: Sequence[Debt]) -> Chips:
        """Pay ``debts`` from ``payer`` at once, capped at its balance; returns what was paid.

        The house (``payer=None``) is never capped.
        """
        debts = [d for d in debts if d.amount > 0]
        total = sum(d.amount for d in debts)
        if total == 0:
            return 0
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
            self._move(debt.receiver, share, debt.item, debt.amount, detail)
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
