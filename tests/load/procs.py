"""Real server processes for the load and fault tests: ``python -m app.cli serve``
on a free port, started, SIGKILLed and restarted; a small websocket seat client."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from websockets.sync.client import connect as ws_connect

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("KOZYR_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
METRICS_TOKEN = "test-metrics"  # KOZYR_METRICS_TOKEN of the servers started here
METRICS_AUTH = {"Authorization": f"Bearer {METRICS_TOKEN}"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProc:
    """One server process; ``env`` adds to the environment (REDIS_URL, limits ...)."""

    def __init__(self, database_url: str, log_path: Path, **env: str) -> None:
        self.port = free_port()
        self.database_url = database_url
        self.log_path = log_path
        self.env = env
        self.proc: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, code: str, token: str) -> str:
        return f"ws://127.0.0.1:{self.port}/api/rooms/{code}/ws?token={token}"

    def start(self) -> ServerProc:
        env = {**os.environ, "DATABASE_URL": self.database_url, "KOZYR_ALLOW_FIXED_SEED": "1",
               "KOZYR_LOG_LEVEL": "WARNING", "KOZYR_MESSAGES_PER_SECOND": "10000",
               "KOZYR_ROOM_LOOKUP_BURST": "1000000", "KOZYR_PLAYER_CREATE_BURST": "1000000",
               "KOZYR_METRICS_TOKEN": METRICS_TOKEN, **self.env}  # self.env overrides any
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen([sys.executable, "-m", "app.cli", "serve", "--port", str(self.port)],
                                     cwd=ROOT, env=env, stdout=log, stderr=log)
        wait_healthy(self.base, self.proc, 60, lambda: self.log_path.read_text()[-3000:])
        return self

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


def wait_healthy(base: str, proc: subprocess.Popen, seconds: float, log_tail) -> None:
    """Wait until ``base``/healthz answers 200; RuntimeError (with ``log_tail()``) if
    ``proc`` exits first or ``seconds`` pass."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args[0]} exited: {log_tail()}")
        try:
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{base} did not answer within {seconds:g} s: {log_tail()}")


def new_table(base: str, variant: str, seats: int, options: dict, seed: int) -> tuple[str, str, list[dict]]:
    """Players, a room with every seat taken and a started match: (code, match id, players)."""
    with httpx.Client(base_url=base, timeout=30) as http:
        players = [http.post("/api/players", json={"name": f"Игрок {i}"}).json() for i in range(seats)]
        hdr = [{"Authorization": f"Bearer {p['token']}"} for p in players]
        r = http.post("/api/rooms", headers=hdr[0], json={"variant": variant, "options": options,
                                                           "seats": seats})
        assert r.status_code == 201, r.text
        code = r.json()["code"]
        for i in range(1, seats):
            assert http.post(f"/api/rooms/{code}/seats/{i}", headers=hdr[i]).status_code == 200
        r = http.post(f"/api/rooms/{code}/start", headers=hdr[0], json={"seed": seed})
        assert r.status_code == 200, r.text
        return code, r.json()["match"]["id"], players


class Seat:
    """A blocking websocket client for one seat."""

    def __init__(self, url: str, seat: int) -> None:
        self.seat = seat
        self.ws = ws_connect(url, open_timeout=20, max_size=2**22, legacy=True)
        self.view: dict | None = None

    def recv(self, timeout: float = 20) -> dict:
        msg = json.loads(self.ws.recv(timeout=timeout))
        assert isinstance(msg["version"], int)
        if msg["type"] == "view":
            self.view = msg
        return msg

    def until(self, pred, timeout: float = 20) -> dict:
        while True:
            msg = self.recv(timeout)
            if pred(msg):
                return msg

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:
            pass


def person_like(legal: list[str], rng) -> str:
    """Pass often when bidding (keeps matches of random play short), else any legal move."""
    return "pass" if "pass" in legal and rng.random() < 0.6 else rng.choice(legal)


def run_async(coro_factory):
    """Run ``coro_factory()`` to completion on a fresh event loop in its own
    thread: the sync Playwright fixtures of the browser tests keep an event
    loop running on the main thread for the whole session."""
    import asyncio
    import threading

    box: dict = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(coro_factory())
        except BaseException as e:  # re-raised in the caller's thread
            box["error"] = e

    t = threading.Thread(target=target, name="load-test-loop")
    t.start()
    t.join()
    if "error" in box:
        raise box["error"]
    return box.get("value")
