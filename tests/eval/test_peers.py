"""Cross-checks against two independent evaluators (dev dependencies): phevaluator and eval7."""

from __future__ import annotations

import warnings
from itertools import pairwise

import phevaluator
import pytest

import sanh.eval
from tests.eval.conftest import random_hands

with warnings.catch_warnings():  # eval7 0.1.x imports pyparsing with deprecated names
    warnings.simplefilter("ignore")
    import eval7


@pytest.mark.parametrize("width", [5, 6, 7])
def test_strength_is_7462_minus_the_phevaluator_rank(width: int) -> None:
    """phevaluator numbers the cards as sanh does and ranks 1 (royal flush) to 7,462: every
    random hand gets exactly ``7462 - rank``, single call and batch."""
    hands = random_hands(30_000, width, seed=200 + width)
    theirs = [7462 - phevaluator.evaluate_cards(*hand) for hand in hands.tolist()]
    assert [sanh.eval.evaluate(hand) for hand in hands.tolist()] == theirs
    assert sanh.eval.evaluate_batch(hands).tolist() == theirs


def test_eval7_orders_seven_card_hands_the_same_way() -> None:
    deck = [eval7.Card("23456789TJQKA"[i // 4] + "cdhs"[i % 4]) for i in range(52)]
    hands = random_hands(30_000, 7, seed=300).tolist()
    ours = sanh.eval.evaluate_batch(hands).tolist()
    theirs = [eval7.evaluate([deck[c] for c in hand]) for hand in hands]
    for (a, x), (b, y) in pairwise(sorted(zip(ours, theirs, strict=True))):
        assert (a < b) == (x < y)
