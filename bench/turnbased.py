"""10,000 open turn-based matches in one process (issue 33): resident memory, the
eviction sweep, and a move in a match loaded back from its log.  Not run in CI.

    .venv/bin/python bench/turnbased.py [--matches 10000] [--actions 4] [--samples 2000]
                                        [--database-url URL | --postgres]

1. Fills a database (a fresh SQLite file in /tmp unless given; ``--postgres``: a fresh
   database on 127.0.0.1, dropped after) in a child process, through the store's own
   functions: ``--matches`` rooms of pace ``turn`` (3 seats of Тысяча, people only),
   each with a started match, ``--actions`` legal actions in its log (the rows the
   journal writes) and a running deadline row.
2. In this process starts the server's parts (``app.server.Server``: migrations,
   start-up recovery, the fan-out-less composition root, no HTTP) and prints the
   resident memory (VmRSS of /proc/self/status):
   - after start-up (the matches wait in the database: start-up loads only those
     that go on with nobody there, none here);
   - after every match was reached once (``MatchLoop.current``: room state + match
     from its log), as if eviction did not exist;
   - after ``MatchLoop.evict_idle`` forgot them (the time that sweep took, and the
     memory after a full collection).
3. A move in a match loaded from its log: for ``--samples`` distinct evicted matches,
   the time from asking for the room's match (room state and match read and rebuilt)
   through ``MatchLoop.submit`` to the action committed (one at a time, no load
   besides); then one more move in each, now in memory, for comparison.  p50 / p99.
4. The cost of a deadline sweep (``deadline_sweep_cost``): one that finds nothing
   due among the 10,000 rows, and one that fires 200 due in matches not in memory."""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import gc
import os
import random
import secrets
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PG = "postgresql://postgres@127.0.0.1:5432/test"
VARIANT = "thousand-ru"
SEATS = 3
PEOPLE = 60  # players shared by the rooms (a person may sit in many turn-based rooms)
BATCH = 500  # rooms per transaction while filling


def rss_mib() -> float:
    """Resident memory of this process (VmRSS), MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def blocks() -> str:
    """The memory blocks Python's allocator has handed out and not had back."""
    return f"{sys.getallocatedblocks() / 1e6:.2f} M Python blocks allocated"


def trim() -> bool:
    """glibc's malloc_trim(0): hand the free memory at the top of the heap and in free
    pages back to the kernel (what a long-running process's allocator does on its own
    only in part); False where there is no glibc."""
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return False
    libc.malloc_trim(0)
    return True


async def ticker(gaps: list[float]) -> None:
    """Wake as often as the loop lets us; each gap (ms) is how long something else held it."""
    last = time.perf_counter()
    while True:
        await asyncio.sleep(0)
        now = time.perf_counter()
        gaps.append(1000 * (now - last))
        last = now


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


# -- 1. filling the database (a child process) ------------------------------------------


def fill(url: str, matches: int, actions: int) -> None:
    from app.db import models as m
    from app.db import store
    from app.db.migrate import upgrade
    from app.db.session import Database
    from engine import find_variant

    db = Database(url)
    upgrade(db.engine)
    variant = find_variant(VARIANT)
    options = variant.resolve_options(None)
    rng = random.Random(33)
    now = m.utcnow()
    with db.write() as s:
        people = [store.create_player(s, f"Turn {n}")[0].id for n in range(PEOPLE)]
    t0 = time.perf_counter()
    made = 0
    while made < matches:
        with db.write() as s:
            for _ in range(min(BATCH, matches - made)):
                seated = rng.sample(people, SEATS)
                room = store.create_room(s, store.player_row(s, seated[0]), VARIANT, options, SEATS, 0)
                room.pace, room.move_seconds, room.on_deadline = "turn", 86400.0, "bot"
                for seat, player in enumerate(seated[1:], start=1):
                    store.take_seat(s, room, seat, player)
                seed = rng.randrange(2**31)
                row = store.create_match(s, room, seed)
                engine = variant.new_match(SEATS, seed=seed, options=options)
                log = []
                for seq in range(actions):
                    seat = engine.to_act()[0]
                    action = rng.choice(engine.legal_actions(seat))
                    engine.apply(seat, action)
                    log.append((row.id, seq, seat, action, f"fill-{seq}"))
                s.flush()
                store.record_actions(s.connection(), log)
                # The match's one running deadline (app/rooms/deadlines.py): its awaited
                # seat, due in one to two days (none falls due while the bench runs), its
                # reminder when a quarter of the move's time is left.
                due = now + timedelta(seconds=rng.uniform(86400, 2 * 86400))
                s.add(m.Deadline(match_id=row.id, room_id=room.id, seat=engine.to_act()[0], version=actions,
                                 since=due - timedelta(days=1), due_at=due, seconds=86400.0,
                                 remind_at=due - timedelta(hours=6), state="running"))
                made += 1
        print(f"  filled {made}/{matches} matches ({time.perf_counter() - t0:.0f} s)", flush=True)
    db.dispose()


