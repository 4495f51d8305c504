"""Texas Hold'em and All-in or Fold: rules from RULES.md §4 and seeds 001 ("poker") and 003."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from rich.console import Console

from sanh.cards.card import parse_cards
from sanh.cards.deck import DECK_52
from sanh.cards.rng import SeededRng
from sanh.errors import ConfigError, IllegalActionError, NotYourTurnError
from sanh.games import find_game
from sanh.games.base import Action, Shuffle, TableConfig
from sanh.games.driver import chance_event, random_action
from sanh.games.texas_holdem import (
    AllIn,
    AllInOrFold,
    Call,
    Check,
    Fold,
    HoldemState,
    Leave,
    RaiseTo,
    TexasHoldem,
    buyin_limits,
    first_button,
)
from sanh.notation.jsonable import to_jsonable

GAME = TexasHoldem()
AOF = AllInOrFold()


def table(
    stacks: list[int],
    *,
    host: int = 0,
    stake: int = 10,
    options: dict[str, Any] | None = None,
    carry: Any = None,
) -> TableConfig:
    return TableConfig.make(
        seats=len(stacks), stake=stake, stacks=stacks, host=host, options=options, carry=carry
    )


def arranged(
    config: TableConfig, holes: dict[int, str], board: str = "", game: TexasHoldem = GAME
) -> Shuffle:
    """A deck that deals ``holes`` (seat: "AsAh") and ``board`` under sanh's dealing order."""
    state = game.new_state(config)
    order = state.order
    count = len(order)
    small_blind = order[1] if count == 2 else order[0]
    start = order.index(small_blind)
    slots: list[Any] = [None] * (2 * count + 5)
    for offset in range(count):
        seat = order[(start + offset) % count]
        if seat in holes:
            first, second = parse_cards(holes[seat])
            slots[offset], slots[offset + count] = first, second
    for index, card in enumerate(parse_cards(board) if board else ()):
        slots[2 * count + index] = card
    used = {card for card in slots if card is not None}
    spare = iter(card for card in DECK_52 if card not in used)
    order_cards = [card if card is not None else next(spare) for card in slots]
    order_cards.extend(spare)
    return Shuffle(tuple(order_cards))


def dealt(config: TableConfig, game: TexasHoldem = GAME, **kwargs: Any) -> HoldemState:
    state = game.new_state(config)
    shuffle = arranged(config, kwargs.get("holes", {}), kwargs.get("board", ""), game)
    return game.apply(state, shuffle)


def play(state: HoldemState, *actions: Action, game: TexasHoldem = GAME) -> HoldemState:
    for action in actions:
        state = game.apply(state, action)
    return state


def assert_refused(
    state: HoldemState, action: Action, match: str, game: TexasHoldem = GAME
) -> IllegalActionError:
    snapshot = repr(state)
    with pytest.raises(IllegalActionError, match=match) as info:
        game.apply(state, action)
    assert repr(state) == snapshot
    return info.value


# ----- seeds -----------------------------------------------------------------------------
def test_s003_side_pot_example_played_out() -> None:
    """S003: 'nếu một người chỉ còn 100 để tất tay trong khi hai người khác mỗi người có thể
    theo đến 300, người tất tay có thể tranh phần tương ứng 100 từ mỗi người; khoản chênh 200
    của hai đối thủ là cuộc so giữa những người góp khoản đó.' RULES.md §4.7: A all-in for 100,
    B and C put in 300 each; main pot 300 (A, B, C), side pot 400 (B, C); A has the best hand,
    so A wins 300 and the better of B and C wins 400."""
    a, b, c = 0, 1, 2
    config = table([100, 1000, 1000], host=c)  # C deals: A small blind, B big blind
    state = dealt(config, holes={a: "AsAh", b: "KsKh", c: "QsQh"}, board="2c7d9sJc3d")
    state = play(state, RaiseTo(c, 300), Call(a), Call(b), Check(b), Check(c))
    state = play(state, Check(b), Check(c), Check(b), Check(c))
    assert GAME.is_terminal(state)
    assert state.pots == ((300, (a, b, c), (a,)), (400, (b, c), (b,)))
    assert GAME.settle(state).deltas == (300 - 100, 400 - 300, -300)


