"""Run every benchmark (``make bench``): the output is the body of BENCHMARKS.md."""

from __future__ import annotations

from benchmarks import eval7cards, shuffle_chi2


def main() -> int:
    """Run the benchmarks one after the other."""
    eval7cards.main([])
    print()
    shuffle_chi2.main([])
    print()
    shuffle_chi2.main(["--source", "provably-fair", "--shuffles", "100000"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
