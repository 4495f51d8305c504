"""Table balancing and breaking (sanh.tournaments.balance): the TDA-style rules and the button."""

from __future__ import annotations

import pytest

from sanh.cards.rng import SeededRng
from sanh.games import find_game
from sanh.games.base import TableConfig
from sanh.tournaments.balance import (
    Table,
    after_hand,
    balance,
    dealt_in,
    due,
    first_hand,
    next_blinds,
    opening_tables,
    tables_needed,
)

SIZE = 9


def table(tid: int, players: dict[int, int], last_bb: int | None = 0, size: int = SIZE) -> Table:
    """A table with ``players`` {seat: player}."""
    seats = tuple(players.get(seat) for seat in range(size))
    return Table(tid, seats, last_bb)


def everyone(tables: tuple[Table, ...]) -> list[int]:
    return sorted(player for t in tables for player in t.players)


def test_next_blinds_agree_with_the_engine() -> None:
    game = find_game("texas-holdem")
    rng = SeededRng("blinds")
    for _ in range(300):
        count = 2 + rng.randbelow(SIZE - 1)
        chosen = sorted(range(SIZE), key=lambda _s: rng.randbelow(1000))[:count]
        t = table(1, {seat: seat for seat in chosen}, last_bb=rng.randbelow(SIZE))
        button, small, big = next_blinds(t)
        stacks = [1_000 if seat in chosen else 0 for seat in range(SIZE)]
        config = TableConfig.make(seats=SIZE, stake=5, stacks=stacks, carry={"button": button})
        view = game.observe(game.new_state(config), None)
        assert (view.button, view.small_blind_seat, view.big_blind_seat) == (button, small, big)  # type: ignore[attr-defined]
        assert due(t, big) == 1


def test_the_big_blind_moves_forward_one_player_even_when_the_blinds_bust() -> None:
    t = table(1, {0: 10, 2: 12, 4: 14, 6: 16, 8: 18}, last_bb=0)
    assert next_blinds(t) == (8, 0, 2)
    # the small blind (0) and the button (8) bust: seat 4 is still the next big blind (a plain
    # moving button would make 2 the button and 6 the big blind, and 4 would skip it)
    t = after_hand(t, 2, dealt_in(t), busted=(0, 8))
    assert next_blinds(t) == (6, 2, 4)
    t = after_hand(t, 4, dealt_in(t), busted=(2,))
    assert next_blinds(t) == (4, 4, 6)  # heads-up: the button posts the small blind


def test_a_broken_table_seats_every_player_and_keeps_the_room_balanced() -> None:
    rng = SeededRng("break")
    tables = (
        table(1, {s: 100 + s for s in range(6)}, last_bb=5),
        table(2, {s: 200 + s for s in range(1, 7)}, last_bb=2),
        table(3, {s: 300 + s for s in (0, 2, 4, 6, 8)}, last_bb=4),
    )
    before = everyone(tables)
    after, moves = balance(tables, SIZE, rng)
    assert len(after) == tables_needed(len(before), SIZE) == 2
    assert [t.id for t in after] == [1, 2]  # the table with the fewest players broke
    assert everyone(after) == before
    assert {m.player for m in moves} == {300, 302, 304, 306, 308}
    assert all(m.why == "break" and m.from_table == 3 for m in moves)
    counts = sorted(t.count for t in after)
    assert counts[-1] - counts[0] <= 1
    for t, move in ((t, m) for m in moves for t in after if t.id == m.to_table):
        assert t.seats[move.to_seat] == move.player
        # dealt at once only where he posts the big blind no later than at his old table
        assert (move.to_seat in t.waiting) == move.waits
        if not move.waits:
            assert move.due_after is not None and move.due_before is not None
            assert move.due_after <= move.due_before


def test_balancing_moves_the_next_big_blind_to_the_single_big_blind() -> None:
    # table 1 full, table 2 six-handed with seat 3 empty where the next big blind falls
    full = table(1, {s: 10 + s for s in range(SIZE)}, last_bb=4)
    short = table(2, {0: 20, 1: 21, 2: 22, 5: 25, 6: 26, 7: 27}, last_bb=2)
    assert next_blinds(short)[2] == 5
    mover = next_blinds(full)[2]
    assert mover == 5
    after, moves = balance((full, short), SIZE, SeededRng("bal"))
    (move,) = moves
    assert (move.why, move.player, move.from_table, move.from_seat) == ("balance", 15, 1, 5)
    assert (move.to_table, move.to_seat, move.due_before, move.due_after) == (2, 3, 1, 1)
    assert not move.waits
    new_short = after[1]
    assert next_blinds(new_short)[2] == 3  # he posts the big blind at once
    # the table he left: the big blind goes on to the next player, nobody skips it
    assert next_blinds(after[0])[2] == 6


