"""The engines' speed-ups change nothing: ``evolve`` is ``dataclasses.replace``, Hold'em's
cached core and views are what the frozen fields give, ``Card.rank``/``.suit`` the enums."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from sanh.cards.card import Card, Rank, Suit
from sanh.cards.rng import SeededRng
from sanh.games import find_game
from sanh.games._evolve import evolve
from sanh.games.base import CHANCE, Action, TableConfig
from sanh.games.driver import chance_event, random_action
from sanh.games.texas_holdem import HandCore, HoldemState, TexasHoldem, _describe, _load

HOLDEM_OPTIONS: list[dict[str, Any]] = [
    {},
    {"holdem.min_raise": "standard", "holdem.max_raise": "stack"},
    {"holdem.ante": 3, "holdem.big_blind_ante": True},
    {"holdem.ante": 2, "holdem.max_raise": "cover", "holdem.require_hole_card": True},
]


def playout(game_id: str, seed: str, seats: int, **options: Any) -> list[Any]:
    """Every state of a random hand, with a seat leaving now and then."""
    game = find_game(game_id)
    rng = SeededRng(seed)
    config = TableConfig.make(
        seats=seats, stake=5, stacks=[300 + 100 * s for s in range(seats)], options=options
    )
    state = game.new_state(config)
    states = [state]
    while (turn := game.to_act(state)) is not None:
        if turn is CHANCE:
            event: Any = chance_event(game, state, rng)
        else:
            event = random_action(game, state, rng)
            if rng.randbelow(15) == 0:
                seat = rng.randbelow(seats)
                event = game.default_action(state, seat, "leave") or event
        state = game.apply(state, event)
        states.append(state)
    return states


@pytest.mark.parametrize("game_id", ["tien-len", "phom", "three-card-poker", "texas-holdem"])
def test_evolve_is_replace(game_id: str) -> None:
    """Along a hand, evolve gives the state dataclasses.replace gives, class and all."""
    seats = 2 if game_id == "three-card-poker" else 3
    for state in playout(game_id, f"evolve/{game_id}", seats):
        changes = {"version": state.version + 7, "history": state.history[:1]}
        expected = dataclasses.replace(state, **changes)
        got = evolve(state, **changes)
        assert type(got) is type(expected)
        assert got == expected
        assert evolve(state) == state
        assert evolve(state) is not state
    with pytest.raises(TypeError, match="no_such_field"):
        evolve(state, no_such_field=1)


def test_evolve_falls_back_for_other_dataclasses() -> None:
    """A class with ``__post_init__`` goes through dataclasses.replace (which runs it)."""

    @dataclasses.dataclass(frozen=True)
    class Checked:
        value: int

        def __post_init__(self) -> None:
            if self.value < 0:
                raise ValueError("negative")

    assert evolve(Checked(1), value=2) == Checked(2)
    with pytest.raises(ValueError, match="negative"):
        evolve(Checked(1), value=-1)


def _core_fields(core: HandCore) -> dict[str, Any]:
    return {name: getattr(core, name) for name in HandCore.__slots__}


@pytest.mark.parametrize("options", HOLDEM_OPTIONS)
@pytest.mark.parametrize("seats", [2, 3, 6, 9])
def test_holdem_cache_is_the_frozen_state(seats: int, options: dict[str, Any]) -> None:
    """Each state's cached core equals the core rebuilt from its fields; its views (cached)
    equal the views of an uncached copy; its log is its history's actions described."""
    game = TexasHoldem()
    for hand in range(4):
        states: list[HoldemState] = playout(
            "texas-holdem", f"cache/{seats}/{hand}/{sorted(options)}", seats, **options
        )
        for state in states:
            cached = state.cache.get("core")
            if cached is not None:
                assert _core_fields(cached) == _core_fields(_load(state))
            log = tuple(_describe(e) for e in state.history if isinstance(e, Action))
            assert state.log == log
            fresh = dataclasses.replace(state)
            assert fresh.cache == {}
            for viewer in (None, *range(seats)):
                view = game.observe(state, viewer)
                assert view == game.observe(fresh, viewer)
                assert game.observe(state, viewer) is view
            assert game.legal_actions(state) == game.legal_actions(fresh)
            assert game.amount_ranges(state) == game.amount_ranges(fresh)
        final = states[-1]
        assert game.settle(final) == game.settle(dataclasses.replace(final))


def test_holdem_old_state_stays_usable() -> None:
    """Applying an event moves the core to the new state; the old one still answers (and can
    take another event) exactly as before."""
    game = TexasHoldem()
    states = playout("texas-holdem", "old-state", 4)
    rng = SeededRng("old-state/branch")
    for state in states[1:-1]:
        before = [game.observe(dataclasses.replace(state), v) for v in (None, 0, 1, 2, 3)]
        first = random_action(game, state, rng)
        game.apply(state, first)
        assert "core" not in state.cache
        again = [game.observe(dataclasses.replace(state), v) for v in (None, 0, 1, 2, 3)]
        assert again == before
        second = random_action(game, state, rng)
        assert game.apply(state, second) == game.apply(dataclasses.replace(state), second)


def test_card_rank_and_suit() -> None:
    """``.rank`` and ``.suit`` are the enum members of the card's integer form."""
    for value in range(52):
        card = Card(value)
        assert card.rank is Rank(value >> 2)
        assert card.suit is Suit(value & 3)


@pytest.mark.parametrize("seats", [1, 3, 6])
def test_three_card_poker_one_seat_choices(seats: int) -> None:
    """A seat's actions and ranges (its own spots only) are the table's, filtered by seat."""
    game = find_game("three-card-poker")
    for hand in range(5):
        for state in playout("three-card-poker", f"tcp/{seats}/{hand}", seats):
            turn = game.to_act(state)
            everything = game.legal_actions(state) if isinstance(turn, tuple) else ()
            ranges = game.amount_ranges(state) if isinstance(turn, tuple) else ()
            for seat in (None, *range(seats)):
                assert game.legal_actions_for(state, seat) == tuple(
                    a for a in everything if a.seat == seat
                )
                assert game.amount_ranges_for(state, seat) == tuple(
                    r for r in ranges if r.template.seat == seat
                )


def test_apply_leaves_the_old_state_alone() -> None:
    """Game.apply sets version and history on the transition's new state only: the state it
    was given keeps its own, in every game."""
    from sanh.games import REGISTRY

    for game_id in sorted(REGISTRY):
        game = find_game(game_id)
        seats = max(2, game.info.seats_min)
        states = playout(game_id, f"stamp/{game_id}", seats)
        for version, state in enumerate(states):
            assert state.version == version
            assert len(state.history) == version
