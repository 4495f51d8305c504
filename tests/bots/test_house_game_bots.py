"""The Teen Patti 20-20 and Tài Xỉu bots bet the minimum on an even-money side and finish."""

from __future__ import annotations

from sanh.bots import bot_for
from sanh.cards import SeededRng
from sanh.games import find_game
from sanh.games.base import CHANCE, TableConfig
from sanh.games.tai_xiu import Confirm, Place
from sanh.games.tai_xiu import Ready as TaiXiuReady
from sanh.games.teen_patti_2020 import Bet, Ready


def test_teen_patti_bot_bets_the_minimum_on_a_or_b_then_ready() -> None:
    """Each bot seat: one minimum bet on Player A or Player B, then Ready; the window closes."""
    game = find_game("teen-patti-2020")
    bot = bot_for("teen-patti-2020")
    rng = SeededRng("teen-patti-bot")
    state = game.new_state(TableConfig.make(seats=3, stake=100))
    for seat in range(3):
        action = bot.act(game.observe(state, seat), rng)
        assert isinstance(action, Bet) and action.seat == seat
        assert action.bet in ("player_a", "player_b") and action.amount == 100
        state = game.apply(state, action)
        assert bot.act(game.observe(state, seat), rng) == Ready(seat)
        state = game.apply(state, Ready(seat))
    assert game.to_act(state) is CHANCE


def test_tai_xiu_bot_places_confirms_and_is_ready_at_a_player_table() -> None:
    """Bettors (not the host) place the minimum on Tài or Xỉu, confirm it, then say Ready."""
    game = find_game("tai-xiu")
    bot = bot_for("tai-xiu")
    rng = SeededRng("tai-xiu-bot")
    config = TableConfig.make(seats=3, stake=100, options={"taixiu.table": "player"}, host=0)
    state = game.new_state(config)
    for seat in (1, 2):
        place = bot.act(game.observe(state, seat), rng)
        assert isinstance(place, Place) and place.bet in ("big", "small") and place.amount == 100
        state = game.apply(state, place)
        assert bot.act(game.observe(state, seat), rng) == Confirm(seat)
        state = game.apply(state, Confirm(seat))
        assert bot.act(game.observe(state, seat), rng) == TaiXiuReady(seat)
        state = game.apply(state, TaiXiuReady(seat))
    assert game.to_act(state) is CHANCE
    assert all(state.confirmed[seat] for seat in (1, 2))