def test_s001_winner_takes_no_more_than_it_put_in() -> None:
    """S001 'Cách tính thắng thua': 'Người thắng chỉ được ăn số tiền cược của những người khác ở
    mức tối đa là tương đương với mức tiền mình đặt ... Số tiền còn lại sẽ được tiếp tục xét
    tương tự cho những người chơi đã tham gia còn lại.'"""
    a, b, c = 0, 1, 2
    config = table([50, 2000, 500], host=c)
    state = dealt(config, holes={a: "AsAh", b: "2s3h", c: "KsKd"}, board="Ac7d9sJc4d")
    state = play(state, RaiseTo(c, 500), Call(a), Call(b))
    assert GAME.is_terminal(state)  # everyone else is all-in: the board runs out
    assert GAME.settle(state).deltas == (100, -500, 400)


def test_s001_tie_splits_the_pot_and_the_odd_unit_goes_clockwise_from_the_dealer() -> None:
    """S001: 'Nếu như có nhiều người có bài giống nhau và cùng giá trị bài cao nhất thì số tiền
    trong pot sẽ được chia đều cho tất cả những người thắng đó'; RULES.md §4.7: the odd
    remainder goes to the first tied winner clockwise from D [CP]."""
    config = table([1000, 1000, 1000], host=0, stake=5)  # D = p1, SB = p2, BB = p3
    state = dealt(config, holes={0: "2c3d", 1: "4h5s", 2: "4c5d"}, board="AhKdQcJs9h")
    state = play(state, Call(0), Call(1), Check(2))
    state = play(state, RaiseTo(1, 15), Call(2), Fold(0))
    state = play(state, Check(1), Check(2), Check(1), Check(2))
    assert GAME.is_terminal(state)
    # The pot, 10 + 25 + 25, is split equally between p2 and p3 (same straight).
    assert state.pots == ((60, (1, 2), (1, 2)),)
    assert GAME.settle(state).deltas == (-10, 5, 5)


def test_odd_unit_goes_to_the_first_winner_left_of_the_button() -> None:
    """RULES.md §4.7 [CP]: 'Any odd remainder goes to the first tied winner clockwise from D.'"""
    config = table([1000, 1000, 1000], host=2, stake=5)  # D = p3, SB = p1, BB = p2
    state = dealt(config, holes={0: "2c3d", 1: "4h5s", 2: "4c5d"}, board="AhKdQcJs9h")
    # p3 (D) and p2 (BB) tie; p1 (SB) folds its 5: the pot is 5 + 10 + 10 = 25.
    state = play(state, Call(2), Fold(0), Check(1))
    for _ in range(3):
        state = play(state, Check(1), Check(2))
    assert GAME.is_terminal(state)
    # p2 is first clockwise from D (p3 -> p1 -> p2): p2 gets 13, p3 gets 12.
    assert state.pots == ((25, (1, 2), (1, 2)),)
    assert GAME.settle(state).deltas == (-5, 3, 2)


# ----- positions ---------------------------------------------------------------------------
def test_host_is_the_first_dealer_and_blinds_follow_clockwise() -> None:
    """S001: 'Ván chơi đầu tiên từ khi bàn được tạo thì chủ bàn là Dealer'; 'người ngồi bên trái
    Dealer là Small Blind, người ngồi kế bên trái SB là Big Blind'; preflop 'người chơi ngồi bên
    trái của BigBlind (BB) sẽ luôn là người cược trước tiên'; later rounds 'người ngồi bên trái
    Dealer (D)'."""
    config = table([1000] * 5, host=3)
    state = GAME.new_state(config)
    view = GAME.observe(state, None)
    assert (view.button, view.small_blind_seat, view.big_blind_seat) == (3, 4, 0)
    assert state.bets == (20, 0, 0, 0, 10)
    state = GAME.apply(state, arranged(config, {}))
    assert state.queue[0] == 1  # left of the big blind
    state = play(state, Call(1), Call(2), Call(3), Call(4), Check(0))
    assert state.street == 1 and state.queue[0] == 4  # the small blind, left of D


