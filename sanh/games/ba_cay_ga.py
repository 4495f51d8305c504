"""3 Cây Gà (*nhất ăn tất*, "winner takes all") with the chicken pot (*gà*).

Rules source: RULES.md §10 (with §2.6, §15 A-GA1..A-GA4, §16B), seed 001 "3 CÂY GÀ".

One :class:`GaState` is one round. The gà pot lives across rounds: :meth:`BaCayGa.carry`
returns ``{"pot": amount, "members": seats}`` for the next round's ``TableConfig.carry``
(``None`` or a pot of 0 starts a new gà). The pot's money is held by the table, booked as the
settlement's ``house`` (contributions in, the pot out when someone takes it).

Flow of a round:

1. **Collection round** (a new gà is collected: no live pot, or
   ``bacayga.recollect_each_round``): every seat that can pay the gà plus the stake (2 L by
   default) decides :class:`Ready` (pays the gà, stakes L) or :class:`SitOut`. Once every seat
   has decided, the host presses :class:`Start`; the host may also start earlier once at least
   two players are ready (undecided seats then sit out), and the table's :class:`TimeUp` does
   the same. Fewer than two ready players cancel the round (nothing is paid).
   **Carried round** (the pot was not taken): no Ready or Start; the gà's members who can pay the
   stake are dealt in at once, newcomers wait for a new gà (``bacayga.late_join = wait``) or pay
   L into the pot to join (``pay_in``). If only one member can pay, that member takes the pot
   ("Khi chỉ còn một người đủ tiền góp gà thì người đó sẽ được ăn Gà").
2. A shuffle of the 36-card deck deals three cards to each player, one at a time, starting with
   the lowest seat.
3. Squeeze/flip window (:mod:`sanh.games._three_cards`).
4. The best hand (score, then top card) wins every other player's stake. If it scores 10 it also
   takes the whole gà pot, and the next round collects a new gà; otherwise the pot carries over.

Glossary: *gà* ga pot · *góp gà* contribute (:class:`Ready`) · *ăn gà* take the pot ·
*Sẵn sàng* :class:`Ready` · *Bắt đầu* :class:`Start` · *nặn* :class:`Squeeze` · *lật*
:class:`Flip` · *chủ phòng* host.

Choices where the rules are silent (documented [DEF]s of RULES.md, and ours):

* A player who leaves or disconnects after the deal loses the stake to the round's winner and
  the gà stays in the pot (§10.6); they are no longer a member of the gà. Leaving before the deal
  costs nothing (§2.8).
* If every dealt player leaves, nobody wins the stakes: they go into the gà pot.
* In a carried round no member can pay: the round is cancelled and the pot waits. A live pot with
  no members left at all starts a collection round (anyone may join by paying the gà).
* Members who could not pay a carried round's stake stay members (they sat that round out).
* If the host leaves before the deal, nobody is waited for: once everyone has decided and two
  players are ready, the cards are dealt.

The largest loss (:meth:`BaCayGa.max_loss`): a seat pays at most one gà contribution (as a
contributor of a collection round, or a ``pay_in`` joiner) and one round stake, so ``(gà
multiple + stake multiple)`` × L, 2 L by default, reached by a contributor who loses. The gà
it paid into earlier rounds was paid then. That is also the balance a seat needs to be dealt
in (a member of a carried gà needs only the stake).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from sanh.cards.card import Card
from sanh.cards.deck import DECK_36
from sanh.errors import ConfigError, IllegalActionError
from sanh.eval.points import ba_cay_score
from sanh.games._debts import Debt, Purse
from sanh.games._three_cards import (
    HAND_SIZE,
    SQUEEZE_CLOCK,
    Flip,
    Leave,
    Ready,
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
    Chance,
    ChanceSpec,
    Event,
    Game,
    GameInfo,
    Reason,
    Rules,
    Settlement,
    Shuffle,
    TableConfig,
    View,
    option,
    remap_seat,
)
from sanh.games.hosting import Hosting
from sanh.texts import clean, text
from sanh.types import Chips, Seat, format_gold

__all__ = ["GAMES", "BaCayGa", "GaState", "GaView", "ga_timers"]


@dataclass(frozen=True, slots=True)
class GaRules(Rules):
    """The table's rule options, each declared once (RULES.md §10, §15 A-GA1..4;
    ``BaCayGa().rules(config)``)."""

    ga_multiple: int = option("bacayga.ga_multiple", 1, help="the gà contribution, × L (A-GA1)")
    stake_multiple: int = option("bacayga.stake_multiple", 1, help="the round stake, × L (A-GA2)")
    recollect_each_round: bool = option(
        "bacayga.recollect_each_round",
        False,
        help="collect a new gà every round even while the pot is unclaimed (A-GA3)",
    )
    late_join: str = option(
        "bacayga.late_join",
        "wait",
        ("wait", "pay_in"),
        help="newcomers wait for a new gà, or pay L into the live gà to join (A-GA4)",
    )
    quick_mode: bool = quick_mode_field()

    def check(self) -> None:
        """The stake and the gà are at least 1 L."""
        for name, value in (
            ("bacayga.stake_multiple", self.stake_multiple),
            ("bacayga.ga_multiple", self.ga_multiple),
        ):
            if value < 1:
                raise ConfigError(text=text("option_at_least", name, 1))


OPTIONS = GaRules.specs()
"""The options as the hall lists them (``BaCayGa.info.options``)."""

UNDECIDED = ""
READY = "ready"
SAT_OUT = "sitout"
LEFT = "left"
NOT_ELIGIBLE = "out"


@dataclass(frozen=True, slots=True, kw_only=True)
class GaState:
    """One round of 3 Cây Gà."""

    config: TableConfig
    version: int = 0
    history: tuple[Event, ...] = ()
    phase: str = "ready"
    """``ready`` (Ready/SitOut), ``start`` (waiting for the host), ``deal``, ``squeeze``,
    ``over``."""
    pot: Chips = 0
    """The gà pot at the start of the round."""
    members: tuple[Seat, ...] = ()
    """The seats that paid into the live gà before this round."""
    collecting: bool = True
    """Whether this round collects a new gà."""
    decisions: tuple[str, ...] = ()
    """Per seat in a collection round: ``""`` undecided, ``ready``, ``sitout``, ``left``, or
    ``out`` (cannot pay)."""
    players: tuple[Seat, ...] = ()
    """The seats dealt in."""
    contributors: tuple[Seat, ...] = ()
    """The seats paying the gà this round."""
    cards: tuple[tuple[Card, ...], ...] = ()
    seen: tuple[int, ...] = ()
    """Per seat, a bitmask of the cards its owner has squeezed."""
    flipped: tuple[bool, ...] = ()
    left: tuple[bool, ...] = ()
    outcome: str = ""
    """Once over: ``showdown``, ``walkover`` (a lone payer takes the pot) or ``cancelled``."""
    walkover: Seat | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GaView(View):
    """What one seat (or a spectator) sees of a 3 Cây Gà round."""

    host: Seat
    phase: str
    stake: Chips
    ga: Chips
    """The gà contribution of this round (0 if none is collected)."""
    pot: Chips
    """The gà pot now, this round's contributions included."""
    members: tuple[Seat, ...]
    decisions: tuple[str, ...]
    players: tuple[Seat, ...]
    cards: tuple[tuple[Card | None, ...], ...]
    """Per seat: its cards as the viewer sees them (``None`` = face down)."""
    scores: tuple[int | None, ...]
    """Per seat: the score, once the viewer sees the whole hand."""
    flipped: tuple[bool, ...]
    left: tuple[bool, ...]
    winner: Seat | None
    ga_winner: Seat | None
    timers: dict[str, int]


