"""Baseline policies over the environments: uniform random, and the hall's heuristic bots.

A policy maps (environment, agent) to an action id of the agent's action space. The bots of
:mod:`sanh.bots` see the seat's view only, as in the hall; :class:`BotPolicy` turns the bot's
engine action into its id (its nearest amount bucket, or the id of its combination), and
:meth:`BotPolicy.engine_action` gives the bot's exact action for
:meth:`sanh.env.SanhEnv.step_action`.

>>> import sanh.env
>>> env = sanh.env.make("tien-len", seats=2)
>>> rewards = play_hand(env, {"player_0": BotPolicy(), "player_1": RandomPolicy(1)}, seed=3)
>>> sorted(rewards) == ["player_0", "player_1"] and sum(rewards.values()) == 0
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

import numpy as np

from sanh.bots import Bot, bot_for
from sanh.cards.rng import SeededRng
from sanh.env.actions import pot_of
from sanh.env.aec import SanhEnv
from sanh.games.base import Action

__all__ = ["BotPolicy", "Policy", "RandomPolicy", "evaluate", "play_hand"]


class Policy(Protocol):
    """Picks the action id of ``agent``, the environment's selected agent."""

    def act(self, env: SanhEnv, agent: str) -> int:
        """An id whose mask bit is set."""
        ...


class RandomPolicy:
    """Uniform over the legal ids (the mask), from its own NumPy generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, env: SanhEnv, agent: str) -> int:
        """A uniformly random legal id."""
        mask = env.observe(agent)["action_mask"]
        return int(self.rng.choice(np.flatnonzero(mask)))


class BotPolicy:
    """The hall's heuristic bot of the game (:func:`sanh.bots.bot_for`), over action ids."""

    def __init__(self, seed: int | str = 0, bot: Bot | None = None) -> None:
        self.rng = SeededRng(seed)
        self.bot = bot
        self._bots: dict[str, Bot] = {}

    def engine_action(self, env: SanhEnv, agent: str) -> Action:
        """The bot's exact engine action, from the seat's view."""
        table = env.table
        bot = self.bot or self._bots.setdefault(table.game.info.id, bot_for(table.game.info.id))
        return bot.act(table.view(int(agent.rsplit("_", 1)[1])), self.rng)

    def act(self, env: SanhEnv, agent: str) -> int:
        """The id of the bot's action: itself if listed, else its nearest bucket."""
        action = self.engine_action(env, agent)
        legal = env.legal_actions(agent)
        for action_id, candidate in legal.items():
            if candidate == action:
                return action_id
        view = env.table.view(int(agent.rsplit("_", 1)[1]))
        action_id = env.table.codec.encode(action, view.amount_ranges, pot_of(view))
        if action_id in legal:
            return action_id
        raise ValueError(f"the bot's action {action} has no legal id")  # pragma: no cover


def play_hand(
    env: SanhEnv, policies: Mapping[str, Policy], seed: int | None = None
) -> dict[str, float]:
    """Play one hand with a policy per agent; each agent's total reward."""
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last(observe=False)
        totals[agent] += reward
        env.step(None if terminated or truncated else policies[agent].act(env, agent))
    return totals


def evaluate(
    env: SanhEnv, policies: Mapping[str, Policy], hands: int, seed: int = 0
) -> dict[str, tuple[float, float]]:
    """Each agent's mean reward per hand over ``hands`` seeded hands (seeds ``seed`` …
    ``seed + hands - 1``), with the half-width of its 95 % confidence interval (normal
    approximation, 1.96 standard errors)."""
    samples: dict[str, list[float]] = {agent: [] for agent in env.possible_agents}
    for i in range(hands):
        for agent, reward in play_hand(env, policies, seed=seed + i).items():
            samples[agent].append(reward)
    out = {}
    for agent, values in samples.items():
        data = np.asarray(values, dtype=np.float64)
        half = 1.96 * float(data.std(ddof=1)) / np.sqrt(len(data)) if len(data) > 1 else 0.0
        out[agent] = (float(data.mean()), half)
    return out
