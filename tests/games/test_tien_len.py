"""Tiến lên miền Nam đếm lá: seed 001 examples and payment lines, RULES.md §12 and §16 options.

Each test cites its source: ``S001 TLMN n`` is section n of seed 001's "Tiến lên miền nam đếm
lá", ``RULES §x`` a section of RULES.md.
"""

from __future__ import annotations

from typing import Any

import pytest

from sanh.cards.card import parse_card, parse_cards
from sanh.errors import ConfigError, IllegalActionError, NotYourTurnError
from sanh.eval.combos import TIEN_LEN, Kind
from sanh.games import find_game
from sanh.games._shedding import Debt, Leave, Pass, Play
from sanh.games.base import Shuffle, TableConfig
from sanh.games.tien_len import TienLen, TienLenState
from tests.games.shedding_fixtures import (
    act,
    deal,
    deck_order,
    line_total,
    move,
    position,
    view_cards,
)

GAME: TienLen = find_game("tien-len")  # type: ignore[assignment]

P1 = "3s 3h 4c 5d 6h 7s 8c 9d Th Js Qc Kd 2h"
P2 = "4s 4h 5c 6d 7h 8s 9c Td Jh Qs Kc Ad 2c"
P3 = "3c 3d 4d 5s 6c 7c 8d 9s Tc Jc Qh Ks 2d"
P4 = "5h 6s 7d 8h 9h Ts Jd Qd Kh Ac Ah As 2s"
OPP_HD = "3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh 4d 6d"


def dealt(seats: int = 2, **kwargs: Any) -> TienLenState:
    return deal(GAME, [P1, P2, P3, P4][:seats], size=13, **kwargs)  # type: ignore[no-any-return]


def at(state: TienLenState, hands: list[str], **fields: Any) -> TienLenState:
    """A fixed position in a later game (no 3♠ rule): ``hands``, seat ``turn`` to lead."""
    n = len(hands)
    fields.setdefault("played", (5,) * n)
    fields.setdefault("turn", 0)
    return position(  # type: ignore[no-any-return]
        TIEN_LEN,
        state,
        hands=hands,
        first_game=False,
        must_include=None,
        trick=(),
        passed=(False,) * n,
        declined=(False,) * n,
        **fields,
    )


def assert_refused(state: TienLenState, text: str, match: str) -> None:
    snapshot = repr(state)
    with pytest.raises(IllegalActionError, match=match):
        GAME.apply(state, move(text))
    assert repr(state) == snapshot


# ----- S001 TLMN 1: cards, instant wins, thối, cóng ---------------------------------------------
def test_s001_rank_and_suit_order() -> None:
    """S001 TLMN 1: 'Lá bài nhỏ nhất là 3, theo thứ tự tăng dần là 4, 5 … A, 2' and 'chất Bích
    là yếu nhất. Tiếp theo là Chuồn, Rô, Cơ'; 'VD: 2 (heo) > A (xì) > K > Q > J > 10 … > 3'."""
    ranks = ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2"]
    order = [parse_card(r + s) for r in ranks for s in "scdh"]
    assert sorted(order, key=TIEN_LEN.strength) == order
    assert [TIEN_LEN.strength(c) for c in order] == list(range(52))
    state = at(dealt(), ["3c 9d", "3s 3h Kd"])
    state = act(GAME, state, "p1 3c")
    assert_refused(state, "p2 3s", "does not beat")
    assert GAME.is_legal(state, move("p2 3h"))


@pytest.mark.parametrize(
    ("hand", "name"),
    [
        ("3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2s", "dragon"),
        ("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 9d Jd Kd", "five_pair_straight"),
        ("3s 3c 5s 5c 7s 7c 9s 9c Js Jc Ks Kc Ad", "six_pairs"),
        ("2s 2c 2d 2h 3s 5c 7d 9c Js Kc Ad 4s 6s", "four_twos"),
    ],
)
def test_s001_instant_win_collects_26_from_each(hand: str, name: str) -> None:
    """S001 TLMN 1: 'Tới trắng: … nhận được từ mỗi nhà 26 cược, là người có bộ Sảnh Rồng, 5 đôi
    thông, 6 đôi thường, tứ quý 2' (RULES §12.4, A-TL1)."""
    state = deal(GAME, [hand, OPP_HD], size=13, stake=100)
    assert GAME.is_terminal(state)
    assert (state.outcome, state.instant, state.winner) == ("instant_win", name, 0)
    assert GAME.settle(state).deltas == (2600, -2600)


def test_s001_instant_win_four_players_each_pays_26() -> None:
    """S001 TLMN 1: 'nhận được từ mỗi nhà 26 cược': three losers pay 26 lá each."""
    dragon = "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2s"
    rest = ["3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh 4d 6d", "3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc 3d 5d"]
    rest.append("7d 8d 9d Td Jd Qd Kd Ad Ah Ac 2h 2c 2d")
    state = deal(GAME, [dragon, *rest], size=13, stake=1000)
    assert GAME.settle(state).deltas == (78000, -26000, -26000, -26000)


def test_s001_three_and_four_pair_straights_are_not_instant_wins() -> None:
    """S001 TLMN 1: '(không tính thối 2, 3 đôi thông, 4 đôi thông.)' (A-TL3)."""
    four_pairs = "3s 3c 4s 4c 5s 5c 6s 6c 8d Td Qd Ad 2d"
    state = deal(GAME, [four_pairs, OPP_HD], size=13)
    assert not GAME.is_terminal(state)
    assert GAME.to_act(state) == (0,)


