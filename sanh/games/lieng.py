"""Liêng (three-card showdown with one betting round), RULES.md §8 [S001 "Chơi Liêng"].

Source: ``shared/seeds/001_*.txt``, section "Chơi Liêng"; RULES.md §2.6 (the 10 L balance to
start), §8, §15 (A-LI1 to A-LI6, A-PL2, A-PL4).

Glossary (Vietnamese → code):

* *mức cược min của bàn* (the ante, L) → ``TableConfig.stake``, posted by every player before
  the deal;
* *Tố* → :class:`Raise` (``amount`` = the round total raised *to*: the call plus at least L and
  at most ``lieng.raise_cap`` L); *Theo* → :class:`Call` (a check when nothing is owed);
  *Bỏ* → :class:`Fold`; leaving or a disconnection (*Rời bàn*, *mất kết nối*) →
  :class:`Leave`, at once and out of turn; showing after a win by fold (*Lật tẩy*, RULES.md §2.10) →
  :class:`Show`, not showing → :class:`Muck`;
* *Sáp* (three of a kind), *Liêng đồng chất* (suited straight), *Liêng* (straight), *Ảnh*
  (faces), *điểm* (points) → :class:`~sanh.eval.lieng.LiengCategory`.

A hand: every player with the balance to start antes L; the deck is shuffled (a chance event);
three face-down cards each, dealt one at a time from the first player; one betting round from
the first player (the host in the first hand, the previous winner later); showdown. The best hand
wins each pot; everyone else folding ends the hand with the winner choosing to show or not.

Choices where the rules are silent (all [DEF]):

* seats are numbered in counter-clockwise order (``lieng.direction = ccw`` plays ``s`` →
  ``s + 1``; ``cw`` plays ``s`` → ``s - 1``);
* a seat whose balance is below ``platform.min_balance_multiple`` x L sits the hand out
  (``0``: no check, but a seat with nothing cannot ante); a balance below L antes all-in;
* the cards are dealt one at a time round the table from the first player;
* an opening bet is at least ``lieng.min_raise`` L, like a raise increment; a raise smaller than
  that (a short all-in) does not reopen the betting;
* ``lieng.raise_cap`` is written in multiples of L; ``0`` is the flag's ``none`` (no-limit);
* equal hands (only possible with ``lieng.points_tie = split``) split the pot; odd units go to
  the first tied winner in playing order from the first player;
* the winner carried to the next hand is the winner of the main pot (or by fold).

The largest loss (:meth:`Lieng.max_loss`). Raises are capped in size, not in number, so no
bound follows from L, the seat count and the options: the players can raise each other up to
their stacks. What bounds a hand is §8.2's total cap (Hold'em §4.5): a seat commits at most the
largest stack among the other seats dealt in (ante included, unless the ante L is more). So no
seat loses more than ``max(L, s₂)``, ``s₂`` the second-largest stack dealt in, and the
second-richest player loses exactly ``s₂`` going all-in against the richest. :meth:`max_loss`
returns one unit more, so that the richest seat, given ``min(stack, max_loss)``, is never left
all-in where its whole balance would have chips behind: the hand then plays and settles as with
the whole balance.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, cast

from sanh.cards.card import Card
from sanh.cards.deck import DECK_52
from sanh.errors import ConfigError, IllegalActionError
from sanh.eval.lieng import LiengCategory, LiengRules, lieng_category, lieng_key, lieng_points
from sanh.games._stud_pots import (
    Betting,
    Call,
    Fold,
    Leave,
    Muck,
    Pot,
    Raise,
    RoundRule,
    Show,
    award_pots,
    build_pots,
    carry_dict,
    check_seat_in_hand,
    seats_from,
    start_seat,
)
from sanh.games.base import (
    CHANCE,
    Action,
    AmountRange,
    Chance,
    ChanceSpec,
    Event,
    Game,
    GameInfo,
    Reason,
    Rules,
    Settlement,
    SettlementLine,
    Shuffle,
    TableConfig,
    View,
    option,
    remap_named_seats,
)
from sanh.texts import text
from sanh.types import Chips, Seat, format_gold

__all__ = [
    "GAMES",
    "OPTIONS",
    "Call",
    "Fold",
    "Leave",
    "Lieng",
    "LiengOptions",
    "LiengState",
    "LiengView",
    "Muck",
    "Raise",
    "Show",
    "can_start",
    "hand_code",
    "hand_label",
]

Phase = Literal["shuffle", "bet", "show", "over"]


@dataclass(frozen=True, slots=True)
class LiengOptions(Rules):
    """The table's rule options, each declared once (``Lieng().rules(config)``)."""

    suited_straight_above_trips: bool = option(
        "lieng.suited_straight_above_trips", False, (), "suited straight above Sáp (A-LI1)"
    )
    face_compare: str = option(
        "lieng.face_compare",
        "ranks_then_suit",
        ("ranks_then_suit", "top_card"),
        "equal Ảnh (A-LI2)",
    )
    points_tie: str = option(
        "lieng.points_tie", "top_card", ("top_card", "split"), "equal points (A-LI3)"
    )
    straight_tie: str = option(
        "lieng.straight_tie", "highest_card", ("highest_card", "top_card"), "equal Liêng (A-LI6)"
    )
    min_raise: int = option(
        "lieng.min_raise", 1, (), "smallest bet or raise increment, in L (A-LI5)"
    )
    raise_cap: int = option(
        "lieng.raise_cap", 10, (), "largest raise increment in L; 0 = none (A-LI5)"
    )
    direction: str = option("lieng.direction", "ccw", ("ccw", "cw"), "playing direction (A-PL2)")
    min_balance_multiple: int = option(
        "platform.min_balance_multiple",
        10,
        (),
        "balance needed to start, in L; 0 = no check (A-PL4)",
    )
    quick_mode: bool = option("table.quick_mode", False, (), "quick mode: 7 s turn timer (A-PL5)")

    def check(self) -> None:
        """The increments go together and the balance multiple is not negative."""
        if self.min_raise < 1:
            raise ConfigError(text=text("option_at_least", "lieng.min_raise", 1))
        if self.raise_cap and self.raise_cap < self.min_raise:
            code = text("option_zero_or_at_least", "lieng.raise_cap", "lieng.min_raise")
            raise ConfigError(text=code)
        if self.min_balance_multiple < 0:
            raise ConfigError(text=text("option_not_negative", "platform.min_balance_multiple"))

    @property
    def ranking(self) -> LiengRules:
        """The hand ranking these options give (A-LI1..3, A-LI6)."""
        face: Literal["ranks_then_suit", "top_card"] = (
            "top_card" if self.face_compare == "top_card" else "ranks_then_suit"
        )
        points: Literal["top_card", "split"] = "split" if self.points_tie == "split" else "top_card"
        straight: Literal["highest_card", "top_card"] = (
            "top_card" if self.straight_tie == "top_card" else "highest_card"
        )
        return LiengRules(
            suited_straight_above_trips=self.suited_straight_above_trips,
            face_compare=face,
            points_tie=points,
            straight_tie=straight,
        )

    @property
    def step(self) -> int:
        """The playing direction as a seat step: 1 counter-clockwise, -1 clockwise."""
        return 1 if self.direction == "ccw" else -1


