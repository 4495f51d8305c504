"""Teen Patti 20-20: two three-card hands, Player A and Player B, against the house.

Rules source: RULES.md §14 (from seed 004, ``shared/seeds/004_*.txt``), with §1 (money, rounding),
§2.6 (a house game needs only the amount bet), §2.7 (disconnection: the round continues, bets
stand), §2.8 (interrupted rounds) and §15 A-TT1 (what a tie is).

A round:

1. **Betting window.** Every seat is a bettor (any number of bettors, no dealer seat). A seat
   puts chips on any of the six bet areas with :class:`Bet` (chips add up on an area):
   ``player_a``, ``player_b``, ``tie``, ``pair_plus_a``, ``pair_plus_b``, ``six_card_bonus``.
   :class:`Ready` says a seat has finished betting. The window closes with the table's own
   action :class:`CloseBetting` (``seat=None``), which is also the table's default action when
   the server's countdown (option ``teenpatti.betting_s``) ends, and closes by itself once no
   seat is left to act (every seat ready, out of balance or at the chip cap).
2. **Chance.** A shuffle of the 52-card deck (no jokers; a new shuffle every round).
3. **Deal.** Face up, alternately: A1, B1, A2, B2, A3, B3 (the first six cards of the shuffle).
4. **Settlement** (§14.5): Player A / Player B pay 0.95:1, refunded on a tie; Tie pays 50:1;
   Pair Plus on each hand pays even if that hand loses; the 6 Card Bonus pays on the best five
   of the six cards dealt.

Glossary (seed 004 → code):

========================  =====================================
*Người chơi A / B*        ``player_a`` / ``player_b``
*Hòa*                     ``tie``
*Đôi +*                   ``pair_plus_a`` / ``pair_plus_b``
*Thưởng 6 lá bài*         ``six_card_bonus``
*Bộ ba (A)*               three aces (``THREE_ACES``)
*Bộ ba (2-K)*             three of a kind
*Thùng phá sảnh*          straight flush
*Sảnh* / *Thùng*          straight / flush
*Đôi* / *Mậu thầu*        pair / high card
*Sảnh chúa*               royal flush (6 Card Bonus)
*Tứ quý* / *Cù lũ*        four of a kind / full house
========================  =====================================

Money and rounding (RULES.md §1, the policy of :mod:`sanh.games.base`): a 0.95:1 win is a 1:1
win less a 5 % commission kept by the house. On a stake ``S`` the player gets
``floor(0.95 S)``, the house keeps ``floor(0.05 S)`` of the ``S`` it pays, and the remainder
unit (when ``S`` is not a multiple of 20) is booked to ``breakage``. With another
``teenpatti.main_pays_pct`` ``p`` the shares are ``floor(p S / 100)`` and
``floor((100 - p) S / 100)``.

Choices where the rules are silent ([DEF], each a configuration option):

* Table limits: every bet area takes between ``teenpatti.bet_min_multiple`` × L (default 1 L)
  and ``teenpatti.bet_max_multiple`` × L (default 1,000 L) per seat and round; chips add up on
  an area, so a chip may be smaller than the minimum once the area holds at least the minimum.
  A seat bets at most its balance (``TableConfig.stacks``) in total (§2.6).
* The paytable is configurable: ``teenpatti.main_pays_pct`` (95), ``teenpatti.tie_pays`` (50),
  ``teenpatti.pairplus_paytable`` (``50-40-30-6-3-1``: three aces, three of a kind, straight
  flush, straight, flush, pair) and ``teenpatti.six_card_paytable``
  (``1000-200-100-20-15-10-7``: royal flush, straight flush, four of a kind, full house, flush,
  straight, three of a kind).
* A seat may place at most :data:`MAX_BETS_PER_SEAT` chips per round, so that a round is finite.
* Bets are public in total only: a view shows the viewer's own bets and the table's total per
  area, never another seat's bets.
* The cards are dealt even when nobody has bet (the round runs on the table's clock).
* ``teenpatti.betting_s`` (15, RULES.md §2.5) is the countdown, read by the server's clock.
  Every option is named ``teenpatti.<name>``, as RULES.md names it; older configs and hand
  histories name them without the prefix, read as deprecated aliases.
* A tie is the same category and the same three ranks (A-TT1): a flush never ties unsuited cards
  of the same ranks, and a straight flush never ties a straight.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from sanh.cards.card import Card
from sanh.cards.deck import DECK_52
from sanh.errors import ConfigError, IllegalActionError, NotYourTurnError
from sanh.eval import (
    HandCategory,
    TeenPattiCategory,
    category_of,
    evaluate,
    teen_patti_category,
    teen_patti_rank,
)
from sanh.games._window import CloseBetting, Ready
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
    SitIn,
    TableConfig,
    View,
    check_sit_in,
    option,
    seat_in,
)
from sanh.games.hosting import Hosting, HouseTable, PhaseClock
from sanh.texts import clean, describe, join, text
from sanh.types import Chips, Seat, format_gold

__all__ = [
    "BETS",
    "BET_NAMES",
    "DEAL_LABELS",
    "GAMES",
    "MAX_BETS_PER_SEAT",
    "Bet",
    "CloseBetting",
    "Paytable",
    "Ready",
    "TeenPatti2020",
    "TeenPattiState",
    "TeenPattiView",
    "outcome_of",
    "pair_plus_multiplier",
    "six_card_multiplier",
]

BETS: tuple[str, ...] = (
    "player_a",
    "player_b",
    "tie",
    "pair_plus_a",
    "pair_plus_b",
    "six_card_bonus",
)
"""The six bet areas, in display order."""

BET_NAMES: dict[str, str] = {
    "player_a": "Player A (Người chơi A)",
    "player_b": "Player B (Người chơi B)",
    "tie": "Tie (Hòa)",
    "pair_plus_a": "Pair Plus A (Đôi + A)",
    "pair_plus_b": "Pair Plus B (Đôi + B)",
    "six_card_bonus": "6 Card Bonus (Thưởng 6 lá bài)",
}
"""Display names of the bet areas."""

DEAL_LABELS: tuple[str, ...] = ("A1", "B1", "A2", "B2", "A3", "B3")
"""The alternate deal (§14.3): the n-th card of the shuffle goes to this hand position."""

MAX_BETS_PER_SEAT = 60
"""How many :class:`Bet` actions one seat may make in one round [DEF]."""
SEATS_MAX = 100
"""The most bettors at one table."""

_CATEGORY_NAMES: dict[TeenPattiCategory, str] = {
    TeenPattiCategory.THREE_ACES: "three aces (Bộ ba A)",
    TeenPattiCategory.THREE_OF_A_KIND: "three of a kind (Bộ ba)",
    TeenPattiCategory.STRAIGHT_FLUSH: "straight flush (Thùng phá sảnh)",
    TeenPattiCategory.STRAIGHT: "straight (Sảnh)",
    TeenPattiCategory.FLUSH: "flush (Thùng)",
    TeenPattiCategory.PAIR: "pair (Đôi)",
    TeenPattiCategory.HIGH_CARD: "high card (Mậu thầu)",
}

_SIX_CARD_NAMES: dict[HandCategory, str] = {
    HandCategory.ROYAL_FLUSH: "royal flush (Sảnh chúa)",
    HandCategory.STRAIGHT_FLUSH: "straight flush (Thùng phá sảnh)",
    HandCategory.FOUR_OF_A_KIND: "four of a kind (Tứ quý)",
    HandCategory.FULL_HOUSE: "full house (Cù lũ)",
    HandCategory.FLUSH: "flush (Thùng)",
    HandCategory.STRAIGHT: "straight (Sảnh)",
    HandCategory.THREE_OF_A_KIND: "three of a kind (Bộ ba)",
    HandCategory.TWO_PAIR: "two pair",
    HandCategory.ONE_PAIR: "one pair",
    HandCategory.HIGH_CARD: "high card",
}

_PAIR_PLUS_ORDER: tuple[TeenPattiCategory, ...] = (
    TeenPattiCategory.THREE_ACES,
    TeenPattiCategory.THREE_OF_A_KIND,
    TeenPattiCategory.STRAIGHT_FLUSH,
    TeenPattiCategory.STRAIGHT,
    TeenPattiCategory.FLUSH,
    TeenPattiCategory.PAIR,
)
_SIX_CARD_ORDER: tuple[HandCategory, ...] = (
    HandCategory.ROYAL_FLUSH,
    HandCategory.STRAIGHT_FLUSH,
    HandCategory.FOUR_OF_A_KIND,
    HandCategory.FULL_HOUSE,
    HandCategory.FLUSH,
    HandCategory.STRAIGHT,
    HandCategory.THREE_OF_A_KIND,
)

DEFAULT_PAIR_PLUS = "50-40-30-6-3-1"
DEFAULT_SIX_CARD = "1000-200-100-20-15-10-7"


# ----- actions ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Bet(Action):
    """Put ``amount`` more on bet area ``bet`` (one of :data:`BETS`) during the betting window."""

    wire = "Bet"

    bet: str = "player_a"
    amount: int = 0


# ----- paytable --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Paytable:
    """The payouts of a table (``x`` means ``x:1``), from its options."""

    main_pays_pct: int = 95
    """Player A / Player B pay ``main_pays_pct / 100`` to 1."""
    tie: int = 50
    pair_plus: tuple[int, ...] = (50, 40, 30, 6, 3, 1)
    """Three aces, three of a kind, straight flush, straight, flush, pair."""
    six_card: tuple[int, ...] = (1000, 200, 100, 20, 15, 10, 7)
    """Royal flush, straight flush, four of a kind, full house, flush, straight, trips."""


@dataclass(frozen=True, slots=True)
class TeenPattiRules(Rules):
    """The table's rule options, each declared once (RULES.md §14, A-TT1;
    ``TeenPatti2020().rules(config)``)."""

    betting_s: int = option(
        "teenpatti.betting_s",
        15,
        help="§2.5: betting window, seconds (the server's clock)",
        aliases=("betting_s",),
    )
    bet_min_multiple: int = option(
        "teenpatti.bet_min_multiple",
        1,
        help="smallest bet per area, in L",
        aliases=("bet_min_multiple",),
    )
    bet_max_multiple: int = option(
        "teenpatti.bet_max_multiple",
        1000,
        help="largest bet per area, in L",
        aliases=("bet_max_multiple",),
    )
    main_pays_pct: int = option(
        "teenpatti.main_pays_pct",
        95,
        help="Player A/B pay pct/100 to 1",
        aliases=("main_pays_pct",),
    )
    tie_pays: int = option("teenpatti.tie_pays", 50, help="Tie pays x:1", aliases=("tie_pays",))
    pairplus_paytable: str = option(
        "teenpatti.pairplus_paytable",
        DEFAULT_PAIR_PLUS,
        help="three aces-trips-straight flush-straight-flush-pair, x:1",
        aliases=("pairplus_paytable",),
    )
    six_card_paytable: str = option(
        "teenpatti.six_card_paytable",
        DEFAULT_SIX_CARD,
        help="royal-straight flush-quads-full house-flush-straight-trips, x:1",
        aliases=("six_card_paytable",),
    )

    def check(self) -> None:
        """The payouts are well formed (:attr:`paytable`)."""
        _ = self.paytable

    @property
    def paytable(self) -> Paytable:
        """The payouts these options give. :raises ConfigError: if malformed."""
        pct = self.main_pays_pct
        if not 1 <= pct <= 100:
            code = text("option_between", "teenpatti.main_pays_pct", 1, 100, pct)
            raise ConfigError(text=code)
        if self.tie_pays <= 0:
            raise ConfigError(text=text("option_positive", "teenpatti.tie_pays", self.tie_pays))
        pair_plus = _parse_paytable("teenpatti.pairplus_paytable", self.pairplus_paytable, 6)
        six_card = _parse_paytable("teenpatti.six_card_paytable", self.six_card_paytable, 7)
        return Paytable(
            main_pays_pct=pct, tie=self.tie_pays, pair_plus=pair_plus, six_card=six_card
        )


def _parse_paytable(name: str, spec: str, count: int) -> tuple[int, ...]:
    parts = spec.replace(",", "-").replace("/", "-").split("-")
    try:
        values = tuple(int(p) for p in parts)
    except ValueError:
        values = ()
    if len(values) != count or any(v < 0 for v in values):
        raise ConfigError(text=text("option_numbers", name, clean(repr(spec)), count))
    return values


def pair_plus_multiplier(paytable: Paytable, hand: tuple[Card, ...]) -> int:
    """The Pair Plus payout (``x`` of ``x:1``) of a three-card hand; 0 if the bet loses."""
    category = teen_patti_category(teen_patti_rank(hand))
    if category not in _PAIR_PLUS_ORDER:
        return 0
    return paytable.pair_plus[_PAIR_PLUS_ORDER.index(category)]


def six_card_multiplier(paytable: Paytable, cards: tuple[Card, ...]) -> int:
    """The 6 Card Bonus payout of the six cards dealt (best five of six); 0 if it loses."""
    category = category_of(evaluate(cards))
    if category not in _SIX_CARD_ORDER:
        return 0
    return paytable.six_card[_SIX_CARD_ORDER.index(category)]


def outcome_of(hand_a: tuple[Card, ...], hand_b: tuple[Card, ...]) -> str:
    """``"A"``, ``"B"`` or ``"tie"`` (same category and the same three ranks, A-TT1)."""
    rank_a, rank_b = teen_patti_rank(hand_a), teen_patti_rank(hand_b)
    if rank_a > rank_b:
        return "A"
    if rank_b > rank_a:
        return "B"
    return "tie"


# ----- state and view --------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TeenPattiState:
    """A Teen Patti 20-20 round."""

    config: TableConfig
    version: int = 0
    history: tuple[Event, ...] = ()
    bets: tuple[tuple[Chips, ...], ...] = ()
    """Per seat, the amount on each area of :data:`BETS`."""
    bet_actions: tuple[int, ...] = ()
    """Per seat, how many :class:`Bet` actions it made this round."""
    ready: tuple[bool, ...] = ()
    """Per seat, whether it has said :class:`Ready` (finished betting) this round."""
    closed: bool = False
    """Whether the betting window is closed (by the table, or because no seat can act)."""
    deal: tuple[Card, ...] = ()
    """The six cards dealt, in deal order A1 B1 A2 B2 A3 B3 (empty until the deal)."""
    min_bet: Chips = 0
    """The table minimum per area (from the options and L)."""
    max_bet: Chips = 0
    """The table maximum per area."""
    paytable: Paytable = Paytable()
    """The table's payouts (from the options)."""

    @property
    def hand_a(self) -> tuple[Card, ...]:
        """Player A's three cards (A1, A2, A3)."""
        return self.deal[0::2]

    @property
    def hand_b(self) -> tuple[Card, ...]:
        """Player B's three cards (B1, B2, B3)."""
        return self.deal[1::2]


