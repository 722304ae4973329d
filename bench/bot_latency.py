"""How long a table waits for a strong (or expert) bot while the server plays.

    .venv/bin/python bench/bot_latency.py [--tables 1 2 4] [--level strong] [--variant thousand-1001]
        [--seconds 120] [--load-rooms 200] [--processes N]

For each ``--tables`` count it starts a fresh ``app.cli serve`` (SQLite in a
temporary folder, ``KOZYR_BOT_DELAY=0``, the server's own ``bot_think_ms`` and
``bot_processes`` unless ``--think-ms`` / ``--processes`` are given), opens that many
rooms of one person and bots of ``--level`` in every other seat, and
``--load-rooms`` rooms of four people (the server plays: every room one random
legal action a second, a rematch at a match's end).  The bench plays every
person's seat over its websocket at once with a random legal action (the bot
tables: as soon as it is the person's turn, so the bots are asked all the time).
After ``--seconds`` it reads the server's ``kozyr_bot_decision_seconds{level}``
histogram (app/metrics.py: a pooled decision from asked to answered, the wait for
a free worker process included) and prints the decisions, the share answered
within 1 s and within 3 s (issue 36: p99 within 1 s for ``strong``, 3 s for
``expert``), the quantiles as the histogram's bucket bounds, the server process's CPU
(cores; its bot worker processes not counted) and
the machine's load average.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shlex
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from server import METRICS_TOKEN, cpu_seconds, free_port, raise_fd_limit, start_server  # noqa: E402


async def player(http: httpx.AsyncClient, name: str) -> str:
    r = await http.post("/api/players", json={"name": name})
    r.raise_for_status()
    return r.json()["token"]


async def room(http: httpx.AsyncClient, variant: str, seats: int, bots: str | None) -> tuple[str, list[str]]:
    """A started room: its code and the tokens of its people (seat 0 first)."""
    host = await player(http, "Host")
    hdr = {"Authorization": f"Bearer {host}"}
    r = await http.post("/api/rooms", headers=hdr, json={"variant": variant, "seats": seats})
    r.raise_for_status()
    code = r.json()["code"]
    tokens = [host]
    for s in range(1, seats):
        if bots:
            r = await http.post(f"/api/rooms/{code}/seats/{s}/bot", headers=hdr, json={"level": bots})
        else:
            tokens.append(await player(http, f"Seat {s}"))
            r = await http.post(f"/api/rooms/{code}/seats/{s}", headers={"Authorization": f"Bearer {tokens[-1]}"})
        r.raise_for_status()
    (await http.post(f"/api/rooms/{code}/start", headers=hdr)).raise_for_status()
    return code, tokens


async def seat(port: int, http: httpx.AsyncClient, code: str, tokens: list[str], s: int, period: float,
               rng: random.Random, stats: dict) -> None:
    """Play seat ``s`` with random legal actions, at most one per ``period`` seconds."""
    url = f"ws://127.0.0.1:{port}/api/rooms/{code}/ws?token={tokens[s]}"
    last = 0.0
    async with websockets.connect(url, max_size=None) as ws:
        async for raw in ws:
            msg = json.loads(raw)
            if msg.get("type") == "error":
                stats["errors"] += 1
                continue
            if msg.get("type") != "view" or not msg.get("view"):
                continue
            view = msg["view"]
            if view.get("phase") == "match_over":
                if s == 0:
                    stats["matches"] += 1
                    await http.post(f"/api/rooms/{code}/rematch", headers={"Authorization": f"Bearer {tokens[0]}"})
                continue
            if s not in view.get("to_act", ()) or not view.get("legal"):
                continue
            wait = last + period - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            last = time.perf_counter()
            await ws.send(json.dumps({"type": "action", "action": rng.choice(view["legal"]),
                                      "version": msg["version"], "client_id": f"{msg['match']}:{msg['version']}"}))


def histogram(text: str, level: str) -> list[tuple[float, float]]:
    """The cumulative buckets of kozyr_bot_decision_seconds for ``level``: [(le, count)]."""
    out = []
    for line in text.splitlines():
        if line.startswith("kozyr_bot_decision_seconds_bucket{") and f'level="{level}"' in line:
            le = line.split('le="', 1)[1].split('"', 1)[0]
            out.append((float("inf") if le == "+Inf" else float(le), float(line.split()[-1])))
    return sorted(out)


def quantile(buckets: list[tuple[float, float]], q: float) -> float:
    total = buckets[-1][1] if buckets else 0
    for le, count in buckets:
        if total and count >= q * total:
            return le
    return float("nan")


def within(buckets: list[tuple[float, float]], bound: float) -> float:
    total = buckets[-1][1] if buckets else 0
    count = next((c for le, c in buckets if le == bound), float("nan"))
    return count / total if total else float("nan")


async def run(tables: int, args) -> dict:
    from engine import find_variant
    seats = 3 if 3 in find_variant(args.variant).seat_counts else 4
    with tempfile.TemporaryDirectory(prefix="kozyr-botlat-") as tmp:
        port = free_port()
        os.environ["KOZYR_BOT_DELAY"] = "0"  # start_server hands the server this environment
        if args.processes:
            os.environ["KOZYR_BOT_PROCESSES"] = str(args.processes)
        if args.think_ms:
            os.environ["KOZYR_BOT_THINK_MS"] = str(args.think_ms)
        proc = start_server(f"sqlite:///{Path(tmp) / 'kozyr.db'}", port, Path(tmp) / "server.log")
        try:
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
                rng = random.Random(args.seed)
                stats = {"errors": 0, "matches": 0}
                bot_rooms = [await room(http, args.variant, seats, args.level) for _ in range(tables)]
                load_rooms = [await room(http, "thousand-1001", 3, None) for _ in range(args.load_rooms)]
                tasks = [asyncio.create_task(seat(port, http, c, t, 0, 0.0, random.Random(rng.random()), stats))
                         for c, t in bot_rooms]
                for c, t in load_rooms:  # one action a second per room: each seat acts at most every 1 s
                    tasks += [asyncio.create_task(seat(port, http, c, t, s, 1.0, random.Random(rng.random()), stats))
                              for s in range(3)]
                cpu0, t0 = cpu_seconds(proc.pid), time.perf_counter()
                await asyncio.sleep(args.seconds)
                cpu = (cpu_seconds(proc.pid) - cpu0) / (time.perf_counter() - t0)
                text = (await http.get("/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"})).text
                for t in tasks:
                    t.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    b = histogram(text, args.level)
    return {"level": args.level, "variant": args.variant, "tables": tables, "load_rooms": args.load_rooms,
            "seconds": args.seconds, "decisions": int(b[-1][1]) if b else 0,
            "within_1s": round(within(b, 1.0), 4), "within_3s": round(within(b, 3.0), 4),
            "p50_le_s": quantile(b, 0.5), "p99_le_s": quantile(b, 0.99),
            "server_cpu_share": round(cpu, 2), "matches_ended": stats["matches"],
            "errors": stats["errors"], "load_avg": round(os.getloadavg()[0], 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--level", default="strong", choices=("strong", "expert"))
    ap.add_argument("--variant", default="thousand-1001")
    ap.add_argument("--seconds", type=float, default=120)
    ap.add_argument("--load-rooms", type=int, default=200, help="rooms of four people playing meanwhile")
    ap.add_argument("--processes", type=int, help="KOZYR_BOT_PROCESSES (default: the server's)")
    ap.add_argument("--think-ms", type=float, help="KOZYR_BOT_THINK_MS (default: the server's)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    raise_fd_limit()
    print("# " + shlex.join([Path(sys.executable).name, *sys.argv]), flush=True)
    for n in args.tables:
        print(json.dumps(asyncio.run(run(n, args))), flush=True)


if __name__ == "__main__":
    main()