OPTIONS = LiengOptions.specs()
"""The options as the hall lists them (``Lieng.info.options``)."""


def can_start(balance: Chips, stake: Chips, multiple: int = 10) -> bool:
    """Whether a balance may start a Liêng hand: at least ``multiple`` x L (§2.6, A-PL4).

    >>> can_start(10_000, 1000), can_start(9_999, 1000), can_start(1, 1000, multiple=0)
    (True, False, True)
    """
    return balance >= max(1, multiple * stake)


def hand_label(cards: tuple[Card, ...] | list[Card]) -> str:
    """The name of a Liêng hand at the table: ``Sáp``, ``Liêng``, ``Ảnh`` or ``9 điểm``.

    >>> from sanh.cards import parse_cards
    >>> hand_label(list(parse_cards("Ad 8s Qc")))
    '9 điểm'
    """
    category = lieng_category(cards)
    if category is LiengCategory.POINTS:
        return f"{lieng_points(cards)} điểm"
    return category.vietnamese


def hand_code(cards: tuple[Card, ...] | list[Card]) -> str:
    """A Liêng hand as a code the clients translate: ``trips``, ``suited_straight``,
    ``straight``, ``faces`` or ``points_0`` … ``points_9``.

    >>> from sanh.cards import parse_cards
    >>> hand_code(list(parse_cards("Ad 8s Qc"))), hand_code(list(parse_cards("Qd Kd Ad")))
    ('points_9', 'suited_straight')
    """
    category = lieng_category(cards)
    if category is LiengCategory.POINTS:
        return f"points_{lieng_points(cards)}"
    return category.name.lower()


