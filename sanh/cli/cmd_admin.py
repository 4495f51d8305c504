"""``sanh admin``: operator commands on the ledger.

* ``sanh admin grant PLAYER AMOUNT``: give a player gold from the issuer (code
  ``ADMIN_GRANT``). AMOUNT is in gold (``1000``, ``12.50``), or in minor units with
  ``--units``. ``--id`` makes a retry safe (the default id is random).
* ``sanh admin statement PLAYER``: the player's transfers, newest first, with the balance
  after each (read-only).
* ``sanh admin reverse TRANSFER_ID``: undo a transfer with a mirrored one (the only way to
  correct the books).
* ``sanh admin migrate``: create or upgrade the database schema.

PLAYER is a player id (``42``), a wallet account (``player:42``) or a username. Every command
takes ``--db URL`` (default ``$SANH_DB``, else ``sqlite:///sanh.db``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import uuid
from decimal import Decimal, InvalidOperation
from typing import Any

from sanh.types import UNITS_PER_GOLD, format_gold

__all__ = ["parse_gold", "register"]


def register(sub: Any) -> None:
    """Add the ``admin`` subcommand and its own subcommands."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "admin", help="operator commands: grant gold, statements, reversals, migrations"
    )
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--db", help="database URL (default: $SANH_DB or sqlite:///sanh.db)")
    commands = parser.add_subparsers(dest="admin_command", metavar="ADMIN_COMMAND")

    grant = commands.add_parser("grant", parents=[db], help="give a player gold from the issuer")
    grant.add_argument("player", help="player id, player:<id> or username")
    grant.add_argument("amount", help="gold, e.g. 1000 or 12.50 (minor units with --units)")
    grant.add_argument("--units", action="store_true", help="AMOUNT is in minor units")
    grant.add_argument("--id", help="transfer id (idempotency key; default: random)")
    grant.add_argument("--memo", default="", help="a note stored with the transfer")
    grant.set_defaults(func=run_grant)

    statement = commands.add_parser(
        "statement", parents=[db], help="a player's transfers, newest first (read-only)"
    )
    statement.add_argument("player", help="player id, player:<id> or username")
    statement.add_argument("--limit", type=int, default=50)
    statement.add_argument("--json", action="store_true", help="print one JSON object")
    statement.set_defaults(func=run_statement)

    reverse = commands.add_parser("reverse", parents=[db], help="undo a transfer")
    reverse.add_argument("transfer_id")
    reverse.add_argument("--id", help="id of the reversal (default: reversal:<transfer id>)")
    reverse.add_argument("--memo", default="", help="why")
    reverse.set_defaults(func=run_reverse)

    migrate = commands.add_parser("migrate", parents=[db], help="create or upgrade the schema")
    migrate.set_defaults(func=run_migrate)
    parser.set_defaults(func=lambda args: _usage(parser))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def parse_gold(text: str) -> int:
    """Gold as minor units: ``"12.50"`` is 1250.

    :raises ValueError: for anything else than a number with at most two decimals.
    """
    try:
        value = Decimal(text.replace(",", ""))
    except InvalidOperation:
        raise ValueError(f"{text!r} is not an amount of gold") from None
    units = value * UNITS_PER_GOLD
    if not units.is_finite() or units != units.to_integral_value():
        raise ValueError(f"{text!r}: gold has at most two decimals")
    return int(units)


def _open(args: argparse.Namespace) -> Any:
    from sanh.errors import LedgerError
    from sanh.ledger.book import Ledger
    from sanh.ledger.store import open_existing_store

    try:
        return Ledger(open_existing_store(args.db))
    except LedgerError as error:
        raise SystemExit(f"sanh admin: {error}") from None


def _account_of(ledger: Any, player: str) -> str:
    """The wallet account a PLAYER argument names."""
    from sanh.ledger.model import player_account

    if player.startswith("player:"):
        account = player
    elif player.isdigit():
        account = player_account(int(player))
    else:
        with ledger.store.read() as tx:
            rows = tx.execute(
                "SELECT id FROM players WHERE username = ?", (player.strip().casefold(),)
            )
        if not rows:
            raise SystemExit(f"sanh admin: no player {player!r}")
        account = player_account(int(rows[0][0]))
    if ledger.account(account) is None:
        raise SystemExit(f"sanh admin: no wallet {account}")
    return account


def run_grant(args: argparse.Namespace) -> int:
    """Grant gold; exit 0 if applied (or already applied with this id), 1 if refused."""
    from sanh.ledger.model import ISSUER, Transfer, TransferCode

    try:
        amount = int(args.amount) if args.units else parse_gold(args.amount)
    except ValueError as error:
        print(f"sanh admin grant: {error}", file=sys.stderr)
        return 2
    with _open(args) as ledger:
        account = _account_of(ledger, args.player)
        transfer_id = args.id or f"admin-grant:{uuid.uuid4().hex}"
        transfer = Transfer.single(
            transfer_id, ISSUER, account, amount, TransferCode.ADMIN_GRANT, args.memo
        )
        result = ledger.submit([transfer])
        balance = ledger.balance(account)
    print(f"{result.code}: {transfer_id} {format_gold(amount)} to {account}")
    print(f"balance {format_gold(balance)}")
    return 0 if result.ok else 1


def run_statement(args: argparse.Namespace) -> int:
    """Print a statement."""
    from sanh.ledger.model import TransferKind

    with _open(args) as ledger:
        account_id = _account_of(ledger, args.player)
        account = ledger.account(account_id)
        transfers = ledger.transfers_of(account_id, limit=args.limit)
    lines = []
    balance_after = account.balance
    for t in transfers:
        incoming = t.credit_account == account_id
        posted = t.kind in (TransferKind.SINGLE, TransferKind.POST)
        change = (t.amount if incoming else -t.amount) if posted else 0
        lines.append(
            {
                "seq": t.seq,
                "time": dt.datetime.fromtimestamp(t.timestamp / 1e9, dt.UTC).isoformat(
                    timespec="seconds"
                ),
                "id": t.id,
                "kind": t.kind.value,
                "code": t.code.value if t.code is not None else "",
                "amount": t.amount,
                "change": change,
                "counterparty": t.debit_account if incoming else t.credit_account,
                "balance_after": balance_after,
                "memo": t.memo,
            }
        )
        balance_after -= change
    if args.json:
        print(
            json.dumps(
                {
                    "account": account_id,
                    "balance": account.balance,
                    "available": account.available,
                    "held": account.debits_pending,
                    "transfers": lines,
                }
            )
        )
        return 0
    print(
        f"{account_id}  balance {format_gold(account.balance)}"
        f"  available {format_gold(account.available)}"
        f"  held {format_gold(account.debits_pending)}"
    )
    for line in lines:
        change = line["change"]
        shown = f"{'+' if change > 0 else ''}{format_gold(change)}" if change else "held/released"
        print(
            f"{line['seq']:>8}  {line['time']}  {line['kind']:<7} {line['code']:<11}"
            f" {shown:>16}  {format_gold(line['balance_after']):>16}"
            f"  {line['counterparty']}  {line['id']}  {line['memo']}".rstrip()
        )
    return 0


def run_reverse(args: argparse.Namespace) -> int:
    """Reverse a transfer; exit 0 if applied (or already), 1 if refused."""
    with _open(args) as ledger:
        reversal_id = args.id or f"reversal:{args.transfer_id}"
        result = ledger.reverse(args.transfer_id, reversal_id, memo=args.memo)
    print(f"{result}: {reversal_id} reverses {args.transfer_id}")
    return 0 if result.ok else 1


def run_migrate(args: argparse.Namespace) -> int:
    """Create or upgrade the schema."""
    from sanh.ledger.store import open_store

    store = open_store(args.db)
    try:
        applied = store.migrate()
        version = store.schema_version()
    finally:
        store.close()
    done = ", ".join(map(str, applied)) if applied else "none"
    print(f"schema version {version} (applied: {done})")
    return 0
