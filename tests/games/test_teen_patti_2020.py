"""Teen Patti 20-20 (RULES.md §14, seed 004): every worked example through the engine."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sanh.cards import DECK_52, parse_cards
from sanh.errors import ConfigError, IllegalActionError, NotYourTurnError
from sanh.games import find_game
from sanh.games.base import CHANCE, Action, Event, Settlement, Shuffle, TableConfig
from sanh.games.teen_patti_2020 import (
    BETS,
    DEAL_LABELS,
    MAX_BETS_PER_SEAT,
    Bet,
    CloseBetting,
    Ready,
    TeenPatti2020,
    TeenPattiState,
    TeenPattiView,
)
from sanh.notation.jsonable import to_jsonable

_FOUND = find_game("teen-patti-2020")
assert isinstance(_FOUND, TeenPatti2020)
GAME: TeenPatti2020 = _FOUND

UNIT = 100
"""One gold in minor units."""


def config(
    seats: int = 1,
    *,
    stake: int = 100,
    stacks: Sequence[int] | None = None,
    options: Mapping[str, str | int | bool] | None = None,
) -> TableConfig:
    return TableConfig.make(
        seats=seats, stake=stake, stacks=stacks or [1_000_000 * UNIT] * seats, options=options
    )


def shuffle_for(deal: str) -> Shuffle:
    """A shuffle whose first six cards are ``deal`` (A1 B1 A2 B2 A3 B3), the rest in order."""
    cards = parse_cards(deal)
    assert len(cards) == 6
    return Shuffle(cards + tuple(c for c in DECK_52 if c not in cards))


def deal_of(hand_a: str, hand_b: str) -> str:
    """Interleave two hands into the deal order A1 B1 A2 B2 A3 B3."""
    a, b = parse_cards(hand_a), parse_cards(hand_b)
    return " ".join(str(card) for pair in zip(a, b, strict=True) for card in pair)


def play(
    bets: Sequence[tuple[int, str, int]],
    hand_a: str,
    hand_b: str,
    *,
    cfg: TableConfig | None = None,
) -> tuple[TeenPattiState, Settlement]:
    """Place ``bets`` (seat, area, amount), close, deal the two hands, settle."""
    seats = max((seat for seat, _, _ in bets), default=0) + 1
    state = GAME.new_state(cfg or config(seats))
    for seat, bet, amount in bets:
        state = GAME.apply(state, Bet(seat, bet, amount))
    if GAME.to_act(state) is not CHANCE:  # still open: the table's clock closes it
        state = GAME.apply(state, CloseBetting(None))
    assert GAME.to_act(state) is CHANCE
    state = GAME.apply(state, shuffle_for(deal_of(hand_a, hand_b)))
    assert GAME.is_terminal(state)
    settlement = GAME.settle(state)
    settlement.check()
    return state, settlement


def line(settlement: Settlement, seat: int, item: str) -> int:
    (found,) = [x.amount for x in settlement.lines if x.seat == seat and x.item == item]
    return found


def assert_rejected(state: TeenPattiState, event: Event, match: str) -> None:
    snapshot = repr(state)
    with pytest.raises(IllegalActionError, match=match):
        GAME.apply(state, event)
    assert repr(state) == snapshot


# ----- seed 004 and RULES.md §14.4: which hand wins ---------------------------------------
def test_s004_three_kings_beat_three_queens() -> None:
    """S004: 'Ba lá K thắng ba lá Q' (three kings beat three queens)."""
    _, settlement = play([(0, "player_a", 100 * UNIT)], "Ks Kh Kd", "Qs Qh Qd")
    assert dict(settlement.detail)["outcome"] == "A"
    assert line(settlement, 0, "player_a") == 95 * UNIT


def test_s004_straight_flush_q_j_10_beats_10_9_8() -> None:
    """S004: 'Thùng Q-J-10 thắng thùng 10-9-8' (suited consecutive cards: straight flushes)."""
    _, settlement = play([(0, "player_b", 100 * UNIT)], "Th 9h 8h", "Qs Js Ts")
    detail = dict(settlement.detail)
    assert detail["outcome"] == "B"
    assert detail["category_a"] == detail["category_b"] == "straight_flush"
    assert line(settlement, 0, "player_b") == 95 * UNIT


def test_s004_kicker_k_k_q_beats_k_k_9() -> None:
    """S004: 'K-K-Q thắng K-K-9' (same pair: the odd card decides)."""
    _, settlement = play([(0, "player_a", 100 * UNIT)], "Ks Kh Qd", "Kd Kc 9s")
    assert dict(settlement.detail)["outcome"] == "A"


@pytest.mark.parametrize(
    ("higher", "lower", "source"),
    [
        ("Ac Kd Qh", "As 2d 3h", "§14.4: A-K-Q > A-2-3"),
        ("As 2d 3h", "Kc Qd Jh", "§14.4: A-2-3 > K-Q-J"),
        ("Kc Qd Jh", "Qc Jd Th", "§14.4: K-Q-J > Q-J-10"),
        ("4c 3d 2h", "Ac Qd 9h", "§14.4: 4-3-2 is the lowest straight, above any high card"),
        ("As 2s 3s", "Kh Qh Jh", "S004 Thùng phá sảnh: A-K-Q, A-2-3, K-Q-J ..."),
    ],
)
def test_straight_order(higher: str, lower: str, source: str) -> None:
    """RULES.md §14.4 / S004: straight order A-K-Q > A-2-3 > K-Q-J > Q-J-10 > ... > 4-3-2."""
    _, settlement = play([(0, "player_a", 100)], higher, lower)
    assert dict(settlement.detail)["outcome"] == "A", source
    _, settlement = play([(0, "player_a", 100)], lower, higher)
    assert dict(settlement.detail)["outcome"] == "B", source


CATEGORY_LADDER = [
    ("As Ad Ah", "three_aces"),  # Bộ ba (A)
    ("Ks Kd Kh", "three_of_a_kind"),  # Bộ ba (2-K)
    ("4c 3c 2c", "straight_flush"),  # Thùng phá sảnh (the lowest one)
    ("Ac Kd Qs", "straight"),  # Sảnh (the highest one)
    ("Ah Kh Jh", "flush"),  # Thùng
    ("Qs Qc Ac", "pair"),  # Đôi
    ("Ac Kc Jd", "high_card"),  # Mậu thầu
]


@pytest.mark.parametrize("index", range(len(CATEGORY_LADDER) - 1))
def test_s004_category_order(index: int) -> None:
    """S004 'Xếp hạng tay bài': Bộ ba (A) > Bộ ba > Thùng phá sảnh > Sảnh > Thùng > Đôi > Mậu thầu.

    Each category's weakest or strongest example beats the best of the next category down.
    """
    higher, higher_name = CATEGORY_LADDER[index]
    lower, lower_name = CATEGORY_LADDER[index + 1]
    if set(parse_cards(higher)) & set(parse_cards(lower)):
        lower = lower.replace("c", "x").replace("d", "c").replace("x", "d")
    _, settlement = play([(0, "player_a", 100)], higher, lower)
    detail = dict(settlement.detail)
    assert (detail["category_a"], detail["category_b"]) == (higher_name, lower_name)
    assert detail["outcome"] == "A"


def test_s004_suits_never_decide_a_tie_refunds_player_bets() -> None:
    """S004: 'Chất của các lá bài không được sử dụng'; a tie refunds Player A/B, Tie pays 50:1."""
    bets = [(0, "player_a", 100 * UNIT), (0, "player_b", 50 * UNIT), (0, "tie", 10 * UNIT)]
    _, settlement = play(bets, "Ks 9d 4h", "Kh 9c 4d")
    assert dict(settlement.detail)["outcome"] == "tie"
    assert line(settlement, 0, "player_a") == 0
    assert line(settlement, 0, "player_b") == 0
    assert line(settlement, 0, "tie") == 500 * UNIT
    assert settlement.deltas == (500 * UNIT,)
    assert settlement.house == -500 * UNIT


def test_a_tt1_flush_is_not_a_tie_with_the_same_ranks_unsuited() -> None:
    """A-TT1: a tie needs the same category and the same three ranks; a flush beats K-9-4 off."""
    _, settlement = play([(0, "tie", 100), (0, "player_a", 100)], "Ks 9s 4s", "Kh 9c 4d")
    assert dict(settlement.detail)["outcome"] == "A"
    assert line(settlement, 0, "tie") == -100
    assert line(settlement, 0, "player_a") == 95


def test_a_tt1_straight_flush_is_not_a_tie_with_a_straight() -> None:
    """A-TT1: straight flush Q-J-10 against straight Q-J-10 is no tie."""
    _, settlement = play([(0, "tie", 100)], "Qh Jc Td", "Qs Js Ts")
    assert dict(settlement.detail)["outcome"] == "B"
    assert line(settlement, 0, "tie") == -100


def test_a_tie_between_pairs() -> None:
    """§14.5: same category and the same three ranks (a pair of 7s with a 5) is a tie."""
    _, settlement = play([(0, "tie", 100)], "7s 7h 5d", "7c 7d 5s")
    assert line(settlement, 0, "tie") == 5000


# ----- RULES.md §14.5: settlement ----------------------------------------------------------
def test_rules_14_5_example_100_on_player_a() -> None:
    """RULES.md §14.5: '100 on Player A, and A wins: +95, and the stake is returned'."""
    _, settlement = play([(0, "player_a", 100 * UNIT)], "As Ah 2c", "Ks Kh Qd")
    assert line(settlement, 0, "player_a") == 95 * UNIT
    assert settlement.deltas == (95 * UNIT,)
    assert settlement.house == -95 * UNIT
    assert settlement.breakage == 0


def test_player_bet_loses_its_stake() -> None:
    """S004 'Cược chính': the losing main bet loses its stake."""
    _, settlement = play([(0, "player_b", 300)], "As Ah 2c", "Ks Kh Qd")
    assert settlement.deltas == (-300,)
    assert settlement.house == 300


@pytest.mark.parametrize(
    ("stake", "player", "commission", "breakage"),
    [(20, 19, 1, 0), (100, 95, 5, 0), (101, 95, 5, 1), (119, 113, 5, 1), (1, 0, 0, 1)],
)
def test_round_down_and_breakage(stake: int, player: int, commission: int, breakage: int) -> None:
    """RULES.md §1 and base.py's policy: floor(0.95 S) to the player, floor(0.05 S) kept by the
    house as commission, the remainder unit to breakage."""
    cfg = config(1, stake=1)
    _, settlement = play([(0, "player_a", stake)], "As Ah 2c", "Ks Kh Qd", cfg=cfg)
    assert settlement.deltas == (player,)
    assert settlement.breakage == breakage
    assert settlement.house == -(stake - commission)
    assert player + commission + breakage == stake


@given(stake=st.integers(min_value=1, max_value=10**9))
def test_rounding_policy_property(stake: int) -> None:
    """The 0.95:1 split never creates or loses a unit: player + commission + breakage = stake."""
    cfg = config(1, stake=1, stacks=[stake], options={"teenpatti.bet_max_multiple": 10**9})
    _, settlement = play([(0, "player_b", stake)], "Ks Kh Qd", "As Ah 2c", cfg=cfg)
    assert settlement.deltas == (stake * 95 // 100,)
    assert settlement.breakage == stake - stake * 95 // 100 - stake * 5 // 100
    assert 0 <= settlement.breakage <= 1


PAIR_PLUS_LINES = [
    ("As Ad Ah", 50, "Bộ ba (A) 50:1"),
    ("7s 7d 7h", 40, "Bộ ba (2-K) 40:1"),
    ("9s 8s 7s", 30, "Thùng phá sảnh 30:1"),
    ("9s 8d 7s", 6, "Sảnh 6:1"),
    ("Ks 8s 2s", 3, "Thùng 3:1"),
    ("4d 4h 2s", 1, "Đôi 1:1"),
    ("Qh 9c 7s", 0, "Mậu thầu loses"),
]


@pytest.mark.parametrize(("hand", "odds", "source"), PAIR_PLUS_LINES)
def test_s004_pair_plus_paytable(hand: str, odds: int, source: str) -> None:
    """S004 'Cược phụ – Đôi +' paytable, every line, on hand A and on hand B."""
    other = "Jc Tc 3d" if not set(parse_cards(hand)) & set(parse_cards("Jc Tc 3d")) else "Jd Th 3c"
    for bet, hand_a, hand_b in (("pair_plus_a", hand, other), ("pair_plus_b", other, hand)):
        _, settlement = play([(0, bet, 10 * UNIT)], hand_a, hand_b)
        expected = odds * 10 * UNIT if odds else -10 * UNIT
        assert line(settlement, 0, bet) == expected, source


def test_s004_pair_plus_pays_even_if_that_hand_loses() -> None:
    """S004: 'Cược này được trả thưởng ngay cả khi tay bài tương ứng thua ở ván chơi'."""
    bets = [(0, "pair_plus_b", 100), (0, "player_b", 100)]
    _, settlement = play(bets, "As Ad Ah", "4d 4h 2s")
    assert dict(settlement.detail)["outcome"] == "A"
    assert line(settlement, 0, "pair_plus_b") == 100
    assert line(settlement, 0, "player_b") == -100


SIX_CARD_LINES = [
    ("As Qs Ts", "Ks Js 2d", 1000, "Sảnh chúa 1.000:1"),
    ("Ks Qs Ts", "9s Js 2d", 200, "Thùng phá sảnh 200:1"),
    ("Ks Kh Kc", "Kd Ad 2c", 100, "Tứ quý 100:1"),
    ("Ks Kh Kc", "Qh Qc 2d", 20, "Cù lũ 20:1"),
    ("9h 8h 5h", "3h 2h Kd", 15, "Thùng 15:1"),
    ("6s 5h 4c", "3d 2s Kd", 10, "Sảnh 10:1"),
    ("Ks Kh Kc", "7h 5d 2c", 7, "Bộ ba 7:1"),
    ("Ks Kh 7c", "7h 5d 2c", 0, "two pair: loses"),
    ("Ks Qh 7c", "9h 5d 2c", 0, "high card: loses"),
]


@pytest.mark.parametrize(("hand_a", "hand_b", "odds", "source"), SIX_CARD_LINES)
def test_s004_six_card_bonus_paytable(hand_a: str, hand_b: str, odds: int, source: str) -> None:
    """S004 'Cược phụ – Thưởng 6 lá bài': best five of the six cards dealt, every line."""
    _, settlement = play([(0, "six_card_bonus", 10 * UNIT)], hand_a, hand_b)
    expected = odds * 10 * UNIT if odds else -10 * UNIT
    assert line(settlement, 0, "six_card_bonus") == expected, source


def test_s004_six_card_bonus_uses_the_best_five_of_six() -> None:
    """S004: 'năm lá bài mạnh nhất từ sáu lá bài': a straight across both hands, plus a spare."""
    _, settlement = play([(0, "six_card_bonus", 100)], "9c 7d Ks", "8h 6s 5d")
    assert dict(settlement.detail)["six_card"] == "straight"
    assert line(settlement, 0, "six_card_bonus") == 1000


def test_every_bet_at_once_with_many_bettors() -> None:
    """S004: 'một hoặc nhiều loại cược' by any number of bettors; the settlement balances."""
    bets = [(seat, bet, 100 * (seat + 1)) for seat in range(8) for bet in BETS]
    state, settlement = play(bets, "Ks Kh Kc", "Qh Qc 2d")
    assert len(settlement.deltas) == 8
    for seat in range(8):
        stake = 100 * (seat + 1)
        # A wins 0.95:1, B loses, tie loses, PP A 40:1, PP B 1:1, 6 cards full house 20:1.
        expected = stake * 95 // 100 - stake - stake + 40 * stake + stake + 20 * stake
        assert settlement.deltas[seat] == expected
    assert sum(settlement.deltas) + settlement.house + settlement.breakage == 0
    assert state.bets[3] == (400,) * 6


# ----- deal, views, window ---------------------------------------------------------------
def test_s004_alternate_deal_order_in_the_view() -> None:
    """S004 / §14.3: cards alternate A1, B1, A2, B2, A3, B3; the view shows the order."""
    state = GAME.new_state(config(2))
    state = GAME.apply(state, Bet(0, "player_a", 100))
    state = GAME.apply(state, CloseBetting(None))
    shuffle = shuffle_for("2c 3d 4h 5s 6c 7d")
    state = GAME.apply(state, shuffle)
    assert state.hand_a == parse_cards("2c 4h 6c")
    assert state.hand_b == parse_cards("3d 5s 7d")
    view = GAME.observe(state, 1)
    assert isinstance(view, TeenPattiView)
    assert [label for label, _ in view.deal] == list(DEAL_LABELS)
    assert [str(card) for _, card in view.deal] == ["2c", "3d", "4h", "5s", "6c", "7d"]
    text = GAME.render_text(view)
    assert "A1 2♣  B1 3♦  A2 4♥" in text


def test_views_hide_other_seats_bets_and_the_deck() -> None:
    """RULES.md §2.10: the deck order is never sent; a seat's bets are its own (totals public)."""
    state = GAME.new_state(config(3))
    state = GAME.apply(state, Bet(0, "tie", 777))
    state = GAME.apply(state, Bet(1, "player_a", 300))
    for viewer in (None, 1, 2):
        view = GAME.observe(state, viewer)
        assert isinstance(view, TeenPattiView)
        assert ("tie", 777) not in view.my_bets
        assert dict(view.table_totals)["tie"] == 777
    assert dict(GAME.observe(state, 0).my_bets)["tie"] == 777
    state = GAME.apply(state, CloseBetting(None))
    shuffle = shuffle_for("2c 3d 4h 5s 6c 7d")
    state = GAME.apply(state, shuffle)
    for viewer in (None, 0, 1, 2):
        text = json.dumps(to_jsonable(GAME.observe(state, viewer)))
        for card in shuffle.order[6:]:
            assert f'"{card}"' not in text
        assert "my_bets" in text


