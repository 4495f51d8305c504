"""Property tests of both shedding games (hypothesis): random legal play under every option set.

Properties (issue 4): gold is conserved and no one pays more than their stack; no legal list
holds an illegal move and every listed move applies; card sets that are not listed are refused
and change nothing; the game always ends within ``info.max_actions``; views never show another
seat's cards; histories replay (also through JSON) to the same state and settlement.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sanh.cards.rng import SeededRng, shuffled
from sanh.errors import ConfigError, IllegalActionError
from sanh.games import find_game
from sanh.games._shedding import Leave, Play
from sanh.games.base import CHANCE, Action, Game, Reason, Roll, Shuffle, TableConfig
from sanh.games.sam_loc import DeclareSam
from sanh.notation.history import dump_history, load_history, record_history, replay_history
from tests.games.shedding_fixtures import view_cards

TIEN_LEN_OPTIONS: list[dict[str, Any]] = [
    {},
    {"tlmn.scoring": "rank"},
    {"tlmn.opt_four_pairs_restore_turn": True, "tlmn.opt_dut_3_bich": True},
    {"tlmn.opt_first_game_instant_wins": True, "tlmn.direction": "cw"},
    {
        "tlmn.scoring": "rank",
        "tlmn.chain_cut": "last_item",
        "tlmn.cong_multiplier": 3,
        "tlmn.first_lead_must_include_3s": False,
        "tlmn.opt_dut_3_bich": True,
        "tlmn.opt_four_pairs_restore_turn": True,
    },
]
SAM_OPTIONS: list[dict[str, Any]] = [
    {},
    {"samloc.first_leader": "random", "samloc.finish_on_two": "forbid"},
    {"samloc.bao1_enforce": True, "samloc.direction": "cw", "samloc.two_count": "add"},
    {
        "samloc.sam_fail_ends_game": False,
        "samloc.leave_penalty_to": "winner",
        "samloc.den_trang_scope": "sam_and_treo",
        "samloc.overcut_amount": "cumulative",
        "samloc.thoi_finish_penalty": 15,
    },
    {"samloc.first_leader": "host", "samloc.bao1_penalty": "none", "samloc.instant_wins": ""},
]
CASES = [("tien-len", o) for o in TIEN_LEN_OPTIONS] + [("sam-loc", o) for o in SAM_OPTIONS]


def check_unlisted_card_sets_are_refused(game: Game[Any], state: Any, rng: SeededRng) -> None:
    """A few card subsets of the acting hand that are not listed plays must be refused."""
    legal = game.legal_actions(state)
    plays = {frozenset(a.cards) for a in legal if isinstance(a, Play)}
    seat = next((a.seat for a in legal if a.seat is not None), None)
    if seat is None or not state.hands:
        return
    hand = state.hands[seat]
    for _ in range(4):
        size = 1 + rng.randbelow(min(len(hand), 6))
        subset = tuple(sorted(shuffled(hand, rng)[:size]))
        if frozenset(subset) in plays:
            continue
        snapshot = repr(state)
        try:
            game.apply(state, Play(seat, subset))
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"unlisted play {subset} was accepted")
        assert repr(state) == snapshot


def pick(game: Game[Any], state: Any, legal: tuple[Action, ...], rng: SeededRng) -> Action:
    """A random action: 1 time in 40 a random seat leaves (what ``default_action`` gives for
    "leave" or "disconnect") or the table closes the Sâm window; a Sâm declaration 1 time in
    10; otherwise uniform among the seats' listed actions."""
    seat_actions = [a for a in legal if a.seat is not None]
    if not seat_actions or rng.randbelow(40) == 0:
        seat = rng.randbelow(state.config.seats)
        reasons: tuple[Reason, Reason] = ("leave", "disconnect")
        reason = reasons[rng.randbelow(2)]
        leave = game.default_action(state, seat, reason)
        if isinstance(leave, Leave):
            assert game.is_legal(state, leave)
            return leave
        pool = [a for a in legal if a.seat is None] or seat_actions
    elif any(isinstance(a, DeclareSam) for a in seat_actions):
        declare = rng.randbelow(10) == 0
        pool = [a for a in seat_actions if isinstance(a, DeclareSam) == declare]
    else:
        pool = seat_actions
    return pool[rng.randbelow(len(pool))]


