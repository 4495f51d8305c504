"""Every ranking example of seeds 000, 002, 003 and 004 and of RULES.md §3.1, §13.4 and §14.4.

Each test cites its source. ``>`` means the first hand wins, ``=`` a tie.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from enum import IntEnum

import pytest

from sanh.cards import parse_cards
from sanh.eval import (
    HandCategory,
    TcpCategory,
    TeenPattiCategory,
    category_of,
    evaluate,
    tcp_category,
    tcp_rank,
    teen_patti_category,
    teen_patti_rank,
)

H, T, P = HandCategory, TcpCategory, TeenPattiCategory
Rank = Callable[[Sequence[int]], int]


def strength(rank: Rank, text: str) -> int:
    return rank(parse_cards(text))


def assert_order(rank: Rank, relation: str, first: str, second: str) -> None:
    a, b = strength(rank, first), strength(rank, second)
    assert {">": a > b, "=": a == b}[relation], f"{first} {relation} {second}: {a} vs {b}"


def assert_ladder(
    rank: Rank, category_of: Callable[[int], IntEnum], ladder: list[tuple[str, IntEnum]]
) -> None:
    """Each hand has its category, and the list is strictly strongest first."""
    strengths = [strength(rank, text) for text, _ in ladder]
    assert [category_of(s) for s in strengths] == [c for _, c in ladder]
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == len(ladder)


# ---------------------------------------------------------------- S000: Three Card Poker


def test_s000_three_card_ladder() -> None:
    """S000 "Kết quả Poker cho 'Poker 3 Lá' và 'Cược Đôi'", highest first, with the seed's own
    example hands: Thùng Phá Sảnh Hoàng Kim A♠K♠Q♠; Thùng Phá Sảnh 8♥7♥6♥; Bộ Ba 10♠10♥10♣;
    Sảnh 8♦7♣6♥; Thùng 10♥4♥2♥; Đôi A♣A♥8♦; Tay Bài Cao Q♣10♥6♦ (also RULES.md §13.4)."""
    assert_ladder(
        tcp_rank,
        tcp_category,
        [
            ("A♠ K♠ Q♠", T.MINI_ROYAL),
            ("8♥ 7♥ 6♥", T.STRAIGHT_FLUSH),
            ("10♠ 10♥ 10♣", T.THREE_OF_A_KIND),
            ("8♦ 7♣ 6♥", T.STRAIGHT),
            ("10♥ 4♥ 2♥", T.FLUSH),
            ("A♣ A♥ 8♦", T.PAIR),
            ("Q♣ 10♥ 6♦", T.HIGH_CARD),
        ],
    )


def test_s000_ace_low_straight_flush_is_the_lowest() -> None:
    """S000: "3♣, 2♣, át♣ kết quả này sẽ được tính là nhỏ hơn kết hợp 4♦, 3♦, 2♦";
    RULES.md §13.4: 4♦3♦2♦ > 3♣2♣A♣."""
    assert_order(tcp_rank, ">", "4♦ 3♦ 2♦", "3♣ 2♣ A♣")
    assert tcp_category(strength(tcp_rank, "3♣ 2♣ A♣")) is T.STRAIGHT_FLUSH
    assert_order(tcp_rank, ">", "4♦ 3♣ 2♦", "3♣ 2♥ A♣")  # the same for plain straights
    assert_order(tcp_rank, ">", "3♣ 2♥ A♣", "A♦ K♦ J♦")  # the lowest straight beats any flush


def test_s000_straight_flushes_compare_by_top_card_and_tie_on_equal_ranks() -> None:
    """S000: "10♦, 9♦, 8♦ có thứ hạng cao hơn 9♣, 8♣, 7♣" and "10♣, 9♦, 8♣ cùng thứ hạng với
    10♦, 9♣, 8♦ ... hòa"; RULES.md §13.4: 10♦9♦8♦ > 9♣8♣7♣, 10♣9♦8♣ = 10♦9♣8♦."""
    assert_order(tcp_rank, ">", "10♦ 9♦ 8♦", "9♣ 8♣ 7♣")
    assert_order(tcp_rank, "=", "10♣ 9♦ 8♣", "10♦ 9♣ 8♦")


