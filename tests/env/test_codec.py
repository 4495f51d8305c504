"""Action ids and observation encodings of the environments."""

from __future__ import annotations

import numpy as np
import pytest

import sanh.env
from sanh.cards.card import parse_cards
from sanh.env.actions import COMBO_IDS, COMBOS, ComboHead, combo_key
from sanh.env.core import IllegalActionIdError
from sanh.env.policies import BotPolicy, RandomPolicy, play_hand
from sanh.errors import IllegalActionError
from sanh.games import all_games
from sanh.games._shedding import Pass, Play
from sanh.games.texas_holdem import Call, Check, Fold, RaiseTo


def test_combination_index_is_canonical() -> None:
    assert len(COMBOS) == len(set(COMBOS)) == 195 + 520 + 208 + 78
    assert COMBOS[:2] == (("set", 0, 1), ("set", 0, 2))
    # 3♠ alone; a pair of 7s; 3-4-5 with the 5♦ on top; three pairs 3-4-5 (đôi thông).
    assert combo_key(parse_cards("3s")) == ("set", 1, 0b1000)
    assert combo_key(parse_cards("7d 7h")) == ("set", 5, 0b0110)
    assert combo_key(parse_cards("3s 4h 5d")) == ("run", 1, 3, 1, 1)
    assert combo_key(parse_cards("3s 3c 4h 4d 5s 5c")) == ("run", 2, 3, 1, 3)
    # Sâm's A-2-3 wraps: a run starting at the ace.
    assert combo_key(parse_cards("Ah 2s 3d")) == ("run", 1, 3, 12, 1)
    assert combo_key(parse_cards("3s 3c 3h 3d 9s 9c 9h 9d")) == ("quads", 1, 7)
    with pytest.raises(ValueError, match="not a combination"):
        combo_key(parse_cards("3s 5h"))
    for key in COMBOS[:50]:
        assert COMBOS[COMBO_IDS[key]] == key


@pytest.mark.parametrize("game_id", ["tien-len", "sam-loc"])
def test_shedding_ids(game_id: str) -> None:
    env = sanh.env.make(game_id, seats=4)
    codec = env.table.codec
    assert codec.heads[0].cls is Pass and codec.encode(Pass(0)) == 0
    head = codec.heads[1]
    assert isinstance(head, ComboHead) and head.offset == 1
    play = Play(0, parse_cards("3s 4h 5d"))
    assert codec.encode(play) == 1 + COMBO_IDS[("run", 1, 3, 1, 1)]
    assert codec.label(codec.encode(play)) == "play run x1 length=3 start=1 top_suit=1"
    # Two straights with the same ranks and top card share an id: it plays the lower suits.
    env.reset(seed=5)
    for _ in range(60):
        if env.table.terminal:
            break
        agent = env.agent_selection
        legal = env.legal_actions(agent)
        view = env.table.view(env.table.next_seat() or 0)
        plays = [a for a in view.legal_actions if isinstance(a, Play)]
        for action in plays:
            chosen = legal[codec.encode(action)]
            assert isinstance(chosen, Play)
            assert combo_key(chosen.cards) == combo_key(action.cards)
            assert sorted(chosen.cards) <= sorted(action.cards)
        env.step(min(legal))


def test_holdem_ids_buckets_and_exact_amounts() -> None:
    env = sanh.env.make("texas-holdem", seats=2, bet_sizes=(0.5, 1.0))
    codec = env.table.codec
    labels = [codec.label(i) for i in range(codec.size)]
    assert labels == ["fold", "check", "call", "raiseto min", "raiseto pot*0.5", "raiseto pot*1",
                      "raiseto max"]  # fmt: skip
    env.reset(seed=1)
    agent = env.agent_selection
    seat = int(agent[-1])
    legal = env.legal_actions()
    assert isinstance(legal[0], Fold) and isinstance(legal[2], Call)
    assert 1 not in legal  # facing the big blind: no check
    raises = [legal[i] for i in (3, 4, 5, 6)]
    assert all(isinstance(a, RaiseTo) for a in raises)
    amounts = [a.amount for a in raises if isinstance(a, RaiseTo)]
    assert amounts == sorted(amounts) and amounts[-1] == env.table.state.stacks[seat] + 100
    # The exact mode: any legal amount, refused when outside the range.
    with pytest.raises(IllegalActionError):
        env.step_action(RaiseTo(seat, amounts[0] - 1))
    env.step_action(RaiseTo(seat, amounts[0] + 7))
    other = env.agent_selection
    assert other != agent
    assert env.table.state.max_bet == amounts[0] + 7
    assert isinstance(env.legal_actions()[2], Call)
    assert not isinstance(env.legal_actions().get(1), Check)


def test_illegal_id_is_refused_clearly() -> None:
    env = sanh.env.make("tien-len", seats=2)
    env.reset(seed=2)
    with pytest.raises(IllegalActionIdError, match=r"action id 5000 \(out of range\)"):
        env.step(5000)
    legal = env.legal_actions()
    missing = next(i for i in range(env.table.codec.size) if i not in legal)
    with pytest.raises(IllegalActionIdError, match="is not legal for player_"):
        env.step(missing)


@pytest.mark.parametrize("game_id", [g.info.id for g in all_games()])
def test_observation_is_the_encoded_view(game_id: str) -> None:
    """The observation is a function of the seat's view and the public history only."""
    env = sanh.env.make(game_id, seats=min(3, next(
        g for g in all_games() if g.info.id == game_id).info.seats_max))  # fmt: skip
    env.reset(seed=4)
    table = env.table
    layout = table.encoder.layout()
    assert sum(b.size for b in layout) == table.encoder.size
    assert [b.offset for b in layout] == sorted(b.offset for b in layout)
    for agent in env.possible_agents:
        seat = int(agent[-1])
        obs = env.observe(agent)
        assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
        expected = table.encoder.encode(table.view(seat), table.public_history(seat))
        np.testing.assert_array_equal(obs["observation"], expected)
        assert obs["observation"][layout[-2].offset + seat] == 1.0  # the viewer's seat


def test_private_bets_stay_out_of_other_seats_history() -> None:
    """Tài Xỉu bets are private actions: another seat's observation never holds them."""
    env = sanh.env.make("tai-xiu", seats=2)
    env.reset(seed=0)
    table = env.table
    while not table.terminal:
        seat = table.next_seat()
        assert seat is not None
        table.step_id(seat, min(table.legal(seat)))
    assert {s for s, _, private in table.history if private} == {0, 1}
    for seat in range(2):
        expected = [(s, a) for s, a, private in table.history if s == seat or not private]
        assert table.public_history(seat) == expected
        assert all(s == seat for s, _ in table.public_history(seat))


@pytest.mark.parametrize("game_id", ["tien-len", "texas-holdem", "phom", "three-card-poker"])
def test_bot_policy_plays_legal_ids(game_id: str) -> None:
    env = sanh.env.make(game_id, seats=3)
    policies = {a: BotPolicy(i) if i % 2 == 0 else RandomPolicy(i)
                for i, a in enumerate(env.possible_agents)}  # fmt: skip
    for seed in range(3):
        rewards = play_hand(env, policies, seed=seed)
        deltas = env.table.settlement().deltas
        assert [rewards[a] * env.table.unit for a in env.possible_agents] == list(deltas)
