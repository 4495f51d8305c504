"""The rules at hand (``GET /api/rules``): each game's short "how to play" and its main rules in
Vietnamese and English, as the game declares them (:meth:`Game.rules_at_hand
<sanh.games.base.Game.rules_at_hand>`), and for the house games each bet's payout
(:meth:`Game.bet_payout <sanh.games.base.Game.bet_payout>`) and its exact house edge from
:mod:`sanh.analysis` (full enumeration, as a fraction).

The house edges are those of each game's default rule set (the hall's own tables; for a game a
player may bank, at the house's table and at a player's). Computed once, at the first request,
in a thread (off the event loop).
"""

from __future__ import annotations

import functools
from typing import Any

from sanh.analysis.odds import odds_providers
from sanh.games import REGISTRY

__all__ = ["house_bets", "rules_document"]


@functools.cache
def house_bets() -> dict[str, list[dict[str, Any]]]:
    """Game id -> its bets: ``bet``, ``table`` (the kind of table of a game a player may bank:
    the bank option's value, else null), ``payout``, ``house_edge`` and ``rtp`` (floats),
    ``exact_house_edge`` (``p/q``)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for game_id, provider in sorted(odds_providers().items()):
        game = REGISTRY.get(game_id)
        if game is None:
            continue
        bank = game.info.hosting.player_bank
        tables = (None,) if bank is None else (bank.house_value, bank.value)
        rows = out.setdefault(game_id, [])
        for table in tables:
            report = provider(None, table)
            for bet, odds in report.bets.items():
                edge = odds.house_edge
                rows.append(
                    {
                        "bet": bet,
                        "table": table,
                        "payout": game.bet_payout(bet),
                        "house_edge": float(edge),
                        "exact_house_edge": f"{edge.numerator}/{edge.denominator}",
                        "rtp": float(odds.rtp),
                    }
                )
    return out


def rules_document(games: list[tuple[str, str, str, bool]]) -> list[dict[str, Any]]:
    """The rules of the offered games: ``(id, name, name_vi, banked)`` -> one entry each."""
    bets = house_bets()
    out = []
    for game_id, name, name_vi, banked in games:
        entry = REGISTRY[game_id].rules_at_hand()
        out.append(
            {
                "id": game_id,
                "name": name,
                "name_vi": name_vi,
                "banked": banked,
                "section": entry["section"],
                "vi": entry["vi"],
                "en": entry["en"],
                "bets": bets.get(game_id, []),
            }
        )
    return out