def play_randomly(game: Game[Any], config: TableConfig, seed: int) -> Any:
    rng = SeededRng(seed)
    state = game.new_state(config)
    for step in range(game.info.max_actions):
        turn = game.to_act(state)
        if turn is None:
            return state
        if turn is CHANCE:
            spec = game.chance_spec(state)
            event = (
                Shuffle(shuffled(spec.deck, rng))
                if spec.kind == "shuffle"
                else Roll((1 + rng.randbelow(spec.sides),))
            )
            state = game.apply(state, event)
            continue
        legal = game.legal_actions(state)
        assert len(set(legal)) == len(legal), "a legal action is listed twice"
        sample = legal if len(legal) <= 8 else [legal[rng.randbelow(len(legal))] for _ in range(8)]
        for action in sample:
            game.apply(state, action)  # every listed action applies
        check_unlisted_card_sets_are_refused(game, state, rng)
        if step % 7 == 0:
            for viewer in range(config.seats):
                seen = view_cards(game.observe(state, viewer))
                for seat in range(config.seats):
                    if seat != viewer:
                        assert not seen & set(state.hands[seat])
        state = game.apply(state, pick(game, state, legal, rng))
    assert game.is_terminal(state), "the game did not end within max_actions"
    return state


@settings(max_examples=150, deadline=None)
@given(
    case=st.sampled_from(CASES),
    seats=st.integers(2, 5),
    seed=st.integers(0, 2**32),
    stake=st.sampled_from([100, 300, 1000]),
    stack_multiples=st.lists(st.integers(0, 60) | st.just(100), min_size=5, max_size=5),
)
def test_random_legal_play(
    case: tuple[str, dict[str, Any]],
    seats: int,
    seed: int,
    stake: int,
    stack_multiples: list[int],
) -> None:
    """Gold is conserved, debts respect stacks, the game ends, and histories replay."""
    game_id, options = case
    game = find_game(game_id)
    seats = min(seats, game.info.seats_max)
    stacks = [stake * m for m in stack_multiples[:seats]]
    config = TableConfig.make(seats=seats, stake=stake, stacks=stacks, options=options)
    if sum(m >= 10 for m in stack_multiples[:seats]) < 2:  # RULES.md §2.6: 10 L to start
        with pytest.raises(ConfigError, match="two players"):
            game.new_state(config)
        return
    state = play_randomly(game, config, seed)
    for seat in range(seats):
        if stacks[seat] < 10 * stake:
            assert state.hands[seat] == () and game.settle(state).deltas[seat] == 0
    settlement = game.settle(state)
    settlement.check()
    assert sum(settlement.deltas) + settlement.breakage == 0
    for seat, delta in enumerate(settlement.deltas):
        assert delta >= -stacks[seat]
    assert game.replay(config, state.history) == state
    history = load_history(dump_history(record_history(game, state, seed=str(seed))))
    replayed, replayed_settlement = replay_history(history)
    assert replayed == state and replayed_settlement == settlement


def test_histories_carry_through_a_session() -> None:
    """Several hands at one table: each hand's ``carry`` feeds the next, and every hand's JSON
    history (config and carry included) replays to the same state."""
    for game_id in ("tien-len", "sam-loc"):
        game = find_game(game_id)
        carry: Any = None
        rng = SeededRng(f"session/{game_id}")
        for _ in range(4):
            config = TableConfig.make(seats=3, stake=200, carry=carry)
            state = game.new_state(config)
            for _ in itertools.count():
                turn = game.to_act(state)
                if turn is None:
                    break
                if turn is CHANCE:
                    spec = game.chance_spec(state)
                    state = game.apply(state, Shuffle(shuffled(spec.deck, rng)))
                    continue
                seat_actions = [
                    a
                    for a in game.legal_actions(state)
                    if not isinstance(a, Leave) and a.seat is not None
                ] or [a for a in game.legal_actions(state) if a.seat is not None]
                state = game.apply(state, seat_actions[rng.randbelow(len(seat_actions))])
            text = dump_history(record_history(game, state))
            replayed, settlement = replay_history(load_history(text))
            assert replayed == state and settlement == game.settle(state)
            carry = game.carry(state)
            assert carry is not None
