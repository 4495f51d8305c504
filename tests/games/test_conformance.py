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
from sanh.errors import ConfigError, IllegalActionError
from sanh.games import REGISTRY, find_game
from sanh.games.base import CHANCE, Action, Game, Reason, Roll, Shuffle, TableConfig
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


POT_GAMES = ("lieng", "texas-holdem", "poker-aof", "xi-to")
"""Games where the hand's money is one pot: a removed seat's net is never positive. (In Sâm,
Phỏm or TLMN a seat keeps what it was paid before it left, other leavers' penalties included.)"""


def removal(game: Game[Any], state: Any, seat: int) -> Action | None:
    """The seat's removal now, if its policy (RULES.md §2.7) removes it on leaving or on a
    disconnection: the game's default for that reason when it is the seat's own ``anytime``
    action (what the server applies at once, wherever the turn is) and legal now."""
    reasons: tuple[Reason, ...] = ("leave", "disconnect")
    for reason in reasons:
        action = game.default_action(state, seat, reason)
        own = action is not None and action.seat == seat and type(action).anytime
        if own and action is not None and game.is_legal(state, action):
            return action
    return None


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_out_of_turn_removals_take_effect_and_never_win(game_id: str) -> None:
    """Issue 11: a leave or a disconnection that removes the player takes effect at once,
    wherever the turn is: random hands where, now and then, a seat that is *not* to act is
    removed. The removal is legal out of turn, the seat never acts again, its removal is
    never offered twice, the settlement balances, and the seat wins nothing (its net is at
    most zero, its lines pay it nothing)."""
    game = REGISTRY[game_id]
    removed_any = 0
    for seats in seat_counts(game):
        rng = SeededRng(f"removals/{game_id}/{seats}")
        for _ in range(HANDS_PER_SEAT_COUNT):
            config = config_for(game, seats, rng)
            try:
                state = game.new_state(config)
            except ConfigError:
                continue  # stacks too small to start this game: no hand
            removed: set[int] = set()
            for _ in range(game.info.max_actions):
                turn = game.to_act(state)
                if turn is None:
                    break
                if turn is CHANCE:
                    state = game.apply(state, chance_event(game, state, rng))
                    continue
                for seat in sorted(removed):
                    assert seat not in turn, f"{game_id}: removed seat {seat} asked to act"
                    assert removal(game, state, seat) is None, "a removal offered twice"
                idle = [s for s in range(seats) if s not in turn and s not in removed]
                if idle and rng.randbelow(6) == 0:
                    seat = idle[rng.randbelow(len(idle))]
                    action = removal(game, state, seat)
                    if action is not None:
                        cost = game.leave_cost(state, seat)
                        state = game.apply(state, action)
                        removed.add(seat)
                        assert cost is None or cost >= 0
                        continue
                state = game.apply(state, random_action(game, state, rng))
            assert game.is_terminal(state), f"{game_id} did not end"
            settlement = game.settle(state)
            settlement.check()
            assert game.replay(config, state.history) == state
            detail = dict(settlement.detail)
            winners = {detail.get("winner"), *detail.get("winners", ())}
            if game_id in POT_GAMES:
                pots = [pot for pot in detail.get("pots", ()) if len(pot) == 3]  # Hold'em's
                winners.update(seat for _, _, won in pots for seat in won)
            for seat in removed:
                removed_any += 1
                assert seat not in winners, f"{game_id}: removed seat {seat} won"
                if game_id in POT_GAMES:  # pay-as-you-go games book payments made before
                    assert settlement.deltas[seat] <= 0, f"{game_id}: removed seat {seat} won"
    if game_id in POT_GAMES:
        assert removed_any >= 5, f"{game_id}: too few out-of-turn removals exercised"