# -- 2-4. one server process --------------------------------------------------------------


async def deadline_sweep_cost(server, say, due: int = 200) -> None:
    """The deadline sweeper (``Deadlines.sweep``, app/rooms/deadlines.py) over the
    matches' rows: a sweep that finds nothing due (what every poll costs), then one that finds
    ``due`` deadlines due (one sweep's claim limit) in matches not in memory: each is
    claimed, its match loaded from its log, and its seat's bot plays the move through
    the match loop (the rooms' ``on_deadline`` is ``bot``)."""
    from sqlalchemy import func, select, update

    from app.db import models as m

    sweeper = server.deadlines
    idle: list[float] = []
    for _ in range(20):
        t0 = time.perf_counter()
        fired = await sweeper.sweep()
        idle.append(1000 * (time.perf_counter() - t0))
        assert not fired, fired
    with server.db.read() as s:
        rows = s.scalar(select(func.count()).select_from(m.Deadline))
    say(f"deadline sweep finding nothing due among {rows} rows ({len(server.live)} matches in memory): "
        f"p50 {pct(idle, 0.5):.2f} ms, max {max(idle):.2f} ms (20 sweeps)")
    await server.matches.sweep(server.settings.match_idle_seconds, time.monotonic() + 1e6)
    now = server.clock.now()
    with server.db.write() as s:
        ids = list(s.scalars(select(m.Deadline.match_id).where(m.Deadline.state == "running")
                             .order_by(m.Deadline.match_id).limit(due)))
        s.execute(update(m.Deadline).where(m.Deadline.match_id.in_(ids))
                  .values(due_at=now - timedelta(seconds=1)))
    versions = {}
    with server.db.read() as s:
        for match_id, version in s.execute(select(m.Match.id, m.Match.version).where(m.Match.id.in_(ids))):
            versions[match_id] = version
    rss = rss_mib()
    t0 = time.perf_counter()
    fired = len(await sweeper.sweep())
    took = 1000 * (time.perf_counter() - t0)
    with server.db.read() as s:
        moved = sum(1 for match_id, version in s.execute(
            select(m.Match.id, m.Match.version).where(m.Match.id.in_(ids))) if version == versions[match_id] + 1)
    say(f"deadline sweep with {len(ids)} due in matches not in memory: {fired} fired in {took:.0f} ms "
        f"({took / max(1, fired):.2f} ms a deadline: claim, load from the log, the bot's move committed; "
        f"{moved} matches one move on, {len(server.live)} now in memory, RSS {rss:.1f} -> {rss_mib():.1f} MiB)")


