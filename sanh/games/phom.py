"""Phỏm (Tá lả): the Vietnamese rummy of 2 to 4 players.

Rules source: RULES.md §9 (with §2.4, §2.6, §2.7, §15 A-PH1..A-PH9, §16A ``phom.opt_u_khan``),
seed 001 "Luật chơi Phỏm ( Tá Lả)". Melds and the exact arranger: :mod:`sanh.eval.melds`.

Glossary (Vietnamese → code):

* *phỏm* meld · *bài rác* deadwood (trash) · *nọc* stock · *ăn* :class:`Eat` · *bốc* :class:`Draw`
  · *đánh* :class:`Discard` · *hạ phỏm* :class:`LayDown` · *gửi* :class:`Send` (lay off) ·
  *tái* an extra turn after one's discard was eaten · *ăn chốt* eating a discard made in the
  discarder's last turn · *Ù* going out (``u``: 9 melded + 1, *Ù tròn* ``u_tron``: all 10) ·
  *Móm* no meld laid by the end · *đền* liability (the liable player pays the whole Ù alone) ·
  *nhất* first place · *về nhì/ba/chót* 2nd/3rd/last place · *Ù K* an instant win at the deal
  (on by default, ``phom.u_k``), *Ù khan* another (off by default, ``phom.opt_u_khan``).

The game in short (§9.1-9.8): the first player (the host in the first game, then the previous
winner; ``carry`` is ``{"winner": seat}``) gets 10 cards, everyone else 9; turns go CCW (seat
order ``0, 1, 2...``; ``phom.direction = cw`` reverses it). A turn is: eat the previous
discard if it completes a meld at once, or draw from the stock (the first player's first turn
skips this), then discard. A player's *last turn* is the one they start with 3 cards in their
discard row: after taking a card they lay down all their melds (choosing the arrangement among
every way that leaves no further meld), may send trash onto other players' laid melds, then
discard. An eaten discard leaves its owner's row, so its owner later gets an extra turn (*Tái*);
the game ends when every row holds 4 cards, or at once when a player holding 10 cards has 9 or
10 of them in melds (Ù). The lowest deadwood total wins; Móm players rank last.

Money (×L, §9.8): eats 1×, 2×, 3× (per eater, A-PH3) or 5× for a chốt, paid by the discarder at
once; places 1 / 2 / 3 (by table size), Móm 4; Ù 5× (Ù tròn 10×) from each other player, or all
of it from the liable player (*đền*); a player who leaves or disconnects pays 5× to each other
player at once and is removed. Every payment is capped at the payer's balance (§2.6): see
:mod:`sanh.games._debts`.

Choices where RULES.md is silent (ours):

* **Eating** is allowed only if, with the new card, every eaten card still in hand can be melded
  (each in its own meld), keeping a card to discard in a turn after laying down. A discard
  that would break that is refused (§9.3).
* **Laying down** (``LayDown``) must be *maximal*: the melded cards are not a strict subset of
  another valid arrangement's (so "all melds" are laid); splitting them differently (4-5-6-7-8-9
  as two runs) is the player's choice. When the only maximal arrangement is empty the step is
  skipped (the player is then Móm unless they lay down later). In a *Tái* turn after laying
  down the player lays down any new meld (an eaten card must end in a laid meld) and may send.
* A discard may be eaten by the next player still playing (players whose row is full are
  skipped); a player whose turn comes round again at once cannot eat their own discard.
* **Sending** is allowed onto any other player's laid melds while the sender keeps at least one
  card to discard; a set takes its fourth card, a run the next card at either end.
* The **chốt** multiplier replaces the ordinal one, and a chốt still counts as an eat for the
  ordinal. A 4th or later eat pays the last ordinal multiplier.
* **Liability**: (a) the latest chốt eater, when another player then goes Ù; otherwise (b) a
  player whose last three discards were all eaten by the Ù player (A-PH8). A liable player who
  has left is ignored.
* **Leaving** (:class:`Leave`, an anytime action, never listed): paid at once; the leaver's
  discard can no longer be eaten; the remaining players are ranked by the place table of their
  own number; a lone remaining player is first.
* ``phom.u_k = as_u_thuong`` (the default; seed 001 lists Ù K among the rules in force): a
  dealt hand with three or four Kings ("phỏm K ... mà không bốc bài") wins at once, paid as Ù
  thường; ``off`` plays the hand on. ``phom.first_player = random`` draws the first game's
  first player with a die. ``phom.card_points`` is fixed at A = 1 ... K = 13 (A-PH1) because an
  option value cannot hold a table.
* Players below ``platform.min_balance_multiple`` × L sit the game out (§2.6); with fewer than
  two players left the game is cancelled.

The largest loss (:meth:`Phom.max_loss`), × L, for ``n`` seats:

* **Eats.** A seat pays when its discard is eaten. An eater holds at most 10 cards at any time
  (its hand and its own laid melds: 9 or 10 dealt, then one card taken per card discarded, and
  sending only gives cards away), and every card it has eaten sits in its own meld with at
  least two of the eater's other cards (§9.3; laid melds hold one eaten card each), so an eater
  eats at most 3 cards in a game (a 4th would need 12). The payer's discards are eaten at most
  3 times by each of the ``n − 1`` others, each at the eater's ordinal multiplier (per eater:
  the 1st, 2nd, 3rd) or the chốt multiplier, so at most ``Σₖ₌₁..₃ max(mₖ, chốt)`` per other
  seat (``per_game``: the largest ``3 (n − 1)`` of ``max(mⱼ, chốt)`` over the game's at most
  ``3 n`` eats).
* **The end**, one of: a place (at most 3) or Móm (4); a share of an Ù (5, Ù tròn 10, Ù khan or
  Ù K at most 10); the whole Ù tròn as the liable player, ``10 (n − 1)``; leaving,
  ``5 (n − 1)``. The largest is ``10 (n − 1)``.

The bound is ``eats + 10 (n − 1)``, × L, and at least ``platform.min_balance_multiple`` × L:
75 L with four seats and the default multipliers 1, 2, 3 and chốt 5.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from sanh.cards.card import Card, Rank
from sanh.cards.deck import DECK_52
from sanh.errors import ConfigError, IllegalActionError
from sanh.eval.melds import (
    Arrangement,
    can_extend,
    card_points,
    deadwood_points,
    maximal_arrangements,
    meld_key,
    most_melded,
    phom_rank,
    sort_cards,
)
from sanh.games._debts import Debt, Purse
from sanh.games._evolve import evolve, put
from sanh.games.base import (
    CHANCE,
    Action,
    Chance,
    ChanceSpec,
    Event,
    Game,
    GameInfo,
    Reason,
    Roll,
    Rules,
    Settlement,
    Shuffle,
    TableConfig,
    View,
    option,
    remap_seat,
)
from sanh.texts import clean, join, text
from sanh.types import Chips, Seat, format_gold

__all__ = [
    "GAMES",
    "Charge",
    "Discard",
    "Draw",
    "Eat",
    "LayDown",
    "Leave",
    "Phom",
    "PhomState",
    "PhomView",
    "Send",
    "phom_timers",
]

HAND_SIZE = 9
ROW_FULL = 4
U_THUONG = 5
U_TRON = 10
MOM = 4
DISCONNECT = 5
EATS_PER_EATER = 3
"""The most cards one player can eat in a game (module docstring, *The largest loss*)."""
PLACE_TABLE: dict[int, tuple[int, ...]] = {1: (0,), 2: (0, 1), 3: (0, 1, 2), 4: (0, 1, 2, 3)}
"""× L paid to the 1st by each place, by the number of ranked players (§9.8)."""


# ----- actions ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Bốc: take the top card of the stock."""

    wire = "Draw"


