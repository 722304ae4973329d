"""CPU per logged action of PostgreSQL's group writer (app/db/pg_writer.py) alone:
ROOMS matches, each logging one action every PERIOD seconds for SECONDS, in a fresh
database that is dropped after; prints writes, batches and the process's CPU per
write (the event loop's side included).

    .venv/bin/python bench/pg_writer.py [--rooms 200] [--period 0.5] [--seconds 6]
        [--admin-url postgresql://postgres@127.0.0.1:5432/postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.db.migrate import upgrade  # noqa: E402
from app.db.pg_writer import PgGroupWriter  # noqa: E402
from app.db.session import Database  # noqa: E402
from tests.app.helpers import make_matches  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--period", type=float, default=0.5)
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--admin-url", default="postgresql://postgres@127.0.0.1:5432/postgres")
    args = parser.parse_args()
    name = f"kozyr_bench_pgw_{int(time.time())}"
    with psycopg.connect(args.admin_url, autocommit=True) as c:
        c.execute(f"CREATE DATABASE {name}")
    db = Database(args.admin_url.rsplit("/", 1)[0] + "/" + name)
    try:
        upgrade(db.engine)
        ids = make_matches(db, args.rooms)
        writer = PgGroupWriter(db)

        async def room(match_id: str) -> None:
            await asyncio.sleep(random.random() * args.period)
            seq, start = 0, time.monotonic()
            while time.monotonic() - start < args.seconds:
                await writer.submit((match_id, seq, 0, "pass", f"c{seq}"))
                seq += 1
                await asyncio.sleep(args.period - (time.monotonic() - start) % args.period)

        async def run() -> None:
            await asyncio.gather(*(room(i) for i in ids))

        cpu = time.process_time()
        asyncio.run(run())
        cpu = time.process_time() - cpu
        writer.stop()
        print(f"{writer.writes} writes in {writer.batches} batches ({writer.writes / writer.batches:.2f} a batch), "
              f"{cpu / writer.writes * 1000:.3f} ms of process CPU per write")
    finally:
        db.dispose()
        with psycopg.connect(args.admin_url, autocommit=True) as c:
            c.execute(f"DROP DATABASE {name}")


if __name__ == "__main__":
    main()
