"""Benchmarks of the shedding games (issue 4): legal-play generation and whole games per second.

Run: ``.venv/bin/python -m benchmarks.bench_shedding [--quick]``. Results go in BENCHMARKS.md.

* Legal-play generation: a full hand (13 cards for Tiến lên, 10 for Sâm) against a play drawn
  from every legal play of another random hand (every kind and size appears), and leading.
  Each (hand, table) pair is timed over repeated calls; the median of the per-pair means is
  the figure the issue asks for (target: under 100 µs for Tiến lên).
* Complete games: 4-player hands played to the end through the public engine API (every
  action validated), with uniformly random legal seat actions (no leaving, no Sâm
  declaration), and with the heuristic bots in every seat (each bot reads its seat's view).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from sanh.bots import bot_for
from sanh.cards.deck import DECK_52
from sanh.cards.rng import SeededRng, shuffled
from sanh.eval.combos import SAM, TIEN_LEN, Family
from sanh.games import find_game
from sanh.games.base import CHANCE, Game, TableConfig
from sanh.games.driver import chance_event
from sanh.games.sam_loc import DeclareSam


def generation(family: Family, size: int, pairs: int, repeat: int) -> dict[str, float]:
    """Per-call generation time in µs: median, 90th percentile and max over (hand, table)
    pairs, answering and leading."""
    rng = SeededRng(f"bench/{family.name}")
    answer: list[float] = []
    lead: list[float] = []
    counts: list[int] = []
    for _ in range(pairs):
        deck = shuffled(DECK_52, rng)
        hand, other = deck[:size], deck[size : 2 * size]
        tables = family.plays(other)
        table = tables[rng.randbelow(len(tables))]
        start = time.perf_counter_ns()
        for _ in range(repeat):
            plays = family.plays(hand, table)
        answer.append((time.perf_counter_ns() - start) / repeat / 1000)
        counts.append(len(plays))
        start = time.perf_counter_ns()
        for _ in range(repeat):
            family.plays(hand)
        lead.append((time.perf_counter_ns() - start) / repeat / 1000)
    answer.sort()
    lead.sort()
    return {
        "answer_median_us": statistics.median(answer),
        "answer_p90_us": answer[int(0.9 * len(answer))],
        "answer_max_us": answer[-1],
        "lead_median_us": statistics.median(lead),
        "lead_max_us": lead[-1],
        "mean_plays_answering": statistics.mean(counts),
    }


def random_seat_action(game: Game[Any], state: Any, rng: SeededRng) -> Any:
    """A uniformly random legal seat action; Sâm is never declared (a random declarer fails at
    once, which would make the Sâm figure meaningless)."""
    actions = [
        a for a in game.legal_actions(state) if a.seat is not None and not isinstance(a, DeclareSam)
    ]
    return actions[rng.randbelow(len(actions))]


def games_per_second(
    game: Game[Any], games: int, policy: Callable[[Game[Any], Any, SeededRng], Any]
) -> tuple[float, float]:
    """Complete 4-player hands per second, and the mean number of events per hand."""
    rng = SeededRng(f"bench-games/{game.info.id}")
    events = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_state(TableConfig.make(seats=4))
        while (turn := game.to_act(state)) is not None:
            if turn is CHANCE:
                state = game.apply(state, chance_event(game, state, rng))
            else:
                state = game.apply(state, policy(game, state, rng))
        game.settle(state)
        events += len(state.history)
    elapsed = time.perf_counter() - start
    return games / elapsed, events / games


def bot_policy(game: Game[Any], state: Any, rng: SeededRng) -> Any:
    turn = game.to_act(state)
    assert isinstance(turn, tuple)
    seat = turn[0]
    return bot_for(game.info.id).act(game.observe(state, seat), rng)


def main() -> None:
    """Run every benchmark and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    args = parser.parse_args()
    pairs, repeat, games = (200, 20, 100) if args.quick else (2000, 50, 1000)
    print("| measure | Tiến lên (13 cards) | Sâm (10 cards) |")
    print("|---|---|---|")
    tl = generation(TIEN_LEN, 13, pairs, repeat)
    sam = generation(SAM, 10, pairs, repeat)
    for key in tl:
        print(f"| {key} | {tl[key]:.1f} | {sam[key]:.1f} |")
    for label, policy in (
        ("random legal play", random_seat_action),
        ("heuristic bots", bot_policy),
    ):
        rates = []
        for game_id in ("tien-len", "sam-loc"):
            rate, length = games_per_second(find_game(game_id), games, policy)
            rates.append(f"{rate:,.0f} games/s ({length:.0f} events/game)")
        print(f"| 4-player games, {label} | {rates[0]} | {rates[1]} |")


if __name__ == "__main__":
    main()