def test_s001_multiple_instant_wins_first_game_three_of_spades_holder() -> None:
    """S001 TLMN 2: 'Nếu có nhiều trường hợp Tới Trắng ở ván đầu tiên thì người nào có 3 Bích sẽ
    được xử thắng.'"""
    six_pairs = "3h 3c 5h 5c 7h 7c 9h 9c Jh Jc Kh Kc Ad"
    dragon = "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2s"
    state = deal(GAME, [six_pairs, dragon], size=13)
    assert (state.winner, state.instant) == (1, "dragon")


def test_s001_multiple_instant_wins_later_game_first_to_play() -> None:
    """S001 TLMN 2: 'Trong các ván khác, người nào có lượt đánh trước sẽ được xử thắng': with p2
    leading, p3 (next in turn) wins over p1."""
    six_pairs = "3h 3c 5h 5c 7h 7c 9h 9c Jh Jc Kh Kc Ad"
    ordinary = "3d 4c 4h 5s 5d 6c 7s 8c 9s Td Js Qd Ks"
    four_twos = "2s 2c 2d 2h 3s 4s 6s 8s Ts Qs As 4d 6d"
    carry = {"winner": 1, "runner_up": 0}
    state = deal(GAME, [six_pairs, ordinary, four_twos], size=13, carry=carry)
    assert (state.winner, state.instant) == (2, "four_twos")


@pytest.mark.parametrize(
    ("held", "lá"),
    [
        ("9d", 1),
        ("9d Jc", 2),
        ("2s", 5),
        ("2c", 5),
        ("2d", 10),
        ("2h", 10),
        ("3s 3c 4s 4c 5s 5c", 10),
        ("7s 7c 7d 7h", 20),
        ("3s 3c 4s 4c 5s 5c 6s 6c", 30),
    ],
)
def test_s001_penalty_conversion_table(held: str, lá: int) -> None:
    """S001 TLMN 4: '[Số iCash trừ] = [Số lá bài bị phạt] x [Mức cược]' with '+ 2 (heo) đen : 5
    lần tiền cược, + 2 (heo) đỏ : 10, + Ba đôi thông : 10, + Tứ quý : 20, + Bốn đôi thông: 30'
    (thối: 'còn lại trên tay lá số 2 (heo), tứ quý hoặc đôi thông')."""
    state = at(dealt(stake=300), [held, "Kd"], turn=1)
    state = act(GAME, state, "p2 Kd")
    assert GAME.settle(state).deltas == (-lá * 300, lá * 300)


def test_s001_cong_rules_example() -> None:
    """S001 TLMN 1: 'Cóng: Là người chơi đến cuối ván vẫn không đánh ra được lá bài nào'; RULES
    §12.8: 'D has played nothing (cóng) and holds 13 cards including 2♠ … 12 × 2 + 5 = 29 lá, so
    D pays 29,000'."""
    state = at(
        dealt(4, stake=1000),
        ["2h 4s 5c", "Kd", "6s 6c 7d 7h 8s 8d 9c", "3h 3d 4h 5h 6h 8h 9h Th Jh Qh Kh Ah 2s"],
        turn=1,
        played=(10, 12, 6, 0),
    )
    state = act(GAME, state, "p2 Kd")
    settlement = GAME.settle(state)
    assert settlement.deltas == (-12000, 52000, -11000, -29000)
    assert state.paid_la == (12, 0, 11, 29)
    assert [line.item for line in settlement.lines if line.seat == 3] == ["cong"]


def test_rules_12_8_settlement_example() -> None:
    """RULES §12.8 (count mode, 4 players, L = 1,000, B goes out): 'A holds 2♥, 4, 5: 10 + 1 + 1
    = 12 lá, so A pays 12,000. C holds 6♠6♣ 7♦7♥ 8♠8♦ (3 đôi thông) and a 9: 10 + 1 = 11 lá'."""
    state = at(
        dealt(4, stake=1000),
        ["2h 4s 5c", "Kd", "6s 6c 7d 7h 8s 8d 9c", "3h 4h"],
        turn=1,
        played=(10, 12, 6, 11),
    )
    state = act(GAME, state, "p2 Kd")
    assert GAME.settle(state).deltas == (-12000, 12000 + 11000 + 2000, -11000, -2000)


# ----- S001 TLMN 2: leading, tricks, passing --------------------------------------------------
def test_s001_first_game_three_of_spades_leads() -> None:
    """S001 TLMN 2: 'Người chơi có 3 Bích được đánh trước ở ván đầu tiên' (RULES §12.3: the first
    play must include 3♠, A-TL8)."""
    state = dealt()
    assert GAME.to_act(state) == (0,) and state.first_game
    plays = GAME.legal_plays(state)
    three_spades = parse_card("3s")
    assert all(three_spades in c.cards for c in plays)
    # 3♠ alone, the pair 3♠3♥, and straights 3-4-5 … 3-…-K: 1 + 1 + 9.
    assert len(plays) == 11
    assert GAME.to_act(deal(GAME, [P2, P1], size=13)) == (1,)


def test_first_lead_without_three_of_spades_is_refused() -> None:
    """RULES §12.3 (A-TL8): leading with something other than 3♠ in the first game."""
    state = dealt()
    assert_refused(state, "p1 4c", "the first play must include 3♠")
    assert_refused(state, "p1 4c 5d 6h", "the first play must include 3♠")


def test_no_three_of_spades_dealt_lowest_card_leads() -> None:
    """RULES §12.3: 'If nobody holds 3♠, the holder of the lowest card leads, and must include
    that card' (3 ♣ here: 3♠ is not dealt with two players)."""
    state = deal(GAME, [OPP_HD, "3c 3d 4s 4c 5s 5c 7c 9s Jc Ks Ac 8s Tc"], size=13)
    assert GAME.to_act(state) == (1,)
    assert state.must_include == parse_card("3c")


