"""Crash recovery: the real server as a subprocess, SIGKILLed mid-match and restarted.

Every acknowledged action must survive; the match is then finished with the
same player tokens over real websockets (the ``websockets`` client)."""

from __future__ import annotations

import json
import random

import httpx
import pytest

from engine import VARIANTS, find_variant
from tests.load.procs import Seat, new_table
from tests.load.procs import ServerProc as Server

from .helpers import short_options

pytestmark = pytest.mark.skipif(not VARIANTS, reason="no variant registered yet")


def play(seats: list[Seat], rng: random.Random, count: int | None, acked: list) -> None:
    """Play ``count`` actions (None: to the end), each acknowledged and seen by all."""
    done = 0
    while count is None or done < count:
        view = seats[0].view["view"]
        if view["phase"] == "match_over" or not view["to_act"]:
            return
        s = seats[rng.choice(view["to_act"])]
        legal = s.view["view"]["legal"]
        action = "pass" if "pass" in legal and rng.random() < 0.6 else rng.choice(legal)
        version = s.view["version"]
        s.ws.send(json.dumps({"type": "action", "client_id": f"k{version}", "action": action,
                              "version": version}))
        ack = s.until(lambda m: m["type"] in ("ack", "error"))
        assert ack["type"] == "ack", ack
        acked.append((s.seat, action))
        for t in seats:
            t.until(lambda m, v=version: m["type"] == "view" and m["version"] == v + 1)
        done += 1


@pytest.mark.timeout(240)
@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_sigkill_loses_no_acknowledged_action(tmp_path, request, backend):
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path / 'kozyr.db'}"
    else:
        url = request.getfixturevalue("pg_database")
    variant_id = VARIANTS[0]
    n = find_variant(variant_id).seat_counts[0]
    rng = random.Random(17)
    server = Server(url, tmp_path / "server.log")
    server.start()
    seats: list[Seat] = []
    try:
        code, match_id, players = new_table(server.base, variant_id, n, short_options(variant_id), 4242)
        seats = [Seat(server.ws_url(code, p["token"]), i) for i, p in enumerate(players)]
        for s in seats:
            s.until(lambda m: m["type"] == "view")
        acked: list[tuple[int, str]] = []
        play(seats, rng, 12, acked)
        # One more action in flight, then the server dies at once.
        s = seats[seats[0].view["view"]["to_act"][0]]
        in_flight = s.view["view"]["legal"][0]
        s.ws.send(json.dumps({"type": "action", "client_id": "last", "action": in_flight}))
        server.kill()
        for s in seats:
            s.close()

        server.start()
        detail = httpx.get(f"{server.base}/api/matches/{match_id}").json()
        assert detail["status"] == "playing"
        assert detail["version"] in (len(acked), len(acked) + 1)
        if detail["version"] == len(acked) + 1:
            acked.append((s.seat, in_flight))
        seats = [Seat(server.ws_url(code, p["token"]), i) for i, p in enumerate(players)]
        for s in seats:
            welcome = s.until(lambda m: m["type"] == "welcome")
            assert welcome["seat"] == s.seat and welcome["version"] == len(acked)
            s.until(lambda m: m["type"] == "view")
        # The rebuilt match is the one played: compare with a replay of the acked log.
        ref = find_variant(variant_id).new_match(
            n, seed=4242, options=find_variant(variant_id).resolve_options(short_options(variant_id)))
        for seat, action in acked:
            ref.apply(seat, action)
        for s in seats:
            assert s.view["view"] == ref.view(s.seat)
        play(seats, rng, None, acked)
        assert seats[0].view["view"]["phase"] == "match_over"
        data = httpx.get(f"{server.base}/api/matches/{match_id}/export.json").json()
        assert [tuple(a) for a in data["actions"]] == acked
        assert data["status"] == "finished" and data["seed"] == 4242
    finally:
        for s in seats:
            s.close()
        server.stop()
