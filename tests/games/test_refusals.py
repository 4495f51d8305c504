"""Every refusal is a text code: engines raise :class:`IllegalActionError` with a ``reason`` made
of codes of :data:`sanh.games._texts.REFUSALS`, which the English renders without a placeholder
left and the web client translates in both languages (``text.<code>``, with the terms its
``value``/``action`` arguments name).

Random legal hands of every registered game are played under seeds; at each state illegal
events are tried: legal actions of other seats, actions seen earlier in the hand (other types,
other states), amounts just outside their ranges, chance events out of turn. A static check
makes sure no raise in ``sanh/`` passes an English sentence where a code belongs.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from typing import Any

import pytest

from sanh.cards.rng import SeededRng
from sanh.cli._texts import web_strings
from sanh.errors import IllegalActionError
from sanh.games import REGISTRY
from sanh.games._texts import REFUSALS
from sanh.games.base import CHANCE, Action, Event, Game, Roll, Shuffle, TableConfig
from sanh.games.driver import chance_event, random_action
from sanh.texts import TEXTS, describe, parse, placeholders
from tests.source_scan import call_name, package_sources

STRINGS = web_strings()
SEEDS = 6
TRIES_PER_STATE = 24
LEFTOVER = re.compile(r"\{[a-z]+\d\}")


def _arity(code: str) -> int:
    return max((index + 1 for _, index in placeholders(TEXTS[code])), default=0)


def _term_missing(kind: str, game: str, name: str) -> bool:
    return f"{kind}.{game}.{name}" not in STRINGS and f"{kind}.{name}" not in STRINGS


def check_reason(game_id: str, error: IllegalActionError, missing: set[str]) -> set[str]:
    """Assert ``error.reason`` is made of known refusal codes; return them. Terms its ``value``
    and ``action`` arguments name that the web client lacks are added to ``missing``."""
    reason = error.reason
    parts = parse(reason)
    assert parts, f"{game_id}: a refusal that is no code: {reason!r}"
    for code, args in parts:
        assert code in REFUSALS, f"{game_id}: {code!r} is no refusal code ({reason!r})"
        assert len(args) == _arity(code), f"{game_id}: {reason!r} has the wrong arguments"
        for key in (f"text.{code}", f"text.{game_id}.{code}"):
            if key in STRINGS:
                assert all(STRINGS[key]), key
                break
        else:
            raise AssertionError(f"{game_id}: no translation text.{code}")
        for kind, index in placeholders(TEXTS[code]):
            if kind in ("value", "action") and _term_missing(kind, game_id, args[index]):
                missing.add(f"{kind}.{args[index]} ({game_id}: {code})")
    words = describe(reason)
    assert words != reason and not LEFTOVER.search(words), (game_id, reason, words)
    assert str(error).endswith(words)
    return {code for code, _ in parts}


def _variants(game: Game[Any], state: Any, pool: list[Event], rng: SeededRng) -> list[Event]:
    """Events to try at ``state``: most of them illegal."""
    seats = state.config.seats
    out: list[Event] = [Shuffle(()), Roll((99,))]  # a wrong deal or roll, or one out of turn
    actions = list(game.legal_actions(state))
    for action in actions:
        for seat in (None, *range(seats)):
            if seat != action.seat:
                out.append(dataclasses.replace(action, seat=seat))
    for span in game.amount_ranges(state):
        for amount in (span.min - 1, span.max + 1, 0, -span.max - 1):
            out.append(span.at(amount))
            for seat in range(seats):
                if seat != span.template.seat:
                    out.append(dataclasses.replace(span.at(span.min), seat=seat))
    for _ in range(min(TRIES_PER_STATE, len(pool))):
        out.append(pool[rng.randbelow(len(pool))])
    return out


def _try(game: Game[Any], state: Any, event: Event) -> IllegalActionError | None:
    try:
        game.apply(state, event)
    except IllegalActionError as error:
        return error
    return None


@pytest.mark.parametrize("game_id", sorted(REGISTRY))
def test_every_refusal_is_a_known_code_in_both_languages(game_id: str) -> None:
    game = REGISTRY[game_id]
    info = game.info
    seen: set[str] = set()
    missing: set[str] = set()
    refusals = 0
    for seats in range(info.seats_min, min(info.seats_max, 4) + 1):
        for seed in range(SEEDS):
            rng = SeededRng(f"refusals/{game_id}/{seats}/{seed}")
            state = game.new_state(TableConfig.make(seats=seats, stake=100))
            pool: list[Event] = []
            for _step in range(info.max_actions):
                turn = game.to_act(state)
                if turn is None:
                    break
                for event in _variants(game, state, pool, rng):
                    error = _try(game, state, event)
                    if error is not None:
                        refusals += 1
                        seen |= check_reason(game_id, error, missing)
                if turn is CHANCE:
                    event: Event = chance_event(game, state, rng)
                else:
                    event = random_action(game, state, rng)
                    if isinstance(event, Action) and event.seat is not None:
                        # an action of one seat tried for the others later
                        pool.append(dataclasses.replace(event, seat=(event.seat + 1) % seats))
                pool.append(event)
                state = game.apply(state, event)
            for event in pool[-TRIES_PER_STATE:]:  # the hand is over: every event is refused
                error = _try(game, state, event)
                assert error is not None, (game_id, event)
                seen |= check_reason(game_id, error, missing)
    assert refusals > 50, f"{game_id}: only {refusals} refusals tried"
    assert "hand_over" in seen
    assert not missing, f"terms the web client cannot translate: {sorted(missing)}"


# ----- the static check -------------------------------------------------------------------------
RAISERS = {"IllegalActionError", "NotYourTurnError", "HoldRefused"}
"""Exceptions whose second argument is a reason."""
REASON_HELPERS = {"fail"}
"""Local helpers (``def fail(reason)``) whose first argument is a reason."""
REASON_FUNCTIONS = re.compile(r"^(_\w+_problem|raise_refusal|_phase_hint)$")
"""Functions that return reasons (or ``None``/``""``)."""
BUILDERS = {"text", "join"}


def _bad_reason(node: ast.expr) -> str | None:
    """Why ``node`` is no reason code (None if it is one or cannot be told statically)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        parts = parse(node.value)
        if node.value and (not parts or any(code not in TEXTS for code, _ in parts)):
            return f"the string {node.value!r} is no text code"
        return None
    if isinstance(node, ast.JoinedStr):
        return "an f-string is no text code"
    if isinstance(node, ast.BinOp):
        return "a built string is no text code"
    if isinstance(node, ast.Call) and call_name(node.func) in {"format", "str"}:
        return "a formatted string is no text code"
    if isinstance(node, ast.Call) and call_name(node.func) in BUILDERS:
        code = node.args[0] if node.args else None
        if call_name(node.func) == "text" and isinstance(code, ast.Constant):
            return None if code.value in TEXTS else f"text({code.value!r}) names no code"
        for arg in node.args if call_name(node.func) == "join" else ():
            problem = _bad_reason(arg)
            if problem:
                return problem
    if isinstance(node, ast.Dict):  # a table of reasons: {"draw": "eat_or_draw_first", ...}
        for value in node.values:
            problem = _bad_reason(value)
            if problem:
                return problem
    if (
        isinstance(node, ast.Call)
        and call_name(node.func) == "get"
        and isinstance(node.func, ast.Attribute)
    ):
        for part in (node.func.value, *node.args[1:]):
            problem = _bad_reason(part)
            if problem:
                return problem
    return None


