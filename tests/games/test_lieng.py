"""Liêng rules: seed 001 "Chơi Liêng" and RULES.md §2.6, §8, §15 (A-LI*, A-PL2, A-PL4).

L = 1,000 units throughout; stacks are account balances (20 L unless said otherwise).
"""

from __future__ import annotations

import doctest
from typing import Any, cast

import pytest

import sanh.eval.lieng
import sanh.games.lieng
from sanh.cards import DECK_52
from sanh.cards.rng import SeededRng
from sanh.errors import ConfigError, NotYourTurnError
from sanh.games import find_game
from sanh.games.base import OptionValue, TableConfig
from sanh.games.driver import chance_event, random_action
from sanh.games.lieng import (
    Call,
    Fold,
    Leave,
    Lieng,
    LiengState,
    Muck,
    Raise,
    Show,
    can_start,
    hand_label,
)
from sanh.games.xi_to import turn_timer_s
from sanh.notation.history import dump_history, load_history, record_history, replay_history
from tests.games.stud_support import play, rejected, seen_by, stacked

GAME = cast(Lieng, find_game("Liêng"))
L = 1000


def deal(
    deck: str,
    *,
    seats: int = 2,
    stacks: list[int] | None = None,
    options: dict[str, Any] | None = None,
    carry: Any = None,
    host: int = 0,
) -> LiengState:
    config = TableConfig.make(
        seats=seats,
        stake=L,
        stacks=stacks or [20 * L] * seats,
        options=options or {},
        carry=carry,
        host=host,
    )
    return GAME.apply(GAME.new_state(config), stacked(DECK_52, deck))


def cards_of(state: LiengState, seat: int) -> str:
    return " ".join(str(c) for c in state.cards[seat])


def call_down(state: LiengState) -> LiengState:
    while state.phase == "bet":
        seat = state.betting.actor
        assert seat is not None
        state = GAME.apply(state, Call(seat))
    return state


def test_s001_ante_before_the_deal() -> None:
    """S001 Liêng §1: 'Trước khi chia bài, tất cả game thủ sẽ bỏ ra 1 số tiền cược quy định bằng
    nhau (bằng với mức cược min của bàn chơi).'"""
    state = GAME.new_state(TableConfig.make(seats=4, stake=L, stacks=[20 * L] * 4))
    assert state.betting.committed == (L,) * 4
    assert state.betting.stacks == (19 * L,) * 4
    view = GAME.observe(state, None)
    assert view.pots == ((4 * L, (0, 1, 2, 3)),)


def test_s001_three_cards_one_betting_round() -> None:
    """S001 Liêng §1: 'Mỗi người chơi sẽ được chia 3 lá bài và đối thủ không hề biết trước và
    bắt đầu đặt cược, chỉ có 1 vòng cược duy nhất' and 'Sau khi đặt cược xong, sẽ mở bài'."""
    state = deal("2c 3c 4c 5c 6c 7c 8c 9c Tc", seats=3)
    assert [cards_of(state, s) for s in range(3)] == ["2c 5c 8c", "3c 6c 9c", "4c 7c Tc"]
    assert GAME.to_act(state) == (0,)  # the host acts first [DEF]
    state = play(GAME, state, [Raise(0, L), Call(1), Call(2)])
    assert state.phase == "over" and state.showdown
    settlement = GAME.settle(state)
    settlement.check()
    # 2-5-8: 5 points, 3-6-9: 8 points, 4-7-10: 1 point.
    assert settlement.deltas == (-2 * L, 4 * L, -2 * L)


def test_s001_three_choices_to_theo_bo() -> None:
    """S001 Liêng §2: 'Đến lượt mình người chơi có 3 lựa chọn: Tố ... Theo ... Bỏ'. A call when
    nothing is owed is a check (RULES.md §8.2)."""
    state = deal("2c 3c 4c 5c 6c 7c")
    legal = GAME.legal_actions(state)
    assert {type(a) for a in legal} == {Fold, Call, Raise}
    state = GAME.apply(state, Call(0))
    assert state.betting.committed == (L, L)
    state = GAME.apply(state, Raise(1, 3 * L))
    assert state.phase == "bet" and GAME.to_act(state) == (0,)
    state = GAME.apply(state, Call(0))
    assert state.betting.committed == (4 * L, 4 * L) and state.phase == "over"


