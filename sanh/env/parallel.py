"""The PettingZoo parallel environment: every seat that may act, acts in one step.

In a simultaneous phase (a house game's betting window, the squeeze timer of Ba cây, Sâm's
declarations) every seat that may act gives an action id in the same ``step``; in turn-based
phases only the seat to act does. The other agents' ids are ignored (their mask is all zeros).

The engine still takes the actions one at a time, in seat order. Each id is checked against
the seat's mask at the start of the step (an id that was not legal then raises
:class:`~sanh.env.core.IllegalActionIdError`); an id that an earlier seat's action in the same
step made illegal is skipped, and that agent's info says ``{"skipped": True}``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import ParallelEnv

from sanh.env._agents import agent_spaces
from sanh.env.core import IllegalActionIdError, Table, TableSpec

__all__ = ["SanhParallelEnv"]

Obs = dict[str, npt.NDArray[Any]]


class SanhParallelEnv(ParallelEnv):  # type: ignore[misc]
    """One sanh game as a PettingZoo ``ParallelEnv``: one hand per episode."""

    def __init__(self, spec: TableSpec, render_mode: str | None = None) -> None:
        self.table = Table(spec)
        self.render_mode = render_mode
        self.metadata: dict[str, Any] = {
            "render_modes": ["ansi"],
            "name": f"sanh_{spec.game_id.replace('-', '_')}_parallel",
        }
        self.possible_agents, self.observation_spaces, self.action_spaces = agent_spaces(
            self.table, spec.seats
        )
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The Dict space of ``agent``'s observations."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The Discrete space of ``agent``'s action ids."""
        return self.action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        """Deal a new hand; the same ``seed`` deals the same hand."""
        self.table.reset(seed)
        self.agents = self.possible_agents[:]
        return self._observations(), {a: {} for a in self.agents}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, Obs],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Apply the ids of every seat that may act now, in seat order."""
        table = self.table
        acting = [self.possible_agents[s] for s in table.eligible()]
        legal = {agent: table.legal(self._seat[agent]) for agent in acting}
        for agent in acting:
            if agent not in actions:
                raise IllegalActionIdError(f"{agent} may act now: an action id is needed")
            if int(actions[agent]) not in legal[agent]:
                label = table.codec.label(int(actions[agent]))
                raise IllegalActionIdError(
                    f"action id {actions[agent]} ({label}) is not legal for {agent} now; "
                    f"legal ids: {sorted(legal[agent])}"
                )
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        for agent in acting:
            seat = self._seat[agent]
            if table.terminal or seat not in table.eligible():
                infos[agent]["skipped"] = True
                continue
            try:
                table.step_id(seat, int(actions[agent]))
            except IllegalActionIdError:
                infos[agent]["skipped"] = True
        observations = self._observations()
        done = table.terminal
        rewards = table.rewards()
        reward = {a: rewards[self._seat[a]] for a in self.agents}
        terminations = dict.fromkeys(self.agents, done)
        truncations = dict.fromkeys(self.agents, False)
        if done:
            deltas = table.settlement().deltas
            for agent in self.agents:
                infos[agent]["settlement"] = deltas[self._seat[agent]]
            self.agents = []
        return observations, reward, terminations, truncations, infos

    def render(self) -> str | None:
        """Seat 0's view as text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        return self.table.game.render_text(self.table.view(0))

    def close(self) -> None:
        """Nothing to release."""

    def state(self) -> npt.NDArray[np.float32]:
        """Not available: a global state would show hidden cards."""
        raise NotImplementedError("sanh environments give per-seat observations only")

    def _observations(self) -> dict[str, Obs]:
        return {agent: self.table.observation(self._seat[agent]) for agent in self.agents}