def test_no_cards_before_the_deal() -> None:
    """S004: the cards are dealt face up only at the end of the betting time."""
    state = GAME.new_state(config(1))
    view = GAME.observe(state, 0)
    assert isinstance(view, TeenPattiView)
    assert view.deal == () and view.hand_a == () and view.phase == "betting"
    assert "·  ·  ·" in GAME.render_text(view)


def test_default_actions() -> None:
    """§2.7: the deadline closes the window (table action); a bettor's bets simply stand."""
    state = GAME.new_state(config(2))
    state = GAME.apply(state, Bet(0, "player_a", 100))
    assert GAME.default_action(state, None, "timeout") == CloseBetting(None)
    assert GAME.default_action(state, 0, "disconnect") is None
    state = GAME.apply(state, GAME.default_action(state, None, "timeout") or CloseBetting(None))
    assert state.bets[0][0] == 100
    assert GAME.default_action(state, None, "timeout") is None


def test_the_round_runs_without_bets() -> None:
    """A round with no bets deals and settles to nothing."""
    _, settlement = play([], "2c 3c 4c", "5d 6d 7d")
    assert settlement.deltas == (0,)
    assert settlement.house == 0


def test_chips_add_up_on_an_area() -> None:
    """Chips add up: below-minimum chips are fine once the area holds the minimum."""
    cfg = config(1, stake=1000)
    state = GAME.new_state(cfg)
    assert_rejected(state, Bet(0, "tie", 999), "under the table minimum 10.00")
    state = GAME.apply(state, Bet(0, "tie", 1000))
    state = GAME.apply(state, Bet(0, "tie", 1))
    assert state.bets[0][BETS.index("tie")] == 1001


