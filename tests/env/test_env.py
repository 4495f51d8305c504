"""The research environments: PettingZoo API conformance, seeding, rewards, masks, no leaks."""

from __future__ import annotations

import dataclasses
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test

import sanh.env
from sanh.cards.card import Card
from sanh.env.core import IllegalActionIdError, Table
from sanh.errors import IllegalActionError
from sanh.games import all_games
from sanh.games.base import Shuffle

GAME_IDS = [game.info.id for game in all_games()]
SEATS = {game.info.id: min(3, game.info.seats_max) for game in all_games()}

# Warnings PettingZoo's checks always give for Dict observations with an action mask (its own
# classic environments, which have the same shape, give them too).
EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)


def _check_warnings(caught: list[warnings.WarningMessage]) -> None:
    unexpected = [
        str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)
    ]
    assert not unexpected, unexpected


def test_twelve_games() -> None:
    assert len(GAME_IDS) == 12


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_api(game_id: str) -> None:
    env = sanh.env.make(game_id, seats=SEATS[game_id])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=20)
    _check_warnings(caught)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_parallel_api(game_id: str) -> None:
    env = sanh.env.make_parallel(game_id, seats=SEATS[game_id])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parallel_api_test(env, num_cycles=200)
    _check_warnings(caught)


def _play(env: sanh.env.SanhEnv, seed: int) -> list[tuple[str, int, bytes]]:
    """Random masked play of one hand; the trace of (agent, action, observation bytes)."""
    env.reset(seed=seed)
    picker = np.random.default_rng(seed)
    trace = []
    for agent in env.agent_iter(10_000):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(picker.choice(legal))
        trace.append((agent, action, obs["observation"].tobytes()))
        env.step(action)
    return trace


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_reset_seed_reproduces_the_hand(game_id: str) -> None:
    env = sanh.env.make(game_id, seats=SEATS[game_id])
    first = _play(env, 11)
    history = env.table.state.history
    again = _play(env, 11)
    assert again == first
    assert env.table.state.history == history
    other = _play(env, 12)
    deal = [e for e in history if isinstance(e, Shuffle)]
    if deal:
        assert [e for e in env.table.state.history if isinstance(e, Shuffle)] != deal
    assert other  # a hand always has at least one decision


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_random_play_rewards_are_the_settlement(game_id: str) -> None:
    env = sanh.env.make(game_id, seats=SEATS[game_id])
    for seed in range(8):
        env.reset(seed=seed)
        picker = np.random.default_rng(seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter(10_000):
            obs, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(picker.choice(np.flatnonzero(obs["action_mask"]))))
        assert not env.agents, "every agent is done at the end of the hand"
        settlement = env.table.settlement()
        settlement.check()
        unit = env.table.unit
        for seat, agent in enumerate(env.possible_agents):
            assert totals[agent] * unit == pytest.approx(settlement.deltas[seat])
        outside = settlement.house + settlement.fee + settlement.breakage
        outside += sum(settlement.clan_share)
        # Zero-sum with the house, the fees, breakage and clan shares (in Ba cây gà the
        # house line is the gà pot carried to the next hand).
        assert sum(totals.values()) * unit == pytest.approx(-outside)


def _check_mask(table: Table, seat: int) -> None:
    """The mask's ids are exactly the engine's legal actions of the seat."""
    game, state = table.game, table.state
    legal = table.legal(seat)
    mask = table.mask(seat)
    assert set(np.flatnonzero(mask)) == set(legal)
    for action in legal.values():
        assert action.seat == seat
        assert game.is_legal(state, action), action
    view = table.view(seat)
    pot = sanh.env.actions.pot_of(view)
    for action in game.legal_actions_for(state, seat):
        assert table.codec.encode(action, view.amount_ranges, pot) in legal, action
    for amount_range in game.amount_ranges_for(state, seat):
        for amount in (amount_range.min, amount_range.max):
            action = amount_range.at(amount)
            assert table.codec.encode(action, view.amount_ranges, pot) in legal


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_mask_is_engine_legality(game_id: str) -> None:
    env = sanh.env.make(game_id, seats=SEATS[game_id])
    table = env.table
    for seed in range(4):
        env.reset(seed=seed)
        picker = np.random.default_rng(seed)
        refused = False
        while not table.terminal:
            seat = table.next_seat()
            assert seat is not None
            _check_mask(table, seat)
            legal = table.legal(seat)
            illegal = [i for i in range(table.codec.size) if i not in legal]
            if illegal and not refused:
                version = table.state.version
                with pytest.raises(IllegalActionIdError, match="not legal"):
                    env.step(int(picker.choice(illegal)))
                assert table.state.version == version
                refused = True
            env.step(int(picker.choice(sorted(legal))))


