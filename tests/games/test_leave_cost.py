"""``Game.leave_cost``: what leaving the hand *now* costs a seat, under each game's rule.

Issue 11: the server tells a player what leaving now would cost before it is confirmed. The
games with an exact rule say it (Liêng and Xì tố: what the seat has put in; Hold'em: at most
that; Sâm Lốc: *Rời bàn*; Phỏm: 5 L to each other player); the others say ``None``.
"""

from __future__ import annotations

from typing import Any

import pytest

from sanh.cards.rng import SeededRng
from sanh.games import REGISTRY, find_game
from sanh.games.base import CHANCE, Game, TableConfig
from sanh.games.driver import chance_event, random_action

L = 100


def dealt(game: Game[Any], config: TableConfig, seed: str) -> Any:
    """The hand once its chance events before the first decision are applied."""
    rng = SeededRng(seed)
    state = game.new_state(config)
    while game.to_act(state) is CHANCE:
        state = game.apply(state, chance_event(game, state, rng))
    return state


@pytest.mark.parametrize(
    ("game_id", "seats", "each"),
    [("sam-loc", 3, 10), ("sam-loc", 5, 10), ("phom", 2, 5), ("phom", 4, 5)],
)
def test_leaving_at_the_start_costs_the_rules_penalty_to_each_other_player(
    game_id: str, seats: int, each: int
) -> None:
    """Sâm Lốc §7.6 (A-SL11): *Rời bàn* pays 10 lá to each other player; Phỏm §9 (seed 001):
    the leaver pays 5 L to each other player. With two Phỏm players the leaver's payment ends
    the game, and that is all it costs."""
    game = find_game(game_id)
    config = TableConfig.make(seats=seats, stake=L, stacks=[1000 * L] * seats)
    state = dealt(game, config, f"leave-cost/{game_id}/{seats}")
    for seat in range(seats):
        assert game.leave_cost(state, seat) == each * L * (seats - 1)


@pytest.mark.parametrize("game_id", ["sam-loc", "phom"])
def test_the_leave_cost_is_capped_at_the_balance(game_id: str) -> None:
    """RULES.md §2.6: a debt is capped at the payer's balance, so is what leaving costs."""
    game = find_game(game_id)
    options = {"platform.min_balance_multiple": 0}
    config = TableConfig.make(seats=4, stake=L, stacks=[7 * L, *[1000 * L] * 3], options=options)
    state = dealt(game, config, f"leave-cap/{game_id}")
    assert game.leave_cost(state, 0) == 7 * L
    settlement = game.settle(play_out(game, game.apply(state, leave_of(game, state, 0))))
    assert settlement.deltas[0] == -7 * L


def leave_of(game: Game[Any], state: Any, seat: int) -> Any:
    action = game.default_action(state, seat, "leave")
    assert action is not None and action.seat == seat
    return action


def play_out(game: Game[Any], state: Any) -> Any:
    rng = SeededRng("leave-cost/play-out")
    while (turn := game.to_act(state)) is not None:
        event = (
            chance_event(game, state, rng) if turn is CHANCE else random_action(game, state, rng)
        )
        state = game.apply(state, event)
    return state


@pytest.mark.parametrize("game_id", ["lieng", "xi-to", "texas-holdem", "poker-aof"])
def test_the_pot_games_leave_cost_is_what_the_leaver_loses(game_id: str) -> None:
    """Liêng §8.5, Xì tố §6.7: leaving forfeits what the seat has put in, exactly; Hold'em
    §4.8: at most that (a bet nobody calls goes back). Random hands, a random seat leaving at a
    random moment: its final net is minus the cost (Hold'em: at least minus the cost)."""
    game = REGISTRY[game_id]
    rng = SeededRng(f"leave-cost/{game_id}")
    checked = 0
    for _ in range(30):
        config = TableConfig.make(seats=3, stake=L, stacks=[200 * L] * 3)
        state = game.new_state(config)
        leaver, cost = None, 0
        while (turn := game.to_act(state)) is not None:
            if turn is CHANCE:
                state = game.apply(state, chance_event(game, state, rng))
                continue
            seat = rng.randbelow(3)
            action = game.default_action(state, seat, "leave")
            removal = leaver is None and action is not None and type(action).anytime
            if removal and action is not None and rng.randbelow(4) == 0:
                leaver, found = seat, game.leave_cost(state, seat)
                assert found is not None
                cost = found
                state = game.apply(state, action)
                continue
            state = game.apply(state, random_action(game, state, rng))
        if leaver is None:
            continue
        checked += 1
        delta = game.settle(state).deltas[leaver]
        if game_id in ("lieng", "xi-to"):
            assert delta == -cost
        else:
            assert -cost <= delta <= 0
    assert checked >= 10


@pytest.mark.parametrize("game_id", ["tai-xiu", "three-card-poker", "teen-patti-2020"])
def test_house_games_name_no_exact_leave_cost(game_id: str) -> None:
    """Leaving a house game costs nothing but the bets that stand: no exact rule (``None``)."""
    game = REGISTRY[game_id]
    state = game.new_state(TableConfig.make(seats=2, stake=L))
    assert game.leave_cost(state, 0) is None
