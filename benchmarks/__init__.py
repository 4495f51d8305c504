"""Speed measurements against named peers. Never run by the tests.

Run every benchmark with ``python -m benchmarks`` (``make bench``), or one with
``python -m benchmarks NAME`` (a module of this package with a ``main(argv)`` function).
Results and how they were measured are in ``BENCHMARKS.md``.
"""
