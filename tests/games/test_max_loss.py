"""``Game.max_loss``: the most one seat can pay in a hand (RULES.md §2.6), game by game.

Properties, over seeded random play (:func:`sanh.games.driver.random_playout`, a uniform and an
aggressive policy, decks rigged with fours of a kind for the shedding games) at every seat
count and under every option set that raises payments:

* with unlimited stacks no seat pays more than ``max_loss`` in a hand (everything it pays,
  before what it receives);
* the same events replayed with every stack at ``max_loss`` (Liêng: ``min(stack, max_loss)``)
  are all legal and settle identically, and carry the same data to the next hand: holding
  ``max_loss`` is the same as capping debts at the whole balance.

Constructed hands show the bounds are reachable or close (each test names what it reaches).
"""

from __future__ import annotations

import doctest
import importlib
from collections.abc import Callable
from typing import Any

import pytest

from sanh.cards.card import Card, parse_cards
from sanh.cards.deck import DECK_36, DECK_52
from sanh.cards.rng import Rng, SeededRng, shuffled
from sanh.games import find_game
from sanh.games.base import CHANCE, Action, Event, Game, Settlement, Shuffle, TableConfig
from sanh.games.driver import chance_event, random_action, random_playout

UNLIMITED = 10**12
"""A stack no payment can reach."""

Policy = Callable[[Game[Any], Any, Rng], Action]


def paid(settlement: Settlement, seat: int) -> int:
    """Everything ``seat`` paid in the hand (its negative lines; at least its net loss)."""
    gross = -sum(line.amount for line in settlement.lines if line.seat == seat and line.amount < 0)
    return max(gross, -settlement.deltas[seat])


def _score(action: Action) -> tuple[int, int]:
    """How aggressive an action is: eat, declare Sâm, the most cards, the largest amount."""
    name = type(action).__name__
    if name in ("Eat", "DeclareSam"):
        return (3, 0)
    if name in ("Pass", "Fold", "SitOut", "DeclineSam", "Muck"):
        return (0, 0)
    cards = getattr(action, "cards", ())
    return (1, len(cards) if cards else int(getattr(action, "amount", 0)))


def aggressive(game: Game[Any], state: Any, rng: Rng) -> Action:
    """Cuts, eats, Sâm declarations, the largest bets; now and then a seat leaves mid-hand."""
    turn = game.to_act(state)
    leave = next((t for t in game.info.action_types if t.__name__ == "Leave"), None)
    if leave is not None and isinstance(turn, tuple) and rng.randbelow(30) == 0:
        seat = rng.randbelow(state.config.seats)
        action = leave(seat)
        if game.is_legal(state, action):
            return action
    if rng.randbelow(4) == 0:
        return random_action(game, state, rng)
    actions = game.legal_actions(state)
    ranked = sorted(actions, key=_score)
    best = [a for a in ranked if _score(a) == _score(ranked[-1])]
    return best[rng.randbelow(len(best))]


