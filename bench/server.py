"""Server load benchmark: N rooms of websocket clients playing random legal moves.

Starts the real server (``python -m app.cli serve``) on a free port with a fresh
SQLite file (or --database-url), opens N rooms with a full table of clients
each, lets every client play random legal actions from its own view for
--seconds, and prints actions/s and the p50 / p99 latency from sending an
action to receiving the view that results from it.

    .venv/bin/python bench/server.py --rooms 10 100 500
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shlex
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import VARIANTS, find_variant  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(database_url: str, port: int, log_path: Path) -> subprocess.Popen:
    env = dict(os.environ, DATABASE_URL=database_url, KOZYR_LOG_LEVEL="WARNING")
    profile = ["-m", "cProfile", "-o", os.environ["KOZYR_BENCH_PROFILE"]] \
        if os.environ.get("KOZYR_BENCH_PROFILE") else []  # profile the server process
    proc = subprocess.Popen([sys.executable, *profile, "-m", "app.cli", "serve", "--port", str(port)],
                            cwd=ROOT, env=env, stdout=open(log_path, "ab"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"server exited; see {log_path}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    sys.exit("server did not start")


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.errors = 0
        self.matches = 0
        self.measuring = False


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


async def make_room(http: httpx.AsyncClient, variant: str, seats: int, options: dict) -> tuple[str, list[dict]]:
    players = []
    for i in range(seats):
        r = await post(http, "/api/players", json={"name": f"Bench {i}"})
        players.append(r.json())
    hdr = {"Authorization": f"Bearer {players[0]['token']}"}
    r = await post(http, "/api/rooms", headers=hdr, json={"variant": variant, "options": options, "seats": seats})
    code = r.json()["code"]
    for i in range(1, seats):
        await post(http, f"/api/rooms/{code}/seats/{i}", headers={"Authorization": f"Bearer {players[i]['token']}"})
    await post(http, f"/api/rooms/{code}/start", headers=hdr)
    return code, players


async def seat_client(port: int, code: str, player: dict, seat: int, stats: Stats, rng: random.Random,
                      stop: asyncio.Event, http: httpx.AsyncClient, host_token: str | None) -> None:
    url = f"ws://127.0.0.1:{port}/api/rooms/{code}/ws?token={player['token']}"
    sent: dict[tuple[str, int], float] = {}  # (match, version acted on) -> send time
    acted: set[tuple[str, int]] = set()
    async with connect(url, max_size=2**22, open_timeout=60) as ws:
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "error":
                stats.errors += 1
                continue
            if kind != "view" or msg["view"] is None:
                continue
            now = time.perf_counter()
            match, version = msg["match"], msg["version"]
            for key in [k for k in sent if k[0] != match or k[1] < version]:
                t0 = sent.pop(key)
                if key[0] == match and stats.measuring:
                    stats.latencies.append(now - t0)
                    stats.actions += 1
            view = msg["view"]
            if view["phase"] == "match_over":
                if host_token is not None:
                    stats.matches += 1
                    await post(http, f"/api/rooms/{code}/rematch",
                               headers={"Authorization": f"Bearer {host_token}"})
                continue
            legal = view["legal"]
            if legal and (match, version) not in acted:
                action = "pass" if "pass" in legal and rng.random() < 0.6 else rng.choice(legal)
                acted.add((match, version))
                sent[(match, version)] = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "client_id": f"{match}:{version}:{seat}",
                                          "action": action, "version": version}))


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc), or NaN."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


async def run(rooms: int, args, variant: str, seats: int, options: dict) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="kozyr-bench-"))
    db = args.database_url or f"sqlite:///{tmp / 'bench.db'}"
    port = free_port()
    proc = start_server(db, port, tmp / "server.log")
    stats = Stats()
    stop = asyncio.Event()
    try:
        limits = httpx.Limits(max_connections=50)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60, limits=limits) as http:
            sem = asyncio.Semaphore(20)

            async def one(i):
                async with sem:
                    return await make_room(http, variant, seats, options)
            tables = await asyncio.gather(*(one(i) for i in range(rooms)))
            rng = random.Random(1)
            tasks = []
            for code, players in tables:
                for seat, p in enumerate(players):
                    tasks.append(asyncio.create_task(seat_client(
                        port, code, p, seat, stats, random.Random(rng.random()), stop, http,
                        players[0]["token"] if seat == 0 else None)))
                    if len(tasks) % 50 == 0:
                        await asyncio.sleep(0.05)  # do not stampede the accept queue
            await asyncio.sleep(args.warmup)
            stats.measuring = True
            t0, cpu0 = time.perf_counter(), cpu_seconds(proc.pid)
            await asyncio.sleep(args.seconds)
            stats.measuring = False
            elapsed, cpu = time.perf_counter() - t0, cpu_seconds(proc.pid) - cpu0
            stop.set()
            done, pending = await asyncio.wait(tasks, timeout=10)
            failed = [t for t in done if t.exception() is not None]
            for t in pending:
                t.cancel()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
    lat = stats.latencies
    return {"rooms": rooms, "clients": rooms * seats, "seconds": round(elapsed, 1),
            "actions": stats.actions, "actions_per_s": round(stats.actions / elapsed, 1),
            "p50_ms": round(pct(lat, 50) * 1000, 1), "p99_ms": round(pct(lat, 99) * 1000, 1),
            "mean_ms": round(statistics.fmean(lat) * 1000, 1) if lat else None,
            "server_cpu_ms_per_action": round(cpu / stats.actions * 1000, 2) if stats.actions else None,
            "server_cpu_share": round(cpu / elapsed, 2), "load_avg": round(os.getloadavg()[0], 1),
            "errors": stats.errors, "matches_finished": stats.matches, "client_failures": len(failed),
            "database": db.split(":", 1)[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[10, 100, 500])
    default = next((v for v in VARIANTS if 4 in find_variant(v).seat_counts), VARIANTS[0] if VARIANTS else None)
    parser.add_argument("--variant", default=default)
    parser.add_argument("--seats", type=int, default=None, help="default: 4 if allowed, else the first count")
    parser.add_argument("--seconds", type=float, default=15.0, help="measuring time per run")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    args = parser.parse_args()
    variant = find_variant(args.variant)
    seats = args.seats or (4 if 4 in variant.seat_counts else variant.seat_counts[0])
    print("$ " + shlex.join([os.path.relpath(sys.executable, ROOT) if sys.executable.startswith(str(ROOT))
                             else sys.executable, *sys.argv]), flush=True)
    print(f"variant {variant.id}, {seats} seats per room, {args.seconds:g}s per run", flush=True)
    for n in args.rooms:
        result = asyncio.run(run(n, args, variant.id, seats, {}))
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
