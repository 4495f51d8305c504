"""Texas Hold'em ("Poker") and Poker All-in or Fold (RULES.md §4, §2, §3.1; seeds 001, 003).

Rules source: ``shared/RULES.md`` §4 (Hold'em, §4.9 All-in or Fold), §2 (platform), §3.1
(hand ranking), §15 A-HE1..A-HE8; seed 001 section "poker" and seed 003.

Glossary (Vietnamese terms in the seeds and their names in code):

=========================  =========================================
*Bỏ* / *Úp bài*            :class:`Fold`
*Chuyển* / *Xem*           :class:`Check`
*Theo*                     :class:`Call`
Bet / *Tố* (raise)          :class:`RaiseTo` (a bet or raise *to* a street total)
*Tất tay* (All-in)          :class:`RaiseTo` at the maximum, :class:`AllIn` in All-in or Fold
*Tẩy*                       the table stake, ``config.stacks`` (see :func:`buyin_limits`)
*mức cược nhỏ*              the small blind, ``config.stake`` (L)
Dealer (D), SB, BB          ``button``, ``small_blind_seat``, ``big_blind_seat``
Pot, side pot (*Pot phụ*)   :mod:`sanh.games._betting`
*Sảnh rồng* ... *Mậu thầu*  :data:`sanh.games._holdem_eval.CATEGORY_NAMES`
=========================  =========================================

How a hand runs. ``new_state`` seats the hand: the players taking part are the seats with a
positive stake; the button is the host in a table's first hand (``config.carry`` is ``None``)
and afterwards the first taking-part seat at or after ``carry["button"]`` (which
:meth:`TexasHoldem.carry` sets to the seat after the last button), so the button moves
clockwise and skips empty seats as players come and go. Antes (option) and blinds are posted at
once. The chance player then supplies a :class:`~sanh.games.base.Shuffle` of the 52 cards:
hole cards go one at a time clockwise from the small blind, then the board comes off the next
five cards (no burn cards: with a fair shuffle they change nothing). Play moves to the next seat
number (seat + 1), which the client draws clockwise.

Resolved ambiguities and choices (the RULES.md flag is given where there is one):

* Minimum raise (A-HE2, ``holdem.min_raise``): ``small_blind`` (default, seed 001: every raise
  increment at least SB, an opening bet at least BB) or ``standard`` (the increment at least the
  largest bet or raise of the street and at least BB). A player may always go all-in for less.
* Maximum (§4.5, ``holdem.max_raise``): ``cover`` (default, seed 001: no more than the largest stake
  another player in the hand has) or ``stack`` (standard no-limit: the whole stake; anything no
  one can match is returned). PHH replays use ``standard`` + ``stack``.
* Re-opening after a short all-in: we follow pokerkit (the PHH reference implementation)
  exactly. A raise counts as *full* when its increment is at least the largest increment of the
  street so far (capped at SB under ``holdem.min_raise = small_blind``); a full raise re-opens the
  betting. A player who has already acted may not raise again when facing less than a full raise.
* Heads-up (A-HE6, ``holdem.headsup_dealer_is_sb``): the dealer posts SB and acts first preflop.
* Showdown: best five of seven, the board may play (A-HE4, ``holdem.require_hole_card``). Every
  remaining hand is shown, starting with the last player to bet or raise on the river, else the
  first player left of the button. Split pots: the odd units go to the first tied winner
  clockwise from the button (§4.7). Folded hands are never shown.
* Fold is allowed even when checking is free (leaving the table mid-hand is a fold, §4.8).
* Timeout and disconnection: check if free, otherwise fold (:meth:`TexasHoldem.default_action`).
* Antes (``holdem.ante``, in minor units; ``holdem.big_blind_ante``: one ante paid by the BB)
  are not in the seeds; they exist for PHH hand histories, which carry them. Like pokerkit
  (``ante trimming`` off), antes are dead money in the main pot.
* ``holdem.unknown_cards`` and ``holdem.mucked`` (comma-separated seat numbers, 1-based) exist
  only for replaying recorded hands (PHH ``????`` cards and ``sm`` without cards): the hole cards
  of an unknown seat are placeholders and are scored from the board alone, as pokerkit does; a
  mucked seat gives up its claim at showdown.
* Buy-in (§2.3, A-HE3, ``holdem.buyin_rule``): the server's job; :func:`buyin_limits` gives the
  range. The turn timer is :func:`turn_timer_s` (15 s, 7 s in ``table.quick_mode``).

Speed: the rules live in one mutable core, :class:`HandCore`. The public API (:meth:`apply`)
copies a frozen :class:`HoldemState` into a core, applies one validated action and freezes the
result. Simulations and bots may drive a :class:`HandCore` directly through
:func:`start_hand` (no validation, no history): that is the unchecked fast path of STYLE.md §3.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from itertools import combinations
from typing import Any, ClassVar, cast

from sanh.cards.card import Card
from sanh.cards.deck import DECK_52
from sanh.errors import ConfigError, IllegalActionError, NotYourTurnError
from sanh.eval.poker import evaluate5
from sanh.games._betting import award_pots, build_pots
from sanh.games._evolve import builder, replacer
from sanh.games._holdem_eval import CARD_VALUE, category, evaluate_cards, evaluate_key
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
)
from sanh.games.hosting import Hosting
from sanh.texts import clean, describe, join, text
from sanh.types import Chips, Seat, format_gold

__all__ = [
    "GAMES",
    "STREET_NAMES",
    "AllIn",
    "AllInOrFold",
    "Call",
    "Check",
    "Fold",
    "HandCore",
    "HoldemParams",
    "HoldemState",
    "HoldemView",
    "Leave",
    "RaiseTo",
    "TexasHoldem",
    "buyin_limits",
    "first_button",
    "start_hand",
    "turn_timer_s",
]

STREET_NAMES = ("preflop", "flop", "turn", "river")
"""Betting rounds by street number."""

_WAITING = -1
_OVER = 4
_BOARD_SIZES = (0, 3, 4, 5)


# ----- actions ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Fold(Action):
    """Give up the hand (*Bỏ*); chips already put in stay in the pots."""

    wire = "Fold"


@dataclass(frozen=True, slots=True)
class Leave(Action):
    """Leaving the table mid-hand (RULES.md §4.8): a fold at once, in turn or not (an
    ``anytime`` action, never listed); chips already put in stay in the pots."""

    wire = "Leave"

    anytime: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Check(Action):
    """Pass without betting (*Chuyển*, *Xem*); only when there is nothing to call."""

    wire = "Check"


@dataclass(frozen=True, slots=True)
class Call(Action):
    """Match the highest bet of the round (*Theo*), or go all-in for less."""

    wire = "Call"


@dataclass(frozen=True, slots=True)
class RaiseTo(Action):
    """Bet or raise (*Tố*) so that this seat's bet in the round totals ``amount``."""

    wire = "RaiseTo"

    amount: Chips = 0


@dataclass(frozen=True, slots=True)
class AllIn(Action):
    """All-in or Fold: commit the whole stake (a call when it does not cover the bet)."""

    wire = "AllIn"


# ----- parameters ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class HoldemParams:
    """The numbers and flags of one hand, resolved once from the table config."""

    small_blind: Chips
    big_blind: Chips
    min_bet: Chips
    """The smallest opening bet (and, in standard mode, raise increment): BB unless set."""
    ante: Chips
    big_blind_ante: bool
    standard: bool
    """``holdem.min_raise = standard`` (else the seed's small-blind increment)."""
    cover: bool
    """``holdem.max_raise = cover``: no more than the largest stake of another player."""
    aof: bool
    """All-in or Fold: preflop only, fold or all-in."""
    require_hole_card: bool
    headsup_dealer_is_sb: bool
    unknown: frozenset[Seat]
    mucked: frozenset[Seat]


def _seat_list(spec: str, seats: int, name: str) -> frozenset[Seat]:
    out = set()
    for part in spec.replace(" ", "").split(","):
        if not part:
            continue
        if not part.isdigit() or not 1 <= int(part) <= seats:
            raise ConfigError(text=text("option_not_seat", name, clean(repr(part)), seats))
        out.add(int(part) - 1)
    return frozenset(out)


