"""Ba Cây Chương (RULES.md §11, seed 001 'Ba cây Chương')."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sanh.bots import bot_for
from sanh.cards import Card, parse_cards
from sanh.cards.deck import DECK_36
from sanh.cards.rng import SeededRng
from sanh.errors import ConfigError, IllegalActionError
from sanh.games import find_game
from sanh.games._three_cards import Flip, Leave, SitOut, Start, TimeUp
from sanh.games.ba_cay_chuong import BaCayChuong, Bet, ChuongState, ChuongView, chuong_timers
from sanh.games.base import CHANCE, Roll, Shuffle, TableConfig
from sanh.games.driver import chance_event, random_action
from sanh.notation.history import dump_history, load_history, record_history, replay_history
from sanh.notation.jsonable import to_jsonable
from sanh.texts import describe

GAME = BaCayChuong()
L = 100


def table(
    seats: int,
    *,
    stacks: Sequence[int] | None = None,
    carry: object = None,
    options: Mapping[str, object] | None = None,
) -> TableConfig:
    return TableConfig.make(
        seats=seats,
        stake=L,
        stacks=stacks,
        carry=carry,
        options=options or {},  # type: ignore[arg-type]
    )


def deal(state: ChuongState, hands: Mapping[int, str]) -> ChuongState:
    parsed = {seat: parse_cards(text) for seat, text in hands.items()}
    order: list[Card] = [parsed[seat][r] for r in range(3) for seat in state.players]
    order += [card for card in DECK_36 if card not in order]
    assert len(order) == len(set(order)) == 36
    return GAME.apply(state, Shuffle(tuple(order)))


def round_with(
    config: TableConfig, bets: Mapping[int, int], hands: Mapping[int, str]
) -> ChuongState:
    state = GAME.new_state(config)
    for seat in GAME.to_act(state):  # type: ignore[union-attr]
        state = GAME.apply(state, Bet(seat, bets[seat]) if seat in bets else SitOut(seat))
    state = deal(state, hands)
    for seat in state.players:
        state = GAME.apply(state, Flip(seat))
    assert GAME.is_terminal(state)
    return state


SEED_HANDS = {0: "9h 8c 3s", 1: "4c 3c 2s", 2: "Ad 2d 5d"}  # A 10, B 9, C 8


def test_seed_example_b_banks_a_ten_c_eight() -> None:
    """S001: 'Ví dụ: 3 người A - B - C chơi ba cây, người B cầm chương. Kết thúc ván chơi, A đạt
    10 điểm, B đạt 9 điểm, C đạt 8 điểm. Như vậy B sẽ nhận được số tiền cược của C, và đồng thời
    bị trừ đi số tiền A đã cược.' With the default doubling (A-CH1), B pays 2 × A's bet."""
    state = round_with(table(3, carry={"banker": 1}), {0: L, 2: L}, SEED_HANDS)
    view = GAME.observe(state, None)
    assert isinstance(view, ChuongView) and view.scores == (10, 9, 8)
    assert GAME.settle(state).deltas == (2 * L, L - 2 * L, -L)


def test_seed_example_literal_payment() -> None:
    """A-CH1 flag ``bacaychuong.ten_pays_double = false``: the seed example pays A's bet once."""
    options = {"bacaychuong.ten_pays_double": False}
    state = round_with(table(3, carry={"banker": 1}, options=options), {0: L, 2: L}, SEED_HANDS)
    assert GAME.settle(state).deltas == (L, 0, -L)


def test_a_ten_takes_the_bank() -> None:
    """S001 'Nếu người chơi được 10 điểm sẽ làm chương (cướp chương)'; 'Các ván tiếp theo, người
    chơi được 10 điểm ( lớn nhất ) sẽ được cầm chương.'"""
    state = round_with(table(3, carry={"banker": 1}), {0: L, 2: L}, SEED_HANDS)
    assert GAME.carry(state) == {"banker": 0}
    follow = GAME.new_state(table(3, carry=GAME.carry(state)))
    assert follow.banker == 0


