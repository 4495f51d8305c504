"""Three-card rankings: Three Card Poker (RULES.md §13.4) and Teen Patti (§14.4), exhaustively."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from enum import IntEnum
from itertools import combinations, pairwise

import numpy as np
import numpy.typing as npt
import pytest

from sanh.eval import (
    TcpCategory,
    TeenPattiCategory,
    tcp_category,
    teen_patti_category,
)
from sanh.eval.lookup import TCP_LOOKUP, TEEN_PATTI_LOOKUP
from tests.eval.conftest import (
    TCP_BATCH,
    TCP_SINGLE,
    TEEN_PATTI_BATCH,
    TEEN_PATTI_SINGLE,
    Single,
)
from tests.eval.reference import tcp_key, teen_patti_key

T = TcpCategory
P = TeenPattiCategory

TCP_COUNTS = {
    T.MINI_ROYAL: 4,
    T.STRAIGHT_FLUSH: 44,
    T.THREE_OF_A_KIND: 52,
    T.STRAIGHT: 720,
    T.FLUSH: 1096,
    T.PAIR: 3744,
    T.HIGH_CARD: 16440,
}
TEEN_PATTI_COUNTS = {
    P.THREE_ACES: 4,
    P.THREE_OF_A_KIND: 48,
    P.STRAIGHT_FLUSH: 48,
    P.STRAIGHT: 720,
    P.FLUSH: 1096,
    P.PAIR: 3744,
    P.HIGH_CARD: 16440,
}


@pytest.mark.parametrize("name", sorted(TCP_BATCH))
def test_tcp_counts_of_all_22100_hands(
    name: str, all_three_card_hands: npt.NDArray[np.uint8]
) -> None:
    """S000/§13.4, all 22,100 hands: straight flush 48 (of which mini royal 4), trips 52,
    straight 720, flush 1,096, pair 3,744, high card 16,440."""
    strengths = TCP_BATCH[name](all_three_card_hands).tolist()
    counts = Counter(tcp_category(s) for s in strengths)
    assert counts == TCP_COUNTS
    assert counts[T.STRAIGHT_FLUSH] + counts[T.MINI_ROYAL] == 48
    assert len(set(strengths)) == 741 == len(TCP_LOOKUP)


@pytest.mark.parametrize("name", sorted(TEEN_PATTI_BATCH))
def test_teen_patti_counts_of_all_22100_hands(
    name: str, all_three_card_hands: npt.NDArray[np.uint8]
) -> None:
    """S004/§14.4, all 22,100 hands: three aces 4, other trips 48, straight flush 48, straight
    720, flush 1,096, pair 3,744, high card 16,440."""
    strengths = TEEN_PATTI_BATCH[name](all_three_card_hands).tolist()
    counts = Counter(teen_patti_category(s) for s in strengths)
    assert counts == TEEN_PATTI_COUNTS
    assert len(set(strengths)) == 741 == len(TEEN_PATTI_LOOKUP)


KINDS: list[tuple[str, dict[str, Single], Callable[[Sequence[int]], tuple[int, tuple[int, ...]]]]]
KINDS = [("tcp", TCP_SINGLE, tcp_key), ("teen-patti", TEEN_PATTI_SINGLE, teen_patti_key)]
CASES = [(kind, name) for kind, impls, _ in KINDS for name in sorted(impls)]


@pytest.mark.parametrize(("kind", "name"), CASES)
def test_every_hand_orders_as_the_reference(
    kind: str, name: str, all_three_card_hands: npt.NDArray[np.uint8]
) -> None:
    """All 22,100 hands: strength order and ties are exactly the reference key order."""
    _, impls, key = next(k for k in KINDS if k[0] == kind)
    rank = impls[name]
    key_of: dict[int, tuple[int, tuple[int, ...]]] = {}
    for hand in all_three_card_hands.tolist():
        strength = rank(hand)
        assert key_of.setdefault(strength, key(hand)) == key(hand)
    ordered = [key_of[s] for s in sorted(key_of)]
    assert all(a < b for a, b in pairwise(ordered))
    categories = [c for c, _ in ordered]
    lookup = TCP_LOOKUP if kind == "tcp" else TEEN_PATTI_LOOKUP
    assert [int(c) for c in lookup.categories] == categories


@pytest.mark.parametrize(
    ("category_of", "enum"),
    [(tcp_category, TcpCategory), (teen_patti_category, TeenPattiCategory)],
)
def test_every_pair_of_categories_is_ordered(
    category_of: Callable[[int], IntEnum], enum: type[IntEnum]
) -> None:
    """Every strength of a higher category is above every strength of a lower one."""
    by_category: dict[IntEnum, list[int]] = {c: [] for c in enum}
    for strength in range(741):
        by_category[category_of(strength)].append(strength)
    for weaker, stronger in combinations(enum, 2):
        assert max(by_category[weaker]) < min(by_category[stronger]), (weaker, stronger)
    for bad in (-1, 741):
        with pytest.raises(ValueError, match="not a"):
            category_of(bad)


@pytest.mark.parametrize("name", sorted(TCP_SINGLE))
def test_bad_three_card_hands_raise(name: str) -> None:
    for rank in (TCP_SINGLE[name], TEEN_PATTI_SINGLE[name]):
        with pytest.raises(ValueError, match="needs 3 cards, got 2"):
            rank([0, 1])
        with pytest.raises(ValueError, match="needs 3 cards, got 4"):
            rank([0, 1, 2, 3])
        with pytest.raises(ValueError, match="out of range: 52"):
            rank([0, 1, 52])
        with pytest.raises(ValueError, match="duplicate card 2c"):
            rank([0, 0, 5])
