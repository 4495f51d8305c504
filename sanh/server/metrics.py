"""The hall's metrics at ``/metrics``, through ``prometheus_client``.

Each app has a registry of its own (:func:`hall_registry`, so several halls in one process,
as in the tests, do not mix): the process' own metrics (CPU seconds, memory, open files,
start time: ``process_*``; ``python_info``; the collector's ``python_gc_*``) and
:class:`HallCollector`, which reads the hall's counters when scraped. The table actors time
their commands in a :class:`Histogram` (plain counts, cheap in the table loop) that the
collector exports as a Prometheus histogram.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Iterator
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    GCCollector,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector

__all__ = [
    "COMMAND_BUCKETS",
    "CONTENT_TYPE",
    "HallCollector",
    "Histogram",
    "exposition",
    "hall_registry",
]

CONTENT_TYPE = CONTENT_TYPE_LATEST
"""The media type of :func:`exposition` (the Prometheus text format)."""

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
    """Observations counted in buckets, exported as a Prometheus histogram.

    >>> h = Histogram((0.1, 1.0))
    >>> for seconds in (0.05, 0.5, 0.7, 3.0):
    ...     h.observe(seconds)
    >>> [(s.labels.get("le"), s.value) for s in h.family("t", "T").samples][:3]
    [('0.1', 1), ('1.0', 3), ('+Inf', 4)]
    """

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

    def family(self, name: str, help_text: str) -> HistogramMetricFamily:
        """The histogram as a ``prometheus_client`` metric family (cumulative buckets)."""
        cumulative: list[tuple[str, float]] = []
        running = 0
        for bound, count in zip(self.buckets, self.counts, strict=False):
            running += count
            cumulative.append((str(float(bound)), running))
        cumulative.append(("+Inf", self.count))
        return HistogramMetricFamily(name, help_text, buckets=cumulative, sum_value=self.total)


class HallCollector(Collector):
    """The hall's counters, read at each scrape (``hall``: a :class:`~sanh.server.hall.Hall`)."""

    def __init__(self, hall: Any, bank: Any) -> None:
        self.hall = hall
        self.bank = bank

    def collect(self) -> Iterator[Metric]:
        """Every ``sanh_*`` metric family."""
        hall = self.hall
        m = hall.metrics
        yield GaugeMetricFamily(
            "sanh_connections", "Open WebSocket connections.", value=m.connections
        )
        yield CounterMetricFamily(
            "sanh_messages_in", "WebSocket messages received.", value=m.messages_in
        )
        yield CounterMetricFamily("sanh_actions", "Actions accepted.", value=m.actions)
        yield GaugeMetricFamily("sanh_tables", "Open tables.", value=len(hall.tables))
        hands = CounterMetricFamily("sanh_hands", "Hands completed per game.", labels=["game"])
        voided = CounterMetricFamily(
            "sanh_hands_voided",
            "Hands voided and refunded per game (RULES.md §2.8).",
            labels=["game"],
        )
        per_game: dict[str, int] = {}
        per_game_voided: dict[str, int] = {}
        for actor in hall.tables.values():
            game_id = actor.game.info.id
            per_game[game_id] = per_game.get(game_id, 0) + actor.hands_completed
            per_game_voided[game_id] = per_game_voided.get(game_id, 0) + actor.hands_voided
        for game_id, count in sorted(per_game.items()):
            hands.add_metric([game_id], count)
        for game_id, count in sorted(per_game_voided.items()):
            voided.add_metric([game_id], count)
        yield hands
        yield voided
        yield CounterMetricFamily(
            "sanh_messages_out", "WebSocket messages sent.", value=m.messages_out
        )
        events = getattr(self.bank, "events", None)
        if events is not None:
            yield CounterMetricFamily(
                "sanh_eventlog_commits",
                "Group commits of the table event log.",
                value=events.groups,
            )
            yield CounterMetricFamily(
                "sanh_eventlog_rows", "Table events written to the log.", value=events.rows_written
            )
            yield GaugeMetricFamily(
                "sanh_eventlog_pending",
                "Events appended and not yet durable.",
                value=events.pending,
            )
        yield m.command_seconds.family(
            "sanh_command_seconds",
            "Client table commands, from arrival to their answer leaving (events durable first).",
        )
        errors = CounterMetricFamily("sanh_errors", "Refused requests by code.", labels=["code"])
        for code, count in sorted(m.errors.items()):
            errors.add_metric([code], count)
        yield errors
        yield GaugeMetricFamily(
            "sanh_uptime_seconds", "Seconds since start.", value=time.time() - m.started_at
        )


def hall_registry(hall: Any, bank: Any) -> CollectorRegistry:
    """A registry of the process' metrics and the hall's (:class:`HallCollector`)."""
    registry = CollectorRegistry(auto_describe=False)
    ProcessCollector(registry=registry)
    PlatformCollector(registry=registry)
    GCCollector(registry=registry)
    registry.register(HallCollector(hall, bank))
    return registry


def exposition(registry: CollectorRegistry) -> bytes:
    """The registry's metrics in the Prometheus text format."""
    return generate_latest(registry)
