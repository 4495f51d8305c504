"""Sâm Lốc: seed 001 examples and payment lines, RULES.md §7 and every A-SL option.

``S001 Sâm n`` cites section n of seed 001's "Sâm (Lốc)" ("4" is "Tỉ lệ cộng trừ tiền", the
payment table); ``RULES §x`` a section of RULES.md.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from sanh.cards.card import parse_card, parse_cards
from sanh.errors import ConfigError, IllegalActionError, NotYourTurnError
from sanh.eval.combos import SAM
from sanh.games import find_game
from sanh.games._shedding import Leave, Pass, Play
from sanh.games.base import ChanceSpec, Roll, Shuffle, TableConfig
from sanh.games.sam_loc import (
    CloseDeclarations,
    DeclareSam,
    DeclineSam,
    SamLoc,
    SamState,
)
from tests.games.shedding_fixtures import (
    act,
    deal,
    deck_order,
    line_total,
    move,
    position,
    view_cards,
)

GAME: SamLoc = find_game("sam-loc")  # type: ignore[assignment]

S1 = "3s 3h 5c 6d 7s 8h 9c Jd Ks 2h"
S2 = "4s 4h 5d 6c 7h 8s 9d Tc Qs Ah"
S3 = "3c 3d 4c 5s 6s 7c 8c Th Jc Kd"
S4 = "4d 5h 6h 7d 8d 9s Ts Js Qd As"
OPP10 = "4c 4d 6s 6h 8c 8d Ts Th Qc Ad"


def dealt(seats: int = 3, **kwargs: Any) -> SamState:
    return deal(GAME, [S1, S2, S3, S4][:seats], size=10, **kwargs)  # type: ignore[no-any-return]


def at(state: SamState, hands: list[str], **fields: Any) -> SamState:
    """A fixed position in the play phase: seat ``turn`` (default p1) to lead."""
    n = len(hands)
    fields.setdefault("played", (3,) * n)
    fields.setdefault("turn", 0)
    return position(  # type: ignore[no-any-return]
        SAM,
        state,
        hands=hands,
        phase="play",
        first_game=False,
        trick=(),
        passed=(False,) * n,
        in_play=(True,) * n,
        undecided=(False,) * n,
        **fields,
    )


def sam(state: SamState, hands: list[str], declarer: int = 0, **fields: Any) -> SamState:
    """A position where ``declarer`` has declared Sâm and leads."""
    return at(state, hands, declarer=declarer, sam_active=True, turn=declarer, **fields)


def assert_refused(state: SamState, text: str, match: str) -> None:
    snapshot = repr(state)
    with pytest.raises(IllegalActionError, match=match):
        GAME.apply(state, move(text))
    assert repr(state) == snapshot


# ----- S001 Sâm 1: ranks, suits, sequences ------------------------------------------------------
def test_s001_rank_order() -> None:
    """S001 Sâm 1: 'Thứ tự dưới đây được mô tả từ bé đến lớn: 3-4-5-6-7-8-9-10-J-Q-K-A-2'."""
    order = [parse_card(r + "s") for r in "3456789TJQKA2"]
    for low, high in itertools.pairwise(order):
        assert SAM.beats(SAM.classify([high]), SAM.classify([low]))  # type: ignore[arg-type]
        assert not SAM.beats(SAM.classify([low]), SAM.classify([high]))  # type: ignore[arg-type]


def test_s001_suits_do_not_count() -> None:
    """S001 Sâm 1: 'Các lá bài trong Sâm không phân biệt về chất nên khi đánh 1 bộ dọc 345, thì
    bắt buộc phải đánh bộ dọc lớn hơn như 456 trở lên.'"""
    state = at(dealt(2), ["3s 4s 5s 9d", "3h 4h 5h 6h 5d"])
    state = act(GAME, state, "p1 3s 4s 5s")
    assert_refused(state, "p2 3h 4h 5h", "does not beat")
    assert GAME.is_legal(state, move("p2 4h 5h 6h"))
    single = act(GAME, at(dealt(2), ["5s 9d", "5h 6h"]), "p1 5s")
    assert_refused(single, "p2 5h", "does not beat")


