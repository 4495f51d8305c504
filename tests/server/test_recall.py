"""A recalled hand (``GET /api/recall/<hand>``) shows a seat only what that seat could know.

Random hands of every registered game, with every seat count up to four, are recalled for every
seat (:func:`sanh.server.recall.recall_hand`, what ``hand_for`` serves): no card of the recall
(its events and its final view) is hidden from that seat at the end of the hand by the rules
(:func:`tests.server.oracle.hidden_cards`: the deck order, the stock, the other seats' face-down
and folded cards), the deal is listed without the deck order, the seat's own actions are all
there in order, and another seat's private action (a house-game bet, a sit-in's stack) is not.
Then a Tài Xỉu round through the table actor and the ledger is recalled by both its players.
"""

from __future__ import annotations

from typing import Any

import pytest

from sanh.cards.rng import SeededRng
from sanh.games import REGISTRY
from sanh.games.base import Action, Event, Roll, Shuffle, SitIn, TableConfig
from sanh.games.driver import random_playout
from sanh.notation.jsonable import to_jsonable
from sanh.server.hall import Hall
from sanh.server.recall import recall_hand, seen_by
from sanh.server.wallet_services import WalletServices
from tests.server.oracle import cards_in, hidden_cards
from tests.server.test_table import Seat, _act, _run, _table, _until

SEEDS = 12
"""Hands per game and seat count."""


def _played(game_id: str, seats: int, seed: int) -> tuple[TableConfig, list[Event], Any]:
    """A random hand: its config, its events and its final state."""
    game = REGISTRY[game_id]
    config = TableConfig.make(seats=seats, stake=100)
    events: list[Event] = []
    final = random_playout(
        game, config, SeededRng(f"recall:{seed}"), on_event=lambda _s, e: events.append(e)
    )
    return config, events, final


def _logged(events: list[Event]) -> list[dict[str, Any]]:
    """The events as the table's log holds them."""
    return [{"kind": "event", "seq": i, **to_jsonable(e)} for i, e in enumerate(events, 1)]


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_a_recalled_hand_shows_no_card_hidden_from_its_seat(game_id: str) -> None:
    game = REGISTRY[game_id]
    private = {cls.__name__ for cls in game.info.private_actions}
    recalled = left_out = 0
    for seats in range(game.info.seats_min, min(game.info.seats_max, 4) + 1):
        for seed in range(SEEDS):
            config, events, final = _played(game_id, seats, seed)
            logged = _logged(events)
            for seat in range(seats):
                actions, view = recall_hand(game, config, logged, seat)
                assert view == to_jsonable(game.observe(final, seat)), "the seat's own view"
                hidden = hidden_cards(game_id, final, seat)
                leak = (cards_in(actions) | cards_in(view)) & hidden
                assert not leak, f"{game_id} seat {seat} recalls hidden {sorted(leak)}"
                deals = [a for a in actions if a["type"] == "shuffle"]
                shuffles = sum(1 for e in events if isinstance(e, Shuffle))
                assert deals == [{"type": "shuffle"}] * shuffles, "the deal, no deck order"
                rolls = [list(e.dice) for e in events if isinstance(e, Roll)]
                assert [a["dice"] for a in actions if a["type"] == "roll"] == rolls
                own = [to_jsonable(e) for e in events if isinstance(e, Action) and e.seat == seat]
                assert [a for a in actions if a.get("seat") == seat] == own
                for action in actions:
                    if action["type"] in private:
                        assert action["seat"] == seat, f"another seat's {action}"
                recalled += 1
                left_out += sum(1 for e in events if not seen_by(game, e, seat))
    assert recalled
    if private:
        assert left_out, f"{game_id}: no other seat's private action was ever left out"


ALL_SHOWN = {"ba-cay-chuong", "ba-cay-ga", "phom", "teen-patti-2020", "three-card-poker"}
"""Games whose hands are all face up once the hand is over (flipped, counted, dealt face up, or
a shared Player hand): at the end, another seat's view hides nothing from seat 0."""


def test_the_check_catches_the_deck_order_and_another_seat_s_hand() -> None:
    """The oracle has teeth here: the raw log (with the shuffle's order) is caught in every card
    game, and another seat's final view in every game that keeps a hand hidden at the end
    (a folded hand, the cards left in a hand)."""
    for game_id, game in sorted(REGISTRY.items()):
        if game.info.deck == "dice":
            continue
        raw = other = 0
        seats = max(2, game.info.seats_min)
        for seed in range(SEEDS):
            _config, events, final = _played(game_id, seats, seed)
            hidden = hidden_cards(game_id, final, 0)
            raw += bool(cards_in([to_jsonable(e) for e in events]) & hidden)
            other += bool(cards_in(to_jsonable(game.observe(final, 1))) & hidden)
        assert raw, f"{game_id}: the deck order is never caught"
        if game_id not in ALL_SHOWN:
            assert other, f"{game_id}: another seat's hand is never caught"


def test_another_seat_s_sit_in_is_left_out() -> None:
    """A sit-in carries the player's stack: only that seat recalls it."""
    game = REGISTRY["tai-xiu"]
    config = TableConfig.make(seats=3, stake=100, stacks=(100_000, 0, 100_000))
    events: list[Event] = [SitIn(None, chair=1, stack=50_000)]
    state = game.apply(game.new_state(config), events[0])
    assert not game.is_terminal(state)
    logged = _logged(events)
    mine, _ = recall_hand(game, config, logged, 1)
    theirs, _ = recall_hand(game, config, logged, 0)
    assert mine == [to_jsonable(events[0])] and theirs == []


def test_a_tai_xiu_round_recalled_by_its_two_players() -> None:
    """Through the table actor and the ledger: each player recalls its own bet, not the other
    player's, the dice, the names of the seats and the settlement."""

    async def body(services: WalletServices, hall: Hall) -> None:
        ann, bob = Seat(services, "Ann"), Seat(services, "Bob")
        actor = _table(hall, "tai-xiu", 2, ann, {"taixiu.betting_s": 20})
        await _until(lambda: actor.state is not None, timeout=10)
        for seat, area in ((ann, "small"), (bob, "big")):
            await actor.call("join", seat.conn, None)
            await actor.call("sit", seat.conn, None)
            view = seat.last_view()
            (template,) = [r for r in view["amount_ranges"] if r["action"]["bet"] == area]
            await _act(actor, seat, {**template["action"], "amount": 200}, view["version"])
            view = seat.last_view()
            (confirm,) = [a for a in view["legal_actions"] if a["type"] == "Confirm"]
            await _act(actor, seat, confirm, view["version"])
        await _until(lambda: actor.hands_completed >= 1, timeout=40)
        for seat, area, other in ((ann, "small", "big"), (bob, "big", "small")):
            (listed,) = services.hands_for(seat.info.id, 5)
            hand = services.hand_for(seat.info.id, listed["id"])
            assert hand is not None
            me = hand["seat"]
            assert hand["players"][me] == seat.info.id
            assert sorted(n for n in hand["names"] if n) == ["Ann", "Bob"]
            bets = [a for a in hand["actions"] if a["type"] == "Place"]
            assert [(a["seat"], a["bet"], a["amount"]) for a in bets] == [(me, area, 200)]
            assert not [a for a in hand["actions"] if a.get("bet") == other]
            assert {"type": "Confirm", "seat": me} in hand["actions"]
            (roll,) = [a for a in hand["actions"] if a["type"] == "roll"]
            assert roll["dice"] == hand["view"]["dice"]
            assert hand["settlement"]["deltas"][me] == listed["net"]

    _run(body, timer_scale=0.1, between_hands=30)
