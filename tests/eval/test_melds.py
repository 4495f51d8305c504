"""Phỏm melds and the exact arranger (RULES.md §9.2-9.5, seed 001 'Luật chơi Phỏm').

The arranger is checked against an independent brute force over random 9- and 10-card hands
(hypothesis): every partition of the hand into melds and single deadwood cards is enumerated
with its own meld test, under the eating constraints of §9.3.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from sanh.cards import Card, parse_card, parse_cards
from sanh.cards.deck import DECK_52
from sanh.eval.melds import (
    all_arrangements,
    best_arrangement,
    best_arrangements,
    can_extend,
    candidate_melds,
    card_points,
    deadwood_points,
    is_meld,
    maximal_arrangements,
    most_melded,
    phom_rank,
)

# ----- an independent brute force -------------------------------------------------------------
RANKS = "A23456789TJQK"


def brute_value(card: Card) -> int:
    return RANKS.index(str(card)[0]) + 1


def brute_is_meld(cards: Sequence[Card]) -> bool:
    if len(cards) < 3:
        return False
    values = sorted(brute_value(c) for c in cards)
    suits = {str(c)[1] for c in cards}
    if len(set(values)) == 1:
        return len(cards) in (3, 4)
    return len(suits) == 1 and values == list(range(values[0], values[0] + len(values)))


def brute_partitions(cards: list[Card]) -> Iterator[list[tuple[Card, ...]]]:
    """Every way to group ``cards`` into melds and single cards (singles as 1-tuples)."""
    if not cards:
        yield []
        return
    first, rest = cards[0], cards[1:]
    for tail in brute_partitions(rest):
        yield [(first,), *tail]
    partners = [c for c in rest if str(c)[0] == str(first)[0] or str(c)[1] == str(first)[1]]
    for size in range(2, len(partners) + 1):
        for group in combinations(partners, size):
            block = (first, *group)
            if brute_is_meld(block):
                remaining = [c for c in rest if c not in group]
                for tail in brute_partitions(remaining):
                    yield [block, *tail]


def brute_layouts(
    cards: Sequence[Card], eaten: Sequence[Card]
) -> list[tuple[frozenset[frozenset[Card]], int, int]]:
    """(melds, deadwood points, melded count) of every partition meeting the eating rules."""
    out = []
    for partition in brute_partitions(list(cards)):
        melds = [b for b in partition if len(b) > 1]
        singles = [b[0] for b in partition if len(b) == 1]
        if any(c in eaten for c in singles):
            continue
        if any(sum(1 for c in m if c in eaten) > 1 for m in melds):
            continue
        key = frozenset(frozenset(m) for m in melds)
        out.append((key, sum(brute_value(c) for c in singles), sum(len(m) for m in melds)))
    return out


def hands_with_eaten(size: int) -> st.SearchStrategy[tuple[list[Card], list[Card]]]:
    return st.lists(st.sampled_from(DECK_52), min_size=size, max_size=size, unique=True).flatmap(
        lambda hand: st.tuples(
            st.just(hand), st.lists(st.sampled_from(hand), max_size=3, unique=True)
        )
    )


def meld_rich_hands(size: int) -> st.SearchStrategy[tuple[list[Card], list[Card]]]:
    """Hands drawn from a few ranks and suits, so that melds overlap a lot."""
    pool = [c for c in DECK_52 if brute_value(c) <= 6]
    return st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True).flatmap(
        lambda hand: st.tuples(
            st.just(hand), st.lists(st.sampled_from(hand), max_size=2, unique=True)
        )
    )


def check_against_brute_force(hand: list[Card], eaten: list[Card]) -> None:
    layouts = brute_layouts(hand, eaten)
    if not layouts:
        assert best_arrangement(hand, eaten) is None
        assert deadwood_points(hand, eaten) is None
        assert most_melded(hand, eaten) is None
        assert best_arrangements(hand, eaten) == ()
        return
    fewest = min(points for _, points, _ in layouts)
    assert deadwood_points(hand, eaten) == fewest
    best = best_arrangement(hand, eaten)
    assert best is not None and best.points == fewest
    optimal = {key for key, points, _ in layouts if points == fewest}
    found = [frozenset(frozenset(m) for m in a.melds) for a in best_arrangements(hand, eaten)]
    assert len(found) == len(set(found)) and set(found) == optimal
    for arrangement in best_arrangements(hand, eaten):
        assert all(is_meld(m) for m in arrangement.melds)
        assert sorted(arrangement.melded + arrangement.deadwood) == sorted(hand)
    most = max(count for _, _, count in layouts)
    top = most_melded(hand, eaten)
    assert top is not None and len(top.melded) == most
    assert top.points == min(p for _, p, count in layouts if count == most)
    everything = {frozenset(frozenset(m) for m in a.melds) for a in all_arrangements(hand, eaten)}
    assert everything == {key for key, _, _ in layouts}


@settings(max_examples=60, deadline=None)
@given(hands_with_eaten(9))
def test_arranger_matches_brute_force_on_nine_cards(case: tuple[list[Card], list[Card]]) -> None:
    """§9.2/§9.3: the fewest deadwood points, exactly, with eaten cards in separate melds."""
    check_against_brute_force(*case)


@settings(max_examples=60, deadline=None)
@given(hands_with_eaten(10))
def test_arranger_matches_brute_force_on_ten_cards(case: tuple[list[Card], list[Card]]) -> None:
    """§9.2/§9.5: ten-card hands (the first player's, and every hand at the Ù check)."""
    check_against_brute_force(*case)


@settings(max_examples=60, deadline=None)
@given(meld_rich_hands(10))
def test_arranger_matches_brute_force_on_meld_rich_hands(
    case: tuple[list[Card], list[Card]],
) -> None:
    """Overlapping sets and runs (A-6 of every suit), where a greedy arranger goes wrong."""
    check_against_brute_force(*case)


# ----- seed definitions -------------------------------------------------------------------
def test_sets_of_three_or_four() -> None:
    """S001: 'Phỏm ... 3 hay 4 lá bài với cùng một giá trị'."""
    assert is_meld(parse_cards("7s 7c 7d"))
    assert is_meld(parse_cards("7s 7c 7d 7h"))
    assert not is_meld(parse_cards("7s 7c"))


def test_runs_of_three_or_more_in_a_suit() -> None:
    """S001: '3 lá bài liên tục hay nhiều hơn với cùng một nước bài (cơ, rô, chuồn, bích)'."""
    assert is_meld(parse_cards("4h 5h 6h"))
    assert is_meld(parse_cards("9s Ts Js Qs Ks"))
    assert not is_meld(parse_cards("4h 5h 6d"))
    assert not is_meld(parse_cards("4h 5h 7h"))


def test_ace_is_low_only() -> None:
    """S001 ranks 'K (già) ... 2, A(xì). Lá K là mạnh nhất và A là yếu nhất'; RULES.md §9.2:
    A-2-3 is valid and Q-K-A is not."""
    assert is_meld(parse_cards("Ad 2d 3d"))
    assert not is_meld(parse_cards("Qd Kd Ad"))
    assert phom_rank(parse_card("Ad")) == 1 and phom_rank(parse_card("Kd")) == 13


def test_card_points() -> None:
    """RULES.md §9.1 (A-PH1): A = 1, 2-10 face value, J = 11, Q = 12, K = 13."""
    points = [card_points(parse_card(f"{r}s")) for r in "A23456789TJQK"]
    assert points == list(range(1, 14))


def test_laying_off_fits_a_set_or_either_end_of_a_run() -> None:
    """S001 'Gửi: ... bài rác của bạn có thể kết nạp vào Phỏm của những người chơi đã hạ bài'."""
    assert can_extend(parse_cards("9c 9d 9s"), parse_card("9h"))
    assert not can_extend(parse_cards("9c 9d 9s 9h"), parse_card("9h"))
    assert can_extend(parse_cards("4h 5h 6h"), parse_card("3h"))
    assert can_extend(parse_cards("4h 5h 6h"), parse_card("7h"))
    assert not can_extend(parse_cards("4h 5h 6h"), parse_card("8h"))
    assert not can_extend(parse_cards("Jh Qh Kh"), parse_card("Ah"))


def test_fewest_points_is_not_most_cards() -> None:
    """RULES.md §9.5: Ù counts melded cards; the scoring arrangement minimises points."""
    hand = parse_cards("Ah 2h 3h 4s 5s 6s 9c 9d 9s Kc")
    assert len(most_melded(hand).melded) == 9  # type: ignore[union-attr]
    hand = parse_cards("Ac Ad As Ah 2c 3c Ks Kd Kh 5d")
    top = most_melded(hand)
    assert top is not None and len(top.melded) == 9


def test_eaten_cards_need_separate_melds() -> None:
    """RULES.md §9.3 [CP]: 'No meld may contain two eaten cards.'"""
    hand = parse_cards("5h 6h 7h 7s 7c 7d")
    assert best_arrangement(hand, parse_cards("7h 7s")) is not None  # 5-6-7h and 7s7c7d
    assert best_arrangement(parse_cards("5h 6h 7h 7s 7c"), parse_cards("7h 7s")) is None
    assert best_arrangement(parse_cards("5h 6h 7h"), parse_cards("5h 7h")) is None


def test_player_may_choose_among_equal_arrangements() -> None:
    """Issue 5: 'the player may choose among equal ones': a 6-run, whole or as two runs."""
    hand = parse_cards("3h 4h 5h 6h 7h 8h Kd")
    options = {tuple(len(m) for m in a.melds) for a in best_arrangements(hand)}
    assert options == {(6,), (3, 3)}
    assert {a.points for a in best_arrangements(hand)} == {13}


def test_maximal_arrangements_lay_down_everything() -> None:
    """§9.4: 'lay down all their melds': a 6-run may be split, but not left short."""
    hand = parse_cards("4s 5s 6s 7s 8s 9s Kd")
    ways = {tuple(tuple(map(str, m)) for m in a.melds) for a in maximal_arrangements(hand)}
    assert (("4s", "5s", "6s", "7s", "8s", "9s"),) in ways
    assert (("4s", "5s", "6s"), ("7s", "8s", "9s")) in ways
    assert (("4s", "5s", "6s"),) not in ways
    assert maximal_arrangements(parse_cards("4s 5s 6s"), min_left=1) == (
        maximal_arrangements(parse_cards("4s 5s 6s"), min_left=1)[0],
    )
    assert maximal_arrangements(parse_cards("4s 5s 6s"), min_left=1)[0].melds == ()


def test_candidate_melds_lists_overlaps() -> None:
    """Every meld of a hand, overlapping ones included (four 3-card sets inside a 4-set)."""
    melds = candidate_melds(parse_cards("8s 8c 8d 8h"))
    assert len(melds) == 5


def test_duplicate_cards_are_rejected() -> None:
    """A hand holds each card once."""
    card = parse_card("8s")
    try:
        best_arrangement([card, card])
    except ValueError:
        return
    raise AssertionError("a duplicate card was accepted")