@dataclass(frozen=True, slots=True)
class HoldemRules(Rules):
    """Texas Hold'em's rule options, each declared once (RULES.md §4, §15 A-HE*;
    ``TexasHoldem().rules(config)``). The numbers a hand runs on are :class:`HoldemParams`,
    derived from these and the stake (:meth:`TexasHoldem.params`)."""

    min_raise: str = option(
        "holdem.min_raise",
        "small_blind",
        ("small_blind", "standard"),
        "A-HE2: raise increment at least SB (seed 001), or standard no-limit",
    )
    max_raise: str = option(
        "holdem.max_raise",
        "cover",
        ("cover", "stack"),
        "§4.5: no more than the largest stake of another player, or the whole stake",
    )
    buyin_rule: str = option(
        "holdem.buyin_rule", "range", ("range", "seed_tay"), "A-HE1/A-HE3: 20-100 BB, or fixed 10 L"
    )
    buyin_min_bb: int = option("holdem.buyin_min_bb", 20, (), "A-HE3: minimum buy-in in big blinds")
    buyin_max_bb: int = option(
        "holdem.buyin_max_bb", 100, (), "A-HE3: maximum buy-in in big blinds"
    )
    buyin_auto_s: int = option(
        "holdem.buyin_auto_s", 5, (), "A-HE3: seconds before the maximum is transferred"
    )
    headsup_dealer_is_sb: bool = option(
        "holdem.headsup_dealer_is_sb", True, (), "A-HE6: heads-up, the dealer posts the small blind"
    )
    require_hole_card: bool = option(
        "holdem.require_hole_card", False, (), "A-HE4: the best hand must use a hole card"
    )
    big_blind: int = option("holdem.big_blind", 0, (), "the big blind in minor units; 0 means 2 L")
    min_bet: int = option(
        "holdem.min_bet", 0, (), "the smallest bet in minor units; 0 means the big blind"
    )
    ante: int = option("holdem.ante", 0, (), "ante in minor units (hand histories)")
    big_blind_ante: bool = option(
        "holdem.big_blind_ante", False, (), "the big blind pays one ante for the table"
    )
    unknown_cards: str = option(
        "holdem.unknown_cards",
        "",
        (),
        "replays: seats (1-based) whose hole cards are unknown",
        replay_only=True,
    )
    mucked: str = option(
        "holdem.mucked", "", (), "replays: seats (1-based) that muck at showdown", replay_only=True
    )
    quick_mode: bool = option("table.quick_mode", False, (), "quick mode: 7 s turn timer (A-PL5)")

    def check(self) -> None:
        """No amount is negative."""
        for name, value in (
            ("holdem.big_blind", self.big_blind),
            ("holdem.min_bet", self.min_bet),
            ("holdem.ante", self.ante),
        ):
            if value < 0:
                raise ConfigError(text=text("option_not_negative", name))


@dataclass(frozen=True, slots=True)
class AofRules(Rules):
    """All-in or Fold's rule options (RULES.md §4.9; ``AllInOrFold().rules(config)``). The
    Hold'em options it does not offer are fixed by the variant (read as properties)."""

    buyin: int = option("aof.buyin", 10, (), "§4.9: the fixed buy-in, in big blinds")
    headsup_dealer_is_sb: bool = option(
        "holdem.headsup_dealer_is_sb", True, (), "A-HE6: heads-up, the dealer posts the small blind"
    )
    require_hole_card: bool = option(
        "holdem.require_hole_card", False, (), "A-HE4: the best hand must use a hole card"
    )
    quick_mode: bool = option("table.quick_mode", False, (), "quick mode: 7 s turn timer (A-PL5)")

    def check(self) -> None:
        """The buy-in is at least one big blind."""
        if self.buyin < 1:
            raise ConfigError(text=text("option_at_least", "aof.buyin", 1))

    min_raise = property(lambda self: "standard", doc="Every bet is all-in: no raise rule.")
    max_raise = property(lambda self: "stack", doc="All in: the whole stake.")
    big_blind = property(lambda self: 0, doc="2 L.")
    min_bet = property(lambda self: 0, doc="The big blind.")
    ante = property(lambda self: 0, doc="No ante.")
    big_blind_ante = property(lambda self: False, doc="No ante.")
    unknown_cards = property(lambda self: "", doc="Never a replay of unknown cards.")
    mucked = property(lambda self: "", doc="Never a replay of mucked cards.")


HOLDEM_OPTIONS = HoldemRules.specs()
"""Texas Hold'em's options as the hall lists them."""
AOF_OPTIONS = AofRules.specs()
"""All-in or Fold's options as the hall lists them."""


def turn_timer_s(quick_mode: bool) -> int:
    """The turn timer (§2.5, §4.8): 15 s, or 7 s with ``table.quick_mode`` [DEF]. The server
    applies :meth:`TexasHoldem.default_action` when it runs out."""
    return 7 if quick_mode else 15


def buyin_limits(
    stake: Chips, options: dict[str, Any] | None = None, *, aof: bool = False
) -> tuple[Chips, Chips]:
    """The minimum and maximum buy-in (*Tẩy*) at a table with bet level ``stake`` (= SB).

    The server applies them (§2.3): below the minimum a player cannot sit; after
    ``buyin_auto_s`` seconds the maximum is transferred.

    >>> buyin_limits(100)
    (4000, 20000)
    >>> buyin_limits(100, {"holdem.buyin_rule": "seed_tay"})
    (1000, 1000)
    >>> buyin_limits(100, aof=True)
    (2000, 2000)
    """
    opts = options or {}
    big_blind = int(opts.get("holdem.big_blind", 0)) or 2 * stake
    if aof:
        fixed = int(opts.get("aof.buyin", 10)) * big_blind
        return fixed, fixed
    if opts.get("holdem.buyin_rule", "range") == "seed_tay":
        return 10 * stake, 10 * stake
    return int(opts.get("holdem.buyin_min_bb", 20)) * big_blind, int(
        opts.get("holdem.buyin_max_bb", 100)
    ) * (big_blind)


def first_button(config: TableConfig) -> Seat:
    """The button of the hand ``config`` describes (see the module docstring).

    :raises ConfigError: if fewer than two seats have chips.
    """
    stacks = config.stacks
    seats = config.seats
    playing = [seat for seat in range(seats) if stacks[seat] > 0]
    if len(playing) < 2:
        raise ConfigError(text=text("two_seats_with_chips"))
    start = config.host
    carry = config.carry
    if isinstance(carry, dict) and isinstance(carry.get("button"), int):
        start = carry["button"] % seats
    for step in range(seats):
        seat = (start + step) % seats
        if stacks[seat] > 0:
            return seat
    raise AssertionError("unreachable")


