"""One player, many devices: a personal sign-in link (shown once, a new one revokes the
old, used once, expires), rate-limited failed sign-ins, and the second device is the
same player with the same history."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select, update

from app.db import accounts
from app.db.store import token_hash

from .conftest import serve
from .helpers import auth, make_room, new_player


def sign_in_link(client, player) -> dict:
    r = client.post("/api/players/me/sign-in-link", headers=auth(player))
    assert r.status_code == 201, r.text
    return r.json()


def sign_in(client, link: str):
    return client.post("/api/sign-in", json={"link": link})


def test_second_device_signs_in_by_link_and_sees_the_same_history(client):
    room, players = make_room(client, "thousand-1000", 3, start=True)
    first = players[0]
    link = sign_in_link(client, first)
    assert "/#/signin/" in link["url"] and link["qr_svg"].lstrip().startswith("<svg")
    secret = link["url"].rsplit("/", 1)[-1]
    assert len(secret) >= 22  # at least 128 bits of token_urlsafe
    # Stored only as a hash: the secret itself is nowhere in the table.
    with client.app.state.db.read() as s:
        hashes = s.scalars(select(accounts.SignInLink.token_hash)).all()
    assert token_hash(secret) in hashes and secret not in hashes

    r = sign_in(client, link["url"])
    assert r.status_code == 200, r.text
    second = r.json()
    assert second["id"] == first["id"] and second["name"] == first["name"]
    assert second["token"] != first["token"]
    me = client.get("/api/players/me", headers=auth(second)).json()
    assert me["id"] == first["id"]
    mine = client.get("/api/players/me/matches", headers=auth(first)).json()
    theirs = client.get("/api/players/me/matches", headers=auth(second)).json()
    assert [x["id"] for x in theirs] == [x["id"] for x in mine] == [room["match"]["id"]]
    # The first device stays signed in.
    assert client.get("/api/players/me", headers=auth(first)).status_code == 200


def test_used_link_is_refused(client):
    player = new_player(client)
    link = sign_in_link(client, player)["url"]
    assert sign_in(client, link).status_code == 200
    r = sign_in(client, link)
    assert r.status_code == 422 and r.json()["code"] == "sign_in_link_refused"
    state = client.get("/api/players/me/sign-in-link", headers=auth(player)).json()
    assert state["used"] is True and state["open"] is False


def test_a_new_link_revokes_the_old(client):
    player = new_player(client)
    old = sign_in_link(client, player)["url"]
    new = sign_in_link(client, player)["url"]
    r = sign_in(client, old)
    assert r.status_code == 422 and r.json()["code"] == "sign_in_link_refused"
    assert sign_in(client, new).json()["id"] == player["id"]


def test_expired_link_is_refused(client):
    player = new_player(client)
    link = sign_in_link(client, player)["url"]
    secret = link.rsplit("/", 1)[-1]
    with client.app.state.db.write() as s:
        s.execute(update(accounts.SignInLink).where(accounts.SignInLink.token_hash == token_hash(secret))
                  .values(expires_at=accounts.m.utcnow() - timedelta(seconds=1)))
    assert sign_in(client, link).status_code == 422
    assert client.get("/api/players/me/sign-in-link", headers=auth(player)).json()["open"] is False


def test_garbage_links_are_refused_without_a_trace(client):
    for bad in ["", "x", "https://example.com/#/signin/" + "A" * 43, "A" * 300]:
        r = sign_in(client, bad)
        assert r.status_code == 422, bad
    r = client.post("/api/players/me/sign-in-link")
    assert r.status_code == 401


@pytest.fixture
def strict_client(database_url):
    with serve(database_url, sign_in_burst=3, sign_in_per_minute=0.001) as c:
        yield c


def test_failed_sign_ins_are_rate_limited(strict_client):
    player = new_player(strict_client)
    good = sign_in_link(strict_client, player)["url"]
    for _ in range(3):
        assert sign_in(strict_client, "B" * 43).status_code == 422
    r = sign_in(strict_client, good)  # even a good link waits once the address is out of tries
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"
