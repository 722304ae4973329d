"""The club page's API for a club of many members and matches, on PostgreSQL (issue 37).

    .venv/bin/python bench/club_page.py [--members 200] [--matches 10000] [--rooms 500]
        [--other-clubs 20] [--other-matches 500] [--site-players 20000] [--site-rooms 20000]
        [--requests 200]
        [--url postgresql://postgres@127.0.0.1:5432/test]

Creates a fresh database ``kozyr_club_bench_<random>`` on the server of ``--url``
(dropped at the end), migrates it, and seeds one club of ``--members`` members with
``--matches`` finished four-seat Король matches in ``--rooms`` of its rooms (matches,
match_players, standings: what the server writes when a match ends; the rooms' last
matches finished, plus 20 rooms waiting), and ``--other-clubs`` more clubs of the same
people with ``--other-matches`` matches each, and the rest of a site: ``--site-players``
players and ``--site-rooms`` rooms outside clubs.  Then an admin creates a season over all of
them through the API (which counts the matches already played: the time is printed),
and each route of the club page is timed through the whole application (Starlette's
TestClient: routing, validation, SQL, JSON), ``--requests`` times each: p50 / p99 /
max wall time in ms and the benchmark process's CPU per request.  Last, EXPLAIN
ANALYZE of every statement one club page read runs, to show the indexes they use."""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg  # noqa: E402
from sqlalchemy import insert  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from app.config import Settings  # noqa: E402
from app.db import models as m  # noqa: E402
from app.db import ratings as rsql  # noqa: E402
from app.db import store  # noqa: E402
from app.main import create_app  # noqa: E402
from bench.explain import explain  # noqa: E402


def seed(db, members: int, matches: int, rooms: int) -> tuple[int, str, list[int]]:
    """The club (its id), the owner's token, the members' ids."""
    rng = random.Random(1)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    with db.write() as s:
        owner, token = store.create_player(s, "Owner")
        people = [owner] + [m.Player(token_hash=f"person:{secrets.token_hex(16)}", name=f"Member {i:03}")
                            for i in range(1, members)]
        s.add_all(people[1:])
        s.flush()
        ids = [p.id for p in people]
        club = m.Club(name="Bench club", owner_id=owner.id, listed=True)
        s.add(club)
        s.flush()
        s.execute(insert(m.ClubMember), [
            {"club_id": club.id, "player_id": pid, "role": "owner" if pid == owner.id else "member",
             "status": "active", "requested_at": start, "joined_at": start} for pid in ids])
        room_rows = [{"code": secrets.token_hex(4).upper(), "variant": "korol-ru", "options": {}, "seat_count": 4,
                      "host_id": rng.choice(ids), "club_id": club.id, "preset_name": "Наш король",
                      "created_at": start + timedelta(minutes=n)} for n in range(rooms + 20)]
        room_ids = list(s.scalars(insert(m.Room).returning(m.Room.id), room_rows))
        match_rows, seat_rows, standing_rows, last = [], [], [], {}
        for n in range(matches):
            room = room_ids[n % rooms]
            mid = secrets.token_hex(10)
            when = start + timedelta(minutes=10 * n)
            seated = rng.sample(ids, 4)
            totals = [rng.randint(-200, 300) for _ in range(4)]
            placed = [1 + sum(1 for o in totals if o > t) for t in totals]
            match_rows.append({"id": mid, "room_id": room, "number": n // rooms + 1, "variant": "korol-ru",
                               "options": {}, "seat_count": 4, "seed": n, "status": "finished", "version": 100,
                               "result": {"totals": totals, "places": placed}, "created_at": when,
                               "finished_at": when + timedelta(minutes=5), "club_id": club.id,
                               "preset_name": "Наш король"})
            for seat, pid in enumerate(seated):
                seat_rows.append({"match_id": mid, "seat_no": seat, "player_id": pid, "name": f"P{pid}"})
                standing_rows.append({"match_id": mid, "seat": seat, "player_id": pid, "family": "korol",
                                      "variant": "korol-ru", "place": placed[seat], "total": float(totals[seat]),
                                      "finished_at": when + timedelta(minutes=5)})
            last[room] = mid
        for table, rows in ((m.Match, match_rows), (m.MatchPlayer, seat_rows), (rsql.Standing, standing_rows)):
            for i in range(0, len(rows), 5000):
                s.execute(insert(table), rows[i:i + 5000])
        for room, mid in last.items():
            s.get_one(m.Room, room).current_match_id = mid
        for room in room_ids:
            for seat in range(4):
                s.add(m.Seat(room_id=room, seat_no=seat, player_id=None))
    return club.id, token, ids


def seed_others(db, clubs: int, members: list[int], matches: int) -> None:
    """``clubs`` more clubs of the same people, ``matches`` finished matches each, so the
    tables are more than one club's (the planner then picks what a real site gets)."""
    rng = random.Random(2)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    with db.write() as s:
        for n in range(clubs):
            club = m.Club(name=f"Other {n}", owner_id=members[0])
            s.add(club)
            s.flush()
            s.execute(insert(m.ClubMember), [
                {"club_id": club.id, "player_id": pid, "role": "member", "status": "active",
                 "requested_at": start, "joined_at": start} for pid in members])
            rooms = list(s.scalars(insert(m.Room).returning(m.Room.id), [
                {"code": secrets.token_hex(4).upper(), "variant": "korol-ru", "options": {}, "seat_count": 4,
                 "host_id": members[0], "club_id": club.id, "created_at": start} for _ in range(20)]))
            batch, seats = [], []
            for k in range(matches):
                mid = secrets.token_hex(10)
                batch.append({"id": mid, "room_id": rooms[k % 20], "number": k // 20 + 1, "variant": "korol-ru",
                              "options": {}, "seat_count": 4, "seed": k, "status": "finished", "version": 1,
                              "result": {"totals": [0, 0, 0, 0]}, "created_at": start,
                              "finished_at": start + timedelta(minutes=k), "club_id": club.id})
                seats += [{"match_id": mid, "seat_no": x, "player_id": pid, "name": "P"}
                          for x, pid in enumerate(rng.sample(members, 4))]
            s.execute(insert(m.Match), batch)
            s.execute(insert(m.MatchPlayer), seats)


