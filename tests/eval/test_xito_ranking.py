"""Xì tố hand ranking: every ranking example of seed 001 (section "Xì tố") and the flags of
RULES.md §6.5-6.6 and §15 (A-XT6 to A-XT10)."""

from __future__ import annotations

from itertools import combinations

import pytest

from sanh.cards import DECK_28, parse_cards
from sanh.eval.xito import (
    XiToCategory,
    XiToRules,
    pair_lead_key,
    upcard_key,
    xito_category,
    xito_key,
)

Cat = XiToCategory


def beats(first: str, second: str, rules: XiToRules | None = None) -> bool:
    rules = rules or XiToRules()
    return xito_key(parse_cards(first), rules) > xito_key(parse_cards(second), rules)


def test_s001_straight_flush_lower_wins() -> None:
    """S001 Xì tố §3: 'Nếu 2 tẩy bài (trở lên) có Thùng phá sảnh thì tẩy bài nào có giá trị
    Thùng phá sảnh nhỏ hơn sẽ thắng. Ví dụ: 9♣ 10♣ J♣ Q♣ K♣ và 8♥ 10♥ 9♥ J♥ Q♥ thì
    8♥ 10♥ 9♥ J♥ Q♥ sẽ thắng.' (A-XT6, kept literally)."""
    assert xito_category(parse_cards("9c Tc Jc Qc Kc")) is Cat.STRAIGHT_FLUSH
    assert beats("8h Th 9h Jh Qh", "9c Tc Jc Qc Kc")
    # The lower straight flush wins even against the royal one.
    assert beats("8s 9s Ts Js Qs", "Td Jd Qd Kd Ad")


def test_a_xt6_option_higher_straight_flush_wins() -> None:
    """RULES.md A-XT6: ``xito.lower_straight_flush_wins = false`` lets the higher top card win;
    equal tops go to suits."""
    rules = XiToRules(lower_straight_flush_wins=False)
    assert beats("9c Tc Jc Qc Kc", "8h Th 9h Jh Qh", rules)
    assert beats("8h 9h Th Jh Qh", "8c 9c Tc Jc Qc", rules)


def test_s001_four_of_a_kind_higher_rank_wins() -> None:
    """S001 Xì tố §3: 'K♠ K♦ K♥ K♣ 9♥ và A♠ A♣ A♦ A♥ 8♣ thì A♠ A♣ A♦ A♥ 8♣ sẽ thắng'."""
    assert xito_category(parse_cards("Ks Kd Kh Kc 9h")) is Cat.FOUR_OF_A_KIND
    assert beats("As Ac Ad Ah 8c", "Ks Kd Kh Kc 9h")


def test_s001_full_house_higher_three_wins() -> None:
    """S001 Xì tố §3: 'Cù lũ thì tẩy bài nào có giá trị của Xám chi lớn hơn sẽ thắng. Ví dụ:
    8♥ 8♦ 8♣ 10♣ 10♠ và J♦ J♠ K♥ K♦ K♠ thì J♦ J♠ K♥ K♦ K♠ sẽ thắng'."""
    assert xito_category(parse_cards("8h 8d 8c Tc Ts")) is Cat.FULL_HOUSE
    assert beats("Jd Js Kh Kd Ks", "8h 8d 8c Tc Ts")


def test_s001_flush_card_by_card() -> None:
    """S001 Xì tố §3: 'Thùng thì xét theo từng lá ... Ví dụ: 9♣ J♣ 8♣ Q♣ K♣ và 8♠ 10♠ J♠ Q♠ A♠
    thì 8♠ 10♠ J♠ Q♠ A♠ sẽ thắng vì lá A♠ lớn hơn K♣'."""
    assert xito_category(parse_cards("9c Jc 8c Qc Kc")) is Cat.FLUSH
    assert beats("8s Ts Js Qs As", "9c Jc 8c Qc Kc")
    # Second card decides when the first is equal ('xét lần lượt ... các lá thứ 3,4,5').
    assert beats("As Qs Ts 9s 8s", "Ah Jh Th 9h 8h")


def test_s001_three_of_a_kind_higher_three_wins() -> None:
    """S001 Xì tố §3: 'Q♦ Q♥ Q♣ 9♥ A♣ và 10♣ 10♠ 10♥ 9♦ Q♠ thì Q♦ Q♥ Q♣ 9♥ A♣ sẽ thắng'."""
    assert xito_category(parse_cards("Qd Qh Qc 9h Ac")) is Cat.THREE_OF_A_KIND
    assert beats("Qd Qh Qc 9h Ac", "Tc Ts Th 9d Qs")