def test_the_best_ten_holds_the_bank_banker_included() -> None:
    """RULES.md A-CH4: with several 10s the best one (banker included) holds the bank."""
    hands = {0: "9h 8c 3s", 1: "Ad 4c 5c", 2: "9d 9c 2s"}  # 10 (9♥), 10 (A♦), 10 (9♦)
    state = round_with(table(3, carry={"banker": 1}), {0: L, 2: L}, hands)
    assert GAME.carry(state) == {"banker": 1}
    assert GAME.settle(state).deltas == (-L, 2 * L, -L)  # the banker's 10 does not double
    doubled = round_with(
        table(3, carry={"banker": 1}, options={"bacaychuong.banker_ten_doubles": True}),
        {0: L, 2: L},
        hands,
    )
    assert GAME.settle(doubled).deltas == (-2 * L, 4 * L, -2 * L)  # A-CH2 option


def test_a_ten_that_cannot_cover_leaves_the_bank_where_it_is() -> None:
    """RULES.md §11.2 [DEF]: if the player due to become banker cannot cover the minimum
    (2 × L × the other players: 12 L at 7 players), the bank stays where it is. A wins 2 L:
    from 10 L that makes 12 L (enough), from 9.5 L only 11.5 L."""
    others = [1000 * L] * 6
    options = {"platform.min_balance_multiple": 9}
    for stack, banker in [(10 * L, 0), (9 * L + 50, 1)]:
        config = table(7, stacks=[stack, *others], carry={"banker": 1}, options=options)
        state = GAME.new_state(config)
        for seat in GAME.to_act(state):  # type: ignore[union-attr]
            state = GAME.apply(state, Bet(seat, L) if seat in (0, 2) else SitOut(seat))
        state = GAME.apply(deal(state, SEED_HANDS), TimeUp(None))
        assert GAME.settle(state).deltas[0] == 2 * L
        assert GAME.carry(state) == {"banker": banker}


def test_host_is_the_first_banker() -> None:
    """S001 'Trong ván đầu tiên, chủ phòng (người đầu tiên ngồi vào bàn) sẽ là người cầm
    chương.'"""
    state = GAME.new_state(TableConfig.make(seats=4, stake=L, host=2))
    assert state.banker == 2 and GAME.to_act(state) == (0, 1, 3)


def test_a_bet_the_banker_cannot_cover_is_refused() -> None:
    """S001 'Điều kiện làm chương là người chơi phải có tổng số dư tài khoản ... đảm bảo chắc
    chắc sẽ thanh toán hết cho người dùng trong bàn'; RULES.md §11.2: balance ≥ 2 × the bets."""
    state = GAME.new_state(table(3, stacks=[10 * L, 1000 * L, 1000 * L]))
    assert GAME.cover_left(state) == 5 * L
    state = GAME.apply(state, Bet(1, 4 * L))
    snapshot = repr(state)
    with pytest.raises(IllegalActionError) as info:
        GAME.apply(state, Bet(2, 2 * L))
    assert "the banker cannot cover it: at most 1.00 more can be accepted" in str(info.value)
    assert repr(state) == snapshot
    (bet_range,) = GAME.amount_ranges(state)
    assert (bet_range.min, bet_range.max) == (L, L)
    state = GAME.apply(state, Bet(2, L))
    assert GAME.to_act(state) is CHANCE  # everyone has bet: the cards are dealt


def test_bet_limits_and_who_bets() -> None:
    """RULES.md §11.3 [DEF]: bets from L to ``bacaychuong.max_bet`` = 10 L; the banker does not
    bet."""
    state = GAME.new_state(table(3))
    for bet, reason in [
        (Bet(1, L - 1), "the smallest bet is 1.00"),
        (Bet(1, 10 * L + 1), "the largest bet is 10.00"),
        (Bet(0, L), "the banker does not bet"),
    ]:
        with pytest.raises(IllegalActionError, match=reason):
            GAME.apply(state, bet)
    poor = GAME.new_state(table(3, stacks=[1000 * L, 3 * L, 1000 * L]))
    with pytest.raises(IllegalActionError, match="cannot play this round"):
        GAME.apply(poor, Bet(1, L))  # §2.6: 10 L to play


