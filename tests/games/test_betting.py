"""The shared pot machinery (sanh/games/_betting.py) and the fast Hold'em evaluator."""

from __future__ import annotations

import random

import pytest

from sanh.eval import category_of, evaluate
from sanh.games._betting import Pot, award_pots, build_pots, seats_from, split, uncalled
from sanh.games._holdem_eval import category, evaluate_cards


def test_s003_side_pot_levels() -> None:
    """S003 'All-in có phải chỉ ăn được Pot lúc bấm': 'nếu một người chỉ còn 100 để tất tay
    trong khi hai người khác mỗi người có thể theo đến 300, người tất tay có thể tranh phần
    tương ứng 100 từ mỗi người; khoản chênh 200 của hai đối thủ là cuộc so giữa những người góp
    khoản đó' (RULES.md §4.7: main pot 300 for A, B, C; side pot 400 for B and C)."""
    pots = build_pots([100, 300, 300], [True, True, True])
    assert pots == (Pot(300, (0, 1, 2)), Pot(400, (1, 2)))
    # A has the best hand: A wins 300 and the better of B and C wins 400.
    assert award_pots(pots, [30, 20, 10], order=[0, 1, 2]).winnings == (300, 400, 0)
    assert award_pots(pots, [30, 10, 20], order=[0, 1, 2]).winnings == (300, 0, 400)
    # B has the best hand: B wins both.
    assert award_pots(pots, [20, 30, 10], order=[0, 1, 2]).winnings == (0, 700, 0)


def test_folded_chips_stay_in_the_pots_they_paid_into() -> None:
    """RULES.md §4.7: 'Chips from folded players stay in the pots they paid into.'"""
    pots = build_pots([100, 300, 200, 300], [True, True, False, True])
    assert [pot.amount for pot in pots] == [400, 500]
    assert pots[0].eligible == (0, 1, 3) and pots[1].eligible == (1, 3)
    assert sum(pot.amount for pot in pots) == 900


def test_dead_money_goes_to_the_main_pot_and_folds_above_the_live_levels() -> None:
    pots = build_pots([50, 50, 0], [True, True, False], dead=30)
    assert pots == (Pot(130, (0, 1)),)
    # A seat that folded with more in than anyone live: its chips join the highest pot.
    pots = build_pots([100, 40, 150], [True, True, False])
    assert pots == (Pot(120, (0, 1)), Pot(170, (0,)))
    assert sum(pot.amount for pot in pots) == 290


def test_split_gives_the_odd_units_to_the_first_winner() -> None:
    """RULES.md §4.7: 'Any odd remainder goes to the first tied winner clockwise from D.'"""
    assert split(101, [3, 1]) == ((3, 51), (1, 50))
    assert split(100, [3, 1, 2]) == ((3, 34), (1, 33), (2, 33))
    award = award_pots([Pot(101, (0, 1, 2))], [7, 7, 1], order=[1, 2, 0])
    assert award.winnings == (50, 51, 0)
    assert award.winners == ((1, 0),)


def test_pots_with_the_same_contenders_are_split_as_one() -> None:
    # Two levels, both won by seats 0 and 1 (seat 2 loses): one split of 7 + 66 = 73.
    pots = (Pot(7, (0, 1, 2)), Pot(66, (0, 1)))
    award = award_pots(pots, [5, 5, 1], order=[0, 1, 2])
    assert award.winnings == (37, 36, 0)
    assert len(award.pots) == 1 and award.pots[0].amount == 73


def test_a_pot_nobody_can_win_is_an_error() -> None:
    with pytest.raises(ValueError, match="nobody can win"):
        award_pots([Pot(10, (0,))], [None, 3], order=[0, 1])


def test_uncalled_and_seat_order() -> None:
    assert uncalled([0, 500, 200]) == (1, 300)
    assert uncalled([200, 200]) is None
    assert uncalled([7]) is None
    assert seats_from(3, 5, [True, True, False, True, False]) == (3, 0, 1)


def test_fast_evaluator_orders_hands_like_the_reference() -> None:
    rnd = random.Random(7)
    hands = [rnd.sample(range(52), rnd.choice((5, 6, 7))) for _ in range(3000)]
    mine = [evaluate_cards(hand) for hand in hands]
    reference = [evaluate(hand) for hand in hands]
    for index in range(len(hands) - 1):
        assert (mine[index] > mine[index + 1]) == (reference[index] > reference[index + 1])
        assert (mine[index] == mine[index + 1]) == (reference[index] == reference[index + 1])
        assert category(mine[index]) == category_of(reference[index]).name.lower()
    with pytest.raises(ValueError):
        evaluate_cards([0, 1, 2, 3])
