"""One node of a cluster: a hall process whose tables are leased, listed and taken over.

``sanh serve --node NAME --redis redis://... --db postgresql://...`` makes the hall a node
(:class:`ClusterNode`, the hall's :class:`~sanh.server.hall.Placement`):

* **Claim.** The hall opens a table only after this node took its lease
  (:meth:`ClusterNode.claim`); a table whose lease a live node holds raises
  :class:`~sanh.server.hall.TableElsewhere` and stays that node's. The lease's fencing token
  is granted to the event log's fence, so every write of the table (log rows, holds,
  settlements, voids) checks it inside its own transaction.
* **List.** Every half second the node publishes its tables' lobby entries to the bus
  (:class:`~sanh.cluster.bus.Bus`), each with the WebSocket URL a client must follow to play
  it, and routes them to itself. The hall's lobby merges the other live nodes' entries.
* **Redirect.** A client on this node that names a table another node plays gets ``moved``
  with that node's URL and reconnects there (the web client follows by itself).
* **Take over.** Every third of a lease's TTL the node looks for open tables (``hall_tables``)
  whose lease is free or expired (their node died, froze or was cut off), takes each lease with
  a new token and rebuilds the table from its event log: the recovery path a restart takes.
* **Lose.** A lease found lost at a renewal (another node took it over while this one was
  paused or cut off), or a write the fence refused, drops the table here at once: its actor
  stops, its watchers get ``moved`` (they rejoin and are sent on to the new owner), and its
  entry leaves the lobby. The fence already refused every write it tried meanwhile.
* **Stop.** A graceful stop stops the tables and releases their leases, so the other nodes
  take them over within a third of a TTL instead of a whole one.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import threading
import time
from typing import TYPE_CHECKING, Any

from sanh.cluster.bus import Bus
from sanh.cluster.leases import LeaseFence, LeaseKeeper, Leases, ensure_schema
from sanh.ledger.store import LedgerStore, open_store

if TYPE_CHECKING:
    from sanh.server.hall import Hall
    from sanh.server.wallet_bank import LedgerBank

__all__ = ["ClusterNode", "invite_key"]

log = logging.getLogger("sanh.cluster.node")

_PRIVATE_KEYS = ("url", "invite", "table")
"""Bus fields of an entry that the lobby never shows."""

_ORPHANS = """
SELECT h.id, h.spec FROM hall_tables AS h
LEFT JOIN table_leases AS l ON l.table_id = h.id
WHERE h.closed = 0 AND (l.table_id IS NULL OR l.owner IS NULL OR l.expires_at <= now())
ORDER BY h.created_at, h.id"""


def invite_key(code: str) -> str:
    """What the bus carries of a private table's invite code: its SHA-256, never the code.

    >>> invite_key(" abc123 ") == invite_key("ABC123")
    True
    """
    return hashlib.sha256(code.strip().upper().encode()).hexdigest()


class ClusterNode:
    """A hall's place in a cluster (see the module docstring).

    :param hall: the hall (its :attr:`~sanh.server.hall.Hall.placement` becomes this node).
    :param bank: the hall's bank; its event log gets this node's fence.
    :param db_url: the cluster's PostgreSQL database (the leases get their own connection).
    :param redis_url: the bus.
    :param name: this node's name, unique while it lives.
    :param ws_url: the WebSocket URL clients of other nodes are sent to for this node's tables.
    :param ttl_ms: a lease's TTL; renewed every third of it, taken over once it expires.
    """

    def __init__(
        self,
        hall: Hall,
        bank: LedgerBank,
        *,
        db_url: str,
        redis_url: str,
        name: str,
        ws_url: str,
        http_url: str | None = None,
        prefix: str = "sanh",
        ttl_ms: int = 5000,
        sync_s: float = 0.5,
    ) -> None:
        self.hall = hall
        self.bank = bank
        self.name = name
        self.ws_url = ws_url
        self.ttl_ms = ttl_ms
        self.sync_s = sync_s
        self.store: LedgerStore = open_store(db_url)
        ensure_schema(self.store)
        self.leases = Leases(self.store, name, ttl_ms=ttl_ms)
        self.fence = LeaseFence(name, idle_timeout_ms=max(200, ttl_ms // 2))
        self.keeper = LeaseKeeper(self.leases, self.fence, on_lost=self._lost_in_thread)
        beat = max(0.2, min(1.0, ttl_ms / 3000))
        self.bus = Bus(
            redis_url,
            name,
            prefix=prefix,
            card={"url": ws_url, "http": http_url},
            heartbeat_s=beat,
            ttl_s=max(3 * beat, ttl_ms / 1000),
        )
        bank.events.fence = self.fence
        hall.placement = self
        self.published: dict[str, dict[str, Any]] = {}
        """This node's lobby entries as last published."""
        self.taken_over = 0
        """Tables this node took over from another (failover)."""
        self.dropped = 0
        """Tables this node lost to another."""
        self.draining = False
        """Leaving (:meth:`drain`): no new hands, no takeovers."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping: set[asyncio.Task[None]] = set()
        self._recovering: set[asyncio.Task[None]] = set()
        self._renewing = threading.Event()
        """Set to stop the renewal thread."""
        self._renewer: threading.Thread | None = None

    def _renew_loop(self) -> None:
        while not self._renewing.wait(self.keeper.every_s):
            try:
                self.keeper.renew_once()
            except Exception:
                log.exception("cluster node %s: lease renewal failed", self.name)

    # ----- life --------------------------------------------------------------------------------
    async def start(self) -> None:
        """Join the bus and start renewing, listing and taking over."""
        self._loop = asyncio.get_running_loop()
        await self.bus.start()
        # Renewals run on their own thread, not on the event loop: a loop busy for a while
        # (a burst of hands, a collection) must not cost the node its leases.
        self._renewing.clear()
        self._renewer = threading.Thread(
            target=self._renew_loop, name=f"leases-{self.name}", daemon=True
        )
        self._renewer.start()
        self._tasks = [
            asyncio.create_task(self._sync_loop(), name=f"lobby-{self.name}"),
            asyncio.create_task(self._takeover_loop(), name=f"takeover-{self.name}"),
        ]
        log.info("cluster node %s joined", self.name, extra={"node": self.name})

    async def stop(self) -> None:
        """Leave: stop the loops, release every lease (after the hall stopped its tables, so
        nothing writes for them any more) and take this node off the bus."""
        for task in [*self._tasks, *self._recovering]:
            task.cancel()
        for task in [*self._tasks, *self._recovering]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        self._renewing.set()
        if self._renewer is not None:
            await asyncio.to_thread(self._renewer.join, 10)
            self._renewer = None
        for table in list(self.keeper.held):
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.keeper.release, table)
        await self.bus.stop()
        with contextlib.suppress(Exception):
            self.store.close()
        log.info("cluster node %s left", self.name, extra={"node": self.name})

    async def drain(self, timeout_s: float) -> int:
        """A graceful stop's first step: deal no new hand here, and hand each table over as
        soon as it has no hand under way (at once for one between hands, or not yet rebuilt);
        after ``timeout_s`` the rest go mid-hand, rebuilt by their next owner as after a kill.
        Nothing is taken over meanwhile. A tournament's table stays to the end (no other node
        takes a Sit & Go's table over: docs/SCALING.md). Returns how many were handed over."""
        self.draining = True
        deadline = time.monotonic() + timeout_s
        handed = 0
        log.info("cluster node %s drains", self.name, extra={"node": self.name})
        while True:
            late = time.monotonic() >= deadline
            left = 0
            for table_id, actor in list(self.hall.tables.items()):
                if actor.spec.tournament is not None:
                    continue
                actor.draining = True
                if actor.state is None or actor.recovering or late:
                    await self.hand_over(table_id)
                    handed += 1
                else:
                    left += 1
            if not left:
                break
            await asyncio.sleep(0.1)
        log.info(
            "cluster node %s drained",
            self.name,
            extra={"node": self.name, "handed_over": handed, "late": late},
        )
        return handed

    async def hand_over(self, table: str) -> None:
        """Stop playing ``table`` and give its lease up at once (after its writes), so that
        another node takes it over at its next pass; its watchers are told to go (``moved``
        without a node: they reconnect and are sent on to the new owner)."""
        from sanh.server import protocol as p

        actor = self.hall.tables.pop(table, None)
        if actor is not None:
            await actor.stop()
        self._forget_hands(table)
        await asyncio.to_thread(self.keeper.release, table)
        if table in self.published:
            del self.published[table]
            await self.bus.remove(table)
        await self.bus.release_route(table)
        if actor is not None:
            for conn in list(actor.watchers.values()):
                conn.send(p.Moved(table=table, node=None, url=None))

    # ----- the hall's placement ----------------------------------------------------------------
    def claim(self, table: str) -> bool:
        """Take ``table``'s lease for this node (True: open it here)."""
        if table not in self.keeper.held and self.keeper.take(table) is None:
            return False
        self.bank.events.admit(table)
        self._forget_hands(table)
        return True

    def remote_lobby(self) -> list[dict[str, Any]]:
        """The other live nodes' lobby entries (without the bus's own fields)."""
        out = []
        for node, tables in self.bus.lobby.items():
            if node == self.name:
                continue
            for table_id, entry in tables.items():
                if table_id in self.hall.tables:
                    continue  # just taken over here; the old entry is stale
                out.append({k: v for k, v in entry.items() if k not in _PRIVATE_KEYS})
        return out

    def locate(self, table: str) -> dict[str, Any] | None:
        """Another live node's table by id or invite code: its entry with ``node`` and ``url``."""
        key = invite_key(table)
        for node, tables in self.bus.lobby.items():
            if node == self.name:
                continue
            entry = tables.get(table)
            if entry is None:
                entry = next((e for e in tables.values() if e.get("invite") == key), None)
            if entry is not None and entry.get("url"):
                return {"id": entry["id"], "node": node, "url": entry["url"]}
        return None

    @property
    def leases_held(self) -> int:
        """How many table leases this node holds now."""
        return len(self.keeper.held)

    # ----- losing a table ----------------------------------------------------------------------
    def _lost_in_thread(self, table: str) -> None:
        """The keeper found ``table``'s lease lost (its renewal thread)."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.drop, table)

    def drop(self, table: str) -> None:
        """Stop playing ``table`` here: another node holds its lease (event loop thread)."""
        from sanh.server import protocol as p

        if self.keeper.held.pop(table, None) is not None:
            self.fence.revoke(table)
        actor = self.hall.tables.pop(table, None)
        self._forget_hands(table)
        if actor is None:
            return
        self.dropped += 1
        log.warning("table %s lost to another node", table, extra={"node": self.name})
        for conn in list(actor.watchers.values()):
            conn.send(p.Moved(table=table, node=None, url=None))
        task = asyncio.get_running_loop().create_task(actor.stop())
        self._stopping.add(task)
        task.add_done_callback(self._stopping.discard)

    def _forget_hands(self, table: str) -> None:
        """The bank's cached open hands of ``table`` (rebuilt from the ledger when needed)."""
        for key in [key for key in self.bank.open if key[0] == table]:
            del self.bank.open[key]

    # ----- loops -------------------------------------------------------------------------------
    async def _sync_loop(self) -> None:
        while True:
            try:
                await self.sync()
            except Exception:
                log.exception("cluster node %s: lobby sync failed", self.name)
            await asyncio.sleep(self.sync_s)

    async def sync(self) -> None:
        """Drop what the fence refused, publish changed entries, release what closed."""
        for table in list(self.bank.events.lost):
            if table in self.hall.tables or table in self.keeper.held:
                self.drop(table)
        current: dict[str, dict[str, Any]] = {}
        for table_id, actor in list(self.hall.tables.items()):
            if table_id not in self.keeper.held:
                continue
            entry = actor.lobby_entry()
            entry["url"] = self.ws_url
            if actor.spec.private and actor.spec.invite_code:
                entry["invite"] = invite_key(actor.spec.invite_code)
            current[table_id] = entry
        for table_id, entry in current.items():
            if table_id not in self.hall.tables:
                continue  # handed over while this pass awaited Redis
            if self.published.get(table_id) != entry:
                await self.bus.upsert(table_id, entry)
            if table_id not in self.bus.routes:
                await self.bus.claim_route(table_id)
        for table_id in set(self.published) - set(current):
            await self.bus.remove(table_id)
            await self.bus.release_route(table_id)
        self.published = {t: e for t, e in current.items() if t in self.hall.tables}
        for table_id in [t for t in self.keeper.held if t not in self.hall.tables]:
            # closed here (or never opened after its claim): let it go
            await asyncio.to_thread(self.keeper.release, table_id)

    async def _takeover_loop(self) -> None:
        every = self.ttl_ms / 3000
        while True:
            await asyncio.sleep(every)
            try:
                await self.take_over()
            except Exception:
                log.exception("cluster node %s: takeover failed", self.name)

    async def take_over(self) -> list[str]:
        """Open the open tables nobody holds a live lease of, each rebuilt from its log."""
        from sanh.games import REGISTRY
        from sanh.server import table_commands as c
        from sanh.server.hall import TableElsewhere
        from sanh.server.table import TableSpec

        if self.draining:
            return []  # leaving: the others take tables over, this node takes none
        rows = await asyncio.to_thread(self._orphans)
        taken = []
        for table_id, data in rows:
            if table_id in self.hall.tables or data.get("game") not in REGISTRY:
                continue
            if data.get("tournament") is not None:
                continue  # a Sit & Go's registry is its node's (docs/SCALING.md)
            try:
                actor = self.hall._add(table_id, TableSpec(**data), start=False, save=False)
            except TableElsewhere:
                continue
            except Exception:
                log.exception("table %s cannot be taken over", table_id)
                self.hall.tables.pop(table_id, None)
                continue
            self.taken_over += 1
            log.info("table %s taken over", table_id, extra={"node": self.name})
            actor.recovering = True
            actor.start()
            task = asyncio.get_running_loop().create_task(actor.call(c.Recover()))
            self._recovering.add(task)
            task.add_done_callback(self._recovering.discard)
            taken.append(table_id)
        return taken

    def _orphans(self) -> list[tuple[str, dict[str, Any]]]:
        with self.keeper._lock, self.store.read() as tx:
            rows = tx.execute(_ORPHANS)
        return [(str(table), json.loads(spec)) for table, spec in rows]
