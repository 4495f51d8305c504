"""``sanh cluster status --db URL --redis URL [--prefix P] [--json]``: the cluster at a glance.

Prints the live nodes (their presence on Redis, with the URL clients are sent to and the tables
each lists in the lobby) and every table lease in PostgreSQL: its owner, fencing token, how
long the owner has held it and how long it has left (negative: expired, waiting for a
takeover). Exit status 0, or 2 (one line) when PostgreSQL or Redis cannot be read.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``cluster`` subcommand (``cluster status``)."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "cluster", help="a cluster of hall nodes: its nodes, tables and leases"
    )
    actions = parser.add_subparsers(dest="cluster_command", required=True)
    status = actions.add_parser("status", help="the nodes, their tables and lease ages")
    status.add_argument("--db", required=True, help="the cluster's postgresql:// database")
    status.add_argument("--redis", required=True, help="the cluster's redis:// URL")
    status.add_argument("--prefix", default="sanh", help="the Redis key prefix (sanh)")
    status.add_argument("--json", action="store_true", help="print one JSON object")
    status.set_defaults(func=run)


def read_status(db: str, redis_url: str, prefix: str) -> dict[str, Any]:
    """The nodes (presence and lobby tables) and the leases, as one JSON-ready object."""
    from sanh.cluster.leases import Leases
    from sanh.ledger.store import open_store

    store = open_store(db)
    try:
        rows = Leases(store, "sanh-cluster-status").status()
    finally:
        store.close()
    nodes = asyncio.run(_nodes(redis_url, prefix))
    return {
        "nodes": nodes,
        "leases": [
            {
                "table": row.table,
                "owner": row.owner,
                "token": row.token,
                "age_ms": row.age_ms,
                "remaining_ms": row.remaining_ms,
            }
            for row in rows
        ],
    }


async def _nodes(redis_url: str, prefix: str) -> list[dict[str, Any]]:
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(redis_url, socket_timeout=2, decode_responses=True)
    try:
        keys = [k async for k in client.scan_iter(match=f"{prefix}:node:*", count=200)]
        out = []
        for key in sorted(keys):
            card = await client.get(key)
            if card is None:
                continue
            name = key.removeprefix(f"{prefix}:node:")
            tables = await client.hkeys(f"{prefix}:lobby:{name}")
            info = json.loads(card)
            out.append(
                {
                    "node": name,
                    "url": info.get("url"),
                    "tables": sorted(str(t) for t in tables if not str(t).startswith("__")),
                }
            )
        return out
    finally:
        await client.aclose()


def run(args: argparse.Namespace) -> int:
    """Print the cluster's status."""
    try:
        status = read_status(args.db, args.redis, args.prefix)
    except Exception as error:
        line = (str(error).strip().splitlines() or [type(error).__name__])[0]
        print(f"sanh cluster: cannot read the cluster: {line}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(status))
        return 0
    print(f"{len(status['nodes'])} live node(s)")
    for node in status["nodes"]:
        print(f"  {node['node']}  {node['url'] or '-'}  {len(node['tables'])} table(s)")
    print(f"{len(status['leases'])} lease(s)")
    print(f"  {'table':<28} {'owner':<20} {'token':>6} {'held s':>8} {'left s':>8}")
    for lease in status["leases"]:
        print(
            f"  {lease['table']:<28} {lease['owner'] or '-':<20} {lease['token']:>6}"
            f" {lease['age_ms'] / 1000:>8.1f} {lease['remaining_ms'] / 1000:>8.1f}"
        )
    return 0