def _code_label(code: str) -> str:
    """The table name of a :func:`hand_code` (for the terminal)."""
    if code.startswith("points_"):
        return f"{code.removeprefix('points_')} điểm"
    return LiengCategory[code.upper()].vietnamese


@dataclass(frozen=True, slots=True)
class LiengState:
    """A Liêng hand."""

    config: TableConfig
    betting: Betting
    start: Seat
    """The first player: the host in the first hand, the previous winner later."""
    version: int = 0
    history: tuple[Event, ...] = ()
    phase: Phase = "shuffle"
    deck: tuple[Card, ...] = ()
    """The shuffled deck, top card first (never sent to anyone)."""
    cards: tuple[tuple[Card, ...], ...] = ()
    """Each seat's three cards in the order dealt."""
    winner: Seat | None = None
    """The winner by fold."""
    shown: bool = False
    """The winner by fold chose to show."""
    showdown: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class LiengView(View):
    """What one seat sees at a Liêng table. Hidden cards are ``None``."""

    stake: Chips
    phase: str
    start: Seat
    in_hand: tuple[bool, ...]
    stacks: tuple[Chips, ...]
    committed: tuple[Chips, ...]
    round_bets: tuple[Chips, ...]
    folded: tuple[bool, ...]
    cards: tuple[tuple[Card | None, ...], ...]
    pots: tuple[tuple[Chips, tuple[Seat, ...]], ...]
    to_call: Chips
    hands: tuple[str, ...]
    """Each hand the viewer can see as a :func:`hand_code` (``points_7``; "" otherwise)."""
    winners: tuple[Seat, ...]
    result: tuple[Chips, ...]