def test_heads_up_dealer_posts_the_small_blind_and_acts_first_preflop() -> None:
    """RULES.md §4.2 and A-HE6: heads-up, D posts SB and acts first preflop (standard)."""
    config = table([1000, 1000], host=0)
    state = dealt(config)
    assert state.bets == (10, 20) and state.queue[0] == 0
    state = play(state, Call(0), Check(1))
    assert state.street == 1 and state.queue[0] == 1  # BB acts first after the flop
    literal = table([1000, 1000], host=0, options={"holdem.headsup_dealer_is_sb": False})
    state = dealt(literal)
    assert state.bets == (20, 10) and state.queue[0] == 1


def test_button_moves_clockwise_and_skips_empty_seats() -> None:
    """S001: 'những ván tiếp theo người chơi sẽ luân phiên thay đổi là Dealer theo chiều kim đồng
    hồ. Khi có sự thay đổi số lượng người chơi ... Dealer đến lượt vị trí người chơi nào có tham
    gia thời điểm đó thì người chơi đó là Dealer.'"""
    config = table([1000, 1000, 1000, 1000], host=1)
    state = play(dealt(config), Fold(0), Fold(1), Fold(2))
    carry = GAME.carry(state)
    assert carry == {"button": 2}
    # Seat 2 left (no chips): the next dealer is seat 3.
    following = table([1000, 1000, 0, 1000], carry=carry)
    assert first_button(following) == 3
    state = GAME.new_state(following)
    assert state.button == 3 and state.order == (0, 1, 3)
    assert GAME.observe(state, 0).dealt == (True, True, False, True)
    with pytest.raises(ConfigError):
        GAME.new_state(table([1000, 0, 0]))


# ----- amounts -----------------------------------------------------------------------------
def test_seed_minimum_raise_is_the_small_blind_and_bets_open_at_the_big_blind() -> None:
    """S001: 'Mức tố tối thiểu tương đương với mức cược nhỏ' (A-HE2, default); an opening bet
    is at least BB [CP]."""
    config = table([1000, 1000, 1000], host=0)
    state = dealt(config)
    assert GAME.raise_bounds(state, 0) == (30, 1000)  # BB 20 + SB 10
    error = assert_refused(state, RaiseTo(0, 29), "below the minimum 0.30")
    assert error.version == state.version
    state = play(state, RaiseTo(0, 30), RaiseTo(1, 40))  # +10: a full raise here
    state = play(state, Call(2), Call(0))
    assert state.street == 1
    assert GAME.raise_bounds(state, state.queue[0]) == (20, 960)  # opening bet: BB
    state = play(state, RaiseTo(1, 100))
    assert GAME.raise_bounds(state, 2) == (110, 960)


def test_standard_minimum_raise() -> None:
    """A-HE2 ``min_raise = standard``: the increment is at least the last bet or raise and BB."""
    config = table([1000, 1000, 1000], host=0, options={"holdem.min_raise": "standard"})
    state = dealt(config)
    assert GAME.raise_bounds(state, 0) == (40, 1000)
    state = play(state, RaiseTo(0, 100))
    assert GAME.raise_bounds(state, 1) == (180, 1000)


def test_maximum_is_the_largest_stake_another_player_can_match() -> None:
    """S001: 'Tối đa là số tiền lớn nhất của người chơi khác' (RULES.md §4.5)."""
    config = table([5000, 300, 800], host=0)
    state = dealt(config)
    assert GAME.raise_bounds(state, 0) == (30, 800)
    assert_refused(state, RaiseTo(0, 801), "above the maximum 8.00")
    stack_rule = table([5000, 300, 800], host=0, options={"holdem.max_raise": "stack"})
    assert GAME.raise_bounds(dealt(stack_rule), 0) == (30, 5000)


