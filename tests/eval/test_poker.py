"""Five- to seven-card poker strengths (RULES.md §3.1): exhaustive counts, order, best of N."""

from __future__ import annotations

from itertools import combinations, pairwise
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

import sanh.eval
from sanh.eval import HandCategory, category_of
from sanh.eval._backend import BACKEND, SPEEDUPS
from sanh.eval.lookup import POKER_LOOKUP
from tests.eval.conftest import POKER, POKER5, POKER_BATCH, Batch, Single, random_hands
from tests.eval.reference import poker5_key, poker_best_key

H = HandCategory

# The standard counts of the 2,598,960 five-card hands, and of their distinct strengths.
FIVE_CARD_COUNTS = {
    H.HIGH_CARD: (1_302_540, 1277),
    H.ONE_PAIR: (1_098_240, 2860),
    H.TWO_PAIR: (123_552, 858),
    H.THREE_OF_A_KIND: (54_912, 858),
    H.STRAIGHT: (10_200, 10),
    H.FLUSH: (5_108, 1277),
    H.FULL_HOUSE: (3_744, 156),
    H.FOUR_OF_A_KIND: (624, 156),
    H.STRAIGHT_FLUSH: (36, 9),
    H.ROYAL_FLUSH: (4, 1),
}


@pytest.fixture(scope="module")
def five_card_strengths(all_five_card_hands: npt.NDArray[np.uint8]) -> npt.NDArray[np.int32]:
    """The strength of every five-card hand, by the default batch path."""
    return sanh.eval.evaluate_batch(all_five_card_hands)


@pytest.mark.parametrize("name", sorted(POKER_BATCH))
def test_all_five_card_hands_category_counts(
    name: str, all_five_card_hands: npt.NDArray[np.uint8]
) -> None:
    """All 2,598,960 hands: straight flush 40 (royal 4), quads 624, full house 3,744, flush
    5,108, straight 10,200, trips 54,912, two pair 123,552, pair 1,098,240, high 1,302,540; and
    7,462 distinct strengths."""
    strengths = POKER_BATCH[name](all_five_card_hands)
    categories = np.array(POKER_LOOKUP.categories)[strengths]
    counts = np.bincount(categories, minlength=len(H))
    assert {c: int(counts[c]) for c in H} == {c: n for c, (n, _) in FIVE_CARD_COUNTS.items()}
    assert counts[H.STRAIGHT_FLUSH] + counts[H.ROYAL_FLUSH] == 40
    classes = {c: len(np.unique(strengths[categories == c])) for c in H}
    assert classes == {c: k for c, (_, k) in FIVE_CARD_COUNTS.items()}
    assert len(np.unique(strengths)) == 7462 == len(POKER_LOOKUP)


def test_every_pair_of_categories_is_ordered(
    five_card_strengths: npt.NDArray[np.int32],
) -> None:
    """For every two categories, every hand of the higher one beats every hand of the lower."""
    categories = np.array(POKER_LOOKUP.categories)[five_card_strengths]
    low = {c: int(five_card_strengths[categories == c].min()) for c in H}
    high = {c: int(five_card_strengths[categories == c].max()) for c in H}
    for weaker, stronger in combinations(H, 2):
        assert high[weaker] < low[stronger], (weaker, stronger)


def test_class_order_matches_the_reference_ranking(
    all_five_card_hands: npt.NDArray[np.uint8], five_card_strengths: npt.NDArray[np.int32]
) -> None:
    """The 7,462 classes sort exactly as a naive reading of §3.1 sorts them, and a random
    sample of hands lands in the class with its own reference key."""
    strengths, first = np.unique(five_card_strengths, return_index=True)
    assert strengths.tolist() == list(range(7462))
    keys = [poker5_key(all_five_card_hands[i].tolist()) for i in first]
    assert all(a < b for a, b in pairwise(keys))
    sample = np.random.default_rng(7).choice(len(all_five_card_hands), 20_000, replace=False)
    for i in sample:
        hand = all_five_card_hands[i].tolist()
        assert poker5_key(hand) == keys[five_card_strengths[i]]


