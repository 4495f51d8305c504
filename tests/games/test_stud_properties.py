"""Property tests (hypothesis) for Xì tố and Liêng: chips are conserved and no stack goes negative
after any sequence of legal actions, for every seat count and random options, stacks and decks;
every settlement balances and nobody loses more than they brought."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from sanh.cards import DECK_28, DECK_52
from sanh.games import find_game
from sanh.games.base import Action, Game, Shuffle, TableConfig

XITO = find_game("xi-to")
LIENG = find_game("lieng")

# Candidate values for options whose spec allows any integer.
INT_CHOICES: dict[str, tuple[int, ...]] = {
    "xito.round1_pct": (5, 1, 10, 50),
    "xito.late_unit_pct": (20, 10, 35),
    "xito.max_raises": (3, 0, 1),
    "lieng.min_raise": (1, 2),
    "lieng.raise_cap": (10, 0, 3),
    "platform.min_balance_multiple": (10, 0, 2),
}


@st.composite
def option_sets(draw: st.DrawFn, game: Game[Any]) -> dict[str, Any]:
    """Any combination of the game's options."""
    options: dict[str, Any] = {}
    for spec in game.info.options:
        if spec.choices:
            values: tuple[Any, ...] = spec.choices
        elif isinstance(spec.default, bool):
            values = (False, True)
        else:
            values = INT_CHOICES[spec.name]
        options[spec.name] = draw(st.sampled_from(values))
    return options


def pick_action(game: Game[Any], state: Any, data: st.DataObject) -> Action:
    """A legal action chosen by hypothesis: a listed one, or any amount of a range.

    Folds come last, so that hypothesis' preference for small choices plays hands out."""
    actions = sorted(game.legal_actions(state), key=lambda a: type(a).__name__ == "Fold")
    ranges = list(game.amount_ranges(state))
    index = data.draw(st.integers(0, len(actions) + len(ranges) - 1))
    if index < len(actions):
        return actions[index]
    amount_range = ranges[index - len(actions)]
    return amount_range.at(data.draw(st.integers(amount_range.min, amount_range.max)))


def draw_stacks(data: st.DataObject, seats: int, least: int, most: int) -> list[int]:
    """Stacks with at least two seats able to play (``least`` or more); the others anything."""
    playing = data.draw(st.lists(st.integers(least, most), min_size=2, max_size=2))
    others = data.draw(st.lists(st.integers(0, most), min_size=seats - 2, max_size=seats - 2))
    return list(data.draw(st.permutations([*playing, *others]), label="stacks"))


def check_hand(
    game: Game[Any], config: TableConfig, deck: tuple[Any, ...], data: st.DataObject
) -> int:
    """Play one hand with hypothesis' choices, checking the money at every step."""
    state = game.new_state(config)
    total = sum(config.stacks)
    state = game.apply(state, Shuffle(deck))
    for _ in range(game.info.max_actions):
        betting = state.betting
        assert sum(betting.stacks) + sum(betting.committed) == total, "chips not conserved"
        assert all(stack >= 0 for stack in betting.stacks), "a stack went negative"
        assert all(c <= s for c, s in zip(betting.committed, config.stacks, strict=True))
        if game.to_act(state) is None:
            break
        state = game.apply(state, pick_action(game, state, data))
    assert game.is_terminal(state)
    settlement = game.settle(state)
    settlement.check()
    assert sum(settlement.deltas) == 0
    for seat, delta in enumerate(settlement.deltas):
        assert config.stacks[seat] + delta >= 0, "a seat lost more than it brought"
        if not state.betting.in_hand[seat]:
            assert delta == 0
    # What every seat ends with is what it had behind plus what it won.
    won = [0] * config.seats
    for line in settlement.lines:
        if line.item != "stake" and line.seat is not None:
            won[line.seat] += line.amount
    assert sum(won) == sum(state.betting.committed)
    return len(state.history)


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_xi_to_chips_conserved(seats: int, data: st.DataObject) -> None:
    """Xì tố, 2-5 seats: any options, stakes, stacks (some below L: they sit out), decks."""
    stake = data.draw(st.sampled_from([100, 150, 1000, 333]))
    options = data.draw(option_sets(XITO))
    stacks = draw_stacks(data, seats, stake, 15 * stake)
    deck = tuple(data.draw(st.permutations(DECK_28)))
    config = TableConfig.make(seats=seats, stake=stake, stacks=stacks, options=options)
    event(f"xito events {check_hand(XITO, config, deck, data) // 5 * 5}")


@pytest.mark.parametrize("seats", range(2, 10))
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_lieng_chips_conserved(seats: int, data: st.DataObject) -> None:
    """Liêng, 2-9 seats: any options, stakes, balances (some too small to start), decks."""
    stake = data.draw(st.sampled_from([100, 150, 1000, 333]))
    options = data.draw(option_sets(LIENG))
    least = max(1, int(options["platform.min_balance_multiple"]) * stake)
    stacks = draw_stacks(data, seats, least, least + 30 * stake)
    deck = tuple(data.draw(st.permutations(DECK_52)))
    config = TableConfig.make(seats=seats, stake=stake, stacks=stacks, options=options)
    event(f"lieng events {check_hand(LIENG, config, deck, data) // 5 * 5}")


def hidden_from(state: Any, viewer: int) -> list[Any]:
    """Dealt cards the viewer cannot see: the other seats' face-down cards."""
    hidden = []
    for seat, cards in enumerate(state.cards):
        if seat == viewer:
            continue
        ups = getattr(state, "up", None)
        for index, card in enumerate(cards):
            if ups is None or not ups[seat][index]:
                hidden.append(card)
    return hidden


@pytest.mark.parametrize("game_id", ["xi-to", "lieng"])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_views_ignore_cards_hidden_from_the_viewer(game_id: str, data: st.DataObject) -> None:
    """``observe(s, seat)`` is unchanged when a card hidden from that seat (another seat's
    face-down card) is swapped with a card still in the deck, and the same actions are played
    (STYLE.md §9; RULES.md §2.10)."""
    game = find_game(game_id)
    seats = data.draw(st.integers(game.info.seats_min, game.info.seats_max))
    deck = list(data.draw(st.permutations(DECK_28 if game_id == "xi-to" else DECK_52)))
    config = TableConfig.make(seats=seats, stake=1000, stacks=[20_000] * seats)
    state = game.apply(game.new_state(config), Shuffle(tuple(deck)))
    for _ in range(data.draw(st.integers(0, 12))):
        if game.to_act(state) is None or state.phase != "bet":
            break
        state = game.apply(state, pick_action(game, state, data))
    if state.phase not in ("bet", "show"):
        return  # at the showdown every live hand is shown anyway
    viewer = data.draw(st.integers(0, seats - 1))
    hidden = hidden_from(state, viewer)
    dealt = game_dealt(state)
    if not hidden or dealt >= len(deck):
        return
    card = data.draw(st.sampled_from(hidden))
    other = data.draw(st.sampled_from(deck[dealt:]))
    i, j = deck.index(card), deck.index(other)
    deck[i], deck[j] = deck[j], deck[i]
    swapped = game.replay(config, (Shuffle(tuple(deck)), *state.history[1:]))
    assert swapped.cards != state.cards  # the seat now holds another card...
    assert game.observe(swapped, viewer) == game.observe(state, viewer)  # ...the viewer can't tell


def game_dealt(state: Any) -> int:
    """How many cards of the deck have been dealt."""
    return int(getattr(state, "dealt", sum(len(cards) for cards in state.cards)))
