"""Texas Hold'em speed: complete 6-max no-limit hands per second, sanh against pokerkit.

Both engines play the same kind of hand in the same process, in alternating timed rounds (the
median round of each is reported, so that load from other processes hits both alike):
6 seats, blinds 1/2, every stack 400 (200 big blinds) at the start of each hand, standard
no-limit rules (``min_raise = standard``, ``max_raise = stack``, pokerkit's
``NoLimitTexasHoldem``), and the same random policy at every decision: uniformly one of fold
(only when facing a bet), check/call, and bet/raise (when allowed); a bet or raise amount is
uniform between the minimum and the maximum. Each engine deals its own random cards.

Paths measured:

* ``sanh fast path``: :func:`sanh.games.texas_holdem.start_hand` and the
  :class:`~sanh.games.texas_holdem.HandCore` methods, the unchecked path of STYLE.md §3
  (the same rules code the public API runs, without validation, history or frozen states);
* ``sanh public API``: ``TexasHoldem.new_state`` / ``apply`` with a ``Shuffle`` and validated
  actions, as the server drives it (for information);
* ``pokerkit``: pokerkit 0.7.7 ``NoLimitTexasHoldem.create_state`` with its dealing, showdown
  and payout automations, ``fold`` / ``check_or_call`` / ``complete_bet_or_raise_to``.

Before timing, sanh builds its seven-card lookup table (``_holdem_eval.prepare``, 0.8 s once;
otherwise it fills itself as hands are seen) and plays a few thousand warm-up hands; pokerkit
builds its lookup tables when imported.

It also times the Hold'em bot (:class:`sanh.bots.holdem.HoldemBot`): the median decision over
random 2-9 seat situations on every street.

Usage: ``python -m benchmarks.holdem [--seconds S] [--rounds R] [--bot-samples N] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from sanh.cards.deck import DECK_52
from sanh.cards.rng import SeededRng
from sanh.games._holdem_eval import prepare
from sanh.games.base import Shuffle, TableConfig
from sanh.games.texas_holdem import Call, Check, Fold, RaiseTo, TexasHoldem, start_hand

SEATS = 6
STACK = 400
WARMUP_HANDS = 3_000
"""Hands sanh plays before timing (after filling its evaluator table with ``prepare``)."""

_GAME = TexasHoldem()
_CONFIG = TableConfig.make(
    seats=SEATS,
    stake=1,
    stacks=[STACK] * SEATS,
    options={"holdem.min_raise": "standard", "holdem.max_raise": "stack"},
)
_PARAMS = _GAME.params(_CONFIG)


def sanh_fast_hands(count: int, rnd: random.Random) -> int:
    """Play ``count`` hands on the fast path; returns the number of decisions."""
    params = _PARAMS
    stacks = [STACK] * SEATS
    deck_template = list(range(52))
    draw = rnd.random
    decisions = 0
    for hand in range(count):
        deck = deck_template[:]
        for index in range(2 * SEATS + 5):  # a uniformly random deal (partial Fisher-Yates)
            other = index + int(draw() * (52 - index))
            deck[index], deck[other] = deck[other], deck[index]
        core = start_hand(params, stacks, hand % SEATS, deck)
        while core.queue:
            owed, low, high = core.choices()
            if owed:
                choice = int(draw() * (3 if low >= 0 else 2))
            else:
                choice = 1 + int(draw() * (2 if low >= 0 else 1))
            decisions += 1
            if choice == 0:
                core.fold()
            elif choice == 1:
                core.check_or_call()
            else:
                core.raise_to(low + int(draw() * (high - low + 1)))
    return decisions


def sanh_public_hands(count: int, rnd: random.Random) -> int:
    """Play ``count`` hands through the validated public API."""
    game = _GAME
    decisions = 0
    for hand in range(count):
        config = TableConfig(
            seats=SEATS,
            stake=1,
            stacks=_CONFIG.stacks,
            options=_CONFIG.options,
            host=hand % SEATS,
            clan_members=_CONFIG.clan_members,
        )
        state = game.new_state(config)
        deck = list(DECK_52)
        rnd.shuffle(deck)
        state = game.apply(state, Shuffle(tuple(deck)))
        while state.queue:
            seat = state.queue[0]
            owed = state.max_bet - state.bets[seat]
            ranges = game.amount_ranges(state)
            options: list[Any] = [Fold(seat)] if owed else []
            options.append(Call(seat) if owed else Check(seat))
            if ranges:
                options.append(ranges[0])
            choice = options[int(rnd.random() * len(options))]
            if not isinstance(choice, Fold | Call | Check):
                low, high = choice.min, choice.max
                choice = RaiseTo(seat, low + int(rnd.random() * (high - low + 1)))
            state = game.apply(state, choice)
            decisions += 1
    return decisions


def pokerkit_hands(count: int, rnd: random.Random) -> int:
    """Play ``count`` hands with pokerkit; returns the number of decisions."""
    from pokerkit import Automation, Mode, NoLimitTexasHoldem

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.RUNOUT_COUNT_SELECTION,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    decisions = 0
    for _ in range(count):
        state = NoLimitTexasHoldem.create_state(
            automations, False, 0, (1, 2), 2, (STACK,) * SEATS, SEATS, mode=Mode.CASH_GAME
        )
        while state.status:
            owed = state.checking_or_calling_amount
            can_raise = state.can_complete_bet_or_raise_to()
            if owed:
                choice = int(rnd.random() * (3 if can_raise else 2))
            else:
                choice = 1 + int(rnd.random() * (2 if can_raise else 1))
            decisions += 1
            if choice == 0:
                state.fold()
            elif choice == 1:
                state.check_or_call()
            else:
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                state.complete_bet_or_raise_to(low + int(rnd.random() * (high - low + 1)))
    return decisions


def _rate(
    play: Callable[[int, random.Random], int], seconds: float, rnd: random.Random, batch: int
) -> tuple[float, float]:
    """Hands per second and decisions per hand over at least ``seconds``."""
    hands = decisions = 0
    start = time.perf_counter()
    while True:
        decisions += play(batch, rnd)
        hands += batch
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return hands / elapsed, decisions / hands


def bot_decision_times(samples: int, seed: str = "bench-bot") -> list[float]:
    """Seconds per decision of the Hold'em bot over random situations (2-9 seats)."""
    from sanh.bots.holdem import HoldemBot
    from sanh.games.driver import chance_event, random_action

    rng = SeededRng(seed)
    bot = HoldemBot()
    times: list[float] = []
    while len(times) < samples:
        seats = 2 + rng.randbelow(8)
        config = TableConfig.make(seats=seats, stake=100, stacks=[40_000] * seats)
        state = _GAME.new_state(config)
        state = _GAME.apply(state, chance_event(_GAME, state, rng))
        while state.queue and len(times) < samples:
            seat = state.queue[0]
            view = _GAME.observe(state, seat)
            start = time.perf_counter()
            action = bot.act(view, rng)
            times.append(time.perf_counter() - start)
            # Half the time follow the bot, half a random legal action: varied situations.
            if rng.randbelow(2):
                action = random_action(_GAME, state, rng)
            state = _GAME.apply(state, action)
    return times


