"""Betting rounds, pots and side pots shared by Xì tố and Liêng (private machinery).

A :class:`Betting` value is the money side of a hand: what each seat has behind (``stacks``),
has put in the hand (``committed``) and in the current round (``round_bets``), who has folded,
and whose turn it is. A :class:`RoundRule` says how the current round bets: fixed units or
no-limit, the minimum bet and raise, whether checking and raising are allowed, and whether the
all-in button (*Tất cả*) exists.

Rules common to both games (RULES.md §4.5, §4.7, §6.3, §8.2):

* a call (*Theo*) matches the highest round bet, or puts in the whole stack if that is less (a
  short all-in); a check (*Không tố*) is only possible when nothing is owed;
* a raise (*Tố*) is written as the round total it raises *to*. Its size follows the round rule;
  the total a seat commits to the hand may not exceed the largest (committed + stack) among the
  other seats still in the hand, and a seat short of the minimum may raise all-in for less;
* a raise smaller than the minimum increment (short all-in, or held down by that cap) does not
  reopen the betting for seats that have already acted;
* a round ends when every seat still in the hand that can act has acted since the last full
  raise and has matched the highest bet (or is all-in);
* pots are built from the contribution levels: each level goes to the best hand among the seats
  that paid into it and have not folded; a level only one live seat paid for returns to it (an
  uncalled bet); a tie splits the level and the odd units go to the first tied winner in the
  table's order.

Seats are 0-based; ``direction`` is +1 when the next seat in playing order is ``seat + 1``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from sanh.errors import ConfigError, IllegalActionError, NotYourTurnError
from sanh.games._evolve import put
from sanh.games.base import Action, AmountRange, Event, Game
from sanh.texts import clean, text
from sanh.types import Chips, Seat

__all__ = [
    "AllIn",
    "Betting",
    "Call",
    "Check",
    "Fold",
    "Leave",
    "Muck",
    "Pot",
    "Raise",
    "RoundRule",
    "Show",
    "award_pots",
    "build_pots",
    "carry_dict",
    "check_seat_in_hand",
    "seats_from",
    "start_seat",
]


# ----- actions ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Fold(Action):
    """*Bỏ* / *Úp bỏ*: leave the hand, forfeiting everything put in."""

    wire = "Fold"


@dataclass(frozen=True, slots=True)
class Leave(Action):
    """Leaving the table or a disconnection that removes the seat (*Rời bàn*), at once and out
    of turn (an ``anytime`` action, never listed): the seat folds where the hand stands, its
    chips stay in the pots and it can win nothing (RULES.md §2.7, §6.7, §8.5)."""

    wire = "Leave"

    anytime: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Check(Action):
    """*Không tố*: stay in without putting anything in (only when nothing is owed)."""

    wire = "Check"


@dataclass(frozen=True, slots=True)
class Call(Action):
    """*Theo*: match the highest bet of the round (all-in for less if short).

    In Liêng, a call when nothing is owed acts as a check.
    """

    wire = "Call"


@dataclass(frozen=True, slots=True)
class Raise(Action):
    """*Tố*: bet or raise; ``amount`` is this round's total after the action (raise *to*)."""

    wire = "Raise"

    amount: int


@dataclass(frozen=True, slots=True)
class AllIn(Action):
    """*Tất cả* / *Tố tất cả*: put the whole stack in (where the game shows the button)."""

    wire = "AllIn"


@dataclass(frozen=True, slots=True)
class Show(Action):
    """*Lật tẩy*: the winner by fold turns the hidden cards face up for everyone."""

    wire = "Show"


@dataclass(frozen=True, slots=True)
class Muck(Action):
    """Take the pot without showing (a winner by fold who does not press *Lật tẩy*)."""

    wire = "Muck"