def test_a_banker_short_of_the_minimum_is_replaced_at_random() -> None:
    """RULES.md §11.2 [DEF]: a banker below the minimum loses the bank to a random eligible
    player (the chance player rolls one die with a side per eligible player)."""
    stacks = [1000, 5000, 1100, 5000, 1000, 5000, 5000]
    state = GAME.new_state(table(7, stacks=stacks, carry={"banker": 0}))
    assert GAME.to_act(state) is CHANCE
    spec = GAME.chance_spec(state)
    assert spec.kind == "roll" and spec.sides == 4 and state.candidates == (1, 3, 5, 6)
    state = GAME.apply(state, Roll((3,)))
    assert state.banker == 5 and state.phase == "bet"


def test_nobody_can_bank_cancels_the_round() -> None:
    """No seat can cover the minimum: the round is cancelled, nothing is paid."""
    state = GAME.new_state(table(9, stacks=[10 * L] * 9))
    assert GAME.is_terminal(state) and state.reason.startswith("no_cover:")
    assert describe(state.reason).startswith("nobody can cover the bank (")
    assert GAME.settle(state).deltas == (0,) * 9
    with pytest.raises(ConfigError):
        GAME.new_state(table(3, carry={"banker": 5}))
    with pytest.raises(ConfigError):
        GAME.new_state(table(3, options={"bacaychuong.max_bet": 0}))


def test_player_disconnect_loses_the_bet() -> None:
    """S001 'Nếu người chơi trong bàn đang chơi mất kết nối thì bị xử thua ván đấy và mất tiền
    cược của bàn chơi.'"""
    state = GAME.new_state(table(3, carry={"banker": 1}))
    state = GAME.apply(GAME.apply(state, Bet(0, 3 * L)), Bet(2, L))
    state = deal(state, SEED_HANDS)
    assert GAME.default_action(state, 0, "disconnect") == Leave(0)
    state = GAME.apply(state, Leave(0))  # A's 10 no longer counts
    state = GAME.apply(state, TimeUp(None))
    assert GAME.settle(state).deltas == (-3 * L, 4 * L, -L)
    assert GAME.carry(state) == {"banker": 1}


def test_banker_leaving_loses_to_everyone_and_a_new_banker_is_drawn() -> None:
    """S001 'Trong trường hợp người cầm chương thoát, hệ thống sẽ lựa chọn ngẫu nhiên người cầm
    chương tiếp theo'; RULES.md §11.5 [DEF]: the banker pays each bet, 2× for 10-point hands."""
    state = GAME.new_state(table(3, carry={"banker": 1}))
    state = GAME.apply(GAME.apply(state, Bet(0, L)), Bet(2, 3 * L))
    state = deal(state, SEED_HANDS)
    state = GAME.apply(state, Leave(1))
    assert GAME.is_terminal(state)
    assert GAME.settle(state).deltas == (2 * L, -5 * L, 3 * L)
    assert GAME.carry(state) == {"banker": None}
    follow = GAME.new_state(table(3, carry={"banker": None}))
    assert GAME.to_act(follow) is CHANCE and GAME.chance_spec(follow).sides == 3


def test_banker_leaving_before_the_deal_cancels() -> None:
    """RULES.md §2.8: before the deal the round is cancelled and every bet refunded."""
    state = GAME.apply(GAME.new_state(table(3)), Bet(1, L))
    state = GAME.apply(state, Leave(0))
    assert GAME.is_terminal(state) and GAME.settle(state).deltas == (0, 0, 0)
    assert GAME.carry(state) == {"banker": None}


def test_banker_start_and_the_betting_window() -> None:
    """S001 'Kết thúc thời gian đặt cược ( hoặc tất cả người chơi đều cược xong ) mỗi người chơi
    trong bàn sẽ được chia 03 lá bài'; the banker may start once a bet is in."""
    state = GAME.new_state(table(4))
    with pytest.raises(IllegalActionError, match="no bet has been placed"):
        GAME.apply(state, Start(0))
    state = GAME.apply(state, Bet(2, L))
    with pytest.raises(IllegalActionError, match="only the banker starts"):
        GAME.apply(state, Start(2))
    started = GAME.apply(state, Start(0))
    assert started.players == (0, 2) and GAME.to_act(started) is CHANCE
    closed = GAME.apply(state, TimeUp(None))
    assert closed.players == (0, 2)
    assert GAME.default_action(state, 1, "timeout") == SitOut(1)
    assert GAME.default_action(state, None, "timeout") == TimeUp(None)
    empty = GAME.apply(GAME.new_state(table(3)), TimeUp(None))
    assert GAME.is_terminal(empty) and empty.reason == "no_bets"


