"""Which implementation runs the hot loops: the C speedups when they are built, else Python.

``SPEEDUPS`` is the compiled module :mod:`sanh.eval._speedups` (built by ``make install`` from
``sanh/eval/_speedups.c``), or None when it is missing or was built from another version of the
source (``ABI_VERSION``); then the pure-Python and NumPy paths run, with the same results.
"""

from __future__ import annotations

from types import ModuleType

__all__ = ["ABI_VERSION", "BACKEND", "SPEEDUPS"]

ABI_VERSION = 2
"""The version of the C interface this Python code expects."""


def _load() -> ModuleType | None:
    try:
        from sanh.eval import _speedups
    except ImportError:
        return None
    if getattr(_speedups, "ABI_VERSION", None) != ABI_VERSION:
        return None
    return _speedups


SPEEDUPS: ModuleType | None = _load()
"""The C speedups module, or None."""

BACKEND = "c" if SPEEDUPS is not None else "python"
"""``"c"`` or ``"python"``: which implementation :mod:`sanh.eval` uses."""