def test_s000_flushes_compare_card_by_card() -> None:
    """S000: "A♣, J♣, 2♣ xếp hạng cao hơn A♥, 10♥, 9♥" and "A♣, J♣, 2♣ cùng thứ hạng với A♦,
    J♦, 2♦"; RULES.md §13.4."""
    assert_order(tcp_rank, ">", "A♣ J♣ 2♣", "A♥ 10♥ 9♥")
    assert_order(tcp_rank, "=", "A♣ J♣ 2♣", "A♦ J♦ 2♦")


def test_s000_pairs_compare_pair_then_kicker() -> None:
    """S000: "A♣, A♥, 8♦ xếp hạng cao hơn Q♠, Q♦, 2♦", "A♣, A♥, 8♦ xếp hạng cao hơn A♠, A♦,
    2♦", "A♣, A♥, 8♦ cùng xếp hạng với A♠, A♦, 8♣"; RULES.md §13.4."""
    assert_order(tcp_rank, ">", "A♣ A♥ 8♦", "Q♠ Q♦ 2♦")
    assert_order(tcp_rank, ">", "A♣ A♥ 8♦", "A♠ A♦ 2♦")
    assert_order(tcp_rank, "=", "A♣ A♥ 8♦", "A♠ A♦ 8♣")


def test_s000_high_cards_compare_card_by_card() -> None:
    """S000: "A♣, J♥, 2♦ đánh bại A♥, 10♠, 9♠"; RULES.md §13.4."""
    assert_order(tcp_rank, ">", "A♣ J♥ 2♦", "A♥ 10♠ 9♠")


def test_s000_card_order_and_suits_never_count() -> None:
    """S000: "Át, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2" and "Chất sẽ không có giá trị để so
    sánh"."""
    order = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    for higher, lower in itertools.pairwise(order):
        assert_order(tcp_rank, ">", f"{higher}♠ {higher}♥ {higher}♣", f"{lower}♠ {lower}♥ {lower}♦")
    for suits in ("♠♥♦", "♣♦♥", "♦♠♣"):
        assert_order(tcp_rank, "=", f"K{suits[0]} 9{suits[1]} 4{suits[2]}", "K♥ 9♣ 4♠")


def test_s000_six_card_bonus_ladder() -> None:
    """S000 "Kết Quả Poker cho 'Cược Thưởng 6 Lá'", highest first, with its examples:
    A♦K♦Q♦J♦10♦; J♣10♣9♣8♣7♣; A♣A♥A♦A♠J♥; K♣K♥K♦A♠A♥; J♥8♥6♥5♥2♥; 9♣8♦7♣6♥5♠;
    10♠10♥10♣6♥3♦."""
    assert_ladder(
        evaluate,
        category_of,
        [
            ("A♦ K♦ Q♦ J♦ 10♦", H.ROYAL_FLUSH),
            ("J♣ 10♣ 9♣ 8♣ 7♣", H.STRAIGHT_FLUSH),
            ("A♣ A♥ A♦ A♠ J♥", H.FOUR_OF_A_KIND),
            ("K♣ K♥ K♦ A♠ A♥", H.FULL_HOUSE),
            ("J♥ 8♥ 6♥ 5♥ 2♥", H.FLUSH),
            ("9♣ 8♦ 7♣ 6♥ 5♠", H.STRAIGHT),
            ("10♠ 10♥ 10♣ 6♥ 3♦", H.THREE_OF_A_KIND),
        ],
    )


def test_s000_six_card_bonus_uses_the_best_five_of_six() -> None:
    """S000: "năm lá tốt nhất được tạo ra từ sáu lá bài có sẵn" (the Player's 3 and the
    dealer's 3, RULES.md §13.6)."""
    six = strength(evaluate, "A♦ K♦ Q♦ 2♣ J♦ 10♦")
    assert six == strength(evaluate, "A♦ K♦ Q♦ J♦ 10♦") and category_of(six) is H.ROYAL_FLUSH
    assert category_of(strength(evaluate, "10♠ 10♥ 2♣ 10♣ 6♥ 3♦")) is H.THREE_OF_A_KIND


# ---------------------------------------------------------------- S002: Three Card Poker (ru)


