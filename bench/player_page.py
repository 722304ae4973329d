"""The player page's API for a player with many finished matches, on PostgreSQL.

    .venv/bin/python bench/player_page.py [--matches 10000] [--requests 300]
        [--others 20000] [--crowd 5000]
        [--url postgresql://postgres@127.0.0.1:5432/test]

Creates a fresh database ``kozyr_page_bench_<random>`` on the server of ``--url``
(dropped at the end), migrates it, and seeds one player's ``--matches`` finished
matches of four seats with 12 rotating friends (match, match_players, standings,
pair_records, 8 seat_results (and score_rows) of the player's per match, his family_totals and,
for a rated half, rating_events rows), i.e. what the server
writes when those matches end.  Then it times each route of the page through
the whole application (Starlette's TestClient: routing, validation, SQL, JSON),
``--requests`` times each, and prints p50 / p99 / max wall time in ms, the
benchmark process's CPU per request (the Python side; less shaken by other
load on the machine than the wall times), the load average before and after, and
the query plans with their server-side times (EXPLAIN ANALYZE) of every statement
of the page's reads, to show which indexes they use.  ``--crowd`` more players with
ratings and family_totals rows make those tables a site's size.

The match list's deep page is timed both ways: keyset (``before=<the last match of
page 400>``, what the client does) and ``offset=8000`` (older clients)."""

from __future__ import annotations

import argparse
import random
import secrets
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg  # noqa: E402
from sqlalchemy import func, insert, select, text  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from app.config import Settings  # noqa: E402
from app.db import models as m  # noqa: E402
from app.db import ratings as sql  # noqa: E402
from app.main import create_app  # noqa: E402
from bench.explain import explain as explain_work  # noqa: E402

FAMILIES = [("thousand", "thousand-1000"), ("king", "king-classic"), ("korol", "korol-ru")]


