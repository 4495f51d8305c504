"""Many processes over one hall: table leases in PostgreSQL, presence and routing in Redis.

* :mod:`sanh.cluster.leases`: one owner per table. A lease row per table in PostgreSQL with a
  fencing token that grows on every change of owner; the owner renews it, and every write for
  the table checks the token inside its own transaction (:class:`~sanh.cluster.leases.LeaseFence`),
  so a process that lost the lease can never write for that table again;
  :class:`~sanh.cluster.leases.LeaseKeeper` renews a node's leases and revokes the lost ones.
* :mod:`sanh.cluster.bus`: node presence (heartbeat keys with a TTL), the lobby's table entries
  per node over pub/sub (a full snapshot when a node joins) and the table -> node routing map,
  on Redis (``redis.asyncio``, the ``cluster`` extra).

Nothing here is needed in the one-process SQLite mode.
"""

from __future__ import annotations

from sanh.cluster.leases import Lease, LeaseFence, LeaseKeeper, LeaseLost, Leases, ensure_schema

__all__ = ["Lease", "LeaseFence", "LeaseKeeper", "LeaseLost", "Leases", "ensure_schema"]
