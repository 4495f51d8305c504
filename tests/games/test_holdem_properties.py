"""Property tests (hypothesis) for Texas Hold'em and All-in or Fold.

After any sequence of legal actions, at every seat count: chips are conserved (what is behind,
what is in the pot and the antes always add up to the starting stacks), no stack goes negative,
the settlement balances and nobody loses more than its stack. A seat's view does not depend on
the hole cards it cannot see.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sanh.cards.card import Card
from sanh.cards.deck import DECK_52
from sanh.games.base import Action, Shuffle, TableConfig
from sanh.games.texas_holdem import AllInOrFold, HoldemState, TexasHoldem

HOLDEM = TexasHoldem()
AOF = AllInOrFold()


def draw_config(data: st.DataObject, seats: int, game: TexasHoldem) -> TableConfig:
    stake = data.draw(st.integers(1, 50), label="stake")
    stacks = data.draw(
        st.lists(
            st.one_of(st.integers(1, 3 * stake), st.integers(1, 400 * stake)),
            min_size=seats,
            max_size=seats,
        ),
        label="stacks",
    )
    options: dict[str, Any] = {}
    if not game.aof:
        options["holdem.min_raise"] = data.draw(st.sampled_from(["small_blind", "standard"]))
        options["holdem.max_raise"] = data.draw(st.sampled_from(["cover", "stack"]))
        if data.draw(st.booleans(), label="antes"):
            options["holdem.ante"] = data.draw(st.integers(1, stake))
            options["holdem.big_blind_ante"] = data.draw(st.booleans())
    host = data.draw(st.integers(0, seats - 1), label="host")
    return TableConfig.make(seats=seats, stake=stake, stacks=stacks, options=options, host=host)


def draw_deck(data: st.DataObject) -> tuple[Card, ...]:
    """A deck order from a drawn seed (cheaper for hypothesis than a drawn permutation)."""
    deck = list(DECK_52)
    random.Random(data.draw(st.integers(0, 2**32), label="deck seed")).shuffle(deck)
    return tuple(deck)


def chips_in_play(state: HoldemState) -> int:
    """Behind + in the pot + antes: the starting stacks while the hand runs."""
    return sum(state.stacks) + sum(state.totals) + sum(state.antes)


def draw_action(data: st.DataObject, game: TexasHoldem, state: HoldemState) -> Action:
    legal = game.legal_actions(state)
    ranges = game.amount_ranges(state)
    index = data.draw(st.integers(0, len(legal) + len(ranges) - 1), label="action")
    if index < len(legal):
        return legal[index]
    amount_range = ranges[index - len(legal)]
    return amount_range.at(data.draw(st.integers(amount_range.min, amount_range.max)))


@pytest.mark.parametrize("seats", range(2, 10))
@pytest.mark.parametrize("game", [HOLDEM, AOF], ids=["holdem", "aof"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_chips_are_conserved_and_no_stack_goes_negative(
    game: TexasHoldem, seats: int, data: st.DataObject
) -> None:
    config = draw_config(data, seats, game)
    total = sum(config.stacks)
    state = game.new_state(config)
    assert chips_in_play(state) == total
    state = game.apply(state, Shuffle(draw_deck(data)))
    for _ in range(game.info.max_actions):
        assert all(stack >= 0 for stack in state.stacks)
        if game.is_terminal(state):
            break
        assert chips_in_play(state) == total
        assert all(0 <= bet <= paid for bet, paid in zip(state.bets, state.totals, strict=True))
        state = game.apply(state, draw_action(data, game, state))
    assert game.is_terminal(state)
    assert sum(state.stacks) == total
    settlement = game.settle(state)
    settlement.check()
    for seat, delta in enumerate(settlement.deltas):
        assert delta >= -config.stacks[seat]
        assert state.stacks[seat] >= 0


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_view_does_not_depend_on_cards_the_viewer_cannot_see(data: st.DataObject) -> None:
    seats = data.draw(st.integers(3, 9))
    config = draw_config(data, seats, HOLDEM)
    deck = list(draw_deck(data))
    state = HOLDEM.apply(HOLDEM.new_state(config), Shuffle(tuple(deck)))
    if HOLDEM.is_terminal(state):
        return
    players = len(state.order)
    viewer = data.draw(st.sampled_from(state.order))
    others = [index for index in range(2 * players) if state.order[index % players] != viewer]
    first, second = data.draw(st.permutations(others))[:2]
    swapped = list(deck)
    swapped[first], swapped[second] = swapped[second], swapped[first]
    other = HOLDEM.apply(HOLDEM.new_state(config), Shuffle(tuple(swapped)))
    assert HOLDEM.observe(state, viewer) == HOLDEM.observe(other, viewer)
    assert HOLDEM.observe(state, None) == HOLDEM.observe(other, None)
