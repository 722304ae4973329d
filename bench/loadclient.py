"""One worker process of the bench/server.py load client (started by it; not a tool on its own).

    python bench/loadclient.py CONFIG.json

CONFIG.json holds this worker's slice of the rooms (whole rooms: the seats of a
room are all here, so "the last seat got the view" is decided in one process),
the seconds between a room's actions and the base URL for rematches (none for
the bare server).  The worker connects every seat, lets the seat to act play at
most once per period, each room at its own moment in the period (random, kept
after a late view: see seat_client), and talks to the parent over pipes, one
JSON line or word per message:

  stdout  {"ready": seats that have their first view, "failed": seats that gave up}
          (whenever it changes), then at the end one {"result": {...}} line with
          the raw latencies in seconds and the counts
  stdin   ``settle`` (every seat has joined: the warm-up starts) collects and
          freezes what the worker holds, ``measure`` starts the measuring window,
          ``end`` closes it: the worker prints its result and exits

Cheap on purpose: a view's envelope (type, version, match) is read with one
anchored regex, and the full JSON is parsed only by the first seat of a room to
get that version (who is to act next, is the match over) and by the seat that
acts (its legal actions).  Every other message (acks, errors, presence, a view
in another layout) is parsed in full, so errors are counted as before.  No
timeout task per receive (the parent's ``end`` cancels the seats), the
collector frozen once the sockets are set up and then run on the clock like the
server's (app/gcpace.py), and uvloop when it is installed.  And a bare websocket
(``RawSocket``: the opening handshake and RFC 6455 framing on a plain asyncio
protocol, a few lines for the few kinds of frame a server sends), not the websockets
library's client, whose parser, assembler and futures cost the client several times
as much per message: the client shares the two cores with the server it measures.
KOZYR_BENCH_CLIENT=websockets brings the library's client back, to compare.
"""

from __future__ import annotations

import asyncio
import base64
import gc
import json
import math
import os
import random
import re
import resource
import sys
import time
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.speedups import apply_mask

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from app.gcpace import GcPacer  # noqa: E402  the server's own clock-paced collector

# What the servers send first: {"type":"view","version":N,"match":"id","view":...}
# (compact in app/, with spaces in bench/broadcast_server.py).  The match id is kept
# as its JSON literal: it only has to be equal for the seats of one room.
VIEW_HEAD = re.compile(r'\{"type": ?"view", ?"version": ?(-?\d+), ?"match": ?("(?:[^"\\]|\\.)*"|null), ?"view": ?')


