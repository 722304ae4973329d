"""The garbage collector, paced by the clock instead of by allocation counts.

CPython starts a young collection when allocations minus deallocations pass a
threshold.  A game server replaces its objects rather than piling them up: every
action swaps a room's engine state for a new one and every message received
swaps that socket's pending receive (four coroutines, a future, the parser's
generator) for a new one, and each old object freed counts against each new one
made.  So the count stays near zero while the young generation fills up: at 800
rooms one young collection came every ~3 s and walked 67,000-89,000 objects
(30-40 ms, all of them still alive), and the middle one every ~60 s walked
300,000 (145-176 ms): one such pause puts every room of the process past a
p99 of 100 ms (bench/results/server-gc-2026-12-01.txt).

So, after start-up (the long-lived objects frozen out of sight, ``gc.freeze``),
the event loop collects on a timer: the young and middle generations every
``pace`` seconds (what the last two ticks made and is still alive: a few
milliseconds; an object that survives two ticks is old, and most old ones die by
their reference count), and everything every ``full_every`` seconds (closed
sockets and finished matches that ended up old).  Collecting the middle
generation at every tick walks each object as often as collecting it every n-th
tick would (twice, if it lives long enough), but in n small pauses rather than
one n times as long.  The interpreter's own trigger
stays as a safety net with a high threshold (``SAFETY_THRESHOLD`` allocations
between ticks: a burst of new objects, e.g. a history replay in a worker thread,
is still collected without waiting for the loop)."""

from __future__ import annotations

import asyncio
import gc
import time

SAFETY_THRESHOLD = 100_000

_frozen = False
_running: list[GcPacer] = []  # pacers started (one per app; tests run several)
_saved_threshold: tuple[int, int, int] | None = None


def freeze_startup() -> None:
    """Move what start-up created (modules, classes, routes, recovered matches: alive
    as long as the process) out of the collector's sight; once per process."""
    global _frozen
    if not _frozen:
        _frozen = True
        gc.collect()
        gc.freeze()


class GcPacer:
    """Collections on the event loop's clock (``start`` in the running loop)."""

    def __init__(self, pace: float, full_every: float) -> None:
        self.pace, self.full_every = pace, full_every
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        global _saved_threshold
        if self.task is None and self.pace > 0:
            if not _running:
                _saved_threshold = gc.get_threshold()
                gc.set_threshold(SAFETY_THRESHOLD, 50, 1000)
            _running.append(self)
            self.task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None
            _running.remove(self)
            if not _running and _saved_threshold is not None:
                gc.set_threshold(*_saved_threshold)

    async def _run(self) -> None:
        last_full = time.monotonic()
        while True:
            await asyncio.sleep(self.pace)
            now = time.monotonic()
            if self.full_every > 0 and now - last_full >= self.full_every:
                last_full = now
                gc.collect(2)
            else:
                gc.collect(1)