# ----- bad input -------------------------------------------------------------------------
def test_bad_bets_raise_and_change_nothing() -> None:
    """Issue 2 'Bad input': over balance, under the minimum, over the maximum, unknown area,
    non-positive amounts, a table bet, a seat closing the window, an unknown seat."""
    cfg = config(2, stake=100, stacks=[5000, 10**9])
    state = GAME.new_state(cfg)
    state = GAME.apply(state, Bet(0, "player_a", 4000))
    assert_rejected(state, Bet(0, "player_b", 1001), "over the balance 10.00")
    assert_rejected(state, Bet(1, "player_b", 99), "under the table minimum 1.00")
    assert_rejected(state, Bet(1, "player_b", 100_001), "over the table maximum 1,000.00")
    assert_rejected(state, Bet(1, "dragon", 100), "no bet area 'dragon'")
    assert_rejected(state, Bet(1, "tie", 0), "positive amount")
    assert_rejected(state, Bet(1, "tie", -100), "positive amount")
    assert_rejected(state, Bet(1, "tie", True), "positive amount")
    assert_rejected(state, Bet(None, "tie", 100), "the table does not bet")
    assert_rejected(state, CloseBetting(1), "only the table closes betting")
    assert_rejected(state, Bet(5, "tie", 100), "no such seat")


