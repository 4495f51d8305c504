"""Table leases with fencing tokens (sanh/cluster/leases.py) on PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sanh.cluster.leases import (
    Lease,
    LeaseFence,
    LeaseKeeper,
    LeaseLost,
    Leases,
    wait_until_expired,
)
from sanh.ledger import Ledger
from sanh.ledger.model import ISSUER, AccountSpec, Transfer, TransferCode, player_account
from sanh.ledger.settle import buy_in
from sanh.ledger.store import LedgerStore, open_store
from sanh.server.eventlog import EventLog

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def store(pg_url: str) -> Iterator[LedgerStore]:
    opened = open_store(pg_url)
    yield opened
    opened.close()


def _rows(store: LedgerStore, table: str) -> list[tuple[int, str]]:
    with store.read() as tx:
        return [
            (int(seq), str(payload))
            for seq, payload in tx.execute(
                "SELECT seq, payload FROM table_events WHERE table_id = ? ORDER BY seq", (table,)
            )
        ]


def test_acquire_renew_release_and_steal_change_the_token_only_with_the_owner(
    store: LedgerStore, pg_url: str
) -> None:
    other_store = open_store(pg_url)
    a = Leases(store, "node-a", ttl_ms=300)
    b = Leases(other_store, "node-b", ttl_ms=300)
    first = a.acquire("t1")
    assert first is not None and first.token == 1 and 0 < first.remaining_ms <= 300
    assert b.acquire("t1") is None  # held
    assert a.acquire("t1") is None  # held, by a itself: renew instead
    renewed = a.renew(first)
    assert renewed is not None and renewed.token == 1
    assert b.steal_expired() == []  # not expired yet
    wait_until_expired(a, "t1")
    stolen = b.steal_expired()
    assert [(lease.table, lease.owner, lease.token) for lease in stolen] == [("t1", "node-b", 2)]
    assert a.renew(first) is None  # a's token is not current any more
    assert not a.release(first)
    assert b.release(stolen[0])
    again = a.acquire("t1")  # released: free for anyone, with a new token
    assert again is not None and again.token == 3
    status = {row.table: row for row in a.status()}
    assert status["t1"].owner == "node-a" and status["t1"].token == 3
    other_store.close()


def test_the_database_refuses_a_lower_token_a_silent_hand_over_and_deletes(
    store: LedgerStore,
) -> None:
    import psycopg

    leases = Leases(store, "node-a")
    assert leases.acquire("t1") is not None
    for statement in (
        "UPDATE table_leases SET token = 0 + 1 - 1 + token - 1 WHERE table_id = 't1'",
        "UPDATE table_leases SET owner = 'node-z' WHERE table_id = 't1'",
        "DELETE FROM table_leases WHERE table_id = 't1'",
    ):
        with pytest.raises(psycopg.Error), store.write() as tx:
            tx.execute(statement)
    assert [(row.owner, row.token) for row in leases.status()] == [("node-a", 1)]


def _spawn(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.cluster.workers", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )


def test_processes_racing_for_one_lease_one_wins_each_time_and_tokens_grow(
    store: LedgerStore, pg_url: str, tmp_path: Path
) -> None:
    """Six processes race for the same lease twelve times: one winner per round, whose token
    is one more than the last one."""
    workers, rounds = 6, 12
    procs = [
        _spawn("race", pg_url, f"n{i}", "hot", str(rounds), str(tmp_path)) for i in range(workers)
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None
            assert "ready" in json.loads(proc.stdout.readline())
        tokens = []
        for r in range(rounds):
            (tmp_path / f"go-{r}").touch()
            answers = []
            for proc in procs:
                assert proc.stdout is not None
                answers.append(json.loads(proc.stdout.readline()))
            assert {a["round"] for a in answers} == {r}
            winners = [a for a in answers if a["token"] is not None]
            assert len(winners) == 1, answers
            tokens.append(winners[0]["token"])
            # Hand the lease back as its winner, for the next round.
            held = [row for row in Leases(store, "x").status() if row.table == "hot"]
            assert held[0].owner == winners[0]["node"] and held[0].token == tokens[-1]
            lease = Lease("hot", winners[0]["node"], tokens[-1], held[0].expires_at, 0)
            assert Leases(store, winners[0]["node"]).release(lease)
        assert tokens == list(range(1, rounds + 1))
    finally:
        for proc in procs:
            proc.wait(30)
            if proc.stdout is not None:
                proc.stdout.close()


def test_threads_stealing_an_expired_lease_at_once_take_it_once(pg_url: str) -> None:
    import threading

    owner_store = open_store(pg_url)
    owner = Leases(owner_store, "dead", ttl_ms=50)
    for table in ("a", "b", "c"):
        assert owner.acquire(table) is not None
    wait_until_expired(owner, "c")
    stores = [open_store(pg_url) for _ in range(5)]
    barrier = threading.Barrier(len(stores))
    taken: list[tuple[str, str, int]] = []

    def steal(index: int) -> None:
        leases = Leases(stores[index], f"s{index}", ttl_ms=60_000)
        barrier.wait()
        for lease in leases.steal_expired():
            taken.append((lease.table, lease.owner, lease.token))

    threads = [threading.Thread(target=steal, args=(i,)) for i in range(len(stores))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(table for table, _, _ in taken) == ["a", "b", "c"]
    assert all(token == 2 for _, _, token in taken)
    status = {row.table: row for row in owner.status()}
    for table, node, token in taken:
        assert (status[table].owner, status[table].token) == (node, token)
    for opened in [owner_store, *stores]:
        opened.close()


def test_the_fence_refuses_the_event_rows_of_a_lost_table_and_keeps_the_others(
    store: LedgerStore, pg_url: str
) -> None:
    other_store = open_store(pg_url)
    a = Leases(store, "node-a", ttl_ms=100)
    b = Leases(other_store, "node-b", ttl_ms=60_000)
    fence = LeaseFence("node-a")
    for table in ("t1", "t2"):
        lease = a.acquire(table)
        assert lease is not None
        fence.grant(lease)
    events = EventLog(store, threaded=False, fence=fence)

    async def write(table: str, seq: int) -> None:
        events.append(table, 1, seq, json.dumps({"seq": seq}))
        await events.sync(table)

    asyncio.run(write("t1", 1))
    asyncio.run(write("t2", 1))
    wait_until_expired(a, "t2")  # t2 was taken last
    # Both expired (nobody renewed them): node-b takes both over.
    assert [lease.table for lease in b.steal_expired()] == ["t1", "t2"]
    events.append("t1", 1, 2, "{}")
    events.append("t2", 1, 2, "{}")
    with pytest.raises(LeaseLost) as refused:
        asyncio.run(events.sync("t1"))
    assert refused.value.table == "t1" and refused.value.current == 2
    assert refused.value.owner == "node-b"
    assert events.rows_refused == 2 and set(events.lost) == {"t1", "t2"}
    assert _rows(store, "t1") == [(1, '{"seq": 1}')]
    assert _rows(store, "t2") == [(1, '{"seq": 1}')]
    # A table this process never leased is refused too; one it holds again is written.
    fence_b = LeaseFence("node-b")
    t3 = b.acquire("t3")
    assert t3 is not None
    fence_b.grant(t3)
    events_b = EventLog(other_store, threaded=False, fence=fence_b)
    events_b.append("t3", 1, 1, "{}")
    events_b.append("t1", 1, 3, "{}")  # node-b holds t1 but was never granted it here
    with pytest.raises(LeaseLost):
        asyncio.run(events_b.sync())
    assert _rows(other_store, "t3") == [(1, "{}")] and _rows(other_store, "t1") == [
        (1, '{"seq": 1}')
    ]
    events.close()
    events_b.close()
    other_store.close()


def test_a_hold_through_the_fence_hook_is_not_applied_once_the_lease_is_lost(
    pg_url: str,
) -> None:
    with Ledger.open(pg_url) as ledger:
        wallet = player_account(7)
        ledger.submit(
            [Transfer.single("grant:7", ISSUER, wallet, 10_000, TransferCode.GRANT)],
            accounts=[AccountSpec(wallet)],
        )
        a = Leases(ledger.store, "node-a", ttl_ms=100)
        fence = LeaseFence("node-a")
        lease = a.acquire("t9")
        assert lease is not None
        fence.grant(lease)

        def hold(n: int) -> Transfer:
            return Transfer.hold(
                f"t9:h{n}:hold:7", wallet, "escrow:t9", 500, TransferCode.STAKE_HOLD
            )

        ledger.submit([hold(1)], accounts=[AccountSpec("escrow:t9")], on_apply=fence.hook("t9"))
        assert ledger.account(wallet).available == 9_500  # type: ignore[union-attr]
        other = open_store(pg_url)
        wait_until_expired(a, "t9")
        assert Leases(other, "node-b").steal_expired()
        with pytest.raises(LeaseLost):
            ledger.submit([hold(2)], on_apply=fence.hook("t9"))
        assert ledger.account(wallet).available == 9_500  # type: ignore[union-attr]
        with pytest.raises(LeaseLost):
            buy_in(
                ledger,
                table_id="t9",
                player_id=7,
                amount=1_000,
                transfer_id="t9:buy:7",
                on_apply=fence.hook("t9"),
            )
        assert ledger.get_transfer("t9:buy:7") is None
        assert ledger.account(wallet).available == 9_500  # type: ignore[union-attr]
        assert (
            not ledger.batch_exists("t9:h2:hold:7") and ledger.get_transfer("t9:h2:hold:7") is None
        )
        other.close()


def test_a_paused_owner_that_wakes_after_a_takeover_never_writes_again(
    store: LedgerStore, pg_url: str, tmp_path: Path
) -> None:
    """SIGSTOP a writer past its lease, steal the lease and write, SIGCONT it: every write it
    tries is refused, and nothing it wrote after the takeover is in the database."""
    out = tmp_path / "writer.log"
    child = _spawn("fenced", pg_url, "node-a", "tbl", "800", str(out))
    try:
        assert child.stdout is not None
        assert child.stdout.readline().split() == ["ready", "1"]
        deadline = time.monotonic() + 30
        while out.read_text().count("ok ") < 30:
            assert time.monotonic() < deadline and child.poll() is None
            time.sleep(0.02)
        os.kill(child.pid, signal.SIGSTOP)
        b = Leases(store, "node-b", ttl_ms=60_000)
        wait_until_expired(b, "tbl")
        stolen = []
        while not stolen:
            assert time.monotonic() < deadline + 30
            stolen = b.steal_expired(lock_timeout_ms=5000)
        assert [(lease.table, lease.token) for lease in stolen] == [("tbl", 2)]
        before = _rows(store, "tbl")
        fence = LeaseFence("node-b")
        fence.grant(stolen[0])
        events = EventLog(store, threaded=False, fence=fence)
        start = max(seq for seq, _ in before) + 1000
        for seq in range(start, start + 5):
            events.append("tbl", 1, seq, json.dumps({"writer": "node-b", "i": seq}))
        asyncio.run(events.sync("tbl"))
        paused_log = out.read_text().splitlines()
        os.kill(child.pid, signal.SIGCONT)
        assert child.wait(60) == 0
    finally:
        if child.poll() is None:
            os.kill(child.pid, signal.SIGCONT)
            child.kill()
            child.wait()
        if child.stdout is not None:
            child.stdout.close()
    after = _rows(store, "tbl")
    mine = [seq for seq, payload in after if json.loads(payload)["writer"] == "node-a"]
    # Nothing of node-a's was added after the takeover ...
    assert mine == [seq for seq, payload in before if json.loads(payload)["writer"] == "node-a"]
    assert [seq for seq, _ in after if seq >= start] == list(range(start, start + 5))
    # ... and every write it tried after waking was refused by the fence.
    lines = out.read_text().splitlines()
    woken = lines[len(paused_log) :]
    written = [line for line in woken if line.startswith("ok ")]
    lost = [line for line in woken if line.startswith("lost ")]
    assert len(lost) == 5
    # At most the write in flight at the pause went through: it committed before the steal.
    assert len(written) <= 1
    assert all(int(line.split()[1]) in mine for line in written)
    assert "renew-lost" in "\n".join(woken)
    ok_seqs = [int(line.split()[1]) for line in lines if line.startswith("ok ")]
    assert ok_seqs == mine  # it was told "ok" for exactly the rows that are stored
    events.close()


def test_the_group_writer_thread_refuses_a_lost_table_and_commits_the_others(
    store: LedgerStore, pg_url: str
) -> None:
    """The server's path (a writer thread, many tables per transaction): the waiters of a
    lost table get LeaseLost, those of the others are answered once their rows are stored."""
    other_store = open_store(pg_url)
    a = Leases(store, "node-a", ttl_ms=60_000)
    fence = LeaseFence("node-a")
    for table in ("kept1", "kept2", "gone"):
        lease = a.acquire(table)
        assert lease is not None
        fence.grant(lease)
    events = EventLog(store, threaded=True, fence=fence)
    fence.revoke("gone")  # as when this node learns it lost the lease

    async def tables() -> dict[str, str]:
        async def table(name: str) -> str:
            try:
                for seq in range(1, 11):
                    events.append(name, 1, seq, "{}")
                    await events.sync(name)
            except LeaseLost as error:
                return f"lost {error.table}"
            return "ok"

        names = ("kept1", "kept2", "gone")
        answers = await asyncio.gather(*(table(name) for name in names))
        return dict(zip(names, answers, strict=True))

    assert asyncio.run(tables()) == {"kept1": "ok", "kept2": "ok", "gone": "lost gone"}
    events.close()
    assert [seq for seq, _ in _rows(other_store, "kept1")] == list(range(1, 11))
    assert [seq for seq, _ in _rows(other_store, "kept2")] == list(range(1, 11))
    assert _rows(other_store, "gone") == []
    assert events.rows_refused >= 1 and set(events.lost) == {"gone"}
    other_store.close()


def test_a_keeper_renews_its_leases_until_it_stops_and_then_reports_their_loss(
    store: LedgerStore, pg_url: str
) -> None:
    other_store = open_store(pg_url)
    fence = LeaseFence("node-a")
    lost: list[str] = []
    keeper = LeaseKeeper(Leases(store, "node-a", ttl_ms=300), fence, on_lost=lost.append)
    assert keeper.take("k1") is not None and keeper.take("k2") is not None
    b = Leases(other_store, "node-b", ttl_ms=60_000)

    async def keep_for(seconds: float) -> None:
        task = asyncio.create_task(keeper.run())
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            assert b.steal_expired() == []  # renewed in time: nothing to take
            await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(keep_for(1.2))  # four TTLs
    assert keeper.renewals >= 4 and lost == []
    wait_until_expired(b, "k2")
    assert sorted(lease.table for lease in b.steal_expired()) == ["k1", "k2"]
    assert sorted(keeper.renew_once()) == ["k1", "k2"] and sorted(lost) == ["k1", "k2"]
    assert fence.token("k1") is None and keeper.held == {}
    # Handing over gracefully: released, and free at once for another node.
    assert keeper.take("k3") is not None and keeper.release("k3")
    taken = b.acquire("k3")
    assert taken is not None and taken.token == 2
    other_store.close()


def test_a_keeper_cut_off_from_postgresql_stops_writing_after_one_ttl(pg_url: str) -> None:
    """Renewals that fail (the connection is gone) keep the leases for at most one TTL: then
    the keeper revokes them from its fence, about when the database lets another node take them."""
    cut = open_store(pg_url)
    fence = LeaseFence("node-a")
    lost: list[str] = []
    keeper = LeaseKeeper(Leases(cut, "node-a", ttl_ms=300), fence, on_lost=lost.append)
    assert keeper.take("c1") is not None
    cut.close()  # as if the network to PostgreSQL were cut
    assert keeper.renew_once() == [] and fence.token("c1") == 1  # within the TTL: kept
    time.sleep(0.35)
    assert keeper.renew_once() == ["c1"] and lost == ["c1"]
    assert fence.token("c1") is None and keeper.held == {}
