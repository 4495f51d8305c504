"""Liêng ranking: every ranking example of seed 001 (section "Chơi Liêng") and the worked examples
and flags of RULES.md §8.3 and §15 (A-LI1, A-LI2, A-LI3, A-LI6)."""

from __future__ import annotations

from itertools import combinations

from sanh.cards import DECK_52, parse_cards
from sanh.eval.lieng import (
    LiengCategory,
    LiengRules,
    lieng_category,
    lieng_key,
    lieng_points,
    top_card,
)

Cat = LiengCategory


def beats(first: str, second: str, rules: LiengRules | None = None) -> bool:
    rules = rules or LiengRules()
    return lieng_key(parse_cards(first), rules) > lieng_key(parse_cards(second), rules)


def test_s001_sap_a_is_highest() -> None:
    """S001 Liêng: 'Sáp: là ba lá bài giống nhau. Sáp A là lớn nhất ... Nếu hai game thủ cùng có
    sáp thì người nào có sáp cao hơn sẽ thắng, đi từ 2, 3, 4, ..., J, Q, K, A.'"""
    assert lieng_category(parse_cards("Ac Ad Ah")) is Cat.TRIPS
    assert beats("Ac Ad Ah", "Kc Kd Ks")
    assert beats("Ac Ad Ah", "Qd Kd Ad")  # above the best suited straight (A-LI1)
    trips = ["2c 2d 2h", "3c 3d 3h", "9c 9d 9h", "Tc Td Th", "Jc Jd Jh", "Kc Kd Kh", "Ac Ad As"]
    keys = [lieng_key(parse_cards(t)) for t in trips]
    assert keys == sorted(keys)


def test_a_li1_option_suited_straight_above_trips() -> None:
    """RULES.md A-LI1: ``lieng.suited_straight_above_trips = true`` puts Liêng đồng chất above
    Sáp."""
    rules = LiengRules(suited_straight_above_trips=True)
    assert beats("2d 3d 4d", "Ac Ad Ah", rules)
    assert beats("Ac Ad Ah", "Qc Kd Ah", rules)  # still above an unsuited straight


def test_s001_lieng_highest_qka_lowest_a23() -> None:
    """S001 Liêng: 'Liêng: là 3 lá bài liên tiếp, vd: 3, 4, 5. Liêng cao nhất là Q, K, A và thấp
    nhất là A, 2, 3.' K-A-2 is not a straight (RULES.md §8.3)."""
    assert lieng_category(parse_cards("3c 4d 5h")) is Cat.STRAIGHT
    assert beats("Qc Kd As", "Jc Qd Ks")
    assert beats("2c 3d 4s", "Ac 2d 3s")
    assert lieng_category(parse_cards("Kc Ad 2h")) is Cat.POINTS
    heights = ["Ac 2d 3h", "2c 3d 4h", "9c Td Jh", "Tc Jd Qh", "Jc Qd Kh", "Qc Kd Ah"]
    keys = [lieng_key(parse_cards(t)) for t in heights]
    assert keys == sorted(keys)


def test_s001_suited_straight_diamonds_beat_clubs() -> None:
    """S001 Liêng: 'Ví dụ: 4♣ 5♣ 6♣ và 4♦ 5♦ 6♦ thì 4♦ 5♦ 6♦ sẽ thắng vì chất rô lớn hơn chất
    chuồn.'"""
    assert lieng_category(parse_cards("4d 5d 6d")) is Cat.SUITED_STRAIGHT
    assert beats("4d 5d 6d", "4c 5c 6c")


def test_s001_suited_straight_beats_straight() -> None:
    """S001 Liêng: 'Liêng đồng chất cao nhất là Q,K,A và thấp nhất là A,2,3. Liêng đồng chất sẽ
    thắng liêng không đồng chất.'"""
    assert beats("As 2s 3s", "Qd Kd Ah")
    assert beats("Qs Ks As", "Js Qs Ks")
    assert beats("2s 3s 4s", "As 2s 3s")


def test_s001_suit_order_diamonds_hearts_clubs_spades() -> None:
    """S001 Liêng: 'Thứ tự chất được tính lần lượt từ: Rô-Cơ-Tép-Bích' and 'Nước cao nhất trong
    bài liêng là Rô > Cơ > Chuồn > Bích': equal straights go to the suit (A-LI6: of the highest
    card, the 3 for A-2-3)."""
    ladder = ["4s 5c 6s", "4d 5d 6c", "4c 5s 6h", "4h 5h 6d"]  # 6♠ < 6♣ < 6♥ < 6♦
    keys = [lieng_key(parse_cards(t)) for t in ladder]
    assert keys == sorted(keys)
    assert beats("Ad 2d 3h", "As 2h 3c")  # A-2-3: the 3 decides (3♥ > 3♣)


def test_rules_8_3_straight_tie_worked_example() -> None:
    """RULES.md §8.3 worked example: '4♣5♥6♥ beats 4♦5♠6♠, since 6♥ > 6♠ [top_card: 4♦5♠6♠
    wins, its top card 4♦ beating 6♥]' (A-LI6)."""
    assert beats("4c 5h 6h", "4d 5s 6s")
    assert beats("4d 5s 6s", "4c 5h 6h", LiengRules(straight_tie="top_card"))


