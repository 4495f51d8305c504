"""The public engine API, side by side: this checkout against a base build, and pokerkit.

Each measurement runs in its own subprocess with its own import path, so the base build (by
default ``main``, exported with ``git archive`` into ``/tmp/speed-base``) and this checkout run
the very same driver code, alternately, round after round (load from other jobs hits both
alike). Workloads, all through the validated public API (``new_state`` / ``apply``):

* ``holdem-views``: complete 6-max no-limit Texas Hold'em hands (blinds 1/2, 200 big blinds
  each, the random policy of :mod:`benchmarks.holdem`), with one ``observe`` per seat after
  every event, as the server computes them;
* ``holdem``: the same hands without views;
* ``pokerkit``: the same hands with pokerkit 0.7.7 (its dealing, showdown and payout
  automations), the peer;
* ``tien-len`` and ``phom``: complete 4-player games with uniformly random legal seat actions
  (``legal_actions`` each turn, no leaving), from the shuffle to ``settle``.

Rates are per second of the worker's CPU time (``time.process_time``), which a shared machine
disturbs less than wall time; the wall-time rates are reported too. The median over the rounds
is the figure.

With ``--check HANDS`` it times nothing: it plays ``HANDS`` seeded random hands of every game on
both builds and compares a digest of everything they show (views, legal actions, amount ranges,
settlements, carries), so a speed-up is seen to change nothing.

Usage: ``python -m benchmarks.engines [--base DIR] [--ref main] [--seconds S] [--rounds R]
[--only NAME,...] [--json] [--check HANDS]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WORKLOADS = ("holdem-views", "holdem", "pokerkit", "tien-len", "phom")
SEATS = 6
STACK = 400


# ----- the workers (run in a subprocess, against whichever ``sanh`` is on the path) --------
def _holdem(seconds: float, views: bool) -> dict[str, Any]:
    from sanh.cards.deck import DECK_52
    from sanh.games._holdem_eval import prepare
    from sanh.games.base import Shuffle, TableConfig
    from sanh.games.texas_holdem import Call, Check, Fold, RaiseTo, TexasHoldem

    game = TexasHoldem()
    base = TableConfig.make(
        seats=SEATS,
        stake=1,
        stacks=[STACK] * SEATS,
        options={"holdem.min_raise": "standard", "holdem.max_raise": "stack"},
    )
    rnd = random.Random(20261203)
    observe = game.observe

    def play(count: int) -> int:
        events = 0
        for hand in range(count):
            config = TableConfig(
                seats=SEATS,
                stake=1,
                stacks=base.stacks,
                options=base.options,
                host=hand % SEATS,
                clan_members=base.clan_members,
            )
            state = game.new_state(config)
            deck = list(DECK_52)
            rnd.shuffle(deck)
            state = game.apply(state, Shuffle(tuple(deck)))
            if views:
                for seat in range(SEATS):
                    observe(state, seat)
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
                if views:
                    for seat in range(SEATS):
                        observe(state, seat)
            game.settle(state)
            events += len(state.history)
        return events

    prepare()
    play(300)
    return _timed(play, seconds, 20)


def _pokerkit(seconds: float) -> dict[str, Any]:
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
    rnd = random.Random(20261203)

    def play(count: int) -> int:
        events = 0
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
                events += 1
                if choice == 0:
                    state.fold()
                elif choice == 1:
                    state.check_or_call()
                else:
                    low = state.min_completion_betting_or_raising_to_amount
                    high = state.max_completion_betting_or_raising_to_amount
                    state.complete_bet_or_raise_to(low + int(rnd.random() * (high - low + 1)))
        return events

    play(20)
    return _timed(play, seconds, 5)


def _shedding(seconds: float, game_id: str) -> dict[str, Any]:
    from sanh.cards.rng import SeededRng
    from sanh.games import find_game
    from sanh.games.base import CHANCE, TableConfig
    from sanh.games.driver import chance_event

    game = find_game(game_id)
    rng = SeededRng(f"bench-engines/{game_id}")

    def play(count: int) -> int:
        events = 0
        for _ in range(count):
            state = game.new_state(TableConfig.make(seats=4))
            while (turn := game.to_act(state)) is not None:
                if turn is CHANCE:
                    state = game.apply(state, chance_event(game, state, rng))
                else:
                    actions = [
                        a
                        for a in game.legal_actions(state)
                        if a.seat is not None and type(a).__name__ != "DeclareSam"
                    ]
                    state = game.apply(state, actions[rng.randbelow(len(actions))])
            game.settle(state)
            events += len(state.history)
        return events

    play(5)
    return _timed(play, seconds, 5)


def digest(game_id: str, hands: int) -> dict[str, Any]:
    """A SHA-256 of everything a build shows over seeded random hands of ``game_id``: every
    view (each seat's and the spectator's), the legal actions and amount ranges at every step,
    the settlement and the carry; random legal actions, with a seat leaving now and then."""
    import hashlib

    from sanh.cards.rng import SeededRng
    from sanh.games import find_game
    from sanh.games.base import CHANCE, TableConfig
    from sanh.games.driver import chance_event, random_action

    game = find_game(game_id)
    info = game.info
    out = hashlib.sha256()
    rng = SeededRng(f"engines-check/{game_id}")
    for hand in range(hands):
        seats = min(max(2 + hand % (info.seats_max - 1), info.seats_min), info.seats_max)
        state = game.new_state(TableConfig.make(seats=seats, host=hand % seats))
        while (turn := game.to_act(state)) is not None:
            for viewer in (None, *range(seats)):
                out.update(repr(game.observe(state, viewer)).encode())
            out.update(repr((game.legal_actions(state), game.amount_ranges(state))).encode())
            if turn is CHANCE:
                event: Any = chance_event(game, state, rng)
            else:
                event = random_action(game, state, rng)
                if rng.randbelow(20) == 0:
                    leaving = game.default_action(state, rng.randbelow(seats), "leave")
                    event = leaving or event
            state = game.apply(state, event)
        for viewer in (None, *range(seats)):
            out.update(repr(game.observe(state, viewer)).encode())
        out.update(repr((game.settle(state), game.carry(state))).encode())
    return {"digest": out.hexdigest()}


def _timed(play: Any, seconds: float, batch: int) -> dict[str, Any]:
    games = events = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while True:
        events += play(batch)
        games += batch
        elapsed = time.perf_counter() - wall
        if elapsed >= seconds:
            return {
                "games": games,
                "events": events,
                "wall_s": elapsed,
                "cpu_s": time.process_time() - cpu,
            }


def worker(name: str, seconds: float) -> dict[str, Any]:
    """Run one workload in this process for about ``seconds``."""
    if name.startswith("check:"):
        result = digest(name[len("check:") :], int(seconds))
    elif name == "pokerkit":
        result = _pokerkit(seconds)
    elif name in ("holdem", "holdem-views"):
        result = _holdem(seconds, name == "holdem-views")
    else:
        result = _shedding(seconds, name)
    import sanh

    result["sanh"] = str(Path(sanh.__file__).parent.parent)
    return result


# ----- the driver ----------------------------------------------------------------------
def export_base(ref: str, target: Path) -> None:
    """Export ``ref`` of this repository into ``target`` with this checkout's C speedups."""
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    with tempfile.TemporaryFile() as archive:
        subprocess.run(["git", "archive", ref], cwd=ROOT, stdout=archive, check=True)
        archive.seek(0)
        with tarfile.open(fileobj=archive) as tar:
            tar.extractall(target, filter="data")
    for built in (ROOT / "sanh" / "eval").glob("*.so"):
        shutil.copy2(built, target / "sanh" / "eval" / built.name)


