"""Crash recovery: the real server as a subprocess, SIGKILLed mid-match and restarted.

Every acknowledged action must survive; the match is then finished with the
same player tokens over real websockets (the ``websockets`` client)."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect as ws_connect

from engine import VARIANTS, find_variant

from .helpers import short_options

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not VARIANTS, reason="no variant registered yet")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``python -m app.cli serve`` on a free port."""

    def __init__(self, database_url: str, log_path: Path) -> None:
        self.port = free_port()
        self.database_url = database_url
        self.log_path = log_path
        self.proc: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = dict(os.environ, DATABASE_URL=self.database_url, KOZYR_ALLOW_FIXED_SEED="1",
                   KOZYR_LOG_LEVEL="WARNING", KOZYR_MESSAGES_PER_SECOND="10000")
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen([sys.executable, "-m", "app.cli", "serve", "--port", str(self.port)],
                                     cwd=ROOT, env=env, stdout=log, stderr=log)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-2000:]}")
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


class Seat:
    def __init__(self, server: Server, code: str, token: str, seat: int) -> None:
        self.seat = seat
        self.ws = ws_connect(f"ws://127.0.0.1:{server.port}/api/rooms/{code}/ws?token={token}",
                             open_timeout=10, legacy=True)
        self.view: dict | None = None

    def recv(self, timeout: float = 10) -> dict:
        msg = json.loads(self.ws.recv(timeout=timeout))
        assert isinstance(msg["version"], int)
        if msg["type"] == "view":
            self.view = msg
        return msg

    def until(self, pred, timeout: float = 10) -> dict:
        while True:
            msg = self.recv(timeout)
            if pred(msg):
                return msg

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:
            pass


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
        players = [httpx.post(server.base + "/api/players", json={"name": f"Игрок {i}"}).json()
                   for i in range(n)]
        hdr = [{"Authorization": f"Bearer {p['token']}"} for p in players]
        room = httpx.post(server.base + "/api/rooms", headers=hdr[0],
                          json={"variant": variant_id, "options": short_options(variant_id)}).json()
        code = room["code"]
        for i in range(1, n):
            assert httpx.post(f"{server.base}/api/rooms/{code}/seats/{i}", headers=hdr[i]).status_code == 200
        r = httpx.post(f"{server.base}/api/rooms/{code}/start", headers=hdr[0], json={"seed": 4242})
        match_id = r.json()["match"]["id"]
        seats = [Seat(server, code, p["token"], i) for i, p in enumerate(players)]
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
        seats = [Seat(server, code, p["token"], i) for i, p in enumerate(players)]
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