def test_s001_faces_beat_points() -> None:
    """S001 Liêng: 'Ảnh: Khi bài của bạn cầm 3 lá bài đều có hình người (J, Q, K) thì được gọi
    là Ảnh' and 'Khi bài của bạn không có Sáp, Liêng, Ảnh thì bắt đầu tính điểm'."""
    assert lieng_category(parse_cards("Jc Jd Qs")) is Cat.FACES
    assert beats("Jc Jd Qs", "4d 5s Kh")  # Ảnh > 9 points
    # A hand that is also a straight or a Sáp counts as the higher hand (RULES.md §8.3).
    assert lieng_category(parse_cards("Jc Qd Ks")) is Cat.STRAIGHT
    assert lieng_category(parse_cards("Kc Kd Ks")) is Cat.TRIPS


def test_rules_8_3_faces_worked_examples() -> None:
    """RULES.md §8.3 worked examples: 'K♠K♣Q♠ beats J♦J♥Q♣ on ranks [top_card: J♦J♥Q♣ wins,
    J♦ beating K♣]' (A-LI2). Equal ranks go to the top cards. (The document's other example,
    K♣Q♦J♥ against K♥Q♣J♠, is a pair of J-Q-K straights, not faces: see the next test.)"""
    assert beats("Ks Kc Qs", "Jd Jh Qc")
    assert beats("Jd Jh Qc", "Ks Kc Qs", LiengRules(face_compare="top_card"))
    assert beats("Kc Kd Qh", "Kh Ks Qd")  # equal ranks: top cards K♦ vs Q♦


def test_jqk_is_a_straight_not_faces() -> None:
    """RULES.md §8.3 gives 'K♣Q♦J♥ beats K♥Q♣J♠, its top card Q♦ beating K♥' as a faces
    example, but J-Q-K is a Liêng ('A hand that is also ... a straight counts as that higher
    hand'), so the straight tie rule applies: by default the highest-ranked card's suit (K♥ >
    K♣); with ``lieng.straight_tie = top_card`` the document's result (Q♦ > K♥)."""
    assert lieng_category(parse_cards("Kc Qd Jh")) is Cat.STRAIGHT
    assert beats("Kh Qc Js", "Kc Qd Jh")
    assert beats("Kc Qd Jh", "Kh Qc Js", LiengRules(straight_tie="top_card"))


def test_s001_points() -> None:
    """S001 Liêng: 'Bạn lấy điểm của 3 quân bài cộng lại, rồi lấy phần dư chia cho 10 ... các cây
    có số 2->10 tính theo điểm tương ứng với số. Cây A tính 1 điểm, các cây J,Q,K đều tính 0
    điểm.'"""
    assert lieng_points(parse_cards("Ad 8s Qc")) == 9
    assert lieng_points(parse_cards("4h 5h Kh")) == 9
    assert lieng_points(parse_cards("Ts 9d 5c")) == 4  # 10 counts 10 = 0 mod 10
    assert lieng_points(parse_cards("7s 8d 5c")) == 0
    assert lieng_points(parse_cards("Ac 2d 4c")) == 7
    assert beats("9s 9d Jc", "7s 8d 5c")  # 8 > 0


def test_rules_8_3_points_tie_worked_example() -> None:
    """RULES.md §8.3 worked example: 'A♦8♠Q♣ (9) beats 4♥5♥K♥ (9), its top card A♦ beating K♥'
    (A-LI3); ``lieng.points_tie = split`` makes them tie."""
    assert str(top_card(parse_cards("Ad 8s Qc"))) == "Ad"
    assert str(top_card(parse_cards("4h 5h Kh"))) == "Kh"
    assert beats("Ad 8s Qc", "4h 5h Kh")
    split = LiengRules(points_tie="split")
    assert lieng_key(parse_cards("Ad 8s Qc"), split) == lieng_key(parse_cards("4h 5h Kh"), split)


def test_rules_8_4_no_ties_by_default_and_category_counts() -> None:
    """RULES.md §8.4: 'Two hands can never tie, because of the suit tie-breaks' (defaults): over
    all 22,100 hands, hands with equal keys always share a card (their top card), so two hands
    of one deal never tie. Also the category counts of the 52-card deck."""
    hands = list(combinations(DECK_52, 3))
    counts = {category: 0 for category in Cat}
    groups: dict[tuple[int, ...], list[frozenset[int]]] = {}
    for hand in hands:
        counts[lieng_category(hand)] += 1
        key = lieng_key(hand)
        groups.setdefault(key, []).append(frozenset(hand))
    for group in groups.values():
        if len(group) > 1 and not frozenset.intersection(*group):
            # No card common to all: then every two hands must still overlap.
            assert all(a & b for a, b in combinations(group, 2)), "two disjoint hands tie"
    assert counts == {
        Cat.TRIPS: 13 * 4,
        Cat.SUITED_STRAIGHT: 12 * 4,
        Cat.STRAIGHT: 12 * 60,
        Cat.FACES: 220 - 12 - 64,
        Cat.POINTS: 22_100 - 52 - 48 - 720 - 144,
    }
