"""Ba Cây Chương: the 3-card point game with a banker (*chương*).

Rules source: RULES.md §11 (with §10.1-10.3, §2.6, §15 A-CH1..A-CH4), seed 001 "Ba cây Chương".

One :class:`ChuongState` is one round. The banker carries across rounds through
:meth:`BaCayChuong.carry` (``{"banker": seat}``, or ``{"banker": None}`` when a new banker must
be drawn at random); without a carry the host (``config.host``) is the first banker.

Flow of a round:

1. **The bank.** Players need ``platform.min_balance_multiple`` × L (10 L) to play (§2.6). The
   banker must cover the minimum, ``bacaychuong.min_cover_multiple`` × L × the other players
   (2 L each). A banker who cannot (or no banker, after the banker left) is replaced by a random
   eligible player: the engine asks the chance player for a :class:`~sanh.games.base.Roll` of one
   die with as many sides as there are eligible players.
2. **Bets** (*Đặt cược*): each other player bets between L and ``bacaychuong.max_bet`` × L
   (10 L), or sits out. Bets are accepted only while the banker's balance stays at least
   ``min_cover_multiple`` × the sum of accepted bets; a bet beyond that is refused. The cards are
   dealt once everyone has bet or sat out, when the banker presses :class:`Start` (once a bet is
   in), or when the betting window closes (:class:`TimeUp` after ``bacaychuong.betting_s``,
   15 s, on the server's clock; players with no bet sit out).
3. A shuffle of the 36-card deck deals three cards each, banker first, then by seat.
4. Squeeze/flip window (:mod:`sanh.games._three_cards`).
5. Each player against the banker: the better hand (score, then top card; never a tie) wins the
   bet. A non-banker winning with 10 points is paid 2 × the bet (A-CH1); the banker's 10 does
   not double (A-CH2, option). The best 10-point hand of the round (banker included) takes the
   bank for the next round (*cướp chương*), if it can cover the minimum; otherwise the bank stays.

Glossary: *chương* banker · *cầm chương* hold the bank · *cướp chương* take the bank ·
*Đặt cược* :class:`Bet` · *Sẵn sàng*/*Bắt đầu* :class:`Start` · *nặn* :class:`Squeeze` · *lật*
:class:`Flip`.

Choices where the rules are silent (ours, beyond RULES.md's [DEF]s):

* The host, when unable to cover the minimum in the first round, is replaced at random like a
  banker who fell short between rounds.
* A player who leaves before the deal simply sits out; the banker leaving before the deal
  cancels the round (§2.8) and the next banker is drawn at random.
* If both a player and the banker leave after the deal, whoever left first loses that bet.
* The banker's payouts are capped at the banker's balance, pro rata (§2.6); with the cover rule
  this only matters when options loosen it.

The largest loss (:meth:`BaCayChuong.max_loss`), with ``M = bacaychuong.max_bet`` × L and ``n``
seats: a player loses its bet, at most ``M``, or ``2 M`` with ``banker_ten_doubles``; the
banker pays every winner, at most the ``n − 1`` bets of ``M`` each, doubled for 10-point hands
(``ten_pays_double``): ``2 (n − 1) M`` by default, reached when every player bets ``M`` and
wins with 10 points. The bound is the larger, and at least the balances the game checks: the
cover for those bets, ``min_cover_multiple × (n − 1) M`` (it also covers the minimum to hold
the bank), and ``platform.min_balance_multiple`` × L; so a banker holding the bound accepts
every bet it would accept with any larger balance.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from sanh.cards.card import Card
from sanh.cards.deck import DECK_36
from sanh.errors import ConfigError, IllegalActionError
from sanh.eval.points import ba_cay_rank, ba_cay_score
from sanh.games._debts import Debt, Purse
from sanh.games._three_cards import (
    HAND_SIZE,
    SQUEEZE_CLOCK,
    Flip,
    Leave,
    SitOut,
    Squeeze,
    Start,
    TimeUp,
    best_seat,
    hand_text,
    quick_mode_field,
    timers,
    visible_cards,
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
    Roll,
    Rules,
    Settlement,
    Shuffle,
    TableConfig,
    View,
    option,
    remap_seat,
)
from sanh.games.hosting import Hosting, PhaseClock
from sanh.texts import clean, describe, text
from sanh.types import Chips, Seat, format_gold

__all__ = ["GAMES", "BaCayChuong", "Bet", "ChuongState", "ChuongView", "chuong_timers"]

BETTING_S = 15
"""The default of ``bacaychuong.betting_s`` [DEF] (RULES.md §2.5)."""


@dataclass(frozen=True, slots=True)
class ChuongRules(Rules):
    """The table's rule options, each declared once (RULES.md §11, §15 A-CH1..3;
    ``BaCayChuong().rules(config)``)."""

    max_bet: int = option("bacaychuong.max_bet", 10, help="the largest bet, × L (A-CH3)")
    min_cover_multiple: int = option(
        "bacaychuong.min_cover_multiple",
        2,
        help="the banker's balance must be this × L × the other players, and this × the bets",
    )
    ten_pays_double: bool = option(
        "bacaychuong.ten_pays_double", True, help="a player's winning 10 is paid 2× (A-CH1)"
    )
    banker_ten_doubles: bool = option(
        "bacaychuong.banker_ten_doubles", False, help="the banker's winning 10 takes 2× (A-CH2)"
    )
    min_balance_multiple: int = option(
        "platform.min_balance_multiple",
        10,
        help="the balance needed to play, × L (0: only the bet) (A-PL4)",
    )
    betting_s: int = option(
        "bacaychuong.betting_s", BETTING_S, help="§2.5: betting window, seconds (the server's)"
    )
    quick_mode: bool = quick_mode_field()

    def check(self) -> None:
        """The bet and the cover are at least 1 L; the balance multiple is not negative."""
        for name, value in (
            ("bacaychuong.max_bet", self.max_bet),
            ("bacaychuong.min_cover_multiple", self.min_cover_multiple),
        ):
            if value < 1:
                raise ConfigError(text=text("option_at_least", name, 1))
        if self.min_balance_multiple < 0:
            raise ConfigError(text=text("option_not_negative", "platform.min_balance_multiple"))


OPTIONS = ChuongRules.specs()
"""The options as the hall lists them (``BaCayChuong.info.options``)."""

UNDECIDED = ""
BET = "bet"
SAT_OUT = "sitout"
LEFT = "left"
NOT_PLAYING = "out"
BANKER = "banker"


@dataclass(frozen=True, slots=True)
class Bet(Action):
    """Đặt cược: bet ``amount`` (minor units) against the banker."""

    wire = "Bet"

    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ChuongState:
    """One round of Ba Cây Chương."""

    config: TableConfig
    version: int = 0
    history: tuple[Event, ...] = ()
    phase: str = "bet"
    """``pick`` (drawing a banker), ``bet``, ``deal``, ``squeeze``, ``over``."""
    banker: Seat | None = None
    candidates: tuple[Seat, ...] = ()
    """The players a random banker is drawn from (phase ``pick``)."""
    decisions: tuple[str, ...] = ()
    """Per seat: ``""`` undecided, ``bet``, ``sitout``, ``left``, ``banker``, ``out``."""
    bets: tuple[Chips, ...] = ()
    players: tuple[Seat, ...] = ()
    """The seats dealt in, banker first."""
    cards: tuple[tuple[Card, ...], ...] = ()
    seen: tuple[int, ...] = ()
    flipped: tuple[bool, ...] = ()
    left: tuple[int, ...] = ()
    """Per seat: 0, or the order in which it left after the deal (1 = first)."""
    outcome: str = ""
    """Once over: ``showdown`` or ``cancelled``."""
    reason: str = ""
    """Why a round was cancelled, a text code (:mod:`sanh.texts`): ``no_bets``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ChuongView(View):
    """What one seat (or a spectator) sees of a Ba Cây Chương round."""

    host: Seat
    banker: Seat | None
    phase: str
    stake: Chips
    decisions: tuple[str, ...]
    bets: tuple[Chips, ...]
    cover_left: Chips
    """How much more the banker can accept in bets."""
    players: tuple[Seat, ...]
    cards: tuple[tuple[Card | None, ...], ...]
    scores: tuple[int | None, ...]
    flipped: tuple[bool, ...]
    left: tuple[bool, ...]
    results: tuple[Chips, ...]
    """Once over: each seat's net result against the bank."""
    next_banker: Seat | None
    reason: str
    timers: dict[str, int]