def test_s001_later_game_previous_winner_leads() -> None:
    """S001 TLMN 2: 'Từ ván thứ 2 trở đi, người nào thắng ván trước sẽ được đánh trước.'"""
    state = dealt(carry={"winner": 1, "runner_up": 0})
    assert GAME.to_act(state) == (1,) and not state.first_game
    assert GAME.is_legal(state, move("p2 Kc"))


def test_s001_runner_up_leads_when_winner_left() -> None:
    """S001 TLMN 2: 'Nếu người nhất ván trước thoát khỏi bàn trước khi ván mới bắt đầu thì người
    nhì sẽ được đánh trước.'"""
    state = dealt(carry={"winner": None, "runner_up": 1})
    assert GAME.to_act(state) == (1,)
    first = dealt(carry={"winner": None, "runner_up": None})
    assert first.first_game and GAME.to_act(first) == (0,)  # RULES §12.3: then a first game


def test_s001_pass_locks_out_until_trick_ends() -> None:
    """S001 TLMN 2: 'Nếu không bắt được thì gọi là bỏ qua và người đó sẽ không được đánh cho đến
    khi kết thúc vòng.' and 'Nếu người chơi đánh mà không có ai bắt được thì một vòng chơi kết
    thúc. Người này có quyền đánh tiếp theo tùy ý.'"""
    state = at(dealt(3), ["3s 5s 9s", "4s 8s Ks", "6s 7s Qs 7c"])
    state = act(GAME, state, "p1 3s", "p2 pass", "p3 6s", "p1 9s")
    assert GAME.to_act(state) == (2,)  # p2 passed and is skipped
    state = act(GAME, state, "p3 Qs", "p1 pass")
    assert GAME.to_act(state) == (2,) and state.table is None
    assert GAME.is_legal(state, move("p3 7s 7c"))  # the leader plays anything


def test_s001_stronger_group_has_the_higher_suit_on_its_top_card() -> None:
    """S001 TLMN 2: 'Những nhóm bài có cùng số lượng lá bài và giá trị của những lá bài như nhau
    thì nhóm mạnh hơn là nhóm có lá bài cao nhất có chất mạnh hơn.'"""
    state = at(dealt(), ["7s 7d 3c 4c 5d", "7c 7h 3s 4s 5h 3h 4h 5s"])
    assert GAME.is_legal(act(GAME, state, "p1 7s 7d"), move("p2 7c 7h"))
    after_straight = act(GAME, state, "p1 3c 4c 5d")
    assert GAME.is_legal(after_straight, move("p2 3s 4s 5h"))
    assert_refused(after_straight, "p2 3h 4h 5s", "does not beat")


def test_s001_game_ends_when_a_player_plays_all_cards() -> None:
    """S001 TLMN 2: 'Ván bài kết thúc khi có một người đánh hết 13 lá bài trên tay'."""
    state = at(dealt(3), ["3s", "4s 5s", "6s 7s"])
    state = act(GAME, state, "p1 3s")
    assert GAME.is_terminal(state) and (state.outcome, state.winner) == ("out", 0)
    assert GAME.legal_actions(state) == ()


# ----- S001 TLMN 3: cuts ----------------------------------------------------------------------
def test_s001_answer_with_the_same_type_and_size() -> None:
    """S001 TLMN 3: 'Nếu người chơi đánh 1 lá bài thì người tiếp theo phải đánh 1 lá bài mạnh
    hơn. Nếu đánh 1 nhóm thì người tiếp theo phải đánh 1 nhóm mạnh hơn.' (RULES §12.2: the same
    type, the same number of cards, a higher highest card)."""
    hands = ["5s 6d 7c 8h 9s", "9c 9d 9h Ts Jd Qh Kd 3d"]
    single = act(GAME, at(dealt(), hands), "p1 5s")
    assert_refused(single, "p2 9c 9d", "does not beat")
    straight = act(GAME, at(dealt(), hands), "p1 5s 6d 7c")
    assert_refused(straight, "p2 9h Ts Jd Qh", "does not beat")
    assert_refused(straight, "p2 9c 9d 9h", "does not beat")
    assert GAME.is_legal(straight, move("p2 9h Ts Jd"))
    four_long = act(GAME, at(dealt(), hands), "p1 5s 6d 7c 8h")
    assert GAME.is_legal(four_long, move("p2 9h Ts Jd Qh"))


def test_s001_three_pair_straight_cuts() -> None:
    """S001 TLMN 3: '• Ba đôi thông chặt được: một quân 2, ba đôi thông nhỏ hơn.'"""
    cutter = "4s 4c 5s 5c 6s 6c Kd"
    state = act(GAME, at(dealt(), ["2h 2s 3d", cutter]), "p1 2h")
    assert GAME.is_legal(state, move("p2 4s 4c 5s 5c 6s 6c"))
    lower = act(GAME, at(dealt(), ["3s 3c 4d 4h 5d 5h 9d", cutter]), "p1 3s 3c 4d 4h 5d 5h")
    assert GAME.is_legal(lower, move("p2 4s 4c 5s 5c 6s 6c"))
    pair_of_twos = act(GAME, at(dealt(), ["2h 2s 3d", cutter]), "p1 2h 2s")
    assert_refused(pair_of_twos, "p2 4s 4c 5s 5c 6s 6c", "does not beat")


