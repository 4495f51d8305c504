"""VectorEnv: many tables per call, the same hands as the AEC environment, rewards on done."""

from __future__ import annotations

import numpy as np
import pytest

import sanh.env
from sanh.env.core import IllegalActionIdError


@pytest.mark.parametrize(
    ("game_id", "kwargs"),
    [
        ("tien-len", {}),
        ("texas-holdem", {"decks": "engine"}),
        ("texas-holdem", {"backend": "tables"}),
        ("tai-xiu", {}),
    ],
)
def test_vector_env_random_self_play(game_id: str, kwargs: dict[str, str]) -> None:
    venv = sanh.env.VectorEnv(game_id, num_envs=6, seats=2, **kwargs)
    obs, mask, seat = venv.reset(seed=3)
    assert obs.shape == (6, venv.observation_size) and obs.dtype == np.float32
    assert mask.shape == (6, venv.action_size) and mask.dtype == np.int8
    assert mask.any(axis=1).all()
    # Table i of a vector reset with seed s deals the AEC environment's hand of seed s + i.
    env = sanh.env.make(game_id, seats=2)
    for i in range(6):
        env.reset(seed=3 + i)
        if env.table.terminal:
            continue
        first = env.observe(env.agent_selection)
        np.testing.assert_array_equal(first["observation"], obs[i])
        np.testing.assert_array_equal(first["action_mask"], mask[i])
        assert env.agent_selection == f"player_{seat[i]}"
    finished = 0
    for _ in range(100 if game_id == "tai-xiu" else 400):
        actions = venv.sample(mask)
        assert all(mask[i, a] == 1 for i, a in enumerate(actions))
        obs, mask, seat, rewards, done = venv.step(actions)
        assert rewards.shape == (6, 2)
        assert not rewards[~done].any()
        finished += int(done.sum())
        if game_id != "tai-xiu":  # house game: the rewards sum to minus the house's result
            assert rewards[done].sum(axis=1) == pytest.approx(np.zeros(int(done.sum())))
    assert finished == venv.hands > 0


def test_vector_env_refuses_an_illegal_id() -> None:
    venv = sanh.env.VectorEnv("tien-len", num_envs=2, seats=2)
    _, mask, _ = venv.reset(seed=0)
    bad = np.array([int(np.flatnonzero(mask[0] == 0)[0]), 0])
    with pytest.raises(IllegalActionIdError):
        venv.step(bad)


def test_parallel_step_lets_every_seat_of_a_window_act() -> None:
    """Three Card Poker's betting window: all three seats bet in one parallel step."""
    env = sanh.env.make_parallel("three-card-poker", seats=3)
    observations, _ = env.reset(seed=2)
    codec = env.table.codec
    ante_min = next(i for i in range(codec.size) if codec.label(i) == "bet bet=ante min")
    assert all(obs["action_mask"][ante_min] == 1 for obs in observations.values())
    before = len(env.table.history)
    env.step(dict.fromkeys(env.agents, ante_min))
    assert [s for s, _, _ in env.table.history[before:]] == [0, 1, 2]
    with pytest.raises(IllegalActionIdError):
        env.step(dict.fromkeys(env.agents, codec.size - 1))


@pytest.mark.parametrize("game_id", ["three-card-poker", "teen-patti-2020", "tai-xiu"])
def test_one_seat_house_game(game_id: str) -> None:
    env = sanh.env.make(game_id, seats=1)
    env.reset(seed=1)
    assert env.agents == ["player_0"]
    while env.agents:
        obs, _, terminated, _, _ = env.last()
        env.step(None if terminated else int(np.flatnonzero(obs["action_mask"])[-1]))
    settlement = env.table.settlement()
    assert settlement.deltas[0] == -(settlement.house + settlement.fee + settlement.breakage)


def test_options_reach_the_engine_and_bad_ones_are_refused() -> None:
    from sanh.errors import ConfigError

    env = sanh.env.make("tien-len", seats=3, options={"tlmn.scoring": "rank"})
    env.reset(seed=0)
    assert env.table.view(0).scoring == "rank"  # type: ignore[attr-defined]
    block = next(b for b in env.table.encoder.layout() if b.name == "scoring")
    obs = env.observe("player_0")["observation"]
    assert obs[block.offset + 1] == 1.0  # "rank" in the vocabulary (count, rank)
    with pytest.raises(ConfigError):
        sanh.env.make("tien-len", seats=3, options={"tlmn.scoring": "nope"})
    with pytest.raises(ValueError, match="seats"):
        sanh.env.make("tien-len", seats=7)


def test_evaluate_gives_means_and_intervals() -> None:
    from sanh.env.policies import BotPolicy, RandomPolicy, evaluate

    env = sanh.env.make("tien-len", seats=2)
    result = evaluate(env, {"player_0": BotPolicy(1), "player_1": RandomPolicy(1)}, hands=6)
    (mean0, half0), (mean1, half1) = result["player_0"], result["player_1"]
    assert mean0 == pytest.approx(-mean1)  # zero-sum: no fee in Tiến lên
    assert half0 > 0 and half0 == pytest.approx(half1)
