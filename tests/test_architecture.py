"""Rules engines and evaluators stay pure: no I/O, no clock, no global RNG, no server imports."""

from __future__ import annotations

import ast
from pathlib import Path

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
