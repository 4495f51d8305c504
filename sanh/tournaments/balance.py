"""Seating, balancing and breaking the tables of a multi-table tournament (pure, deterministic).

Every function here takes immutable :class:`Table` states and returns new ones; the only
randomness is the :class:`~sanh.cards.rng.Rng` passed in (a
:class:`~sanh.cards.rng.SeededRng` in tests and simulations), so the same inputs always give
the same seating.

The rules, after the Poker TDA rules (2019 numbering; 2022 and 2024 moved them one number up):

* **Seating** (TDA 2, 9A): seats are drawn at random. The opening seating deals the shuffled
  field round-robin over ``ceil(N / size)`` tables, so they differ by at most one player.
* **Breaking** (TDA 9, "players from a broken table are assigned new tables and seats by a
  random process"): after each hand round, while the players left fit in one table fewer,
  the table with the fewest players breaks (ties: the highest table number, a predetermined
  order as TDA 10C asks). Its players are seated one at a time, beginning with the player due
  the big blind next, each at a random empty seat of a random table among those with the
  fewest players, so the room stays balanced.
* **Balancing** (TDA 10A, "the player to be big blind next moves to the worst position,
  including single big blind if available ... worst position is never the small blind"):
  while a table has two or more players fewer than the fullest, the player due the big blind
  next at the fullest table (ties: the lowest table number) moves to the shortest table (ties:
  the lowest number), to the empty seat where he posts the big blind soonest: the single big
  blind of the next hand when an empty seat lies there. Play never halts (TDA 10D), since the
  room is balanced after every hand round.
* **The final table**: when the players left fit in one table, the last tables break into a
  new final table whose seats and button are drawn afresh.

**Blinds and button.** sanh's Hold'em engine has no dead button or dead small blind: the
button and both blinds are live seats (the engine's button is the seat given in
``carry["button"]``, the small and big blinds the next seats with chips; heads-up the button
posts the small blind). So the tournament uses a *forward-moving big blind*, the part of the
TDA's dead-button rule (TDA 32) that the engine can express: each hand's big blind is the first
player dealt in clockwise after the seat of the previous hand's big blind, and the small blind
and the button are the two players before him (:func:`next_blinds`). Nobody ever skips the big
blind, however players bust or move; a seat may post the small blind or hold the button twice
where a dead-button room would leave that position dead.

**A moved player** (balancing, a broken table; a late entrant too, TDA 9A) keeps his fairness
relative to the big blind: let ``due`` be the number of hands until a seat posts the big blind
(1: the next hand; :func:`due`). He is dealt in at once only if his new seat is neither the
next button nor the next small blind (TDA's "dealt in except between the small blind and
button") *and* his due at the new seat is no later than at his old table (the same or a worse
position; a late entrant has no old table). Otherwise he *waits*: he keeps his seat and chips,
is not dealt, and is dealt in at the hand in which his seat is the big blind. So a moved player
never plays a hand he would not have paid for at his old table, and never skips the big blind
he owes. The player moved for balance is the one due next (``due == 1``): he plays on at once
only in the seat of the next big blind, else waits for it.

Bounds the simulation asserts (``tests/tournaments/test_mtt.py``): after every balancing step
the room has ``ceil(players / size)`` tables (fewer than ``size`` empty seats in all) whose
player counts differ by at most one, and a waiting player is dealt in within ``size`` hands.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from sanh.cards.rng import Rng, shuffled

__all__ = [
    "Move",
    "Table",
    "balance",
    "dealt_in",
    "due",
    "next_blinds",
    "opening_tables",
    "place_arrival",
]

PlayerId = int
"""An entry's number in the tournament."""


