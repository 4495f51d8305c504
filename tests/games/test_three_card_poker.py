"""Three Card Poker: every worked example of seeds 000 and 002 and RULES.md §13 through the engine.

Amounts: the table bet level L is 1 gold = 100 units; the seeds' "$10" / "10" is 10 gold.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sanh.cards import DECK_52, Card, parse_cards
from sanh.errors import ConfigError, IllegalActionError, NotYourTurnError
from sanh.eval import TcpCategory, tcp_category, tcp_rank
from sanh.games import find_game
from sanh.games.base import CHANCE, Action, Settlement, Shuffle, TableConfig
from sanh.games.three_card_poker import (
    Bet,
    CloseBetting,
    Fold,
    ForceFold,
    Play,
    Ready,
    TcpState,
    ThreeCardPoker,
    dealer_qualifies,
)
from sanh.notation.jsonable import to_jsonable

GAME = find_game("three-card-poker")
assert isinstance(GAME, ThreeCardPoker)
G = 100  # units per gold; also the table bet level L


def order(*groups: str) -> Shuffle:
    """A deck order starting with the given cards, the rest of the deck after them."""
    top = tuple(card for group in groups for card in parse_cards(group))
    return Shuffle(top + tuple(c for c in DECK_52 if c not in top))


def config(
    seats: int = 1,
    options: Mapping[str, str | int | bool] | None = None,
    stacks: list[int] | None = None,
) -> TableConfig:
    return TableConfig.make(seats=seats, stake=G, stacks=stacks, options=options)


def betting(
    bets: Mapping[int, Mapping[str, int]],
    *,
    seats: int = 1,
    options: Mapping[str, str | int | bool] | None = None,
    stacks: list[int] | None = None,
) -> TcpState:
    state = GAME.new_state(config(seats, options, stacks))
    for seat, spots in bets.items():
        for spot, amount in spots.items():
            state = GAME.apply(state, Bet(seat, spot, amount))
    return state


def dealt(
    bets: Mapping[int, Mapping[str, int]],
    *cards: str,
    seats: int = 1,
    options: Mapping[str, str | int | bool] | None = None,
    stacks: list[int] | None = None,
) -> TcpState:
    state = betting(bets, seats=seats, options=options, stacks=stacks)
    if state.phase == "betting":
        state = GAME.apply(state, CloseBetting(None))
    assert GAME.to_act(state) is CHANCE
    return GAME.apply(state, order(*cards))


def finish(state: TcpState, *actions: Action) -> Settlement:
    for action in actions:
        state = GAME.apply(state, action)
    assert GAME.is_terminal(state)
    settlement = GAME.settle(state)
    settlement.check()
    return settlement


def items(settlement: Settlement, seat: int = 0) -> dict[str, int]:
    return {line.item: line.amount for line in settlement.lines if line.seat == seat}


def one_round(
    player: str,
    dealer: str,
    *,
    ante: int = 0,
    pair_plus: int = 0,
    six: int = 0,
    decision: str = "play",
    options: Mapping[str, str | int | bool] | None = None,
) -> Settlement:
    """One seat, its bets, the Player hand, the dealer hand and its decision."""
    spots = {"ante": ante, "pair_plus": pair_plus, "six_card_bonus": six}
    state = dealt({0: {k: v for k, v in spots.items() if v}}, player, dealer, options=options)
    if not ante:
        assert GAME.is_terminal(state)
        return finish(state)
    action: Action
    if decision == "play":
        action = Play(0)
    elif decision == "fold":
        action = Fold(0)
    else:
        action = ForceFold(None, 0, decision)
    return finish(state, action)


# ----- the seed's worked example --------------------------------------------------------------


def test_s000_ante_bonus_example_trips_against_straight_flush() -> None:
    """S000 'Cược Thưởng Ante' example (RULES.md §13.6): "10 $ được đặt cược vào Ante và 10 $
    được đặt cược vào Tố. Với kết quả poker của Người chơi là Bộ Ba và Người chia bài là Thùng
    Phá Sảnh, Người chơi sẽ nhận được $10 * 4 = $40 cho Cược Thưởng Ante và $0 cho Ante & Tố."
    RULES.md: Ante Bonus 40, Ante and Play lost, net +40 - 20 = +20."""
    settlement = one_round("Th Ts Tc", "8h 7h 6h", ante=10 * G)
    assert items(settlement) == {"ante": -10 * G, "play": -10 * G, "ante_bonus": 40 * G}
    assert settlement.deltas == (20 * G,)
    assert settlement.house == -20 * G


def test_s002_ante_bonus_paid_even_when_losing_to_the_dealer() -> None:
    """S002 'Таблица выплат Анте Бонус': "Бонус по Анте выплачивается независимо от руки дилера,
    даже если вы проиграли сравнение с дилером" (the same example under s002)."""
    settlement = one_round("Th Ts Tc", "8h 7h 6h", ante=10 * G, options={"tcp.variant": "s002"})
    assert items(settlement) == {"ante": -10 * G, "play": -10 * G, "ante_bonus": 40 * G}


# ----- §13.4 ranking examples --------------------------------------------------------------

