"""Xì tố rules: seed 001 "Xì tố" and RULES.md §2.3, §6, §15 (A-XT*), §16B.

L = 1,000 units (10 gold) throughout, so round 1 is 50 (5 %), round 2's unit 100 (10 %) and the
late unit 200 (20 %).
"""

from __future__ import annotations

import doctest
from typing import Any, cast

import pytest

import sanh.eval.xito
import sanh.games._stud_pots
import sanh.games.xi_to
from sanh.cards import DECK_28, parse_card, parse_cards
from sanh.cards.rng import SeededRng
from sanh.errors import ConfigError, IllegalActionError, NotYourTurnError
from sanh.games import find_game
from sanh.games.base import CHANCE, Action, OptionValue, Shuffle, TableConfig
from sanh.games.driver import chance_event, random_action
from sanh.games.xi_to import (
    BUYIN_AUTO_S,
    AllIn,
    Call,
    Check,
    Fold,
    Leave,
    Muck,
    Raise,
    SetRules,
    Show,
    TurnUp,
    XiTo,
    XiToState,
    buyin_amount,
    buyin_limits,
    lead_key,
    top_up_limits,
    turn_timer_s,
)
from sanh.notation.history import dump_history, load_history, record_history, replay_history
from tests.games.stud_support import play, rejected, seen_by, stacked

GAME = cast(XiTo, find_game("xi-to"))
L = 1000

# Seed example deck (S001 Xì tố §2a), 2 seats: A = p1 (the host), B = p2.
# Card 1 (face up): A 9♣, B 10♠; hole cards A 8♠, B 8♥; card 3 from B: B 10♥, A 9♦;
# card 4 from B: B J♠, A Q♥; card 5 from A: A 8♦, B 8♣.
SEED_EXAMPLE = "9c Ts 8s 8h Th 9d Js Qh 8d 8c"

# Three seats: p2 leads every round (A♠, then three aces); the order is p2, p3, p1.
# p1: K♠ [8♣] K♥ 9♥ 10♥ (pair of K); p2: A♠ [A♥] A♦ 9♣ 10♣ (three aces);
# p3: Q♠ [8♦] Q♥ 9♦ 10♦ (pair of Q).
THREE = "Ks As Qs 8c Ah 8d Ad Qh Kh 9c 9d 9h Tc Td Th"


def deal(
    deck: str,
    *,
    seats: int = 2,
    stacks: list[int] | None = None,
    options: dict[str, Any] | None = None,
    carry: Any = None,
    host: int = 0,
) -> XiToState:
    config = TableConfig.make(
        seats=seats,
        stake=L,
        stacks=stacks or [10 * L] * seats,
        options=options or {},
        carry=carry,
        host=host,
    )
    return GAME.apply(GAME.new_state(config), stacked(DECK_28, deck))


def up_cards(state: XiToState, seat: int) -> list[str]:
    return [str(c) for c, u in zip(state.cards[seat], state.up[seat], strict=True) if u]


def through_round(state: XiToState) -> XiToState:
    """Everyone to act checks, or calls when owing, until the round changes."""
    start = state.round
    while state.round == start and state.phase == "bet":
        seat = state.betting.actor
        assert seat is not None
        action: Action = Check(seat) if state.betting.owes(seat) == 0 else Call(seat)
        state = GAME.apply(state, action)
    return state


# ----- the leader (dealing and betting order) ---------------------------------------------
def test_s001_dealing_order_worked_example() -> None:
    """S001 Xì tố §2a: 'User A: Lá Tẩy_ 9♣, User B: Lá Tẩy_ 10♠ — Lá thứ 3: sẽ chia cho user B
    trước ... User A: 9♣9♦, User B: 10♠10♥ — Lá thứ 4: Chia cho user B trước ... User A:
    9♣9♦Q♥, User B: 10♠10♥J♠ — Lá thứ 5: sẽ chia cho user A trước. Do: ... Xét 2 mậu thầu
    thì: 9♦Q♥ lớn hơn 10♥J♠ => chia bài cho user A trước' (RULES.md §6.4, A-XT2)."""
    state = deal(SEED_EXAMPLE)
    assert state.deal_orders == ((0, 1),)  # the host gets the first card (first hand)
    assert up_cards(state, 0) == ["9c"] and up_cards(state, 1) == ["Ts"]
    assert state.leader == 1 and GAME.to_act(state) == (1,)  # B bets first too
    state = through_round(state)
    assert state.deal_orders[1] == (1, 0)  # card 3 goes to B first
    assert up_cards(state, 0) == ["9c", "9d"] and up_cards(state, 1) == ["Ts", "Th"]
    assert state.leader == 1 and GAME.to_act(state) == (1,)
    state = through_round(state)
    assert state.deal_orders[2] == (1, 0)  # card 4 goes to B first (10-10 > 9-9)
    assert up_cards(state, 0) == ["9c", "9d", "Qh"] and up_cards(state, 1) == ["Ts", "Th", "Js"]
    assert state.leader == 0 and GAME.to_act(state) == (0,)
    state = through_round(state)
    assert state.deal_orders[3] == (0, 1)  # card 5 goes to A first (Q-9 > J-10)
    assert [str(c) for c in state.cards[0]] == ["9c", "8s", "9d", "Qh", "8d"]


