"""Many tables of one game stepped in one call, NumPy arrays in and out (self-play).

Each of the ``num_envs`` tables is always waiting for one seat's decision (the seat its AEC
environment would select). :meth:`VectorEnv.step` takes one action id per table, for that
seat, and returns the next decision of every table. A table whose hand ends is dealt a new hand
at once (the next seed of its stream), and its rewards (every seat's settlement in units) come
back in that step's ``rewards`` row with ``done`` set. Hands that end at the deal, before any
decision (a Tiến lên instant win), are skipped by :meth:`sanh.env.core.Table.reset`.

Backends. No-limit Hold'em runs on the batched NumPy core :mod:`sanh.env.holdem_batch` (every
table in one vectorised call; the same ids, masks, observation tensors and rewards as the
per-table path, which the tests check value for value); every other game, and Hold'em with
an option the batched core does not play, runs one :class:`~sanh.env.core.Table` per table
(``backend="tables"`` asks for it). Decks: the per-table path deals table ``i`` the hands of
seeds ``seed + i``, ``seed + i + n``, ... (the AEC environment's hands); the batched core does
the same with ``decks="engine"``, and by default (``decks="fast"``) draws every deck from one
NumPy stream seeded from ``SeededRng(seed)``: the same seed still replays the same hands.

>>> venv = VectorEnv("tien-len", num_envs=4, seats=2)
>>> obs, mask, seat = venv.reset(seed=1)
>>> obs.shape[0], mask.shape == (4, venv.action_size), seat.shape
(4, True, (4,))
>>> actions = venv.sample(mask)
>>> obs, mask, seat, rewards, done = venv.step(actions)
>>> rewards.shape
(4, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from sanh.env.core import Table
from sanh.env.holdem_batch import BatchObservations, HoldemBatch
from sanh.games.base import OptionValue

__all__ = ["VectorEnv"]


class VectorEnv:
    """``num_envs`` independent tables of a game, one pending decision each."""

    def __init__(
        self,
        game_id: str,
        num_envs: int,
        seats: int | None = None,
        options: Mapping[str, OptionValue] | None = None,
        *,
        backend: str = "auto",
        decks: str | None = None,
        copy: bool = True,
        **kwargs: Any,
    ) -> None:
        from sanh.env import spec

        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        if backend not in ("auto", "batch", "tables"):
            raise ValueError(f"backend must be 'auto', 'batch' or 'tables', not {backend!r}")
        self.spec = spec(game_id, seats, options, **kwargs)
        self.num_envs = num_envs
        self.seats = self.spec.seats
        self.copy = copy
        """Whether observations are copies (else the batched core's own buffer, overwritten
        by the next step: faster, for loops that use each observation before stepping)."""
        self.batch: HoldemBatch | None = None
        self.tables: list[Table] = []
        probe = Table(self.spec)
        if backend != "tables" and self.spec.game_id == "texas-holdem":
            try:
                self.batch = HoldemBatch(
                    num_envs,
                    self.seats,
                    stake=self.spec.stake,
                    stacks=self.spec.stacks,
                    options=dict(self.spec.options),
                    bet_sizes=self.spec.bet_sizes,
                    history=self.spec.history,
                    decks=decks or "fast",
                )
            except ValueError:
                if backend == "batch":
                    raise
        elif backend == "batch":
            raise ValueError(f"{self.spec.game_id}: no batched core (only texas-holdem has one)")
        if self.batch is None:
            if decks not in (None, "engine"):
                raise ValueError("the per-table backend deals the engine's decks only")
            self.tables = [probe, *(Table(self.spec) for _ in range(num_envs - 1))]
        else:
            assert self.batch.action_size == probe.codec.size
            self._observations = BatchObservations(self.batch, probe.encoder)
        self.backend = "tables" if self.batch is None else "batch"
        """Which backend steps the tables: ``"batch"`` or ``"tables"``."""
        self.action_size = probe.codec.size
        """The size of every table's Discrete action space."""
        self.observation_size = probe.encoder.size
        self._seeds = np.zeros(num_envs, dtype=np.int64)
        self._sampler = np.random.default_rng()
        self.hands = 0
        """Hands finished since the last reset."""

    def reset(
        self, seed: int | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        """New hands everywhere: table ``i`` plays seeds ``seed + i``, ``seed + i + n``, …"""
        entropy = np.random.SeedSequence().entropy
        base = seed if seed is not None else int(entropy) % 2**31  # type: ignore[arg-type]
        self._sampler = np.random.default_rng(base)
        self._seeds = np.arange(base, base + self.num_envs, dtype=np.int64)
        self.hands = 0
        if self.batch is not None:
            self.batch.reset(base)
            obs = self._observations.update(None)
            return self._out(obs), self.batch.mask.copy(), self.batch.actor_seats()
        for i, table in enumerate(self.tables):
            table.reset(int(self._seeds[i]))
        self.hands = 0
        obs, mask, seat = self._collect()
        return obs, mask, seat

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.int8],
        npt.NDArray[np.int64],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
    ]:
        """Apply one id per table (for the seat each table waits for).

        Returns ``(obs, mask, seat, rewards, done)``: the next decision of every table, the
        rewards (``num_envs × seats``, non-zero only where a hand ended) and where it did.

        :raises IllegalActionIdError: if an id is not legal at its table (per-table backend:
            that table and the ones after it are left as they were; batched: every table is).
        """
        ids = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        if self.batch is not None:
            batch = self.batch
            deltas, done = batch.step(ids)
            obs = self._observations.update(np.flatnonzero(done))
            self.hands = batch.hands
            rewards = (deltas / batch.unit).astype(np.float32)
            return self._out(obs), batch.mask.copy(), batch.actor_seats(), rewards, done
        rewards = np.zeros((self.num_envs, self.seats), dtype=np.float32)
        done = np.zeros(self.num_envs, dtype=np.bool_)
        for i, table in enumerate(self.tables):
            seat = table.next_seat()
            assert seat is not None
            table.step_id(seat, int(ids[i]))
            if table.terminal:
                rewards[i] = table.rewards()
                done[i] = True
                self.hands += 1
                self._seeds[i] += self.num_envs
                table.reset(int(self._seeds[i]))
        obs, mask, seats = self._collect()
        return obs, mask, seats, rewards, done

    def _out(self, obs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        return obs.copy() if self.copy else obs

    def sample(self, mask: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
        """A uniformly random legal id per row of ``mask``."""
        noise = self._sampler.random(mask.shape)
        picked: npt.NDArray[np.int64] = np.argmax(np.where(mask > 0, noise, -1.0), axis=1)
        return picked.astype(np.int64)

    def _collect(
        self,
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        obs = np.zeros((self.num_envs, self.observation_size), dtype=np.float32)
        mask = np.zeros((self.num_envs, self.action_size), dtype=np.int8)
        seats = np.zeros(self.num_envs, dtype=np.int64)
        for i, table in enumerate(self.tables):
            seat = table.next_seat()
            assert seat is not None
            seats[i] = seat
            view = table.view(seat)
            obs[i] = table.encoder.encode(view, table.public_history(seat))
            for action_id in table.legal(seat):
                mask[i, action_id] = 1
        return obs, mask, seats