RANKING_EXAMPLES = [
    ("4d 3d 2d", ">", "3c 2c Ac"),
    ("Td 9d 8d", ">", "9c 8c 7c"),
    ("Tc 9d 8c", "=", "Td 9c 8d"),
    ("Ac Jc 2c", ">", "Ah Th 9h"),
    ("Ac Jc 2c", "=", "Ad Jd 2d"),
    ("Ac Ah 8d", ">", "Qs Qd 2d"),
    ("Ac Ah 8d", ">", "As Ad 2d"),
    ("Ac Ah 8d", "=", "As Ad 8c"),
    ("Ac Jh 2d", ">", "Ah Ts 9s"),
]


@pytest.mark.parametrize(("first", "relation", "second"), RANKING_EXAMPLES)
def test_ranking_examples_through_the_evaluator(first: str, relation: str, second: str) -> None:
    """S000 comparison examples, RULES.md §13.4 'Seed examples' (the first hand wins or ties)."""
    a, b = tcp_rank(parse_cards(first)), tcp_rank(parse_cards(second))
    assert (a > b) if relation == ">" else (a == b)


@pytest.mark.parametrize(("first", "relation", "second"), RANKING_EXAMPLES)
def test_ranking_examples_through_the_settlement(first: str, relation: str, second: str) -> None:
    """S000 comparison examples, RULES.md §13.4, played out: Player hand against a qualifying
    dealer hand, both ways round (win 1:1 on Ante and Play, or a push on a tie)."""
    assert dealer_qualifies(parse_cards(second)) and dealer_qualifies(parse_cards(first))
    forward = items(one_round(first, second, ante=G))
    backward = items(one_round(second, first, ante=G))
    for result in (forward, backward):
        result.pop("ante_bonus", None)  # the Ante Bonus does not depend on the dealer
    if relation == ">":
        assert forward == {"ante": G, "play": G}
        assert backward == {"ante": -G, "play": -G}
    else:
        assert forward == backward == {"ante": 0, "play": 0}


CATEGORY_EXAMPLES = [
    ("S000 Thùng Phá Sảnh Hoàng Kim: A♠, K♠, Q♠", "As Ks Qs", TcpCategory.MINI_ROYAL),
    ("S000 Thùng Phá Sảnh: 8♥, 7♥, 6♥", "8h 7h 6h", TcpCategory.STRAIGHT_FLUSH),
    ("S000 Bộ Ba: 10♠, 10♥, 10♣", "Ts Th Tc", TcpCategory.THREE_OF_A_KIND),
    ("S000 Sảnh: 8♦, 7♣, 6♥", "8d 7c 6h", TcpCategory.STRAIGHT),
    ("S000 Thùng: 10♥, 4♥, 2♥", "Th 4h 2h", TcpCategory.FLUSH),
    ("S000 Đôi: A♣, A♥, 8♦", "Ac Ah 8d", TcpCategory.PAIR),
    ("S000 Tay Bài Cao: Q♣, 10♥, 6♦", "Qc Th 6d", TcpCategory.HIGH_CARD),
    ("S000 3♣, 2♣, át♣ is a straight flush", "3c 2c Ac", TcpCategory.STRAIGHT_FLUSH),
    ("S002 Стрит-флеш: 7-8-9 червей", "7h 8h 9h", TcpCategory.STRAIGHT_FLUSH),
    ("S002 Тройка: три дамы", "Qs Qh Qc", TcpCategory.THREE_OF_A_KIND),
    ("S002 Стрит: 4 пик — 5 червей — 6 бубен", "4s 5h 6d", TcpCategory.STRAIGHT),
    ("S002 Флеш: K-9-5 треф", "Kc 9c 5c", TcpCategory.FLUSH),
    ("S002 Пара: две семерки", "7s 7d 2c", TcpCategory.PAIR),
]


@pytest.mark.parametrize(("source", "cards", "category"), CATEGORY_EXAMPLES)
def test_category_examples(source: str, cards: str, category: TcpCategory) -> None:
    """The named hands of seed 000 ('Kết quả Poker') and seed 002 (its hand list)."""
    assert tcp_category(tcp_rank(parse_cards(cards))) == category, source


def test_ace_low_straight_is_the_lowest_straight() -> None:
    """S000: "3♣, 2♣, át♣ kết quả này sẽ được tính là nhỏ hơn kết hợp 4♦, 3♦, 2♦"; RULES.md
    §13.4: A-K-Q high or 3-2-A low, the lowest; no wrap-around."""
    assert tcp_rank(parse_cards("3h 2c Ad")) < tcp_rank(parse_cards("4h 3c 2d"))
    assert tcp_rank(parse_cards("Ah Kc Qd")) > tcp_rank(parse_cards("Kh Qc Jd"))
    assert tcp_category(tcp_rank(parse_cards("Kh Ac 2d"))) == TcpCategory.HIGH_CARD


# ----- dealer qualification (§13.5) ----------------------------------------------------------