def test_s001_four_of_a_kind_cuts() -> None:
    """S001 TLMN 3: '• Tứ quý chặt được: một quân 2, đôi 2, ba đôi thông, tứ quý nhỏ hơn.'"""
    quad = "9s 9c 9d 9h Kd"
    for led in ("2h", "2h 2s", "3s 3c 4d 4h 5d 5h", "8s 8c 8d 8h"):
        state = act(GAME, at(dealt(), [led + " 3d", quad]), "p1 " + led)
        assert GAME.is_legal(state, move("p2 9s 9c 9d 9h")), led
    higher = act(GAME, at(dealt(), ["Ts Tc Td Th 3d", quad]), "p1 Ts Tc Td Th")
    assert_refused(higher, "p2 9s 9c 9d 9h", "does not beat")
    four_pairs = "3s 3c 4d 4h 5d 5h 6s 6c"
    state = act(GAME, at(dealt(), [four_pairs + " 9d", quad]), "p1 " + four_pairs)
    assert_refused(state, "p2 9s 9c 9d 9h", "does not beat")


def test_s001_four_pair_straight_cuts() -> None:
    """S001 TLMN 3: '• Bốn đôi thông chặc được: một quân 2, đôi 2, ba đôi thông, tứ quý, bốn đôi
    thông nhỏ hơn.'"""
    cutter = "6s 6c 7s 7c 8s 8c 9s 9c Kd"
    play = "p2 6s 6c 7s 7c 8s 8c 9s 9c"
    for led in ("2h", "2h 2s", "3s 3c 4d 4h 5d 5h", "Ts Tc Td Th", "3s 3c 4d 4h 5d 5h 6d 6h"):
        state = act(GAME, at(dealt(), [led + " Jd", cutter]), "p1 " + led)
        assert GAME.is_legal(state, move(play)), led
    higher = "7d 7h 8d 8h 9d 9h Td Th"
    state = act(GAME, at(dealt(), [higher + " Jd", cutter]), "p1 " + higher)
    assert_refused(state, play, "does not beat")


@pytest.mark.parametrize(
    ("victim", "cutter", "lá"),
    [
        ("2s", "4s 4c 5s 5c 6s 6c", 5),
        ("2h", "4s 4c 5s 5c 6s 6c", 10),
        ("2s 2h", "9s 9c 9d 9h", 15),
        ("3s 3c 4d 4h 5d 5h", "9s 9c 9d 9h", 10),
        ("3s 3c 4d 4h 5d 5h", "6s 6c 7s 7c 8s 8c", 10),
        ("Ts Tc Td Th", "Js Jc Jd Jh", 20),
        ("Ts Tc Td Th", "6s 6c 7s 7c 8s 8c 9s 9c", 20),
        ("3s 3c 4d 4h 5d 5h 6d 6h", "6s 6c 7s 7c 8s 8c 9s 9c", 30),
    ],
)
def test_s001_cut_payment_lines(victim: str, cutter: str, lá: int) -> None:
    """S001 TLMN 4: 'Trong ván, người bị chặt sẽ bị mất số lá bài tương ứng quy đổi với lá đặc
    biệt mà người đó đánh ra, người chặt được hưởng số chips tương đương' (5/10/10/20/30)."""
    state = at(dealt(stake=100), [victim + " Kd", cutter + " 3d"])
    state = act(GAME, state, "p1 " + victim, "p2 " + cutter, "p1 pass")
    assert state.debts == (Debt(0, 1, lá, "cut", state.debts[0].detail),)
    state = act(GAME, state, "p2 3d")
    settlement = GAME.settle(state)
    assert line_total(settlement, 0, ["cut"]) == -lá * 100
    assert settlement.deltas == (-(lá + 1) * 100, (lá + 1) * 100)


def test_rules_12_8_chain_cut_example() -> None:
    """RULES §12.8: 'A plays 2♥ (10), C cuts with 3 đôi thông (10), D cuts with a tứ quý. C pays
    D 20 lá; A pays nothing.' S001 TLMN 4: 'Người chặt được những lá cuối cùng sẽ được hưởng số
    chips phạt từ người bị chặt cuối cùng (chặt đè).'"""
    hands = ["2h 4s 5c", "Kd Qc", "6s 6c 7d 7h 8s 8d 9c", "Js Jc Jd Jh 3c"]
    state = at(dealt(4, stake=1000), hands)
    state = act(
        GAME, state, "p1 2h", "p2 pass", "p3 6s 6c 7d 7h 8s 8d", "p4 Js Jc Jd Jh", "p1 pass"
    )
    state = act(GAME, state, "p3 pass")
    assert [(d.payer, d.payee, d.amount) for d in state.debts] == [(2, 3, 20)]
    state = act(GAME, state, "p4 3c")
    settlement = GAME.settle(state)
    assert [line_total(settlement, s, ["cut"]) for s in range(4)] == [0, 0, -20000, 20000]


# ----- S001 TLMN 4: rank scoring ------------------------------------------------------------
RANK = {"tlmn.scoring": "rank"}


def test_s001_rank_mode_instant_win_two_bets_each() -> None:
    """S001 TLMN 4: 'Tới trắng (Thắng trắng): người nhất ăn mỗi nhà 2 lần tiền cược' (A-TL1)."""
    dragon = "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2s"
    state = deal(GAME, [dragon, OPP_HD], size=13, stake=100, options=RANK)
    assert GAME.settle(state).deltas == (200, -200)


