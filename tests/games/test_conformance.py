"""The conformance suite: API checks every registered game must pass (open_spiel api_test style).

For each game and seat count, seeded random hands are played to the end. At every step the suite
checks that legal actions are legal, that illegal ones (wrong seat, amount out of range, any
action after the end) raise ``IllegalActionError`` and change nothing, that views are JSON-able
and carry the viewer's own legal actions, that the hand ends within ``info.max_actions``, that
the settlement balances to zero and never takes more than a seat's stack, and that replaying the
history, and the same seed, give the same states.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from sanh.cards.rng import SeededRng
from sanh.errors import IllegalActionError
from sanh.games import REGISTRY, find_game
from sanh.games.base import CHANCE, Action, Game, Roll, Shuffle, TableConfig
from sanh.games.driver import chance_event, random_action
from sanh.notation.history import dump_history, load_history, record_history, replay_history
from sanh.notation.jsonable import to_jsonable

GAME_IDS = sorted(REGISTRY)
HANDS_PER_SEAT_COUNT = 12


BANKED_SEATS_CHECKED = 6
"""House games take any number of bettors; the suite checks them up to this many seats."""


def seats_max_checked(game: Game[Any]) -> int:
    info = game.info
    return min(info.seats_max, BANKED_SEATS_CHECKED) if info.banked else info.seats_max


def seat_counts(game: Game[Any]) -> list[int]:
    info = game.info
    top = seats_max_checked(game)
    return sorted({info.seats_min, min(info.seats_min + 1, top), top})


def config_for(game: Game[Any], seats: int, rng: SeededRng) -> TableConfig:
    stake = 100 * (1 + rng.randbelow(10))
    stacks = [stake * (5 + rng.randbelow(400)) for _ in range(seats)]
    return TableConfig.make(seats=seats, stake=stake, stacks=stacks)


def assert_rejected(game: Game[Any], state: Any, event: Any) -> None:
    before = state
    snapshot = repr(state)
    with pytest.raises(IllegalActionError):
        game.apply(state, event)
    assert state is before and repr(state) == snapshot, "a rejected action changed the state"


def check_step(game: Game[Any], state: Any, rng: SeededRng) -> None:
    turn = game.to_act(state)
    config: TableConfig = state.config
    if turn is None:
        assert game.legal_actions_for(state, 0) == ()
        assert game.is_terminal(state)
        return
    if turn is CHANCE:
        spec = game.chance_spec(state)
        if spec.kind == "shuffle":
            assert_rejected(game, state, Shuffle(spec.deck[:-1]))
        else:
            assert_rejected(game, state, Roll((7,) * spec.dice))
        return
    legal = game.legal_actions(state)
    legal_set = set(legal)
    ranges = game.amount_ranges(state)
    assert legal or ranges, f"{game.info.id}: seats {turn} to act but no legal action"
    for action in legal:
        assert game.is_legal(state, action), f"listed action {action} is not legal"
        assert action.seat is None or action.seat in turn
    for amount_range in ranges:
        assert amount_range.min <= amount_range.max
        assert game.is_legal(state, amount_range.at(amount_range.min))
        assert game.is_legal(state, amount_range.at(amount_range.max))
        assert_rejected(game, state, amount_range.at(amount_range.max + amount_range.step))
        if amount_range.min > 0:
            below = amount_range.at(amount_range.min - 1)
            if below not in legal_set:
                assert_rejected(game, state, below)
    # An action of a seat that may not act now.
    idle = [s for s in range(config.seats) if s not in turn]
    if idle and legal:
        sample = next((a for a in legal if a.seat is not None), None)
        if sample is not None:
            assert_rejected(game, state, dataclasses.replace(sample, seat=idle[0]))
    # Chance when no chance is due.
    assert_rejected(game, state, Roll((1, 1, 1)))
    # Views: JSON-able, with the viewer's own legal actions and nobody else's.
    for viewer in [None, *range(config.seats)]:
        view = game.observe(state, viewer)
        assert view.version == state.version
        json.dumps(to_jsonable(view))
        assert set(view.legal_actions) == set(game.legal_actions_for(state, viewer)) or (
            viewer is None and view.legal_actions == ()
        )
        assert all(a.seat == viewer for a in view.legal_actions)
    # Every seat that may act has a default action, and it is legal.
    for seat in turn:
        action = game.default_action(state, seat, "timeout")
        if action is not None:
            assert game.is_legal(state, action), f"default action {action} is illegal"


def play_checked(game: Game[Any], config: TableConfig, rng: SeededRng) -> Any:
    state = game.new_state(config)
    for _ in range(game.info.max_actions):
        check_step(game, state, rng)
        turn = game.to_act(state)
        if turn is None:
            break
        event = (
            chance_event(game, state, rng) if turn is CHANCE else random_action(game, state, rng)
        )
        assert isinstance(event, Action | Shuffle | Roll)
        state = game.apply(state, event)
    assert game.is_terminal(state), f"{game.info.id} did not end in {game.info.max_actions}"
    check_step(game, state, rng)
    return state


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_random_hands_follow_the_contract(game_id: str) -> None:
    game = REGISTRY[game_id]
    for seats in seat_counts(game):
        rng = SeededRng(f"conformance/{game_id}/{seats}")
        for _ in range(HANDS_PER_SEAT_COUNT):
            config = config_for(game, seats, rng)
            state = play_checked(game, config, rng)
            settlement = game.settle(state)
            settlement.check()
            assert len(settlement.deltas) == seats
            for seat, delta in enumerate(settlement.deltas):
                assert delta >= -config.stacks[seat], f"seat {seat} lost more than its stack"
            # After the end every action is refused.
            assert_rejected(game, state, Roll((1, 1, 1)))
            # Replaying the history gives the same state; so does the JSON history.
            assert game.replay(config, state.history) == state
            history = load_history(dump_history(record_history(game, state)))
            replayed, replayed_settlement = replay_history(history)
            assert replayed == state
            assert replayed_settlement == settlement


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_same_seed_same_hand(game_id: str) -> None:
    game = REGISTRY[game_id]
    seats = seats_max_checked(game)
    states = []
    for _ in range(2):
        rng = SeededRng(f"determinism/{game_id}")
        states.append(play_checked(game, config_for(game, seats, rng), rng))
    assert states[0] == states[1]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_registry_names(game_id: str) -> None:
    game = REGISTRY[game_id]
    assert find_game(game.info.id) is game
    assert find_game(game.info.name_vi) is game
    assert game.info.rules_source
    assert game.info.action_types