def seed(db, matches: int, others: int) -> int:
    """The player's ``matches`` and ``others`` matches of the other players without him."""
    rng = random.Random(1)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    with db.write() as s:
        players = [m.Player(token_hash=secrets.token_hex(32), name=f"Friend {i}") for i in range(13 + 40)]
        s.add_all(players)
        s.flush()
        me, friends = players[0].id, [p.id for p in players[1:13]]
        strangers = [p.id for p in players[13:]]
        room = m.Room(code=secrets.token_hex(4).upper(), variant="king-classic", options={}, seat_count=4,
                      host_id=me, rated=True)
        s.add(room)
        s.flush()
        room_id = room.id
    batch = 1000
    mu = {p: 25.0 for p in [me, *friends, *strangers]}
    pairs: dict[tuple[int, int], list[int]] = {}
    rated: dict[tuple[int, str], int] = {}  # (player, family): rated matches so far (rating_events.n)
    total = matches + others
    counts: dict[str, dict] = {f: {} for f, _ in FAMILIES}
    mine_so_far = 0
    for first in range(0, total, batch):
        rows_m, rows_mp, rows_st, rows_ev, rows_ss, rows_sc = [], [], [], [], [], []
        for k in range(first, min(total, first + batch)):
            # the player's matches spread among the others'
            mine = (k * matches) // total != ((k + 1) * matches) // total  # exactly `matches` of them
            n = k
            # his matches take the families in turn (a third of all matches are his: by k
            # alone they would all be of one family)
            family, variant = FAMILIES[(mine_so_far if mine else n) % 3]
            mine_so_far += mine
            match_id = f"b{n:011d}"
            when = start + timedelta(minutes=30 * n)
            seats = [me, *rng.sample(friends, 3)] if mine else rng.sample(strangers + friends, 4)
            rng.shuffle(seats)
            totals = [rng.randint(-200, 1000) for _ in seats]
            order = sorted(range(4), key=lambda i: -totals[i])
            place = [1 + sum(1 for j in range(4) if totals[j] > totals[i]) for i in range(4)]
            rows_m.append(dict(id=match_id, room_id=room_id, number=n + 1, variant=variant, options={},
                               seat_count=4, seed=n, status="finished", version=100,
                               result={"totals": totals, "winners": [order[0]]}, created_at=when,
                               finished_at=when))
            for a, pa in enumerate(seats):
                for b, pb in enumerate(seats):
                    if a != b:
                        c = pairs.setdefault((pa, pb), [0, 0, 0])
                        c[0] += 1
                        c[1] += place[a] < place[b]
                        c[2] += place[a] > place[b]
            if mine:  # the player's seat in each of 8 deals (or rounds) of the match
                seat = seats.index(me)
                for d in range(8):
                    declarer = family == "thousand" and rng.random() < 0.33
                    rows_ss.append(dict(
                        match_id=match_id, kind="round" if family == "korol" else "deal", idx=d + 1, seat=seat,
                        score=float(rng.randint(-120, 120)), total=0.0, declarer=declarer,
                        bid=rng.choice([100, 110, 120, 140]) if declarer else None,
                        made=rng.random() < 0.7 if declarer else None, marriages=int(rng.random() < 0.2),
                        tricks=None,
                        title=rng.choice(["king", "prince", "soldier", "peasant"]) if family == "korol" else None))
                    if family != "korol":
                        rows_sc.append(dict(match_id=match_id, deal=d + 1, row={}, contract=rng.choice(
                            ["tricks", "hearts", "boys", "girls", "king", "last2", "all", "trump"])
                            if family == "king" else str(rng.choice([100, 120]))))
            for seat, pid in enumerate(seats):
                rows_mp.append(dict(match_id=match_id, seat_no=seat, player_id=pid, name=f"P{pid}"))
                rows_st.append(dict(match_id=match_id, seat=seat, player_id=pid, family=family,
                                    variant=variant, place=place[seat], total=float(totals[seat]),
                                    finished_at=when))
                if n % 2 == 0:
                    before = mu[pid]
                    mu[pid] += (2.5 - place[seat]) * 0.3
                    rated[(pid, family)] = rated.get((pid, family), 0) + 1
                    rows_ev.append(dict(match_id=match_id, player_id=pid, family=family, seat=seat,
                                        place=place[seat], mu_before=before, sigma_before=5.0,
                                        mu=mu[pid], sigma=5.0, created_at=when, n=rated[(pid, family)]))
        with db.write() as s:
            s.execute(insert(m.Match), rows_m)
            s.execute(insert(m.MatchPlayer), rows_mp)
            s.execute(insert(sql.Standing), rows_st)
            if rows_ev:
                s.execute(insert(sql.RatingEvent), rows_ev)
            if rows_ss:
                s.execute(insert(m.SeatResult), rows_ss)
            if rows_sc:
                s.execute(insert(m.ScoreRow), rows_sc)
            s.flush()
            by_match: dict[str, list[dict]] = {}
            for r in rows_st:
                by_match.setdefault(r["match_id"], []).append(r)
            for match in rows_m:  # what the server adds to family_totals as each match ends
                seats = by_match[match["id"]]
                if me in [r["player_id"] for r in seats]:
                    family = seats[0]["family"]
                    for key, (n, t) in sql.match_totals(s, match["id"], family, [r["place"] for r in seats],
                                                        [r["player_id"] for r in seats]).items():
                        cell = counts[family].setdefault(key, [0, 0.0])
                        cell[0] += n
                        cell[1] += t
    with db.write() as s:
        for family, _ in FAMILIES:
            s.add(sql.Rating(player_id=me, family=family, mu=mu[me], sigma=5.0, matches=rated.get((me, family), 0)))
        for family, c in counts.items():
            sql.add_family_totals(s, family, c)
        s.execute(insert(sql.PairRecord), [dict(player_id=a, other_id=b, matches=c[0], ahead=c[1], behind=c[2])
                                           for (a, b), c in pairs.items()])
    return me


def seed_crowd(db, count: int) -> None:
    """``count`` more players with ratings and family_totals rows (a site with many players,
    so the page's small tables are not read whole)."""
    rng = random.Random(2)
    with db.write() as s:
        first = s.scalar(select(func.max(m.Player.id))) + 1
        ids = list(range(first, first + count))
        s.execute(insert(m.Player), [dict(id=i, token_hash=secrets.token_hex(32), name=f"Crowd {i}") for i in ids])
        s.execute(insert(sql.Rating), [dict(player_id=i, family=f, mu=rng.uniform(15, 35), sigma=4.0, matches=50,
                                            updated_at=datetime(2026, 6, 1, tzinfo=UTC))
                                       for i in ids for f, _ in FAMILIES])
        s.execute(insert(sql.FamilyTotal), [dict(player_id=i, family=f, key=key, n=n, total=float(n))
                                            for i in ids for f, _ in FAMILIES for key, n in (("played", 50), ("won", 12))])
    if db.is_postgres:  # the players' id sequence after explicit ids
        with db.write() as s:
            s.execute(text("SELECT setval('players_id_seq', (SELECT max(id) FROM players))"))


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def vacuum(url: str) -> None:
    """VACUUM ANALYZE (what autovacuum does on a live server): statistics and the
    visibility map, so the aggregates can read the covering index alone."""
    with psycopg.connect(url, autocommit=True) as c:
        c.execute("VACUUM ANALYZE")