@dataclass(frozen=True, slots=True)
class Table:
    """One table between hands.

    ``seats[s]`` is the player at seat ``s`` or ``None``; ``waiting`` the seats whose players
    wait for their big blind (seated, not dealt); ``last_bb`` the seat of the previous hand's
    big blind (``None`` at a table that has not dealt yet: its first big blind is drawn).
    """

    id: int
    seats: tuple[PlayerId | None, ...]
    last_bb: int | None = None
    waiting: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        size = len(self.seats)
        if size < 2:
            raise ValueError(f"a table has at least two seats, not {size}")
        if self.last_bb is not None and not 0 <= self.last_bb < size:
            raise ValueError(f"last_bb {self.last_bb} is not a seat of {size}")
        for seat in self.waiting:
            if not 0 <= seat < size or self.seats[seat] is None:
                raise ValueError(f"waiting seat {seat} holds no player")

    @property
    def size(self) -> int:
        """The number of seats."""
        return len(self.seats)

    @property
    def count(self) -> int:
        """The number of players seated (waiting ones included)."""
        return sum(1 for player in self.seats if player is not None)

    @property
    def players(self) -> tuple[PlayerId, ...]:
        """The players seated, by seat."""
        return tuple(player for player in self.seats if player is not None)

    @property
    def fresh(self) -> bool:
        """Whether the table has not dealt a hand yet."""
        return self.last_bb is None

    def seat_of(self, player: PlayerId) -> int:
        """The seat of ``player``.

        :raises KeyError: if he is not at this table.
        """
        for seat, here in enumerate(self.seats):
            if here == player:
                return seat
        raise KeyError(player)

    def empty_seats(self) -> tuple[int, ...]:
        """The empty seats, in seat order."""
        return tuple(seat for seat, player in enumerate(self.seats) if player is None)

    def active(self) -> tuple[int, ...]:
        """The occupied seats that are not waiting, in seat order."""
        waiting = self.waiting
        return tuple(
            seat
            for seat, player in enumerate(self.seats)
            if player is not None and seat not in waiting
        )


@dataclass(frozen=True, slots=True)
class Move:
    """A player seated by a balancing step: from a table (``None`` for a new entrant) to one.

    ``why`` is ``balance``, ``break``, ``final`` or ``arrival``; ``due_before`` and
    ``due_after`` the hands until his big blind at the old and the new seat (``None`` where
    there is none to keep: a new entrant, a new table); ``waits``: he waits for his big blind.
    """

    player: PlayerId
    why: str
    from_table: int | None
    from_seat: int | None
    to_table: int
    to_seat: int
    due_before: int | None
    due_after: int | None
    waits: bool


# ----- blinds ------------------------------------------------------------------------------
def _after(start: int, size: int, seats: Iterable[int]) -> list[int]:
    """``seats`` in clockwise order from the seat after ``start``."""
    return sorted(seats, key=lambda seat: (seat - start - 1) % size)


def next_blinds(table: Table, dealt: Sequence[int] | None = None) -> tuple[int, int, int]:
    """The ``(button, small blind, big blind)`` seats of the next hand among ``dealt`` (by
    default :func:`dealt_in`): the big blind is the first dealt seat after the previous big
    blind; the small blind and the button are the two dealt seats before it (heads-up the
    button is the small blind, as the engine plays it). A fresh table has no previous big
    blind: it is drawn by :func:`first_hand`.

    :raises ValueError: with fewer than two seats dealt, or at a fresh table.
    """
    seats = tuple(dealt) if dealt is not None else dealt_in(table)
    if len(seats) < 2:
        raise ValueError("fewer than two players to deal")
    if table.last_bb is None:
        raise ValueError("a fresh table draws its first big blind (first_hand)")
    order = _after(table.last_bb, table.size, seats)
    big = order[0]
    if len(order) == 2:
        return order[1], order[1], big
    return order[-2], order[-1], big