async def measure(url: str, samples: int) -> list[str]:
    from sqlalchemy import select

    from app.config import Settings
    from app.db import models as m
    from app.rooms.live import LiveMatch
    from app.server import Server

    out: list[str] = []

    def say(line: str) -> None:
        print(line, flush=True)
        out.append(line)

    # No sweeper of its own: the bench sweeps (matches and deadlines) when it measures.
    settings = Settings(database_url=url, log_level="WARNING", match_sweep_seconds=0.0,
                        deadline_sweeper=False, metrics_token="", lag_watch_ms=0.0)
    server = Server(settings)
    await server.startup()
    try:
        matches = server.matches
        with server.db.read() as s:
            rooms = [(code, match_id) for code, match_id in s.execute(
                select(m.Room.code, m.Match.id).join(m.Match, m.Match.id == m.Room.current_match_id)
                .where(m.Room.pace == "turn", m.Match.status == "playing"))]
        gc.collect()
        say(f"open turn-based matches in the database: {len(rooms)} (load average {load()})")
        say(f"RSS after start-up: {rss_mib():.1f} MiB ({len(server.live)} matches in memory; "
            f"{blocks()})")

        t0 = time.perf_counter()
        async def reach(code: str) -> None:  # (returns nothing: no result keeps the match alive)
            await matches.current(code)

        async def reach_all() -> None:
            for start in range(0, len(rooms), 64):  # the worker threads read four at a time
                await asyncio.gather(*(reach(code) for code, _ in rooms[start:start + 64]))

        await reach_all()
        took = time.perf_counter() - t0
        gc.collect()
        say(f"RSS with every match in memory: {rss_mib():.1f} MiB ({blocks()}; {len(server.live)} matches, "
            f"{len(server.rooms.snapshots)} room states; reaching them all took {took:.1f} s)")

        idle = settings.match_idle_seconds
        t0 = time.perf_counter()
        kept = matches.evict_idle(idle)  # every one touched a moment ago: none is idle
        say(f"a sweep that finds none idle: {1000 * (time.perf_counter() - t0):.1f} ms "
            f"over {len(server.live)} matches ({kept} forgotten)")
        stalls: list[float] = []
        ticking = asyncio.create_task(ticker(stalls))
        await asyncio.sleep(0.01)
        t0 = time.perf_counter()
        gone = await matches.sweep(idle, time.monotonic() + idle + 1)
        sweep_ms = 1000 * (time.perf_counter() - t0)
        ticking.cancel()
        say(f"eviction sweep (MatchLoop.sweep): {gone} matches forgotten in {sweep_ms:.1f} ms, "
            f"the event loop held at most {max(stalls):.1f} ms at a time "
            f"({len(server.live)} left, {len(server.rooms.snapshots)} room states)")
        say(f"RSS after the sweep: {rss_mib():.1f} MiB")
        gc.collect()
        alive = sum(1 for o in gc.get_objects() if isinstance(o, LiveMatch))
        say(f"LiveMatch objects left after a full collection: {alive}")
        say(f"RSS after the sweep and a full collection: {rss_mib():.1f} MiB ({blocks()})")
        trimmed = trim()
        if trimmed:
            say(f"RSS after glibc's malloc_trim(0) too (free heap handed back to the kernel): {rss_mib():.1f} MiB")
        await reach_all()  # a second round: the freed memory is used again
        gc.collect()
        say(f"RSS with every match in memory again: {rss_mib():.1f} MiB ({len(server.live)} matches)")
        matches.evict_idle(idle, time.monotonic() + idle + 1)
        gc.collect()
        trim()
        say(f"... and after the sweep again: {rss_mib():.1f} MiB ({len(server.live)} matches)")
        t0 = time.perf_counter()
        matches.evict_idle(idle, time.monotonic() + idle + 1)
        say(f"a sweep with no match in memory: {1000 * (time.perf_counter() - t0):.2f} ms")

        picked = random.Random(7).sample(rooms, min(samples, len(rooms)))
        cold: list[float] = []
        warm: list[float] = []
        for label, times in (("loaded from its log", cold), ("already in memory", warm)):
            for n, (code, match_id) in enumerate(picked):
                t0 = time.perf_counter()
                live = await matches.current(code)
                assert live is not None and live.id == match_id
                seat = live.engine.to_act()[0]
                action = live.engine.legal_actions(seat)[0]
                seq = await matches.submit(live, seat, action, f"bench-{label[0]}{n}", live.version)
                times.append(1000 * (time.perf_counter() - t0))
                assert seq is not None, (match_id, action)
            say(f"a move in a match {label} (current -> submit -> committed), {len(times)} moves: "
                f"p50 {pct(times, 0.5):.2f} ms, p99 {pct(times, 0.99):.2f} ms, max {max(times):.2f} ms")
        say(f"RSS after the moves: {rss_mib():.1f} MiB ({len(server.live)} matches in memory)")

        await deadline_sweep_cost(server, say)
        say(f"load average at the end: {load()} (other work on the machine lengthens the tails)")
    finally:
        await server.shutdown()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--actions", type=int, default=4, help="actions in each match's log")
    parser.add_argument("--samples", type=int, default=2_000, help="moves timed (each in its own match)")
    parser.add_argument("--database-url", help="fill and measure this database (default: a new SQLite file)")
    parser.add_argument("--postgres", action="store_true", help="a fresh PostgreSQL database on 127.0.0.1")
    parser.add_argument("--fill-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.fill_only:
        return fill(args.database_url, args.matches, args.actions)
    command = " ".join(["bench/turnbased.py", *sys.argv[1:]])
    dropped = None
    if args.database_url:
        url = args.database_url
    elif args.postgres:
        import psycopg
        dropped = f"kozyr_bench_{secrets.token_hex(4)}"
        with psycopg.connect(PG, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{dropped}"')
        url = PG.rsplit("/", 1)[0] + "/" + dropped
    else:
        url = f"sqlite:////tmp/kozyr-turnbased-{secrets.token_hex(4)}.db"
    try:
        print(f"filling {url} with {args.matches} matches ({args.actions} actions each) ...", flush=True)
        subprocess.run([sys.executable, __file__, "--fill-only", "--database-url", url,
                        "--matches", str(args.matches), "--actions", str(args.actions)], check=True)
        lines = asyncio.run(measure(url, args.samples))
    finally:
        if dropped is not None:
            import psycopg
            with psycopg.connect(PG, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{dropped}" WITH (FORCE)')
        elif not args.database_url:
            for suffix in ("", "-wal", "-shm"):
                Path(url.removeprefix("sqlite:///") + suffix).unlink(missing_ok=True)
    print(f"\n{datetime.now(UTC):%Y-%m-%d} · {os.cpu_count()} cores · .venv/bin/python {command}")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
