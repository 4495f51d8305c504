"""The batched Hold'em core against the engine: the same decks and actions, the same hands.

Every table of a :class:`HoldemBatch` is shadowed by a hand of the real engine
(``TexasHoldem.apply``, the validated public path) dealt the same deck; random legal ids are
played at every table and after each step the legal ids, stacks, bets, contributions, pot and,
at the end of a hand, the settlement are compared (and each settlement sums to zero).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from sanh.cards.card import Card
from sanh.env.actions import make_codec
from sanh.env.holdem_batch import HoldemBatch, IllegalBatchActionError
from sanh.games import find_game
from sanh.games.base import Shuffle
from sanh.games.texas_holdem import HoldemState

GAME = find_game("texas-holdem")


class Shadow:
    """The engine's hands at one table of the batch."""

    def __init__(self, batch: HoldemBatch) -> None:
        self.batch = batch
        self.codec = make_codec(GAME, batch.seats, tuple(batch.sizes.tolist()))
        self.state: HoldemState = GAME.new_state(batch.config)

    def deal(self, deck: list[int]) -> None:
        state = GAME.new_state(self.batch.config)
        self.state = GAME.apply(state, Shuffle(tuple(Card(c) for c in deck)))

    def legal(self) -> dict[int, Any]:
        seat = self.state.queue[0]
        return dict(self.codec.legal(GAME.observe(self.state, seat)))

    def play(self, action_id: int) -> None:
        self.state = GAME.apply(self.state, self.legal()[action_id])


def _compare(batch: HoldemBatch, row: int, shadow: Shadow) -> None:
    mine = batch.state_of(row)
    state = shadow.state
    assert state.queue, "the engine's hand is over but the batch waits for a decision"
    assert mine["to_act"] == state.queue[0]
    assert mine["street"] == state.street
    assert mine["legal"] == sorted(shadow.legal())
    assert mine["stacks"] == list(state.stacks)
    assert mine["bets"] == list(state.bets)
    assert mine["totals"] == list(state.totals)
    assert mine["live"] == list(state.live)
    assert mine["queue"] == list(state.queue)
    assert mine["pot"] == sum(state.totals) + sum(state.antes)
    view = GAME.observe(state, state.queue[0])
    if view.amount_ranges:
        raise_ids = range(3, batch.action_size)
        legal = shadow.legal()
        engine_amounts = [legal[i].amount for i in raise_ids]  # type: ignore[attr-defined]
        assert batch.raise_amounts()[row].tolist() == engine_amounts


def _cross_check(batch: HoldemBatch, seed: int, steps: int) -> dict[str, int]:
    batch.reset(seed=seed)
    shadows = [Shadow(batch) for _ in range(batch.num_tables)]
    for row, shadow in enumerate(shadows):
        shadow.deal(batch.state_of(row)["deck"])
        _compare(batch, row, shadow)
    picker = np.random.default_rng(seed)
    seen = {"hands": 0, "by_fold": 0, "side_pots": 0, "split": 0}
    for _ in range(steps):
        # Skewed towards calls, so that hands reach showdowns and all-ins (and some folds).
        weights = batch.mask * np.array([2, 4, 4] + [1] * (batch.action_size - 3))
        noise = picker.random(weights.shape) * weights
        ids = noise.argmax(axis=1)
        deltas, done = batch.step(ids)
        for row, shadow in enumerate(shadows):
            shadow.play(int(ids[row]))
            if done[row]:
                assert not shadow.state.queue
                settlement = GAME.settle(shadow.state)
                assert deltas[row].tolist() == list(settlement.deltas)
                assert int(deltas[row].sum()) == 0
                seen["hands"] += 1
                seen["by_fold"] += sum(shadow.state.live) == 1
                seen["side_pots"] += len(shadow.state.pots) > 1
                seen["split"] += any(len(w) > 1 for _, _, w in shadow.state.pots)
                shadow.deal(batch.state_of(row)["deck"])
            else:
                assert not deltas[row].any()
            _compare(batch, row, shadow)
    return seen