class Lieng(Game[LiengState]):
    """Liêng, 2 to 9 players, with the options of RULES.md §8 and §15."""

    info = GameInfo(
        id="lieng",
        name="Lieng (three-card showdown)",
        name_vi="Liêng",
        seats_min=2,
        seats_max=9,
        deck="52",
        banked=False,
        # One betting round; each full raise adds at least L to the level and no total passes
        # the largest balance, so balances up to 2,000 L allow at most 2,000 full raises, each
        # answered by at most 8 calls or folds: under 20,000 actions.
        max_actions=20_000,
        rules_source="RULES.md §2.6, §8, §15 (A-LI*, A-PL2, A-PL4); seed 001 'Chơi Liêng'",
        aliases=("lieng", "ba cay lieng"),
        rules=LiengOptions,
        action_types=(Fold, Call, Raise, Show, Muck, Leave),
    )

    def rules(self, config: TableConfig) -> LiengOptions:
        """The table's rule options (:class:`LiengOptions`). :raises ConfigError: if bad."""
        return cast(LiengOptions, super().rules(config))

    def max_loss(self, config: TableConfig) -> Chips | None:
        """What one seat can lose in the hand, plus one unit: the second-largest stack of the
        seats dealt in, or L if more (module docstring); ``None`` if fewer than two can start.

        >>> Lieng().max_loss(TableConfig.make(seats=3, stake=100, stacks=[9_000, 5_000, 2_000]))
        5001
        """
        opts = self.rules(config)
        dealt = sorted(
            (s for s in config.stacks if can_start(s, config.stake, opts.min_balance_multiple)),
            reverse=True,
        )
        if len(dealt) < 2:
            return None
        return max(dealt[1], config.stake) + 1

    def new_state(self, config: TableConfig) -> LiengState:
        """A new hand; every seat able to start antes L (or all it has, if less).

        :raises ConfigError: on a bad config, or fewer than two seats able to start.
        """
        self.check_config(config)
        opts = self.rules(config)
        in_hand = tuple(
            can_start(stack, config.stake, opts.min_balance_multiple) for stack in config.stacks
        )
        if sum(in_hand) < 2:
            raise ConfigError(text=text("two_players_needed", opts.min_balance_multiple))
        start = start_seat(config.host, in_hand, carry_dict(config.carry).get("winner"), opts.step)
        betting = Betting.start(config.stacks, in_hand, opts.step)
        for seat in range(config.seats):
            if in_hand[seat]:
                betting = betting.post(seat, config.stake)
        empty = ((),) * config.seats
        return LiengState(config=config, betting=betting, start=start, cards=empty)

    def to_act(self, state: LiengState) -> tuple[Seat, ...] | Chance | None:
        """The chance player while shuffling, else the seat to act."""
        if state.phase == "shuffle":
            return CHANCE
        if state.phase == "bet":
            assert state.betting.actor is not None
            return (state.betting.actor,)
        if state.phase == "show":
            assert state.winner is not None
            return (state.winner,)
        return None

    def chance_spec(self, state: LiengState) -> ChanceSpec:
        """The 52-card deck to shuffle."""
        return ChanceSpec("shuffle", deck=DECK_52)

    def legal_actions(self, state: LiengState) -> tuple[Action, ...]:
        """Every legal action of the seat to act."""
        if state.phase == "bet":
            assert state.betting.actor is not None
            return tuple(state.betting.legal(state.betting.actor)[0])
        if state.phase == "show":
            assert state.winner is not None
            return (Show(state.winner), Muck(state.winner))
        return ()

    def amount_ranges(self, state: LiengState) -> tuple[AmountRange, ...]:
        """The raise range of the seat to act."""
        if state.phase != "bet" or state.betting.actor is None:
            return ()
        return tuple(state.betting.legal(state.betting.actor)[1])

    def validate(self, state: LiengState, event: Event) -> None:
        """As :meth:`Game.validate`, with clear messages for seats out of the hand."""
        check_seat_in_hand(self, state, state.betting, event)
        super().validate(state, event)

    def validate_action(self, state: LiengState, action: Action) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` is legal now."""
        if isinstance(action, Leave):
            if action.seat is None or state.phase not in ("bet", "show"):
                reason = text("not_possible_now", action.wire, state.phase)
                raise IllegalActionError(action, reason, state.version)
            return  # check_seat_in_hand has refused seats out of the hand
        if state.phase == "bet":
            if not isinstance(action, Fold | Call | Raise):
                raise IllegalActionError(action, "lieng_bet_only", state.version)
            state.betting.validate(action, state.version)
            return
        if action not in self.legal_actions(state):
            reason = text("not_possible_now", action.wire, state.phase)
            raise IllegalActionError(action, reason, state.version)

    def default_action(self, state: LiengState, seat: Seat | None, reason: Reason) -> Action | None:
        """A timeout folds (A-LI4); a disconnection or leaving takes the seat out of the hand at
        once, wherever the turn is (:class:`Leave`, §8.5); a winner does not show."""
        live = seat is not None and state.phase == "bet" and state.betting.live(seat)
        if reason != "timeout" and live:
            assert seat is not None
            return Leave(seat)
        turn = self.to_act(state)
        if seat is None or not isinstance(turn, tuple) or seat not in turn:
            return None
        if state.phase == "show":
            return Muck(seat)
        return Fold(seat)

    def out_loss(self, state: LiengState, seat: Seat) -> Chips | None:
        """A folded seat loses what it put in and takes no further part (seed 001, §8.5):
        a fold is final, and every pot is won by a seat still in the hand.

        >>> game = Lieng()
        >>> state = game.new_state(TableConfig.make(seats=2, stake=100, stacks=[5_000, 5_000]))
        >>> game.out_loss(state, 0) is None
        True
        """
        betting = state.betting
        if not betting.in_hand[seat] or not betting.folded[seat]:
            return None
        return betting.committed[seat]

    def transition(self, state: LiengState, event: Event) -> LiengState:
        """The next state after a validated event."""
        if isinstance(event, Shuffle):
            return self._deal(state, event.order)
        assert isinstance(event, Action)
        if isinstance(event, Show | Muck) or (isinstance(event, Leave) and state.phase == "show"):
            return dataclasses.replace(state, phase="over", shown=isinstance(event, Show))
        if isinstance(event, Leave):
            assert event.seat is not None
            betting = state.betting.remove(event.seat)
            return self._after_betting(dataclasses.replace(state, betting=betting))
        return self._after_betting(dataclasses.replace(state, betting=state.betting.apply(event)))

    def leave_cost(self, state: LiengState, seat: Seat) -> Chips | None:
        """What leaving now costs ``seat``: everything it has put in while it is still in the
        hand (§8.5: it forfeits it; the ante at least), else nothing."""
        if state.phase in ("shuffle", "bet") and state.betting.live(seat):
            return state.betting.committed[seat]
        return 0

    def _deal(self, state: LiengState, deck: tuple[Card, ...]) -> LiengState:
        opts = self.rules(state.config)
        n = state.config.seats
        order = [s for s in seats_from(state.start, n, opts.step) if state.betting.in_hand[s]]
        cards: list[list[Card]] = [[] for _ in range(n)]
        position = 0
        for _ in range(3):
            for seat in order:
                cards[seat].append(deck[position])
                position += 1
        stake = state.config.stake
        rule = RoundRule(
            "nolimit",
            bet=opts.min_raise * stake,
            min_raise=opts.min_raise * stake,
            max_raise=opts.raise_cap * stake,
            call_checks=True,
        )
        state = dataclasses.replace(
            state,
            deck=deck,
            cards=tuple(tuple(c) for c in cards),
            phase="bet",
            betting=state.betting.begin_round(rule, state.start),
        )
        return self._after_betting(state)

    def _after_betting(self, state: LiengState) -> LiengState:
        live = state.betting.live_seats()
        if len(live) == 1:
            return dataclasses.replace(state, phase="show", winner=live[0])
        if state.betting.actor is None:
            return dataclasses.replace(state, phase="over", showdown=True)
        return state

    # ----- views and results ---------------------------------------------------------------
    def observe(self, state: LiengState, viewer: Seat | None) -> LiengView:
        """What ``viewer`` may see: its own cards, and the hands shown."""
        n = state.config.seats
        betting = state.betting
        cards = tuple(
            tuple(c if viewer == s or _revealed(state, s) else None for c in state.cards[s])
            for s in range(n)
        )
        hands = tuple(
            hand_code(state.cards[s])
            if state.cards[s] and all(c is not None for c in cards[s])
            else ""
            for s in range(n)
        )
        settlement = self.settle(state) if state.phase == "over" else None
        to_call = 0
        if viewer is not None and state.phase == "bet" and betting.live(viewer):
            to_call = min(betting.owes(viewer), betting.stacks[viewer])
        return LiengView(
            **self.view_base(state, viewer),
            stake=state.config.stake,
            phase=state.phase,
            start=state.start,
            in_hand=betting.in_hand,
            stacks=betting.stacks,
            committed=betting.committed,
            round_bets=betting.round_bets,
            folded=betting.folded,
            cards=cards,
            pots=tuple((p.amount, p.eligible) for p in build_pots(betting.committed, betting.out)),
            to_call=to_call,
            hands=hands,
            winners=_main_winners(settlement),
            result=settlement.deltas if settlement is not None else (),
        )

    def settle(self, state: LiengState) -> Settlement:
        """Pots by contribution level; the best hand takes each pot (§8.4). No fee."""
        if state.phase != "over":
            raise ValueError("the hand is not over")
        opts = self.rules(state.config)
        betting = state.betting
        n = state.config.seats
        pots = build_pots(betting.committed, betting.out)
        order = seats_from(state.start, n, opts.step)

        def strength(seat: Seat) -> tuple[int, ...]:
            return lieng_key(state.cards[seat], opts.ranking) if state.showdown else ()

        awards = award_pots(pots, strength, order)
        return _settlement(state, pots, awards, order)

    def carry(self, state: LiengState) -> Any:
        """The next hand's first player: this hand's winner."""
        winners = _main_winners(self.settle(state))
        return (("winner", winners[0]),) if winners else ()

    def remap_carry(self, carry: Any, seats: Mapping[int, int | None]) -> Any:
        """The carried winner in the next lineup (a winner gone: no winner, a first hand)."""
        return remap_named_seats(carry, seats, ("winner",))

    def render_text(self, view: View) -> str:
        """The table as text: each seat's balance, bets and cards; the pot; whose turn."""
        assert isinstance(view, LiengView)
        lines = [f"Liêng · L {format_gold(view.stake)} · {view.phase}"]
        for seat in range(len(view.stacks)):
            if not view.in_hand[seat]:
                lines.append(f"   p{seat + 1}  (ngồi chờ)")
                continue
            marks = ("*" if seat in view.to_act else " ") + (">" if seat == view.viewer else " ")
            shown = " ".join("??" if c is None else c.pretty for c in view.cards[seat])
            status = " (bỏ)" if view.folded[seat] else ""
            if view.stacks[seat] == 0 and not view.folded[seat]:
                status = " (tất cả)"
            hand = f"  {_code_label(view.hands[seat])}" if view.hands[seat] else ""
            lines.append(
                f"{marks}p{seat + 1}  còn {format_gold(view.stacks[seat]):>10}  "
                f"đã bỏ {format_gold(view.committed[seat]):>8}  {shown}{status}{hand}"
            )
        pots = " + ".join(format_gold(amount) for amount, _ in view.pots) or "0.00"
        lines.append(f"nồi: {pots}")
        if view.to_call:
            lines.append(f"cần theo: {format_gold(view.to_call)}")
        if view.terminal and view.result:
            winners = ", ".join(f"p{s + 1}" for s in view.winners)
            nets = "  ".join(
                f"p{s + 1} {format_gold(d)}" for s, d in enumerate(view.result) if view.in_hand[s]
            )
            lines.append(f"thắng: {winners}   {nets}")
        return "\n".join(lines)


def _revealed(state: LiengState, seat: Seat) -> bool:
    if state.phase != "over" or not state.betting.live(seat):
        return False
    return state.showdown or (state.shown and seat == state.winner)


def _settlement(
    state: LiengState,
    pots: tuple[Pot, ...],
    awards: tuple[tuple[int, Seat, Chips], ...],
    order: list[Seat],
) -> Settlement:
    n = state.config.seats
    committed = state.betting.committed
    won = [0] * n
    lines: list[SettlementLine] = []
    for seat in range(n):
        if committed[seat]:
            lines.append(SettlementLine(seat, "stake", -committed[seat], stake=committed[seat]))
    for index, seat, amount in awards:
        won[seat] += amount
        item = "pot" if index == 0 else f"side_pot_{index}"
        lines.append(SettlementLine(seat, item, amount, stake=pots[index].amount))
    shown = tuple(
        (seat, " ".join(str(c) for c in state.cards[seat]), hand_code(state.cards[seat]))
        for seat in order
        if _revealed(state, seat)
    )
    detail: tuple[tuple[str, Any], ...] = (
        ("winners", tuple(seat for index, seat, _ in awards if index == 0)),
        ("by_fold", state.winner is not None),
        ("shown", shown),
        ("pots", tuple((pot.amount, pot.eligible) for pot in pots)),
    )
    deltas = tuple(won[s] - committed[s] for s in range(n))
    return Settlement(deltas=deltas, lines=tuple(lines), detail=detail)


def _main_winners(settlement: Settlement | None) -> tuple[Seat, ...]:
    if settlement is None:
        return ()
    return tuple(dict(settlement.detail).get("winners", ()))


GAMES = (Lieng(),)
