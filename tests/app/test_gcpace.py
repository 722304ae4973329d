"""The collector on the event loop's clock (app/gcpace.py)."""

from __future__ import annotations

import asyncio
import gc
import weakref

from app.gcpace import SAFETY_THRESHOLD, GcPacer


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref:
    """A two-object reference cycle that nothing else holds: only the collector frees it."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_paced_collections_free_cycles_that_the_allocation_count_never_reaches() -> None:
    seen: list[int] = []

    def record(phase: str, info: dict) -> None:
        if phase == "stop":
            seen.append(info["generation"])

    async def main() -> tuple[bool, tuple[int, int, int]]:
        pacer = GcPacer(0.01, 0)
        pacer.start()
        try:
            during = gc.get_threshold()
            gc.collect()
            seen.clear()  # that full collection was ours
            dead = cycle()
            for _ in range(100):  # a few ticks, far fewer allocations than the threshold
                await asyncio.sleep(0.01)
                if dead() is None:
                    break
            return dead() is None, during
        finally:
            pacer.stop()

    before = gc.get_threshold()
    gc.callbacks.append(record)
    try:
        freed, during = asyncio.run(main())
    finally:
        gc.callbacks.remove(record)
    assert freed, "the cycle was not collected on the clock"
    assert during[0] == SAFETY_THRESHOLD  # CPython's own trigger only as a safety net meanwhile
    assert 1 in seen and 2 not in seen  # young and middle each tick, no full collection asked
    assert gc.get_threshold() == before  # restored when the last pacer stops


def test_a_full_collection_comes_every_full_every_seconds() -> None:
    seen: list[int] = []

    def record(phase: str, info: dict) -> None:
        if phase == "stop":
            seen.append(info["generation"])

    async def main() -> None:
        pacer = GcPacer(0.01, 0.05)
        pacer.start()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 20  # a full collection of a big test process takes a while
        while seen.count(2) < 2 and loop.time() < deadline:
            await asyncio.sleep(0.01)
        pacer.stop()

    gc.callbacks.append(record)
    try:
        asyncio.run(main())
    finally:
        gc.callbacks.remove(record)
    assert seen.count(2) >= 2, seen
    assert seen[0] == 1, seen  # the ticks before the first full_every are young + middle ones


def test_two_pacers_restore_the_threshold_only_when_both_stopped() -> None:
    async def main() -> None:
        before = gc.get_threshold()
        one, two = GcPacer(0.05, 0), GcPacer(0.05, 0)
        one.start()
        two.start()
        one.stop()
        assert gc.get_threshold()[0] == SAFETY_THRESHOLD  # the other still runs
        two.stop()
        assert gc.get_threshold() == before

    asyncio.run(main())


def test_pace_zero_leaves_cpython_in_charge() -> None:
    async def main() -> None:
        before = gc.get_threshold()
        pacer = GcPacer(0, 600)
        pacer.start()
        assert pacer.task is None and gc.get_threshold() == before
        pacer.stop()

    asyncio.run(main())


def test_a_failed_start_up_leaves_the_collector_as_it_was(tmp_path) -> None:
    """Redis unreachable at start-up (a real closed port): the start fails with its error,
    and the pacer's thresholds and the stall watch's callback, which are the whole
    process's, are gone again (they once outlived such an app for the rest of a run)."""
    import socket

    import pytest
    from redis.exceptions import ConnectionError as RedisDown
    from starlette.testclient import TestClient

    from app.main import create_app

    from .conftest import make_settings

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    threshold, callbacks = gc.get_threshold(), list(gc.callbacks)
    app = create_app(make_settings(f"sqlite:///{tmp_path / 'k.db'}", redis_url=f"redis://127.0.0.1:{port}/0"))
    with pytest.raises(RedisDown), TestClient(app):
        pass
    assert gc.get_threshold() == threshold
    assert gc.callbacks == callbacks
    assert app.state.peers.fanout is None