class RawSocket(asyncio.Protocol):
    """A client websocket on a bare asyncio protocol (RFC 6455): the opening handshake,
    then the server's frames read straight from the bytes (unmasked; text, close, ping
    and pong, final or fragmented) and the client's written masked.  ``recv`` returns
    the next text; a closed connection raises ConnectionError (an OSError)."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buf = bytearray()
        self.open = False
        self.texts: deque[str] = deque()
        self.waiter: asyncio.Future | None = None
        self.parts: list[bytes] = []  # a fragmented message's frames so far
        self.closed: str | None = None
        self.handshake: asyncio.Future = asyncio.get_running_loop().create_future()

    @classmethod
    async def connect(cls, url: str, timeout: float) -> RawSocket:
        u = urlsplit(url)
        loop = asyncio.get_running_loop()
        _, sock = await asyncio.wait_for(loop.create_connection(cls, u.hostname, u.port), timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        target = u.path + (f"?{u.query}" if u.query else "")
        assert sock.transport is not None
        sock.transport.write((f"GET {target} HTTP/1.1\r\nHost: {u.netloc}\r\nUpgrade: websocket\r\n"
                              f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                              "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        try:
            await asyncio.wait_for(asyncio.shield(sock.handshake), timeout)
        except BaseException:
            sock.transport.abort()
            raise
        return sock

    def connection_made(self, transport) -> None:  # type: ignore[override]
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        buf = self.buf
        buf += data
        if not self.open:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            status = bytes(buf[:buf.find(b"\r\n")])
            del buf[:end + 4]
            if not status.startswith(b"HTTP/1.1 101"):
                self._lost(f"handshake refused: {status.decode(errors='replace')}")
                return
            self.open = True
            self.handshake.set_result(None)
        pos, end, texts = 0, len(buf), self.texts
        while end - pos >= 2:
            head, n = buf[pos], buf[pos + 1] & 0x7F
            at = pos + 2
            if n == 126:
                if end - at < 2:
                    break
                n, at = int.from_bytes(buf[at:at + 2], "big"), at + 2
            elif n == 127:
                if end - at < 8:
                    break
                n, at = int.from_bytes(buf[at:at + 8], "big"), at + 8
            if end - at < n:
                break
            payload = bytes(buf[at:at + n])
            pos = at + n
            opcode = head & 0x0F
            if opcode in (0, 1, 2):  # continuation, text, binary
                if head & 0x80:  # final
                    if self.parts:
                        payload, self.parts = b"".join([*self.parts, payload]), []
                    texts.append(payload.decode())
                else:
                    self.parts.append(payload)
            elif opcode == 8:  # close: answered, then the socket is done
                self.send_frame(0x88, payload[:2])
                self._lost(f"closed by the server ({int.from_bytes(payload[:2], 'big') if payload else 1005})")
                return
            elif opcode == 9:
                self.send_frame(0x8A, payload)  # pong
        del buf[:pos]
        if texts and self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    def connection_lost(self, exc: Exception | None) -> None:
        self._lost(f"connection lost ({exc!r})" if exc else "connection lost")

    def _lost(self, why: str) -> None:
        if self.closed is None:
            self.closed = why
        if not self.handshake.done():
            self.handshake.set_exception(ConnectionError(why))
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)
        if self.transport is not None:
            self.transport.close()

    async def recv(self) -> str:
        while not self.texts:
            if self.closed is not None:
                raise ConnectionError(self.closed)
            self.waiter = asyncio.get_running_loop().create_future()
            await self.waiter
        return self.texts.popleft()

    def send_frame(self, head: int, payload: bytes) -> None:
        n = len(payload)
        if n < 126:
            frame = bytes((head, 0x80 | n))
        elif n < 65536:
            frame = bytes((head, 0xFE)) + n.to_bytes(2, "big")
        else:
            frame = bytes((head, 0xFF)) + n.to_bytes(8, "big")
        mask = os.urandom(4)
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(frame + mask + apply_mask(payload, mask))

    async def send(self, text: str) -> None:
        if self.closed is not None:
            raise ConnectionError(self.closed)
        self.send_frame(0x81, text.encode())


def open_socket(url: str):
    """An async context manager of a client websocket: RawSocket, or (KOZYR_BENCH_CLIENT=
    websockets) the websockets library's."""
    if os.environ.get("KOZYR_BENCH_CLIENT") == "websockets":
        return connect(url, max_size=2**22, open_timeout=120)
    return _raw(url)


@asynccontextmanager
async def _raw(url: str) -> AsyncIterator[RawSocket]:
    sock = await RawSocket.connect(url, 120)
    try:
        yield sock
    finally:
        assert sock.transport is not None
        sock.transport.close()


class Worker:
    def __init__(self) -> None:
        self.latencies: list[float] = []  # send -> the last seat of the room has the view
        self.actions = 0
        self.errors = 0
        self.matches = 0
        self.failures: list[str] = []
        self.joins: list[tuple[str, float, float]] = []  # (host:port, handshake s, first view s)
        self.ready = 0  # seats that have their first view
        self.measuring = False
        self.views = 0  # views handled, and of them the ones parsed in full
        self.deltas = 0  # of them, deltas (mode delta)
        self.full_parses = 0
        self.acked: list[list] = []  # mode kill: [match id, seq, client_id] of every ack received
        self.killed_at: float | None = None  # mode kill: when the parent SIGKILLed a server
        self.back: dict[str, float] = {}  # mode kill: room -> when it was back and playing


class Table:
    """One room as the client sees it: when to act next, which seat has which view."""

    def __init__(self, code: str, tokens: list[str], urls: list[str], seed: float, period: float,
                 delta: bool = False, alt: list[str | None] | None = None) -> None:
        self.code, self.tokens, self.urls, self.period = code, tokens, urls, period
        self.alt = alt or [None] * len(urls)  # mode kill: where a seat reconnects if its server dies
        self.moved: set[int] = set()  # seats that reconnected to their alt URL
        self.kill_pos: tuple[int, int] | None = None  # the room's position when the server was killed
        self.track = any(self.alt)  # mode kill: keep every ack (to find them in the log afterwards)
        self.delta = delta  # ask for deltas after actions (README "Agreed additions")
        self.rng = random.Random(seed)
        self.next_at = time.perf_counter() + self.rng.random() * period  # spread the rooms over the second
        # A room's position is (match number in the order this client first saw the
        # matches, version): tuples compare in play order, across rematches too.
        self.match_no: dict[str, int] = {}  # match id (its JSON literal) -> its number
        self.have = [(-1, -1)] * len(urls)  # per seat: the newest position it has a view of
        self.sent: dict[tuple[int, int], float] = {}  # position acted on -> send time
        self.info: dict[tuple[int, int], tuple[list[int], bool]] = {}  # position -> (to_act, over)
        self.acted: set[tuple[int, int]] = set()