def test_all_in_below_the_minimum_is_allowed() -> None:
    """RULES.md §4.5: 'All-in is always allowed.'"""
    config = table([1000, 1000, 1000, 35], host=0, options={"holdem.min_raise": "standard"})
    state = dealt(config)  # D p1, SB p2, BB p3; p4 acts first with 35
    assert GAME.raise_bounds(state, 3) == (35, 35)  # the minimum raise would be to 40
    state = play(state, RaiseTo(3, 35))
    assert state.stacks[3] == 0 and state.max_bet == 35
    assert GAME.raise_bounds(state, 0) == (55, 1000)  # p1 has not acted: it may raise


def test_short_all_in_does_not_reopen_for_players_who_acted() -> None:
    """RULES.md §4.5 [CP]: 'An all-in raise smaller than the minimum increment ... does not
    let players who have already acted raise again.'"""
    config = table([1000, 1000, 45, 1000], host=3, options={"holdem.min_raise": "standard"})
    # D p4, SB p1, BB p2, p3 first with 45 behind.
    state = dealt(config)
    state = play(state, Call(2), Call(3), Call(0), Check(1))  # everyone in for 20
    assert state.street == 1
    state = play(state, RaiseTo(0, 20))  # p1 bets 20 (full bet)
    state = play(state, Call(1), RaiseTo(2, 25))  # p3 all-in: +5, short of a full raise
    assert state.stacks[2] == 0
    state = play(state, Call(3))  # p4 had not acted: it may raise, but calls
    # p1 and p2 acted before the short all-in: they may call or fold, not raise.
    assert GAME.raise_bounds(state, 0) is None
    assert_refused(state, RaiseTo(0, 100), "short all-in does not re-open")
    state = play(state, Call(0))
    assert GAME.raise_bounds(state, 1) is None


def test_uncalled_bet_is_returned() -> None:
    """RULES.md §4.5 [CP]: 'Any part of it that no opponent can match is returned.'"""
    config = table([5000, 300, 5000], host=2, options={"holdem.max_raise": "stack"})
    state = dealt(config, holes={0: "AsAh", 1: "KsKh"}, board="2c7d9sJc3d")
    state = play(state, Fold(2), RaiseTo(0, 5000), Call(1))
    assert GAME.is_terminal(state)
    assert state.stacks == (5300, 0, 5000)
    assert GAME.settle(state).deltas == (300, -300, 0)
    config = table([1000, 1000, 1000], host=0)
    state = play(dealt(config), RaiseTo(0, 200), Fold(1), Fold(2))
    assert GAME.settle(state).deltas == (30, -10, -20)


def test_run_out_when_at_most_one_player_can_act() -> None:
    """RULES.md §4.5 [CP]: the remaining cards are dealt with no further betting."""
    config = table([400, 1000, 1000], host=2)
    state = dealt(config, holes={0: "AsAh", 1: "KsKh", 2: "7c2d"}, board="2c7d9sJc3d")
    state = play(state, Fold(2), RaiseTo(0, 400))
    assert_refused(state, RaiseTo(1, 1000), "no other player can call a raise")
    state = play(state, Call(1))
    assert GAME.is_terminal(state)
    assert len(state.board) == 5
    assert GAME.settle(state).deltas == (400, -400, 0)


def test_showdown_shows_every_remaining_hand_last_aggressor_first() -> None:
    config = table([1000, 1000, 1000], host=0)
    state = dealt(config, holes={0: "AsAh", 1: "KsKh", 2: "QsQh"}, board="2c7d9sJc3d")
    state = play(state, Call(0), Call(1), Check(2))
    state = play(state, Check(1), Check(2), Check(0), Check(1), Check(2), Check(0))
    state = play(state, Check(1), RaiseTo(2, 20), Call(0), Fold(1))
    assert state.shown == (2, 0)
    settlement = GAME.settle(state)
    shown = dict(settlement.detail)["shown"]
    assert [item[0] for item in shown] == [2, 0]
    assert shown[1][2] == "one_pair"