def dealt_in(table: Table) -> tuple[int, ...]:
    """The seats dealt in the next hand: the active ones, and the first waiting seat reached
    by the big blind (the first seat after ``last_bb`` that is waiting, when it comes before
    every active seat); every waiting seat when fewer than two would be dealt otherwise."""
    active = table.active()
    if not table.waiting:
        return active
    if len(active) < 2 or table.last_bb is None:
        return tuple(seat for seat in range(table.size) if table.seats[seat] is not None)
    first = _after(table.last_bb, table.size, (*active, *table.waiting))[0]
    if first in table.waiting:
        return tuple(sorted((*active, first)))
    return active


def due(table: Table, seat: int, *, inserted: bool = False) -> int:
    """The number of hands until ``seat`` posts the big blind, 1 for the next hand.

    The big blind moves forward one player a hand through the occupied seats (a waiting seat
    is reached in turn, as :func:`dealt_in` deals it), so this is ``seat``'s place in the
    clockwise order of the occupied seats after ``last_bb``. ``inserted``: ``seat`` is empty
    and would be taken by a new player.

    :raises ValueError: at a fresh table, or for an empty seat not ``inserted``.
    """
    if table.last_bb is None:
        raise ValueError("a fresh table has no big blind yet")
    occupied = [s for s in range(table.size) if table.seats[s] is not None]
    if inserted:
        if table.seats[seat] is not None:
            raise ValueError(f"seat {seat} is taken")
        occupied.append(seat)
    elif table.seats[seat] is None:
        raise ValueError(f"seat {seat} is empty")
    return _after(table.last_bb, table.size, occupied).index(seat) + 1


def _late_positions(table: Table, seat: int) -> bool:
    """Whether a new player dealt in at once at empty ``seat`` would be the next hand's button
    or small blind (among the seats that hand deals: a waiting seat not reached by the big
    blind is not dealt). Later hands cannot make him either before his big blind: those are
    always the two dealt seats just behind the big blind, which walks towards him."""
    occupied = sum(1 for player in table.seats if player is not None)
    if occupied < 2 or table.last_bb is None:
        return True  # heads-up the button posts the small blind: every seat is one of them
    seats = list(table.seats)
    seats[seat] = -1
    trial = Table(table.id, tuple(seats), table.last_bb, table.waiting)
    dealt = dealt_in(trial)
    if seat not in dealt or len(dealt) < 3:
        return True
    button, small, _big = next_blinds(trial, dealt)
    return seat in (button, small)


def first_hand(table: Table, rng: Rng) -> Table:
    """A fresh table's first hand: the seat before its first big blind is drawn (TDA: the
    button is drawn); a table that has dealt is returned as it is."""
    if table.last_bb is not None:
        return table
    return replace(table, last_bb=rng.randbelow(table.size))


def after_hand(table: Table, big_blind: int, dealt: Sequence[int], busted: Iterable[int]) -> Table:
    """The table after a hand: ``big_blind`` was the big blind, the seats of ``dealt`` played
    (a waiting one among them no longer waits) and the players of ``busted`` leave."""
    gone = set(busted)
    seats = tuple(None if seat in gone else player for seat, player in enumerate(table.seats))
    waiting = frozenset(seat for seat in table.waiting if seat not in dealt and seat not in gone)
    return Table(table.id, seats, big_blind, waiting)


# ----- placing players ---------------------------------------------------------------------
def _put(table: Table, seat: int, player: PlayerId, waits: bool) -> Table:
    seats = list(table.seats)
    seats[seat] = player
    waiting = table.waiting | {seat} if waits else table.waiting
    return Table(table.id, tuple(seats), table.last_bb, waiting)


def _remove(table: Table, seat: int) -> Table:
    seats = list(table.seats)
    seats[seat] = None
    return Table(table.id, tuple(seats), table.last_bb, table.waiting - {seat})


def _arrive(
    table: Table, seat: int, player: PlayerId, due_before: int | None
) -> tuple[Table, int | None, bool]:
    """Seat ``player`` at empty ``seat``: (the table, his due there, whether he waits), by the
    moved player's rule of the module docstring."""
    if table.fresh:
        return _put(table, seat, player, False), None, False
    after = due(table, seat, inserted=True)
    late = _late_positions(table, seat)
    waits = late or (due_before is not None and after > due_before)
    return _put(table, seat, player, waits), after, waits


