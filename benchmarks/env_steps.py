"""Steps per second of random play in the research environments (issue 16).

Run: ``.venv/bin/python -m benchmarks.env_steps [--seconds 2] [--games tien-len,texas-holdem]``.

For each game: uniformly random legal play (from the action mask) through the PettingZoo AEC
API (``env.last()`` then ``env.step``: an observation tensor and a mask built at every
decision), and through :class:`sanh.env.VectorEnv` (64 tables stepped per call, arrays in and
out). A step is one seat decision; chance events and the table's clock are not counted. Then
no-limit Hold'em side by side with RLCard 1.2 (when ``pip install rlcard`` has been run; it is
not a dependency). The load average is printed with the results: the machine is shared.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import sanh.env
from benchmarks._machine import machine_note
from sanh.games import all_games


def aec_steps(game_id: str, seats: int, seconds: float) -> tuple[float, float]:
    """(steps/s, hands/s) of random AEC play for about ``seconds``."""
    env = sanh.env.make(game_id, seats=seats)
    picker = np.random.default_rng(0)
    steps = hands = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(picker.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        hands += 1
    elapsed = time.perf_counter() - start
    return steps / elapsed, hands / elapsed


def vector_steps(
    game_id: str, seats: int, seconds: float, num_envs: int = 64, copy: bool = True
) -> float:
    """Steps/s of random play through a VectorEnv of ``num_envs`` tables (``copy=False``: the
    observations are the batched core's own buffer, as a loop that uses each one at once)."""
    venv = sanh.env.VectorEnv(game_id, num_envs=num_envs, seats=seats, copy=copy)
    _, mask, _ = venv.reset(seed=0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, mask, _, _, _ = venv.step(venv.sample(mask))
        steps += num_envs
    return steps / (time.perf_counter() - start)


def rlcard_steps(seats: int, seconds: float) -> float | None:
    """Steps/s of random play in RLCard's no-limit Hold'em (``None`` if it is not installed;
    it is not a dependency of sanh: ``pip install rlcard`` to compare)."""
    try:
        import rlcard  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    env = rlcard.make("no-limit-holdem", config={"seed": 0, "game_num_players": seats})
    picker = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"].keys())
            state, _ = env.step(legal[int(picker.integers(len(legal)))])
            steps += 1
    return steps / (time.perf_counter() - start)


OPENSPIEL_PROBE = """
import random, sys, time
import pyspiel
seats, seconds, tensors = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3] == "1"
blind = "100 50" if seats == 2 else " ".join(["50", "100"] + ["0"] * (seats - 2))
first = "2 1 1 1" if seats == 2 else "3 1 1 1"
game = pyspiel.load_game(
    f"universal_poker(betting=nolimit,numPlayers={seats},numRounds=4,blind={blind},"
    f"firstPlayer={first},numSuits=4,numRanks=13,numHoleCards=2,numBoardCards=0 3 1 1,"
    f"stack={' '.join(['20000'] * seats)})"
)
rnd = random.Random(0)
steps, start = 0, time.perf_counter()
while time.perf_counter() - start < seconds:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rnd.randrange(len(outcomes))][0])
            continue
        if tensors:
            state.information_state_tensor()
            state.legal_actions_mask()
        legal = state.legal_actions()
        state.apply_action(legal[rnd.randrange(len(legal))])
        steps += 1
print(steps / (time.perf_counter() - start))
"""
"""Random play in OpenSpiel's ``universal_poker`` (no-limit, blinds 50/100, 200 big blinds),
run by another interpreter that has ``open_spiel`` (``--openspiel PYTHON``); with tensors, each
decision also builds the seat's information-state tensor and legal-action mask, as an RL step."""


def openspiel_steps(python: str, seats: int, seconds: float, tensors: bool) -> float | None:
    """Steps/s of random play in OpenSpiel's universal_poker (``None`` if it fails)."""
    import subprocess

    done = subprocess.run(
        [python, "-c", OPENSPIEL_PROBE, str(seats), str(seconds), "1" if tensors else "0"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    return float(done.stdout) if done.returncode == 0 else None


def main(argv: list[str] | None = None) -> None:
    """Print a Markdown table of steps/s per game."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--games", default="", help="comma-separated ids (default: all)")
    parser.add_argument(
        "--openspiel", default="", help="a Python with open_spiel installed, to compare with"
    )
    args = parser.parse_args(argv)
    wanted = [g for g in args.games.split(",") if g]
    games = [g for g in all_games() if not wanted or g.info.id in wanted]
    print(f"Machine: {machine_note()}\n")
    print("| game | seats | AEC steps/s | AEC hands/s | VectorEnv(64) steps/s |")
    print("|---|---:|---:|---:|---:|")
    for game in games:
        seats = min(args.seats, game.info.seats_max)
        aec, hands = aec_steps(game.info.id, seats, args.seconds)
        vec = vector_steps(game.info.id, seats, args.seconds)
        print(f"| {game.info.id} | {seats} | {aec:,.0f} | {hands:,.1f} | {vec:,.0f} |", flush=True)
    print("\n| no-limit Hold'em, random play | seats | steps/s |")
    print("|---|---:|---:|")
    for seats in (2, 4):
        ours, _ = aec_steps("texas-holdem", seats, args.seconds)
        print(f"| sanh.env AEC | {seats} | {ours:,.0f} |")
        theirs = rlcard_steps(seats, args.seconds)
        shown = "not installed" if theirs is None else f"{theirs:,.0f}"
        print(f"| RLCard 1.2 `no-limit-holdem` | {seats} | {shown} |", flush=True)
        for tensors in (False, True) if args.openspiel else ():
            found = openspiel_steps(args.openspiel, seats, args.seconds, tensors)
            label = "with tensor and mask" if tensors else "state API only"
            shown = "failed" if found is None else f"{found:,.0f}"
            print(f"| OpenSpiel `universal_poker` ({label}) | {seats} | {shown} |", flush=True)
    for seats in (2, 4):
        print(f"\n| no-limit Hold'em, batched VectorEnv ({seats} seats) | tables | steps/s |")
        print("|---|---:|---:|")
        for num_envs, copy in ((1, True), (64, True), (1024, True), (4096, True),
                               (16384, True), (16384, False)):  # fmt: skip
            batched = vector_steps("texas-holdem", seats, args.seconds, num_envs, copy)
            how = "" if copy else ", copy=False"
            print(f"| sanh.env VectorEnv (batched core{how}) | {num_envs} | {batched:,.0f} |",
                  flush=True)  # fmt: skip
    theirs = rlcard_steps(4, args.seconds)
    shown = "not installed" if theirs is None else f"{theirs:,.0f}"
    print(f"| RLCard 1.2 `no-limit-holdem` (single env) | 1 | {shown} |", flush=True)
    print(f"\nAfter the run: {machine_note()}")


if __name__ == "__main__":
    main()
