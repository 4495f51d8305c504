"""The one shape every game shares: rules objects over immutable states.

A game is a stateless :class:`Game` object (one per rule family) working on frozen state
dataclasses. The server, the bots, the CLI and the tests all drive games through this API:

* ``new_state(config)`` starts a hand (a round) at a table;
* ``to_act(state)`` says who acts now: a tuple of seats (one seat in turn-based phases, several
  in simultaneous phases such as a betting window), :data:`CHANCE` when the deck must be
  shuffled or the dice rolled, or ``None`` once the hand is over;
* ``legal_actions(state)`` lists every legal action of every seat that may act now, plus the
  table's own actions (``seat=None``: closing a betting window on the server's clock);
  ``amount_ranges(state)`` gives the legal amount interval of amount-carrying actions;
* ``apply(state, event)`` validates and returns a new state; an illegal action raises
  :class:`~sanh.errors.IllegalActionError` and leaves the state untouched;
* ``observe(state, viewer)`` is the per-seat view: only what that seat may see;
* ``default_action(state, seat, reason)`` is what a timeout, a disconnection or leaving does;
* ``settle(state)`` is the result as data, summing to zero across seats, house, fees,
  clan treasuries and breakage.

Chance is data: the engine never draws randomness. When ``to_act`` is :data:`CHANCE`,
``chance_spec`` says what is needed and the caller applies a :class:`Shuffle` (a deck order)
or a :class:`Roll` (dice) made with :mod:`sanh.cards.rng`.

Every state dataclass has ``config``, ``version`` and ``history`` fields; :meth:`Game.apply`
bumps the version and appends the event, so a state's history replays to the same state.

Rounding policy (sanh-wide): a payout is an integer amount from one payer split among its
recipients (the winner, the fee, a clan treasury); each recipient's share rounds down to a
whole unit and the integer remainder is booked to ``breakage``. A 0.95:1 win is a 1:1 win less
a 5 % commission kept by the house: the player gets ``floor(0.95 x stake)``, the house keeps
``floor(0.05 x stake)`` and the remainder unit (if any) goes to breakage.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeAlias, TypeVar

from sanh.cards.card import Card
from sanh.errors import ConfigError, IllegalActionError, NotYourTurnError
from sanh.games import _texts  # noqa: F401  (the games' codes, declared before any is written)
from sanh.games._evolve import evolve
from sanh.games._rules_at_hand import GAME_RULES, PAYOUTS
from sanh.games.hosting import Hosting
from sanh.texts import clean, text
from sanh.types import Chips, Seat

__all__ = [
    "CHANCE",
    "DEFAULT_MIN_BALANCE_MULTIPLE",
    "MIN_BALANCE_OPTION",
    "Action",
    "AmountRange",
    "Chance",
    "ChanceAction",
    "ChanceSpec",
    "Event",
    "Game",
    "GameInfo",
    "GameState",
    "OptionSpec",
    "OptionValue",
    "Reason",
    "Roll",
    "Settlement",
    "SettlementLine",
    "Shuffle",
    "SitIn",
    "TableConfig",
    "Turn",
    "View",
    "check_sit_in",
    "normalize_name",
    "seat_in",
]


class Chance(Enum):
    """The chance player: the deck or the dice."""

    CHANCE = "chance"


CHANCE = Chance.CHANCE
"""Returned by :meth:`Game.to_act` when a shuffle or a roll is needed."""

Turn: TypeAlias = "tuple[Seat, ...] | Chance | None"
"""Who acts now: seats, the chance player, or nobody (the hand is over)."""

Reason: TypeAlias = Literal["timeout", "disconnect", "leave"]
"""Why the server asks a game for a seat's default action."""

OptionValue: TypeAlias = "str | int | bool"
"""The value of one rule option."""


@dataclass(frozen=True, slots=True)
class Action:
    """Base class of every player action. Subclasses are frozen dataclasses adding fields.

    ``seat`` is the acting seat, or ``None`` for the table itself (its clock or its dealer).
    """

    seat: Seat | None

    anytime: ClassVar[bool] = False
    """True for actions a seat may take out of turn (leaving, forfeiting): :meth:`Game.validate`
    then skips the turn check and leaves the rest to :meth:`Game.validate_action`."""

    wire: ClassVar[str]
    """The action's name in its JSON form (``"type"``), in stored logs, on the WebSocket and in
    the texts (``action.<wire>``): declared by every action class, so renaming the Python class
    changes nothing a log or a client has seen. A name once used is kept or moved to
    :attr:`wire_aliases`."""

    wire_aliases: ClassVar[tuple[str, ...]] = ()
    """Names the action had before: stored logs written with them still replay
    (:func:`sanh.notation.jsonable.event_from_json`)."""

    field_aliases: ClassVar[tuple[tuple[str, str], ...]] = ()
    """Earlier names of the action's fields, each with its name now (Three Card Poker's
    ``Bet.spot``, now ``bet`` as in every house game): stored logs and clients using them
    are still read (:func:`sanh.notation.jsonable.event_from_json`)."""

    def __init_subclass__(cls) -> None:
        # no super() call: a slots dataclass's methods see the class before it was rebuilt
        wire = cls.__dict__.get("wire")
        if not isinstance(wire, str) or not wire:
            raise TypeError(f"action class {cls.__qualname__} declares no wire name (wire = ...)")

    def __str__(self) -> str:
        who = "t" if self.seat is None else f"p{self.seat + 1}"
        parts = [who, self.wire.lower()]
        for f in dataclasses.fields(self)[1:]:
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                parts.append("".join(str(v) for v in value) or "-")
            else:
                parts.append(str(value))
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class SitIn(Action):
    """House games: the table seats a player in an *empty seat* while bets are open.

    In the house-banked games (``GameInfo.banked``) a seat whose stack is 0 in the
    :class:`TableConfig` and that holds no bet is an empty seat: the table (``seat=None``) may
    give it a stack (what the player can bet this round, held by the server) and the player's
    clan flag, so a player who arrives during the betting window bets in the round under way.
    The betting window never closes by itself while a seat is empty (the table closes it on
    its clock). Never listed among the legal actions: the server applies it when a player sits.
    """

    wire = "SitIn"

    chair: Seat
    stack: Chips
    clan: bool = False


