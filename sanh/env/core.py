"""The engine side of the environments: one table, one hand at a time.

:class:`Table` holds a game, a :class:`~sanh.games.base.TableConfig`, the hand's state and its
random stream. It applies chance events itself (shuffles and dice drawn from a
:class:`~sanh.cards.rng.SeededRng`, so ``reset(seed)`` replays a hand exactly), and the table's
own actions (``seat=None``: closing a betting window, a squeeze timer) the way the server's
clock would: when no seat can act, or once ``clock_steps`` seat actions have been taken while
a table action was available (a betting window where every seat may act again and again).

Chance and the table are never agents: the agents only ever see seat decisions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from sanh.cards.rng import Rng, SeededRng, SystemRng
from sanh.env.actions import ActionCodec, LegalActions, make_codec, pot_of
from sanh.env.encode import ObservationEncoder
from sanh.errors import IllegalActionError
from sanh.games import find_game
from sanh.games.base import CHANCE, Action, Game, OptionValue, Settlement, TableConfig, View
from sanh.games.driver import chance_event

__all__ = ["IllegalActionIdError", "Table", "TableSpec"]


class IllegalActionIdError(ValueError):
    """An action id that is not legal for the seat now."""


@dataclass(frozen=True, slots=True)
class TableSpec:
    """How to build a table: the game, the seats, the stake and stacks, the rule options."""

    game_id: str
    seats: int
    stake: int = 100
    stacks: tuple[int, ...] | None = None
    options: tuple[tuple[str, OptionValue], ...] = ()
    bet_sizes: tuple[float, ...] | None = None
    history: int = 16
    clock_steps: int | None = None


class Table:
    """One table of a game, driven by seat decisions only."""

    def __init__(self, spec: TableSpec) -> None:
        self.spec = spec
        self.game: Game[Any] = find_game(spec.game_id)
        info = self.game.info
        if not info.seats_min <= spec.seats <= info.seats_max:
            raise ValueError(
                f"{info.id} seats {info.seats_min}..{info.seats_max}, not {spec.seats}"
            )
        self.config = TableConfig.make(
            seats=spec.seats, stake=spec.stake, stacks=spec.stacks, options=dict(spec.options)
        )
        self.seats = spec.seats
        self.codec: ActionCodec = make_codec(self.game, spec.seats, spec.bet_sizes)
        probe = self.game.new_state(self.config)
        self.view_type = type(self.game.observe(probe, 0))
        self.encoder = ObservationEncoder(
            self.game,
            self.config,
            self.view_type,
            action_size=self.codec.size,
            history=spec.history,
        )
        self.clock_steps = spec.clock_steps if spec.clock_steps is not None else 4 * spec.seats
        params = getattr(probe, "params", None)
        big_blind = getattr(params, "big_blind", None)
        self.unit = int(big_blind) if isinstance(big_blind, int) and big_blind > 0 else spec.stake
        """Rewards are settlements divided by this: the big blind in Hold'em, else the stake."""
        self._private = tuple(info.private_actions)
        self.state: Any = probe
        self.rng: Rng = SeededRng(0)
        self.history: list[tuple[int, int, bool]] = []
        self._clock = 0
        self._last_seat = -1
        self._legal_cache: dict[tuple[int, int], LegalActions] = {}
        self._view_cache: dict[tuple[int, int], View] = {}
        self._settled: tuple[Any, Settlement] | None = None
        self._eligible: tuple[Any, tuple[int, ...]] | None = None
        self._table_open: tuple[Any, bool] | None = None
        self.skipped = 0
        """Hands of the last reset that ended at the deal (see :meth:`reset`)."""

    # ----- the hand --------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """A new hand: the same seed gives the same deck and dice.

        A hand that ends at the deal, before any seat decides (a Tiến lên or Sâm instant
        win, a Phỏm ù dealt), has no decision to offer: it is counted in :attr:`skipped` and
        the next hand is dealt from the same random stream, so a seed still gives one hand.
        """
        self.rng = SeededRng(seed) if seed is not None else SystemRng()
        self.skipped = 0
        for _ in range(1000):
            self.state = self.game.new_state(self.config)
            self.history = []
            self._clock = 0
            self._last_seat = -1
            self._legal_cache = {}
            self._view_cache = {}
            self._settled = None
            self._advance()
            if not self.terminal:
                return
            self.skipped += 1
        raise RuntimeError(f"{self.game.info.id}: 1000 hands in a row ended at the deal")

    @property
    def terminal(self) -> bool:
        """Whether the hand is over."""
        return self.game.to_act(self.state) is None

    def settlement(self) -> Settlement:
        """The hand's settlement (only once it is over)."""
        if self._settled is None or self._settled[0] is not self.state:
            self._settled = (self.state, self.game.settle(self.state))
        return self._settled[1]

    def rewards(self) -> list[float]:
        """Each seat's settlement in units (0 until the hand is over)."""
        if not self.terminal:
            return [0.0] * self.seats
        deltas = self.settlement().deltas
        return [delta / self.unit for delta in deltas]

    def eligible(self) -> list[int]:
        """The seats that can act now, in seat order."""
        cached = self._eligible
        if cached is not None and cached[0] is self.state:
            return list(cached[1])
        turn = self.game.to_act(self.state)
        seats: list[int] = []
        if isinstance(turn, tuple):
            seats = [
                s
                for s in turn
                if self.game.amount_ranges_for(self.state, s)
                or self.game.legal_actions_for(self.state, s)
            ]
        self._eligible = (self.state, tuple(seats))
        return seats

    def table_open(self) -> bool:
        """Whether the table itself has an action now (a window its clock may close)."""
        cached = self._table_open
        if cached is not None and cached[0] is self.state:
            return cached[1]
        is_open = bool(self.game.legal_actions_for(self.state, None))
        self._table_open = (self.state, is_open)
        return is_open

    def next_seat(self) -> int | None:
        """The seat to act next: the only one, or round robin through a window."""
        seats = self.eligible()
        if not seats:
            return None
        after = [s for s in seats if s > self._last_seat]
        return after[0] if after else seats[0]

    # ----- views, masks, observations ----------------------------------------------------
    def view(self, seat: int) -> View:
        """The seat's view (the only input of its observation)."""
        key = (self.state.version, seat)
        cached = self._view_cache.get(key)
        if cached is None:
            cached = self.game.observe(self.state, seat)
            if len(self._view_cache) > 4 * self.seats:
                self._view_cache = {}
            self._view_cache[key] = cached
        return cached

    def legal(self, seat: int) -> LegalActions:
        """The seat's legal ids now, with the engine action each stands for."""
        key = (self.state.version, seat)
        cached = self._legal_cache.get(key)
        if cached is None:
            cached = self.codec.legal(self.view(seat))
            self._legal_cache = {key: cached}
        return cached

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        """1 for every legal id of the seat now."""
        out = np.zeros(self.codec.size, dtype=np.int8)
        for action_id in self.legal(seat):
            out[action_id] = 1
        return out

    def public_history(self, seat: int) -> list[tuple[int, int]]:
        """The actions the seat has seen: everyone's but other seats' private ones."""
        return [(s, a) for s, a, private in self.history if not private or s == seat]

    def observation(self, seat: int) -> dict[str, npt.NDArray[Any]]:
        """``{"observation": float32 vector, "action_mask": int8 vector}``."""
        view = self.view(seat)
        return {
            "observation": self.encoder.encode(view, self.public_history(seat)),
            "action_mask": self.mask(seat),
        }

    # ----- acting ------------------------------------------------------------------------
    def step_id(self, seat: int, action_id: int) -> None:
        """Apply the seat's action ``action_id``.

        :raises IllegalActionIdError: if the id is not legal for the seat now.
        """
        legal = self.legal(seat)
        try:
            action = legal[int(action_id)]
        except (KeyError, TypeError, ValueError):
            what = (
                self.codec.label(int(action_id))
                if isinstance(action_id, int | np.integer) and 0 <= action_id < self.codec.size
                else "out of range"
            )
            raise IllegalActionIdError(
                f"{self.game.info.id}: action id {action_id!r} ({what}) is not legal for "
                f"player_{seat} now; legal ids: {sorted(legal)}"
            ) from None
        self._apply(seat, action, int(action_id))

    def step_action(self, seat: int, action: Action) -> None:
        """Apply an engine action of the seat (the exact mode: any legal amount, any play).

        :raises IllegalActionError: if the engine refuses it.
        """
        if action.seat != seat:
            raise IllegalActionError(action, "not_your_turn", self.state.version)
        view = self.view(seat)
        action_id = self.codec.encode(action, view.amount_ranges, pot_of(view))
        self._apply(seat, action, action_id)

    def _apply(self, seat: int, action: Action, action_id: int) -> None:
        table_open = self.table_open()
        self.state = self.game.apply(self.state, action)
        self.history.append((seat, action_id, isinstance(action, self._private)))
        self._last_seat = seat
        if table_open:
            self._clock += 1
        self._advance()

    def _advance(self) -> None:
        """Apply chance events and the table's actions until a seat must act or it is over."""
        game = self.game
        for _ in range(game.info.max_actions + 1):
            turn = game.to_act(self.state)
            if turn is None:
                return
            if turn is CHANCE:
                self.state = game.apply(self.state, chance_event(game, self.state, self.rng))
                continue
            seats = self.eligible()
            if seats and self._clock < self.clock_steps:
                return
            if seats and not self.table_open():
                return
            table = game.default_action(self.state, None, "timeout")
            if table is None:
                own = game.legal_actions_for(self.state, None)
                if not own:
                    if seats:
                        return
                    raise RuntimeError(f"{game.info.id}: nobody can act at v{self.state.version}")
                table = own[0]
            self.state = game.apply(self.state, table)
            self._clock = 0
            self._last_seat = -1
        raise RuntimeError(f"{game.info.id}: the hand does not end")


def options_tuple(options: Mapping[str, OptionValue] | None) -> tuple[tuple[str, OptionValue], ...]:
    """Options as a sorted tuple (hashable, for :class:`TableSpec`)."""
    return tuple(sorted((options or {}).items()))
