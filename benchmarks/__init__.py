"""Benchmarks for sanh: run all with ``python -m benchmarks`` (``make bench``), or one module.

* :mod:`benchmarks.eval7cards`: seven-card evaluation, sanh against phevaluator and eval7;
* :mod:`benchmarks.shuffle_chi2`: a large chi-square test of shuffle uniformity.

They never run in the test suite. Results are recorded in ``BENCHMARKS.md``.
"""
