"""The consistency checks of ``sanh audit``, run on one read snapshot of the ledger.

Checks (each failure is a :class:`Discrepancy` naming its check and subject):

``debits_equal_credits``
    over all accounts, posted debits equal posted credits and pending debits equal pending
    credits (so the balances of all accounts sum to zero: no gold made or lost);
``account_counters``
    every account's four counters equal the sums of its transfers (posted: single and post
    transfers; pending: holds not yet posted or voided);
``negative_balance``
    no account without ``DEBITS_MAY_EXCEED_CREDITS`` has debits (posted + pending) above its
    posted credits;
``orphaned_resolution``
    every post or void refers to an existing hold, on the same accounts, posting at most the
    hold's amount (a void releases exactly it), and each hold is resolved at most once;
``orphaned_hold``
    no hold stays open longer than ``hold_max_age_s`` (default 24 h: a hand never lasts that
    long, so such a hold has lost its table);
``hold_past_hand``
    no hold of a table hand (``<table>:h<hand>:hold:<player>...``) stays open once that hand
    (or a later hand of the table) has ended, by its settlement (batch
    ``<table>:h<hand>:settle``) or its void (``<table>:h<hand>:void``): a settlement and a
    void release every hold of their hand;
``reversal``
    every reversal mirrors a single or posted transfer, each reversed at most once;
``batch``
    every batch holds exactly the number of transfers it was applied with (all or nothing),
    and every transfer's batch exists;
``unknown_account``
    every transfer's accounts exist;
``escrow_not_empty``
    table escrow accounts are pass-through: their posted balance is zero after every
    settlement (holds on them may be open), but for the losses of seats already out of a hand
    under way (posts ``<table>:h<hand>:out:...`` of a hand not yet settled or voided);
``promotions``
    the promotions account pays only daily gold: each of its transfers is a single
    ``daily_gold`` transfer to a player's wallet, id and batch ``daily:player:<id>:<day>`` naming
    that player and a calendar day (unique ids: once per player and day), or the reversal of
    one; and no ``daily_gold`` transfer is paid from any other account;
``tourney_escrow``
    a tournament's escrow (``tourney:<t>``, :mod:`sanh.ledger.tourney`) is empty once the
    tournament has ended (its batch ``tourney:<t>:payout`` or ``tourney:<t>:cancel`` applied),
    never holds anything but entries, fees and refunds before that (only ``tourney_entry``,
    ``tourney_fee`` and ``tourney_refund`` transfers), and pays out only prizes, the fees and
    the breakage in its end batch.
"""

from __future__ import annotations

import json
import re
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, field

from sanh.ledger.book import Ledger, account_from_row
from sanh.ledger.model import PROMOTIONS, AccountFlags, AccountKind, TransferCode
from sanh.ledger.store import StoreTx
from sanh.types import format_gold

__all__ = ["DEFAULT_HOLD_MAX_AGE_S", "AuditReport", "Discrepancy", "audit"]

DEFAULT_HOLD_MAX_AGE_S = 24 * 3600.0
"""Holds open longer than this are reported as orphaned."""


@dataclass(frozen=True, slots=True)
class Discrepancy:
    """One failed check."""

    check: str
    subject: str
    """The account, transfer or batch at fault (``*`` for the ledger as a whole)."""
    detail: str

    def __str__(self) -> str:
        return f"{self.check}: {self.subject}: {self.detail}"