def test_s001_low_sequences_a23_and_2345() -> None:
    """S001 Sâm 1: 'Có thể đánh các bộ dọc A23, 2345…' (RULES §7.2: A-2-3 < 2-3-4 < 3-4-5;
    K-A-2 is no sequence)."""
    a23 = SAM.classify(parse_cards("Ah 2c 3d"))
    two_to_five = SAM.classify(parse_cards("2s 3c 4d 5h"))
    assert a23 is not None and two_to_five is not None
    state = at(dealt(2), ["Ah 2c 3d 9d", "2s 3c 4d 5h 7s"])
    state = act(GAME, state, "p1 Ah 2c 3d")
    assert GAME.is_legal(state, move("p2 2s 3c 4d"))
    assert GAME.is_legal(state, move("p2 3c 4d 5h"))
    assert_refused(at(dealt(2), ["Ks Ah 2c 9d", "4s"]), "p1 Ks Ah 2c", "low end of a sequence")
    high = act(GAME, at(dealt(2), ["Js Qh Kd 9d", "Qs Kh Ad 7s"]), "p1 Js Qh Kd")
    assert GAME.is_legal(high, move("p2 Qs Kh Ad"))


# ----- S001 Sâm 2: Báo Sâm ----------------------------------------------------------------------
def test_s001_declaring_sam_leads() -> None:
    """S001 Sâm 2: 'Báo Sâm: … bạn sẽ được ưu tiên đánh trước.' 'Nếu có nhiều người báo Sâm thì ai
    báo Sâm trước, người đó được đánh trước.' (A-SL3: later declarations are rejected)."""
    state = dealt(3)
    assert state.phase == "declare" and GAME.to_act(state) == (0, 1, 2)
    state = GAME.apply(state, DeclareSam(2))
    assert (state.declarer, GAME.to_act(state)) == (2, (2,))
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, DeclareSam(1))
    declined = act_all(dealt(3), [DeclineSam(0), DeclineSam(1)])
    assert GAME.to_act(declined) == (2,)
    started = GAME.apply(declined, DeclineSam(2))
    assert (started.phase, GAME.to_act(started), started.declarer) == ("play", (0,), None)
    closed = GAME.apply(dealt(3), CloseDeclarations(None))
    assert (closed.phase, GAME.to_act(closed)) == ("play", (0,))


def act_all(state: SamState, actions: list[Any]) -> SamState:
    for action in actions:
        state = GAME.apply(state, action)
    return state


def test_s001_sam_success_25_from_each() -> None:
    """S001 Sâm 4: 'Sâm thành công ăn mỗi nhà 25 lá'."""
    hands = ["Ks 3s 4s 5s", "3h 9d", "3c 8d"]
    state = sam(dealt(3, stake=100), hands)
    state = act(GAME, state, "p1 Ks", "p2 pass", "p3 pass", "p1 3s 4s 5s")
    assert (state.outcome, state.winner) == ("sam_success", 0)
    assert GAME.settle(state).deltas == (5000, -2500, -2500)


def test_s001_sam_failure_pays_the_catcher() -> None:
    """S001 Sâm 4: 'Sâm thất bại mất cho nhà bắt sâm = (n-1) x 25 lá' (A-SL4: the game ends)."""
    state = sam(dealt(4, stake=100), ["9s 3s 4s", "Kh 5d", "3c 8d", "4d 6d"])
    state = act(GAME, state, "p1 9s", "p2 Kh")
    assert (state.outcome, state.winner) == ("sam_failed", 1)
    assert GAME.settle(state).deltas == (-7500, 7500, 0, 0)


def test_sam_failure_by_cutting_a_two() -> None:
    """RULES §7.4: 'someone beats one of the declarer's plays, a cut of a 2 included'; no cut
    payment is made in a game with a Sâm."""
    state = sam(dealt(3, stake=100), ["2h 3s 4s", "5s 5c 5d 5h 9d", "3c 8d"])
    state = act(GAME, state, "p1 2h", "p2 5s 5c 5d 5h")
    assert GAME.settle(state).deltas == (-5000, 5000, 0)


def test_declarer_going_out_on_twos_fails() -> None:
    """RULES §7.4: 'A declarer who goes out on 2s also fails … paid as 25 lá to each other'."""
    state = sam(dealt(3, stake=100), ["3s 2s 2h", "4h 9d", "4c 8d"])
    state = act(GAME, state, "p1 3s", "p2 pass", "p3 pass", "p1 2s 2h")
    assert (state.outcome, state.winner) == ("sam_failed_on_twos", None)
    assert GAME.settle(state).deltas == (-5000, 2500, 2500)
    assert GAME.carry(state) == {"winner": None}