QUALIFY_EXAMPLES = [
    ("Qc Th 6d", True, "S000 Q high ('ít nhất một Q')"),
    ("Kc 4h 2d", True, "S000 a card higher than Q"),
    ("Ac 4h 2d", True, "S000 a card higher than Q"),
    ("Jc 9h 7d", False, "S002 'J или младше' does not qualify"),
    ("Jc Th 8d", False, "J high does not qualify"),
    ("2c 2h 7d", True, "S000 Đôi qualifies"),
    ("Jh 8h 4h", True, "S000 Thùng qualifies (a J-high flush)"),
    ("4c 3h 2d", True, "S000 Sảnh qualifies (4-3-2)"),
    ("3c 2h Ad", True, "the A-2-3 straight qualifies"),
    ("5s 5h 5d", True, "S000 Bộ Ba"),
    ("4s 3s 2s", True, "S000 Thùng Phá Sảnh"),
]


@pytest.mark.parametrize(("dealer", "qualifies", "source"), QUALIFY_EXAMPLES)
def test_dealer_qualification(dealer: str, qualifies: bool, source: str) -> None:
    """RULES.md §13.5: a pair or better, or Q high or better (S000 'đủ điều kiện', S002)."""
    assert dealer_qualifies(parse_cards(dealer)) is qualifies, source


def test_non_qualifying_dealer_pays_ante_and_pushes_play() -> None:
    """S000: "Cược TỐ sẽ không được thanh toán & số tiền cược vào TỐ sẽ được hoàn lại. Tất cả
    cược Ante sẽ được thanh toán"; S002: "Ставка Анте выплачивается вам 1 к 1, Ставка Bet
    возвращается вам (пуш)" — even when the Player hand is lower (RULES.md §13.6)."""
    for player in ("Ts 5h 3d", "Ac Kh 9d", "9d 8c 2h"):
        for variant in ("s000", "s002"):
            result = items(
                one_round(player, "Jc 9h 7d", ante=5 * G, options={"tcp.variant": variant})
            )
            assert result == {"ante": 5 * G, "play": 0}


def test_qualifying_dealer_lower_higher_tie() -> None:
    """RULES.md §13.6 table: win Ante 1:1 and Play 1:1; lose both; tie pushes both (S000 'Hòa',
    S002 'ничья (пуш)')."""
    assert items(one_round("Kc Kd 4h", "Qc Jh 6d", ante=3 * G)) == {"ante": 3 * G, "play": 3 * G}
    assert items(one_round("Qc Jh 6d", "Kc Kd 4h", ante=3 * G)) == {
        "ante": -3 * G,
        "play": -3 * G,
    }
    assert items(one_round("Qc Jh 6d", "Qd Js 6h", ante=3 * G)) == {"ante": 0, "play": 0}


# ----- paytables ----------------------------------------------------------------------------

HANDS = {
    TcpCategory.MINI_ROYAL: "Ad Kd Qd",
    TcpCategory.STRAIGHT_FLUSH: "9s 8s 7s",
    TcpCategory.THREE_OF_A_KIND: "5c 5d 5h",
    TcpCategory.STRAIGHT: "Jc Td 9h",
    TcpCategory.FLUSH: "Kh 9h 2h",
    TcpCategory.PAIR: "4c 4d Jh",
    TcpCategory.HIGH_CARD: "Ks 8c 4d",
}
DEALER = "2c 3d 7h"  # 7 high: never qualifies, holds none of the hands' cards above


@pytest.mark.parametrize(
    ("category", "s000", "s002"),
    [
        (TcpCategory.MINI_ROYAL, 40, 40),
        (TcpCategory.STRAIGHT_FLUSH, 40, 40),
        (TcpCategory.THREE_OF_A_KIND, 30, 30),
        (TcpCategory.STRAIGHT, 5, 6),
        (TcpCategory.FLUSH, 4, 3),
        (TcpCategory.PAIR, 1, 1),
        (TcpCategory.HIGH_CARD, -1, -1),
    ],
)
def test_pair_plus_paytables(category: TcpCategory, s000: int, s002: int) -> None:
    """Pair Plus, S000 'Cược Đôi' table 40/30/5/4/1 and S002 'Таблица выплат Пара Плюс'
    40/30/6/3/1 (RULES.md §13.6, A-TP1); paid whatever the dealer holds; alone, without Ante
    (A-TP3: S000 'mà không cần đặt cược Ante', S002 'даже если не делаете ставку Анте')."""
    for variant, multiple in (("s000", s000), ("s002", s002)):
        settlement = one_round(
            HANDS[category], DEALER, pair_plus=2 * G, options={"tcp.variant": variant}
        )
        assert items(settlement) == {"pair_plus": multiple * 2 * G}
    # the explicit flag overrides the variant's paytable
    flipped = one_round(
        HANDS[category], DEALER, pair_plus=G, options={"tcp.pairplus_paytable": "40-30-6-3-1"}
    )
    assert items(flipped) == {"pair_plus": s002 * G}


