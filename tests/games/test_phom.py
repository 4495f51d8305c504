"""Phỏm (Tá lả): rules, payments and bad input (RULES.md §9, seed 001 'Luật chơi Phỏm').

Deals are fixed with a :class:`Shuffle` built from the wanted hands (the engine deals one card
at a time in turn order, then the 10th card to the first player). End positions are built by
replacing fields of a dealt state, then reached through a real final discard.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sanh.bots import bot_for
from sanh.cards import Card, parse_card, parse_cards
from sanh.cards.deck import DECK_52
from sanh.cards.rng import SeededRng
from sanh.errors import ConfigError, IllegalActionError, NotYourTurnError
from sanh.games import find_game
from sanh.games.base import CHANCE, Roll, Shuffle, TableConfig
from sanh.games.driver import chance_event, random_action
from sanh.games.phom import (
    Discard,
    Draw,
    Eat,
    LayDown,
    Leave,
    Phom,
    PhomState,
    PhomView,
    Send,
    phom_timers,
)
from sanh.notation.history import dump_history, load_history, record_history, replay_history
from sanh.notation.jsonable import to_jsonable

GAME = Phom()
L = 100


def c(text: str) -> Card:
    return parse_card(text)


def cs(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def config(seats: int, **kwargs: object) -> TableConfig:
    return TableConfig.make(seats=seats, stake=L, **kwargs)  # type: ignore[arg-type]


def deal(
    seats: int,
    hands: Mapping[int, str],
    stock: str = "",
    *,
    stacks: Sequence[int] | None = None,
    options: Mapping[str, object] | None = None,
    carry: object = None,
) -> PhomState:
    """The state right after a shuffle giving these hands; ``stock`` is drawn first."""
    state = GAME.new_state(
        TableConfig.make(
            seats=seats,
            stake=L,
            stacks=stacks,
            options=options or {},  # type: ignore[arg-type]
            carry=carry,
        )
    )
    assert state.phase == "deal"
    parsed = {seat: list(cs(text)) for seat, text in hands.items()}
    first = state.order[0]
    assert len(parsed[first]) == 10 and all(len(parsed[s]) == 9 for s in state.order[1:])
    order: list[Card] = []
    for round_ in range(9):
        order += [parsed[seat][round_] for seat in state.order]
    order.append(parsed[first][9])
    order += cs(stock)
    order += [card for card in DECK_52 if card not in order]
    assert len(order) == len(set(order)) == 52
    return GAME.apply(state, Shuffle(tuple(order)))


def act(state: PhomState, *actions: object) -> PhomState:
    for action in actions:
        state = GAME.apply(state, action)  # type: ignore[arg-type]
    return state


def rejected(state: PhomState, action: object, reason: str) -> None:
    """The action raises IllegalActionError mentioning ``reason`` and changes nothing."""
    snapshot = repr(state)
    with pytest.raises(IllegalActionError) as info:
        GAME.apply(state, action)  # type: ignore[arg-type]
    assert reason in str(info.value)
    assert repr(state) == snapshot


def paid(state: PhomState) -> tuple[int, ...]:
    view = GAME.observe(state, None)
    assert isinstance(view, PhomView)
    return view.paid


# ----- setup -----------------------------------------------------------------------------------
def test_first_player_gets_ten_cards_others_nine() -> None:
    """S001: 'Ban đầu mỗi người có 9 lá bài, ngoại trừ người đi đầu có 10 lá bài.'"""
    state = GAME.new_state(config(4))
    state = GAME.apply(state, chance_event(GAME, state, SeededRng("deal")))
    assert [len(state.hands[s]) for s in state.order] == [10, 9, 9, 9]
    assert len(state.stock) == 52 - 37
    assert state.current == state.order[0] and state.phase == "discard"


def test_host_starts_the_first_game_and_the_winner_the_next() -> None:
    """RULES.md §2.4/A-PH7: host first; S001 'Người chơi nhất ván trước sẽ có 10 lá'."""
    assert GAME.new_state(config(3, host=2)).order == (2, 0, 1)
    assert GAME.new_state(config(3, carry={"winner": 1})).order == (1, 2, 0)
    assert GAME.new_state(config(3, options={"phom.direction": "cw"})).order == (0, 2, 1)


def test_random_first_player_uses_a_die() -> None:
    """A-PH7 option ``phom.first_player = random``: the chance player rolls for it."""
    state = GAME.new_state(config(3, options={"phom.first_player": "random"}))
    assert GAME.to_act(state) is CHANCE and GAME.chance_spec(state).sides == 3
    state = GAME.apply(state, Roll((2,)))
    assert state.order == (1, 2, 0)


def test_players_below_the_minimum_balance_sit_out() -> None:
    """RULES.md §2.6: 10 L to start a game of Phỏm; fewer than two players cancel it."""
    state = GAME.new_state(config(3, stacks=[10 * L, 9 * L, 50 * L]))
    assert state.order == (0, 2)
    cancelled = GAME.new_state(config(2, stacks=[10 * L, 9 * L]))
    assert GAME.is_terminal(cancelled) and cancelled.outcome == "cancelled"
    assert GAME.settle(cancelled).deltas == (0, 0)


def test_bad_options_are_config_errors() -> None:
    """Options are validated when the table is set up."""
    with pytest.raises(ConfigError):
        GAME.new_state(config(2, options={"phom.eat_multipliers": "1,two"}))
    with pytest.raises(ConfigError):
        GAME.new_state(config(2, options={"phom.direction": "up"}))
    with pytest.raises(ConfigError):
        GAME.new_state(config(2, carry={"winner": 7}))
    with pytest.raises(ConfigError):
        GAME.new_state(config(5))


def test_timers_are_data() -> None:
    """RULES.md §2.5: turn timer 15 s, 7 s in quick mode (A-PL5)."""
    assert phom_timers(config(2)) == {"turn_s": 15}
    assert phom_timers(config(2, options={"table.quick_mode": True})) == {"turn_s": 7}


# ----- a whole two-player game: laying down, sending, Móm --------------------------------------
A_HAND = "4h 5h 6h Ks Qd Jc 9c 2s 8d 3c"
B_HAND = "7h 9s Qs Qc Ad 5c Th 2d 6s"


def two_player_game() -> list[PhomState]:
    """A (p1) lays 4h5h6h; B (p2) has no meld, sends 7h onto it and is Móm."""
    states = [deal(2, {0: A_HAND, 1: B_HAND}, "3s 7c 8s 4c Tc Jd 2c")]
    script = [
        Discard(0, c("9c")),
        Draw(1),
        Discard(1, c("2d")),
        Draw(0),
        Discard(0, c("Jc")),
        Draw(1),
        Discard(1, c("Ad")),
        Draw(0),
        Discard(0, c("Ks")),
        Draw(1),
        Discard(1, c("5c")),
        Draw(0),  # A's last turn: starts with 3 cards in the row
        LayDown.of(0, (cs("4h 5h 6h"),)),
        Discard(0, c("Qd")),
        Draw(1),  # B's last turn: no meld, the lay-down step is skipped
        Send(1, c("7h"), 0, 0),
        Discard(1, c("Qs")),
    ]
    for action in script:
        states.append(GAME.apply(states[-1], action))
    return states


def test_last_turn_lays_down_sends_and_discards() -> None:
    """S001: 'Khi đánh lượt cuối, người chơi phải hạ tất cả Phỏm mình đang có, sau đó gửi các
    lá bài có thể gửi vào Phỏm của những người chơi đã hạ bài rồi mới đánh quân cuối cùng.'"""
    states = two_player_game()
    laying = states[12]
    assert laying.phase == "lay" and laying.laying
    assert GAME.legal_actions(laying) == (LayDown.of(0, (cs("4h 5h 6h"),)),)
    b_last = states[15]
    assert b_last.phase == "discard" and b_last.laid[1] == 2 and b_last.melds[1] == ()
    assert Send(1, c("7h"), 0, 0) in GAME.legal_actions(b_last)
    final = states[-1]
    assert GAME.is_terminal(final) and final.outcome == "end"
    assert final.melds[0] == (cs("4h 5h 6h 7h"),)
    assert [len(final.rows[s]) for s in (0, 1)] == [4, 4]