def test_s001_den_trang() -> None:
    """S001 Sâm 2: 'Đền trắng: là khi user có bài lớn hơn nhưng không bắt để … “báo Sâm thành
    công” thì user này sẽ phải đền cho tất cả user.' (A-SL10: the whole (n−1) × 25, alone)."""
    hands = ["Ks 3s 4s 5s", "Ah 9d", "3c 8d"]
    state = sam(dealt(3, stake=100), hands)
    state = act(GAME, state, "p1 Ks", "p2 pass", "p3 pass", "p1 3s 4s 5s")
    assert GAME.settle(state).deltas == (5000, -5000, 0)


def test_s001_den_bao() -> None:
    """S001 Sâm 2: 'Đền báo : là trường hợp user “Báo Sâm” xong rồi thoát khỏi bàn chơi … thì sẽ
    đền gold bằng với Sâm thất bại.' (A-SL11: 25 lá to each other player)."""
    state = sam(dealt(4, stake=100), ["9s 3s 4s", "Kh 5d", "3c 8d", "4d 6d"])
    state = act(GAME, state, "p1 9s")
    state = GAME.apply(state, GAME.default_action(state, 0, "leave"))  # type: ignore[arg-type]
    assert (state.outcome, state.winner) == ("den_bao", None)
    assert GAME.settle(state).deltas == (-7500, 2500, 2500, 2500)


# ----- S001 Sâm 2: treo, thối, báo 1, chặt, đè ---------------------------------------------------
def test_rules_7_8_settlement_example() -> None:
    """RULES §7.8 (4 players, L = 100, B goes out): 'A holds 7, 9, 2♥: 1 + 1 + 10 = 12 lá, so A pays
    1,200. C never played and holds no 2: 15 lá … D holds 5, 5, K, 2♠: 3 + 5 = 8 lá … B receives
    3,500.' S001 Sâm 4: 'Người về Nhất được tất cả số tiền người chơi còn lại mất. Người thua mất
    bằng số quân bài trên tay nhân với tiền cược.'"""
    hands = ["7s 9c 2h", "Kd", "3s 4s 6c 8d Tc Jd Qs Kh Ah 9s", "5s 5c Kc 2s"]
    state = at(dealt(4, stake=100), hands, turn=1, played=(7, 9, 0, 6))
    state = act(GAME, state, "p2 Kd")
    assert GAME.settle(state).deltas == (-1200, 3500, -1500, -800)
    assert state.paid_la == (12, 0, 15, 8)


def test_s001_treo_15() -> None:
    """S001 Sâm 2 / 4: 'Treo (không đánh được con nào) = 15 lá'; with a 2 held its value is added
    (A-SL13, ``samloc.treo_adds_two_values``)."""
    state = at(dealt(2, stake=100), ["Kd", "3s 4s 6c 8d Tc Jd Qs Kh Ah 2h"], played=(9, 0))
    state = act(GAME, state, "p1 Kd")
    assert GAME.settle(state).deltas == (2500, -2500)
    flat = at(
        dealt(2, stake=100, options={"samloc.treo_adds_two_values": False}),
        ["Kd", "3s 4s 6c 8d Tc Jd Qs Kh Ah 2h"],
        played=(9, 0),
    )
    assert GAME.settle(act(GAME, flat, "p1 Kd")).deltas == (1500, -1500)


@pytest.mark.parametrize(
    ("last", "lá"),
    [("2s", 5), ("2c", 5), ("2d", 10), ("2h", 10), ("2s 2h", 15), ("2s 2c 2d", 20)],
)
def test_s001_thoi_2(last: str, lá: int) -> None:
    """S001 Sâm 2: 'Thối 2: Trên tay chỉ còn 1 lá bài 2 hoặc đánh 2 cuối cùng'; 'Đánh 2 cuối (bao
    gồm 1, 2 hoặc 3 con 2) coi như thối'; S001 Sâm 4: 'Thối 2 = 5/10 lá tùy theo màu đen/đỏ của
    2'. RULES §7.3: the game goes on; the next player leads; the final winner is paid."""
    state = at(dealt(3, stake=100), [last, "4s", "6s 7s 8d"])
    state = act(GAME, state, "p1 " + last)
    assert not GAME.is_terminal(state) and state.thoi == (0,)
    assert GAME.to_act(state) == (1,) and state.table is None
    state = act(GAME, state, "p2 4s")
    assert (state.outcome, state.winner) == ("out", 1)
    assert GAME.settle(state).deltas == (-lá * 100, (lá + 3) * 100, -300)


