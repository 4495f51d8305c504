"""``sanh audit [--db URL] [--json]``: check the ledger's books; non-zero exit on a discrepancy.

The database is ``--db``, else ``$SANH_DB``, else ``sqlite:///sanh.db`` in the working
directory. Exit status: 0 clean, 1 discrepancies found (each named on its own line, or in the
JSON ``discrepancies`` list), 2 no ledger at that URL.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

__all__ = ["register"]


def register(sub: Any) -> None:
    """Add the ``audit`` subcommand."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "audit",
        help="check the ledger: debits = credits, balances = transfers, no orphaned hold",
        description=(
            "Check that debits equal credits, that every account's balance equals the sum of "
            "its transfers, that no hold is orphaned or left open after its hand ended "
            "(hold_past_hand) and that every batch is whole. Exits 1 "
            "and names each discrepancy if any check fails."
        ),
    )
    parser.add_argument("--db", help="database URL (default: $SANH_DB or sqlite:///sanh.db)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--hold-max-age",
        type=float,
        default=None,
        metavar="SECONDS",
        help="report holds open longer than this (default 86400; 0 turns the check off)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Audit and print the report."""
    from sanh.errors import LedgerError
    from sanh.ledger.audit import DEFAULT_HOLD_MAX_AGE_S, audit
    from sanh.ledger.book import Ledger
    from sanh.ledger.store import open_existing_store

    try:
        store = open_existing_store(args.db)
    except LedgerError as error:
        print(f"sanh audit: {error}", file=sys.stderr)
        return 2
    with Ledger(store) as ledger:
        max_age = args.hold_max_age if args.hold_max_age is not None else DEFAULT_HOLD_MAX_AGE_S
        report = audit(ledger, hold_max_age_s=max_age or None)
    print(report.to_json() if args.json else report.to_text())
    return 0 if report.ok else 1
