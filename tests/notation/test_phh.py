"""PHH reading and writing (sanh/notation/phh.py), checked against pokerkit where it applies."""

from __future__ import annotations

import doctest
import random
from decimal import Decimal
from typing import Any

import pytest
from pokerkit import HandHistory

import sanh.games._betting
import sanh.games.texas_holdem
import sanh.notation.phh
from sanh.cards.deck import DECK_52
from sanh.errors import NotationError
from sanh.games.base import Shuffle, TableConfig
from sanh.games.driver import random_action
from sanh.games.texas_holdem import AllInOrFold, Fold, HoldemState, TexasHoldem
from sanh.notation.phh import format_phh, format_phhs, parse_phh, replay_phh

GAME = TexasHoldem()
AOF = AllInOrFold()


def phh(**fields: Any) -> str:
    base: dict[str, Any] = {
        "variant": "'NT'",
        "antes": "[0, 0, 0]",
        "blinds_or_straddles": "[0.25, 0.50, 0]",
        "min_bet": "0.50",
        "starting_stacks": "[50, 50, 50]",
        "actions": "[]",
    }
    base.update(fields)
    return "\n".join(f"{key} = {value}" for key, value in base.items()) + "\n"


def pokerkit_stacks(text: str) -> list[Any]:
    *_, last = HandHistory.loads(text)
    return list(last.stacks)


def test_module_doctests() -> None:
    for module in (sanh.notation.phh, sanh.games._betting, sanh.games.texas_holdem):
        failed, _ = doctest.testmod(module)
        assert failed == 0, module.__name__


def test_decimal_amounts_are_exact_minor_units() -> None:
    text = phh(
        antes="[0.25, 0.25, 0.25]",
        starting_stacks="[200.30, 81.60, 19.75]",
        actions="['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 QsQh', 'p3 cbr 1.35', "
        "'p1 cc', 'p2 cc', 'd db 2c7d9s', 'p1 cbr 2.05', 'p2 f', 'p3 cc', 'd db Jc', "
        "'p1 cc', 'p3 cc', 'd db 3d', 'p1 cc', 'p3 cc', 'p1 sm AsAh', 'p3 sm QsQh']",
    )
    (hand,) = parse_phh(text)
    assert hand.decimals == 2
    assert hand.config.stake == 25 and hand.config.stacks == (20030, 8160, 1975)
    assert dict(hand.config.options)["holdem.ante"] == 25
    replay = replay_phh(hand)
    assert replay.complete
    expected = [Decimal(str(value)) for value in pokerkit_stacks(text)]
    assert replay.final_stacks_in_file_units() == expected
    assert [str(value) for value in replay.final_stacks_in_file_units()] == [
        "205.55",
        "80.00",
        "16.10",
    ]


def test_unknown_cards_are_scored_from_the_board_like_pokerkit() -> None:
    """A hand still ``????`` at showdown stays face down and is scored from the board alone;
    here p1 plays the board too, so the two split the pot, as pokerkit does."""
    text = phh(
        starting_stacks="[50, 50, 50]",
        actions="['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 f', 'p1 cc', "
        "'p2 cc', 'd db AhKhQh', 'p1 cc', 'p2 cc', 'd db JhTh', 'p1 cc', 'p2 cc', "
        "'d db 2c', 'p1 cc', 'p2 cc', 'p1 sm 3c4d', 'p2 sm ????']",
    )
    with pytest.raises(NotationError, match="board cards"):
        parse_phh(text)
    text = text.replace("'d db JhTh'", "'d db Jh'").replace("'d db 2c'", "'d db Th'")
    (hand,) = parse_phh(text)
    assert dict(hand.config.options)["holdem.unknown_cards"] == "2,3"
    replay = replay_phh(hand)
    assert replay.final_stacks == tuple(int(v * 100) for v in pokerkit_stacks(text))
    assert replay.final_stacks == (5000, 5000, 5000)
    # Nobody sees a card of p2: the views of every seat hide them, even at showdown.
    state = replay.state
    assert GAME.observe(state, None).hole[1] == (None, None)
    assert GAME.observe(state, None).hole[0] != (None, None)


def test_shown_cards_make_a_dealt_unknown_hand_known_and_a_bare_sm_mucks() -> None:
    text = phh(
        actions="['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 2', 'p1 cc', "
        "'p2 f', 'd db 2c7d9s', 'p1 cc', 'p3 cc', 'd db Jc', 'p1 cc', 'p3 cc', 'd db 3d', "
        "'p1 cc', 'p3 cc', 'p1 sm', 'p3 sm 4h4s']",
    )
    (hand,) = parse_phh(text)
    options = dict(hand.config.options)
    assert options["holdem.mucked"] == "1" and options["holdem.unknown_cards"] == "1,2"
    replay = replay_phh(hand)
    assert replay.final_stacks == (4800, 4950, 5250)
    assert replay.final_stacks == tuple(int(v * 100) for v in pokerkit_stacks(text))


