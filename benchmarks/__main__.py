"""Run the benchmarks: ``python -m benchmarks`` runs every one; ``python -m benchmarks NAME
[ARGS ...]`` runs one module's ``main(ARGS)``."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    """Run one named benchmark module with its arguments, or every one with defaults."""
    if argv and not argv[0].startswith("-"):
        module = importlib.import_module(f"benchmarks.{argv[0]}")
        return int(module.main(argv[1:]) or 0)
    status = 0
    for info in sorted(pkgutil.iter_modules([str(Path(__file__).parent)]), key=lambda m: m.name):
        if not info.name.startswith("_"):
            module = importlib.import_module(f"benchmarks.{info.name}")
            status |= int(module.main([]) or 0)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