@dataclass(frozen=True, slots=True)
class Eat(Action):
    """Ăn: take the previous player's discard ``card``; it must complete a meld at once."""

    wire = "Eat"

    card: Card


@dataclass(frozen=True, slots=True)
class LayDown(Action):
    """Hạ phỏm: lay down melds: ``cards`` cut into melds of ``sizes`` cards, in order."""

    wire = "LayDown"

    cards: tuple[Card, ...]
    sizes: tuple[int, ...]

    @staticmethod
    def of(seat: Seat, melds: tuple[tuple[Card, ...], ...]) -> LayDown:
        """The action laying down ``melds``."""
        return LayDown(seat, tuple(c for m in melds for c in m), tuple(len(m) for m in melds))

    def melds(self) -> tuple[tuple[Card, ...], ...]:
        """The melds, cut from :attr:`cards` by :attr:`sizes`."""
        out = []
        start = 0
        for size in self.sizes:
            out.append(tuple(self.cards[start : start + size]))
            start += size
        return tuple(out)


@dataclass(frozen=True, slots=True)
class Send(Action):
    """Gửi: lay ``card`` off onto meld number ``meld`` laid down by seat ``target``."""

    wire = "Send"

    card: Card
    target: int
    meld: int


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Đánh: discard ``card`` face up to one's row, ending the turn."""

    wire = "Discard"

    card: Card


@dataclass(frozen=True, slots=True)
class Leave(Action):
    """Leave or disconnect: an automatic loss paying 5× to each other player (anytime)."""

    wire = "Leave"

    anytime: ClassVar[bool] = True


Charge: TypeAlias = tuple[Debt, ...]
"""A payment event: one payer's debts of one moment (capped together, §2.6)."""