def run(seconds: float, rounds: int, bot_samples: int) -> dict[str, Any]:
    """Alternate timed rounds of each engine; report the median rates."""
    rnd = random.Random(20240601)
    prepare()  # the seven-card lookup table, built once (lazily filled otherwise)
    sanh_fast_hands(WARMUP_HANDS, rnd)
    pokerkit_hands(200, rnd)
    sanh_public_hands(200, rnd)
    fast: list[float] = []
    public: list[float] = []
    peer: list[float] = []
    lengths: dict[str, float] = {}
    for _ in range(rounds):
        rate, length = _rate(sanh_fast_hands, seconds, rnd, 2000)
        fast.append(rate)
        lengths["sanh fast path"] = length
        rate, length = _rate(pokerkit_hands, seconds, rnd, 50)
        peer.append(rate)
        lengths["pokerkit"] = length
        rate, length = _rate(sanh_public_hands, seconds, rnd, 100)
        public.append(rate)
        lengths["sanh public API"] = length
    times = sorted(bot_decision_times(bot_samples)) if bot_samples else []
    result: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "seconds_per_round": seconds,
        "rounds": rounds,
        "hands_per_second": {
            "sanh fast path": statistics.median(fast),
            "sanh public API": statistics.median(public),
            "pokerkit": statistics.median(peer),
        },
        "all_rounds": {"sanh fast path": fast, "sanh public API": public, "pokerkit": peer},
        "decisions_per_hand": lengths,
        "ratio_fast_to_pokerkit": statistics.median(fast) / statistics.median(peer),
        "ratio_public_to_pokerkit": statistics.median(public) / statistics.median(peer),
    }
    if times:
        result["bot"] = {
            "decisions": len(times),
            "median_ms": 1000 * statistics.median(times),
            "p90_ms": 1000 * times[int(0.9 * (len(times) - 1))],
            "max_ms": 1000 * times[-1],
        }
    return result


def main(argv: list[str] | None = None) -> int:
    """Run and print the Hold'em benchmark."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.holdem")
    parser.add_argument("--seconds", type=float, default=2.0, help="per engine per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--bot-samples", type=int, default=300)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args.seconds, args.rounds, args.bot_samples)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    rates = result["hands_per_second"]
    lengths = result["decisions_per_hand"]
    print("Texas Hold'em: complete 6-max no-limit hands with random legal actions")
    print(f"({result['rounds']} alternating rounds of {result['seconds_per_round']} s; medians)")
    print("| engine | hands/s | decisions/hand |")
    print("|---|---:|---:|")
    for name in ("sanh fast path", "sanh public API", "pokerkit"):
        print(f"| {name} | {rates[name]:,.0f} | {lengths[name]:.2f} |")
    print(f"sanh fast path / pokerkit: {result['ratio_fast_to_pokerkit']:.1f}x")
    print(f"sanh public API / pokerkit: {result['ratio_public_to_pokerkit']:.1f}x")
    if "bot" in result:
        bot = result["bot"]
        print(
            f"Hold'em bot: median {bot['median_ms']:.1f} ms, p90 {bot['p90_ms']:.1f} ms, "
            f"max {bot['max_ms']:.1f} ms over {bot['decisions']} decisions"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
