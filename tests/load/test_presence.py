"""Presence across real server processes on one PostgreSQL and one Redis: a player
connected to another process shows as connected (``presence`` messages and the REST
room), a socket that closes shows as gone, a SIGKILLed process's players stop
showing after its reports expire, and a process that stops gracefully tells the
others at once (its reports would only expire after a minute)."""

from __future__ import annotations

import time

import httpx
import pytest

from .procs import Seat, ServerProc, new_table

FAST = {"KOZYR_PRESENCE_HEARTBEAT": "0.3", "KOZYR_PRESENCE_EXPIRY": "1.5"}
SLOW_EXPIRY = {"KOZYR_PRESENCE_HEARTBEAT": "0.3", "KOZYR_PRESENCE_EXPIRY": "60"}


def flags(msg: dict) -> dict[int, bool]:
    return {s["seat"]: s["connected"] for s in msg["seats"]}


def wait_presence(seat: Seat, want: dict[int, bool], spectators: int | None = None,
                  timeout: float = 8) -> tuple[dict, float]:
    """The first ``presence`` message with these flags (and spectator count); and how long it took."""
    start = time.monotonic()

    def good(m: dict) -> bool:
        return (m["type"] == "presence" and all(flags(m)[k] == v for k, v in want.items())
                and (spectators is None or m["spectators"] == spectators))
    msg = seat.until(good, timeout)
    return msg, time.monotonic() - start


def rest_flags(base: str, code: str) -> dict[int, bool]:
    r = httpx.get(f"{base}/api/rooms/{code}", timeout=10)
    assert r.status_code == 200, r.text
    return {s["seat"]: s["connected"] for s in r.json()["seats"]}


@pytest.mark.postgres
@pytest.mark.timeout(90)
def test_presence_across_processes(tmp_path, pg_database, redis_url):
    a = ServerProc(pg_database, tmp_path / "a.log", REDIS_URL=redis_url, **FAST).start()
    b = ServerProc(pg_database, tmp_path / "b.log", REDIS_URL=redis_url, **FAST).start()
    c = None
    clients: list[Seat] = []
    try:
        code, _, players = new_table(a.base, "thousand-1000-2p", 2, {"goal": 100}, 11)
        with httpx.Client(base_url=a.base, timeout=10) as http:
            watcher = http.post("/api/players", json={"name": "Зритель"}).json()

        # Seat 0 talks to process A, seat 1 to process B: each sees the other connected.
        p0 = Seat(a.ws_url(code, players[0]["token"]), 0)
        clients.append(p0)
        wait_presence(p0, {0: True, 1: False})
        p1 = Seat(b.ws_url(code, players[1]["token"]), 1)
        clients.append(p1)
        _, took = wait_presence(p0, {0: True, 1: True}, spectators=0)
        wait_presence(p1, {0: True, 1: True}, spectators=0)
        assert rest_flags(a.base, code) == {0: True, 1: True}
        assert rest_flags(b.base, code) == {0: True, 1: True}
        print(f"\nA saw B's seat connected after {took:.2f} s")

        # A spectator on B counts on A too.
        spy = Seat(b.ws_url(code, watcher["token"]), None)
        clients.append(spy)
        wait_presence(p0, {0: True, 1: True}, spectators=1)
        spy.close()
        wait_presence(p0, {0: True, 1: True}, spectators=0)

        # Seat 1 closes its socket: A shows it gone (and back when it reconnects).
        p1.close()
        wait_presence(p0, {0: True, 1: False})
        assert rest_flags(a.base, code) == {0: True, 1: False}
        p1 = Seat(b.ws_url(code, players[1]["token"]), 1)
        clients.append(p1)
        wait_presence(p0, {0: True, 1: True})

        # Process B dies with seat 1 connected: no goodbye; its report expires on A.
        killed = time.monotonic()
        b.kill()
        wait_presence(p0, {0: True, 1: False}, timeout=10)
        gone = time.monotonic() - killed
        assert rest_flags(a.base, code) == {0: True, 1: False}
        print(f"seat 1 shown disconnected {gone:.2f} s after the SIGKILL of B (expiry 1.5 s)")

        # A process started later learns A's players; stopped gracefully, it tells A at
        # once (its reports last 60 s, so waiting for the expiry would fail the test).
        c = ServerProc(pg_database, tmp_path / "c.log", REDIS_URL=redis_url, **SLOW_EXPIRY).start()
        p1 = Seat(c.ws_url(code, players[1]["token"]), 1)
        clients.append(p1)
        wait_presence(p1, {0: True, 1: True})
        wait_presence(p0, {0: True, 1: True})
        stopped = time.monotonic()
        c.stop()
        wait_presence(p0, {0: True, 1: False}, timeout=10)
        assert time.monotonic() - stopped < 15
    finally:
        for s in clients:
            s.close()
        a.stop()
        b.stop()
        if c is not None:
            c.stop()


def test_hub_merges_and_forgets_remote_reports():
    """The bookkeeping behind the above, without servers: local ∪ unexpired remote
    sets; a report that is not renewed, or whose process said goodbye, is gone."""
    from app.rooms.hub import Hub

    hub = Hub()
    now = time.monotonic()
    assert hub.set_remote("p1", "R", frozenset({1, 2}), now + 60)
    assert not hub.set_remote("p1", "R", frozenset({1, 2}), now + 90)  # renewed, same players
    assert hub.set_remote("p2", "R", frozenset({3}), now + 60)
    assert hub.set_remote("p2", "S", frozenset({4}), now - 1)  # already stale
    assert hub.connected_players("R") == {1, 2, 3}
    assert hub.connected_players("S") == set()  # an expired report counts for nothing ...
    assert hub.expire(time.monotonic()) == {"S"}  # ... and the sweep frees it
    assert "S" not in hub.remote and hub.remote_codes("p2") == {"R"}
    assert hub.set_remote("p1", "R", frozenset(), 0.0)  # p1's players left R
    assert hub.connected_players("R") == {3}
    assert hub.drop_origin("p2") == {"R"}  # p2 stopped
    assert hub.remote == {} and hub.remote_rooms == {}