@pytest.mark.parametrize(
    ("hands", "deltas"),
    [
        (["3s", "4s 5s"], (1, -1)),
        (["3s", "4s", "5s 6s"], (3, -1, -2)),
        (["3s", "4s", "5s", "6s 7s"], (6, -1, -2, -3)),
    ],
    ids=["2 players", "3 players", "4 players"],
)
def test_s001_rank_mode_payment_table(hands: list[str], deltas: tuple[int, ...]) -> None:
    """S001 TLMN 4: 'Ván có 2 người chơi: người nhất được 1 lần tiền cược, người bét mất 1 …',
    '3 người: … 3 …, nhì mất 1, bét mất 2', '4 người: … 6 …, nhì mất 1, ba mất 2, bét mất 3'."""
    n = len(hands)
    state = at(dealt(n, stake=100, options=RANK), hands)
    for seat in range(n - 1):
        state = act(GAME, state, f"p{seat + 1} {hands[seat]}")
    assert GAME.is_terminal(state)
    assert state.places == tuple(range(n))
    assert GAME.settle(state).deltas == tuple(100 * d for d in deltas)


def test_rank_mode_cuts_and_last_place_special_items() -> None:
    """RULES §12.6: 'Cut payments still apply; the last-place player also pays the 1st the §12.5
    value of the special items they hold.'"""
    state = at(dealt(3, stake=100, options=RANK), ["2s 3d", "4s 4c 5s 5c 6s 6c", "9s 2h"])
    state = act(GAME, state, "p1 2s", "p2 4s 4c 5s 5c 6s 6c")
    # p2 went out (1st) on a cut: p1 pays the cut 2♠ (5 lá); the next in play, p3, leads.
    assert GAME.to_act(state) == (2,)
    state = act(GAME, state, "p3 9s", "p1 pass", "p3 2h")
    assert state.places == (1, 2, 0)
    # p3 2nd pays 1; p1 last pays 2 and nothing for special items (holds 3♦).
    assert GAME.settle(state).deltas == (-(5 + 2) * 100, (5 + 1 + 2) * 100, -100)
    last_holds_two = at(dealt(2, stake=100, options=RANK), ["3s", "2h 9d"])
    last_holds_two = act(GAME, last_holds_two, "p1 3s")
    assert GAME.settle(last_holds_two).deltas == (1100, -1100)


# ----- S001 TLMN 5: disconnection -----------------------------------------------------------
def test_s001_disconnect_is_an_automatic_loss_count_mode() -> None:
    """S001 TLMN 5: 'Nếu người chơi bị mất kết nối thì người chơi đó sẽ tự động bị xử thua và xét
    hàng.' RULES §12.7: removed from the turn order; pays at the end holding their cards."""
    state = at(dealt(3, stake=100), ["3s 7s 8s", "4s 9d 2h", "5s 6s"], played=(3, 3, 3))
    leave = GAME.default_action(state, 1, "disconnect")
    assert leave == Leave(1)
    state = GAME.apply(state, leave)
    state = act(GAME, state, "p1 3s")
    assert GAME.to_act(state) == (2,)  # p2 is out of the turn order
    state = act(GAME, state, "p3 5s", "p1 7s")
    assert GAME.to_act(state) == (2,)
    state = act(GAME, state, "p3 pass", "p1 8s")
    assert (state.outcome, state.winner, state.left) == ("out", 0, (1,))
    assert GAME.settle(state).deltas == (1300, -1200, -100)


def test_s001_disconnect_rank_mode_takes_last_place() -> None:
    """S001 TLMN 5 / RULES §12.7: in rank mode a disconnected player takes last place."""
    state = at(dealt(3, stake=100, options=RANK), ["3s", "4s 9d", "5s 6s"])
    state = GAME.apply(state, Leave(2))
    state = act(GAME, state, "p1 3s")
    assert state.places == (0, 1, 2)
    assert GAME.settle(state).deltas == (300, -100, -200)


def test_only_one_player_left_wins() -> None:
    """RULES §12.7 (DEF): when everyone else has left, the last player in play wins."""
    state = at(dealt(3, stake=100), ["3s 4d", "4s 9d", "5s 6s"])
    state = act(GAME, state, "leave p2", "leave p3")
    assert (state.outcome, state.winner) == ("last_player", 0)
    assert GAME.settle(state).deltas == (400, -200, -200)


def test_default_actions() -> None:
    """RULES §2.7: a timeout passes, or leads the lowest single (3♠ in the first game); leaving
    and disconnecting remove the player whatever the turn."""
    state = dealt(3)
    assert GAME.default_action(state, 0, "timeout") == Play(0, parse_cards("3s"))
    assert GAME.default_action(state, 1, "timeout") is None
    assert GAME.default_action(state, 2, "leave") == Leave(2)
    assert GAME.default_action(state, None, "timeout") is None
    state = act(GAME, state, "p1 3s")
    assert GAME.default_action(state, 1, "timeout") == Pass(1)


# ----- §16 optional rules (off by default) -----------------------------------------------------
RESTORE = {"tlmn.opt_four_pairs_restore_turn": True}


