"""Two real server processes (different ports) on one PostgreSQL and one Redis serve
one room with no sticky sessions: four seats split over the two play a short
Тысяча; one process is SIGKILLed mid-match, its seats reconnect to the other and
the match is finished there.  The log equals every acknowledged action."""

from __future__ import annotations

import asyncio
import json
import random

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from engine import find_variant

from .procs import Seat, ServerProc, new_table, person_like, run_async

VARIANT, SEATS, OPTIONS, SEED = "thousand-1001", 4, {"goal": 100}, 4321
pytestmark = pytest.mark.postgres


def act(seats: list[Seat], rng: random.Random, acked: list) -> bool:
    """One action by the seat to act, acknowledged and seen by all; False at the end."""
    view = seats[0].view["view"]
    if view["phase"] == "match_over" or not view["to_act"]:
        return False
    s = seats[rng.choice(view["to_act"])]
    version = s.view["version"]
    action = person_like(s.view["view"]["legal"], rng)
    s.ws.send(json.dumps({"type": "action", "client_id": f"m{version}", "action": action,
                          "version": version}))
    ack = s.until(lambda m: m["type"] in ("ack", "error"))
    assert ack["type"] == "ack", ack
    assert ack["seq"] == version
    acked.append((s.seat, action))
    for t in seats:  # every seat, whichever process it talks to, sees the result
        t.until(lambda m, v=version: m["type"] == "view" and m["version"] == v + 1)
    return True


@pytest.mark.timeout(180)
def test_two_processes_one_room_and_one_dies(tmp_path, pg_database, redis_url):
    a = ServerProc(pg_database, tmp_path / "a.log", REDIS_URL=redis_url).start()
    b = ServerProc(pg_database, tmp_path / "b.log", REDIS_URL=redis_url).start()
    seats: list[Seat] = []
    try:
        code, match_id, players = new_table(a.base, VARIANT, SEATS, OPTIONS, SEED)
        where = [a, a, b, b]  # seats 0, 1 on A; 2, 3 on B
        seats = [Seat(where[i].ws_url(code, p["token"]), i) for i, p in enumerate(players)]
        for s in seats:
            s.until(lambda m: m["type"] == "view" and m["view"] is not None)
        rng = random.Random(5)
        acked: list[tuple[int, str]] = []
        for _ in range(12):
            assert act(seats, rng, acked)
        by_a = {seat for seat, _ in acked if seat in (0, 1)}
        by_b = {seat for seat, _ in acked if seat in (2, 3)}
        assert by_a and by_b, "both processes took actions"

        a.kill()  # no goodbye: its sockets just die
        for s in seats[:2]:
            s.close()
        seats[:2] = [Seat(b.ws_url(code, players[i]["token"]), i) for i in range(2)]
        for s in seats[:2]:
            welcome = s.until(lambda m: m["type"] == "welcome")
            assert welcome["version"] == len(acked)
            s.until(lambda m: m["type"] == "view")
        while act(seats, rng, acked):
            pass
        assert len(acked) > 12

        data = httpx.get(f"{b.base}/api/matches/{match_id}/export.json").json()
        assert data["status"] == "finished"
        assert [tuple(x) for x in data["actions"]] == acked
        ref = find_variant(VARIANT).new_match(SEATS, seed=SEED,
                                              options=find_variant(VARIANT).resolve_options(OPTIONS))
        for seat, action in acked:
            ref.apply(seat, action)
        assert ref.is_over()
        for s in seats:
            assert s.view["view"] == ref.view(s.seat)
        print(f"\n{len(acked)} actions; 12 before the SIGKILL of process A, the rest on B")
    finally:
        for s in seats:
            s.close()
        a.stop()
        b.stop()


# -- several rooms playing at once when one of the two processes dies ---------------

ROOMS = 6