def test_a_seat_with_nothing_left_may_not_act() -> None:
    """A seat whose balance is spent is not asked to act; its bet is refused as out of turn."""
    state = GAME.new_state(config(2, stacks=[100, 10_000]))
    state = GAME.apply(state, Bet(0, "player_a", 100))
    assert GAME.to_act(state) == (1,)
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, Bet(0, "player_a", 1))


def test_bets_after_the_window_are_refused() -> None:
    """Issue 2 'Bad input': a bet after the betting window raises and changes nothing."""
    state = GAME.new_state(config(1))
    state = GAME.apply(state, CloseBetting(None))
    assert_rejected(state, Bet(0, "player_a", 100), "waiting for the deal")
    assert_rejected(state, CloseBetting(None), "waiting for the deal")
    state = GAME.apply(state, shuffle_for("2c 3d 4h 5s 6c 7d"))
    assert_rejected(state, Bet(0, "player_a", 100), "the hand is over")
    with pytest.raises(ValueError, match="not over"):
        GAME.settle(GAME.new_state(config(1)))


def test_bad_shuffle_is_refused() -> None:
    """The chance event must be a permutation of the 52-card deck."""
    state = GAME.apply(GAME.new_state(config(1)), CloseBetting(None))
    assert_rejected(state, Shuffle(DECK_52[:51]), "not a permutation")
    assert_rejected(state, Shuffle(DECK_52[:51] + DECK_52[:1]), "not a permutation")