def test_a_xt2_lead_rule_all_upcards() -> None:
    """RULES.md A-XT2: ``xito.lead_rule = all_upcards`` (standard stud) would deal card 5 to B
    first in the seed example: B's face-up pair of 10s beats A's pair of 9s."""
    state = deal(SEED_EXAMPLE, options={"xito.lead_rule": "all_upcards"})
    for _ in range(3):
        state = through_round(state)
    assert state.deal_orders[3] == (1, 0)


def test_a_xt2_lead_rule_newest_card() -> None:
    """RULES.md A-XT2: ``xito.lead_rule = newest_card`` ('2d says highest 3rd card') compares
    only the newest face-up card: A's new A♦ beats B's new 10♥ though B shows a pair."""
    deck = "9c Ts 8s 8h Th Ad Js Qh 8d 8c"
    default = through_round(deal(deck))
    assert default.leader == 1  # newest pair: B's pair of 10s
    newest = through_round(deal(deck, options={"xito.lead_rule": "newest_card"}))
    assert newest.leader == 0
    assert lead_key(list(parse_cards("9c Ad")), "newest_card") > lead_key(
        list(parse_cards("Ts Th")), "newest_card"
    )


def test_rules_6_3_start_player_is_previous_winner() -> None:
    """S001 Xì tố §2a/§2d: 'Ván đầu tiên: chia cho chủ bàn trước. Ván bất kỳ: chia cho người
    thắng ván trước đó.' The carry of a hand names its winner, who gets the first card next."""
    assert deal(THREE, seats=3, host=2).deal_orders[0] == (2, 0, 1)  # the host first
    state = deal(THREE, seats=3)
    while state.phase == "bet":
        state = through_round(state)
    assert GAME.settle(state).deltas[1] > 0
    carry = GAME.carry(state)
    assert dict(carry)["winner"] == 1
    nxt = deal(THREE, seats=3, host=2, carry=carry)
    assert nxt.deal_orders[0] == (1, 2, 0)
    # [DEF] a winner who now sits out (stake below L): the next seated player CCW.
    gone = deal(THREE, seats=3, host=2, carry=carry, stacks=[10 * L, 10, 10 * L])
    assert gone.deal_orders[0] == (2, 0)


def test_rules_6_4_leader_all_in_next_player_bets_first() -> None:
    """RULES.md §6.4 [DEF]: 'If the leader is all-in, betting starts with the next player CCW
    who can act'; the all-in player is still dealt cards first (S001: 'Khi người chơi không còn
    Gold để theo tố, họ vẫn được chia bài')."""
    state = deal(THREE, seats=3, stacks=[10 * L, 3 * L, 10 * L], options={"xito.tay_max": True})
    state = through_round(through_round(state))
    state = play(GAME, state, [Check(1), Raise(2, 5000), Call(0), Call(1)])
    assert state.betting.stacks[1] == 0 and state.round == 4
    assert state.deal_orders[3] == (1, 2, 0)  # still dealt card 5, first
    assert state.leader == 1 and GAME.to_act(state) == (2,)


# ----- betting rounds -------------------------------------------------------------------
def test_s001_round_one_five_percent_call_or_fold() -> None:
    """S001 Xì tố §2d: 'Ở vòng cược đầu tiên, mặc định mỗi người chơi sẽ bỏ ra số tiền bằng nhau
    là 5% tiền cược ván đó' — call (Theo) or fold, no raise (A-XT3)."""
    state = deal(SEED_EXAMPLE)
    assert set(GAME.legal_actions(state)) == {Fold(1), Call(1)}
    assert GAME.amount_ranges(state) == ()
    state = GAME.apply(state, Call(1))
    assert state.betting.committed == (0, 50)
    rejected(GAME, state, Check(0), "cannot check")
    rejected(GAME, state, Raise(0, 100), "no bet or raise")


def test_a_xt3_round1_pct_and_round1_raise() -> None:
    """RULES.md A-XT3: ``xito.round1_pct`` sets the round-1 amount; ``xito.round1_raise``
    allows raising it by one more such unit (up to ``xito.max_raises`` raises)."""
    state = deal(SEED_EXAMPLE, options={"xito.round1_pct": 10})
    state = GAME.apply(state, Call(1))
    assert state.betting.committed == (0, 100)
    raising = deal(SEED_EXAMPLE, options={"xito.round1_raise": True, "xito.max_raises": 2})
    assert Raise(1, 100) in GAME.legal_actions(raising)
    raising = play(GAME, raising, [Raise(1, 100), Raise(0, 150)])
    assert Raise(1, 200) not in GAME.legal_actions(raising)  # two raises made
    raising = GAME.apply(raising, Call(1))
    assert raising.betting.committed == (150, 150) and raising.round == 2


