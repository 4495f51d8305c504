"""Three Card Poker (*Poker 3 Lá*): many players against one dealer hand, house-banked.

Rules source: RULES.md §13 (with §1, §2 and §15 A-TP1..A-TP8), seed 000 (*Bài Poker 3 Lá Trực
Tuyến*, the default rule set ``s000``) and seed 002 (the Russian text, rule set ``s002``).

A hand (a round) goes:

1. **Betting window** (phase ``betting``). Every seat may place an Ante, a Pair Plus and (when
   offered) a 6 Card Bonus, in any combination, each once per round. Each amount must lie within
   the table limits and within the seat's balance less its other bets. The table closes the window
   with :class:`CloseBetting` (``seat=None``); it is also the table's default action at the
   deadline. A seat that has finished betting says :class:`Ready`; once no seat is left to act
   (every seat ready, or with nothing left it can bet) the window closes by itself. A window
   closed with no bet at all ends the round with nothing dealt.
2. **Deal** (phase ``dealing``): the caller applies a :class:`~sanh.games.base.Shuffle` of the
   52-card deck. The Player hand(s) come off the top first, then the dealer's three cards:
   with one shared Player hand (s000) it is ``order[0:3]`` and the dealer has ``order[3:6]``;
   with a hand per player (s002) the seats that placed a bet get three cards each in seat order
   and the dealer the next three.
3. **Decision** (phase ``decision``): every seat with an Ante chooses :class:`Play` (a Play bet
   equal to the Ante) or :class:`Fold`, simultaneously. A seat whose remaining balance cannot
   cover the Play bet is folded automatically at the deal (S000: "nếu không đủ số dư cho cược TỐ,
   hành động sẽ được đặt mặc định là BỎ BÀI"), and so is a Play the server cannot hold
   (:meth:`ThreeCardPoker.unfunded_action`). A timeout, a disconnection or leaving is the
   table's :class:`ForceFold`. A seat with side bets only is not asked (S000).
4. **Result** (phase ``over``): the dealer's cards are shown and :meth:`ThreeCardPoker.settle`
   pays every seat against the house, with itemised lines ``ante``, ``play``, ``ante_bonus``,
   ``pair_plus`` and ``six_card_bonus``.

Table limits: every bet spot takes ``tcp.bet_min_multiple`` × L to ``tcp.bet_max_multiple`` × L
(defaults L and 100 L; RULES.md says nothing, so this is [DEF]). Bets come straight from the
account balance (``TableConfig.stacks``), RULES.md §2.3/§2.6: house games need only the amount
bet; a seat can never lose more than it staked.

Options (RULES.md §13.8, §15), named as RULES.md names them. ``tcp.variant`` picks the rule set
and sets the defaults of the flags together; a flag set explicitly overrides its variant default.

================================  ===========  ===========  ====================================
option                            ``s000``     ``s002``     meaning
================================  ===========  ===========  ====================================
``tcp.shared_player_hand``        true         false        one Player hand for everyone (A-TP4)
``tcp.fold_forfeits_pairplus``    false        true         a voluntary Fold loses Pair Plus
                                                            (A-TP2)
``tcp.pairplus_paytable``         40-30-5-4-1  40-30-6-3-1  SF/trips/straight/flush/pair (A-TP1)
``tcp.six_card_bonus``            true         false        the 6 Card Bonus spot (A-TP5)
``tcp.ante_bonus_on_forced_fold`` false        true         a timeout or leaving keeps the Ante
                                                            Bonus (A-TP7)
``tcp.no_balance_is_fold``        true         false        a Play the balance cannot cover is
                                                            a Fold (no Ante Bonus)
================================  ===========  ===========  ====================================

Seed 000 pays the Ante Bonus when "người chơi không bỏ bài" and keeps it, with Pair Plus and the
6 Card Bonus, only on a disconnection ("Tuy nhiên ... sẽ được thực hiện như bình thường"); a Play
the balance cannot cover "mặc định là BỎ BÀI". So s000 keeps the Ante Bonus on a disconnection
only; RULES.md §13.7's [DEF] reading (every forced fold keeps it) is s002's default and either
flag's other value (docs/options.md, "Where defaults differ from RULES.md").

``tcp.betting_s`` and ``tcp.decision_s`` (15 s each, RULES.md §2.5) are the lengths of the
betting window and of the Play/Fold decision, read by the server's clock. Older configs and hand
histories name the options without the ``tcp.`` prefix; those names are read as deprecated
aliases (:attr:`~sanh.games.base.OptionSpec.aliases`).

Glossary (seed 000 / seed 002 / code): *Ante* / Анте / ``ante``; *Tố* / Играть (Play) /
``play``; *Bỏ bài* / Скинуть (Fold) / ``fold``; *Cược Đôi* / Пара Плюс / ``pair_plus``;
*Cược Thưởng 6 Lá* / ``six_card_bonus``; *Cược Thưởng Ante* / Анте Бонус / ``ante_bonus``;
*Người chia bài* / дилер / dealer; *đủ điều kiện* / квалифицируется / the dealer qualifies;
*Thùng Phá Sảnh Hoàng Kim* mini royal; *Thùng Phá Sảnh* straight flush; *Bộ Ba* three of a kind;
*Sảnh* straight; *Thùng* flush; *Đôi* pair; *Tay Bài Cao* high card.

Choices where the sources are silent (each is also in the final report of the branch):

* a bet spot takes one bet per round; a placed bet stands (it cannot be changed or withdrawn);
* a forced fold (timeout, disconnection, leaving, too little balance for Play) settles Pair
  Plus as normal even when ``tcp.fold_forfeits_pairplus`` is on: §13.7 says the side bets of a
  forced fold settle "như bình thường"; only a voluntary Fold forfeits Pair Plus (and a Play the
  balance cannot cover when ``tcp.no_balance_is_fold`` makes it a Fold);
* the 6 Card Bonus is never forfeited by a fold (A-TP2) and, with one hand per player, uses that
  player's own three cards and the dealer's three;
* views: the shared Player hand is public once dealt; with a hand per player each hand is
  private to its owner until the result, when the hands that were not folded are shown to
  everyone (RULES.md §2.10: folded hands are never sent to anyone else); the dealer's cards are
  hidden until the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from sanh.cards.card import Card, Rank, format_cards
from sanh.cards.deck import DECK_52
from sanh.errors import ConfigError, IllegalActionError
from sanh.eval import HandCategory, TcpCategory, category_of, evaluate, tcp_category, tcp_rank
from sanh.games._evolve import evolve, put
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
    "ANTE_BONUS",
    "BET_SPOTS",
    "GAMES",
    "PAIR_PLUS_PAYTABLES",
    "SIX_CARD_BONUS",
    "VARIANT_DEFAULTS",
    "Bet",
    "CloseBetting",
    "Fold",
    "ForceFold",
    "Play",
    "Ready",
    "TcpRules",
    "TcpState",
    "TcpView",
    "ThreeCardPoker",
    "dealer_qualifies",
]

SEATS_MAX = 7

BET_SPOTS: tuple[str, ...] = ("ante", "pair_plus", "six_card_bonus")
"""The bet spots, in the order of :attr:`TcpState.bets`."""

ANTE, PAIR_PLUS, SIX_CARD = range(3)

ANTE_BONUS: dict[TcpCategory, int] = {
    TcpCategory.MINI_ROYAL: 5,
    TcpCategory.STRAIGHT_FLUSH: 5,
    TcpCategory.THREE_OF_A_KIND: 4,
    TcpCategory.STRAIGHT: 1,
}
"""Ante Bonus, x:1 on the Ante (S000 and S002 alike: 5/4/1)."""

PAIR_PLUS_PAYTABLES: dict[str, dict[TcpCategory, int]] = {
    "40-30-5-4-1": {  # S000
        TcpCategory.MINI_ROYAL: 40,
        TcpCategory.STRAIGHT_FLUSH: 40,
        TcpCategory.THREE_OF_A_KIND: 30,
        TcpCategory.STRAIGHT: 5,
        TcpCategory.FLUSH: 4,
        TcpCategory.PAIR: 1,
    },
    "40-30-6-3-1": {  # S002
        TcpCategory.MINI_ROYAL: 40,
        TcpCategory.STRAIGHT_FLUSH: 40,
        TcpCategory.THREE_OF_A_KIND: 30,
        TcpCategory.STRAIGHT: 6,
        TcpCategory.FLUSH: 3,
        TcpCategory.PAIR: 1,
    },
}
"""Pair Plus paytables, x:1 by category (RULES.md §13.6, A-TP1)."""

SIX_CARD_BONUS: dict[HandCategory, int] = {
    HandCategory.ROYAL_FLUSH: 1000,
    HandCategory.STRAIGHT_FLUSH: 200,
    HandCategory.FOUR_OF_A_KIND: 100,
    HandCategory.FULL_HOUSE: 20,
    HandCategory.FLUSH: 15,
    HandCategory.STRAIGHT: 10,
    HandCategory.THREE_OF_A_KIND: 7,
}
"""6 Card Bonus, x:1 on the best five of the Player's and the dealer's six cards (S000)."""

VARIANT_DEFAULTS: dict[str, dict[str, OptionValue]] = {
    "s000": {
        "tcp.shared_player_hand": True,
        "tcp.fold_forfeits_pairplus": False,
        "tcp.pairplus_paytable": "40-30-5-4-1",
        "tcp.six_card_bonus": True,
        "tcp.ante_bonus_on_forced_fold": False,
        "tcp.no_balance_is_fold": True,
    },
    "s002": {
        "tcp.shared_player_hand": False,
        "tcp.fold_forfeits_pairplus": True,
        "tcp.pairplus_paytable": "40-30-6-3-1",
        "tcp.six_card_bonus": False,
        "tcp.ante_bonus_on_forced_fold": True,
        "tcp.no_balance_is_fold": False,
    },
}
"""The flags each rule set sets together (RULES.md §13.8)."""

FORCED_REASONS: tuple[str, ...] = ("timeout", "disconnect", "leave", "no_balance")
"""Reasons of a :class:`ForceFold` (``no_balance``: the server could not hold the Play bet,
:meth:`ThreeCardPoker.unfunded_action`)."""

Decision: TypeAlias = str
"""A seat's decision: ``""`` (no Ante), ``pending``, ``play``, ``fold`` (voluntary), or the
reason of a forced fold."""

_FORCED: frozenset[str] = frozenset({"timeout", "disconnect", "leave", "no_balance"})

_CATEGORY_NAMES: dict[TcpCategory, str] = {
    TcpCategory.MINI_ROYAL: "mini royal",
    TcpCategory.STRAIGHT_FLUSH: "straight flush",
    TcpCategory.THREE_OF_A_KIND: "three of a kind",
    TcpCategory.STRAIGHT: "straight",
    TcpCategory.FLUSH: "flush",
    TcpCategory.PAIR: "pair",
    TcpCategory.HIGH_CARD: "high card",
}


# ----- actions -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bet(Action):
    """Place ``amount`` on a bet spot (``ante``, ``pair_plus`` or ``six_card_bonus``)."""

    wire = "Bet"
    field_aliases = (("spot", "bet"),)

    bet: str = "ante"
    """The bet spot (:data:`BET_SPOTS`); ``spot`` before, still read."""
    amount: Chips = 0


@dataclass(frozen=True, slots=True)
class Play(Action):
    """*Tố*: place a Play bet equal to the Ante and compare with the dealer."""

    wire = "Play"


@dataclass(frozen=True, slots=True)
class Fold(Action):
    """*Bỏ bài*: a voluntary fold; the Ante is lost and no Ante Bonus is paid."""

    wire = "Fold"


@dataclass(frozen=True, slots=True)
class ForceFold(Action):
    """The table folds ``target`` (``seat=None``): a timeout, a disconnection or leaving.

    A forced fold loses the Ante but keeps the Ante Bonus when ``tcp.ante_bonus_on_forced_fold``
    is on (A-TP7), and never forfeits Pair Plus.
    """

    wire = "ForceFold"

    target: Seat = 0
    reason: str = "timeout"


# ----- rules, state, view --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TcpRules(Rules):
    """The table's rule options, each declared once (RULES.md §13, §15 A-TP*;
    ``ThreeCardPoker().rules(config)``). ``tcp.variant`` sets the defaults of the flags
    together (:data:`VARIANT_DEFAULTS`); a flag set explicitly overrides its variant default
    (:meth:`ThreeCardPoker.rule_values`)."""

    variant: str = option(
        "tcp.variant",
        "s000",
        ("s000", "s002"),
        "rule set: s000 (seed 000), s002",
        aliases=("variant",),
    )
    shared_player_hand: bool = option(
        "tcp.shared_player_hand",
        True,
        help="one Player hand for all (A-TP4; s002: false)",
        aliases=("shared_player_hand",),
    )
    fold_forfeits_pairplus: bool = option(
        "tcp.fold_forfeits_pairplus",
        False,
        help="a Fold loses Pair Plus (A-TP2; s002: true)",
        aliases=("fold_forfeits_pairplus",),
    )
    pairplus_paytable: str = option(
        "tcp.pairplus_paytable",
        "40-30-5-4-1",
        tuple(PAIR_PLUS_PAYTABLES),
        "Pair Plus SF/trips/straight/flush/pair (A-TP1; s002: 40-30-6-3-1)",
        aliases=("pairplus_paytable",),
    )
    six_card_bonus: bool = option(
        "tcp.six_card_bonus",
        True,
        help="offer the 6 Card Bonus (A-TP5; s002: false)",
        aliases=("six_card_bonus",),
    )
    ante_bonus_on_forced_fold: bool = option(
        "tcp.ante_bonus_on_forced_fold",
        False,
        help="a timeout or leaving keeps the Ante Bonus (A-TP7; s002: true)",
        aliases=("ante_bonus_on_forced_fold",),
    )
    no_balance_is_fold: bool = option(
        "tcp.no_balance_is_fold",
        True,
        help="a Play the balance cannot cover is a Fold, no Ante Bonus (s002: false)",
    )
    bet_min_multiple: int = option(
        "tcp.bet_min_multiple",
        1,
        help="table minimum per bet, in L [DEF]",
        aliases=("bet_min_multiple",),
    )
    bet_max_multiple: int = option(
        "tcp.bet_max_multiple",
        100,
        help="table maximum per bet, in L [DEF]",
        aliases=("bet_max_multiple",),
    )
    betting_s: int = option(
        "tcp.betting_s",
        15,
        help="§2.5: betting window, seconds (the server's clock)",
        aliases=("betting_s",),
    )
    decision_s: int = option(
        "tcp.decision_s",
        15,
        help="§2.5: Play/Fold decision time, seconds (the server's clock)",
        aliases=("decision_s",),
    )

    def check(self) -> None:
        """The table limits are possible: 1 L ≤ minimum ≤ maximum."""
        low, high = self.bet_min_multiple, self.bet_max_multiple
        if low < 1 or high < low:
            raise ConfigError(text=text("bet_multiples_impossible", low, high))

    @property
    def spots(self) -> tuple[str, ...]:
        """The bet spots offered at this table."""
        return BET_SPOTS if self.six_card_bonus else BET_SPOTS[:2]

    @property
    def pair_plus(self) -> dict[TcpCategory, int]:
        """The Pair Plus paytable."""
        return PAIR_PLUS_PAYTABLES[self.pairplus_paytable]


@dataclass(frozen=True, slots=True)
class TcpState:
    """One round of Three Card Poker at a table."""

    config: TableConfig
    rules: TcpRules
    version: int = 0
    history: tuple[Event, ...] = ()
    phase: str = "betting"
    """``betting``, ``dealing``, ``decision`` or ``over``."""
    bets: tuple[tuple[Chips, Chips, Chips], ...] = ()
    """Per seat: (ante, pair plus, 6 card bonus); 0 = no bet."""
    ready: tuple[bool, ...] = ()
    """Per seat: said :class:`Ready` in this betting window."""
    decisions: tuple[Decision, ...] = ()
    player_hand: tuple[Card, ...] = ()
    """The shared Player hand (shared mode), once dealt."""
    own_hands: tuple[tuple[Card, ...], ...] = ()
    """Per seat: its own hand (one hand per player), once dealt; () if not dealt in."""
    dealer_hand: tuple[Card, ...] = ()

    def hand_of(self, seat: Seat) -> tuple[Card, ...]:
        """The three cards ``seat`` plays (() if it is not dealt in)."""
        if not any(self.bets[seat]):
            return ()
        if self.rules.shared_player_hand:
            return self.player_hand
        return self.own_hands[seat] if self.own_hands else ()

    @property
    def bet_min(self) -> Chips:
        """The table minimum per bet spot: ``tcp.bet_min_multiple`` × L."""
        return self.rules.bet_min_multiple * self.config.stake

    @property
    def bet_max(self) -> Chips:
        """The table maximum per bet spot: ``tcp.bet_max_multiple`` × L."""
        return self.rules.bet_max_multiple * self.config.stake

    def committed(self, seat: Seat) -> Chips:
        """What ``seat`` has staked so far (the Play bet included)."""
        total = sum(self.bets[seat])
        if self.decisions and self.decisions[seat] == "play":
            total += self.bets[seat][ANTE]
        return total


@dataclass(frozen=True, slots=True, kw_only=True)
class TcpView(View):
    """What one seat (or a spectator) sees of a round."""

    variant: str
    phase: str
    stake: Chips
    bet_min: Chips
    bet_max: Chips
    spots: tuple[str, ...]
    balance: Chips | None
    """The viewer's balance less its bets; once over, after the settlement (``None`` for a
    spectator)."""
    bets: tuple[tuple[Chips, Chips, Chips], ...]
    """Every seat's bets (bets on the table are public)."""
    decisions: tuple[str, ...]
    """Every seat's decision; another seat's choice shows as ``decided`` until the result."""
    shared_player_hand: bool
    player_hand: tuple[Card | None, ...]
    """The shared Player hand, or the viewer's own hand (() before the deal)."""
    hands: tuple[tuple[Card | None, ...], ...]
    """Per seat, its hand as the viewer may see it (one hand per player mode; else ())."""
    dealer_hand: tuple[Card | None, ...]
    """The dealer's cards: hidden (``None``) until the result."""
    dealer_qualifies: bool | None
    deltas: tuple[Chips, ...]
    """Every seat's net result, once over."""
    lines: tuple[SettlementLine, ...]
    """The viewer's own settlement lines, once over."""


