"""The server's fast JSON form of engine data equals ``to_jsonable`` (sanh/server/jsonview.py)."""

from __future__ import annotations

from enum import Enum, IntEnum
from fractions import Fraction
from typing import Any, NamedTuple

import pytest

from sanh.cards.card import parse_card
from sanh.cards.rng import SeededRng
from sanh.games import REGISTRY
from sanh.games.base import TableConfig
from sanh.games.driver import random_playout
from sanh.notation.jsonable import to_jsonable
from sanh.server.jsonview import fast_jsonable as jsonable


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_every_view_event_and_settlement_of_random_hands(game_id: str) -> None:
    """Every seat's and the spectator's view at every step, every event, every settlement."""
    game = REGISTRY[game_id]
    rng = SeededRng(20261129)
    checked = 0
    for hand in range(3):
        seats = game.info.seats_min + hand % (game.info.seats_max - game.info.seats_min + 1)
        seats = min(seats, 6)
        stake = 100 * (1 + rng.randbelow(5))
        config = TableConfig.make(
            seats=seats, stake=stake, stacks=[stake * (20 + rng.randbelow(200))] * seats
        )

        def check(state: Any, event: Any) -> None:
            nonlocal checked
            for viewer in (None, *range(state.config.seats)):
                view = game.observe(state, viewer)
                assert jsonable(view) == to_jsonable(view)
            assert jsonable(event) == to_jsonable(event)
            checked += 1

        final = random_playout(game, config, rng, on_event=check)
        settlement = game.settle(final)
        assert jsonable(settlement) == to_jsonable(settlement)
        for viewer in (None, *range(final.config.seats)):
            view = game.observe(final, viewer)
            assert jsonable(view) == to_jsonable(view)
    assert checked > 0


class _Colour(Enum):
    RED = "red"


class _Level(IntEnum):
    HIGH = 2


class _Pair(NamedTuple):
    a: int
    b: str


def test_unusual_values_go_the_same_way() -> None:
    """Enums, int enums, fractions, named tuples, sets, card keys and nesting."""
    values = [
        _Colour.RED,
        _Level.HIGH,
        Fraction(3, 4),
        _Pair(1, "x"),
        frozenset({1}),
        {parse_card("As"): [parse_card("Kd"), None]},
        ({"a": (1, 2.5, True)},),
    ]
    for value in values:
        assert jsonable(value) == to_jsonable(value)
        assert type(jsonable(value)) is type(to_jsonable(value))
    with pytest.raises(TypeError):
        jsonable(object())