def test_bet_count_cap() -> None:
    """[DEF] At most MAX_BETS_PER_SEAT chips per seat and round, so every round is finite."""
    state = GAME.new_state(config(1))
    for _ in range(MAX_BETS_PER_SEAT):
        state = GAME.apply(state, Bet(0, "tie", 100))
    assert GAME.to_act(state) is CHANCE  # nobody left to act: the window closed by itself
    assert GAME.legal_actions(state) == ()
    with pytest.raises(IllegalActionError):
        GAME.apply(state, Bet(0, "tie", 100))


def test_ready_ends_a_seats_betting_and_the_window_closes_by_itself() -> None:
    """[DEF] Ready: a seat's bets stand and it is not asked again; when no seat is left to act
    the window closes without waiting for the clock."""
    state = GAME.new_state(config(2))
    state = GAME.apply(state, Bet(0, "player_a", 100))
    assert Ready(0) in GAME.legal_actions_for(state, 0)
    state = GAME.apply(state, Ready(0))
    assert GAME.to_act(state) == (1,)
    snapshot = repr(state)
    with pytest.raises(NotYourTurnError, match="p1 has finished betting this round"):
        GAME.apply(state, Bet(0, "player_a", 100))
    assert repr(state) == snapshot
    assert_rejected(state, Ready(None), "the table is never ready")
    state = GAME.apply(state, Ready(1))
    assert GAME.to_act(state) is CHANCE and state.closed
    assert state.bets[0][0] == 100
    # Seats too poor for the table minimum are never asked: the window is closed from the start.
    assert GAME.to_act(GAME.new_state(config(2, stacks=[1, 50]))) is CHANCE
    # A seat with no stack at all is an empty seat (SitIn): the window waits for the table.
    assert GAME.to_act(GAME.new_state(config(2, stacks=[0, 50]))) == ()


