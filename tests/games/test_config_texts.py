"""A table setup a game refuses is a text code: every :class:`ConfigError` in ``sanh/`` carries
``text=`` (a code of :data:`sanh.texts.TEXTS`) and its English ``str()`` comes from the
code's template, with option values a player typed made safe by ``clean()``.

The hall checks a new table's options by building the game's first state, so a game's own
cross-checks (``lieng.raise_cap`` under ``lieng.min_raise``, impossible bet limits, a malformed
paytable) reach the lobby, which shows ``text.<code>`` in the player's language.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from typing import Any

import pytest

import sanh.server.texts  # noqa: F401  (every code: the hall's too)
from sanh.cli._texts import web_strings
from sanh.errors import ConfigError
from sanh.games import REGISTRY
from sanh.games.base import TableConfig
from sanh.games.xi_to import buyin_amount
from sanh.texts import TEXTS, describe, parse, placeholders
from tests.source_scan import call_name, package_sources

STRINGS = web_strings()
LEFTOVER = re.compile(r"\{[a-z]+\d\}")

CASES: list[tuple[str, dict[str, Any], str, str]] = [
    (
        "lieng",
        {"options": {"lieng.min_raise": 0}},
        "option_at_least:lieng.min_raise:1",
        "option lieng.min_raise must be at least 1",
    ),
    (
        "lieng",
        {"options": {"lieng.min_raise": 2, "lieng.raise_cap": 1}},
        "option_zero_or_at_least:lieng.raise_cap:lieng.min_raise",
        "option lieng.raise_cap must be 0 (none) or at least lieng.min_raise",
    ),
    (
        "lieng",
        {"options": {"platform.min_balance_multiple": -1}},
        "option_not_negative:platform.min_balance_multiple",
        "option platform.min_balance_multiple must not be negative",
    ),
    (
        "ba-cay-chuong",
        {"seats": 3, "options": {"bacaychuong.min_cover_multiple": 0}},
        "option_at_least:bacaychuong.min_cover_multiple:1",
        "option bacaychuong.min_cover_multiple must be at least 1",
    ),
    (
        "ba-cay-ga",
        {"options": {"bacayga.ga_multiple": 0}},
        "option_at_least:bacayga.ga_multiple:1",
        "option bacayga.ga_multiple must be at least 1",
    ),
    (
        "phom",
        {"options": {"phom.eat_multipliers": "1,x:2|3"}},
        "option_multipliers:phom.eat_multipliers:'1,x?2?3'",
        "option phom.eat_multipliers: '1,x?2?3' is not non-negative integers like 1,2,3",
    ),
    (
        "sam-loc",
        {"options": {"samloc.instant_wins": "dragon,rainbow"}},
        "option_not_allowed:samloc.instant_wins:'rainbow':"
        "four_twos, dragon, one_colour, three_triples, five_pairs",
        "option samloc.instant_wins: 'rainbow' is not one of four_twos, dragon, one_colour,"
        " three_triples, five_pairs",
    ),
    (
        "tai-xiu",
        {"options": {"taixiu.min_bet": 500, "taixiu.max_bet": 100}},
        "bet_limits_impossible:500:100",
        "the bet limits 5.00..1.00 are impossible",
    ),
    (
        "tai-xiu",
        {"options": {"taixiu.total_paytable": "4:50|5=18"}},
        "option_total_paytable:taixiu.total_paytable:'4?50?5=18'",
        "option taixiu.total_paytable: '4?50?5=18' is not asian, macau or odds above 0 for"
        " every total 4..17 like 4=50,5=18,...",
    ),
    (
        "teen-patti-2020",
        {"seats": 1, "options": {"teenpatti.pairplus_paytable": "40-30"}},
        "option_numbers:teenpatti.pairplus_paytable:'40-30':6",
        "option teenpatti.pairplus_paytable: '40-30' is not 6 non-negative numbers like 50-40-...",
    ),
    (
        "teen-patti-2020",
        {"seats": 1, "options": {"teenpatti.main_pays_pct": 101}},
        "option_between:teenpatti.main_pays_pct:1:100:101",
        "option teenpatti.main_pays_pct must be 1..100, not 101",
    ),
    (
        "texas-holdem",
        {"seats": 3, "options": {"holdem.unknown_cards": "2,7"}},
        "option_not_seat:holdem.unknown_cards:'7':3",
        "option holdem.unknown_cards: '7' is not a seat number 1..3",
    ),
    (
        "three-card-poker",
        {"seats": 1, "options": {"tcp.bet_min_multiple": 5, "tcp.bet_max_multiple": 4}},
        "bet_multiples_impossible:5:4",
        "the bet limits 5 L..4 L are impossible",
    ),
    (
        "xi-to",
        {"options": {"xito.round1_pct": 0}},
        "option_between:xito.round1_pct:1:100:0",
        "option xito.round1_pct must be 1..100, not 0",
    ),
    (
        "tien-len",
        {"stake": 100, "stacks": (5000, 999)},
        "two_players_needed:10",
        "the game needs two players with at least 10 L to start",
    ),
    (
        "texas-holdem",
        {"stacks": (1000, 0)},
        "two_seats_with_chips",
        "the game needs at least two seats with chips",
    ),
    ("tien-len", {"stacks": (1000, 1000, 1000)}, "stacks_for_seats:3:2", "3 stacks for 2 seats"),
    ("tien-len", {"host": 5}, "host_not_seated:5", "host seat 5 is not at the table"),
    (
        "phom",
        {"carry": {"winner": 7}},
        "carry_invalid:winner:7",
        "the state carried over from the last round is invalid (winner: 7)",
    ),
]


def _config(game_id: str, setup: Mapping[str, Any]) -> TableConfig:
    info = REGISTRY[game_id].info
    return TableConfig.make(**{"seats": max(info.seats_min, 2), **setup})


def _check(error: ConfigError, code: str, english: str) -> None:
    assert error.text == code
    assert str(error) == english == describe(code)
    for name, _ in parse(code):
        assert name in TEXTS, name
        vi, en = STRINGS[f"text.{name}"]
        assert en == TEXTS[name]
        assert vi and set(placeholders(vi)) == set(placeholders(en)), name


@pytest.mark.parametrize(("game_id", "setup", "code", "english"), CASES)
def test_a_refused_setup_gives_its_code_and_english(
    game_id: str, setup: dict[str, Any], code: str, english: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        REGISTRY[game_id].new_state(_config(game_id, setup))
    _check(caught.value, code, english)


def test_a_refused_buy_in_shows_gold() -> None:
    with pytest.raises(ConfigError) as caught:
        buyin_amount(100_000, 1000, 11_000)
    _check(
        caught.value,
        "buy_in_range:1000:10000:11000",
        "a buy-in is from 10.00 to 100.00, not 110.00",
    )
    with pytest.raises(ConfigError) as caught:
        buyin_amount(2000, 1000, 3000)
    _check(
        caught.value, "buy_in_over_balance:3000:2000", "a buy-in of 30.00 exceeds the balance 20.00"
    )


# ----- the static check -------------------------------------------------------------------------
def _problem(call: ast.Call) -> str | None:
    """Why a ``ConfigError(...)`` call carries no text code (None if it does, as far as the
    source tells)."""
    for arg in call.args:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            return f"the English {arg.value!r} without a text code"
        if isinstance(arg, ast.JoinedStr | ast.BinOp):
            return "an English sentence built without a text code"
        if isinstance(arg, ast.Call) and call_name(arg.func) in {"format", "str"}:
            return "a formatted sentence without a text code"
    code = next((k.value for k in call.keywords if k.arg == "text"), None)
    if code is None:
        return None if any(k.arg is None for k in call.keywords) else "no text= code"
    if isinstance(code, ast.Constant):
        parts = parse(code.value) if isinstance(code.value, str) else ()
        known = bool(parts) and all(name in TEXTS for name, _ in parts)
        return None if known else f"text={code.value!r} is no known code"
    if isinstance(code, ast.Call) and call_name(code.func) == "text":
        first = code.args[0] if code.args else None
        if isinstance(first, ast.Constant) and first.value not in TEXTS:
            return f"text({first.value!r}) names no code"
    return None


def _config_errors(tree: ast.AST) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and call_name(node.func) == "ConfigError"
    ]


def test_no_config_error_in_the_source_is_an_english_sentence() -> None:
    checked = 0
    problems = []
    for path, tree in package_sources():
        for call in _config_errors(tree):
            checked += 1
            problem = _problem(call)
            if problem:
                problems.append(f"{path}:{call.lineno}: {problem}")
    assert checked > 50, checked
    assert not problems, "\n".join(problems)


def test_the_static_check_sees_english() -> None:
    tree = ast.parse(
        "raise ConfigError('a stack is negative')\n"
        "raise ConfigError(f'option {name} must not be negative')\n"
        "raise ConfigError('limits ' + str(low))\n"
        "raise ConfigError()\n"
        "raise ConfigError(text='no_such_code:1')\n"
        "raise ConfigError(text=text('no_such_code', 1))\n"
        "raise ConfigError(text=text('stack_negative'))\n"
        "raise ConfigError(text=code)\n"
        "raise ConfigError(text='stack_negative')\n"
    )
    assert [_problem(call) is not None for call in _config_errors(tree)] == [
        True,
        True,
        True,
        True,
        True,
        True,
        False,
        False,
        False,
    ]
    assert not LEFTOVER.search(describe("carry_invalid:pot:-5"))
