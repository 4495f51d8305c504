"""3 Cây Gà (RULES.md §10, seed 001 '3 CÂY GÀ ( NHẤT ĂN TẤT )').

Deals are fixed with a :class:`Shuffle` built from the wanted hands (three rounds of one card to
each player, by seat).
"""

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
from sanh.games._three_cards import Flip, Leave, Ready, SitOut, Squeeze, Start, TimeUp
from sanh.games.ba_cay_ga import BaCayGa, GaState, GaView, ga_timers
from sanh.games.base import CHANCE, Shuffle, TableConfig
from sanh.games.driver import chance_event, random_action
from sanh.notation.history import dump_history, load_history, record_history, replay_history
from sanh.notation.jsonable import to_jsonable

GAME = BaCayGa()


def table(
    seats: int,
    *,
    stake: int = 100,
    stacks: Sequence[int] | None = None,
    carry: object = None,
    options: Mapping[str, object] | None = None,
) -> TableConfig:
    return TableConfig.make(
        seats=seats,
        stake=stake,
        stacks=stacks,
        carry=carry,
        options=options or {},  # type: ignore[arg-type]
    )


def shuffle_for(players: Sequence[int], hands: Mapping[int, str]) -> Shuffle:
    parsed = {seat: parse_cards(text) for seat, text in hands.items()}
    order: list[Card] = [parsed[seat][r] for r in range(3) for seat in players]
    order += [card for card in DECK_36 if card not in order]
    assert len(order) == len(set(order)) == 36
    return Shuffle(tuple(order))


def collect_round(config: TableConfig, hands: Mapping[int, str]) -> GaState:
    """Every seat readies, the host starts, the cards are dealt and flipped."""
    state = GAME.new_state(config)
    for seat in range(config.seats):
        state = GAME.apply(state, Ready(seat))
    state = GAME.apply(state, Start(config.host))
    return finish(state, hands)


def finish(state: GaState, hands: Mapping[int, str]) -> GaState:
    state = GAME.apply(state, shuffle_for(state.players, hands))
    for seat in state.players:
        if not state.left[seat] and not GAME.is_terminal(state):
            state = GAME.apply(state, Flip(seat))
    assert GAME.is_terminal(state)
    return state


EXAMPLE = {0: "9h 8c 3s", 1: "2c 2s 3c", 2: "3d 5c 2h", 3: "4s Ac 9c"}


def test_seed_example_diamonds_beat_hearts() -> None:
    """RULES.md §10.6 example: 4 players, L = 1,000. A scores 10 with top card 9♥, B scores 7,
    C scores 10 with top card 3♦, D scores 4. C wins 3,000 in stakes and the gà pot, because
    diamonds beat hearts."""
    state = collect_round(table(4, stake=1000), EXAMPLE)
    view = GAME.observe(state, None)
    assert isinstance(view, GaView)
    assert view.scores == (10, 7, 10, 4)
    assert view.winner == 2 and view.ga_winner == 2
    settlement = GAME.settle(state)
    stakes = [line for line in settlement.lines if line.item == "stake" and line.seat == 2]
    assert sum(line.amount for line in stakes) == 3000
    assert settlement.deltas == (-2000, -2000, 3000 - 1000 + 4000, -2000)
    assert settlement.house == 0
    assert GAME.carry(state) == {"pot": 0, "members": ()}


def test_seed_tie_example_ace_of_diamonds() -> None:
    """S001 'Một người là 8 rô, A bích, A tép và một người là 7 rô, 2 cơ, A rô ... người có lá A
    rô sẽ thắng vì A rô > 8 rô.' The A♦ hand takes the stakes and the gà."""
    state = collect_round(table(2), {0: "8d As Ac", 1: "7d 2h Ad"})
    assert GAME.observe(state, None).ga_winner == 1
    assert GAME.settle(state).deltas == (-200, 200)


def test_no_ten_carries_the_pot_and_redeals_without_ready() -> None:
    """S001 '4. ... Kết thúc một ván bài mà chưa có ai được 10 điểm để ăn gà, mỗi người chơi
    trong bàn sẽ được chia 03 lá bài'; RULES.md §10.5.4 (A-GA3): the pot carries over with no new
    contribution; the re-deal needs no Ready or Start."""
    hands = {0: "2c 2s 3c", 1: "4s Ac 9c", 2: "Ad 2d 3d"}  # 7, 4, 6: nobody has 10
    first = collect_round(table(3), hands)
    settlement = GAME.settle(first)
    assert settlement.deltas == (200 - 100, -200, -200) and settlement.house == 300
    carry = GAME.carry(first)
    assert carry == {"pot": 300, "members": (0, 1, 2)}
    second = GAME.new_state(table(3, carry=carry))
    assert GAME.to_act(second) is CHANCE and not second.collecting
    second = finish(second, {0: "9h 8c 3s", 1: "2c 2s 3c", 2: "4s Ac 9c"})
    settlement = GAME.settle(second)
    assert settlement.deltas == (200 + 300, -100, -100)  # stakes + the carried pot, no new gà
    assert settlement.house == -300
    assert GAME.carry(second) == {"pot": 0, "members": ()}