async def post(http: httpx.AsyncClient, url: str, **kw) -> httpx.Response:
    for attempt in range(5):  # an idle keep-alive connection may be closed under us
        try:
            r = await http.post(url, **kw)
            r.raise_for_status()
            return r
        except (httpx.RemoteProtocolError, httpx.ConnectError, httpx.ReadError):
            if attempt == 4:
                raise
            await asyncio.sleep(0.2 * (attempt + 1))
    raise AssertionError


async def seat_client(t: Table, seat: int, w: Worker, http: httpx.AsyncClient | None) -> None:
    url = t.urls[seat]
    try:
        await seat_session(t, seat, w, http, url, first=True)
    except Exception as e:
        if t.alt[seat] is None or w.killed_at is None and not isinstance(e, ConnectionClosed | OSError):
            w.failures.append(f"{type(e).__name__}: {e}")
            return
        # Mode kill: our server died; reconnect to the other with the same token and resume.
        t.moved.add(seat)
        low = min(t.have)
        t.acted -= {k for k in t.acted if k >= low}  # an action lost with the server is sent again
        deadline = time.monotonic() + 60
        while True:
            try:
                await seat_session(t, seat, w, http, t.alt[seat], first=False)
                return
            except Exception as e2:
                if time.monotonic() > deadline:
                    w.failures.append(f"after the failover: {type(e2).__name__}: {e2}")
                    return
                await asyncio.sleep(0.2)


async def seat_session(t: Table, seat: int, w: Worker, http: httpx.AsyncClient | None, url: str,
                       first: bool) -> None:
    ready = not first
    url = url + ("&accept=delta" if t.delta else "")
    began = time.perf_counter()
    async with open_socket(url) as ws:
        opened = time.perf_counter()
        last: tuple[int, dict] | None = None  # delta mode: this seat's view (version, view)
        while True:  # a close by the server raises (a failure); the end of the run cancels us
            raw = await ws.recv()
            head = None if t.delta else VIEW_HEAD.match(raw)
            if head is not None:
                if raw.startswith("null", head.end()):
                    continue  # no match started yet
                version, match, msg = int(head[1]), head[2], None
            else:
                msg = json.loads(raw)
                kind = msg.get("type")
                if kind == "error":
                    w.errors += 1
                    continue
                if kind == "ack":
                    if t.track:
                        w.acked.append([msg["match"], msg["seq"], msg["client_id"]])
                    continue
                if kind == "delta":  # what changed since our view at msg["base"]
                    if last is None or last[0] != msg["base"]:
                        w.errors += 1
                        continue
                    view = dict(last[1])
                    view.update(msg["set"])
                    for gone in msg["unset"]:
                        view.pop(gone, None)
                    msg = {"type": "view", "version": msg["version"], "match": msg["match"],
                           "view": view}
                    w.deltas += 1
                elif kind != "view" or msg.get("view") is None:
                    continue
                last = (msg["version"], msg["view"])
                version, match = msg["version"], json.dumps(msg["match"])
                w.full_parses += 1
            w.views += 1
            if not ready:
                ready = True
                w.ready += 1
                # the join's two waits: the handshake, then the first view after it
                w.joins.append((url.split("/")[2], round(opened - began, 4), round(time.perf_counter() - opened, 4)))
            no = t.match_no.get(match)
            if no is None:
                no = t.match_no[match] = len(t.match_no)
            key = (no, version)
            if key > t.have[seat]:
                t.have[seat] = key
            info = t.info.get(key)
            if info is None:  # the first seat here to get this position reads it for the room
                if msg is None:
                    msg = json.loads(raw)
                    w.full_parses += 1
                view = msg["view"]
                info = t.info[key] = (view["to_act"], view["phase"] == "match_over")
            # Every seat is at `low` or past it: an action sent on an earlier
            # position is done (its view, or a later one, reached the last seat).
            low = min(t.have)
            if t.track and t.kill_pos is not None and low > t.kill_pos and t.code not in w.back \
                    and all(s in t.moved for s, a in enumerate(t.alt) if a is not None):
                # a room with seats on the killed server: every such seat reconnected, and
                # the room moved on (a room wholly on the survivor is not timed)
                w.back[t.code] = time.monotonic()
            if t.sent:
                for done in [k for k in t.sent if k < low]:
                    t0 = t.sent.pop(done)
                    if w.measuring:
                        w.latencies.append(round(time.perf_counter() - t0, 6))
                        w.actions += 1
            if len(t.info) > 1 or key <= low:  # nobody will read these again
                for old in [k for k in t.info if k <= low]:
                    del t.info[old]
            to_act, over = info
            if over:
                if seat == 0 and http is not None:
                    w.matches += 1
                    await post(http, f"/api/rooms/{t.code}/rematch",
                               headers={"Authorization": f"Bearer {t.tokens[0]}"})
                continue
            if seat not in to_act or key in t.acted:
                continue
            if msg is None:
                msg = json.loads(raw)
                w.full_parses += 1
            legal = msg["view"]["legal"]
            if not legal:
                continue
            t.acted.add(key)
            wait = t.next_at - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            now = time.perf_counter()
            # The room keeps its own moment in the second: late (its view came late), it
            # acts now and then at its next own moment.  (Starting the next period from
            # "now" would line up every room one stall delayed into one wave a second,
            # which then stalls the server again: a client artefact, not a load.)
            t.next_at += t.period * max(1, math.ceil((now - t.next_at) / t.period))
            action = "pass" if "pass" in legal and t.rng.random() < 0.6 else t.rng.choice(legal)
            t.sent[key] = now
            await ws.send(json.dumps({"type": "action", "client_id": f"{msg['match']}:{version}",
                                      "action": action, "version": version}))