def test_thoi_2_two_players_the_other_wins_at_once() -> None:
    """RULES §7.3 (DEF): 'if only one player is left, that player wins at once'."""
    state = at(dealt(2, stake=100), ["2h", "4s 5s 9d"])
    state = act(GAME, state, "p1 2h")
    assert (state.outcome, state.winner) == ("last_player", 1)
    assert GAME.settle(state).deltas == (-1000, 1000)


def test_s001_four_of_a_kind_is_never_thoi() -> None:
    """S001 Sâm 2: 'Tứ quý chặt cây 2 . Tứ quý không tính thối.'"""
    state = at(dealt(2, stake=100), ["2s 2c 2d 2h", "4s 5s 9d"], played=(6, 3))
    state = act(GAME, state, "p1 2s 2c 2d 2h")
    assert (state.outcome, state.winner) == ("out", 0)
    assert GAME.settle(state).deltas == (300, -300)


def test_s001_bao_1_penalty() -> None:
    """S001 Sâm 2: 'Báo 1: Khi có người báo còn 1 cây, người trên cánh trái đánh lá bài lớn nhất
    trong bài. Nếu đánh lá bài bé và để người báo về Nhất thì bị phạt Báo.' (A-SL9: đền làng)."""
    hands = ["5s Ks 8d", "9h", "3c 4d 6h 7c"]
    state = at(dealt(3, stake=100), hands)
    assert GAME.observe(state, 2).bao1 == (1,)
    state = act(GAME, state, "p1 5s", "p2 9h")
    assert (state.outcome, state.winner) == ("out", 1)
    # p1 pays for everyone: its 2 cards and p3's 4 cards.
    assert GAME.settle(state).deltas == (-600, 600, 0)
    fair = act(GAME, at(dealt(3, stake=100), ["5s Ks 8d", "Ah", "3c 4d 6h 7c"]), "p1 Ks", "p2 Ah")
    assert GAME.settle(fair).deltas == (-200, 600, -400)
    no_penalty = at(dealt(3, stake=100, options={"samloc.bao1_penalty": "none"}), hands)
    no_penalty = act(GAME, no_penalty, "p1 5s", "p2 9h")
    assert GAME.settle(no_penalty).deltas == (-200, 600, -400)


def test_bao_1_lower_single_not_beaten_at_once_costs_nothing() -> None:
    """A-SL9 (DEF): the penalty needs the Báo 1 player to go out over the offending single."""
    state = at(dealt(3, stake=100), ["5s Ks", "Qh", "3c 4d 6d"])
    state = act(GAME, state, "p1 5s", "p2 pass", "p3 6d", "p1 pass", "p3 3c", "p1 pass")
    state = act(GAME, state, "p2 Qh")
    assert (state.outcome, state.winner) == ("out", 1)
    assert GAME.settle(state).deltas == (-100, 200, -100)


def test_bao_1_enforced_option() -> None:
    """A-SL9 ``samloc.bao1_enforce``: the system forces the highest single before a Báo 1."""
    hands = ["5s Ks 8d", "9h", "3c 4d 6h 7c"]
    state = at(dealt(3, options={"samloc.bao1_enforce": True}), hands)
    assert_refused(state, "p1 5s", "Báo 1: play your highest single")
    assert GAME.is_legal(state, move("p1 Ks"))
    singles = [a for a in GAME.legal_actions(state) if isinstance(a, Play) and len(a.cards) == 1]
    assert singles == [Play(0, parse_cards("Ks"))]