def test_winner_takes_all_stakes() -> None:
    """S001 'người chơi cao điểm nhất sẽ thắng được tiền của những người chơi còn lại (nhất ăn
    tất)'."""
    state = collect_round(table(3, stake=500), {0: "2c 2s 3c", 1: "4s Ac 9c", 2: "Ad 2d 3d"})
    lines = [line for line in GAME.settle(state).lines if line.item == "stake"]
    assert sum(line.amount for line in lines if line.seat == 0) == 1000


def test_a_player_who_cannot_pay_the_ga_cannot_play() -> None:
    """S001 'Trường hợp người chơi không đủ tiền góp gà sẽ không được tiếp tục chơi'; RULES.md
    §2.6: 3 Cây Gà needs the gà plus the round stake (2 L)."""
    state = GAME.new_state(table(3, stacks=[1000, 199, 1000]))
    assert GAME.to_act(state) == (0, 2)
    snapshot = repr(state)
    with pytest.raises(IllegalActionError) as info:
        GAME.apply(state, Ready(1))
    assert "cannot pay the gà and the stake (2.00)" in str(info.value)
    assert repr(state) == snapshot


def test_only_one_member_able_to_pay_takes_the_pot() -> None:
    """S001 'Khi chỉ còn một người đủ tiền góp gà thì người đó sẽ được ăn Gà.'"""
    carry = {"pot": 900, "members": (0, 1, 2)}
    state = GAME.new_state(table(3, stacks=[50, 5000, 99], carry=carry))
    assert GAME.is_terminal(state) and state.outcome == "walkover"
    settlement = GAME.settle(state)
    assert settlement.deltas == (0, 900, 0) and settlement.house == -900
    assert GAME.carry(state) == {"pot": 0, "members": ()}


def test_newcomers_wait_for_a_new_ga_or_pay_in() -> None:
    """RULES.md §10.5.1 [DEF] / A-GA4: newcomers are dealt in only when a new gà is collected
    (``late_join = wait``); with ``pay_in`` they pay L into the live gà to join."""
    carry = {"pot": 200, "members": (0, 1)}
    waiting = GAME.new_state(table(3, carry=carry))
    assert waiting.players == (0, 1) and waiting.contributors == ()
    joining = GAME.new_state(table(3, carry=carry, options={"bacayga.late_join": "pay_in"}))
    assert joining.players == (0, 1, 2) and joining.contributors == (2,)
    done = finish(joining, {0: "2c 2s 3c", 1: "4s Ac 9c", 2: "Ad 2d 3d"})
    assert GAME.settle(done).deltas == (200, -100, -200)
    assert GAME.carry(done) == {"pot": 300, "members": (0, 1, 2)}


def test_recollect_each_round_option() -> None:
    """A-GA3 flag ``bacayga.recollect_each_round``: a new gà even while the pot is unclaimed."""
    carry = {"pot": 200, "members": (0, 1)}
    state = GAME.new_state(table(2, carry=carry, options={"bacayga.recollect_each_round": True}))
    assert state.collecting and state.phase == "ready"


def test_leaving_after_the_deal_loses_the_stake_and_the_ga() -> None:
    """S001 '3. XỬ LÝ KHI MẤT KẾT NỐI: ... bị trừ tiền theo mức cược của bàn chơi và tiền đã góp
    gà, những người chơi còn lại tiếp tục chơi.'"""
    state = GAME.new_state(table(3))
    for seat in range(3):
        state = GAME.apply(state, Ready(seat))
    state = GAME.apply(state, Start(0))
    state = GAME.apply(state, shuffle_for((0, 1, 2), {0: "9h 8c 3s", 1: "2c 2s 3c", 2: "Ad 2d 3d"}))
    assert GAME.default_action(state, 0, "disconnect") == Leave(0)
    state = GAME.apply(state, Leave(0))  # the 10-point hand leaves: it cannot win any more
    state = GAME.apply(state, Flip(1))
    state = GAME.apply(state, Flip(2))
    assert GAME.is_terminal(state)
    settlement = GAME.settle(state)
    assert settlement.deltas == (-200, 200 - 100, -200)  # B (7) beats C (6); no 10 left
    assert GAME.carry(state) == {"pot": 300, "members": (1, 2)}