def test_sent_cards_do_not_count_and_mom_pays_four() -> None:
    """S001 'Lá bài được gửi đi sẽ không bị tính điểm'; 'Móm Mất 4 lần tiền cược'."""
    final = two_player_game()[-1]
    assert final.ranking == (0, 1)
    assert c("7h") not in final.hands[1]
    settlement = GAME.settle(final)
    assert settlement.deltas == (4 * L, -4 * L)
    assert GAME.carry(final) == {"winner": 0}


def test_laying_off_onto_a_meld_it_does_not_fit_is_refused() -> None:
    """Issue 5 bad input: 'laying off onto a meld it does not fit' (9s onto 4h5h6h)."""
    b_last = two_player_game()[15]
    rejected(b_last, Send(1, c("9s"), 0, 0), "9♠ does not fit p1's meld 4♥ 5♥ 6♥")
    rejected(b_last, Send(1, c("7h"), 0, 3), "p1 has no meld number 3")
    rejected(b_last, Send(1, c("Kd"), 0, 0), "you do not hold K♦")


def test_sending_only_in_the_laying_turn() -> None:
    """RULES.md §9.4: cards are sent in the last turn, after laying down."""
    states = two_player_game()
    # B's third turn (not a last turn): A has no meld down yet, and B has not laid down.
    rejected(states[10], Send(1, c("7h"), 0, 0), "cards are sent only in the turn you lay down")


def test_wrong_lay_down_is_refused() -> None:
    """§9.4: 'lay down all their melds': leaving a meld out, or a non-meld, is refused."""
    laying = two_player_game()[12]
    rejected(laying, LayDown(0, (), ()), "not a way to lay down all your melds")
    rejected(laying, LayDown.of(0, (cs("4h 5h"),)), "sizes must cut the cards")
    rejected(laying, Discard(0, c("Qd")), "lay down your melds first")


def test_discarding_a_card_you_do_not_hold_is_refused() -> None:
    """Issue 5 bad input: 'discarding a card you do not hold'."""
    state = deal(2, {0: A_HAND, 1: B_HAND})
    rejected(state, Discard(0, c("As")), "you do not hold A♠")
    rejected(state, Draw(0), "you have taken a card")  # the first player skips the draw
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, Discard(1, c("9s")))


# ----- eating ----------------------------------------------------------------------------------
def test_eating_a_card_that_completes_no_meld_is_refused() -> None:
    """Issue 5 bad input; S001: 'Người tiếp theo sẽ ăn lá bài đó nếu nó hợp với các lá bài đang
    có tạo thành Phỏm.'"""
    state = act(deal(2, {0: A_HAND, 1: B_HAND}), Discard(0, c("9c")))
    assert GAME.legal_actions(state) == (Draw(1),)
    rejected(state, Eat(1, c("9c")), "9♣ completes no meld with your hand")
    rejected(state, Eat(1, c("Qd")), "the discard to eat is 9♣, not Q♦")


def test_eating_completes_a_meld_and_the_discarder_pays() -> None:
    """S001 'Ăn 1 cây 01 lần tiền cược': Qd eaten with Qs Qc; A (discarder) pays B 1 × L."""
    state = act(deal(2, {0: A_HAND, 1: B_HAND}), Discard(0, c("Qd")))
    assert Eat(1, c("Qd")) in GAME.legal_actions(state)
    state = act(state, Eat(1, c("Qd")))
    assert state.rows[0] == () and state.eaten[1] == (c("Qd"),)
    assert paid(state) == (-L, L)
    assert state.phase == "discard"