# ----- helpers -------------------------------------------------------------------------------


def dealer_qualifies(cards: Sequence[int]) -> bool:
    """A pair or better, or a high card of Q or better (RULES.md §13.5, S000, S002)."""
    if tcp_category(tcp_rank(cards)) >= TcpCategory.PAIR:
        return True
    return max(c >> 2 for c in cards) >= Rank.QUEEN


def _category_name(cards: tuple[Card, ...]) -> str:
    return _CATEGORY_NAMES[tcp_category(tcp_rank(cards))]


def _category_code(cards: tuple[Card, ...]) -> str:
    """The category as a code (``high_card`` … ``mini_royal``), translated by the clients."""
    return tcp_category(tcp_rank(cards)).name.lower()


# ----- the game ------------------------------------------------------------------------------


class ThreeCardPoker(Game[TcpState]):
    """Three Card Poker, rule sets s000 (default) and s002 (RULES.md §13)."""

    info: ClassVar[GameInfo] = GameInfo(
        id="three-card-poker",
        name="Three Card Poker",
        name_vi="Poker 3 Lá",
        seats_min=1,
        seats_max=SEATS_MAX,
        deck="52",
        banked=True,
        max_actions=SEATS_MAX * (len(BET_SPOTS) + 2) + 1 + 1 + SEATS_MAX,
        rules_source="RULES.md §13, §15 A-TP1..A-TP8; seeds 000 (s000) and 002 (s002)",
        aliases=("tcp", "Bài Poker 3 Lá", "Poker 3 Lá Trực Tuyến", "3 card poker"),
        rules=TcpRules,
        action_types=(Bet, Ready, CloseBetting, Play, Fold, ForceFold, SitIn),
        hosting=Hosting(
            clocks=(
                PhaseClock("betting", option="tcp.betting_s"),
                PhaseClock("decision", option="tcp.decision_s"),
            ),
            house_table=HouseTable(stake=1000, seats=7, bots=2),
        ),
    )

    # ----- setup ---------------------------------------------------------------------------
    def rules(self, config: TableConfig) -> TcpRules:
        """The table's rule options (cached per option set)."""
        rules = super().rules(config)
        assert isinstance(rules, TcpRules)
        return rules

    def rule_values(self, config: TableConfig) -> dict[str, OptionValue]:
        """The options, with the flags not set explicitly taken from the variant's defaults
        (:data:`VARIANT_DEFAULTS`)."""
        values = self.options(config)
        explicit = config.option_map
        for name, default in VARIANT_DEFAULTS[str(values["tcp.variant"])].items():
            if name not in explicit:
                values[name] = default
        return values

    def new_state(self, config: TableConfig) -> TcpState:
        """A new round with the betting window open."""
        self.check_config(config)
        rules = self.rules(config)
        return TcpState(
            config=config,
            rules=rules,
            bets=((0, 0, 0),) * config.seats,
            ready=(False,) * config.seats,
            decisions=("",) * config.seats,
        )

    # ----- who acts ------------------------------------------------------------------------
    def to_act(self, state: TcpState) -> tuple[Seat, ...] | Chance | None:
        """Betting: seats that can still bet; dealing: CHANCE; decision: undecided seats."""
        if state.phase == "betting":
            return self._betting_seats(state)
        if state.phase == "dealing":
            return CHANCE
        if state.phase == "decision":
            return tuple(s for s, d in enumerate(state.decisions) if d == "pending")
        return None

    def _betting_seats(self, state: TcpState) -> tuple[Seat, ...]:
        return tuple(
            s
            for s in range(state.config.seats)
            if not state.ready[s] and self._spot_ranges(state, s)
        )

    def chance_spec(self, state: TcpState) -> ChanceSpec:
        """A shuffle of the 52-card deck."""
        return ChanceSpec(kind="shuffle", deck=DECK_52)

    def _spot_ranges(self, state: TcpState, seat: Seat) -> list[AmountRange]:
        rules = state.rules
        if state.ready[seat]:
            return []
        free = state.config.stacks[seat] - state.committed(seat)
        high = min(state.bet_max, free)
        if high < state.bet_min:
            return []
        return [
            AmountRange(Bet(seat, spot, state.bet_min), state.bet_min, high)
            for index, spot in enumerate(rules.spots)
            if state.bets[seat][index] == 0
        ]

    def amount_ranges(self, state: TcpState) -> tuple[AmountRange, ...]:
        """Each seat's open bet spots during the betting window."""
        if state.phase != "betting":
            return ()
        return tuple(r for s in range(state.config.seats) for r in self._spot_ranges(state, s))

    def amount_ranges_for(self, state: TcpState, seat: Seat | None) -> tuple[AmountRange, ...]:
        """One seat's open bet spots: :meth:`amount_ranges` for that seat, without working out
        every other seat's (a view costs one seat's ranges, not the table's)."""
        if not self._one_seat(state, seat):
            return super().amount_ranges_for(state, seat)
        assert seat is not None
        return tuple(self._spot_ranges(state, seat))

    def legal_actions_for(self, state: TcpState, seat: Seat | None) -> tuple[Action, ...]:
        """One seat's legal actions (see :meth:`amount_ranges_for`)."""
        if not self._one_seat(state, seat):
            return super().legal_actions_for(state, seat)
        assert seat is not None
        ranges = self._spot_ranges(state, seat)
        # Ready when _betting_seats would list the seat: not ready, a spot still open.
        actions: list[Action] = [Ready(seat)] if not state.ready[seat] and ranges else []
        for amount_range in ranges:
            actions.append(amount_range.at(amount_range.min))
            if amount_range.max != amount_range.min:
                actions.append(amount_range.at(amount_range.max))
        return tuple(actions)

    def _one_seat(self, state: TcpState, seat: Seat | None) -> bool:
        """Whether the one-seat betting shortcut applies (a real seat, bets open)."""
        return (
            state.phase == "betting"
            and type(seat) is int
            and 0 <= seat < state.config.seats
            and isinstance(self.to_act(state), tuple)
        )

    def legal_actions(self, state: TcpState) -> tuple[Action, ...]:
        """Bets (at their minimum and maximum) and the table's close; or Play/Fold."""
        if state.phase == "betting":
            actions: list[Action] = [Ready(seat) for seat in self._betting_seats(state)]
            for amount_range in self.amount_ranges(state):
                actions.append(amount_range.at(amount_range.min))
                if amount_range.max != amount_range.min:
                    actions.append(amount_range.at(amount_range.max))
            actions.append(CloseBetting(None))
            return tuple(actions)
        if state.phase == "decision":
            actions = []
            for seat, decision in enumerate(state.decisions):
                if decision == "pending":
                    if self._can_play(state, seat):
                        actions.append(Play(seat))
                    actions.append(Fold(seat))
            for seat, decision in enumerate(state.decisions):
                if decision == "pending":
                    actions.extend(ForceFold(None, seat, reason) for reason in FORCED_REASONS)
            return tuple(actions)
        return ()

    def at_risk(self, state: TcpState, seat: Seat) -> Chips | None:
        """The seat's bets, the Play bet included (a bet loses at most its stake)."""
        return state.committed(seat)

    @staticmethod
    def _can_play(state: TcpState, seat: Seat) -> bool:
        return state.config.stacks[seat] - state.committed(seat) >= state.bets[seat][ANTE]

    # ----- validation ----------------------------------------------------------------------
    def validate_action(self, state: TcpState, action: Action) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` is legal now."""
        v = state.version
        if isinstance(action, Bet | Ready | CloseBetting) and state.phase != "betting":
            raise IllegalActionError(action, "betting_closed", v)
        if isinstance(action, Play | Fold | ForceFold) and state.phase != "decision":
            raise IllegalActionError(action, "no_decision_open", v)
        if isinstance(action, Bet):
            self._validate_bet(state, action)
        elif isinstance(action, Ready):
            if action.seat is None:
                raise IllegalActionError(action, "only_seat_ready", v)
        elif isinstance(action, SitIn):
            if state.phase != "betting":
                raise IllegalActionError(action, "betting_closed", v)
            check_sit_in(state.config, action, lambda chair: self.is_empty_seat(state, chair), v)
        elif isinstance(action, CloseBetting | ForceFold):
            if action.seat is not None:
                raise IllegalActionError(action, "only_table", v)
            if isinstance(action, ForceFold):
                target = action.target
                if not (isinstance(target, int) and 0 <= target < state.config.seats):
                    raise IllegalActionError(action, "no_such_seat", v)
                if state.decisions[target] != "pending":
                    raise IllegalActionError(action, text("no_pending_decision", target), v)
                if action.reason not in FORCED_REASONS:
                    raise IllegalActionError(
                        action, text("forced_reason", ", ".join(FORCED_REASONS)), v
                    )
        elif isinstance(action, Play | Fold):
            seat = action.seat
            if seat is None or state.decisions[seat] != "pending":
                raise IllegalActionError(action, "no_decision", v)
            if isinstance(action, Play) and not self._can_play(state, seat):
                raise IllegalActionError(action, "play_bet_short", v)

    def _validate_bet(self, state: TcpState, action: Bet) -> None:
        v = state.version
        rules = state.rules
        seat = action.seat
        if seat is None:
            raise IllegalActionError(action, "table_does_not_bet", v)
        if action.bet not in rules.spots:
            raise IllegalActionError(
                action, text("no_bet_spot", clean(action.bet), ", ".join(rules.spots)), v
            )
        amount = action.amount
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise IllegalActionError(action, "whole_units", v)
        if state.bets[seat][BET_SPOTS.index(action.bet)]:
            raise IllegalActionError(action, text("bet_placed", action.bet), v)
        if amount < state.bet_min:
            raise IllegalActionError(action, text("under_min_of", state.bet_min), v)
        if amount > state.bet_max:
            raise IllegalActionError(action, text("over_max_of", state.bet_max), v)
        free = state.config.stacks[seat] - state.committed(seat)
        if amount > free:
            raise IllegalActionError(action, text("over_balance_of", free), v)

    # ----- transitions ---------------------------------------------------------------------
    def transition(self, state: TcpState, event: Event) -> TcpState:
        """The next state after a validated event."""
        if isinstance(event, Bet | Ready):
            assert event.seat is not None
            if isinstance(event, Bet):
                index = BET_SPOTS.index(event.bet)
                seat_bets = put(state.bets[event.seat], index, event.amount)
                state = evolve(state, bets=put(state.bets, event.seat, seat_bets))
            else:
                state = evolve(state, ready=put(state.ready, event.seat, True))
            return state if self._window_stays_open(state) else self._close(state)
        if isinstance(event, SitIn):
            return evolve(state, config=seat_in(state.config, event))
        if isinstance(event, CloseBetting):
            return self._close(state)
        if isinstance(event, Shuffle):
            return self._deal(state, event.order)
        if isinstance(event, Play | Fold | ForceFold):
            if isinstance(event, ForceFold):
                seat, decision = event.target, event.reason
            else:
                assert event.seat is not None
                seat, decision = event.seat, ("play" if isinstance(event, Play) else "fold")
            decisions = put(state.decisions, seat, decision)
            phase = "decision" if "pending" in decisions else "over"
            return evolve(state, decisions=decisions, phase=phase)
        raise AssertionError(f"unexpected event {event!r}")

    def _window_stays_open(self, state: TcpState) -> bool:
        """After a bet or a Ready: open while a seat can still bet or a seat is empty."""
        seats = range(state.config.seats)
        return bool(self._betting_seats(state)) or any(self.is_empty_seat(state, s) for s in seats)

    @staticmethod
    def is_empty_seat(state: TcpState, seat: Seat) -> bool:
        """Whether ``seat`` is empty: no stack and no bet (see :class:`SitIn`)."""
        return state.config.stacks[seat] == 0 and not any(state.bets[seat])

    @staticmethod
    def _close(state: TcpState) -> TcpState:
        if not any(any(b) for b in state.bets):
            return evolve(state, phase="over")
        return evolve(state, phase="dealing")

    def _deal(self, state: TcpState, order: tuple[Card, ...]) -> TcpState:
        seats = state.config.seats
        dealt_in = [s for s in range(seats) if any(state.bets[s])]
        player_hand: tuple[Card, ...] = ()
        own: list[tuple[Card, ...]] = [()] * seats
        if state.rules.shared_player_hand:
            player_hand = tuple(order[0:3])
            top = 3
        else:
            for k, seat in enumerate(dealt_in):
                own[seat] = tuple(order[3 * k : 3 * k + 3])
            top = 3 * len(dealt_in)
        dealer = tuple(order[top : top + 3])
        decisions: list[Decision] = []
        for seat in range(seats):
            ante = state.bets[seat][ANTE]
            if not ante:
                decisions.append("")
            elif state.config.stacks[seat] - sum(state.bets[seat]) < ante:
                decisions.append("no_balance")
            else:
                decisions.append("pending")
        return evolve(
            state,
            phase="decision" if "pending" in decisions else "over",
            player_hand=player_hand,
            own_hands=tuple(own) if not state.rules.shared_player_hand else (),
            dealer_hand=dealer,
            decisions=tuple(decisions),
        )

    # ----- defaults ------------------------------------------------------------------------
    def default_action(self, state: TcpState, seat: Seat | None, reason: Reason) -> Action | None:
        """Betting: the table closes the window (placed bets stand); decision: a forced fold."""
        if state.phase == "betting":
            return CloseBetting(None) if seat is None else None
        if state.phase == "decision":
            if seat is None:
                pending = [s for s, d in enumerate(state.decisions) if d == "pending"]
                return ForceFold(None, pending[0], "timeout") if pending else None
            if state.decisions[seat] == "pending":
                return ForceFold(None, seat, reason)
        return None

    # ----- settlement ----------------------------------------------------------------------
    def settle(self, state: TcpState) -> Settlement:
        """Every seat against the house, itemised (RULES.md §13.6)."""
        if state.phase != "over":
            raise ValueError("the round is not over")
        rules = state.rules
        lines: list[SettlementLine] = []
        deltas = [0] * state.config.seats
        dealer = state.dealer_hand
        qualifies = bool(dealer) and dealer_qualifies(dealer)
        dealer_rank = tcp_rank(dealer) if dealer else 0
        for seat in range(state.config.seats):
            hand = state.hand_of(seat)
            if not hand:
                continue
            seat_lines = self._settle_seat(state, seat, hand, dealer, dealer_rank, qualifies)
            deltas[seat] = sum(line.amount for line in seat_lines)
            lines.extend(seat_lines)
        detail: list[tuple[str, Any]] = []
        if dealer:
            detail += [
                ("dealer_hand", tuple(str(c) for c in dealer)),
                ("dealer_category", _category_code(dealer)),
                ("dealer_qualifies", qualifies),
            ]
            if rules.shared_player_hand:
                detail += [
                    ("player_hand", tuple(str(c) for c in state.player_hand)),
                    ("player_category", _category_code(state.player_hand)),
                ]
        settlement = Settlement(
            deltas=tuple(deltas), house=-sum(deltas), lines=tuple(lines), detail=tuple(detail)
        )
        settlement.check()
        return settlement

    @staticmethod
    def _voluntary(rules: TcpRules, decision: Decision) -> bool:
        """A Fold the player chose, or (``tcp.no_balance_is_fold``) a Play it could not cover,
        which S000 makes a *Bỏ bài*: "mặc định là BỎ BÀI"."""
        return decision == "fold" or (decision == "no_balance" and rules.no_balance_is_fold)

    @classmethod
    def _keeps_ante_bonus(cls, rules: TcpRules, decision: Decision) -> bool:
        """Whether a fold keeps the Ante Bonus. S000 pays it when "người chơi không bỏ bài",
        and on a disconnection "như bình thường" ("Tuy nhiên..."): a disconnection always
        keeps it; a voluntary fold never; a timeout, leaving or (unless it counts as a Fold)
        too little balance for Play keep it with ``tcp.ante_bonus_on_forced_fold`` (A-TP7)."""
        if decision == "disconnect":
            return True
        if decision not in _FORCED or cls._voluntary(rules, decision):
            return False
        return rules.ante_bonus_on_forced_fold

    def unfunded_action(self, state: TcpState, seat: Seat, action: Action) -> Action | None:
        """A Play the server cannot hold (the wallet was spent elsewhere since the deal) is
        the forced fold S000 names: "nếu không đủ số dư cho cược TỐ, hành động sẽ được đặt mặc
        định là BỎ BÀI" (settled as ``no_balance``)."""
        pending = state.phase == "decision" and state.decisions[seat] == "pending"
        return ForceFold(None, seat, "no_balance") if isinstance(action, Play) and pending else None

    def _settle_seat(
        self,
        state: TcpState,
        seat: Seat,
        hand: tuple[Card, ...],
        dealer: tuple[Card, ...],
        dealer_rank: int,
        qualifies: bool,
    ) -> list[SettlementLine]:
        rules = state.rules
        ante, pair_plus, six_card = state.bets[seat]
        decision = state.decisions[seat]
        rank = tcp_rank(hand)
        category = tcp_category(rank)
        hand_text = text("hand", category.name.lower())
        out: list[SettlementLine] = []
        if ante:
            if decision == "play":
                if not qualifies:
                    out.append(SettlementLine(seat, "ante", ante, ante, text("dealer_not_qualify")))
                    push = join(text("push"), text("dealer_not_qualify"))
                    out.append(SettlementLine(seat, "play", 0, ante, push))
                elif rank > dealer_rank:
                    out.append(SettlementLine(seat, "ante", ante, ante, text("beats_dealer")))
                    out.append(SettlementLine(seat, "play", ante, ante, text("beats_dealer")))
                elif rank == dealer_rank:
                    push = join(text("push"), text("ties_dealer"))
                    out.append(SettlementLine(seat, "ante", 0, ante, push))
                    out.append(SettlementLine(seat, "play", 0, ante, push))
                else:
                    out.append(SettlementLine(seat, "ante", -ante, ante, text("loses_to_dealer")))
                    out.append(SettlementLine(seat, "play", -ante, ante, text("loses_to_dealer")))
            else:
                why = text("fold") if decision == "fold" else text("forced_fold", decision)
                out.append(SettlementLine(seat, "ante", -ante, ante, why))
            eligible = decision == "play" or self._keeps_ante_bonus(rules, decision)
            multiple = ANTE_BONUS.get(category, 0)
            if eligible and multiple:
                out.append(
                    SettlementLine(
                        seat,
                        "ante_bonus",
                        multiple * ante,
                        ante,
                        join(hand_text, text("odds", multiple)),
                    )
                )
        if pair_plus:
            multiple = rules.pair_plus.get(category, 0)
            if self._voluntary(rules, decision) and rules.fold_forfeits_pairplus:
                out.append(
                    SettlementLine(seat, "pair_plus", -pair_plus, pair_plus, text("forfeit_fold"))
                )
            elif multiple:
                out.append(
                    SettlementLine(
                        seat,
                        "pair_plus",
                        multiple * pair_plus,
                        pair_plus,
                        join(hand_text, text("odds", multiple)),
                    )
                )
            else:
                out.append(SettlementLine(seat, "pair_plus", -pair_plus, pair_plus, hand_text))
        if six_card:
            best = category_of(evaluate((*hand, *dealer)))
            multiple = SIX_CARD_BONUS.get(best, 0)
            best_text = text("hand", best.name.lower())
            if multiple:
                out.append(
                    SettlementLine(
                        seat,
                        "six_card_bonus",
                        multiple * six_card,
                        six_card,
                        join(best_text, text("odds", multiple)),
                    )
                )
            else:
                out.append(SettlementLine(seat, "six_card_bonus", -six_card, six_card, best_text))
        return out

    # ----- views ---------------------------------------------------------------------------
    def public_record(self, state: TcpState) -> dict[str, Any] | None:
        """The dealer's hand, its category and whether it qualified."""
        if not state.dealer_hand:
            return None
        cards = state.dealer_hand
        return {
            "dealer": [str(c) for c in cards],
            "category": _category_code(cards),
            "qualifies": dealer_qualifies(cards),
        }

    def observe(self, state: TcpState, viewer: Seat | None) -> TcpView:
        """What ``viewer`` may see: the dealer's cards only at the result; another player's
        own hand (s002) only at the result and only if it was not folded."""
        over = state.phase == "over"
        dealt = bool(state.dealer_hand)
        rules = state.rules
        hidden3: tuple[Card | None, ...] = (None, None, None)
        if rules.shared_player_hand:
            player_hand: tuple[Card | None, ...] = state.player_hand
            hands: tuple[tuple[Card | None, ...], ...] = ()
        else:
            seen: list[tuple[Card | None, ...]] = []
            for seat in range(state.config.seats):
                own = state.own_hands[seat] if state.own_hands else ()
                folded = state.decisions[seat] not in ("", "pending", "play")
                if not own:
                    seen.append(())
                elif seat == viewer or (over and not folded):
                    seen.append(own)
                else:
                    seen.append(hidden3)
            hands = tuple(seen)
            player_hand = hands[viewer] if viewer is not None and hands else ()
        decisions: list[str] = []
        for seat, decision in enumerate(state.decisions):
            if seat != viewer and not over and decision not in ("", "pending"):
                decisions.append("decided")
            else:
                decisions.append(decision)
        deltas: tuple[Chips, ...] = ()
        lines: tuple[SettlementLine, ...] = ()
        if over:
            settlement = self.settle(state)
            deltas = settlement.deltas
            lines = tuple(line for line in settlement.lines if line.seat == viewer)
        return TcpView(
            **self.view_base(state, viewer),
            variant=rules.variant,
            phase=state.phase,
            stake=state.config.stake,
            bet_min=state.bet_min,
            bet_max=state.bet_max,
            spots=rules.spots,
            balance=self._balance(state, viewer, deltas),
            bets=state.bets,
            decisions=tuple(decisions),
            shared_player_hand=rules.shared_player_hand,
            player_hand=player_hand,
            hands=hands,
            dealer_hand=state.dealer_hand if over else (hidden3 if dealt else ()),
            dealer_qualifies=dealer_qualifies(state.dealer_hand) if over and dealt else None,
            deltas=deltas,
            lines=lines,
        )

    @staticmethod
    def _balance(state: TcpState, viewer: Seat | None, deltas: tuple[Chips, ...]) -> Chips | None:
        if viewer is None:
            return None
        if deltas:
            return state.config.stacks[viewer] + deltas[viewer]
        return state.config.stacks[viewer] - state.committed(viewer)

    def render_text(self, view: View) -> str:
        """The terminal table: dealer, Player hand(s), every seat's bets and decisions."""
        if not isinstance(view, TcpView):
            return super().render_text(view)
        out: list[str] = []
        out.append(
            f"Three Card Poker · Poker 3 Lá ({view.variant}) · L {format_gold(view.stake)}"
            f" · bets {format_gold(view.bet_min)}–{format_gold(view.bet_max)}"
            f" · {_PHASE_TEXT.get(view.phase, view.phase)}"
        )
        dealer = _cards_text(view.dealer_hand) if view.dealer_hand else "—"
        if view.dealer_qualifies is not None:
            shown = tuple(c for c in view.dealer_hand if c is not None)
            dealer += f"   {_category_name(shown)}"
            dealer += ", qualifies" if view.dealer_qualifies else ", does not qualify"
        out.append(f"Dealer   {dealer}")
        if view.shared_player_hand:
            hand = _cards_text(view.player_hand) if view.player_hand else "—"
            if view.player_hand and None not in view.player_hand:
                hand += f"   {_category_name(tuple(c for c in view.player_hand if c))}"
            out.append(f"Player   {hand}")
        names = {"ante": "Ante", "pair_plus": "Pair Plus", "six_card_bonus": "6 Card"}
        header = f"{'seat':<6}" + "".join(f"{names[s]:>11}" for s in view.spots)
        header += f"  {'decision':<12}"
        if not view.shared_player_hand:
            header += f"{'hand':<12}"
        if view.deltas:
            header += f"{'result':>11}"
        out.append(header)
        for seat, bets in enumerate(view.bets):
            mark = "*" if seat == view.viewer else " "
            row = f"p{seat + 1}{mark:<4}"
            row += "".join(f"{(format_gold(b) if b else '·'):>11}" for b in bets[: len(view.spots)])
            row += f"  {_DECISION_TEXT.get(view.decisions[seat], view.decisions[seat]):<12}"
            if not view.shared_player_hand:
                hand_cards = view.hands[seat] if view.hands else ()
                row += f"{(_cards_text(hand_cards) if hand_cards else '—'):<12}"
            if view.deltas:
                delta = view.deltas[seat]
                row += f"{('+' if delta > 0 else '') + format_gold(delta):>11}"
            out.append(row)
        for line in view.lines:
            sign = "+" if line.amount > 0 else ""
            detail = describe(line.detail)
            out.append(f"  {line.item:<15}{sign + format_gold(line.amount):>11}  {detail}")
        if view.balance is not None:
            out.append(f"Balance  {format_gold(view.balance)}")
        if view.legal_actions or view.amount_ranges:
            choices = [a.wire.lower() for a in view.legal_actions if not isinstance(a, Bet)]
            choices += [
                f"{r.template.bet} {format_gold(r.min)}..{format_gold(r.max)}"  # type: ignore[attr-defined]
                for r in view.amount_ranges
            ]
            out.append("You may: " + "; ".join(choices))
        return "\n".join(out)


_PHASE_TEXT = {
    "betting": "betting open",
    "dealing": "dealing",
    "decision": "Play or Fold",
    "over": "result",
}
_DECISION_TEXT = {
    "": "",
    "pending": "to decide",
    "decided": "decided",
    "play": "play",
    "fold": "fold",
    "timeout": "fold (time)",
    "disconnect": "fold (left)",
    "leave": "fold (left)",
    "no_balance": "fold (funds)",
}


def _cards_text(cards: tuple[Card | None, ...]) -> str:
    """Cards high to low (hidden ones as ``??``)."""
    if None not in cards:
        cards = tuple(sorted(cards, key=lambda c: -int(c or 0)))
    return " ".join("??" if c is None else format_cards([c], symbols=True) for c in cards)


GAMES = (ThreeCardPoker(),)
