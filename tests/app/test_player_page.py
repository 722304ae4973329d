"""The player page's paged API on SQLite and PostgreSQL: the match list's keyset pages
(``before``) read every match once, in the order of the offset pages and of the CSV;
the rating chart picks evenly spread points by ``n``; head-to-head most matches first;
migration 0014 numbers the rating events already stored."""

from __future__ import annotations

import csv
import io
import secrets
from datetime import UTC, datetime, timedelta

import pytest
from alembic import command
from sqlalchemy import create_engine, insert, text

from app.db import models as m
from app.db import ratings as sql
from app.db.migrate import alembic_config, upgrade

from .conftest import PG_URL, _pg_admin
from .helpers import new_player

MATCHES = 57  # three pages of 20 and a short one


@pytest.fixture(scope="module")
def seeded(client):
    """A player with MATCHES finished korol-ru matches against 5 others (some finished at
    the same moment, so the match id breaks ties), half of them rated."""
    me, *others = [new_player(client)["id"] for _ in range(6)]
    start = datetime(2026, 3, 1, tzinfo=UTC)
    tag = secrets.token_hex(3)
    with client.app.state.db.write() as s:
        room = m.Room(code=f"P{tag}".upper(), variant="korol-ru", options={}, seat_count=4, host_id=me, rated=True)
        s.add(room)
        s.flush()
        matches, standings, events = [], [], []
        pairs: dict[tuple[int, int], list[int]] = {}
        n = 0
        for k in range(MATCHES):
            match_id = f"p{tag}{k:05d}"
            when = start + timedelta(minutes=10 * (k // 3))  # three matches end together
            seats = [me, *[others[(k + j) % 5] for j in range(3)]]
            place = [1 + (k + seat) % 4 for seat in range(4)]
            matches.append(dict(id=match_id, room_id=room.id, number=k + 1, variant="korol-ru", options={},
                                seat_count=4, seed=k, status="finished", version=1, created_at=when,
                                finished_at=when, result={"totals": [0, 0, 0, 0], "winners": []}))
            for seat, pid in enumerate(seats):
                standings.append(dict(match_id=match_id, seat=seat, player_id=pid, family="korol",
                                      variant="korol-ru", place=place[seat], total=float(10 * seat - k),
                                      finished_at=when))
                for other, qid in enumerate(seats):
                    if qid != pid:
                        c = pairs.setdefault((pid, qid), [0, 0, 0])
                        c[0] += 1
                        c[1] += place[seat] < place[other]
                        c[2] += place[seat] > place[other]
            if k % 2 == 0:
                n += 1
                events.append(dict(match_id=match_id, player_id=me, family="korol", seat=0, place=place[0],
                                   mu_before=20.0 + n, sigma_before=5.0, mu=21.0 + n, sigma=5.0,
                                   created_at=when, n=n))
        s.execute(insert(m.Match), matches)
        s.execute(insert(sql.Standing), standings)
        s.execute(insert(sql.RatingEvent), events)
        s.execute(insert(sql.PairRecord), [dict(player_id=a, other_id=b, matches=c[0], ahead=c[1], behind=c[2])
                                           for (a, b), c in pairs.items()])
    return me, others, len(events)


def newest_first(client, me: int) -> list[str]:
    with client.app.state.db.read() as s:
        return list(s.scalars(text("SELECT match_id FROM standings WHERE player_id = :p "
                                   "ORDER BY finished_at DESC, match_id DESC"), {"p": me}))


def test_match_list_keyset_pages_read_every_match_once_in_order(client, seeded):
    me, _, _ = seeded
    url = f"/api/players/{me}/finished"
    seen, before = [], None
    while True:
        r = client.get(url, params={"limit": 20} | ({"before": before} if before else {}))
        assert r.status_code == 200, r.text
        rows = r.json()
        if not rows:
            break
        seen += rows
        before = rows[-1]["match"]
    ids = [r["match"] for r in seen]
    assert len(ids) == MATCHES and ids == newest_first(client, me)
    # the same rows as the offset pages (older clients) and the CSV export
    by_offset = [x for o in range(0, MATCHES, 20) for x in client.get(url, params={"limit": 20, "offset": o}).json()]
    assert by_offset == seen
    r = client.get(f"/api/players/{me}/matches.csv")
    assert r.headers["content-type"].startswith("text/csv")
    exported = list(csv.DictReader(io.StringIO(r.text)))
    assert [x["match"] for x in exported] == ids
    assert exported[0] == {k: str(v) for k, v in seen[0].items()}
    assert seen[0]["room"] and seen[0]["family"] == "korol" and seen[0]["seat"] == 0


def test_match_list_refuses_a_cursor_that_is_not_the_players(client, seeded):
    me, others, _ = seeded
    stranger = new_player(client)["id"]
    first = client.get(f"/api/players/{me}/finished", params={"limit": 1}).json()[0]["match"]
    for who, before in ((me, "nope"), (stranger, first)):
        r = client.get(f"/api/players/{who}/finished", params={"before": before})
        assert r.status_code == 422 and r.json()["code"] == "unknown_cursor", r.text
    assert client.get(f"/api/players/{me}/finished", params={"before": "x" * 33}).status_code == 422
    assert client.get("/api/players/999999999/finished").status_code == 404
    # the CSV of nobody's matches: the head only; of nobody at all: 404
    assert client.get(f"/api/players/{stranger}/matches.csv").text == \
        "finished_at,match,variant,family,seat,place,total,room\n"
    assert client.get("/api/players/999999999/matches.csv").status_code == 404


def test_chart_numbers_spread_evenly_first_and_last_kept():
    assert sql.chart_numbers(0, 10) == []
    assert sql.chart_numbers(5, 10) == [1, 2, 3, 4, 5]
    picked = sql.chart_numbers(10_000, 120)
    assert len(picked) == 120 and picked[0] == 1 and picked[-1] == 10_000
    steps = {b - a for a, b in zip(picked, picked[1:], strict=False)}
    assert max(steps) - min(steps) <= 1
    assert sql.chart_numbers(7, 1) == [7]


def test_rating_chart_and_history_pages(client, seeded):
    me, _, events = seeded
    chart = client.get(f"/api/players/{me}/ratings/korol/chart", params={"points": 10}).json()
    assert chart["matches"] == events and len(chart["points"]) == 10
    assert [p["n"] for p in chart["points"]] == sql.chart_numbers(events, 10)
    assert [p["mu"] for p in chart["points"]] == [21.0 + p["n"] for p in chart["points"]]
    assert chart["points"][0]["ordinal"] == pytest.approx(22.0 - 15.0)
    whole = client.get(f"/api/players/{me}/ratings/korol/chart").json()
    assert [p["n"] for p in whole["points"]] == list(range(1, events + 1))
    assert client.get(f"/api/players/{me}/ratings/king/chart").json() == {"family": "king", "matches": 0,
                                                                          "points": []}
    assert client.get(f"/api/players/{me}/ratings/korol/chart", params={"points": 1}).status_code == 422
    # the paged history, newest first, keyset on id
    first = client.get(f"/api/players/{me}/ratings/korol", params={"limit": 10}).json()
    rest = client.get(f"/api/players/{me}/ratings/korol", params={"limit": 100, "before": first[-1]["id"]}).json()
    assert [x["n"] for x in first + rest] == list(range(events, 0, -1))


def test_head_to_head_most_matches_first(client, seeded):
    me, others, _ = seeded
    rows = client.get(f"/api/players/{me}/head-to-head").json()
    assert sorted(x["player"] for x in rows) == sorted(others)
    order = [(-x["matches"], x["player"]) for x in rows]
    assert order == sorted(order)
    assert sum(x["matches"] for x in rows) == 3 * MATCHES
    with client.app.state.db.read() as s:
        assert sorted((x["player"], x["matches"], x["ahead"], x["behind"]) for x in rows) \
            == sql.head_to_head_from_standings(s, me)
    page2 = client.get(f"/api/players/{me}/head-to-head", params={"limit": 2, "offset": 2}).json()
    assert page2 == rows[2:4]


def _engine_at_0013(database_url: str, tmp_path):
    """A fresh database migrated to 0013 (SQLite file, or a PostgreSQL database of its own)."""
    if database_url.startswith("sqlite"):
        return create_engine(f"sqlite:///{tmp_path / 'n.db'}"), None
    admin = _pg_admin()
    name = f"kozyr_page_mig_{secrets.token_hex(4)}"
    admin.execute(f'CREATE DATABASE "{name}"')
    from app.config import sqlalchemy_url
    return create_engine(sqlalchemy_url(f"{PG_URL.rpartition('/')[0]}/{name}")), (admin, name)


def test_0014_numbers_the_stored_rating_events(database_url, tmp_path):
    engine, pg = _engine_at_0013(database_url, tmp_path)
    try:
        cfg = alembic_config()
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "0013")
        with engine.begin() as c:
            c.execute(text("INSERT INTO players (id, token_hash, name, created_at) VALUES "
                           "(1, 'a', 'A', CURRENT_TIMESTAMP), (2, 'b', 'B', CURRENT_TIMESTAMP)"))
            c.execute(text("INSERT INTO rooms (id, code, variant, options, seat_count, host_id, created_at) "
                           "VALUES (1, 'R', 'king-classic', '{}', 2, 1, CURRENT_TIMESTAMP)"))
            for k in range(3):
                c.execute(text("INSERT INTO matches (id, room_id, number, variant, options, seat_count, seed, "
                               "status, version, created_at) VALUES (:id, 1, :k, 'king-classic', '{}', 2, 0, "
                               "'finished', 0, CURRENT_TIMESTAMP)"), {"id": f"m{k}", "k": k + 1})
                for pid, fam in ((1, "king"), (2, "king")) if k < 2 else ((1, "korol"), (2, "king")):
                    c.execute(text("INSERT INTO rating_events (match_id, player_id, family, seat, place, mu_before,"
                                   " sigma_before, mu, sigma, created_at) VALUES (:m, :p, :f, 0, 1, 25, 8, 26, 7,"
                                   " CURRENT_TIMESTAMP)"), {"m": f"m{k}", "p": pid, "f": fam})
        upgrade(engine)
        with engine.connect() as c:
            got = c.execute(text("SELECT match_id, player_id, family, n FROM rating_events ORDER BY id")).all()
        assert [tuple(r) for r in got] == [("m0", 1, "king", 1), ("m0", 2, "king", 1), ("m1", 1, "king", 2),
                                           ("m1", 2, "king", 2), ("m2", 1, "korol", 1), ("m2", 2, "king", 3)]
        with engine.begin() as conn:  # and back down, and up again
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0013")
        upgrade(engine)
    finally:
        engine.dispose()
        if pg is not None:
            admin, name = pg
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            admin.close()
