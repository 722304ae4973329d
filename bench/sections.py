"""Where the event loop's CPU goes per action, in the running server, section by section.

``bench/server.py`` with KOZYR_BENCH_SECTIONS=PATH starts ``kozyr serve`` through this
file (modes one and delta), which wraps a few functions of the action's path with a
thread-CPU clock (``time.thread_time_ns``, about 0.6 us a reading here) and, on
SIGUSR1, appends what they have summed so far to PATH as one JSON line.  The bench
signals at the start and at the end of its measuring window and prints the
difference per action (``sections_us``: microseconds of the loop thread's CPU per
action; ``other`` is the loop thread's whole CPU less the named sections: the event
loop itself, the ASGI receive, the coroutines of the action's path).

Whole-server CPU per action moves 10-30% between runs on this kind of machine; these
sections, read in the same run, tell which part of the path a change moved.  Each
reading costs the server about a microsecond, so the totals here are a little
higher than without it.

Sections (``push_views`` holds ``views``):

    receive     bytes parsed and queued for the app (uvicorn's websocket protocol's
                data_received, with the websockets library's parser)
    validate    pydantic reading the message (protocol.client_message)
    engine      LiveMatch.prepare: the checks and the engine's apply
    push_views  the views built and queued for the connections (MatchLoop.push_views)
    views       the views built and encoded (LiveMatch.view_json; inside push_views)
    sends       the frames built by the websockets library (Protocol.send_text, called
                by uvicorn's ASGI send from the connections' sender tasks; the
                socket writes themselves are in ``other``)
    record      the two statements of a batch (store.record_actions): the writer
                thread's CPU, not the loop's (not in ``other``)
    settle      the batch's futures settled on the loop
    metrics     Metrics.action_done (Prometheus counter and histogram)
    gc          the collector's pauses on the loop thread
    loop        the loop thread's whole CPU (/proc, 10 ms ticks)
"""

from __future__ import annotations

import functools
import gc
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CLOCK = time.thread_time_ns
# a section counted inside another one, or on another thread
NESTED = {"views": "push_views", "record": "the writer thread"}


class Sections:
    def __init__(self, path: str) -> None:
        self.path = path
        self.sums: dict[str, list[int]] = {}  # name: [ns, calls]
        self.loop_tid = threading.get_native_id()

    def wrap(self, owner: Any, attr: str, name: str) -> None:
        func = getattr(owner, attr)
        acc = self.sums.setdefault(name, [0, 0])

        @functools.wraps(func)
        def timed(*args, **kwargs):
            start = CLOCK()
            try:
                return func(*args, **kwargs)
            finally:
                acc[0] += CLOCK() - start
                acc[1] += 1

        setattr(owner, attr, timed)

    def install(self) -> None:
        from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
        from websockets.protocol import Protocol

        import app.main  # noqa: F401  - the app's modules, as uvicorn will find them
        from app import protocol
        from app.metrics import Metrics
        from app.rooms.live import LiveMatch
        from app.rooms.loop import MatchLoop

        self.wrap(WebSocketsSansIOProtocol, "data_received", "receive")
        self.wrap(Protocol, "send_text", "sends")
        self.wrap(LiveMatch, "prepare", "engine")
        self.wrap(LiveMatch, "view_json", "views")
        from app.db import store, writer
        self.wrap(store, "record_actions", "record")
        self.wrap(writer, "_settle_all", "settle")
        self.wrap(MatchLoop, "push_views", "push_views")
        self.wrap(Metrics, "action_done", "metrics")
        adapter = protocol.client_message

        class Timed:  # the TypeAdapter's own attributes are read-only: stand in for it
            def __getattr__(self, attr: str) -> Any:
                return getattr(adapter, attr)

            def validate_json(self, *args: Any, **kwargs: Any) -> Any:
                return adapter.validate_json(*args, **kwargs)

        self.wrap(Timed, "validate_json", "validate")
        protocol.client_message = Timed()  # type: ignore[assignment]
        gc_sum = self.sums.setdefault("gc", [0, 0])
        started = [0]

        def on_gc(phase: str, info: dict) -> None:
            if threading.get_native_id() != self.loop_tid:
                return
            if phase == "start":
                started[0] = CLOCK()
            else:
                gc_sum[0] += CLOCK() - started[0]
                gc_sum[1] += 1

        gc.callbacks.append(on_gc)
        signal.signal(signal.SIGUSR1, lambda *_: self.dump())

    def dump(self) -> None:
        fields = Path(f"/proc/self/task/{self.loop_tid}/stat").read_text().rsplit(")", 1)[1].split()
        loop_ns = (int(fields[11]) + int(fields[12])) * 1_000_000_000 // os.sysconf("SC_CLK_TCK")
        with open(self.path, "a") as out:
            out.write(json.dumps({"t": time.time(), "loop": [loop_ns, 0], **self.sums}) + "\n")


def per_action(path: str | Path) -> dict[str, float] | None:
    """The last two dumps in ``path``: microseconds per action of each section, and
    ``other`` (the loop thread less the named top-level sections); None if missing."""
    try:
        lines = Path(path).read_text().splitlines()
    except OSError:
        return None
    if len(lines) < 2:
        return None
    a, b = json.loads(lines[-2]), json.loads(lines[-1])
    actions = b["metrics"][1] - a["metrics"][1]
    if actions <= 0:
        return None
    us = {k: (b[k][0] - a[k][0]) / 1000 / actions for k in b if k != "t"}
    us["other"] = us["loop"] - sum(v for k, v in us.items() if k not in ("loop", *NESTED))
    return {k: round(v, 1) for k, v in us.items()}


if __name__ == "__main__":
    Sections(os.environ["KOZYR_BENCH_SECTIONS"]).install()
    from app.cli import main

    main(sys.argv[1:])