def remap_seat(seat: Any, seats: Mapping[int, int | None]) -> Seat | None:
    """``seat`` of the previous hand in the next hand's lineup (see :meth:`Game.remap_carry`):
    its new engine seat, or ``None`` when that player is gone or ``seat`` is no seat."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        return None
    return seats.get(seat)


def remap_named_seats(carry: Any, seats: Mapping[int, int | None], names: Sequence[str]) -> Any:
    """A carry whose entries ``names`` are seats, in the next hand's lineup (see
    :meth:`Game.remap_carry`). A dict keeps a gone seat as ``None``; name/value pairs (the
    stud games' form) drop the pair. Anything else is returned unchanged."""
    if isinstance(carry, dict):
        return {
            k: remap_seat(v, seats) if k in names and v is not None else v for k, v in carry.items()
        }
    if isinstance(carry, list | tuple) and all(
        isinstance(item, list | tuple) and len(item) == 2 for item in carry
    ):
        pairs = [(k, remap_seat(v, seats) if k in names else v) for k, v in carry]
        return tuple((k, v) for k, v in pairs if k not in names or v is not None)
    return carry


def seat_in(config: TableConfig, action: SitIn) -> TableConfig:
    """The config with ``action.chair`` given its stack and clan flag (for :class:`SitIn`)."""
    stacks = list(config.stacks)
    stacks[action.chair] = action.stack
    members = list(config.clan_members or (False,) * config.seats)
    members[action.chair] = action.clan
    return dataclasses.replace(config, stacks=tuple(stacks), clan_members=tuple(members))


def check_sit_in(
    config: TableConfig, action: SitIn, is_empty: Callable[[Seat], bool], version: int
) -> None:
    """The common checks of a :class:`SitIn`: by the table, a real seat that is empty (the
    game's ``is_empty``: no stack, no bet, not the bank), a positive integer stack.

    :raises IllegalActionError: if the seat cannot be given this stack.
    """
    if action.seat is not None:
        raise IllegalActionError(action, "only_table_seats", version)
    chair, stack = action.chair, action.stack
    if not isinstance(chair, int) or isinstance(chair, bool) or not 0 <= chair < config.seats:
        raise IllegalActionError(action, "no_such_seat", version)
    if not isinstance(stack, int) or isinstance(stack, bool) or stack <= 0:
        raise IllegalActionError(action, "stack_not_positive", version)
    if not is_empty(chair):
        raise IllegalActionError(action, text("seat_not_empty", chair), version)


@dataclass(frozen=True, slots=True)
class Shuffle:
    """A chance event: the order of the deck, top card first."""

    order: tuple[Card, ...]

    def __str__(self) -> str:
        return "d shuffle " + "".join(str(c) for c in self.order)


@dataclass(frozen=True, slots=True)
class Roll:
    """A chance event: dice values."""

    dice: tuple[int, ...]

    def __str__(self) -> str:
        return "d roll " + "".join(str(d) for d in self.dice)


ChanceAction: TypeAlias = Shuffle | Roll
Event: TypeAlias = Action | Shuffle | Roll


@dataclass(frozen=True, slots=True)
class ChanceSpec:
    """What the chance player must supply now."""

    kind: Literal["shuffle", "roll"]
    deck: tuple[Card, ...] = ()
    """For a shuffle: the cards to order (any permutation of them is valid)."""
    dice: int = 0
    """For a roll: how many dice."""
    sides: int = 6
    """For a roll: faces per die."""


@dataclass(frozen=True, slots=True)
class AmountRange:
    """The legal amounts of an amount-carrying action: ``template`` with ``field`` in range.

    Every integer amount from ``min`` to ``max`` (inclusive) that is a multiple of ``step`` above
    ``min`` is legal, and so is ``max`` itself.
    """

    template: Action
    min: Chips
    max: Chips
    field: str = "amount"
    step: Chips = 1

    def at(self, amount: Chips) -> Action:
        """The action with this amount."""
        return dataclasses.replace(self.template, **{self.field: amount})

    def __contains__(self, amount: object) -> bool:
        return (
            isinstance(amount, int)
            and self.min <= amount <= self.max
            and (amount == self.max or (amount - self.min) % self.step == 0)
        )


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """A rule option of a game (a flag of RULES.md), with its default and allowed values.

    An option named ``..._s`` is a timer in seconds: 1 to :data:`MAX_TIMER_S`.
    """

    name: str
    default: OptionValue
    choices: tuple[OptionValue, ...] = ()
    """Allowed values; empty means any value of the default's type."""
    help: str = ""
    aliases: tuple[str, ...] = ()
    """Earlier names of the option, deprecated: read from older configs and hand histories
    (:meth:`Game.canonical_options`), never accepted by :meth:`Game.options`."""
    replay_only: bool = False
    """An option for replaying recorded hands only (Hold'em's unknown and mucked seats): the
    engine takes it, the hall never offers it nor accepts it for a table."""

    def check(self, value: object) -> OptionValue:
        """Validate one value; :class:`ConfigError` if it is not allowed."""
        kind = type(self.default)
        if kind is int and isinstance(value, bool):
            raise ConfigError(text=text("option_not_integer", self.name, clean(repr(value))))
        if not isinstance(value, kind):
            got = clean(repr(value))
            raise ConfigError(text=text("option_wrong_type", self.name, kind.__name__, got))
        if self.choices and value not in self.choices:
            allowed = clean(", ".join(map(str, self.choices)), 300)
            code = text("option_not_allowed", self.name, clean(repr(value)), allowed)
            raise ConfigError(text=code)
        timer = self.name.endswith("_s") and isinstance(value, int)
        if timer and not 1 <= value <= MAX_TIMER_S:  # type: ignore[operator]
            raise ConfigError(text=text("option_timer", self.name, MAX_TIMER_S, value))
        return value


def option(
    name: str,
    default: OptionValue,
    choices: tuple[OptionValue, ...] = (),
    help: str = "",
    *,
    aliases: tuple[str, ...] = (),
    replay_only: bool = False,
) -> Any:
    """A field of a :class:`Rules` dataclass that is a rule option: the field's default is the
    option's, its metadata the option's :class:`OptionSpec` (name, kind by the default's type,
    choices, description, earlier names)."""
    spec = OptionSpec(name, default, choices, help, aliases=aliases, replay_only=replay_only)
    return field(default=default, metadata={"option": spec})


@dataclass(frozen=True, slots=True)
class Rules:
    """A game's rule options, each declared once as a field made with :func:`option`.

    A game names its subclass in :attr:`GameInfo.rules`: :attr:`GameInfo.options` is derived
    from the fields (:meth:`specs`) and :meth:`Game.rules` gives a table's values as an
    instance (defaults filled in, each value checked by its spec, then :meth:`check`). Derived
    rules (a ranking object, a turn direction as a step) are properties of the subclass.
    """

    @classmethod
    def specs(cls) -> tuple[OptionSpec, ...]:
        """Every option, in field order."""
        return tuple(
            f.metadata["option"] for f in dataclasses.fields(cls) if "option" in f.metadata
        )

    @classmethod
    def from_options(cls: type[R], values: Mapping[str, OptionValue]) -> R:
        """The rules of resolved option values (:meth:`Game.options`), checked.

        :raises ConfigError: from :meth:`check`.
        """
        kwargs = {
            f.name: values[f.metadata["option"].name]
            for f in dataclasses.fields(cls)
            if "option" in f.metadata and f.metadata["option"].name in values
        }
        rules = cls(**kwargs)
        rules.check()
        return rules

    def check(self) -> None:
        """The checks across options (one value against another).

        :raises ConfigError: with a text code of :mod:`sanh.games._texts`.
        """


R = TypeVar("R", bound=Rules)


MAX_TIMER_S = 3600
"""The longest timer option (``..._s``: a betting window, a declaration window...), seconds."""

MIN_BALANCE_OPTION = "platform.min_balance_multiple"
"""The option of the balance a player needs to sit, × L (RULES.md §2.6, A-PL4)."""
DEFAULT_MIN_BALANCE_MULTIPLE = 10
"""RULES.md §2.6: a player-vs-player game played from the wallet needs 10 L to sit, unless
the game declares :data:`MIN_BALANCE_OPTION`."""


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Metadata declared once per game (python-chess variant style)."""

    id: str
    """Registry id, ASCII kebab-case: ``three-card-poker``."""
    name: str
    """English name."""
    name_vi: str
    """Vietnamese name."""
    seats_min: int
    seats_max: int
    deck: str
    """``"52"``, ``"36"``, ``"28"`` or ``"dice"``."""
    banked: bool
    """True for house-banked games (the house is the counterparty)."""
    max_actions: int
    """An upper bound on events in one hand; the conformance suite enforces it."""
    rules_source: str
    """Where the rules come from: RULES.md sections and seed files."""
    aliases: tuple[str, ...] = ()
    options: tuple[OptionSpec, ...] = ()
    """The game's rule options; derived from :attr:`rules` when the game declares it."""
    rules: type[Rules] | None = None
    """The game's :class:`Rules` dataclass, where each option is declared once."""

    def __post_init__(self) -> None:
        if self.rules is not None:
            if self.options:
                raise ValueError(f"{self.id}: options are derived from the Rules dataclass")
            object.__setattr__(self, "options", self.rules.specs())

    action_types: tuple[type[Action], ...] = ()
    """Every action class of the game, for parsing histories and wire messages."""
    counts_xp: bool = True
    """Whether the hand counts play time and personal XP (Tài Xỉu does not)."""
    private_actions: tuple[type[Action], ...] = ()
    """Action types that only their own seat sees: the other seats' views never show them (the
    house games whose views give only the table's totals, not each seat's bets). A recalled
    hand leaves out the other seats' actions of these types, and every :class:`SitIn` but the
    viewer's own (it carries the player's stack)."""
    hosting: Hosting = field(default_factory=Hosting)
    """What the hall needs to host the game that does not depend on the table: stake kind,
    phase clocks, seat model (:mod:`sanh.games.hosting`)."""


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A table's setup for one hand. Amounts are in minor units.

    ``stacks`` is what each seat can commit in this hand: the table stake (buy-in) in Tẩy
    games, the account balance elsewhere. ``carry`` is the per-game data carried from the
    previous hand at the table (button, previous winner, a carried pot), from
    :meth:`Game.carry`.
    """

    seats: int
    stake: Chips = 100
    """The table bet level L."""
    stacks: tuple[Chips, ...] = ()
    options: tuple[tuple[str, OptionValue], ...] = ()
    host: Seat = 0
    carry: Any = None
    clan_members: tuple[bool, ...] = ()
    """Per seat: whether the player belongs to a clan (Tài Xỉu clan shares and XP)."""

    @staticmethod
    def make(
        *,
        seats: int,
        stake: Chips = 100,
        stacks: Sequence[Chips] | None = None,
        options: Mapping[str, OptionValue] | None = None,
        host: Seat = 0,
        carry: Any = None,
        clan_members: Sequence[bool] | None = None,
    ) -> TableConfig:
        """Build a config; ``stacks`` defaults to 1,000 L per seat."""
        return TableConfig(
            seats=seats,
            stake=stake,
            stacks=tuple(stacks) if stacks is not None else (stake * 1000,) * seats,
            options=tuple(sorted((options or {}).items())),
            host=host,
            carry=carry,
            clan_members=tuple(clan_members) if clan_members is not None else (False,) * seats,
        )

    @property
    def option_map(self) -> dict[str, OptionValue]:
        """The options set explicitly, as a dict."""
        return dict(self.options)


@dataclass(frozen=True, slots=True)
class SettlementLine:
    """One itemised line: ``seat`` (``None`` = the house or bank) gains ``amount`` (signed)."""

    seat: Seat | None
    item: str
    """What the line is for: a bet (``ante``, ``pair_plus``), ``pot``, ``fee``, ``cut``..."""
    amount: Chips
    stake: Chips = 0
    """The stake the line settles, when it settles a bet."""
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Settlement:
    """The result of a hand as data.

    ``deltas[s]`` is seat ``s``'s net change. ``house`` is the house's (or system bank's) net,
    ``fee`` the fees taken, ``clan_share[s]`` the part of seat ``s``'s winnings sent to its
    clan treasury, ``breakage`` the rounding remainder. Everything sums to zero.
    """

    deltas: tuple[Chips, ...]
    house: Chips = 0
    fee: Chips = 0
    breakage: Chips = 0
    clan_share: tuple[Chips, ...] = ()
    clan_xp: tuple[int, ...] = ()
    lines: tuple[SettlementLine, ...] = ()
    detail: tuple[tuple[str, Any], ...] = field(default=())
    """Game-specific result facts (winner, hands shown...), for display and recall."""

    @property
    def total(self) -> Chips:
        """The sum that must be zero."""
        return sum(self.deltas) + self.house + self.fee + self.breakage + sum(self.clan_share)

    def check(self) -> None:
        """Assert the settlement balances and its lines agree with its deltas."""
        assert self.total == 0, f"settlement does not balance: {self.total} ({self})"
        assert self.fee >= 0 and self.breakage >= 0, "fees and breakage are never negative"
        assert all(share >= 0 for share in self.clan_share), "clan shares are never negative"
        if self.lines:
            per_seat = [0] * len(self.deltas)
            for line in self.lines:
                if line.seat is not None:
                    per_seat[line.seat] += line.amount
            assert tuple(per_seat) == self.deltas, (
                f"lines {per_seat} disagree with deltas {self.deltas}"
            )


@dataclass(frozen=True, slots=True, kw_only=True)
class View:
    """What one seat (or a spectator, ``viewer=None``) may see. Games subclass it.

    Hidden cards are ``None`` in card tuples, or are left out.
    """

    game: str
    version: int
    viewer: Seat | None
    to_act: tuple[Seat, ...]
    """Seats that may act now (empty while dealing or once over)."""
    legal_actions: tuple[Action, ...]
    """The viewer's own legal actions (none for a spectator)."""
    amount_ranges: tuple[AmountRange, ...]
    """The viewer's own legal amount ranges."""
    terminal: bool


class GameState(Protocol):
    """Every state dataclass has these fields."""

    @property
    def config(self) -> TableConfig: ...

    @property
    def version(self) -> int: ...

    @property
    def history(self) -> tuple[Event, ...]: ...


S = TypeVar("S", bound=GameState)


class Game(Generic[S]):
    """Base class of every game's rules. Subclasses declare ``info`` and the abstract parts."""

    info: ClassVar[GameInfo]

    # ----- to implement -------------------------------------------------------------
    def new_state(self, config: TableConfig) -> S:
        """The state at the start of a hand. :raises ConfigError: on an impossible config."""
        raise NotImplementedError

    def to_act(self, state: S) -> tuple[Seat, ...] | Chance | None:
        """Seats that may act, :data:`CHANCE`, or ``None`` once the hand is over."""
        raise NotImplementedError

    def chance_spec(self, state: S) -> ChanceSpec:
        """What the chance player must supply (only when ``to_act`` is :data:`CHANCE`)."""
        raise NotImplementedError

    def legal_actions(self, state: S) -> tuple[Action, ...]:
        """Every legal action now: all acting seats', and the table's (``seat=None``).

        Amount-carrying actions appear at their minimum and maximum; see
        :meth:`amount_ranges` for the full intervals.
        """
        raise NotImplementedError

    def amount_ranges(self, state: S) -> tuple[AmountRange, ...]:
        """The legal amount intervals of amount-carrying actions (none by default)."""
        return ()

    def validate_action(self, state: S, action: Action) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` is legal.

        Called by :meth:`validate` after it has checked that the hand is not over, that no
        chance event is pending, and that the seat may act now.
        """
        raise NotImplementedError

    def transition(self, state: S, event: Event) -> S:
        """The next state after a validated event (version and history are handled by apply).

        It returns ``state`` itself or a state object it has just built (never one held
        elsewhere): :meth:`apply` sets the new object's version and history in place."""
        raise NotImplementedError

    def observe(self, state: S, viewer: Seat | None) -> View:
        """What ``viewer`` may see (``None``: a spectator)."""
        raise NotImplementedError

    def settle(self, state: S) -> Settlement:
        """The settlement of a terminal state."""
        raise NotImplementedError

    def default_action(self, state: S, seat: Seat | None, reason: Reason) -> Action | None:
        """The action a timeout, a disconnection or leaving takes for ``seat`` now.

        ``seat=None`` asks for the table's action when a window's deadline passes.
        ``None`` means nothing needs to happen for that seat.
        """
        raise NotImplementedError

    def max_loss(self, config: TableConfig) -> Chips | None:
        """The most one seat can be charged in a hand at this table, or ``None`` (no bound).

        A sound upper bound, derived from the game's payment rules (each game's docstring
        gives the derivation): with unlimited stacks, no seat ever pays more than this in
        total over one hand (the sum of everything it pays, before receipts). It is also at
        least every stack threshold the game checks (the balance needed to be dealt in, to
        hold a bank), so a seat whose stack is ``min(balance, max_loss)`` plays and settles
        exactly as with its whole balance: this is the amount a server needs to hold to cap
        debts at the balance (RULES.md §2.6). Pure; it reads ``config.seats``,
        ``config.stake`` and the options, and only games whose limits depend on the other
        seats' stacks (Liêng) read ``config.stacks``.

        ``None`` (the default) means the game knows no bound below the stack: Tẩy games
        (the buy-in is the cap) and house games (a bet is its own cap).

        :raises ConfigError: on options the game refuses.
        """
        return None

    def leave_cost(self, state: S, seat: Seat) -> Chips | None:
        """What ``seat`` would be charged in total for the hand if it left now (the game's
        leaving rule applied at once, RULES.md §2.7), or ``None`` when the rule gives no exact
        amount before the hand ends (the default).

        The server quotes this amount before a player confirms leaving mid-hand; with
        ``None`` it quotes the bound instead (the amount held for the seat: ``max_loss`` or
        the stack). Pure; read from the state as it stands.
        """
        return None

    def at_risk(self, state: S, seat: Seat) -> Chips | None:
        """House games: the most ``seat`` can lose as the hand stands (its bets so far; the
        bank's reservations at a player-hosted table). The server holds this much of the
        player's gold as the bets come, since a house game needs only the amount bet
        (RULES.md §2.6). ``None`` (the default): not a house game; the stack is held whole.
        """
        return None

    def unfunded_action(self, state: S, seat: int, action: Action) -> Action | None:
        """What the game does when the server cannot hold the gold ``seat``'s ``action`` needs
        (the wallet was spent elsewhere): an action to apply instead, or ``None`` (the default:
        the action is refused and nothing happens)."""
        return None

    def out_loss(self, state: S, seat: Seat) -> Chips | None:
        """What ``seat`` loses in this hand, when it is out of the hand for good (it folded,
        left or was removed) and nothing after can change that; ``None`` (the default): the
        seat may still win or lose more, or the game cannot tell before the settlement.

        The server posts this much of the seat's hold at once and releases the rest, so that
        a player who is out of a hand is not held at every other table until it ends
        (RULES.md §2.6); the settlement then counts it as already paid. It must equal what
        :meth:`settle` will charge the seat (``-deltas[seat]``); a difference is settled at
        the hand's end (the ledger collects or returns it), never lost.
        """
        return None

    def public_record(self, state: S) -> dict[str, Any] | None:
        """A short public record of a finished hand, for the table's list of recent results
        (the Tài Xỉu road, the last winners of a house game): JSON-compatible, built only from
        what every seat saw at the end (nothing hidden). ``None`` (the default): the game
        keeps no such list. Called on a terminal state only."""
        return None

    def carry(self, state: S) -> Any:
        """Data to carry into the next hand's :attr:`TableConfig.carry` (default: none).

        It must be JSON-compatible (ints, strings, tuples, dicts) to fit hand histories.
        """
        return None

    def remap_carry(self, carry: Any, seats: Mapping[int, int | None]) -> Any:
        """The carry ``carry`` of the previous hand for the next hand's lineup (pure).

        ``seats`` maps each engine seat of the previous hand to its player's engine seat in
        the next hand, or ``None`` when that player is not in it (engine seats are renumbered
        when someone leaves or sits down between hands). A seat missing from ``seats`` counts
        as gone. The default returns ``carry`` unchanged: games whose carry names no seat.
        Games whose carry names seats override this, so that a carried seat stays the same
        player (or follows the game's own rule when that player is gone).
        """
        return carry

    def render_text(self, view: View) -> str:
        """A plain-text picture of a view, in English (a debugging aid and the engines' tests).

        Games override this; the default lists the view's fields. The terminal table
        (``sanh play``) does not use it: it shows a view in the player's language from the web
        client's strings (:mod:`sanh.cli._table`).
        """
        lines = []
        for f in dataclasses.fields(view):
            if f.name in {"legal_actions", "amount_ranges", "game", "viewer"}:
                continue
            value = getattr(view, f.name)
            if isinstance(value, tuple):
                value = " ".join("??" if v is None else str(v) for v in value)
            lines.append(f"{f.name}: {value}")
        return "\n".join(lines)

    # ----- hosting: what the hall reads (see sanh.games.hosting) -----------------------
    def phase(self, state: S) -> str | None:
        """The phase the hand is in, as :attr:`Hosting.clocks <sanh.games.hosting.Hosting.clocks>`
        names it: the hall keeps one window's clock while the phase (and the table's actions)
        stay the same. The default reads the state's ``phase`` field, if it has one."""
        phase = getattr(state, "phase", None)
        return phase if isinstance(phase, str) else None

    def buyin_limits(self, stake: Chips, options: Mapping[str, OptionValue]) -> tuple[Chips, Chips]:
        """A Tẩy game (:attr:`Hosting.table_stake <sanh.games.hosting.Hosting.table_stake>`):
        the least and the most a player's table stake may be after a buy-in (RULES.md §2.3), at
        bet level ``stake`` with the table's ``options`` (as set: unset ones take their
        defaults). Below the least a player cannot sit; the panel's timer takes the most."""
        raise NotImplementedError(f"{self.info.id} declares no buy-in")

    def topup_below(self, stake: Chips, options: Mapping[str, OptionValue]) -> Chips:
        """A Tẩy game: a table stake below this is topped up between hands (the buy-in panel
        opens again; a player who cannot leaves the seat). The default: one bet level L."""
        return stake

    def min_balance_multiple(self, options: Mapping[str, OptionValue]) -> int:
        """The balance a player needs to sit and to be dealt in, × L (RULES.md §2.6): the
        option :data:`MIN_BALANCE_OPTION` when the game declares it, else
        :data:`DEFAULT_MIN_BALANCE_MULTIPLE`; 0 (no check) in house games (a bet is its own
        cap) and Tẩy games (the table stake is)."""
        if self.info.banked or self.info.hosting.table_stake:
            return 0
        for spec in self.info.options:
            if spec.name == MIN_BALANCE_OPTION:
                return int(options.get(spec.name, spec.default))
        return DEFAULT_MIN_BALANCE_MULTIPLE

    def player_banked(self, options: Mapping[str, OptionValue]) -> bool:
        """Whether a table with these ``options`` is banked by a seated player
        (:attr:`Hosting.player_bank <sanh.games.hosting.Hosting.player_bank>`)."""
        bank = self.info.hosting.player_bank
        if bank is None:
            return False
        default = next((o.default for o in self.info.options if o.name == bank.option), None)
        return options.get(bank.option, default) == bank.value

    def bank_minimum(self, stake: Chips, options: Mapping[str, OptionValue]) -> Chips:
        """A player-banked table: the least bank a player may hold (default: one L)."""
        return stake

    def check_house_options(self, values: Mapping[str, OptionValue]) -> None:
        """Refuse what a host may not choose at a table the house banks (paying more than
        the rule texts' paytables): the engine takes any option value (for analysis), the hall
        does not let a player set what the house pays. ``values``: every option's value
        (:meth:`options`). The default refuses nothing.

        :raises ConfigError: ``option_over_house_paytable`` or the game's own refusal.
        """

    def rules_at_hand(self) -> dict[str, Any]:
        """The rules at hand (``GET /api/rules``): ``section`` (where the full rules are),
        ``vi`` and ``en``, each ``{"how_to_play": str, "rules": [str, ...]}``. The default
        reads the built-in games' texts (:mod:`sanh.games._rules_at_hand`); a game without
        them has its ``rules_source`` and its names only."""
        entry = GAME_RULES.get(self.info.id)
        if entry is not None:
            return entry
        info = self.info
        return {
            "section": info.rules_source,
            "vi": {"how_to_play": info.name_vi, "rules": []},
            "en": {"how_to_play": info.name, "rules": []},
        }

    def bet_payout(self, bet: str) -> str:
        """A house game: the payout of a bet kind of its odds report under the default
        paytables (``n:1``, or the paytable from the best hand down); ``""`` if unknown."""
        return PAYOUTS.get(self.info.id, {}).get(bet, "")

    # ----- provided -----------------------------------------------------------------
    def rules(self, config: TableConfig) -> Rules:
        """The table's rule options as the game's :attr:`GameInfo.rules` dataclass (cached
        per game and set of options).

        :raises ConfigError: on an unknown option, a value not allowed or options that do not
            go together.
        :raises TypeError: if the game declares no :class:`Rules`.
        """
        key = tuple((name, type(value), value) for name, value in config.options)
        try:
            hash(key)
        except TypeError:  # an unhashable value: refused by options(), uncached
            return _rules_now(self, config.options)
        return _rules_of(self, key)

    def rule_values(self, config: TableConfig) -> dict[str, OptionValue]:
        """The option values :meth:`rules` builds the :class:`Rules` from: :meth:`options`,
        unless a game derives some from others (a rule set choosing its flags' defaults).
        A pure function of ``config.options``."""
        return self.options(config)

    def options(self, config: TableConfig) -> dict[str, OptionValue]:
        """The table's options with defaults filled in.

        :raises ConfigError: on an unknown option or a value not allowed.
        """
        specs = {spec.name: spec for spec in self.info.options}
        resolved: dict[str, OptionValue] = {name: spec.default for name, spec in specs.items()}
        for name, value in config.options:
            spec = specs.get(name)
            if spec is None:
                renamed = self.deprecated_names().get(name)
                game_id, name = self.info.id, clean(name)
                raise ConfigError(
                    text=text("unknown_option_renamed", game_id, name, renamed)
                    if renamed
                    else text("unknown_option", game_id, name)
                )
            resolved[name] = spec.check(value)
        return resolved

    def deprecated_names(self) -> dict[str, str]:
        """Every deprecated option name of the game, mapped to the option's name."""
        return {alias: spec.name for spec in self.info.options for alias in spec.aliases}

    def canonical_options(self, options: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
        """``options`` with each deprecated name (:attr:`OptionSpec.aliases`) replaced by the
        option's name, for reading older configs, hand histories and saved tables.

        :raises ConfigError: if one option is given under two names with different values.
        """
        renamed = self.deprecated_names()
        out: dict[str, OptionValue] = {}
        for name, value in options.items():
            new = renamed.get(name, name)
            if new in out and out[new] != value:
                raise ConfigError(text=text("option_twice", self.info.id, clean(new)))
            out[new] = value
        return out

    def canonical_config(self, config: TableConfig) -> TableConfig:
        """``config`` with its options under their names (see :meth:`canonical_options`)."""
        options = self.canonical_options(config.option_map)
        return dataclasses.replace(config, options=tuple(sorted(options.items())))

    def check_config(self, config: TableConfig) -> None:
        """Common config checks: seat count, stake, stacks.

        :raises ConfigError: if the config is impossible for this game.
        """
        info = self.info
        if not info.seats_min <= config.seats <= info.seats_max:
            bounds = (info.seats_min, info.seats_max, config.seats)
            raise ConfigError(text=text("seats_range", info.id, *bounds))
        if config.stake <= 0:
            raise ConfigError(text=text("stake_not_positive", config.stake))
        if len(config.stacks) != config.seats:
            raise ConfigError(text=text("stacks_for_seats", len(config.stacks), config.seats))
        if any(stack < 0 for stack in config.stacks):
            raise ConfigError(text=text("stack_negative"))
        if not 0 <= config.host < config.seats:
            raise ConfigError(text=text("host_not_seated", config.host))
        self.options(config)

    def validate(self, state: S, event: Event) -> None:
        """Raise :class:`IllegalActionError` unless ``event`` may be applied now."""
        turn = self.to_act(state)
        if turn is None:
            raise IllegalActionError(event, "hand_over", state.version)
        if isinstance(event, Shuffle | Roll):
            if turn is not CHANCE:
                raise IllegalActionError(event, "no_chance_due", state.version)
            _validate_chance(self.chance_spec(state), event, state.version)
            return
        if not isinstance(event, Action):
            raise IllegalActionError(event, "not_an_action", state.version)
        if turn is CHANCE:
            raise IllegalActionError(event, "waiting_deal", state.version)
        if not isinstance(event, self.info.action_types):
            raise IllegalActionError(event, "not_game_action", state.version)
        if event.seat is not None:
            if not 0 <= event.seat < state.config.seats:
                raise IllegalActionError(event, "no_such_seat", state.version)
            if event.seat not in turn and not event.anytime:
                raise NotYourTurnError(event, text("seat_may_not_act", event.seat), state.version)
        self.validate_action(state, event)

    def is_legal(self, state: S, event: Event) -> bool:
        """Whether :meth:`apply` would accept ``event``."""
        try:
            self.validate(state, event)
        except IllegalActionError:
            return False
        return True

    def apply(self, state: S, event: Event) -> S:
        """Validate ``event`` and return the next state; ``state`` is never modified.

        :raises IllegalActionError: if ``event`` is not legal now.
        """
        self.validate(state, event)
        nxt = self.transition(state, event)
        version, history = state.version + 1, (*state.history, event)
        if nxt is state:
            return evolve(nxt, version=version, history=history)
        # Any other state a transition returns is one it has just built, which nobody else
        # holds yet: it gets its version and history in place instead of being copied again.
        object.__setattr__(nxt, "version", version)
        object.__setattr__(nxt, "history", history)
        return nxt

    def is_terminal(self, state: S) -> bool:
        """Whether the hand is over."""
        return self.to_act(state) is None

    def legal_actions_for(self, state: S, seat: Seat | None) -> tuple[Action, ...]:
        """The legal actions of one seat (or of the table, ``seat=None``)."""
        turn = self.to_act(state)
        if not isinstance(turn, tuple):
            return ()
        return tuple(a for a in self.legal_actions(state) if a.seat == seat)

    def amount_ranges_for(self, state: S, seat: Seat | None) -> tuple[AmountRange, ...]:
        """The legal amount ranges of one seat."""
        turn = self.to_act(state)
        if not isinstance(turn, tuple):
            return ()
        return tuple(r for r in self.amount_ranges(state) if r.template.seat == seat)

    def view_base(self, state: S, viewer: Seat | None) -> dict[str, Any]:
        """The common :class:`View` fields, for subclasses' ``observe``."""
        turn = self.to_act(state)
        seats = turn if isinstance(turn, tuple) else ()
        mine = viewer is not None and viewer in seats
        return {
            "game": self.info.id,
            "version": state.version,
            "viewer": viewer,
            "to_act": seats,
            "legal_actions": self.legal_actions_for(state, viewer) if mine else (),
            "amount_ranges": self.amount_ranges_for(state, viewer) if mine else (),
            "terminal": turn is None,
        }

    def replay(self, config: TableConfig, events: Sequence[Event]) -> S:
        """Apply ``events`` to a new state, validating each."""
        state = self.new_state(config)
        for event in events:
            state = self.apply(state, event)
        return state


def _validate_chance(spec: ChanceSpec, event: Shuffle | Roll, version: int) -> None:
    if spec.kind == "shuffle":
        if not isinstance(event, Shuffle):
            raise IllegalActionError(event, "shuffle_due", version)
        if sorted(event.order) != sorted(spec.deck):
            raise IllegalActionError(event, "not_permutation", version)
    else:
        if not isinstance(event, Roll):
            raise IllegalActionError(event, "roll_due", version)
        if len(event.dice) != spec.dice or not all(1 <= d <= spec.sides for d in event.dice):
            raise IllegalActionError(event, text("dice_needed", spec.dice, spec.sides), version)


def normalize_name(name: str) -> str:
    """Fold a game name for lookup: lower case, no diacritics, ``-`` between words.

    >>> normalize_name("Tiến lên miền Nam")
    'tien-len-mien-nam'
    >>> normalize_name("Tài_Xỉu")
    'tai-xiu'
    """
    text = name.strip().lower().replace("đ", "d").replace("Đ", "d")
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    for sep in ("_", " ", "/"):
        text = text.replace(sep, "-")
    while "--" in text:
        text = text.replace("--", "-")
    return text.strip("-")


@lru_cache(maxsize=1024)
def _rules_of(game: Game[Any], key: tuple[tuple[str, type, OptionValue], ...]) -> Rules:
    """:meth:`Game.rules` remembered per game and typed option set (``1`` and ``True``, equal
    as keys, are kept apart: one may be allowed and the other not)."""
    return _rules_now(game, tuple((name, value) for name, _, value in key))


def _rules_now(game: Game[Any], options: tuple[tuple[str, OptionValue], ...]) -> Rules:
    cls = game.info.rules
    if cls is None:
        raise TypeError(f"{game.info.id} declares no Rules dataclass")
    return cls.from_options(
        game.rule_values(TableConfig(seats=game.info.seats_min, options=options))
    )
