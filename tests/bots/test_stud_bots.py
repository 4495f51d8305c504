"""The Xì tố and Liêng bots: always legal, deterministic under a seed, reading only their own
view, and sensible (hand strength against what is showing)."""

from __future__ import annotations

from typing import Any

import pytest

from sanh.bots import RandomBot, bot_for
from sanh.bots.lieng import LiengBot
from sanh.bots.xi_to import XiToBot
from sanh.cards import DECK_28, DECK_52
from sanh.cards.rng import SeededRng
from sanh.games import find_game
from sanh.games.base import CHANCE, Action, Game, TableConfig
from sanh.games.driver import chance_event
from sanh.games.lieng import Fold as LiengFold
from sanh.games.lieng import Raise as LiengRaise
from sanh.games.xi_to import Call, Check, Fold, Raise
from tests.games.stud_support import play, stacked

XITO = find_game("xi-to")
LIENG = find_game("lieng")
L = 1000


def make_bot(game_id: str) -> Any:
    return XiToBot(samples=30) if game_id == "xi-to" else LiengBot(samples=40)


def bot_hand(game: Game[Any], config: TableConfig, seed: str, bots: list[Any]) -> Any:
    """One hand with a bot at every seat; every action goes through ``apply`` (validated)."""
    rng = SeededRng(seed)
    state = game.new_state(config)
    while (turn := game.to_act(state)) is not None:
        if turn is CHANCE:
            state = game.apply(state, chance_event(game, state, rng))
            continue
        seat = turn[0]
        view = game.observe(state, seat)
        action: Action = bots[seat].act(view, rng)
        assert action.seat == seat
        state = game.apply(state, action)
    return state


def test_registered() -> None:
    """``bot_for`` gives these bots for their games."""
    assert isinstance(bot_for("xi-to"), XiToBot)
    assert isinstance(bot_for("lieng"), LiengBot)


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("xi-to", {}),
        ("xi-to", {"xito.variant": 2}),
        ("xi-to", {"xito.tay_max": True, "xito.hole_5th": True}),
        ("xi-to", {"xito.option_setter": "first_bettor", "xito.auto_follow_2": True}),
        ("lieng", {}),
        ("lieng", {"lieng.raise_cap": 0, "lieng.direction": "cw"}),
    ],
)
def test_bots_act_legally_and_deterministically(game_id: str, options: dict[str, Any]) -> None:
    """Bots at every seat play hands to the end with legal actions only; the same seed gives
    the same hand."""
    game = find_game(game_id)
    seats = 4 if game_id == "xi-to" else 6
    for hand in range(3):
        rng = SeededRng(f"stacks/{hand}")
        stacks = [L * (10 + rng.randbelow(10)) for _ in range(seats)]
        config = TableConfig.make(seats=seats, stake=L, stacks=stacks, options=options)
        first = bot_hand(game, config, f"{game_id}/{hand}", [make_bot(game_id)] * seats)
        again = bot_hand(game, config, f"{game_id}/{hand}", [make_bot(game_id)] * seats)
        assert first == again
        game.settle(first).check()


def test_xito_bot_sees_only_its_view() -> None:
    """The bot's input is its seat's view: changing the opponent's hole card and the cards still
    to come leaves the view, and so the decision, unchanged."""
    decks = ["8c As 9d Ah Ad Jc Kd Qs", "8c As 9d Th Ad Jc Kd Qs"]
    decisions = []
    views = []
    for deck in decks:
        config = TableConfig.make(seats=2, stake=L, stacks=[10 * L] * 2)
        state = XITO.apply(XITO.new_state(config), stacked(DECK_28, deck))
        state = play(XITO, state, [Call(1), Call(0), Raise(1, 100)])
        view = XITO.observe(state, 0)
        views.append(view)
        decisions.append(XiToBot(samples=50).act(view, SeededRng("same")))
    assert views[0] == views[1]
    assert decisions[0] == decisions[1]


def test_xito_bot_folds_a_hopeless_hand_to_a_big_bet() -> None:
    """Facing 5,000 into a pot of 100 with 8-9-J-Q against a showing pair of aces and a king,
    the bot folds."""
    config = TableConfig.make(seats=2, stake=L, stacks=[10 * L] * 2, options={"xito.tay_max": True})
    state = XITO.apply(XITO.new_state(config), stacked(DECK_28, "8c As 9d Ah Ad Jc Kd Qs"))
    state = play(XITO, state, [Call(1), Call(0), Check(1), Check(0), Raise(1, 5000)])
    assert XITO.to_act(state) == (0,)
    for seed in range(5):
        assert XiToBot(samples=150).act(XITO.observe(state, 0), SeededRng(seed)) == Fold(0)


def test_xito_bot_keeps_three_aces_against_a_bet() -> None:
    """With three aces (two showing) facing a 1,000 bet, the bot calls or raises."""
    config = TableConfig.make(seats=2, stake=L, stacks=[10 * L] * 2, options={"xito.tay_max": True})
    state = XITO.apply(XITO.new_state(config), stacked(DECK_28, "As 8c Ah 9d Ad Jc Kd Qs"))
    state = play(XITO, state, [Call(0), Call(1), Check(0), Check(1), Check(0), Raise(1, 1000)])
    assert XITO.to_act(state) == (0,)
    for seed in range(5):
        action = XiToBot(samples=150).act(XITO.observe(state, 0), SeededRng(seed))
        assert isinstance(action, Call | Raise)


def test_lieng_bot_folds_zero_points_and_keeps_sap() -> None:
    """Facing a 10 L raise, the Liêng bot folds 0 points and never folds a Sáp of aces."""
    config = TableConfig.make(seats=2, stake=L, stacks=[30 * L] * 2)
    weak = LIENG.apply(LIENG.new_state(config), stacked(DECK_52, "Kc 2c Kd 3d Ks 5h"))
    weak = LIENG.apply(weak, LiengRaise(0, 10 * L))
    strong = LIENG.apply(LIENG.new_state(config), stacked(DECK_52, "2c Ac 3d Ad 5h Ah"))
    strong = LIENG.apply(strong, LiengRaise(0, 10 * L))
    for seed in range(5):
        assert LiengBot().act(LIENG.observe(weak, 1), SeededRng(seed)) == LiengFold(1)
        action = LiengBot().act(LIENG.observe(strong, 1), SeededRng(seed))
        assert not isinstance(action, LiengFold)


@pytest.mark.parametrize("game_id", ["xi-to", "lieng"])
def test_bot_beats_random_play(game_id: str) -> None:
    """Over seeded hands against random legal play, the bot ends ahead."""
    game = find_game(game_id)
    seats = 2 if game_id == "xi-to" else 3
    total = 0
    for hand in range(40):
        config = TableConfig.make(seats=seats, stake=L, stacks=[20 * L] * seats, host=hand % seats)
        bots: list[Any] = [make_bot(game_id)] + [RandomBot() for _ in range(seats - 1)]
        state = bot_hand(game, config, f"versus/{game_id}/{hand}", bots)
        total += game.settle(state).deltas[0]
    assert total > 0