def run_worker(root: Path, name: str, seconds: float) -> dict[str, Any]:
    """One workload in a fresh interpreter importing ``sanh`` from ``root``."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    script = str(Path(__file__).resolve())
    out = subprocess.run(
        [sys.executable, script, "--worker", name, "--seconds", str(seconds)],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result: dict[str, Any] = json.loads(out)
    if Path(result["sanh"]).resolve() != root.resolve():
        raise RuntimeError(f"worker imported sanh from {result['sanh']}, not {root}")
    return result


def run(base: Path, seconds: float, rounds: int, only: tuple[str, ...]) -> dict[str, Any]:
    """Alternate the builds over ``rounds``; the median rates per workload and build."""
    builds = {"base": base, "branch": ROOT}
    samples: dict[str, dict[str, list[dict[str, Any]]]] = {}
    loads = [os.getloadavg()[0]]
    for index in range(rounds):
        for name in only:
            order = ("pokerkit",) if name == "pokerkit" else ("base", "branch")
            if index % 2:
                order = order[::-1]
            for build in order:
                root = ROOT if build == "pokerkit" else builds[build]
                sample = run_worker(root, name, seconds)
                samples.setdefault(name, {}).setdefault(build, []).append(sample)
                loads.append(os.getloadavg()[0])
    table: dict[str, dict[str, Any]] = {}
    for name, per_build in samples.items():
        for build, runs in per_build.items():
            table.setdefault(name, {})[build] = {
                "games_per_cpu_s": statistics.median(r["games"] / r["cpu_s"] for r in runs),
                "games_per_wall_s": statistics.median(r["games"] / r["wall_s"] for r in runs),
                "events_per_game": runs[0]["events"] / runs[0]["games"],
                "rounds": len(runs),
            }
    return {
        "seconds": seconds,
        "rounds": rounds,
        "load_average": {"min": min(loads), "max": max(loads)},
        "python": sys.version.split()[0],
        "results": table,
    }


def check(base: Path, hands: int) -> int:
    """Compare the digests of both builds for every game; 1 if any differs."""
    sys.path.insert(0, str(ROOT))
    from sanh.games import REGISTRY

    differ = 0
    for game_id in sorted(REGISTRY):
        old = run_worker(base, f"check:{game_id}", hands)["digest"]
        new = run_worker(ROOT, f"check:{game_id}", hands)["digest"]
        same = "same" if old == new else "DIFFERENT"
        differ += old != new
        print(f"{game_id}: {same} ({hands} hands, {new[:16]})")
    return 1 if differ else 0


def _report(result: dict[str, Any]) -> str:
    table = result["results"]
    load = result["load_average"]
    lines = [
        f"{result['rounds']} alternating rounds of {result['seconds']} s per build and workload; "
        f"medians; 1-minute load average {load['min']:.1f} to {load['max']:.1f} on "
        f"{os.cpu_count()} CPUs; Python {result['python']}",
        "",
        "| workload | base (main) | this branch | branch / base | base / pokerkit "
        "| branch / pokerkit |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    peer = table.get("pokerkit", {}).get("pokerkit", {}).get("games_per_cpu_s")
    if peer:
        lines.append(f"| pokerkit, 6-max NLHE hands | | | | | ({peer:,.0f} hands/s) |")
    for name in WORKLOADS:
        if name == "pokerkit" or name not in table:
            continue
        old = table[name].get("base", {}).get("games_per_cpu_s")
        new = table[name].get("branch", {}).get("games_per_cpu_s")
        if old is None or new is None:
            continue
        unit = "hands/s" if name.startswith("holdem") else "games/s"
        holdem = name.startswith("holdem") and peer
        lines.append(
            f"| {name} | {old:,.0f} {unit} | {new:,.0f} {unit} | {new / old:.1f}x | "
            + (f"{old / peer:.1f}x | {new / peer:.1f}x |" if holdem else "| |")
        )
    lines.append("")
    lines.append("Rates per CPU-second of the worker; wall-clock rates (same runs):")
    for name, per_build in table.items():
        walls = ", ".join(f"{b} {v['games_per_wall_s']:,.0f}/s" for b, v in per_build.items())
        events = next(iter(per_build.values()))["events_per_game"]
        lines.append(f"- {name}: {walls} ({events:.1f} events a game)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the side-by-side engine benchmark (or, with ``--worker``, one workload)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.engines")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--base", type=Path, default=Path("/tmp/speed-base"))
    parser.add_argument("--ref", default="main", help="the base build's git ref")
    parser.add_argument("--reuse-base", action="store_true", help="do not re-export the base")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default=",".join(WORKLOADS))
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--check",
        type=int,
        metavar="HANDS",
        help="instead of timing: compare what both builds show over HANDS random hands a game",
    )
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.worker, args.seconds)))
        return 0
    if not (args.reuse_base and args.base.exists()):
        export_base(args.ref, args.base)
    if args.check:
        return check(args.base, args.check)
    only = tuple(name for name in args.only.split(",") if name)
    result = run(args.base, args.seconds, args.rounds, only)
    print(json.dumps(result, indent=1) if args.json else _report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
