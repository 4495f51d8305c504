"""Benchmarks of sanh (run with ``python -m benchmarks.<name>``; never run by the tests)."""
