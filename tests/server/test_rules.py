"""``GET /api/rules``: every offered game has its "how to play" and its rules in Vietnamese and
English, and every house bet its payout and the exact house edge :mod:`sanh.analysis` computes
(by full enumeration) for the default rule set, named in the OpenAPI document."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import httpx

from sanh.analysis.odds import odds_providers
from sanh.games.tai_xiu import TOTAL_PAYTABLES
from tests.server.conftest import HallProcess


def _get(hall: HallProcess, path: str) -> Any:
    response = httpx.get(f"{hall.url}{path}", timeout=60)
    assert response.status_code == 200, response.text
    return response.json()


def test_every_game_has_its_rules_in_both_languages_and_exact_house_edges(
    hall: HallProcess,
) -> None:
    games = {g["id"]: g for g in _get(hall, "/api/games")["games"]}
    rules = {g["id"]: g for g in _get(hall, "/api/rules")["games"]}
    assert set(rules) == set(games) and len(games) >= 11
    for game_id, entry in rules.items():
        assert (entry["name"], entry["name_vi"], entry["banked"]) == (
            games[game_id]["name"],
            games[game_id]["name_vi"],
            games[game_id]["banked"],
        )
        assert entry["section"].startswith("RULES.md §")
        vi, en = entry["vi"], entry["en"]
        for text in (vi, en):
            assert len(text["how_to_play"]) > 40, game_id
            assert len(text["rules"]) >= 3 and all(len(r) > 10 for r in text["rules"]), game_id
        assert vi["how_to_play"] != en["how_to_play"], f"{game_id}: the same text twice"
        assert set(vi["rules"]).isdisjoint(en["rules"]), game_id
    providers = odds_providers()
    assert {g for g, e in rules.items() if e["bets"]} == set(providers)
    for game_id, provider in providers.items():
        assert rules[game_id]["banked"], game_id
        shown = {(b["table"], b["bet"]): b for b in rules[game_id]["bets"]}
        tables = ("system", "player") if game_id == "tai-xiu" else (None,)
        expected = {}
        for table in tables:
            for bet, odds in provider(None, table).bets.items():
                expected[(table, bet)] = odds
        assert set(shown) == set(expected), game_id
        for key, odds in expected.items():
            bet = shown[key]
            assert Fraction(bet["exact_house_edge"]) == odds.house_edge, (game_id, key)
            assert bet["house_edge"] == float(odds.house_edge)
            assert bet["rtp"] == float(odds.rtp)
            assert bet["payout"], (game_id, key)
    tai_xiu = {(b["table"], b["bet"]): b for b in rules["tai-xiu"]["bets"]}
    for total, odds in zip(range(4, 18), TOTAL_PAYTABLES["asian"], strict=True):
        assert tai_xiu[("system", f"total_{total}")]["payout"] == f"{odds}:1"
    assert tai_xiu[("system", "small")]["payout"] == "1:1"
    assert tai_xiu[("system", "small")]["exact_house_edge"] == "5/96"  # fee 5 %: RULES.md §5
    # The fee is 3 % at a player-banked table: a smaller edge on every bet.
    for (table, bet), row in tai_xiu.items():
        if table == "player":
            assert row["house_edge"] < tai_xiu[("system", bet)]["house_edge"], bet


def test_the_openapi_document_names_the_rules(hall: HallProcess) -> None:
    doc = _get(hall, "/openapi.json")
    answer = doc["paths"]["/api/rules"]["get"]["responses"]["200"]
    ref = answer["content"]["application/json"]["schema"]["$ref"]
    assert ref.endswith("/Rules")
    schemas = doc["components"]["schemas"]
    assert {"GameRules", "HouseBet", "RulesText"} <= set(schemas)
    assert "exact_house_edge" in schemas["HouseBet"]["properties"]
