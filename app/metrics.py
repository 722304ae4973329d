"""Prometheus metrics at ``GET /metrics`` (text format), one registry per app.  Not
public: a scraper sends ``Authorization: Bearer <KOZYR_METRICS_TOKEN>``; without that
setting the route answers 404 (scrape_refusal).

    kozyr_rooms                 rooms with at least one open socket here (gauge)
    kozyr_live_matches          matches held in memory (gauge)
    kozyr_connections           open websockets (gauge)
    kozyr_actions_total         actions applied here (counter; rate() gives actions/s)
    kozyr_action_seconds        from receiving an action to every view being queued (histogram)
    kozyr_errors_total{code}    error messages sent to clients, by code (counter)
    kozyr_slow_clients_total    sockets dropped for not reading (counter)
    kozyr_matches_recovered_total  unfinished matches rebuilt from the log at start-up (those that
                                   go on with nobody there: a bot seat, a turn clock)
    kozyr_loop_lag_seconds{cause}  how late the event loop ran its watch timer (every
                                ``Settings.lag_watch_ms``, 50 ms: every stall that long is seen) (histogram): a
                                stall of the loop delays every room of the process.  cause
                                (of a lag of 5 ms or more; "none" below):
                                "gc0" / "gc1" / "gc2" (collections of that generation, in any
                                thread, used CPU for at least half of the lag),
                                "loop" (the loop's own thread ran: our code),
                                "threads" (other threads of the process ran: the writer, worker
                                threads, holding the GIL), "off_cpu" (the loop thread was off the CPU:
                                descheduled by the OS for other processes, or blocked in a
                                system call)
    kozyr_gc_pause_seconds{generation}  garbage-collector pauses (histogram)

Stalls longer than ``Settings.stall_log_ms`` are also logged as warnings.
"""

from __future__ import annotations

import asyncio
import gc
import hmac
import logging
import time
from bisect import bisect_left
from collections.abc import Callable, Iterator
from itertools import accumulate

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString
from starlette.responses import JSONResponse

from .config import Settings

log = logging.getLogger("kozyr.stall")
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
#: A pooled bot's decision: the strong bot's budget is 0.8 s, the expert's 2.4 s (issue 36's
#: limits: p99 within 1 s and 3 s).
BOT_BUCKETS = (0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0)


