"""Shared machinery of the shedding games (Tiến lên miền Nam, Sâm Lốc): actions, debts, turns.

Both games record what each player owes as :class:`Debt` lines in lá (× the bet level L) while
the hand runs, and turn them into one :class:`~sanh.games.base.Settlement` at the end with
:func:`settle_debts`, which applies RULES.md §2.6: a payer's debts are capped at what they
could commit (``config.stacks``); when the cap binds, each receiver gets a pro rata share
rounded down and the integer remainder goes to breakage.

Leaving and disconnection are :class:`Leave` actions of the leaving seat. They are ``anytime``
actions (accepted whoever's turn it is), so they are not listed among the turn's legal
actions: the server applies what ``default_action(state, seat, "leave" | "disconnect")``
returns, at any moment.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from sanh.cards.card import Card
from sanh.errors import ConfigError
from sanh.eval.combos import Combo, Kind
from sanh.games._debts import Debt
from sanh.games.base import Action, Settlement, SettlementLine, TableConfig
from sanh.texts import clean, join, text
from sanh.types import Seat

__all__ = [
    "Debt",
    "Leave",
    "Pass",
    "Play",
    "between",
    "carry_seat",
    "cut_text",
    "dealt_in_seats",
    "describe",
    "render_shedding",
    "seats_from",
    "settle_debts",
]


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play cards (a single, a pair, a straight …) on the table: ``p2 play 3s4s5d``."""

    wire = "Play"

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Pass (*bỏ lượt*): locked out of the trick until it ends."""

    wire = "Pass"


@dataclass(frozen=True, slots=True)
class Leave(Action):
    """The seat leaves the table or is disconnected for good (``p3 leave``), at any moment."""

    wire = "Leave"

    anytime: ClassVar[bool] = True


def seats_from(start: Seat, seats: int, step: int) -> list[Seat]:
    """Every seat in turn order beginning with ``start`` (``step`` +1 or -1)."""
    return [(start + step * i) % seats for i in range(seats)]


def carry_seat(carry: Any, key: str, seats: int) -> Seat | None:
    """A seat stored under ``key`` in a carried dict, if it is a seat of this table.

    :raises ConfigError: if ``carry`` is neither ``None`` nor a dict.
    """
    if carry is None:
        return None
    if not isinstance(carry, dict):
        raise ConfigError(text=text("carry_invalid", "carry", clean(repr(carry))))
    value = carry.get(key)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < seats:
        return value
    return None


def dealt_in_seats(config: TableConfig, multiple: int) -> tuple[bool, ...]:
    """Seats whose stack is at least ``multiple`` × L (RULES.md §2.6, A-PL4; 0: every seat).

    :raises ConfigError: if ``multiple`` is negative or fewer than two seats may start.
    """
    if multiple < 0:
        raise ConfigError(text=text("option_not_negative", "platform.min_balance_multiple"))
    dealt_in = tuple(stack >= multiple * config.stake for stack in config.stacks)
    if sum(dealt_in) < 2:
        raise ConfigError(text=text("two_players_needed", multiple))
    return dealt_in


def between(debt: Debt) -> tuple[Seat, Seat]:
    """A shedding debt's payer and payee: always two seats (these games have no house).

    :raises ValueError: for a debt to or from the house.
    """
    if debt.payer is None or debt.payee is None:
        raise ValueError(f"a debt of a shedding game is between two seats: {debt!r}")
    return debt.payer, debt.payee


def settle_debts(
    config: TableConfig, debts: Iterable[Debt], detail: Sequence[tuple[str, Any]] = ()
) -> Settlement:
    """Turn debts in lá into a balanced settlement, capping each payer at their stack.

    A payer owing more than ``config.stacks[payer]`` pays exactly their stack: each of their
    debts is paid ``floor(amount × stack / owed)`` and the remainder is booked to breakage.
    """
    pairs = [(between(d), d) for d in debts if d.amount > 0 and d.payer != d.payee]
    owed = [0] * config.seats
    for (payer, _), debt in pairs:
        owed[payer] += debt.amount * config.stake
    deltas = [0] * config.seats
    lines: list[SettlementLine] = []
    breakage = 0
    paid_by = [0] * config.seats
    for (payer, payee), debt in pairs:
        units = debt.amount * config.stake
        cap = config.stacks[payer]
        if owed[payer] > cap:
            units = units * cap // owed[payer]
        paid_by[payer] += units
        deltas[payer] -= units
        deltas[payee] += units
        detail_text = join(text("pays_la", payer, payee, debt.amount), debt.detail)
        lines.append(SettlementLine(payer, debt.item, -units, detail=detail_text))
        lines.append(SettlementLine(payee, debt.item, units, detail=detail_text))
    for seat in range(config.seats):
        if owed[seat] > config.stacks[seat]:
            paid = config.stacks[seat]
            deltas[seat] -= paid - paid_by[seat]
            lines.append(
                SettlementLine(seat, "breakage", -(paid - paid_by[seat]), detail=text("rounding"))
            )
            breakage += paid - paid_by[seat]
    settlement = Settlement(
        deltas=tuple(deltas), breakage=breakage, lines=tuple(lines), detail=tuple(detail)
    )
    settlement.check()
    return settlement


def describe(combo: Combo) -> str:
    """A short description of a play: ``pair 7♦7♥``."""
    names = {
        Kind.SINGLE: "single",
        Kind.PAIR: "pair",
        Kind.TRIPLE: "triple",
        Kind.STRAIGHT: "straight",
        Kind.PAIR_STRAIGHT: f"{combo.pairs} đôi thông",
        Kind.FOUR: "tứ quý",
        Kind.DOUBLE_FOUR: "two tứ quý",
    }
    return f"{names[combo.kind]} {''.join(c.pretty for c in combo.cards)}"


def cut_text(combos: Sequence[Combo], victims: Iterable[int]) -> str:
    """The text code of a cut (*chặt*): the plays cut, then the play that cut them (the last)."""
    parts = [text("cut_victim", combos[i].kind.value, combos[i].cards) for i in victims]
    return join(*parts, text("cut_by", combos[-1].kind.value, combos[-1].cards))


def render_shedding(*, title: str, view: Any, seat_notes: Any, extra: str = "") -> str:
    """Shared text rendering of a shedding-game view."""
    lines = [f"{title} · L = {view.stake / 100:,.2f} gold · v{view.version}"]
    for seat in range(view.seats):
        marker = ">" if view.turn == seat and not view.terminal else " "
        you = " (you)" if view.viewer == seat else ""
        notes = seat_notes(seat)
        lines.append(
            f" {marker} p{seat + 1}{you}: {view.card_counts[seat]:2d} "
            + ("card " if view.card_counts[seat] == 1 else "cards")
            + (f"  [{notes}]" if notes else "")
        )
    if view.trick:
        plays = "  ".join(
            f"p{s + 1}: {''.join(c.pretty for c in cards)}" for s, cards in view.trick
        )
        lines.append(f"Trick: {plays}")
        kind = _KIND_NAMES.get(view.table_kind, view.table_kind)
        if view.table_kind == Kind.PAIR_STRAIGHT.value:
            kind = f"{len(view.table) // 2} đôi thông"
        shown = "".join(c.pretty for c in view.table)
        lines.append(f"On the table: {kind} {shown} by p{view.table_seat + 1}")
    elif not view.terminal:
        lines.append("On the table: nothing (a new trick)")
    if extra:
        lines.append(extra)
    if view.terminal:
        who = "nobody" if view.winner is None else f"p{view.winner + 1}"
        lines.append(f"Over: {view.outcome}, winner {who}")
        if view.paid_la:
            lines.append(
                "Paid (lá): " + "  ".join(f"p{s + 1} {v}" for s, v in enumerate(view.paid_la))
            )
    if view.hand:
        lines.append("Your hand: " + " ".join(c.pretty for c in view.hand))
    for card in getattr(view, "must_include", ()):
        lines.append(f"Your first play must include {card.pretty}")
    return "\n".join(lines)


_KIND_NAMES = {
    Kind.SINGLE.value: "single",
    Kind.PAIR.value: "pair",
    Kind.TRIPLE.value: "triple (sám)",
    Kind.STRAIGHT.value: "straight",
    Kind.FOUR.value: "tứ quý",
    Kind.DOUBLE_FOUR.value: "two tứ quý",
}