# ----- the mutable core ------------------------------------------------------------------
class HandCore:
    """The rules of one hand on mutable lists: the single implementation of Hold'em betting.

    Both paths use it: :meth:`TexasHoldem.apply` (validated, immutable states) and the unchecked
    fast path (:func:`start_hand`). Methods that act (:meth:`fold`, :meth:`check_or_call`,
    :meth:`raise_to`, :meth:`all_in`) act for :attr:`actor` and do **not** validate: ask
    :meth:`choices` or :meth:`raise_bounds` first, or use the public API.
    """

    __slots__ = (
        "acted",
        "aggressor",
        "antes",
        "bets",
        "board",
        "button",
        "cover",
        "deck",
        "hole",
        "live",
        "live_count",
        "max_bet",
        "min_bet",
        "n",
        "order",
        "params",
        "position",
        "pots",
        "queue",
        "raise_size",
        "reach_second",
        "reach_top",
        "reach_top_seat",
        "shorts_count",
        "shorts_sum",
        "small_blind",
        "stacks",
        "standard",
        "street",
        "totals",
        "won",
    )

    params: HoldemParams
    n: int
    button: Seat
    order: tuple[Seat, ...]
    """Seats taking part, clockwise from the seat after the button (PHH's p1..pN)."""
    position: list[int]
    """Each seat's index in :attr:`order` (-1 if not taking part)."""
    stacks: list[Chips]
    bets: list[Chips]
    totals: list[Chips]
    antes: list[Chips]
    live: list[bool]
    live_count: int
    deck: tuple[int, ...]
    hole: list[tuple[int, ...]]
    board: list[int]
    street: int
    queue: list[Seat]
    max_bet: Chips
    raise_size: Chips
    acted: int
    shorts_sum: Chips
    shorts_count: int
    aggressor: Seat
    won: list[Chips]
    pots: tuple[tuple[Chips, tuple[Seat, ...], tuple[Seat, ...]], ...]
    standard: bool
    cover: bool
    small_blind: Chips
    min_bet: Chips
    reach_top: Chips
    """The largest ``stack + bet`` of a live seat this street (constant while betting)."""
    reach_top_seat: Seat
    reach_second: Chips
    """The second largest ``stack + bet`` of a live seat this street."""

    # -- setting up ----------------------------------------------------------------------
    def clone(self) -> HandCore:
        """An independent copy (its lists copied; tuples and the params shared)."""
        core = HandCore.__new__(HandCore)
        core.params = self.params
        core.n = self.n
        core.button = self.button
        core.order = self.order
        core.position = self.position[:]
        core.stacks = self.stacks[:]
        core.bets = self.bets[:]
        core.totals = self.totals[:]
        core.antes = self.antes[:]
        core.live = self.live[:]
        core.live_count = self.live_count
        core.deck = self.deck
        core.hole = self.hole[:]
        core.board = self.board[:]
        core.street = self.street
        core.queue = self.queue[:]
        core.max_bet = self.max_bet
        core.raise_size = self.raise_size
        core.acted = self.acted
        core.shorts_sum = self.shorts_sum
        core.shorts_count = self.shorts_count
        core.standard = self.standard
        core.cover = self.cover
        core.small_blind = self.small_blind
        core.min_bet = self.min_bet
        core.reach_top = self.reach_top
        core.reach_top_seat = self.reach_top_seat
        core.reach_second = self.reach_second
        core.aggressor = self.aggressor
        core.won = self.won[:]
        core.pots = self.pots
        return core

    @classmethod
    def seat_hand(cls, params: HoldemParams, stacks: Sequence[Chips], button: Seat) -> HandCore:
        """A hand before the deal: antes and blinds posted, waiting for the shuffle."""
        core = cls()
        n = len(stacks)
        core.params = params
        core.standard = params.standard
        core.cover = params.cover
        core.small_blind = params.small_blind
        core.min_bet = params.min_bet
        core.n = n
        core.button = button
        order: list[Seat] = []
        position = [-1] * n
        live = [False] * n
        for step in range(1, n + 1):
            seat = (button + step) % n
            if stacks[seat] > 0:
                position[seat] = len(order)
                order.append(seat)
                live[seat] = True
        core.order = tuple(order)
        core.position = position
        core.live = live
        core.live_count = len(order)
        core.stacks = stacks = list(stacks)
        core.bets = bets = [0] * n
        core.totals = totals = [0] * n
        core.antes = antes = [0] * n
        core.deck = ()
        core.hole = [()] * n
        core.board = []
        core.street = _WAITING
        core.queue = []
        core.raise_size = 0
        core.acted = 0
        core.shorts_sum = 0
        core.shorts_count = 0
        core.aggressor = -1
        core.won = []
        core.pots = ()
        sb_seat, bb_seat = core.blind_seats()
        ante = params.ante
        if ante:
            for seat in [bb_seat] if params.big_blind_ante else order:
                amount = ante if ante < stacks[seat] else stacks[seat]
                antes[seat] = amount
                stacks[seat] -= amount
        for seat, blind in ((sb_seat, params.small_blind), (bb_seat, params.big_blind)):
            amount = blind if blind < stacks[seat] else stacks[seat]
            bets[seat] = amount
            totals[seat] = amount
            stacks[seat] -= amount
        core.max_bet = max(bets[sb_seat], bets[bb_seat])
        return core

    def blind_seats(self) -> tuple[Seat, Seat]:
        """The small-blind and big-blind seats (RULES.md §4.2, A-HE6)."""
        order = self.order
        if len(order) == 2 and self.params.headsup_dealer_is_sb:
            return order[1], order[0]
        return order[0], order[1]

    def deal(self, deck: Sequence[int]) -> None:
        """Apply the shuffle: deal hole cards from the small blind and start the preflop.

        Only the first ``2 * players + 5`` cards of ``deck`` are ever used.
        """
        self.deck = tuple(deck)
        order = self.order
        count = len(order)
        hole = self.hole
        start = self.position[self.blind_seats()[0]]
        for offset in range(count):
            hole[order[(start + offset) % count]] = (deck[offset], deck[offset + count])
        self.street = 0
        self._begin_street()

    # -- betting -------------------------------------------------------------------------
    def _begin_street(self) -> None:
        order = self.order
        count = len(order)
        bets = self.bets
        stacks = self.stacks
        live = self.live
        first = 0
        if self.street == 0:
            # pokerkit's opener: left of the largest blind (ties: the later position).
            sb_seat, bb_seat = self.blind_seats()
            best_key = (bets[sb_seat], self.position[sb_seat])
            bb_key = (bets[bb_seat], self.position[bb_seat])
            if bb_key > best_key:
                best_key = bb_key
            if best_key[0] == 0:
                best_key = (0, count - 1)
            first = (best_key[1] + 1) % count
        self._measure_reach()
        second = self.reach_second
        queue = []
        for step in range(count):
            seat = order[(first + step) % count]
            if live[seat] and stacks[seat] and second > bets[seat]:
                queue.append(seat)
        self.queue = queue
        self.raise_size = 0
        self.acted = 0
        self.shorts_sum = 0
        self.shorts_count = 0
        self.aggressor = -1
        if not queue or (len(queue) == 1 and bets[queue[0]] >= self.max_bet):
            self._end_street()

    def _measure_reach(self) -> None:
        # What each live seat could have in front of it this street: stack + bet. It only
        # changes between streets (uncalled bets) and when a seat folds.
        bets = self.bets
        stacks = self.stacks
        live = self.live
        top = second = -1
        top_seat = -1
        for seat in self.order:
            if live[seat]:
                reach = bets[seat] + stacks[seat]
                if reach > top:
                    top, second, top_seat = reach, top, seat
                elif reach > second:
                    second = reach
        self.reach_top = top
        self.reach_top_seat = top_seat
        self.reach_second = second

    @property
    def actor(self) -> Seat:
        """The seat to act, or -1 when nobody is (before the deal, or once the hand is over)."""
        return self.queue[0] if self.queue else -1

    def to_call(self, seat: Seat) -> Chips:
        """What ``seat`` must add to call (capped at its stack)."""
        owed = self.max_bet - self.bets[seat]
        stack = self.stacks[seat]
        return owed if owed < stack else stack

    def choices(self) -> tuple[Chips, Chips, Chips]:
        """For the actor: ``(to_call, min_raise_to, max_raise_to)``; the raise bounds are -1
        when it may not raise. One call for the fast path's decisions."""
        seat = self.queue[0]
        stack = self.stacks[seat]
        bet = self.bets[seat]
        max_bet = self.max_bet
        owed = max_bet - bet
        if stack <= owed:
            return stack, -1, -1
        raise_size = self.raise_size
        if owed < raise_size or (
            self.shorts_count and self.shorts_sum < raise_size and self.acted >> seat & 1
        ):
            return owed, -1, -1
        reach = self.reach_second if seat == self.reach_top_seat else self.reach_top
        if reach <= max_bet:
            return owed, -1, -1
        if self.standard:
            increment = raise_size if raise_size > self.min_bet else self.min_bet
        else:
            increment = self.small_blind if max_bet else self.min_bet
        high = stack + bet
        if self.cover and reach < high:
            high = reach
        low = max_bet + increment
        return owed, (low if low < high else high), high

    def raise_bounds(self, seat: Seat) -> tuple[Chips, Chips] | None:
        """The legal ``RaiseTo`` amounts of ``seat`` as ``(min, max)``, or ``None``."""
        stack = self.stacks[seat]
        bet = self.bets[seat]
        max_bet = self.max_bet
        owed = max_bet - bet
        raise_size = self.raise_size
        if (
            stack <= owed
            or owed < raise_size
            or (self.shorts_count and self.shorts_sum < raise_size and self.acted >> seat & 1)
        ):
            return None
        reach = self.reach_second if seat == self.reach_top_seat else self.reach_top
        if reach <= max_bet:
            return None
        if self.standard:
            increment = raise_size if raise_size > self.min_bet else self.min_bet
        else:
            increment = self.small_blind if max_bet else self.min_bet
        high = stack + bet
        if self.cover and reach < high:
            high = reach
        low = max_bet + increment
        return (low if low < high else high), high

    def raise_refusal(self, seat: Seat) -> str:
        """Why ``seat`` may not raise now, a text code (empty if it may)."""
        owed = self.max_bet - self.bets[seat]
        if self.stacks[seat] <= owed:
            return "stake_short"
        if self.raise_bounds(seat) is not None:
            return ""
        if owed < self.raise_size or self.acted >> seat & 1:
            return "short_all_in"
        return "no_caller"

    def fold(self) -> None:
        """The actor folds."""
        seat = self.queue.pop(0)
        self.acted |= 1 << seat
        self.live[seat] = False
        self.live_count -= 1
        if not self.queue or self.live_count <= 1:
            self._end_street()
        elif self.stacks[seat] + self.bets[seat] >= self.reach_second:
            self._measure_reach()  # the folder was one of the two largest reaches

    def remove(self, seat: Seat) -> None:
        """``seat`` folds now, whoever is to act (:class:`Leave`); its chips stay in the pots.

        The street ends when nobody is left to act, or when the one seat left to act owes
        nothing and has no one with chips to bet against.
        """
        if self.queue and self.queue[0] == seat:
            self.fold()
            return
        self.acted |= 1 << seat
        self.live[seat] = False
        self.live_count -= 1
        queue = self.queue
        if seat in queue:
            queue.remove(seat)
        if not queue or self.live_count <= 1:
            self._end_street()
            return
        self._measure_reach()
        actor = queue[0]
        stacks = self.stacks
        others = any(self.live[other] and stacks[other] for other in self.order if other != actor)
        if len(queue) == 1 and self.bets[actor] >= self.max_bet and not others:
            self._end_street()

    def check_or_call(self) -> None:
        """The actor checks or calls (all-in for less when short)."""
        seat = self.queue.pop(0)
        self.acted |= 1 << seat
        amount = self.max_bet - self.bets[seat]
        if amount:
            stacks = self.stacks
            if amount > stacks[seat]:
                amount = stacks[seat]
            self.bets[seat] += amount
            self.totals[seat] += amount
            stacks[seat] -= amount
        if not self.queue:
            self._end_street()

    def raise_to(self, amount: Chips) -> None:
        """The actor bets or raises to ``amount`` (unchecked: see :meth:`raise_bounds`)."""
        queue = self.queue
        seat = queue[0]
        bets = self.bets
        stacks = self.stacks
        increment = amount - self.max_bet
        delta = amount - bets[seat]
        bets[seat] = amount
        stacks[seat] -= delta
        self.totals[seat] += delta
        order = self.order
        count = len(order)
        start = self.position[seat]
        live = self.live
        queue.clear()
        for step in range(1, count):
            other = order[(start + step) % count]
            if live[other] and stacks[other]:
                queue.append(other)
        raise_size = self.raise_size
        if increment >= raise_size:
            self.acted = 1 << seat
            raise_size = increment
            if not self.standard and raise_size > self.small_blind:
                raise_size = self.small_blind
            self.raise_size = raise_size
        else:
            self.acted |= 1 << seat
        self.max_bet = amount
        self.aggressor = seat
        if stacks[seat]:
            self.shorts_sum = 0
            self.shorts_count = 0
        else:
            self.shorts_sum += increment
            self.shorts_count += 1
            if self.shorts_sum >= raise_size:
                self.shorts_sum = 0
                self.shorts_count = 0
        if not queue:
            self._end_street()

    def all_in(self) -> None:
        """All-in or Fold's all-in: the largest raise when raising is possible, else a call."""
        bounds = self.raise_bounds(self.queue[0])
        if bounds is None:
            self.check_or_call()
        else:
            self.raise_to(bounds[1])

    def _end_street(self) -> None:
        self.queue = []
        bets = self.bets
        order = self.order
        if self.max_bet:
            # The uncalled part of the highest bet goes back to its owner.
            top = cutoff = 0
            for seat in order:
                bet = bets[seat]
                if bet > top:
                    top, cutoff = bet, top
                elif bet > cutoff:
                    cutoff = bet
            if top > cutoff:
                seat = bets.index(top)
                self.stacks[seat] += top - cutoff
                self.totals[seat] -= top - cutoff
            for seat in order:
                bets[seat] = 0
            self.max_bet = 0
        if self.live_count <= 1:
            self._win_by_fold()
            return
        run_out = self.params.aof
        if not run_out:
            stacks = self.stacks
            live = self.live
            movers = 0
            for seat in order:
                if live[seat] and stacks[seat]:
                    movers += 1
            run_out = movers <= 1
        street = self.street
        first = 2 * len(order)
        if run_out or street == 3:
            self.board = list(self.deck[first : first + 5])
            self._showdown()
            return
        self.street = street = street + 1
        self.board = list(self.deck[first : first + _BOARD_SIZES[street]])
        self._begin_street()

    # -- the end -------------------------------------------------------------------------
    def _win_by_fold(self) -> None:
        winner = next(seat for seat in self.order if self.live[seat])
        pot = sum(self.totals) + sum(self.antes)
        won = [0] * self.n
        won[winner] = pot
        self.stacks[winner] += pot
        self.won = won
        self.pots = ((pot, (winner,), (winner,)),)
        self.street = _OVER

    def strength(self, seat: Seat) -> int:
        """The showdown strength of ``seat``'s hand (board complete)."""
        params = self.params
        board = self.board
        cards = list(board) if seat in params.unknown else [*self.hole[seat], *board]
        if len(cards) < 5:
            return -1
        value = evaluate_key(sum(CARD_VALUE[card] for card in cards), cards)
        if params.require_hole_card and seat not in params.unknown and len(board) == 5:
            board_only = evaluate_cards(board)
            if value == board_only:
                value = _best_with_hole(self.hole[seat], board)
        return value

    def _showdown(self) -> None:
        live = self.live
        order = self.order
        params = self.params
        totals = self.totals
        n = self.n
        strengths: list[int | None] = [None] * n
        if params.unknown or params.mucked or params.require_hole_card:
            mucked = params.mucked
            for seat in order:
                if live[seat] and seat not in mucked:
                    strengths[seat] = self.strength(seat)
            if all(strengths[seat] is None for seat in order if live[seat]):
                for seat in order:
                    if live[seat]:
                        strengths[seat] = self.strength(seat)
        else:
            board = self.board
            value = CARD_VALUE
            board_key = (
                value[board[0]] + value[board[1]] + value[board[2]] + value[board[3]]
            ) + value[board[4]]
            hole = self.hole
            for seat in order:
                if live[seat]:
                    first, second = hole[seat]
                    strengths[seat] = evaluate_key(
                        board_key + value[first] + value[second], (first, second, *board)
                    )
        level = max(totals)
        single = True
        for seat in order:
            if live[seat] and totals[seat] != level:
                single = False
                break
        if single:
            # One pot: everyone still in matched the highest contribution.
            won = [0] * n
            amount = sum(totals) + sum(self.antes)
            best = -1
            for seat in order:
                strength = strengths[seat]
                if strength is not None and strength > best:
                    best = strength
            winners = tuple(seat for seat in order if strengths[seat] == best)
            share, odd = divmod(amount, len(winners))
            for seat in winners:
                won[seat] = share
            won[winners[0]] += odd
            self.pots = ((amount, tuple(seat for seat in order if live[seat]), winners),)
        else:
            pots = build_pots(totals, live, sum(self.antes))
            award = award_pots(pots, strengths, order)
            won = list(award.winnings)
            self.pots = tuple(
                (pot.amount, pot.eligible, winners)
                for pot, winners in zip(award.pots, award.winners, strict=True)
            )
        stacks = self.stacks
        for seat in order:
            stacks[seat] += won[seat]
        self.won = won
        self.street = _OVER

    def showdown_order(self) -> tuple[Seat, ...]:
        """Once over at a showdown: the hands shown, in order (the last river aggressor first,
        else the first player left of the button); mucked hands are not shown."""
        if self.street != _OVER or self.live_count <= 1:
            return ()
        order = self.order
        live = self.live
        mucked = self.params.mucked
        aggressor = self.aggressor
        count = len(order)
        first = self.position[aggressor] if aggressor >= 0 and live[aggressor] else 0
        return tuple(
            seat
            for seat in (order[(first + step) % count] for step in range(count))
            if live[seat] and seat not in mucked
        )

    @property
    def over(self) -> bool:
        """Whether the hand is over."""
        return self.street == _OVER

    def final_stacks(self) -> list[Chips]:
        """Every seat's stack now (after the payout once the hand is over)."""
        return list(self.stacks)


