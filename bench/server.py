"""Server load benchmark: N rooms of 4 websocket clients, ONE action per room per second.

For each --rooms count and each --modes entry it starts fresh server process(es),
opens N rooms with a full table each, lets the seat to act play a random legal
move (passing often) at most once a second per room, and measures the latency
from sending an action to the LAST seat of the room receiving the resulting view
(p50 / p99), actions/s, the server's CPU, and whether p99 < --target-ms.
Measuring starts only once every seat has its first view (join_wait_s) plus
--warmup: the joins of thousands of sockets are not steady play.  join_ms splits a
seat's join, per server: the websocket handshake (connect until the 101 answer:
seconds here mean the kernel's accept queue held the connection, or overflowed
and the client's SYN was retried) and the wait from there to the first view.
listen_overflows counts the connections the kernel turned away during the joins
because a listening socket's accept queue was full (TcpExt ListenOverflows of
/proc/net/netstat, the whole machine's; its cap is net.core.somaxconn): above 0, the
clients' SYNs were dropped and retried after 1, 3, 7, 15 ... s, and the join phase
stretches from seconds to minutes (bench/results/server-2026-12-03d.txt).

Modes:
  one   one ``app.cli serve`` process (SQLite file, or --database-url)
  two   two processes on PostgreSQL (--pg-url; a fresh database, dropped after) and
        Redis (--redis-url); every seat of a room on one process, the rooms alternating
        A, B (as deploy/nginx.conf routes a room's websockets, by its code)
  split like two, behind a round-robin balancer: seats 0-1 of every room on A, 2-3 on
        B, so each process also follows every action the other commits
  delta like one, with clients that accept ``delta`` messages (README "Agreed
        additions"): after an action each seat gets what changed, not its view
  kill  like two; after the measuring window process A is SIGKILLed, its seats reconnect
        to B with the same tokens and resume; reported: the seconds until every room of
        A is back (its seats reconnected and a new action seen by every seat) and the
        acknowledged actions missing from the surviving database's log (wanted: 0)
  bare  bench/broadcast_server.py: echo to the 4 seats, no rules, no database

A size counts for a mode only where the bare server kept p99 < --target-ms in the
same run (run bare along): where it did not, the load client or the machine is
what was measured.  The summary prints the counted sizes, the most rooms per mode,
the ratio of the most rooms to bare's, and server CPU per action against bare's
(of the runs where both kept p99 < --target-ms: a saturated run's CPU per action
counts a backlog's actions, or only the rooms whose seats joined).
CPU per action moves 10-40% between runs on a shared machine: --repeat N runs every
size and mode N times, round after round, and each ratio to bare is then the median
of the N rounds' ratios (each round's server against the bare server of that round).

The load client is --client-procs worker processes (bench/loadclient.py, the
same code for every mode), each owning whole rooms, so the last seat of a room
is seen in one process; this process creates the rooms, starts and stops the
measuring window and merges the workers' raw latencies.  The client shares the
machine's CPUs with the servers: client_cpu_share is the sum over the workers
and this process, client_proc_cpu_max the busiest worker (near 1.0 means the
client, not the server, sets the pace), client_full_parse_share the share of
views a worker parsed in full (the rest it reads by their envelope only).
KOZYR_BENCH_PROFILE=PATH profiles the server process to PATH (cProfile; in modes two
and kill process i to PATH.i), KOZYR_BENCH_PYSPY=PATH samples every thread of
server i during the measuring window to PATH.i (py-spy, if installed; more of its
flags in KOZYR_BENCH_PYSPY_ARGS, e.g. "--gil" for the thread holding the GIL only),
KOZYR_BENCH_CLIENT_PROFILE=PATH each client worker i to PATH.i; KOZYR_BENCH_SECTIONS=1 (modes
one and delta) adds ``sections_us``, the loop thread's CPU per action by section of the
action's path (bench/sections.py); KOZYR_BENCH_KEEP=1 keeps each
run's temporary folder (the servers' logs, the SQLite file), removed otherwise.

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
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
METRICS_TOKEN = "bench-metrics"  # KOZYR_METRICS_TOKEN of the servers run here (bench/thread_cpu.sh too)
sys.path.insert(0, str(ROOT))

from bench.loadclient import post  # noqa: E402
from bench.sections import per_action  # noqa: E402
from engine import VARIANTS, find_variant  # noqa: E402


def raise_fd_limit() -> None:
    """8,000 sockets: the soft limit of open files up to the hard one (the servers and
    the load client workers inherit it; each worker raises its own too)."""
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(database_url: str, port: int, log_path: Path, redis_url: str | None = None,
                 bare: bool = False, index: int | None = None) -> subprocess.Popen:
    env = dict(os.environ, DATABASE_URL=database_url, KOZYR_LOG_LEVEL="WARNING",
               KOZYR_PLAYER_CREATE_BURST="1000000", KOZYR_METRICS_TOKEN=METRICS_TOKEN)
    if redis_url:
        env["REDIS_URL"] = redis_url
    profile_path = os.environ.get("KOZYR_BENCH_PROFILE")  # profile the server (process i: PATH.i)
    if profile_path and index is not None:
        profile_path += f".{index}"
    profile = ["-m", "cProfile", "-o", profile_path] if profile_path else []
    cmd = [str(ROOT / "bench" / "broadcast_server.py")] if bare else ["-m", "app.cli", "serve"]
    if not bare and index is None and os.environ.get("KOZYR_BENCH_SECTIONS"):  # bench/sections.py
        env["KOZYR_BENCH_SECTIONS"] = str(log_path.with_name("sections.jsonl"))
        cmd = [str(ROOT / "bench" / "sections.py"), "serve"]
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


def loop_lag(ports: list[int]) -> dict[str, dict[str, float]]:
    """The servers' loop-lag histogram (app/metrics.py) by cause: {cause: {count, >50ms,
    >100ms}} summed over the servers (mode bare has none)."""
    import re
    out: dict[str, dict[str, float]] = {}
    for port in ports:
        try:
            text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10,
                             headers={"Authorization": f"Bearer {METRICS_TOKEN}"}).text
        except httpx.HTTPError:
            continue
        for name, labels, value in re.findall(r'^kozyr_loop_lag_seconds_(bucket|count)\{([^}]*)\} (\S+)$',
                                              text, re.M):
            d = dict(re.findall(r'(\w+)="([^"]*)"', labels))
            e = out.setdefault(d["cause"], {"count": 0.0, "le_50ms": 0.0, "le_100ms": 0.0})
            if name == "count":
                e["count"] += float(value)
            else:
                e[f"le {d['le']}"] = e.get(f"le {d['le']}", 0.0) + float(value)  # the whole histogram
                if d.get("le") in ("0.05", "0.1"):
                    e["le_50ms" if d["le"] == "0.05" else "le_100ms"] += float(value)
    return out


def lag_diff(before: dict, after: dict) -> dict[str, dict[str, int]]:
    """Stalls over 50 / 100 ms, by cause, within the measuring window."""
    out = {}
    for cause, a in after.items():
        b = before.get(cause, {"count": 0.0, "le_50ms": 0.0, "le_100ms": 0.0})
        n = a["count"] - b["count"]
        out[cause] = {"ticks": int(n), "over_50ms": int(n - (a["le_50ms"] - b["le_50ms"])),
                      "over_100ms": int(n - (a["le_100ms"] - b["le_100ms"]))}
    return out


def py_spy(procs: list[subprocess.Popen], seconds: float) -> list[subprocess.Popen]:
    """KOZYR_BENCH_PYSPY=PATH: sample every thread of server i during the measuring
    window into PATH.i (py-spy's collapsed stacks; py-spy must be installed)."""
    path = os.environ.get("KOZYR_BENCH_PYSPY")
    if not path:
        return []
    exe = Path(sys.executable).with_name("py-spy")
    return [subprocess.Popen([str(exe) if exe.exists() else "py-spy", "record", "--pid", str(proc.pid), "--duration", str(int(seconds)),
                              "--rate", "200", "--format", "raw", "--threads", "--nonblocking",
                              "--output", f"{path}.{i}", *shlex.split(os.environ.get("KOZYR_BENCH_PYSPY_ARGS", ""))], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for i, proc in enumerate(procs)]


def perf_record(procs: list[subprocess.Popen], seconds: float) -> list[subprocess.Popen]:
    """KOZYR_BENCH_PERF=PATH: Linux perf samples (C stacks, the interpreter's own
    functions included) of server i during the measuring window into PATH.i; read
    them with ``perf report -i PATH.i --no-children --sort symbol``."""
    path = os.environ.get("KOZYR_BENCH_PERF")
    if not path:
        return []
    return [subprocess.Popen(["perf", "record", "-F", "199", "-g", "-p", str(proc.pid), "-o", f"{path}.{i}",
                              "--", "sleep", str(seconds)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for i, proc in enumerate(procs)]


def lag_histogram(before: dict, after: dict) -> dict[str, int]:
    """The loop-lag histogram of the measuring window, all causes together: ticks per
    bucket, {"<=1ms": n, "1-2.5ms": n, ..., ">2500ms": n}."""
    cum: dict[float, float] = {}
    for when, sign in ((after, 1), (before, -1)):
        for e in when.values():
            for key, value in e.items():
                if key.startswith("le "):
                    le = float(key[3:])
                    cum[le] = cum.get(le, 0.0) + sign * value
    out, below, low = {}, 0.0, None
    for le in sorted(cum):
        name = (f"<={le * 1000:g}ms" if low is None else f"{low * 1000:g}-{le * 1000:g}ms") \
            if le != float("inf") else f">{low * 1000:g}ms"
        out[name] = int(cum[le] - below)
        below, low = cum[le], le
    return out


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc), or NaN."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


def listen_overflows() -> int:
    """The kernel's count of connections refused a full accept queue (TcpExt
    ListenOverflows; 0 where /proc/net/netstat cannot be read)."""
    try:
        lines = Path("/proc/net/netstat").read_text().splitlines()
    except OSError:
        return 0
    for names, values in zip(lines[::2], lines[1::2], strict=False):
        if names.startswith("TcpExt:"):
            row = dict(zip(names.split()[1:], values.split()[1:], strict=True))
            return int(row.get("ListenOverflows", 0))
    return 0


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def pg_create(admin_url: str) -> str:
    import psycopg
    name = f"kozyr_srvbench_{secrets.token_hex(4)}"
    with psycopg.connect(admin_url, autocommit=True) as c:
        c.execute(f'CREATE DATABASE "{name}"')
    return admin_url.rpartition("/")[0] + "/" + name


def synchronous_commit(url: str) -> str:
    import psycopg
    try:
        with psycopg.connect(url) as c:
            return str(c.execute("SHOW synchronous_commit").fetchone()[0])
    except psycopg.Error:
        return "?"


def kill_report(url: str, results: list[dict], killed_at: float, rooms: int) -> dict:
    """Mode kill: the seconds until every room with seats on the killed process (``rooms``
    of them) was back (those seats reconnected to the survivor, and a new action seen by
    every seat) and the acknowledged actions that the surviving database's log lacks
    (match, seq, client_id must all be there)."""
    import psycopg
    acked = {(a[0], a[1], a[2]) for r in results for a in r["acked"]}
    back = [t - killed_at for r in results for t in r["back"].values()]
    with psycopg.connect(url) as c:
        logged = set(c.execute("SELECT match_id, seq, client_id FROM actions").fetchall())
    lost = acked - logged
    return {"killed": True, "acked_total": len(acked), "acked_lost": len(lost),
            "rooms_back": len(back), "rooms_not_back": rooms - len(back),
            "all_back_s": round(max(back), 2) if back and len(back) == rooms else None,
            "back_p50_s": round(pct(back, 50), 2) if back else None}


def home(room: int, seat: int, seats: int, servers: int, mode: str) -> int:
    """The server a seat's websocket goes to: by room, the rooms taking turns (a proxy
    hashing the room's code spreads them about as evenly), or in mode split by seat,
    each room's seats split in order over the servers."""
    return (seat * servers) // seats if mode == "split" else room % servers


def pg_drop(admin_url: str, url: str) -> None:
    import psycopg
    with psycopg.connect(admin_url, autocommit=True) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{url.rpartition("/")[2]}" WITH (FORCE)')


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


class ClientProc:
    """One bench/loadclient.py worker: its process, its last ready count, its result."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.ready = self.failed = self.back = 0
        self.result: dict | None = None
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        while line := await self.proc.stdout.readline():
            msg = json.loads(line)
            if "result" in msg:
                self.result = msg["result"]
            else:
                self.ready, self.failed, self.back = msg["ready"], msg["failed"], msg.get("back", 0)

    async def tell(self, command: str) -> None:
        self.proc.stdin.write(command.encode() + b"\n")
        await self.proc.stdin.drain()


async def run(rooms: int, mode: str, args, variant: str, seats: int, options: dict) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="kozyr-bench-"))
    procs: list[subprocess.Popen] = []
    clients: list[ClientProc] = []
    ports: list[int] = []
    db = None
    multi = mode in ("two", "split", "kill")
    raise_fd_limit()
    if multi:
        db = pg_create(args.pg_url)
    elif mode in ("one", "delta"):
        db = args.database_url or f"sqlite:///{tmp / 'bench.db'}"
    try:
        for i in range(2 if multi else 1):
            ports.append(free_port())
            procs.append(start_server(db or "", ports[-1], tmp / f"server{i}.log",
                                      redis_url=args.redis_url if multi else None,
                                      bare=mode == "bare", index=i if multi else None))
        base_url = f"http://127.0.0.1:{ports[0]}"
        rng = random.Random(1)
        if mode == "bare":
            made = [(f"r{i}", [{"token": ""}] * seats) for i in range(rooms)]
        else:
            async with httpx.AsyncClient(base_url=base_url, timeout=120,
                                         limits=httpx.Limits(max_connections=50)) as http:
                sem = asyncio.Semaphore(20)

                async def one(i):
                    async with sem:
                        return await make_room(http, variant, seats, options)
                made = await asyncio.gather(*(one(i) for i in range(rooms)))
        tables = []
        for code, players in made:
            if mode == "bare":
                urls = [f"ws://127.0.0.1:{ports[0]}/ws/{code}?seat={s}" for s in range(seats)]
            else:  # two processes: the room on one of them, or split (mode split)
                urls = [f"ws://127.0.0.1:{ports[home(len(tables), s, seats, len(ports), mode)]}"
                        f"/api/rooms/{code}/ws?token={players[s]['token']}" for s in range(seats)]
            table = {"code": code, "tokens": [p["token"] for p in players], "urls": urls, "seed": rng.random()}
            if mode == "kill":  # the seats on A (which is killed) reconnect to B with their tokens
                table["alt"] = [u.replace(f":{ports[0]}/", f":{ports[1]}/") if f":{ports[0]}/" in u else None
                                for u in urls]
            tables.append(table)
        # Whole rooms per worker, dealt round-robin; all workers together open
        # sockets at the old pace of 50 per 0.05 s.
        # Default: one worker per 2,000 sockets, at least 2 (8,000 sockets: 4 workers).
        k = max(1, min(args.client_procs or max(2, -(-rooms * seats // 2000)), rooms))
        for i in range(k):
            config = tmp / f"client{i}.json"
            config.write_text(json.dumps({"tables": tables[i::k], "seats": seats, "period": args.period,
                                          "base_url": None if mode == "bare" else
                                          f"http://127.0.0.1:{ports[-1]}",
                                          "pace": 0.05 * k, "delta": mode == "delta"}))
            profile = os.environ.get("KOZYR_BENCH_CLIENT_PROFILE")  # profile worker i to that path + ".i"
            proc = await asyncio.create_subprocess_exec(
                sys.executable, *(["-m", "cProfile", "-o", f"{profile}.{i}"] if profile else []),
                str(ROOT / "bench" / "loadclient.py"), str(config), cwd=ROOT,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=2**28)
            clients.append(ClientProc(proc))
        moving = sum(1 for t in tables if any(t.get("alt") or []))  # mode kill: rooms with seats on A
        # Measure steady play, not the storm of joins: wait until every seat has
        # its first view (or gave up), then the warm-up.
        joined_at, overflows_at = time.perf_counter(), listen_overflows()
        while sum(c.ready + c.failed for c in clients) < rooms * seats and \
                time.perf_counter() - joined_at < args.join_timeout:
            if any(c.proc.returncode is not None for c in clients):
                sys.exit(f"a load client process ended early (exit code "
                         f"{[c.proc.returncode for c in clients]})")
            await asyncio.sleep(0.1)
        join_s = time.perf_counter() - joined_at
        overflows = listen_overflows() - overflows_at
        for c in clients:
            await c.tell("settle")  # the workers' full collection and freeze, before the warm-up
        await asyncio.sleep(args.warmup)
        client_pids = [os.getpid()] + [c.proc.pid for c in clients]
        for c in clients:
            await c.tell("measure")
        lag0 = {} if mode == "bare" else loop_lag(ports)
        sections = os.environ.get("KOZYR_BENCH_SECTIONS") and mode in ("one", "delta")
        if sections:
            procs[0].send_signal(signal.SIGUSR1)  # bench/sections.py: the sums at the start
        t0 = time.perf_counter()
        cpu0 = [cpu_seconds(p.pid) for p in procs]
        me0 = [cpu_seconds(pid) for pid in client_pids]
        spies = py_spy(procs, args.seconds) + perf_record(procs, args.seconds)
        await asyncio.sleep(args.seconds)
        # The CPU times before "end": a worker that ended may be reaped already.
        cpu = sum(cpu_seconds(p.pid) - c for p, c in zip(procs, cpu0, strict=True))
        me = [cpu_seconds(pid) - c for pid, c in zip(client_pids, me0, strict=True)]
        elapsed = time.perf_counter() - t0
        if sections:
            procs[0].send_signal(signal.SIGUSR1)  # ... and at the end
        # The loop's lag up to the end of the window, before the clients leave: 1,600 sockets
        # closing at once stalled the loop 100-270 ms (each leave tells the room), and that
        # stall was counted in every run's histogram although no action was in play.
        lag1 = {} if mode in ("bare", "kill") else loop_lag(ports)
        killed_at = None
        if mode == "kill":  # SIGKILL A; its seats reconnect to B; wait until every room is back
            procs[0].kill()
            killed_at = time.monotonic()
            for c in clients:
                await c.tell(f"killed {killed_at}")
            while sum(c.back for c in clients) < moving and time.monotonic() - killed_at < args.kill_wait:
                await asyncio.sleep(0.1)
            await asyncio.sleep(1.0)  # acks in flight at the end are checked too
        for c in clients:
            await c.tell("end")
        lag, hist = lag_diff(lag0, lag1), lag_histogram(lag0, lag1) if lag1 else {}
        for spy in spies:
            spy.wait(60)
        await asyncio.wait([c.reader for c in clients], timeout=60)
        missing = [i for i, c in enumerate(clients) if c.result is None]
        if missing:
            sys.exit(f"load client process(es) {missing} sent no result")
        kill = None
        section_us = per_action(tmp / "sections.jsonl") if sections else None
        sync = synchronous_commit(db) if multi and db else None
        if mode == "kill" and db:
            kill = kill_report(db, [c.result for c in clients if c.result], killed_at or 0.0, moving)
    finally:
        for c in clients:
            c.proc.stdin.close()  # a worker still waiting for "end" (we failed early) stops too
            try:
                await asyncio.wait_for(c.proc.wait(), 15)
            except TimeoutError:
                c.proc.kill()
                await c.proc.wait()
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
        if multi and db:
            pg_drop(args.pg_url, db)
        if os.environ.get("KOZYR_BENCH_KEEP"):  # the servers' logs and the SQLite file
            print(f"# kept {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    results = [c.result for c in clients]
    for failure in [f for r in results for f in r["failures"]][:3]:
        print(f"client failure ({mode}, {rooms} rooms): {failure}", file=sys.stderr)
    lat = [x for r in results for x in r["latencies"]]
    joins: dict[str, list[tuple[float, float]]] = {}  # per server: (handshake, first view after it)
    for r in results:
        for host, shake, first in r.get("joins", []):
            joins.setdefault(host, []).append((shake, first))
    join_ms = {f"server{ports.index(int(host.rsplit(':', 1)[1]))}": {
        "handshake_p50": round(pct([j[0] for j in js], 50) * 1000, 1),
        "handshake_p99": round(pct([j[0] for j in js], 99) * 1000, 1),
        "view_p50": round(pct([j[1] for j in js], 50) * 1000, 1),
        "view_p99": round(pct([j[1] for j in js], 99) * 1000, 1)} for host, js in sorted(joins.items())}
    actions = sum(r["actions"] for r in results)
    ready = sum(r["ready"] for r in results)
    views = sum(r["views"] for r in results)
    p99 = pct(lat, 99) * 1000
    return {"mode": mode, "rooms": rooms, "clients": rooms * seats, "seconds": round(elapsed, 1),
            "actions": actions, "actions_per_s": round(actions / elapsed, 1),
            "offered_per_s": round(rooms / args.period, 1),
            "p50_ms": round(pct(lat, 50) * 1000, 1), "p99_ms": round(p99, 1),
            "mean_ms": round(statistics.fmean(lat) * 1000, 1) if lat else None,
            "ok": bool(lat) and p99 < args.target_ms and ready == rooms * seats
            and actions >= 0.9 * rooms / args.period * elapsed,
            "server_cpu_share": round(cpu / elapsed, 2), "client_cpu_share": round(sum(me) / elapsed, 2),
            "client_procs": len(clients), "client_proc_cpu_max": round(max(me[1:]) / elapsed, 2),
            "server_cpu_ms_per_action": round(cpu / actions * 1000, 2) if actions else None,
            "load_avg": round(os.getloadavg()[0], 1), "errors": sum(r["errors"] for r in results),
            "seats_joined": ready, "join_wait_s": round(join_s, 1),
            "seats_joined_per_s": round(ready / join_s, 1) if join_s > 0 else None,
            "join_ms": join_ms, "listen_overflows": overflows,
            "deltas": sum(r.get("deltas", 0) for r in results),
            "loop_stalls": lag, "loop_lag_hist": hist,
            "matches_finished": sum(r["matches"] for r in results),
            "client_failures": sum(len(r["failures"]) for r in results),
            "client_full_parse_share": round(sum(r["full_parses"] for r in results) / views, 2) if views else None,
            "database": "none" if mode == "bare" else (db or "").split(":", 1)[0],
            **({"synchronous_commit": sync} if sync else {}),
            **({"sections_us": section_us} if section_us else {}),
            **(kill or {})}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[50, 100, 200, 400])
    parser.add_argument("--modes", nargs="+", default=["one", "bare"], choices=["one", "delta", "two", "split", "kill", "bare"])
    default = next((v for v in VARIANTS if 4 in find_variant(v).seat_counts), VARIANTS[0] if VARIANTS else None)
    parser.add_argument("--variant", default=default)
    parser.add_argument("--seats", type=int, default=None, help="default: 4 if allowed, else the first count")
    parser.add_argument("--seconds", type=float, default=15.0, help="measuring time per run")
    parser.add_argument("--warmup", type=float, default=10.0,
                        help="after the tables connect (joins publish room notes: let them settle)")
    parser.add_argument("--join-timeout", type=float, default=300.0,
                        help="seconds to wait for every seat's first view before the warm-up")
    parser.add_argument("--client-procs", type=int, default=None,
                        help="load client worker processes, each with whole rooms (default: one per "
                             "2,000 sockets, at least 2)")
    parser.add_argument("--kill-wait", type=float, default=60.0,
                        help="mode kill: seconds to wait for every room to be back after the SIGKILL")
    parser.add_argument("--period", type=float, default=1.0, help="seconds between actions of a room")
    parser.add_argument("--target-ms", type=float, default=100.0, help="the p99 a run must stay under")
    parser.add_argument("--repeat", type=int, default=1,
                        help="run every size and mode this many times, round after round (the "
                             "CPU ratios to bare are then the median of each round's ratio)")
    parser.add_argument("--database-url", default=None, help="mode one: default a fresh SQLite file")
    parser.add_argument("--pg-url", default=os.environ.get("KOZYR_TEST_PG_URL",
                                                           "postgresql://postgres@127.0.0.1:5432/test"))
    parser.add_argument("--redis-url", default=os.environ.get("KOZYR_TEST_REDIS_URL", "redis://127.0.0.1:6379/0"))
    args = parser.parse_args()
    if args.client_procs is not None and args.client_procs < 1:
        parser.error("--client-procs must be at least 1")
    variant = find_variant(args.variant)
    seats = args.seats or (4 if 4 in variant.seat_counts else variant.seat_counts[0])
    print("$ " + shlex.join([os.path.relpath(sys.executable, ROOT) if sys.executable.startswith(str(ROOT))
                             else sys.executable, *sys.argv]), flush=True)
    print(f"variant {variant.id}, {seats} seats per room, one action per room every {args.period:g}s, "
          f"{args.seconds:g}s per run, {os.cpu_count()} CPUs shared by servers and the load client "
          f"({args.client_procs or 'one per 2,000 sockets, at least 2'} processes)",
          flush=True)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    results: list[dict] = []
    for round_no in range(args.repeat):
        for n in args.rooms:
            for mode in args.modes:
                result = asyncio.run(run(n, mode, args, variant.id, seats, {}))
                result["round"] = round_no
                print(json.dumps(result), flush=True)
                results.append(result)
    summary(results, args)


def summary(results: list[dict], args) -> None:
    """The most rooms each mode keeps under the target, counting a size only where the
    bare server kept it in the same run (else the client or the machine, not the server,
    is what was measured); the ratios to the bare server."""
    bare_ok = {(r["rooms"], r["round"]) for r in results if r["mode"] == "bare" and r["ok"]}
    have_bare = any(r["mode"] == "bare" for r in results)
    print(f"# sizes where bare keeps p99 < {args.target_ms:g}ms (the sizes that count): "
          f"{sorted({n for n, _ in bare_ok}) if have_bare else 'bare not run: every size counts'}")

    def counted(r: dict) -> bool:  # bare kept this size in the same round
        return not have_bare or (r["rooms"], r["round"]) in bare_ok

    for r in results:
        if r["mode"] != "bare":
            counts = counted(r)
            print(f"#   {r['mode']:5} {r['rooms']:5} rooms: p99 {r['p99_ms']} ms, ok {r['ok']}, "
                  f"server cpu {r['server_cpu_ms_per_action']} ms/action, "
                  f"client cpu {r['client_cpu_share']} (busiest worker {r['client_proc_cpu_max']}), "
                  f"load {r['load_avg']}{'' if counts else ' -- does not count: bare missed it'}"
                  + (f", {r['listen_overflows']} connections turned away by a full accept queue "
                     f"during the joins" if r.get("listen_overflows") else "")
                  + (f", acked lost {r['acked_lost']} of {r['acked_total']}, every seat back after "
                     f"{r['all_back_s']} s ({r['rooms_back']} of the killed process's "
                     f"{r['rooms_back'] + r['rooms_not_back']} rooms back)"
                     if r.get("killed") else ""))
    best: dict[str, int] = {}
    for r in results:
        if r["ok"] and (r["mode"] == "bare" or counted(r)):
            best[r["mode"]] = max(best.get(r["mode"], 0), r["rooms"])
    modes = list(dict.fromkeys(r["mode"] for r in results))
    most = json.dumps({m: best.get(m, 0) for m in modes})
    print(f"most rooms with p99 < {args.target_ms:g}ms (counted sizes only): {most}")
    if best.get("bare"):
        for mode in modes:
            if mode not in ("bare", "kill"):
                print(f"{mode}/bare most rooms: {best.get(mode, 0) / best['bare']:.2f} (wanted >= 0.9)")
    # CPU per action only of runs that kept up (a saturated run, or one whose seats did not
    # all join, counts the actions of a backlog or of part of the rooms: not comparable)
    cpu = {(r["mode"], r["rooms"], r["round"]): r["server_cpu_ms_per_action"] for r in results if r["ok"]}
    for mode in modes:
        if mode in ("bare", "kill"):
            continue
        by_size: dict[int, list[float]] = {}  # rooms: the ratio of each round
        for (md, n, rnd), value in cpu.items():
            if md == mode and value and cpu.get(("bare", n, rnd)):
                by_size.setdefault(n, []).append(value / cpu["bare", n, rnd])
        if by_size:
            medians = [statistics.median(v) for v in by_size.values()]
            rounds = "" if args.repeat == 1 else " (each the median of " + "; ".join(
                f"{n}: " + ", ".join(f"{x:.2f}" for x in v) for n, v in by_size.items()) + ")"
            print(f"{mode}/bare server CPU per action: " + ", ".join(f"{r:.1f}" for r in medians)
                  + f" (by size; median {statistics.median(medians):.1f}){rounds}")


if __name__ == "__main__":
    main()
