"""Two real server processes (different ports) on one PostgreSQL and one Redis serve
one room with no sticky sessions: four seats split over the two play a short
Тысяча; one process is SIGKILLed mid-match, its seats reconnect to the other and
the match is finished there.  The log equals every acknowledged action."""

from __future__ import annotations

import json
import random

import httpx
import pytest

from engine import find_variant

from .procs import Seat, ServerProc, new_table, person_like

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
