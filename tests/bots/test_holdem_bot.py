"""The Hold'em bot: legal, deterministic under a seed, view-only, and sensible."""

from __future__ import annotations

import random

import pytest

from sanh.bots import bot_for
from sanh.bots.holdem import HoldemBot, estimate_equity
from sanh.cards.card import parse_cards
from sanh.cards.rng import SeededRng
from sanh.games.base import TableConfig
from sanh.games.driver import chance_event
from sanh.games.texas_holdem import (
    AllIn,
    AllInOrFold,
    Call,
    Check,
    Fold,
    HoldemState,
    RaiseTo,
    TexasHoldem,
)
from tests.games.test_texas_holdem import dealt, play, table

GAME = TexasHoldem()
AOF = AllInOrFold()


def cards(text: str) -> list[int]:
    return [int(card) for card in parse_cards(text)]


def bot_hand(game: TexasHoldem, seats: int, seed: str) -> list[object]:
    rng = SeededRng(seed)
    bot = HoldemBot(samples=120)
    config = TableConfig.make(
        seats=seats, stake=50, stacks=[50 * (3 + rng.randbelow(150)) for _ in range(seats)]
    )
    state: HoldemState = game.new_state(config)
    actions: list[object] = []
    while not game.is_terminal(state):
        turn = game.to_act(state)
        if not isinstance(turn, tuple):
            state = game.apply(state, chance_event(game, state, rng))
            continue
        action = bot.act(game.observe(state, turn[0]), rng)
        assert game.is_legal(state, action), action
        actions.append(action)
        state = game.apply(state, action)
    game.settle(state).check()
    return actions


@pytest.mark.parametrize("game", [GAME, AOF], ids=["holdem", "aof"])
def test_the_bot_always_acts_legally_and_is_deterministic(game: TexasHoldem) -> None:
    for seats in range(2, 10):
        for hand in range(3):
            first = bot_hand(game, seats, f"{seats}/{hand}")
            assert first == bot_hand(game, seats, f"{seats}/{hand}")


def test_registered_for_both_rooms() -> None:
    assert isinstance(bot_for("texas-holdem"), HoldemBot)
    assert isinstance(bot_for("poker-aof"), HoldemBot)


def test_equity_estimates() -> None:
    rnd = random.Random(1)
    aces = estimate_equity(cards("AsAh"), [], 1, 3000, rnd)
    assert 0.82 < aces < 0.88  # about 85 % against one random hand
    trash = estimate_equity(cards("7c2d"), [], 1, 3000, rnd)
    assert 0.29 < trash < 0.38  # about 35 %
    assert estimate_equity(cards("AsKs"), cards("QsJsTs2c3d"), 3, 200, rnd) == 1.0
    assert estimate_equity(cards("2c3d"), cards("AhKhQhJhTh"), 2, 200, rnd) == pytest.approx(1 / 3)
    assert estimate_equity(cards("2c3d"), [], 0, 10, rnd) == 1.0


def test_decisions_follow_equity_and_pot_odds() -> None:
    rng = SeededRng("sensible")
    bot = HoldemBot()
    config = table([10_000, 10_000, 10_000], host=0)
    # Kings in the big blind facing an all-in: well above the pot odds, call.
    state = dealt(config, holes={0: "7c2d", 1: "AsAh", 2: "KdKc"})
    state = play(state, Fold(0), RaiseTo(1, 10_000))
    assert bot.act(GAME.observe(state, 2), rng) == Call(2)
    # Aces facing the big blind: never a fold.
    state = dealt(config, holes={0: "AsAh", 1: "7c2d", 2: "8h3s"})
    assert bot.act(GAME.observe(state, 0), rng) != Fold(0)
    # With the nuts on the river and nothing to call, it bets.
    state = dealt(config, holes={0: "AsKs", 1: "7c2d", 2: "8h3s"}, board="QsJsTs2c3d")
    state = play(state, Call(0), Call(1), Check(2))
    for _ in range(3):
        state = play(state, Check(1), Check(2), *([Check(0)] if state.street < 3 else []))
    assert state.queue[0] == 0
    action = bot.act(GAME.observe(state, 0), rng)
    assert isinstance(action, RaiseTo)
    # Facing an all-in with 7-2 for a big part of its stack: fold; with aces: call.
    state = play(dealt(config, holes={0: "AsAh", 1: "7c2d"}), RaiseTo(0, 10_000))
    assert bot.act(GAME.observe(state, 1), rng) == Fold(1)
    state = play(dealt(config, holes={0: "7c2d", 1: "AsAh"}), RaiseTo(0, 10_000))
    assert bot.act(GAME.observe(state, 1), rng) in (Call(1), RaiseTo(1, 10_000))


def test_all_in_or_fold_decisions() -> None:
    rng = SeededRng("aof")
    bot = HoldemBot()
    config = TableConfig.make(seats=3, stake=50, stacks=[2000, 2000, 2000], host=0)
    state = dealt(config, AOF, holes={0: "AsAh"})
    assert bot.act(AOF.observe(state, 0), rng) == AllIn(0)
    state = play(dealt(config, AOF, holes={0: "AsAh", 1: "7c2d"}), AllIn(0), game=AOF)
    assert bot.act(AOF.observe(state, 1), rng) == Fold(1)


def test_the_bot_sees_only_its_view() -> None:
    """The same view (other seats' cards swapped) gives the same decision."""
    config = table([5_000, 5_000, 5_000], host=0)
    one = dealt(config, holes={0: "QhQd", 1: "AsAh", 2: "7c2d"})
    two = dealt(config, holes={0: "QhQd", 1: "7c2d", 2: "AsAh"})
    view = GAME.observe(one, 0)
    assert view == GAME.observe(two, 0)
    assert HoldemBot().act(view, SeededRng("same")) == HoldemBot().act(
        GAME.observe(two, 0), SeededRng("same")
    )
