"""The narrow services behind the routes: the player directory's one token cache (REST
and websocket alike, app/directory.py) and "new room with the same people" as one
transaction (RoomService.again)."""

from __future__ import annotations

from sqlalchemy import func, select

from app.db import models as m
from app.db import ratings as sql
from app.db import store

from .helpers import auth, new_player, short_options

VARIANT = "korol-ru"


def _counted_token_reads(monkeypatch) -> list[str]:
    real, reads = store.players_by_tokens, []

    def counted(s, tokens):
        reads.extend(tokens)
        return real(s, tokens)
    monkeypatch.setattr(store, "players_by_tokens", counted)
    return reads


def test_rest_and_the_websocket_share_one_token_cache(client, monkeypatch):
    """A token looked up once is not read again by REST requests; ``forget_token`` (a
    revoked device token) and a rename make the next request read it afresh."""
    players = client.app.state.players
    me = new_player(client, "Ярина")  # made here: remembered without a read
    reads = _counted_token_reads(monkeypatch)
    for _ in range(3):
        r = client.get("/api/players/me", headers=auth(me))
        assert r.status_code == 200 and r.json() == {"id": me["id"], "name": "Ярина", "away_until": None}
    assert reads == []
    players.forget_token(store.token_hash(me["token"]))
    assert client.get("/api/players/me", headers=auth(me)).json()["name"] == "Ярина"
    assert reads == [me["token"]]
    assert client.patch("/api/players/me", json={"name": "Ярина Б."}, headers=auth(me)).status_code == 200
    assert client.get("/api/players/me", headers=auth(me)).json()["name"] == "Ярина Б."  # not the cached name
    assert reads == [me["token"]] * 2
    # an unknown token is still refused, and read each time (nothing to remember)
    for _ in range(2):
        assert client.get("/api/players/me", headers={"Authorization": "Bearer " + "y" * 43}).status_code == 401
    assert reads == [me["token"]] * 2 + ["y" * 43] * 2


def _room_with_bots(client) -> tuple[str, list[dict]]:
    """A korol-ru room: two people (host at 0), basic bots at 2 and 3, a match started."""
    people = [new_player(client) for _ in range(2)]
    r = client.post("/api/rooms", json={"variant": VARIANT, "options": short_options(VARIANT), "seats": 4},
                    headers=auth(people[0]))
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    assert client.post(f"/api/rooms/{code}/seats/1", headers=auth(people[1])).status_code == 200
    for seat in (2, 3):
        r = client.post(f"/api/rooms/{code}/seats/{seat}/bot", headers=auth(people[0]), json={"level": "basic"})
        assert r.status_code == 200, r.text
    r = client.post(f"/api/rooms/{code}/start", headers=auth(people[0]))
    assert r.status_code == 200, r.text
    return code, people


def _rooms_and_calls(client) -> tuple[int, int]:
    with client.app.state.db.read() as s:
        return (s.scalar(select(func.count()).select_from(m.Room)),
                s.scalar(select(func.count()).select_from(sql.Call)))


def test_again_seats_the_caller_and_the_bots_and_calls_the_people(client):
    code, people = _room_with_bots(client)
    caller, other = people[1], people[0]
    r = client.post(f"/api/rooms/{code}/again", headers=auth(caller))
    assert r.status_code == 201, r.text
    new = r.json()["room"]
    assert new["host"]["id"] == caller["id"] and new["invite_url"].endswith(f"/room/{new['code']}")
    assert [s["player"] for s in new["seats"][:2]] == [None, caller["id"]]
    assert [(s["is_bot"], s["level"]) for s in new["seats"][2:]] == [(True, "basic")] * 2
    assert r.json()["called"] == [other["id"]]
    assert client.get(f"/api/rooms/{new['code']}").json()["seats"] == new["seats"]  # as stored
    calls = client.get("/api/players/me/calls", headers=auth(other)).json()
    assert [c["room"] for c in calls] == [new["code"]]


def test_again_refused_half_way_writes_nothing(client):
    """The bots cannot be seated (switched off since): no room, no seat, no call is left
    behind — the whole action is one transaction."""
    code, people = _room_with_bots(client)
    before = _rooms_and_calls(client)
    settings = client.app.state.settings
    settings.bots_enabled = False
    try:
        r = client.post(f"/api/rooms/{code}/again", headers=auth(people[1]))
    finally:
        settings.bots_enabled = True
    assert r.status_code == 403 and r.json()["code"] == "bots_disabled", r.text
    assert _rooms_and_calls(client) == before
    assert client.get("/api/players/me/calls", headers=auth(people[0])).json() == []
