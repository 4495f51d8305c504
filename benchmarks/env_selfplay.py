"""A small policy trained in sanh.env (NumPy only) for Tiến lên, measured against random play.

Run: ``.venv/bin/python -m benchmarks.env_selfplay [--hands 1500] [--eval 400] [--seed 0]``.

The policy is linear: logits = observation @ W + b over the 1,002 action ids, masked to the
legal ids, softmax. It is trained by REINFORCE (the hand's final reward in stakes, minus a
running baseline, on every decision of the learner's seat) in two-seat hands against the
uniformly random policy, the learner's seat alternating. Then it plays ``--eval`` fresh seeded
hands per seat against random play, and the mean reward per hand is printed with its 95 %
confidence interval, beside the untrained (zero-weight, i.e. uniform) policy on the same hands.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import numpy.typing as npt

import sanh.env
from benchmarks._machine import machine_note


class LinearPolicy:
    """Masked softmax over ``obs @ W + b``."""

    def __init__(self, obs_size: int, actions: int) -> None:
        self.w = np.zeros((obs_size, actions), dtype=np.float64)
        self.b = np.zeros(actions, dtype=np.float64)

    def probabilities(
        self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]
    ) -> npt.NDArray[np.float64]:
        logits = obs @ self.w + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()


def play(
    env: sanh.env.SanhEnv,
    policy: LinearPolicy,
    learner: str,
    seed: int,
    rng: np.random.Generator,
    trace: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], int]] | None = None,
) -> float:
    """One hand: ``learner`` samples from ``policy``, the other seat plays uniformly."""
    env.reset(seed=seed)
    total = 0.0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if agent == learner:
            total += reward
        if terminated or truncated:
            env.step(None)
            continue
        mask = obs["action_mask"]
        if agent == learner:
            p = policy.probabilities(obs["observation"], mask)
            action = int(rng.choice(len(p), p=p))
            if trace is not None:
                trace.append((obs["observation"], mask, action))
        else:
            action = int(rng.choice(np.flatnonzero(mask)))
        env.step(action)
    return total


def evaluate(
    env: sanh.env.SanhEnv, policy: LinearPolicy, hands: int, seed: int
) -> tuple[float, float]:
    rng = np.random.default_rng(seed)
    rewards = [
        play(env, policy, f"player_{seat}", seed + h, rng) for h in range(hands) for seat in (0, 1)
    ]
    data = np.asarray(rewards)
    return float(data.mean()), 1.96 * float(data.std(ddof=1)) / np.sqrt(len(data))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=1500, help="training hands")
    parser.add_argument("--eval", type=int, default=400, help="evaluation hands per seat")
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    env = sanh.env.make("tien-len", seats=2)
    size = env.table.encoder.size
    policy = LinearPolicy(size, env.table.codec.size)
    untrained = LinearPolicy(size, env.table.codec.size)
    rng = np.random.default_rng(args.seed)
    baseline = 0.0
    start = time.perf_counter()
    for h in range(args.hands):
        trace: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], int]] = []
        reward = play(env, policy, f"player_{h % 2}", 10_000_000 + h, rng, trace)
        advantage = reward - baseline
        baseline += 0.02 * (reward - baseline)
        for obs, mask, action in trace:
            p = policy.probabilities(obs, mask)
            grad = -p
            grad[action] += 1.0
            step = args.lr * advantage / max(len(trace), 1)
            policy.w += step * np.outer(obs, grad)
            policy.b += step * grad
    trained_s = time.perf_counter() - start
    print(f"Machine: {machine_note()}\n")
    print(f"Trained {args.hands} hands in {trained_s:.0f} s (learning rate {args.lr}).\n")
    print("| Tiến lên, 2 seats, against random play | hands | mean reward ± 95 % CI (stakes) |")
    print("|---|---:|---:|")
    mean, half = evaluate(env, untrained, args.eval, seed=args.seed + 1)
    print(f"| untrained (uniform) policy | {2 * args.eval} | {mean:+.3f} ± {half:.3f} |")
    mean, half = evaluate(env, policy, args.eval, seed=args.seed + 1)
    print(f"| trained linear policy | {2 * args.eval} | {mean:+.3f} ± {half:.3f} |", flush=True)


if __name__ == "__main__":
    main()
