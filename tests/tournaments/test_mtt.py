"""The scheduled multi-table tournament (sanh.tournaments.mtt): registration, late registration,
payouts, and a 1,000-entrant tournament simulated to the end with the hall's Hold'em bots
through the engine's public API, checked after every hand and every balancing step."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from sanh.bots.base import Bot
from sanh.cards.rng import SeededRng
from sanh.games import find_game
from sanh.games.base import TableConfig
from sanh.games.driver import chance_event
from sanh.tournaments.balance import Table, tables_needed
from sanh.tournaments.mtt import (
    MttSpec,
    MttState,
    PayoutTable,
    RoundResult,
    TournamentBot,
    TournamentError,
    new_tournament,
    payouts,
    play_round,
    preflop_equity,
    register,
    run,
    standings,
    start,
    unregister,
)

BOT = TournamentBot()
"""The hall's Hold'em bot with its preflop equities from a table (mtt.TournamentBot)."""


def bot_for(_entry: int) -> Bot:
    return BOT


def spec(**changes: object) -> MttSpec:
    values: dict[str, object] = {
        "id": "mtt-test",
        "opens_at": 1_000,
        "starts_at": 2_000,
        "buy_in": 10_000,
        "fee": 1_000,
    }
    values.update(changes)
    return MttSpec(**values)  # type: ignore[arg-type]


def registered(count: int, **changes: object) -> MttState:
    state = new_tournament(spec(**changes))
    for index in range(count):
        state = register(state, f"p{index:04}", 1_500)
    return state


# ----- the checks of every round --------------------------------------------------------------
@dataclass
class Checker:
    """Asserts the invariants after each hand and each balancing step, and measures the
    bounds (the longest wait for a big blind)."""

    size: int
    stack: int
    waiting_since: dict[tuple[int, int], int] = field(default_factory=dict)
    owes_big_blind: dict[int, int] = field(default_factory=dict)
    longest_wait: int = 0
    balancing_steps: int = 0
    moves: int = 0
    balance_moves: int = 0
    kinds: set[str] = field(default_factory=set)
    hands: int = 0

    def room(self, tables: tuple[Table, ...], alive: set[int], final: bool) -> None:
        """A balanced room: every player still in seated exactly once, ``ceil(P / size)``
        tables (fewer than ``size`` empty seats in all), within one player of each other."""
        self.balancing_steps += 1
        seated = [player for table in tables for player in table.players]
        assert sorted(seated) == sorted(alive)
        assert len(tables) == tables_needed(len(alive), self.size)
        assert sum(table.size - table.count for table in tables) < self.size
        counts = [table.count for table in tables]
        if len(tables) > 1:
            assert max(counts) - min(counts) <= 1, counts
        elif not final:
            assert counts[0] <= self.size

    def moved(self, result: RoundResult) -> None:
        for move in (*result.seated, *result.moves):
            self.moves += 1
            self.kinds.add(move.why)
            if move.from_table is not None:  # a wait ends with a move: it starts again
                self.waiting_since.pop((move.from_table, move.player), None)
            if move.why == "balance":  # TDA 10A: the next big blind moves (a table that has
                assert move.due_before in (1, None)  # not dealt yet has no big blind)
                self.balance_moves += 1
            if move.due_after is not None:
                if not move.waits and move.due_before is not None:
                    assert move.due_after <= move.due_before  # the same or a worse position
                self.owes_big_blind[move.player] = move.to_table
            else:
                self.owes_big_blind.pop(move.player, None)

    def round(self, before: MttState, state: MttState, result: RoundResult) -> None:
        entries = state.entries
        alive_before = set(before.alive) | set(before.pending)
        self.moved_seated(result)
        self.room(result.tables_before, alive_before, final=False)
        by_id = {table.id: table for table in result.tables_before}
        for hand in result.hands:
            self.hands += 1
            assert sum(hand.before) == sum(hand.after)  # chips conserved in every hand
            table = by_id[hand.table]
            for seat in hand.dealt:
                player = table.seats[seat]
                assert player is not None
                key = (hand.table, player)
                if key in self.waiting_since:
                    wait = result.number - self.waiting_since.pop(key)
                    self.longest_wait = max(self.longest_wait, wait)
                    assert wait <= self.size
                if self.owes_big_blind.get(player) == hand.table:
                    if seat == hand.big_blind:
                        del self.owes_big_blind[player]
                    else:  # never the small blind or the button before his big blind
                        assert seat not in (hand.small_blind, hand.button)
        assert sum(state.stacks) == entries * self.stack  # and over the whole room
        self.moved_rest(result)
        if state.status == "running":
            self.room(result.tables, set(state.alive), final=False)
            for table in result.tables:
                for seat in table.waiting:
                    player = table.seats[seat]
                    assert player is not None
                    self.waiting_since.setdefault((table.id, player), result.number)

    def moved_seated(self, result: RoundResult) -> None:
        self.moved(RoundResult(0, 0, result.seated, (), (), (), (), ()))
        for table in result.tables_before:
            for seat in table.waiting:
                player = table.seats[seat]
                assert player is not None
                self.waiting_since.setdefault((table.id, player), result.number - 1)

    def moved_rest(self, result: RoundResult) -> None:
        self.moved(RoundResult(0, 0, (), (), (), (), result.moves, ()))


def play(
    state: MttState,
    rng: SeededRng,
    checker: Checker,
    late: list[str] | None = None,
    bots: Callable[[int], Bot] = bot_for,
) -> MttState:
    late = list(late or ())
    while state.status == "running":
        while late and state.late_registration_open and state.rounds % 2 == 0:
            state = register(state, late.pop(0), 9_999)
            if len(state.pending) >= 7:
                break
        before = state
        state, result = play_round(state, rng, bots)
        checker.round(before, state, result)
    assert not late, "every late entrant got in"
    return state


def check_result(state: MttState) -> None:
    """One winner with every chip, places 1..N distinct, prizes summing to the pool."""
    entries = state.entries
    assert state.status == "finished"
    (winner,) = state.alive
    assert state.stacks[winner] == entries * state.spec.starting_stack
    table, breakage = standings(state)
    assert [standing.place for standing in table] == list(range(1, entries + 1))
    assert sorted(standing.entry for standing in table) == list(range(entries))
    assert table[0].entry == winner
    prizes = [standing.prize for standing in table]
    assert sum(prizes) + breakage == state.prize_pool == entries * state.spec.buy_in
    assert 0 <= breakage < state.spec.payout_table.places_paid(entries)
    assert prizes == sorted(prizes, reverse=True)
    assert sum(1 for prize in prizes if prize) == state.spec.payout_table.places_paid(entries)


def test_a_thousand_entrants_play_to_the_end_with_balanced_tables() -> None:
    rng = SeededRng("mtt-1000")
    state = registered(950, max_entrants=1_000)
    state = start(state, 2_000, rng)
    assert len(state.tables) == 106
    checker = Checker(size=9, stack=state.spec.starting_stack)
    late = [f"late{index:02}" for index in range(50)]
    state = play(state, rng, checker, late)
    assert state.entries == 1_000
    check_result(state)
    # the bounds measured: a waiting player was dealt in within a table's size in hands
    assert 0 < checker.longest_wait <= 9
    assert checker.kinds == {"arrival", "balance", "break", "final"}
    assert checker.hands == state.hands
    print(
        f"1,000 entrants: {state.rounds} rounds, {state.hands} hands, {checker.moves} moves"
        f" ({checker.balance_moves} to balance), longest wait {checker.longest_wait} hands"
    )
    assert state.hands > 1_000


def test_the_same_seed_plays_the_same_tournament() -> None:
    def once(seed: str) -> tuple[object, ...]:
        rng = SeededRng(seed)
        state = start(registered(40, table_size=6), 2_000, rng)
        state = play(state, rng, Checker(size=6, stack=10_000))
        check_result(state)
        return (standings(state), state.hands, state.rounds)

    first = once("same")
    assert once("same") == first
    assert once("other") != first


def test_registration_window_and_refusals_change_nothing() -> None:
    state = new_tournament(spec(max_entrants=3))
    for now in (999, 2_000):
        with pytest.raises(TournamentError) as refused:
            register(state, "an", now)
        assert refused.value.code == "registration_closed"
    state = register(state, "an", 1_000)
    for name, code in (("an", "already_registered"), ("", "no_player")):
        with pytest.raises(TournamentError) as refused:
            register(state, name, 1_500)
        assert refused.value.code == code
    state = register(register(state, "binh", 1_500), "chi", 1_999)
    with pytest.raises(TournamentError) as refused:
        register(state, "dung", 1_500)
    assert refused.value.code == "tournament_full"
    assert state.players == ("an", "binh", "chi") and state.stacks == (10_000,) * 3
    less = unregister(state, "binh", 1_600)
    assert less.players == ("an", "chi") and state.players == ("an", "binh", "chi")
    with pytest.raises(TournamentError):
        unregister(state, "zed", 1_600)
    with pytest.raises(TournamentError) as refused:
        start(state, 1_999, SeededRng(1))
    assert refused.value.code == "too_early"
    running = start(state, 2_000, SeededRng(1))
    assert running.status == "running" and running.prize_pool == 30_000
    with pytest.raises(TournamentError):
        unregister(running, "an", 2_001)
    with pytest.raises(TournamentError):
        start(running, 2_001, SeededRng(1))


def test_too_few_entrants_cancel_the_tournament() -> None:
    state = start(registered(3, min_entrants=4), 2_000, SeededRng(1))
    assert state.status == "cancelled" and not state.tables
    with pytest.raises(TournamentError):
        play_round(state, SeededRng(1), bot_for)


def test_late_registration_seats_a_full_stack_until_its_level_closes() -> None:
    rng = SeededRng("late")
    state = start(registered(12, late_levels=2), 2_000, rng)
    hands_per_level = state.spec.schedule.hands_per_level
    assert state.late_registration_open
    state = register(state, "late", 2_100)
    entry = state.entries - 1
    assert state.pending == (entry,) and state.stacks[entry] == 10_000
    assert all(entry not in table.players for table in state.tables)
    state, result = play_round(state, rng, bot_for)
    assert [move.player for move in result.seated if move.why == "arrival"] == [entry]
    assert any(entry in table.players for table in result.tables_before)
    while state.rounds < 2 * hands_per_level and state.status == "running":
        assert state.late_registration_open
        state, _ = play_round(state, rng, bot_for)
    assert state.level == 3 and not state.late_registration_open
    with pytest.raises(TournamentError) as refused:
        register(state, "too-late", 9_999)
    assert refused.value.code == "registration_closed"
    assert "too-late" not in state.players


def test_payouts_round_down_and_account_for_the_remainder() -> None:
    table = PayoutTable()
    for entries in (2, 3, 9, 10, 27, 100, 1_000):
        shares = table.shares(entries)
        assert sum(shares) == 10_000
        assert list(shares) == sorted(shares, reverse=True)
        assert len(shares) == table.places_paid(entries)
    assert table.places_paid(1_000) == 150 and table.places_paid(2) == 2
    prizes, breakage = payouts(1_000_007, table.shares(1_000))
    assert sum(prizes) + breakage == 1_000_007 and 0 <= breakage < 150
    assert payouts(100, (10_000,)) == ((100,), 0)
    with pytest.raises(ValueError):
        payouts(100, (6_000, 5_000))


def test_run_plays_to_the_end() -> None:
    rng = SeededRng("run")
    state = run(start(registered(10), 2_000, rng), rng, bot_for)
    check_result(state)
    with pytest.raises(TournamentError):
        play_round(state, rng, bot_for)


def test_the_tournament_bot_reads_preflop_equity_from_a_table_and_plays_legally() -> None:
    aces = preflop_equity((48, 49), 1, 200)  # As Ah... any two aces: one class
    assert aces == preflop_equity((50, 51), 1, 200) > 0.75
    assert preflop_equity((0, 21), 1, 200) < 0.4  # 2-7 offsuit
    assert preflop_equity((48, 44), 1, 200) > preflop_equity((48, 44), 8, 200)
    game = find_game("texas-holdem")
    for seed in range(30):
        rng = SeededRng(f"bot{seed}")
        config = TableConfig.make(seats=6, stake=50, stacks=[5_000 + 700 * s for s in range(6)])
        state = game.apply(game.new_state(config), chance_event(game, game.new_state(config), rng))
        while (turn := game.to_act(state)) is not None:
            view = game.observe(state, turn[0])
            action = BOT.act(view, SeededRng(f"{seed}:{state.version}"))
            assert action == BOT.act(view, SeededRng(f"{seed}:{state.version}"))
            game.validate(state, action)
            state = game.apply(state, action)