def test_rules_8_2_raise_size_l_to_10l() -> None:
    """RULES.md §8.2 (A-LI5): 'Tố (raise): call, then add at least L [DEF] and at most
    lieng.raise_cap = 10 L per raise [CP]'; ``lieng.raise_cap = 0`` is no-limit (capped only by
    the largest other stack, §4.5); ``lieng.min_raise`` changes the minimum."""
    state = deal("2c 3c 4c 5c 6c 7c")
    (raise_range,) = GAME.amount_ranges(state)
    assert (raise_range.min, raise_range.max) == (L, 10 * L)
    rejected(GAME, state, Raise(0, L - 1), "at least 10.00 ")
    rejected(GAME, state, Raise(0, 10 * L + 1), "at most 100.00 ")
    state = GAME.apply(state, Raise(0, 4 * L))
    (raise_range,) = GAME.amount_ranges(state)
    assert (raise_range.min, raise_range.max) == (5 * L, 14 * L)
    nolimit = deal("2c 3c 4c 5c 6c 7c", options={"lieng.raise_cap": 0}, stacks=[50 * L, 30 * L])
    (raise_range,) = GAME.amount_ranges(nolimit)
    assert raise_range.max == 29 * L  # the other player's 30 L, less the ante both paid
    bigger = deal("2c 3c 4c 5c 6c 7c", options={"lieng.min_raise": 2})
    assert GAME.amount_ranges(bigger)[0].min == 2 * L
    with pytest.raises(ConfigError):
        GAME.rules(TableConfig.make(seats=2, options={"lieng.raise_cap": 1, "lieng.min_raise": 2}))


def test_rules_8_2_order_host_then_previous_winner_and_direction() -> None:
    """RULES.md §8.2 [DEF]: 'Order: CCW, starting with the host in the first hand and with the
    previous winner afterwards'; ``lieng.direction = cw`` reverses it (A-PL2)."""
    state = deal("2c 3c 4c 5c 6c 7c 8c 9c Tc", seats=3, host=1)
    assert GAME.to_act(state) == (1,)
    assert cards_of(state, 1) == "2c 5c 8c"  # dealt first, too
    state = play(GAME, state, [Call(1), Call(2), Call(0)])
    winner = dict(GAME.carry(state))["winner"]
    assert winner == max(range(3), key=lambda s: GAME.settle(state).deltas[s])
    nxt = deal("2c 3c 4c 5c 6c 7c 8c 9c Tc", seats=3, host=1, carry=GAME.carry(state))
    assert GAME.to_act(nxt) == (winner,)
    clockwise = deal("2c 3c 4c 5c 6c 7c 8c 9c Tc", seats=3, options={"lieng.direction": "cw"})
    assert cards_of(clockwise, 2) == "3c 6c 9c"  # p1, then p3, then p2
    clockwise = GAME.apply(clockwise, Call(0))
    assert GAME.to_act(clockwise) == (2,)