def chuong_timers(config: TableConfig) -> dict[str, int]:
    """The clock durations of a Ba Cây Chương table (squeeze/flip, betting)."""
    return timers(
        config, betting_s=int(dict(config.options).get("bacaychuong.betting_s", BETTING_S))
    )


class BaCayChuong(Game[ChuongState]):
    """Ba Cây Chương: 2-9 players, each betting against the banker."""

    info: ClassVar[GameInfo] = GameInfo(
        id="ba-cay-chuong",
        name="Three Cards with a Banker",
        name_vi="Ba Cây Chương",
        seats_min=2,
        seats_max=9,
        deck="36",
        banked=False,
        max_actions=160,
        rules_source="RULES.md §11, §10.1-10.3, §2.6, §15 A-CH1..4; seed 001 'Ba cây Chương'",
        aliases=("3 cay chuong", "ba cay chuong", "3-cay-chuong", "ba cay"),
        rules=ChuongRules,
        action_types=(Bet, SitOut, Start, Squeeze, Flip, Leave, TimeUp),
        hosting=Hosting(clocks=(PhaseClock("bet", option="bacaychuong.betting_s"), SQUEEZE_CLOCK)),
    )

    # ----- setup ------------------------------------------------------------------------
    def rules(self, config: TableConfig) -> ChuongRules:
        """The table's rule options (cached per option set)."""
        rules = super().rules(config)
        assert isinstance(rules, ChuongRules)
        return rules

    def new_state(self, config: TableConfig) -> ChuongState:
        """A round: who plays, who banks (or a random draw), then the bets.

        :raises ConfigError: on a bad config, bad options or a malformed carry.
        """
        self.check_config(config)
        rules = self.rules(config)
        banker = _read_carry(config)
        n = config.seats
        minimum = max(config.stake, config.stake * rules.min_balance_multiple)
        decisions = tuple(UNDECIDED if s >= minimum else NOT_PLAYING for s in config.stacks)
        state = ChuongState(
            config=config,
            decisions=decisions,
            bets=(0,) * n,
            cards=((),) * n,
            seen=(0,) * n,
            flipped=(False,) * n,
            left=(0,) * n,
        )
        playing = [s for s in range(n) if decisions[s] == UNDECIDED]
        if len(playing) < 2:
            return _cancel(state, text("too_few_players"), banker)
        cover = self.min_cover(config, len(playing))
        eligible = tuple(s for s in playing if config.stacks[s] >= cover)
        if banker in eligible:
            return _with_banker(state, banker)
        if not eligible:
            return _cancel(state, text("no_cover", cover), banker)
        if len(eligible) == 1:
            return _with_banker(state, eligible[0])
        return dataclasses.replace(state, phase="pick", candidates=eligible)

    def max_loss(self, config: TableConfig) -> Chips:
        """The most one seat can pay in a round (module docstring, *The largest loss*).

        >>> BaCayChuong().max_loss(TableConfig.make(seats=4, stake=100))
        6000
        """
        rules = self.rules(config)
        top_bet = config.stake * rules.max_bet
        others = config.seats - 1
        player = top_bet * (2 if rules.banker_ten_doubles else 1)
        banker = others * top_bet * (2 if rules.ten_pays_double else 1)
        cover = rules.min_cover_multiple * others * top_bet
        balance = config.stake * max(1, rules.min_balance_multiple)
        return max(player, banker, cover, balance)

    def min_cover(self, config: TableConfig, players: int) -> Chips:
        """The least balance that may hold the bank with ``players`` players in all."""
        multiple = self.rules(config).min_cover_multiple
        return multiple * config.stake * (players - 1)

    def cover_left(self, state: ChuongState) -> Chips:
        """How much more in bets the banker can accept now."""
        if state.banker is None:
            return 0
        multiple = self.rules(state.config).min_cover_multiple
        return state.config.stacks[state.banker] // multiple - sum(state.bets)

    def bet_range(self, state: ChuongState, seat: Seat) -> tuple[Chips, Chips]:
        """The smallest and largest bet ``seat`` may place now (max < min: none)."""
        config = state.config
        top = config.stake * self.rules(config).max_bet
        return config.stake, min(top, config.stacks[seat], self.cover_left(state))

    # ----- turn -------------------------------------------------------------------------
    def to_act(self, state: ChuongState) -> tuple[Seat, ...] | Chance | None:
        """Bettors still deciding, the chance player, or players still face down."""
        match state.phase:
            case "pick" | "deal":
                return CHANCE
            case "bet":
                return tuple(s for s, d in enumerate(state.decisions) if d == UNDECIDED)
            case "squeeze":
                return _face_down(state)
        return None

    def chance_spec(self, state: ChuongState) -> ChanceSpec:
        """A die to draw the banker, or a shuffle of the 36-card deck."""
        if state.phase == "pick":
            return ChanceSpec("roll", dice=1, sides=len(state.candidates))
        return ChanceSpec("shuffle", deck=DECK_36)

    def legal_actions(self, state: ChuongState) -> tuple[Action, ...]:
        """Bets (at their minimum and maximum) or sitting out; squeeze/flip; TimeUp."""
        actions: list[Action] = []
        if state.phase == "bet":
            for seat, decision in enumerate(state.decisions):
                if decision != UNDECIDED:
                    continue
                low, high = self.bet_range(state, seat)
                if low <= high:
                    actions += [Bet(seat, low)] + ([Bet(seat, high)] if high > low else [])
                actions.append(SitOut(seat))
        elif state.phase == "squeeze":
            for seat in _face_down(state):
                actions += [
                    Squeeze(seat, i) for i in range(HAND_SIZE) if not state.seen[seat] >> i & 1
                ]
                actions.append(Flip(seat))
        else:
            return ()
        actions.append(TimeUp(None))
        return tuple(actions)

    def amount_ranges(self, state: ChuongState) -> tuple[AmountRange, ...]:
        """Each undecided bettor's bet range."""
        if state.phase != "bet":
            return ()
        ranges = []
        for seat, decision in enumerate(state.decisions):
            if decision == UNDECIDED:
                low, high = self.bet_range(state, seat)
                if low <= high:
                    ranges.append(AmountRange(Bet(seat, low), low, high))
        return tuple(ranges)

    def validate(self, state: ChuongState, event: Event) -> None:
        """As :meth:`Game.validate`, with clear reasons for the banker and non-players."""
        if (
            isinstance(event, Bet | SitOut)
            and state.phase == "bet"
            and event.seat is not None
            and 0 <= event.seat < state.config.seats
            and state.decisions[event.seat] in (BANKER, NOT_PLAYING)
        ):
            self._check_bettor(state, event)
        super().validate(state, event)

    def validate_action(self, state: ChuongState, action: Action) -> None:
        """Check one action against the rules; :raises IllegalActionError: with the reason."""
        seat = action.seat

        def fail(reason: str) -> None:
            raise IllegalActionError(action, reason, state.version)

        match action:
            case TimeUp():
                if seat is not None:
                    fail("clock_only")
                if state.phase not in ("bet", "squeeze"):
                    fail("no_window")
            case Bet(amount=amount) if seat is not None:
                self._check_bettor(state, action)
                low, high = self.bet_range(state, seat)
                top = state.config.stake * int(self.options(state.config)["bacaychuong.max_bet"])
                if amount < low:
                    fail(text("smallest_bet", low))
                elif amount > top:
                    fail(text("largest_bet", top))
                elif amount > state.config.stacks[seat]:
                    fail(text("balance_only", state.config.stacks[seat]))
                elif amount > high:
                    fail(text("banker_cannot_cover", max(0, high)))
            case SitOut():
                self._check_bettor(state, action)
            case Start():
                if state.phase != "bet":
                    fail("not_waiting_deal")
                elif seat != state.banker:
                    fail("banker_starts")
                elif BET not in state.decisions:
                    fail("no_bet_placed")
            case Squeeze(index=index):
                self._check_face_down(state, action)
                if seat is not None and not 0 <= index < HAND_SIZE:
                    fail(text("no_card_index", index, HAND_SIZE - 1))
                elif seat is not None and state.seen[seat] >> index & 1:
                    fail(text("already_squeezed", index))
            case Flip():
                self._check_face_down(state, action)
            case Leave():
                if seat is None:
                    fail("table_cannot_leave")
                elif state.phase == "bet":
                    if state.decisions[seat] not in (UNDECIDED, BET, BANKER):
                        fail("not_in_round")
                elif state.phase == "squeeze":
                    if seat not in state.players or state.left[seat]:
                        fail("not_in_round")
                else:
                    fail("no_leaving_now")
            case _:
                fail("not_chuong_action")

    def _check_bettor(self, state: ChuongState, action: Action) -> None:
        seat = action.seat
        if state.phase != "bet" or seat is None:
            raise IllegalActionError(action, "bets_closed", state.version)
        decision = state.decisions[seat]
        if decision == BANKER:
            raise IllegalActionError(action, "banker_no_bet", state.version)
        if decision == NOT_PLAYING:
            raise IllegalActionError(action, "cannot_play_round", state.version)
        if decision != UNDECIDED:
            raise IllegalActionError(action, text("already_decided", decision), state.version)

    def _check_face_down(self, state: ChuongState, action: Action) -> None:
        seat = action.seat
        if state.phase != "squeeze":
            raise IllegalActionError(action, "cards_not_out", state.version)
        if seat is None or seat not in state.players or state.left[seat]:
            raise IllegalActionError(action, "not_playing_round", state.version)
        if state.flipped[seat]:
            raise IllegalActionError(action, "already_face_up", state.version)

    # ----- transitions ------------------------------------------------------------------
    def transition(self, state: ChuongState, event: Event) -> ChuongState:
        """Apply a validated event."""
        match event:
            case Roll(dice=dice):
                return _with_banker(state, state.candidates[dice[0] - 1])
            case Shuffle(order=order):
                return _deal(state, order)
            case Bet(seat=seat, amount=amount) if seat is not None:
                bets = list(state.bets)
                bets[seat] = amount
                state = dataclasses.replace(state, bets=tuple(bets))
                return _decided(_set_decision(state, seat, BET))
            case SitOut(seat=seat) if seat is not None:
                return _decided(_set_decision(state, seat, SAT_OUT))
            case Start() | TimeUp() if state.phase == "bet":
                decisions = tuple(SAT_OUT if d == UNDECIDED else d for d in state.decisions)
                return _decided(dataclasses.replace(state, decisions=decisions))
            case TimeUp():
                flipped = tuple(
                    f or (s in state.players and not state.left[s])
                    for s, f in enumerate(state.flipped)
                )
                return dataclasses.replace(state, flipped=flipped, phase="over", outcome="showdown")
            case Squeeze(seat=seat, index=index) if seat is not None:
                seen = list(state.seen)
                seen[seat] |= 1 << index
                return dataclasses.replace(state, seen=tuple(seen))
            case Flip(seat=seat) if seat is not None:
                turned = list(state.flipped)
                turned[seat] = True
                return _maybe_over(dataclasses.replace(state, flipped=tuple(turned)))
            case Leave(seat=seat) if seat is not None:
                if state.phase == "bet":
                    if seat == state.banker:
                        return _cancel(state, text("banker_left"), None)
                    bets = list(state.bets)
                    bets[seat] = 0
                    state = dataclasses.replace(state, bets=tuple(bets))
                    return _decided(_set_decision(state, seat, LEFT))
                left = list(state.left)
                left[seat] = max(left) + 1
                return _maybe_over(dataclasses.replace(state, left=tuple(left)))
        raise AssertionError(f"unhandled event {event}")

    # ----- views and results ------------------------------------------------------------
    def observe(self, state: ChuongState, viewer: Seat | None) -> ChuongView:
        """The viewer's squeezed cards, everyone's flipped cards, the bets and the result."""
        cards = tuple(
            visible_cards(state.cards[s], state.seen[s], state.flipped[s], s, viewer)
            for s in range(state.config.seats)
        )
        scores = tuple(
            ba_cay_score([c for c in hand if c is not None])
            if hand and all(c is not None for c in hand)
            else None
            for hand in cards
        )
        over = state.phase == "over"
        return ChuongView(
            **self.view_base(state, viewer),
            host=state.config.host,
            banker=state.banker,
            phase=state.phase,
            stake=state.config.stake,
            decisions=state.decisions,
            bets=state.bets,
            cover_left=max(0, self.cover_left(state)) if state.phase == "bet" else 0,
            players=state.players,
            cards=cards,
            scores=scores,
            flipped=state.flipped,
            left=tuple(bool(order) for order in state.left),
            results=self.settle(state).deltas if over else (0,) * state.config.seats,
            next_banker=self.carry(state)["banker"] if over else None,
            reason=state.reason,
            timers=chuong_timers(state.config),
        )

    def _outcomes(self, state: ChuongState) -> list[tuple[Seat, int]]:
        """Per bettor: the signed multiple of its bet it wins from the banker."""
        rules = self.rules(state.config)
        banker = state.banker
        assert banker is not None
        out = []
        for seat in state.players:
            if seat == banker:
                continue
            score = ba_cay_score(state.cards[seat])
            player_double = 2 if score == 10 and rules.ten_pays_double else 1
            banker_ten = ba_cay_score(state.cards[banker]) == 10
            banker_double = 2 if banker_ten and rules.banker_ten_doubles else 1
            banker_gone, player_gone = state.left[banker], state.left[seat]
            if banker_gone and (not player_gone or banker_gone < player_gone):
                out.append((seat, player_double))
            elif player_gone:
                out.append((seat, -1))
            elif ba_cay_rank(state.cards[seat]) > ba_cay_rank(state.cards[banker]):
                out.append((seat, player_double))
            else:
                out.append((seat, -banker_double))
        return out

    def _purse(self, state: ChuongState) -> Purse:
        """Every bet paid: losers pay the banker first, then the banker pays the winners."""
        purse = Purse(state.config.stacks)
        banker = state.banker
        if state.phase != "over" or state.outcome != "showdown" or banker is None:
            return purse
        outcomes = self._outcomes(state)
        for seat, multiple in outcomes:
            if multiple < 0:
                amount = state.bets[seat] * -multiple
                purse.pay([Debt(seat, banker, amount, "bet", text("loses_to_banker"))])
        wins = [
            Debt(banker, seat, state.bets[seat] * multiple, "bet", text("beats_banker"))
            for seat, multiple in outcomes
            if multiple > 0
        ]
        purse.pay(wins)
        return purse

    def settle(self, state: ChuongState) -> Settlement:
        """Each bet against the banker (losers pay first, then the banker pays the winners).

        :raises ValueError: if the round is not over.
        """
        if state.phase != "over":
            raise ValueError("the round is not over")
        detail: tuple[tuple[str, Any], ...] = (
            ("outcome", state.outcome),
            ("banker", state.banker),
            ("next_banker", self.carry(state)["banker"]),
            ("reason", state.reason),
        )
        return self._purse(state).settlement(detail)

    def carry(self, state: ChuongState) -> dict[str, Any]:
        """The next round's banker: ``{"banker": seat}``, ``None`` for a random draw."""
        if state.outcome != "showdown":
            return {"banker": state.banker}
        banker = state.banker
        if banker is None or state.left[banker]:
            return {"banker": None}
        active = [s for s in state.players if not state.left[s]]
        best = best_seat(state.cards, active)
        if best is None or best == banker or ba_cay_score(state.cards[best]) != 10:
            return {"banker": banker}
        balance = self._purse(state).balances[best]
        players = sum(1 for d in state.decisions if d != NOT_PLAYING)
        if balance >= self.min_cover(state.config, players):
            return {"banker": best}
        return {"banker": banker}

    def remap_carry(self, carry: Any, seats: Mapping[int, int | None]) -> Any:
        """The carried banker in the next lineup: the same player's new seat; a banker who is
        not in the next round is replaced by a random draw (``{"banker": None}``), as when
        the banker leaves (RULES.md §4 leave table, §11)."""
        if not isinstance(carry, dict) or carry.get("banker") is None:
            return carry
        return {**carry, "banker": remap_seat(carry["banker"], seats)}

    def default_action(
        self, state: ChuongState, seat: Seat | None, reason: Reason
    ) -> Action | None:
        """Timeout: sit out / flip; disconnect or leave: :class:`Leave`."""
        if seat is None:
            return TimeUp(None) if state.phase in ("bet", "squeeze") else None
        if reason in ("disconnect", "leave"):
            action: Action = Leave(seat)
        elif state.phase == "bet":
            action = SitOut(seat)
        else:
            action = Flip(seat)
        return action if self.is_legal(state, action) else None

    def render_text(self, view: View) -> str:
        """The table in text: banker, bets, cards as the viewer sees them, results."""
        assert isinstance(view, ChuongView)
        banker = "-" if view.banker is None else f"p{view.banker + 1}"
        lines = [
            f"Ba Cây Chương · L {format_gold(view.stake)} · chương {banker}"
            + f" · nặn/lật {view.timers['squeeze_s']} s",
        ]
        if view.phase == "bet":
            lines.append(f"  chương nhận thêm tối đa {format_gold(view.cover_left)}")
        for seat, hand in enumerate(view.cards):
            tags = []
            if seat == view.banker:
                tags.append("chương")
            if seat == view.viewer:
                tags.append("bạn")
            if view.left[seat]:
                tags.append("đã rời")
            who = f"p{seat + 1}" + (f" ({', '.join(tags)})" if tags else "")
            bet = f" cược {format_gold(view.bets[seat])}" if view.bets[seat] else ""
            body = hand_text(hand) if hand else view.decisions[seat] or "đang chờ"
            result = f"  [{format_gold(view.results[seat])}]" if view.terminal else ""
            lines.append(f"  {who}{bet}: {body}{result}")
        if view.reason:
            lines.append(f"Huỷ ván: {describe(view.reason)}")
        if view.terminal and view.next_banker is not None:
            lines.append(f"Chương ván sau: p{view.next_banker + 1}")
        return "\n".join(lines)


