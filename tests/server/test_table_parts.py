"""The table actor stays in parts: small modules, short functions, commands matched by type."""

from __future__ import annotations

import ast
import asyncio
import json
import typing
from pathlib import Path
from typing import Any

import pytest

from sanh.server import protocol as p
from sanh.server import table_commands as c
from sanh.server.hall import Hall
from sanh.server.services import PlayerInfo
from sanh.server.table_types import Connection
from sanh.server.wallet_services import WalletServices

SERVER = Path(__file__).resolve().parents[2] / "sanh" / "server"
TABLE_MODULES = sorted(SERVER.glob("table*.py"))
MAX_LINES = 600
MAX_FUNCTION_LINES = 80


def test_the_table_is_in_several_modules() -> None:
    names = {path.stem for path in TABLE_MODULES}
    parts = {"table_seating", "table_hand", "table_clock", "table_recovery", "table_bots"}
    assert {"table", "table_commands", "table_broadcast", *parts} <= names


@pytest.mark.parametrize("path", TABLE_MODULES, ids=lambda path: path.name)
def test_a_table_module_is_small_and_its_functions_short(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    assert len(source.splitlines()) <= MAX_LINES, f"{path.name} is over {MAX_LINES} lines"
    long = [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert not long, f"{path.name}: functions over {MAX_FUNCTION_LINES} lines: {long}"


def _string_dispatch(tree: ast.AST) -> list[str]:
    """``getattr(x, f"..._{...}")`` (a handler found by a built name) anywhere in ``tree``."""
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        if node.func.id == "getattr" and len(node.args) >= 2:
            name = node.args[1]
            if isinstance(name, ast.JoinedStr | ast.BinOp):
                found.append(ast.unparse(node))
    return found


def test_the_check_sees_a_string_dispatch() -> None:
    tree = ast.parse('handler = getattr(self, f"_on_{command.kind}")\ngetattr(x, "name")')
    assert _string_dispatch(tree) == ["getattr(self, f'_on_{command.kind}')"]


@pytest.mark.parametrize("path", TABLE_MODULES, ids=lambda path: path.name)
def test_no_table_module_dispatches_by_a_built_name(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    assert "_on_{" not in source
    assert not _string_dispatch(ast.parse(source))


def _handled_types() -> set[str]:
    """The command classes matched in ``TableActor._handle``."""
    tree = ast.parse((SERVER / "table.py").read_text(encoding="utf-8"))
    handle = next(
        n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "_handle"
    )
    matches = [n for n in ast.walk(handle) if isinstance(n, ast.Match)]
    assert len(matches) == 1
    return {
        n.cls.attr
        for n in ast.walk(matches[0])
        if isinstance(n, ast.MatchClass) and isinstance(n.cls, ast.Attribute)
    }


def test_every_command_is_matched_by_type_and_carries_no_any() -> None:
    commands = typing.get_args(c.Command)
    assert {kind.__name__ for kind in commands} == _handled_types()
    for kind in commands:
        hints = typing.get_type_hints(kind)
        assert typing.Any not in hints.values(), kind
        assert all(hint is not object for hint in hints.values()), kind


def test_a_command_word_becomes_its_typed_command_or_is_refused() -> None:
    async def body() -> None:
        conn = Connection(PlayerInfo("p1", "P1"))
        assert c.from_kind("sit", conn, 2) == c.Sit(conn, 2)
        assert c.from_kind("sit", conn, None) == c.Sit(conn, None)
        assert c.from_kind("buyin", conn, 500) == c.BuyIn(conn, 500)
        assert c.from_kind("bots", None, 7) == c.Bots(7)
        act = p.Act(table="t", nonce="n", version=3, action={"type": "Fold", "seat": 0})
        assert c.from_kind("act", conn, act) == c.Act(conn, act)
        assert c.client_of(c.Sit(conn, 2)) is conn and c.client_of(c.Tick()) is None
        with pytest.raises(TypeError):
            c.from_kind("buyin", conn, "500")  # a wrong payload never reaches the actor
        with pytest.raises(TypeError):
            c.from_kind("buyin", conn, True)
        with pytest.raises(TypeError):
            c.from_kind("sit", None, 1)  # a client's command needs its connection
        with pytest.raises(ValueError):
            c.from_kind("no_such_command", conn, None)

    asyncio.run(body())


# ----- the broadcaster: one view per state and viewer, one encoding per distinct message ------
def _raw(conn: Connection) -> list[bytes]:
    out = []
    while not conn.outbox.empty():
        raw = conn.outbox.get_nowait()
        if raw is not None:
            out.append(raw)
    return out


def test_views_are_made_once_per_state_and_spectators_share_one_encoding() -> None:
    from tests.server.test_table import Seat, _run, _sit, _table, _until

    async def body(services: WalletServices, hall: Hall) -> None:
        players = [Seat(services, f"p{i}") for i in range(3)]
        watchers = [Seat(services, f"w{i}") for i in range(2)]
        actor = _table(hall, "lieng", 3, players[0])
        await _sit(actor, *players)
        for watcher in watchers:
            await actor.call(c.Join(watcher.conn))
        await _until(lambda: actor.state is not None and actor.state.phase == "bet")
        for seat in (*players, *watchers):
            _raw(seat.conn)
        observed: list[int | None] = []
        game = actor.game = type(actor.game)()
        real = game.observe

        def counting(state: Any, viewer: int | None) -> Any:
            observed.append(viewer)
            return real(state, viewer)

        game.observe = counting  # type: ignore[method-assign]
        state = actor.state
        await actor.call(c.ChatSpectators(players[0].conn, True))  # a broadcast, same state
        assert actor.state is state
        assert sorted(observed, key=str) == sorted([0, 1, 2, None], key=str)
        await actor.call(c.ChatSpectators(players[0].conn, False))  # again: no view rebuilt
        assert len(observed) == 4
        first, second = (_raw(w.conn)[-1] for w in watchers)
        assert first is second  # one encoding, the same bytes for every spectator
        update = json.loads(first)
        assert update["type"] == "table" and update["your_seat"] is None
        assert update["view"]["viewer"] is None
        mine = [json.loads(_raw(seat.conn)[-1]) for seat in players]
        assert sorted(m["view"]["viewer"] for m in mine) == [0, 1, 2]
        assert all(m["resume_token"] for m in mine)
        assert len({m["resume_token"] for m in mine}) == 3

    _run(body)