def test_s001_auto_follow_two_cards() -> None:
    """S001 Xì tố §2e: 'Khi người chơi chọn luật "Tự động theo 2 lá" thì hệ thống sẽ tố theo quy
    định mà người chơi không cần nhấn tố' (``xito.auto_follow_2``, off by default)."""
    assert not GAME.rules(TableConfig.make(seats=2)).auto_follow_2
    state = deal(SEED_EXAMPLE, options={"xito.auto_follow_2": True})
    assert state.betting.committed == (50, 50)
    assert state.round == 2 and len(state.cards[0]) == 3
    assert dict(GAME.observe(state, None).rules)["auto_follow_2"] is True


def test_rules_6_3_fixed_units_rounds_two_to_four() -> None:
    """RULES.md §6.3 (A-XT4): round 2 bets in units of 10 % of L, rounds 3-4 in 20 % of L without
    Tẩy Max; a bet and at most 3 raises per round."""
    state = through_round(deal(SEED_EXAMPLE))
    assert Raise(1, 100) in GAME.legal_actions(state)
    rejected(GAME, state, Raise(1, 150), "at most 1.00 ")
    rejected(GAME, state, Raise(1, 50), "at least 1.00 ")
    state = play(GAME, state, [Raise(1, 100), Raise(0, 200), Raise(1, 300), Raise(0, 400)])
    assert not any(isinstance(a, Raise) for a in GAME.legal_actions(state))  # bet + 3 raises
    state = GAME.apply(state, Call(1))
    assert state.round == 3
    assert GAME.amount_ranges(state)[0].min == GAME.amount_ranges(state)[0].max == 200
    assert not any(isinstance(a, AllIn) for a in GAME.legal_actions(state))


def test_a_xt4_late_unit_max_raises_and_late_limit() -> None:
    """RULES.md A-XT4: ``xito.late_unit_pct``, ``xito.max_raises`` and ``xito.late_limit``."""
    state = through_round(through_round(deal(SEED_EXAMPLE, options={"xito.late_unit_pct": 30})))
    assert GAME.amount_ranges(state)[0].min == 300
    capped = through_round(deal(SEED_EXAMPLE, options={"xito.max_raises": 1}))
    capped = play(GAME, capped, [Raise(1, 100), Raise(0, 200)])
    assert not any(isinstance(a, Raise) for a in GAME.legal_actions(capped))
    nolimit = deal(SEED_EXAMPLE, options={"xito.late_limit": "nolimit"})
    nolimit = through_round(through_round(nolimit))
    (raise_range,) = GAME.amount_ranges(nolimit)
    assert (raise_range.min, raise_range.max) == (200, 10 * L - 50)
    assert not any(isinstance(a, AllIn) for a in GAME.legal_actions(nolimit))


def test_s001_tay_max_from_the_fourth_card() -> None:
    """S001 Xì tố §2e: 'Luật Tẩy Max ... ngoài trừ lá thứ 2 tố 5% tiền cược, lá thứ 3 tố 10% tiền
    cược thì lá thứ tư trở đi người chơi có thể tố hết số tiền còn lại của mình' (A-XT13); the
    *Tất cả* button exists only with it."""
    state = through_round(deal(SEED_EXAMPLE, options={"xito.tay_max": True}))
    assert not any(isinstance(a, AllIn) for a in GAME.legal_actions(state))  # card 3: fixed 10 %
    assert GAME.amount_ranges(state)[0].max == 100
    state = through_round(state)
    assert AllIn(0) in GAME.legal_actions(state)
    (raise_range,) = GAME.amount_ranges(state)
    assert (raise_range.min, raise_range.max) == (100, 10 * L - 50)
    state = GAME.apply(state, AllIn(0))
    assert state.betting.stacks[0] == 0
    state = GAME.apply(state, Call(1))
    assert state.phase == "over"  # nobody left to bet: card 5 dealt, showdown
    assert len(state.cards[1]) == 5


def test_a_xt13_all_in_from_card_three() -> None:
    """RULES.md A-XT13: ``xito.all_in_from_card = 3`` opens Tẩy Max from card 3."""
    options = {"xito.tay_max": True, "xito.all_in_from_card": 3}
    state = through_round(deal(SEED_EXAMPLE, options=options))
    assert state.round == 2 and AllIn(1) in GAME.legal_actions(state)
    assert GAME.amount_ranges(state)[0].max == 10 * L - 50


def test_rules_4_5_cap_largest_other_stack() -> None:
    """RULES.md §6.2/§4.5: a total contribution may not exceed the largest (committed + stack)
    among the other players still in the hand (S001 Hold'em: 'Tối đa là số tiền lớn nhất của
    người chơi khác')."""
    state = deal(SEED_EXAMPLE, stacks=[10 * L, 2 * L], options={"xito.tay_max": True})
    state = through_round(through_round(state))
    (raise_range,) = GAME.amount_ranges(state)
    assert raise_range.max == 2 * L - 50  # B can put in at most 2,000 in all
    rejected(GAME, state, Raise(0, 2 * L), "at most 19.50 ")