@pytest.mark.parametrize(
    ("category", "multiple"),
    [
        (TcpCategory.MINI_ROYAL, 5),
        (TcpCategory.STRAIGHT_FLUSH, 5),
        (TcpCategory.THREE_OF_A_KIND, 4),
        (TcpCategory.STRAIGHT, 1),
        (TcpCategory.FLUSH, 0),
        (TcpCategory.PAIR, 0),
        (TcpCategory.HIGH_CARD, 0),
    ],
)
def test_ante_bonus_paytable(category: TcpCategory, multiple: int) -> None:
    """Ante Bonus, S000 'Cược Thưởng Ante' 5/4/1 and S002 'Анте Бонус' 5/4/1, on top of the Ante
    result, whatever the dealer holds (RULES.md §13.6)."""
    for variant in ("s000", "s002"):
        for dealer in (DEALER, "As Ah Ac"):  # not qualifying; qualifying and beating most
            result = items(
                one_round(HANDS[category], dealer, ante=G, options={"tcp.variant": variant})
            )
            assert result.get("ante_bonus", 0) == multiple * G


SIX_CARD_EXAMPLES = [
    ("royal flush: S000 A♦, K♦, Q♦, J♦ và 10♦", "Ad Kd Qd", "Jd Td 2c", 1000),
    ("straight flush: S000 J♣, 10♣, 9♣, 8♣, 7♣", "Jc Tc 9c", "8c 7c 2d", 200),
    ("four of a kind: S000 A♣, A♥, A♦, A♠, J♥", "Ac Ah Ad", "As Jh 2c", 100),
    ("full house: S000 K♣, K♥, K♦, A♠, A♥", "Kc Kh Kd", "As Ah 2c", 20),
    ("flush: S000 J♥, 8♥, 6♥, 5♥, 2♥", "Jh 8h 6h", "5h 2h Kc", 15),
    ("straight: S000 9♣, 8♦, 7♣, 6♥, 5♠", "9c 8d 7c", "6h 5s Kd", 10),
    ("three of a kind: S000 10♠, 10♥, 10♣, 6♥, 3♦", "Ts Th Tc", "6h 3d Kd", 7),
    ("two pair loses", "Ts Th 6c", "6h 3d Kd", -1),
    ("A-2-3-4-5 wheel straight", "Ac 2d 3h", "4s 5c 9d", 10),
]


@pytest.mark.parametrize(("source", "player", "dealer", "multiple"), SIX_CARD_EXAMPLES)
def test_six_card_bonus_paytable(source: str, player: str, dealer: str, multiple: int) -> None:
    """6 Card Bonus, S000 'Cược Thưởng 6 Lá' 1000/200/100/20/15/10/7 on the best five of the
    Player's and the dealer's six cards, with the seed's example hands (RULES.md §13.6)."""
    result = items(one_round(player, dealer, six=G))
    assert result == {"six_card_bonus": multiple * G}, source


def test_six_card_bonus_is_not_offered_under_s002_unless_enabled() -> None:
    """A-TP5: the 6 Card Bonus is only in S000; ``tcp.six_card_bonus = true`` adds it to s002."""
    state = GAME.new_state(config(options={"tcp.variant": "s002"}))
    with pytest.raises(IllegalActionError, match="no bet spot"):
        GAME.apply(state, Bet(0, "six_card_bonus", G))
    result = one_round(
        "Ac Ah Ad", "As Jh 2c", six=G, options={"tcp.variant": "s002", "tcp.six_card_bonus": True}
    )
    assert items(result) == {"six_card_bonus": 100 * G}


# ----- folds --------------------------------------------------------------------------------


def test_voluntary_fold_s000_keeps_side_bets() -> None:
    """S000: "người chơi có thể chọn BỎ BÀI cược Ante và vẫn đủ điều kiện nhận bất kỳ khoản
    thanh toán nào ở Cược Đôi / Cược Thưởng 6 Lá"; a voluntary fold gets no Ante Bonus
    ("người chơi không bỏ bài"). RULES.md §13.3, A-TP2."""
    result = items(one_round("Jc Td 9h", "8c 7c 2d", ante=G, pair_plus=G, six=G, decision="fold"))
    assert result == {"ante": -G, "pair_plus": 5 * G, "six_card_bonus": 10 * G}


def test_voluntary_fold_s002_forfeits_pair_plus() -> None:
    """S002: "Скинуть карты (Fold) ... вы теряете свою ставку Анте и ставку Пара Плюс"
    (``tcp.fold_forfeits_pairplus``, A-TP2)."""
    result = items(
        one_round(
            "Jc Td 9h",
            DEALER,
            ante=G,
            pair_plus=G,
            decision="fold",
            options={"tcp.variant": "s002"},
        )
    )
    assert result == {"ante": -G, "pair_plus": -G}
    kept = one_round(
        "Jc Td 9h",
        DEALER,
        ante=G,
        pair_plus=G,
        decision="fold",
        options={"tcp.variant": "s002", "tcp.fold_forfeits_pairplus": False},
    )
    assert items(kept) == {"ante": -G, "pair_plus": 6 * G}


@pytest.mark.parametrize("variant", ["s000", "s002"])
def test_a_disconnection_keeps_ante_bonus_and_side_bets(variant: str) -> None:
    """S000 'Mất kết nối': "hành động đang chờ xử lý đối với cược Ante sẽ tự động được mặc định
    là bỏ bài. Tuy nhiên, các khoản thanh toán thắng cho Cược Đôi, Cược Thưởng 6 Lá và Cược
    Thưởng Ante sẽ được thực hiện như bình thường"; RULES.md §13.7. Whatever the options."""
    for keep in (False, True):
        options = {"tcp.variant": variant, "tcp.ante_bonus_on_forced_fold": keep}
        result = one_round(
            "5c 5d 5h", "As Ah Ac", ante=G, pair_plus=G, decision="disconnect", options=options
        )
        assert items(result) == {"ante": -G, "ante_bonus": 4 * G, "pair_plus": 30 * G}