def test_s001_two_pair_top_pair_then_second() -> None:
    """S001 Xì tố §3: 'Thú ... trường hợp 2 tẩy bài có đôi thứ 1 bằng nhau thì xét giá trị đôi
    thứ 2 lớn hơn sẽ thắng. Ví dụ: 10♣ 10♠ Q♠ Q♥ A♦ và J♦ J♠ A♥ A♣ 8♠ thì J♦ J♠ A♥ A♣ 8♠ sẽ
    thắng'. The kicker after both pairs is [CP] (RULES.md §6.5)."""
    assert xito_category(parse_cards("Tc Ts Qs Qh Ad")) is Cat.TWO_PAIR
    assert beats("Jd Js Ah Ac 8s", "Tc Ts Qs Qh Ad")
    assert beats("Ah Ac Jd Js 9s", "As Ad Jh Tc Th")  # same top pair: the second pair
    assert beats("Ah Ac Jd Js Ks", "As Ad Jh Jc 9s")  # same pairs: the kicker


def test_s001_pair_then_other_three_cards() -> None:
    """S001 Xì tố §3: 'Dzách (Đôi) ... Ví dụ: 10♠ 10♥ Q♣ 8♠ J♦ và Q♥ Q♠ 9♦ A♣ J♠ thì
    Q♥ Q♠ 9♦ A♣ J♠ sẽ thắng'."""
    assert xito_category(parse_cards("Ts Th Qc 8s Jd")) is Cat.ONE_PAIR
    assert beats("Qh Qs 9d Ac Js", "Ts Th Qc 8s Jd")
    assert beats("Qh Qs Ad Jc 9s", "Qc Qd Ac Jh 8s")  # equal pairs: the other three cards


def test_s001_high_card_card_by_card_sixth_card_typo() -> None:
    """S001 Xì tố §3: 'Mậu thầu ... Ví dụ: A♦ Q♠ 8♠ 9♦ K♣ J♥ và K♥ 8♣ 9♥ J♠ Q♣ thì
    A♦ Q♠ 8♠ 9♦ K♣ J♥ sẽ thắng'. The first hand lists a sixth card (J♥), a typo: its first
    five cards are compared (A-XT12)."""
    assert xito_category(parse_cards("Ad Qs 8s 9d Kc")) is Cat.HIGH_CARD
    assert beats("Ad Qs 8s 9d Kc", "Kh 8c 9h Js Qc")
    with pytest.raises(ValueError):
        xito_key(parse_cards("Ad Qs 8s 9d Kc Jh"))


def test_s001_category_order() -> None:
    """S001 Xì tố §2c/§3: 'Thùng phá sãnh > Tứ quý > Cù lũ > Thùng > Sảnh > Xám cô > Thú >
    Dzách > Mậu thầu' ('Thùng phá sãnh lớn nhất ... Mậu thầu là nhỏ nhất')."""
    ladder = [
        ("Th Jh Qh Kh Ah", Cat.STRAIGHT_FLUSH),
        ("8c 8d 8h 8s Ac", Cat.FOUR_OF_A_KIND),
        ("9c 9d 9h 8s 8c", Cat.FULL_HOUSE),
        ("8d 9d Td Jd Ad", Cat.FLUSH),
        ("Tc Jd Qh Ks As", Cat.STRAIGHT),
        ("Ac Ad Ah Ks Qc", Cat.THREE_OF_A_KIND),
        ("Ac Ad Kh Ks Qc", Cat.TWO_PAIR),
        ("Ac Ad Kh Qs Jc", Cat.ONE_PAIR),
        ("Ac Kd Qh Js 9c", Cat.HIGH_CARD),
    ]
    keys = [xito_key(parse_cards(text)) for text, _ in ladder]
    for (text, category), _ in zip(ladder, keys, strict=True):
        assert xito_category(parse_cards(text)) is category
    assert keys == sorted(keys, reverse=True)


def test_rules_6_5_straights_on_28_cards() -> None:
    """RULES.md §6.5: the only straights are 8-9-10-J-Q < 9-10-J-Q-K < 10-J-Q-K-A (higher top
    card wins [CP]); there is no A-low straight (A-XT7)."""
    assert beats("9c Td Jh Qs Kc", "8c 9d Th Js Qc")
    assert beats("Tc Jd Qh Ks Ac", "9c Td Jh Qs Kc")
    assert xito_category(parse_cards("Ac 8d 9h Ts Jc")) is Cat.HIGH_CARD


def test_a_xt7_option_ace_low_straight() -> None:
    """RULES.md A-XT7: ``xito.ace_low_straight = true`` makes A-8-9-10-J the lowest straight
    (and, with the literal rule, the best straight flush)."""
    rules = XiToRules(ace_low_straight=True)
    assert xito_category(parse_cards("Ac 8d 9h Ts Jc"), rules) is Cat.STRAIGHT
    assert beats("8c 9d Th Js Qc", "Ac 8d 9h Ts Jc", rules)
    assert beats("Ac 8d 9h Ts Jc", "Ac Ad Ah Ks Qc", rules)
    assert beats("Ah 8h 9h Th Jh", "8c 9c Tc Jc Qc", rules)


def test_a_xt10_option_flush_beats_full_house() -> None:
    """RULES.md A-XT10: the literal order puts Cù lũ above Thùng; the option swaps them."""
    flush, full = "8d 9d Td Jd Ad", "9c 9d 9h 8s 8c"
    assert beats(full, flush)
    assert beats(flush, full, XiToRules(flush_beats_full_house=True))


