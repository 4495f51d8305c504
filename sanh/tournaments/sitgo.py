"""A Sit & Go tournament's rules, as plain data and pure functions (no I/O, no clock).

A Sit & Go (:class:`SitGo`) is one table of ``seats`` entrants that starts the moment it is
full: Texas Hold'em, Poker All-in or Fold or Tiến lên, played with tournament chips (every
entrant gets ``starting_chips``; chips are never gold). The hall (:mod:`sanh.server.tournaments`)
runs its table like any other table and calls :func:`after_hand` with each hand's stacks; the
ledger (:mod:`sanh.ledger.tourney`) holds the buy-ins and fees and pays the prizes.

- **Blinds** (the poker games) rise every ``hands_per_level`` hands along :data:`BLINDS`
  (small, big), scaled so the first big blind is ``starting_chips / 50``: deterministic by hands.
- **Eliminations**: a player with no chips after a hand is out. Players out in the same hand
  finish in the order of their stacks before it (the larger higher), then by seat.
- **The end**: the poker games end when one player has every chip; Tiến lên after
  ``games`` games (or sooner when one player is left), places by chips (ties by seat).
- **Prizes**: the pool is ``buy_in`` times the entrants; :func:`payout_shares` pays one place
  up to 3 seats, two up to 6, three from 7 (basis points); each prize is the floor of its
  share and the remainder is breakage (:func:`sanh.ledger.tourney.prizes`). The fee is the
  house's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from sanh.errors import SanhError

__all__ = [
    "BLINDS",
    "GAMES",
    "SitGo",
    "SitGoError",
    "SitGoSpec",
    "after_hand",
    "blinds",
    "payout_shares",
    "register",
    "start",
    "unregister",
]

GAMES = ("texas-holdem", "poker-aof", "tien-len")
"""The games a Sit & Go is offered in."""
POKER = ("texas-holdem", "poker-aof")

BLINDS: tuple[tuple[int, int], ...] = (
    (1, 2),
    (2, 4),
    (3, 6),
    (5, 10),
    (8, 16),
    (10, 20),
    (15, 30),
    (25, 50),
    (40, 80),
    (50, 100),
)
"""The blind levels in units of ``starting_chips / 100`` (the first big blind is 2 % of a
stack); the last level stays."""


class SitGoError(SanhError, ValueError):
    """A refused step; ``code`` is a text code (sanh/server/texts.py), nothing changed."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True, slots=True)
class SitGoSpec:
    """What a Sit & Go is: its game, seats, buy-in and fee (minor units of gold), chips."""

    game: str
    seats: int
    buy_in: int
    fee: int = 0
    starting_chips: int = 1_000
    hands_per_level: int = 5
    games: int = 4
    """Tiến lên: the number of games played."""
    stake: int = 10
    """Tiến lên: the table stake in chips."""

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise SitGoError("tournament_game")
        most = 4 if self.game == "tien-len" else 9
        if not 2 <= self.seats <= most:
            raise SitGoError("tournament_seats")
        if not 0 < self.buy_in <= 100_000_000 or not 0 <= self.fee <= self.buy_in:
            raise SitGoError("tournament_buy_in")
        if self.starting_chips < 100 or self.hands_per_level < 1 or self.games < 1:
            raise SitGoError("tournament_structure")


@dataclass(slots=True)
class SitGo:
    """A Sit & Go's state (mutable, kept as JSON by the hall)."""

    id: str
    spec: SitGoSpec
    creator: str
    status: str = "registering"
    """``registering``, ``running``, ``finished`` or ``cancelled``."""
    entrants: list[str] = field(default_factory=list)
    """Player ids in the order they registered (their seats once it starts)."""
    entries: dict[str, int] = field(default_factory=dict)
    """Per player, how many entries they have made (the ledger's batch ids count them)."""
    stacks: dict[str, int] = field(default_factory=dict)
    hands: int = 0
    out: list[str] = field(default_factory=list)
    """Players out, the first out first."""
    places: list[str] = field(default_factory=list)
    """At the end: every entrant, first place first."""
    prizes: list[int] = field(default_factory=list)
    """At the end: the prize of each paid place, first place first."""
    breakage: int = 0
    table: str | None = None
    created_at: float = 0.0

    @property
    def pool(self) -> int:
        """The prize pool: the buy-ins (the fees are the house's)."""
        return self.spec.buy_in * len(self.entrants)

    def to_json(self) -> dict[str, Any]:
        """The state as JSON."""
        data = asdict(self)
        data["spec"] = asdict(self.spec)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SitGo:
        """The state from :meth:`to_json`."""
        values = dict(data)
        values["spec"] = SitGoSpec(**values["spec"])
        return cls(**values)


