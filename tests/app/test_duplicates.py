"""Duplicate matches and "replay this deal" (issue 37 item 5): two tables of one seed in
the per-deal seed mode (rule C-3), the players rotated; a deal hidden at every table
until both have finished it (rule C-5); the standings' identity; a deal dealt again,
rotated, in a new room.  On SQLite and PostgreSQL (conftest's ``database_url``)."""

from __future__ import annotations

import random
import time
from contextlib import ExitStack

import pytest
from sqlalchemy import func, select

from app.db import models as m
from app.duplicates import compare, rotated_deal
from engine import VARIANTS, find_variant
from tests.engine.test_deal_seeds import until_deal

from .conftest import serve
from .helpers import auth, connect, new_player, short_options
from .test_bots_server import play_humans
from .test_clubs import make_club, refused

VARIANT = "thousand-1000-2p"


@pytest.fixture(scope="module")
def dclient(database_url):
    with serve(database_url, bot_delay=0.0, bot_think_ms=15) as c:
        yield c


def club_with(client, owner, member) -> int:
    cid = make_club(client, owner)["club"]["id"]
    token = client.post(f"/api/clubs/{cid}/invites", headers=auth(owner)).json()["token"]
    assert client.post(f"/api/club-invites/{token}/join", headers=auth(member)).status_code == 200
    return cid


def preset_of(client, cid, admin, variant=VARIANT) -> dict:
    r = client.post(f"/api/clubs/{cid}/presets", headers=auth(admin), json={
        "name": "Дубль", "variant": variant, "options": short_options(variant),
        "room": {"takeover_seconds": 0}})
    assert r.status_code == 201, r.text
    return r.json()


def rooms_count(client) -> int:
    with client.app.state.db.read() as s:
        return s.scalar(select(func.count()).select_from(m.Room))


def play_table(client, code: str, player: dict, seat: int, rng: random.Random) -> dict:
    with ExitStack() as stack:
        conn = connect(client, stack, code, player, seat)
        conn.recv_until(lambda msg: msg["type"] == "welcome")
        return play_humans({seat: conn}, rng)


def finished(client, player, cid, dup_id) -> dict:
    end = time.monotonic() + 10
    while True:  # the last action's rows and the match's end are written just after it
        dup = client.get(f"/api/clubs/{cid}/duplicates/{dup_id}", headers=auth(player)).json()
        if dup["status"] == "finished" or time.monotonic() > end:
            return dup
        time.sleep(0.05)