def test_s002_three_card_ladder() -> None:
    """S002 "Сравнение рук": Стрит-флеш (7-8-9 червей) > Тройка (три дамы) > Стрит (4 пик — 5
    червей — 6 бубен) > Флеш (K-9-5 треф) > Пара (две семерки) > Старшая карта. S002 has no
    mini royal (A-TP6): its A-K-Q suited is the top straight flush, which our order agrees with."""
    assert_ladder(
        tcp_rank,
        tcp_category,
        [
            ("7♥ 8♥ 9♥", T.STRAIGHT_FLUSH),
            ("Q♠ Q♥ Q♦", T.THREE_OF_A_KIND),
            ("4♠ 5♥ 6♦", T.STRAIGHT),
            ("K♣ 9♣ 5♣", T.FLUSH),
            ("7♠ 7♦ 2♣", T.PAIR),
            ("A♠ 9♦ 5♣", T.HIGH_CARD),
        ],
    )
    assert_order(tcp_rank, ">", "A♠ K♠ Q♠", "K♥ Q♥ J♥")


def test_s002_high_card_then_second_then_third_and_equal_hands_push() -> None:
    """S002: "сравнивается самая старшая карта, затем вторая, затем третья" and "Если руки
    равны, объявляется ничья (пуш)"."""
    assert_order(tcp_rank, ">", "K♠ 9♦ 2♣", "Q♠ J♦ 9♣")
    assert_order(tcp_rank, ">", "K♠ 9♦ 3♣", "K♦ 8♦ 7♣")
    assert_order(tcp_rank, ">", "K♠ 9♦ 3♣", "K♦ 9♣ 2♣")
    assert_order(tcp_rank, "=", "K♠ 9♦ 3♣", "K♦ 9♣ 3♥")
    assert_order(tcp_rank, ">", "Q♠ 3♦ 2♣", "J♠ 10♦ 8♣")  # the lowest Q-high beats any J-high


# ---------------------------------------------------------------- S003: Texas Hold'em


def test_s003_five_card_ladder() -> None:
    """S003 "Xếp hạng tay năm lá": Sảnh rồng (10–J–Q–K–A one suit; the seed's example is in
    hearts) > Thùng phá sảnh > Tứ quý > Cù lũ > Thùng > Sảnh > Xám > Hai đôi > Một đôi > Mậu
    thầu (also RULES.md §3.1)."""
    assert_ladder(
        evaluate,
        category_of,
        [
            ("10♥ J♥ Q♥ K♥ A♥", H.ROYAL_FLUSH),
            ("9♠ 10♠ J♠ Q♠ K♠", H.STRAIGHT_FLUSH),
            ("7♣ 7♦ 7♥ 7♠ 2♦", H.FOUR_OF_A_KIND),
            ("5♣ 5♦ 5♥ 9♠ 9♦", H.FULL_HOUSE),
            ("2♦ 6♦ 9♦ J♦ K♦", H.FLUSH),
            ("6♣ 7♦ 8♥ 9♠ 10♣", H.STRAIGHT),
            ("Q♣ Q♦ Q♥ 4♠ 2♣", H.THREE_OF_A_KIND),
            ("J♣ J♦ 3♥ 3♠ A♣", H.TWO_PAIR),
            ("8♣ 8♦ A♥ K♠ Q♣", H.ONE_PAIR),
            ("A♣ K♦ Q♥ J♠ 9♣", H.HIGH_CARD),
        ],
    )


def test_s003_royal_flush_in_any_suit() -> None:
    """S003: "điều kiện là cùng một chất, không phải bắt buộc là Cơ"."""
    royals = {strength(evaluate, f"10{s} J{s} Q{s} K{s} A{s}") for s in "♠♥♦♣"}
    assert len(royals) == 1 and category_of(royals.pop()) is H.ROYAL_FLUSH


