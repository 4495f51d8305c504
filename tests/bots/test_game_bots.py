"""The bots of Phỏm and the 3-card point games (issue 5, part 4)."""

from __future__ import annotations

import dataclasses

from sanh.bots import BOT_FACTORIES, bot_for
from sanh.bots.ba_cay import PointGameBot
from sanh.bots.phom import PhomBot
from sanh.cards import parse_cards
from sanh.cards.rng import SeededRng
from sanh.games.ba_cay_ga import BaCayGa
from sanh.games.base import TableConfig, View
from sanh.games.phom import Discard, Phom

GAME = Phom()


def test_registered() -> None:
    """Each game of the issue has its own bot."""
    assert BOT_FACTORIES["phom"] is PhomBot
    assert BOT_FACTORIES["ba-cay-ga"] is PointGameBot
    assert BOT_FACTORIES["ba-cay-chuong"] is PointGameBot


def discard_view(hand: str, rows: tuple[str, str]) -> View:
    state = GAME.new_state(TableConfig.make(seats=2))
    state = dataclasses.replace(
        state,
        order=(0, 1),
        phase="discard",
        current=1,
        hands=(parse_cards("2d 3s 5h 7c 9d"), parse_cards(hand)),
        rows=(parse_cards(rows[0]), parse_cards(rows[1])),
        discards_made=(len(rows[0].split()), len(rows[1].split())),
        stock=parse_cards("4d 6d 8d"),
    )
    return GAME.observe(state, 1)


def test_discards_the_highest_trash_that_cannot_feed_a_meld() -> None:
    """Issue 5: 'discard the highest deadwood that does not feed the next player a meld'. Kh
    could still meld with unseen kings; with Qh and Qd out and Js in the bot's own hand, Qs
    can no longer form any meld, so it goes first despite Kh's higher points."""
    view = discard_view("Js Qs Kh 2c 3c 4c 6s 7s 8s Ah", ("Qh Qd", ""))
    assert PhomBot().act(view, SeededRng("x")) == Discard(1, parse_cards("Qs")[0])
    plain = discard_view("Js Qs Kh 2c 3c 4c 6s 7s 8s Ah", ("", ""))
    assert PhomBot().act(plain, SeededRng("x")) == Discard(1, parse_cards("Kh")[0])


def test_keeps_its_melds() -> None:
    """The bot discards trash, never a card of its best arrangement."""
    view = discard_view("Kh Kd Ks 2c 3c 4c 6s 7s 8s Ah", ("", ""))
    assert PhomBot().act(view, SeededRng("x")) == Discard(1, parse_cards("Ah")[0])


def test_point_game_bot_is_deterministic() -> None:
    """The point-game bot draws no randomness: the same view gives the same action."""
    game = BaCayGa()
    state = game.new_state(TableConfig.make(seats=3))
    view = game.observe(state, 1)
    actions = {bot_for("ba-cay-ga").act(view, SeededRng(str(i))) for i in range(5)}
    assert len(actions) == 1
