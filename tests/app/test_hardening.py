"""The gaps of issue 34 closed: names without invisible or text-direction characters,
new players limited per client address, /metrics behind a token and /docs optional,
and device tokens listed and signed out (their cached look-ups and open sockets too,
in this process and in another one over Redis)."""

from __future__ import annotations

import time
from contextlib import ExitStack

import pytest
from sqlalchemy import text
from starlette.websockets import WebSocketDisconnect

from app.rooms.text import clean_name

from .conftest import METRICS_AUTH, serve, serve_two
from .helpers import auth, connect, make_room, new_player

# -- names -------------------------------------------------------------------------------

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # 👨‍👩‍👧: two joiners
RAINBOW_FLAG = "\U0001f3f3\ufe0f\u200d\U0001f308"  # 🏳️‍🌈: selector, then joiner
CODER = "\U0001f469\U0001f3fd\u200d\U0001f4bb"  # 👩🏽‍💻: skin tone, then joiner
KEYCAP_ONE = "1\ufe0f\u20e3"  # 1️⃣
SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"  # 🏴 + tags


@pytest.mark.parametrize("raw, stored", [
    ("Аня", "Аня"),
    ("  Ola   Kowalska ", "Ola Kowalska"),  # trimmed, runs of spaces one
    ("ＡＮＮＡ", "ANNA"),  # NFKC: full-width letters
    ("ﬁlip", "filip"),  # NFKC: a ligature
    ("Ola\u00a0K", "Ola K"),  # a no-break space is a space
    (f"Tata {FAMILY}", f"Tata {FAMILY}"),
    (RAINBOW_FLAG, RAINBOW_FLAG), (CODER, CODER), (KEYCAP_ONE, KEYCAP_ONE), (SCOTLAND, SCOTLAND),
    ("❤\ufe0f Ola", "❤\ufe0f Ola"),
])
def test_names_normalised_and_emoji_kept_whole(raw, stored):
    assert clean_name(raw, 40) == stored


@pytest.mark.parametrize("raw, cp", [
    ("Аня\u200b", "200B"),  # zero-width space: "Аня" twice
    ("\u202eАня", "202E"), ("An\u202ana", "202A"), ("A\u2066n\u2069a", "2066"),  # embeddings, isolates
    ("Anna\u200e", "200E"), ("Anna\u200f", "200F"), ("Anna\u061c", "061C"),  # direction marks
    ("An\u2060na", "2060"), ("\ufeffAnna", "FEFF"), ("An\u00adna", "00AD"),  # joiner, BOM, soft hyphen
    ("An\u200dna", "200D"),  # a joiner between letters is no emoji's
    (f"\u200d{FAMILY}", "200D"),  # nor one before an emoji
    ("Anna\ufe0f", "FE0F"),  # a selector after a letter
    ("An\u3164na", "1160"),  # a Hangul filler (NFKC maps U+3164 to U+1160): looks like nothing
    ("An\u2028na", "2028"),  # a line separator
    ("\U000e0067Anna", "E0067"),  # a tag outside a flag
])
def test_invisible_and_direction_characters_refused(raw, cp):
    with pytest.raises(ValueError, match=f"invisible or text-direction character \\(U\\+{cp}\\)"):
        clean_name(raw, 40)


def test_name_rules_at_the_api(client):
    r = client.post("/api/players", json={"name": "Аня\u200b"})
    assert r.status_code == 422 and r.json()["code"] == "invalid_name"
    assert "U+200B" in r.json()["detail"]
    ok = client.post("/api/players", json={"name": f"Аня {FAMILY}"})
    assert ok.status_code == 201 and ok.json()["name"] == f"Аня {FAMILY}"
    player = ok.json()
    r = client.patch("/api/players/me", json={"name": "\u202eАня"}, headers=auth(player))
    assert r.status_code == 422 and r.json()["code"] == "invalid_name"
    assert client.get("/api/players/me", headers=auth(player)).json()["name"] == f"Аня {FAMILY}"  # unchanged
    # A sign-in name goes through the same rule.
    r = client.put("/api/players/me/passphrase", headers=auth(player),
                   json={"login": "Аня\u2066x", "passphrase": "a long enough passphrase"})
    assert r.status_code == 422 and "U+2066" in r.json()["detail"]
    assert client.get("/api/players/me/passphrase", headers=auth(player)).json() is None


def test_stored_names_stay_as_they_are(client):
    """No migration rewrites names: one stored before the rule is still shown as it was."""
    player = new_player(client, "Stary")
    with client.app.state.db.write() as s:
        s.execute(text("UPDATE players SET name = :n WHERE id = :i"), {"n": "Sta\u200bry", "i": player["id"]})
    client.app.state.players.forget_player(player["id"])  # written behind the token cache's back
    assert client.get("/api/players/me", headers=auth(player)).json()["name"] == "Sta\u200bry"


# -- new players per client address -----------------------------------------------------


def test_new_players_are_rate_limited_per_address(tmp_path):
    with serve(f"sqlite:///{tmp_path / 'p.db'}", player_create_burst=3, player_create_per_minute=0.001) as c:
        assert c.post("/api/players", json={"name": "\u200b"}).status_code == 422
        for i in range(3):
            assert c.post("/api/players", json={"name": f"P{i}"}).status_code == 201
        r = c.post("/api/players", json={"name": "P3"})
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        assert "new players" in r.json()["detail"]
        # The refused name cost no allowance, and the refusals made nobody.
        with c.app.state.db.read() as s:
            assert s.execute(text("SELECT count(*) FROM players")).scalar() == 3


# -- /metrics and /docs -----------------------------------------------------------------