def test_timers() -> None:
    """S001: 15 s to squeeze or flip (7 s quick); RULES.md §2.5 betting 15 s [DEF]."""
    assert chuong_timers(table(2)) == {"squeeze_s": 15, "betting_s": 15}
    quick = table(2, options={"table.quick_mode": True})
    assert chuong_timers(quick) == {"squeeze_s": 7, "betting_s": 15}
    longer = table(2, options={"bacaychuong.betting_s": 25})
    assert chuong_timers(longer) == {"squeeze_s": 15, "betting_s": 25}


def test_views_hide_cards_until_revealed() -> None:
    """RULES.md §2.10: face-down cards go only to their owner (once squeezed)."""
    rng = SeededRng("chuong-views")
    for _ in range(20):
        state = GAME.new_state(table(5))
        while not GAME.is_terminal(state):
            turn = GAME.to_act(state)
            state = GAME.apply(
                state,
                chance_event(GAME, state, rng)
                if turn is CHANCE
                else random_action(GAME, state, rng),
            )
            for owner in state.players:
                if state.flipped[owner]:
                    continue
                for viewer in [None, *range(5)]:
                    text = json.dumps(to_jsonable(GAME.observe(state, viewer)))
                    for index, card in enumerate(state.cards[owner]):
                        visible = viewer == owner and state.seen[owner] >> index & 1
                        assert (f'"{card}"' in text) == bool(visible)


def test_bots_and_histories() -> None:
    """Bots bet the minimum and flip, always legally; histories replay exactly, and the bank
    moves from round to round through the carry."""
    carry = None
    for round_ in range(6):
        rng = SeededRng(f"chuong-bots/{round_}")
        state = GAME.new_state(table(5, carry=carry))
        while not GAME.is_terminal(state):
            turn = GAME.to_act(state)
            if turn is CHANCE:
                state = GAME.apply(state, chance_event(GAME, state, rng))
                continue
            assert isinstance(turn, tuple)
            view = GAME.observe(state, turn[0])
            action = bot_for("ba-cay-chuong").act(view, rng)
            assert action in view.legal_actions
            if isinstance(action, Bet):
                assert action.amount == L
            state = GAME.apply(state, action)
        history = load_history(dump_history(record_history(GAME, state)))
        replayed, settlement = replay_history(history)
        assert replayed == state and settlement == GAME.settle(state)
        carry = GAME.carry(state)
    assert find_game("Ba Cây Chương") is find_game("ba-cay-chuong")
    text = GAME.render_text(GAME.observe(state, 0))
    assert "Ba Cây Chương" in text and "chương" in text


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 9))
def test_gold_is_conserved_across_rounds(seed: int, seats: int) -> None:
    """Random legal play with leaving, over several rounds: every round ends, settles to zero,
    nobody loses more than their stack, and a banker never pays more than it holds."""
    rng = SeededRng(f"chuong-prop/{seed}")
    carry = None
    for _ in range(4):
        stacks = [L * (8 + rng.randbelow(40)) for _ in range(seats)]
        state = GAME.new_state(table(seats, stacks=stacks, carry=carry))
        for _ in range(GAME.info.max_actions):
            turn = GAME.to_act(state)
            if turn is None:
                break
            if turn is CHANCE:
                state = GAME.apply(state, chance_event(GAME, state, rng))
            elif rng.randbelow(15) == 0 and state.phase == "squeeze":
                live = [s for s in state.players if not state.left[s]]
                state = GAME.apply(state, Leave(live[rng.randbelow(len(live))]))
            else:
                state = GAME.apply(state, random_action(GAME, state, rng))
        assert GAME.is_terminal(state)
        settlement = GAME.settle(state)
        settlement.check()
        assert settlement.breakage == 0  # the cover rule keeps every payment whole
        assert all(d >= -s for d, s in zip(settlement.deltas, stacks, strict=True))
        carry = GAME.carry(state)