def test_s003_ace_plays_high_or_low_and_straights_never_wrap() -> None:
    """S003: "A có thể thấp ở A–2–3–4–5 hoặc cao ở 10–J–Q–K–A; không ghép vòng kiểu Q–K–A–2–3
    thành một sảnh" (RULES.md §3.1: A-2-3-4-5 is the lowest straight)."""
    wheel = strength(evaluate, "A♣ 2♦ 3♥ 4♠ 5♣")
    broadway = strength(evaluate, "10♣ J♦ Q♥ K♠ A♣")
    assert category_of(wheel) is H.STRAIGHT and category_of(broadway) is H.STRAIGHT
    assert wheel < strength(evaluate, "2♣ 3♦ 4♥ 5♠ 6♣") < broadway
    assert category_of(strength(evaluate, "Q♣ K♦ A♥ 2♠ 3♣")) is H.HIGH_CARD
    assert wheel > strength(evaluate, "A♣ A♦ A♥ K♠ Q♣")  # any straight beats trips
    steel = strength(evaluate, "A♠ 2♠ 3♠ 4♠ 5♠")
    assert category_of(steel) is H.STRAIGHT_FLUSH
    assert steel < strength(evaluate, "2♥ 3♥ 4♥ 5♥ 6♥")


def test_s003_same_category_tie_breaks() -> None:
    """S003 "Hai tay cùng loại được so tiếp": quads by the four, then the odd card; full house
    by the three, then the pair; two pair by the high pair, the low pair, then the odd card;
    flush and high card from the top card down (RULES.md §3.1)."""
    assert_order(evaluate, ">", "9♣ 9♦ 9♥ 9♠ 2♣", "8♣ 8♦ 8♥ 8♠ A♣")
    assert_order(evaluate, ">", "9♣ 9♦ 9♥ 9♠ 3♣", "9♣ 9♦ 9♥ 9♠ 2♣")
    assert_order(evaluate, ">", "9♣ 9♦ 9♥ 2♠ 2♣", "8♣ 8♦ 8♥ A♠ A♣")
    assert_order(evaluate, ">", "9♣ 9♦ 9♥ 3♠ 3♣", "9♣ 9♦ 9♠ 2♠ 2♣")
    assert_order(evaluate, ">", "K♣ K♦ 2♥ 2♠ 3♣", "Q♣ Q♦ J♥ J♠ A♣")
    assert_order(evaluate, ">", "K♣ K♦ 3♥ 3♠ 2♣", "K♥ K♠ 2♥ 2♠ A♣")
    assert_order(evaluate, ">", "K♣ K♦ 3♥ 3♠ 5♣", "K♥ K♠ 3♣ 3♦ 4♣")
    assert_order(evaluate, ">", "A♦ 9♦ 7♦ 4♦ 3♦", "A♣ 9♣ 7♣ 4♣ 2♣")
    assert_order(evaluate, ">", "A♦ 9♣ 7♦ 4♦ 3♦", "A♣ 9♥ 7♣ 4♣ 2♣")


def test_s003_quads_on_the_board_play_the_kicker() -> None:
    """S003: "nếu bốn lá chung giống nhau, lá lẻ còn lại có thể quyết định"."""
    board = "K♣ K♦ K♥ K♠ 7♣"
    assert_order(evaluate, ">", f"{board} A♦ 2♦", f"{board} Q♦ J♦")
    assert_order(evaluate, "=", f"{board} 6♦ 2♦", f"{board} 5♥ 3♥")  # both play the board's 7


def test_s003_best_five_of_seven_need_not_use_both_hole_cards() -> None:
    """S003: "Việc có bảy lá để lựa chọn không có nghĩa phải dùng cả hai lá riêng" and "Nếu năm
    lá tốt nhất của hai người bằng nhau, Pot ... được chia"."""
    board = "10♥ J♥ Q♥ K♥ A♥"
    assert_order(evaluate, "=", f"{board} 2♣ 3♦", f"{board} A♠ A♦")
    assert category_of(strength(evaluate, f"{board} 2♣ 3♦")) is H.ROYAL_FLUSH
    assert_order(evaluate, ">", "9♥ 2♣ 5♥ 6♥ 7♥ 8♥ K♣", "A♥ K♥ 5♥ 6♥ 7♥ 8♠ K♣")


# ---------------------------------------------------------------- S004: Teen Patti


