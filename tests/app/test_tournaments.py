"""Club tournaments (issue 37 item 4, the tournament CSV of item 6): made, entered and
started by the right people only (a refused request changes nothing), the tables of a
round opened by themselves as club rooms from the preset with the entrants seated and
the match started, played by the room's own bot rules for absent players (the preset's
turn timeout), round 2 opened when round 1's tables have ended, the standings adding up.
On SQLite and PostgreSQL (conftest's ``database_url``)."""

from __future__ import annotations

import csv
import io
import time

import pytest

from app.tournaments import standings

from .conftest import serve
from .helpers import auth, new_player

VARIANT = "korol-ru"  # 4 seats; with 0 reigns one crowning deal ends the match


@pytest.fixture(scope="module")
def tclient(database_url):
    # turn timeouts fire (the sweeper), at once: the entrants never connect, bots play for them
    with serve(database_url, bot_delay=0.0, bot_think_ms=15, deadline_sweeper=True, deadline_poll=0.05) as c:
        yield c


def refused(r, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["code"] == code, r.text


def club_with(c, owner, people: list[dict]) -> int:
    cid = c.post("/api/clubs", json={"name": "Турнирный"}, headers=auth(owner)).json()["club"]["id"]
    token = c.post(f"/api/clubs/{cid}/invites", headers=auth(owner)).json()["token"]
    for p in people:
        assert c.post(f"/api/club-invites/{token}/join", headers=auth(p)).status_code == 200
    return cid


def preset(c, cid, owner, **room) -> int:
    r = c.post(f"/api/clubs/{cid}/presets", headers=auth(owner), json={
        "name": "Быстрый король", "variant": VARIANT, "options": {"reigns": 0},
        "room": {"seats": 4, "takeover_seconds": 0.05, **room}})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def wait_for(c, path: str, who: dict, ok, seconds: float = 15.0) -> dict:
    end = time.monotonic() + seconds
    while True:
        body = c.get(path, headers=auth(who)).json()
        if ok(body) or time.monotonic() > end:
            return body
        time.sleep(0.1)


def test_who_may_create_enter_and_start_and_what_is_refused(tclient):
    c = tclient
    owner, ann, bob, eve = (new_player(c) for _ in range(4))
    cid = club_with(c, owner, [ann, bob])
    pid = preset(c, cid, owner)
    base = f"/api/clubs/{cid}/tournaments"
    body = {"name": "Кубок", "preset": pid, "format": "round_robin"}
    refused(c.post(base, json=body, headers=auth(ann)), 403, "not_club_admin")
    refused(c.post(base, json=body, headers=auth(eve)), 404, "unknown_club")  # a private club
    refused(c.post(base, json={**body, "format": "knockout"}, headers=auth(owner)), 422, "invalid_request")
    refused(c.post(base, json={**body, "format": "swiss"}, headers=auth(owner)), 422, "invalid_tournament")
    refused(c.post(base, json={**body, "preset": 999_999}, headers=auth(owner)), 404, "unknown_preset")
    refused(c.post(base, json={**body, "entrants": [eve["id"]]}, headers=auth(owner)), 404, "unknown_member")
    refused(c.post(base, json={**body, "name": "\u200b"}, headers=auth(owner)), 422, "invalid_name")
    assert c.get(base, headers=auth(owner)).json() == []  # nothing was made

    r = c.post(base, json={**body, "entrants": [owner["id"], ann["id"]], "sign_up": False}, headers=auth(owner))
    assert r.status_code == 201, r.text
    t = r.json()
    tid = t["id"]
    assert t["status"] == "open" and t["seat_count"] == 4 and t["rounds"] is None
    assert [e["player"] for e in t["entrants"]] == [owner["id"], ann["id"]]
    assert t["preset"] == {"id": pid, "name": "Быстрый король"} and t["variant"] == VARIANT
    # sign-up closed: a member cannot enter himself, nor anybody else; the admin enters him
    refused(c.post(f"{base}/{tid}/entrants", json={"player": bob["id"]}, headers=auth(bob)), 403, "sign_up_closed")
    refused(c.post(f"{base}/{tid}/entrants", json={"player": owner["id"]}, headers=auth(bob)), 403,
            "not_club_admin")
    refused(c.post(f"{base}/{tid}/entrants", json={"player": eve["id"]}, headers=auth(owner)), 404,
            "unknown_member")
    assert c.post(f"{base}/{tid}/entrants", json={"player": bob["id"]}, headers=auth(owner)).json()["me"] == {
        "entrant": True}
    # too few for a table of 4: refused, still open
    refused(c.post(f"{base}/{tid}/start", headers=auth(ann)), 403, "not_club_admin")
    refused(c.post(f"{base}/{tid}/start", headers=auth(owner)), 409, "tournament_too_small")
    # an entrant withdraws himself; another's withdrawal is the admins'
    refused(c.delete(f"{base}/{tid}/entrants/{ann['id']}", headers=auth(bob)), 403, "not_club_admin")
    after = c.delete(f"{base}/{tid}/entrants/{bob['id']}", headers=auth(bob)).json()
    assert [e["player"] for e in after["entrants"]] == [owner["id"], ann["id"]] and after["status"] == "open"
    refused(c.delete(f"{base}/{tid}/entrants/{bob['id']}", headers=auth(owner)), 404, "unknown_member")
    # the club page lists it; an admin ends it early, once
    page = c.get(f"/api/clubs/{cid}", headers=auth(ann)).json()
    assert [x["id"] for x in page["tournaments"]] == [tid] and page["tournaments"][0]["entrant_count"] == 2
    refused(c.post(f"{base}/{tid}/end", headers=auth(ann)), 403, "not_club_admin")
    assert c.post(f"{base}/{tid}/end", headers=auth(owner)).json()["status"] == "ended"
    refused(c.post(f"{base}/{tid}/end", headers=auth(owner)), 409, "tournament_over")
    refused(c.post(f"{base}/{tid}/start", headers=auth(owner)), 409, "tournament_started")
    refused(c.post(f"{base}/{tid}/entrants", json={"player": bob["id"]}, headers=auth(owner)), 409,
            "tournament_started")
    refused(c.get(f"{base}/{tid + 1000}", headers=auth(owner)), 404, "unknown_tournament")


def test_a_four_player_round_robin_of_two_rounds_played_by_bots(tclient):
    c = tclient
    people = [new_player(c, name) for name in ("Аня", "Boris", "Celina", "Dmitri")]
    owner = people[0]
    cid = club_with(c, owner, people[1:])
    pid = preset(c, cid, owner)
    base = f"/api/clubs/{cid}/tournaments"
    t = c.post(base, json={"name": "Кубок четверга", "preset": pid, "format": "round_robin", "rounds": 2,
                           "points": [5, 3, 1, 0]}, headers=auth(owner)).json()
    tid = t["id"]
    for p in people:  # members sign themselves up
        assert c.post(f"{base}/{tid}/entrants", json={"player": p["id"]}, headers=auth(p)).status_code == 200
    started = c.post(f"{base}/{tid}/start", headers=auth(owner))
    assert started.status_code == 200, started.text
    t = started.json()
    assert t["status"] == "running" and t["round"] == 1 and t["rounds"] == 2
    [first] = t["schedule"]
    [table] = first["tables"]
    assert first["byes"] == []
    assert sorted(s["player"] for s in table["seats"]) == sorted(p["id"] for p in people)
    # the table is a room of the club from the preset, the entrants in their seats, a match started
    room = c.get(f"/api/rooms/{table['room']}").json()
    assert room["preset"]["name"] == "Быстрый король" and room["preset"]["club"]["id"] == cid
    assert [s["player"] for s in room["seats"]] == [s["player"] for s in table["seats"]]
    assert room["host"]["id"] == table["seats"][0]["player"] and room["match"]["id"] == table["match"]
    assert room["takeover_seconds"] == 0.05

    # nobody connects: the turn timeout lets bots play every seat; round 2 opens by itself
    t = wait_for(c, f"{base}/{tid}", owner, lambda x: x["status"] == "finished", seconds=30)
    assert t["status"] == "finished" and t["round"] == 2, t
    rounds = t["schedule"]
    assert [r["round"] for r in rounds] == [1, 2]
    assert rounds[1]["tables"][0]["room"] != rounds[0]["tables"][0]["room"]  # a new room for round 2
    for r in rounds:
        assert all(x["status"] == "finished" for x in r["tables"])
    # the standings add up: each player's points are his places' points over both tables
    points = [5, 3, 1, 0]
    got = {p["id"]: 0.0 for p in people}
    for r in rounds:
        for seat in r["tables"][0]["seats"]:
            assert seat["points"] == points[seat["place"] - 1]
            got[seat["player"]] += seat["points"]
    table = t["standings"]
    assert {r["player"]: r["points"] for r in table} == got
    assert all(r["matches"] == 2 and r["byes"] == 0 for r in table)
    assert sum(r["wins"] for r in table) >= 2
    assert [r["rank"] for r in table] == sorted(r["rank"] for r in table) and table[0]["rank"] == 1
    # the CSV: the same standings
    r = c.get(f"{base}/{tid}/standings.csv", headers=auth(people[2]))
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert [int(x["player"]) for x in rows] == [x["player"] for x in table]
    assert [float(x["points"]) for x in rows] == [x["points"] for x in table]
    # the club page shows it with the tables' matches among its recent ones
    page = c.get(f"/api/clubs/{cid}", headers=auth(owner)).json()
    assert page["tournaments"][0]["status"] == "finished"
    assert {m["id"] for m in page["recent_matches"]} >= {x["tables"][0]["match"] for x in rounds}


def test_a_swiss_of_five_gives_byes_to_the_lowest_ranked_and_scores_them(tclient):
    c = tclient
    people = [new_player(c) for _ in range(5)]
    owner = people[0]
    cid = club_with(c, owner, people[1:])
    pid = preset(c, cid, owner)
    base = f"/api/clubs/{cid}/tournaments"
    t = c.post(base, json={"name": "Швейцарка", "preset": pid, "format": "swiss", "rounds": 2,
                           "entrants": [p["id"] for p in people]}, headers=auth(owner)).json()
    t = c.post(f"{base}/{t['id']}/start", headers=auth(owner)).json()
    order = [e["player"] for e in t["entrants"]]  # the entrants' order, shuffled by the seed
    assert sorted(order) == sorted(p["id"] for p in people)
    # round 1: everyone on 0 points, so the last in the order sits out
    assert [b["player"] for b in t["schedule"][0]["byes"]] == [order[-1]]
    t = wait_for(c, f"{base}/{t['id']}", owner, lambda x: x["status"] == "finished", seconds=30)
    assert t["status"] == "finished", t
    first, second = t["schedule"]
    [bye1], [bye2] = first["byes"], second["byes"]
    assert bye2["player"] != bye1["player"]  # no second bye before everyone has had one
    # round 2's bye: the lowest-ranked of those without one after round 1
    placed = {s["player"]: s["points"] for s in first["tables"][0]["seats"]}
    lowest = min(placed.values())
    assert placed[bye2["player"]] == lowest
    by = {r["player"]: r for r in t["standings"]}
    for p in (bye1["player"], bye2["player"]):
        assert by[p]["byes"] == 1 and by[p]["matches"] == 1
    points = [3, 1, 0, 0]
    for r in t["standings"]:
        won = sum(points[s["place"] - 1] for rnd in (first, second) for s in rnd["tables"][0]["seats"]
                  if s["player"] == r["player"])
        assert r["points"] == won + 3 * r["byes"]


def test_standings_tie_breaks_and_byes():
    """Points; head-to-head (round robin) or Buchholz (Swiss); wins; average place; a bye
    scores 1st place's points."""
    people = [{"player": n, "name": name} for n, name in enumerate(["a", "b", "c", "d", "e"], start=1)]
    played = [([1, 2], {0: 1, 1: 2}, False), ([3, 4], {0: 2, 1: 1}, False), ([5], None, True),
              ([2, 3], {0: 1, 1: 2}, False), ([4, 5], None, False)]  # the last one still playing
    rr = standings("round_robin", [3, 0], people, played)
    by = {r["player"]: r for r in rr}
    assert by[5]["points"] == 3 and by[5]["byes"] == 1 and by[5]["wins"] == 0 and by[5]["matches"] == 0
    assert by[2]["points"] == 3 and by[1]["points"] == 3 and by[4]["points"] == 3
    # 1 beat 2 at a table: head-to-head puts 1 ahead of 2 (both 3 points)
    assert by[1]["head_to_head"] == 1 and by[2]["head_to_head"] == -1
    order = [r["player"] for r in rr]
    assert order.index(1) < order.index(2)
    swiss = standings("swiss", [3, 0], people, played)
    sb = {r["player"]: r for r in swiss}
    assert sb[2]["buchholz"] == by[1]["points"] + by[3]["points"]
    assert [r["rank"] for r in swiss][0] == 1