@pytest.mark.parametrize(
    ("victim", "cutter", "lá"),
    [
        ("2h", "5s 5c 5d 5h", 20),
        ("2s", "Ks Kc Kd Kh", 20),
        ("2h", "As Ac Ad Ah", 40),
        ("2s 2h", "5s 5c 5d 5h 9s 9c 9d 9h", 40),
    ],
)
def test_s001_cut_payments(victim: str, cutter: str, lá: int) -> None:
    """S001 Sâm 4: 'Tứ quý chặt 2 = 20 lá', 'Tứ quý A chặt 2 = 40 lá', 'Hai tứ quý chặt đôi 2 = 40
    lá' (S001 Sâm 2: '1 tứ quý chặt heo …, 2 tứ quý chặc được đôi heo'); settled when the trick
    ends."""
    state = at(dealt(2, stake=100), [victim + " 3d", cutter + " 4d"])
    state = act(GAME, state, "p1 " + victim, "p2 " + cutter, "p1 pass")
    assert [(d.payer, d.payee, d.amount, d.item) for d in state.debts] == [(0, 1, lá, "cut")]
    state = act(GAME, state, "p2 4d")
    settlement = GAME.settle(state)
    assert line_total(settlement, 1, ["cut"]) == lá * 100
    assert settlement.deltas == (-(lá + 1) * 100, (lá + 1) * 100)


def test_s001_two_fours_only_cut_a_pair_of_twos() -> None:
    """S001 Sâm 2: '2 tứ quý chặc được đôi heo' (RULES §7.2: used only to cut a pair of 2s)."""
    state = at(dealt(2), ["5s 5c 5d 5h 9s 9c 9d 9h 3d", "2s 2h"])
    assert_refused(state, "p1 5s 5c 5d 5h 9s 9c 9d 9h", "only cut a pair of 2s")
    four = act(GAME, at(dealt(2), ["3s 3c 3d 3h 8d", "4s 4c 4d 4h 2s"]), "p1 3s 3c 3d 3h")
    assert GAME.is_legal(four, move("p2 4s 4c 4d 4h"))  # 'tứ quý lớn chặt tứ quý nhỏ'


def test_s001_de_example() -> None:
    """S001 Sâm 2: 'Đè: chặt lần 2 trong 1 vòng chơi … Tứ quý 3 chặt 2-cơ. Tứ quý 4 lại chặt tứ
    quý 3. … người chơi tứ quý 3 bị đè và phải trả tiền cho người chơi chặt đè. … người chơi ra lá
    2 sẽ không mất tiền.' (RULES §7.8: 20 lá)."""
    hands = ["2h 9d", "3s 3c 3d 3h Kd", "4s 4c 4d 4h 5d"]
    state = at(dealt(3, stake=100), hands)
    state = act(GAME, state, "p1 2h", "p2 3s 3c 3d 3h", "p3 4s 4c 4d 4h", "p1 pass", "p2 pass")
    assert [(d.payer, d.payee, d.amount) for d in state.debts] == [(1, 2, 20)]
    cumulative = at(dealt(3, options={"samloc.overcut_amount": "cumulative"}), hands)
    cumulative = act(
        GAME, cumulative, "p1 2h", "p2 3s 3c 3d 3h", "p3 4s 4c 4d 4h", "p1 pass", "p2 pass"
    )
    assert [(d.payer, d.payee, d.amount) for d in cumulative.debts] == [(1, 2, 40)]


def test_option_quad_ace_cut_value() -> None:
    """A-SL8 ``samloc.quad_ace_cut_value``: the four-aces cut amount is a parameter."""
    options = {"samloc.quad_ace_cut_value": 60}
    state = at(dealt(2, options=options), ["2h 3d", "As Ac Ad Ah 4d"])
    state = act(GAME, state, "p1 2h", "p2 As Ac Ad Ah", "p1 pass")
    assert state.debts[0].amount == 60


def test_led_four_beaten_by_a_higher_four_pays_nothing() -> None:
    """RULES §7.6 (DEF): only cuts of 2s (and their over-cuts) carry payments."""
    state = at(dealt(2), ["3s 3c 3d 3h 8d", "4s 4c 4d 4h 2s"])
    state = act(GAME, state, "p1 3s 3c 3d 3h", "p2 4s 4c 4d 4h", "p1 pass")
    assert state.debts == ()