def random_state(rnd: random.Random, game: TexasHoldem, options: dict[str, Any]) -> HoldemState:
    players = rnd.randint(2, 6)
    config = TableConfig.make(
        seats=players,
        stake=5,
        stacks=[rnd.randint(1, 600) for _ in range(players)],
        host=rnd.randrange(players),
        options=options,
    )
    deck = list(DECK_52)
    rnd.shuffle(deck)
    state = game.apply(game.new_state(config), Shuffle(tuple(deck)))

    class Draw:
        def randbelow(self, n: int) -> int:
            return rnd.randrange(n)

    while not game.is_terminal(state):
        action = random_action(game, state, Draw())
        seat = state.queue[0]
        if isinstance(action, Fold) and state.max_bet <= state.bets[seat]:
            continue  # PHH (pokerkit) has no fold when checking is free
        state = game.apply(state, action)
    return state


@pytest.mark.parametrize(
    "options",
    [
        {"holdem.min_raise": "standard", "holdem.max_raise": "stack", "holdem.ante": 2},
        {
            "holdem.min_raise": "standard",
            "holdem.max_raise": "stack",
            "holdem.ante": 3,
            "holdem.big_blind_ante": True,
        },
    ],
    ids=["antes", "big-blind-ante"],
)
def test_hands_with_antes_round_trip_and_match_pokerkit(options: dict[str, Any]) -> None:
    rnd = random.Random(str(options))
    for _ in range(60):
        state = random_state(rnd, GAME, options)
        text = format_phh(state)
        (hand,) = parse_phh(text)
        replay = replay_phh(hand)
        mine = [state.stacks[seat] for seat in state.order]
        assert list(replay.final_stacks) == mine
        assert pokerkit_stacks(text) == mine


def test_all_in_or_fold_hands_are_written_as_no_limit_hands() -> None:
    rnd = random.Random(5)
    for _ in range(30):
        state = random_state(rnd, AOF, {})
        text = format_phh(state, decimals=2)
        replay = replay_phh(parse_phh(text)[0])
        assert list(replay.final_stacks) == [state.stacks[seat] for seat in state.order]


def test_a_seats_record_hides_what_it_could_not_see() -> None:
    rnd = random.Random(11)
    state = random_state(rnd, GAME, {"holdem.min_raise": "standard", "holdem.max_raise": "stack"})
    while len(state.order) < 3 or state.shown:
        state = random_state(
            rnd, GAME, {"holdem.min_raise": "standard", "holdem.max_raise": "stack"}
        )
    viewer = state.order[0]
    text = format_phh(state, viewer=viewer)
    for seat in state.order:
        if seat == viewer:
            assert "".join(str(c) for c in state.hole[seat]) in text
        else:
            assert "".join(str(c) for c in state.hole[seat]) not in text
    assert text.count("????") == len(state.order) - 1
    replay = replay_phh(parse_phh(text)[0])
    assert list(replay.final_stacks) == [state.stacks[seat] for seat in state.order]


def test_many_hands_in_one_phhs_text() -> None:
    rnd = random.Random(3)
    states = [
        random_state(rnd, GAME, {"holdem.min_raise": "standard", "holdem.max_raise": "stack"})
        for _ in range(4)
    ]
    text = format_phhs(
        format_phh(state, extra={"hand": number}) for number, state in enumerate(states, 1)
    )
    hands = parse_phh(text)
    assert [hand.key for hand in hands] == ["1", "2", "3", "4"]
    assert [hand.fields["hand"] for hand in hands] == [1, 2, 3, 4]
    for hand, state in zip(hands, states, strict=True):
        assert list(replay_phh(hand).final_stacks) == [state.stacks[s] for s in state.order]
        assert hand.fields["seats"] == [seat + 1 for seat in state.order]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (phh(variant="'FT'"), "variant 'FT' is not supported"),
        (phh(blinds_or_straddles="[1, 2, 4]"), "only a small and a big blind"),
        (phh(starting_stacks="[" + ", ".join(["50"] * 10) + "]"), "10 players"),
        (phh(actions="['d dh p1 AsAs']"), "appears twice"),
        (phh(actions="['p2 cc']"), "it is p3's turn, not p2's"),
        (phh(actions="['p3 cbr 0.60']"), "below the minimum 1.00"),
        (phh(actions="['p3 sd']"), "not a no-limit Hold'em action"),
        (phh(actions="['d dh p7 AsKs']"), "not a player p1..p3"),
        (phh(antes="[1, 2, 0]"), "antes must be equal"),
        (phh(starting_stacks="[0, 50, 50]"), "must be positive"),
        ("variant = ", "not a PHH"),
        ("x = 1\n", "no PHH hand"),
    ],
)
def test_what_sanh_cannot_read_is_a_notation_error(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        for hand in parse_phh(text):
            replay_phh(hand)


def test_the_literal_heads_up_blinds_cannot_be_written() -> None:
    config = TableConfig.make(
        seats=2, stake=5, stacks=[100, 100], options={"holdem.headsup_dealer_is_sb": False}
    )
    state = GAME.apply(GAME.new_state(config), Shuffle(tuple(DECK_52)))
    with pytest.raises(NotationError, match="heads-up"):
        format_phh(state)
