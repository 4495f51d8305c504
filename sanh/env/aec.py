"""The PettingZoo AEC environment of every sanh game."""

from __future__ import annotations

from typing import Any

import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from sanh.env._agents import agent_spaces
from sanh.env.core import Table, TableSpec
from sanh.games.base import Action

__all__ = ["SanhEnv"]


class SanhEnv(AECEnv):  # type: ignore[misc]
    """One sanh game as a PettingZoo AEC environment: one hand per episode.

    Agents are ``player_0`` … ``player_{n-1}`` (engine seats 0 … n-1). Each observation is
    ``{"observation": float32 vector, "action_mask": int8 vector}`` built from the seat's own
    view only (:mod:`sanh.env.encode`); actions are ids of the game's fixed action space
    (:mod:`sanh.env.actions`). Simultaneous phases (the house games' betting windows, the
    squeeze timers, Sâm's declarations) are served in AEC order: the seats that may act take
    turns round robin until each is done or the table's clock closes the window. Every agent
    ends together when the hand ends; rewards are the settlement in units (big blinds in
    Hold'em, the stake elsewhere), given at the end.
    """

    def __init__(self, spec: TableSpec, render_mode: str | None = None) -> None:
        super().__init__()
        self.table = Table(spec)
        self.render_mode = render_mode
        self.metadata: dict[str, Any] = {
            "render_modes": ["ansi"],
            "is_parallelizable": False,
            "name": f"sanh_{spec.game_id.replace('-', '_')}",
        }
        self.possible_agents, self.observation_spaces, self.action_spaces = agent_spaces(
            self.table, spec.seats
        )
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        self.agents: list[str] = []

    def __str__(self) -> str:
        return str(self.metadata["name"])

    # ----- PettingZoo API ----------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The Dict space of ``agent``'s observations."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The Discrete space of ``agent``'s action ids."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand; the same ``seed`` deals the same hand."""
        self.table.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._after_step()

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """``agent``'s observation and action mask."""
        return self.table.observation(self._seat[agent])

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action id (``None`` once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        if action is None:
            raise ValueError(f"{agent} is still in the hand: an action id is needed")
        self.table.step_id(self._seat[agent], int(action))
        self._after_step()

    def step_action(self, action: Action) -> None:
        """The exact mode: apply an engine action of the selected agent (any legal amount,
        any play), bypassing the buckets; its history entry is its nearest id."""
        agent = self.agent_selection
        self._cumulative_rewards[agent] = 0.0
        self.table.step_action(self._seat[agent], action)
        self._after_step()

    def legal_actions(self, agent: str | None = None) -> dict[int, Action]:
        """The legal ids of ``agent`` (default: the selected one) and their engine actions."""
        return dict(self.table.legal(self._seat[agent or self.agent_selection]))

    def action_label(self, action_id: int) -> str:
        """A readable name of an action id."""
        return self.table.codec.label(action_id)

    def render(self) -> str | None:
        """The selected seat's view as text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        seat = self._seat.get(self.agent_selection, 0) if self.agents else 0
        return self.table.game.render_text(self.table.view(seat))

    def close(self) -> None:
        """Nothing to release."""

    # ----- internals ---------------------------------------------------------------------
    def _after_step(self) -> None:
        table = self.table
        if table.terminal:
            rewards = table.rewards()
            for agent in self.agents:
                self.rewards[agent] = rewards[self._seat[agent]]
                self.terminations[agent] = True
                self.infos[agent] = {"settlement": table.settlement().deltas[self._seat[agent]]}
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
            return
        for agent in self.agents:
            self.rewards[agent] = 0.0
        seat = table.next_seat()
        assert seat is not None, "a live hand always has a seat to act"
        self.agent_selection = self.possible_agents[seat]
        self._accumulate_rewards()