@pytest.mark.parametrize("seats", [2, 3, 6])
@pytest.mark.parametrize("seed", [0, 1])
def test_default_table_matches_the_engine(seats: int, seed: int) -> None:
    batch = HoldemBatch(16, seats)
    seen = _cross_check(batch, seed, 60)
    assert seen["hands"] > 16 and seen["by_fold"] > 0 and seen["hands"] > seen["by_fold"]


@pytest.mark.parametrize(
    "options",
    [
        {"holdem.min_raise": "standard", "holdem.max_raise": "stack"},
        {"holdem.min_raise": "standard"},
        {"holdem.max_raise": "stack", "holdem.ante": 30},
        {"holdem.ante": 50, "holdem.big_blind_ante": True, "holdem.headsup_dealer_is_sb": False},
    ],
)
def test_uneven_stacks_side_pots_and_options(options: dict[str, Any]) -> None:
    """Short stacks make all-ins for less, side pots and blinds that do not cover."""
    stacks = (2_000, 650, 15_000, 150, 0, 4_321)
    batch = HoldemBatch(12, 6, stacks=stacks, options=options, bet_sizes=(0.33, 0.75, 1.5, 3.0))
    assert not batch.dealt[4]
    seen = _cross_check(batch, 5, 60)
    assert seen["hands"] > 30 and seen["side_pots"] > 5 and seen["by_fold"] > 0


def test_heads_up_uneven_stacks_and_other_seeds() -> None:
    for seed in range(3):
        batch = HoldemBatch(8, 2, stacks=(1_000, 7_777), options={"holdem.max_raise": "stack"})
        assert _cross_check(batch, seed, 30)["hands"] > 8


def test_reset_replays_and_engine_decks_are_the_aec_decks() -> None:
    a, b = HoldemBatch(4, 3), HoldemBatch(4, 3)
    a.reset(seed=9)
    b.reset(seed=9)
    assert (a.deck == b.deck).all()
    b.reset(seed=10)
    assert not (a.deck == b.deck).all()
    import sanh.env

    engine = HoldemBatch(3, 3, decks="engine")
    engine.reset(seed=4)
    for row in range(3):
        env = sanh.env.make("texas-holdem", seats=3)
        env.reset(seed=4 + row)
        deck = [int(c) for c in env.table.state.deck]
        assert engine.state_of(row)["deck"] == deck


def test_illegal_ids_change_nothing() -> None:
    batch = HoldemBatch(3, 2)
    batch.reset(seed=0)
    before = {name: getattr(batch, name).copy() for name in ("stacks", "bets", "cur", "mask")}
    ids = batch.mask.argmax(axis=1)
    ids[1] = CHECK_WHEN_OWING = 1  # preflop the first to act owes the big blind
    assert batch.mask[1, CHECK_WHEN_OWING] == 0
    with pytest.raises(IllegalBatchActionError, match="table 1"):
        batch.step(ids)
    with pytest.raises(IllegalBatchActionError):
        batch.step(np.array([0, 0, 99]))
    for name, value in before.items():
        assert (getattr(batch, name) == value).all()


def test_refuses_what_it_does_not_play() -> None:
    with pytest.raises(ValueError, match="require_hole_card"):
        HoldemBatch(2, 2, options={"holdem.require_hole_card": True})
    with pytest.raises(ValueError, match="ends at the deal"):
        HoldemBatch(2, 2, stacks=(100, 100))


def test_split_pots_and_odd_units() -> None:
    """Many short-handed showdowns: ties split, odd units go clockwise from the button."""
    batch = HoldemBatch(64, 3, stake=5, stacks=(1_001, 333, 1_001), options={"holdem.ante": 1})
    seen = _cross_check(batch, 11, 25)
    assert seen["split"] > 0 and seen["side_pots"] > 0