@pytest.mark.parametrize("reason", ["timeout", "leave"])
def test_s000_other_forced_folds_lose_the_ante_bonus(reason: str) -> None:
    """S000: the Ante Bonus needs "cược Ante được thực hiện & người chơi không bỏ bài"; only a
    disconnection is excepted ("Tuy nhiên..."). So by default at s000 a timeout or leaving folds
    without the Ante Bonus (side bets settle as normal); RULES.md §13.7's [DEF] reading (A-TP7)
    is ``tcp.ante_bonus_on_forced_fold = true``, the s002 default."""
    seed = one_round("5c 5d 5h", "As Ah Ac", ante=G, pair_plus=G, decision=reason)
    assert items(seed) == {"ante": -G, "pair_plus": 30 * G}
    for options in ({"tcp.ante_bonus_on_forced_fold": True}, {"tcp.variant": "s002"}):
        kept = one_round(
            "5c 5d 5h", "As Ah Ac", ante=G, pair_plus=G, decision=reason, options=options
        )
        assert items(kept) == {"ante": -G, "ante_bonus": 4 * G, "pair_plus": 30 * G}


def test_forced_fold_without_ante_bonus_when_flag_off() -> None:
    """A-TP7 alternative at s002: ``tcp.ante_bonus_on_forced_fold = false``."""
    result = one_round(
        "5c 5d 5h",
        DEALER,
        ante=G,
        decision="timeout",
        options={"tcp.variant": "s002", "tcp.ante_bonus_on_forced_fold": False},
    )
    assert items(result) == {"ante": -G}


def test_too_little_balance_for_play_is_a_fold() -> None:
    """S000: "nếu không đủ số dư cho cược TỐ, hành động sẽ được đặt mặc định là BỎ BÀI"
    (RULES.md §13.3, §2.6): a Fold, so no Ante Bonus ("người chơi không bỏ bài") by default
    (``tcp.no_balance_is_fold``); with it off (the s002 default, RULES.md §13.7 [DEF]) it is a
    forced fold under ``tcp.ante_bonus_on_forced_fold``."""
    state = dealt({0: {"ante": 3 * G, "pair_plus": G}}, "Jc Td 9h", DEALER, stacks=[5 * G])
    assert GAME.is_terminal(state)
    assert state.decisions == ("no_balance",)
    assert items(finish(state)) == {"ante": -3 * G, "pair_plus": 5 * G}
    forced = {"tcp.no_balance_is_fold": False, "tcp.ante_bonus_on_forced_fold": True}
    state = dealt(
        {0: {"ante": 3 * G, "pair_plus": G}}, "Jc Td 9h", DEALER, stacks=[5 * G], options=forced
    )
    assert items(finish(state)) == {"ante": -3 * G, "ante_bonus": 3 * G, "pair_plus": 5 * G}
    state = dealt(
        {0: {"ante": 3 * G, "pair_plus": G}},
        "Jc Td 9h",
        DEALER,
        stacks=[5 * G],
        options={"tcp.variant": "s002", "tcp.shared_player_hand": True},
    )
    assert items(finish(state)) == {"ante": -3 * G, "ante_bonus": 3 * G, "pair_plus": 6 * G}
    # one unit more and Play is possible
    state = dealt({0: {"ante": 3 * G, "pair_plus": G}}, "Jc Td 9h", DEALER, stacks=[7 * G])
    assert GAME.to_act(state) == (0,)
    assert Play(0) in GAME.legal_actions(state)


def test_an_unfunded_play_is_the_seeds_fold() -> None:
    """The server tells the engine when it cannot hold a Play (the wallet went to another
    table since the deal): :meth:`unfunded_action` is the ``no_balance`` forced fold, settled
    as S000's *Bỏ bài* by default; nothing else is changed into a fold."""
    state = dealt({0: {"ante": G, "pair_plus": G}}, "Jc Td 9h", DEALER)
    assert GAME.unfunded_action(state, 0, Fold(0)) is None
    action = GAME.unfunded_action(state, 0, Play(0))
    assert action == ForceFold(None, 0, "no_balance")
    assert items(finish(state, action)) == {"ante": -G, "pair_plus": 5 * G}
    betting_state = betting({0: {"ante": G}})
    assert GAME.unfunded_action(betting_state, 0, Play(0)) is None


def test_a_voluntary_fold_with_no_balance_reading_forfeits_pair_plus_at_s002() -> None:
    """``tcp.no_balance_is_fold`` makes the unfunded Play a Fold in every way: with
    ``tcp.fold_forfeits_pairplus`` (s002) it loses Pair Plus too."""
    options = {"tcp.variant": "s002", "tcp.no_balance_is_fold": True}
    state = dealt({0: {"ante": G, "pair_plus": G}}, "Jc Td 9h Ks 7d 2c", options=options)
    action = GAME.unfunded_action(state, 0, Play(0))
    assert action is not None
    assert items(finish(state, action)) == {"ante": -G, "pair_plus": -G}


