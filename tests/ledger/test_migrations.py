"""Versioned migrations: an old database is upgraded in place, concurrent openers migrate once."""

from __future__ import annotations

import threading

import pytest

from sanh.ledger import ISSUER, Ledger, Transfer, TransferCode, player_account
from sanh.ledger import store as store_module
from sanh.ledger.migrations import MIGRATIONS, latest_version
from sanh.ledger.store import open_store


def test_versions_are_consecutive() -> None:
    assert [m.version for m in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))
    assert latest_version() == MIGRATIONS[-1].version
    assert all(m.sqlite and m.postgresql for m in MIGRATIONS)


def test_an_old_database_is_upgraded_in_place(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as patch:
        patch.setattr(store_module, "MIGRATIONS", MIGRATIONS[:1])
        old = open_store(db_url)
        assert old.migrate() == [1]
        old.close()
        with Ledger(open_store(db_url)) as ledger:
            assert ledger.open_account(player_account(1)).value == "ok"
            grant = Transfer.single("g", ISSUER, player_account(1), 70, TransferCode.GRANT)
            assert ledger.transfer(grant).value == "ok"
    store = open_store(db_url)
    assert store.schema_version() == 1
    assert store.migrate() == list(range(2, latest_version() + 1))
    store.close()
    with Ledger.open(db_url) as ledger:
        assert ledger.store.schema_version() == latest_version()
        assert ledger.balance(player_account(1)) == 70
        with ledger.store.read() as tx:
            assert tx.execute("SELECT COUNT(*) FROM players")[0][0] == 0


def test_concurrent_openers_migrate_once(db_url: str) -> None:
    errors: list[BaseException] = []
    applied: list[list[int]] = []

    def opener() -> None:
        try:
            store = open_store(db_url)
            applied.append(store.migrate())
            store.close()
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=opener) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(v for versions in applied for v in versions) == list(
        range(1, latest_version() + 1)
    )