def seed_site(db, players: int, rooms: int) -> None:
    """The rest of a site: ``players`` players in no club and ``rooms`` rooms outside clubs
    (each with its four seats), so players and rooms are a server's tables, not one
    club's (on a table of a few hundred rows the planner rightly reads it whole)."""
    start = datetime(2025, 6, 1, tzinfo=UTC)
    with db.write() as s:
        ids = list(s.scalars(insert(m.Player).returning(m.Player.id), [
            {"token_hash": f"person:{secrets.token_hex(16)}", "name": f"Someone {i}"} for i in range(players)]))
        for i in range(0, rooms, 5000):
            room_ids = list(s.scalars(insert(m.Room).returning(m.Room.id), [
                {"code": secrets.token_hex(5).upper(), "variant": "thousand-ru", "options": {}, "seat_count": 3,
                 "host_id": ids[n % len(ids)], "created_at": start + timedelta(minutes=n)}
                for n in range(i, min(rooms, i + 5000))]))
            s.execute(insert(m.Seat), [{"room_id": r, "seat_no": k, "player_id": None}
                                       for r in room_ids for k in range(3)])


def explain_route(db, client, route: str, headers: dict) -> None:
    """EXPLAIN ANALYZE of every statement of one request of ``route``."""
    def work() -> None:
        assert client.get(route, headers=headers).status_code == 200
    explain(db.engine, route, work)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--members", type=int, default=200)
    ap.add_argument("--matches", type=int, default=10_000)
    ap.add_argument("--rooms", type=int, default=500)
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--other-clubs", type=int, default=20, help="more clubs of the same people")
    ap.add_argument("--other-matches", type=int, default=500, help="finished matches of each other club")
    ap.add_argument("--site-players", type=int, default=20_000, help="players in no club")
    ap.add_argument("--site-rooms", type=int, default=20_000, help="rooms outside clubs")
    ap.add_argument("--url", default="postgresql://postgres@127.0.0.1:5432/test")
    args = ap.parse_args()
    name = f"kozyr_club_bench_{secrets.token_hex(4)}"
    admin = psycopg.connect(args.url, autocommit=True)
    admin.execute(f'CREATE DATABASE "{name}"')
    base = args.url.rpartition("/")[0]
    try:
        app = create_app(Settings(database_url=f"{base}/{name}", log_level="WARNING", stall_log_ms=0))
        with TestClient(app) as client:
            db = app.state.db
            t0 = time.perf_counter()
            club, token, ids = seed(db, args.members, args.matches, args.rooms)
            seed_others(db, args.other_clubs, ids, args.other_matches)
            seed_site(db, args.site_players, args.site_rooms)
            headers = {"Authorization": f"Bearer {token}"}
            print(f"seeded a club of {args.members} members with {args.matches} finished matches in "
                  f"{args.rooms} rooms, and {args.other_clubs} more clubs of them with {args.other_matches} "
                  f"matches each, and {args.site_players} players and {args.site_rooms} rooms outside clubs, in {time.perf_counter() - t0:.1f} s")
            t0, c0 = time.perf_counter(), time.process_time()
            r = client.post(f"/api/clubs/{club}/seasons", headers=headers, json={
                "name": "Bench", "starts_at": "2025-12-01T00:00:00Z", "ends_at": "2030-01-01T00:00:00Z",
                "families": ["korol"], "points": [3, 1, 0, 0], "min_matches": 10})
            assert r.status_code == 201, r.text
            season = r.json()
            print(f"a season created over them (each match counted, club ratings moved) in "
                  f"{time.perf_counter() - t0:.1f} s ({time.process_time() - c0:.1f} s CPU); its table has {len(season['table'])} rows, "
                  f"{sum(x['matches'] for x in season['table'])} player-matches")
            with psycopg.connect(f"{base}/{name}", autocommit=True) as c:
                c.execute("VACUUM ANALYZE")
            routes = [f"/api/clubs/{club}", f"/api/clubs/{club}/seasons/{season['id']}",
                      f"/api/clubs/{club}/seasons/{season['id']}/table.csv", f"/api/clubs/{club}/presets",
                      "/api/players/me/clubs"]
            print(f"load average before the timings: {os.getloadavg()}")
            print(f"\n{'route':48} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'cpu ms':>7}")
            for route in routes:
                for _ in range(10):
                    assert client.get(route, headers=headers).status_code == 200
                times = []
                cpu = time.process_time()
                for _ in range(args.requests):
                    t = time.perf_counter()
                    r = client.get(route, headers=headers)
                    times.append((time.perf_counter() - t) * 1000)
                    assert r.status_code == 200, r.text
                cpu = (time.process_time() - cpu) * 1000 / args.requests
                times.sort()
                p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
                print(f"{route:48} {statistics.median(times):7.2f} {p99:7.2f} {times[-1]:7.2f} {cpu:7.2f}")
            print(f"load average after the timings: {os.getloadavg()}")
            explain_route(db, client, f"/api/clubs/{club}", headers)
        app.state.db.dispose()
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


if __name__ == "__main__":
    main()
