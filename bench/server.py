"""Server load benchmark: N rooms of 4 websocket clients, ONE action per room per second.

For each --rooms count and each --modes entry it starts fresh server process(es),
opens N rooms with a full table each, lets the seat to act play a random legal
move (passing often) at most once a second per room, and measures the latency
from sending an action to the LAST seat of the room receiving the resulting view
(p50 / p99), actions/s, the server's CPU, and whether p99 < --target-ms.
Measuring starts only once every seat has its first view (join_wait_s) plus
--warmup: the joins of thousands of sockets are not steady play.

Modes:
  one   one ``app.cli serve`` process (SQLite file, or --database-url)
  two   two processes on PostgreSQL (--pg-url; a fresh database, dropped after) and
        Redis (--redis-url); seats 0-1 of every room talk to process A, 2-3 to B
  bare  bench/broadcast_server.py: echo to the 4 seats, no rules, no database

The load client (this process) shares the machine's CPUs with the servers;
its own CPU share is printed too.

    .venv/bin/python bench/server.py --rooms 50 100 200 400 --seconds 15 --modes one two bare
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
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


def start_server(database_url: str, port: int, log_path: Path, redis_url: str | None = None,
                 bare: bool = False) -> subprocess.Popen:
    env = dict(os.environ, DATABASE_URL=database_url, KOZYR_LOG_LEVEL="WARNING")
    if redis_url:
        env["REDIS_URL"] = redis_url
    profile = ["-m", "cProfile", "-o", os.environ["KOZYR_BENCH_PROFILE"]] \
        if os.environ.get("KOZYR_BENCH_PROFILE") else []  # profile the server process
    cmd = [str(ROOT / "bench" / "broadcast_server.py")] if bare else ["-m", "app.cli", "serve"]
    proc = subprocess.Popen([sys.executable, *profile, *cmd, "--port", str(port)],
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
        self.latencies: list[float] = []  # send → the last seat has the view
        self.actions = 0
        self.errors = 0
        self.matches = 0
        self.measuring = False
        self.failures: list[str] = []
        self.ready = 0  # seats connected that have their first view


class Table:
    """One room as the load client sees it: when to act next, who got which view."""

    def __init__(self, code: str, players: list[dict], urls: list[str], rng: random.Random,
                 period: float) -> None:
        self.code, self.players, self.urls, self.rng, self.period = code, players, urls, rng, period
        self.next_at = time.perf_counter() + rng.random() * period  # spread the rooms over the second
        self.sent: dict[tuple[str, int], float] = {}  # (match, version acted on) -> send time
        self.seen: dict[tuple[str, int], int] = {}  # (match, version) -> seats that have it
        self.acted: set[tuple[str, int]] = set()


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


async def seat_client(t: Table, seat: int, stats: Stats, stop: asyncio.Event,
                      http: httpx.AsyncClient | None) -> None:
    seats = len(t.urls)
    ready = False
    try:
        async with connect(t.urls[seat], max_size=2**22, open_timeout=120) as ws:
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
                if not ready:
                    ready = True
                    stats.ready += 1
                match, version = msg["match"], msg["version"]
                key = (match, version - 1)
                n = t.seen[key] = t.seen.get(key, 0) + 1
                if n == seats:  # the last seat of the room has it
                    del t.seen[key]
                    t0 = t.sent.pop(key, None)
                    if t0 is not None and stats.measuring:
                        stats.latencies.append(time.perf_counter() - t0)
                        stats.actions += 1
                view = msg["view"]
                if view["phase"] == "match_over":
                    if seat == 0 and http is not None:
                        stats.matches += 1
                        await post(http, f"/api/rooms/{t.code}/rematch",
                                   headers={"Authorization": f"Bearer {t.players[0]['token']}"})
                    continue
                legal = view["legal"]
                if legal and seat in view["to_act"] and (match, version) not in t.acted:
                    t.acted.add((match, version))
                    wait = t.next_at - time.perf_counter()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    now = time.perf_counter()
                    t.next_at = max(now, t.next_at) + t.period
                    action = "pass" if "pass" in legal and t.rng.random() < 0.6 else t.rng.choice(legal)
                    t.sent[(match, version)] = now
                    await ws.send(json.dumps({"type": "action", "client_id": f"{match}:{version}",
                                              "action": action, "version": version}))
    except Exception as e:
        if not stop.is_set():
            stats.failures.append(f"{type(e).__name__}: {e}")


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




def pg_create(admin_url: str) -> str:
    import psycopg
    name = f"kozyr_bench_{secrets.token_hex(4)}"
    with psycopg.connect(admin_url, autocommit=True) as c:
        c.execute(f'CREATE DATABASE "{name}"')
    return admin_url.rpartition("/")[0] + "/" + name


def pg_drop(admin_url: str, url: str) -> None:
    import psycopg
    with psycopg.connect(admin_url, autocommit=True) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{url.rpartition("/")[2]}" WITH (FORCE)')


async def run(rooms: int, mode: str, args, variant: str, seats: int, options: dict) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="kozyr-bench-"))
    procs: list[subprocess.Popen] = []
    ports: list[int] = []
    db = None
    if mode == "two":
        db = pg_create(args.pg_url)
    elif mode == "one":
        db = args.database_url or f"sqlite:///{tmp / 'bench.db'}"
    stats = Stats()
    stop = asyncio.Event()
    try:
        for i in range(2 if mode == "two" else 1):
            ports.append(free_port())
            procs.append(start_server(db or "", ports[-1], tmp / f"server{i}.log",
                                      redis_url=args.redis_url if mode == "two" else None,
                                      bare=mode == "bare"))
        limits = httpx.Limits(max_connections=50)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{ports[0]}", timeout=120,
                                     limits=limits) as http:
            rng = random.Random(1)
            if mode == "bare":
                tables = [(f"r{i}", [{"token": ""}] * seats) for i in range(rooms)]
            else:
                sem = asyncio.Semaphore(20)

                async def one(i):
                    async with sem:
                        return await make_room(http, variant, seats, options)
                tables = await asyncio.gather(*(one(i) for i in range(rooms)))
            states = []
            for code, players in tables:
                if mode == "bare":
                    urls = [f"ws://127.0.0.1:{ports[0]}/ws/{code}?seat={s}" for s in range(seats)]
                else:  # in mode two, the first half of the seats on A, the rest on B
                    urls = [f"ws://127.0.0.1:{ports[(s * len(ports)) // seats]}/api/rooms/{code}/ws"
                            f"?token={players[s]['token']}" for s in range(seats)]
                states.append(Table(code, players, urls, random.Random(rng.random()), args.period))
            tasks = []
            for t in states:
                for seat in range(seats):
                    tasks.append(asyncio.create_task(seat_client(t, seat, stats, stop,
                                                                 None if mode == "bare" else http)))
                    if len(tasks) % 50 == 0:
                        await asyncio.sleep(0.05)  # do not stampede the accept queue
            # Measure steady play, not the storm of joins: wait until every seat has
            # its first view (or gave up), then the warm-up.
            joined_at = time.perf_counter()
            while stats.ready + len(stats.failures) < len(tasks) and \
                    time.perf_counter() - joined_at < args.join_timeout:
                await asyncio.sleep(0.1)
            join_s = time.perf_counter() - joined_at
            await asyncio.sleep(args.warmup)
            stats.measuring = True
            me0 = cpu_seconds(os.getpid())
            t0, cpu0 = time.perf_counter(), [cpu_seconds(p.pid) for p in procs]
            await asyncio.sleep(args.seconds)
            stats.measuring = False
            elapsed = time.perf_counter() - t0
            cpu = sum(cpu_seconds(p.pid) - c for p, c in zip(procs, cpu0, strict=True))
            me = cpu_seconds(os.getpid()) - me0
            stop.set()
            done, pending = await asyncio.wait(tasks, timeout=15)
            for t in pending:
                t.cancel()
    finally:
        # uvicorn re-raises SIGTERM after its shutdown, which would kill cProfile
        # before it writes its file; SIGINT ends in a KeyboardInterrupt instead.
        stop_signal = signal.SIGINT if os.environ.get("KOZYR_BENCH_PROFILE") else signal.SIGTERM
        for proc in procs:
            proc.send_signal(stop_signal)
        for proc in procs:
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
        if mode == "two" and db:
            pg_drop(args.pg_url, db)
    lat = stats.latencies
    p99 = pct(lat, 99) * 1000
    return {"mode": mode, "rooms": rooms, "clients": rooms * seats, "seconds": round(elapsed, 1),
            "actions": stats.actions, "actions_per_s": round(stats.actions / elapsed, 1),
            "offered_per_s": round(rooms / args.period, 1),
            "p50_ms": round(pct(lat, 50) * 1000, 1), "p99_ms": round(p99, 1),
            "mean_ms": round(statistics.fmean(lat) * 1000, 1) if lat else None,
            "ok": bool(lat) and p99 < args.target_ms and stats.ready == rooms * seats
            and stats.actions >= 0.9 * rooms / args.period * elapsed,
            "server_cpu_share": round(cpu / elapsed, 2), "client_cpu_share": round(me / elapsed, 2),
            "server_cpu_ms_per_action": round(cpu / stats.actions * 1000, 2) if stats.actions else None,
            "load_avg": round(os.getloadavg()[0], 1), "errors": stats.errors,
            "seats_joined": stats.ready, "join_wait_s": round(join_s, 1),
            "matches_finished": stats.matches, "client_failures": len(stats.failures),
            "database": "none" if mode == "bare" else (db or "").split(":", 1)[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[50, 100, 200, 400])
    parser.add_argument("--modes", nargs="+", default=["one", "bare"], choices=["one", "two", "bare"])
    default = next((v for v in VARIANTS if 4 in find_variant(v).seat_counts), VARIANTS[0] if VARIANTS else None)
    parser.add_argument("--variant", default=default)
    parser.add_argument("--seats", type=int, default=None, help="default: 4 if allowed, else the first count")
    parser.add_argument("--seconds", type=float, default=15.0, help="measuring time per run")
    parser.add_argument("--warmup", type=float, default=10.0,
                        help="after the tables connect (joins publish room notes: let them settle)")
    parser.add_argument("--join-timeout", type=float, default=300.0,
                        help="seconds to wait for every seat's first view before the warm-up")
    parser.add_argument("--period", type=float, default=1.0, help="seconds between actions of a room")
    parser.add_argument("--target-ms", type=float, default=100.0, help="the p99 a run must stay under")
    parser.add_argument("--database-url", default=None, help="mode one: default a fresh SQLite file")
    parser.add_argument("--pg-url", default=os.environ.get("KOZYR_TEST_PG_URL",
                                                           "postgresql://postgres@127.0.0.1:5432/test"))
    parser.add_argument("--redis-url", default=os.environ.get("KOZYR_TEST_REDIS_URL", "redis://127.0.0.1:6379/0"))
    args = parser.parse_args()
    variant = find_variant(args.variant)
    seats = args.seats or (4 if 4 in variant.seat_counts else variant.seat_counts[0])
    print("$ " + shlex.join([os.path.relpath(sys.executable, ROOT) if sys.executable.startswith(str(ROOT))
                             else sys.executable, *sys.argv]), flush=True)
    print(f"variant {variant.id}, {seats} seats per room, one action per room every {args.period:g}s, "
          f"{args.seconds:g}s per run, {os.cpu_count()} CPUs shared by servers and this load client",
          flush=True)
    best: dict[str, int] = {}
    for n in args.rooms:
        for mode in args.modes:
            result = asyncio.run(run(n, mode, args, variant.id, seats, {}))
            print(json.dumps(result), flush=True)
            if result["ok"]:
                best[mode] = max(best.get(mode, 0), n)
    most = json.dumps({m: best.get(m, 0) for m in args.modes})
    print(f"most rooms with p99 < {args.target_ms:g}ms: {most}")
    if best.get("bare"):
        for mode in args.modes:
            if mode != "bare":
                print(f"{mode}/bare: {best.get(mode, 0) / best['bare']:.2f}")


if __name__ == "__main__":
    main()
