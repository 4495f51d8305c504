"""Every term of every registered game that the web client must translate, from the registry.

Action types, view fields, options (names, help texts and choices) come from each game's
declarations; settlement items, the enumerated values of views (phases, outcomes, bet areas,
hand names...) and of settlement facts, and the text codes of settlement line details and logs
(with the terms their arguments name) from random hands played with every seat count; every
declared text code (``sanh.texts.TEXTS``) and hand name (the evaluators' categories, the
instant wins and penalty items of Tiến lên and Sâm) from the code; error codes from the protocol
and from the HTTP API's source.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
import sys
from pathlib import Path
from typing import Any

from sanh.cards.rng import SeededRng
from sanh.eval import combos
from sanh.eval.combos import SAM_INSTANT_WINS, Kind
from sanh.eval.lieng import LiengCategory
from sanh.eval.lookup import HandCategory, TcpCategory, TeenPattiCategory
from sanh.eval.xito import XiToCategory
from sanh.games import REGISTRY
from sanh.games.base import CHANCE, Game, TableConfig, View
from sanh.games.driver import chance_event, random_action
from sanh.games.three_card_poker import _FORCED as TCP_FORCED_FOLDS
from sanh.ledger.model import TransferCode
from sanh.notation.jsonable import to_jsonable
from sanh.server import app as server_app
from sanh.server.protocol import ErrorCode
from sanh.texts import TEXTS, parse, placeholders

__all__ = [
    "DECLARED_VALUES",
    "ENUM_FIELDS",
    "HTTP_ERRORS",
    "TEXT_FIELDS",
    "game_terms",
    "http_error_codes",
    "required_keys",
    "text_terms",
]

ENUM_FIELDS = frozenset(
    {
        "phase",
        "street",
        "outcome",
        "result",
        "table_kind",
        "decisions",
        "spots",
        "table",
        "scoring",
        "variant",
        "my_bets",
        "table_totals",
        "my_pending",
        "my_confirmed",
        "hands",
        "category_a",
        "category_b",
        "six_card",
        "instant",
    }
)
"""View fields whose string values are names from a small set (translated as ``value.*``)."""

TEXT_FIELDS = frozenset({"detail", "log", "reason"})
"""Fields of views, lines and settlement facts holding text codes (as ``app.js`` TEXT_FIELDS)."""

HTTP_ERRORS = (
    "bad_config",
    "bad_credentials",
    "no_such_hand",
    "no_such_table",
    "not_host",
    "too_large",
    "unauthenticated",
    "malformed",
    "refused",
    "rate_limited",
    "method_not_allowed",
    "no_such_endpoint",
    "no_such_player",
    "no_such_game",
    "too_many_tables",
    "tables_too_fast",
    "busy",
    "query_too_short",
    "no_such_tournament",
)
"""Error codes of the HTTP API (``{"error": code}``); :func:`http_error_codes` reads them from
the source, and a test checks the two agree."""


_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_CARD = re.compile(r"^[2-9TJQKA][cdhs]$")


def _names(enum: Any) -> frozenset[str]:
    return frozenset(member.name.lower() for member in enum)


def _returned_names(*functions: Any) -> frozenset[str]:
    """The name-like string constants in the bodies of ``functions`` (the labels they return)."""
    out: set[str] = set()
    for function in functions:
        for node in ast.walk(ast.parse(inspect.getsource(function))):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and _NAME.match(node.value)
            ):
                out.add(node.value)
    return frozenset(out)


_POKER = _names(HandCategory)
_LIENG = frozenset({f"points_{n}" for n in range(10)} | (_names(LiengCategory) - {"points"}))
_SHEDDING = frozenset(kind.value for kind in Kind)
DECLARED_VALUES: dict[str, frozenset[str]] = {
    "texas-holdem": _POKER,
    "poker-aof": _POKER,
    "three-card-poker": _names(TcpCategory) | _POKER | TCP_FORCED_FOLDS,
    "teen-patti-2020": _names(TeenPattiCategory) | _POKER,
    "lieng": _LIENG,
    "xi-to": _names(XiToCategory),
    "tien-len": _SHEDDING | _returned_names(combos.tien_len_instant_win, combos.tien_len_penalty),
    "sam-loc": _SHEDDING | frozenset(SAM_INSTANT_WINS),
}
"""Values a game can name that short random hands seldom reach: hand categories (views,
settlement facts, line details), instant wins, penalty items, forced-fold reasons."""

EXTRA_ITEMS: dict[str, frozenset[str]] = {
    # phom.py: Ù payments are booked under the outcome held in a variable (`kind`).
    "phom": frozenset({"u", "u_tron", "u_khan", "u_k", "an_3"}),
    # sam_loc.py card_amount(): the per-loser item is "cards", "treo" or "thoi".
    "sam-loc": frozenset({"cards", "treo", "thoi"}),
}
"""Settlement items held in variables, which neither the ast scan nor short playouts find."""

HANDS_PER_SEAT_COUNT = 12
_ITEM_CALLS = {"Debt", "SettlementLine"}
_OUTCOME_CALLS = {"_end", "_count_end", "_ordinary_end", "_instant", "_finish"}


def _source_terms(game: Game[Any]) -> tuple[set[str], set[str]]:
    """Items and outcomes named in the game's module (and the helpers it uses), read by ast.

    Settlement items passed to ``Debt(...)``/``SettlementLine(...)``, outcomes passed to the
    end-of-game helpers or as ``outcome=``/``phase=`` keywords: rare endings that random hands
    seldom reach are found here.
    """
    module = sys.modules[type(game).__module__]
    sources = [inspect.getsource(module)]
    for name in ("_shedding", "_debts"):
        helper = sys.modules.get(f"sanh.games.{name}")
        if helper is not None and f"sanh.games.{name}" in sources[0]:
            sources.append(inspect.getsource(helper))
    items: set[str] = set()
    values: set[str] = set()
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                # ``"cong" if cong else "penalty"``: both branches are items
                branches = [
                    branch
                    for a in node.args
                    for branch in ((a.body, a.orelse) if isinstance(a, ast.IfExp) else (a,))
                ]
                consts = [
                    a.value
                    for a in branches
                    if isinstance(a, ast.Constant) and isinstance(a.value, str)
                ]
                if name in _ITEM_CALLS:
                    items.update(c for c in consts if _NAME.match(c))
                elif name in _OUTCOME_CALLS:
                    values.update(c for c in consts if _NAME.match(c))
                for keyword in node.keywords:
                    value = keyword.value
                    if (
                        keyword.arg in {"outcome", "phase"}
                        and isinstance(value, ast.Constant)
                        and isinstance(value.value, str)
                        and _NAME.match(value.value)
                    ):
                        values.add(value.value)
    return items, values


def _enum_values(field: str, value: Any, out: set[str]) -> None:
    if field not in ENUM_FIELDS:
        return
    if isinstance(value, str):
        if (value and field != "table") or value in {"system", "player"}:
            out.add(value)
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, str) and item and field != "table":
                out.add(item)
            elif (
                isinstance(item, list)
                and item
                and isinstance(item[0], str)
                and not _CARD.match(item[0])  # Three Card Poker's ``hands`` are cards
            ):
                out.add(item[0])


def _fact_values(value: Any, out: set[str]) -> None:
    """Name-like strings of a settlement fact (outcomes, hand names), never cards."""
    if isinstance(value, str):
        if _NAME.match(value) or value in {"A", "B"}:
            out.add(value)
    elif isinstance(value, list | tuple):
        for item in value:
            _fact_values(item, out)


_KEY_OF_KIND = {"value": "value", "item": "item"}


def text_terms(detail: str, terms: dict[str, set[str]]) -> None:
    """The text codes of ``detail`` and the terms their ``value``/``item`` arguments name."""
    for code, args in parse(detail):
        terms["text"].add(code)
        for kind, index in placeholders(TEXTS.get(code, "")):
            if kind in _KEY_OF_KIND and index < len(args):
                terms[_KEY_OF_KIND[kind]].add(args[index])


def _view_texts(view: dict[str, Any], terms: dict[str, set[str]]) -> None:
    for key, value in view.items():
        if key in TEXT_FIELDS:
            for entry in value if isinstance(value, list) else (value,):
                if isinstance(entry, str):
                    text_terms(entry, terms)
    for key in ("lines", "my_lines"):
        for line in view.get(key, ()):
            text_terms(line.get("detail", ""), terms)


def _view_fields(game: Game[Any]) -> set[str]:
    state = game.new_state(TableConfig.make(seats=game.info.seats_min, stake=100))
    view = game.observe(state, 0)
    base = {f.name for f in dataclasses.fields(View)}
    return {f.name for f in dataclasses.fields(view)} - base


def game_terms(game_id: str) -> dict[str, set[str]]:
    """The terms of one game: actions, fields, options, their help, choices, items, values."""
    game = REGISTRY[game_id]
    info = game.info
    terms: dict[str, set[str]] = {
        "action": {cls.__name__ for cls in info.action_types},
        "field": _view_fields(game),
        "option": {o.name for o in info.options},
        # the create-table form's tooltip (``option_help.<game>.<name>`` may override)
        "option_help": {o.name for o in info.options},
        "item": set(),
        "value": set(),
        "detail": set(),
        "text": set(),
    }
    items, values = _source_terms(game)
    terms["item"].update(items | EXTRA_ITEMS.get(game_id, frozenset()))
    if game_id in {"tien-len", "sam-loc"}:
        terms["value"].update(kind.value for kind in Kind)
    terms["value"].update(values | DECLARED_VALUES.get(game_id, frozenset()))
    for option in info.options:
        for choice in option.choices:
            if isinstance(choice, str):
                terms["value"].add(choice)
    seed = 0
    for seats in range(info.seats_min, min(info.seats_max, 6) + 1):
        for _ in range(HANDS_PER_SEAT_COUNT):
            seed += 1
            rng = SeededRng(seed)
            state = game.new_state(TableConfig.make(seats=seats, stake=100))
            for _step in range(info.max_actions):
                turn = game.to_act(state)
                if turn is None:
                    break
                if turn is CHANCE:
                    state = game.apply(state, chance_event(game, state, rng))
                    continue
                for viewer in (0, None):
                    view = to_jsonable(game.observe(state, viewer))
                    for key, value in view.items():
                        _enum_values(key, value, terms["value"])
                    _view_texts(view, terms)
                    for action in view["legal_actions"]:
                        for key in ("bet", "spot"):
                            if isinstance(action.get(key), str):
                                terms["value"].add(action[key])
                state = game.apply(state, random_action(game, state, rng))
            view = to_jsonable(game.observe(state, 0))
            for key, value in view.items():
                _enum_values(key, value, terms["value"])
            _view_texts(view, terms)
            settlement = game.settle(state)
            for line in settlement.lines:
                terms["item"].add(line.item)
                text_terms(line.detail, terms)
            for key, value in settlement.detail:
                terms["detail"].add(key)
                if key in TEXT_FIELDS:
                    text_terms(str(value), terms)
                else:
                    _fact_values(to_jsonable(value), terms["value"])
    return terms


def http_error_codes() -> set[str]:
    """The error codes the HTTP API sends, read from its source (``ApiError(status, code, …)``
    and ``{"error": code}`` bodies) of every server module: the handlers, the API layer
    (sanh/server/api.py) and the parts they call (auth.py, limits.py...)."""
    codes: set[str] = set()
    folder = Path(inspect.getfile(server_app)).parent
    sources = [path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.py"))]
    nodes = [n for source in sources for n in ast.walk(ast.parse(source))]
    for node in nodes:
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "ApiError":
            if len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
                codes.add(str(node.args[1].value))
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if (
                    isinstance(key, ast.Constant)
                    and key.value == "error"
                    and isinstance(value, ast.Constant)
                    and isinstance(value.value, str)
                ):
                    codes.add(value.value)
    return codes


def required_keys() -> set[str]:
    """Every i18n key the client needs for the registry (game-specific keys may override)."""
    keys: set[str] = set()
    for game_id in sorted(REGISTRY):
        keys.add(f"game.{game_id}")
        for kind, names in game_terms(game_id).items():
            keys.update(f"{kind}.{name}" for name in names)
    keys.update(f"text.{code}" for code in TEXTS)
    keys.update(f"error.{code.value}" for code in ErrorCode)
    keys.update(f"error.{code}" for code in (*HTTP_ERRORS, *http_error_codes()))
    keys.update(f"reason.{code.value}" for code in TransferCode)
    return keys