def test_side_bets_only_are_not_asked_to_play() -> None:
    """S000: "trong trường hợp này sẽ không được nhắc thực hiện hành động Chơi / Bỏ bài"."""
    state = dealt({0: {"pair_plus": G}, 1: {"ante": G}}, "4c 4d Jh", DEALER, seats=2)
    assert GAME.to_act(state) == (1,)
    settlement = finish(state, Play(1))
    assert items(settlement, 0) == {"pair_plus": G}


# ----- many players -------------------------------------------------------------------------


def test_shared_player_hand_with_separate_decisions() -> None:
    """S000: "chỉ có một vị trí đặt cược ... mỗi người chơi có thể đưa ra lựa chọn riêng để BỎ
    BÀI hoặc TỐ" (one shared Player hand, A-TP4)."""
    state = dealt(
        {0: {"ante": G}, 1: {"ante": 2 * G}, 2: {"ante": G}}, "Kc Kd 4h", "Qc Jh 6d", seats=3
    )
    assert GAME.to_act(state) == (0, 1, 2)
    settlement = finish(state, Fold(1), Play(0), ForceFold(None, 2, "timeout"))
    assert settlement.deltas == (2 * G, -2 * G, -G)
    assert settlement.house == G
    assert all(state.hand_of(s) == parse_cards("Kc Kd 4h") for s in range(3))


def test_s002_own_hands_dealt_in_seat_order() -> None:
    """S002: "Дилер раздает каждому игроку и себе по три карты" (a hand per player, A-TP4):
    seats that bet get three cards each in seat order, then the dealer."""
    state = dealt(
        {0: {"ante": G}, 2: {"ante": G}},
        "Kc Kd 4h",
        "Qc Jh 6d",
        "9c 8d 2s",
        seats=3,
        options={"tcp.variant": "s002"},
    )
    assert state.hand_of(0) == parse_cards("Kc Kd 4h")
    assert state.hand_of(1) == ()
    assert state.hand_of(2) == parse_cards("Qc Jh 6d")
    assert state.dealer_hand == parse_cards("9c 8d 2s")
    settlement = finish(state, Play(0), Play(2))
    assert settlement.deltas == (G, 0, G)  # dealer 9 high does not qualify


# ----- bad input ----------------------------------------------------------------------------


def assert_refused(state: TcpState, action: Action, match: str) -> None:
    snapshot = repr(state)
    with pytest.raises(IllegalActionError, match=match):
        GAME.apply(state, action)
    assert repr(state) == snapshot


def test_bet_limits_and_balance() -> None:
    """Issue 2 'Bad input': a bet under the table minimum, over the maximum or over the balance
    raises IllegalActionError and changes nothing (limits: L .. 100 L by default)."""
    state = GAME.new_state(config(stacks=[150 * G]))
    assert_refused(state, Bet(0, "ante", G - 1), "under the table minimum")
    assert_refused(state, Bet(0, "ante", 100 * G + 1), "over the table maximum")
    state = GAME.apply(state, Bet(0, "ante", 100 * G))
    assert_refused(state, Bet(0, "ante", G), "already placed")
    assert_refused(state, Bet(0, "pair_plus", 50 * G + 1), "over the balance")
    state = GAME.apply(state, Bet(0, "pair_plus", 50 * G))
    assert GAME.to_act(state) is CHANCE  # nothing left to bet: the window closed by itself
    assert_refused(state, Bet(0, "six_card_bonus", G), "waiting for the deal")


def test_bet_limit_options() -> None:
    """The table limits are options, in multiples of L [DEF]."""
    state = GAME.new_state(config(options={"tcp.bet_min_multiple": 5, "tcp.bet_max_multiple": 10}))
    assert_refused(state, Bet(0, "ante", 4 * G), "minimum")
    assert_refused(state, Bet(0, "ante", 11 * G), "maximum")
    GAME.apply(state, Bet(0, "ante", 5 * G))
    with pytest.raises(ConfigError):
        GAME.new_state(config(options={"tcp.bet_min_multiple": 5, "tcp.bet_max_multiple": 4}))


def test_malformed_bets() -> None:
    """Unknown spots, non-integer amounts and bets by the table are refused."""
    state = GAME.new_state(config())
    assert_refused(state, Bet(0, "tie", G), "no bet spot")
    assert_refused(state, Bet(0, "ante", True), "integer")
    assert_refused(state, Bet(None, "ante", G), "the table does not bet")
    assert_refused(state, Play(0), "no Play/Fold decision")
    assert_refused(state, CloseBetting(0), "only the table")


def test_bet_after_the_window() -> None:
    """Issue 2 'Bad input': a bet after the betting window raises and changes nothing."""
    state = betting({0: {"ante": G}}, seats=2)
    closed = GAME.apply(state, CloseBetting(None))
    assert_refused(closed, Bet(0, "pair_plus", G), "waiting for the deal")
    dealt_state = GAME.apply(closed, order("Kc Kd 4h", DEALER))
    assert_refused(dealt_state, Bet(0, "pair_plus", G), "betting window is closed")
    with pytest.raises(NotYourTurnError):
        GAME.apply(dealt_state, Bet(1, "ante", G))
    assert_refused(dealt_state, CloseBetting(None), "betting window is closed")


