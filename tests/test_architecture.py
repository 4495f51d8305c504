"""Rules engines and evaluators stay pure: no I/O, no clock, no global RNG, no server imports."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1] / "sanh"
PURE = [ROOT / "games", ROOT / "eval", ROOT / "cards" / "card.py", ROOT / "cards" / "deck.py"]
BANNED = {
    "random",
    "time",
    "datetime",
    "asyncio",
    "socket",
    "logging",
    "sqlite3",
    "os",
    "secrets",
    "subprocess",
    "sanh.ledger",
    "sanh.server",
    "sanh.wallet",
    "sanh.cli",
    "sanh.cards.rng",
}


def pure_files() -> list[Path]:
    files: list[Path] = []
    for path in PURE:
        files.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return [f for f in files if f.name != "driver.py"]


@pytest.mark.parametrize("path", pure_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_modules_import_nothing_impure(path: Path) -> None:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        for name in names:
            for banned in BANNED:
                assert not (name == banned or name.startswith(banned + ".")), (
                    f"{path.name} imports {name}"
                )
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in {"open", "print", "input"}, (
                f"{path.name} calls {node.func.id}"
            )


SERVER = ROOT / "server"
PLATFORM_OPTIONS = ("platform.", "table.", "clan.")
"""Option prefixes of the platform's own rules, which several games share and the hall
implements (RULES.md §2): every other option belongs to one game."""


def _builtin_games() -> list[Any]:
    from sanh.games import REGISTRY

    return [g for g in REGISTRY.values() if type(g).__module__.startswith("sanh.games.")]


def _code_strings(tree: ast.AST) -> list[str]:
    """The string constants of a module that are not docstrings (statements of their own)."""
    docstrings = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        if id(node) not in docstrings
    ]


@pytest.mark.parametrize("path", sorted(SERVER.rglob("*.py")), ids=lambda p: p.name)
def test_the_server_names_no_game(path: Path) -> None:
    """Issue 13: everything the server does differently from game to game comes from the
    game's declarations (``GameInfo.hosting`` and the ``Game`` hosting methods), so no server
    module names a game id, imports or names a game module, or uses a game's option name or
    prefix in its code (docstrings may mention the platform's concepts)."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    games = _builtin_games()
    modules = {type(g).__module__ for g in games}
    for game in games:
        assert game.info.id not in source, f"{path.name} names the game {game.info.id}"
    for module in modules:
        assert module not in source, f"{path.name} names the module {module}"
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "sanh.games":
            for alias in node.names:
                assert f"sanh.games.{alias.name}" not in modules, f"{path.name}: {alias.name}"
    options = {o.name for g in games for o in g.info.options} | {
        alias for g in games for o in g.info.options for alias in o.aliases if "." in alias
    }
    game_options = {o for o in options if not o.startswith(PLATFORM_OPTIONS)}
    prefixes = {o.split(".")[0] + "." for o in game_options}
    for value in _code_strings(tree):
        for name in game_options:
            assert name not in value, f"{path.name} uses the option {name} ({value!r})"
        for prefix in prefixes:
            assert not value.startswith(prefix), f"{path.name}: {value!r}"


def test_the_scan_finds_what_it_looks_for() -> None:
    """The check above fails on the code it forbids (the names it looks for are real)."""
    tree = ast.parse('"""tai-xiu in a docstring."""\nx = {"taixiu.table": 1}\n')
    assert _code_strings(tree) == ["taixiu.table"]
    ids = {g.info.id for g in _builtin_games()}
    assert {"texas-holdem", "tai-xiu", "three-card-poker", "xi-to"} <= ids


MODULE_LINES_MAX = 600
FUNCTION_LINES_MAX = 80


def _sized_modules() -> list[Path]:
    """Every module of sanh/server, the table actor and its parts (table_*.py) included."""
    return sorted(SERVER.glob("*.py"))


def _long_functions(tree: ast.AST, limit: int) -> list[str]:
    """The functions (and methods, and functions inside them) longer than ``limit`` lines,
    their decorators and docstrings included."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            length = (node.end_lineno or node.lineno) - first + 1
            if length > limit:
                out.append(f"{node.name} (line {node.lineno}: {length} lines)")
    return out


@pytest.mark.parametrize("path", _sized_modules(), ids=lambda p: p.name)
def test_server_modules_and_functions_stay_small(path: Path) -> None:
    """Issue 13: no module in sanh/server/ over ~600 lines, no function over ~80."""
    source = path.read_text(encoding="utf-8")
    lines = len(source.splitlines())
    assert lines <= MODULE_LINES_MAX, f"{path.name}: {lines} lines"
    long = _long_functions(ast.parse(source), FUNCTION_LINES_MAX)
    assert not long, f"{path.name}: " + ", ".join(long)


def test_the_size_check_sees_a_long_function() -> None:
    """The check above counts a function's lines, nested ones included."""
    body = "\n".join(f"    x{i} = {i}" for i in range(81))
    source = f"def outer():\n    def inner():\n    {body.replace(chr(10), chr(10) + '    ')}\n"
    assert _long_functions(ast.parse(source), FUNCTION_LINES_MAX) == [
        "outer (line 1: 83 lines)",
        "inner (line 2: 82 lines)",
    ]
    assert _long_functions(ast.parse("def f():\n    return 1\n"), FUNCTION_LINES_MAX) == []
    assert any(path.name == "table.py" for path in _sized_modules())
    assert {"protocol.py", "app.py", "wallet_services.py"} <= {p.name for p in _sized_modules()}


def test_http_endpoints_are_module_level_functions() -> None:
    """Issue 13: the endpoints are plain module-level functions that read the hall from
    ``request.app.state``, not closures of ``create_app``."""
    from sanh.server.app import GROUPS
    from sanh.server.ws import ws

    handlers = [endpoint.handler for group in GROUPS for endpoint in group]
    assert len(handlers) >= 20
    for handler in [*handlers, ws]:
        assert handler.__qualname__ == handler.__name__, handler.__qualname__
        assert handler.__module__.startswith("sanh.server."), handler.__module__


# ----- the import graph -------------------------------------------------------------------------
FLOOR = ("sanh.types", "sanh.errors", "sanh.texts")
"""The bottom of sanh: modules every layer may import, importing nothing above them."""
ABOVE_THE_FLOOR = ("sanh.games", "sanh.server", "sanh.ledger")
KNOWN_CYCLES = [["sanh.env", "sanh.env.vector"]]
"""Cycles left for their owners: ``sanh.env.vector`` reaches back lazily for ``sanh.env.spec``
(a function of the package's ``__init__``, which imports ``vector``). Gone once ``spec`` lives
in a submodule of its own; no other cycle may appear."""


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    """sanh's modules by name; a compiled one (``eval._speedups``) by its stub."""
    stubs = {_module_name(p): p for p in sorted(ROOT.rglob("*.pyi"))}
    return stubs | {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The ids of the import statements under ``if TYPE_CHECKING:`` (never run)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            out |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return out


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The sanh modules ``name`` imports at run time, at its top or inside a function (a lazy
    import is an edge too: it only hides a cycle). ``from package import x`` is an edge to the
    submodule ``package.x`` when there is one, else to the package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_only(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.add(sub if sub in modules else base)
    return {m for m in out if m in modules and m != name}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return out


def test_no_import_cycle_among_sanh_modules() -> None:
    """Issue 13: sanh's layers only depend downwards, so its modules import each other without
    a cycle, counting imports inside functions (a lazy import only hides one)."""
    graph = _graph()
    assert len(graph) > 100 and graph["sanh.games.base"], "the scan finds sanh's imports"
    assert [c for c in _cycles(graph) if c not in KNOWN_CYCLES] == []


def test_the_floor_imports_nothing_above_it() -> None:
    """The text codes' machinery and the exception tree sit at the bottom: they import nothing
    from the games, the server or the ledger (the catalogues live beside their code)."""
    graph = _graph()
    for name in FLOOR:
        assert name in graph, name
        for imported in graph[name]:
            assert imported in FLOOR, f"{name} imports {imported}"
            assert not imported.startswith(ABOVE_THE_FLOOR)


def test_the_cycle_finder_finds_cycles(tmp_path: Path) -> None:
    """The checks above would see a cycle, a lazy import and a relative one, and skip the
    imports only a type checker runs."""
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
    source = tmp_path / "errors.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "from . import types\n"
        "if TYPE_CHECKING:\n"
        "    from sanh.server import app\n"
        "def words():\n"
        "    from sanh.games import _texts\n"
        "    from sanh.games import REGISTRY\n"
    )
    modules = {
        m: source
        for m in ("sanh.errors", "sanh.types", "sanh.games", "sanh.games._texts", "sanh.server.app")
    }
    assert _imports("sanh.errors", source, modules) == {
        "sanh.types",
        "sanh.games",
        "sanh.games._texts",
    }