def _best_with_hole(hole: Sequence[int], board: Sequence[int]) -> int:
    """The best five using at least one hole card (A-HE4 ``require_hole_card``)."""
    best = -1
    for used in (1, 2):
        for hole_part in combinations(hole, used):
            for board_part in combinations(board, 5 - used):
                best = max(best, evaluate5([*hole_part, *board_part]))
    return best


def start_hand(
    params: HoldemParams, stacks: Sequence[Chips], button: Seat, deck: Sequence[int]
) -> HandCore:
    """The unchecked fast path: a dealt hand as a :class:`HandCore`, at the first decision.

    For simulations, benchmarks and bots: no validation, no history, no frozen states. Use
    :meth:`HandCore.raise_bounds` to stay legal.
    """
    core = HandCore.seat_hand(params, stacks, button)
    core.deal(deck)
    return core


# ----- the immutable state ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class HoldemState:
    """One moment of a hand. Amounts are minor units; tuples are indexed by seat."""

    config: TableConfig
    version: int
    history: tuple[Event, ...]
    params: HoldemParams
    button: Seat
    order: tuple[Seat, ...]
    """Seats taking part, clockwise from the seat after the button."""
    street: int
    """-1 before the deal, 0..3 preflop..river, 4 once the hand is over."""
    deck: tuple[Card, ...]
    """The shuffled deck (hidden: never in a view)."""
    hole: tuple[tuple[Card, ...], ...]
    board: tuple[Card, ...]
    stacks: tuple[Chips, ...]
    """What each seat has left behind (after the payout once over)."""
    bets: tuple[Chips, ...]
    """Bets in the current round."""
    totals: tuple[Chips, ...]
    """Everything each seat has put in this hand (antes excluded)."""
    antes: tuple[Chips, ...]
    live: tuple[bool, ...]
    """Dealt in and not folded."""
    queue: tuple[Seat, ...]
    """Seats still to act in this round, the first one now."""
    max_bet: Chips
    raise_size: Chips
    acted: int
    shorts_sum: Chips
    shorts_count: int
    aggressor: Seat
    won: tuple[Chips, ...] = ()
    pots: tuple[tuple[Chips, tuple[Seat, ...], tuple[Seat, ...]], ...] = ()
    """Once over: (amount, eligible seats, winners) per pot, main pot first."""
    shown: tuple[Seat, ...] = ()
    """Once over at a showdown: the hands shown, in showdown order."""
    log: tuple[str, ...] = ()
    """The public log of the actions in ``history`` (the views' ``log``), one entry appended
    per action by :meth:`TexasHoldem.apply`."""
    cache: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    """Memoised facts derived from the fields above, filled on first use: the mutable core this
    state was frozen from (read only; a transition works on a copy) and the views. Never part of
    the state's value: a new state (``dataclasses.replace`` included) starts with an empty one."""


