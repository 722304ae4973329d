"""What a process new to a room reads when its first seat joins (PostgreSQL or SQLite):
the room's state (``RoomService._read_room``) and the room's current match with its
log (``LiveMatch.load_if_any``), per room, in one thread, timed in that thread's CPU
and in wall time.  This is the work a join storm queues on the worker threads of the
process that did not make the rooms (bench/server.py --modes two: process B).

    .venv/bin/python bench/join_reads.py [--rooms 200] [--actions 12] [--database-url URL]

The default database is a fresh PostgreSQL database on 127.0.0.1 (dropped after)."""

from __future__ import annotations

import argparse
import cProfile
import secrets
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.config import Settings  # noqa: E402
from app.main import create_app  # noqa: E402

PG = "postgresql://postgres@127.0.0.1:5432/test"


def run(url: str, rooms: int, actions: int, profile: str | None = None) -> None:
    from starlette.testclient import TestClient

    from app.db import store
    from app.rooms.live import LiveMatch
    from tests.app.helpers import make_room

    app = create_app(Settings(database_url=url, allow_fixed_seed=True, log_level="WARNING",
                              room_lookup_burst=1_000_000, messages_per_second=10_000.0))
    with TestClient(app) as client:
        kozyr = app.state
        codes = []
        for _ in range(rooms):
            room, _players = make_room(client, "thousand-1001", 3, seed=7)
            codes.append(room["code"])
        # A few actions in each log, as a join storm a little into the matches finds them.
        for code in codes:
            live = kozyr.live[kozyr.rooms.snapshots[code]["match"]["id"]]
            for _ in range(actions):
                seat = live.engine.to_act()[0]
                action = live.engine.legal_actions(seat)[0]
                with kozyr.db.write() as s:
                    store.record_action(s.connection(), live.id, live.version, seat, action, None)
                live.follow(live.version, seat, action, None)
        rooms_svc = kozyr.rooms
        for label in ("warm-up", "measured"):
            prof = cProfile.Profile() if profile and label == "measured" else None
            cpu0, wall0 = time.thread_time(), time.perf_counter()
            if prof is not None:
                prof.enable()
            for code in codes:
                snap = rooms_svc._read_room(code)
                LiveMatch.load_if_any(kozyr.db, snap["match"]["id"])
            if prof is not None:
                prof.disable()
                prof.dump_stats(profile)
            cpu, wall = time.thread_time() - cpu0, time.perf_counter() - wall0
            if label == "measured":
                print(f"{url.split(':')[0]}: {rooms} rooms, {actions} actions each: per room "
                      f"{1000 * cpu / rooms:.2f} ms CPU (this thread), {1000 * wall / rooms:.2f} ms wall "
                      "(room state + match and log, one thread)")
    app.state.db.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--actions", type=int, default=12)
    parser.add_argument("--database-url")
    parser.add_argument("--profile", help="cProfile the measured pass to this file")
    args = parser.parse_args()
    if args.database_url:
        return run(args.database_url, args.rooms, args.actions, args.profile)
    import psycopg
    name = f"kozyr_bench_{secrets.token_hex(4)}"
    with psycopg.connect(PG, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            run(PG.rsplit("/", 1)[0] + "/" + name, args.rooms, args.actions, args.profile)
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