def test_s001_6_four_pairs_restore_a_passed_turn() -> None:
    """S001 TLMN 6 / 3: 'Khôi phục lại lượt đánh đã bỏ trước khi chặt bằng 4 đôi thông' (§16
    ``tlmn.opt_four_pairs_restore_turn``): p2 passed, p3 plays a 2, p2 comes back to cut."""
    four_pairs = "3s 3c 4s 4c 5s 5c 6s 6c 7d"
    hands = ["9s Kd Qd", four_pairs, "2h Ac"]
    state = at(dealt(3, stake=100, options=RESTORE), hands)
    state = act(GAME, state, "p1 9s", "p2 pass", "p3 2h", "p1 pass")
    assert GAME.to_act(state) == (1,)
    plays = GAME.legal_plays(state)
    assert plays and all(c.kind is Kind.PAIR_STRAIGHT and c.pairs == 4 for c in plays)
    assert_refused(state, "p2 7d", "does not beat")
    state = act(GAME, state, "p2 3s 3c 4s 4c 5s 5c 6s 6c", "p3 pass")
    assert GAME.to_act(state) == (1,) and state.table is None
    assert [(d.payer, d.payee, d.amount) for d in state.debts] == [(2, 1, 10)]
    # Off by default: the passed player stays locked out and the trick ends.
    plain = act(GAME, at(dealt(3), hands), "p1 9s", "p2 pass", "p3 2h", "p1 pass")
    assert GAME.to_act(plain) == (2,) and plain.table is None


def test_four_pairs_restore_offer_can_be_declined_once() -> None:
    """§16 restore option (DEF): declining the offer keeps the player out for that play."""
    hands = ["9s Kd Qd", "3s 3c 4s 4c 5s 5c 6s 6c 7d", "2h Ac"]
    state = at(dealt(3, options=RESTORE), hands)
    state = act(GAME, state, "p1 9s", "p2 pass", "p3 2h", "p1 pass", "p2 pass")
    assert GAME.to_act(state) == (2,) and state.table is None


FIRST_WINS = {"tlmn.opt_first_game_instant_wins": True}
OPP_NO_THREES = "4h 5h 6h 7h 8h 9h Th Jh Qh Kh 4d 6d 8d"


@pytest.mark.parametrize(
    ("hand", "opponent", "name"),
    [
        ("3s 3c 3d 3h 5s 7c 9s Jc Ks Ac 6s 8c Tc", OPP_NO_THREES, "four_threes"),
        ("3s 3c 4s 4c 5s 5c 7c 9s Jc Ks Ac 8s Tc", OPP_HD, "pair_straight_with_3s"),
        ("3s 3c 4s 4c 5s 5c 6s 6c 8c Tc Qc Ac 2c", OPP_HD, "pair_straight_with_3s"),
    ],
)
def test_s001_6_first_game_instant_wins(hand: str, opponent: str, name: str) -> None:
    """S001 TLMN 6: 'Ở ván bài đầu tiên của một bàn/phòng, nếu người chơi có Tứ Quý 3 hoặc Ba Đôi
    Thông, Bốn Đôi Thông có 3 Bích thì người đó được xử Tới Trắng' (§16, paid as §12.4)."""
    state = deal(GAME, [hand, opponent], size=13, stake=100, options=FIRST_WINS)
    assert (state.outcome, state.instant) == ("instant_win", name)
    assert GAME.settle(state).deltas == (2600, -2600)
    assert not GAME.is_terminal(deal(GAME, [hand, opponent], size=13))  # off by default
    later = deal(GAME, [hand, opponent], size=13, options=FIRST_WINS, carry={"winner": 1})
    assert not GAME.is_terminal(later)  # only in the first game


def test_first_game_pair_straight_needs_three_of_spades() -> None:
    """§16: 3 đôi thông without 3♠ is no first-game instant win."""
    hand = "3c 3d 4s 4c 5s 5c 7c 9s Jc Ks Ac 8s Tc"
    state = deal(GAME, [hand, OPP_HD], size=13, options=FIRST_WINS)
    assert not GAME.is_terminal(state)


DUT = {"tlmn.opt_dut_3_bich": True}


def test_s001_6_dut_3_bich_success() -> None:
    """S001 TLMN 6: 'nếu người chơi nào về nhất với lá bài 3 Bích đánh cuối cùng … Tất cả những
    người chơi khác … chi trả … (26 lá + Heo * Tiền cược bàn), bất chấp số lá bài trên tay'."""
    hands = ["7s 3s", "9s 2h 5d 6d 7d", "2s 2c Kd"]
    state = at(dealt(3, stake=1000, options=DUT), hands)
    state = act(GAME, state, "p1 7s", "p2 pass", "p3 pass")
    assert state.dut_pending == 0 and GAME.to_act(state) == (0,)
    state = act(GAME, state, "p1 3s")
    assert (state.outcome, state.winner) == ("dut_3_bich", 0)
    assert GAME.settle(state).deltas == (72000, -36000, -36000)
    plain = act(GAME, at(dealt(3, stake=1000), hands), "p1 7s", "p2 pass", "p3 pass", "p1 3s")
    assert plain.outcome == "out"
    assert GAME.settle(plain).deltas == (25000, -14000, -11000)


def test_s001_6_thoi_3_bich_seed_example() -> None:
    """S001 TLMN 6, example: 'bàn chơi 3 người mức cược 1000 iCash, tài khoản A còn 2 lá bài 2 Cơ
    và 3 Bích, tài khoản B còn nhóm 3 Đôi Thông. Khi A đánh ra lá 2 Cơ, B chặt bằng nhóm 3 Đôi
    Thông … A phải đền làng số iCash là 1000* 26 lá* 2(nếu có) trả cho Người Cứu Làng.'
    RULES §16: A pays B 1,000 × 26 × 2 = 52,000; the cut payment for 2♥ (10 lá) also applies."""
    hands = ["2h 3s", "6s 6c 7d 7h 8s 8d Kd", "4d 9c Qh"]
    state = at(dealt(3, stake=1000, options=DUT), hands)
    state = act(GAME, state, "p1 2h", "p2 6s 6c 7d 7h 8s 8d")
    assert (state.outcome, state.winner) == ("thoi_3_bich", 1)
    settlement = GAME.settle(state)
    assert line_total(settlement, 0, ["thoi_3_bich"]) == -1000 * 26 * 2
    assert line_total(settlement, 0, ["cut"]) == -10000
    assert settlement.deltas == (-62000, 62000, 0)
    assert GAME.carry(state) == {"winner": 1, "runner_up": 2}