# ----- S001 Sâm 3 and 4: disconnection, leaving, instant wins --------------------------------
def test_s001_disconnect_skips_a_round() -> None:
    """S001 Sâm 3: 'Khi người chơi trong bàn bị mất kết nối thì tính là bỏ qua 1 vòng và tiếp tục
    chơi lượt sau.' RULES §7.7: pass; lead the lowest single (the highest before a Báo 1)."""
    state = at(dealt(3), ["5s 9d Jc 6h", "4s Kd 7c", "3c 8d Qs"])
    assert GAME.default_action(state, 0, "disconnect") == Play(0, parse_cards("5s"))
    assert GAME.default_action(state, 1, "disconnect") is None
    state = act(GAME, state, "p1 5s")
    assert GAME.default_action(state, 1, "disconnect") == Pass(1)
    state = act(GAME, state, "p2 pass", "p3 8d", "p1 9d")  # p2 sits out this trick …
    assert GAME.to_act(state) == (2,)
    state = act(GAME, state, "p3 pass", "p1 Jc")
    assert GAME.to_act(state) == (1,)
    assert GAME.is_legal(state, move("p2 Kd"))  # … and plays on after reconnecting
    bao = at(dealt(3), ["5s 9d", "4s", "3c 8d Qs"])
    assert GAME.default_action(bao, 0, "timeout") == Play(0, parse_cards("9d"))
    declaring = dealt(3)
    assert GAME.default_action(declaring, 1, "disconnect") == DeclineSam(1)
    assert GAME.default_action(declaring, None, "timeout") == CloseDeclarations(None)


def test_s001_leaving_pays_10_to_each() -> None:
    """S001 Sâm 4: 'Rời bàn = (n-1) x 10 lá' (A-SL11: 10 lá to each other player, at once; the
    game goes on without the leaver)."""
    state = at(dealt(4, stake=100), ["9s 3s", "Kh 5d", "3c 8d", "4d 6d"])
    state = act(GAME, state, "p1 9s", "leave p3")
    assert [(d.payer, d.payee, d.amount) for d in state.debts] == [
        (2, 0, 10),
        (2, 1, 10),
        (2, 3, 10),
    ]
    assert GAME.to_act(state) == (1,)
    state = act(GAME, state, "p2 Kh", "p4 pass", "p1 pass", "p2 5d")
    assert (state.outcome, state.winner) == ("out", 1)
    assert GAME.settle(state).deltas == (1000 - 100, 1000 + 100 + 200, -3000, 1000 - 200)


def test_option_leave_penalty_to_winner() -> None:
    """A-SL11 ``samloc.leave_penalty_to = winner``: the (n−1) × 10 goes to the final winner."""
    state = at(
        dealt(4, stake=100, options={"samloc.leave_penalty_to": "winner"}),
        ["9s 3s", "Kh 5d", "3c 8d", "4d 6d"],
    )
    state = act(GAME, state, "p1 9s", "leave p3", "p2 Kh", "p4 pass", "p1 pass", "p2 5d")
    assert GAME.settle(state).deltas == (-100, 3000 + 100 + 200, -3000, -200)


@pytest.mark.parametrize(
    ("hand", "name"),
    [
        ("2s 2c 2d 2h 3s 5c 7d 9h Js Kc", "four_twos"),
        ("3s 4h 5c 6d 7s 8h 9c Td Js Qh", "dragon"),
        ("3h 5h 7h 9h Jh Kh 3d 5d 7d 9d", "one_colour"),
        ("3s 3c 3d 7s 7c 7d Js Jc Jd 9h", "three_triples"),
        ("3s 3h 5c 5d 7s 7h 9c 9d Js Jh", "five_pairs"),
    ],
)
def test_s001_instant_win_20_from_each(hand: str, name: str) -> None:
    """S001 Sâm 4: 'Thắng trắng = 20 lá' (A-SL12: the hands of RULES §7.5)."""
    state = deal(GAME, [OPP10, hand], size=10, stake=100)
    assert (state.outcome, state.instant, state.winner) == ("instant_win", name, 1)
    assert GAME.settle(state).deltas == (-2000, 2000)
    only_twos = {"samloc.instant_wins": "four_twos"}
    restricted = deal(GAME, [OPP10, hand], size=10, options=only_twos)
    assert GAME.is_terminal(restricted) == (name == "four_twos")