def test_eaten_cards_must_stay_in_melds() -> None:
    """RULES.md §9.3 [CP]: an eaten card must end in a laid meld; a discard that breaks it is
    refused."""
    state = act(deal(2, {0: A_HAND, 1: B_HAND}), Discard(0, c("Qd")), Eat(1, c("Qd")))
    rejected(state, Discard(1, c("Qd")), "Q♦ was eaten and must stay in a meld")
    rejected(state, Discard(1, c("Qs")), "would leave your eaten cards (Q♦) without melds")
    assert Discard(1, c("2d")) in GAME.legal_actions(state)
    assert Discard(1, c("Qc")) not in GAME.legal_actions(state)


def test_no_meld_may_hold_two_eaten_cards() -> None:
    """RULES.md §9.3 [CP]: 'No meld may contain two eaten cards': with Qd eaten into Qs Qc Qd,
    Qh could only join that meld, so it cannot be eaten."""
    state = act(deal(2, {0: A_HAND, 1: B_HAND}), Discard(0, c("Qd")), Eat(1, c("Qd")))
    state = act(state, Discard(1, c("2d")), Draw(0), Discard(0, c("Ks")))
    state = dataclasses.replace(state, pending=c("Qh"), rows=(cs("Qh"), state.rows[1]))
    rejected(state, Eat(1, c("Qh")), "Q♥ cannot be melded alongside your eaten cards (Q♦)")


def eat_position(
    eats_before: int, *, chot: bool, options: Mapping[str, object] | None = None
) -> PhomState:
    """p2 eats p1's discard 5c (with 5s 5d in hand) after ``eats_before`` eats."""
    state = act(
        deal(2, {0: A_HAND, 1: "5s 5d 9s Qs Ad Th 2d 6s 7d"}, options=options), Discard(0, c("Qd"))
    )
    state = dataclasses.replace(
        state,
        pending=c("5c"),
        pending_chot=chot,
        rows=(cs("5c"), ()),
        eat_counts=(0, eats_before),
    )
    return act(state, Eat(1, c("5c")))


@pytest.mark.parametrize(("before", "multiple"), [(0, 1), (1, 2), (2, 3), (5, 3)])
def test_eat_payment_by_ordinal(before: int, multiple: int) -> None:
    """S001 'Ăn 1 cây 01 lần tiền cược. Ăn cây thứ 2: 02 lần tiền cược'; 3rd 3× (A-PH3)."""
    assert paid(eat_position(before, chot=False)) == (-multiple * L, multiple * L)


def test_eating_a_chot_pays_five() -> None:
    """S001 'Ăn chốt 5 lần tiền cược' (eating a discard made in the discarder's last turn)."""
    assert paid(eat_position(0, chot=True)) == (-5 * L, 5 * L)
    assert eat_position(0, chot=True).chot_eater == 1


def test_eat_multiplier_options() -> None:
    """A-PH3 flags: ``phom.eat_multipliers`` and ``phom.chot_multiplier``."""
    options = {"phom.eat_multipliers": "2,4,6", "phom.chot_multiplier": 7}
    assert paid(eat_position(1, chot=False, options=options)) == (-4 * L, 4 * L)
    assert paid(eat_position(1, chot=True, options=options)) == (-7 * L, 7 * L)


def test_eat_gives_the_discarder_an_extra_turn() -> None:
    """S001 'Tái: ... các quân bài đã đánh ra sẽ được chuyển chỗ và bạn được phép đánh thêm
    một lượt'; RULES.md §9.4: an eaten discard leaves its owner's row."""
    state = act(deal(2, {0: A_HAND, 1: B_HAND}), Discard(0, c("Qd")), Eat(1, c("Qd")))
    assert state.rows == ((), ())
    state = act(state, Discard(1, c("2d")))
    assert state.current == 0 and state.rows == ((), cs("2d"))
    tai_off = act(
        deal(2, {0: A_HAND, 1: B_HAND}, options={"phom.tai": False}),
        Discard(0, c("Qd")),
        Eat(1, c("Qd")),
    )
    assert tai_off.discards_made == (1, 0)


# ----- Ù --------------------------------------------------------------------------------------
U_HAND = "3h 4h 5h 8c 8d 8s Ts Js Qs"
JUNK = "Kd 9c 2s 6d Jh Ac 7s 4c Qd 2h"


def test_u_thuong_by_drawing() -> None:
    """S001 'Ù: Khi tất cả 9 lá bài đều có phỏm'; 'Ù thường Ăn mỗi nhà 5 lần tiền cược'."""
    state = act(
        deal(3, {0: JUNK, 1: U_HAND, 2: "Ah 2c 3s 5d 6c 7h 9h Td Kc"}, "2d"), Discard(0, c("Kd"))
    )
    state = act(state, Draw(1))
    assert GAME.is_terminal(state) and state.outcome == "u" and state.winner == 1
    assert len(state.u_melds) == 3
    assert GAME.settle(state).deltas == (-5 * L, 10 * L, -5 * L)


def test_u_tron_by_drawing() -> None:
    """S001 'Ù tròn Ăn mỗi người 10 lần tiền cược' (RULES.md A-PH4: all 10 cards melded)."""
    state = act(
        deal(3, {0: JUNK, 1: U_HAND, 2: "Ah 2c 3s 5d 6c 7h 9h Td Kc"}, "Ks"), Discard(0, c("Kd"))
    )
    state = act(state, Draw(1))
    assert state.outcome == "u_tron"
    assert GAME.settle(state).deltas == (-10 * L, 20 * L, -10 * L)


