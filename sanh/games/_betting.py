"""Pots, side pots and splits for every game where players bet against each other.

Shared machinery (STYLE.md §2: the way pokerkit mixes betting structures into games). It knows
nothing about cards or betting rounds: a game passes in how much each seat put in, who is still
in the hand, and how strong each remaining hand is, and gets back the pots and who wins what.
Hold'em uses it today; Xì tố and Liêng can use it unchanged.

API
---
``build_pots(contributions, live, dead=0) -> tuple[Pot, ...]``
    The main pot and the side pots from the contribution levels (RULES.md §4.7). Every distinct
    contribution level closes a pot; each pot holds, from every seat, the part of its
    contribution between the previous level and this one; a pot's *eligible* seats are the live
    seats (not folded) that reached its level. Adjacent pots with the same eligible seats are
    merged. ``dead`` (antes, or any money that belongs to no level) goes into the first pot.
    Folded seats' chips stay in the pots they paid into; chips above the highest level a live
    seat reached (a seat that folded when it could have checked) join the highest pot.

``award_pots(pots, strengths, order) -> Award``
    Each pot goes to the strongest eligible hands (higher strength wins; equal strengths tie).
    A tie splits the pot equally; the odd units go to the first tied winner in ``order`` (for
    Hold'em: clockwise from the dealer button). ``strengths[seat]`` is ``None`` for a seat
    that cannot win (folded, mucked). Adjacent pots left with the same contenders once the
    hands that win nothing are set aside are split as one (pokerkit's rule for odd units).

``split(amount, winners) -> tuple[tuple[Seat, Chips], ...]``
    An equal split with the remainder to the first winner listed.

``uncalled(bets) -> tuple[Seat, Chips] | None``
    The part of the single highest bet that no other seat matched (it goes back to its owner).

``seats_from(start, count, include)``
    Seats in turn order starting at ``start`` (``start`` included), keeping those ``include``
    says are taking part.

>>> pots = build_pots([100, 300, 300], [True, True, True])
>>> [(pot.amount, pot.eligible) for pot in pots]
[(300, (0, 1, 2)), (400, (1, 2))]
>>> award_pots(pots, [9, 5, 7], order=[0, 1, 2]).winnings
(300, 0, 400)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sanh.types import Chips, Seat

__all__ = ["Award", "Pot", "award_pots", "build_pots", "seats_from", "split", "uncalled"]


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: its amount and the seats that can win it."""

    amount: Chips
    eligible: tuple[Seat, ...]
    """Live seats that paid up to this pot's level, in seat order."""


@dataclass(frozen=True, slots=True)
class Award:
    """Who wins what: per-seat totals and, per pot, the winners in ``order``."""

    winnings: tuple[Chips, ...]
    """Total won by each seat (zero for seats that win nothing)."""
    winners: tuple[tuple[Seat, ...], ...]
    """For each pot, its winners (the first one got any odd units)."""
    shares: tuple[tuple[tuple[Seat, Chips], ...], ...]
    """For each pot, ``(seat, amount)`` for each winner."""
    pots: tuple[Pot, ...]
    """The pots as awarded (adjacent pots with the same contenders merged); ``eligible`` is
    the eligible seats of the lowest merged level."""


def build_pots(
    contributions: Sequence[Chips], live: Sequence[bool], dead: Chips = 0
) -> tuple[Pot, ...]:
    """The main pot and side pots from contribution levels.

    :param contributions: what each seat put in (uncalled bets already returned).
    :param live: whether each seat can still win (has not folded).
    :param dead: money in no level (antes), added to the first pot.
    :return: the pots, main pot first; no pot is empty, and the amounts sum to
        ``sum(contributions) + dead``.
    """
    seats = range(len(contributions))
    pots: list[Pot] = []
    previous = 0
    extra = dead
    for level in sorted(set(contributions)):
        amount = extra
        extra = 0
        for paid in contributions:
            if paid > previous:
                amount += min(paid, level) - previous
        previous = level
        if not amount:
            continue
        eligible = tuple(seat for seat in seats if live[seat] and contributions[seat] >= level)
        if not eligible:
            # Only folded seats reached this level (they folded when they could have checked):
            # their chips stay in play, in the highest pot that a live seat can win.
            if pots:
                last = pots.pop()
                pots.append(Pot(last.amount + amount, last.eligible))
            else:
                extra = amount
            continue
        if pots and pots[-1].eligible == eligible:
            amount += pots.pop().amount
        pots.append(Pot(amount, eligible))
    return tuple(pots)