def test_s004_teen_patti_ladder() -> None:
    """S004 "Xếp hạng tay bài của Teen Patti 20-20", highest first, with its examples: Bộ ba
    (A) A♠A♦A♣; Bộ ba (2-K) K♠K♥K♣; Thùng phá sảnh K♠Q♠J♠; Sảnh K♣Q♦J♥; Thùng 9♥7♥5♥; Đôi
    4♦4♥2♠; Mậu thầu Q♥9♣7♠ (also RULES.md §14.4)."""
    assert_ladder(
        teen_patti_rank,
        teen_patti_category,
        [
            ("A♠ A♦ A♣", P.THREE_ACES),
            ("K♠ K♥ K♣", P.THREE_OF_A_KIND),
            ("K♠ Q♠ J♠", P.STRAIGHT_FLUSH),
            ("K♣ Q♦ J♥", P.STRAIGHT),
            ("9♥ 7♥ 5♥", P.FLUSH),
            ("4♦ 4♥ 2♠", P.PAIR),
            ("Q♥ 9♣ 7♠", P.HIGH_CARD),
        ],
    )


def test_s004_same_category_examples() -> None:
    """S004: "Ba lá K thắng ba lá Q"; "Thùng Q-J-10 thắng thùng 10-9-8" (the seed says *thùng*;
    for suited consecutive cards that is a straight flush, RULES.md §14.4); "K-K-Q thắng
    K-K-9"."""
    assert_order(teen_patti_rank, ">", "K♠ K♥ K♣", "Q♠ Q♥ Q♣")
    assert_order(teen_patti_rank, ">", "Q♦ J♦ 10♦", "10♠ 9♠ 8♠")
    assert teen_patti_category(strength(teen_patti_rank, "Q♦ J♦ 10♦")) is P.STRAIGHT_FLUSH
    assert_order(teen_patti_rank, ">", "K♠ K♥ Q♣", "K♦ K♣ 9♠")


@pytest.mark.parametrize("suited", [True, False], ids=["straight-flush", "straight"])
def test_s004_straight_order(suited: bool) -> None:
    """S004: "A-K-Q, A-2-3, K-Q-J, Q-J-10 và cứ tiếp tục như vậy xuống đến 4-3-2", for both
    Thùng phá sảnh and Sảnh (RULES.md §14.4: A-K-Q > A-2-3 > K-Q-J > ... > 4-3-2)."""
    order = ["A K Q", "A 2 3", "K Q J", "Q J 10", "J 10 9", "10 9 8", "9 8 7", "8 7 6",
             "7 6 5", "6 5 4", "5 4 3", "4 3 2"]  # fmt: skip
    suits = "♠♠♠" if suited else "♠♥♦"
    hands = [" ".join(r + s for r, s in zip(ranks.split(), suits, strict=True)) for ranks in order]
    strengths = [strength(teen_patti_rank, hand) for hand in hands]
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == 12
    expected = P.STRAIGHT_FLUSH if suited else P.STRAIGHT
    assert {teen_patti_category(s) for s in strengths} == {expected}


def test_s004_flush_pair_and_high_card_comparisons() -> None:
    """S004: flushes "so sánh lá bài cao nhất ... lá bài cao thứ hai"; pairs: "Đôi có giá trị
    cao hơn thắng ... lá bài còn lại"; high card: "lá bài cao thứ hai ... cho đến khi có thể
    xác định"; straights need "ít nhất hai chất"."""
    assert_order(teen_patti_rank, ">", "A♥ 7♥ 5♥", "K♣ Q♣ 10♣")
    assert_order(teen_patti_rank, ">", "9♥ 8♥ 5♥", "9♣ 7♣ 5♣")
    assert_order(teen_patti_rank, ">", "9♥ 7♥ 6♥", "9♣ 7♣ 5♣")
    assert_order(teen_patti_rank, ">", "5♦ 5♥ 2♠", "4♦ 4♥ A♠")
    assert_order(teen_patti_rank, ">", "4♦ 4♥ 3♠", "4♣ 4♠ 2♠")
    assert_order(teen_patti_rank, ">", "Q♥ 9♣ 8♠", "Q♦ 9♦ 7♠")
    assert_order(teen_patti_rank, ">", "Q♥ 9♣ 7♠", "J♥ 10♣ 8♠")
    assert teen_patti_category(strength(teen_patti_rank, "K♣ Q♣ J♥")) is P.STRAIGHT