def _read_carry(config: TableConfig) -> Seat | None:
    """The banker named by the carry (the host without one; ``None``: draw at random)."""
    carry = config.carry
    if carry is None:
        return config.host
    if not isinstance(carry, dict) or "banker" not in carry:
        raise ConfigError(text=text("carry_invalid", "carry", clean(repr(carry))))
    banker = carry["banker"]
    if banker is None:
        return None
    if not isinstance(banker, int) or isinstance(banker, bool) or not 0 <= banker < config.seats:
        raise ConfigError(text=text("carry_invalid", "banker", clean(repr(banker))))
    return banker


def _cancel(state: ChuongState, reason: str, banker: Seat | None) -> ChuongState:
    return dataclasses.replace(
        state, phase="over", outcome="cancelled", reason=reason, banker=banker
    )


def _with_banker(state: ChuongState, banker: Seat) -> ChuongState:
    decisions = list(state.decisions)
    decisions[banker] = BANKER
    return dataclasses.replace(
        state, banker=banker, decisions=tuple(decisions), phase="bet", candidates=()
    )


def _set_decision(state: ChuongState, seat: Seat, decision: str) -> ChuongState:
    decisions = list(state.decisions)
    decisions[seat] = decision
    return dataclasses.replace(state, decisions=tuple(decisions))