# ----- state and view -----------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class PhomState:
    """One game of Phỏm."""

    config: TableConfig
    version: int = 0
    history: tuple[Event, ...] = ()
    phase: str = "deal"
    """``pick`` (a die for the first player), ``deal``, ``draw`` (eat or draw), ``lay``,
    ``discard`` (send or discard), ``over``."""
    order: tuple[Seat, ...] = ()
    """The seats dealt in, in turn order from the first player."""
    candidates: tuple[Seat, ...] = ()
    hands: tuple[tuple[Card, ...], ...] = ()
    """Per seat: the cards in hand (eaten cards not yet laid down included)."""
    stock: tuple[Card, ...] = ()
    rows: tuple[tuple[Card, ...], ...] = ()
    """Per seat: the discard row (eaten discards leave it)."""
    discards_made: tuple[int, ...] = ()
    eaten: tuple[tuple[Card, ...], ...] = ()
    """Per seat: every card it has eaten (public)."""
    melds: tuple[tuple[tuple[Card, ...], ...], ...] = ()
    """Per seat: its laid-down melds, sent cards included."""
    sent: tuple[tuple[Seat, Card, Seat, int], ...] = ()
    """Every send: (sender, card, target seat, meld number)."""
    laid: tuple[int, ...] = ()
    """Per seat: 0, or the order in which it reached its lay-down step (1 = first)."""
    removed: tuple[bool, ...] = ()
    current: Seat | None = None
    laying: bool = False
    """Whether the current turn is a last turn (or a Tái turn after laying down)."""
    first_turn: bool = False
    pending: Card | None = None
    """The discard the current player may eat."""
    pending_seat: Seat | None = None
    pending_chot: bool = False
    eat_counts: tuple[int, ...] = ()
    streak_counts: tuple[int, ...] = ()
    """Per seat: how many of its latest discards in a row were eaten ..."""
    streak_eaters: tuple[Seat | None, ...] = ()
    """... and by whom."""
    chot_eater: Seat | None = None
    charges: tuple[Charge, ...] = ()
    """Every payment so far, in order (eats and leavers during play; the result at the end)."""
    outcome: str = ""
    """``u``, ``u_tron``, ``u_khan``, ``u_k``, ``end`` (ranked), or ``cancelled``."""
    winner: Seat | None = None
    liable: Seat | None = None
    u_melds: tuple[tuple[Card, ...], ...] = ()
    ranking: tuple[Seat, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class PhomView(View):
    """What one seat (or a spectator) sees of a Phỏm game."""

    phase: str
    order: tuple[Seat, ...]
    current: Seat | None
    hands: tuple[tuple[Card | None, ...], ...]
    """Per seat: the viewer's own cards, ``None`` for hidden ones (all shown once over)."""
    rows: tuple[tuple[Card, ...], ...]
    eaten: tuple[tuple[Card, ...], ...]
    melds: tuple[tuple[tuple[Card, ...], ...], ...]
    stock_count: int
    pending: Card | None
    pending_seat: Seat | None
    laid: tuple[int, ...]
    removed: tuple[bool, ...]
    my_points: int | None
    """The viewer's fewest deadwood points now (its own hand)."""
    paid: tuple[Chips, ...]
    """Per seat: net gold moved so far (eats, leavers; the result once over)."""
    points: tuple[int | None, ...]
    """Once over: each ranked seat's points left."""
    outcome: str
    winner: Seat | None
    liable: Seat | None
    ranking: tuple[Seat, ...]
    u_melds: tuple[tuple[Card, ...], ...]
    timers: dict[str, int]


@dataclass(frozen=True, slots=True)
class PhomRules(Rules):
    """The table's rule options, each declared once (RULES.md §9, §15 A-PH*, §16A;
    ``Phom().rules(config)``)."""

    tai: bool = option(
        "phom.tai", True, help="an eaten discard gives its owner an extra turn (A-PH2)"
    )
    eat_ordinal: str = option(
        "phom.eat_ordinal",
        "per_eater",
        ("per_eater", "per_game"),
        help="count eats per eater or per game (A-PH3)",
    )
    eat_multipliers_text: str = option(
        "phom.eat_multipliers", "1,2,3", help="× L for the 1st, 2nd, 3rd eat (A-PH3)"
    )
    chot_multiplier: int = option("phom.chot_multiplier", 5, help="× L for eating a chốt (A-PH3)")
    u_k_rule: str = option(
        "phom.u_k", "as_u_thuong", ("as_u_thuong", "off"), help="Ù K (S001, A-PH5)"
    )
    tie_break: str = option(
        "phom.tie_break",
        "laydown_order",
        ("laydown_order", "card_strength"),
        help="equal points: earlier lay-down, or the weaker highest card left (A-PH6)",
    )
    first_player: str = option(
        "phom.first_player", "host", ("host", "random"), help="first game (A-PH7)"
    )
    three_eaten: bool = option(
        "phom.three_eaten_liability", True, help="3 discards eaten in a row → liable (A-PH8)"
    )
    u_khan: bool = option("phom.opt_u_khan", False, help="Ù khan (§16A, not applied by the seed)")
    direction: str = option("phom.direction", "ccw", ("ccw", "cw"), help="turn direction (A-PL2)")
    min_balance_multiple: int = option(
        "platform.min_balance_multiple", 10, help="balance needed to play, × L (0: none) (A-PL4)"
    )
    quick_mode: bool = option(
        "table.quick_mode", False, help="7 s turn timer instead of 15 s (A-PL5)"
    )

    def check(self) -> None:
        """The eat multipliers are a list of whole numbers, none negative; no amount is
        negative."""
        if not self.eat_multipliers or any(m < 0 for m in self.eat_multipliers):
            given = clean(repr(self.eat_multipliers_text))
            raise ConfigError(text=text("option_multipliers", "phom.eat_multipliers", given))
        amounts = (
            ("phom.chot_multiplier", self.chot_multiplier),
            ("platform.min_balance_multiple", self.min_balance_multiple),
        )
        for name, value in amounts:
            if value < 0:
                raise ConfigError(text=text("option_not_negative", name))

    @property
    def eat_multipliers(self) -> tuple[int, ...]:
        """× L for the 1st, 2nd, 3rd eat; ``()`` if the option is not a list of numbers."""
        try:
            return tuple(int(x) for x in self.eat_multipliers_text.split(","))
        except ValueError:
            return ()

    @property
    def per_game(self) -> bool:
        """Whether eats are counted per game rather than per eater (A-PH3)."""
        return self.eat_ordinal == "per_game"

    @property
    def u_k(self) -> bool:
        """Whether Ù K counts as an ordinary Ù (A-PH5)."""
        return self.u_k_rule == "as_u_thuong"

    @property
    def card_strength_tie(self) -> bool:
        """Whether equal points are broken by card strength (A-PH6)."""
        return self.tie_break == "card_strength"

    @property
    def random_first(self) -> bool:
        """Whether the first game's first player is drawn at random (A-PH7)."""
        return self.first_player == "random"

    @property
    def clockwise(self) -> bool:
        """Whether turns go clockwise (A-PL2)."""
        return self.direction == "cw"


OPTIONS = PhomRules.specs()
"""The options as the hall lists them (``Phom.info.options``)."""


def phom_timers(config: TableConfig) -> dict[str, int]:
    """The turn timer in seconds: 15, or 7 in quick mode (RULES.md §2.5, A-PL5)."""
    quick = bool(dict(config.options).get("table.quick_mode", False))
    return {"turn_s": 7 if quick else 15}


# ----- the game -----------------------------------------------------------------------------
class Phom(Game[PhomState]):
    """Phỏm / Tá lả for 2-4 players."""

    info: ClassVar[GameInfo] = GameInfo(
        id="phom",
        name="Phom (Ta La)",
        name_vi="Phỏm",
        seats_min=2,
        seats_max=4,
        deck="52",
        banked=False,
        max_actions=600,
        rules_source="RULES.md §9, §2.4, §2.6-2.7, §15 A-PH1..9, §16A; seed 001 'Luật chơi Phỏm'",
        aliases=("Tá lả", "ta-la", "phom-ta-la"),
        rules=PhomRules,
        action_types=(Draw, Eat, LayDown, Send, Discard, Leave),
    )

    def max_loss(self, config: TableConfig) -> Chips:
        """The most one seat can pay in a game (module docstring, *The largest loss*).

        >>> Phom().max_loss(TableConfig.make(seats=4, stake=100))
        7500
        """
        rules = self.rules(config)
        n = config.seats
        multipliers = rules.eat_multipliers

        def eat_value(ordinal: int) -> int:
            ordinal_value = multipliers[min(ordinal, len(multipliers)) - 1]
            return max(ordinal_value, rules.chot_multiplier)

        if rules.per_game:
            values = sorted((eat_value(j) for j in range(1, EATS_PER_EATER * n + 1)), reverse=True)
            eats = sum(values[: EATS_PER_EATER * (n - 1)])
        else:
            eats = (n - 1) * sum(eat_value(k) for k in range(1, EATS_PER_EATER + 1))
        worst = eats + U_TRON * (n - 1)
        return max(worst, rules.min_balance_multiple) * config.stake

    def rules(self, config: TableConfig) -> PhomRules:
        """The table's rules, options resolved (cached per option set: every event asks)."""
        rules = super().rules(config)
        assert isinstance(rules, PhomRules)
        return rules

    # ----- setup ------------------------------------------------------------------------
    def new_state(self, config: TableConfig) -> PhomState:
        """A game: who plays, then the first player (or a die for it), then the deal.

        :raises ConfigError: on a bad config, bad options or a malformed carry.
        """
        self.check_config(config)
        rules = self.rules(config)
        n = config.seats
        minimum = config.stake * rules.min_balance_multiple
        playing = [s for s in range(n) if config.stacks[s] >= minimum]
        state = PhomState(
            config=config,
            hands=((),) * n,
            rows=((),) * n,
            discards_made=(0,) * n,
            eaten=((),) * n,
            melds=((),) * n,
            laid=(0,) * n,
            removed=(False,) * n,
            eat_counts=(0,) * n,
            streak_counts=(0,) * n,
            streak_eaters=(None,) * n,
        )
        previous = _read_carry(config)
        if len(playing) < 2:
            return evolve(state, phase="over", outcome="cancelled")
        if previous is None and rules.random_first:
            return evolve(state, phase="pick", candidates=tuple(playing))
        first = previous if previous is not None else config.host
        return _seat_order(state, playing, first, rules)

    # ----- turn -------------------------------------------------------------------------
    def to_act(self, state: PhomState) -> tuple[Seat, ...] | Chance | None:
        """The current player, the chance player, or ``None`` once over."""
        if state.phase in ("pick", "deal"):
            return CHANCE
        if state.phase == "over" or state.current is None:
            return None
        return (state.current,)

    def chance_spec(self, state: PhomState) -> ChanceSpec:
        """A die for the first player, or a shuffle of the 52-card deck."""
        if state.phase == "pick":
            return ChanceSpec("roll", dice=1, sides=len(state.candidates))
        return ChanceSpec("shuffle", deck=DECK_52)

    def legal_actions(self, state: PhomState) -> tuple[Action, ...]:
        """The current player's eats, draws, lay-downs, sends and discards."""
        seat = state.current
        if seat is None or state.phase not in ("draw", "lay", "discard"):
            return ()
        if state.phase == "draw":
            actions: list[Action] = []
            if state.pending is not None and self._eat_problem(state, seat, state.pending) is None:
                actions.append(Eat(seat, state.pending))
            if state.stock:
                actions.append(Draw(seat))
            return tuple(actions)
        if state.phase == "lay":
            return tuple(LayDown.of(seat, a.melds) for a in self._layouts(state, seat))
        hand = state.hands[seat]
        # The sends _send_problem accepts, by its own tests (without writing each refusal).
        sends = (
            [
                Send(seat, card, target, index)
                for card in sort_cards(hand)
                for target, melds in enumerate(state.melds)
                if target != seat and target < state.config.seats
                for index, meld in enumerate(melds)
                if can_extend(meld, card)
            ]
            if state.laying and state.laid[seat] and len(hand) >= 2
            else []
        )
        discards = [
            Discard(seat, card)
            for card in sort_cards(state.hands[seat])
            if self._discard_problem(state, seat, card) is None
        ]
        return (*discards, *sends)

    # ----- checks -----------------------------------------------------------------------
    def _eat_problem(self, state: PhomState, seat: Seat, card: Card) -> str | None:
        hand = (*state.hands[seat], card)
        eaten = (*_pending_eaten(state, seat), card)
        if state.laid[seat]:
            if not maximal_arrangements(hand, eaten, min_left=1):
                return text("eat_keeps_no_discard", card)
            return None
        if deadwood_points(hand, eaten) is None:
            if len(eaten) == 1:
                return text("eat_no_meld", card)
            return text("eat_with_eaten", card, eaten[:-1])
        return None

    def _discard_problem(self, state: PhomState, seat: Seat, card: Card) -> str | None:
        hand = state.hands[seat]
        if card not in hand:
            return text("not_held", card)
        pending = _pending_eaten(state, seat)
        if card in pending:
            return text("eaten_must_stay", card)
        if pending:
            rest = tuple(c for c in hand if c != card)
            if deadwood_points(rest, pending) is None:
                return text("discard_breaks_eaten", card, pending)
        return None

    def _send_problem(
        self, state: PhomState, seat: Seat, card: Card, target: int, index: int
    ) -> str | None:
        if not (state.laying and state.laid[seat]):
            return "send_when_laying"
        hand = state.hands[seat]
        if card not in hand:
            return text("not_held", card)
        if len(hand) < 2:
            return "keep_discard"
        if target == seat:
            return "send_to_others"
        if not 0 <= target < state.config.seats or not 0 <= index < len(state.melds[target]):
            return text("no_meld_number", target, index)
        meld = state.melds[target][index]
        if not can_extend(meld, card):
            return text("does_not_fit", card, target, meld)
        return None

    def _layouts(self, state: PhomState, seat: Seat) -> tuple[Arrangement, ...]:
        """The legal ways to lay down now (every maximal arrangement, keeping a discard)."""
        return maximal_arrangements(state.hands[seat], _pending_eaten(state, seat), min_left=1)

    def validate_action(self, state: PhomState, action: Action) -> None:
        """Check one action against the rules; :raises IllegalActionError: with the reason."""
        seat = action.seat

        def fail(reason: str) -> None:
            raise IllegalActionError(action, reason, state.version)

        if seat is None:
            fail("phom_table_no_action")
            return
        if isinstance(action, Leave):
            if state.phase not in ("draw", "lay", "discard"):
                fail("no_game_under_way")
            elif seat not in state.order or state.removed[seat]:
                fail("not_playing_game")
            return
        if seat != state.current:
            fail("not_your_turn")
        match action:
            case Draw():
                if state.phase != "draw":
                    fail(_phase_hint(state))
                elif not state.stock:
                    fail("stock_empty")
            case Eat(card=card):
                if state.phase != "draw":
                    fail(_phase_hint(state))
                elif state.pending is None:
                    fail("no_discard_to_eat")
                elif card != state.pending:
                    fail(text("discard_to_eat_is", state.pending, card))
                else:
                    problem = self._eat_problem(state, seat, card)
                    if problem:
                        fail(problem)
            case LayDown():
                if state.phase != "lay":
                    fail(_phase_hint(state))
                elif len(action.cards) != sum(action.sizes) or any(s < 3 for s in action.sizes):
                    fail("melds_of_three")
                else:
                    wanted = _canonical(action.melds())
                    options = self._layouts(state, seat)
                    if all(_canonical(a.melds) != wanted for a in options):
                        ways = (
                            text("layout_option", [c for m in a.melds for c in m])
                            if a.melds
                            else "layout_none"
                            for a in options
                        )
                        fail(join("not_a_layout", *ways))
            case Send(card=card, target=target, meld=index):
                if state.phase != "discard":
                    fail(_phase_hint(state))
                else:
                    problem = self._send_problem(state, seat, card, target, index)
                    if problem:
                        fail(problem)
            case Discard(card=card):
                if state.phase != "discard":
                    fail(_phase_hint(state))
                else:
                    problem = self._discard_problem(state, seat, card)
                    if problem:
                        fail(problem)
            case _:
                fail("not_phom_action")

    # ----- transitions ------------------------------------------------------------------
    def transition(self, state: PhomState, event: Event) -> PhomState:
        """Apply a validated event."""
        rules = self.rules(state.config)
        match event:
            case Roll(dice=dice):
                first = state.candidates[dice[0] - 1]
                return _seat_order(state, list(state.candidates), first, rules)
            case Shuffle(order=order):
                return self._deal(state, order, rules)
            case Draw(seat=seat) if seat is not None:
                card = state.stock[0]
                state = _clear_pending(state, eaten=False)
                state = evolve(state, stock=state.stock[1:], hands=_with(state.hands, seat, card))
                return self._after_take(state, seat, rules)
            case Eat(seat=seat, card=card) if seat is not None:
                return self._after_take(self._eat(state, seat, card, rules), seat, rules)
            case LayDown(seat=seat) if seat is not None:
                melds = tuple(sort_cards(m) for m in event.melds())
                melded = {c for m in melds for c in m}
                hand = tuple(c for c in state.hands[seat] if c not in melded)
                state = evolve(
                    state,
                    hands=put(state.hands, seat, hand),
                    melds=put(state.melds, seat, state.melds[seat] + melds),
                    phase="discard",
                )
                return _mark_laid(state, seat)
            case Send(seat=seat, card=card, target=target, meld=index) if seat is not None:
                meld = sort_cards((*state.melds[target][index], card))
                target_melds = list(state.melds[target])
                target_melds[index] = meld
                return evolve(
                    state,
                    hands=put(state.hands, seat, _without(state.hands[seat], card)),
                    melds=put(state.melds, target, tuple(target_melds)),
                    sent=(*state.sent, (seat, card, target, index)),
                )
            case Discard(seat=seat, card=card) if seat is not None:
                return self._discard(state, seat, card, rules)
            case Leave(seat=seat) if seat is not None:
                return self._leave(state, seat, rules)
        raise AssertionError(f"unhandled event {event}")

    def _deal(self, state: PhomState, order: tuple[Card, ...], rules: PhomRules) -> PhomState:
        hands: list[list[Card]] = [[] for _ in range(state.config.seats)]
        position = 0
        for _ in range(HAND_SIZE):
            for seat in state.order:
                hands[seat].append(order[position])
                position += 1
        first = state.order[0]
        hands[first].append(order[position])
        position += 1
        state = evolve(
            state,
            hands=tuple(sort_cards(h) for h in hands),
            stock=tuple(order[position:]),
            current=first,
            phase="discard",
            first_turn=True,
            laying=False,
        )
        arrangement = most_melded(state.hands[first])
        if arrangement is not None and len(arrangement.melded) >= len(state.hands[first]) - 1:
            return self._u(state, first, arrangement, rules)
        for seat in state.order:
            hand = state.hands[seat]
            if rules.u_k and sum(1 for c in hand if c.rank is Rank.KING) >= 3:
                return self._instant(state, seat, "u_k", U_THUONG)
            if rules.u_khan and _is_u_khan(hand):
                amount = U_TRON if len(hand) > HAND_SIZE else U_THUONG
                return self._instant(state, seat, "u_khan", amount)
        return state

    def _eat(self, state: PhomState, seat: Seat, card: Card, rules: PhomRules) -> PhomState:
        discarder = state.pending_seat
        assert discarder is not None
        chot = state.pending_chot
        counts = list(state.eat_counts)
        counts[seat] += 1
        ordinal = sum(counts) if rules.per_game else counts[seat]
        multiplier = (
            rules.chot_multiplier
            if chot
            else rules.eat_multipliers[min(ordinal, len(rules.eat_multipliers)) - 1]
        )
        item = "an_chot" if chot else f"an_{ordinal}"
        charge = (
            Debt(discarder, seat, multiplier * state.config.stake, item, text("eats", seat, card)),
        )
        streak_counts = list(state.streak_counts)
        streak_eaters = list(state.streak_eaters)
        if streak_eaters[discarder] == seat:
            streak_counts[discarder] += 1
        else:
            streak_counts[discarder] = 1
            streak_eaters[discarder] = seat
        row = state.rows[discarder]
        assert row and row[-1] == card
        return evolve(
            state,
            hands=_with(state.hands, seat, card),
            eaten=put(state.eaten, seat, (*state.eaten[seat], card)),
            rows=put(state.rows, discarder, row[:-1]),
            eat_counts=tuple(counts),
            streak_counts=tuple(streak_counts),
            streak_eaters=tuple(streak_eaters),
            chot_eater=seat if chot else state.chot_eater,
            charges=(*state.charges, charge),
            pending=None,
            pending_seat=None,
            pending_chot=False,
        )

    def _after_take(self, state: PhomState, seat: Seat, rules: PhomRules) -> PhomState:
        """After eating or drawing: the Ù check, then the lay-down step or the discard."""
        hand = state.hands[seat]
        if not state.laid[seat] and len(hand) == HAND_SIZE + 1:
            arrangement = most_melded(hand, _pending_eaten(state, seat))
            if arrangement is not None and len(arrangement.melded) >= HAND_SIZE:
                return self._u(state, seat, arrangement, rules)
        if not state.laying:
            return evolve(state, phase="discard")
        layouts = self._layouts(state, seat)
        if any(a.melds for a in layouts):
            return evolve(state, phase="lay")
        return _mark_laid(evolve(state, phase="discard"), seat)

    def _discard(self, state: PhomState, seat: Seat, card: Card, rules: PhomRules) -> PhomState:
        made = list(state.discards_made)
        made[seat] += 1
        state = evolve(
            state,
            hands=put(state.hands, seat, _without(state.hands[seat], card)),
            rows=put(state.rows, seat, (*state.rows[seat], card)),
            discards_made=tuple(made),
            pending=card,
            pending_seat=seat,
            pending_chot=state.laying,
            first_turn=False,
        )
        return self._next_turn(state, seat, rules)

    def _next_turn(self, state: PhomState, after: Seat, rules: PhomRules) -> PhomState:
        """Pass the turn to the next player who has not finished, or end the game."""
        active = [s for s in state.order if not state.removed[s]]
        if len(active) < 2:
            return self._end(state, rules)
        start = state.order.index(after)
        size = len(state.order)
        following = [state.order[(start + k) % size] for k in range(1, size + 1)]
        nxt = next(
            (
                s
                for s in following
                if not state.removed[s] and _row_count(state, s, rules) < ROW_FULL
            ),
            None,
        )
        if nxt is None:
            return self._end(state, rules)
        if nxt == state.pending_seat:
            state = _clear_pending(state, eaten=False)
        state = evolve(
            state,
            current=nxt,
            phase="draw",
            laying=_row_count(state, nxt, rules) == ROW_FULL - 1,
        )
        if not state.stock and (
            state.pending is None or self._eat_problem(state, nxt, state.pending) is not None
        ):
            return self._end(state, rules)  # cannot happen with 2-4 players; kept as a guard
        return state

    def _leave(self, state: PhomState, seat: Seat, rules: PhomRules) -> PhomState:
        stake = state.config.stake
        others = [s for s in state.order if not state.removed[s] and s != seat]
        charge = tuple(
            Debt(seat, o, DISCONNECT * stake, "roi_ban", text("left_table")) for o in others
        )
        removed = list(state.removed)
        removed[seat] = True
        state = evolve(state, removed=tuple(removed), charges=(*state.charges, charge))
        if state.pending_seat == seat:
            state = _clear_pending(state, eaten=False)
        if len(others) < 2:
            return self._end(state, rules)
        if seat == state.current:
            state = _clear_pending(state, eaten=False)
            return self._next_turn(state, seat, rules)
        return state

    def _u(
        self, state: PhomState, seat: Seat, arrangement: Arrangement, rules: PhomRules
    ) -> PhomState:
        """Ù: the game ends at once; each other player pays, or the liable player pays all."""
        tron = not arrangement.deadwood
        kind = "u_tron" if tron else "u"
        multiple = U_TRON if tron else U_THUONG
        others = [s for s in state.order if not state.removed[s] and s != seat]
        liable = None
        chot = state.chot_eater
        if chot is not None and chot != seat and not state.removed[chot]:
            liable = chot
        elif rules.three_eaten:
            liable = next(
                (
                    s
                    for s in others
                    if state.streak_counts[s] >= 3 and state.streak_eaters[s] == seat
                ),
                None,
            )
        stake = state.config.stake
        charges: tuple[Charge, ...]
        if liable is not None:
            amount = multiple * stake * len(others)
            charges = ((Debt(liable, seat, amount, "u_den", text("den", kind)),),)
        else:
            charges = tuple((Debt(o, seat, multiple * stake, kind),) for o in others)
        return evolve(
            state,
            phase="over",
            outcome=kind,
            winner=seat,
            liable=liable,
            u_melds=arrangement.melds,
            charges=state.charges + charges,
            current=None,
        )

    def _instant(self, state: PhomState, seat: Seat, kind: str, multiple: int) -> PhomState:
        """Ù khan or Ù K at the deal: each other player pays ``multiple`` × L."""
        stake = state.config.stake
        charges = tuple((Debt(o, seat, multiple * stake, kind),) for o in state.order if o != seat)
        return evolve(
            state,
            phase="over",
            outcome=kind,
            winner=seat,
            charges=state.charges + charges,
            current=None,
        )

    def _end(self, state: PhomState, rules: PhomRules) -> PhomState:
        """The end ranking (§9.7) and its payments to the first."""
        active = [s for s in state.order if not state.removed[s]]

        def key(seat: Seat) -> tuple[int, int, tuple[int, int]]:
            hand = state.hands[seat]
            mom = 0 if state.melds[seat] else 1
            points = sum(card_points(c) for c in hand)
            if rules.card_strength_tie:
                tie = max((meld_key(c) for c in hand), default=(0, 0))
            else:
                tie = (state.laid[seat] or 99, 0)
            return mom, points, tie

        ranking = tuple(sorted(active, key=key))
        stake = state.config.stake
        charges: list[Charge] = []
        if ranking:
            first = ranking[0]
            table = PLACE_TABLE[len(ranking)]
            for place, seat in enumerate(ranking[1:], start=1):
                mom = not state.melds[seat]
                multiple = MOM if mom else table[place]
                item = "mom" if mom else f"place_{place + 1}"
                charges.append((Debt(seat, first, multiple * stake, item),))
        return evolve(
            state,
            phase="over",
            outcome="end",
            winner=ranking[0] if ranking else None,
            ranking=ranking,
            charges=state.charges + tuple(charges),
            current=None,
            pending=None,
            pending_seat=None,
        )

    # ----- views and results ------------------------------------------------------------
    def observe(self, state: PhomState, viewer: Seat | None) -> PhomView:
        """The viewer's hand, everyone's public cards (rows, eaten cards, melds)."""
        over = state.phase == "over"
        hands = tuple(
            sort_cards(hand)
            if seat == viewer or (over and not state.removed[seat])
            else (None,) * len(hand)
            for seat, hand in enumerate(state.hands)
        )
        my_points = None
        if viewer is not None and state.hands and state.hands[viewer]:
            my_points = deadwood_points(state.hands[viewer], _pending_eaten(state, viewer))
        points = tuple(
            sum(card_points(c) for c in state.hands[s]) if over and s in state.ranking else None
            for s in range(state.config.seats)
        )
        return PhomView(
            **self.view_base(state, viewer),
            phase=state.phase,
            order=state.order,
            current=state.current,
            hands=hands,
            rows=state.rows,
            eaten=state.eaten,
            melds=state.melds,
            stock_count=len(state.stock),
            pending=state.pending,
            pending_seat=state.pending_seat,
            laid=state.laid,
            removed=state.removed,
            my_points=my_points,
            paid=_purse(state).settlement().deltas,
            points=points,
            outcome=state.outcome,
            winner=state.winner,
            liable=state.liable,
            ranking=state.ranking,
            u_melds=state.u_melds,
            timers=phom_timers(state.config),
        )

    def settle(self, state: PhomState) -> Settlement:
        """Every charge in order, each capped at its payer's balance then (§2.6).

        :raises ValueError: if the game is not over.
        """
        if state.phase != "over":
            raise ValueError("the game is not over")
        detail: tuple[tuple[str, Any], ...] = (
            ("outcome", state.outcome),
            ("winner", state.winner),
            ("liable", state.liable),
            ("ranking", state.ranking),
        )
        return _purse(state).settlement(detail)

    def leave_cost(self, state: PhomState, seat: Seat) -> Chips | None:
        """What leaving now costs ``seat``: 5 L to each other player still in (and whatever
        ending the game then adds), capped at its balance as the charges stand (RULES.md §9,
        §2.6); 0 when it is not in the game."""
        leave = Leave(seat)
        if not self.is_legal(state, leave):
            return 0
        after = self.apply(state, leave)
        return _purse(state).balances[seat] - _purse(after).balances[seat]

    def carry(self, state: PhomState) -> dict[str, Any] | None:
        """The next game's first player: ``{"winner": seat}`` (the Ù player or the first)."""
        if state.winner is None:
            return state.config.carry if isinstance(state.config.carry, dict) else None
        return {"winner": state.winner}

    def remap_carry(self, carry: Any, seats: Mapping[int, int | None]) -> Any:
        """The carried winner in the next lineup: the same player's new seat; a winner who
        is not in the next game leaves no winner (``{"winner": None}``), so the game starts
        as a first game (``phom.random_first`` or the host, §9)."""
        if not isinstance(carry, dict) or carry.get("winner") is None:
            return carry
        return {**carry, "winner": remap_seat(carry["winner"], seats)}

    def default_action(self, state: PhomState, seat: Seat | None, reason: Reason) -> Action | None:
        """Disconnect/leave: :class:`Leave`. Timeout: draw; lay down the fewest points; discard
        the highest trash card (RULES.md §2.7)."""
        if seat is None or seat not in state.order or state.removed[seat]:
            return None
        if state.phase not in ("draw", "lay", "discard"):
            return None
        if reason in ("disconnect", "leave"):
            return Leave(seat)
        if seat != state.current:
            return None
        legal = self.legal_actions(state)
        if state.phase == "draw":
            return next((a for a in legal if isinstance(a, Draw)), legal[0] if legal else None)
        if state.phase == "lay":
            layouts = self._layouts(state, seat)
            best = min(layouts, key=lambda a: (a.points, -len(a.melded)))
            return LayDown.of(seat, best.melds)
        return _best_discard(state, seat, legal)

    def render_text(self, view: View) -> str:
        """The table in text: rows, eaten cards, melds, the viewer's hand, the result."""
        assert isinstance(view, PhomView)
        stake_line = f"Phỏm · nọc {view.stock_count} lá · lượt {view.timers['turn_s']} s"
        lines = [stake_line]
        for seat in view.order:
            tags = []
            if seat == view.current:
                tags.append("đến lượt")
            if seat == view.viewer:
                tags.append("bạn")
            if view.removed[seat]:
                tags.append("đã rời")
            who = f"p{seat + 1}" + (f" ({', '.join(tags)})" if tags else "")
            hand = view.hands[seat]
            shown = " ".join("??" if c is None else c.pretty for c in hand)
            lines.append(f"  {who}: {shown}")
            if view.rows[seat]:
                lines.append("     đánh: " + " ".join(c.pretty for c in view.rows[seat]))
            if view.eaten[seat]:
                lines.append("     ăn:   " + " ".join(c.pretty for c in view.eaten[seat]))
            if view.melds[seat]:
                melds = "  ".join(
                    f"[{i}] " + " ".join(c.pretty for c in m)
                    for i, m in enumerate(view.melds[seat])
                )
                lines.append(f"     phỏm: {melds}")
            if view.paid[seat]:
                lines.append(f"     tiền: {format_gold(view.paid[seat])}")
        if view.pending is not None and view.pending_seat is not None:
            lines.append(f"Bài vừa đánh: {view.pending.pretty} (p{view.pending_seat + 1})")
        if view.my_points is not None and not view.terminal:
            lines.append(f"Điểm rác ít nhất của bạn: {view.my_points}")
        if view.terminal:
            names = {
                "u": "Ù",
                "u_tron": "Ù tròn",
                "u_khan": "Ù khan",
                "u_k": "Ù K",
                "end": "Hết ván",
                "cancelled": "Huỷ ván",
            }
            lines.append(names.get(view.outcome, view.outcome))
            if view.winner is not None:
                lines.append(f"Nhất: p{view.winner + 1}")
            if view.liable is not None:
                lines.append(f"Đền: p{view.liable + 1}")
            for place, seat in enumerate(view.ranking, start=1):
                mom = " (móm)" if not view.melds[seat] else ""
                lines.append(f"  {place}. p{seat + 1}: {view.points[seat]} điểm{mom}")
        return "\n".join(lines)


# ----- helpers ------------------------------------------------------------------------------
def _read_carry(config: TableConfig) -> Seat | None:
    carry = config.carry
    if carry is None:
        return None
    if not isinstance(carry, dict):
        raise ConfigError(text=text("carry_invalid", "carry", clean(repr(carry))))
    winner = carry.get("winner")
    if winner is None:
        return None
    if not isinstance(winner, int) or isinstance(winner, bool) or not 0 <= winner < config.seats:
        raise ConfigError(text=text("carry_invalid", "winner", clean(repr(winner))))
    return winner


def _seat_order(state: PhomState, playing: list[Seat], first: Seat, rules: PhomRules) -> PhomState:
    """Turn order from ``first`` (or the next playing seat after it)."""
    n = state.config.seats
    step = -1 if rules.clockwise else 1
    around = [(first + step * k) % n for k in range(n)]
    order = tuple(s for s in around if s in playing)
    return evolve(state, order=order, phase="deal", candidates=())


def _with(
    hands: tuple[tuple[Card, ...], ...], seat: Seat, card: Card
) -> tuple[tuple[Card, ...], ...]:
    return put(hands, seat, sort_cards((*hands[seat], card)))


def _without(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    return tuple(c for c in cards if c != card)


def _pending_eaten(state: PhomState, seat: Seat) -> tuple[Card, ...]:
    """The seat's eaten cards still in hand (they must end in a laid meld)."""
    hand = set(state.hands[seat])
    return tuple(c for c in state.eaten[seat] if c in hand)


def _row_count(state: PhomState, seat: Seat, rules: PhomRules) -> int:
    return len(state.rows[seat]) if rules.tai else state.discards_made[seat]


def _clear_pending(state: PhomState, *, eaten: bool) -> PhomState:
    """The pending discard is gone (drawn past or no longer eatable); a run of eaten discards
    by its owner ends."""
    seat = state.pending_seat
    if seat is None:
        return state
    streaks = state.streak_counts
    if not eaten:
        streaks = put(streaks, seat, 0)
    return evolve(state, pending=None, pending_seat=None, pending_chot=False, streak_counts=streaks)


def _mark_laid(state: PhomState, seat: Seat) -> PhomState:
    if state.laid[seat]:
        return state
    return evolve(state, laid=put(state.laid, seat, max(state.laid) + 1))


def _canonical(melds: tuple[tuple[Card, ...], ...]) -> frozenset[frozenset[Card]]:
    return frozenset(frozenset(m) for m in melds)


def _phase_hint(state: PhomState) -> str:
    return {
        "draw": "eat_or_draw_first",
        "lay": "lay_down_first",
        "discard": "send_or_discard",
    }.get(state.phase, "not_now")


def _is_u_khan(hand: tuple[Card, ...]) -> bool:
    """No two cards of a rank, no two cards of a suit within 2 ranks (§16A)."""
    ranks = [phom_rank(c) for c in hand]
    if len(set(ranks)) != len(ranks):
        return False
    for a in hand:
        for b in hand:
            if a != b and a.suit == b.suit and abs(phom_rank(a) - phom_rank(b)) <= 2:
                return False
    return True


def _purse(state: PhomState) -> Purse:
    purse = Purse(state.config.stacks)
    for charge in state.charges:
        purse.pay(charge)
    return purse


def _best_discard(state: PhomState, seat: Seat, legal: tuple[Action, ...]) -> Action | None:
    """The highest-point card whose discard keeps the fewest deadwood points."""
    discards = [a for a in legal if isinstance(a, Discard)]
    if not discards:
        return None
    pending = _pending_eaten(state, seat)
    hand = state.hands[seat]

    def value(action: Discard) -> tuple[int, int, tuple[int, int]]:
        rest = tuple(c for c in hand if c != action.card)
        left = deadwood_points(rest, pending)
        return (
            left if left is not None else 1 << 20,
            -card_points(action.card),
            meld_key(action.card),
        )

    return min(discards, key=value)


GAMES = (Phom(),)
