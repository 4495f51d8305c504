"""Benchmarks of sanh: ``python -m benchmarks`` (``make bench``) runs them all, or run one with
``python -m benchmarks.<name>``. They never run in the test suite.

* :mod:`benchmarks.eval7cards`: seven-card evaluation, sanh against phevaluator and eval7;
* :mod:`benchmarks.shuffle_chi2`: a large chi-square test of shuffle uniformity;
* the others measure the games (see each module). Results are recorded in ``BENCHMARKS.md``.
"""
