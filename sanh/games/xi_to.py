"""Xì tố (Hong Kong five-card stud on the 28-card deck), RULES.md §6 [S001 "Xì tố"].

Source: ``shared/seeds/001_*.txt``, section "Xì tố" (variant 1 is the main text, variant 2 the
text after the ``#####`` line), RULES.md §2.3 (the Tẩy buy-in), §6, §15 (A-XT1 to A-XT13) and
§16B (the three host options).

Glossary (Vietnamese → code):

* *Tẩy* (the table stake, the buy-in) → ``TableConfig.stacks``; *lá tẩy* (the hole card) → a
  card with ``up=False``; *Xem tẩy* (look at it) is a UI step, not an action;
* *Theo* → :class:`Call`; *Tố* → :class:`Raise` (``amount`` = the round total raised *to*);
  *Không tố* → :class:`Check`; *Bỏ* / *Úp bỏ* → :class:`Fold`; *Tất cả* / *Tố tất cả* →
  :class:`AllIn`; *Lật tẩy* → :class:`Show` (the winner by fold shows; :class:`Muck` does not);
* variant 2's choice of the card to turn face up → :class:`TurnUp`;
* *Tự động theo 2 lá* → ``xito.auto_follow_2``; *Tẩy lá bài thứ 5* → ``xito.hole_5th``;
  *Tẩy Max* → ``xito.tay_max``; the first bettor's choice of the last two (A-XT5,
  ``xito.option_setter = first_bettor``) → :class:`SetRules`;
* *chủ bàn* (the host) → ``TableConfig.host``; the leader (who is dealt first and bets first)
  → ``XiToState.leader``.

How a hand runs (V1): the deck is shuffled (a chance event); cards 1-2 are dealt from the
start player (the host in the first hand, the previous winner later: ``TableConfig.carry``),
one face-up card and one hole card each; betting round 1 (5 % of L, call or fold); card 3,
round 2 (unit 10 % of L); card 4, round 3; card 5, round 4 (unit 20 % of L, or no-limit from
10 % of L with Tẩy Max); showdown. Each card is dealt starting with the leader (RULES.md §6.4),
who also bets first. A hand won by everyone else folding ends with the winner choosing to show
(*Lật tẩy*) or not.

Choices where the rules are silent (all [DEF], documented in the final report):

* seats are numbered in counter-clockwise order: the next player CCW of seat ``s`` is ``s + 1``;
* a seat whose stake is below L at the start of a hand sits out (§2.3: it must top up first);
* card 1 (face up) is dealt round the table first, then card 2 (the hole card) (seed §2d);
* a fixed-unit round allows one bet and ``xito.max_raises`` raises; round 1 with
  ``xito.round1_raise`` allows ``xito.max_raises`` raises of 5 % of L over the 5 % everyone owes;
* with auto-follow, round 1 has no decisions (the raise option then has no effect), in both
  variants; in variant 2 the automatic payment is the round-1 minimum bet;
* variant 2 turns up, on a timeout, the card dealt first; the choices are shown to everyone only
  once every player has chosen;
* with ``xito.late_limit = nolimit`` (without Tẩy Max) rounds 3-4 are no-limit from 20 % of L
  but have no *Tất cả* button; Tẩy Max changes nothing in no-limit variant 2;
* ``xito.option_setter = first_bettor``: in a hand whose ``carry`` holds no earlier choice, the
  round-1 leader chooses face-down 5th card and Tẩy Max (:class:`SetRules`) after cards 1-2;
  the config's values are the timeout default and the choice carries to later hands;
* the winner carried to the next hand is the winner of the main pot (or by fold);
* a timeout (or a disconnection, or leaving) checks when free in variant 1 and folds
  otherwise (§6.7).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from sanh.cards.card import Card
from sanh.cards.deck import DECK_28
from sanh.errors import ConfigError, IllegalActionError
from sanh.eval.xito import (
    XiToCategory,
    XiToRules,
    pair_lead_key,
    upcard_key,
    xito_category,
    xito_key,
    xito_suit_value,
)
from sanh.games._evolve import put
from sanh.games._stud_pots import (
    AllIn,
    Betting,
    Call,
    Check,
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
    OptionValue,
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
from sanh.games.hosting import Hosting
from sanh.texts import text
from sanh.types import Chips, Seat, format_gold

__all__ = [
    "BUYIN_AUTO_S",
    "GAMES",
    "OPTIONS",
    "AllIn",
    "Call",
    "Check",
    "Fold",
    "Leave",
    "Muck",
    "Raise",
    "SetRules",
    "Show",
    "TurnUp",
    "XiTo",
    "XiToOptions",
    "XiToState",
    "XiToView",
    "buyin_amount",
    "buyin_limits",
    "lead_key",
    "top_up_limits",
    "turn_timer_s",
]

Phase = Literal["shuffle", "choose", "rules", "bet", "show", "over"]

BUYIN_AUTO_S = 5
"""Seconds after which the buy-in panel transfers the maximum (§2.3) [S001]."""
BUYIN_MIN_L = 1
BUYIN_MAX_L = 10


# ----- actions specific to Xì tố -----------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TurnUp(Action):
    """Variant 2: turn ``card`` (one of the two first cards) face up; the other is the hole."""

    wire = "TurnUp"

    card: Card


@dataclass(frozen=True, slots=True)
class SetRules(Action):
    """``xito.option_setter = first_bettor``: the first bettor sets the two table rules."""

    wire = "SetRules"

    hole_5th: bool
    tay_max: bool


# ----- buy-in and timer helpers (the server applies them) ------------------------------------
def buyin_limits(stake: Chips) -> tuple[Chips, Chips]:
    """The buy-in panel's range: min = L, max = 10 L [S001].

    >>> buyin_limits(1000)
    (1000, 10000)
    """
    return (BUYIN_MIN_L * stake, BUYIN_MAX_L * stake)


def buyin_amount(balance: Chips, stake: Chips, requested: Chips | None = None) -> Chips | None:
    """What the buy-in panel transfers to the Tẩy (RULES.md §2.3).

    ``requested=None`` is the panel left alone for :data:`BUYIN_AUTO_S` seconds: the maximum,
    or the whole balance if it is below the maximum. ``None`` comes back when the balance is
    below the minimum (the player cannot sit).

    :raises ConfigError: if ``requested`` is outside the panel's range or above the balance.

    >>> buyin_amount(50_000, 1000), buyin_amount(4_000, 1000), buyin_amount(999, 1000)
    (10000, 4000, None)
    """
    low, high = buyin_limits(stake)
    if balance < low:
        return None
    if requested is None:
        return min(high, balance)
    if not low <= requested <= high:
        raise ConfigError(text=text("buy_in_range", low, high, requested))
    if requested > balance:
        raise ConfigError(text=text("buy_in_over_balance", requested, balance))
    return requested


def top_up_limits(stack: Chips, balance: Chips, stake: Chips) -> tuple[Chips, Chips] | None:
    """Between hands, a stake below L must be topped up to at most 10 L (§2.3) [DEF].

    Returns the (min, max) amount to add, or ``None`` if no top-up is needed; a balance too
    small for the minimum means the player must stand up (the min exceeds the max).

    >>> top_up_limits(300, 100_000, 1000)
    (700, 9700)
    >>> top_up_limits(1500, 100_000, 1000) is None
    True
    """
    low, high = buyin_limits(stake)
    if stack >= low:
        return None
    return (low - stack, min(balance, high - stack))


def turn_timer_s(quick_mode: bool) -> int:
    """The turn timer (§2.5): 15 s, or 7 s with ``table.quick_mode`` [DEF]."""
    return 7 if quick_mode else 15


# ----- settings --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class XiToOptions(Rules):
    """The table's rule options, each declared once (``XiTo().rules(config)``)."""

    variant: int = option(
        "xito.variant", 1, (1, 2), "1: the main text; 2: the text after '#####' (§6.6)"
    )
    auto_follow_2: bool = option(
        "xito.auto_follow_2", False, (), "Tự động theo 2 lá: round 1 paid automatically"
    )
    hole_5th: bool = option(
        "xito.hole_5th", False, (), "Tẩy lá bài thứ 5: card 5 is dealt face down"
    )
    tay_max: bool = option(
        "xito.tay_max", False, (), "Tẩy Max: no-limit up to the stake from card 4"
    )
    lead_rule: str = option(
        "xito.lead_rule",
        "newest_pair",
        ("newest_pair", "newest_card", "all_upcards"),
        "who is dealt and bets first (A-XT2)",
    )
    round1_pct: int = option("xito.round1_pct", 5, (), "round-1 bet in % of L (A-XT3)")
    round1_raise: bool = option("xito.round1_raise", False, (), "raises allowed in round 1 (A-XT3)")
    late_unit_pct: int = option(
        "xito.late_unit_pct", 20, (), "rounds 3-4 unit in % of L without Tẩy Max (A-XT4)"
    )
    late_limit: str = option("xito.late_limit", "fixed", ("fixed", "nolimit"), "rounds 3-4 (A-XT4)")
    max_raises: int = option(
        "xito.max_raises", 3, (), "raises per fixed-unit round after the bet (A-XT4)"
    )
    option_setter: str = option(
        "xito.option_setter",
        "host",
        ("host", "first_bettor"),
        "who sets face-down 5th card and Tẩy Max (A-XT5)",
    )
    lower_straight_flush_wins: bool = option(
        "xito.lower_straight_flush_wins", True, (), "the lower straight flush wins (A-XT6)"
    )
    ace_low_straight: bool = option(
        "xito.ace_low_straight", False, (), "A-8-9-10-J is a straight (A-XT7)"
    )
    suit_tiebreak: bool = option(
        "xito.suit_tiebreak", True, (), "suits ♥>♦>♣>♠ break ties; false splits (A-XT8)"
    )
    suit_before_kickers: bool = option(
        "xito.suit_before_kickers", False, (), "suit before kickers (A-XT9)"
    )
    flush_beats_full_house: bool = option(
        "xito.flush_beats_full_house", False, (), "flush above full house (A-XT10)"
    )
    v2_limit: str = option(
        "xito.v2_limit", "nolimit", ("nolimit", "as_v1"), "variant 2 betting (A-XT11)"
    )
    all_in_from_card: int = option(
        "xito.all_in_from_card", 4, (4, 3), "Tẩy Max from card 4 or 3 (A-XT13)"
    )
    quick_mode: bool = option("table.quick_mode", False, (), "quick mode: 7 s turn timer (A-PL5)")
    ranking: XiToRules = field(init=False, compare=False, repr=False)
    """The hand ranking these options give (A-XT6..10), built once."""

    def __post_init__(self) -> None:
        ranking = XiToRules(
            lower_straight_flush_wins=self.lower_straight_flush_wins,
            ace_low_straight=self.ace_low_straight,
            suit_tiebreak=self.suit_tiebreak,
            suit_before_kickers=self.suit_before_kickers,
            flush_beats_full_house=self.flush_beats_full_house,
        )
        object.__setattr__(self, "ranking", ranking)

    def check(self) -> None:
        """The percentages are 1..100 and the raise count is not negative."""
        for name, value in (
            ("xito.round1_pct", self.round1_pct),
            ("xito.late_unit_pct", self.late_unit_pct),
        ):
            if not 1 <= value <= 100:
                raise ConfigError(text=text("option_between", name, 1, 100, value))
        if self.max_raises < 0:
            raise ConfigError(text=text("option_not_negative", "xito.max_raises"))

    @property
    def v2_nolimit(self) -> bool:
        """Variant 2 with its own no-limit betting."""
        return self.variant == 2 and self.v2_limit == "nolimit"