def test_decision_errors() -> None:
    """Out-of-turn and repeated decisions, and bad forced folds, are refused."""
    state = dealt({0: {"ante": G}, 1: {"pair_plus": G}}, "Kc Kd 4h", DEALER, seats=2)
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, Play(1))
    assert_refused(state, ForceFold(0, 0, "timeout"), "only the table")
    assert_refused(state, ForceFold(None, 1, "timeout"), "no pending decision")
    assert_refused(state, ForceFold(None, 0, "bored"), "reason")
    assert_refused(state, order("Kc Kd 4h"), "no deal")
    done = GAME.apply(state, Play(0))
    assert_refused(done, Fold(0), "the hand is over")


def test_ready_seats_close_the_window() -> None:
    """A seat that says Ready is not asked again; when no seat is left to act the window closes
    by itself (the table's clock need not run out)."""
    state = betting({0: {"ante": G}}, seats=2)
    assert Ready(0) in GAME.legal_actions(state) and Ready(1) in GAME.legal_actions(state)
    state = GAME.apply(state, Ready(0))
    assert GAME.to_act(state) == (1,)
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, Bet(0, "pair_plus", G))
    assert_refused(state, Ready(None), "only a seat")
    state = GAME.apply(state, Ready(1))
    assert GAME.to_act(state) is CHANCE
    nobody = GAME.apply(GAME.new_state(config(seats=1)), Ready(0))
    assert GAME.is_terminal(nobody) and GAME.settle(nobody).deltas == (0,)


def test_close_with_no_bets_ends_the_round() -> None:
    """A window closed with no bet: nothing is dealt and nobody pays (RULES.md §2.8)."""
    state = GAME.apply(GAME.new_state(config(seats=3)), CloseBetting(None))
    assert GAME.is_terminal(state)
    settlement = GAME.settle(state)
    assert settlement.deltas == (0, 0, 0) and settlement.house == 0 and not settlement.lines


def test_options_and_variants() -> None:
    """RULES.md §13.8: ``tcp.variant = s002`` sets its four flags together; explicit flags win."""
    s002 = GAME.new_state(config(options={"tcp.variant": "s002"})).rules
    assert (s002.shared_player_hand, s002.fold_forfeits_pairplus) == (False, True)
    assert (s002.pairplus_paytable, s002.six_card_bonus) == ("40-30-6-3-1", False)
    assert s002.ante_bonus_on_forced_fold
    mixed = GAME.new_state(
        config(options={"tcp.variant": "s002", "tcp.shared_player_hand": True})
    ).rules
    assert mixed.shared_player_hand and mixed.fold_forfeits_pairplus
    s000 = GAME.new_state(config()).rules
    assert (s000.shared_player_hand, s000.fold_forfeits_pairplus) == (True, False)
    assert (s000.pairplus_paytable, s000.six_card_bonus) == ("40-30-5-4-1", True)
    with pytest.raises(ConfigError):
        GAME.new_state(config(options={"tcp.variant": "s001"}))
    with pytest.raises(ConfigError):
        GAME.new_state(config(options={"tcp.pairplus_paytable": "40-30-6-4-1"}))
    assert find_game("tcp") is GAME and find_game("Poker 3 La") is GAME


def test_default_actions() -> None:
    """The betting deadline closes the window; a pending decision becomes a forced Fold
    (RULES.md §2.7, §13.3: "a timeout means Fold")."""
    state = betting({0: {"ante": G}}, seats=2)
    assert GAME.default_action(state, None, "timeout") == CloseBetting(None)
    assert GAME.default_action(state, 0, "disconnect") is None
    state = GAME.apply(GAME.apply(state, CloseBetting(None)), order("Kc Kd 4h", DEALER))
    assert GAME.default_action(state, 0, "disconnect") == ForceFold(None, 0, "disconnect")
    assert GAME.default_action(state, None, "timeout") == ForceFold(None, 0, "timeout")
    assert GAME.default_action(state, 1, "timeout") is None


# ----- views --------------------------------------------------------------------------------


def cards_in(value: object) -> set[str]:
    text = json.dumps(to_jsonable(value))
    return {str(c) for c in DECK_52 if f'"{c}"' in text}


def test_dealer_cards_hidden_until_the_result() -> None:
    """RULES.md §13.1: the dealer's cards stay face down until the result; the shared Player
    hand is shown once betting closes (S000: "các là bài Người chơi sẽ được quét và hiển thị")."""
    state = dealt({0: {"ante": G}, 1: {"ante": G}}, "Kc Kd 4h", "Qc Jh 6d", seats=2)
    for viewer in (None, 0, 1):
        view = GAME.observe(state, viewer)
        assert cards_in(view) == {"Kc", "Kd", "4h"}
        assert view.dealer_hand == (None, None, None)
    state = GAME.apply(GAME.apply(state, Play(0)), Fold(1))
    for viewer in (None, 0, 1):
        assert cards_in(GAME.observe(state, viewer)) == {"Kc", "Kd", "4h", "Qc", "Jh", "6d"}


