"""Tài Xỉu (RULES.md §5, seed 001): every example and paytable line through the engine."""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sanh.cards.rng import SeededRng
from sanh.errors import ConfigError, IllegalActionError, NotYourTurnError
from sanh.games import find_game
from sanh.games.base import CHANCE, Event, Roll, Settlement, TableConfig
from sanh.games.driver import random_action
from sanh.games.tai_xiu import (
    AREAS,
    CLAN_XP_MIN_STAKE,
    MAX_PLACES_PER_SEAT,
    Clear,
    CloseBetting,
    Confirm,
    Place,
    Ready,
    TaiXiu,
    TaiXiuState,
    TaiXiuView,
    area_max_odds,
    area_multiplier,
)
from sanh.notation.jsonable import to_jsonable
from tests.games.test_conformance import play_checked

_FOUND = find_game("tai-xiu")
assert isinstance(_FOUND, TaiXiu)
GAME: TaiXiu = _FOUND

GOLD = 100
"""One gold in minor units: the §5.9 examples are in gold."""
RICH = 10**12


def config(
    seats: int = 1,
    *,
    table: str = "system",
    stake: int = 100,
    stacks: Sequence[int] | None = None,
    options: Mapping[str, str | int | bool] | None = None,
    clan: Sequence[bool] | None = None,
    host: int = 0,
) -> TableConfig:
    return TableConfig.make(
        seats=seats,
        stake=stake,
        stacks=stacks or [RICH] * seats,
        options={"taixiu.table": table, **(options or {})},
        clan_members=clan,
        host=host,
    )


def run(
    bets: Sequence[tuple[int, str, int]],
    dice: tuple[int, ...],
    *,
    cfg: TableConfig | None = None,
) -> tuple[TaiXiuState, Settlement]:
    """Place every bet (seat, area, amount), confirm each seat, close, roll ``dice``, settle."""
    state = GAME.new_state(cfg or config(max((b[0] for b in bets), default=0) + 1))
    for seat, area, amount in bets:
        state = GAME.apply(state, Place(seat, area, amount))
    for seat in sorted({seat for seat, _, _ in bets}):
        state = GAME.apply(state, Confirm(seat))
    if GAME.to_act(state) is not CHANCE:  # still open: the table's clock closes it
        state = GAME.apply(state, CloseBetting(None))
    assert GAME.to_act(state) is CHANCE
    state = GAME.apply(state, Roll(dice))
    settlement = GAME.settle(state)
    settlement.check()
    return state, settlement


def line(settlement: Settlement, seat: int, item: str) -> int:
    (found,) = [x.amount for x in settlement.lines if x.seat == seat and x.item == item]
    return found


def assert_rejected(state: TaiXiuState, event: Event, match: str) -> None:
    snapshot = repr(state)
    with pytest.raises(IllegalActionError, match=match):
        GAME.apply(state, event)
    assert repr(state) == snapshot


# ----- RULES.md §5.9 examples --------------------------------------------------------------
def test_rules_5_9_system_table_1000_on_tai_wins() -> None:
    """RULES.md §5.9: 'System table, 1,000 on Tài, dice 6-4-3 (total 13): profit 1,000, fee 50,
    net +950.'"""
    _, settlement = run([(0, "big", 1000 * GOLD)], (6, 4, 3))
    assert line(settlement, 0, "big") == 950 * GOLD
    assert settlement.deltas == (950 * GOLD,)
    assert settlement.fee == 50 * GOLD
    assert settlement.house == -1000 * GOLD
    assert dict(settlement.detail)["result"] == "tai"


def test_rules_5_9_system_table_tai_loses_on_4_4_4() -> None:
    """RULES.md §5.9: 'With dice 4-4-4, Tài loses: −1,000.' (S001: 'Xỉu và Tài đều thua nếu 3
    viên xí ngầu ra cùng 1 giá trị')."""
    _, settlement = run([(0, "big", 1000 * GOLD)], (4, 4, 4))
    assert settlement.deltas == (-1000 * GOLD,)
    assert settlement.fee == 0
    assert settlement.house == 1000 * GOLD


def test_rules_5_9_player_table_single_5() -> None:
    """RULES.md §5.9: 'Player table, 200 on the single number 5, dice 5-5-2: profit 400, fee 12,
    net +388.'"""
    cfg = config(2, table="player", stacks=[10_000 * GOLD, 1_000 * GOLD])
    _, settlement = run([(1, "single_5", 200 * GOLD)], (5, 5, 2), cfg=cfg)
    assert line(settlement, 1, "single_5") == 388 * GOLD
    assert settlement.deltas == (-400 * GOLD, 388 * GOLD)
    assert settlement.fee == 12 * GOLD
    assert settlement.house == 0