def test_two_tables_standings_add_up_deals_hidden_until_both_passed_and_replay_this_deal(dclient):
    c = dclient
    owner, ann, outsider = new_player(c), new_player(c), new_player(c)
    cid = club_with(c, owner, ann)
    preset = preset_of(c, cid, owner)
    url = f"/api/clubs/{cid}/duplicates"
    roster = [{"player": ann["id"]}, {"bot": "basic"}]

    # bad input: a clear refusal, and nothing is created
    before = rooms_count(c)
    refused(c.post(url, json={"preset": preset["id"], "tables": 3, "players": roster}, headers=auth(owner)),
            422, "invalid_duplicate")  # 2 seats: 2 tables at most
    refused(c.post(url, json={"preset": preset["id"], "players": [*roster, {"bot": "basic"}]},
                   headers=auth(owner)), 422, "invalid_duplicate")
    refused(c.post(url, json={"preset": preset["id"], "players": [{"player": outsider["id"]}, {"bot": "basic"}]},
                   headers=auth(owner)), 422, "invalid_duplicate")  # not a member
    refused(c.post(url, json={"preset": preset["id"], "players": [{"player": ann["id"], "bot": "basic"},
                                                                    {"bot": "basic"}]},
                   headers=auth(owner)), 422, "invalid_request")
    refused(c.post(url, json={"preset": preset["id"], "players": [{"bot": "genius"}, {"bot": "basic"}]},
                   headers=auth(owner)), 422, "unknown_level")
    refused(c.post(url, json={"preset": preset["id"], "players": roster}, headers=auth(outsider)),
            404, "unknown_club")
    other = make_club(c, outsider)["club"]["id"]
    refused(c.post(f"/api/clubs/{other}/duplicates", json={"preset": preset["id"], "players": roster},
                   headers=auth(outsider)), 403, "not_member")  # the preset's club
    assert rooms_count(c) == before and c.get(url, headers=auth(owner)).json() == []

    r = c.post(url, json={"preset": preset["id"], "players": roster}, headers=auth(owner))
    assert r.status_code == 201, r.text
    dup = r.json()
    assert (dup["tables"], dup["seat_count"], dup["status"], dup["seed"]) == (2, 2, "playing", None)
    tables = dup["table_list"]
    # table 1's seat i is held by the entry that held table 0's seat i + 1
    assert [x["player"] for x in tables[0]["seats"]] == [ann["id"], tables[0]["seats"][1]["player"]]
    assert [x["player"] for x in tables[1]["seats"]] == [tables[0]["seats"][1]["player"], ann["id"]]
    assert [x["position"] for x in tables[1]["seats"]] == [1, 0]
    assert c.get(url, headers=auth(ann)).json()[0]["id"] == dup["id"]
    refused(c.get(f"{url}/{dup['id']}", headers=auth(outsider)), 404, "unknown_club")
    first, second = (x["match"] for x in tables)

    # ann plays table 0 to its end; table 1 waits for her in its first deal
    play_table(c, tables[0]["room"], ann, 0, random.Random(1))
    detail = c.get(f"/api/matches/{first}").json()
    assert detail["deals"] == [] and detail["scoresheet"] == [] and detail["seed"] is None
    refused(c.get(f"/api/matches/{first}/deals/1/positions"), 409, "deal_hidden")
    assert "actions" not in c.get(f"/api/matches/{first}/export.json").json()
    refused(c.post(f"/api/matches/{first}/deals/1/replay", headers=auth(ann)), 409, "match_not_over")
    mid = c.get(f"{url}/{dup['id']}", headers=auth(owner)).json()
    assert mid["compared"] == 0 and mid["seed"] is None

    # then table 1: every deal of both is public, compared and counted
    play_table(c, tables[1]["room"], ann, 1, random.Random(2))
    dup = finished(c, owner, cid, dup["id"])
    assert dup["status"] == "finished"
    a, b = (c.get(f"/api/matches/{x}").json() for x in (first, second))
    assert a["seed"] == b["seed"] == dup["seed"]
    assert c.get(f"/api/matches/{first}/deals/1/positions").status_code == 200
    compared = min(len(a["deals"]), len(b["deals"]))
    assert dup["compared"] == compared >= 1
    for k in range(compared):  # rule C-3: the same cards at both tables, deal by deal
        assert a["deals"][k]["hands"] == b["deals"][k]["hands"]
    # the standings add up: raw = cards + skill for each, the skills sum to 0, and raw
    # is the sum of each one's scores at both tables
    sheets = [a["scoresheet"], b["scoresheet"]]
    for row in dup["standings"]:
        p = row["position"]
        raw = sum(sheets[t][k]["scores"][(p - t) % 2] for t in range(2) for k in range(compared))
        assert row["raw"] == raw
        assert abs(row["raw"] - row["cards"] - row["skill"]) < 0.011
    assert abs(sum(row["skill"] for row in dup["standings"])) < 0.011
    assert [row["rank"] for row in dup["standings"]] == [1, 2]
    for hand in dup["deals"][0]["hands"]:
        i = hand["seat"]
        assert hand["scores"] == [sheets[0][0]["scores"][i], sheets[1][0]["scores"][i]]
        assert hand["held_by"] == [i, (i + 1) % 2]

    # replay this deal: refusals change nothing
    before = rooms_count(c)
    refused(c.post(f"/api/matches/{first}/deals/1/replay", json={"rotation": 2}, headers=auth(ann)),
            422, "invalid_rotation")
    refused(c.post(f"/api/matches/{first}/deals/1/replay", json={"rotation": 0}, headers=auth(ann)),
            422, "invalid_request")
    refused(c.post(f"/api/matches/{first}/deals/99/replay", headers=auth(ann)), 404, "unknown_deal")
    refused(c.post(f"/api/matches/{first}/deals/1/replay", headers=auth(outsider)), 403, "not_in_match")
    assert rooms_count(c) == before
    r = c.post(f"/api/matches/{first}/deals/1/replay", headers=auth(ann))
    assert r.status_code == 201, r.text
    room = r.json()
    assert room["seats"][0]["player"] == ann["id"] and room["seats"][1]["is_bot"]
    r = c.post(f"/api/rooms/{room['code']}/start", headers=auth(ann))
    assert r.status_code == 200, r.text
    original = a["deals"][0]
    with c.app.state.db.read() as s:
        row = s.get(m.Match, r.json()["match"]["id"])
        assert row.first_dealer == (original["dealer"] - 1) % 2
        assert row.preset_deals[0]["hands"] == [original["hands"][1], original["hands"][0]]
    with ExitStack() as stack:  # ann, at seat 0, holds what seat 1 held
        conn = connect(c, stack, room["code"], ann, 0)
        view = conn.recv_until(lambda msg: msg["type"] == "view" and msg["view"] is not None)[0]["view"]
        assert set(view["hand"]) == set(original["hands"][1])


@pytest.mark.parametrize("variant", VARIANTS)
def test_rotated_deal_opens_a_match_with_that_deal_C3(variant):
    """Every variant's deal 1, rotated one seat, is the first deal of a new match."""
    v = find_variant(variant)
    n = v.seat_counts[0]
    entry = until_deal(v.new_match(n, seed=5, deal_seeds=True), 1).history()[0]
    replay = rotated_deal(entry, n, 1)
    again = until_deal(v.new_match(n, seed=6, **replay), 1).history()[0]
    assert again["dealer"] == (entry["dealer"] - 1) % n
    assert again["hands"] == [entry["hands"][(i + 1) % n] for i in range(n)]


def test_standings_identity_on_three_tables():
    rng = random.Random(3)
    rows = [{k: {"scores": [rng.randint(-120, 240) for _ in range(3)]} for k in range(1, 6)} for _ in range(3)]
    out = compare(3, rows)
    assert out["compared"] == 5
    assert abs(sum(x["skill"] for x in out["standings"])) < 0.02
    assert all(abs(x["raw"] - x["cards"] - x["skill"]) < 0.011 for x in out["standings"])
    # three tables of three: each holds every hand once, so the cards are alike for all
    assert len({x["cards"] for x in out["standings"]}) == 1