def test_category_of_agrees_with_the_reference(
    all_five_card_hands: npt.NDArray[np.uint8], five_card_strengths: npt.NDArray[np.int32]
) -> None:
    """``category_of`` gives the reference category of one hand of every class."""
    _, first = np.unique(five_card_strengths, return_index=True)
    for strength, i in enumerate(first):
        category, _ = poker5_key(all_five_card_hands[i].tolist())
        assert category_of(strength) == category


def test_single_call_equals_batch_on_every_five_card_hand(
    all_five_card_hands: npt.NDArray[np.uint8], five_card_strengths: npt.NDArray[np.int32]
) -> None:
    """The single-hand evaluator (default backend) agrees with the batch on all hands."""
    evaluate = sanh.eval.evaluate
    step = 1 if BACKEND == "c" else 97
    hands = all_five_card_hands[::step].tolist()
    assert [evaluate(hand) for hand in hands] == five_card_strengths[::step].tolist()


@pytest.mark.parametrize("name", sorted(POKER))
@pytest.mark.parametrize("width", [6, 7])
def test_best_of_n_agrees_with_brute_force(name: str, width: int) -> None:
    """Six and seven cards: the strength is the best of the 6 or 21 five-card subsets, and
    matches the reference's best subset."""
    evaluate: Single = POKER[name]
    evaluate5: Single = POKER5[name]
    for hand in random_hands(1500, width, seed=width).tolist():
        strength = evaluate(hand)
        assert strength == max(evaluate5(five) for five in combinations(hand, 5))
        best = poker_best_key(hand)
        assert category_of(strength) == best[0]


@pytest.mark.parametrize("name", sorted(POKER))
def test_seven_card_ties_and_wins_match_the_reference(name: str) -> None:
    """Pairs of random seven-card hands compare as their best reference keys compare."""
    evaluate: Single = POKER[name]
    hands = random_hands(3000, 7, seed=11).tolist()
    for a, b in zip(hands[::2], hands[1::2], strict=True):
        sa, sb = evaluate(a), evaluate(b)
        ka, kb = poker_best_key(a), poker_best_key(b)
        assert (sa > sb) == (ka > kb) and (sa == sb) == (ka == kb)


@pytest.mark.parametrize("name", sorted(POKER))
def test_bad_hands_raise(name: str) -> None:
    evaluate: Single = POKER[name]
    with pytest.raises(ValueError, match="5 to 7 cards, got 4"):
        evaluate([0, 1, 2, 3])
    with pytest.raises(ValueError, match="5 to 7 cards, got 8"):
        evaluate(list(range(8)))
    with pytest.raises(ValueError, match="out of range: 52"):
        evaluate([0, 1, 2, 3, 52])
    with pytest.raises(ValueError, match="out of range: -1"):
        evaluate([0, 1, 2, 3, -1])
    with pytest.raises(ValueError, match="duplicate card As"):
        evaluate([51, 1, 2, 3, 51])
    with pytest.raises(TypeError):
        evaluate(["As", "Ks", "Qs", "Js", "Ts"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="needs 5 cards, got 6"):
        POKER5[name](list(range(6)))


def test_category_of_rejects_a_non_strength() -> None:
    assert category_of(0) is H.HIGH_CARD and category_of(7461) is H.ROYAL_FLUSH
    for bad in (-1, 7462):
        with pytest.raises(ValueError, match="not a poker strength"):
            category_of(bad)


def test_batch_paths_agree(all_five_card_hands: npt.NDArray[np.uint8]) -> None:
    """Every batch implementation gives the same strengths on a slice of all hands."""
    hands = all_five_card_hands[::13]
    results = {name: batch(hands).tolist() for name, batch in POKER_BATCH.items()}
    first: Batch = next(iter(POKER_BATCH.values()))
    assert all(r == first(hands).tolist() for r in results.values())


def test_speedups_are_used_when_built() -> None:
    """A compiled ``_speedups`` next to the sources must load (else rebuild: ``make install``)."""
    built = list((Path(sanh.eval.__file__).parent).glob("_speedups*.so"))
    assert (SPEEDUPS is not None) == bool(built), "stale C speedups: run `make install`"
    assert ("c" if built else "python") == BACKEND