def _cards_in(value: Any, out: set[Card]) -> None:
    if isinstance(value, Card):
        out.add(value)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            _cards_in(getattr(value, f.name), out)
    elif isinstance(value, tuple | list):
        for item in value:
            _cards_in(item, out)
    elif isinstance(value, dict):
        for item in value.values():
            _cards_in(item, out)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_observation_ignores_other_seats_hidden_cards(game_id: str) -> None:
    """Swap two cards seat 0 never sees, replay the same events: seat 0's observations agree.

    Method: play a random hand and record every event. Collect every card that appears in any
    of seat 0's views during the hand. Pick a card X that another seat held but seat 0 never
    saw (a hidden card of another seat; else an undealt card) and a second unseen card Y, and
    swap them in the deal (the Shuffle event). Replaying the same events then changes only
    cards seat 0 cannot see: its observation (the encoder over its view, with the same public
    history) and its action mask must be identical at every step. The other seat's view must
    differ somewhere, so the swap did change hidden information. Seeds where the swap changes
    the public course of the hand (who acts, the settlement: an instant win announced, a score
    shown) are skipped, since the rules then make the swapped cards known. An encoder reading
    anything but the view (or a view leaking a hidden card) fails here.
    """
    table = sanh.env.make(game_id, seats=SEATS[game_id]).table
    game = table.game
    checked = 0
    for seed in range(12):
        table.reset(seed=seed)
        picker = np.random.default_rng(seed)
        while not table.terminal:
            seat = table.next_seat()
            assert seat is not None
            table.step_id(seat, int(picker.choice(sorted(table.legal(seat)))))
        events = table.state.history
        shuffles = [i for i, e in enumerate(events) if isinstance(e, Shuffle)]
        if game.info.deck == "dice":
            assert not shuffles  # Tài Xỉu: no cards, nothing hidden to swap
            return
        if not shuffles:
            continue  # nobody was dealt in
        states = [game.new_state(table.config)]
        for event in events:
            states.append(game.apply(states[-1], event))
        seen: set[Card] = set()
        others: set[Card] = set()
        for state in states:
            _cards_in(game.observe(state, 0), seen)
            for other in range(1, table.seats):
                _cards_in(game.observe(state, other), others)
        deal = events[shuffles[0]]
        assert isinstance(deal, Shuffle)
        unseen = [c for c in deal.order if c not in seen]
        hidden = [c for c in unseen if c in others]
        if len(unseen) < 2:
            continue
        x = hidden[0] if hidden else unseen[0]
        y = next(c for c in reversed(unseen) if c != x)
        order = tuple(y if c == x else x if c == y else c for c in deal.order)
        swapped_events = list(events)
        swapped_events[shuffles[0]] = Shuffle(order)
        swapped = [game.new_state(table.config)]
        try:
            for event in swapped_events:
                swapped.append(game.apply(swapped[-1], event))
        except IllegalActionError:
            continue  # another seat's later action depended on the swapped cards
        if [game.to_act(st) for st in states] != [game.to_act(st) for st in swapped] or (
            game.settle(states[-1]).deltas != game.settle(swapped[-1]).deltas
        ):
            continue  # the rules made the swapped cards public (an instant win, a score)
        history: list[tuple[int, int]] = []
        differs = False
        for step, (a, b) in enumerate(zip(states, swapped, strict=True)):
            view_a, view_b = game.observe(a, 0), game.observe(b, 0)
            obs_a = table.encoder.encode(view_a, history)
            obs_b = table.encoder.encode(view_b, history)
            np.testing.assert_array_equal(obs_a, obs_b)
            assert set(table.codec.legal(view_a)) == set(table.codec.legal(view_b))
            differs |= any(game.observe(a, o) != game.observe(b, o) for o in range(1, table.seats))
            if step < len(events) and not isinstance(events[step], Shuffle):
                event = events[step]
                seat = getattr(event, "seat", None)
                if seat is not None and not isinstance(event, game.info.private_actions):
                    history.append((seat, 0))
        if hidden:
            assert differs, "the swap changed another seat's hidden cards"
        checked += 1
    assert checked > 0


@pytest.mark.parametrize(("game_id", "seed"), [("tien-len", 56), ("phom", 17), ("sam-loc", 37)])
def test_a_hand_over_at_the_deal_is_dealt_again(game_id: str, seed: int) -> None:
    """An instant win dealt has no decision: reset deals the next hand of the same stream."""
    env = sanh.env.make(game_id, seats=4)
    env.reset(seed=seed)
    assert env.table.skipped == 1
    assert not any(env.terminations.values()) and not env.table.terminal
    shuffles = [e for e in env.table.state.history if isinstance(e, Shuffle)]
    env.reset(seed=seed)
    assert [e for e in env.table.state.history if isinstance(e, Shuffle)] == shuffles


@pytest.mark.parametrize(
    ("game_id", "seats"),
    [
        (g.info.id, n)
        for g in all_games()
        for n in sorted({g.info.seats_min, min(g.info.seats_max, 9)})
    ],
)
def test_smallest_and_largest_tables_play_a_hand(game_id: str, seats: int) -> None:
    env = sanh.env.make(game_id, seats=seats)
    env.reset(seed=seats)
    picker = np.random.default_rng(seats)
    space = env.observation_space("player_0")
    while env.agents:
        obs, _, terminated, truncated, _ = env.last()
        assert space.contains(obs)
        env.step(
            None
            if terminated or truncated
            else int(picker.choice(np.flatnonzero(obs["action_mask"])))
        )
    deltas = env.table.settlement().deltas
    assert len(deltas) == seats
