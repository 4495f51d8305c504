"""Exact odds of Tài Xỉu (RULES.md §5): every bet over the 216 equally likely rolls.

``sanh odds tai-xiu [--table system|player] [--rules s001|macau]``: ``--table`` is the option
``taixiu.table`` and ``--rules`` the ``taixiu.total_paytable`` (``s001``: the default, ``asian``).
Each bet's payout comes from :func:`sanh.games.tai_xiu.area_multiplier`, the engine's own payout
function.

Which number is ``house_edge``: the **fee-inclusive** edge, what a bettor at that table really
gives up per unit staked. The table's fee (5 % at the system table, 3 % at a player table) is
an exact fraction of each winning bet's profit, with no rounding (§5.5; the engine rounds each
share down to a unit, which this analysis ignores). The edge of the bare paytable, the figure
published for Sic Bo (Small/Big 1/36 = 2.78 %), is reported as the extra
``house_edge_no_fee``. The fee does not depend on clan membership: the clan's 1 % comes out of
the fee by default (A-TX5).

Bets named for one number (``single``, ``combination``, ``double``, ``triple``) have the same
odds for every number, by symmetry; the report computes them for 1 (and 1-2) and checks the
other numbers give the same.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from sanh.analysis.odds import BetOdds, OddsReport
from sanh.games.tai_xiu import AREAS, FEE_BP, TOTAL_PAYTABLES, area_multiplier

__all__ = ["PROVIDERS", "ROLLS", "bet_odds", "tai_xiu_odds"]

ROLLS: tuple[tuple[int, ...], ...] = tuple(product(range(1, 7), repeat=3))
"""The 216 equally likely rolls of three dice."""

_REPRESENTATIVE = {
    "single": "single_1",
    "combination": "combination_1_2",
    "double": "double_1",
    "triple": "triple_1",
}


def bet_odds(area: str, fee: Fraction, total_odds: tuple[int, ...]) -> BetOdds:
    """One area's exact house edge with the fee ``fee`` (a fraction of each winning profit)."""
    with_fee = Fraction(0)
    without = Fraction(0)
    hits = 0
    for dice in ROLLS:
        odds = area_multiplier(area, dice, total_odds)
        if odds:
            hits += 1
            with_fee += odds * (1 - fee)
            without += odds
        else:
            with_fee -= 1
            without -= 1
    return BetOdds(
        -with_fee / len(ROLLS),
        {
            "house_edge_no_fee": -without / len(ROLLS),
            "hit_frequency": Fraction(hits, len(ROLLS)),
            "fee": fee,
        },
    )


def tai_xiu_odds(rules: str | None = None, table: str | None = None) -> OddsReport:
    """Every Tài Xỉu bet's exact house edge at a system (default) or player table.

    ``rules``: ``s001`` (default: the Asian total table, A-TX1) or ``macau`` (60/30/17/12/8/6).

    :raises ValueError: on an unknown table kind or rule set.
    """
    table = table or "system"
    if table not in FEE_BP:
        raise ValueError(f"tai-xiu tables are system or player, not {table!r}")
    paytable = {None: "asian", "s001": "asian", "asian": "asian", "macau": "macau"}.get(rules)
    if paytable is None:
        raise ValueError(f"tai-xiu rule sets are s001 and macau, not {rules!r}")
    total_odds = TOTAL_PAYTABLES[paytable]
    fee = Fraction(FEE_BP[table], 10_000)
    bets: dict[str, BetOdds] = {}
    for name in ("small", "big", "single", "combination", "double", "triple", "any_triple"):
        area = _REPRESENTATIVE.get(name, name)
        bets[name] = bet_odds(area, fee, total_odds)
        kind = area.split("_")[0] if name in _REPRESENTATIVE else None
        if kind is not None:
            for other in AREAS:
                if other.startswith(kind + "_"):
                    assert bet_odds(other, fee, total_odds) == bets[name], other
    for total in range(4, 18):
        bets[f"total_{total}"] = bet_odds(f"total_{total}", fee, total_odds)
    rule_name = "s001" if paytable == "asian" else "macau"
    return OddsReport(game="tai-xiu", rules=rule_name, bets=bets, table=table)


PROVIDERS = {"tai-xiu": tai_xiu_odds}
