"""The wallet: a double-entry ledger of play gold, players, progress and clans.

* :mod:`sanh.ledger.model`: accounts, transfers, batches, result codes, account naming;
* :mod:`sanh.ledger.book`: :class:`Ledger`, the API (submit linked batches, read balances);
* :mod:`sanh.ledger.store`: SQLite and PostgreSQL stores selected by a database URL;
* :mod:`sanh.ledger.migrations`: the versioned schema;
* :mod:`sanh.ledger.settle`: a game's :class:`~sanh.games.base.Settlement` as one batch;
* :mod:`sanh.ledger.audit`: the consistency checks behind ``sanh audit``;
* :mod:`sanh.ledger.players`: players, guests, login, XP and play time, clans.
"""

from __future__ import annotations

from sanh.ledger.book import Ledger
from sanh.ledger.model import (
    AMOUNT_MAX,
    BREAKAGE,
    FEES,
    HOUSE,
    ISSUER,
    Account,
    AccountFlags,
    AccountKind,
    AccountSpec,
    Batch,
    BatchResult,
    ResultCode,
    Transfer,
    TransferCode,
    TransferKind,
    TransferResult,
    clan_account,
    escrow_account,
    player_account,
    stake_account,
)
from sanh.ledger.store import default_url, open_store

__all__ = [
    "AMOUNT_MAX",
    "BREAKAGE",
    "FEES",
    "HOUSE",
    "ISSUER",
    "Account",
    "AccountFlags",
    "AccountKind",
    "AccountSpec",
    "Batch",
    "BatchResult",
    "Ledger",
    "ResultCode",
    "Transfer",
    "TransferCode",
    "TransferKind",
    "TransferResult",
    "clan_account",
    "default_url",
    "escrow_account",
    "open_store",
    "player_account",
    "stake_account",
]
