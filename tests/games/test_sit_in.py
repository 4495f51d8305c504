"""Empty seats and :class:`~sanh.games.base.SitIn` in the house-banked games.

The hall runs house tables on their clock with or without players (the hall-server issue): a
round opens with every table seat as an engine seat, a seat without a player has stack 0 (an
*empty seat*), and a player who sits during the betting window is given a stack by the table's
``SitIn`` and bets in the round under way. These tests drive the three engines directly.
"""

from __future__ import annotations

from typing import Any

import pytest

from sanh.cards.rng import SeededRng
from sanh.errors import IllegalActionError
from sanh.games import REGISTRY
from sanh.games.base import CHANCE, Action, Game, SitIn, TableConfig
from sanh.games.driver import chance_event, random_action

BANKED = sorted(game_id for game_id, game in REGISTRY.items() if game.info.banked)
STAKE = 100


def test_the_house_games_are_the_banked_ones() -> None:
    assert BANKED == ["tai-xiu", "teen-patti-2020", "three-card-poker"]


def _empty(seats: int, **kw: Any) -> TableConfig:
    return TableConfig.make(seats=seats, stake=STAKE, stacks=[0] * seats, **kw)


def _finish(game: Game[Any], state: Any, rng: SeededRng) -> Any:
    while not game.is_terminal(state):
        turn = game.to_act(state)
        event = (
            chance_event(game, state, rng) if turn is CHANCE else random_action(game, state, rng)
        )
        state = game.apply(state, event)
    return state


@pytest.mark.parametrize("game_id", BANKED)
def test_a_round_with_nobody_seated_waits_for_the_clock_and_settles_to_nothing(
    game_id: str,
) -> None:
    game = REGISTRY[game_id]
    state = game.new_state(_empty(5))
    assert game.to_act(state) == (), "with every seat empty nobody acts but the table"
    table_actions = game.legal_actions_for(state, None)
    assert table_actions, "the table can always close the window"
    close = game.default_action(state, None, "timeout")
    assert close is not None and close in table_actions
    state = _finish(game, game.apply(state, close), SeededRng(b"empty"))
    settlement = game.settle(state)
    settlement.check()
    assert settlement.deltas == (0,) * 5
    assert settlement.house == settlement.fee == settlement.breakage == 0


@pytest.mark.parametrize("game_id", BANKED)
def test_a_player_sits_in_during_the_window_and_bets_in_this_round(game_id: str) -> None:
    game = REGISTRY[game_id]
    state = game.new_state(_empty(3))
    state = game.apply(state, SitIn(None, chair=1, stack=50 * STAKE))
    assert state.config.stacks == (0, 50 * STAKE, 0)
    assert 1 in game.to_act(state)
    ranges = game.amount_ranges_for(state, 1)
    assert ranges, "the new seat may bet at once"
    state = game.apply(state, ranges[0].at(ranges[0].min))
    for action in game.legal_actions_for(state, 1):
        if type(action).__name__ == "Confirm":  # Tài Xỉu: chips play once confirmed
            state = game.apply(state, action)
    close = game.default_action(state, None, "timeout")
    assert close is not None
    rng = SeededRng(b"sit-in")
    state = game.apply(state, close)
    while not game.is_terminal(state):
        turn = game.to_act(state)
        if turn is CHANCE:
            state = game.apply(state, chance_event(game, state, rng))
            continue
        # Three Card Poker's decision: the seat plays its Ante.
        state = game.apply(state, game.legal_actions_for(state, 1)[0])
    settlement = game.settle(state)
    settlement.check()
    assert settlement.deltas[0] == settlement.deltas[2] == 0
    assert settlement.deltas[1] != 0, "the seated bet was settled"
    assert any(line.seat == 1 for line in settlement.lines)
    assert game.replay(_empty(3), state.history) == state, "the SitIn replays from the history"


@pytest.mark.parametrize("game_id", BANKED)
def test_the_window_closes_by_itself_only_when_no_seat_is_empty(game_id: str) -> None:
    game = REGISTRY[game_id]
    config = TableConfig.make(seats=2, stake=STAKE, stacks=[50 * STAKE, 0])
    state = game.new_state(config)
    state = game.apply(state, _ready(game, state, 0))
    assert game.to_act(state) == (), "seat 1 is empty: the window waits for it or the clock"
    state = game.apply(state, SitIn(None, chair=1, stack=20 * STAKE))
    assert game.to_act(state) == (1,)
    state = game.apply(state, _ready(game, state, 1))
    assert game.to_act(state) != (), "no seat left to act, none empty: the window closed"


def _ready(game: Game[Any], state: Any, seat: int) -> Action:
    for action in game.legal_actions_for(state, seat):
        if type(action).__name__ == "Ready":
            return action
    raise AssertionError(f"{game.info.id}: p{seat + 1} cannot say Ready")


def _refused(game: Game[Any], state: Any, event: Action, words: str) -> None:
    before = repr(state)
    with pytest.raises(IllegalActionError, match=words):
        game.apply(state, event)
    assert repr(state) == before


