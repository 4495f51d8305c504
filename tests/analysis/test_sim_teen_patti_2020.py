"""The vectorised Teen Patti 20-20 simulator equals the engine and agrees with the exact odds."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sanh.analysis.sim_teen_patti_2020 import (
    STAKE,
    deal_cards,
    generator_for,
    round_returns,
    simulate_teen_patti,
    six_card_categories,
)
from sanh.analysis.simulate import find_simulator
from sanh.cards import DECK_52, Card, parse_cards
from sanh.cli import main
from sanh.eval import category_of, evaluate
from sanh.games import find_game
from sanh.games.base import Shuffle, TableConfig
from sanh.games.teen_patti_2020 import BETS, Bet, CloseBetting, TeenPatti2020

_FOUND = find_game("teen-patti-2020")
assert isinstance(_FOUND, TeenPatti2020)
GAME: TeenPatti2020 = _FOUND

# Deals (A1 B1 A2 B2 A3 B3) that hit every paying line and the ties.
RARE = [
    "As Ks Qs Js Ts 2d",  # royal flush across both hands
    "Ks 9s Qs Js Ts 2d",  # straight flush K-high
    "Ks Kd Kh Ad Kc 2c",  # four of a kind
    "Ks Qh Kh Qc Kc 2d",  # full house
    "9h 3h 8h 2h 5h Kd",  # flush
    "6s 3d 5h 2s 4c Kd",  # straight (wheel-free)
    "As 5d 2h 4s 3c 9d",  # the wheel A-2-3-4-5
    "As Ah Ad 7c Ac 2d",  # three aces and quads
    "7s 7c 7h 7d 5d 5s",  # tie on pairs of 7s with a 5, four 7s
    "Ks Kh 9d 9c 4h 4d",  # suits never decide: K-9-4 against K-9-4 is a tie
    "Ks Kh 9s 9c 4s 4d",  # flush K-9-4 against K-9-4 off: no tie (A-TT1)
    "Qs Qh Js Jc Ts Td",  # straight flush against straight, same ranks
]


def engine_returns(deck: tuple[Card, ...]) -> dict[str, int]:
    """One round through the real engine: STAKE on every area, this deck."""
    config = TableConfig.make(seats=1, stake=1, stacks=[10**9])
    state = GAME.new_state(config)
    for bet in BETS:
        state = GAME.apply(state, Bet(0, bet, STAKE))
    state = GAME.apply(state, CloseBetting(None))
    state = GAME.apply(state, Shuffle(deck))
    settlement = GAME.settle(state)
    lines = {line.item: line.amount for line in settlement.lines if line.seat == 0}
    lines["pair_plus"] = lines.pop("pair_plus_a")
    del lines["pair_plus_b"]
    return lines


def test_vectorised_path_equals_the_engine() -> None:
    """The same six cards give the same net amount per bet as the engine's settlement, on 500
    seeded deals and on deals of every rare line."""
    deals = deal_cards(generator_for("teen-patti/equivalence"), 500)
    rare = np.array([[int(c) for c in parse_cards(text)] for text in RARE], dtype=np.int64)
    deals = np.vstack([deals, rare])
    returns = round_returns(deals)
    for k, row in enumerate(deals.tolist()):
        assert len(set(row)) == 6
        cards = tuple(Card(c) for c in row)
        deck = cards + tuple(c for c in DECK_52 if c not in cards)
        expected = engine_returns(deck)
        got = {name: int(values[k]) for name, values in returns.items()}
        assert got == expected, [str(c) for c in cards]


def test_six_card_classifier_matches_the_evaluator() -> None:
    """The vectorised best-five-of-six category equals sanh.eval's on 4,000 seeded sets."""
    deals = deal_cards(generator_for("teen-patti/six"), 4000)
    got = six_card_categories(deals)
    for row, category in zip(deals.tolist(), got.tolist(), strict=True):
        assert category == int(category_of(evaluate(row)))


def test_deals_are_reproducible_and_spread() -> None:
    """The same seed gives the same deals; every card shows up in the six positions."""
    first = deal_cards(generator_for(5), 5200)
    assert np.array_equal(first, deal_cards(generator_for(5), 5200))
    assert all(len(set(row)) == 6 for row in first.tolist())
    counts = np.bincount(first.ravel(), minlength=52)
    assert counts.min() > 600 * 0.75 and counts.max() < 600 * 1.25


def test_simulate_agrees_with_odds(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 2 'Must show': ``sanh simulate`` agrees with ``sanh odds`` within its 95 % interval,
    bet by bet (both through the command line, --json)."""
    assert main(["odds", "teen-patti-2020", "--json"]) == 0
    exact = json.loads(capsys.readouterr().out)["bets"]
    args = ["simulate", "Teen Patti", "--rounds", "400000", "--seed", "7", "--json"]
    assert main(args) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["method"] == "vectorised" and report["rounds"] == 400000
    assert set(report["bets"]) == set(exact)
    for name, bet in report["bets"].items():
        low, high = bet["ci95"]
        assert low <= exact[name]["rtp"] <= high, (name, bet, exact[name]["rtp"])


def test_simulator_registry_and_errors() -> None:
    """The simulator is registered; progress is reported; bad input raises."""
    assert find_simulator("teen-patti-2020") is simulate_teen_patti
    seen: list[int] = []
    report = simulate_teen_patti(1000, "x", None, seen.append)
    assert seen[-1] == 1000 and report.rules == "s004" and report.seed == "x"
    with pytest.raises(ValueError):
        simulate_teen_patti(10, 0, "s002")
    with pytest.raises(ValueError):
        simulate_teen_patti(0, 0, None)
