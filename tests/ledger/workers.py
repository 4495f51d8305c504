"""Subprocesses for the concurrency and crash tests: ``python -m tests.ledger.workers ...``.

``concurrent URL WORKER OPS GO_FILE``
    waits for GO_FILE, then submits OPS random batches over the shared accounts; every other
    batch is a *shared* one, which both workers submit with the same ids and contents. Prints
    one JSON line per shared batch: ``{"id": ..., "code": ...}``.
``stream URL SEED``
    settles :func:`stream_settlement` ``0, 1, 2, ...`` for ever, in groups; prints the number of
    settlements committed after each group. Restarted after a kill, it replays from 0: what was
    applied answers ``EXISTS``.
"""

from __future__ import annotations

import json
import os
import sys
import time

from sanh.cards.rng import SeededRng
from sanh.games.base import Settlement
from sanh.ledger import Batch, Ledger, Transfer, TransferCode, player_account
from sanh.ledger.settle import SeatAccount, settlement_batch

SHARED_PLAYERS = 5
"""Accounts ``player:c0`` .. ``player:c4`` of the concurrency test."""
STREAM_PLAYERS = 8
STREAM_GROUP = 25


def shared_account(index: int) -> str:
    return player_account(f"c{index}")


def random_batch(rng: SeededRng, prefix: str) -> list[Transfer]:
    """One to three transfers between the shared accounts."""
    transfers = []
    for n in range(1 + rng.randbelow(3)):
        debit = rng.randbelow(SHARED_PLAYERS)
        credit = (debit + 1 + rng.randbelow(SHARED_PLAYERS - 1)) % SHARED_PLAYERS
        amount = 1 + rng.randbelow(400)
        transfers.append(
            Transfer.single(
                f"{prefix}:{n}",
                shared_account(debit),
                shared_account(credit),
                amount,
                TransferCode.TRANSFER,
            )
        )
    return transfers


def concurrent(url: str, worker: int, ops: int, go_file: str) -> None:
    with Ledger.open(url) as ledger:
        print("ready", flush=True)
        while not os.path.exists(go_file):
            time.sleep(0.001)
        own = SeededRng(f"worker-{worker}")
        for op in range(ops):
            if op % 2:
                batch = random_batch(SeededRng(f"shared-{op}"), f"shared{op}")
                result = ledger.submit(batch)
                print(json.dumps({"id": f"shared{op}", "code": result.code.value}), flush=True)
            else:
                ledger.submit(random_batch(own, f"w{worker}-{op}"))


def stream_settlement(seed: str, number: int) -> tuple[Settlement, tuple[int, ...]]:
    """The settlement of hand ``number`` of a stream, and its seats' players."""
    rng = SeededRng(f"{seed}:{number}")
    seats = 2 + rng.randbelow(4)
    pool = list(range(STREAM_PLAYERS))
    players = tuple(pool.pop(rng.randbelow(len(pool))) for _ in range(seats))
    deltas = [rng.randbelow(501) - 250 for _ in range(seats)]
    fee = rng.randbelow(10)
    house = -(sum(deltas) + fee)
    return Settlement(tuple(deltas), house=house, fee=fee), players


def stream_batch(seed: str, number: int) -> Batch:
    settlement, players = stream_settlement(seed, number)
    return settlement_batch(
        settlement,
        settlement_id=f"s{number}",
        table_id=f"t{number % 3}",
        seats=[SeatAccount(player_account(p)) for p in players],
    )


def stream(url: str, seed: str) -> None:
    with Ledger.open(url) as ledger:
        number = 0
        while True:
            batches = [stream_batch(seed, number + k) for k in range(STREAM_GROUP)]
            results = ledger.submit_many(batches)
            assert all(result.ok for result in results), [str(r) for r in results]
            number += STREAM_GROUP
            print(number, flush=True)


def main(argv: list[str]) -> None:
    command, url, *rest = argv
    if command == "concurrent":
        concurrent(url, int(rest[0]), int(rest[1]), rest[2])
    elif command == "stream":
        stream(url, rest[0])
    else:
        raise SystemExit(f"unknown worker command {command!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