@pytest.mark.parametrize("game_id", BANKED)
def test_bad_sit_ins_are_refused_and_change_nothing(game_id: str) -> None:
    game = REGISTRY[game_id]
    config = TableConfig.make(seats=3, stake=STAKE, stacks=[50 * STAKE, 0, 0])
    state = game.new_state(config)
    _refused(game, state, SitIn(None, chair=0, stack=STAKE), "not empty")
    _refused(game, state, SitIn(None, chair=3, stack=STAKE), "no such seat")
    _refused(game, state, SitIn(None, chair=-1, stack=STAKE), "no such seat")
    _refused(game, state, SitIn(None, chair=1, stack=0), "positive")
    _refused(game, state, SitIn(None, chair=1, stack=-5), "positive")
    _refused(game, state, SitIn(None, chair=1, stack=True), "positive")
    _refused(game, state, SitIn(1, chair=1, stack=STAKE), "may not act now|only the table")
    seated = game.apply(state, SitIn(None, chair=1, stack=STAKE))
    _refused(game, seated, SitIn(None, chair=1, stack=STAKE), "not empty")
    closed = game.apply(state, game.default_action(state, None, "timeout"))  # type: ignore[arg-type]
    if isinstance(game.to_act(closed), tuple):
        _refused(game, closed, SitIn(None, chair=2, stack=STAKE), "closed")
    else:
        with pytest.raises(IllegalActionError):
            game.apply(closed, SitIn(None, chair=2, stack=STAKE))


def test_the_bank_of_a_player_hosted_tai_xiu_table_is_never_an_empty_seat() -> None:
    game = REGISTRY["tai-xiu"]
    config = TableConfig.make(
        seats=3,
        stake=STAKE,
        stacks=[1000 * STAKE, 0, 0],
        options={"taixiu.table": "player"},
        host=0,
    )
    state = game.new_state(config)
    _refused(game, state, SitIn(None, chair=0, stack=STAKE), "not empty")
    state = game.apply(state, SitIn(None, chair=2, stack=10 * STAKE, clan=True))
    assert state.config.clan_members == (False, False, True)
    assert 2 in game.to_act(state)


@pytest.mark.parametrize("game_id", BANKED)
@pytest.mark.parametrize("seed", range(40))
def test_random_rounds_with_players_sitting_in_balance_and_replay(game_id: str, seed: int) -> None:
    game = REGISTRY[game_id]
    rng = SeededRng(f"{game_id}:{seed}".encode())
    seats = 1 + rng.randbelow(6)
    stacks = [0 if rng.randbelow(2) else STAKE * (1 + rng.randbelow(200)) for _ in range(seats)]
    config = TableConfig.make(seats=seats, stake=STAKE, stacks=stacks)
    state = game.new_state(config)
    for _ in range(game.info.max_actions):
        turn = game.to_act(state)
        if turn is None:
            break
        if turn is CHANCE:
            state = game.apply(state, chance_event(game, state, rng))
            continue
        empty = [s for s in range(seats) if state.config.stacks[s] == 0]
        if empty and rng.randbelow(3) == 0:
            chair = empty[rng.randbelow(len(empty))]
            sit = SitIn(None, chair=chair, stack=STAKE * (1 + rng.randbelow(100)))
            if game.is_legal(state, sit):
                state = game.apply(state, sit)
                continue
        state = game.apply(state, random_action(game, state, rng))
    assert game.is_terminal(state)
    settlement = game.settle(state)
    settlement.check()
    for seat in range(seats):
        assert -settlement.deltas[seat] <= state.config.stacks[seat], "nobody loses above stack"
        risk = game.at_risk(state, seat)
        assert risk is not None and -settlement.deltas[seat] <= risk, "the hold covers the loss"
    assert game.replay(config, state.history) == state


@pytest.mark.parametrize("game_id", BANKED)
def test_at_risk_is_what_the_bets_hold(game_id: str) -> None:
    """What the server holds as bets come (house games need only the amount bet)."""
    game = REGISTRY[game_id]
    state = game.new_state(TableConfig.make(seats=2, stake=STAKE, stacks=[500 * STAKE] * 2))
    assert game.at_risk(state, 0) == game.at_risk(state, 1) == 0
    ranges = game.amount_ranges_for(state, 0)
    state = game.apply(state, ranges[0].at(3 * STAKE))
    assert game.at_risk(state, 0) == 3 * STAKE
    assert game.at_risk(state, 1) == 0


def test_the_bank_of_a_player_table_risks_every_reservation() -> None:
    game = REGISTRY["tai-xiu"]
    config = TableConfig.make(
        seats=2, stake=STAKE, stacks=[1000 * STAKE, 100 * STAKE], options={"taixiu.table": "player"}
    )
    state = game.new_state(config)
    from sanh.games.tai_xiu import Place

    state = game.apply(state, Place(1, "total_4", STAKE))  # pays 50:1
    assert game.at_risk(state, 1) == STAKE
    assert game.at_risk(state, 0) == 50 * STAKE == state.reserved