def _reasons(tree: ast.AST) -> list[ast.expr]:
    out: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = call_name(node.func)
            if name in RAISERS:
                out += node.args[1:2]
                out += [k.value for k in node.keywords if k.arg == "reason"]
            elif name in REASON_HELPERS:
                out += node.args[:1]
        elif isinstance(node, ast.FunctionDef) and REASON_FUNCTIONS.match(node.name):
            out += [r.value for r in ast.walk(node) if isinstance(r, ast.Return) and r.value]
    return out


def test_no_refusal_in_the_source_is_an_english_sentence() -> None:
    checked = 0
    problems = []
    for path, tree in package_sources():
        for node in _reasons(tree):
            checked += 1
            problem = _bad_reason(node)
            if problem:
                problems.append(f"{path}:{node.lineno}: {problem}")
    assert checked > 150, checked
    assert not problems, "\n".join(problems)


def test_the_static_check_sees_english() -> None:
    tree = ast.parse(
        "raise IllegalActionError(a, 'the betting window is closed', v)\n"
        "raise NotYourTurnError(a, f'p{s} may not act', v)\n"
        "fail('not now, please')\n"
        "raise IllegalActionError(a, 'betting_closed', v)\n"
        "raise IllegalActionError(a, text('finished_betting', s), v)\n"
    )
    assert [_bad_reason(node) is not None for node in _reasons(tree)] == [
        True,
        True,
        True,
        False,
        False,
    ]


def test_refusal_codes_are_distinct_from_the_other_texts() -> None:
    assert set(REFUSALS) <= set(TEXTS)
    for code, template in REFUSALS.items():
        assert template == TEXTS[code]
        assert re.fullmatch(r"[a-z][a-z0-9_]*", code), code
