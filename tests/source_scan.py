"""Helpers for the static checks that read the package's source (no English sentence in a
raise or an error send): the files to read and the name a call is made by."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The repository root."""


def call_name(node: ast.expr) -> str:
    """The name a call's function goes by: ``f`` of ``f(...)`` and of ``x.f(...)``, else ""."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def package_sources() -> Iterator[tuple[str, ast.AST]]:
    """Every module of ``sanh/``: its path from the repository root and its syntax tree."""
    for path in sorted((ROOT / "sanh").rglob("*.py")):
        yield str(path.relative_to(ROOT)), ast.parse(path.read_text(encoding="utf-8"))
