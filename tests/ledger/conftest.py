"""Store fixtures: every ledger test runs on SQLite and on PostgreSQL.

PostgreSQL is the local server (``$SANH_TEST_PG``, default
``postgresql://postgres@127.0.0.1:5432/test``, trust auth; user ``root`` is tried next). Each
test gets a fresh schema, dropped afterwards. When no server answers, the PostgreSQL variants
skip with the reason, except under ``CI=true``, where they fail: CI must run both stores.
"""

from __future__ import annotations

import functools
import os
import uuid
from collections.abc import Iterator

import pytest

from sanh.ledger import Ledger

PG_CANDIDATES = (
    "postgresql://postgres@127.0.0.1:5432/test",
    "postgresql://root@127.0.0.1:5432/test",
)

STORES = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres),
]


@functools.cache
def postgres_base() -> tuple[str | None, str]:
    """A PostgreSQL URL that answers, or ``None`` and why not."""
    import psycopg

    candidates = (os.environ["SANH_TEST_PG"],) if os.environ.get("SANH_TEST_PG") else PG_CANDIDATES
    reasons = []
    for url in candidates:
        try:
            with psycopg.connect(url, connect_timeout=3) as connection:
                connection.execute("SELECT 1")
            return url, ""
        except psycopg.Error as error:
            reasons.append(f"{url}: {str(error).strip().splitlines()[0]}")
    return None, "no PostgreSQL server answers (" + "; ".join(reasons) + ")"


def require_postgres() -> str:
    """The base URL, or skip (fail under CI=true) when there is no server."""
    url, reason = postgres_base()
    if url is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true needs PostgreSQL: {reason}")
        pytest.skip(reason)
    return url


def drop_schema(base: str, schema: str) -> None:
    """Drop a test schema and everything in it."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(base, autocommit=True) as connection:
        connection.execute(
            sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema))
        )


@pytest.fixture(params=STORES)
def db_url(request: pytest.FixtureRequest, tmp_path: os.PathLike[str]) -> Iterator[str]:
    """A fresh, empty database URL on each store."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/ledger.db"
        return
    base = require_postgres()
    schema = f"sanh_test_{os.getpid()}_{uuid.uuid4().hex[:10]}"
    try:
        yield f"{base}?schema={schema}"
    finally:
        drop_schema(base, schema)


@pytest.fixture
def ledger(db_url: str) -> Iterator[Ledger]:
    """A migrated ledger on each store."""
    with Ledger.open(db_url) as opened:
        yield opened