OPTIONS = XiToOptions.specs()
"""The options as the hall lists them (``XiTo.info.options``)."""


def _unit(stake: Chips, pct: int) -> Chips:
    """``pct`` % of L, rounded down, at least one unit."""
    return max(1, stake * pct // 100)


# ----- state and view ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class XiToState:
    """A Xì tố hand."""

    config: TableConfig
    betting: Betting
    start: Seat
    """The start player: the host in the first hand, the previous winner later."""
    hole_5th: bool
    """Face-down 5th card, in force for this hand."""
    tay_max: bool
    """Tẩy Max, in force for this hand."""
    rules_pending: bool = False
    """The first bettor still has to set the rules (``option_setter = first_bettor``)."""
    version: int = 0
    history: tuple[Event, ...] = ()
    phase: Phase = "shuffle"
    deck: tuple[Card, ...] = ()
    """The shuffled deck, top card first (never sent to anyone)."""
    dealt: int = 0
    """How many cards of the deck have been dealt."""
    cards: tuple[tuple[Card, ...], ...] = ()
    """Each seat's cards in the order dealt."""
    up: tuple[tuple[bool, ...], ...] = ()
    """Per seat and card: face up."""
    chosen: tuple[bool, ...] = ()
    """Variant 2: has turned a card up."""
    round: int = 0
    """The betting round (1-4), 0 before the first."""
    leader: Seat | None = None
    """Who was dealt first and bets first in the current round."""
    deal_orders: tuple[tuple[Seat, ...], ...] = ()
    """The seats in the order each card was dealt (cards 1-2, then 3, 4, 5)."""
    winner: Seat | None = None
    """The winner by fold (everyone else folded)."""
    shown: bool = False
    """The winner by fold pressed *Lật tẩy*."""
    showdown: bool = False
    """The hand reached the showdown."""


@dataclass(frozen=True, slots=True, kw_only=True)
class XiToView(View):
    """What one seat sees at a Xì tố table. Hidden cards are ``None``."""

    stake: Chips
    variant: int
    rules: tuple[tuple[str, bool], ...]
    """The host options in force: auto-follow, face-down 5th card, Tẩy Max."""
    phase: str
    round: int
    start: Seat
    leader: Seat | None
    in_hand: tuple[bool, ...]
    stacks: tuple[Chips, ...]
    committed: tuple[Chips, ...]
    round_bets: tuple[Chips, ...]
    folded: tuple[bool, ...]
    cards: tuple[tuple[Card | None, ...], ...]
    """Each seat's cards in the order dealt; ``None`` where the viewer may not see it."""
    up: tuple[tuple[bool, ...], ...]
    """Per seat and card: face up for everyone."""
    pots: tuple[tuple[Chips, tuple[Seat, ...]], ...]
    to_call: Chips
    """What the viewer must add to call."""
    hands: tuple[str, ...]
    """The category of each shown five-card hand as a code (``one_pair``; "" otherwise)."""
    winners: tuple[Seat, ...]
    result: tuple[Chips, ...]
    """Each seat's net result, once the hand is over."""


# ----- the game ------------------------------------------------------------------------------
class XiTo(Game[XiToState]):
    """Xì tố, variants 1 and 2, with every option of RULES.md §6 and §15."""

    info = GameInfo(
        id="xi-to",
        name="Hong Kong five-card stud",
        name_vi="Xì tố",
        seats_min=2,
        seats_max=5,
        deck="28",
        banked=False,
        # Bound: every full bet or raise lifts a seat's total by at least 5 % of L, and no total
        # passes the largest stake, so stakes up to 1,000 L allow at most 20,000 of them over
        # the hand, each followed by at most 4 calls or folds: about 100,000 actions. 400,000
        # covers stakes up to 4,000 L (the buy-in maximum is 10 L).
        max_actions=400_000,
        rules_source="RULES.md §2.3, §6, §15 (A-XT*), §16B; seed 001 'Xì tố'",
        aliases=("xito", "xi to", "poker hong kong", "hong kong poker", "five card stud"),
        rules=XiToOptions,
        action_types=(Fold, Check, Call, Raise, AllIn, Show, Muck, TurnUp, SetRules, Leave),
        hosting=Hosting(table_stake=True),
    )

    # ----- hosting -------------------------------------------------------------------------
    def rules(self, config: TableConfig) -> XiToOptions:
        """The table's rule options (:class:`XiToOptions`). :raises ConfigError: if bad."""
        return cast(XiToOptions, super().rules(config))

    def buyin_limits(self, stake: Chips, options: Mapping[str, OptionValue]) -> tuple[Chips, Chips]:
        """:func:`buyin_limits`: from L to 10 L [S001]; a stake below L is topped up."""
        return buyin_limits(stake)

    # ----- setup -------------------------------------------------------------------------------
    def new_state(self, config: TableConfig) -> XiToState:
        """A new hand. Seats with a stake below L sit out (they must top up first).

        :raises ConfigError: on a bad config, or fewer than two seats able to play.
        """
        self.check_config(config)
        opts = self.rules(config)
        in_hand = tuple(stack >= config.stake for stack in config.stacks)
        if sum(in_hand) < 2:
            raise ConfigError(text=text("two_players_needed", 1))
        carry = carry_dict(config.carry)
        start = start_seat(config.host, in_hand, carry.get("winner"))
        hole_5th, tay_max = opts.hole_5th, opts.tay_max
        pending = False
        if opts.option_setter == "first_bettor":
            if "hole_5th" in carry and "tay_max" in carry:
                hole_5th, tay_max = bool(carry["hole_5th"]), bool(carry["tay_max"])
            else:
                pending = True
        return XiToState(
            config=config,
            betting=Betting.start(config.stacks, in_hand),
            start=start,
            hole_5th=hole_5th,
            tay_max=tay_max,
            rules_pending=pending,
            cards=((),) * config.seats,
            up=((),) * config.seats,
            chosen=(False,) * config.seats,
        )

    def to_act(self, state: XiToState) -> tuple[Seat, ...] | Chance | None:
        """The chance player while shuffling, else the seats that may act."""
        phase = state.phase
        if phase == "shuffle":
            return CHANCE
        if phase == "choose":
            return tuple(
                s
                for s in range(state.config.seats)
                if state.betting.in_hand[s] and not state.chosen[s]
            )
        if phase == "rules":
            assert state.leader is not None
            return (state.leader,)
        if phase == "bet":
            assert state.betting.actor is not None
            return (state.betting.actor,)
        if phase == "show":
            assert state.winner is not None
            return (state.winner,)
        return None

    def chance_spec(self, state: XiToState) -> ChanceSpec:
        """The 28-card deck to shuffle."""
        return ChanceSpec("shuffle", deck=DECK_28)

    # ----- actions -----------------------------------------------------------------------------
    def legal_actions(self, state: XiToState) -> tuple[Action, ...]:
        """Every legal action of the seats that may act now."""
        phase = state.phase
        if phase == "choose":
            return tuple(
                TurnUp(s, card)
                for s in range(state.config.seats)
                if state.betting.in_hand[s] and not state.chosen[s]
                for card in state.cards[s][:2]
            )
        if phase == "rules":
            assert state.leader is not None
            return tuple(
                SetRules(state.leader, hole, tay) for hole in (False, True) for tay in (False, True)
            )
        if phase == "bet":
            assert state.betting.actor is not None
            return tuple(state.betting.legal(state.betting.actor)[0])
        if phase == "show":
            assert state.winner is not None
            return (Show(state.winner), Muck(state.winner))
        return ()

    def amount_ranges(self, state: XiToState) -> tuple[AmountRange, ...]:
        """The raise range of the seat to act."""
        if state.phase != "bet" or state.betting.actor is None:
            return ()
        return tuple(state.betting.legal(state.betting.actor)[1])

    def validate(self, state: XiToState, event: Event) -> None:
        """As :meth:`Game.validate`, with clear messages for seats out of the hand."""
        check_seat_in_hand(self, state, state.betting, event)
        super().validate(state, event)

    def validate_action(self, state: XiToState, action: Action) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` is legal now."""
        phase = state.phase
        if isinstance(action, Leave):
            if action.seat is None or phase == "over" or phase == "shuffle":
                reason = text("not_possible_now", action.wire, phase)
                raise IllegalActionError(action, reason, state.version)
            return  # check_seat_in_hand has refused seats out of the hand
        if phase == "bet":
            if not isinstance(action, Fold | Check | Call | Raise | AllIn):
                raise IllegalActionError(action, "betting_only", state.version)
            state.betting.validate(action, state.version)
            return
        if action not in self.legal_actions(state):
            if phase == "choose" and isinstance(action, TurnUp):
                reason = "turn_up_own"
            else:
                reason = text("not_possible_now", action.wire, phase)
            raise IllegalActionError(action, reason, state.version)

    def default_action(self, state: XiToState, seat: Seat | None, reason: Reason) -> Action | None:
        """Timeout or disconnection (§6.7): check when free (V1), otherwise fold. Leaving folds
        at once, wherever the turn is (:class:`Leave`; §6.7: chips put in stay in the pot).

        Variant 2's choice turns up the card dealt first; the first bettor's rule choice keeps
        the config's values; a winner by fold does not show.
        """
        leaving = seat is not None and reason == "leave" and state.phase != "show"
        if leaving and seat is not None and self.is_legal(state, Leave(seat)):
            return Leave(seat)
        turn = self.to_act(state)
        if seat is None or not isinstance(turn, tuple) or seat not in turn:
            return None
        if state.phase == "choose":
            return TurnUp(seat, state.cards[seat][0])
        if state.phase == "rules":
            opts = self.rules(state.config)
            return SetRules(seat, opts.hole_5th, opts.tay_max)
        if state.phase == "show":
            return Muck(seat)
        check = Check(seat)
        if reason != "leave" and check in self.legal_actions(state):
            return check
        return Fold(seat)

    # ----- transitions -----------------------------------------------------------------------
    def transition(self, state: XiToState, event: Event) -> XiToState:
        """The next state after a validated event."""
        if isinstance(event, Shuffle):
            return self._deal_first_two(dataclasses.replace(state, deck=event.order))
        assert isinstance(event, Action)
        if isinstance(event, TurnUp):
            assert event.seat is not None
            seat = event.seat
            index = state.cards[seat].index(event.card)
            ups = (index == 0, index == 1)
            state = dataclasses.replace(
                state,
                up=put(state.up, seat, ups),
                chosen=put(state.chosen, seat, True),
            )
            if all(c or not h for c, h in zip(state.chosen, state.betting.in_hand, strict=True)):
                return self._before_round_one(state)
            return state
        if isinstance(event, SetRules):
            state = dataclasses.replace(
                state, hole_5th=event.hole_5th, tay_max=event.tay_max, rules_pending=False
            )
            return self._start_round_one(state)
        if isinstance(event, Show | Muck) or (isinstance(event, Leave) and state.phase == "show"):
            return dataclasses.replace(state, phase="over", shown=isinstance(event, Show))
        if isinstance(event, Leave):
            return self._leave(state, event)
        betting = state.betting.apply(event)
        state = dataclasses.replace(state, betting=betting)
        return self._after_betting(state)

    def _leave(self, state: XiToState, event: Leave) -> XiToState:
        """The seat folds now, in whichever phase (its chips stay in the pot)."""
        assert event.seat is not None
        seat = event.seat
        state = dataclasses.replace(state, betting=state.betting.remove(seat))
        if len(state.betting.live_seats()) == 1:
            winner = state.betting.live_seats()[0]
            return dataclasses.replace(state, phase="show", winner=winner)
        if state.phase == "choose":
            state = dataclasses.replace(state, chosen=put(state.chosen, seat, True))
            if all(state.chosen):
                return self._before_round_one(state)
            return state
        if state.phase == "rules":
            if seat == state.leader:  # the next leader sets the rules
                return self._before_round_one(state)
            return state
        return self._after_betting(state)

    def leave_cost(self, state: XiToState, seat: Seat) -> Chips | None:
        """What leaving now costs ``seat``: everything it has put in while it is still in the
        hand (§6.7: a fold; the chips stay in the pot), else nothing."""
        live = state.phase not in ("show", "over") and state.betting.live(seat)
        return state.betting.committed[seat] if live else 0

    def _deal_first_two(self, state: XiToState) -> XiToState:
        n = state.config.seats
        order = [s for s in seats_from(state.start, n) if state.betting.in_hand[s]]
        cards: list[list[Card]] = [[] for _ in range(n)]
        dealt = 0
        for _ in range(2):
            for seat in order:
                cards[seat].append(state.deck[dealt])
                dealt += 1
        variant_one = self.rules(state.config).variant == 1
        up = tuple(((variant_one, False) if state.betting.in_hand[s] else ()) for s in range(n))
        state = dataclasses.replace(
            state,
            cards=tuple(tuple(c) for c in cards),
            up=up,
            dealt=dealt,
            chosen=tuple(not h for h in state.betting.in_hand),
            deal_orders=(tuple(order),),
        )
        if variant_one:
            return self._before_round_one(state)
        return dataclasses.replace(state, phase="choose")

    def _before_round_one(self, state: XiToState) -> XiToState:
        state = dataclasses.replace(state, leader=self._leader(state))
        if state.rules_pending:
            return dataclasses.replace(state, phase="rules")
        return self._start_round_one(state)

    def _start_round_one(self, state: XiToState) -> XiToState:
        opts = self.rules(state.config)
        leader = self._leader(state)
        rule = self._rule(state, 1)
        state = dataclasses.replace(state, round=1, leader=leader, phase="bet")
        if opts.auto_follow_2:
            betting = state.betting.auto_pay_round(rule, _unit(state.config.stake, opts.round1_pct))
        else:
            betting = state.betting.begin_round(rule, leader)
        return self._after_betting(dataclasses.replace(state, betting=betting))

    def _after_betting(self, state: XiToState) -> XiToState:
        """Move on while no seat needs to act: deal, start rounds, end the hand."""
        while True:
            betting = state.betting
            live = betting.live_seats()
            if len(live) == 1:
                return dataclasses.replace(state, phase="show", winner=live[0])
            if betting.actor is not None:
                return state
            if state.round >= 4:
                return dataclasses.replace(state, phase="over", showdown=True)
            state = self._deal_next(state)
            rule = self._rule(state, state.round)
            assert state.leader is not None
            betting = state.betting.begin_round(rule, state.leader)
            state = dataclasses.replace(state, betting=betting)

    def _deal_next(self, state: XiToState) -> XiToState:
        """Deal the next card to every live seat from the leader; find the new leader."""
        assert state.leader is not None
        n = state.config.seats
        order = [s for s in seats_from(state.leader, n) if state.betting.live(s)]
        card_number = state.round + 2
        face_up = not (card_number == 5 and state.hole_5th)
        cards = list(state.cards)
        up = list(state.up)
        dealt = state.dealt
        for seat in order:
            cards[seat] = (*cards[seat], state.deck[dealt])
            up[seat] = (*up[seat], face_up)
            dealt += 1
        state = dataclasses.replace(
            state,
            cards=tuple(cards),
            up=tuple(up),
            dealt=dealt,
            round=state.round + 1,
            deal_orders=(*state.deal_orders, tuple(order)),
        )
        if face_up:
            state = dataclasses.replace(state, leader=self._leader(state))
        return state

    # ----- rules of the rounds -------------------------------------------------------------
    def _rule(self, state: XiToState, round_number: int) -> RoundRule:
        opts = self.rules(state.config)
        stake = state.config.stake
        first = _unit(stake, opts.round1_pct)
        ten = _unit(stake, 10)
        if opts.v2_nolimit:
            bet = first if round_number == 1 else ten
            return RoundRule("nolimit", bet=bet, min_raise=bet, can_check=False, all_in_button=True)
        if round_number == 1:
            return RoundRule(
                "fixed",
                bet=first,
                min_raise=first,
                max_bets=opts.max_raises,
                can_check=False,
                can_raise=opts.round1_raise,
                forced_level=first,
            )
        card_number = round_number + 1
        if state.tay_max and card_number >= opts.all_in_from_card:
            return RoundRule("nolimit", bet=ten, min_raise=ten, all_in_button=True)
        if round_number == 2:
            return RoundRule("fixed", bet=ten, min_raise=ten, max_bets=1 + opts.max_raises)
        late = _unit(stake, opts.late_unit_pct)
        if opts.late_limit == "nolimit":
            return RoundRule("nolimit", bet=late, min_raise=late)
        return RoundRule("fixed", bet=late, min_raise=late, max_bets=1 + opts.max_raises)

    def _leader(self, state: XiToState) -> Seat:
        """The leader among live seats from their face-up cards (RULES.md §6.4, A-XT2)."""
        rule = self.rules(state.config).lead_rule
        best: tuple[tuple[int, ...], Seat] | None = None
        for seat in state.betting.live_seats():
            ups = [c for c, u in zip(state.cards[seat], state.up[seat], strict=True) if u]
            key = lead_key(ups, rule)
            if best is None or key > best[0]:
                best = (key, seat)
        assert best is not None
        return best[1]

    # ----- views and results -------------------------------------------------------------
    def observe(self, state: XiToState, viewer: Seat | None) -> XiToView:
        """What ``viewer`` may see: its own cards, everyone's face-up cards, shown hands."""
        opts = self.rules(state.config)
        n = state.config.seats
        betting = state.betting
        cards = tuple(
            tuple(
                card if _visible(state, seat, i, viewer) else None
                for i, card in enumerate(state.cards[seat])
            )
            for seat in range(n)
        )
        public_up = tuple(
            tuple(u and state.phase != "choose" for u in state.up[seat]) for seat in range(n)
        )
        hands = tuple(
            xito_category(state.cards[s], opts.ranking).name.lower()
            if len(state.cards[s]) == 5
            and all(c is not None for c in cards[s])
            and _revealed(state, s)
            else ""
            for s in range(n)
        )
        over = state.phase == "over"
        settlement = self.settle(state) if over else None
        to_call = 0
        if viewer is not None and state.phase == "bet" and betting.live(viewer):
            to_call = min(betting.owes(viewer), betting.stacks[viewer])
        return XiToView(
            **self.view_base(state, viewer),
            stake=state.config.stake,
            variant=opts.variant,
            rules=(
                ("auto_follow_2", opts.auto_follow_2),
                ("hole_5th", state.hole_5th),
                ("tay_max", state.tay_max),
            ),
            phase=state.phase,
            round=state.round,
            start=state.start,
            leader=state.leader,
            in_hand=betting.in_hand,
            stacks=betting.stacks,
            committed=betting.committed,
            round_bets=betting.round_bets,
            folded=betting.folded,
            cards=cards,
            up=public_up,
            pots=tuple(
                (pot.amount, pot.eligible) for pot in build_pots(betting.committed, betting.out)
            ),
            to_call=to_call,
            hands=hands,
            winners=_winners(settlement),
            result=settlement.deltas if settlement is not None else (),
        )

    def settle(self, state: XiToState) -> Settlement:
        """Pots by contribution level; the best hand takes each pot (§6.3, §4.7). No fee."""
        if state.phase != "over":
            raise ValueError("the hand is not over")
        opts = self.rules(state.config)
        betting = state.betting
        n = state.config.seats
        pots = build_pots(betting.committed, betting.out)
        order = seats_from(state.start, n)

        def strength(seat: Seat) -> tuple[int, ...]:
            if not state.showdown:
                return ()
            return xito_key(state.cards[seat], opts.ranking)

        awards = award_pots(pots, strength, order)
        return _settlement(state, pots, awards, order, opts)

    def carry(self, state: XiToState) -> Any:
        """The next hand's start player (this hand's winner) and the first bettor's rules."""
        settlement = self.settle(state)
        winners = _winners(settlement)
        items: list[tuple[str, Any]] = [("winner", winners[0])] if winners else []
        if self.rules(state.config).option_setter == "first_bettor":
            items += [("hole_5th", state.hole_5th), ("tay_max", state.tay_max)]
        return tuple(items)

    def remap_carry(self, carry: Any, seats: Mapping[int, int | None]) -> Any:
        """The carried winner in the next lineup (a winner gone: no winner; the rules stay)."""
        return remap_named_seats(carry, seats, ("winner",))

    def render_text(self, view: View) -> str:
        """The table as text: each seat's stake, bets and cards; pots; whose turn."""
        assert isinstance(view, XiToView)
        rules = [name for name, on in view.rules if on]
        head = (
            f"Xì tố V{view.variant} · L {format_gold(view.stake)} · "
            f"vòng {view.round or '-'} · {view.phase}"
            + (f" · luật: {', '.join(rules)}" if rules else "")
        )
        lines = [head]
        for seat in range(len(view.stacks)):
            if not view.in_hand[seat]:
                lines.append(f"   p{seat + 1}  (ngồi chờ)")
                continue
            marks = ("*" if seat in view.to_act else " ") + (">" if seat == view.viewer else " ")
            shown = " ".join(
                _card_text(card, up)
                for card, up in zip(view.cards[seat], view.up[seat], strict=True)
            )
            status = " (bỏ)" if view.folded[seat] else ""
            if view.stacks[seat] == 0 and not view.folded[seat]:
                status = " (tất cả)"
            lead = " [dẫn]" if seat == view.leader else ""
            code = view.hands[seat]
            hand = f"  {XiToCategory[code.upper()].vietnamese}" if code else ""
            lines.append(
                f"{marks}p{seat + 1}  tẩy {format_gold(view.stacks[seat]):>10}  "
                f"cược {format_gold(view.round_bets[seat]):>8}  {shown}{status}{lead}{hand}"
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


# ----- helpers -------------------------------------------------------------------------------
def lead_key(up_cards: list[Card], rule: str) -> tuple[int, ...]:
    """The leader strength of a seat's face-up cards under ``xito.lead_rule`` (§6.4, A-XT2).

    With one face-up card, the card itself (rank, then suit ♥ > ♦ > ♣ > ♠). Later,
    ``newest_pair`` pairs the newest face-up card with each earlier one and keeps the best pair;
    ``newest_card`` uses the newest card alone; ``all_upcards`` ranks all face-up cards as a
    partial stud hand.
    """
    newest = up_cards[-1]
    if len(up_cards) == 1 or rule == "newest_card":
        return (newest >> 2, xito_suit_value(newest))
    if rule == "all_upcards":
        return upcard_key(up_cards)
    return max(pair_lead_key(newest, earlier) for earlier in up_cards[:-1])


def _visible(state: XiToState, seat: Seat, index: int, viewer: Seat | None) -> bool:
    if viewer == seat:
        return True
    if _revealed(state, seat):
        return True
    return state.up[seat][index] and state.phase != "choose"


def _revealed(state: XiToState, seat: Seat) -> bool:
    """Every card of ``seat`` is shown to everyone: at the showdown, or by *Lật tẩy*."""
    if state.phase != "over" or not state.betting.live(seat):
        return False
    return state.showdown or (state.shown and seat == state.winner)


def _card_text(card: Card | None, up: bool) -> str:
    if card is None:
        return "??"
    return card.pretty if up else f"[{card.pretty}]"


def _settlement(
    state: XiToState,
    pots: tuple[Pot, ...],
    awards: tuple[tuple[int, Seat, Chips], ...],
    order: list[Seat],
    opts: XiToOptions,
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
    deltas = tuple(won[s] - committed[s] for s in range(n))
    main_winners = tuple(seat for index, seat, _ in awards if index == 0)
    shown = tuple(
        (seat, " ".join(str(c) for c in state.cards[seat]), _hand_name(state, seat, opts))
        for seat in order
        if _revealed(state, seat)
    )
    detail: tuple[tuple[str, Any], ...] = (
        ("winners", main_winners),
        ("by_fold", state.winner is not None),
        ("shown", shown),
        ("pots", tuple((pot.amount, pot.eligible) for pot in pots)),
    )
    return Settlement(deltas=deltas, lines=tuple(lines), detail=detail)


def _hand_name(state: XiToState, seat: Seat, opts: XiToOptions) -> str:
    if len(state.cards[seat]) != 5:
        return ""
    category: XiToCategory = xito_category(state.cards[seat], opts.ranking)
    return category.name.lower()


def _winners(settlement: Settlement | None) -> tuple[Seat, ...]:
    if settlement is None:
        return ()
    for key, value in settlement.detail:
        if key == "winners":
            return tuple(value)
    return ()


GAMES = (XiTo(),)