def test_rules_5_9_specific_triple_2() -> None:
    """RULES.md §5.9: '10 on the specific triple 2, dice 2-2-2: profit 1,500, system-table fee 75,
    net +1,425.'"""
    _, settlement = run([(0, "triple_2", 10 * GOLD)], (2, 2, 2))
    assert settlement.deltas == (1425 * GOLD,)
    assert settlement.fee == 75 * GOLD
    assert settlement.house == -1500 * GOLD


def test_rules_5_9_examples_in_minor_units_too() -> None:
    """§5.9 with the same numbers read as minor units: every fee is already a whole unit."""
    assert run([(0, "big", 1000)], (6, 4, 3), cfg=config(stake=1))[1].deltas == (950,)
    assert run([(0, "triple_2", 10)], (2, 2, 2), cfg=config(stake=1))[1].deltas == (1425,)
    cfg = config(2, table="player", stacks=[10_000, 1_000], stake=1)
    assert run([(1, "single_5", 200)], (5, 5, 2), cfg=cfg)[1].deltas == (-400, 388)


# ----- §5.4 every bet and paytable line ----------------------------------------------------
PAYTABLE_CASES: list[tuple[str, tuple[int, int, int], int, str]] = [
    ("small", (1, 1, 2), 1, "S001 2a: Xỉu 4-10, 1 ăn 1"),
    ("small", (2, 4, 4), 1, "S001 2a: Xỉu total 10"),
    ("small", (5, 4, 2), 0, "S001 2a: total 11 is Tài"),
    ("small", (3, 3, 3), 0, "S001 2a: Xỉu loses on a triple"),
    ("small", (1, 1, 1), 0, "S001 2a: Xỉu loses on 1-1-1 (total 3)"),
    ("big", (5, 4, 2), 1, "S001 2a: Tài 11-17, 1 ăn 1"),
    ("big", (6, 6, 5), 1, "S001 2a: Tài total 17"),
    ("big", (6, 6, 6), 0, "S001 2a: Tài loses on a triple"),
    ("big", (1, 4, 5), 0, "S001 2a: total 10 is Xỉu"),
    ("single_3", (3, 1, 2), 1, "S001 2b: the number once, 1:1"),
    ("single_3", (3, 3, 2), 2, "S001 2b: the number twice, 1:2 read as 2:1"),
    ("single_3", (3, 3, 3), 3, "S001 2b: the number three times, 1:3 read as 3:1"),
    ("single_3", (4, 5, 6), 0, "S001 2b: the number does not show"),
    ("combination_2_5", (2, 5, 5), 5, "S001 2c: both numbers show, 1:5"),
    ("combination_1_6", (6, 3, 1), 5, "S001 2c: 1-6 both show"),
    ("combination_2_5", (2, 2, 6), 0, "S001 2c: only one number shows"),
    ("double_3", (3, 3, 1), 8, "S001 2e: two 3s, 1:8"),
    ("double_3", (3, 3, 3), 8, "S001 2e: 'ít nhất có hai' (at least two)"),
    ("double_3", (3, 1, 2), 0, "S001 2e: a single 3 loses"),
    ("triple_2", (2, 2, 2), 150, "S001 2f: the chosen triple, 1:150"),
    ("triple_2", (5, 5, 5), 0, "S001 2f: another triple loses"),
    ("any_triple", (5, 5, 5), 24, "S001 2f: any triple, 1:24"),
    ("any_triple", (5, 5, 4), 0, "S001 2f: a double is not a triple"),
]


@pytest.mark.parametrize(("area", "dice", "odds", "source"), PAYTABLE_CASES)
def test_s001_paytable(area: str, dice: tuple[int, int, int], odds: int, source: str) -> None:
    """S001 'Luật chơi' a-f / RULES.md §5.4: every bet kind wins and loses as stated."""
    stake = 100 * GOLD
    _, settlement = run([(0, area, stake)], dice)
    expected = stake * odds * 95 // 100 if odds else -stake
    assert settlement.deltas == (expected,), source
    assert settlement.fee == stake * odds * 5 // 100


DEFAULT_TOTAL_ODDS = {
    4: 50, 5: 18, 6: 14, 7: 12, 8: 8, 9: 6, 10: 6, 11: 6, 12: 6, 13: 8, 14: 12, 15: 14, 16: 18,
    17: 50,
}  # fmt: skip


