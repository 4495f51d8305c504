"""Facts about the host that tune speed, never results: kept out of the pure evaluators.

The evaluators (:mod:`sanh.eval`) must not touch the environment (``tests/test_architecture.py``);
how many threads a big batch may use is a property of the machine, read here once.
"""

from __future__ import annotations

import os
import warnings

__all__ = ["eval_threads"]


def eval_threads() -> int:
    """The thread limit of big evaluator batches: ``SANH_EVAL_THREADS`` if it is a positive
    integer (a warning otherwise), else the CPUs this process may run on."""
    value = os.environ.get("SANH_EVAL_THREADS", "").strip()
    if value:
        try:
            threads = int(value)
        except ValueError:
            threads = 0
        if threads >= 1:
            return threads
        warnings.warn(
            f"SANH_EVAL_THREADS={value!r} is not a positive integer; ignored",
            RuntimeWarning,
            stacklevel=3,
        )
    if hasattr(os, "sched_getaffinity"):
        return max(len(os.sched_getaffinity(0)), 1)
    return os.cpu_count() or 1