def test_u_by_eating_keeps_the_eat_payment() -> None:
    """RULES.md §9.5/§9.8 [DEF]: eat payments are not undone by a later Ù."""
    b_hand = "3h 4h 5h 8c 8d 8s Ts Js 2d"
    state = act(deal(2, {0: "Qs Kd 9c 2s 6d Jh Ac 7s 4c 2h", 1: b_hand}), Discard(0, c("Qs")))
    state = act(state, Eat(1, c("Qs")))
    assert state.outcome == "u" and state.winner == 1
    assert GAME.settle(state).deltas == (-6 * L, 6 * L)


def test_first_player_u_right_after_the_deal() -> None:
    """RULES.md §9.5: the check happens 'for the first player straight after the deal'."""
    state = deal(2, {0: "3h 4h 5h 8c 8d 8s Ts Js Qs Kd", 1: "Ah 2c 3s 5d 6c 7h 9h Td Kc"})
    assert GAME.is_terminal(state) and state.outcome == "u" and state.winner == 0
    assert GAME.settle(state).deltas == (5 * L, -5 * L)


def three_eaten_game(options: Mapping[str, object] | None = None) -> PhomState:
    """B (p2) eats three discards of A (p1) in a row, then goes Ù on the third."""
    state = deal(
        3,
        {
            0: "5c 8h Jc Kc Qh 9s Ts 4d 7s 2h",
            1: "5h 5d 8c 8s Jd Jh 2c 3s 6d",
            2: "Ah 3d 6c 9d Tc Qs 4s Kh 7c",
        },
        "2d 3h 4h 5s",
        options=options,
    )
    return act(
        state,
        Discard(0, c("5c")),
        Eat(1, c("5c")),
        Discard(1, c("2c")),
        Draw(2),
        Discard(2, c("2d")),
        Draw(0),
        Discard(0, c("8h")),
        Eat(1, c("8h")),
        Discard(1, c("3s")),
        Draw(2),
        Discard(2, c("4h")),
        Draw(0),
        Discard(0, c("Jc")),
        Eat(1, c("Jc")),
    )


def test_three_eaten_in_a_row_makes_the_discarder_liable() -> None:
    """S001 'Người chơi cũng bị tính là đền nếu bị ăn 3 lá bài liên tục' (A-PH8); 'Ù đền phải
    đền cho cả làng theo số tiền người ù được': A pays B the whole Ù (2 × 5 L) alone, on top of
    the eats (1 + 2 + 3 L); C pays nothing."""
    state = three_eaten_game()
    assert state.outcome == "u" and state.winner == 1 and state.liable == 0
    assert GAME.settle(state).deltas == (-16 * L, 16 * L, 0)


def test_three_eaten_liability_can_be_switched_off() -> None:
    """A-PH8 flag ``phom.three_eaten_liability = false``: everyone pays their own Ù share."""
    state = three_eaten_game({"phom.three_eaten_liability": False})
    assert state.liable is None
    assert GAME.settle(state).deltas == (-11 * L, 16 * L, -5 * L)


FOUR = {
    0: "2c 3c Ks 9d 6s Jc 4d Qh Th 7d",
    1: "5h 5d Jd Jh 2s 3s 6d Kd 8s",
    2: "9s Ts 2h 3h 4h 8c 8d Kh Ah",
    3: "Ac Ad As 6h 7h 8h Qc Qd Qs",  # nine melded cards: any tenth is Ù
}


def chot_position() -> PhomState:
    """4 players near the end; B (p2) may eat 5c, discarded in A's last turn (a chốt)."""
    state = act(deal(4, FOUR), Discard(0, c("Ks")))
    rows = (cs("Ks 9d 6s 5c"), cs("2d 4s 7s"), cs("3d 5s 9h"), cs("4c 6c 9c"))
    return dataclasses.replace(
        state,
        current=1,
        phase="draw",
        laying=True,
        rows=rows,
        discards_made=(4, 3, 3, 3),
        hands=(cs("2c 3c Jc 4d Qh 7d"), *state.hands[1:]),
        stock=cs("Kc 7c Js"),
        pending=c("5c"),
        pending_seat=0,
        pending_chot=True,
        laid=(1, 0, 0, 0),
        melds=((cs("Tc Td Th"),), (), (), ()),
    )


def test_chot_eater_is_liable_for_a_later_u() -> None:
    """S001 'Đền: Trong lượt đánh cuối, nếu người chơi Ăn chốt của người ngồi trước thì bất kì
    người chơi nào sau lượt đánh của người đó Ù thì người chơi vừa ăn chốt sẽ bị đền'; 'Tái gửi
    ù đền: ... bạn sẽ phải đền cho tất cả người chơi trong bàn.' B eats A's chốt (A pays 5 L),
    then D goes Ù: B pays D the whole Ù, 3 × 5 L, alone."""
    state = act(chot_position(), Eat(1, c("5c")))
    assert paid(state) == (-5 * L, 5 * L, 0, 0) and state.chot_eater == 1
    assert state.phase == "lay"
    state = act(state, LayDown.of(1, (cs("5d 5c 5h"),)), Discard(1, c("2s")))
    state = act(state, Draw(2), LayDown.of(2, (cs("Ah 2h 3h 4h"),)), Discard(2, c("Kh")))
    assert not GAME.is_terminal(state)
    state = act(state, Draw(3))
    assert state.outcome == "u" and state.winner == 3 and state.liable == 1
    assert GAME.settle(state).deltas == (-5 * L, 5 * L - 15 * L, 0, 15 * L)