def payout_shares(entrants: int) -> tuple[int, ...]:
    """The paid places' shares in basis points (summing to 10,000)."""
    if entrants <= 3:
        return (10_000,)
    if entrants <= 6:
        return (6_500, 3_500)
    return (5_000, 3_000, 2_000)


def blinds(sitgo: SitGo) -> tuple[int, int]:
    """The (small, big) blind of the next hand: the level of the hands played so far."""
    unit = max(1, sitgo.spec.starting_chips // 100)
    level = min(sitgo.hands // sitgo.spec.hands_per_level, len(BLINDS) - 1)
    small, big = BLINDS[level]
    return small * unit, big * unit


def level(sitgo: SitGo) -> int:
    """The blind level of the next hand, from 1."""
    return min(sitgo.hands // sitgo.spec.hands_per_level, len(BLINDS) - 1) + 1


def register(sitgo: SitGo, player: str) -> bool:
    """Enter ``player`` (refused if not registering, already in or full); True when the
    tournament is now full (it starts)."""
    if sitgo.status != "registering":
        raise SitGoError("tournament_not_registering")
    if player in sitgo.entrants:
        raise SitGoError("tournament_registered_already")
    if len(sitgo.entrants) >= sitgo.spec.seats:
        raise SitGoError("tournament_full")
    sitgo.entrants.append(player)
    sitgo.entries[player] = sitgo.entries.get(player, 0) + 1
    return len(sitgo.entrants) == sitgo.spec.seats


def unregister(sitgo: SitGo, player: str) -> None:
    """Withdraw ``player`` before the start."""
    if sitgo.status != "registering":
        raise SitGoError("tournament_not_registering")
    if player not in sitgo.entrants:
        raise SitGoError("tournament_not_registered")
    sitgo.entrants.remove(player)


def start(sitgo: SitGo, table: str) -> None:
    """Start a full tournament at ``table``: every entrant gets the starting chips."""
    if sitgo.status != "registering" or len(sitgo.entrants) != sitgo.spec.seats:
        raise SitGoError("tournament_not_full")
    sitgo.status = "running"
    sitgo.table = table
    sitgo.stacks = {player: sitgo.spec.starting_chips for player in sitgo.entrants}


def after_hand(sitgo: SitGo, deltas: Mapping[str, int]) -> list[str]:
    """Apply one hand's chip changes (they sum to zero), put out the players left with no chips
    and end the tournament when it is over; the players out in this hand."""
    if sitgo.status != "running":
        raise SitGoError("tournament_not_running")
    if sum(deltas.values()) != 0:
        raise SitGoError("tournament_chips_not_conserved")
    before = dict(sitgo.stacks)
    for player, delta in deltas.items():
        sitgo.stacks[player] = sitgo.stacks[player] + delta
        if sitgo.stacks[player] < 0:
            raise SitGoError("tournament_chips_not_conserved")
    sitgo.hands += 1
    seat = {player: index for index, player in enumerate(sitgo.entrants)}
    busted = [p for p in sitgo.entrants if p not in sitgo.out and sitgo.stacks[p] == 0]
    busted.sort(key=lambda p: (before[p], -seat[p]))  # the smaller stack is out first
    sitgo.out.extend(busted)
    alive = [p for p in sitgo.entrants if p not in sitgo.out]
    over = len(alive) <= 1 or (sitgo.spec.game == "tien-len" and sitgo.hands >= sitgo.spec.games)
    if over:
        alive.sort(key=lambda p: (-sitgo.stacks[p], seat[p]))
        sitgo.places = alive + list(reversed(sitgo.out))
        sitgo.status = "finished"
    return busted


def prize_table(sitgo: SitGo) -> list[tuple[str, int]]:
    """At the end, each paid place's ``(player, prize)``, first place first."""
    return list(zip(sitgo.places, sitgo.prizes, strict=False))


def chips_in_play(stacks: Sequence[int]) -> int:
    """The chips of a table (constant: ``seats * starting_chips``)."""
    return sum(stacks)