def test_metrics_need_the_token(tmp_path):
    db = f"sqlite:///{tmp_path / 'm.db'}"
    with serve(db, metrics_token="") as c:  # no token set: no metrics at all
        assert c.get("/metrics", headers=METRICS_AUTH).status_code == 404
    with serve(db) as c:
        assert c.get("/metrics").status_code == 401
        assert c.get("/metrics").headers["www-authenticate"] == "Bearer"
        assert c.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
        assert c.get("/metrics", headers={"Authorization": "test-metrics"}).status_code == 401
        r = c.get("/metrics", headers=METRICS_AUTH)
        assert r.status_code == 200 and "kozyr_connections" in r.text


def test_docs_pages_optional_and_the_spec_always_there(tmp_path):
    db = f"sqlite:///{tmp_path / 'd.db'}"
    with serve(db) as c:  # on by default
        assert c.get("/docs").status_code == 200 and c.get("/redoc").status_code == 200
    with serve(db, docs=False) as c:
        assert c.get("/docs").status_code == 404 and c.get("/redoc").status_code == 404
        assert c.get("/openapi.json").json()["info"]["title"] == "Kozyr"


# -- devices ----------------------------------------------------------------------------


def second_device(client, player) -> dict:
    link = client.post("/api/players/me/sign-in-link", headers=auth(player)).json()["url"]
    r = client.post("/api/sign-in", json={"link": link})
    assert r.status_code == 200, r.text
    return r.json()


def devices(client, player) -> list[dict]:
    r = client.get("/api/players/me/devices", headers=auth(player))
    assert r.status_code == 200, r.text
    return r.json()


def test_devices_listed_with_the_current_one(client):
    first = new_player(client)
    [only] = devices(client, first)
    assert only["current"] is True and set(only) == {"id", "created_at", "current"}
    other = second_device(client, first)
    mine, theirs = devices(client, first), devices(client, other)
    assert [d["id"] for d in mine] == [d["id"] for d in theirs] == [only["id"], mine[1]["id"]]
    assert [d["current"] for d in mine] == [True, False] and [d["current"] for d in theirs] == [False, True]
    assert first["token"] not in str(mine) and other["token"] not in str(mine)


def test_signing_a_device_out_closes_its_socket_and_its_cached_token(client):
    room, players = make_room(client, "thousand-1000", 3, start=True)
    host = players[0]
    phone = second_device(client, host)
    with ExitStack() as stack:
        on_phone = connect(client, stack, room["code"], phone, 0)  # the websocket caches the token
        on_phone.wait_view(0)
        on_laptop = connect(client, stack, room["code"], host, 0)
        on_laptop.wait_view(0)
        phone_id = [d["id"] for d in devices(client, host) if not d["current"]][0]
        assert client.delete(f"/api/players/me/devices/{phone_id}", headers=auth(host)).status_code == 204
        on_phone.recv_until(lambda m: m["type"] == "error" and m["code"] == "bad_token")
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                on_phone.recv(5)
        assert closed.value.code == 4403
        on_laptop.send({"type": "ping", "nonce": 1})  # the other device plays on
        on_laptop.recv_until(lambda m: m["type"] == "pong")
        # The token stops working at once, for REST and for a new socket (no cached look-up).
        assert client.get("/api/players/me", headers=auth(phone)).status_code == 401
        again = connect(client, stack, room["code"], phone, 0)
        assert again.recv()["code"] == "bad_token"
        with pytest.raises(WebSocketDisconnect) as closed:
            again.recv(5)
        assert closed.value.code == 4403
    assert [d["current"] for d in devices(client, host)] == [True]


def test_a_device_of_another_player_cannot_be_signed_out(client):
    alice, bob = new_player(client), new_player(client)
    [bobs] = devices(client, bob)
    r = client.delete(f"/api/players/me/devices/{bobs['id']}", headers=auth(alice))
    assert r.status_code == 404 and r.json()["code"] == "unknown_device"
    assert client.get("/api/players/me", headers=auth(bob)).status_code == 200
    assert client.delete("/api/players/me/devices/0", headers=auth(alice)).status_code == 422


def test_sign_out_every_other_device(client):
    first = new_player(client)
    others = [second_device(client, first) for _ in range(3)]
    r = client.post("/api/players/me/devices/sign-out-others", headers=auth(others[1]))
    assert r.status_code == 200 and r.json() == {"signed_out": 3}
    for device in (first, others[0], others[2]):
        assert client.get("/api/players/me", headers=auth(device)).status_code == 401
    assert client.get("/api/players/me", headers=auth(others[1])).json()["id"] == first["id"]
    assert [d["current"] for d in devices(client, others[1])] == [True]


@pytest.mark.postgres
@pytest.mark.timeout(60)
def test_a_sign_out_reaches_the_other_process(pg_database):
    """B signs a device out; A, which had its token cached (for token_cache_seconds, 30 s)
    and a socket of it open, forgets the token and closes the socket at once."""
    for a, b in serve_two(pg_database):
        room, players = make_room(a, "thousand-1000", 3, start=True)
        phone = second_device(a, players[0])
        with ExitStack() as stack:
            on_a = connect(a, stack, room["code"], phone, 0)
            on_a.wait_view(0)
            phone_id = [d["id"] for d in devices(b, players[0]) if not d["current"]][0]
            started = time.monotonic()
            assert b.delete(f"/api/players/me/devices/{phone_id}", headers=auth(players[0])).status_code == 204
            on_a.recv_until(lambda m: m["type"] == "error" and m["code"] == "bad_token")
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    on_a.recv(5)
            assert closed.value.code == 4403 and time.monotonic() - started < 5
            again = connect(a, stack, room["code"], phone, 0)
            assert again.recv()["code"] == "bad_token"