CHUONG_INTS = {
    "bacaychuong.max_bet": (10, 1, 3),
    "bacaychuong.min_cover_multiple": (2, 1, 3),
    "platform.min_balance_multiple": (10, 0, 2),
    "bacaychuong.betting_s": (15, 5, 30),
}


def random_options(rng: SeededRng) -> dict[str, object]:
    """Any combination of the RULES.md flags of Ba Cây Chương."""
    options: dict[str, object] = {}
    for spec in GAME.info.options:
        if spec.choices:
            values: tuple[object, ...] = spec.choices
        elif isinstance(spec.default, bool):
            values = (False, True)
        else:
            values = CHUONG_INTS[spec.name]
        options[spec.name] = values[rng.randbelow(len(values))]
    return options


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 9))
def test_any_options_conserve_gold(seed: int, seats: int) -> None:
    """Every option combination, several rounds (the bank moving with the carry): every round
    ends, settles to zero and takes no seat below zero."""
    rng = SeededRng(f"chuong-options/{seed}")
    options = random_options(rng)
    carry = None
    for _ in range(3):
        stacks = [L * rng.randbelow(40) for _ in range(seats)]
        state = GAME.new_state(table(seats, stacks=stacks, carry=carry, options=options))
        while not GAME.is_terminal(state):
            turn = GAME.to_act(state)
            state = GAME.apply(
                state,
                chance_event(GAME, state, rng)
                if turn is CHANCE
                else random_action(GAME, state, rng),
            )
        settlement = GAME.settle(state)
        settlement.check()
        assert all(d >= -s for d, s in zip(settlement.deltas, stacks, strict=True))
        carry = GAME.carry(state)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9), st.integers(3, 9), st.integers(0, 12))
def test_views_ignore_cards_hidden_from_the_viewer(seed: int, seats: int, steps: int) -> None:
    """Swapping two cards the viewer cannot see (other players' face-down cards, squeezed or
    not) leaves the viewer's view unchanged."""
    rng = SeededRng(f"chuong-swap/{seed}")
    state = GAME.new_state(table(seats))
    for seat in range(1, seats):
        state = GAME.apply(state, Bet(seat, L))
    state = GAME.apply(state, chance_event(GAME, state, rng))
    for _ in range(steps):
        moves = [a for a in GAME.legal_actions(state) if not isinstance(a, TimeUp)]
        if GAME.is_terminal(state) or not moves:
            return
        state = GAME.apply(state, moves[rng.randbelow(len(moves))])
    if GAME.is_terminal(state):
        return
    for viewer in [None, *range(seats)]:
        places = [
            (owner, i)
            for owner in state.players
            if owner != viewer and not state.flipped[owner]
            for i in range(3)
        ]
        if len(places) < 2:
            continue
        (a, i), (b, j) = places[rng.randbelow(len(places))], places[rng.randbelow(len(places))]
        cards = [list(hand) for hand in state.cards]
        cards[a][i], cards[b][j] = cards[b][j], cards[a][i]
        swapped = dataclasses.replace(state, cards=tuple(map(tuple, cards)))
        assert GAME.observe(swapped, viewer) == GAME.observe(state, viewer)


def test_remap_carry_keeps_the_banker_the_same_player() -> None:
    """Between rounds seats are renumbered (a player left): the carried banker moves with the
    player; a banker who left is replaced by a random draw (``{"banker": None}``)."""
    carry = {"banker": 3}
    moved = GAME.remap_carry(carry, {0: 0, 1: None, 2: 1, 3: 2})
    assert moved == {"banker": 2} and carry == {"banker": 3}
    assert GAME.new_state(table(3, carry=moved)).banker == 2
    gone = GAME.remap_carry(carry, {0: 0, 1: 1, 2: 2, 3: None})
    assert gone == {"banker": None}
    assert GAME.new_state(table(3, carry=gone)).banker is None  # drawn at random
    assert GAME.remap_carry(None, {0: 0}) is None