def test_short_all_in_raise_does_not_reopen() -> None:
    """RULES.md §4.5 [CP], applied to Xì tố: an all-in raise below the minimum increment does not
    let players who have already acted raise again; a full raise does."""
    options = {"xito.tay_max": True}
    short = deal(THREE, seats=3, stacks=[10 * L, 1130, 10 * L], options=options)
    short = through_round(through_round(short))
    short = play(GAME, short, [Check(1), Raise(2, 1000), Call(0), AllIn(1)])
    assert short.betting.round_bets[1] == 1080  # 80 more than 1,000: less than 10 % of L
    assert GAME.to_act(short) == (2,)
    assert not any(isinstance(a, Raise | AllIn) for a in GAME.legal_actions(short))
    full = deal(THREE, seats=3, stacks=[10 * L, 1250, 10 * L], options=options)
    full = through_round(through_round(full))
    full = play(GAME, full, [Check(1), Raise(2, 1000), Call(0), AllIn(1)])
    assert full.betting.round_bets[1] == 1200
    assert any(isinstance(a, Raise) for a in GAME.legal_actions(full))


# ----- short stacks, side pots, showdown ------------------------------------------------
def test_s001_short_stack_side_pot() -> None:
    """S001 Xì tố §2d: 'Người theo tố phải bỏ hết số Gold đang có nếu tổng số Gold đang có nhỏ
    hơn với Gold tố của người liền kế trước. Khi đó, sẽ tách số Gold ra thêm 1 phần: Phần Gold
    dành cho người theo tố hết Gold: Mỗi người chơi khác sẽ lấy phần Gold bằng với người hết
    Gold. Phần Gold dành cho những người khác: Gold trội ra ... Theo đó người có bài lớn sẽ thắng
    phần Gold mà mình theo tố. Phần trội ra sẽ xét cho những người khác.'

    p2 (3,000) calls a 5,000 bet all-in for 2,950 and wins with three aces: the main pot is
    3 x 3,000; the excess 2 x 2,050 goes to the better of p1 (kings) and p3 (queens)."""
    state = deal(THREE, seats=3, stacks=[10 * L, 3 * L, 10 * L], options={"xito.tay_max": True})
    state = through_round(through_round(state))
    state = play(GAME, state, [Check(1), Raise(2, 5000), Call(0), Call(1)])
    assert state.betting.committed == (5050, 3000, 5050)
    state = play(GAME, state, [Check(2), Check(0)])
    assert state.phase == "over" and state.showdown
    settlement = GAME.settle(state)
    settlement.check()
    assert dict(settlement.detail)["pots"] == ((9000, (0, 1, 2)), (4100, (0, 2)))
    assert settlement.deltas == (4100 - 5050, 9000 - 3000, -5050)


def test_a_xt6_table_option_reaches_the_showdown() -> None:
    """S001 Xì tố §3 at the table: A holds 8♥-Q♥, B holds 9♣-K♣; A wins by default (the lower
    straight flush), B with ``xito.lower_straight_flush_wins = false``."""
    deck = "8h 9c 9h Tc Jc Th Qc Jh Kc Qh"
    for option, winner in ((True, 0), (False, 1)):
        state = deal(deck, options={"xito.lower_straight_flush_wins": option})
        while state.phase == "bet":
            state = through_round(state)
        assert state.showdown
        assert GAME.settle(state).deltas[winner] > 0


def test_a_xt8_split_pot_without_suit_tiebreak() -> None:
    """RULES.md A-XT8: ``xito.suit_tiebreak = false`` splits equal hands; the odd unit goes to
    the first tied winner from the start player [DEF]."""
    # A: 8♣ [9♣] T♦ J♥ Q♠ (straight), B: 8♦ [9♦] T♣ J♠ Q♥ (straight), both Q-high.
    deck = "8c 8d 9c 9d Tc Td Js Jh Qh Qs"
    for tiebreak in (True, False):
        state = deal(deck, options={"xito.suit_tiebreak": tiebreak, "xito.round1_pct": 7})
        while state.phase == "bet":
            state = through_round(state)
        deltas = GAME.settle(state).deltas
        if tiebreak:
            assert sorted(deltas) == [-70, 70]
        else:
            assert deltas == (0, 0)


def test_player_with_no_stake_left_is_still_dealt() -> None:
    """S001 Xì tố §2d: 'Khi người chơi không còn Gold để theo tố, họ vẫn được chia bài.'"""
    state = deal(SEED_EXAMPLE, stacks=[10 * L, L], options={"xito.tay_max": True})
    state = through_round(through_round(state))
    state = play(GAME, state, [AllIn(0), Call(1)])
    assert state.betting.stacks[1] == 0
    assert len(state.cards[1]) == 5 and state.showdown


# ----- face-down fifth card, first bettor, variant 2 --------------------------------------
def test_s001_face_down_fifth_card() -> None:
    """S001 Xì tố §2e: 'Luật Tẩy Lá Bài Thứ 5: Hệ thống chia lá bài thứ 5 úp xuống, đối với bài
    của chính người chơi thì ngửa lên để xem giá trị bài ... Kết thúc vòng tố Phỉnh, các lá bài
    tẩy được lật ngửa ra cho tất cả người chơi'. The round-4 leader stays the round-3 leader."""
    state = deal(SEED_EXAMPLE, options={"xito.hole_5th": True})
    for _ in range(3):
        state = through_round(state)
    assert state.round == 4 and state.up[0][4] is False and state.up[1][4] is False
    assert state.leader == 0  # round 3's leader
    assert "8d" in seen_by(GAME, state, 0) and "8d" not in seen_by(GAME, state, 1)
    assert "8c" not in seen_by(GAME, state, 0) and "8c" not in seen_by(GAME, state, None)
    state = through_round(state)
    assert state.showdown and {"8d", "8c", "8s", "8h"} <= seen_by(GAME, state, None)