# ----- round rules and the betting state ------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RoundRule:
    """How one betting round bets."""

    limit: Literal["fixed", "nolimit"]
    """``fixed``: every bet or raise is exactly ``bet``; ``nolimit``: any amount from the
    minimum up to the stack (and the caps)."""
    bet: Chips
    """The fixed unit, or the minimum opening bet (no-limit)."""
    min_raise: Chips
    """The minimum raise increment (no-limit; fixed rounds raise by ``bet``)."""
    max_raise: Chips = 0
    """The largest raise increment (0: no cap per raise)."""
    max_bets: int | None = None
    """Fixed rounds: the most full bets and raises in the round (None: no cap)."""
    can_check: bool = True
    """Whether a seat owing nothing may check; False forces a bet or a fold."""
    can_raise: bool = True
    """Whether anyone may bet or raise in this round."""
    all_in_button: bool = False
    """Whether :class:`AllIn` (*Tất cả*) is offered."""
    forced_level: Chips = 0
    """A round bet everyone must match from the start (Xì tố round 1: 5 % of L)."""
    call_checks: bool = False
    """Liêng: :class:`Call` doubles as the check when nothing is owed (no :class:`Check`)."""


@dataclass(frozen=True, slots=True)
class Betting:
    """The money side of a hand."""

    in_hand: tuple[bool, ...]
    """Seats dealt into the hand."""
    stacks: tuple[Chips, ...]
    """What each seat has behind."""
    committed: tuple[Chips, ...]
    """What each seat has put in the hand (all rounds, antes included)."""
    round_bets: tuple[Chips, ...]
    """What each seat has put in the current round."""
    folded: tuple[bool, ...]
    acted: tuple[bool, ...]
    """Has acted since the last full raise (may then only call or fold)."""
    level: Chips = 0
    """The highest round bet."""
    bets: int = 0
    """Full bets and raises made in this round."""
    actor: Seat | None = None
    """Whose turn it is, or None when the round is over (or not started)."""
    rule: RoundRule | None = None
    direction: int = 1

    # ----- construction ---------------------------------------------------------------------
    @staticmethod
    def start(stacks: Sequence[Chips], in_hand: Sequence[bool], direction: int = 1) -> Betting:
        """A hand before any chip is put in."""
        n = len(stacks)
        return Betting(
            in_hand=tuple(in_hand),
            stacks=tuple(stacks),
            committed=(0,) * n,
            round_bets=(0,) * n,
            folded=(False,) * n,
            acted=(False,) * n,
            direction=direction,
        )

    # ----- queries --------------------------------------------------------------------------
    @property
    def seats(self) -> int:
        """The number of seats at the table."""
        return len(self.stacks)

    def live(self, seat: Seat) -> bool:
        """In the hand and not folded."""
        return self.in_hand[seat] and not self.folded[seat]

    def live_seats(self) -> list[Seat]:
        """Seats in the hand that have not folded, by seat number."""
        return [s for s in range(self.seats) if self.live(s)]

    @property
    def out(self) -> tuple[bool, ...]:
        """Per seat: folded, left, or not dealt in (cannot win a pot)."""
        return tuple(f or not h for f, h in zip(self.folded, self.in_hand, strict=True))

    def can_act(self, seat: Seat) -> bool:
        """Live and with chips behind."""
        return self.live(seat) and self.stacks[seat] > 0

    def owes(self, seat: Seat) -> Chips:
        """What ``seat`` must add to call (before the stack limit)."""
        return max(0, self.level - self.round_bets[seat])

    def cap_total(self, seat: Seat) -> Chips:
        """The most ``seat`` may commit to the hand: the largest (committed + stack) among the
        other live seats (RULES.md §4.5)."""
        others = [self.committed[s] + self.stacks[s] for s in self.live_seats() if s != seat]
        return max(others, default=0)

    def may_raise(self, seat: Seat) -> bool:
        """Whether the round lets ``seat`` bet or raise at all (before amounts)."""
        rule = self.rule
        if rule is None or not rule.can_raise or self.acted[seat]:
            return False
        return not (
            rule.limit == "fixed" and rule.max_bets is not None and self.bets >= rule.max_bets
        )

    def raise_bounds(self, seat: Seat) -> tuple[Chips, Chips] | None:
        """The legal raise-to totals for ``seat`` (``min``, ``max``), or None if it may not."""
        rule = self.rule
        if rule is None or not self.may_raise(seat):
            return None
        own_max = self.round_bets[seat] + self.stacks[seat]
        cap = self.cap_total(seat) - (self.committed[seat] - self.round_bets[seat])
        top = min(own_max, cap)
        if top <= self.level:
            return None
        if rule.limit == "fixed":
            value = min(self.level + rule.bet, top)
            return (value, value)
        step = rule.bet if self.level == 0 else rule.min_raise
        if rule.max_raise:
            top = min(top, self.level + rule.max_raise)
        return (min(self.level + step, top), top)

    def full_increment(self) -> Chips:
        """The smallest increment that counts as a full bet or raise now."""
        assert self.rule is not None
        if self.rule.limit == "fixed" or self.level == 0:
            return self.rule.bet
        return self.rule.min_raise

    def legal(self, seat: Seat) -> tuple[list[Action], list[AmountRange]]:
        """The legal actions of ``seat`` (empty unless it is the actor)."""
        if self.actor != seat or self.rule is None:
            return [], []
        rule = self.rule
        owed = self.owes(seat)
        bounds = self.raise_bounds(seat)
        actions: list[Action] = [Fold(seat)]
        if owed == 0:
            if rule.call_checks:
                actions.append(Call(seat))
            elif rule.can_check or bounds is None:
                actions.append(Check(seat))
        else:
            actions.append(Call(seat))
        ranges: list[AmountRange] = []
        if bounds is not None:
            low, high = bounds
            actions.append(Raise(seat, low))
            if high != low:
                actions.append(Raise(seat, high))
                ranges.append(AmountRange(Raise(seat, 0), low, high))
            else:
                ranges.append(AmountRange(Raise(seat, 0), low, low))
        stack = self.stacks[seat]
        if rule.all_in_button and stack > 0 and (stack <= owed or self.may_raise(seat)):
            actions.append(AllIn(seat))
        return actions, ranges

    def validate(self, action: Action, version: int) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` is legal for the actor."""
        seat = action.seat
        if seat is None or seat != self.actor:
            raise IllegalActionError(action, "not_seat_turn_to_bet", version)
        actions, _ = self.legal(seat)
        if isinstance(action, Raise):
            bounds = self.raise_bounds(seat)
            if bounds is None:
                raise IllegalActionError(action, "no_raise_now", version)
            low, high = bounds
            if action.amount < low:
                raise IllegalActionError(action, text("raise_at_least", low), version)
            if action.amount > high:
                raise IllegalActionError(action, text("raise_at_most", high), version)
            return
        if action not in actions:
            if isinstance(action, Check):
                reason = text("cannot_check", self.owes(seat))
            elif isinstance(action, AllIn):
                reason = "all_in_unavailable"
            elif isinstance(action, Call):
                reason = "nothing_to_call"
            else:
                reason = text("not_round_action", action.wire)
            raise IllegalActionError(action, reason, version)

    # ----- transitions ----------------------------------------------------------------------
    def put(self, seat: Seat, amount: Chips) -> Betting:
        """Move ``amount`` (at most the stack) from the stack into the hand and the round."""
        amount = min(amount, self.stacks[seat])
        return dataclasses.replace(
            self,
            stacks=put(self.stacks, seat, self.stacks[seat] - amount),
            committed=put(self.committed, seat, self.committed[seat] + amount),
            round_bets=put(self.round_bets, seat, self.round_bets[seat] + amount),
        )

    def post(self, seat: Seat, amount: Chips) -> Betting:
        """A forced payment into the hand outside any round bet (an ante)."""
        amount = min(amount, self.stacks[seat])
        return dataclasses.replace(
            self,
            stacks=put(self.stacks, seat, self.stacks[seat] - amount),
            committed=put(self.committed, seat, self.committed[seat] + amount),
        )

    def begin_round(self, rule: RoundRule, first: Seat) -> Betting:
        """Start a betting round; ``first`` (or the next seat that can act) acts first.

        The round is skipped (``actor`` None) when nobody needs to act: at most one seat can
        act and it owes nothing.
        """
        n = self.seats
        state = dataclasses.replace(
            self,
            round_bets=(0,) * n,
            acted=(False,) * n,
            level=rule.forced_level,
            bets=0,
            rule=rule,
            actor=None,
        )
        return dataclasses.replace(state, actor=state._next_actor(first, include_start=True))

    def auto_pay_round(self, rule: RoundRule, amount: Chips) -> Betting:
        """Every live seat pays ``amount`` (or its whole stack) with no decision (auto-follow)."""
        state = dataclasses.replace(
            self,
            round_bets=(0,) * self.seats,
            acted=(False,) * self.seats,
            level=amount,
            bets=0,
            rule=rule,
            actor=None,
        )
        for seat in state.live_seats():
            state = state.put(seat, amount)
        return state

    def apply(self, action: Action) -> Betting:
        """The betting after a validated action of the actor."""
        seat = action.seat
        assert seat is not None and seat == self.actor and self.rule is not None
        state = self
        full = False
        if isinstance(action, Fold):
            state = dataclasses.replace(state, folded=put(state.folded, seat, True))
        elif isinstance(action, Call):
            state = state.put(seat, state.owes(seat))
        elif isinstance(action, Raise | AllIn):
            target = (
                action.amount
                if isinstance(action, Raise)
                else state.round_bets[seat] + state.stacks[seat]
            )
            state = state.put(seat, target - state.round_bets[seat])
            new_total = state.round_bets[seat]
            if new_total > state.level:
                full = new_total - state.level >= state.full_increment()
                state = dataclasses.replace(state, level=new_total)
        acted = put(state.acted, seat, True)
        if full:
            acted = tuple(s == seat for s in range(state.seats))
            state = dataclasses.replace(state, bets=state.bets + 1)
        state = dataclasses.replace(state, acted=acted)
        if len(state.live_seats()) <= 1:
            return dataclasses.replace(state, actor=None)
        return dataclasses.replace(state, actor=state._next_actor(seat, include_start=False))

    def remove(self, seat: Seat) -> Betting:
        """``seat`` folds now, in turn or not (:class:`Leave`): its chips stay in the hand.

        The turn goes on from the actor (the next seat if the leaver was the actor); the round
        ends when the seat left to act has nobody to bet against.
        """
        assert self.live(seat)
        state = dataclasses.replace(
            self, folded=put(self.folded, seat, True), acted=put(self.acted, seat, True)
        )
        if len(state.live_seats()) <= 1 or state.actor is None:
            return dataclasses.replace(state, actor=None)
        if state.actor == seat:
            return dataclasses.replace(state, actor=state._next_actor(seat, include_start=False))
        return dataclasses.replace(state, actor=state._next_actor(state.actor, include_start=True))

    def _needs_action(self, seat: Seat) -> bool:
        return self.can_act(seat) and (not self.acted[seat] or self.owes(seat) > 0)

    def _next_actor(self, start: Seat, *, include_start: bool) -> Seat | None:
        able = [s for s in range(self.seats) if self.can_act(s)]
        if len(able) <= 1 and all(self.owes(s) == 0 for s in able):
            return None  # nobody to bet against: at most one seat has chips, owing nothing
        for seat in seats_from(start, self.seats, self.direction, include_start=include_start):
            if self._needs_action(seat):
                return seat
        return None


def seats_from(
    start: Seat, seats: int, direction: int = 1, *, include_start: bool = True
) -> list[Seat]:
    """Every seat in playing order from ``start`` (first, if ``include_start``)."""
    order = [(start + direction * k) % seats for k in range(seats)]
    return order if include_start else [*order[1:], order[0]]


def carry_dict(carry: Any) -> dict[str, Any]:
    """The carried data of the previous hand as a dict (it is stored as name/value pairs).

    :raises ConfigError: if it is neither a dict nor name/value pairs.
    """
    if carry is None:
        return {}
    if isinstance(carry, dict):
        return dict(carry)
    try:
        return {str(k): v for k, v in carry}
    except (TypeError, ValueError):
        raise ConfigError(text=text("carry_invalid", "carry", clean(repr(carry)))) from None


def start_seat(host: Seat, in_hand: Sequence[bool], winner: Any, direction: int = 1) -> Seat:
    """The previous winner, else the host; if that seat sits out, the next seat in play order."""
    n = len(in_hand)
    first = host
    if isinstance(winner, int) and not isinstance(winner, bool) and 0 <= winner < n:
        first = winner
    return next(s for s in seats_from(first, n, direction) if in_hand[s])


def check_seat_in_hand(game: Game[Any], state: Any, betting: Betting, event: Event) -> None:
    """Clear errors for a seat that is not dealt into the hand or has folded.

    :raises NotYourTurnError: for an action of such a seat while the hand is on.
    """
    if not isinstance(event, Action) or event.seat is None:
        return
    seat = event.seat
    if game.to_act(state) is None or not 0 <= seat < len(betting.in_hand):
        return
    if not betting.in_hand[seat]:
        raise NotYourTurnError(event, text("not_dealt_in", seat), state.version)
    if betting.folded[seat]:
        raise NotYourTurnError(event, text("has_folded", seat), state.version)


# ----- pots ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: ``amount`` in units, winnable by the ``eligible`` seats."""

    amount: Chips
    eligible: tuple[Seat, ...]


def build_pots(committed: Sequence[Chips], folded: Sequence[bool]) -> tuple[Pot, ...]:
    """The main pot and side pots from the contribution levels (RULES.md §4.7).

    Each distinct contribution level of a live seat closes a pot; chips of folded seats stay in
    the pots they paid into. A top level paid by one live seat only is a pot for that seat alone
    (an uncalled bet, returned).

    >>> [(p.amount, p.eligible) for p in build_pots([100, 300, 300], [False, False, False])]
    [(300, (0, 1, 2)), (400, (1, 2))]
    """
    live_levels = sorted({c for c, f in zip(committed, folded, strict=True) if not f and c > 0})
    pots: list[Pot] = []
    previous = 0
    for level in live_levels:
        amount = sum(max(0, min(c, level) - previous) for c in committed)
        eligible = tuple(
            s
            for s, (c, f) in enumerate(zip(committed, folded, strict=True))
            if not f and c >= level
        )
        if amount:
            pots.append(Pot(amount, eligible))
        previous = level
    leftover = sum(max(0, c - previous) for c in committed)
    if leftover:
        # Folded chips above every live level (a seat that bet, then left): the top pot.
        if pots:
            last = pots[-1]
            pots[-1] = Pot(last.amount + leftover, last.eligible)
        else:  # no live seat put anything in (the others folded or left): the live seats'
            pots.append(Pot(leftover, tuple(s for s, f in enumerate(folded) if not f)))
    return tuple(pots)


def award_pots(
    pots: Sequence[Pot],
    strength: Callable[[Seat], Any],
    order: Sequence[Seat],
) -> tuple[tuple[int, Seat, Chips], ...]:
    """Who wins what: each pot to the strongest eligible seats, split equally.

    ``strength(seat)`` gives a comparable key (larger wins); ``order`` is the table order used
    for the odd units of a split pot, which go to the first tied winner in that order.

    :return: ``(pot index, seat, amount)`` triples, pot by pot, winners in table order.

    >>> pots = build_pots([100, 300, 300], [False, False, False])
    >>> award_pots(pots, {0: 3, 1: 1, 2: 2}.__getitem__, [0, 1, 2])
    ((0, 0, 300), (1, 2, 400))
    """
    rank = {seat: i for i, seat in enumerate(order)}
    out: list[tuple[int, Seat, Chips]] = []
    for index, pot in enumerate(pots):
        if not pot.eligible:
            continue
        keys = {seat: strength(seat) for seat in pot.eligible}
        best = max(keys.values())
        winners = sorted((s for s, k in keys.items() if k == best), key=lambda s: rank[s])
        share, odd = divmod(pot.amount, len(winners))
        for i, seat in enumerate(winners):
            out.append((index, seat, share + (odd if i == 0 else 0)))
    return tuple(out)