def test_require_hole_card_option() -> None:
    """A-HE4 ``require_hole_card``: by default the board may play (the pot is split)."""
    holes = {0: "2c3d", 1: "2h3s"}
    board = "AhKhQhJhTh"
    state = dealt(table([1000, 1000]), holes=holes, board=board)
    state = play(state, Call(0), Check(1), *[a for _ in range(3) for a in (Check(1), Check(0))])
    assert GAME.settle(state).deltas == (0, 0)
    holes = {0: "2c3d", 1: "9h3s"}
    strict = table([1000, 1000], options={"holdem.require_hole_card": True})
    state = dealt(strict, holes=holes, board=board)
    state = play(state, Call(0), Check(1), *[a for _ in range(3) for a in (Check(1), Check(0))])
    assert GAME.settle(state).deltas == (-20, 20)  # 9h makes a straight flush with four hearts


# ----- bad input ---------------------------------------------------------------------------
def test_bad_input_is_refused_with_a_reason_and_changes_nothing() -> None:
    config = TableConfig.make(seats=4, stake=10, stacks=[1000, 1000, 1000, 0], host=0)
    state = dealt(config)  # D p1, SB p2, BB p3; seat p4 is empty
    assert state.queue[0] == 0
    error = assert_refused(state, Call(1), "it is p1's turn, not p2's")
    assert isinstance(error, NotYourTurnError)
    assert_refused(state, Fold(3), "p4 is not in this hand")
    assert_refused(state, Fold(7), "no such seat")
    assert_refused(state, Check(0), "cannot check: 0.20 to call")
    assert_refused(state, RaiseTo(0, 10), "below the minimum")
    assert_refused(state, RaiseTo(0, 10**6), "above the maximum")
    assert_refused(state, AllIn(0), "not an action of this game")
    assert_refused(state, Shuffle(tuple(DECK_52)), "no deal or roll is due")
    state = play(state, Fold(0))
    assert_refused(state, Call(0), "p1 has folded")
    state = play(state, Call(1))
    assert_refused(state, Call(2), "nothing to call: check instead")
    before = GAME.new_state(config)
    assert_refused(before, Fold(0), "waiting for the deal")
    assert_refused(before, Shuffle(tuple(DECK_52[:51])), "not a permutation")


def test_acting_after_going_all_in_is_refused() -> None:
    config = table([1000, 1000, 1000], host=0)
    state = play(dealt(config), RaiseTo(0, 1000), Call(1))
    assert_refused(state, Fold(0), "p1 is all-in")


def test_default_actions_check_if_free_else_fold() -> None:
    """RULES.md §4.8: turn timeout and disconnection check if free, otherwise fold; leaving is
    a fold."""
    config = table([1000, 1000, 1000], host=0)
    state = dealt(config)
    assert GAME.default_action(state, 0, "timeout") == Fold(0)
    assert GAME.default_action(state, 1, "timeout") is None  # not its turn
    state = play(state, Call(0), Call(1))
    assert GAME.default_action(state, 2, "disconnect") == Check(2)
    assert GAME.default_action(state, 2, "leave") == Leave(2)
    assert GAME.default_action(state, 0, "leave") == Leave(0)  # at once, not on its turn
    assert GAME.default_action(state, None, "timeout") is None


def test_rules_4_8_leaving_after_acting_folds_at_once_and_cannot_win() -> None:
    """RULES.md §4.8 / issue 11: leaving mid-hand is a fold at once, not at the leaver's next
    turn. p1 (button, aces) raises, p2 calls, p1 leaves while p3 is to act: p1 is out, its
    100 stay in the pot, and the two others play the hand out between them."""
    config = table([1000, 1000, 1000], host=0)
    state = dealt(config, holes={0: "AsAh", 1: "7c2d", 2: "8c3d"}, board="KdQs9h4c5s")
    state = play(state, RaiseTo(0, 100), Call(1))
    assert GAME.to_act(state) == (2,)
    assert GAME.leave_cost(state, 0) == 100
    state = GAME.apply(state, Leave(0))
    assert not state.live[0] and GAME.to_act(state) == (2,)
    assert GAME.default_action(state, 0, "leave") is None
    assert_refused(state, Leave(0), "has folded")
    state = play(state, Call(2))
    while GAME.to_act(state) is not None:
        (seat,) = GAME.to_act(state)  # type: ignore[misc]
        assert seat != 0
        state = GAME.apply(state, Check(seat))
    settlement = GAME.settle(state)
    assert settlement.deltas == (-100, -100, 200)
    assert all(0 not in winners for _, _, winners in state.pots)