def say(msg: dict) -> None:
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


async def report_ready(w: Worker, total: int) -> None:
    last = None
    while True:
        now = (w.ready, len(w.failures), len(w.back))
        if now != last:
            say({"ready": now[0], "failed": now[1], "back": now[2]})
            last = now
        await asyncio.sleep(0.1)


async def main(config_path: str) -> None:
    with open(config_path) as f:
        cfg = json.load(f)
    w = Worker()
    seats, period = cfg["seats"], cfg["period"]
    tables = [Table(r["code"], r["tokens"], r["urls"], r["seed"], period, cfg.get("delta", False),
                    r.get("alt")) for r in cfg["tables"]]
    loop = asyncio.get_running_loop()
    commands = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(commands), sys.stdin)
    http = httpx.AsyncClient(base_url=cfg["base_url"], timeout=120, limits=httpx.Limits(max_connections=20)) \
        if cfg["base_url"] else None
    tasks = []
    pacer = GcPacer(0.1, 0)
    reporter = asyncio.create_task(report_ready(w, len(tables) * seats))
    for t in tables:
        for seat in range(seats):
            tasks.append(asyncio.create_task(seat_client(t, seat, w, http)))
            if len(tasks) % 50 == 0:
                await asyncio.sleep(cfg["pace"])  # do not stampede the accept queue
    while line := (await commands.readline()).decode().strip():
        if line == "settle":  # every seat joined; the warm-up starts
            gc.collect()
            gc.freeze()  # the tables and sockets are set up: keep them out of the collector's sweeps
            pacer.start()  # and collect on the clock, as the server does (app/gcpace.py)
        elif line == "measure":
            w.measuring = True
        elif line.startswith("killed "):  # mode kill: the parent SIGKILLed a server at this time
            w.killed_at = float(line.split()[1])
            w.measuring = False  # the latencies of steady play only; the failover is timed apart
            for t in tables:
                t.kill_pos = min(t.have)
        elif line == "end":
            w.measuring = False
            break
    # A closed stdin (the parent died) also ends the run.
    say({"result": {"latencies": w.latencies, "actions": w.actions, "errors": w.errors,
                    "matches": w.matches, "ready": w.ready, "failures": w.failures,
                    "views": w.views, "full_parses": w.full_parses, "deltas": w.deltas,
                    "acked": w.acked, "joins": w.joins, "killed_at": w.killed_at, "back": w.back}})
    reporter.cancel()
    for task in tasks:
        task.cancel()
    await asyncio.wait(tasks, timeout=10)
    if http is not None:
        await http.aclose()


def raise_fd_limit() -> None:
    """Thousands of sockets per worker: the soft limit of open files up to the hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    raise_fd_limit()
    try:
        import uvloop
    except ImportError:
        asyncio.run(main(sys.argv[1]))
    else:
        uvloop.run(main(sys.argv[1]))