def test_a_xt5_first_bettor_sets_the_rules() -> None:
    """RULES.md A-XT5: 'Tẩy Max and face-down 5th card are set by the player who bets first at
    the table' (S001: 'người chơi tố đầu trong bàn có thể chọn luật này') with
    ``xito.option_setter = first_bettor``; the choice carries to later hands."""
    options = {"xito.option_setter": "first_bettor"}
    state = deal(SEED_EXAMPLE, options=options)
    assert state.phase == "rules" and GAME.to_act(state) == (1,)
    assert GAME.default_action(state, 1, "timeout") == SetRules(1, False, False)
    rejected(GAME, state, SetRules(0, True, True), "may not act")
    state = GAME.apply(state, SetRules(1, True, True))
    assert state.tay_max and state.hole_5th and state.phase == "bet"
    while state.phase == "bet":
        state = through_round(state)
    carry = GAME.carry(state)
    assert dict(carry)["tay_max"] is True and dict(carry)["hole_5th"] is True
    nxt = deal(SEED_EXAMPLE, options=options, carry=carry)
    assert nxt.phase == "bet" and nxt.tay_max and nxt.hole_5th
    host_set = deal(SEED_EXAMPLE, options={"xito.tay_max": True})
    assert host_set.phase == "bet" and host_set.tay_max and not host_set.hole_5th


def test_s001_variant_two_choose_the_face_up_card() -> None:
    """S001 Xì tố variant 2: 'Mỗi người chơi sẽ được chia 2 lá. Người chơi sẽ chọn 1 trong 2 lá để
    lật lên, lá còn lại sẽ úp' and 'Vòng cược bắt đầu với người chơi có quân bài ngửa mang giá
    trị cao nhất'. Others see the choices once everyone has chosen [DEF]."""
    state = deal(SEED_EXAMPLE, options={"xito.variant": 2})
    assert state.phase == "choose" and GAME.to_act(state) == (0, 1)
    assert seen_by(GAME, state, 1).isdisjoint({"9c", "8s"})
    rejected(GAME, state, TurnUp(0, parse_card("Ts")), "own two")
    state = GAME.apply(state, TurnUp(0, parse_card("8s")))
    assert "8s" not in seen_by(GAME, state, 1) and GAME.to_act(state) == (1,)
    assert GAME.default_action(state, 1, "timeout") == TurnUp(1, parse_card("Ts"))
    state = GAME.apply(state, TurnUp(1, parse_card("8h")))
    assert up_cards(state, 0) == ["8s"] and up_cards(state, 1) == ["8h"]
    assert "8s" in seen_by(GAME, state, 1) and "9c" not in seen_by(GAME, state, 1)
    assert state.leader == 1 and GAME.to_act(state) == (1,)  # 8♥ > 8♠


def test_a_xt11_variant_two_nolimit_no_check() -> None:
    """RULES.md §6.6 (A-XT11): variant 2 bets no-limit, all-in always allowed, no check; the
    opener bets at least 5 % of L in round 1 and 10 % later."""
    state = deal(SEED_EXAMPLE, options={"xito.variant": 2})
    state = play(GAME, state, [TurnUp(0, parse_card("9c")), TurnUp(1, parse_card("Ts"))])
    legal = GAME.legal_actions(state)
    assert not any(isinstance(a, Check | Call) for a in legal) and AllIn(1) in legal
    (raise_range,) = GAME.amount_ranges(state)
    assert (raise_range.min, raise_range.max) == (50, 10 * L)
    rejected(GAME, state, Check(1), "cannot check")
    state = play(GAME, state, [Raise(1, 50), Call(0)])
    assert state.round == 2
    assert GAME.amount_ranges(state)[0].min == 100
    assert GAME.default_action(state, 1, "timeout") == Fold(1)


def test_a_xt11_variant_two_as_v1() -> None:
    """RULES.md A-XT11: ``xito.v2_limit = as_v1`` keeps variant 2's dealing with V1's betting."""
    state = deal(SEED_EXAMPLE, options={"xito.variant": 2, "xito.v2_limit": "as_v1"})
    state = play(GAME, state, [TurnUp(0, parse_card("9c")), TurnUp(1, parse_card("Ts"))])
    assert set(GAME.legal_actions(state)) == {Fold(1), Call(1)}
    state = through_round(state)
    assert Check(1) in GAME.legal_actions(state)


