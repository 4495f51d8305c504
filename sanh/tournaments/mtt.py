"""A scheduled multi-table Texas Hold'em tournament, as a pure and deterministic library.

The tournament is a frozen :class:`MttState`; every step is a function returning a new one
and never touches the state it was given. Time is an argument (``now``, Unix seconds), never
read from a clock, and chance comes only from the :class:`~sanh.cards.rng.Rng` passed in, so
the same spec, registrations, seed and bots replay the same tournament hand for hand.

The life of a tournament:

1. :func:`new_tournament` opens it. :func:`register` and :func:`unregister` run in the
   registration window ``[opens_at, starts_at)``; a player registers once (no re-entry).
2. :func:`start` (at or after ``starts_at``) seats the field (:func:`balance.opening_tables`),
   or cancels the tournament below ``min_entrants`` (refunds are the ledger's, which holds
   the buy-ins and fees in the tournament's escrow).
3. :func:`play_round` plays one hand at every table, each through sanh's own Hold'em engine
   by its public API (``sanh.games.find_game("texas-holdem")``: ``new_state``, ``to_act``,
   ``observe``, ``apply``, ``settle``), the players' actions chosen by the bots given to it on
   their own views (:class:`~sanh.bots.base.Bot`). The blind level rises with the hands each
   table has played (every table deals one hand a round; :class:`BlindSchedule`). A player
   with no chips left is out; the players out in one round finish in the order of their
   stacks at the start of the hand (the larger stack finishes higher, TDA 21), ties drawn.
   Then the room is balanced (:func:`balance.balance`). Late registration
   (:func:`register` while running) stays open through level ``late_levels``; a late entrant
   gets the starting stack and a seat at the start of the next round.
4. When one player is left the tournament is over: :func:`standings` gives every entry's
   place (1..N, all distinct) and :func:`payouts` the prize of each paid place.

Money: the prize pool is ``buy_in`` times the entries, in minor units; each paid place gets the
floor of its share (:class:`PayoutTable`, basis points) and the remainder is the pool's
breakage, so the prizes and the breakage sum to the pool exactly. The fee is the house's and is
not in the pool. Chips are tournament chips, not gold: every entry brings ``starting_stack``
and no hand creates or destroys one (each hand's settlement balances; :func:`play_round`
checks it).

The types of the schedule and the payouts are local to this module (simple frozen
dataclasses) until they are shared with the Sit & Go's.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sanh.bots.base import Bot
from sanh.bots.holdem import HoldemBot, estimate_equity
from sanh.cards.rng import Rng
from sanh.errors import IllegalActionError, SanhError
from sanh.games import find_game
from sanh.games.base import CHANCE, Action, Event, Game, TableConfig
from sanh.games.driver import chance_event
from sanh.tournaments.balance import (
    Move,
    Table,
    after_hand,
    balance,
    dealt_in,
    first_hand,
    next_blinds,
    opening_tables,
)

__all__ = [
    "DEFAULT_SCHEDULE",
    "BlindLevel",
    "BlindSchedule",
    "HandResult",
    "MttSpec",
    "MttState",
    "PayoutTable",
    "RoundResult",
    "Standing",
    "TournamentBot",
    "TournamentError",
    "chips_in_play",
    "new_tournament",
    "payouts",
    "play_round",
    "preflop_equity",
    "register",
    "run",
    "standings",
    "start",
    "unregister",
]

PlayerId = int
"""An entry's number: its place in the order of registration, from 0."""


class TournamentError(SanhError, ValueError):
    """A refused tournament step; the state it was tried on is unchanged. ``code`` names the
    refusal (``registration_closed``, ``already_registered``, ``tournament_full``,
    ``not_registered``, ``not_started``, ``too_early``, ``not_registering``, ``over``)."""

    def __init__(self, code: str, detail: str = "") -> None:
        self.code = code
        super().__init__(f"{code}: {detail}" if detail else code)


# ----- the structure -----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class BlindLevel:
    """One level: the blinds and the big blind ante (one ante paid by the big blind for the
    table, the modern tournament ante), in chips."""

    small_blind: int
    big_blind: int
    ante: int = 0

    def __post_init__(self) -> None:
        if not 0 < self.small_blind <= self.big_blind or self.ante < 0:
            raise ValueError(f"impossible blind level {self}")