@dataclass(frozen=True, slots=True, kw_only=True)
class TeenPattiView(View):
    """What a seat sees. Nothing is hidden about the cards: they are dealt face up after betting.

    Another seat's bets are private; the table's totals per area are public.
    """

    phase: str
    """``betting``, ``dealing`` or ``over``."""
    stake: Chips
    """The table level L."""
    min_bet: Chips
    max_bet: Chips
    balance: Chips
    """The viewer's balance still free for bets (0 for a spectator)."""
    my_bets: tuple[tuple[str, Chips], ...]
    """The viewer's bets by area (empty for a spectator)."""
    table_totals: tuple[tuple[str, Chips], ...]
    """Every seat's bets added up, by area."""
    deal: tuple[tuple[str, Card], ...]
    """The cards dealt with their positions: ``("A1", As), ("B1", Kd), ...``."""
    hand_a: tuple[Card, ...]
    hand_b: tuple[Card, ...]
    category_a: str
    """Hand A's category once dealt, a code: ``high_card`` … ``three_aces``."""
    category_b: str
    six_card: str
    """The best-five-of-six category once dealt, a code: ``high_card`` … ``royal_flush``."""
    outcome: str
    """``A``, ``B``, ``tie`` once dealt, else empty."""
    my_lines: tuple[SettlementLine, ...]
    """The viewer's settlement lines once the round is over."""
    my_delta: Chips