def quads_deck(deck: tuple[Card, ...], rng: Rng, seats: int, hand: int) -> tuple[Card, ...]:
    """A deck order dealing two fours of a kind to each seat (card k to seat k mod seats)."""
    ranks = list(shuffled(sorted({card.rank for card in deck}), rng))
    hands = [[c for c in deck if c.rank in ranks[2 * s : 2 * s + 2]] for s in range(seats)]
    dealt = {c for h in hands for c in h}
    rest = list(shuffled([c for c in deck if c not in dealt], rng))
    for h in hands:
        while len(h) < hand:
            h.append(rest.pop())
    hands = [list(shuffled(h, rng)) for h in hands]
    order = [hands[k % seats][k // seats] for k in range(seats * hand)]
    return (*order, *rest)


def play(game: Game[Any], config: TableConfig, rng: Rng, policy: Policy, hand: int) -> Any:
    """One hand like :func:`random_playout`, its shuffle rigged by :func:`quads_deck`."""
    state = game.new_state(config)
    for _ in range(game.info.max_actions):
        turn = game.to_act(state)
        if turn is None:
            return state
        event: Event
        if turn is CHANCE:
            spec = game.chance_spec(state)
            if spec.kind == "shuffle":
                event = Shuffle(quads_deck(spec.deck, rng, config.seats, hand))
            else:
                event = chance_event(game, state, rng)
        else:
            event = policy(game, state, rng)
        state = game.apply(state, event)
    raise AssertionError("the hand did not end")


def check_hand(game: Game[Any], config: TableConfig, state: Any, bound: int) -> int:
    """Assert the two properties on one played hand; return the most a seat paid."""
    settlement = game.settle(state)
    worst = max(paid(settlement, seat) for seat in range(config.seats))
    assert worst <= bound, f"a seat paid {worst} > max_loss {bound} ({config.options})"
    capped = TableConfig.make(
        seats=config.seats,
        stake=config.stake,
        stacks=[min(stack, bound) for stack in config.stacks],
        options=dict(config.options),
        host=config.host,
        carry=config.carry,
    )
    replayed = game.replay(capped, state.history)
    assert game.settle(replayed) == settlement
    assert game.carry(replayed) == game.carry(state)
    return worst


def run(
    game_id: str,
    options: dict[str, Any],
    seats: int,
    hands: int,
    *,
    hand_size: int = 0,
    carry: Any = None,
    stacks: Callable[[Rng], list[int]] | None = None,
) -> int:
    """Play ``hands`` hands (uniform and aggressive policies; rigged decks if ``hand_size``)."""
    game = find_game(game_id)
    worst = 0
    for index in range(hands):
        rng = SeededRng(f"max-loss:{game_id}:{options}:{seats}:{index}")
        config = TableConfig.make(
            seats=seats,
            stake=100,
            stacks=stacks(rng) if stacks else [UNLIMITED] * seats,
            options=options,
            carry=carry,
        )
        bound = game.max_loss(config)
        assert bound is not None
        policy: Policy = aggressive if index % 2 else random_action
        if hand_size and index % 3:
            state = play(game, config, rng, policy, hand_size)
        else:
            state = random_playout(game, config, rng, policy=policy)
        worst = max(worst, check_hand(game, config, state, bound))
    return worst


# ----- the properties, game by game ---------------------------------------------------------
TIEN_LEN_OPTIONS: list[dict[str, Any]] = [
    {},
    {"tlmn.opt_dut_3_bich": True, "tlmn.opt_four_pairs_restore_turn": True},
    {"tlmn.chain_cut": "last_item", "tlmn.cong_multiplier": 3, "tlmn.opt_dut_3_bich": True},
    {"tlmn.scoring": "rank", "tlmn.opt_dut_3_bich": True, "tlmn.opt_four_pairs_restore_turn": True},
    {"tlmn.opt_first_game_instant_wins": True, "tlmn.direction": "cw"},
]


@pytest.mark.parametrize("options", TIEN_LEN_OPTIONS, ids=str)
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_tien_len_never_charges_more(options: dict[str, Any], seats: int) -> None:
    """Tiến lên: cuts, chains, cóng, rank places, Đút/Thối 3 Bích stay within the bound."""
    run("tien-len", options, seats, 60, hand_size=13, carry={"winner": 1})
    run("tien-len", options, seats, 10)  # first games: 3♠ leads


SAM_OPTIONS: list[dict[str, Any]] = [
    {},
    {
        "samloc.overcut_amount": "cumulative",
        "samloc.instant_wins": "",
        "samloc.quad_ace_cut_value": 60,
        "samloc.two_count": "add",
        "samloc.thoi_finish_penalty": 15,
    },
    {
        "samloc.sam_fail_ends_game": False,
        "samloc.den_trang_scope": "sam_and_treo",
        "samloc.leave_penalty_to": "winner",
    },
    {"samloc.bao1_penalty": "none", "samloc.finish_on_two": "forbid", "samloc.bao1_enforce": True},
    {"samloc.treo_adds_two_values": False, "samloc.first_leader": "random"},
]


@pytest.mark.parametrize("options", SAM_OPTIONS, ids=str)
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_sam_loc_never_charges_more(options: dict[str, Any], seats: int) -> None:
    """Sâm: Sâm results, cuts and over-cuts, Treo, thối, Báo 1, leaving stay within the bound."""
    run("sam-loc", options, seats, 60, hand_size=10, carry={"winner": 0})
    run("sam-loc", options, seats, 10)


PHOM_OPTIONS: list[dict[str, Any]] = [
    {},
    {
        "phom.eat_ordinal": "per_game",
        "phom.eat_multipliers": "1,2,3,4,9",
        "phom.chot_multiplier": 7,
    },
    {"phom.u_k": "as_u_thuong", "phom.opt_u_khan": True, "phom.tai": False},
    {"phom.three_eaten_liability": False, "phom.first_player": "random"},
]


@pytest.mark.parametrize("options", PHOM_OPTIONS, ids=str)
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_phom_never_charges_more(options: dict[str, Any], seats: int) -> None:
    """Phỏm: eats, chốt, places, Móm, Ù and Ù đền, leaving stay within the bound."""
    run("phom", options, seats, 40)


GA_OPTIONS: list[dict[str, Any]] = [
    {},
    {"bacayga.ga_multiple": 3, "bacayga.stake_multiple": 2, "bacayga.recollect_each_round": True},
    {"bacayga.late_join": "pay_in"},
]


@pytest.mark.parametrize("options", GA_OPTIONS, ids=str)
@pytest.mark.parametrize("seats", [2, 3, 9])
@pytest.mark.parametrize("carry", [None, {"pot": 500, "members": (0, 1)}], ids=["new", "carried"])
def test_ba_cay_ga_never_charges_more(options: dict[str, Any], seats: int, carry: Any) -> None:
    """3 Cây Gà: the gà and the stake, collection and carried rounds, joiners paying in."""
    run("ba-cay-ga", options, seats, 30, carry=carry)


CHUONG_OPTIONS: list[dict[str, Any]] = [
    {},
    {"bacaychuong.banker_ten_doubles": True, "bacaychuong.max_bet": 20},
    {"bacaychuong.ten_pays_double": False, "bacaychuong.min_cover_multiple": 1},
    {"bacaychuong.min_cover_multiple": 5, "platform.min_balance_multiple": 0},
]


@pytest.mark.parametrize("options", CHUONG_OPTIONS, ids=str)
@pytest.mark.parametrize("seats", [2, 3, 9])
def test_ba_cay_chuong_never_charges_more(options: dict[str, Any], seats: int) -> None:
    """Ba Cây Chương: the banker paying every winner (2× for 10s), a player's lost bet."""
    run("ba-cay-chuong", options, seats, 40, carry={"banker": 0})


def _lieng_stacks(rng: Rng) -> list[int]:
    return [100 * (10 + rng.randbelow(300)) for _ in range(9)]


LIENG_OPTIONS: list[dict[str, Any]] = [
    {},
    {"lieng.raise_cap": 0},
    {"lieng.min_raise": 3, "lieng.raise_cap": 5, "platform.min_balance_multiple": 0},
]


@pytest.mark.parametrize("options", LIENG_OPTIONS, ids=str)
@pytest.mark.parametrize("seats", [2, 3, 9])
def test_lieng_never_charges_more(options: dict[str, Any], seats: int) -> None:
    """Liêng: no seat loses more than the second-largest stack, and trimming the richest seat's
    stack to it changes nothing."""

    def stacks(rng: Rng) -> list[int]:
        return _lieng_stacks(rng)[:seats]

    run("lieng", options, seats, 30, stacks=stacks)


def test_lieng_bound_reads_the_stacks() -> None:
    """Only seats able to start count; a tiny table's bound is at least L; none with one seat."""
    game = find_game("lieng")
    config = TableConfig.make(seats=4, stake=100, stacks=[50_000, 900, 7_000, 3_000])
    assert game.max_loss(config) == 7_001  # 900 < 10 L sits out
    low = TableConfig.make(
        seats=2, stake=100, stacks=[40, 60], options={"platform.min_balance_multiple": 0}
    )
    assert game.max_loss(low) == 101
    alone = TableConfig.make(seats=2, stake=100, stacks=[50_000, 900])
    assert game.max_loss(alone) is None


def test_games_without_a_bound() -> None:
    """Tẩy games and house games hold what they already hold: no bound below the stack."""
    for game_id in ("texas-holdem", "poker-aof", "xi-to", "tai-xiu", "three-card-poker"):
        game = find_game(game_id)
        config = TableConfig.make(seats=game.info.seats_min, stake=100)
        assert game.max_loss(config) is None, game_id


@pytest.mark.parametrize(
    "game_id", ["tien-len", "sam-loc", "phom", "ba-cay-ga", "ba-cay-chuong", "lieng"]
)
def test_max_loss_doctests(game_id: str) -> None:
    """The docstring examples of every ``max_loss``."""
    module = importlib.import_module(type(find_game(game_id)).__module__)
    assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize("game_id", ["tien-len", "sam-loc", "phom"])
def test_bound_covers_the_balance_to_be_dealt_in(game_id: str) -> None:
    """A stack of ``max_loss`` is always dealt in, whatever ``platform.min_balance_multiple``."""
    game = find_game(game_id)
    config = TableConfig.make(seats=2, stake=100, options={"platform.min_balance_multiple": 500})
    assert game.max_loss(config) == 50_000


# ----- constructed hands: the bounds are reached, or nearly ----------------------------------
def _deal(hands: list[str], deck: tuple[Card, ...], *, extra: str = "", stock: str = "") -> Shuffle:
    """A shuffle dealing ``hands`` one card at a time round the seats (then ``extra`` to the
    first seat, then ``stock`` on top of the rest)."""
    cards = [parse_cards(h) for h in hands]
    order = [cards[k % len(cards)][k // len(cards)] for k in range(sum(map(len, cards)))]
    order += [*parse_cards(extra), *parse_cards(stock)]
    return Shuffle((*order, *(c for c in deck if c not in order)))


def _script(game: Game[Any], state: Any, actions: list[Action]) -> Any:
    for action in actions:
        state = game.apply(state, action)
    return state


def test_tien_len_chain_of_seven_fours_nearly_reaches_the_bound() -> None:
    """Four seats, cumulative chains: 2♠ is cut by four 3s, over-cut by seven fours of a kind in
    turn; the payer of the last over-cut pays 5 + 7 × 20 = 145 lá, and 27 more for 2♥ 2♦ 2♣
    and two cards left: 172 of the bound's 195."""
    from sanh.games._shedding import Pass, Play

    game = find_game("tien-len")
    config = TableConfig.make(seats=4, stake=100, stacks=[UNLIMITED] * 4, carry={"winner": 1})
    assert game.max_loss(config) == 19_500
    hands = [
        "5s5c5d5h 9s9c9d9h 2h2d2c 10s Js",
        "2s 6s6c6d6h KsKcKdKh 10c Jc Qs As",
        "3s3c3d3h 7s7c7d7h 10d Jd Qc Qd Ac",
        "4s4c4d4h 8s8c8d8h 10h Jh Qh Ad Ah",
    ]
    state = game.apply(game.new_state(config), _deal(hands, DECK_52))
    chain = ["2s", "3s3c3d3h", "4s4c4d4h", "5s5c5d5h", "6s6c6d6h", "7s7c7d7h", "8s8c8d8h"]
    chain += ["9s9c9d9h", "KsKcKdKh"]
    seats = [1, 2, 3, 0]
    actions: list[Action] = [Play(seats[i % 4], parse_cards(c)) for i, c in enumerate(chain)]
    actions += [Pass(2), Pass(3), Pass(0)]
    for card in ("10c", "Jc", "Qs", "As"):
        actions += [Play(1, parse_cards(card))]
        actions += [Pass(2), Pass(3), Pass(0)] if card != "As" else []
    state = _script(game, state, actions)
    settlement = game.settle(state)
    cuts = [line for line in settlement.lines if line.seat == 0 and line.item == "cut"]
    assert [line.amount for line in cuts] == [-14_500]
    assert paid(settlement, 0) == 17_200 <= game.max_loss(config)


def test_sam_loc_cumulative_cuts_reach_their_bound() -> None:
    """Two seats, cumulative over-cuts: 2♥ cut by four 3s over-cut by four 4s (40 lá), then
    2♦ cut by four 5s over-cut by four aces (20 + 40): the 100 lá of the cuts' bound, reached;
    6 more for the cards left (the bound, 140, also allows a Treo's 40)."""
    from sanh.games._shedding import Pass, Play
    from sanh.games.sam_loc import DeclineSam

    game = find_game("sam-loc")
    options = {
        "samloc.overcut_amount": "cumulative",
        "samloc.instant_wins": "four_twos,dragon,one_colour,three_triples",
    }
    config = TableConfig.make(
        seats=2, stake=100, stacks=[UNLIMITED] * 2, options=options, carry={"winner": 1}
    )
    assert game.max_loss(config) == 14_000
    hands = ["3s3c3d3h 5s5c5d5h 2c 7s", "2h 4s4c4d4h 2d AsAcAdAh"]
    state = game.apply(game.new_state(config), _deal(hands, DECK_52))
    cards = parse_cards
    state = _script(
        game,
        state,
        [
            DeclineSam(1),
            DeclineSam(0),
            Play(1, cards("2h")),
            Play(0, cards("3s3c3d3h")),
            Play(1, cards("4s4c4d4h")),
            Pass(0),
            Play(1, cards("2d")),
            Play(0, cards("5s5c5d5h")),
            Play(1, cards("AsAcAdAh")),
        ],
    )
    settlement = game.settle(state)
    cuts = [line.amount for line in settlement.lines if line.seat == 0 and line.item == "cut"]
    assert sum(cuts) == -10_000
    assert paid(settlement, 0) == 10_600


def test_phom_three_eats_and_a_liable_u_tron() -> None:
    """Two seats: the next player eats three discards in a row (1 + 2 + 3) and goes Ù tròn; the
    discarder, liable for three eaten in a row, pays the Ù tròn's 10: 16 of the bound's 25
    (the bound allows every eat to be a chốt)."""
    from sanh.games.phom import Discard, Draw, Eat

    game = find_game("phom")
    config = TableConfig.make(seats=2, stake=100, stacks=[UNLIMITED] * 2)
    assert game.max_loss(config) == 2_500
    hands = ["7h 9h Kh 2s 4c 6d 8s 10c Qd", "5h 6h 8h 9s 9c Kd Kc 2d 10d"]
    shuffle = _deal(hands, DECK_52, extra="Ac", stock="Js Qs")
    state = game.apply(game.new_state(config), shuffle)
    card = parse_cards
    state = _script(
        game,
        state,
        [
            Discard(0, card("7h")[0]),
            Eat(1, card("7h")[0]),
            Discard(1, card("2d")[0]),
            Draw(0),
            Discard(0, card("9h")[0]),
            Eat(1, card("9h")[0]),
            Discard(1, card("10d")[0]),
            Draw(0),
            Discard(0, card("Kh")[0]),
            Eat(1, card("Kh")[0]),
        ],
    )
    assert state.outcome == "u_tron" and state.liable == 0
    assert paid(game.settle(state), 0) == 1_600


def test_ba_cay_chuong_banker_paying_two_tens_reaches_the_bound() -> None:
    """Three seats, both players bet 10 L and win with 10 points: the banker pays 2 × 2 × 10 L,
    the bound exactly."""
    from sanh.games._three_cards import Flip
    from sanh.games.ba_cay_chuong import Bet

    game = find_game("ba-cay-chuong")
    config = TableConfig.make(seats=3, stake=100, stacks=[UNLIMITED] * 3, carry={"banker": 0})
    bound = game.max_loss(config)
    assert bound == 4_000
    state = _script(game, game.new_state(config), [Bet(1, 1_000), Bet(2, 1_000)])
    state = game.apply(state, _deal(["As 2s 3s", "9d 8d 3d", "9h 7h 4h"], DECK_36))
    state = _script(game, state, [Flip(0), Flip(1), Flip(2)])
    assert paid(game.settle(state), 0) == bound


def test_ba_cay_ga_contributor_losing_reaches_the_bound() -> None:
    """A contributor who loses pays the gà and the stake: 2 L, the bound."""
    from sanh.games._three_cards import Flip, Ready, Start

    game = find_game("ba-cay-ga")
    config = TableConfig.make(seats=2, stake=100, stacks=[UNLIMITED] * 2)
    state = _script(game, game.new_state(config), [Ready(0), Ready(1), Start(0)])
    state = game.apply(state, _deal(["As 2s 3s", "9d 8d 3d"], DECK_36))
    state = _script(game, state, [Flip(0), Flip(1)])
    assert paid(game.settle(state), 0) == game.max_loss(config) == 200


def test_lieng_all_in_of_the_second_stack_reaches_the_bound() -> None:
    """No-limit Liêng, stacks 90 L and 50 L: the short stack goes all-in and wins; the richer
    seat loses 50 L, the second-largest stack (the bound is one unit more)."""
    from sanh.games.lieng import Call, Raise

    game = find_game("lieng")
    config = TableConfig.make(
        seats=2, stake=100, stacks=[9_000, 5_000], options={"lieng.raise_cap": 0}
    )
    assert game.max_loss(config) == 5_001
    state = game.apply(game.new_state(config), _deal(["2s 3c 5h", "As Ac Ad"], DECK_52))
    state = _script(game, state, [Call(0), Raise(1, 4_900), Call(0)])
    assert game.settle(state).deltas == (-5_000, 5_000)