class LiveSeat:
    """An asyncio websocket client of one seat: a reader task keeps its latest view
    and every ack / error it receives."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.view: dict | None = None
        self.replies: list[dict] = []
        self.ws = None
        self.task: asyncio.Task | None = None
        self.fresh = False  # got a view on its current connection

    async def open(self, url: str) -> None:
        self.ws = await connect(url, open_timeout=20, max_size=2**22)
        self.fresh = False
        self.task = asyncio.create_task(self._read(self.ws))

    async def _read(self, ws) -> None:
        try:
            async for raw in ws:
                msg = json.loads(raw)
                if msg["type"] == "view" and msg["view"] is not None:
                    self.view, self.fresh = msg, True
                elif msg["type"] in ("ack", "error"):
                    self.replies.append(msg)
        except ConnectionClosed:
            pass

    @property
    def alive(self) -> bool:
        return self.task is not None and not self.task.done()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


async def wait(pred, timeout: float = 20) -> bool:
    end = asyncio.get_running_loop().time() + timeout
    while not pred():
        if asyncio.get_running_loop().time() > end:
            return False
        await asyncio.sleep(0.01)
    return True


async def play_room(n: int, code: str, players: list[dict], a: ServerProc, b: ServerProc,
                    killed: asyncio.Event, acked: dict, back: dict) -> None:
    """Play the room (seats 0-1 on A, 2-3 on B) until, after A's death, its seats are
    back on B and the room made three more actions that every seat saw."""
    rng = random.Random(100 + n)
    seats = [LiveSeat(i) for i in range(SEATS)]
    for s, p in zip(seats, players, strict=True):
        await s.open((a if s.seat < 2 else b).ws_url(code, p["token"]))
    moved = False
    after = 0
    try:
        while after < 3:
            assert await wait(lambda m=moved: all(t.view for t in seats) and
                              len({t.view["version"] for t in seats}) == 1 or killed.is_set() and not m)
            if killed.is_set() and not moved:  # A is gone: its seats reconnect to B, same tokens
                assert await wait(lambda: not seats[0].alive and not seats[1].alive, 10)
                for s in seats[:2]:
                    await s.open(b.ws_url(code, players[s.seat]["token"]))
                assert await wait(lambda: seats[0].fresh and seats[1].fresh)
                moved = True
                continue
            view = seats[0].view
            version = view["version"]
            if view["view"]["phase"] == "match_over":
                break
            s = seats[rng.choice(view["view"]["to_act"])]
            cid = f"k{version}"
            s.replies.clear()
            try:
                await s.ws.send(json.dumps({"type": "action", "client_id": cid, "version": version,
                                            "action": person_like(s.view["view"]["legal"], rng)}))
            except ConnectionClosed:
                continue  # A died under us: the next round moves the seats
            if not await wait(lambda s=s: bool(s.replies) or not s.alive, 10):
                raise AssertionError(f"room {n}: no reply to {cid}")
            for r in s.replies:
                if r["type"] == "ack":
                    acked[(r["match"], r["seq"], r["client_id"])] = n
            if s.replies and s.replies[0]["type"] == "ack":
                await wait(lambda v=version: all(t.view["version"] > v for t in seats) or
                           not all(t.alive for t in seats), 10)
                if moved and all(t.view["version"] > version for t in seats):
                    after += 1
        back[n] = moved
    finally:
        for s in seats:
            await s.close()


@pytest.mark.timeout(240)
def test_rooms_survive_a_sigkill_of_one_process(tmp_path, pg_database, redis_url):
    """ROOMS rooms play at once, every room with seats on both processes; A is SIGKILLed
    mid-play; the seats of A reconnect to B and every room plays on.  No acknowledged
    action is lost: every ack any client got is in the log at its seq."""
    a = ServerProc(pg_database, tmp_path / "a.log", REDIS_URL=redis_url).start()
    b = ServerProc(pg_database, tmp_path / "b.log", REDIS_URL=redis_url).start()
    try:
        tables = [new_table(a.base, VARIANT, SEATS, {"goal": 1001}, 700 + n) for n in range(ROOMS)]
        acked: dict = {}
        back: dict = {}

        async def main() -> None:
            killed = asyncio.Event()
            rooms = [asyncio.create_task(play_room(n, code, players, a, b, killed, acked, back))
                     for n, (code, _, players) in enumerate(tables)]
            await asyncio.sleep(3.0)
            a.kill()  # mid-flight: some actions sent to A are not acknowledged
            killed.set()
            await asyncio.gather(*rooms)
        run_async(main)

        assert len(acked) >= ROOMS * 3, "the load did not get going"
        assert back == {n: True for n in range(ROOMS)}, back  # every room back and playing on B
        import psycopg
        with psycopg.connect(pg_database) as c:
            logged = set(c.execute("SELECT match_id, seq, client_id FROM actions").fetchall())
        lost = [k for k in acked if k not in logged]
        print(f"\n{ROOMS} rooms, {len(acked)} acknowledged actions, {len(lost)} lost; every room "
              "went on after the SIGKILL of A")
        assert lost == []
    finally:
        a.stop()
        b.stop()