def test_s001_v2_suits_pair_of_aces() -> None:
    """S001 Xì tố, variant 2: 'Thứ tự mạnh của các chất sẽ giảm dần từ cơ, rô, tép, bích.
    VD: 2 người cùng có Đôi A, nhưng người có con A cơ sẽ lớn hơn người con A bích.' By default
    the kickers come first, then the suit of the pair's better card (A-XT8, A-XT9)."""
    with_heart, with_spade = "Ah Ad Ks Qs 9s", "As Ac Kc Qc 9c"
    assert beats(with_heart, with_spade)
    # Kickers first: better kickers win whatever the suits.
    assert beats("As Ac Kc Qc Jc", "Ah Ad 8s 9s Ts")
    # A-XT9: the suit before the kickers.
    assert beats("Ah Ad 8s 9s Ts", "As Ac Kc Qc Jc", XiToRules(suit_before_kickers=True))


def test_a_xt8_suit_order_hearts_diamonds_clubs_spades() -> None:
    """RULES.md §6.5-6.6: hands equal on every rank are separated by suit ♥ > ♦ > ♣ > ♠ on the
    highest card of the deciding group (A-XT8)."""
    assert beats("8d 9c Tc Jc Qd", "8s 9h Th Jh Qc")  # straight: Q♦ > Q♣
    assert beats("Ah Kc Qc Jc 9c", "Ad Kd Qd Jd 9h")  # high card: A♥ > A♦
    assert beats("8c 9c Tc Jc Kc", "8s 9s Ts Js Ks")  # flush: ♣ > ♠


def test_a_xt8_option_no_suit_tiebreak_ties() -> None:
    """RULES.md A-XT8: ``xito.suit_tiebreak = false``: hands equal on every rank tie (split)."""
    rules = XiToRules(suit_tiebreak=False)
    first, second = parse_cards("Ah Kc Qc Jc 9c"), parse_cards("Ad Kd Qd Jd 9h")
    assert xito_key(first, rules) == xito_key(second, rules)


def test_every_five_card_hand_is_strictly_ordered_with_suits() -> None:
    """With the suit tie-break (the default) hands with equal keys always share a card (the
    deciding card), so two hands of one deal never tie; the category counts of the 28-card
    deck."""
    hands = list(combinations(DECK_28, 5))
    assert len(hands) == 98_280
    groups: dict[tuple[int, ...], list[frozenset[int]]] = {}
    counts = {category: 0 for category in Cat}
    for hand in hands:
        counts[xito_category(hand)] += 1
        key = xito_key(hand)
        groups.setdefault(key, []).append(frozenset(hand))
    for group in groups.values():
        if len(group) > 1 and not frozenset.intersection(*group):
            # No card common to all: then every two hands must still overlap.
            assert all(a & b for a, b in combinations(group, 2)), "two disjoint hands tie"
    assert counts == {
        Cat.STRAIGHT_FLUSH: 12,
        Cat.FOUR_OF_A_KIND: 7 * 24,
        Cat.FULL_HOUSE: 7 * 4 * 6 * 6,
        Cat.FLUSH: 4 * 21 - 12,
        Cat.STRAIGHT: 3 * 4**5 - 12,
        Cat.THREE_OF_A_KIND: 7 * 4 * 15 * 16,
        Cat.TWO_PAIR: 21 * 36 * 20,
        Cat.ONE_PAIR: 7 * 6 * 20 * 64,
        Cat.HIGH_CARD: (21 - 3) * (4**5 - 4),
    }


def test_rules_6_4_leader_combination_order() -> None:
    """RULES.md §6.4: a pair beats no pair; pairs by rank; non-pairs by the higher then the lower
    card; then the suit of the higher card (♥ > ♦ > ♣ > ♠)."""
    c = parse_cards
    (q_h, n_d, j_s, t_h, t_s, n_c) = c("Qh 9d Js Th Ts 9c")
    assert pair_lead_key(t_h, t_s) > pair_lead_key(n_c, n_d)  # pair of 10s > pair of 9s
    assert pair_lead_key(n_c, n_d) > pair_lead_key(q_h, j_s)  # any pair > no pair
    assert pair_lead_key(q_h, n_d) > pair_lead_key(j_s, t_h)  # Q-9 > J-10
    a_h, a_s, k_d = c("Ah As Kd")
    assert pair_lead_key(a_h, k_d) > pair_lead_key(a_s, k_d)  # suit of the higher card


def test_upcard_key_standard_stud() -> None:
    """``xito.lead_rule = all_upcards`` ranks every face-up card as a partial stud hand."""
    c = parse_cards
    assert upcard_key(c("Ts Th Js")) > upcard_key(c("9c 9d Qh"))
    assert upcard_key(c("9c 9d 8h 8s")) > upcard_key(c("Ac Ad Kh Qs"))
    assert upcard_key(c("8c 8d 8h")) > upcard_key(c("Ac Ad Kh"))
    assert upcard_key(c("Ah")) > upcard_key(c("Ad"))