def split(amount: Chips, winners: Sequence[Seat]) -> tuple[tuple[Seat, Chips], ...]:
    """Split ``amount`` equally; the remainder goes to ``winners[0]``.

    >>> split(301, [4, 1])
    ((4, 151), (1, 150))
    """
    share, odd = divmod(amount, len(winners))
    return tuple((seat, share + (odd if index == 0 else 0)) for index, seat in enumerate(winners))


def award_pots(
    pots: Sequence[Pot], strengths: Sequence[int | None], order: Sequence[Seat]
) -> Award:
    """Give each pot to its strongest eligible hands.

    Hands that win nothing are set aside first (pokerkit's "hand killing"), and adjacent pots
    left with the same contenders are merged before they are split, so that splitting never
    creates more odd units than one pot would. (This only decides where odd units go; it is
    what pokerkit does, and the cross-check tests rely on it.) The returned ``pots`` are the
    pots as awarded.

    :param strengths: per seat; ``None`` if the seat cannot win.
    :param order: seats by odd-unit priority (Hold'em: clockwise from the button).
    :raises ValueError: if a pot has no seat that can win it.
    """
    rank = {seat: index for index, seat in enumerate(order)}
    # Who wins at least a share of some pot.
    winning: set[Seat] = set()
    for pot in pots:
        contenders = [seat for seat in pot.eligible if strengths[seat] is not None]
        if not contenders:
            raise ValueError(f"nobody can win a pot of {pot.amount}")
        best = max(strengths[seat] for seat in contenders)  # type: ignore[type-var]
        winning.update(seat for seat in contenders if strengths[seat] == best)
    # Merge adjacent pots whose remaining contenders are the same.
    merged: list[tuple[Chips, tuple[Seat, ...], tuple[Seat, ...]]] = []
    for pot in pots:
        remaining = tuple(seat for seat in pot.eligible if seat in winning)
        if merged and merged[-1][2] == remaining:
            amount, eligible, _ = merged.pop()
            merged.append((amount + pot.amount, eligible, remaining))
        else:
            merged.append((pot.amount, pot.eligible, remaining))
    winnings = [0] * len(strengths)
    awarded: list[Pot] = []
    all_winners: list[tuple[Seat, ...]] = []
    all_shares: list[tuple[tuple[Seat, Chips], ...]] = []
    for amount, eligible, remaining in merged:
        best = max(strengths[seat] for seat in remaining)  # type: ignore[type-var]
        winners = sorted(
            (seat for seat in remaining if strengths[seat] == best),
            key=lambda seat: rank.get(seat, len(rank) + seat),
        )
        shares = split(amount, winners)
        for seat, share in shares:
            winnings[seat] += share
        awarded.append(Pot(amount, eligible))
        all_winners.append(tuple(winners))
        all_shares.append(shares)
    return Award(tuple(winnings), tuple(all_winners), tuple(all_shares), tuple(awarded))


def uncalled(bets: Sequence[Chips]) -> tuple[Seat, Chips] | None:
    """The unmatched part of the single highest bet, and whose it is (``None`` if matched).

    >>> uncalled([50, 200, 120])
    (1, 80)
    >>> uncalled([200, 200, 0]) is None
    True
    """
    if len(bets) < 2:
        return None
    ordered = sorted(bets)
    top, second = ordered[-1], ordered[-2]
    if top == second:
        return None
    return bets.index(top), top - second


def seats_from(start: Seat, count: int, include: Sequence[bool]) -> tuple[Seat, ...]:
    """Seats ``start, start + 1, ...`` (wrapping at ``count``) for which ``include`` is true.

    >>> seats_from(2, 4, [True, False, True, True])
    (2, 3, 0)
    """
    return tuple(
        seat for seat in ((start + step) % count for step in range(count)) if include[seat]
    )