# ----- the game --------------------------------------------------------------------------
class TeenPatti2020(Game[TeenPattiState]):
    """Teen Patti 20-20 (RULES.md §14, seed 004)."""

    info = GameInfo(
        id="teen-patti-2020",
        name="Teen Patti 20-20",
        name_vi="Teen Patti 20-20",
        seats_min=1,
        seats_max=SEATS_MAX,
        deck="52",
        banked=True,
        max_actions=SEATS_MAX * (MAX_BETS_PER_SEAT + 2) + 2,
        rules_source="RULES.md §14, §1, §2.6-2.8, A-TT1; seed 004",
        aliases=("Teen Patti", "teen-patti", "teenpatti", "Teen Patti 2020"),
        rules=TeenPattiRules,
        action_types=(Bet, Ready, CloseBetting, SitIn),
        private_actions=(Bet, Ready),
        hosting=Hosting(
            clocks=(PhaseClock("betting", option="teenpatti.betting_s"),),
            house_table=HouseTable(stake=1000, seats=50, bots=4),
        ),
    )

    def rules(self, config: TableConfig) -> TeenPattiRules:
        """The table's rule options (cached per option set)."""
        rules = super().rules(config)
        assert isinstance(rules, TeenPattiRules)
        return rules

    # ----- hosting -------------------------------------------------------------------------
    def phase(self, state: TeenPattiState) -> str:
        """``betting``, ``dealing`` or ``over`` (the betting window has its clock)."""
        return "betting" if not state.closed else "dealing" if not state.deal else "over"

    def check_house_options(self, values: Mapping[str, OptionValue]) -> None:
        """The house pays at most the rule texts' paytables (the defaults)."""
        defaults = {o.name: o.default for o in self.info.options}
        pays: list[tuple[str, tuple[int, ...], tuple[int, ...]]] = []
        for name in ("teenpatti.main_pays_pct", "teenpatti.tie_pays"):
            pays.append((name, (int(values[name]),), (int(defaults[name]),)))
        for name in ("teenpatti.pairplus_paytable", "teenpatti.six_card_paytable"):
            pays.append((name, _numbers(str(values[name])), _numbers(str(defaults[name]))))
        for name, paid, most in pays:
            if any(p > m for p, m in zip(paid, most, strict=True)):
                raise ConfigError(text=text("option_over_house_paytable", name))

    # ----- setup ---------------------------------------------------------------------------
    def new_state(self, config: TableConfig) -> TeenPattiState:
        """A round with its betting window open. :raises ConfigError: on a bad config."""
        self.check_config(config)
        low, high = self.limits(config)
        state = TeenPattiState(
            config=config,
            bets=((0,) * len(BETS),) * config.seats,
            bet_actions=(0,) * config.seats,
            ready=(False,) * config.seats,
            min_bet=low,
            max_bet=high,
            paytable=self.rules(config).paytable,
        )
        return self._close_if_idle(state)

    def _close_if_idle(self, state: TeenPattiState) -> TeenPattiState:
        """The window closes by itself once no seat can act (all ready, broke or capped) and
        no seat is empty (an empty seat may still be given a stack: :class:`SitIn`)."""
        seats = range(state.config.seats)
        if state.closed or any(
            self._can_bet(state, s) or self.is_empty_seat(state, s) for s in seats
        ):
            return state
        return replace(state, closed=True)

    @staticmethod
    def is_empty_seat(state: TeenPattiState, seat: Seat) -> bool:
        """Whether ``seat`` is empty: no stack and no bet (see :class:`SitIn`)."""
        return state.config.stacks[seat] == 0 and not any(state.bets[seat])

    def limits(self, config: TableConfig) -> tuple[Chips, Chips]:
        """The table's minimum and maximum per bet area. :raises ConfigError: if impossible."""
        rules = self.rules(config)
        low = rules.bet_min_multiple * config.stake
        high = rules.bet_max_multiple * config.stake
        if low <= 0 or high < low:
            raise ConfigError(text=text("bet_limits_impossible", low, high))
        return low, high

    # ----- turn ----------------------------------------------------------------------------
    def to_act(self, state: TeenPattiState) -> tuple[Seat, ...] | Chance | None:
        """Bettors still betting during the window (the table may always close it), then
        chance, then over."""
        if not state.closed:
            return tuple(seat for seat in range(state.config.seats) if self._can_bet(state, seat))
        if not state.deal:
            return CHANCE
        return None

    def chance_spec(self, state: TeenPattiState) -> ChanceSpec:
        """A shuffle of the 52-card deck."""
        return ChanceSpec(kind="shuffle", deck=DECK_52)

    def balance(self, state: TeenPattiState, seat: Seat) -> Chips:
        """What ``seat`` can still bet this round."""
        return state.config.stacks[seat] - sum(state.bets[seat])

    def at_risk(self, state: TeenPattiState, seat: Seat) -> Chips | None:
        """The seat's bets (a bet loses at most its stake)."""
        return sum(state.bets[seat])

    def _can_bet(self, state: TeenPattiState, seat: Seat) -> bool:
        if state.ready[seat] or state.bet_actions[seat] >= MAX_BETS_PER_SEAT:
            return False
        free = self.balance(state, seat)
        low, high = state.min_bet, state.max_bet
        return any(
            max(1, low - current) <= min(high - current, free) for current in state.bets[seat]
        )

    def _seat_ranges(self, state: TeenPattiState, seat: Seat) -> tuple[AmountRange, ...]:
        if state.closed or state.ready[seat] or state.bet_actions[seat] >= MAX_BETS_PER_SEAT:
            return ()
        low, high = state.min_bet, state.max_bet
        free = self.balance(state, seat)
        ranges = []
        for index, bet in enumerate(BETS):
            current = state.bets[seat][index]
            least = max(1, low - current)
            most = min(high - current, free)
            if least <= most:
                ranges.append(AmountRange(Bet(seat, bet, 0), least, most))
        return tuple(ranges)

    def amount_ranges(self, state: TeenPattiState) -> tuple[AmountRange, ...]:
        """Every bettor's legal amount on every area."""
        if state.closed:
            return ()
        return tuple(
            r for seat in range(state.config.seats) for r in self._seat_ranges(state, seat)
        )

    def legal_actions(self, state: TeenPattiState) -> tuple[Action, ...]:
        """Bets at their minimum and maximum, each bettor's :class:`Ready`, and the table's
        :class:`CloseBetting`."""
        if state.closed:
            return ()
        actions: list[Action] = []
        for seat in range(state.config.seats):
            for amount_range in self._seat_ranges(state, seat):
                actions.append(amount_range.at(amount_range.min))
                if amount_range.max != amount_range.min:
                    actions.append(amount_range.at(amount_range.max))
            if self._can_bet(state, seat):
                actions.append(Ready(seat))
        actions.append(CloseBetting(None))
        return tuple(actions)

    def validate(self, state: TeenPattiState, event: Event) -> None:
        """As :meth:`Game.validate`, with a clear refusal for a seat that said it is ready."""
        seat = event.seat if isinstance(event, Bet | Ready) else None
        if (
            seat is not None
            and not state.closed
            and 0 <= seat < len(state.ready)
            and (state.ready[seat])
        ):
            raise NotYourTurnError(event, text("finished_betting", seat), state.version)
        super().validate(state, event)

    def validate_action(self, state: TeenPattiState, action: Action) -> None:
        """Check a bet against the window, the area, the limits and the balance."""
        if state.closed:
            raise IllegalActionError(action, "betting_closed", state.version)
        if isinstance(action, CloseBetting):
            if action.seat is not None:
                raise IllegalActionError(action, "only_table_closes", state.version)
            return
        if isinstance(action, Ready):
            if action.seat is None:
                raise IllegalActionError(action, "table_never_ready", state.version)
            return
        if isinstance(action, SitIn):
            check_sit_in(
                state.config, action, lambda chair: self.is_empty_seat(state, chair), state.version
            )
            return
        if not isinstance(action, Bet):
            raise IllegalActionError(action, "not_teen_patti_action", state.version)
        seat = action.seat
        if seat is None:
            raise IllegalActionError(action, "table_does_not_bet", state.version)
        if action.bet not in BETS:
            raise IllegalActionError(
                action, text("no_bet_area", clean(action.bet), ", ".join(BETS)), state.version
            )
        amount = action.amount
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise IllegalActionError(action, "bet_not_positive", state.version)
        if state.bet_actions[seat] >= MAX_BETS_PER_SEAT:
            raise IllegalActionError(action, text("max_bets", MAX_BETS_PER_SEAT), state.version)
        low, high = state.min_bet, state.max_bet
        total = state.bets[seat][BETS.index(action.bet)] + amount
        if total < low:
            raise IllegalActionError(
                action, text("under_table_min", action.bet, total, low), state.version
            )
        if total > high:
            raise IllegalActionError(
                action, text("over_table_max", action.bet, total, high), state.version
            )
        free = self.balance(state, seat)
        if amount > free:
            raise IllegalActionError(action, text("bet_over_balance", amount, free), state.version)

    def transition(self, state: TeenPattiState, event: Event) -> TeenPattiState:
        """Add a bet, close the window, or deal from the shuffle."""
        if isinstance(event, Shuffle):
            return replace(state, deal=tuple(event.order[: len(DEAL_LABELS)]))
        if isinstance(event, CloseBetting):
            return replace(state, closed=True)
        if isinstance(event, SitIn):
            return replace(state, config=seat_in(state.config, event))
        if isinstance(event, Ready):
            assert event.seat is not None
            ready = list(state.ready)
            ready[event.seat] = True
            return self._close_if_idle(replace(state, ready=tuple(ready)))
        assert isinstance(event, Bet) and event.seat is not None
        seat, index = event.seat, BETS.index(event.bet)
        row = list(state.bets[seat])
        row[index] += event.amount
        bets = list(state.bets)
        bets[seat] = tuple(row)
        counts = list(state.bet_actions)
        counts[seat] += 1
        return self._close_if_idle(replace(state, bets=tuple(bets), bet_actions=tuple(counts)))

    def default_action(
        self, state: TeenPattiState, seat: Seat | None, reason: Reason
    ) -> Action | None:
        """At the deadline the table closes betting; a bettor's bets simply stand (§2.7)."""
        if seat is None and not state.closed:
            return CloseBetting(None)
        return None

    # ----- settlement ----------------------------------------------------------------------
    def settle(self, state: TeenPattiState) -> Settlement:
        """Itemised settlement of every bet (terminal states only)."""
        if not state.deal:
            raise ValueError("the round is not over: nothing to settle")
        paytable = state.paytable
        hand_a, hand_b = state.hand_a, state.hand_b
        outcome = outcome_of(hand_a, hand_b)
        multipliers = {
            "tie": paytable.tie if outcome == "tie" else 0,
            "pair_plus_a": pair_plus_multiplier(paytable, hand_a),
            "pair_plus_b": pair_plus_multiplier(paytable, hand_b),
            "six_card_bonus": six_card_multiplier(paytable, state.deal),
        }
        lines: list[SettlementLine] = []
        deltas: list[Chips] = []
        breakage = 0
        for seat in range(state.config.seats):
            delta = 0
            for index, bet in enumerate(BETS):
                stake = state.bets[seat][index]
                if stake == 0:
                    continue
                if bet in ("player_a", "player_b"):
                    side = "A" if bet == "player_a" else "B"
                    if outcome == "tie":
                        amount, detail = 0, text("tie_refund")
                    elif outcome == side:
                        amount = stake * paytable.main_pays_pct // 100
                        commission = stake * (100 - paytable.main_pays_pct) // 100
                        breakage += stake - amount - commission
                        detail = join(
                            text("odds", f"{paytable.main_pays_pct / 100:g}"),
                            text("commission", commission),
                        )
                    else:
                        amount, detail = -stake, text("loses")
                else:
                    multiplier = multipliers[bet]
                    amount = stake * multiplier if multiplier else -stake
                    detail = text("odds", multiplier) if multiplier else text("loses")
                lines.append(SettlementLine(seat, bet, amount, stake, detail))
                delta += amount
            deltas.append(delta)
        house = -sum(deltas) - breakage
        lines.append(SettlementLine(None, "house", house, 0, text("house_net")))
        settlement = Settlement(
            deltas=tuple(deltas),
            house=house,
            breakage=breakage,
            clan_share=(0,) * state.config.seats,
            clan_xp=(0,) * state.config.seats,
            lines=tuple(lines),
            detail=(
                ("hand_a", " ".join(map(str, hand_a))),
                ("hand_b", " ".join(map(str, hand_b))),
                ("outcome", outcome),
                ("category_a", teen_patti_category(teen_patti_rank(hand_a)).name.lower()),
                ("category_b", teen_patti_category(teen_patti_rank(hand_b)).name.lower()),
                ("six_card", category_of(evaluate(state.deal)).name.lower()),
            ),
        )
        settlement.check()
        return settlement

    # ----- views ---------------------------------------------------------------------------
    def public_record(self, state: TeenPattiState) -> dict[str, Any] | None:
        """Which hand won (``A``, ``B`` or ``tie``) and the two hands' categories."""
        if not state.deal:
            return None
        a, b = state.hand_a, state.hand_b
        return {
            "outcome": outcome_of(a, b),
            "hand_a": [str(c) for c in a],
            "hand_b": [str(c) for c in b],
        }

    def observe(self, state: TeenPattiState, viewer: Seat | None) -> TeenPattiView:
        """The viewer's bets and balance, the table totals, the cards once dealt."""
        low, high = state.min_bet, state.max_bet
        seated = viewer is not None and 0 <= viewer < state.config.seats
        totals = tuple(
            (bet, sum(row[index] for row in state.bets)) for index, bet in enumerate(BETS)
        )
        my_bets: tuple[tuple[str, Chips], ...] = ()
        balance = 0
        if seated:
            assert viewer is not None
            my_bets = tuple(zip(BETS, state.bets[viewer], strict=True))
            balance = self.balance(state, viewer)
        phase = self.phase(state)
        category_a = category_b = six = outcome = ""
        my_lines: tuple[SettlementLine, ...] = ()
        my_delta = 0
        if state.deal:
            category_a = teen_patti_category(teen_patti_rank(state.hand_a)).name.lower()
            category_b = teen_patti_category(teen_patti_rank(state.hand_b)).name.lower()
            six = category_of(evaluate(state.deal)).name.lower()
            outcome = outcome_of(state.hand_a, state.hand_b)
            if seated:
                settlement = self.settle(state)
                my_lines = tuple(line for line in settlement.lines if line.seat == viewer)
                assert viewer is not None
                my_delta = settlement.deltas[viewer]
        return TeenPattiView(
            **self.view_base(state, viewer),
            phase=phase,
            stake=state.config.stake,
            min_bet=low,
            max_bet=high,
            balance=balance,
            my_bets=my_bets,
            table_totals=totals,
            deal=tuple(zip(DEAL_LABELS, state.deal, strict=False)),
            hand_a=state.hand_a,
            hand_b=state.hand_b,
            category_a=category_a,
            category_b=category_b,
            six_card=six,
            outcome=outcome,
            my_lines=my_lines,
            my_delta=my_delta,
        )

    def render_text(self, view: View) -> str:
        """The Teen Patti table: both hands, the deal order, the bets and the result."""
        if not isinstance(view, TeenPattiView):
            return super().render_text(view)
        out = [
            f"Teen Patti 20-20 · {view.phase} · limits {format_gold(view.min_bet)}"
            f"-{format_gold(view.max_bet)} per area"
        ]
        for name, hand, category, side in (
            ("Player A", view.hand_a, view.category_a, "A"),
            ("Player B", view.hand_b, view.category_b, "B"),
        ):
            cards = " ".join(c.pretty for c in hand) if hand else "·  ·  ·"
            mark = "  ◀ wins" if view.outcome == side else ""
            shown = _CATEGORY_NAMES[TeenPattiCategory[category.upper()]] if category else ""
            out.append(f"  {name}: {cards:<12} {shown}{mark}")
        if view.deal:
            out.append("  Deal:     " + "  ".join(f"{label} {c.pretty}" for label, c in view.deal))
            result = "Tie (Hòa)" if view.outcome == "tie" else f"Player {view.outcome} wins"
            six = _SIX_CARD_NAMES[HandCategory[view.six_card.upper()]]
            out.append(f"  Result:   {result}; 6 cards: {six}")
        out.append("  Area                              yours        table")
        mine = dict(view.my_bets)
        for bet, total in view.table_totals:
            out.append(
                f"  {BET_NAMES[bet]:<32} {format_gold(mine.get(bet, 0)):>10} "
                f"{format_gold(total):>12}"
            )
        if view.viewer is not None:
            out.append(f"  Balance free for bets: {format_gold(view.balance)}")
        for line in view.my_lines:
            out.append(
                f"  {BET_NAMES.get(line.item, line.item):<32} {format_gold(line.amount):>10}"
                f"  {describe(line.detail)}"
            )
        if view.terminal and view.viewer is not None:
            out.append(f"  Round result: {format_gold(view.my_delta)}")
        return "\n".join(out)


GAMES = (TeenPatti2020(),)


def _numbers(spec: str) -> tuple[int, ...]:
    """A paytable option's numbers (the options have checked its form)."""
    return tuple(int(p) for p in spec.replace(",", "-").replace("/", "-").split("-"))