def test_a_pl4_balance_needed_to_start() -> None:
    """RULES.md §2.6 (A-PL4): a player needs ``platform.min_balance_multiple`` x L (10 L) to
    start a game of Liêng; below it the seat sits out; ``0`` turns the check off, and a balance
    below L antes all-in [DEF]."""
    assert can_start(10 * L, L) and not can_start(10 * L - 1, L)
    state = deal("2c 3c 4c 5c 6c 7c", seats=3, stacks=[20 * L, 9 * L, 20 * L])
    assert not state.betting.in_hand[1] and state.cards[1] == ()
    assert state.betting.committed == (L, 0, L)
    rejected(GAME, state, Call(1), "not dealt into this hand")
    open_table = deal(
        "2c 3c 4c 5c 6c 7c", stacks=[20 * L, L // 2], options={"platform.min_balance_multiple": 0}
    )
    assert open_table.betting.committed == (L, L // 2)
    assert open_table.phase == "over"  # p2 is all-in on the ante: nobody to bet against
    with pytest.raises(ConfigError):
        GAME.new_state(TableConfig.make(seats=2, stake=L, stacks=[20 * L, 9 * L]))


def test_short_all_in_side_pot() -> None:
    """RULES.md §8.2 (A-LI5): 'A short all-in is allowed, with side pots as in §4.7': p2 (10 L)
    calls a 10 L raise all-in for 9 L and wins the main pot with a Sáp; the side pot goes to
    p1's 5 points over p3's 0."""
    deck = "2c Ac 4c 5c Ad 7c 8c Ah 9d"  # p1 2-5-8, p2 A-A-A, p3 4-7-9
    state = deal(deck, seats=3, stacks=[30 * L, 10 * L, 30 * L])
    assert [hand_label(state.cards[s]) for s in range(3)] == ["5 điểm", "Sáp", "0 điểm"]
    state = play(GAME, state, [Raise(0, 10 * L), Call(1), Call(2)])
    assert state.betting.committed == (11 * L, 10 * L, 11 * L)
    assert state.betting.stacks[1] == 0
    settlement = GAME.settle(state)
    assert dict(settlement.detail)["pots"] == ((30 * L, (0, 1, 2)), (2 * L, (0, 2)))
    assert settlement.deltas == (-11 * L + 2 * L, 20 * L, -11 * L)


def test_rules_8_4_fold_win_and_show() -> None:
    """RULES.md §8.4: 'If everyone else has folded, the last player wins without showing'; the
    winner may still show (§2.10, *Lật tẩy*); folded hands are never revealed."""
    state = deal("2c 3c 4c 5c 6c 7c", seats=2)
    state = play(GAME, state, [Raise(0, 2 * L), Fold(1)])
    assert state.phase == "show" and set(GAME.legal_actions(state)) == {Show(0), Muck(0)}
    assert GAME.default_action(state, 0, "timeout") == Muck(0)
    mucked = GAME.apply(state, Muck(0))
    assert GAME.settle(mucked).deltas == (L, -L)
    assert "2c" not in seen_by(GAME, mucked, 1) and "3c" not in seen_by(GAME, mucked, 0)
    shown = GAME.apply(state, Show(0))
    assert {"2c", "4c", "6c"} <= seen_by(GAME, shown, 1)
    assert "3c" not in seen_by(GAME, shown, None)


def test_a_li4_timeout_and_disconnection_fold() -> None:
    """S001 Liêng §4 / RULES.md §8.5 (A-LI4): a disconnected player 'sẽ bị xử thua hết số iCash
    cược đó và không được tham gia chơi ván đó nữa': out of the hand, forfeiting everything put
    in (at least the ante); a timeout is a fold too."""
    state = deal("2c 3c 4c 5c 6c 7c 8c 9c Tc", seats=3)
    assert GAME.default_action(state, 0, "timeout") == Fold(0)
    state = GAME.apply(state, Raise(0, 3 * L))
    assert GAME.default_action(state, 1, "timeout") == Fold(1)
    assert GAME.default_action(state, 1, "disconnect") == Leave(1)
    state = GAME.apply(state, Leave(1))
    assert state.betting.folded[1]
    state = play(GAME, state, [Call(2)])
    assert GAME.settle(state).deltas[1] == -L


def test_a_player_who_acted_then_leaves_is_out_at_once_and_cannot_win() -> None:
    """Issue 11 / seed 001 Liêng: a player who disconnects or leaves 'mất số chips ... không được
    tham gia chơi ván đó nữa, các người chơi còn lại tiếp tục chơi', even after acting this
    round and out of turn. p2 holds the best hand (8 points), calls, then leaves while p3 is to
    act: p2 is out at once, forfeits the 4 L it put in, and p1 (5 points) takes the pot."""
    state = deal("2c 3c 4c 5c 6c 7c 8c 9c Tc", seats=3)
    state = play(GAME, state, [Raise(0, 3 * L), Call(1)])
    assert GAME.to_act(state) == (2,)
    assert GAME.leave_cost(state, 1) == 4 * L
    for reason in ("leave", "disconnect"):
        assert GAME.default_action(state, 1, reason) == Leave(1)
    state = GAME.apply(state, Leave(1))
    assert state.betting.folded[1] and GAME.to_act(state) == (2,)
    assert GAME.default_action(state, 1, "leave") is None
    assert GAME.leave_cost(state, 1) == 0
    rejected(GAME, state, Leave(1), "has folded")
    rejected(GAME, state, Call(1), "has folded")
    state = play(GAME, state, [Call(2)])
    settlement = GAME.settle(state)
    settlement.check()
    assert settlement.deltas == (8 * L, -4 * L, -4 * L)
    assert sum(line.amount for line in settlement.lines if line.seat == 1) == -4 * L


def test_leaving_heads_up_out_of_turn_gives_the_pot_to_the_other_seat() -> None:
    """With two players, the one who is not to act leaving ends the hand: the other wins by
    fold (and then may show or not); the leaver's chips stay in the pot."""
    state = deal("2c 3c 4c 5c 6c 7c")
    state = play(GAME, state, [Raise(0, 2 * L)])
    assert GAME.to_act(state) == (1,)
    state = GAME.apply(state, Leave(0))
    assert state.phase == "show" and GAME.to_act(state) == (1,)
    state = GAME.apply(state, Muck(1))
    assert GAME.settle(state).deltas == (-3 * L, 3 * L)


def test_leave_is_refused_out_of_the_hand_and_by_the_table() -> None:
    """Only a seat still in the hand leaves; once the hand is over nobody does."""
    state = deal("2c 3c 4c 5c 6c 7c 8c 9c Tc", seats=3)
    rejected(GAME, state, Leave(None), "not possible now")
    state = play(GAME, state, [Fold(0), Fold(1)])
    state = play(GAME, state, [Muck(2)])
    rejected(GAME, state, Leave(2), "over")


@pytest.mark.parametrize(
    ("option", "value", "deck", "default_winner"),
    [
        ("lieng.suited_straight_above_trips", True, "2d Ac 3d Ad 4d Ah", 1),
        ("lieng.face_compare", "top_card", "Ks Jd Kc Jh Qs Qc", 0),
        ("lieng.straight_tie", "top_card", "4c 4d 5h 5s 6h 6s", 0),
    ],
)
def test_ranking_options_at_the_table(
    option: str, value: object, deck: str, default_winner: int
) -> None:
    """RULES.md §15 A-LI1, A-LI2, A-LI6 at the table: the worked examples of §8.3 flip with the
    option."""
    default = call_down(deal(deck))
    assert GAME.settle(default).deltas[default_winner] == L
    flipped = call_down(deal(deck, options={option: value}))
    assert GAME.settle(flipped).deltas[1 - default_winner] == L


def test_a_li3_points_tie_split_odd_unit() -> None:
    """RULES.md A-LI3: ``lieng.points_tie = split``: A♦8♠Q♣ and 4♥5♥K♥ (9 points each) split
    the pot; by default A♦ beats K♥. The odd unit goes to the first winner in playing order."""
    deck = "Ad 4h 8s 5h Qc Kh"
    assert GAME.settle(call_down(deal(deck))).deltas == (L, -L)
    split = call_down(deal(deck, options={"lieng.points_tie": "split"}))
    assert GAME.settle(split).deltas == (0, 0)
    config = TableConfig.make(
        seats=3, stake=333, stacks=[10_000] * 3, options={"lieng.points_tie": "split"}, host=1
    )
    state = GAME.apply(GAME.new_state(config), stacked(DECK_52, "Ad 4h 2c 8s 5h 3c Qc Kh 5c"))
    state = call_down(state)
    # Dealt from the host p2: p2 A♦8♠Q♣ (9), p3 4♥5♥K♥ (9), p1 2♣3♣5♣ (0).
    deltas = GAME.settle(state).deltas
    assert sorted(deltas) == [-333, 166, 167]
    assert deltas[1] == 167  # the first tied winner from the first player takes the odd unit


def test_bad_input_is_refused_with_clear_errors() -> None:
    """A raise below the minimum or above the maximum, acting out of turn, acting after folding,
    and an action for a seat not in the hand are refused; the state is unchanged."""
    state = deal("2c 3c 4c 5c 6c 7c 8c 9c Tc", seats=3)
    rejected(GAME, state, Call(1), "may not act now")
    state = play(GAME, state, [Raise(0, 2 * L), Fold(1)])
    error = rejected(GAME, state, Call(1), "has folded")
    assert isinstance(error, NotYourTurnError)
    rejected(GAME, state, Raise(2, 2 * L + 1), "at least 30.00 ")
    rejected(GAME, state, Raise(2, 13 * L), "at most 120.00 ")
    rejected(GAME, state, Show(2), "only Tố, Theo or Bỏ")
    rejected(GAME, state, Call(9), "no such seat")


def test_quick_mode_option() -> None:
    """RULES.md A-PL5: ``table.quick_mode`` gives the 7 s turn timer."""
    quick = GAME.rules(TableConfig.make(seats=2, options={"table.quick_mode": True}))
    assert turn_timer_s(quick.quick_mode) == 7


def random_trail(seats: int, seed: str, options: dict[str, Any]) -> list[LiengState]:
    rng = SeededRng(seed)
    stacks = [L * (10 + rng.randbelow(30)) for _ in range(seats)]
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
    return trail


@pytest.mark.parametrize("seats", [2, 5, 9])
def test_views_hide_cards_until_showdown(seats: int) -> None:
    """RULES.md §8.1/§2.10: the three cards are 'hidden from the others until showdown'; folded
    hands are never shown; nobody sees the deck."""
    for hand in range(5):
        for state in random_trail(seats, f"lieng-views/{seats}/{hand}", {}):
            if not state.cards:
                continue
            for seat in range(seats):
                own = {str(c) for c in state.cards[seat]}
                assert own <= seen_by(GAME, state, seat)
                revealed = (
                    state.phase == "over"
                    and not state.betting.folded[seat]
                    and (state.showdown or (state.shown and state.winner == seat))
                )
                for viewer in [None, *range(seats)]:
                    if viewer == seat:
                        continue
                    seen = seen_by(GAME, state, viewer)
                    assert (own <= seen) if revealed else own.isdisjoint(seen)
            undealt = {str(c) for c in state.deck[3 * seats :]}
            assert undealt.isdisjoint(seen_by(GAME, state, None))


def test_histories_round_trip_with_carry() -> None:
    """Generic hand histories replay Liêng hands (options and carry included)."""
    carry: Any = None
    rng = SeededRng("lieng-history")
    options = {"lieng.direction": "cw", "lieng.points_tie": "split"}
    for _ in range(5):
        config = TableConfig.make(seats=4, stake=L, options=options, carry=carry)
        state = GAME.new_state(config)
        while (turn := GAME.to_act(state)) is not None:
            event = (
                random_action(GAME, state, rng)
                if isinstance(turn, tuple)
                else chance_event(GAME, state, rng)
            )
            state = GAME.apply(state, event)
        history = load_history(dump_history(record_history(GAME, state)))
        replayed, settlement = replay_history(history)
        assert replayed == state and settlement == GAME.settle(state)
        carry = GAME.carry(state)


def test_render_text() -> None:
    """``render_text`` draws the viewer's own cards and hides the others'."""
    state = deal("2c 3c 4c 5c 6c 7c")
    text = GAME.render_text(GAME.observe(state, 1))
    assert "3♣ 5♣ 7♣" in text and "2♣" not in text and "?? ?? ??" in text


def test_doctests() -> None:
    """The examples in the modules' docstrings hold."""
    for module in (sanh.games.lieng, sanh.eval.lieng):
        assert doctest.testmod(module).failed == 0


# Every Liêng flag of RULES.md (§8, §15 A-LI*, A-PL2, A-PL4, A-PL5).
RULES_FLAGS: dict[str, OptionValue] = {
    "lieng.suited_straight_above_trips": True,
    "lieng.face_compare": "top_card",
    "lieng.points_tie": "split",
    "lieng.straight_tie": "top_card",
    "lieng.min_raise": 2,
    "lieng.raise_cap": 0,
    "lieng.direction": "cw",
    "platform.min_balance_multiple": 0,
    "table.quick_mode": True,
}


def test_every_rules_flag_is_an_option() -> None:
    """RULES.md lists these flags for Liêng; each is an option of ``info.options`` with the
    document's default, and its other value is accepted."""
    specs = {spec.name: spec for spec in GAME.info.options}
    assert set(specs) == set(RULES_FLAGS)
    for name, other in RULES_FLAGS.items():
        assert specs[name].check(other) == other
        assert specs[name].default != other
