"""The agents of a sanh table and their spaces, shared by the AEC and the parallel env."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from sanh.env.core import Table
from sanh.env.encode import OBS_BOUND


def agent_spaces(
    table: Table, seats: int
) -> tuple[list[str], dict[str, spaces.Space[Any]], dict[str, spaces.Space[Any]]]:
    """``player_0`` … ``player_{seats-1}``, each with the Dict observation space (the
    observation tensor and the action mask) and the Discrete action space of the table."""
    agents = [f"player_{i}" for i in range(seats)]
    size = table.codec.size
    observation: spaces.Space[Any] = spaces.Dict(
        {
            "observation": spaces.Box(
                -OBS_BOUND, OBS_BOUND, (table.encoder.size,), dtype=np.float32
            ),
            "action_mask": spaces.Box(0, 1, (size,), dtype=np.int8),
        }
    )
    return (
        agents,
        dict.fromkeys(agents, observation),
        {agent: spaces.Discrete(size) for agent in agents},
    )