_OBS_CASES = [
    (2, {}, {}),
    (4, {}, {}),
    (3, {"stacks": (3_000, 500, 9_000)}, {}),
    (
        6,
        {"stacks": (3_000, 500, 9_000, 1_200, 700, 40_000), "history": 3},
        {"holdem.min_raise": "standard", "holdem.max_raise": "stack", "holdem.ante": 20},
    ),
]


@pytest.mark.parametrize(("seats", "kwargs", "options"), _OBS_CASES)
def test_batched_vector_env_equals_the_per_table_one(
    seats: int, kwargs: dict[str, Any], options: dict[str, Any]
) -> None:
    """The batched backend with the engine's decks and the per-table backend (the AEC
    environment's tables and encoder) give the same observations, masks, seats, rewards and
    ends, value for value, under the same random ids (hands of more than ``history`` actions
    included)."""
    import sanh.env

    batch = sanh.env.VectorEnv(
        "texas-holdem", 8, seats=seats, options=options, decks="engine", **kwargs
    )
    tables = sanh.env.VectorEnv(
        "texas-holdem", 8, seats=seats, options=options, backend="tables", **kwargs
    )
    assert (batch.backend, tables.backend) == ("batch", "tables")
    assert batch.observation_size == tables.observation_size
    got, want = batch.reset(seed=5), tables.reset(seed=5)
    for _ in range(120):
        for mine, theirs in zip(got, want, strict=True):
            np.testing.assert_array_equal(mine, theirs)
        ids = tables.sample(want[1])
        got, want = batch.step(ids), tables.step(ids)
    assert batch.hands == tables.hands > 8


def test_fast_decks_are_uniform_enough_and_reproducible() -> None:
    """Fast decks: a seed replays its hands; every card turns up about equally often."""
    import sanh.env

    a = sanh.env.VectorEnv("texas-holdem", 256, seats=2)
    b = sanh.env.VectorEnv("texas-holdem", 256, seats=2)
    obs_a, mask_a, _ = a.reset(seed=3)
    obs_b, _, _ = b.reset(seed=3)
    assert a.batch is not None
    dealt = a.batch.deck[:, :9].copy()  # the cards each new hand uses (2 seats: 4 + 5)
    for _ in range(40):
        np.testing.assert_array_equal(obs_a, obs_b)
        ids = a.sample(mask_a)
        obs_a, mask_a, _, rewards, done = a.step(ids)
        obs_b, _, _, _, _ = b.step(ids)
        assert np.allclose(rewards[done].sum(axis=1), 0.0)
        dealt = np.concatenate([dealt, a.batch.deck[done, :9]])
    counts = np.bincount(dealt.reshape(-1).astype(np.int64), minlength=52)
    expected = counts.sum() / 52
    assert (np.abs(counts - expected) < 6 * np.sqrt(expected)).all()


def test_vector_env_backends_and_fallback() -> None:
    import sanh.env

    with pytest.raises(ValueError, match="no batched core"):
        sanh.env.VectorEnv("tien-len", 2, seats=2, backend="batch")
    with pytest.raises(ValueError, match="require_hole_card"):
        sanh.env.VectorEnv(
            "texas-holdem", 2, options={"holdem.require_hole_card": True}, backend="batch"
        )
    venv = sanh.env.VectorEnv("texas-holdem", 2, options={"holdem.require_hole_card": True})
    assert venv.backend == "tables"
    with pytest.raises(ValueError, match="engine's decks"):
        sanh.env.VectorEnv("tien-len", 2, seats=2, decks="fast")
    venv = sanh.env.VectorEnv("texas-holdem", 3, seats=2)
    venv.reset(seed=0)
    from sanh.env.core import IllegalActionIdError

    with pytest.raises(IllegalActionIdError):
        venv.step(np.full(3, 1))  # preflop, the first to act cannot check
