"""Prometheus metrics at ``GET /metrics`` (text format), one registry per app.

    kozyr_rooms                 rooms with at least one open socket here (gauge)
    kozyr_live_matches          matches held in memory (gauge)
    kozyr_connections           open websockets (gauge)
    kozyr_actions_total         actions applied here (counter; rate() gives actions/s)
    kozyr_action_seconds        from receiving an action to every view being queued (histogram)
    kozyr_errors_total{code}    error messages sent to clients, by code (counter)
    kozyr_slow_clients_total    sockets dropped for not reading (counter)
    kozyr_matches_recovered_total  unfinished matches rebuilt from the log at start-up
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

if TYPE_CHECKING:  # pragma: no cover
    from .rooms.service import Kozyr

BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    content_type = CONTENT_TYPE_LATEST

    def __init__(self, kozyr: Kozyr) -> None:
        self.registry = r = CollectorRegistry()
        hub = kozyr.hub
        Gauge("kozyr_rooms", "Rooms with an open socket in this process", registry=r) \
            .set_function(lambda: len(hub.rooms))
        Gauge("kozyr_live_matches", "Matches held in memory", registry=r) \
            .set_function(lambda: len(kozyr.live))
        Gauge("kozyr_connections", "Open websockets", registry=r) \
            .set_function(lambda: sum(len(c) for c in list(hub.rooms.values())))
        self.actions = Counter("kozyr_actions", "Actions applied", registry=r)
        self.latency = Histogram("kozyr_action_seconds",
                                 "From receiving an action to every view being queued",
                                 buckets=BUCKETS, registry=r)
        self.errors = Counter("kozyr_errors", "Error messages sent, by code", ["code"], registry=r)
        self.slow_clients = Counter("kozyr_slow_clients", "Sockets dropped for not reading", registry=r)
        self.recovered = Counter("kozyr_matches_recovered",
                                 "Unfinished matches rebuilt from the log at start-up", registry=r)

    def action_done(self, received: float) -> None:
        self.actions.inc()
        self.latency.observe(time.perf_counter() - received)

    def error(self, code: str) -> None:
        self.errors.labels(code=str(code)[:32]).inc()

    def render(self) -> bytes:
        return generate_latest(self.registry)
