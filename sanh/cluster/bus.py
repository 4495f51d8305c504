"""The cluster's Redis bus: node presence, the lobby of every node, and table routing.

One :class:`Bus` per node process (``redis.asyncio``, the ``cluster`` extra). Keys, under a
``prefix`` (default ``sanh``)::

    {p}:node:{name}     presence: the node's JSON card, SET with a TTL, refreshed by the
                        heartbeat; a node that dies (SIGKILL) disappears when it expires
    {p}:lobby:{name}    hash: table id -> the node's lobby entry (JSON), and ``__seq__``;
                        same TTL, so a dead node's tables leave the lobby with it
    {p}:route           hash: table id -> owning node (a hint: the lease in PostgreSQL is
                        the truth; :meth:`Bus.route` answers only with a live node)
    channel {p}:lobby   pub/sub: ``snapshot`` (a node's whole lobby, on join and after any
                        loss of its keys), ``upsert``, ``remove`` and ``leave`` messages

Every message of a node carries its sequence number; a cache ignores what is older than what
it holds, and a ``snapshot`` *replaces* that node's entries (no stale rooms: colyseus#850).
Each cache starts (and restarts after a lost connection) from the stored hashes, then follows
the channel; it drops the nodes whose presence is gone (no dead servers: colyseus#389).

The heartbeat writes the presence key with ``SET ... GET``: when the old value is missing or not
this incarnation's (the first beat, a restart of the node or of Redis, a flush, or this node
paused past its TTL), the node
writes its whole state again (presence, lobby hash, routes) and publishes a snapshot. So a
Redis restart heals by itself within one heartbeat of it coming back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Callable, Mapping
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

__all__ = ["Bus"]

log = logging.getLogger("sanh.cluster.bus")

_SEQ = "__seq__"
_EPOCH = "__epoch__"

_RELEASE_ROUTE = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
    return redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0
"""


