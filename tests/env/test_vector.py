"""VectorEnv: many tables per call, the same hands as the AEC environment, rewards on done."""

from __future__ import annotations

import numpy as np
import pytest

import sanh.env
from sanh.env.core import IllegalActionIdError


@pytest.mark.parametrize("game_id", ["tien-len", "texas-holdem", "tai-xiu"])
def test_vector_env_random_self_play(game_id: str) -> None:
    venv = sanh.env.VectorEnv(game_id, num_envs=6, seats=2)
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
    for _ in range(400):
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