def test_s004_suits_never_decide_and_equal_ranks_tie() -> None:
    """S004: "Chất của các lá bài không được sử dụng để xác định tay bài chiến thắng" and the
    tie "hạng của ba lá bài thuộc một tay bài trùng với ba lá bài thuộc tay bài còn lại";
    A-TT1: a flush against unsuited cards of the same ranks is not a tie."""
    assert_order(teen_patti_rank, "=", "K♠ 9♥ 4♦", "K♣ 9♦ 4♠")
    assert_order(teen_patti_rank, "=", "K♠ 9♠ 4♠", "K♥ 9♥ 4♥")
    assert_order(teen_patti_rank, "=", "7♠ 7♥ 2♦", "7♣ 7♦ 2♠")
    assert_order(teen_patti_rank, ">", "K♠ 9♠ 4♠", "K♣ 9♦ 4♠")


def test_s004_six_card_bonus_ladder() -> None:
    """S004 "Xếp hạng tay bài dành cho 'Thưởng 6 lá bài'", highest first, with its examples:
    A♠K♠Q♠J♠10♠; K♠Q♠J♠10♠9♠; K♠K♥K♣K♦A♦; K♠K♥K♣Q♥Q♣; 9♥8♥5♥3♥2♥; 6♠5♥4♣3♦2♠;
    K♠K♥K♣7♥5♦ (RULES.md §14.5: on the best 5 of the 6 cards dealt)."""
    assert_ladder(
        evaluate,
        category_of,
        [
            ("A♠ K♠ Q♠ J♠ 10♠", H.ROYAL_FLUSH),
            ("K♠ Q♠ J♠ 10♠ 9♠", H.STRAIGHT_FLUSH),
            ("K♠ K♥ K♣ K♦ A♦", H.FOUR_OF_A_KIND),
            ("K♠ K♥ K♣ Q♥ Q♣", H.FULL_HOUSE),
            ("9♥ 8♥ 5♥ 3♥ 2♥", H.FLUSH),
            ("6♠ 5♥ 4♣ 3♦ 2♠", H.STRAIGHT),
            ("K♠ K♥ K♣ 7♥ 5♦", H.THREE_OF_A_KIND),
        ],
    )
    # the six cards dealt A1 B1 A2 B2 A3 B3 (§14.3): A♠ J♠ K♠ 10♠ Q♠ 2♦ make a royal flush
    assert category_of(strength(evaluate, "A♠ J♠ K♠ 10♠ Q♠ 2♦")) is H.ROYAL_FLUSH


# ---------------------------------------------------------------- RULES.md


def test_rules_3_1_suits_never_break_a_tie() -> None:
    """RULES.md §3.1: "Suits never break a tie. Hands that are equal on every point tie."."""
    assert_order(evaluate, "=", "A♠ K♠ Q♦ J♣ 9♥", "A♥ K♦ Q♣ J♠ 9♦")
    assert_order(evaluate, "=", "2♠ 3♠ 4♠ 5♠ 6♠", "2♥ 3♥ 4♥ 5♥ 6♥")
    assert_order(evaluate, "=", "A♠ A♦ 7♣ 7♥ 2♦ 3♣ 4♣", "A♥ A♣ 7♦ 7♠ 2♣ 3♦ 4♦")


def test_rules_3_1_one_pair_and_three_of_a_kind_kickers() -> None:
    """RULES.md §3.1: "one pair: the pair, then the three kickers in order"; "three of a kind:
    rank of the three, then the kickers"; "straight and straight flush: the top card (5 for
    A-2-3-4-5)"."""
    assert_order(evaluate, ">", "8♣ 8♦ A♥ K♠ 3♣", "8♥ 8♠ A♦ Q♠ J♣")
    assert_order(evaluate, ">", "8♣ 8♦ A♥ K♠ 4♣", "8♥ 8♠ A♦ K♦ 3♣")
    assert_order(evaluate, ">", "9♣ 8♦ 8♥ 2♠ 3♣", "7♥ 7♠ A♦ K♦ Q♣")
    assert_order(evaluate, ">", "Q♣ Q♦ Q♥ 5♠ 3♣", "Q♣ Q♦ Q♠ 5♦ 2♣")
    assert_order(evaluate, ">", "2♣ 3♦ 4♥ 5♠ 6♣", "A♣ 2♦ 3♥ 4♠ 5♣")
    assert_order(evaluate, "=", "A♣ 2♦ 3♥ 4♠ 5♣", "A♦ 2♥ 3♠ 4♣ 5♦")