# ----- fold wins and Lật tẩy ---------------------------------------------------------------
def test_s001_lat_tay_winner_by_fold_may_show() -> None:
    """S001 Xì tố §2d: 'Nếu người chơi muốn hiển thị bài của mình sau khi kết thúc thì nhấn nút
    "Lật tẩy" và bài của người chơi hiển thị khi là người chiến thắng cuối cùng'; 'Trong trường
    hợp chỉ còn 1 người chưa bỏ cuộc, người đó thắng ván bài'. Folded hands are never shown."""
    state = play(GAME, deal(SEED_EXAMPLE), [Call(1), Fold(0)])
    assert state.phase == "show" and GAME.to_act(state) == (1,)
    assert set(GAME.legal_actions(state)) == {Show(1), Muck(1)}
    assert GAME.default_action(state, 1, "timeout") == Muck(1)
    mucked = GAME.apply(state, Muck(1))
    assert GAME.is_terminal(mucked) and GAME.settle(mucked).deltas == (0, 0)
    assert "8h" not in seen_by(GAME, mucked, 0) and "8s" not in seen_by(GAME, mucked, 1)
    shown = GAME.apply(state, Show(1))
    assert "8h" in seen_by(GAME, shown, 0) and "8h" in seen_by(GAME, shown, None)
    assert "8s" not in seen_by(GAME, shown, 1) and "8s" not in seen_by(GAME, shown, None)
    assert dict(GAME.settle(shown).detail)["by_fold"] is True


def test_settlement_of_a_fold_win() -> None:
    """The winner by fold takes the pot; the folder loses what it put in (RULES.md §6.3)."""
    state = through_round(deal(SEED_EXAMPLE))
    state = play(GAME, state, [Raise(1, 100), Fold(0), Muck(1)])
    settlement = GAME.settle(state)
    settlement.check()
    assert settlement.deltas == (-50, 50)


# ----- bad input --------------------------------------------------------------------------
def test_bad_input_is_refused_with_clear_errors() -> None:
    """A raise below the minimum or above the maximum, acting out of turn, acting after folding,
    and an action for a seat not in the hand are refused; the state is unchanged."""
    options = {"xito.tay_max": True}
    state = deal(THREE, seats=3, stacks=[10 * L, 10 * L, 10 * L], options=options)
    rejected(GAME, state, Call(0), "may not act now")
    state = play(GAME, state, [Call(1), Fold(2), Call(0)])
    state = through_round(state)  # round 2: p2 then p1
    assert state.round == 3 and GAME.to_act(state) == (1,)
    rejected(GAME, state, Raise(1, 99), "at least 1.00 ")
    rejected(GAME, state, Raise(1, 10 * L), "at most 99.50 ")
    error = rejected(GAME, state, Check(2), "has folded")
    assert isinstance(error, NotYourTurnError)
    rejected(GAME, state, Check(0), "may not act now")
    rejected(GAME, state, Call(1), "nothing to call")
    rejected(GAME, state, TurnUp(1, parse_card("As")), "only betting actions")
    rejected(GAME, state, Check(7), "no such seat")
    sitting = deal(SEED_EXAMPLE, seats=3, stacks=[10 * L, 10 * L, L - 1])
    assert sitting.deal_orders[0] == (0, 1) and sitting.cards[2] == ()
    rejected(GAME, sitting, Call(2), "not dealt into this hand")
    no_tay_max = through_round(through_round(deal(SEED_EXAMPLE)))
    rejected(GAME, no_tay_max, AllIn(0), "not available")


def test_config_errors() -> None:
    """Impossible tables are refused: too many seats for 28 cards, fewer than two stakes of L,
    an unknown option or value."""
    with pytest.raises(ConfigError):
        GAME.new_state(TableConfig.make(seats=6))
    with pytest.raises(ConfigError):
        GAME.new_state(TableConfig.make(seats=2, stake=L, stacks=[10 * L, 10]))
    with pytest.raises(ConfigError):
        GAME.new_state(TableConfig.make(seats=2, options={"xito.variant": 3}))
    with pytest.raises(ConfigError):
        GAME.new_state(TableConfig.make(seats=2, options={"xito.round1_pct": 0}))
    with pytest.raises(ConfigError):
        GAME.new_state(TableConfig.make(seats=2, options={"xito.nope": True}))


# ----- timeouts, buy-in, timer -------------------------------------------------------------
def test_rules_6_7_timeout_checks_when_free_else_folds() -> None:
    """RULES.md §6.7: 'Timeout or disconnect: Không tố if there is nothing to call (V1),
    otherwise Bỏ.' Leaving is a fold."""
    state = deal(SEED_EXAMPLE)
    assert GAME.default_action(state, 1, "timeout") == Fold(1)
    assert GAME.default_action(state, 0, "timeout") is None  # not p1's turn
    state = through_round(state)
    assert GAME.default_action(state, 1, "timeout") == Check(1)
    assert GAME.default_action(state, 1, "disconnect") == Check(1)
    assert GAME.default_action(state, 1, "leave") == Leave(1)
    assert GAME.default_action(state, 0, "leave") == Leave(0)  # at once, not on its turn
    state = GAME.apply(state, Raise(1, 100))
    assert GAME.default_action(state, 0, "timeout") == Fold(0)


