"""``Game.out_loss``: once a game says a seat is out of the hand for good and loses an amount,
nothing after changes it, and the settlement charges exactly that (the server posts it from the
seat's hold at once, RULES.md §2.6). Seeded random hands of every registered game."""

from __future__ import annotations

from typing import Any

import pytest

from sanh.cards.rng import SeededRng
from sanh.games import REGISTRY
from sanh.games.base import Event, TableConfig
from sanh.games.driver import random_playout

GAMES = sorted(REGISTRY)


@pytest.mark.parametrize("game_id", GAMES)
def test_an_out_seat_loses_exactly_its_out_loss(game_id: str) -> None:
    game = REGISTRY[game_id]
    seats = min(max(game.info.seats_min, 3), game.info.seats_max)
    outs = 0
    for hand in range(40):
        config = TableConfig.make(seats=seats, stake=100, stacks=[1_000_000] * seats)
        known: dict[int, int] = {}

        def watch(state: Any, event: Event, known: dict[int, int] = known) -> None:
            nxt = game.apply(state, event)
            for seat in range(seats):
                loss = game.out_loss(nxt, seat)
                if seat in known:
                    assert loss == known[seat], (game_id, seat, loss, known[seat])
                elif loss is not None:
                    known[seat] = loss

        final = random_playout(game, config, SeededRng(f"{game_id}/{hand}"), on_event=watch)
        deltas = game.settle(final).deltas
        for seat, loss in known.items():
            assert -deltas[seat] == loss, (game_id, hand, seat)
        outs += len(known)
    if game_id == "lieng":
        assert outs > 0  # folds happen in random play
