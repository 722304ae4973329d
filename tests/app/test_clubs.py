"""Clubs (issue 37 items 1-3, 6): membership and its refusals, presets copied onto
rooms, a season's table and club ratings after a finished match, its CSV.  On
SQLite and PostgreSQL (conftest's ``database_url``)."""

from __future__ import annotations

import csv
import io
import random
import time
from contextlib import ExitStack

import pytest

from app.clubs import rank_table
from app.ratings import places

from .conftest import serve
from .helpers import auth, connect, new_player, short_options
from .test_bots_server import play_humans

PAST = "2026-01-01T00:00:00Z"
FUTURE = "2030-01-01T00:00:00Z"


@pytest.fixture(scope="module")
def cclient(database_url):
    with serve(database_url, bot_delay=0.0, bot_think_ms=15) as c:
        yield c


def make_club(client, owner, **body) -> dict:
    r = client.post("/api/clubs", json={"name": "Четверги", **body}, headers=auth(owner))
    assert r.status_code == 201, r.text
    return r.json()


def page(client, club_id, player) -> dict:
    r = client.get(f"/api/clubs/{club_id}", headers=auth(player))
    assert r.status_code == 200, r.text
    return r.json()


def refused(r, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["code"] == code, r.text


def members_of(client, club_id, owner) -> dict:
    return {x["player"]: x["role"] for x in page(client, club_id, owner)["members"]}


def test_invite_link_membership_roles_and_refusals(cclient):
    c = cclient
    owner, ann, bob, eve = (new_player(c) for _ in range(4))
    # a club's name follows the display names' rule (README "Names"); nothing is created
    refused(c.post("/api/clubs", json={"name": "Клуб\u200b"}, headers=auth(owner)), 422, "invalid_name")
    refused(c.post("/api/clubs", json={"name": "Клуб", "colour": "red"}, headers=auth(owner)), 422,
            "invalid_request")
    assert c.get("/api/players/me/clubs", headers=auth(owner)).json() == []
    club = make_club(c, owner, description="по четвергам", colour="#aa3300")
    cid = club["club"]["id"]
    assert club["me"] == {"role": "owner", "status": "active"}
    assert club["club"]["owner"]["id"] == owner["id"] and club["club"]["listed"] is False
    # a private club is unknown to outsiders, and asking to join it too
    refused(c.get(f"/api/clubs/{cid}", headers=auth(eve)), 404, "unknown_club")
    refused(c.post(f"/api/clubs/{cid}/join", headers=auth(eve)), 404, "unknown_club")
    refused(c.get(f"/api/clubs/{cid}"), 401, "bad_token")

    r = c.post(f"/api/clubs/{cid}/invites", headers=auth(owner))
    assert r.status_code == 201, r.text
    invite = r.json()
    assert invite["invite_url"].endswith(f"/club/join/{invite['token']}")
    assert c.get(f"/api/club-invites/{invite['token']}").json()["name"] == "Четверги"
    assert c.get(f"/api/club-invites/{invite['token']}/qr.svg").headers["content-type"] == "image/svg+xml"

    refused(c.post("/api/club-invites/not-a-token/join", headers=auth(ann)), 404, "unknown_invite")
    assert set(members_of(c, cid, owner)) == {owner["id"]}  # nothing changed
    r = c.post(f"/api/club-invites/{invite['token']}/join", headers=auth(ann))
    assert r.json() == {"club": cid, "player": ann["id"], "role": "member", "status": "active"}
    assert c.post(f"/api/club-invites/{invite['token']}/join", headers=auth(ann)).json()["status"] == "active"
    assert page(c, cid, ann)["me"] == {"role": "member", "status": "active"}
    assert [x["id"] for x in c.get("/api/players/me/clubs", headers=auth(ann)).json()] == [cid]

    # a member is not an admin: no invites, no changes, no approvals, no roles
    refused(c.post(f"/api/clubs/{cid}/invites", headers=auth(ann)), 403, "not_club_admin")
    refused(c.patch(f"/api/clubs/{cid}", json={"name": "X"}, headers=auth(ann)), 403, "not_club_admin")
    refused(c.put(f"/api/clubs/{cid}/members/{ann['id']}/role", json={"role": "admin"}, headers=auth(ann)),
            403, "not_club_owner")
    assert page(c, cid, owner)["club"]["name"] == "Четверги"

    # revoked: the link stops working, and the club is as it was
    refused(c.delete(f"/api/clubs/{cid}/invites/{invite['id']}", headers=auth(ann)), 403, "not_club_admin")
    assert c.delete(f"/api/clubs/{cid}/invites/{invite['id']}", headers=auth(owner)).status_code == 204
    refused(c.post(f"/api/club-invites/{invite['token']}/join", headers=auth(bob)), 404, "unknown_invite")
    refused(c.get(f"/api/club-invites/{invite['token']}"), 404, "unknown_invite")
    assert set(members_of(c, cid, owner)) == {owner["id"], ann["id"]}
    assert c.get(f"/api/clubs/{cid}/invites", headers=auth(owner)).json() == []

    # roles: the owner names an admin; an admin removes members but not admins
    token = c.post(f"/api/clubs/{cid}/invites", headers=auth(owner)).json()["token"]
    c.post(f"/api/club-invites/{token}/join", headers=auth(bob))
    assert c.put(f"/api/clubs/{cid}/members/{ann['id']}/role", json={"role": "admin"},
                 headers=auth(owner)).json()["role"] == "admin"
    assert c.patch(f"/api/clubs/{cid}", json={"listed": True}, headers=auth(ann)).json()["club"]["listed"] is True
    refused(c.delete(f"/api/clubs/{cid}/members/{owner['id']}", headers=auth(ann)), 409, "owner_must_transfer")
    assert c.delete(f"/api/clubs/{cid}/members/{bob['id']}", headers=auth(ann)).status_code == 204
    refused(c.delete(f"/api/clubs/{cid}/members/{bob['id']}", headers=auth(ann)), 404, "unknown_member")

    # the owner leaves only after handing the club over
    refused(c.post(f"/api/clubs/{cid}/leave", headers=auth(owner)), 409, "owner_must_transfer")
    refused(c.post(f"/api/clubs/{cid}/transfer", json={"player": eve["id"]}, headers=auth(owner)),
            404, "unknown_member")
    refused(c.post(f"/api/clubs/{cid}/transfer", json={"player": owner["id"]}, headers=auth(ann)),
            403, "not_club_owner")
    after = c.post(f"/api/clubs/{cid}/transfer", json={"player": ann["id"]}, headers=auth(owner)).json()
    assert after["club"]["owner"]["id"] == ann["id"]
    assert members_of(c, cid, ann) == {ann["id"]: "owner", owner["id"]: "admin"}
    assert c.post(f"/api/clubs/{cid}/leave", headers=auth(owner)).status_code == 204
    assert members_of(c, cid, ann) == {ann["id"]: "owner"}


def test_listed_club_join_request_needs_an_admin(cclient):
    c = cclient
    owner, ann, bob = (new_player(c) for _ in range(3))
    cid = make_club(c, owner, listed=True)["club"]["id"]
    assert page(c, cid, ann)["me"] is None  # a listed club is visible to every signed-in player
    r = c.post(f"/api/clubs/{cid}/join", headers=auth(ann))
    assert r.json()["status"] == "pending"
    assert page(c, cid, ann)["pending"] == []  # join requests are for admins' eyes
    assert [x["player"] for x in page(c, cid, owner)["pending"]] == [ann["id"]]
    refused(c.post(f"/api/clubs/{cid}/members/{ann['id']}/approve", headers=auth(bob)), 403, "not_member")
    refused(c.post(f"/api/clubs/{cid}/members/{bob['id']}/approve", headers=auth(owner)), 404, "unknown_member")
    assert set(members_of(c, cid, owner)) == {owner["id"]}
    assert c.post(f"/api/clubs/{cid}/members/{ann['id']}/approve", headers=auth(owner)).json()["status"] == "active"
    refused(c.post(f"/api/clubs/{cid}/join", headers=auth(ann)), 409, "already_member")
    refused(c.post(f"/api/clubs/{cid}/members/{ann['id']}/approve", headers=auth(owner)), 409, "already_member")
    # a request declined
    c.post(f"/api/clubs/{cid}/join", headers=auth(bob))
    assert c.delete(f"/api/clubs/{cid}/members/{bob['id']}", headers=auth(owner)).status_code == 204
    assert page(c, cid, owner)["pending"] == []


def test_listed_clubs_are_found_by_name_private_ones_never(cclient):
    c = cclient
    owner, other = new_player(c), new_player(c)
    tag = f"Тысячники {owner['id']}"  # unique in the module's database
    big = make_club(c, owner, name=f"{tag} большие", listed=True)["club"]["id"]
    small = make_club(c, other, name=f"{tag} малые", listed=True)["club"]["id"]
    hidden = make_club(c, owner, name=f"{tag} свои")["club"]["id"]
    token = c.post(f"/api/clubs/{big}/invites", headers=auth(owner)).json()["token"]
    assert c.post(f"/api/club-invites/{token}/join", headers=auth(other)).status_code == 200
    # any case, any alphabet (SQLite's lower() knows only ASCII: matched with casefold)
    found = c.get("/api/clubs", params={"q": tag.upper()}).json()
    assert [(x["id"], x["members"]) for x in found] == [(big, 2), (small, 1)]  # the biggest first
    assert hidden not in [x["id"] for x in c.get("/api/clubs", params={"q": "свои"}).json()]
    assert [x["id"] for x in c.get("/api/clubs", params={"q": tag, "offset": 1, "limit": 1}).json()] == [small]
    assert c.get("/api/clubs", params={"limit": 0}).status_code == 422


def make_preset(client, cid, admin, name="Наша", variant="korol-ru", **room) -> dict:
    r = client.post(f"/api/clubs/{cid}/presets", headers=auth(admin), json={
        "name": name, "variant": variant, "options": short_options(variant), "room": {"seats": 4, **room}})
    assert r.status_code == 201, r.text
    return r.json()


def club_of_four(client) -> tuple[int, list[dict]]:
    people = [new_player(client) for _ in range(4)]
    cid = make_club(client, people[0])["club"]["id"]
    token = client.post(f"/api/clubs/{cid}/invites", headers=auth(people[0])).json()["token"]
    for p in people[1:]:
        assert client.post(f"/api/club-invites/{token}/join", headers=auth(p)).status_code == 200
    return cid, people


def test_preset_is_copied_onto_the_room_and_later_changes_leave_it(cclient):
    c = cclient
    cid, (owner, ann, *_) = club_of_four(c)
    outsider = new_player(c)
    refused(c.post(f"/api/clubs/{cid}/presets", headers=auth(ann), json={"name": "x", "variant": "korol-ru"}),
            403, "not_club_admin")
    # options are checked by the room's own check (the engine's words), and nothing is kept
    r = c.post(f"/api/clubs/{cid}/presets", headers=auth(owner),
               json={"name": "bad", "variant": "korol-ru", "options": {"reigns": -5}})
    refused(r, 422, "invalid_options")
    refused(c.post(f"/api/clubs/{cid}/presets", headers=auth(owner),
                   json={"name": "bad", "variant": "korol-ru", "room": {"seats": 2}}), 422, "invalid_options")
    assert c.get(f"/api/clubs/{cid}/presets", headers=auth(ann)).json() == []

    preset = make_preset(c, cid, owner, rated=True, pace="turn", move_seconds=3600)
    assert preset["differs"] and all(x["value"] != x["default"] for x in preset["differs"])
    refused(c.post(f"/api/clubs/{cid}/presets", headers=auth(owner),
                   json={"name": "Наша", "variant": "korol-ru"}), 409, "preset_name_taken")

    refused(c.post("/api/rooms", json={"preset": preset["id"]}, headers=auth(outsider)), 403, "not_member")
    refused(c.post("/api/rooms", json={"preset": preset["id"], "variant": "korol-ru"}, headers=auth(ann)),
            422, "preset_fixes_rules")
    refused(c.post("/api/rooms", json={"preset": 2**31 - 1}, headers=auth(ann)), 404, "unknown_preset")
    refused(c.post("/api/rooms", json={}, headers=auth(ann)), 422, "unknown_variant")

    r = c.post("/api/rooms", json={"preset": preset["id"], "move_seconds": 7200}, headers=auth(ann))
    assert r.status_code == 201, r.text
    room = r.json()
    assert room["variant"] == "korol-ru" and room["options"] == preset["options"]
    assert (room["rated"], room["pace"], room["move_seconds"], room["seat_count"]) == (True, "turn", 7200, 4)
    assert room["preset"] == {"name": "Наша", "club": {"id": cid, "name": "Четверги"},
                              "differs": preset["differs"]}
    assert [x["code"] for x in page(c, cid, ann)["rooms"]] == [room["code"]]

    # the preset changed, then deleted: the room keeps its own copy
    r = c.put(f"/api/clubs/{cid}/presets/{preset['id']}", headers=auth(owner),
              json={"name": "Новая", "variant": "korol-ru", "options": {}, "room": {"seats": 4, "rated": False}})
    assert r.status_code == 200 and r.json()["differs"] == []
    again = c.get(f"/api/rooms/{room['code']}").json()
    assert again["options"] == room["options"] and again["preset"]["name"] == "Наша"
    assert again["rated"] is True
    assert c.delete(f"/api/clubs/{cid}/presets/{preset['id']}", headers=auth(owner)).status_code == 204
    assert c.get(f"/api/rooms/{room['code']}").json()["preset"]["name"] == "Наша"


def finished_table(client, cid, player, season_id, n: int) -> dict:
    end = time.monotonic() + 10
    while True:  # the standings (and the season's rows) are written just after the last action
        season = client.get(f"/api/clubs/{cid}/seasons/{season_id}", headers=auth(player)).json()
        if sum(r["matches"] for r in season["table"]) >= n or time.monotonic() > end:
            return season
        time.sleep(0.05)


def test_season_table_moves_after_a_finished_match_and_exports_csv(cclient):
    c = cclient
    cid, people = club_of_four(c)
    owner = people[0]
    preset = make_preset(c, cid, owner, rated=True)  # rated: the rating history by preset below
    body = {"name": "Зима", "starts_at": PAST, "ends_at": FUTURE, "families": ["korol"],
            "points": [5, 3, 1, 0], "min_matches": 1}
    refused(c.post(f"/api/clubs/{cid}/seasons", json=body, headers=auth(people[1])), 403, "not_club_admin")
    refused(c.post(f"/api/clubs/{cid}/seasons", json={**body, "ends_at": PAST}, headers=auth(owner)),
            422, "invalid_season")
    refused(c.post(f"/api/clubs/{cid}/seasons", json={**body, "families": ["chess"]}, headers=auth(owner)),
            422, "invalid_request")
    assert c.get(f"/api/clubs/{cid}/seasons", headers=auth(owner)).json() == []
    r = c.post(f"/api/clubs/{cid}/seasons", json=body, headers=auth(owner))
    assert r.status_code == 201, r.text
    season = r.json()
    assert season["table"] == [] and page(c, cid, owner)["season"]["id"] == season["id"]

    code = c.post("/api/rooms", json={"preset": preset["id"]}, headers=auth(owner)).json()["code"]
    for n, p in enumerate(people[1:], start=1):
        assert c.post(f"/api/rooms/{code}/seats/{n}", headers=auth(p)).status_code == 200
    r = c.post(f"/api/rooms/{code}/start", headers=auth(owner), json={"seed": 11})
    match_id = r.json()["match"]["id"]
    assert [(x["code"], x["status"], x["seats_taken"]) for x in page(c, cid, owner)["rooms"]] == [(code, "playing", 4)]
    with ExitStack() as stack:
        clients = {n: connect(c, stack, code, p, n) for n, p in enumerate(people)}
        view = play_humans(clients, random.Random(11))
    placed = places(view["result"], 4)

    table = finished_table(c, cid, owner, season["id"], 4)["table"]
    points = [5, 3, 1, 0]
    by_player = {r["player"]: r for r in table}
    for seat, p in enumerate(people):
        row = by_player[p["id"]]
        assert (row["matches"], row["points"], row["wins"]) == (1, points[placed[seat] - 1], int(placed[seat] == 1))
    assert [r["rank"] for r in table] == sorted(r["rank"] for r in table)
    assert table[0]["points"] == 5
    season = c.get(f"/api/clubs/{cid}/seasons/{season['id']}", headers=auth(owner)).json()
    assert {r["player"] for r in season["ratings"]} == {p["id"] for p in people}
    best = max(season["ratings"], key=lambda r: r["ordinal"])
    assert by_player[best["player"]]["wins"] == 1

    club = page(c, cid, people[2])
    assert club["rooms"] == []  # its match is over
    assert club["recent_matches"][0]["id"] == match_id and club["recent_matches"][0]["preset"] == "Наша"
    assert [x["place"] for x in club["recent_matches"][0]["seats"]] == placed
    summary = c.get(f"/api/rooms/{code}/matches").json()[0]
    assert summary["preset"] == "Наша"
    assert c.get(f"/api/matches/{match_id}").json()["preset"] == "Наша"
    assert c.get(f"/api/matches/{match_id}/export.json").json()["preset"] == "Наша"
    assert "\nPreset: Наша\n" in c.get(f"/api/matches/{match_id}/export.txt").text
    # statistics and my matches kept to a club's preset (issue 37 item 2)
    everything = c.get(f"/api/players/{owner['id']}/stats").json()
    assert c.get(f"/api/players/{owner['id']}/stats", params={"club": cid, "preset": "Наша"}).json() == everything
    other = c.get(f"/api/players/{owner['id']}/stats", params={"preset": "Другая"}).json()
    assert (other["matches"], other["deals"], other["titles"], other["families"]) == (0, 0, {}, {})
    assert everything["matches"] >= 1 and everything["deals"] >= 1
    # ... and the player page's per-family shape over the same matches (its filter)
    assert everything["families"] == c.get(f"/api/players/{owner['id']}/page").json()["stats"]
    assert everything["families"]["korol"]["titles"] == everything["titles"]
    mine = c.get("/api/players/me/matches", params={"preset": "Наша"}, headers=auth(owner)).json()
    assert [x["id"] for x in mine] == [match_id]
    assert c.get("/api/players/me/matches", params={"club": cid, "preset": "Другая"}, headers=auth(owner)).json() == []
    moves = c.get(f"/api/players/{owner['id']}/ratings/korol").json()
    assert [x["match"] for x in moves] == [match_id]
    assert c.get(f"/api/players/{owner['id']}/ratings/korol", params={"club": cid, "preset": "Наша"}).json() == moves
    assert c.get(f"/api/players/{owner['id']}/ratings/korol", params={"preset": "Другая"}).json() == []
    sheet = c.get(f"/api/matches/{match_id}/scoresheet.csv").text.splitlines()
    assert sheet[:3] == ["preset,Наша", "", sheet[2]] and sheet[2].startswith("deal,dealer,")

    # the CSV says what the table says
    r = c.get(f"/api/clubs/{cid}/seasons/{season['id']}/table.csv", headers=auth(people[3]))
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert [(int(x["player"]), float(x["points"]), int(x["rank"])) for x in rows] == \
        [(x["player"], x["points"], x["rank"]) for x in table]

    # a season created afterwards over the same dates counts the match already played, alike
    later = c.post(f"/api/clubs/{cid}/seasons", json={**body, "name": "Та же", "starts_at": "2026-01-01T03:00:00+03:00"},
                   headers=auth(owner)).json()
    assert later["starts_at"].startswith("2026-01-01T00:00:00")  # the same moment, kept in UTC
    assert later["table"] == table
    assert [(r["player"], r["mu"]) for r in later["ratings"]] == [(r["player"], r["mu"]) for r in season["ratings"]]
    # another family's season does not count it
    other = c.post(f"/api/clubs/{cid}/seasons", json={**body, "families": ["thousand"]}, headers=auth(owner)).json()
    assert other["table"] == []
    # a coached match (the coach was on in its room) counts in no season (issue 37 item 3)
    from sqlalchemy import update

    from app.db import models as m
    with c.app.state.db.write() as s:
        s.execute(update(m.Match).where(m.Match.id == match_id).values(coached=True))
    coached = c.post(f"/api/clubs/{cid}/seasons", json={**body, "name": "С тренером"}, headers=auth(owner)).json()
    assert coached["table"] == []

    closed = c.post(f"/api/clubs/{cid}/seasons/{season['id']}/close", headers=auth(owner)).json()
    assert closed["closed_at"] and [w["player"] for w in closed["winners"]] == \
        [r["player"] for r in table if r["rank"] == 1]
    refused(c.post(f"/api/clubs/{cid}/seasons/{season['id']}/close", headers=auth(owner)), 409, "season_closed")
    assert season["id"] in [x["id"] for x in page(c, cid, owner)["past_seasons"]]
    refused(c.get(f"/api/clubs/{cid}/seasons/{2**31 - 1}", headers=auth(owner)), 404, "unknown_season")


def test_table_order_and_minimum_matches():
    rows = [{"player": 1, "name": "b", "matches": 2, "points": 6, "wins": 1, "place_sum": 4, "total_sum": 0},
            {"player": 2, "name": "a", "matches": 2, "points": 6, "wins": 2, "place_sum": 5, "total_sum": 0},
            {"player": 3, "name": "c", "matches": 3, "points": 6, "wins": 1, "place_sum": 6, "total_sum": 0},
            {"player": 4, "name": "d", "matches": 1, "points": 9, "wins": 1, "place_sum": 1, "total_sum": 0},
            {"player": 5, "name": "A", "matches": 2, "points": 6, "wins": 1, "place_sum": 4, "total_sum": 0}]
    table = rank_table(rows, min_matches=2)
    # points, then wins, then average place, then matches; equals share a rank, by name
    assert [(r["player"], r["rank"]) for r in table] == [(2, 1), (3, 2), (5, 3), (1, 3), (4, None)]


def test_members_at_a_table_now_are_online(cclient):
    """Issue 37 item 1: the club page says which members are online now (a socket open
    in any room; with several processes their presence reports say the same, tests/load)."""
    c = cclient
    cid, people = club_of_four(c)
    code = c.post("/api/rooms", json={"variant": "korol-ru", "seats": 4}, headers=auth(people[1])).json()["code"]

    def online() -> dict[int, bool]:
        return {x["player"]: x["online"] for x in page(c, cid, people[0])["members"]}

    assert not any(online().values())
    with ExitStack() as stack:
        connect(c, stack, code, people[1], None).recv()  # his welcome: the socket is in the room
        assert online() == {p["id"]: p is people[1] for p in people}
    end = time.monotonic() + 5
    while any(online().values()) and time.monotonic() < end:  # the socket's close is noticed
        time.sleep(0.05)
    assert not any(online().values())