def test_the_latest_chot_eater_is_liable_instead() -> None:
    """S001 'Nếu bạn ăn quân chốt, sau đó bạn đánh ra và 1 người khác lại ăn quân chốt và sau đó
    có người ù thì người ăn quân chốt cuối cùng sẽ bị đền làng.' B eats A's chốt, C eats B's
    chốt, D goes Ù: C pays D 15 L; B only passes A's 5 L on to C."""
    state = act(chot_position(), Eat(1, c("5c")), LayDown.of(1, (cs("5h 5d 5c"),)))
    state = act(state, Discard(1, c("8s")))
    assert state.pending_chot and state.current == 2
    state = act(state, Eat(2, c("8s")))
    assert paid(state) == (-5 * L, 0, 5 * L, 0) and state.chot_eater == 2
    # The eaten 8s may go into 8c 8d 8s or 8s 9s Ts: the player chooses.
    layouts = {frozenset(a.cards) for a in GAME.legal_actions(state) if isinstance(a, LayDown)}
    assert layouts == {frozenset(cs("Ah 2h 3h 4h 8c 8d 8s")), frozenset(cs("Ah 2h 3h 4h 8s 9s Ts"))}
    state = act(state, LayDown.of(2, (cs("Ah 2h 3h 4h"), cs("8c 8d 8s"))), Discard(2, c("Kh")))
    state = act(state, Draw(3))
    assert state.outcome == "u" and state.winner == 3 and state.liable == 2
    assert GAME.settle(state).deltas == (-5 * L, 0, 5 * L - 15 * L, 15 * L)


# ----- the end ranking and its payments --------------------------------------------------------
def end_position(
    hands: Mapping[int, str],
    melds: Mapping[int, Sequence[str]],
    *,
    last: int,
    discard: str,
    laid: Sequence[int] | None = None,
    options: Mapping[str, object] | None = None,
) -> PhomState:
    """Every row full but ``last``'s, which discards ``discard`` to end the game."""
    seats = len(hands)
    base = GAME.new_state(config(seats, options=options or {}))
    used = {card for text in hands.values() for card in cs(text)}
    used |= {card for groups in melds.values() for text in groups for card in cs(text)}
    used.add(c(discard))
    spare = [card for card in DECK_52 if card not in used]
    rows = []
    for seat in range(seats):
        size = 3 if seat == last else 4
        rows.append(tuple(spare[:size]))
        spare = spare[size:]
    return dataclasses.replace(
        base,
        phase="discard",
        current=last,
        laying=True,
        hands=tuple(cs(hands[s]) + ((c(discard),) if s == last else ()) for s in range(seats)),
        rows=tuple(rows),
        discards_made=tuple(len(r) for r in rows),
        eaten=((),) * seats,
        melds=tuple(tuple(cs(m) for m in melds.get(s, ())) for s in range(seats)),
        laid=tuple(laid) if laid is not None else tuple(range(1, seats + 1)),
        stock=(),
    )


def test_seed_example_four_players() -> None:
    """RULES.md §9.9: 4 players, L = 100, no Ù. Points: A 12, B 5, C 20; D is Móm. B is 1st.
    A (2nd) pays 100, C (3rd) pays 200 and D (Móm) pays 400, so B receives 700."""
    state = end_position(
        {0: "Qs", 1: "5h", 2: "Kd 7c", 3: "9s 8h"},
        {0: ["2h 3h 4h"], 1: ["7s 7d 7h"], 2: ["9c 9d 9h"]},
        last=3,
        discard="Ac",
    )
    state = act(state, Discard(3, c("Ac")))
    assert state.ranking == (1, 0, 2, 3)
    assert GAME.settle(state).deltas == (-100, 700, -200, -400)


@pytest.mark.parametrize(
    ("seats", "expected"),
    [
        (4, (6 * L, -1 * L, -2 * L, -3 * L)),  # S001 'Về nhì/ba/chót (trong bàn 4 người)' 1/2/3
        (3, (3 * L, -1 * L, -2 * L)),  # S001 'Về nhì/chót (trong bàn 3 người)' 1/2
        (2, (1 * L, -1 * L)),  # S001 'Về chót ( trong bàn 2 người) Mất 1 lần tiền cược'
    ],
)
def test_place_payments(seats: int, expected: tuple[int, ...]) -> None:
    """S001 payment table by place (no Móm): 4 players 1/2/3, 3 players 1/2, 2 players 1."""
    hands = {s: ["Ac", "2c", "3c", "4c"][s] for s in range(seats)}
    melds = {s: [["5s 6s 7s", "5d 6d 7d", "5h 6h 7h", "Ts Js Qs"][s]] for s in range(seats)}
    state = end_position(hands, melds, last=seats - 1, discard="Kh")
    state = act(state, Discard(seats - 1, c("Kh")))
    assert state.ranking == tuple(range(seats))
    assert GAME.settle(state).deltas == expected


def test_mom_ranks_last_whatever_the_points() -> None:
    """RULES.md §9.7: 'Móm players rank below everyone else'; S001 'Móm Mất 4 lần tiền cược'."""
    state = end_position(
        {0: "Kc Ks Kd", 1: "Ac", 2: "2c"},
        {0: ["5s 6s 7s"], 2: ["5d 6d 7d"]},
        last=2,
        discard="Qh",
    )
    state = act(state, Discard(2, c("Qh")))
    assert state.ranking == (2, 0, 1)
    assert GAME.settle(state).deltas == (-1 * L, -4 * L, 5 * L)


def test_everyone_mom_the_first_collects_the_mom_amount() -> None:
    """RULES.md §9.7 [DEF]: every player Móm: ranked by points, the 1st collects 4× from each."""
    state = end_position({0: "Kc", 1: "Ac", 2: "5c"}, {}, last=2, discard="Qh")
    state = act(state, Discard(2, c("Qh")))
    assert state.ranking == (1, 2, 0)
    assert GAME.settle(state).deltas == (-4 * L, 8 * L, -4 * L)