_build_state = builder(HoldemState, tuple(f.name for f in fields(HoldemState)))
"""``HoldemState`` from every field, positionally (the per-event constructor)."""


def _core(state: HoldemState) -> HandCore:
    """The state's core, from its cache (or loaded once): read only."""
    core = state.cache.get("core")
    if core is None:
        core = state.cache["core"] = _load(state)
    return cast("HandCore", core)


def _load(state: HoldemState) -> HandCore:
    core = HandCore()
    core.params = state.params
    core.n = state.config.seats
    core.button = state.button
    core.order = state.order
    position = [-1] * core.n
    for index, seat in enumerate(state.order):
        position[seat] = index
    core.position = position
    core.stacks = list(state.stacks)
    core.bets = list(state.bets)
    core.totals = list(state.totals)
    core.antes = list(state.antes)
    core.live = list(state.live)
    core.live_count = sum(state.live)
    core.deck = state.deck
    core.hole = list(state.hole)
    core.board = list(state.board)
    core.street = state.street
    core.queue = list(state.queue)
    core.max_bet = state.max_bet
    core.raise_size = state.raise_size
    core.acted = state.acted
    core.shorts_sum = state.shorts_sum
    core.shorts_count = state.shorts_count
    params = state.params
    core.standard = params.standard
    core.cover = params.cover
    core.small_blind = params.small_blind
    core.min_bet = params.min_bet
    if state.live:
        core._measure_reach()
    core.aggressor = state.aggressor
    core.won = list(state.won)
    core.pots = state.pots
    return core


def _freeze(
    core: HandCore,
    state: HoldemState,
    version: int,
    history: tuple[Event, ...],
    log: tuple[str, ...],
) -> HoldemState:
    """The state of ``core`` (which the new state then owns, in its cache: not to be mutated)."""
    # The core holds cards as ints; in the public path they are the Shuffle's Card objects.
    deck = state.deck if state.deck or not core.deck else cast("tuple[Card, ...]", core.deck)
    frozen = _build_state(
        state.config,
        version,
        history,
        core.params,
        core.button,
        core.order,
        core.street,
        deck,
        tuple(core.hole),
        tuple(core.board),
        tuple(core.stacks),
        tuple(core.bets),
        tuple(core.totals),
        tuple(core.antes),
        tuple(core.live),
        tuple(core.queue),
        core.max_bet,
        core.raise_size,
        core.acted,
        core.shorts_sum,
        core.shorts_count,
        core.aggressor,
        tuple(core.won),
        core.pots,
        core.showdown_order(),
        log,
        {},
    )
    # What _load would rebuild from the frozen fields: the reach is measured from them.
    core._measure_reach()
    frozen.cache["core"] = core
    return frozen


# ----- views -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class HoldemView(View):
    """What one seat (or a spectator) sees of a Hold'em hand."""

    street: str
    """``"deal"``, ``"preflop"``, ``"flop"``, ``"turn"``, ``"river"`` or ``"over"``."""
    button: Seat
    small_blind_seat: Seat
    big_blind_seat: Seat
    small_blind: Chips
    big_blind: Chips
    ante: Chips
    dealt: tuple[bool, ...]
    """Seats taking part in this hand."""
    stacks: tuple[Chips, ...]
    bets: tuple[Chips, ...]
    contributed: tuple[Chips, ...]
    """Everything each seat has put in this hand, antes included."""
    folded: tuple[bool, ...]
    all_in: tuple[bool, ...]
    pot: Chips
    """Everything in the middle, current bets included."""
    pots: tuple[tuple[Chips, tuple[Seat, ...]], ...]
    """Collected pots: (amount, eligible seats), main pot first (bets of this round not yet)."""
    board: tuple[Card, ...]
    hole: tuple[tuple[Card | None, ...], ...]
    """Per seat: two cards if visible to the viewer, ``(None, None)`` if hidden, ``()`` if the
    seat was not dealt in."""
    to_call: Chips
    """What the viewer must add to call (0 when it may check or is not to act)."""
    won: tuple[Chips, ...]
    """Once over: what each seat won."""
    hands: tuple[str, ...]
    """Once over at a showdown: each shown hand's category (``"flush"``...), else ``""``."""
    winners: tuple[tuple[Seat, ...], ...]
    """Once over: the winners of each pot."""
    log: tuple[str, ...]
    """The public actions of the hand so far, oldest first, as text codes
    (:mod:`sanh.texts`): ``"raises_to:1:450"`` is "p2 raised to 4.50"."""


