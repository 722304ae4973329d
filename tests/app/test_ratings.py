"""Ratings among friends: a rated room's finished match moves everybody's rating in
the family (openskill Plackett–Luce) in the order of the final standings; an unrated
one writes the standings only.  Places from the engine's result: winners first, ties
share a place."""

from __future__ import annotations

import random
import threading
import time
from contextlib import ExitStack

import pytest
from sqlalchemy import delete, func, select

from app.db import ratings as sql
from app.db.session import Database
from app.ratings import Ratings, places, rate

from .conftest import serve
from .helpers import auth, connect, new_player, short_options
from .test_bots_server import play_humans


def test_places_winners_first_ties_shared():
    assert places({"totals": [10, 30, 20, 30], "winners": [1, 3]}, 4) == [4, 1, 3, 1]
    assert places({"totals": [5, 5, 9], "winners": [2]}, 3) == [2, 2, 1]
    # Тысяча: the declarer who reached the goal wins even on equal totals (rule T-29)
    assert places({"totals": [1000, 1000, 400], "winners": [1]}, 3) == [2, 1, 3]


def test_rate_moves_in_place_order():
    start = [(25.0, 25 / 3)] * 4
    after = rate(start, [1, 2, 2, 4])
    mus = [mu for mu, _ in after]
    assert mus[0] > mus[1] > mus[3] and mus[1] == pytest.approx(mus[2])
    assert all(sigma < 25 / 3 for _, sigma in after)


@pytest.fixture(scope="module")
def rclient(database_url):
    with serve(database_url, bot_delay=0.0, bot_think_ms=15) as c:
        yield c


def play_match(client, *, rated: bool, variant: str = "korol-ru", seats: int = 4, seed: int = 5,
               names: list[str] | None = None):
    players = [new_player(client, names[n] if names else None) for n in range(seats)]
    r = client.post("/api/rooms", json={"variant": variant, "options": short_options(variant),
                                        "seats": seats, "rated": rated}, headers=auth(players[0]))
    assert r.status_code == 201, r.text
    room = r.json()
    assert room["rated"] is rated
    code = room["code"]
    for n, p in enumerate(players[1:], start=1):
        assert client.post(f"/api/rooms/{code}/seats/{n}", headers=auth(p)).status_code == 200
    r = client.post(f"/api/rooms/{code}/start", headers=auth(players[0]), json={"seed": seed})
    assert r.status_code == 200, r.text
    with ExitStack() as stack:
        clients = {n: connect(client, stack, code, p, n) for n, p in enumerate(players)}
        view = play_humans(clients, random.Random(seed))
    assert view["result"] is not None
    return players, view["result"], r.json()["match"]["id"]


def page_of(client, player, *, wait: bool = True) -> dict:
    end = time.monotonic() + 10
    while True:  # the standings are written just after the last action is acknowledged
        page = client.get(f"/api/players/{player['id']}/page").json()
        if page["record"] or not wait or time.monotonic() > end:
            return page
        time.sleep(0.05)


def test_rated_four_player_match_moves_ratings_in_standings_order(rclient):
    players, result, match_id = play_match(rclient, rated=True)
    placed = places(result, 4)
    pages = [page_of(rclient, p) for p in players]
    for page, place in zip(pages, placed, strict=True):
        assert page["record"] == [{"family": "korol", "played": 1, "won": int(place == 1),
                                   "average_place": float(place)}]
        [rating] = page["ratings"]
        assert rating["family"] == "korol" and rating["matches"] == 1
    mus = [page["ratings"][0]["mu"] for page in pages]
    for a in range(4):
        for b in range(4):
            if placed[a] < placed[b]:
                assert mus[a] > mus[b]
            elif placed[a] == placed[b]:
                assert mus[a] == pytest.approx(mus[b])
    history = rclient.get(f"/api/players/{players[0]['id']}/ratings/korol").json()
    assert [(h["match"], h["place"]) for h in history] == [(match_id, placed[0])]
    assert history[0]["mu_before"] == pytest.approx(25.0)
    h2h = rclient.get(f"/api/players/{players[0]['id']}/head-to-head").json()
    assert sorted(x["player"] for x in h2h) == sorted(p["id"] for p in players[1:])
    for x in h2h:
        other = placed[[p["id"] for p in players].index(x["player"])]
        assert (x["matches"], x["ahead"], x["behind"]) == (1, int(placed[0] < other), int(placed[0] > other))
    with rclient.app.state.db.read() as s:
        kept = sql.head_to_head_from_standings(s, players[0]["id"])
    assert kept == sorted((x["player"], x["matches"], x["ahead"], x["behind"]) for x in h2h)
    csv_text = rclient.get(f"/api/players/{players[0]['id']}/matches.csv").text
    assert csv_text.splitlines()[0] == "finished_at,match,variant,family,seat,place,total,room"
    assert match_id in csv_text.splitlines()[1]