def test_equal_points_earlier_lay_down_ranks_higher() -> None:
    """RULES.md §9.7 / A-PH6 [CP]: 'On equal points, whoever laid down earlier ranks higher.'"""
    hands = {0: "5c", 1: "5d"}
    melds = {0: ["7s 8s 9s"], 1: ["7d 8d 9d"]}
    state = act(end_position(hands, melds, last=1, discard="Kh", laid=(2, 1)), Discard(1, c("Kh")))
    assert state.ranking == (1, 0)
    by_card = end_position(
        hands, melds, last=1, discard="Kh", laid=(2, 1), options={"phom.tie_break": "card_strength"}
    )
    by_card = act(by_card, Discard(1, c("Kh")))
    assert by_card.ranking == (0, 1)  # A-PH6 alternative: 5♣ is weaker than 5♦ (♥ > ♦ > ♣ > ♠)


# ----- leaving -------------------------------------------------------------------------------
def test_disconnect_pays_five_to_each_other_player_and_is_removed() -> None:
    """S001 'Nếu người chơi bị mất kết nối thì người chơi đó sẽ tự động bị xử thua. Tại thời
    điểm bị mất kết nối, người chơi đó sẽ phải đền mỗi người chơi còn lại 5 lần tiền bàn.'"""
    state = act(deal(3, {0: JUNK, 1: U_HAND, 2: "Ah 2c 3s 5d 6c 7h 9h Td Kc"}), Discard(0, c("Kd")))
    leave = GAME.default_action(state, 2, "disconnect")
    assert leave == Leave(2)
    state = act(state, leave)  # out of turn: Leave is an anytime action
    assert state.removed == (False, False, True)
    assert paid(state) == (5 * L, 5 * L, -10 * L)
    assert Leave(2) not in GAME.legal_actions(state)
    rejected(state, Leave(2), "not playing this game")
    state = act(state, Draw(1))  # B goes Ù: only A remains to pay
    assert GAME.settle(state).deltas == (0, 10 * L, -10 * L)


def test_the_last_player_left_wins() -> None:
    """A lone remaining player is first; the game ends at once."""
    state = act(deal(2, {0: A_HAND, 1: B_HAND}), Leave(0))
    assert GAME.is_terminal(state) and state.winner == 1
    assert GAME.settle(state).deltas == (-5 * L, 5 * L)


def test_debts_are_capped_at_the_balance_pro_rata() -> None:
    """RULES.md §2.6 [DEF]: debts capped at the payer's balance, split pro rata; the rounding
    remainder goes to breakage."""
    hands = {0: JUNK, 1: U_HAND, 2: "Ah 2c 3s 5d 6c 7h 9h Td Kc"}
    stacks = [1000 * L, 1000 * L, 701]
    state = deal(3, hands, stacks=stacks, options={"platform.min_balance_multiple": 0})
    state = act(state, Leave(2))
    settlement_view = paid(state)
    assert settlement_view == (350, 350, -701)
    state = act(state, Discard(0, c("Kd")), Draw(1))
    settlement = GAME.settle(state)
    assert settlement.breakage == 1
    assert settlement.deltas == (350 - 5 * L, 350 + 5 * L, -701)


# ----- optional rules ------------------------------------------------------------------------
def test_u_khan_is_off_by_default_and_wins_when_on() -> None:
    """S001 'NHỮNG LUẬT CHƯA ĐƯỢC ÁP DỤNG: Ù khan 9 cây Ăn mỗi nhà 5 lần tiền cược' (§16A)."""
    khan = "Ac 4c 7c Td 2d 5d Kh 8h Js"
    hands = {0: "Ah 2h 3h 5s 6s 9d 9s Qc Qd Kd", 1: khan}
    assert not GAME.is_terminal(deal(2, hands))
    state = deal(2, hands, options={"phom.opt_u_khan": True})
    assert state.outcome == "u_khan" and state.winner == 1
    assert GAME.settle(state).deltas == (-5 * L, 5 * L)


def test_u_khan_of_the_ten_card_hand_pays_ten() -> None:
    """S001 'Ù khan 10 cây (người chia bài đc ù khan). Ăn mỗi nhà 10 lần tiền cược'."""
    hands = {0: "Ac 4c 7c Td 2d 5d Kh 8h Js 3s", 1: "Ah 2h 3h 5s 6s 9d 9s Qc Qd"}
    state = deal(2, hands, options={"phom.opt_u_khan": True})
    assert state.outcome == "u_khan" and state.winner == 0
    assert GAME.settle(state).deltas == (10 * L, -10 * L)


def test_u_k_is_on_by_default_and_pays_as_u_thuong() -> None:
    """S001 lists among the rules in force 'Ù K: Khi người chơi có trên tay phỏm K 3 cây hay 4
    cây mà không bốc bài thì được tính là Ù K': by default the dealt hand ends the game at once
    and is paid as Ù thường (A-PH5, ``phom.u_k = as_u_thuong``)."""
    hands = {0: "Ah 2c 3s 5s 6d 9d 9s Qc Jd 7h", 1: "Kc Kd Kh 2d 4h 6c 8s Ts Qh"}
    state = deal(2, hands)
    assert GAME.is_terminal(state)
    assert state.outcome == "u_k" and state.winner == 1
    assert GAME.settle(state).deltas == (-5 * L, 5 * L)
    explicit = deal(2, hands, options={"phom.u_k": "as_u_thuong"})
    assert explicit.outcome == "u_k" and GAME.settle(explicit).deltas == (-5 * L, 5 * L)


def test_u_k_off_plays_the_hand_on() -> None:
    """``phom.u_k = off``: three Kings at the deal are an ordinary hand."""
    hands = {0: "Ah 2c 3s 5s 6d 9d 9s Qc Jd 7h", 1: "Kc Kd Kh 2d 4h 6c 8s Ts Qh"}
    state = deal(2, hands, options={"phom.u_k": "off"})
    assert not GAME.is_terminal(state)
    assert state.outcome != "u_k"
    four = {0: "Kc Kd Kh Ks 4h 6c 8s Ts Qh 2d", 1: "Ah 2c 3s 5s 6d 9d 9s Qc Jd"}
    assert not GAME.is_terminal(deal(2, four, options={"phom.u_k": "off"}))
    assert deal(2, four).outcome == "u_k"