@pytest.mark.parametrize("total", range(4, 18))
def test_rules_5_4_total_bets_default_table(total: int) -> None:
    """RULES.md §5.4 / A-TX1 default total odds: 4/17 50:1, 5/16 18:1, 6/15 14:1, 7/14 12:1,
    8/13 8:1, 9-12 6:1 (S001 2d: 'hiển thị trên ván cược')."""
    dice = next(d for d in itertools.product(range(1, 7), repeat=3) if sum(d) == total)
    stake = 100 * GOLD
    _, settlement = run(
        [(0, f"total_{total}", stake), (0, f"total_{4 + (total - 3) % 14}", stake)], dice
    )
    assert line(settlement, 0, f"total_{total}") == stake * DEFAULT_TOTAL_ODDS[total] * 95 // 100
    assert line(settlement, 0, f"total_{4 + (total - 3) % 14}") == -stake


def test_a_tx6_triples_count_for_totals() -> None:
    """A-TX6: a triple counts toward its total by default; ``taixiu.triple_loses_totals``."""
    _, settlement = run([(0, "total_6", 100)], (2, 2, 2))
    assert settlement.deltas == (14 * 100 * 95 // 100,)
    cfg = config(options={"taixiu.triple_loses_totals": True})
    _, settlement = run([(0, "total_6", 100)], (2, 2, 2), cfg=cfg)
    assert settlement.deltas == (-100,)


def test_s001_sums_3_and_18_cannot_be_bet() -> None:
    """S001 2d: 'không tính 3 và 18'."""
    state = GAME.new_state(config())
    assert_rejected(state, Place(0, "total_3", 100), "no bet area 'total_3'")
    assert_rejected(state, Place(0, "total_18", 100), "no bet area 'total_18'")
    assert len(AREAS) == 2 + 6 + 15 + 14 + 6 + 6 + 1


def test_area_multiplier_matches_the_engine_on_every_roll() -> None:
    """The payout function agrees with a direct reading of §5.4 on all 216 rolls."""
    for dice in itertools.product(range(1, 7), repeat=3):
        triple = len(set(dice)) == 1
        total = sum(dice)
        assert area_multiplier("small", dice) == int(4 <= total <= 10 and not triple)
        assert area_multiplier("big", dice) == int(11 <= total <= 17 and not triple)
        for n in range(1, 7):
            assert area_multiplier(f"single_{n}", dice) == dice.count(n)
            assert area_multiplier(f"double_{n}", dice) == 8 * (dice.count(n) >= 2)
            assert area_multiplier(f"triple_{n}", dice) == 150 * (dice.count(n) == 3)
        assert area_multiplier("any_triple", dice) == 24 * triple


@pytest.mark.parametrize(
    ("paytable", "odds_4", "odds_6"), [("macau", 60, 17), ("4=9,5=9,6=9,7=9,8=9,9=9,10=9,"
     "11=9,12=9,13=9,14=9,15=9,16=9,17=9", 9, 9)]
)  # fmt: skip
def test_a_tx1_total_paytable_option(paytable: str, odds_4: int, odds_6: int) -> None:
    """A-TX1: ``taixiu.total_paytable`` (classic Macau 60/30/17/12/8/6, or an explicit table)."""
    cfg = config(options={"taixiu.total_paytable": paytable, "taixiu.table": "system"})
    _, settlement = run([(0, "total_4", 100), (0, "total_6", 100)], (1, 1, 2), cfg=cfg)
    assert line(settlement, 0, "total_4") == odds_4 * 95
    _, settlement = run([(0, "total_6", 100)], (1, 1, 4), cfg=cfg)
    assert line(settlement, 0, "total_6") == odds_6 * 95


@pytest.mark.parametrize("paytable", ["vegas", "4=50", "4=x,5=1", "4=0,5=18,6=14"])
def test_bad_total_paytable(paytable: str) -> None:
    """An incomplete or malformed total paytable is a ConfigError."""
    with pytest.raises(ConfigError):
        GAME.new_state(config(options={"taixiu.total_paytable": paytable}))


# ----- §5.5 fees, rounding, clan -----------------------------------------------------------
def test_fee_rounds_down_and_breakage() -> None:
    """§5.5 'rounded down' + RULES.md §1: the winner and the fee each round down; the remainder
    unit is breakage. Profit 1,001 units at 5 %: 950 kept, 50 fee, 1 breakage."""
    _, settlement = run([(0, "big", 1001)], (6, 4, 3))
    assert settlement.deltas == (950,)
    assert settlement.fee == 50
    assert settlement.breakage == 1
    assert settlement.house == -1001


def test_fee_is_per_winning_bet() -> None:
    """A-TX3 default ``bet_profit``: each winning bet pays its own fee; losing bets pay none."""
    bets = [(0, "big", 1000), (0, "single_6", 1000), (0, "triple_1", 1000)]
    _, settlement = run(bets, (6, 4, 3))
    assert settlement.fee == 50 + 50
    assert settlement.deltas == (950 + 950 - 1000,)


def test_a_tx3_round_net_fee_basis() -> None:
    """A-TX3 alternative ``round_net``: the fee is taken on the seat's net positive round result."""
    cfg = config(options={"taixiu.fee_basis": "round_net"})
    bets = [(0, "big", 1000), (0, "single_6", 1000), (0, "triple_1", 1000)]
    _, settlement = run(bets, (6, 4, 3), cfg=cfg)
    assert settlement.fee == 50  # on the net +1,000
    assert settlement.deltas == (950,)
    assert line(settlement, 0, "fee") == -50
    _, settlement = run([(0, "big", 1000), (0, "small", 0 + 1000)], (6, 4, 3), cfg=config(
        options={"taixiu.fee_basis": "round_net", "taixiu.allow_opposite_bets": True}
    ))  # fmt: skip
    assert settlement.fee == 0 and settlement.deltas == (0,)


def test_s001_clan_treasury_one_percent_out_of_the_fee() -> None:
    """S001 'trích 1 % gold thắng của người chơi vào gold tích lũy của Bang'; A-TX5 default: out
    of the fee. §5.9 example for a clan member: fee 50 = 40 to the system + 10 to the clan."""
    cfg = config(2, clan=[True, False])
    _, settlement = run([(0, "big", 1000 * GOLD), (1, "big", 1000 * GOLD)], (6, 4, 3), cfg=cfg)
    assert settlement.deltas == (950 * GOLD, 950 * GOLD)
    assert settlement.clan_share == (10 * GOLD, 0)
    assert settlement.fee == 40 * GOLD + 50 * GOLD


def test_a_tx5_clan_share_on_top_of_the_fee() -> None:
    """A-TX5 ``clan.treasury_source = extra``: the 1 % is taken on top of the fee."""
    cfg = config(1, clan=[True], options={"clan.treasury_source": "extra"})
    _, settlement = run([(0, "big", 1000 * GOLD)], (6, 4, 3), cfg=cfg)
    assert settlement.deltas == (940 * GOLD,)
    assert settlement.clan_share == (10 * GOLD,)
    assert settlement.fee == 50 * GOLD


def test_a_tx5_treasury_minimum_stake() -> None:
    """A-TX5 ``clan.treasury_min_stake`` (gold): members under it keep the whole fee split."""
    cfg = config(1, clan=[True], options={"clan.treasury_min_stake": 5_000_000})
    _, settlement = run([(0, "big", 1000 * GOLD)], (6, 4, 3), cfg=cfg)
    assert settlement.clan_share == (0,)
    assert settlement.fee == 50 * GOLD


def test_s001_clan_xp_for_five_million_gold_staked() -> None:
    """S001: 'Thành viên cược >= 5 triệu gold / 1 ván / tích 5 điểm kinh nghiệm cho Bang hội'."""
    half = CLAN_XP_MIN_STAKE // 2
    cfg = config(3, clan=[True, True, False])
    bets = [
        (0, "big", half),
        (0, "single_1", CLAN_XP_MIN_STAKE - half),  # two bets add up to exactly 5,000,000 gold
        (1, "big", CLAN_XP_MIN_STAKE - 1),  # one unit short
        (2, "big", CLAN_XP_MIN_STAKE),  # not a clan member
    ]
    _, settlement = run(bets, (1, 2, 3), cfg=cfg)
    assert settlement.clan_xp == (5, 0, 0)
    assert CLAN_XP_MIN_STAKE == 500_000_000


def test_s001_host_earns_no_clan_xp_and_pays_the_host_fee() -> None:
    """S001: 'Chủ bàn trong game Tài Xỉu sẽ không được tính điểm kinh nghiệm cho Bang'; A-TX4:
    the host's net positive result is charged 3 %; the host's clan gets 1 % out of it."""
    cfg = config(2, table="player", clan=[True, True], stacks=[RICH, RICH])
    _, settlement = run([(1, "big", CLAN_XP_MIN_STAKE)], (1, 2, 3), cfg=cfg)
    assert settlement.clan_xp == (0, 5)
    # The host wins the 500,000,000 stake: 3 % fee (2 % system + 1 % clan).
    assert settlement.deltas == (CLAN_XP_MIN_STAKE * 97 // 100, -CLAN_XP_MIN_STAKE)
    assert settlement.fee == CLAN_XP_MIN_STAKE * 2 // 100
    assert settlement.clan_share == (CLAN_XP_MIN_STAKE // 100, 0)
    assert line(settlement, 0, "host_fee") == -CLAN_XP_MIN_STAKE * 3 // 100


def test_a_tx4_host_fee_option() -> None:
    """A-TX4 ``taixiu.fee_on_host = false``: the host keeps its whole net win."""
    cfg = config(2, table="player", options={"taixiu.fee_on_host": False})
    _, settlement = run([(1, "big", 1000)], (1, 2, 3), cfg=cfg)
    assert settlement.deltas == (1000, -1000)
    assert settlement.fee == 0


def test_host_fee_only_on_a_net_positive_round() -> None:
    """A-TX4: the host fee is on the net positive result only (a losing host pays no fee)."""
    cfg = config(3, table="player")
    bets = [(1, "big", 1000), (2, "small", 1000)]
    _, settlement = run(bets, (6, 5, 4), cfg=cfg)  # Tài: the host pays 1,000, collects 1,000
    assert settlement.deltas == (0, 970, -1000)
    assert settlement.fee == 30
    _, settlement = run([(1, "triple_2", 100)], (2, 2, 2), cfg=cfg)
    assert settlement.deltas[0] == -15000
    assert not [x for x in settlement.lines if x.item == "host_fee"]


def test_xp_and_play_time_are_not_counted() -> None:
    """S001: 'Game tài xỉu sẽ không tính giờ chơi, điểm kinh nghiệm cá nhân'."""
    assert GAME.info.counts_xp is False


# ----- §5.3 place, confirm, clear; §5.8 disconnect ----------------------------------------
def test_unconfirmed_chips_are_dropped_at_close() -> None:
    """RULES.md §5.3 (chips then 'Đồng ý') and §5.8: only confirmed bets play."""
    state = GAME.new_state(config(2))
    state = GAME.apply(state, Place(0, "big", 500))
    state = GAME.apply(state, Confirm(0))
    state = GAME.apply(state, Place(0, "single_6", 300))
    state = GAME.apply(state, Place(1, "small", 700))
    state = GAME.apply(state, CloseBetting(None))
    assert state.pending == ((), ())
    state = GAME.apply(state, Roll((6, 6, 1)))
    settlement = GAME.settle(state)
    assert settlement.deltas == (475, 0)
    assert [x.item for x in settlement.lines if x.seat is not None] == ["big"]


def test_disconnect_clears_unconfirmed_chips_and_confirmed_bets_stand() -> None:
    """RULES.md §2.7/§5.8: on disconnect confirmed bets stand, placed chips are dropped."""
    state = GAME.new_state(config(1))
    state = GAME.apply(state, Place(0, "big", 500))
    state = GAME.apply(state, Confirm(0))
    state = GAME.apply(state, Place(0, "big", 200))
    assert GAME.default_action(state, 0, "timeout") is None
    action = GAME.default_action(state, 0, "disconnect")
    assert action == Clear(0)
    state = GAME.apply(state, action)
    assert state.confirmed[0] == (("big", 500),) and state.pending[0] == ()
    assert GAME.default_action(state, 0, "leave") is None
    assert GAME.default_action(state, None, "timeout") == CloseBetting(None)


def test_confirm_and_clear_need_placed_chips() -> None:
    """Confirm ('Đồng ý') and Clear act on placed chips only."""
    state = GAME.new_state(config(1))
    assert_rejected(state, Confirm(0), "no chips placed")
    assert_rejected(state, Clear(0), "no chips placed")
    state = GAME.apply(state, Place(0, "big", 100))
    state = GAME.apply(state, Place(0, "big", 50))
    state = GAME.apply(state, Place(0, "total_9", 100))
    assert state.pending[0] == (("big", 150), ("total_9", 100))
    state = GAME.apply(state, Confirm(0))
    assert state.confirmed[0] == (("big", 150), ("total_9", 100))


def test_a_tx7_opposite_bets_refused() -> None:
    """A-TX7 / §5.4: 'Once a player's bet on Tài (or Xỉu) is confirmed, a bet on the other side
    in the same round is rejected' (also while it is only placed)."""
    state = GAME.new_state(config(2))
    state = GAME.apply(state, Place(0, "big", 100))
    assert_rejected(state, Place(0, "small", 100), "refused")
    state = GAME.apply(state, Confirm(0))
    assert_rejected(state, Place(0, "small", 100), "a bet on big is placed this round: small")
    assert "small" not in {r.template.bet for r in GAME.amount_ranges_for(state, 0)}  # type: ignore[attr-defined]
    state = GAME.apply(state, Place(1, "small", 100))  # another seat may
    cfg = config(1, options={"taixiu.allow_opposite_bets": True})
    state = GAME.apply(GAME.new_state(cfg), Place(0, "small", 100))
    state = GAME.apply(state, Place(0, "big", 100))
    assert state.pending[0] == (("small", 100), ("big", 100))


# ----- §5.7 player table bank ---------------------------------------------------------------
def test_rules_5_7_bank_reservations() -> None:
    """RULES.md §5.7: a bet is accepted only if the host's available balance covers stake × the
    bet's highest odds; the reservation is what players see the bank drop by (§5.2)."""
    cfg = config(3, table="player", stake=1, stacks=[10_000, RICH, RICH])
    state = GAME.new_state(cfg)
    assert GAME.bank_available(state) == 10_000
    state = GAME.apply(state, Place(1, "single_4", 1000))  # reserves 3 × 1,000
    state = GAME.apply(state, Confirm(1))
    view = GAME.observe(state, 2)
    assert isinstance(view, TaiXiuView) and view.bank_available == 7000
    state = GAME.apply(state, Place(2, "total_4", 100))  # reserves 50 × 100
    assert GAME.bank_available(state) == 2000
    assert_rejected(state, Place(1, "total_17", 41), "bank has 20.00 available")
    assert_rejected(state, Place(2, "triple_1", 14), "needs 21.00 reserved")
    state = GAME.apply(state, Place(1, "triple_1", 13))
    assert GAME.bank_available(state) == 50
    ranges = {r.template.bet: r.max for r in GAME.amount_ranges_for(state, 1)}  # type: ignore[attr-defined]
    assert ranges["big"] == 50 and ranges["single_1"] == 16 and "triple_2" not in ranges
    state = GAME.apply(state, Clear(2))  # clearing releases 5,000
    assert GAME.bank_available(state) == 5050
    state = GAME.apply(state, CloseBetting(None))  # seat 1's placed chips are dropped
    assert GAME.bank_available(state) == 7000
    state = GAME.apply(state, Roll((4, 1, 1)))
    settlement = GAME.settle(state)
    assert settlement.deltas == (-1000, 970, 0)
    view = GAME.observe(state, 1)
    assert isinstance(view, TaiXiuView) and view.bank_available == 9000


def test_the_host_cannot_bet() -> None:
    """S001/§5.2: the host of a player table is its bank; its bets are refused clearly."""
    cfg = config(2, table="player", host=1)
    state = GAME.new_state(cfg)
    assert GAME.to_act(state) == (0,)
    snapshot = repr(state)
    with pytest.raises(NotYourTurnError, match="host is the bank"):
        GAME.apply(state, Place(1, "big", 100))
    assert repr(state) == snapshot
    view = GAME.observe(state, 1)
    assert view.legal_actions == () and "host p2" in GAME.render_text(view)
    assert GAME.legal_actions_for(state, 1) == ()


def test_host_never_loses_more_than_its_bank_on_any_roll() -> None:
    """§5.7: the reservations make every roll payable: random player tables, all 216 rolls."""
    rng = SeededRng("tai-xiu/bank")
    for hand in range(6):
        stacks = [100 * (50 + rng.randbelow(5000)) for _ in range(4)]
        cfg = config(4, table="player", stacks=stacks, host=hand % 4)
        state = GAME.new_state(cfg)
        while not state.closed:
            state = GAME.apply(state, random_action(GAME, state, rng))
        for dice in itertools.product(range(1, 7), repeat=3):
            settlement = GAME.settle(GAME.apply(state, Roll(dice)))
            settlement.check()
            assert settlement.deltas[cfg.host] >= -stacks[cfg.host]
            for seat, delta in enumerate(settlement.deltas):
                assert delta >= -stacks[seat]


def test_player_tables_follow_the_engine_contract() -> None:
    """The conformance checks of tests/games/test_conformance.py on player tables with clans."""
    rng = SeededRng("tai-xiu/player-conformance")
    for hand in range(4):
        seats = 2 + hand % 3
        stacks = [100 * (5 + rng.randbelow(400)) for _ in range(seats)]
        stacks[hand % seats] *= 40  # a host with a bank
        cfg = config(
            seats,
            table="player",
            stacks=stacks,
            host=hand % seats,
            clan=[rng.randbelow(2) == 1 for _ in range(seats)],
            options={"taixiu.max_bet": 5000 + hand},
        )
        state = play_checked(GAME, cfg, rng)
        settlement = GAME.settle(state)
        settlement.check()
        assert settlement.clan_xp[cfg.host] == 0


# ----- bad input -------------------------------------------------------------------------
def test_bad_bets_raise_and_change_nothing() -> None:
    """Issue 2 'Bad input': over balance, under the minimum, over the maximum, unknown area,
    non-positive chips, a table bet, a seat closing the window, an unknown seat."""
    cfg = config(2, stake=500, stacks=[2000, RICH], options={"taixiu.max_bet": 10_000})
    state = GAME.new_state(cfg)
    state = GAME.apply(state, Place(0, "big", 1500))
    assert_rejected(state, Place(0, "single_1", 501), "over the balance 5.00")
    assert_rejected(state, Place(1, "big", 499), "under the table minimum 5.00")
    assert_rejected(state, Place(1, "big", 10_001), "over the table maximum 100.00")
    assert_rejected(state, Place(1, "tai", 1000), "no bet area 'tai'")
    assert_rejected(state, Place(1, "big", 0), "positive amount")
    assert_rejected(state, Place(1, "big", -5), "positive amount")
    assert_rejected(state, Place(None, "big", 1000), "the table does not bet")
    assert_rejected(state, CloseBetting(0), "only the table closes betting")
    assert_rejected(state, Place(2, "big", 1000), "no such seat")
    state = GAME.apply(state, Place(1, "big", 10_000))
    assert_rejected(state, Place(1, "big", 1), "over the table maximum")


def test_bets_after_the_window_are_refused() -> None:
    """Issue 2 'Bad input': a bet after the betting window raises and changes nothing."""
    state = GAME.apply(GAME.new_state(config(1)), CloseBetting(None))
    assert_rejected(state, Place(0, "big", 100), "waiting for the deal")
    assert_rejected(state, Confirm(0), "waiting for the deal")
    assert_rejected(state, Roll((0, 1, 2)), "needs 3 dice of 1..6")
    assert_rejected(state, Roll((1, 2)), "needs 3 dice")
    state = GAME.apply(state, Roll((1, 2, 3)))
    assert_rejected(state, Place(0, "big", 100), "the hand is over")
    with pytest.raises(ValueError, match="not over"):
        GAME.settle(GAME.new_state(config(1)))


def test_place_cap() -> None:
    """[DEF] at most MAX_PLACES_PER_SEAT placements per seat and round."""
    state = GAME.new_state(config(1))
    for _ in range(MAX_PLACES_PER_SEAT):
        state = GAME.apply(state, Place(0, "big", 100))
    assert_rejected(state, Place(0, "big", 100), "at most 60 placements")
    state = GAME.apply(state, Confirm(0))
    assert GAME.to_act(state) is CHANCE  # nobody left to act: the window closed by itself


def test_ready_ends_a_seats_betting_and_the_window_closes_by_itself() -> None:
    """[DEF] Ready: a seat with nothing unconfirmed finishes betting; when no seat is left to
    act the window closes without waiting for the clock."""
    state = GAME.new_state(config(3, table="player"))
    assert GAME.to_act(state) == (1, 2)
    state = GAME.apply(state, Place(1, "big", 100))
    assert Ready(1) not in GAME.legal_actions_for(state, 1)
    assert_rejected(state, Ready(1), "confirm or clear the chips placed first")
    state = GAME.apply(state, Confirm(1))
    state = GAME.apply(state, Ready(1))
    snapshot = repr(state)
    with pytest.raises(NotYourTurnError, match="p2 has finished betting this round"):
        GAME.apply(state, Place(1, "big", 100))
    assert repr(state) == snapshot
    with pytest.raises(NotYourTurnError, match="host is the bank"):
        GAME.apply(state, Ready(0))
    state = GAME.apply(state, Ready(2))
    assert GAME.to_act(state) is CHANCE and state.closed
    assert state.confirmed[1] == (("big", 100),)
    # A player table with only its host has nobody to bet: closed from the start.
    assert GAME.to_act(GAME.new_state(config(1, table="player"))) is CHANCE


@pytest.mark.parametrize(
    "options",
    [
        {"taixiu.table": "casino"},
        {"taixiu.min_bet": 500, "taixiu.max_bet": 100},
        {"taixiu.max_bet": -1},
        {"clan.treasury_min_stake": -1},
        {"taixiu.fee_basis": "per_round"},
    ],
)
def test_bad_options(options: Mapping[str, str | int]) -> None:
    """Impossible options are a ConfigError."""
    with pytest.raises(ConfigError):
        GAME.new_state(config(options=options))


# ----- views -------------------------------------------------------------------------------
def test_views_show_totals_not_other_seats_chips() -> None:
    """Another seat's chips are private; the confirmed totals per area are public."""
    state = GAME.new_state(config(3))
    state = GAME.apply(state, Place(0, "total_11", 4321))
    state = GAME.apply(state, Confirm(0))
    state = GAME.apply(state, Place(0, "double_6", 8765))
    for viewer in (None, 1, 2):
        view = GAME.observe(state, viewer)
        assert isinstance(view, TaiXiuView)
        assert view.my_pending == () and view.my_confirmed == ()
        assert dict(view.totals) == {"total_11": 4321}
        assert "8765" not in json.dumps(to_jsonable(view))
    mine = GAME.observe(state, 0)
    assert isinstance(mine, TaiXiuView)
    assert mine.my_pending == (("double_6", 8765),)
    assert "87.65 unconfirmed" in GAME.render_text(mine)


def test_render_text_board() -> None:
    """The text board: dice, result, Tài/Xỉu totals, the host's bank, the viewer's lines."""
    cfg = config(3, table="player", stacks=[1_000_000, RICH, RICH])
    state = GAME.new_state(cfg)
    state = GAME.apply(state, Place(1, "big", 10_000))
    state = GAME.apply(state, Place(1, "combination_2_5", 100))
    state = GAME.apply(state, Confirm(1))
    betting = GAME.render_text(GAME.observe(state, 2))
    assert "bank available: 9,895.00" in betting and "TÀI  big 11-17   1:1   100.00" in betting
    assert "2-5:1.00" in betting
    state = GAME.apply(GAME.apply(state, CloseBetting(None)), Roll((6, 5, 2)))
    text = GAME.render_text(GAME.observe(state, 1))
    assert "DICE [6] [5] [2]  total 13 → TAI" in text
    assert "profit 100.00, fee 3.00" in text and "profit 5.00, fee 0.15" in text
    assert "round result: 101.85" in text


def test_registry_and_aliases() -> None:
    """Registered as tai-xiu with the aliases 'Tài Xỉu' and 'Sic Bo'; the dice 'deck'."""
    assert find_game("Tài Xỉu") is GAME
    assert find_game("Sic Bo") is GAME
    assert GAME.info.deck == "dice" and GAME.info.banked
    assert area_max_odds("total_4") == 50 and area_max_odds("single_2") == 3


@settings(max_examples=40, deadline=None)
@given(
    stakes=st.lists(
        st.tuples(st.sampled_from(AREAS), st.integers(min_value=1, max_value=10**7)),
        min_size=1,
        max_size=8,
    ),
    dice=st.tuples(*[st.integers(min_value=1, max_value=6)] * 3),
    clan=st.booleans(),
    table=st.sampled_from(["system", "player"]),
)
def test_settlement_balances_property(
    stakes: list[tuple[str, int]], dice: tuple[int, int, int], clan: bool, table: str
) -> None:
    """Any confirmed bets on any roll: the settlement sums to zero, shares are non-negative, and
    each winning bet's kept + fee + clan + breakage equals its profit."""
    cfg = config(
        2,
        table=table,
        stake=1,
        clan=[clan, clan],
        options={"taixiu.allow_opposite_bets": True, "taixiu.fee_on_host": False},
    )
    bets = [(1, area, amount) for area, amount in stakes]
    _, settlement = run(bets, dice, cfg=cfg)
    settlement.check()
    gross = sum(
        amount * area_multiplier(area, dice) if area_multiplier(area, dice) else -amount
        for area, amount in stakes
    )
    bank = settlement.house if table == "system" else settlement.deltas[0]
    assert bank == -gross
    parts = settlement.deltas[1] + settlement.fee + sum(settlement.clan_share)
    assert parts + settlement.breakage == gross
    assert 0 <= settlement.breakage <= 2 * len(stakes)
    assert settlement.clan_share[1] == (sum(
        amount * area_multiplier(area, dice) // 100 for area, amount in _merged(stakes)
    ) if clan else 0)  # fmt: skip


def _merged(stakes: list[tuple[str, int]]) -> list[tuple[str, int]]:
    totals: dict[str, int] = {}
    for area, amount in stakes:
        totals[area] = totals.get(area, 0) + amount
    return list(totals.items())