class Metrics:
    content_type = CONTENT_TYPE_LATEST

    def __init__(self, settings: Settings, *, rooms: Callable[[], float], live_matches: Callable[[], float],
                 connections: Callable[[], float]) -> None:
        """``rooms``, ``live_matches``, ``connections``: the gauges' values, read when
        /metrics is."""
        self.registry = r = CollectorRegistry()
        Gauge("kozyr_rooms", "Rooms with an open socket in this process", registry=r).set_function(rooms)
        Gauge("kozyr_live_matches", "Matches held in memory", registry=r).set_function(live_matches)
        Gauge("kozyr_connections", "Open websockets", registry=r).set_function(connections)
        self.action_times = ActionTimes()  # kozyr_actions_total and kozyr_action_seconds
        r.register(self.action_times)
        self.errors = Counter("kozyr_errors", "Error messages sent, by code", ["code"], registry=r)
        self.slow_clients = Counter("kozyr_slow_clients", "Sockets dropped for not reading", registry=r)
        self.recovered = Counter("kozyr_matches_recovered",
                                 "Unfinished matches rebuilt from the log at start-up", registry=r)

        self.bot_decisions = Histogram(
            "kozyr_bot_decision", "A pooled bot's decision from asked to answered (wall time, the wait "
            "for a free worker included), by level", ["level"], unit="seconds", buckets=BOT_BUCKETS,
            registry=r)
        self.loop_lag = Histogram("kozyr_loop_lag", "How late the event loop ran its watch timer, by cause",
                                  ["cause"], unit="seconds", buckets=BUCKETS, registry=r)
        self.gc_pause = Histogram("kozyr_gc_pause", "Garbage-collector pauses", ["generation"],
                                  unit="seconds", buckets=BUCKETS, registry=r)
        self._gc_started = self._gc_cpu_started = 0.0
        # Collector time per generation since the watch's last tick (any thread: a
        # collection holds the GIL, so it stalls the loop wherever it runs).
        self._gc_since_tick = [0.0, 0.0, 0.0]
        self._watch: asyncio.Task | None = None
        self.stall_log = settings.stall_log_ms / 1000
        self.watch_period = settings.lag_watch_ms / 1000
        self._stall_logged = 0.0
        self._stalls = 0

    # -- stalls of the event loop ---------------------------------------------------

    def start_watch(self) -> None:
        """Measure the loop's lag and the collector's pauses (call in the running loop)."""
        if self._watch is None and self.watch_period > 0:
            gc.callbacks.append(self._on_gc)
            self._watch = asyncio.get_running_loop().create_task(self._watch_loop())

    def stop_watch(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
            if self._on_gc in gc.callbacks:
                gc.callbacks.remove(self._on_gc)

    async def _watch_loop(self) -> None:
        period = self.watch_period
        clock = time.perf_counter
        # One reading of each clock per tick: a tick starts where the last one ended (the
        # process's CPU clock sums every thread's, which costs more the more threads run).
        start, own0, all0 = clock(), time.thread_time(), time.process_time()
        while True:
            await asyncio.sleep(period)
            now, own1, all1 = clock(), time.thread_time(), time.process_time()
            wall, own, every = now - start, own1 - own0, all1 - all0
            start, own0, all0 = now, own1, all1
            lag = wall - period
            gc_times, self._gc_since_tick = self._gc_since_tick, [0.0, 0.0, 0.0]
            cause = stall_cause(wall, own, every - own, gc_times, lag) if lag >= 0.005 else "none"
            self.loop_lag.labels(cause=cause).observe(max(lag, 0.0))
            if self.stall_log and lag > self.stall_log:
                self._stalled(f"event loop stalled ({cause}: the loop thread ran {own * 1000:.0f} ms, "
                              f"other threads {(every - own) * 1000:.0f} ms)", lag)

    def lag_by_cause(self) -> dict[str, dict[str, float]]:
        """{cause: {"count", "over_50ms", "sum_s"}} of the loop-lag histogram so far."""
        out: dict[str, dict[str, float]] = {}
        for metric in self.loop_lag.collect():
            for sample in metric.samples:
                cause = sample.labels.get("cause")
                if cause is None:
                    continue
                entry = out.setdefault(cause, {"count": 0.0, "over_50ms": 0.0, "sum_s": 0.0})
                if sample.name.endswith("_count"):
                    entry["count"] = sample.value
                elif sample.name.endswith("_sum"):
                    entry["sum_s"] = round(sample.value, 3)
                elif sample.name.endswith("_bucket") and sample.labels.get("le") == "0.05":
                    entry["over_50ms"] = -sample.value  # count minus this, below
        for entry in out.values():
            entry["over_50ms"] = entry["count"] + entry["over_50ms"]
        return out

    def _on_gc(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._gc_started, self._gc_cpu_started = time.perf_counter(), time.thread_time()
            return
        pause = time.perf_counter() - self._gc_started
        generation = info.get("generation", 0)
        self.gc_pause.labels(generation=str(generation)).observe(pause)
        if 0 <= generation < 3:  # the collector's own CPU time: a pause spent off the CPU is not its
            self._gc_since_tick[generation] += time.thread_time() - self._gc_cpu_started
        if self.stall_log and pause > self.stall_log:
            self._stalled(f"gc generation {generation} paused", pause)

    def _stalled(self, what: str, seconds: float) -> None:
        """Log a stall, at most one line a second (an overloaded loop stalls often)."""
        now = time.monotonic()
        self._stalls += 1
        if now - self._stall_logged >= 1.0:
            log.warning("%s %.1f ms (%d stall(s) over %.0f ms since the last line)", what,
                        seconds * 1000, self._stalls, self.stall_log * 1000)
            self._stall_logged, self._stalls = now, 0

    def action_done(self, received: float) -> None:
        self.action_times.observe(time.perf_counter() - received)

    def error(self, code: str) -> None:
        self.errors.labels(code=str(code)[:32]).inc()

    def render(self) -> bytes:
        return generate_latest(self.registry)


class ActionTimes(Collector):
    """``kozyr_actions_total`` and the ``kozyr_action_seconds`` histogram, kept as plain
    counts by the event loop (every action: one bucket found and two additions) and
    turned into the two metrics when /metrics is read.  The library's Counter and
    Histogram take three locks and a few calls per action, about 12 us of the loop's
    CPU per action in the running server (bench/sections.py)."""

    def __init__(self) -> None:
        self.counts = [0] * (len(BUCKETS) + 1)  # per bucket, not cumulative; the last: above 2.5 s
        self.sum = 0.0

    def observe(self, seconds: float) -> None:
        self.counts[bisect_left(BUCKETS, seconds)] += 1  # a bucket holds values <= its bound
        self.sum += seconds

    def collect(self) -> Iterator[Metric]:
        counts, total = list(self.counts), self.sum  # a copy: /metrics may be read off the loop
        yield CounterMetricFamily("kozyr_actions", "Actions applied", value=sum(counts))
        bounds = [*map(floatToGoString, BUCKETS), "+Inf"]
        yield HistogramMetricFamily("kozyr_action_seconds",
                                    "From receiving an action to every view being queued",
                                    buckets=list(zip(bounds, accumulate(counts), strict=True)),
                                    sum_value=total)


def stall_cause(wall: float, loop_cpu: float, threads_cpu: float,
                gc_times: list[float] | None = None, lag: float | None = None) -> str:
    """Why a timer of the event loop ran late, from what its wait took: collections
    of one generation ran for at least half of the lag (``gcN``; ``gc_times``: their
    CPU time per generation; ``lag`` the lateness, default ``wall``), else from the CPU time: the loop's own thread ran (our
    code), the process's other threads ran (the writer, worker threads: they hold
    the GIL), or neither: the loop thread was off the CPU (the OS ran other
    processes, or the thread sat in a system call)."""
    if gc_times:
        longest = max(range(len(gc_times)), key=lambda g: gc_times[g])
        if gc_times[longest] > 0 and gc_times[longest] >= 0.5 * (wall if lag is None else lag):
            return f"gc{longest}"
    if loop_cpu >= 0.5 * wall:
        return "loop"
    if loop_cpu + threads_cpu >= 0.5 * wall:
        return "threads"
    return "off_cpu"


def scrape_refusal(token: str, authorization: str | None) -> JSONResponse | None:
    """Why a request for /metrics is refused (None: it may scrape).  No token set: 404,
    as if there were no such page; a wrong or missing bearer token: 401."""
    if not token:
        return JSONResponse({"detail": "metrics are off (set KOZYR_METRICS_TOKEN to scrape them)",
                             "code": "not_found"}, status_code=404)
    scheme, _, given = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), token.encode()):
        return JSONResponse({"detail": "metrics need Authorization: Bearer <KOZYR_METRICS_TOKEN>",
                             "code": "bad_token"}, status_code=401, headers={"WWW-Authenticate": "Bearer"})
    return None