def test_instant_win_tie_goes_to_the_first_from_the_leader() -> None:
    """RULES §7.5 (DEF): several qualifiers: the first in turn order from the leader wins."""
    five_pairs = "3s 3h 5c 5d 7s 7h 9c 9d Js Jh"
    one_colour = "4h 6h 8h Th Qh Kh 4d 6d 8d Td"
    state = deal(GAME, [five_pairs, one_colour], size=10, carry={"winner": 1})
    assert (state.winner, state.instant) == (1, "one_colour")


# ----- leaders and options ----------------------------------------------------------------------
def test_first_leader_lowest_card_nearest_the_host() -> None:
    """RULES §7.3 (A-SL2): first game, the lowest card leads; ties to the nearest from the host."""
    assert GAME.apply(dealt(3), CloseDeclarations(None)).turn == 0
    from_p2 = GAME.apply(dealt(3, host=1), CloseDeclarations(None))
    assert from_p2.turn == 2
    later = GAME.apply(dealt(3, carry={"winner": 1}), CloseDeclarations(None))
    assert later.turn == 1


def test_option_first_leader_host_and_random() -> None:
    """A-SL2 ``samloc.first_leader = host | random`` (random: one die with a face per seat)."""
    host = dealt(3, host=1, options={"samloc.first_leader": "host"})
    assert host.base_leader == 1
    rolled = dealt(3, options={"samloc.first_leader": "random"})
    assert GAME.chance_spec(rolled) == ChanceSpec("roll", dice=1, sides=3)
    with pytest.raises(IllegalActionError):
        GAME.apply(rolled, Roll((4,)))
    assert GAME.apply(rolled, Roll((3,))).base_leader == 2


def test_option_sam_failure_does_not_end_the_game() -> None:
    """A-SL4 ``samloc.sam_fail_ends_game = false``: the failure is paid and an ordinary game goes
    on."""
    options = {"samloc.sam_fail_ends_game": False}
    state = sam(dealt(3, stake=100, options=options), ["9s 3s", "Kh 5d", "3c 8d"])
    state = act(GAME, state, "p1 9s", "p2 Kh")
    assert not GAME.is_terminal(state) and not state.sam_active
    state = act(GAME, state, "p3 pass", "p1 pass", "p2 5d")
    assert (state.outcome, state.winner) == ("out", 1)
    assert GAME.settle(state).deltas == (-5000 - 100, 5000 + 100 + 200, -200)


def test_option_two_count_add() -> None:
    """A-SL5 ``samloc.two_count = add``: a 2 counts 1 plus its 5/10."""
    state = at(dealt(2, stake=100, options={"samloc.two_count": "add"}), ["Kd", "7s 9c 2h"])
    assert GAME.settle(act(GAME, state, "p1 Kd")).deltas == (1300, -1300)


def test_option_finish_on_two_forbid() -> None:
    """A-SL6 ``samloc.finish_on_two = forbid``: going out on 2s is refused unless it is the only
    possible lead."""
    options = {"samloc.finish_on_two": "forbid"}
    answering = act(GAME, at(dealt(2, options=options), ["9s 4d", "2h"]), "p1 9s")
    assert_refused(answering, "p2 2h", "you may not go out on 2s")
    assert GAME.legal_actions(answering)[0] == Pass(1)
    forced = at(dealt(3, options=options), ["2h", "4s 5s", "6s 7s"])
    assert GAME.is_legal(forced, move("p1 2h"))


def test_option_thoi_finish_penalty() -> None:
    """A-SL6 ``samloc.thoi_finish_penalty``: extra lá for going out on 2s."""
    state = at(dealt(2, stake=100, options={"samloc.thoi_finish_penalty": 15}), ["2h", "4s"])
    assert GAME.settle(act(GAME, state, "p1 2h")).deltas == (-2500, 2500)


def test_option_den_trang_with_treo() -> None:
    """A-SL10 ``samloc.den_trang_scope = sam_and_treo``: the winner goes out with every other
    player treo; the first to pass holding a beating play pays everything."""
    options = {"samloc.den_trang_scope": "sam_and_treo"}
    hands = ["9s 3d", "Ks 4s 6c 8d Tc Jd Qs Kh Ah 5d", "3c 4c 5s 6s 7c 8c Th Jc Kd 7d"]
    state = at(dealt(3, stake=100, options=options), hands, played=(8, 0, 0))
    state = act(GAME, state, "p1 9s", "p2 pass", "p3 pass", "p1 3d")
    assert GAME.settle(state).deltas == (3000, -3000, 0)
    plain = act(GAME, at(dealt(3, stake=100), hands, played=(8, 0, 0)), "p1 9s", "p2 pass")
    plain = act(GAME, plain, "p3 pass", "p1 3d")
    assert GAME.settle(plain).deltas == (3000, -1500, -1500)


