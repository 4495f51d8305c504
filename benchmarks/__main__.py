"""Run every benchmark module (``make bench``): each ``benchmarks/<name>.py`` with a ``main()``."""

from __future__ import annotations

import importlib
import pkgutil

import benchmarks


def main() -> int:
    """Run the benchmarks one after the other, in name order."""
    for info in sorted(pkgutil.iter_modules(benchmarks.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"benchmarks.{info.name}")
        run = getattr(module, "main", None)
        if callable(run):
            print(f"\n<!-- python -m benchmarks.{info.name} -->\n", flush=True)
            run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