def test_rules_4_8_a_leaver_gets_back_only_the_bet_nobody_called() -> None:
    """The leave cost is at most what the seat put in: a raise that nobody calls goes back to
    the leaver when the others fold (RULES.md §4.7)."""
    config = table([1000, 1000, 1000], host=0)
    state = dealt(config)
    state = play(state, RaiseTo(0, 100), Fold(1))
    assert GAME.leave_cost(state, 0) == 100
    state = GAME.apply(state, Leave(0))
    assert GAME.to_act(state) is None
    assert GAME.settle(state).deltas == (-20, -10, 30)


def test_all_in_or_fold_leaving_out_of_turn() -> None:
    """All-in or Fold: the small blind leaves before its turn; it is skipped at once."""
    config = table([200, 200, 200], host=0)
    state = dealt(config, game=AOF)
    assert AOF.to_act(state) == (0,)
    state = AOF.apply(state, Leave(1))
    state = play(state, AllIn(0), AllIn(2), game=AOF)
    assert AOF.to_act(state) is None
    settlement = AOF.settle(state)
    settlement.check()
    assert settlement.deltas[1] == -10


# ----- views -------------------------------------------------------------------------------
def hole_texts(state: HoldemState, seat: int) -> list[str]:
    return [str(card) for card in state.hole[seat]]


@pytest.mark.parametrize("seats", [2, 3, 6, 9])
def test_views_never_leak_hidden_cards(seats: int) -> None:
    rng = SeededRng(f"views/{seats}")
    for _ in range(15):
        config = TableConfig.make(
            seats=seats, stake=10, stacks=[10 * (20 + rng.randbelow(200)) for _ in range(seats)]
        )
        state = GAME.new_state(config)
        while True:
            if state.street >= 0:
                revealed = GAME.revealed(state)
                for viewer in [None, *range(seats)]:
                    text = json.dumps(to_jsonable(GAME.observe(state, viewer)))
                    for seat in range(seats):
                        if seat == viewer or seat in revealed:
                            continue
                        for card in hole_texts(state, seat):
                            assert f'"{card}"' not in text
                    assert "deck" not in text
            if GAME.is_terminal(state):
                break
            turn = GAME.to_act(state)
            event = (
                chance_event(GAME, state, rng)
                if not isinstance(turn, tuple)
                else random_action(GAME, state, rng)
            )
            state = GAME.apply(state, event)
        for seat in range(seats):
            if not state.live[seat]:
                assert seat not in GAME.revealed(state)  # folded hands are never shown


def test_own_cards_are_visible_and_others_are_hidden() -> None:
    config = table([1000, 1000, 1000])
    state = dealt(config, holes={0: "AsAh", 1: "KsKh", 2: "QsQh"})
    view = GAME.observe(state, 1)
    assert [str(card) for card in view.hole[1]] == ["Ks", "Kh"]
    assert view.hole[0] == (None, None) and view.hole[2] == (None, None)
    assert GAME.observe(state, None).hole[1] == (None, None)
    assert view.legal_actions == () and view.to_call == 0
    mine = GAME.observe(state, 0)
    assert Fold(0) in mine.legal_actions and mine.to_call == 20
    assert mine.amount_ranges[0].min == 30