def place_arrival(
    tables: Sequence[Table],
    player: PlayerId,
    rng: Rng,
    *,
    why: str = "arrival",
    origin: tuple[int, int, int | None] | None = None,
) -> tuple[tuple[Table, ...], Move]:
    """Seat ``player`` at a random empty seat of a random table among those with the fewest
    players (TDA 9: a two-step draw). ``origin`` is ``(table, seat, due)`` where he comes from.

    :raises ValueError: if no table has an empty seat.
    """
    open_tables = [index for index, table in enumerate(tables) if table.empty_seats()]
    if not open_tables:
        raise ValueError("no empty seat")
    fewest = min(tables[index].count for index in open_tables)
    candidates = [index for index in open_tables if tables[index].count == fewest]
    index = candidates[rng.randbelow(len(candidates))]
    table = tables[index]
    empty = table.empty_seats()
    seat = empty[rng.randbelow(len(empty))]
    due_before = origin[2] if origin is not None else None
    new, after, waits = _arrive(table, seat, player, due_before)
    out = list(tables)
    out[index] = new
    move = Move(
        player,
        why,
        origin[0] if origin else None,
        origin[1] if origin else None,
        table.id,
        seat,
        due_before,
        after,
        waits,
    )
    return tuple(out), move


def _next_bb_seat(table: Table, rng: Rng) -> int:
    """The seat due the big blind next (``due == 1``; at a fresh table: a drawn player)."""
    occupied = [seat for seat in range(table.size) if table.seats[seat] is not None]
    if table.last_bb is None:
        return occupied[rng.randbelow(len(occupied))]
    return _after(table.last_bb, table.size, occupied)[0]


def _due_or_none(table: Table, seat: int) -> int | None:
    return None if table.fresh else due(table, seat)


def _worst_seat(table: Table) -> int:
    """The empty seat where a new player posts the big blind soonest and is not the next
    button nor small blind (TDA 10A's worst position); failing that, the soonest."""
    empty = table.empty_seats()
    if table.fresh:
        return empty[0]
    ranked = sorted(
        empty, key=lambda seat: (_late_positions(table, seat), due(table, seat, inserted=True))
    )
    return ranked[0]


def _break(tables: list[Table], index: int, rng: Rng, why: str, moves: list[Move]) -> list[Table]:
    """Break ``tables[index]``: its players take seats at the others (module docstring)."""
    broken = tables.pop(index)
    start = _next_bb_seat(broken, rng) if broken.count else 0
    order = _after(
        start - 1, broken.size, [s for s in range(broken.size) if broken.seats[s] is not None]
    )
    room: tuple[Table, ...] = tuple(tables)
    for seat in order:
        player = broken.seats[seat]
        assert player is not None
        origin = (broken.id, seat, _due_or_none(broken, seat))
        room, move = place_arrival(room, player, rng, why=why, origin=origin)
        moves.append(move)
    return list(room)


def _move_one(tables: list[Table], rng: Rng, moves: list[Move]) -> None:
    """Move one player from the fullest table to the shortest (TDA 10A)."""
    most = max(table.count for table in tables)
    least = min(table.count for table in tables)
    source = min(index for index, table in enumerate(tables) if table.count == most)
    target = min(index for index, table in enumerate(tables) if table.count == least)
    from_table = tables[source]
    seat = _next_bb_seat(from_table, rng)
    player = from_table.seats[seat]
    assert player is not None
    due_before = _due_or_none(from_table, seat)
    to_table = tables[target]
    to_seat = _worst_seat(to_table)
    new, after, waits = _arrive(to_table, to_seat, player, due_before)
    tables[source] = _remove(from_table, seat)
    tables[target] = new
    moves.append(
        Move(player, "balance", from_table.id, seat, to_table.id, to_seat, due_before, after, waits)
    )