def test_per_game_eat_ordinal() -> None:
    """A-PH3 flag ``phom.eat_ordinal = per_game``: the game's 2nd eat pays 2× whoever eats."""
    state = eat_position(0, chot=False, options={"phom.eat_ordinal": "per_game"})
    assert paid(state) == (-L, L)
    state = act(
        deal(
            2,
            {0: A_HAND, 1: "5s 5d 9s Qs Ad Th 2d 6s 7d"},
            options={"phom.eat_ordinal": "per_game"},
        ),
        Discard(0, c("Qd")),
    )
    state = dataclasses.replace(state, pending=c("5c"), rows=(cs("5c"), ()), eat_counts=(1, 0))
    assert paid(act(state, Eat(1, c("5c")))) == (-2 * L, 2 * L)


# ----- views, histories, bots -----------------------------------------------------------------
def play_bots(seats: int, seed: str, *, leave_every: int = 0) -> PhomState:
    rng = SeededRng(seed)
    bots = {s: bot_for("phom") for s in range(seats)}
    state = GAME.new_state(config(seats))
    steps = 0
    while not GAME.is_terminal(state):
        turn = GAME.to_act(state)
        if turn is CHANCE:
            state = GAME.apply(state, chance_event(GAME, state, rng))
            continue
        assert isinstance(turn, tuple)
        steps += 1
        if leave_every and steps % leave_every == 0:
            state = GAME.apply(state, Leave(turn[0]))
            continue
        view = GAME.observe(state, turn[0])
        action = bots[turn[0]].act(view, rng)
        assert action in view.legal_actions
        state = GAME.apply(state, action)
    return state


def test_views_hide_other_hands_and_the_stock() -> None:
    """RULES.md §2.10: hands are hidden; discards, eaten cards and melds are public; the stock
    is never sent to anyone."""
    rng = SeededRng("views")
    state = GAME.new_state(config(4))
    while not GAME.is_terminal(state):
        turn = GAME.to_act(state)
        if turn is CHANCE:
            state = GAME.apply(state, chance_event(GAME, state, rng))
            continue
        public = {card for row in state.eaten for card in row}
        for owner in state.order:
            secret = {str(card) for card in state.hands[owner] if card not in public}
            for viewer in [None, *state.order]:
                text = json.dumps(to_jsonable(GAME.observe(state, viewer)))
                shown = {card for card in secret if f'"{card}"' in text}
                if viewer == owner:
                    assert shown == secret
                else:
                    assert not shown, f"p{owner + 1}'s {shown} visible to {viewer}"
                assert not any(f'"{card}"' in text for card in map(str, state.stock))
        state = GAME.apply(state, random_action(GAME, state, rng))
    final = GAME.observe(state, None)
    assert all(None not in hand for hand in final.hands)  # hands are shown at the end


def test_bots_are_legal_and_deterministic() -> None:
    """Issue 5: bots always legal (asserted at every step), deterministic under a seed."""
    first = play_bots(4, "bots/4")
    again = play_bots(4, "bots/4")
    assert first == again
    for seats in (2, 3):
        assert GAME.is_terminal(play_bots(seats, f"bots/{seats}"))


def test_bot_eats_when_it_helps_and_discards_high_trash() -> None:
    """Issue 5: 'eat when it improves the arrangement, discard the highest deadwood'."""
    state = act(deal(2, {0: A_HAND, 1: B_HAND}), Discard(0, c("Qd")))
    bot = bot_for("phom")
    rng = SeededRng("x")
    assert bot.act(GAME.observe(state, 1), rng) == Eat(1, c("Qd"))
    state = act(state, Eat(1, c("Qd")))
    action = bot.act(GAME.observe(state, 1), rng)
    assert action == Discard(1, c("Th"))  # the highest trash (Qs, Qc, Qd are melded)


def test_default_actions_follow_the_timeout_rule() -> None:
    """RULES.md §2.7: timeout = draw; lay down the fewest points; discard the highest trash."""
    state = act(deal(2, {0: A_HAND, 1: B_HAND}), Discard(0, c("Qd")))
    assert GAME.default_action(state, 1, "timeout") == Draw(1)
    assert GAME.default_action(state, 0, "timeout") is None
    assert GAME.default_action(deal(2, {0: A_HAND, 1: B_HAND}), 0, "timeout") == Discard(0, c("Ks"))
    laying = two_player_game()[12]
    assert GAME.default_action(laying, 0, "timeout") == LayDown.of(0, (cs("4h 5h 6h"),))


def test_histories_round_trip_with_leaves_and_carry() -> None:
    """Hand histories replay to the same state and settlement (JSON), carry included."""
    state = play_bots(3, "history", leave_every=23)
    text = dump_history(record_history(GAME, state, seed="history"))
    replayed, settlement = replay_history(load_history(text))
    assert replayed == state and settlement == GAME.settle(state)
    carry = GAME.carry(state)
    follow = GAME.new_state(config(3, carry=carry))
    assert follow.order[0] == state.winner
    loaded = load_history(dump_history(record_history(GAME, follow)))
    assert loaded.config.carry == carry


def test_render_text_shows_the_table() -> None:
    """``sanh play`` draws the table with ``render_text``."""
    states = two_player_game()
    text = GAME.render_text(GAME.observe(states[15], 1))
    assert "phỏm: [0] 4♥ 5♥ 6♥" in text and "p2 (đến lượt, bạn)" in text
    end = GAME.render_text(GAME.observe(states[-1], 0))
    assert "Hết ván" in end and "(móm)" in end


def test_registered_under_its_names() -> None:
    """Registry: id ``phom``, aliases with and without diacritics."""
    assert find_game("Phỏm") is find_game("tá lả") is find_game("phom")