class Bus:
    """One node's presence, lobby and routes on Redis, and its cache of everyone's lobby.

    :param url: ``redis://host:port/db``.
    :param node: this node's name (unique in the cluster).
    :param card: what the node tells about itself (e.g. its address for redirects).
    :param heartbeat_s: how often presence is refreshed; ``ttl_s`` is how long it lasts.
    :param on_change: called (no arguments) after the lobby cache changed.
    """

    def __init__(
        self,
        url: str,
        node: str,
        *,
        prefix: str = "sanh",
        card: Mapping[str, Any] | None = None,
        heartbeat_s: float = 1.0,
        ttl_s: float = 3.0,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        if ttl_s <= heartbeat_s:
            raise ValueError("the presence TTL must be longer than the heartbeat")
        self.url = url
        self.node = node
        self.prefix = prefix
        self.epoch = secrets.token_hex(6)
        """This incarnation of the node: a restarted node counts its messages from 1 again."""
        self.card = {"node": node, **(card or {}), "epoch": self.epoch}
        self.heartbeat_s = heartbeat_s
        self.ttl_ms = int(ttl_s * 1000)
        self.on_change = on_change
        self.channel = f"{prefix}:lobby"
        self._redis: aioredis.Redis = aioredis.Redis.from_url(
            url, socket_timeout=2, socket_connect_timeout=2, decode_responses=True
        )
        self.tables: dict[str, dict[str, Any]] = {}
        """This node's lobby entries."""
        self.routes: set[str] = set()
        """Tables this node routes to itself."""
        self._seq = 0
        self.lobby: dict[str, dict[str, dict[str, Any]]] = {}
        """The cache: node -> table -> entry, every node's (this one's too)."""
        self._seen: dict[str, tuple[str, int]] = {}
        """Per node, its epoch and the newest sequence number applied."""
        self._tasks: list[asyncio.Task[None]] = []
        self._synced = asyncio.Event()
        self.connected = False
        self.published = 0
        """Messages this node published (for the metrics and docs/SCALING.md)."""
        self.received = 0
        self.republished = 0
        """Times this node wrote its whole state again (its keys were gone)."""

    # ----- keys ------------------------------------------------------------------------------
    def _node_key(self, node: str) -> str:
        return f"{self.prefix}:node:{node}"

    def _lobby_key(self, node: str) -> str:
        return f"{self.prefix}:lobby:{node}"

    @property
    def _route_key(self) -> str:
        return f"{self.prefix}:route"

    # ----- life --------------------------------------------------------------------------------
    async def start(self) -> None:
        """Join: write presence and the lobby, publish a snapshot, follow the others."""
        self._tasks = [
            asyncio.create_task(self._follow(), name=f"bus-follow-{self.node}"),
            asyncio.create_task(self._heartbeat(), name=f"bus-beat-{self.node}"),
        ]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._synced.wait(), timeout=5)

    async def stop(self, *, leave: bool = True) -> None:
        """Stop; with ``leave``, take this node's keys out and tell the others at once."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        if leave:
            with contextlib.suppress(RedisError, OSError):
                async with self._redis.pipeline(transaction=True) as pipe:
                    pipe.delete(self._node_key(self.node), self._lobby_key(self.node))
                    for table in self.routes:
                        pipe.eval(_RELEASE_ROUTE, 1, self._route_key, table, self.node)
                    pipe.publish(self.channel, self._message("leave"))
                    await pipe.execute()
                self.published += 1
        await self._redis.aclose()

    # ----- this node's lobby and routes ------------------------------------------------------
    async def upsert(self, table: str, entry: Mapping[str, Any]) -> None:
        """Add or change one of this node's lobby entries (one transaction: 1 HSET, 1 PUBLISH)."""
        value = {**entry, "table": table, "node": self.node}
        self.tables[table] = value
        self._apply_local()
        message = self._message("upsert", table=table, entry=value)
        with contextlib.suppress(RedisError, OSError):  # the heartbeat will re-publish it
            async with self._redis.pipeline(transaction=True) as pipe:
                fields: dict[Any, Any] = {table: json.dumps(value)}
                pipe.hset(self._lobby_key(self.node), mapping=fields)
                pipe.hset(self._lobby_key(self.node), mapping=self._stamp())
                pipe.pexpire(self._lobby_key(self.node), self.ttl_ms)
                pipe.publish(self.channel, message)
                await pipe.execute()
            self.published += 1

    async def remove(self, table: str) -> None:
        """Take one of this node's tables out of the lobby."""
        self.tables.pop(table, None)
        self._apply_local()
        message = self._message("remove", table=table)
        with contextlib.suppress(RedisError, OSError):
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.hdel(self._lobby_key(self.node), table)
                pipe.hset(self._lobby_key(self.node), mapping=self._stamp())
                pipe.publish(self.channel, message)
                await pipe.execute()
            self.published += 1

    async def claim_route(self, table: str) -> None:
        """Route ``table`` to this node (after taking its lease)."""
        self.routes.add(table)
        with contextlib.suppress(RedisError, OSError):
            await self._redis.hset(self._route_key, table, self.node)

    async def release_route(self, table: str) -> None:
        """Stop routing ``table`` here (only if the route is still this node's)."""
        self.routes.discard(table)
        with contextlib.suppress(RedisError, OSError):
            await self._redis.eval(_RELEASE_ROUTE, 1, self._route_key, table, self.node)

    # ----- reading ---------------------------------------------------------------------------
    async def route(self, table: str) -> str | None:
        """The live node ``table`` is routed to, if any."""
        node = await self._redis.hget(self._route_key, table)
        if node is None or not await self._redis.exists(self._node_key(str(node))):
            return None
        return str(node)

    async def nodes(self) -> dict[str, dict[str, Any]]:
        """The live nodes and their cards."""
        keys = [key async for key in self._redis.scan_iter(match=self._node_key("*"), count=200)]
        if not keys:
            return {}
        values = await self._redis.mget(keys)
        cards = {}
        for key, value in zip(keys, values, strict=True):
            if value is not None:
                cards[key.removeprefix(self._node_key(""))] = json.loads(value)
        return cards

    def lobby_tables(self) -> list[dict[str, Any]]:
        """Every table of every live node, from the cache (each entry names its ``node``)."""
        return [
            entry for node in sorted(self.lobby) for _, entry in sorted(self.lobby[node].items())
        ]

    # ----- internals -------------------------------------------------------------------------
    def _message(self, kind: str, **fields: Any) -> str:
        self._seq += 1
        return json.dumps(
            {"kind": kind, "node": self.node, "epoch": self.epoch, "seq": self._seq, **fields}
        )

    def _stamp(self) -> dict[Any, Any]:
        return {_SEQ: str(self._seq), _EPOCH: self.epoch}

    def _apply_local(self) -> None:
        self.lobby[self.node] = dict(self.tables)
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            try:
                self.on_change()
            except Exception:
                log.exception("lobby change callback failed")

    async def _publish_all(self) -> None:
        """Write this node's whole state again and publish a snapshot."""
        snapshot = self._message("snapshot", tables=self.tables)
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.set(self._node_key(self.node), json.dumps(self.card), px=self.ttl_ms)
            pipe.delete(self._lobby_key(self.node))
            fields: dict[Any, Any] = {t: json.dumps(e) for t, e in self.tables.items()}
            pipe.hset(self._lobby_key(self.node), mapping={**fields, **self._stamp()})
            pipe.pexpire(self._lobby_key(self.node), self.ttl_ms)
            for table in self.routes:
                pipe.hset(self._route_key, table, self.node)
            pipe.publish(self.channel, snapshot)
            await pipe.execute()
        self.published += 1
        self.republished += 1

    async def _heartbeat(self) -> None:
        while True:
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    pipe.set(
                        self._node_key(self.node), json.dumps(self.card), px=self.ttl_ms, get=True
                    )
                    pipe.pexpire(self._lobby_key(self.node), self.ttl_ms)
                    old, _ = await pipe.execute()
                if old != json.dumps(self.card):  # gone, or an earlier incarnation's
                    await self._publish_all()
                await self._prune()
            except (RedisError, OSError) as error:
                if self.connected:
                    log.warning("redis: heartbeat of %s failed: %s", self.node, error)
                self.connected = False
            await asyncio.sleep(self.heartbeat_s)

    async def _prune(self) -> None:
        """Drop the cached lobbies of nodes whose presence is gone."""
        others = [node for node in self.lobby if node != self.node]
        if not others:
            return
        alive = await self._redis.exists(*[self._node_key(node) for node in others])
        if alive == len(others):
            return
        for node in others:
            if not await self._redis.exists(self._node_key(node)):
                self.lobby.pop(node, None)
                self._seen.pop(node, None)
                self._changed()

    async def _load(self) -> None:
        """Rebuild the cache from the stored lobbies of the live nodes."""
        live = await self.nodes()
        lobby: dict[str, dict[str, dict[str, Any]]] = {}
        seen: dict[str, tuple[str, int]] = {}
        for node in live:
            if node != self.node:
                seen[node], lobby[node] = await self._stored(node)
        lobby[self.node] = dict(self.tables)
        self.lobby, self._seen = lobby, seen
        self._changed()

    async def _stored(self, node: str) -> tuple[tuple[str, int], dict[str, dict[str, Any]]]:
        stored = await self._redis.hgetall(self._lobby_key(node))
        mark = (str(stored.pop(_EPOCH, "")), int(stored.pop(_SEQ, 0)))
        return mark, {str(table): json.loads(value) for table, value in stored.items()}

    async def _apply(self, message: dict[str, Any]) -> None:
        node = str(message["node"])
        if node == self.node:
            return
        epoch, seq, kind = str(message["epoch"]), int(message["seq"]), message["kind"]
        known_epoch, known_seq = self._seen.get(node, ("", 0))
        if kind == "leave":
            if epoch == known_epoch or not known_epoch:
                self.lobby.pop(node, None)
                self._seen.pop(node, None)
                self._changed()
            return
        if kind == "snapshot":
            # A snapshot replaces the node's entries (a new incarnation's too).
            if epoch == known_epoch and seq < known_seq:
                return
            self.lobby[node] = {str(t): dict(e) for t, e in message["tables"].items()}
        elif epoch != known_epoch:
            # A change from an incarnation we hold no snapshot of: read its stored lobby.
            self._seen[node], self.lobby[node] = await self._stored(node)
            self._changed()
            return
        elif seq <= known_seq:
            return
        elif kind == "upsert":
            self.lobby.setdefault(node, {})[str(message["table"])] = dict(message["entry"])
        elif kind == "remove":
            self.lobby.get(node, {}).pop(str(message["table"]), None)
        self._seen[node] = (epoch, seq)
        self._changed()

    async def _follow(self) -> None:
        """Subscribe, load the stored state, then apply the channel; again after any loss."""
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
                await self._load()
                if not self.connected:
                    self.connected = True
                    log.info("redis: %s follows %s", self.node, self.channel)
                self._synced.set()
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is not None and message.get("type") == "message":
                        self.received += 1
                        await self._apply(json.loads(message["data"]))
            except (RedisError, OSError) as error:
                if self.connected:
                    log.warning("redis: %s lost the lobby channel: %s", self.node, error)
                self.connected = False
                await asyncio.sleep(min(self.heartbeat_s, 0.5))
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call,unused-ignore]