def test_a_mover_never_takes_the_small_blind_or_button_he_waits_for_his_big_blind() -> None:
    # the only empty seats (7, 8) lie between the button (6) and the small blind (0)
    full = table(1, {s: 10 + s for s in range(SIZE)}, last_bb=0)
    short = table(2, {s: 20 + s for s in range(7)}, last_bb=0)
    assert next_blinds(short) == (6, 0, 1)
    after, moves = balance((full, short), SIZE, SeededRng("wait"))
    assert after[0].count == after[1].count == 8
    (move,) = moves
    assert move.waits and move.to_table == 2
    t = after[1]
    seat = move.to_seat
    assert seat in (7, 8) and seat in t.waiting
    hands = 0
    while True:
        dealt = dealt_in(t)
        _button, small, big = next_blinds(t, dealt)
        hands += 1
        if seat in dealt:
            assert big == seat  # his first hand at the table is his big blind
            break
        assert small != seat and hands <= SIZE
        t = after_hand(t, big, dealt, ())
    assert hands == due(after[1], seat)


def test_the_final_table_is_drawn_when_the_field_fits_one_table() -> None:
    tables = (table(4, {0: 1, 3: 2, 5: 3, 7: 4, 8: 5}), table(9, {1: 6, 2: 7, 6: 8, 8: 9}))
    after, moves = balance(tables, SIZE, SeededRng("final"), next_id=12)
    (final,) = after
    assert final.id == 12 and final.fresh and final.count == 9
    assert everyone(after) == list(range(1, 10))
    assert {m.why for m in moves} == {"final"} and len(moves) == 9


def test_late_entrants_open_a_table_when_every_seat_is_taken() -> None:
    tables = (table(1, {s: s for s in range(SIZE)}), table(2, {s: 10 + s for s in range(SIZE)}))
    after, moves = balance(tables, SIZE, SeededRng("late"), arrivals=(99,), next_id=3)
    assert [t.id for t in after] == [1, 2, 3]
    assert sorted(t.count for t in after) == [6, 6, 7]
    assert everyone(after) == sorted([*range(SIZE), *range(10, 10 + SIZE), 99])
    arrival = [m for m in moves if m.why == "arrival"]
    assert len(arrival) == 1 and arrival[0].to_table == 3 and not arrival[0].waits
    assert all(m.to_table == 3 for m in moves)  # the new table is filled by balancing


def test_a_late_entrant_between_the_button_and_the_small_blind_waits() -> None:
    t = table(1, {s: s for s in range(6)}, last_bb=0)
    assert next_blinds(t) == (5, 0, 1)
    # seats 6..8 all lie between the button (5) and the small blind (0): an entrant there
    # would be the next button, so he waits, and his first hand is his big blind
    after, moves = balance((t,), SIZE, SeededRng("entrant"), arrivals=(50,))
    (move,) = moves
    assert move.waits and move.due_before is None
    seated = after[0]
    assert move.to_seat in seated.waiting and move.to_seat not in dealt_in(seated)
    for _ in range(SIZE):
        dealt = dealt_in(seated)
        big = next_blinds(seated, dealt)[2]
        if move.to_seat in dealt:
            assert big == move.to_seat
            break
        seated = after_hand(seated, big, dealt, ())
    else:
        pytest.fail("the entrant was never dealt in")


def test_opening_tables_for_a_thousand() -> None:
    tables = opening_tables(range(1_000), SIZE, SeededRng("open"))
    assert len(tables) == 112
    assert {t.count for t in tables} == {8, 9}
    assert everyone(tables) == list(range(1_000))
    assert all(t.fresh for t in tables)
    again = opening_tables(range(1_000), SIZE, SeededRng("open"))
    assert again == tables


def test_first_hand_draws_the_button_and_bad_tables_are_refused() -> None:
    t = first_hand(table(1, {0: 1, 4: 2}, last_bb=None), SeededRng(3))
    assert t.last_bb is not None and len(dealt_in(t)) == 2
    with pytest.raises(ValueError):
        Table(1, (None,))
    with pytest.raises(ValueError):
        Table(1, (1, None), waiting=frozenset({1}))
    with pytest.raises(ValueError):
        balance((table(1, {0: 1, 1: 2}, size=6),), SIZE, SeededRng(1))
    with pytest.raises(ValueError):
        opening_tables([1], SIZE, SeededRng(1))


def test_balancing_is_deterministic_given_the_rng() -> None:
    tables = opening_tables(range(60), SIZE, SeededRng("det"))
    played = tuple(
        after_hand(first_hand(t, SeededRng(t.id)), t.seats.index(t.players[0]), (), ())
        for t in tables
    )
    busted = tuple(
        Table(t.id, tuple(None if p is not None and p % 3 == 0 else p for p in t.seats), t.last_bb)
        for t in played
    )
    first = balance(busted, SIZE, SeededRng("same"), arrivals=(100, 101))
    assert balance(busted, SIZE, SeededRng("same"), arrivals=(100, 101)) == first
    rooms = {balance(busted, SIZE, SeededRng(f"seed{n}"), arrivals=(100, 101)) for n in range(5)}
    assert len(rooms) > 1  # the draws come from the rng, and only from it
    assert everyone(first[0]) == sorted([*(p for p in range(60) if p % 3), 100, 101])