def test_leaving_before_the_deal_costs_nothing() -> None:
    """RULES.md §2.8: a failure before the round starts refunds every stake."""
    state = GAME.apply(GAME.new_state(table(2)), Ready(0))
    state = GAME.apply(state, Ready(1))
    state = GAME.apply(state, Leave(1))
    assert GAME.is_terminal(state) and state.outcome == "cancelled"
    assert GAME.settle(state).deltas == (0, 0)


def test_host_start_and_sitting_out() -> None:
    """RULES.md §10.5.1: once two players are ready the host can press Start; players who are
    not ready sit the round out. Only the host starts."""
    state = GAME.new_state(table(4))
    state = GAME.apply(state, Ready(1))
    snapshot = repr(state)
    with pytest.raises(IllegalActionError, match="at least two players must be ready"):
        GAME.apply(state, Start(0))
    assert repr(state) == snapshot
    state = GAME.apply(state, Ready(2))
    with pytest.raises(IllegalActionError, match="only the host starts"):
        GAME.apply(state, Start(1))
    state = GAME.apply(state, Start(0))  # the host may start before everyone decided
    assert state.players == (1, 2) and state.decisions == ("sitout", "ready", "ready", "sitout")
    assert GAME.to_act(state) is CHANCE


def test_host_leaving_before_the_deal_does_not_block_the_round() -> None:
    """Our choice: with the host gone, the round deals once everyone has decided."""
    state = GAME.new_state(table(4))
    for action in (Ready(0), Ready(1), Leave(0), Ready(2), SitOut(3)):
        state = GAME.apply(state, action)
    assert GAME.to_act(state) is CHANCE and state.players == (1, 2)


def test_listed_start_once_everyone_decided() -> None:
    """Start is listed for the host once every seat has decided."""
    state = GAME.new_state(table(3))
    for action in (Ready(0), SitOut(1), Ready(2)):
        state = GAME.apply(state, action)
    assert GAME.to_act(state) == (0,)
    assert GAME.legal_actions(state) == (Start(0), TimeUp(None))
    assert GAME.default_action(state, 0, "timeout") == Start(0)


def test_squeeze_shows_a_card_to_its_owner_only() -> None:
    """S001 'Người chơi có 15 giây (7 giây với chế độ chơi nhanh) để nặn bài hoặc lật bài':
    squeezed cards are the owner's alone until flipped."""
    state = GAME.new_state(table(2))
    state = GAME.apply(GAME.apply(state, Ready(0)), Ready(1))
    state = GAME.apply(state, Start(0))
    state = GAME.apply(state, shuffle_for((0, 1), {0: "9h 8c 3s", 1: "2c 2s 3c"}))
    state = GAME.apply(state, Squeeze(0, 1))
    own = GAME.observe(state, 0)
    other = GAME.observe(state, 1)
    assert own.cards[0] == (None, parse_cards("8c")[0], None)
    assert other.cards[0] == (None, None, None)
    with pytest.raises(IllegalActionError, match="already been squeezed"):
        GAME.apply(state, Squeeze(0, 1))
    state = GAME.apply(state, Flip(0))
    assert GAME.observe(state, 1).cards[0] == parse_cards("9h 8c 3s")
    assert GAME.to_act(state) == (1,)
    state = GAME.apply(state, TimeUp(None))  # the window closes: cards flip automatically
    assert GAME.is_terminal(state)


def test_timers() -> None:
    """S001/RULES.md §2.5: 15 s to squeeze or flip, 7 s in quick mode."""
    assert ga_timers(table(2)) == {"squeeze_s": 15}
    assert ga_timers(table(2, options={"table.quick_mode": True})) == {"squeeze_s": 7}
    assert GAME.observe(GAME.new_state(table(2)), None).timers == {"squeeze_s": 15}


def test_bad_config() -> None:
    """A malformed carry or option is a ConfigError."""
    with pytest.raises(ConfigError):
        GAME.new_state(table(2, carry={"pot": -5}))
    with pytest.raises(ConfigError):
        GAME.new_state(table(2, carry={"pot": 5, "members": (9,)}))
    with pytest.raises(ConfigError):
        GAME.new_state(table(2, options={"bacayga.late_join": "never"}))
    with pytest.raises(ConfigError):
        GAME.new_state(table(10))