# ----- options ---------------------------------------------------------------------------
def test_configurable_paytable() -> None:
    """§14.5 payouts are options: a 0.90:1 main bet, Tie 40:1, other Pair Plus/6-card tables."""
    cfg = config(
        1,
        options={
            "teenpatti.main_pays_pct": 90,
            "teenpatti.tie_pays": 40,
            "teenpatti.pairplus_paytable": "100-40-30-6-3-1",
            "teenpatti.six_card_paytable": "500-200-100-20-15-10-5",
        },
    )
    bets = [(0, "player_a", 100), (0, "pair_plus_a", 100), (0, "six_card_bonus", 100)]
    _, settlement = play(bets, "As Ad Ah", "Kh 7c 2d", cfg=cfg)
    assert line(settlement, 0, "player_a") == 90
    assert line(settlement, 0, "pair_plus_a") == 100 * 100
    assert line(settlement, 0, "six_card_bonus") == 5 * 100
    _, settlement = play([(0, "tie", 100)], "7s 7h 5d", "7c 7d 5s", cfg=cfg)
    assert line(settlement, 0, "tie") == 4000


def test_table_limits_from_l() -> None:
    """[DEF] limits: min 1 L, max 1,000 L per area by default; configurable multiples of L."""
    state = GAME.new_state(config(1, stake=500))
    assert (state.min_bet, state.max_bet) == (500, 500_000)
    cfg = config(
        1, stake=500, options={"teenpatti.bet_min_multiple": 2, "teenpatti.bet_max_multiple": 4}
    )
    state = GAME.new_state(cfg)
    assert (state.min_bet, state.max_bet) == (1000, 2000)
    ranges = GAME.amount_ranges_for(state, 0)
    assert {(r.template.bet, r.min, r.max) for r in ranges} == {  # type: ignore[attr-defined]
        (bet, 1000, 2000) for bet in BETS
    }


@pytest.mark.parametrize(
    "options",
    [
        {"teenpatti.pairplus_paytable": "50-40-30"},
        {"teenpatti.six_card_paytable": "a-b-c-d-e-f-g"},
        {"teenpatti.main_pays_pct": 0},
        {"teenpatti.tie_pays": 0},
        {"teenpatti.bet_min_multiple": 5, "teenpatti.bet_max_multiple": 4},
        {"no_such_option": 1},
    ],
)
def test_bad_options(options: Mapping[str, str | int]) -> None:
    """Impossible options are a ConfigError when the table is made."""
    with pytest.raises(ConfigError):
        GAME.new_state(config(1, options=options))


def test_registry_and_aliases() -> None:
    """Registered by id and by the aliases 'Teen Patti' and 'teen-patti'."""
    assert find_game("Teen Patti") is GAME
    assert find_game("teen-patti") is GAME
    assert GAME.info.banked and GAME.info.deck == "52"
    legal: tuple[Action, ...] = GAME.legal_actions(GAME.new_state(config(1)))
    assert legal[-1] == CloseBetting(None)