def _decided(state: ChuongState) -> ChuongState:
    """Deal once nobody is undecided (if anyone bet); otherwise cancel."""
    if UNDECIDED in state.decisions:
        return state
    if BET not in state.decisions:
        return _cancel(state, text("no_bets"), state.banker)
    assert state.banker is not None
    bettors = [s for s, d in enumerate(state.decisions) if d == BET]
    return dataclasses.replace(state, players=(state.banker, *bettors), phase="deal")


def _deal(state: ChuongState, order: tuple[Card, ...]) -> ChuongState:
    hands: list[list[Card]] = [[] for _ in range(state.config.seats)]
    position = 0
    for _ in range(HAND_SIZE):
        for seat in state.players:
            hands[seat].append(order[position])
            position += 1
    return dataclasses.replace(state, cards=tuple(map(tuple, hands)), phase="squeeze")


def _face_down(state: ChuongState) -> tuple[Seat, ...]:
    return tuple(s for s in state.players if not state.left[s] and not state.flipped[s])


def _maybe_over(state: ChuongState) -> ChuongState:
    banker = state.banker
    active = [s for s in state.players if not state.left[s]]
    done = all(state.flipped[s] for s in active)
    if not done and banker is not None and not state.left[banker] and len(active) > 1:
        return state
    flipped = tuple(f or s in active for s, f in enumerate(state.flipped))
    return dataclasses.replace(state, flipped=flipped, phase="over", outcome="showdown")


GAMES = (BaCayChuong(),)