def test_family_stats_from_the_typed_seat_rows(rclient):
    """Тысяча: contracts made %, average bid, marriages; Кинг: average per contract;
    Король: reigns as each title — the page's aggregates equal the engine's own rows."""
    from engine import find_variant
    for variant, seats in (("thousand-1000", 3), ("king-3p", 3), ("korol-ru", 4)):
        players, _, match_id = play_match(rclient, rated=False, variant=variant, seats=seats, seed=4)
        page = page_of(rclient, players[0])
        stats = page["stats"]
        with rclient.app.state.db.read() as s:  # the kept counters = the aggregate over all rows
            assert stats == sql.family_stats_from_rows(s, players[0]["id"])
            assert page["record"] == sql.record_from_standings(s, players[0]["id"])
        detail = rclient.get(f"/api/matches/{match_id}").json()
        sheet, roles = detail["scoresheet"], detail["role_table"]
        family = find_variant(variant).family
        if family == "thousand":
            mine = [r for r in sheet if r["declarer"] == 0]
            made = [r for r in mine if r["scores"][0] > 0]
            assert stats["thousand"]["deals"] == len(sheet)
            assert (stats["thousand"]["declared"], stats["thousand"]["made"]) == (len(mine), len(made))
            if mine:
                assert stats["thousand"]["average_bid"] == pytest.approx(
                    sum(r["bid"] for r in mine) / len(mine))
            assert stats["thousand"]["marriages"] == sum(1 for r in sheet for mar in r["marriages"] if mar[0] == 0)
        elif family == "king":
            games = {}
            for r in sheet:
                games.setdefault(r["contract"], []).append(r["scores"][0])
            assert {g["contract"]: (g["deals"], pytest.approx(g["average"])) for g in
                    stats["king"]["per_contract"]} == {g: (len(v), pytest.approx(sum(v) / len(v)))
                                                        for g, v in games.items()}
        else:
            titles = {}
            for r in roles:
                titles[r["titles"][0]] = titles.get(r["titles"][0], 0) + 1
            assert stats["korol"]["titles"] == titles


def test_unrated_match_moves_no_rating(rclient):
    players, result, _ = play_match(rclient, rated=False, seed=8)
    for p in players:
        page = page_of(rclient, p)
        assert page["ratings"] == []
        assert page["record"][0]["played"] == 1  # the standings are written all the same


def test_recording_twice_changes_nothing(rclient):
    players, _, match_id = play_match(rclient, rated=True, seed=9)
    before = page_of(rclient, players[0])
    assert rclient.app.state.ratings.record(match_id) is False
    assert page_of(rclient, players[0]) == before
    assert rclient.get("/api/players/999999999/page").status_code == 404


def test_two_processes_record_a_match_once(rclient, database_url):
    """One process ended the match and records it while another, starting, catches up
    on it: the second waits for the first's turn, then finds the standings and writes
    nothing (it used to check first, and on SQLite both inserted: a UNIQUE failure)."""
    players, _, match_id = play_match(rclient, rated=False, seed=14)
    db = rclient.app.state.db
    with db.write() as s:  # as if the process had stopped before its standings
        s.execute(delete(sql.Standing).where(sql.Standing.match_id == match_id))
    other = Database(database_url)
    got: list[bool] = []
    try:
        with db.write() as s:
            sql.lock_ratings(s)  # the first process's turn
            second = threading.Thread(target=lambda: got.append(
                Ratings(other).record(match_id)))
            second.start()
            second.join(0.5)
            assert second.is_alive(), "the second process did not wait for the first's turn"
            found = sql.finished_match(s, match_id)
            assert found is not None
            row = found[0]
            sql.save_standings(s, row, "korol", [1, 2, 3, 4], [0.0] * 4, [p["id"] for p in players])
        second.join(30)
        assert got == [False]
    finally:
        other.dispose()
    with db.read() as s:
        assert s.scalar(select(func.count()).select_from(sql.Standing)
                        .where(sql.Standing.match_id == match_id)) == 4


def test_new_room_with_the_same_people_calls_them(rclient):
    players, _, match_id = play_match(rclient, rated=True, seed=12)
    code = rclient.get(f"/api/matches/{match_id}").json()["room"]
    caller = players[2]
    r = rclient.post(f"/api/rooms/{code}/again", headers=auth(caller))
    assert r.status_code == 201, r.text
    new = r.json()["room"]
    assert new["code"] != code and new["rated"] is True and new["host"]["id"] == caller["id"]
    assert [s["player"] for s in new["seats"]] == [None, None, caller["id"], None]
    assert sorted(r.json()["called"]) == sorted(p["id"] for p in players if p is not caller)
    calls = rclient.get("/api/players/me/calls", headers=auth(players[0])).json()
    assert [(c["room"], c["from"]["id"]) for c in calls] == [(new["code"], caller["id"])]
    assert rclient.get("/api/players/me/calls", headers=auth(caller)).json() == []
    # dismissed: gone; someone else's call: 404
    assert rclient.delete(f"/api/players/me/calls/{calls[0]['id']}", headers=auth(caller)).status_code == 404
    assert rclient.delete(f"/api/players/me/calls/{calls[0]['id']}", headers=auth(players[0])).status_code == 204
    assert rclient.get("/api/players/me/calls", headers=auth(players[0])).json() == []
    # a stranger cannot call the room's people
    stranger = new_player(rclient)
    r = rclient.post(f"/api/rooms/{code}/again", headers=auth(stranger))
    assert r.status_code == 403 and r.json()["code"] == "not_in_match"
