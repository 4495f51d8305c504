"""Exact Tài Xỉu odds, checked against closed forms and the published Sic Bo figures."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from sanh.analysis.odds import find_odds_provider
from sanh.analysis.odds_tai_xiu import ROLLS, tai_xiu_odds
from sanh.cli import main

WAYS = {3: 1, 4: 3, 5: 6, 6: 10, 7: 15, 8: 21, 9: 25, 10: 27}
"""How many of the 216 rolls make each total (symmetric: total t and 21 - t)."""
ASIAN = {4: 50, 5: 18, 6: 14, 7: 12, 8: 8, 9: 6, 10: 6}
MACAU = {4: 60, 5: 30, 6: 17, 7: 12, 8: 8, 9: 6, 10: 6}


def ways(total: int) -> int:
    return WAYS[min(total, 21 - total)]


def edge(wins: dict[int, int], fee: Fraction = Fraction(0)) -> Fraction:
    """House edge of a bet from ``{odds: rolls paying them}`` over 216 rolls."""
    hits = sum(wins.values())
    value = sum(odds * (1 - fee) * count for odds, count in wins.items()) - (216 - hits)
    return -Fraction(value, 216)


def test_216_rolls() -> None:
    """Three dice, every ordered roll once."""
    assert len(ROLLS) == 216 == len(set(ROLLS))
    assert sum(ways(t) for t in range(3, 19)) == 216


def test_published_sic_bo_small_big_edge() -> None:
    """Issue 2 'Must show': Sic Bo Small/Big 2.78 % (1/36), the paytable without the fee,
    reported as ``house_edge_no_fee``; ``house_edge`` includes the table's fee."""
    report = tai_xiu_odds(None, None)
    for bet in ("small", "big"):
        odds = report.bets[bet]
        assert odds.extra["house_edge_no_fee"] == Fraction(1, 36)
        assert round(float(odds.extra["house_edge_no_fee"]) * 100, 2) == 2.78
        # 105 winning rolls (totals 4-10 less the triples 2-2-2 and 3-3-3; 1-1-1 is total 3).
        assert odds.house_edge == edge({1: 105}, Fraction(5, 100)) == Fraction(5, 96)
    player = tai_xiu_odds(None, "player").bets["big"]
    assert player.house_edge == edge({1: 105}, Fraction(3, 100)) == Fraction(61, 1440)


@pytest.mark.parametrize("table", ["system", "player"])
def test_every_bet_against_closed_forms(table: str) -> None:
    """Every bet of RULES.md §5.4 (default tables) against counts of rolls, with and without
    the fee (5 % system, 3 % player). The no-fee figures are the published Sic Bo edges:
    single 7.87 %, combination 16.67 %, any triple 30.56 %, triple 150:1 30.09 %, totals 4/17
    29.17 %, 5/16 47.22 %, 6/15 30.56 %, 7/14 9.72 %, 8/13 12.50 %, 9/12 18.98 %, 10/11 12.50 %."""
    fee = Fraction(5 if table == "system" else 3, 100)
    report = tai_xiu_odds("s001", table)
    assert report.table == table and report.rules == "s001"
    expected = {
        # single: exactly one die shows it 75 rolls, two dice 15, three 1.
        "single": {1: 75, 2: 15, 3: 1},
        # combination a-b: rolls with both = 216 - 2 * 125 + 64 = 30.
        "combination": {5: 30},
        # double: at least two dice show it = 15 + 1.
        "double": {8: 16},
        "triple": {150: 1},
        "any_triple": {24: 6},
    }
    for total in range(4, 18):
        expected[f"total_{total}"] = {ASIAN[min(total, 21 - total)]: ways(total)}
    for name, wins in expected.items():
        bet = report.bets[name]
        assert bet.house_edge == edge(wins, fee), name
        assert bet.extra["house_edge_no_fee"] == edge(wins), name
        assert bet.extra["hit_frequency"] == Fraction(sum(wins.values()), 216)
    published = {
        "single": Fraction(17, 216),
        "combination": Fraction(1, 6),
        "any_triple": Fraction(11, 36),
        "triple": Fraction(65, 216),
        "total_4": Fraction(7, 24),
        "total_5": Fraction(17, 36),
        "total_6": Fraction(11, 36),
        "total_7": Fraction(7, 72),
        "total_8": Fraction(1, 8),
        "total_9": Fraction(41, 216),
        "total_10": Fraction(1, 8),
    }
    for name, value in published.items():
        assert report.bets[name].extra["house_edge_no_fee"] == value, name
    assert set(report.bets) == {
        "small", "big", "single", "combination", "double", "triple", "any_triple",
        *(f"total_{t}" for t in range(4, 18)),
    }  # fmt: skip


def test_macau_total_paytable() -> None:
    """A-TX1 alternative: the classic Macau total table 60/30/17/12/8/6."""
    report = tai_xiu_odds("macau", "system")
    assert report.rules == "macau"
    for total in range(4, 18):
        odds = MACAU[min(total, 21 - total)]
        assert report.bets[f"total_{total}"].extra["house_edge_no_fee"] == edge({odds: ways(total)})


def test_bad_table_or_rules() -> None:
    """Unknown table kinds and rule sets are refused; the CLI exits with 2."""
    with pytest.raises(ValueError):
        tai_xiu_odds(None, "casino")
    with pytest.raises(ValueError):
        tai_xiu_odds("s000", None)
    assert main(["odds", "tai-xiu", "--rules", "s000"]) == 2


def test_odds_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    """``sanh odds tai-xiu --table player --json``: the issue's JSON shape."""
    assert find_odds_provider("tai-xiu") is tai_xiu_odds
    assert main(["odds", "Tài Xỉu", "--table", "player", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "tai-xiu" and data["table"] == "player"
    small = data["bets"]["small"]
    assert small["exact_house_edge"] == "61/1440" and small["exact_house_edge_no_fee"] == "1/36"
    assert small["exact_fee"] == "3/100"
    assert main(["odds", "sic bo"]) == 0
    assert "tai-xiu (s001, system table)" in capsys.readouterr().out
