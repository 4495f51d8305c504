"""sanh's games as research environments (PettingZoo AEC and parallel APIs).

``pip install sanh[env]`` adds PettingZoo and Gymnasium. Quick start::

    import sanh.env

    env = sanh.env.make("tien-len", seats=4)
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

See docs/env.md for the observation layouts and action ids of every game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sanh.env.aec import SanhEnv
from sanh.env.core import IllegalActionIdError, Table, TableSpec, options_tuple
from sanh.games import find_game
from sanh.games.base import OptionValue

__all__ = ["IllegalActionIdError", "SanhEnv", "Table", "TableSpec", "make", "make_parallel", "spec"]


def spec(
    game_id: str,
    seats: int | None = None,
    options: Mapping[str, OptionValue] | None = None,
    *,
    stake: int = 100,
    stacks: Sequence[int] | None = None,
    bet_sizes: Sequence[float] | None = None,
    history: int = 16,
    clock_steps: int | None = None,
) -> TableSpec:
    """The :class:`TableSpec` of a table (``game_id`` may be any name or alias of the game).

    ``seats`` defaults to the game's minimum, at least 2. ``bet_sizes`` sets the amount
    buckets (pot fractions in the pot games, multiples of the minimum bet elsewhere);
    ``history`` the number of past actions in an observation; ``clock_steps`` how many seat
    actions a window takes before the table's clock closes it (default 4 × seats).
    """
    game = find_game(game_id)
    n = seats if seats is not None else max(game.info.seats_min, 2)
    return TableSpec(
        game_id=game.info.id,
        seats=n,
        stake=stake,
        stacks=tuple(stacks) if stacks is not None else None,
        options=options_tuple(options),
        bet_sizes=tuple(bet_sizes) if bet_sizes is not None else None,
        history=history,
        clock_steps=clock_steps,
    )


def make(
    game_id: str,
    seats: int | None = None,
    options: Mapping[str, OptionValue] | None = None,
    *,
    render_mode: str | None = None,
    **kwargs: object,
) -> SanhEnv:
    """The PettingZoo ``AECEnv`` of a game (keyword arguments: see :func:`spec`)."""
    return SanhEnv(spec(game_id, seats, options, **kwargs), render_mode=render_mode)  # type: ignore[arg-type]


def make_parallel(
    game_id: str,
    seats: int | None = None,
    options: Mapping[str, OptionValue] | None = None,
    **kwargs: object,
) -> SanhParallelEnv:
    """The PettingZoo ``ParallelEnv`` of a game (keyword arguments: see :func:`spec`)."""
    return SanhParallelEnv(spec(game_id, seats, options, **kwargs))  # type: ignore[arg-type]


from sanh.env.parallel import SanhParallelEnv  # noqa: E402
from sanh.env.vector import VectorEnv  # noqa: E402

__all__ += ["SanhParallelEnv", "VectorEnv"]