@dataclass(frozen=True, slots=True)
class BlindSchedule:
    """Blind levels rising every ``hands_per_level`` hands (of each table); the last level
    lasts to the end."""

    levels: tuple[BlindLevel, ...]
    hands_per_level: int

    def __post_init__(self) -> None:
        if not self.levels or self.hands_per_level < 1:
            raise ValueError("a schedule needs a level and at least one hand per level")

    def level_index(self, hands: int) -> int:
        """The level (0-based) after ``hands`` hands."""
        return min(hands // self.hands_per_level, len(self.levels) - 1)

    def level(self, hands: int) -> BlindLevel:
        """The blinds after ``hands`` hands."""
        return self.levels[self.level_index(hands)]


def _levels(*blinds: tuple[int, int, int]) -> tuple[BlindLevel, ...]:
    return tuple(BlindLevel(sb, bb, ante) for sb, bb, ante in blinds)


DEFAULT_SCHEDULE = BlindSchedule(
    _levels(
        (25, 50, 0),
        (50, 100, 0),
        (75, 150, 150),
        (100, 200, 200),
        (150, 300, 300),
        (200, 400, 400),
        (300, 600, 600),
        (400, 800, 800),
        (500, 1_000, 1_000),
        (700, 1_400, 1_400),
        (1_000, 2_000, 2_000),
        (1_500, 3_000, 3_000),
        (2_000, 4_000, 4_000),
        (3_000, 6_000, 6_000),
        (4_000, 8_000, 8_000),
        (6_000, 12_000, 12_000),
        (8_000, 16_000, 16_000),
        (10_000, 20_000, 20_000),
        (15_000, 30_000, 30_000),
        (20_000, 40_000, 40_000),
        (30_000, 60_000, 60_000),
        (50_000, 100_000, 100_000),
        (80_000, 160_000, 160_000),
        (120_000, 240_000, 240_000),
        (200_000, 400_000, 400_000),
        (300_000, 600_000, 600_000),
        (500_000, 1_000_000, 1_000_000),
        (1_000_000, 2_000_000, 2_000_000),
    ),
    hands_per_level=8,
)
"""A turbo structure for a 10,000-chip stack: 200 big blinds at the start."""


@dataclass(frozen=True, slots=True)
class PayoutTable:
    """Which places are paid and their shares of the pool.

    ``paid_percent`` of the entries are paid (at least one place, and ``minimum_paid`` places
    when there are that many entries); place ``k`` weighs ``1 / (k + offset)`` and the shares
    are those weights in basis points, rounded down, the rounding's remainder going to first
    place so they sum to 10,000. The shares never rise with the place.
    """

    paid_percent: int = 15
    minimum_paid: int = 3
    offset: int = 1

    def places_paid(self, entries: int) -> int:
        """How many places are paid among ``entries``."""
        if entries < 1:
            return 0
        return min(entries, max(1, self.minimum_paid, entries * self.paid_percent // 100))

    def shares(self, entries: int) -> tuple[int, ...]:
        """Basis points of the pool by place, first place first; they sum to 10,000."""
        paid = self.places_paid(entries)
        if paid == 0:
            return ()
        scale = 10**15
        weights = [scale // (place + self.offset) for place in range(1, paid + 1)]
        total = sum(weights)
        shares = [weight * 10_000 // total for weight in weights]
        shares[0] += 10_000 - sum(shares)
        return tuple(shares)


@dataclass(frozen=True, slots=True)
class MttSpec:
    """A scheduled tournament's rules. Amounts of money (``buy_in``, ``fee``) are in minor
    units (1 gold = 100); stacks and blinds are in tournament chips."""

    id: str
    opens_at: int
    """When registration opens (Unix seconds)."""
    starts_at: int
    """When play starts; registration before it, late registration after it."""
    buy_in: int
    """Each entry's contribution to the prize pool."""
    fee: int = 0
    """Each entry's fee to the house (not in the pool)."""
    starting_stack: int = 10_000
    table_size: int = 9
    min_entrants: int = 2
    max_entrants: int = 1_000
    late_levels: int = 3
    """Late registration is open through this level (1-based; 0: no late registration)."""
    schedule: BlindSchedule = DEFAULT_SCHEDULE
    payout_table: PayoutTable = PayoutTable()

    def __post_init__(self) -> None:
        if self.opens_at > self.starts_at:
            raise ValueError("registration opens after the start")
        if self.buy_in < 0 or self.fee < 0 or self.starting_stack < 1:
            raise ValueError("negative buy-in or fee, or no starting stack")
        if not 2 <= self.table_size <= 9:
            raise ValueError(f"Hold'em tables have 2 to 9 seats, not {self.table_size}")
        if not 2 <= self.min_entrants <= self.max_entrants:
            raise ValueError("min_entrants must be at least 2 and at most max_entrants")
        if self.late_levels < 0:
            raise ValueError("late_levels is never negative")


# ----- the state ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class MttState:
    """A tournament at one moment. Entry ``e`` is ``players[e]`` with ``stacks[e]`` chips;
    ``busted`` lists the entries out, in the order they went out (the last one out finishes
    best); ``pending`` the late entrants not seated yet."""

    spec: MttSpec
    status: str = "registering"
    """``registering``, ``running``, ``finished`` or ``cancelled``."""
    players: tuple[str, ...] = ()
    stacks: tuple[int, ...] = ()
    tables: tuple[Table, ...] = ()
    pending: tuple[PlayerId, ...] = ()
    busted: tuple[PlayerId, ...] = ()
    rounds: int = 0
    """Hand rounds played (the hands each table has dealt, for the blind level)."""
    hands: int = 0
    """Hands dealt over all the tables."""
    next_table: int = 1

    @property
    def entries(self) -> int:
        """The number of entries."""
        return len(self.players)

    @property
    def level(self) -> int:
        """The blind level now, 1-based."""
        return self.spec.schedule.level_index(self.rounds) + 1

    @property
    def prize_pool(self) -> int:
        """The buy-ins of every entry, in minor units."""
        return self.spec.buy_in * self.entries

    @property
    def alive(self) -> tuple[PlayerId, ...]:
        """The entries still in, seated or about to be."""
        out = set(self.busted)
        return tuple(entry for entry in range(self.entries) if entry not in out)

    @property
    def late_registration_open(self) -> bool:
        """Whether a player may still register once play has started."""
        return self.status == "running" and self.level <= self.spec.late_levels


@dataclass(frozen=True, slots=True)
class HandResult:
    """One hand: at which table, the seats dealt, the blinds, each dealt seat's stack before
    and after (chips), and the events played (the engine's history)."""

    table: int
    number: int
    button: int
    small_blind: int
    big_blind: int
    dealt: tuple[int, ...]
    before: tuple[int, ...]
    after: tuple[int, ...]
    events: int


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One hand round: the late entrants seated before it (``seated``, the moves of that
    balancing step and the tables after it), the hands, the entries out, and the balancing
    step after it (``moves`` and ``tables``)."""

    number: int
    level: int
    seated: tuple[Move, ...]
    tables_before: tuple[Table, ...]
    hands: tuple[HandResult, ...]
    out: tuple[PlayerId, ...]
    moves: tuple[Move, ...]
    tables: tuple[Table, ...]


@dataclass(frozen=True, slots=True)
class Standing:
    """An entry's finishing place and prize (minor units)."""

    place: int
    entry: PlayerId
    player: str
    prize: int


# ----- registration ------------------------------------------------------------------------
def new_tournament(spec: MttSpec) -> MttState:
    """A tournament open for registration (in its window)."""
    return MttState(spec=spec)


def register(state: MttState, player: str, now: int) -> MttState:
    """``player`` enters: in the window ``[opens_at, starts_at)``, or while late registration
    is open (then he is seated at the start of the next round with the starting stack).

    :raises TournamentError: outside registration, for a name already entered (no re-entry),
        or a full field; the state is unchanged.
    """
    spec = state.spec
    if not player:
        raise TournamentError("no_player")
    if state.status == "registering":
        if not spec.opens_at <= now < spec.starts_at:
            raise TournamentError("registration_closed", f"{now} outside the window")
    elif not state.late_registration_open:
        raise TournamentError("registration_closed", f"level {state.level}")
    if player in state.players:
        raise TournamentError("already_registered", player)
    if state.entries >= spec.max_entrants:
        raise TournamentError("tournament_full", str(spec.max_entrants))
    entry = state.entries
    pending = (*state.pending, entry) if state.status == "running" else state.pending
    return replace(
        state,
        players=(*state.players, player),
        stacks=(*state.stacks, spec.starting_stack),
        pending=pending,
    )


def unregister(state: MttState, player: str, now: int) -> MttState:
    """``player`` withdraws before the start (his buy-in and fee are refunded by the ledger).

    :raises TournamentError: once play has started or outside the window, or if he is not
        registered; the state is unchanged.
    """
    if state.status != "registering":
        raise TournamentError("not_registering", state.status)
    if now >= state.spec.starts_at:
        raise TournamentError("registration_closed", "the tournament has started")
    if player not in state.players:
        raise TournamentError("not_registered", player)
    index = state.players.index(player)
    return replace(
        state,
        players=state.players[:index] + state.players[index + 1 :],
        stacks=state.stacks[:index] + state.stacks[index + 1 :],
    )


def start(state: MttState, now: int, rng: Rng) -> MttState:
    """Start play at ``now`` (at or after ``starts_at``): seat the field at random, or cancel
    the tournament when fewer than ``min_entrants`` registered.

    :raises TournamentError: before ``starts_at`` or if it is not registering.
    """
    if state.status != "registering":
        raise TournamentError("not_registering", state.status)
    if now < state.spec.starts_at:
        raise TournamentError("too_early", f"{now} < {state.spec.starts_at}")
    if state.entries < state.spec.min_entrants:
        return replace(state, status="cancelled")
    tables = opening_tables(range(state.entries), state.spec.table_size, rng)
    return replace(state, status="running", tables=tables, next_table=len(tables) + 1)


# ----- play --------------------------------------------------------------------------------
_GAME: list[Game[Any]] = []


def _holdem() -> Game[Any]:
    if not _GAME:
        _GAME.append(find_game("texas-holdem"))
    return _GAME[0]


def _options(level: BlindLevel) -> dict[str, Any]:
    """The engine's options for a level: standard no-limit with a big blind ante."""
    return {
        "holdem.big_blind": level.big_blind,
        "holdem.ante": level.ante,
        "holdem.big_blind_ante": True,
        "holdem.min_raise": "standard",
        "holdem.max_raise": "stack",
    }


def _play_hand(
    table: Table,
    stacks: list[int],
    level: BlindLevel,
    number: int,
    rng: Rng,
    bot_for: Callable[[PlayerId], Bot],
) -> tuple[Table, HandResult, tuple[int, ...]]:
    """Deal one hand at ``table`` through the engine; ``stacks`` (by entry) is updated in
    place. Returns the table after the hand, the hand's result and the seats that busted."""
    game = _holdem()
    table = first_hand(table, rng)
    dealt = dealt_in(table)
    button, small, big = next_blinds(table, dealt)
    seat_stacks = [0] * table.size
    for seat in dealt:
        player = table.seats[seat]
        assert player is not None
        seat_stacks[seat] = stacks[player]
    config = TableConfig.make(
        seats=table.size,
        stake=level.small_blind,
        stacks=seat_stacks,
        options=_options(level),
        carry={"button": button},
    )
    state = game.new_state(config)
    public = game.observe(state, None)
    engine_blinds = (public.button, public.small_blind_seat, public.big_blind_seat)  # type: ignore[attr-defined]
    if engine_blinds != (button, small, big):
        raise AssertionError(f"table {table.id}: the engine's blinds {engine_blinds}")
    events = 0
    for _ in range(game.info.max_actions):
        turn = game.to_act(state)
        if turn is None:
            break
        event: Event
        if turn is CHANCE:
            event = chance_event(game, state, rng)
        else:
            seat = turn[0]
            player = table.seats[seat]
            assert player is not None
            event = _bot_action(game, state, seat, bot_for(player), rng)
        state = game.apply(state, event)
        events += 1
    else:
        raise RuntimeError(f"table {table.id}: hand {number} did not end")
    settlement = game.settle(state)
    if settlement.total != 0 or sum(settlement.deltas) != 0:
        raise AssertionError(f"table {table.id}: hand {number} created or lost chips")
    after = tuple(seat_stacks[seat] + settlement.deltas[seat] for seat in dealt)
    busted = []
    for seat, stack in zip(dealt, after, strict=True):
        player = table.seats[seat]
        assert player is not None and stack >= 0
        stacks[player] = stack
        if stack == 0:
            busted.append(seat)
    result = HandResult(
        table=table.id,
        number=number,
        button=button,
        small_blind=small,
        big_blind=big,
        dealt=dealt,
        before=tuple(seat_stacks[seat] for seat in dealt),
        after=after,
        events=events,
    )
    return after_hand(table, big, dealt, busted), result, tuple(busted)


def _bot_action(game: Game[Any], state: Any, seat: int, bot: Bot, rng: Rng) -> Action:
    """The bot's choice on the seat's own view; an illegal one is replaced by the game's
    timeout default (check if free, else fold), as the hall does."""
    action = bot.act(game.observe(state, seat), rng)
    try:
        game.validate(state, action)
    except IllegalActionError:
        default = game.default_action(state, seat, "timeout")
        assert default is not None
        return default
    return action


def play_round(
    state: MttState, rng: Rng, bot_for: Callable[[PlayerId], Bot]
) -> tuple[MttState, RoundResult]:
    """Seat the late entrants, play one hand at every table, put out the players left with
    no chips and balance the room (module docstring).

    :raises TournamentError: if the tournament is not running.
    """
    if state.status != "running":
        raise TournamentError("not_started" if state.status == "registering" else "over")
    spec = state.spec
    size = spec.table_size
    next_table = state.next_table
    tables = state.tables
    seated: tuple[Move, ...] = ()
    if state.pending:
        tables, seated = balance(tables, size, rng, state.pending, next_id=next_table)
        next_table = max(next_table, max(table.id for table in tables) + 1)
    tables_before = tables
    level = spec.schedule.level(state.rounds)
    stacks = list(state.stacks)
    hands: list[HandResult] = []
    played: list[Table] = []
    out: list[tuple[int, int, PlayerId]] = []
    for table in tables:
        if len(dealt_in(table)) < 2:
            played.append(table)
            continue
        new, hand, busted = _play_hand(
            table, stacks, level, state.hands + len(hands) + 1, rng, bot_for
        )
        for seat in busted:
            player = table.seats[seat]
            assert player is not None
            start_stack = hand.before[hand.dealt.index(seat)]
            out.append((start_stack, rng.randbelow(1 << 30), player))
        hands.append(hand)
        played.append(new)
    # the smaller stack at the start of the hand goes out first (finishes lower)
    order = tuple(player for _, _, player in sorted(out))
    busted_all = state.busted + order
    remaining = state.entries - len(busted_all)
    if remaining <= 1:
        moves: tuple[Move, ...] = ()
        final = tuple(played)
        status = "finished"
    else:
        final, moves = balance(played, size, rng, next_id=next_table)
        next_table = max(next_table, max(table.id for table in final) + 1)
        status = "running"
    new_state = replace(
        state,
        status=status,
        stacks=tuple(stacks),
        tables=tuple(table for table in final if table.count),
        pending=(),
        busted=busted_all,
        rounds=state.rounds + 1,
        hands=state.hands + len(hands),
        next_table=next_table,
    )
    result = RoundResult(
        number=new_state.rounds,
        level=spec.schedule.level_index(state.rounds) + 1,
        seated=seated,
        tables_before=tables_before,
        hands=tuple(hands),
        out=order,
        moves=moves,
        tables=new_state.tables,
    )
    return new_state, result


def run(
    state: MttState,
    rng: Rng,
    bot_for: Callable[[PlayerId], Bot],
    *,
    max_rounds: int = 100_000,
    on_round: Callable[[MttState, RoundResult], None] | None = None,
) -> MttState:
    """Play rounds until the tournament is over; ``on_round`` sees each round.

    :raises RuntimeError: if it is not over after ``max_rounds`` rounds.
    """
    for _ in range(max_rounds):
        if state.status != "running":
            return state
        state, result = play_round(state, rng, bot_for)
        if on_round is not None:
            on_round(state, result)
    if state.status == "running":
        raise RuntimeError(f"tournament {state.spec.id} not over after {max_rounds} rounds")
    return state


# ----- the simulation's bot ---------------------------------------------------------------
class _QuickSample(random.Random):
    """A :class:`random.Random` whose :meth:`sample` is a partial Fisher-Yates shuffle over
    :meth:`random.Random.random` (a few times faster than the library's rejection sampling of
    each index; uniform up to the 53-bit float's resolution, which no 52-card deal can see)."""

    def sample(  # type: ignore[override]
        self, population: Sequence[int], k: int, *, counts: object = None
    ) -> list[int]:
        pool = list(population)
        size = len(pool)
        draw = self.random
        for index in range(k):
            pick = index + int(draw() * (size - index))
            pool[index], pool[pick] = pool[pick], pool[index]
        return pool[:k]


_PREFLOP: dict[tuple[int, int, bool, int, int], float] = {}
"""Preflop equities by (high rank, low rank, suited, opponents, deals): a pure function's memo."""


def preflop_equity(hole: Sequence[int], opponents: int, samples: int) -> float:
    """The equity of ``hole`` before the flop against ``opponents`` random hands, estimated
    once per starting-hand class (169 of them) and opponent count over ``samples`` deals from
    a stream seeded by that class, so the value never depends on what was asked before."""
    high, low = sorted((hole[0] // 4, hole[1] // 4), reverse=True)
    suited = hole[0] % 4 == hole[1] % 4
    key = (high, low, suited, opponents, samples)
    value = _PREFLOP.get(key)
    if value is None:
        canonical = (high * 4, low * 4 + (0 if suited else 1))
        rnd = _QuickSample(f"preflop:{high}:{low}:{suited}:{opponents}")
        value = estimate_equity(canonical, (), opponents, samples, rnd)
        _PREFLOP[key] = value
    return value


class TournamentBot(HoldemBot):
    """The hall's Hold'em bot (:class:`~sanh.bots.holdem.HoldemBot`: the same decisions from
    its own view) with its preflop equity read from a per-class table
    (:func:`preflop_equity`, ``preflop_samples`` deals each) instead of dealt afresh at every
    decision, and ``samples`` deals after the flop, each drawn by a quicker partial shuffle
    (``_QuickSample``) seeded from the bot's own stream. The Monte Carlo deals were most of a
    simulated tournament's time (BENCHMARKS.md, *The multi-table tournament*)."""

    def __init__(self, samples: int = 24, preflop_samples: int = 200) -> None:
        super().__init__(samples)
        self.preflop_samples = preflop_samples
        """Deals per starting-hand class and opponent count."""

    def equity(
        self, hole: Sequence[int], board: Sequence[int], opponents: int, rnd: random.Random
    ) -> float:
        """From the preflop table before the flop, else :meth:`HoldemBot.equity`."""
        if not board and opponents > 0:
            return preflop_equity(hole, opponents, self.preflop_samples)
        return super().equity(hole, board, opponents, _QuickSample(rnd.getrandbits(64)))


# ----- results -----------------------------------------------------------------------------
def payouts(pool: int, shares: Sequence[int]) -> tuple[tuple[int, ...], int]:
    """The prize of each paid place (the floor of its basis points of ``pool``) and the
    breakage (the rest), which sum to ``pool``.

    >>> payouts(1_001, (5_000, 3_000, 2_000))
    ((500, 300, 200), 1)
    """
    if pool < 0 or any(share < 0 for share in shares) or sum(shares) > 10_000:
        raise ValueError("a negative pool or share, or shares above 100 %")
    prizes = tuple(pool * share // 10_000 for share in shares)
    return prizes, pool - sum(prizes)


def standings(state: MttState) -> tuple[tuple[Standing, ...], int]:
    """Every entry's place (the winner 1, the first out N) and prize, best first, with the
    pool's breakage.

    :raises TournamentError: unless the tournament is finished.
    """
    if state.status != "finished":
        raise TournamentError("not_finished", state.status)
    alive = state.alive
    order = tuple(reversed(state.busted))
    finish = alive + order
    prizes, breakage = payouts(state.prize_pool, state.spec.payout_table.shares(state.entries))
    out = tuple(
        Standing(
            place, entry, state.players[entry], prizes[place - 1] if place <= len(prizes) else 0
        )
        for place, entry in enumerate(finish, start=1)
    )
    return out, breakage


def chips_in_play(state: MttState) -> int:
    """Every entry's chips: ``starting_stack`` times the entries, always."""
    return sum(state.stacks)


def by_player(state: MttState) -> Mapping[str, PlayerId]:
    """Entries by player name."""
    return {player: entry for entry, player in enumerate(state.players)}