def test_s002_own_hands_are_private() -> None:
    """S002 hands per player: each seat sees only its own hand until the result; then the hands
    not folded are shown (RULES.md §2.10: folded hands are never sent to anyone else)."""
    state = dealt(
        {0: {"ante": G}, 1: {"ante": G}, 2: {"pair_plus": G}},
        "Kc Kd 4h",
        "Qc Jh 6d",
        "9c 9d 2s",
        "Ac 8d 3s",
        seats=3,
        options={"tcp.variant": "s002"},
    )
    mine = {0: {"Kc", "Kd", "4h"}, 1: {"Qc", "Jh", "6d"}, 2: {"9c", "9d", "2s"}}
    assert cards_in(GAME.observe(state, None)) == set()
    for seat, cards in mine.items():
        assert cards_in(GAME.observe(state, seat)) == cards
    state = GAME.apply(state, Fold(1))
    assert GAME.observe(state, 0).decisions == ("pending", "decided", "")
    state = GAME.apply(state, Play(0))
    dealer = {"Ac", "8d", "3s"}
    public = mine[0] | mine[2] | dealer
    assert cards_in(GAME.observe(state, None)) == public
    assert cards_in(GAME.observe(state, 0)) == public
    assert cards_in(GAME.observe(state, 1)) == public | mine[1]


def test_render_text() -> None:
    """The terminal table shows the dealer, the Player hand, bets, decisions and results."""
    state = dealt({0: {"ante": 10 * G, "pair_plus": 5 * G}}, "Th Ts Tc", "8h 7h 6h")
    text = GAME.render_text(GAME.observe(state, 0))
    assert "?? ?? ??" in text and "10♠ 10♥ 10♣" in text and "You may: play; fold" in text
    assert "three of a kind" in text
    state = GAME.apply(state, Play(0))
    text = GAME.render_text(GAME.observe(state, 0))
    assert "8♥ 7♥ 6♥" in text and "straight flush, qualifies" in text
    assert "ante_bonus" in text and "+40.00" in text and "+170.00" in text


# ----- properties ---------------------------------------------------------------------------

SPOT_AMOUNTS = st.sampled_from([0, G, 3 * G, 40 * G])


@settings(max_examples=60, deadline=None)
@given(
    deck=st.permutations(list(range(52))),
    variant=st.sampled_from(["s000", "s002"]),
    bets=st.lists(st.tuples(SPOT_AMOUNTS, SPOT_AMOUNTS, SPOT_AMOUNTS), min_size=3, max_size=3),
    stacks=st.lists(st.sampled_from([2 * G, 50 * G, 200 * G]), min_size=3, max_size=3),
    choices=st.lists(st.sampled_from(["play", "fold", "timeout"]), min_size=3, max_size=3),
)
def test_settlement_balances_and_caps_losses(
    deck: list[int],
    variant: str,
    bets: list[tuple[int, int, int]],
    stacks: list[int],
    choices: list[str],
) -> None:
    """Every round balances to zero and no seat loses more than it could stake."""
    state = GAME.new_state(config(3, {"tcp.variant": variant, "tcp.six_card_bonus": True}, stacks))
    for seat, amounts in enumerate(bets):
        for spot, amount in zip(("ante", "pair_plus", "six_card_bonus"), amounts, strict=True):
            if amount and GAME.is_legal(state, Bet(seat, spot, amount)):
                state = GAME.apply(state, Bet(seat, spot, amount))
    if state.phase == "betting":
        state = GAME.apply(state, CloseBetting(None))
    if not GAME.is_terminal(state):
        state = GAME.apply(state, Shuffle(tuple(Card(c) for c in deck)))
    for seat, choice in enumerate(choices):
        if seat in (GAME.to_act(state) or ()):
            action = {"play": Play(seat), "fold": Fold(seat)}.get(choice) or ForceFold(
                None, seat, "timeout"
            )
            if GAME.is_legal(state, action):
                state = GAME.apply(state, action)
            else:
                state = GAME.apply(state, Fold(seat))
    settlement = GAME.settle(state)
    settlement.check()
    for seat in range(3):
        assert settlement.deltas[seat] >= -state.committed(seat) >= -stacks[seat]


@settings(max_examples=40, deadline=None)
@given(deck=st.permutations(list(range(52))), shuffle=st.randoms(use_true_random=False))
def test_view_ignores_cards_hidden_from_the_viewer(deck: list[int], shuffle: object) -> None:
    """S002 before the result: seat 0's view is the same whatever the other hands and the
    dealer's cards are (cards 3..11 of the deck are hidden from seat 0)."""
    bets = {0: {"ante": G}, 1: {"ante": G}}
    options = {"tcp.variant": "s002"}
    base = GAME.apply(betting(bets, seats=2, options=options), CloseBetting(None))
    hidden = deck[3:]
    shuffle.shuffle(hidden)  # type: ignore[attr-defined]
    views = []
    for order_ in (deck, deck[:3] + hidden):
        state = GAME.apply(base, Shuffle(tuple(Card(c) for c in order_)))
        views.append(GAME.observe(state, 0))
    assert views[0] == views[1]