def test_option_direction_clockwise() -> None:
    """A-PL2 ``samloc.direction = cw``."""
    state = at(dealt(4, options={"samloc.direction": "cw"}), ["9s 3s", "Kh 5d", "3c 8d", "4d 6d"])
    assert GAME.to_act(act(GAME, state, "p1 9s")) == (3,)


def test_seats_below_ten_bets_sit_out() -> None:
    """RULES §2.6 (A-PL4): a player needs 10 × L to start a Sâm game; the others sit out, and a
    random first leader is drawn among the seats dealt in."""
    config = TableConfig.make(
        seats=3,
        stake=100,
        stacks=(999, 5000, 1000),
        options={"samloc.first_leader": "random"},
    )
    state = GAME.apply(
        GAME.new_state(config), Shuffle(deck_order([parse_cards(S2), parse_cards(S3)], 10))
    )
    assert state.hands[0] == () and GAME.chance_spec(state) == ChanceSpec("roll", dice=1, sides=2)
    state = GAME.apply(state, Roll((1,)))
    assert state.base_leader == 1 and GAME.to_act(state) == (1, 2)
    state = act_all(state, [DeclineSam(1), DeclineSam(2)])
    end = act(GAME, at(state, ["", "4s", "5s 6s"], turn=1), "p2 4s")
    assert GAME.settle(end).deltas == (0, 200, -200)
    with pytest.raises(ConfigError, match="two players"):
        GAME.new_state(TableConfig.make(seats=2, stake=100, stacks=(5000, 999)))


def test_bad_options() -> None:
    """Impossible configs are refused; the server's timer options are accepted."""
    timers = {"samloc.declare_s": 5, "table.quick_mode": True}
    assert GAME.new_state(TableConfig.make(seats=3, options=timers)).phase == "deal"
    for options in (
        {"samloc.instant_wins": "four_twos,royal"},
        {"samloc.thoi_finish_penalty": -1},
        {"samloc.two_count": "double"},
    ):
        with pytest.raises(ConfigError):
            GAME.new_state(TableConfig.make(seats=3, options=options))
    with pytest.raises(ConfigError):
        GAME.new_state(TableConfig.make(seats=6))


# ----- bad input, views -----------------------------------------------------------------------
def test_bad_input_is_refused_with_a_clear_error() -> None:
    """Issue 4: cards not held, a play that does not beat, playing during the declarations."""
    declaring = dealt(3)
    assert_refused(declaring, "p1 3s", "declarations are still open")
    state = at(dealt(2), ["9s 5d 6d", "4s 8s"])
    assert_refused(state, "p1 9h", "you do not hold 9♥")
    assert_refused(state, "p1 5d 6d", "is not a combination")
    assert_refused(state, "p1 pass", "the leader must play")
    after = act(GAME, state, "p1 9s")
    assert_refused(after, "p2 8s", "does not beat")
    for bad in (DeclareSam(1), CloseDeclarations(None), CloseDeclarations(1), Leave(None)):
        with pytest.raises(IllegalActionError):
            GAME.apply(after, bad)


def test_views_hide_other_hands() -> None:
    """RULES §2.10: other seats' cards never appear; card counts do."""
    state = act(GAME, GAME.apply(dealt(4), CloseDeclarations(None)), "p1 3s")
    for viewer in [None, 0, 1, 2, 3]:
        seen = view_cards(GAME.observe(state, viewer))
        for seat in range(4):
            if seat != viewer:
                assert not seen & set(state.hands[seat])
    view = GAME.observe(state, 2)
    assert view.card_counts == (9, 10, 10, 10) and view.hand == state.hands[2]
    text = GAME.render_text(view)
    assert "p3 (you): 10 cards" in text and "Your hand" in text
    assert "Báo Sâm?" in GAME.render_text(GAME.observe(dealt(3), 0))
