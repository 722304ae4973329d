"""Real server processes for the load and fault tests: ``python -m app.cli serve``
on a free port, started, SIGKILLed and restarted; a small websocket seat client, and a
raw one on a bare socket (``Raw``: writes bytes as told, reads frames)."""

from __future__ import annotations

import base64
import json
import os
import signal
import socket
import struct
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
    """One server process; ``env`` adds to the environment (REDIS_URL, limits ...) and
    overrides the tests' defaults."""

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


def frame(payload: bytes, opcode: int = 1, fin: bool = True, masked: bool = True) -> bytes:
    """A client's frame (RFC 6455 5.2), masked unless told not to."""
    head = bytes([(0x80 if fin else 0) | opcode])
    n = len(payload)
    bit = 0x80 if masked else 0
    if n < 126:
        head += bytes([bit | n])
    elif n < 65536:
        head += bytes([bit | 126]) + struct.pack("!H", n)
    else:
        head += bytes([bit | 127]) + struct.pack("!Q", n)
    if not masked:
        return head + payload
    mask = os.urandom(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def ping(nonce: int) -> bytes:
    return frame(json.dumps({"type": "ping", "nonce": nonce}).encode())


class Raw:
    """A websocket client on a bare socket: it writes bytes as told and reads frames."""

    def __init__(self, srv: ServerProc, code: str, token: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", srv.port), timeout=20)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /api/rooms/{code}/ws?token={token} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                           "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            self.buf += self._recv()
        head, _, self.buf = self.buf.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head

    def _recv(self) -> bytes:
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("closed")
        return data

    def _need(self, n: int) -> None:
        while len(self.buf) < n:
            self.buf += self._recv()

    def next_frame(self) -> tuple[int, bytes]:
        self._need(2)
        opcode, n = self.buf[0] & 0x0F, self.buf[1] & 0x7F
        pos = 2
        if n == 126:
            self._need(4)
            n, pos = struct.unpack("!H", self.buf[2:4])[0], 4
        elif n == 127:
            self._need(10)
            n, pos = struct.unpack("!Q", self.buf[2:10])[0], 10
        self._need(pos + n)
        payload, self.buf = self.buf[pos:pos + n], self.buf[pos + n:]
        return opcode, payload

    def next_message(self, kind: str) -> dict:
        while True:
            opcode, payload = self.next_frame()
            if opcode == 1:
                msg = json.loads(payload)
                if msg["type"] == kind:
                    return msg

    def pongs(self, count: int) -> list[int]:
        return [self.next_message("pong")["nonce"] for _ in range(count)]

    def close_code(self) -> int:
        while True:
            opcode, payload = self.next_frame()
            if opcode == 8:
                return struct.unpack("!H", payload[:2])[0]

    def dribble(self, data: bytes, step: int = 1) -> None:
        """``data`` a few bytes per write, each write its own segment."""
        for i in range(0, len(data), step):
            self.sock.sendall(data[i:i + step])
            time.sleep(0.002)

    def close(self) -> None:
        self.sock.close()