@dataclass(frozen=True, slots=True)
class AuditReport:
    """The outcome of an audit."""

    discrepancies: tuple[Discrepancy, ...]
    stats: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when no check failed."""
        return not self.discrepancies

    def to_json(self) -> str:
        """The report as one JSON object."""
        return json.dumps(
            {
                "ok": self.ok,
                "discrepancies": [asdict(d) for d in self.discrepancies],
                "stats": self.stats,
            },
            sort_keys=True,
        )

    def to_text(self) -> str:
        """The report for a terminal (amounts in gold; the JSON has minor units)."""
        lines = []
        for key, value in sorted(self.stats.items()):
            money = key.startswith("balance_") or key == "total_issued"
            shown = f"{format_gold(value)} gold" if money else f"{value:,}"
            lines.append(f"{key:>16}  {shown}")
        if self.ok:
            lines.append("audit clean: debits = credits, every balance matches its transfers")
        else:
            lines.append(f"AUDIT FAILED: {len(self.discrepancies)} discrepancies")
            lines.extend(f"  {d}" for d in self.discrepancies)
        return "\n".join(lines)


def audit(
    ledger: Ledger,
    *,
    hold_max_age_s: float | None = DEFAULT_HOLD_MAX_AGE_S,
    now_ns: int | None = None,
) -> AuditReport:
    """Run every check on one snapshot of ``ledger``.

    :param hold_max_age_s: the age past which an open hold is orphaned (``None``: no limit).
    :param now_ns: the time to measure hold ages from (default: now).
    """
    now = time.time_ns() if now_ns is None else now_ns
    with ledger.store.read() as tx:
        found: list[Discrepancy] = []
        stats = _check_accounts(tx, found)
        _check_holds(tx, found, hold_max_age_s, now, stats)
        _check_holds_past_hands(tx, found)
        _check_reversals(tx, found)
        _check_batches(tx, found, stats)
        _check_unknown_accounts(tx, found)
        _check_promotions(tx, found, stats)
        _check_tourneys(tx, found, stats)
    return AuditReport(tuple(found), stats)


def _sums(tx: StoreTx, sql: str) -> dict[str, int]:
    return {account: int(total) for account, total in tx.execute(sql)}


def _check_accounts(tx: StoreTx, found: list[Discrepancy]) -> dict[str, int]:
    accounts = [
        account_from_row(row)
        for row in tx.execute(
            "SELECT id, flags, debits_pending, debits_posted, credits_pending, credits_posted,"
            " created_at FROM accounts ORDER BY id"
        )
    ]
    posted = "SELECT {side}, SUM(amount) FROM transfers WHERE kind IN ('single', 'post')"
    pending = (
        "SELECT p.{side}, SUM(p.amount) FROM transfers p WHERE p.kind = 'pending'"
        " AND NOT EXISTS (SELECT 1 FROM transfers r WHERE r.pending_id = p.id)"
    )
    debits_posted = _sums(tx, posted.format(side="debit_account") + " GROUP BY debit_account")
    credits_posted = _sums(tx, posted.format(side="credit_account") + " GROUP BY credit_account")
    debits_pending = _sums(tx, pending.format(side="debit_account") + " GROUP BY p.debit_account")
    credits_pending = _sums(
        tx, pending.format(side="credit_account") + " GROUP BY p.credit_account"
    )
    totals: dict[str, int] = defaultdict(int)
    by_kind: dict[str, int] = defaultdict(int)
    for account in accounts:
        expected = {
            "debits_posted": debits_posted.get(account.id, 0),
            "credits_posted": credits_posted.get(account.id, 0),
            "debits_pending": debits_pending.get(account.id, 0),
            "credits_pending": credits_pending.get(account.id, 0),
        }
        for name, value in expected.items():
            stored = getattr(account, name)
            totals[name] += stored
            if stored != value:
                found.append(
                    Discrepancy(
                        "account_counters",
                        account.id,
                        f"{name} is {stored} but its transfers sum to {value}",
                    )
                )
        negative_ok = account.flags & AccountFlags.DEBITS_MAY_EXCEED_CREDITS
        if not negative_ok and account.available < 0:
            found.append(
                Discrepancy(
                    "negative_balance",
                    account.id,
                    f"available {account.available} (balance {account.balance}, "
                    f"held {account.debits_pending}) without DEBITS_MAY_EXCEED_CREDITS",
                )
            )
        try:
            kind = account.kind
        except Exception:
            found.append(Discrepancy("unknown_account", account.id, "no known kind prefix"))
            continue
        by_kind[kind.value] += account.balance
        if kind is AccountKind.ESCROW and account.balance != _paid_into_open_hands(tx, account.id):
            found.append(
                Discrepancy(
                    "escrow_not_empty",
                    account.id,
                    f"a pass-through escrow account holds {account.balance}",
                )
            )
    if totals["debits_posted"] != totals["credits_posted"]:
        found.append(
            Discrepancy(
                "debits_equal_credits",
                "*",
                f"posted debits {totals['debits_posted']} != posted credits "
                f"{totals['credits_posted']}",
            )
        )
    if totals["debits_pending"] != totals["credits_pending"]:
        found.append(
            Discrepancy(
                "debits_equal_credits",
                "*",
                f"pending debits {totals['debits_pending']} != pending credits "
                f"{totals['credits_pending']}",
            )
        )
    stats: dict[str, int] = {"accounts": len(accounts)}
    stats["total_issued"] = -by_kind.get(AccountKind.ISSUER.value, 0)
    for kind_name, total in sorted(by_kind.items()):
        if kind_name != AccountKind.ISSUER.value:
            stats[f"balance_{kind_name}"] = total
    return stats


def _paid_into_open_hands(tx: StoreTx, escrow: str) -> int:
    """What seats out of hands not yet ended have paid into ``escrow`` (their posted loss)."""
    rows = tx.execute(
        "SELECT id, amount FROM transfers WHERE kind = 'post' AND credit_account = ?"
        " AND id LIKE '%:out:%'",
        (escrow,),
    )
    total = 0
    ended: dict[str, bool] = {}
    for transfer_id, amount in rows:
        hand = str(transfer_id).split(":out:", 1)[0]
        if hand not in ended:
            found = tx.execute(
                "SELECT COUNT(*) FROM batches WHERE id = ? OR id = ?",
                (f"{hand}:settle", f"{hand}:void"),
            )
            ended[hand] = int(found[0][0]) > 0
        if not ended[hand]:
            total += int(amount)
    return total


def _check_holds(
    tx: StoreTx,
    found: list[Discrepancy],
    hold_max_age_s: float | None,
    now: int,
    stats: dict[str, int],
) -> None:
    bad = tx.execute(
        "SELECT r.id, r.kind, r.amount, r.debit_account, r.credit_account, r.pending_id,"
        " p.id, p.kind, p.amount, p.debit_account, p.credit_account"
        " FROM transfers r LEFT JOIN transfers p ON p.id = r.pending_id"
        " WHERE r.pending_id IS NOT NULL AND (p.id IS NULL OR p.kind <> 'pending'"
        " OR r.debit_account <> p.debit_account OR r.credit_account <> p.credit_account"
        " OR (r.kind = 'post' AND r.amount > p.amount)"
        " OR (r.kind = 'void' AND r.amount <> p.amount))"
    )
    for row in bad:
        rid, rkind, ramount, _rd, _rc, pending_id, pid, pkind, pamount, _pd, _pc = row
        if pid is None:
            detail = f"{rkind} of missing hold {pending_id}"
        elif pkind != "pending":
            detail = f"{rkind} of {pending_id}, which is a {pkind} transfer, not a hold"
        else:
            detail = f"{rkind} {ramount} does not match hold {pending_id} of {pamount}"
        found.append(Discrepancy("orphaned_resolution", rid, detail))
    twice = tx.execute(
        "SELECT pending_id, COUNT(*) FROM transfers WHERE pending_id IS NOT NULL"
        " GROUP BY pending_id HAVING COUNT(*) > 1"
    )
    for pending_id, count in twice:
        found.append(Discrepancy("orphaned_resolution", pending_id, f"hold resolved {count} times"))
    holds = tx.execute(
        "SELECT p.id, p.timestamp, p.debit_account, p.amount FROM transfers p"
        " WHERE p.kind = 'pending'"
        " AND NOT EXISTS (SELECT 1 FROM transfers r WHERE r.pending_id = p.id)"
    )
    stats["open_holds"] = len(holds)
    if hold_max_age_s is not None:
        limit = now - int(hold_max_age_s * 1e9)
        for hold_id, timestamp, debit, amount in holds:
            if int(timestamp) < limit:
                age_s = (now - int(timestamp)) / 1e9
                found.append(
                    Discrepancy(
                        "orphaned_hold",
                        hold_id,
                        f"hold of {amount} on {debit} open for {age_s:.0f} s",
                    )
                )


_HAND_HOLD = re.compile(r"^(?P<table>.+):h(?P<hand>\d+):hold:")
_HAND_END = re.compile(r"^(?P<table>.+):h(?P<hand>\d+):(?P<how>settle|void)$")


def _check_holds_past_hands(tx: StoreTx, found: list[Discrepancy]) -> None:
    """Open holds of a table hand that has ended (see the module docstring)."""
    holds = tx.execute(
        "SELECT p.id, p.debit_account, p.amount FROM transfers p WHERE p.kind = 'pending'"
        " AND NOT EXISTS (SELECT 1 FROM transfers r WHERE r.pending_id = p.id)"
    )
    open_by_table: dict[str, list[tuple[str, int, str, int]]] = defaultdict(list)
    for hold_id, debit, amount in holds:
        match = _HAND_HOLD.match(str(hold_id))
        if match is not None:
            table, hand = match["table"], int(match["hand"])
            open_by_table[table].append((str(hold_id), hand, str(debit), int(amount)))
    if not open_by_table:
        return
    ended: dict[str, int] = {}
    """Per table, the last hand that has ended."""
    how: dict[tuple[str, int], str] = {}
    for (batch_id,) in tx.execute(
        "SELECT id FROM batches WHERE id LIKE '%:settle' OR id LIKE '%:void'"
    ):
        match = _HAND_END.match(str(batch_id))
        if match is None or match["table"] not in open_by_table:
            continue
        table, hand = match["table"], int(match["hand"])
        ended[table] = max(ended.get(table, 0), hand)
        how[(table, hand)] = match["how"]
    for table, table_holds in sorted(open_by_table.items()):
        last = ended.get(table)
        for hold_id, hand, debit, amount in table_holds:
            if last is None or hand > last:
                continue
            end = how.get((table, hand))
            detail = (
                f"hold of {amount} on {debit} still open after hand {hand}'s {end}"
                if end is not None
                else f"hold of {amount} on {debit} still open after later hand {last} ended"
            )
            found.append(Discrepancy("hold_past_hand", hold_id, detail))


def _check_reversals(tx: StoreTx, found: list[Discrepancy]) -> None:
    rows = tx.execute(
        "SELECT r.id, r.reversal_of, o.id, o.kind, o.debit_account, o.credit_account, o.amount,"
        " r.debit_account, r.credit_account, r.amount, r.kind"
        " FROM transfers r LEFT JOIN transfers o ON o.id = r.reversal_of"
        " WHERE r.reversal_of IS NOT NULL AND (o.id IS NULL OR o.kind NOT IN ('single', 'post')"
        " OR r.kind <> 'single' OR r.debit_account <> o.credit_account"
        " OR r.credit_account <> o.debit_account OR r.amount <> o.amount)"
    )
    for row in rows:
        rid, reversal_of, oid = row[0], row[1], row[2]
        detail = (
            f"reverses missing transfer {reversal_of}"
            if oid is None
            else f"does not mirror {reversal_of}"
        )
        found.append(Discrepancy("reversal", rid, detail))


def _check_batches(tx: StoreTx, found: list[Discrepancy], stats: dict[str, int]) -> None:
    rows = tx.execute(
        "SELECT b.id, b.size, COUNT(t.seq) FROM batches b LEFT JOIN transfers t"
        " ON t.batch_id = b.id GROUP BY b.id, b.size HAVING COUNT(t.seq) <> b.size"
    )
    for batch_id, size, count in rows:
        found.append(
            Discrepancy("batch", batch_id, f"applied with {size} transfers, holds {count}")
        )
    rows = tx.execute(
        "SELECT DISTINCT t.batch_id FROM transfers t LEFT JOIN batches b ON b.id = t.batch_id"
        " WHERE t.batch_id IS NOT NULL AND b.id IS NULL"
    )
    for (batch_id,) in rows:
        found.append(Discrepancy("batch", batch_id, "transfers name a batch never recorded"))
    stats["batches"] = int(tx.execute("SELECT COUNT(*) FROM batches")[0][0])
    stats["transfers"] = int(tx.execute("SELECT COUNT(*) FROM transfers")[0][0])


def _check_unknown_accounts(tx: StoreTx, found: list[Discrepancy]) -> None:
    for side in ("debit_account", "credit_account"):
        rows = tx.execute(
            f"SELECT t.id, t.{side} FROM transfers t LEFT JOIN accounts a ON a.id = t.{side}"
            " WHERE a.id IS NULL"
        )
        for transfer_id, account_id in rows:
            found.append(
                Discrepancy("unknown_account", transfer_id, f"{side} {account_id} is missing")
            )


_DAILY_ID = re.compile(r"daily:(player:\d+):\d{4}-\d{2}-\d{2}")


def _check_promotions(tx: StoreTx, found: list[Discrepancy], stats: dict[str, int]) -> None:
    rows = tx.execute(
        "SELECT t.id, t.batch_id, t.kind, t.code, t.debit_account, t.credit_account,"
        " t.reversal_of, o.code FROM transfers t LEFT JOIN transfers o ON o.id = t.reversal_of"
        " WHERE t.debit_account = ? OR t.credit_account = ? OR t.code = ?",
        (PROMOTIONS, PROMOTIONS, TransferCode.DAILY_GOLD.value),
    )
    claims = 0
    for tid, batch_id, kind, code, debit, credit, reversal_of, original_code in rows:
        if code == TransferCode.REVERSAL.value and reversal_of is not None:
            if original_code != TransferCode.DAILY_GOLD.value or debit == PROMOTIONS:
                found.append(
                    Discrepancy("promotions", tid, f"reverses {reversal_of}, not a daily gold")
                )
            continue
        match = _DAILY_ID.fullmatch(tid)
        if (
            kind != "single"
            or code != TransferCode.DAILY_GOLD.value
            or debit != PROMOTIONS
            or match is None
            or match.group(1) != credit
            or batch_id != tid
        ):
            found.append(
                Discrepancy(
                    "promotions",
                    tid,
                    f"{kind} {code} {debit} -> {credit} (batch {batch_id}) is not one daily"
                    " gold from promotions to the player it names",
                )
            )
            continue
        claims += 1
    stats["daily_claims"] = claims


_TOURNEY_CODES = {
    TransferCode.TOURNEY_ENTRY.value,
    TransferCode.TOURNEY_FEE.value,
    TransferCode.TOURNEY_REFUND.value,
}
_TOURNEY_END_CODES = {
    TransferCode.PRIZE.value,
    TransferCode.FEE.value,
    TransferCode.BREAKAGE.value,
    TransferCode.TOURNEY_REFUND.value,
}


def _check_tourneys(tx: StoreTx, found: list[Discrepancy], stats: dict[str, int]) -> None:
    rows = tx.execute(
        "SELECT id, credits_posted - debits_posted FROM accounts"
        " WHERE substr(id, 1, 8) = 'tourney:' ORDER BY id"
    )
    ended = 0
    for account, balance in rows:
        cancel, payout = f"{account}:cancel", f"{account}:payout"
        done = tx.execute("SELECT COUNT(*) FROM batches WHERE id = ? OR id = ?", (cancel, payout))
        finished = int(done[0][0]) > 0
        ended += finished
        if finished and int(balance) != 0:
            found.append(
                Discrepancy(
                    "tourney_escrow", account, f"an ended tournament's escrow holds {balance}"
                )
            )
        moves = tx.execute(
            "SELECT id, batch_id, code FROM transfers"
            " WHERE debit_account = ? OR credit_account = ?",
            (account, account),
        )
        for tid, batch_id, code in moves:
            at_end = batch_id in (cancel, payout)
            allowed = _TOURNEY_END_CODES if at_end else _TOURNEY_CODES
            if code not in allowed:
                found.append(Discrepancy("tourney_escrow", tid, f"a {code} transfer of {account}"))
    stats["tournaments_ended"] = ended
