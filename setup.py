"""Build the optional C speedups of sanh.eval; everything else is in pyproject.toml.

``optional=True``: if the extension cannot be compiled (no C compiler, no Python headers), the
install still succeeds and sanh.eval runs its pure-Python and NumPy path, with the same results.
"""

from __future__ import annotations

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "sanh.eval._speedups",
            sources=["sanh/eval/_speedups.c"],
            extra_compile_args=["-O3"],
            optional=True,
        )
    ]
)
