"""The Three Card Poker bot bets the minimum Ante and plays Q-6-4 or better."""

from __future__ import annotations

from sanh.bots import bot_for
from sanh.cards import DECK_52, SeededRng, parse_cards
from sanh.games import find_game
from sanh.games.base import CHANCE, Shuffle, TableConfig
from sanh.games.three_card_poker import Bet, Fold, Play, Ready


def test_bot_bets_the_minimum_ante_then_plays_by_the_threshold() -> None:
    """Two bot seats: minimum Ante each, Ready, then Play Q-6-4 (s002 own hands) / Fold Q-6-3."""
    game = find_game("three-card-poker")
    bot = bot_for("three-card-poker")
    rng = SeededRng("tcp-bot")
    config = TableConfig.make(seats=2, stake=100, options={"tcp.variant": "s002"})
    state = game.new_state(config)
    expected = [Bet(0, "ante", 100), Bet(1, "ante", 100), Ready(0), Ready(1)]
    for action in expected:
        seat = action.seat
        assert seat is not None
        assert bot.act(game.observe(state, seat), rng) == action
        state = game.apply(state, action)
    assert game.to_act(state) is CHANCE
    top = parse_cards("Qs 6h 4d Qc 6d 3h 2c 7d 9s")
    state = game.apply(state, Shuffle(top + tuple(c for c in DECK_52 if c not in top)))
    assert bot.act(game.observe(state, 0), rng) == Play(0)
    assert bot.act(game.observe(state, 1), rng) == Fold(1)