def test_thoi_3_bich_without_a_cut_pays_the_heo_of_the_beaten_play() -> None:
    """RULES §16 (DEF): when the cứu làng's play is no cut, the failer pays the heo value of the
    2s in the beaten play once."""
    state = at(dealt(3, stake=1000, options=DUT), ["2s 3s", "2h Kd", "4d 9c Qh"])
    state = act(GAME, state, "p1 2s", "p2 2h")
    assert GAME.settle(state).deltas == (-57000, 57000, 0)


def test_option_first_lead_free_when_not_required() -> None:
    """A-TL8 ``tlmn.first_lead_must_include_3s = false``: the 3♠ holder leads anything."""
    state = dealt(options={"tlmn.first_lead_must_include_3s": False})
    assert GAME.to_act(state) == (0,) and GAME.is_legal(state, move("p1 4c"))


def test_option_cong_multiplier() -> None:
    """A-TL7 ``tlmn.cong_multiplier = 1``: no extra for cóng (RULES §12.8's D: 12 + 5 = 17)."""
    state = at(
        dealt(2, stake=1000, options={"tlmn.cong_multiplier": 1}),
        ["Kd", "3h 3d 4h 5h 6h 8h 9h Th Jh Qh Kh Ah 2s"],
        played=(12, 0),
    )
    state = act(GAME, state, "p1 Kd")
    assert GAME.settle(state).deltas == (17000, -17000)


def test_option_chain_cut_last_item() -> None:
    """A-TL5 ``tlmn.chain_cut = last_item``: RULES §12.8's chain pays only the 3 đôi thông (10)."""
    hands = ["2h 4s 5c", "Kd Qc", "6s 6c 7d 7h 8s 8d 9c", "Js Jc Jd Jh 3c"]
    state = at(dealt(4, stake=1000, options={"tlmn.chain_cut": "last_item"}), hands)
    state = act(
        GAME, state, "p1 2h", "p2 pass", "p3 6s 6c 7d 7h 8s 8d", "p4 Js Jc Jd Jh", "p1 pass"
    )
    state = act(GAME, state, "p3 pass")
    assert [(d.payer, d.payee, d.amount) for d in state.debts] == [(2, 3, 10)]


def test_option_direction_clockwise() -> None:
    """A-PL2 ``tlmn.direction = cw``: the turn passes to decreasing seat numbers."""
    state = act(GAME, dealt(4, options={"tlmn.direction": "cw"}), "p1 3s")
    assert GAME.to_act(state) == (3,)
    assert GAME.to_act(act(GAME, dealt(4), "p1 3s")) == (1,)


def test_unknown_option_is_a_config_error() -> None:
    """Options are checked when the hand is created."""
    with pytest.raises(ConfigError):
        GAME.new_state(TableConfig.make(seats=2, options={"tlmn.scoring": "points"}))
    with pytest.raises(ConfigError):
        GAME.new_state(TableConfig.make(seats=5))
    with pytest.raises(ConfigError):
        GAME.new_state(TableConfig.make(seats=2, carry="winner"))


def test_seats_below_ten_bets_sit_out() -> None:
    """RULES §2.6 (A-PL4): a player needs 10 × L to start a TLMN game; the others sit out."""
    config = TableConfig.make(seats=3, stake=100, stacks=(5000, 999, 1000))
    state = GAME.new_state(config)
    assert state.dealt_in == (True, False, True)
    order = deck_order([parse_cards(P1), parse_cards(P3)], 13)
    state = act(GAME, GAME.apply(state, Shuffle(order)), "p1 3s")
    assert state.hands[1] == () and GAME.to_act(state) == (2,)
    assert_refused(state, "leave p2", "no longer in play")
    view = GAME.observe(state, 0)
    assert view.sitting_out == (1,) and "p2:  0 cards  [sitting out]" in GAME.render_text(view)
    end = act(GAME, at(state, ["4s", "", "5s 6s"]), "p1 4s")
    assert GAME.settle(end).deltas == (200, 0, -200)
    with pytest.raises(ConfigError, match="two players"):
        GAME.new_state(TableConfig.make(seats=2, stake=100, stacks=(5000, 999)))
    free = TableConfig.make(
        seats=2, stake=100, stacks=(5000, 0), options={"platform.min_balance_multiple": 0}
    )
    assert GAME.new_state(free).dealt_in == (True, True)


# ----- bad input ------------------------------------------------------------------------------
def test_bad_input_is_refused_with_a_clear_error() -> None:
    """Issue 4: cards not held, a play that does not beat, a straight with a 2; state unchanged."""
    state = dealt()
    assert_refused(state, "p1 3s 4s", "you do not hold 4♠")
    assert_refused(state, "p1 3s 5d", "is not a combination")
    assert_refused(state, "p2 4s", "may not act now")
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, move("p2 4s"))
    later = at(dealt(), ["Ks Ah 2h 3d", "4s"])
    assert_refused(later, "p1 Ks Ah 2h", "straight may not contain a 2")
    assert_refused(later, "p1 pass", "the leader must play")
    after = act(GAME, at(dealt(), ["9s Ks", "4s 8s"]), "p1 9s")
    assert_refused(after, "p2 8s", "single 8♠ does not beat single 9♠")
    assert_refused(after, "p2 4s 8s", "is not a combination")
    assert_refused(after, "p2", "a play needs at least one card")
    snapshot = repr(after)
    for bad in (
        Play(1, (parse_card("4s"), parse_card("4s"))),
        Play(None, parse_cards("4s")),
        Leave(None),
        Leave(7),
    ):
        with pytest.raises(IllegalActionError):
            GAME.apply(after, bad)
    assert repr(after) == snapshot
    three = at(dealt(3), ["9s Ks", "4s 8s", "5s"])
    gone = GAME.apply(three, Leave(1))
    with pytest.raises(IllegalActionError, match="no longer in play"):
        GAME.apply(gone, Leave(1))