def explain(db, me: int, deep: str) -> None:
    """EXPLAIN ANALYZE of every statement of each of the page's reads (the actual times
    are the server's own, without the HTTP and Python around them)."""
    queries = {
        "player_row + ratings_of + totals_of (the page)": lambda c: (
            sql.player_row(c, me), sql.ratings_of(c, me), sql.totals_of(c, me)),
        "rating_history (200 newest)": lambda c: sql.rating_history(c, me, "king", 200, None),
        "rating_chart (120 points)": lambda c: sql.rating_chart(c, me, "king", 120),
        "head_to_head": lambda c: sql.head_to_head(c, me, 50, 0),
        "match_list (first page)": lambda c: sql.match_list(c, me, 20),
        f"match_list (keyset, before={deep})": lambda c: sql.match_list(c, me, 20, before=deep),
        "match_list (offset 8000, older clients)": lambda c: sql.match_list(c, me, 20, 8000),
    }
    for name, run in queries.items():
        def work(run=run) -> None:
            with db.engine.connect() as c:
                run(c)
        explain_work(db.engine, name, work, width=160)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=10_000, help="finished matches of the player")
    ap.add_argument("--others", type=int, default=20_000, help="finished matches of other players")
    ap.add_argument("--crowd", type=int, default=5000, help="more players, with ratings, without matches")
    ap.add_argument("--requests", type=int, default=300)
    ap.add_argument("--url", default="postgresql://postgres@127.0.0.1:5432/test")
    args = ap.parse_args()
    name = f"kozyr_page_bench_{secrets.token_hex(4)}"
    admin = psycopg.connect(args.url, autocommit=True)
    admin.execute(f'CREATE DATABASE "{name}"')
    base = args.url.rpartition("/")[0]
    try:
        app = create_app(Settings(database_url=f"{base}/{name}", log_level="WARNING", stall_log_ms=0))
        with TestClient(app) as client:
            db = app.state.db
            t0 = time.perf_counter()
            me = seed(db, args.matches, args.others)
            seed_crowd(db, args.crowd)
            vacuum(f"{base}/{name}")
            with db.engine.connect() as c:
                listed = sql.match_list(c, me, 100_000)
            mine, deep = len(listed), listed[8000 - 1]["match"]  # the last match of page 400
            print(f"seeded {args.matches + args.others} finished matches in {time.perf_counter() - t0:.1f} s, "
                  f"{mine} of them player {me}'s; {args.crowd} more players with ratings")
            routes = [f"/api/players/{me}/page", f"/api/players/{me}/ratings/king?limit=200",
                      f"/api/players/{me}/ratings/king/chart?points=120",
                      f"/api/players/{me}/head-to-head?limit=50", f"/api/players/{me}/finished?limit=20",
                      f"/api/players/{me}/finished?limit=20&before={deep}",
                      f"/api/players/{me}/finished?limit=20&offset=8000",
                      f"/api/players/{me}/matches.csv"]
            print(f"load average before the timings: {load()}")
            print(f"\n{'route':58} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'cpu ms':>7}")
            for route in routes:
                for _ in range(10):
                    assert client.get(route).status_code == 200
                times = []
                cpu = time.process_time()
                for _ in range(args.requests):
                    t = time.perf_counter()
                    r = client.get(route)
                    times.append((time.perf_counter() - t) * 1000)
                    assert r.status_code == 200, r.text
                cpu = (time.process_time() - cpu) * 1000 / args.requests
                times.sort()
                p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
                print(f"{route:58} {statistics.median(times):7.2f} {p99:7.2f} {times[-1]:7.2f} {cpu:7.2f}")
            print(f"load average after the timings: {load()}")
            explain(db, me, deep)
        app.state.db.dispose()
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


if __name__ == "__main__":
    main()