def test_rules_6_7_leaving_after_acting_folds_at_once_and_cannot_win() -> None:
    """RULES.md §6.7 / issue 11: 'Leaving mid-hand is a fold; chips already put in stay in the
    pot', at once and wherever the turn is. Three seats play at random; whenever a seat that is
    not to act has already put chips in this round it leaves: it never acts again, never wins,
    and loses exactly what it had put in."""
    rng = SeededRng("xito/leave-out-of-turn")
    checked = 0
    for _ in range(40):
        config = TableConfig.make(seats=3, stake=L, stacks=[10 * L] * 3)
        state = GAME.new_state(config)
        leaver, cost = None, 0
        while GAME.to_act(state) is not None:
            turn = GAME.to_act(state)
            if turn == CHANCE:
                state = GAME.apply(state, chance_event(GAME, state, rng))
                continue
            assert isinstance(turn, tuple)
            if leaver is None and state.phase == "bet":
                acted = [
                    s
                    for s in state.betting.live_seats()
                    if s not in turn and state.betting.round_bets[s]
                ]
                if acted:
                    leaver = acted[0]
                    assert GAME.default_action(state, leaver, "leave") == Leave(leaver)
                    cost = GAME.leave_cost(state, leaver) or 0
                    assert cost == state.betting.committed[leaver] > 0
                    state = GAME.apply(state, Leave(leaver))
                    continue
            assert leaver not in (GAME.to_act(state) or ())
            state = GAME.apply(state, random_action(GAME, state, rng))
        settlement = GAME.settle(state)
        settlement.check()
        if leaver is not None:
            checked += 1
            assert settlement.deltas[leaver] == -cost
            assert leaver not in dict(settlement.detail)["winners"]
    assert checked >= 10


def test_leaving_in_the_variant_two_choice_does_not_stall_the_hand() -> None:
    """Variant 2: a seat that leaves while the others choose their face-up card is out, and
    the choice ends when the seats still in have chosen."""
    state = deal(SEED_EXAMPLE, seats=3, options={"xito.variant": 2})
    assert state.phase == "choose"
    state = GAME.apply(state, TurnUp(0, state.cards[0][0]))
    state = GAME.apply(state, Leave(2))
    assert state.phase == "choose" and GAME.to_act(state) == (1,)
    state = GAME.apply(state, TurnUp(1, state.cards[1][0]))
    assert state.phase in ("bet", "rules") and state.betting.folded[2]


def test_s001_buyin_panel_min_l_max_ten_l() -> None:
    """S001 Xì tố §2d: 'Khi user vào bàn chơi sẽ hiển thị bảng chuyển Gold ... Min = Gold cược
    ván chơi, Max = 10 lần Gold cược ván chơi. Sau 5 giây, không thực hiện chuyển Gold thì sẽ
    lấy mức Max vào Tẩy.' Below the min the player cannot sit; below the max the whole balance
    goes in [DEF] (RULES.md §2.3)."""
    assert buyin_limits(L) == (L, 10 * L)
    assert BUYIN_AUTO_S == 5
    assert buyin_amount(100 * L, L) == 10 * L
    assert buyin_amount(3 * L, L) == 3 * L
    assert buyin_amount(L - 1, L) is None
    assert buyin_amount(100 * L, L, 4 * L) == 4 * L
    with pytest.raises(ConfigError):
        buyin_amount(100 * L, L, 11 * L)
    with pytest.raises(ConfigError):
        buyin_amount(100 * L, L, L - 1)
    with pytest.raises(ConfigError):
        buyin_amount(2 * L, L, 3 * L)
    assert top_up_limits(300, 100 * L, L) == (700, 9700)
    assert top_up_limits(L, 100 * L, L) is None


def test_a_pl5_quick_mode_timer() -> None:
    """RULES.md §2.5/A-PL5: ``table.quick_mode`` turns the 15 s turn timer into 7 s."""
    quick = GAME.rules(TableConfig.make(seats=2, options={"table.quick_mode": True}))
    normal = GAME.rules(TableConfig.make(seats=2))
    assert turn_timer_s(quick.quick_mode) == 7 and turn_timer_s(normal.quick_mode) == 15


# ----- hidden information and histories ----------------------------------------------------
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"xito.variant": 2},
    {"xito.hole_5th": True, "xito.tay_max": True},
    {"xito.option_setter": "first_bettor", "xito.auto_follow_2": True},
]