# ----- views, money, carry, histories ---------------------------------------------------------
def test_views_hide_other_hands() -> None:
    """RULES §2.10: face-down cards go only to their owner; counts are public."""
    state = act(GAME, dealt(4), "p1 3s")
    for viewer in [None, 0, 1, 2, 3]:
        view = GAME.observe(state, viewer)
        seen = view_cards(view)
        for seat in range(4):
            if seat != viewer:
                assert not seen & set(state.hands[seat]), (viewer, seat)
        assert view.card_counts == (12, 13, 13, 13)
    assert GAME.observe(state, 1).hand == state.hands[1]
    assert GAME.observe(state, None).hand == ()
    text = GAME.render_text(GAME.observe(state, 1))
    assert "p2 (you): 13 cards" in text and "Your hand:" in text
    assert "On the table: single 3♠ by p1" in text
    leader_text = GAME.render_text(GAME.observe(dealt(4), 0))
    assert "Your first play must include 3♠" in leader_text
    over = act(GAME, at(dealt(2), ["3s", "4s 2h"]), "p1 3s")
    assert "Over: out, winner p1" in GAME.render_text(GAME.observe(over, None))


def test_first_lead_requirement_is_shown_only_to_the_leader() -> None:
    """The 3♠ requirement is in the leader's own view only (its card is the leader's)."""
    state = dealt(2)
    assert GAME.observe(state, 0).must_include == (parse_card("3s"),)
    assert GAME.observe(state, 1).must_include == ()


def test_debts_capped_at_stack_pro_rata() -> None:
    """RULES §2.6: debts are capped at the payer's balance, split pro rata among receivers;
    the rounding remainder is breakage."""
    hands = ["2h 4s 5c", "Kd Qc", "6s 6c 7d 7h 8s 8d 9c", "Js Jc Jd Jh 3c"]
    stacks = (10**9, 10**9, 10_001, 10**9)
    state = at(dealt(4, stake=1000, stacks=stacks), hands)
    state = act(
        GAME, state, "p1 2h", "p2 pass", "p3 6s 6c 7d 7h 8s 8d", "p4 Js Jc Jd Jh", "p1 pass"
    )
    state = act(GAME, state, "p3 pass", "p4 3c")
    # p3 owes p4 20 lá (cut) and 1 lá (9♣ left): 21,000 against a stack of 10,001.
    settlement = GAME.settle(state)
    assert settlement.deltas[2] == -10_001
    assert sum(settlement.deltas) + settlement.breakage == 0


def test_pro_rata_split_between_two_receivers() -> None:
    """RULES §2.6: 'If several receivers are owed, the balance is split among them pro rata';
    each share rounds down and the remainder is breakage."""
    hands = ["Kd", "2h 3d", "9s 9c 9d 9h 4c 5h"]
    state = at(dealt(3, stake=1000, stacks=(10**9, 10_001, 10**9)), hands, turn=1)
    state = act(GAME, state, "p2 2h", "p3 9s 9c 9d 9h", "p1 pass", "p2 pass", "p3 4c", "p1 Kd")
    # p1 wins; p2 owes p3 10 lá (cut 2♥) and p1 1 lá (3♦): 11,000 against 10,001.
    settlement = GAME.settle(state)
    assert settlement.deltas == (909 + 1000, -10_001, 9091 - 1000)
    assert line_total(settlement, 2, ["cut"]) == 10_000 * 10_001 // 11_000 == 9091
    assert line_total(settlement, 0, ["penalty"]) == 1_000 * 10_001 // 11_000 + 1000
    assert settlement.breakage == 1


def test_carry_runner_up_is_the_cheapest_loser() -> None:
    """RULES §12.3 / A-TL9: the runner-up paid the fewest penalty lá; ties go to the earliest in
    turn order after the winner; a player who left is never runner-up."""
    state = at(
        dealt(4, stake=1000),
        ["2h 4s 5c", "Kd", "6s 6c 7d 7h 8s 8d 9c", "3h 3d 4h 5h 6h 8h 9h Th Jh Qh Kh Ah 2s"],
        turn=1,
        played=(10, 12, 6, 0),
    )
    assert GAME.carry(act(GAME, state, "p2 Kd")) == {"winner": 1, "runner_up": 2}
    tie = at(dealt(4), ["4s", "Kd", "5s", "6s"], turn=1)
    assert GAME.carry(act(GAME, tie, "p2 Kd")) == {"winner": 1, "runner_up": 2}
    gone = act(GAME, tie, "leave p3", "p2 Kd")
    assert GAME.carry(gone) == {"winner": 1, "runner_up": 3}
    assert GAME.carry(tie) is None


def test_carry_feeds_the_next_hand() -> None:
    """S001 TLMN 2: the winner of a hand leads the next one (through ``carry``)."""
    state = act(GAME, at(dealt(2), ["3s", "4s"]), "p1 3s")
    following = deal(GAME, [P1, P2], size=13, carry=GAME.carry(state))
    assert GAME.to_act(following) == (0,) and not following.first_game
