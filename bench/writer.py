"""CPU per logged action of the group writer alone (SQLite's app/db/writer.py or
PostgreSQL's app/db/pg_writer.py): ROOMS matches, each logging one action every PERIOD
seconds for SECONDS, in a fresh database that is dropped after; prints writes, batches
and the process's CPU per write (the event loop's side included), once per pace asked
for (``--pace INTERVAL:MAX_WAIT``, seconds; the writer's default when none), the paces
alternating ``--rounds`` times in the same sitting.

    .venv/bin/python bench/writer.py [--database sqlite|postgresql] [--rooms 200]
        [--period 0.5] [--seconds 6] [--pace 0.002:0.002 --pace 0.002:0.010] [--rounds 1]
        [--admin-url postgresql://postgres@127.0.0.1:5432/postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

import psycopg
from sqlalchemy import text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.db.migrate import upgrade  # noqa: E402
from app.db.pg_writer import PgGroupWriter  # noqa: E402
from app.db.session import Database  # noqa: E402
from app.db.writer import GroupWriter  # noqa: E402
from tests.app.helpers import make_matches  # noqa: E402


def run_once(db: Database, ids: list[str], cls: type, pace: tuple[float, float] | None,
             period: float, seconds: float, first: dict[str, int]) -> str:
    writer = cls(db) if pace is None else cls(db, interval=pace[0], max_wait=pace[1])

    async def room(match_id: str) -> None:
        await asyncio.sleep(random.random() * period)
        seq, start = first.get(match_id, 0), time.monotonic()
        while time.monotonic() - start < seconds:
            await writer.submit((match_id, seq, 0, "pass", None))
            seq += 1
            await asyncio.sleep(period - (time.monotonic() - start) % period)

    async def run() -> None:
        await asyncio.gather(*(room(i) for i in ids))

    cpu = time.process_time()
    asyncio.run(run())
    cpu = time.process_time() - cpu
    writer.stop()
    name = "default" if pace is None else f"{pace[0] * 1000:g}:{pace[1] * 1000:g} ms"
    return (f"pace {name}: {writer.writes} writes in {writer.batches} batches "
            f"({writer.writes / writer.batches:.2f} a batch), "
            f"{cpu / writer.writes * 1000:.3f} ms of process CPU per write")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="postgresql")
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--period", type=float, default=0.5)
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--pace", action="append", default=[],
                        help="INTERVAL:MAX_WAIT in seconds (repeat to compare)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--admin-url", default="postgresql://postgres@127.0.0.1:5432/postgres")
    args = parser.parse_args()
    paces = [tuple(float(x) for x in p.split(":")) for p in args.pace] or [None]
    print("$ " + " ".join([".venv/bin/python", "bench/writer.py", *sys.argv[1:]]))
    name = f"kozyr_bench_writer_{int(time.time())}"
    tmp = tempfile.TemporaryDirectory()
    if args.database == "postgresql":
        with psycopg.connect(args.admin_url, autocommit=True) as c:
            c.execute(f"CREATE DATABASE {name}")
        db = Database(args.admin_url.rsplit("/", 1)[0] + "/" + name)
        cls: type = PgGroupWriter
    else:
        db = Database(f"sqlite:///{tmp.name}/writer.db")
        cls = GroupWriter
    try:
        upgrade(db.engine)
        ids = make_matches(db, args.rooms)
        first: dict[str, int] = {}
        for _ in range(args.rounds):
            for pace in paces:
                print(run_once(db, ids, cls, pace, args.period, args.seconds, first), flush=True)
                with db.read() as s:  # each match's version: where the next run goes on
                    first = dict(s.execute(text("SELECT id, version FROM matches")).all())
    finally:
        db.dispose()
        tmp.cleanup()
        if args.database == "postgresql":
            with psycopg.connect(args.admin_url, autocommit=True) as c:
                c.execute(f"DROP DATABASE {name}")


if __name__ == "__main__":
    main()
