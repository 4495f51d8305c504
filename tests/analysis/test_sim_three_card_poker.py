"""The vectorised Three Card Poker simulator equals the engine and agrees with the exact odds."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sanh.analysis.sim_three_card_poker import (
    deal_decks,
    generator_for,
    round_returns,
    simulate,
    six_card_pays,
)
from sanh.analysis.simulate import find_simulator
from sanh.cards import Card, parse_cards
from sanh.cli import main
from sanh.eval import category_of, evaluate, tcp_rank
from sanh.games import find_game
from sanh.games.base import CHANCE, Shuffle, TableConfig
from sanh.games.three_card_poker import (
    SIX_CARD_BONUS,
    Bet,
    Fold,
    Play,
    TcpState,
    ThreeCardPoker,
)

GAME = find_game("three-card-poker")
assert isinstance(GAME, ThreeCardPoker)
Q64 = tcp_rank(parse_cards("Qs 6h 4d"))


def engine_returns(deck: tuple[Card, ...], variant: str) -> dict[str, float]:
    """One round through the real engine: 1 L on every spot, play Q-6-4 or better."""
    stake = 100
    config = TableConfig.make(seats=1, stake=stake, options={"tcp.variant": variant})
    state: TcpState = GAME.new_state(config)
    for spot in state.rules.spots:
        state = GAME.apply(state, Bet(0, spot, stake))
    assert GAME.to_act(state) is CHANCE  # every spot taken: the window closed by itself
    state = GAME.apply(state, Shuffle(deck))
    hand = GAME.observe(state, 0).player_hand
    assert None not in hand
    decision = Play(0) if tcp_rank([c for c in hand if c is not None]) >= Q64 else Fold(0)
    state = GAME.apply(state, decision)
    settlement = GAME.settle(state)
    out = {spot: 0.0 for spot in ("ante_play", *state.rules.spots[1:])}
    for line in settlement.lines:
        key = "ante_play" if line.item in ("ante", "play", "ante_bonus") else line.item
        out[key] += line.amount / stake
    return out


@pytest.mark.parametrize("variant", ["s000", "s002"])
def test_vectorised_path_equals_the_engine(variant: str) -> None:
    """Same deck orders, same per-bet returns: the vectorised rounds against the engine's
    settlement of the very same Shuffle events."""
    decks = deal_decks(generator_for(f"equivalence-{variant}"), 400)
    # Add rounds that hit the rare lines: six-card straight flush, trips, a wheel, ties.
    extra = ["As Ks Qs Js Ts 2c", "9h 8h 7h 6h 5h Kd", "5c 5d 5h 5s 2c 2d", "Ac 2d 3h 4s 5c 9d"]
    extra += ["Qc Jh 6d Qd Js 6h", "Kc Kd 4h 7c 7d 7h", "Ah Kh Qh 2c 3d 5h"]
    rows = [[int(c) for c in parse_cards(text)] for text in extra]
    for row in rows:
        row.extend(c for c in range(52) if c not in row)
    decks = np.vstack([decks, np.array(rows, dtype=np.int8)])
    for row in decks:
        assert sorted(row.tolist()) == list(range(52))
    returns = round_returns(decks[:, :6], variant)
    for k, row in enumerate(decks):
        expected = engine_returns(tuple(Card(int(c)) for c in row), variant)
        got = {name: float(values[k]) for name, values in returns.items()}
        assert got == expected, (variant, [str(Card(int(c))) for c in row[:6]])


def test_six_card_classifier_matches_the_evaluator() -> None:
    """The vectorised 6 Card Bonus classifier pays what sanh.eval's best five of six says."""
    decks = deal_decks(generator_for("six-card-classifier"), 3000)[:, :6]
    pays = six_card_pays(decks)
    for row, pay in zip(decks.tolist(), pays.tolist(), strict=True):
        assert pay == SIX_CARD_BONUS.get(category_of(evaluate(row)), -1)


def test_deals_are_reproducible_and_uniform_enough() -> None:
    """The same seed gives the same decks; every card shows up in the first six positions."""
    a = deal_decks(generator_for(3), 5000)
    b = deal_decks(generator_for(3), 5000)
    assert np.array_equal(a, b)
    counts = np.bincount(a[:, :6].ravel(), minlength=52)
    expected = 5000 * 6 / 52
    assert counts.min() > expected * 0.75 and counts.max() < expected * 1.25


@pytest.mark.parametrize("variant", ["s000", "s002"])
def test_simulate_agrees_with_odds(variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 2 'Must show': `sanh simulate` agrees with `sanh odds` within its 95 % interval,
    bet by bet (both through the command line, --json)."""
    assert main(["odds", "tcp", "--rules", variant, "--json"]) == 0
    exact = json.loads(capsys.readouterr().out)["bets"]
    args = ["simulate", "tcp", "--rounds", "600000", "--seed", "11", "--rules", variant, "--json"]
    assert main(args) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["method"] == "vectorised" and report["rounds"] == 600000
    assert set(report["bets"]) == set(exact)
    for name, bet in report["bets"].items():
        low, high = bet["ci95"]
        assert low <= exact[name]["rtp"] <= high, (name, bet, exact[name]["rtp"])


def test_simulator_registry_and_errors() -> None:
    """The simulator is registered; progress is reported; bad input raises."""
    assert find_simulator("three-card-poker") is simulate
    seen: list[int] = []
    report = simulate(1000, "x", None, seen.append)
    assert seen[-1] == 1000 and report.rules == "s000" and report.seed == "x"
    with pytest.raises(ValueError):
        simulate(10, 0, "s003")
    with pytest.raises(ValueError):
        simulate(0, 0, None)
