"""A Prometheus histogram without dependencies (the hall exports it at ``/metrics``)."""

from __future__ import annotations

import bisect

__all__ = ["COMMAND_BUCKETS", "Histogram"]

COMMAND_BUCKETS: tuple[float, ...] = (
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
)
"""Upper bounds (seconds) of the table-command latency buckets."""


class Histogram:
    """Observations counted in cumulative buckets, as Prometheus histograms are."""

    def __init__(self, buckets: tuple[float, ...] = COMMAND_BUCKETS) -> None:
        if list(buckets) != sorted(set(buckets)):
            raise ValueError("bucket bounds must increase")
        self.buckets = buckets
        self.counts = [0] * (len(buckets) + 1)
        """Per bucket (not cumulative); the last one is above every bound."""
        self.total = 0.0
        self.count = 0

    def observe(self, value: float) -> None:
        """Count one observation."""
        self.counts[bisect.bisect_left(self.buckets, value)] += 1
        self.total += value
        self.count += 1

    def lines(self, name: str, help_text: str) -> list[str]:
        """The histogram in the Prometheus text format."""
        out = [f"# HELP {name} {help_text}", f"# TYPE {name} histogram"]
        running = 0
        for bound, count in zip(self.buckets, self.counts, strict=False):
            running += count
            out.append(f'{name}_bucket{{le="{bound:g}"}} {running}')
        out.append(f'{name}_bucket{{le="+Inf"}} {self.count}')
        out.append(f"{name}_sum {self.total:.6f}")
        out.append(f"{name}_count {self.count}")
        return out