def random_hands(count: int, seats: int, options: dict[str, Any], seed: str) -> list[Any]:
    rng = SeededRng(seed)
    states = []
    for _ in range(count):
        stacks = [L * (1 + rng.randbelow(15)) for _ in range(seats)]
        config = TableConfig.make(seats=seats, stake=L, stacks=stacks, options=options)
        state = GAME.new_state(config)
        trail = [state]
        while (turn := GAME.to_act(state)) is not None:
            event = (
                random_action(GAME, state, rng)
                if isinstance(turn, tuple)
                else chance_event(GAME, state, rng)
            )
            state = GAME.apply(state, event)
            trail.append(state)
        states.append(trail)
    return states


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "default")
def test_views_hide_hole_cards_until_showdown(options: dict[str, Any]) -> None:
    """RULES.md §2.10: face-down cards go only to their owner until the showdown; the deck and
    folded hands are never sent; a winner by fold shows only with Lật tẩy."""
    for trail in random_hands(6, 4, options, f"views/{sorted(options)}"):
        for state in trail:
            if not state.cards:
                continue
            for seat in range(4):
                if not state.betting.in_hand[seat]:
                    continue
                hidden = {
                    str(card)
                    for i, card in enumerate(state.cards[seat])
                    if not (state.up[seat][i] and state.phase != "choose")
                }
                revealed = state.phase == "over" and (
                    (state.showdown and not state.betting.folded[seat])
                    or (state.shown and state.winner == seat)
                )
                assert hidden <= seen_by(GAME, state, seat)
                for viewer in [None, *range(4)]:
                    if viewer == seat:
                        continue
                    seen = seen_by(GAME, state, viewer)
                    if revealed:
                        assert hidden <= seen
                    else:
                        assert hidden.isdisjoint(seen), (seat, viewer, state.phase)
                undealt = {str(c) for c in state.deck[state.dealt :]}
                assert undealt.isdisjoint(seen_by(GAME, state, seat))


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "default")
def test_histories_round_trip_with_options_and_carry(options: dict[str, Any]) -> None:
    """Hand histories (sanh.notation.history) replay these hands, their options and carry, to
    the same states and settlements."""
    carry: Any = None
    rng = SeededRng(f"history/{sorted(options)}")
    for _ in range(4):
        config = TableConfig.make(seats=3, stake=L, options=options, carry=carry)
        state = GAME.new_state(config)
        while (turn := GAME.to_act(state)) is not None:
            event = (
                random_action(GAME, state, rng)
                if isinstance(turn, tuple)
                else chance_event(GAME, state, rng)
            )
            state = GAME.apply(state, event)
        history = load_history(dump_history(record_history(GAME, state, seed="x")))
        replayed, settlement = replay_history(history)
        assert replayed == state and settlement == GAME.settle(state)
        carry = GAME.carry(state)


def test_render_text_shows_only_the_view() -> None:
    """``render_text`` (the ``sanh play`` table) draws the viewer's own hole card and hides the
    others'."""
    state = through_round(deal(SEED_EXAMPLE))
    text = GAME.render_text(GAME.observe(state, 0))
    assert "[8♠]" in text and "8♥" not in text and "??" in text
    assert "Xì tố V1" in text and "10♠" in text


def test_shuffle_must_be_the_28_card_deck() -> None:
    """The chance event is a permutation of the 28-card deck."""
    state = GAME.new_state(TableConfig.make(seats=2))
    with pytest.raises(IllegalActionError):
        GAME.apply(state, Shuffle(tuple(DECK_28[:-1])))


def test_doctests() -> None:
    """The examples in the modules' docstrings hold."""
    for module in (sanh.games.xi_to, sanh.games._stud_pots, sanh.eval.xito):
        assert doctest.testmod(module).failed == 0


# Every Xì tố flag of RULES.md (§6, §15 A-XT*, §16B) and the platform flag that applies.
RULES_FLAGS: dict[str, OptionValue] = {
    "xito.variant": 2,
    "xito.auto_follow_2": True,
    "xito.hole_5th": True,
    "xito.tay_max": True,
    "xito.lead_rule": "all_upcards",
    "xito.round1_pct": 10,
    "xito.round1_raise": True,
    "xito.late_unit_pct": 30,
    "xito.late_limit": "nolimit",
    "xito.max_raises": 1,
    "xito.option_setter": "first_bettor",
    "xito.lower_straight_flush_wins": False,
    "xito.ace_low_straight": True,
    "xito.suit_tiebreak": False,
    "xito.suit_before_kickers": True,
    "xito.flush_beats_full_house": True,
    "xito.v2_limit": "as_v1",
    "xito.all_in_from_card": 3,
    "table.quick_mode": True,
}


def test_every_rules_flag_is_an_option() -> None:
    """RULES.md lists these flags for Xì tố; each is an option of ``info.options`` with the
    document's default, and its other value is accepted."""
    specs = {spec.name: spec for spec in GAME.info.options}
    assert set(specs) == set(RULES_FLAGS)
    for name, other in RULES_FLAGS.items():
        assert specs[name].check(other) == other
        assert specs[name].default != other


def test_ranking_flags_reach_the_ranking() -> None:
    """The ranking flags (A-XT6 to A-XT10) set the evaluator's rules."""
    fields = {
        "xito.lower_straight_flush_wins": "lower_straight_flush_wins",
        "xito.ace_low_straight": "ace_low_straight",
        "xito.suit_tiebreak": "suit_tiebreak",
        "xito.suit_before_kickers": "suit_before_kickers",
        "xito.flush_beats_full_house": "flush_beats_full_house",
    }
    default = GAME.rules(TableConfig.make(seats=2)).ranking
    for option, field in fields.items():
        changed = GAME.rules(TableConfig.make(seats=2, options={option: RULES_FLAGS[option]}))
        assert getattr(changed.ranking, field) == RULES_FLAGS[option] != getattr(default, field)