# ----- properties ----------------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 4), st.integers(0, 40))
def test_gold_is_conserved_and_every_game_ends(seed: int, seats: int, leave_every: int) -> None:
    """Random legal play (with players leaving at random moments): the game ends within
    ``max_actions``; the settlement sums to zero and nobody loses more than their stack."""
    rng = SeededRng(f"prop/{seed}")
    stacks = [L * (5 + rng.randbelow(60)) for _ in range(seats)]
    options = {"platform.min_balance_multiple": 0}
    state = GAME.new_state(config(seats, stacks=stacks, options=options))
    for step in range(GAME.info.max_actions):
        turn = GAME.to_act(state)
        if turn is None:
            break
        if turn is CHANCE:
            state = GAME.apply(state, chance_event(GAME, state, rng))
        elif leave_every and step % (leave_every + 3) == leave_every:
            active = [s for s in state.order if not state.removed[s]]
            state = GAME.apply(state, Leave(active[rng.randbelow(len(active))]))
        else:
            state = GAME.apply(state, random_action(GAME, state, rng))
    assert GAME.is_terminal(state)
    settlement = GAME.settle(state)
    settlement.check()
    assert all(d >= -s for d, s in zip(settlement.deltas, stacks, strict=True))
    if state.outcome == "end":
        active = [s for s in state.order if not state.removed[s]]
        assert len(active) == 1 or all(len(state.rows[s]) == 4 for s in active)


PHOM_INTS = {
    "phom.chot_multiplier": (5, 0, 7),
    "platform.min_balance_multiple": (0, 10, 30),
}
PHOM_STRINGS = {"phom.eat_multipliers": ("1,2,3", "1", "2,4,6,8")}


def random_options(rng: SeededRng) -> dict[str, object]:
    """Any combination of the RULES.md flags of Phỏm."""
    options: dict[str, object] = {}
    for spec in GAME.info.options:
        if spec.choices:
            values: tuple[object, ...] = spec.choices
        elif isinstance(spec.default, bool):
            values = (False, True)
        elif spec.name in PHOM_INTS:
            values = PHOM_INTS[spec.name]
        else:
            values = PHOM_STRINGS[spec.name]
        options[spec.name] = values[rng.randbelow(len(values))]
    return options


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 4))
def test_any_options_conserve_gold(seed: int, seats: int) -> None:
    """Every option combination: random legal play ends and settles to zero, capped at stacks."""
    rng = SeededRng(f"options/{seed}")
    stacks = [L * (5 + rng.randbelow(60)) for _ in range(seats)]
    state = GAME.new_state(config(seats, stacks=stacks, options=random_options(rng)))
    for _ in range(GAME.info.max_actions):
        turn = GAME.to_act(state)
        if turn is None:
            break
        event = (
            chance_event(GAME, state, rng) if turn is CHANCE else random_action(GAME, state, rng)
        )
        state = GAME.apply(state, event)
    assert GAME.is_terminal(state)
    settlement = GAME.settle(state)
    settlement.check()
    assert all(d >= -s for d, s in zip(settlement.deltas, stacks, strict=True))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 4), st.integers(0, 60))
def test_views_ignore_cards_hidden_from_the_viewer(seed: int, seats: int, steps: int) -> None:
    """Swapping two cards the viewer cannot see (other players' unrevealed cards and the stock)
    leaves the viewer's view unchanged."""
    rng = SeededRng(f"swap/{seed}")
    state = GAME.new_state(config(seats))
    for _ in range(steps + 1):
        turn = GAME.to_act(state)
        if turn is None:
            break
        event = (
            chance_event(GAME, state, rng) if turn is CHANCE else random_action(GAME, state, rng)
        )
        state = GAME.apply(state, event)
    if GAME.is_terminal(state) or GAME.to_act(state) is CHANCE:
        return
    public = {card for row in state.eaten for card in row}
    for viewer in [None, *state.order]:
        places: list[tuple[int, int]] = [(-1, i) for i in range(len(state.stock))]
        for owner in state.order:
            if owner != viewer:
                places += [
                    (owner, i) for i, card in enumerate(state.hands[owner]) if card not in public
                ]
        if len(places) < 2:
            continue
        first = places[rng.randbelow(len(places))]
        second = places[rng.randbelow(len(places))]
        swapped = swap_cards(state, first, second)
        assert GAME.observe(swapped, viewer) == GAME.observe(state, viewer)


def swap_cards(state: PhomState, first: tuple[int, int], second: tuple[int, int]) -> PhomState:
    """Exchange two cards between hands and/or the stock (owner -1)."""
    places = {-1: list(state.stock), **{s: list(h) for s, h in enumerate(state.hands)}}
    a = places[first[0]][first[1]]
    b = places[second[0]][second[1]]
    places[first[0]][first[1]] = b
    places[second[0]][second[1]] = a
    hands = tuple(tuple(sorted(places[s])) for s in range(len(state.hands)))
    return dataclasses.replace(state, stock=tuple(places[-1]), hands=hands)


def test_remap_carry_keeps_the_winner_the_same_player() -> None:
    """Between games seats are renumbered (a player left): the carried winner moves with the
    player; a winner who left leaves no winner, so the game starts as a first game."""
    carry = {"winner": 2}
    moved = GAME.remap_carry(carry, {0: 0, 1: None, 2: 1})
    assert moved == {"winner": 1} and carry == {"winner": 2}
    state = GAME.new_state(config(2, carry=moved))
    assert state.order[0] == 1
    gone = GAME.remap_carry(carry, {0: 0, 1: 1, 2: None})
    assert gone == {"winner": None}
    first = GAME.new_state(config(2, carry=gone))
    assert first.phase == "pick" or first.order[0] == 0  # the first-game rule
    assert GAME.remap_carry(None, {0: 0}) is None