# ----- All-in or Fold ----------------------------------------------------------------------
def test_all_in_or_fold_offers_only_fold_or_all_in_and_runs_the_board_out() -> None:
    """RULES.md §4.9 [DEF]: the only actions are Fold or All-in, preflop; BB may check if nobody
    has gone all-in; then all five community cards are dealt with no betting."""
    config = TableConfig.make(seats=3, stake=10, stacks=[200, 200, 200], host=0)
    state = dealt(config, AOF)
    assert set(AOF.legal_actions(state)) == {Fold(0), AllIn(0)}
    assert AOF.amount_ranges(state) == ()
    state = play(state, Fold(0), game=AOF)
    assert set(AOF.legal_actions(state)) == {Fold(1), AllIn(1)}
    state = play(state, Fold(1), game=AOF)
    assert AOF.is_terminal(state)
    state = play(dealt(config, AOF), Fold(0), AllIn(1), game=AOF)
    assert set(AOF.legal_actions(state)) == {Fold(2), AllIn(2)}
    state = play(state, AllIn(2), game=AOF)
    assert AOF.is_terminal(state) and len(state.board) == 5
    assert sum(AOF.settle(state).deltas) == 0
    # Nobody all-in: the big blind may check, and the board still runs out.
    state = play(dealt(config, AOF), Fold(0), game=AOF)
    assert_refused(state, Check(1), "cannot check", game=AOF)
    state = play(state, Fold(1), game=AOF)
    config4 = TableConfig.make(seats=3, stake=10, stacks=[200, 15, 200], host=0)
    state = play(dealt(config4, AOF), Fold(0), AllIn(1), game=AOF)  # SB all-in for 15 < BB
    assert AOF.is_terminal(state) or Check(2) in AOF.legal_actions(state)
    assert_refused(dealt(config, AOF), RaiseTo(0, 50), "not an action of this game", game=AOF)


def test_buyin_limits() -> None:
    """RULES.md §2.3 / A-HE3: 20-100 BB by default, fixed 10 L with seed_tay; AoF 10 BB."""
    assert buyin_limits(50) == (2000, 10000)
    assert buyin_limits(50, {"holdem.buyin_rule": "seed_tay"}) == (500, 500)
    assert buyin_limits(50, {"holdem.buyin_min_bb": 10, "holdem.buyin_max_bb": 50}) == (1000, 5000)
    assert buyin_limits(50, aof=True) == (1000, 1000)


def test_registry_names() -> None:
    assert find_game("Poker") is find_game("texas-holdem")
    assert find_game("Hold'em").info.id == "texas-holdem"
    assert find_game("AoF").info.id == "poker-aof"
    with pytest.raises(ConfigError):
        GAME.new_state(table([1000, 1000], options={"holdem.unknown_cards": "7"}))


# ----- terminal ----------------------------------------------------------------------------
def test_render_text_draws_the_table() -> None:
    config = table([1000, 1000, 1000], host=0)
    state = dealt(config, holes={0: "AsAh", 1: "KsKh", 2: "QsQh"}, board="2c7d9sJc3d")
    text = GAME.render_text(GAME.observe(state, 0))
    assert "As Ah" in text and "?? ??" in text and "D" in text and "To call: 0.20" in text
    state = play(state, Call(0), Call(1), Check(2))
    text = GAME.render_text(GAME.observe(state, 0))
    assert "2c 7d 9s __ __" in text
    for _ in range(3):
        state = play(state, Check(1), Check(2), Check(0))
    text = GAME.render_text(GAME.observe(state, 2))
    assert "wins 0.60 (one pair)" in text and "Ks Kh" in text


def test_sanh_play_runs_hold_em_against_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    from sanh.cli.cmd_play import play_session

    answers = iter(["2"] * 500)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    console = Console(file=io.StringIO(), width=100)
    balance = play_session(
        find_game("texas-holdem"),
        console,
        lang="en",
        seats=4,
        stake=100,
        balance=100_000,
        options={},
        rng=SeededRng("play"),
        hands=3,
    )
    assert balance >= 0
    assert "Board:" in console.file.getvalue()  # type: ignore[attr-defined]