def ga_timers(config: TableConfig) -> dict[str, int]:
    """The clock durations of a 3 Cây Gà table: ``{"squeeze_s": 15 or 7}``."""
    return timers(config)


class BaCayGa(Game[GaState]):
    """3 Cây Gà: 2-9 players, nhất ăn tất, with the gà pot carried across rounds."""

    info: ClassVar[GameInfo] = GameInfo(
        id="ba-cay-ga",
        name="Three Cards with the Chicken Pot",
        name_vi="3 Cây Gà",
        seats_min=2,
        seats_max=9,
        deck="36",
        banked=False,
        max_actions=160,
        rules_source="RULES.md §10, §2.6, §15 A-GA1..4; seed 001 '3 CÂY GÀ'",
        aliases=("ba cay ga", "3 cay ga", "nhat an tat", "3-cay-ga"),
        rules=GaRules,
        action_types=(Ready, SitOut, Start, Squeeze, Flip, Leave, TimeUp),
        hosting=Hosting(clocks=(SQUEEZE_CLOCK,)),
    )

    # ----- amounts ----------------------------------------------------------------------
    def rules(self, config: TableConfig) -> GaRules:
        """The table's rule options (cached per option set)."""
        rules = super().rules(config)
        assert isinstance(rules, GaRules)
        return rules

    def amounts(self, config: TableConfig) -> tuple[Chips, Chips]:
        """The round stake and the gà contribution (minor units)."""
        rules = self.rules(config)
        return config.stake * rules.stake_multiple, config.stake * rules.ga_multiple

    def max_loss(self, config: TableConfig) -> Chips:
        """The most one seat can pay in a round: the gà and the stake (module docstring).

        >>> BaCayGa().max_loss(TableConfig.make(seats=4, stake=100))
        200
        """
        stake, ga = self.amounts(config)
        return stake + ga

    # ----- setup ------------------------------------------------------------------------
    def new_state(self, config: TableConfig) -> GaState:
        """A round; the carry decides whether a new gà is collected.

        :raises ConfigError: on a bad config or a malformed carry.
        """
        self.check_config(config)
        rules = self.rules(config)
        pot, members = _read_carry(config)
        stake, ga = self.amounts(config)
        n = config.seats
        empty = ((),) * n
        base = GaState(
            config=config,
            pot=pot,
            members=members,
            cards=empty,
            seen=(0,) * n,
            flipped=(False,) * n,
            left=(False,) * n,
        )
        collecting = pot == 0 or rules.recollect_each_round or not members
        if collecting:
            decisions = tuple(
                UNDECIDED if stack >= stake + ga else NOT_ELIGIBLE for stack in config.stacks
            )
            eligible = [s for s in range(n) if decisions[s] == UNDECIDED]
            state = dataclasses.replace(base, collecting=True, decisions=decisions)
            if len(eligible) == 1 and pot > 0:
                return dataclasses.replace(
                    state, phase="over", outcome="walkover", walkover=eligible[0]
                )
            if len(eligible) < 2:
                return dataclasses.replace(state, phase="over", outcome="cancelled")
            return state
        able = [m for m in members if config.stacks[m] >= stake]
        joiners: list[Seat] = []
        if rules.late_join == "pay_in":
            joiners = [s for s in range(n) if s not in members and config.stacks[s] >= stake + ga]
        state = dataclasses.replace(
            base, collecting=False, decisions=(NOT_ELIGIBLE,) * n, phase="deal"
        )
        if len(able) == 1:
            return dataclasses.replace(state, phase="over", outcome="walkover", walkover=able[0])
        if not able:
            return dataclasses.replace(state, phase="over", outcome="cancelled")
        return dataclasses.replace(
            state, players=tuple(sorted(able + joiners)), contributors=tuple(joiners)
        )

    # ----- turn -------------------------------------------------------------------------
    def to_act(self, state: GaState) -> tuple[Seat, ...] | Chance | None:
        """Undecided seats, the host, the chance player, or the players still face down."""
        match state.phase:
            case "ready":
                return tuple(s for s, d in enumerate(state.decisions) if d == UNDECIDED)
            case "start":
                return (state.config.host,)
            case "deal":
                return CHANCE
            case "squeeze":
                return _face_down(state)
        return None

    def chance_spec(self, state: GaState) -> ChanceSpec:
        """A shuffle of the 36-card deck."""
        return ChanceSpec("shuffle", deck=DECK_36)

    def legal_actions(self, state: GaState) -> tuple[Action, ...]:
        """Ready/SitOut, Start, Squeeze/Flip for the seats to act, and the table's TimeUp."""
        actions: list[Action] = []
        match state.phase:
            case "ready":
                for seat, decision in enumerate(state.decisions):
                    if decision == UNDECIDED:
                        actions += [Ready(seat), SitOut(seat)]
            case "start":
                actions.append(Start(state.config.host))
            case "squeeze":
                for seat in _face_down(state):
                    actions += [
                        Squeeze(seat, i) for i in range(HAND_SIZE) if not state.seen[seat] >> i & 1
                    ]
                    actions.append(Flip(seat))
            case _:
                return ()
        actions.append(TimeUp(None))
        return tuple(actions)

    def validate(self, state: GaState, event: Event) -> None:
        """As :meth:`Game.validate`, with a clear reason for a seat that cannot pay the gà."""
        if (
            isinstance(event, Ready | SitOut)
            and state.phase == "ready"
            and event.seat is not None
            and 0 <= event.seat < state.config.seats
            and state.decisions[event.seat] == NOT_ELIGIBLE
        ):
            stake, ga = self.amounts(state.config)
            raise IllegalActionError(
                event,
                text("cannot_pay_ga", stake + ga),
                state.version,
            )
        super().validate(state, event)

    def validate_action(self, state: GaState, action: Action) -> None:
        """Check one action against the rules; :raises IllegalActionError: with the reason."""
        seat = action.seat

        def fail(reason: str) -> None:
            raise IllegalActionError(action, reason, state.version)

        match action:
            case TimeUp():
                if seat is not None:
                    fail("clock_only")
                if state.phase not in ("ready", "start", "squeeze"):
                    fail("no_window")
            case Ready() | SitOut():
                if state.phase != "ready" or seat is None:
                    fail("not_deciding")
                elif state.decisions[seat] == NOT_ELIGIBLE:
                    stake, ga = self.amounts(state.config)
                    fail(text("cannot_pay_ga", stake + ga))
                elif state.decisions[seat] != UNDECIDED:
                    fail(text("already_decided", state.decisions[seat]))
            case Start():
                if seat != state.config.host:
                    fail("host_starts")
                elif state.phase not in ("ready", "start"):
                    fail("round_started")
                elif state.decisions.count(READY) < 2:
                    fail("two_ready")
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
                elif state.phase in ("ready", "start"):
                    if state.decisions[seat] not in (UNDECIDED, READY):
                        fail("not_in_round")
                elif state.phase == "squeeze":
                    if seat not in state.players or state.left[seat]:
                        fail("not_in_round")
                else:
                    fail("no_leaving_now")
            case _:
                fail("not_ga_action")

    def _check_face_down(self, state: GaState, action: Action) -> None:
        seat = action.seat
        if state.phase != "squeeze":
            raise IllegalActionError(action, "cards_not_out", state.version)
        if seat is None or seat not in state.players or state.left[seat]:
            raise IllegalActionError(action, "not_playing_round", state.version)
        if state.flipped[seat]:
            raise IllegalActionError(action, "already_face_up", state.version)

    # ----- transitions ------------------------------------------------------------------
    def transition(self, state: GaState, event: Event) -> GaState:
        """Apply a validated event."""
        match event:
            case Shuffle(order=order):
                return _deal(state, order)
            case Ready(seat=seat) if seat is not None:
                return _decided(_set_decision(state, seat, READY))
            case SitOut(seat=seat) if seat is not None:
                return _decided(_set_decision(state, seat, SAT_OUT))
            case Start() | TimeUp() if state.phase in ("ready", "start"):
                return _close_ready(state)
            case TimeUp():
                flipped = tuple(
                    flip or (s in state.players and not state.left[s])
                    for s, flip in enumerate(state.flipped)
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
                if state.phase in ("ready", "start"):
                    return _decided(_set_decision(state, seat, LEFT))
                left = list(state.left)
                left[seat] = True
                return _maybe_over(dataclasses.replace(state, left=tuple(left)))
        raise AssertionError(f"unhandled event {event}")

    # ----- views and results ------------------------------------------------------------
    def observe(self, state: GaState, viewer: Seat | None) -> GaView:
        """The viewer's own squeezed cards, everyone's flipped cards, the pot and the result."""
        stake, ga = self.amounts(state.config)
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
        winner, ga_winner = _result(state)
        return GaView(
            **self.view_base(state, viewer),
            host=state.config.host,
            phase=state.phase,
            stake=stake,
            ga=ga if state.collecting else 0,
            pot=_pot_now(state, ga),
            members=state.members,
            decisions=state.decisions,
            players=state.players,
            cards=cards,
            scores=scores,
            flipped=state.flipped,
            left=state.left,
            winner=winner,
            ga_winner=ga_winner,
            timers=ga_timers(state.config),
        )

    def settle(self, state: GaState) -> Settlement:
        """Stakes to the best hand; the gà in, and out to a 10-point winner.

        :raises ValueError: if the round is not over.
        """
        if state.phase != "over":
            raise ValueError("the round is not over")
        stake, ga = self.amounts(state.config)
        purse = Purse(state.config.stacks)
        winner, ga_winner = _result(state)
        if state.outcome == "walkover" and state.walkover is not None:
            purse.pay([Debt(None, state.walkover, state.pot, "ga_pot", text("walkover"))])
        elif state.outcome == "showdown":
            for seat in state.contributors:
                purse.pay([Debt(seat, None, ga, "ga", text("ga_in"))])
            for seat in state.players:
                if seat != winner:
                    purse.pay([Debt(seat, winner, stake, "stake", text("winner_takes_all"))])
            if ga_winner is not None:
                taken = state.pot + ga * len(state.contributors)
                purse.pay([Debt(None, ga_winner, taken, "ga_pot", text("ga_ten"))])
        detail: tuple[tuple[str, Any], ...] = (
            ("outcome", state.outcome),
            ("winner", winner),
            ("ga_winner", ga_winner),
            ("pot_after", self.carry(state)["pot"]),
        )
        return purse.settlement(detail)

    def carry(self, state: GaState) -> dict[str, Any]:
        """The gà pot and its members for the next round: ``{"pot": int, "members": tuple}``."""
        if state.outcome == "walkover":
            return {"pot": 0, "members": ()}
        if state.outcome != "showdown":
            return {"pot": state.pot, "members": state.members}
        stake, ga = self.amounts(state.config)
        winner, ga_winner = _result(state)
        if ga_winner is not None:
            return {"pot": 0, "members": ()}
        pot = _pot_now(state, ga) + (stake * len(state.players) if winner is None else 0)
        members = (set(state.members) | set(state.contributors)) - {
            s for s in state.players if state.left[s]
        }
        return {"pot": pot, "members": tuple(sorted(members))}

    def remap_carry(self, carry: Any, seats: Mapping[int, int | None]) -> Any:
        """The gà for the next lineup: its members at their new seats; the pot unchanged.

        A member who is not in the next round (left the table between rounds) is no longer a
        member, and the gà they paid stays in the pot: RULES.md §10.6 [S001] ("they lose the
        round stake L, and the gà they paid stays in the pot") says so of a player who leaves
        during a round; we read it the same for one who leaves between rounds (nobody is
        refunded a contribution, the pot is never split). The pot's money is the house's
        (booked as the settlement's ``house``) until someone takes it, so it is never lost:
        with no member left the next round collects a new gà around the live pot.
        """
        if not isinstance(carry, dict) or not isinstance(carry.get("members"), list | tuple):
            return carry
        moved = (remap_seat(m, seats) for m in carry["members"])
        return {**carry, "members": tuple(sorted({m for m in moved if m is not None}))}

    def default_action(self, state: GaState, seat: Seat | None, reason: Reason) -> Action | None:
        """Timeout: sit out / start / flip; disconnect or leave: :class:`Leave`."""
        if seat is None:
            return TimeUp(None) if state.phase in ("ready", "start", "squeeze") else None
        if reason in ("disconnect", "leave"):
            action: Action = Leave(seat)
        elif state.phase == "ready":
            action = SitOut(seat)
        elif state.phase == "start":
            action = Start(seat)
        else:
            action = Flip(seat)
        return action if self.is_legal(state, action) else None

    def render_text(self, view: View) -> str:
        """The table in text: pot, players, cards as the viewer sees them, the result."""
        assert isinstance(view, GaView)
        lines = [
            f"3 Cây Gà · cược {format_gold(view.stake)} · gà {format_gold(view.pot)}"
            + (f" (góp {format_gold(view.ga)})" if view.ga else " (gà cũ)")
            + f" · nặn/lật {view.timers['squeeze_s']} s",
        ]
        for seat, hand in enumerate(view.cards):
            tags = []
            if seat == view.host:
                tags.append("chủ phòng")
            if seat == view.viewer:
                tags.append("bạn")
            if view.left[seat]:
                tags.append("đã rời")
            status = view.decisions[seat] if view.phase in ("ready", "start") else ""
            who = f"p{seat + 1}" + (f" ({', '.join(tags)})" if tags else "")
            body = hand_text(hand) if hand else status or "-"
            lines.append(f"  {who}: {body}")
        if view.terminal:
            if view.winner is not None:
                lines.append(f"Nhất: p{view.winner + 1}")
            if view.ga_winner is not None:
                lines.append(f"Ăn gà: p{view.ga_winner + 1}")
        return "\n".join(lines)


def _read_carry(config: TableConfig) -> tuple[Chips, tuple[Seat, ...]]:
    carry = config.carry
    if carry is None:
        return 0, ()
    if not isinstance(carry, dict):
        raise ConfigError(text=text("carry_invalid", "carry", clean(repr(carry))))
    pot = carry.get("pot", 0)
    members = carry.get("members", ())
    if not isinstance(pot, int) or isinstance(pot, bool) or pot < 0:
        raise ConfigError(text=text("carry_invalid", "pot", clean(repr(pot))))
    if not isinstance(members, list | tuple) or not all(
        isinstance(m, int) and not isinstance(m, bool) and 0 <= m < config.seats for m in members
    ):
        raise ConfigError(text=text("carry_invalid", "members", clean(repr(members))))
    return pot, tuple(sorted(set(members)))


def _set_decision(state: GaState, seat: Seat, decision: str) -> GaState:
    decisions = list(state.decisions)
    decisions[seat] = decision
    return dataclasses.replace(state, decisions=tuple(decisions))


def _decided(state: GaState) -> GaState:
    """After a decision: wait for the host once all have decided (deal at once if the host has
    left), or cancel."""
    if UNDECIDED in state.decisions:
        return state
    if state.decisions.count(READY) >= 2:
        if state.decisions[state.config.host] == LEFT:
            return _close_ready(state)
        return dataclasses.replace(state, phase="start")
    return dataclasses.replace(state, phase="over", outcome="cancelled")


def _close_ready(state: GaState) -> GaState:
    decisions = tuple(SAT_OUT if d == UNDECIDED else d for d in state.decisions)
    ready = tuple(s for s, d in enumerate(decisions) if d == READY)
    if len(ready) < 2:
        return dataclasses.replace(state, decisions=decisions, phase="over", outcome="cancelled")
    return dataclasses.replace(
        state, decisions=decisions, players=ready, contributors=ready, phase="deal"
    )


def _deal(state: GaState, order: tuple[Card, ...]) -> GaState:
    hands: list[list[Card]] = [[] for _ in range(state.config.seats)]
    position = 0
    for _ in range(HAND_SIZE):
        for seat in state.players:
            hands[seat].append(order[position])
            position += 1
    return dataclasses.replace(state, cards=tuple(map(tuple, hands)), phase="squeeze")


def _face_down(state: GaState) -> tuple[Seat, ...]:
    return tuple(s for s in state.players if not state.left[s] and not state.flipped[s])


def _maybe_over(state: GaState) -> GaState:
    active = [s for s in state.players if not state.left[s]]
    if len(active) > 1 and not all(state.flipped[s] for s in active):
        return state
    flipped = tuple(f or s in active for s, f in enumerate(state.flipped))
    return dataclasses.replace(state, flipped=flipped, phase="over", outcome="showdown")


def _result(state: GaState) -> tuple[Seat | None, Seat | None]:
    """The round's winner and the gà winner (a 10-point winner), once over."""
    if state.outcome != "showdown":
        return None, None
    active = [s for s in state.players if not state.left[s]]
    winner = best_seat(state.cards, active)
    if winner is not None and ba_cay_score(state.cards[winner]) == 10:
        return winner, winner
    return winner, None


def _pot_now(state: GaState, ga: Chips) -> Chips:
    return state.pot + ga * len(state.contributors)


GAMES = (BaCayGa(),)