def test_views_hide_cards_until_revealed() -> None:
    """RULES.md §2.10: face-down cards go only to their owner (once squeezed)."""
    rng = SeededRng("ga-views")
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
    """Bots are legal and deterministic; histories replay to the same state and settlement,
    carrying the pot round after round."""
    carry = None
    for round_ in range(6):
        rng = SeededRng(f"ga-bots/{round_}")
        state = GAME.new_state(table(4, carry=carry))
        while not GAME.is_terminal(state):
            turn = GAME.to_act(state)
            if turn is CHANCE:
                state = GAME.apply(state, chance_event(GAME, state, rng))
                continue
            assert isinstance(turn, tuple)
            view = GAME.observe(state, turn[0])
            action = bot_for("ba-cay-ga").act(view, rng)
            assert action in view.legal_actions
            state = GAME.apply(state, action)
        history = load_history(dump_history(record_history(GAME, state)))
        replayed, settlement = replay_history(history)
        assert replayed == state and settlement == GAME.settle(state)
        carry = GAME.carry(state)
    assert find_game("3 Cây Gà") is find_game("ba-cay-ga")


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 9))
def test_gold_is_conserved_across_rounds(seed: int, seats: int) -> None:
    """Random legal play with leaving, over several rounds: every round ends, settles to zero
    with the gà pot booked as the house, nobody loses more than their stack, and the pot the
    carry reports is exactly what the table holds."""
    rng = SeededRng(f"ga-prop/{seed}")
    carry = None
    held = 0
    for _ in range(4):
        stacks = [100 * (1 + rng.randbelow(8)) for _ in range(seats)]
        state = GAME.new_state(table(seats, stacks=stacks, carry=carry))
        for _ in range(GAME.info.max_actions):
            turn = GAME.to_act(state)
            if turn is None:
                break
            if turn is CHANCE:
                state = GAME.apply(state, chance_event(GAME, state, rng))
            elif rng.randbelow(12) == 0 and state.phase == "squeeze":
                live = [s for s in state.players if not state.left[s]]
                state = GAME.apply(state, Leave(live[rng.randbelow(len(live))]))
            else:
                state = GAME.apply(state, random_action(GAME, state, rng))
        assert GAME.is_terminal(state)
        settlement = GAME.settle(state)
        settlement.check()
        assert all(d >= -s for d, s in zip(settlement.deltas, stacks, strict=True))
        held += settlement.house
        carry = GAME.carry(state)
        assert carry["pot"] == held


GA_INTS = {"bacayga.ga_multiple": (1, 2), "bacayga.stake_multiple": (1, 3)}


def random_options(rng: SeededRng) -> dict[str, object]:
    """Any combination of the RULES.md flags of 3 Cây Gà."""
    options: dict[str, object] = {}
    for spec in GAME.info.options:
        if spec.choices:
            values: tuple[object, ...] = spec.choices
        elif isinstance(spec.default, bool):
            values = (False, True)
        else:
            values = GA_INTS[spec.name]
        options[spec.name] = values[rng.randbelow(len(values))]
    return options


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 9))
def test_any_options_conserve_gold(seed: int, seats: int) -> None:
    """Every option combination, several rounds: settlements balance, stacks are respected and
    the carried pot equals what the table holds."""
    rng = SeededRng(f"ga-options/{seed}")
    options = random_options(rng)
    carry = None
    held = 0
    for _ in range(3):
        stacks = [100 * (1 + rng.randbelow(10)) for _ in range(seats)]
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
        held += settlement.house
        carry = GAME.carry(state)
        assert carry["pot"] == held


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9), st.integers(3, 9), st.integers(0, 12))
def test_views_ignore_cards_hidden_from_the_viewer(seed: int, seats: int, steps: int) -> None:
    """Swapping two cards the viewer cannot see (other players' face-down cards, squeezed or
    not) leaves the viewer's view unchanged."""
    rng = SeededRng(f"ga-swap/{seed}")
    state = GAME.new_state(table(seats))
    for seat in range(seats):
        state = GAME.apply(state, Ready(seat))
    state = GAME.apply(state, Start(0))
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


def test_remap_carry_drops_a_member_who_left_and_keeps_the_pot() -> None:
    """RULES.md §10.6: the gà a leaver paid stays in the pot. Between rounds seat 1 left and a
    newcomer sat (new seat 2): the members are renumbered, the leaver is no member, the pot is
    unchanged, and the next round deals the members with the whole pot at stake."""
    carry = {"pot": 300, "members": (0, 1, 2)}
    moved = GAME.remap_carry(carry, {0: 0, 1: None, 2: 1})
    assert moved == {"pot": 300, "members": (0, 1)}
    state = GAME.new_state(table(3, carry=moved))
    assert state.pot == 300 and state.players == (0, 1) and not state.collecting
    state = finish(state, {0: "9h 8c 3s", 1: "2c 2s 3c"})  # seat 0 scores 10: takes the gà
    settlement = GAME.settle(state)
    assert settlement.deltas == (100 + 300, -100, 0) and settlement.house == -300
    # Every member gone: the pot stays, and a new gà is collected around it.
    empty = GAME.remap_carry(carry, {0: None, 1: None, 2: None})
    assert empty == {"pot": 300, "members": ()}
    again = GAME.new_state(table(2, carry=empty))
    assert again.pot == 300 and again.collecting
    assert GAME.remap_carry(None, {0: 0}) is None