def tables_needed(players: int, size: int) -> int:
    """The fewest tables of ``size`` seats that hold ``players``: ``ceil(players / size)``."""
    return max(1, -(-players // size))


def balance(
    tables: Sequence[Table],
    size: int,
    rng: Rng,
    arrivals: Sequence[PlayerId] = (),
    *,
    next_id: int | None = None,
) -> tuple[tuple[Table, ...], tuple[Move, ...]]:
    """One balancing step after a hand round: seat ``arrivals`` (late entrants), open or break
    tables to ``ceil(players / size)``, form the final table, and move players until every
    table is within one player of every other (module docstring). Tables left empty are
    removed. Returns the tables, by table number, and the moves made. A table opened gets
    number ``next_id`` (by default one more than the highest of ``tables``), then the next.

    :raises ValueError: if a table is not of ``size`` seats.
    """
    for table in tables:
        if table.size != size:
            raise ValueError(f"table {table.id} has {table.size} seats, not {size}")
    moves: list[Move] = []
    room = sorted((table for table in tables if table.count), key=lambda table: table.id)
    players = sum(table.count for table in room) + len(arrivals)
    if players == 0:
        return (), ()
    needed = tables_needed(players, size)
    if next_id is None:
        next_id = max((table.id for table in tables), default=0) + 1
    if needed == 1 and (len(room) > 1 or (not room and arrivals)):
        return _final_table(room, size, rng, arrivals, next_id)
    while len(room) < needed:
        room.append(Table(next_id, (None,) * size))
        next_id += 1
    while len(room) > needed:
        fewest = min(table.count for table in room)
        index = max(i for i, table in enumerate(room) if table.count == fewest)
        room = _break(room, index, rng, "break", moves)
    seated: tuple[Table, ...] = tuple(room)
    for player in arrivals:
        seated, move = place_arrival(seated, player, rng)
        moves.append(move)
    room = list(seated)
    while max(table.count for table in room) - min(table.count for table in room) >= 2:
        _move_one(room, rng, moves)
    return tuple(room), tuple(moves)


def _final_table(
    room: list[Table], size: int, rng: Rng, arrivals: Sequence[PlayerId], table_id: int
) -> tuple[tuple[Table, ...], tuple[Move, ...]]:
    """Every player left at a new table, seats drawn at random; its button is drawn too."""
    origins = [
        (player, table.id, seat)
        for table in room
        for seat, player in enumerate(table.seats)
        if player is not None
    ]
    people: list[tuple[PlayerId, int | None, int | None]] = [*origins]
    people.extend((player, None, None) for player in arrivals)
    chairs = shuffled(range(size), rng)
    seats: list[PlayerId | None] = [None] * size
    moves = []
    for (player, from_table, from_seat), chair in zip(people, chairs, strict=False):
        seats[chair] = player
        moves.append(
            Move(player, "final", from_table, from_seat, table_id, chair, None, None, False)
        )
    return (Table(table_id, tuple(seats)),), tuple(moves)


def opening_tables(
    players: Sequence[PlayerId], size: int, rng: Rng, first_id: int = 1
) -> tuple[Table, ...]:
    """The opening seating (TDA 2): the shuffled field dealt round-robin over
    ``ceil(N / size)`` tables, each table's seats drawn at random.

    :raises ValueError: with fewer than two players or tables of fewer than two seats.
    """
    if len(players) < 2:
        raise ValueError("a tournament seats at least two players")
    if size < 2:
        raise ValueError("a table has at least two seats")
    count = tables_needed(len(players), size)
    field = shuffled(players, rng)
    groups = [field[index::count] for index in range(count)]
    tables = []
    for number, group in enumerate(groups):
        chairs = shuffled(range(size), rng)
        seats: list[PlayerId | None] = [None] * size
        for player, chair in zip(group, chairs, strict=False):
            seats[chair] = player
        tables.append(Table(first_id + number, tuple(seats)))
    return tuple(tables)