_seat_view = replacer(HoldemView, ("viewer", "hole"))
"""A seat's view from the spectator's: ``_seat_view(public, viewer, hole)``."""
_actor_view = replacer(HoldemView, ("viewer", "legal_actions", "amount_ranges", "hole", "to_call"))
"""The view of the seat to act, with its choices, from the spectator's."""


# ----- the games -------------------------------------------------------------------------
_MEMO_SIZE = 1024
_OPTIONS: dict[Any, dict[str, OptionValue]] = {}
_PARAMS: dict[Any, HoldemParams] = {}


def _options_key(game: str, value: Any) -> Any:
    """A memo key that tells ``1`` from ``True`` (a hashable, typed copy), or ``None``."""
    typed = (game, _typed(value))
    try:
        hash(typed)
    except TypeError:
        return None
    return typed


def _typed(value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple(_typed(item) for item in value)
    return (type(value), value)


class TexasHoldem(Game[HoldemState]):
    """No-limit Texas Hold'em for 2 to 9 seats (RULES.md §4)."""

    info: ClassVar[GameInfo] = GameInfo(
        id="texas-holdem",
        name="Texas Hold'em",
        name_vi="Poker Texas Hold'em",
        seats_min=2,
        seats_max=9,
        deck="52",
        banked=False,
        max_actions=5000,
        rules_source="RULES.md §4, §2, §3.1, §15 A-HE1..A-HE7; seed 001 'poker', seed 003",
        aliases=("holdem", "hold'em", "poker", "nlhe", "texas"),
        rules=HoldemRules,
        action_types=(Fold, Check, Call, RaiseTo, Leave),
        hosting=Hosting(table_stake=True, buyin_timer_option="holdem.buyin_auto_s"),
    )
    aof: ClassVar[bool] = False
    _turn_types: ClassVar[frozenset[type]] = frozenset(info.action_types)
    """The exact action types :meth:`validate` sends straight to :meth:`validate_action` when
    the seat to act takes them (``info.action_types``)."""

    # -- hosting (the buy-in panel, RULES.md §2.3, §4.9) ----------------------------------
    def phase(self, state: HoldemState) -> str:
        """The street: ``-1`` before the deal, ``0``..``3`` preflop..river, ``4`` once over."""
        return str(state.street)

    def buyin_limits(self, stake: Chips, options: Mapping[str, OptionValue]) -> tuple[Chips, Chips]:
        """:func:`buyin_limits` of the table."""
        return buyin_limits(stake, dict(options), aof=self.aof)

    def topup_below(self, stake: Chips, options: Mapping[str, OptionValue]) -> Chips:
        """A stake below one big blind is topped up."""
        return int(options.get("holdem.big_blind", 0)) or 2 * stake

    # -- setup ---------------------------------------------------------------------------
    def options(self, config: TableConfig) -> dict[str, OptionValue]:
        """:meth:`Game.options`, remembered per option set (a pure function of it)."""
        key = _options_key(self.info.id, config.options)
        if key is None:
            return super().options(config)
        resolved = _OPTIONS.get(key)
        if resolved is None:
            resolved = super().options(config)
            if len(_OPTIONS) < _MEMO_SIZE:
                _OPTIONS[key] = resolved
        return dict(resolved)

    def params(self, config: TableConfig) -> HoldemParams:
        """The resolved numbers and flags of a table config (remembered per seat count, stake
        and option set: a pure function of them)."""
        key = _options_key(self.info.id, (config.seats, config.stake, config.options))
        if key is None:
            return self._params(config)
        params = _PARAMS.get(key)
        if params is None:
            params = self._params(config)
            if len(_PARAMS) < _MEMO_SIZE:
                _PARAMS[key] = params
        return params

    def rules(self, config: TableConfig) -> HoldemRules | AofRules:
        """The table's rule options (cached per option set)."""
        rules = super().rules(config)
        assert isinstance(rules, HoldemRules | AofRules)
        return rules

    def _params(self, config: TableConfig) -> HoldemParams:
        rules = self.rules(config)
        stake = config.stake
        big_blind = rules.big_blind or 2 * stake
        return HoldemParams(
            small_blind=stake,
            big_blind=big_blind,
            min_bet=rules.min_bet or big_blind,
            ante=rules.ante,
            big_blind_ante=rules.big_blind_ante,
            standard=rules.min_raise == "standard",
            cover=rules.max_raise == "cover",
            aof=self.aof,
            require_hole_card=rules.require_hole_card,
            headsup_dealer_is_sb=rules.headsup_dealer_is_sb,
            unknown=_seat_list(rules.unknown_cards, config.seats, "holdem.unknown_cards"),
            mucked=_seat_list(rules.mucked, config.seats, "holdem.mucked"),
        )

    def new_state(self, config: TableConfig) -> HoldemState:
        """Seat the hand, post antes and blinds; the shuffle comes next."""
        self.check_config(config)
        params = self.params(config)
        button = first_button(config)
        core = HandCore.seat_hand(params, config.stacks, button)
        empty = HoldemState(
            config=config,
            version=0,
            history=(),
            params=params,
            button=button,
            order=core.order,
            street=_WAITING,
            deck=(),
            hole=(),
            board=(),
            stacks=(),
            bets=(),
            totals=(),
            antes=(),
            live=(),
            queue=(),
            max_bet=0,
            raise_size=0,
            acted=0,
            shorts_sum=0,
            shorts_count=0,
            aggressor=-1,
        )
        return _freeze(core, empty, 0, (), ())

    def carry(self, state: HoldemState) -> Any:
        """``{"button": seat}``: where the next hand's button search starts (the seat after
        this hand's button); the first seat with chips from there is the next dealer."""
        return {"button": (state.button + 1) % state.config.seats}

    def remap_carry(self, carry: Any, seats: Mapping[int, int | None]) -> Any:
        """The button search start in the next lineup: the first player still here at or
        after the carried seat (in the previous hand's order), at that player's new seat; with
        nobody left of the previous hand, no carry (the host deals, as in a first hand)."""
        if not isinstance(carry, dict) or not isinstance(carry.get("button"), int) or not seats:
            return carry
        order = sorted(seats)
        start = carry["button"] % len(order)
        for step in range(len(order)):
            new = seats.get(order[(start + step) % len(order)])
            if new is not None:
                return {**carry, "button": new}
        return None

    # -- turn ----------------------------------------------------------------------------
    def to_act(self, state: HoldemState) -> tuple[Seat, ...] | Chance | None:
        """The seat to act, the chance player before the deal, ``None`` once over."""
        if state.queue:
            return (state.queue[0],)
        if state.street == _WAITING:
            return CHANCE
        return None

    def chance_spec(self, state: HoldemState) -> ChanceSpec:
        """A shuffle of the 52-card deck."""
        return ChanceSpec("shuffle", deck=DECK_52)

    def legal_actions(self, state: HoldemState) -> tuple[Action, ...]:
        """Fold, check or call, and the smallest and largest raise (when allowed)."""
        if not state.queue:
            return ()
        seat = state.queue[0]
        core = _core(state)
        owed = core.max_bet - core.bets[seat]
        actions: list[Action] = [Fold(seat)]
        bounds = core.raise_bounds(seat)
        if self.aof:
            if owed <= 0:
                actions.append(Check(seat))
            if owed > 0 or bounds is not None:
                actions.append(AllIn(seat))
            return tuple(actions)
        actions.append(Check(seat) if owed <= 0 else Call(seat))
        if bounds is not None:
            low, high = bounds
            actions.append(RaiseTo(seat, low))
            if high != low:
                actions.append(RaiseTo(seat, high))
        return tuple(actions)

    def raise_bounds(self, state: HoldemState, seat: Seat) -> tuple[Chips, Chips] | None:
        """The ``(min, max)`` raise-to amounts of ``seat`` if it were to act now, or ``None``."""
        if not state.live:
            return None
        return _core(state).raise_bounds(seat)

    def amount_ranges(self, state: HoldemState) -> tuple[AmountRange, ...]:
        """The bet or raise interval of the seat to act."""
        if self.aof or not state.queue:
            return ()
        ranges = state.cache.get("ranges")
        if ranges is None:
            seat = state.queue[0]
            bounds = _core(state).raise_bounds(seat)
            if bounds is None:
                ranges = ()
            else:
                low, high = bounds
                ranges = (AmountRange(RaiseTo(seat, low), low, high),)
            state.cache["ranges"] = ranges
        return cast("tuple[AmountRange, ...]", ranges)

    def validate(self, state: HoldemState, event: Event) -> None:
        """Base checks, with clearer reasons for seats that may not act."""
        queue = state.queue
        if queue and type(event) in self._turn_types and event.seat == queue[0]:  # type: ignore[union-attr]
            # The seat to act, with one of the game's own action types: every check of
            # Game.validate holds (a turn is due, the seat is real and may act).
            self.validate_action(state, cast("Action", event))
            return
        try:
            super().validate(state, event)
        except NotYourTurnError as error:
            if not isinstance(event, Action) or event.seat is None or not state.queue:
                raise
            seat = event.seat
            if not state.live or seat not in state.order:
                reason = text("not_in_hand", seat)
            elif not state.live[seat]:
                reason = text("has_folded", seat)
            elif state.stacks[seat] == 0:
                reason = text("is_all_in", seat)
            else:
                reason = text("turn_of", state.queue[0], seat)
            raise NotYourTurnError(event, reason, state.version) from error

    def validate_action(self, state: HoldemState, action: Action) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` is legal for the seat to act."""
        version = state.version
        if action.seat is None:
            raise IllegalActionError(action, "holdem_table_no_action", version)
        if isinstance(action, Leave):
            seat = action.seat
            if seat not in state.order:
                raise IllegalActionError(action, text("not_in_hand", seat), version)
            if not state.live[seat]:
                raise IllegalActionError(action, text("has_folded", seat), version)
            return
        seat = state.queue[0]
        owed = state.max_bet - state.bets[seat]
        if isinstance(action, Fold):
            return
        if isinstance(action, Check):
            if owed > 0:
                raise IllegalActionError(action, text("cannot_check", owed), version)
            return
        if isinstance(action, Call):
            if owed <= 0:
                raise IllegalActionError(action, "nothing_to_call", version)
            return
        core = _core(state)
        bounds = core.raise_bounds(seat)
        if isinstance(action, AllIn):
            if owed <= 0 and bounds is None:
                raise IllegalActionError(action, core.raise_refusal(seat), version)
            return
        if isinstance(action, RaiseTo):
            amount = action.amount
            if not isinstance(amount, int) or isinstance(amount, bool):
                raise IllegalActionError(action, "whole_minor_units", version)
            if bounds is None:
                refusal = core.raise_refusal(seat)
                raise IllegalActionError(action, join(text("cannot_raise"), refusal), version)
            low, high = bounds
            if amount < low:
                raise IllegalActionError(action, text("raise_below_min", amount, low), version)
            if amount > high:
                why = (
                    "raise_above_match"
                    if high < state.stacks[seat] + state.bets[seat]
                    else "raise_above_stake"
                )
                raise IllegalActionError(action, text(why, amount, high), version)
            return
        raise IllegalActionError(action, "not_game_action", version)

    def apply(self, state: HoldemState, event: Event) -> HoldemState:
        """Validate ``event`` and return the next state (:meth:`Game.apply`), built at once
        with its version, history and log."""
        self.validate(state, event)
        log = state.log
        if isinstance(event, Action):
            log = (*log, _describe(event))
        return self._step(state, event, state.version + 1, (*state.history, event), log)

    def transition(self, state: HoldemState, event: Event) -> HoldemState:
        """Apply a validated event through the core."""
        return self._step(state, event, state.version, state.history, state.log)

    def _step(
        self,
        state: HoldemState,
        event: Event,
        version: int,
        history: tuple[Event, ...],
        log: tuple[str, ...],
    ) -> HoldemState:
        # The old state's core moves to the new state (the old one reloads it if used again).
        core = state.cache.pop("core", None) or _load(state)
        if isinstance(event, Shuffle):
            core.deal(event.order)
        elif isinstance(event, Leave):
            assert event.seat is not None
            core.remove(event.seat)
        elif isinstance(event, Fold):
            core.fold()
        elif isinstance(event, Check | Call):
            core.check_or_call()
        elif isinstance(event, RaiseTo):
            core.raise_to(event.amount)
        elif isinstance(event, AllIn):
            core.all_in()
        else:  # pragma: no cover - validate() refuses everything else
            raise AssertionError(f"unexpected event {event!r}")
        return _freeze(core, state, version, history, log)

    def default_action(
        self, state: HoldemState, seat: Seat | None, reason: Reason
    ) -> Action | None:
        """Timeout or disconnection: check if free, otherwise fold. Leaving folds at once,
        wherever the turn is (:class:`Leave`, §4.8)."""
        if (
            seat is not None
            and reason == "leave"
            and state.queue
            and self.is_legal(state, Leave(seat))
        ):
            return Leave(seat)
        if seat is None or not state.queue or state.queue[0] != seat:
            return None
        if reason != "leave" and state.max_bet <= state.bets[seat]:
            return Check(seat)
        return Fold(seat)

    def leave_cost(self, state: HoldemState, seat: Seat) -> Chips | None:
        """At most what leaving now costs ``seat``: what it has put in while still in the hand
        (a fold; the part of a bet nobody calls still goes back to it), else nothing."""
        live = state.street != _OVER and bool(state.live) and state.live[seat]
        return state.totals[seat] + state.antes[seat] if live else 0

    # -- views ---------------------------------------------------------------------------
    def revealed(self, state: HoldemState) -> frozenset[Seat]:
        """Seats whose hole cards everyone may see (shown at showdown; never folded ones)."""
        if state.street != _OVER:
            return frozenset()
        unknown = state.params.unknown
        return frozenset(seat for seat in state.shown if seat not in unknown)

    def observe(self, state: HoldemState, viewer: Seat | None) -> HoldemView:
        """The table as ``viewer`` sees it: own hole cards, shown hands, never the deck.

        The parts every viewer shares are worked out once per state and each viewer's view is
        kept in the state's cache, so a view costs O(1) per event (the log is the state's own,
        appended per action)."""
        views = state.cache.get("views")
        if views is None:
            views = state.cache["views"] = {}
        view = views.get(viewer)
        if view is None:
            view = views[viewer] = self._view(state, viewer)
        return cast("HoldemView", view)

    def _view(self, state: HoldemState, viewer: Seat | None) -> HoldemView:
        public = state.cache.get("public")
        if public is None:
            public = state.cache["public"] = self._public(state)
        if viewer is None:
            return public
        hole = public.hole
        if 0 <= viewer < len(hole) and hole[viewer] and state.hole:
            cards = state.hole[viewer]
            if cards and viewer not in state.params.unknown:
                if not all(type(c) is Card for c in cards):
                    cards = tuple(Card(c) for c in cards)
                own = list(hole)
                own[viewer] = cards
                hole = tuple(own)
        if viewer in public.to_act:
            owed = min(state.stacks[viewer], state.max_bet - state.bets[viewer])
            return _actor_view(
                public,
                viewer,
                self.legal_actions_for(state, viewer),
                self.amount_ranges_for(state, viewer),
                hole,
                owed,
            )
        return _seat_view(public, viewer, hole)

    def _public(self, state: HoldemState) -> HoldemView:
        """The spectator's view: what every viewer sees (a seat's view adds its own cards,
        and the seat to act its choices)."""
        turn = self.to_act(state)
        seats = state.config.seats
        core = _core(state)
        dealt = tuple([index >= 0 for index in core.position])
        live = state.live
        stacks = state.stacks
        over = state.street == _OVER
        revealed = self.revealed(state)
        holes = tuple(
            [
                ()
                if not dealt[seat]
                else tuple([Card(c) for c in state.hole[seat]])
                if seat in revealed and state.hole[seat]
                else (None, None)
                for seat in range(seats)
            ]
        )
        hands = [""] * seats
        if over and state.shown:
            for seat in revealed:
                hands[seat] = category(core.strength(seat))
        collected = [total - bet for total, bet in zip(state.totals, state.bets, strict=True)]
        dead = sum(state.antes)
        pots: tuple[tuple[Chips, tuple[Seat, ...]], ...] = ()
        if over:
            pots = tuple((amount, eligible) for amount, eligible, _ in state.pots)
        elif any(collected) or dead:
            pots = tuple((pot.amount, pot.eligible) for pot in build_pots(collected, live, dead))
        sb_seat, bb_seat = core.blind_seats()
        street = (
            "deal" if state.street == _WAITING else "over" if over else STREET_NAMES[state.street]
        )
        return HoldemView(
            game=self.info.id,
            version=state.version,
            viewer=None,
            to_act=turn if isinstance(turn, tuple) else (),
            legal_actions=(),
            amount_ranges=(),
            terminal=turn is None,
            street=street,
            button=state.button,
            small_blind_seat=sb_seat,
            big_blind_seat=bb_seat,
            small_blind=state.params.small_blind,
            big_blind=state.params.big_blind,
            ante=state.params.ante,
            dealt=dealt,
            stacks=state.stacks,
            bets=state.bets,
            contributed=tuple([t + a for t, a in zip(state.totals, state.antes, strict=True)]),
            folded=tuple([d and not alive for d, alive in zip(dealt, live, strict=True)]),
            all_in=tuple(
                [
                    d and alive and stack == 0 and not over
                    for d, alive, stack in zip(dealt, live, stacks, strict=True)
                ]
            ),
            pot=0 if over else sum(state.totals) + dead,
            pots=pots,
            board=state.board,
            hole=holes,
            to_call=0,
            won=state.won,
            hands=tuple(hands),
            winners=tuple(winners for _, _, winners in state.pots) if over else (),
            log=state.log,
        )

    # -- settlement ----------------------------------------------------------------------
    def settle(self, state: HoldemState) -> Settlement:
        """Per-seat net results: what each seat put in against what it won."""
        if state.street != _OVER:
            raise ValueError("the hand is not over")
        config = state.config
        seats = config.seats
        deltas = tuple(state.stacks[seat] - config.stacks[seat] for seat in range(seats))
        lines: list[SettlementLine] = []
        for seat in state.order:
            paid = state.totals[seat] + state.antes[seat]
            if paid:
                lines.append(SettlementLine(seat, "bet", -paid, stake=paid))
        for index, (amount, _eligible, winners) in enumerate(state.pots):
            item = "pot" if index == 0 else f"side_pot_{index}"
            share, odd = divmod(amount, len(winners))
            for position, seat in enumerate(winners):
                won = share + (odd if position == 0 else 0)
                if won:
                    lines.append(SettlementLine(seat, item, won))
        core = _core(state)
        shown = tuple(
            (seat, tuple(Card(c) for c in state.hole[seat]), category(core.strength(seat)))
            for seat in self.revealed(state)
        )
        detail: list[tuple[str, Any]] = [
            ("button", state.button),
            ("board", state.board),
            ("pots", state.pots),
            ("shown", tuple(sorted(shown, key=lambda item: state.shown.index(item[0])))),
        ]
        if sum(state.live) == 1:
            detail.append(("winner_by_fold", state.pots[0][2][0]))
        settlement = Settlement(deltas=deltas, lines=tuple(lines), detail=tuple(detail))
        settlement.check()
        return settlement

    # -- terminal ------------------------------------------------------------------------
    def render_text(self, view: View) -> str:
        """The terminal table: board, pot, every seat's stake, bet, cards and state."""
        if not isinstance(view, HoldemView):
            return super().render_text(view)
        return render_holdem(view, self.info.name)


class AllInOrFold(TexasHoldem):
    """Poker All-in or Fold (RULES.md §4.9): preflop only, fold or all-in, then the run-out."""

    info: ClassVar[GameInfo] = GameInfo(
        id="poker-aof",
        name="Poker All-in or Fold",
        name_vi="Poker All-in or Fold",
        seats_min=2,
        seats_max=9,
        deck="52",
        banked=False,
        max_actions=40,
        rules_source="RULES.md §4.9 [DEF] (seed 003 names the room only), §4.1-4.7, A-HE8",
        aliases=("aof", "all-in-or-fold", "allin-or-fold", "poker all in or fold"),
        rules=AofRules,
        action_types=(Fold, Check, AllIn, Leave),
        hosting=Hosting(table_stake=True, enabled_by="aof_enabled"),
    )
    aof: ClassVar[bool] = True
    _turn_types: ClassVar[frozenset[type]] = frozenset(info.action_types)


_VERBS: dict[type[Action], str] = {
    Fold: "folds",
    Leave: "folds",
    Check: "checks",
    Call: "calls",
    AllIn: "goes_all_in",
}


def _describe(action: Action) -> str:
    """The log entry of an action, a text code (:mod:`sanh.texts`): ``folds:1``."""
    seat = action.seat
    assert seat is not None, "the table takes no Hold'em action"
    if type(seat) is int:  # validated actions: what text() writes, without its checks
        if type(action) is RaiseTo and type(action.amount) is int:
            return f"raises_to:{seat}:{action.amount}"
        verb = _VERBS.get(type(action))
        if verb is not None:
            return f"{verb}:{seat}"
    if isinstance(action, RaiseTo):
        return text("raises_to", seat, action.amount)
    return text(_VERBS[type(action)], seat)


def render_holdem(view: HoldemView, title: str) -> str:
    """Plain text for one view of a Hold'em hand (used by ``sanh play``)."""
    board = " ".join(str(card) for card in view.board)
    board += " " + " ".join("__" for _ in range(5 - len(view.board)))
    lines = [
        f"{title} · {view.street} · blinds {format_gold(view.small_blind)}/"
        f"{format_gold(view.big_blind)}" + (f" ante {format_gold(view.ante)}" if view.ante else ""),
        f"Board: {board.strip()}    Pot: {format_gold(view.pot)}",
    ]
    for seat in range(len(view.stacks)):
        if not view.dealt[seat]:
            lines.append(f"  p{seat + 1}  (not in this hand)")
            continue
        marks = []
        if seat == view.button:
            marks.append("D")
        if seat == view.small_blind_seat:
            marks.append("SB")
        if seat == view.big_blind_seat:
            marks.append("BB")
        cards = " ".join("??" if card is None else str(card) for card in view.hole[seat])
        state = ""
        if view.folded[seat]:
            state = "folded"
        elif view.all_in[seat]:
            state = "all-in"
        if view.terminal and view.won and view.won[seat]:
            state = f"wins {format_gold(view.won[seat])}"
        if view.hands and view.hands[seat]:
            state += f" ({view.hands[seat].replace('_', ' ')})"
        turn = ">" if seat in view.to_act else " "
        you = "*" if seat == view.viewer else " "
        bet = f"bet {format_gold(view.bets[seat])}" if view.bets[seat] else ""
        lines.append(
            f"{turn}{you}p{seat + 1:<2} {'/'.join(marks):<6} {format_gold(view.stacks[seat]):>12}"
            f"  {bet:<16} {cards:<6} {state}".rstrip()
        )
    if view.log:
        lines.append("Last: " + " · ".join(describe(entry) for entry in view.log[-6:]))
    if view.to_call:
        lines.append(f"To call: {format_gold(view.to_call)}")
    return "\n".join(lines)


GAMES = (TexasHoldem(), AllInOrFold())
"""The games of this module, registered by :mod:`sanh.games`."""
