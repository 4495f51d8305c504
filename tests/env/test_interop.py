"""OpenSpiel-style information states and PHH out for the Hold'em environments."""

from __future__ import annotations

import numpy as np
import pytest

import sanh.env
from sanh.env.interop import information_state_string, to_phh
from sanh.errors import NotationError
from sanh.notation.phh import parse_phh, replay_phh


@pytest.mark.parametrize("game_id", ["texas-holdem", "poker-aof"])
def test_phh_out_replays_to_the_same_stacks(game_id: str) -> None:
    # PHH replays under standard no-limit rules: the table plays them too.
    options = (
        {"holdem.min_raise": "standard", "holdem.max_raise": "stack"}
        if game_id == "texas-holdem"
        else {}
    )
    env = sanh.env.make(game_id, seats=3, options=options)
    for seed in range(4):
        env.reset(seed=seed)
        picker = np.random.default_rng(seed)
        while not env.table.terminal:
            env.step(int(picker.choice(sorted(env.legal_actions()))))
        state = env.table.state
        replay = replay_phh(parse_phh(to_phh(env))[0])
        assert replay.complete
        assert list(replay.final_stacks) == [state.stacks[seat] for seat in state.order]
        mine = to_phh(env, viewer=0)
        view = env.table.view(0)
        for other in (1, 2):
            shown = "".join(str(c) for c in state.hole[other])
            if None in view.hole[other]:  # type: ignore[attr-defined]
                assert shown not in mine and "????" in mine
            else:
                assert shown in mine


def test_phh_is_for_holdem_only() -> None:
    env = sanh.env.make("tien-len", seats=2)
    env.reset(seed=0)
    with pytest.raises(NotationError):
        to_phh(env)


def test_information_state_string_shows_only_the_viewer() -> None:
    env = sanh.env.make("texas-holdem", seats=3)
    env.reset(seed=4)
    state = env.table.state
    seat = int(env.agent_selection[-1])
    text = information_state_string(env.table.view(seat))
    assert text.startswith(f"[Round 0][Player: {seat}][Pot: 300]")
    assert f"[Private: {''.join(str(c) for c in state.hole[seat])}]" in text
    for other in range(3):
        if other != seat:
            assert all(str(c) not in text for c in state.hole[other])
    env.step(max(env.legal_actions()))  # all in
    nxt = int(env.agent_selection[-1])
    after = information_state_string(env.table.view(nxt))
    assert after.endswith(f"[Sequences: r{state.stacks[seat] + state.bets[seat]}]")
