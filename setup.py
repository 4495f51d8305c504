"""Build the optional C speedups of sanh.eval; everything else is in pyproject.toml.

``optional=True``: if the extension cannot be compiled (no C compiler, no Python headers), the
install still succeeds and sanh.eval runs its pure-Python and NumPy path, with the same results.
"""

from __future__ import annotations

import os

from setuptools import Extension, setup

# Worker threads of the batch loop: POSIX threads where there are some (elsewhere the C code keeps
# every batch in the calling thread).
THREADS = ["-pthread"] if os.name == "posix" else []

setup(
    ext_modules=[
        Extension(
            "sanh.eval._speedups",
            sources=["sanh/eval/_speedups.c"],
            extra_compile_args=["-O3", *THREADS],
            extra_link_args=THREADS,
            optional=True,
        )
    ]
)
