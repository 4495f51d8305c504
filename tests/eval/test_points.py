"""Three-card point scoring (RULES.md §10.2-10.3, seed 001 '3 CÂY GÀ' / 'Ba cây Chương')."""

from __future__ import annotations

from itertools import combinations

import pytest

from sanh.cards import parse_card, parse_cards
from sanh.cards.deck import DECK_36
from sanh.eval.points import ba_cay_rank, ba_cay_score, card_order, card_points, top_card


def test_ace_counts_one_point() -> None:
    """S001 3 Cây: 'Trong đó Át được tính là 1 điểm.'"""
    assert card_points(parse_card("As")) == 1
    assert [card_points(parse_card(f"{r}h")) for r in "23456789"] == list(range(2, 10))


@pytest.mark.parametrize(
    ("hand", "score"),
    [
        ("9h 9s 2c", 10),  # total 20 -> 10
        ("8d As Ac", 10),  # total 10
        ("9h 9s 4c", 2),  # total 22 -> 2
        ("Ah Ad Ac", 3),
        ("9h 9s 9c", 7),
    ],
)
def test_score_is_the_last_digit_and_zero_counts_ten(hand: str, score: int) -> None:
    """S001: 'tổng 10 điểm là cao nhất ... lấy hàng đơn vị ... (20 điểm được tính là 10 điểm)'."""
    assert ba_cay_score(parse_cards(hand)) == score


def test_scores_run_from_one_to_ten() -> None:
    """S001: ten is the highest score; every score 1..10 occurs on the 36-card deck."""
    assert {ba_cay_score(h) for h in combinations(DECK_36, 3)} == set(range(1, 11))


def test_seed_example_ace_of_diamonds_breaks_the_tie() -> None:
    """S001: 'Một người là 8 rô, A bích, A tép và một người là 7 rô, 2 cơ, A rô. Hai người đều
    được 10 điểm. Nhưng người có lá A rô sẽ thắng vì A rô > 8 rô.'"""
    first = parse_cards("8d As Ac")
    second = parse_cards("7d 2h Ad")
    assert ba_cay_score(first) == ba_cay_score(second) == 10
    assert top_card(first) == parse_card("8d") and top_card(second) == parse_card("Ad")
    assert ba_cay_rank(second) > ba_cay_rank(first)


def test_full_card_order() -> None:
    """RULES.md §10.3 / S001 'chất trước (rô > cơ > tép > bích) ... (9 > 8 > ... > 2 > A).
    Đặc biệt, A rô to nhất. Còn A cơ, A tép, A bích thì vẫn tính nhỏ hơn 2.'"""
    expected = parse_cards(
        "Ad 9d 8d 7d 6d 5d 4d 3d 2d 9h 8h 7h 6h 5h 4h 3h 2h Ah "
        "9c 8c 7c 6c 5c 4c 3c 2c Ac 9s 8s 7s 6s 5s 4s 3s 2s As"
    )
    assert tuple(sorted(DECK_36, key=card_order, reverse=True)) == expected


def test_suit_beats_rank_in_the_tie_break() -> None:
    """S001: the suit of the top card is compared first: 2♦ beats 9♥ on equal points."""
    assert ba_cay_rank(parse_cards("2d 4c 4s")) > ba_cay_rank(parse_cards("9h Ac As"))


def test_no_two_hands_tie() -> None:
    """RULES.md §10.3: 'Two hands can never tie' (all 7,140 hands of the 36-card deck)."""
    hands = list(combinations(DECK_36, 3))
    ranks = [ba_cay_rank(h) for h in hands]
    by_rank: dict[int, set[frozenset[int]]] = {}
    for hand, rank in zip(hands, ranks, strict=True):
        by_rank.setdefault(rank, set()).add(frozenset(hand))
    # Equal ranks only between hands sharing the top card, never between disjoint hands.
    for group in by_rank.values():
        for a, b in combinations(group, 2):
            assert a & b, "two disjoint hands tie"


def test_rank_orders_score_before_top_card() -> None:
    """S001: points first ('lấy số lẻ để so sánh mạnh yếu'), suits only on equal points."""
    assert ba_cay_rank(parse_cards("As 2s 6s")) > ba_cay_rank(parse_cards("Ad 9d 8d"))


def test_bad_hands_are_rejected() -> None:
    """A 3-card hand has three cards; 10-K are not in the 36-card deck."""
    with pytest.raises(ValueError):
        ba_cay_rank(parse_cards("As 2s"))
    with pytest.raises(ValueError):
        card_order(parse_card("Ks"))
