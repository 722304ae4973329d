"""The protocol additions of README "Agreed additions": deltas, room codes, the QR
code, the room object's family / variant name / host.  (back / takeover / timer /
bot names: test_bots_server.py.)"""

from __future__ import annotations

import random
from contextlib import ExitStack

import pytest
from starlette.testclient import TestClient

from app.db import models as m
from app.db.store import CODE_ALPHABET
from engine import find_variant

from .conftest import serve
from .helpers import Client, auth, make_room, new_player, short_options

VARIANT, SEATS = "thousand-1000", 3


def hello(client: TestClient, stack: ExitStack, code: str, player: dict | None, seat: int | None,
          accept: list[str] | None) -> Client:
    ws = stack.enter_context(client.websocket_connect(f"/api/rooms/{code}/ws"))
    c = Client(ws, seat)
    msg = {"type": "hello", "token": player["token"] if player else None}
    if accept is not None:
        msg["accept"] = accept
    c.send(msg)
    c.recv_until(lambda m: m["type"] == "view")
    return c


class Follower:
    """A client's view, kept up to date from view and delta messages."""

    def __init__(self, c: Client) -> None:
        self.c = c
        self.version = c.last_view["version"]
        self.view = c.last_view["view"]
        self.deltas = self.views = 0

    def until(self, version: int) -> None:
        while self.version < version:
            msg = self.c.recv()
            if msg["type"] == "view":
                self.view, self.version = msg["view"], msg["version"]
                self.views += 1
            elif msg["type"] == "delta":
                assert msg["base"] == self.version, (msg["base"], self.version)
                view = dict(self.view)
                view.update(msg["set"])
                for key in msg["unset"]:
                    view.pop(key, None)
                self.view, self.version = view, msg["version"]
                self.deltas += 1
                assert msg["set"] or msg["unset"]


def test_deltas_rebuild_every_view_and_only_clients_that_ask_get_them(client):
    rng = random.Random(11)
    options = short_options(VARIANT)
    room, players = make_room(client, VARIANT, SEATS, options, seed=77)
    code = room["code"]
    ref = find_variant(VARIANT).new_match(SEATS, seed=77, options=find_variant(VARIANT).resolve_options(options))
    with ExitStack() as stack:
        seats = [Follower(hello(client, stack, code, p, n, ["delta"])) for n, p in enumerate(players)]
        watcher = Follower(hello(client, stack, code, new_player(client), None, ["delta"]))
        plain = Follower(hello(client, stack, code, players[1], 1, None))  # an old client
        ids = iter(range(10**6))
        for _ in range(80):
            if ref.is_over():
                break
            seat = ref.to_act()[0]
            legal = ref.legal_actions(seat)
            action = "pass" if "pass" in legal and rng.random() < 0.6 else rng.choice(legal)
            seats[seat].c.act(action, f"d{next(ids)}", version=len(ref.actions))
            ref.apply(seat, action)
            v = len(ref.actions)
            for n, f in enumerate(seats):
                f.until(v)
                assert f.view == ref.view(n), f"seat {n} at {v}"
            watcher.until(v)
            assert watcher.view == ref.view(None)
            plain.until(v)
            assert plain.view == ref.view(1)
        n = len(ref.actions)
        assert n >= 10
        assert all(f.deltas == n and f.views == 0 for f in seats + [watcher]), [(f.deltas, f.views) for f in seats]
        assert plain.deltas == 0 and plain.views == n
        # A resume gets a full view; the next action a delta on top of it again.
        seats[0].c.send({"type": "resume", "accept": ["delta"]})
        msg, _ = seats[0].c.recv_until(lambda m: m["type"] == "view")
        assert msg["version"] == len(ref.actions) and msg["view"] == ref.view(0)


def test_accept_delta_in_the_url(client):
    room, players = make_room(client, VARIANT, SEATS, short_options(VARIANT), seed=8)
    with ExitStack() as stack:
        conns = [Client(stack.enter_context(client.websocket_connect(
            f"/api/rooms/{room['code']}/ws?token={p['token']}&accept=delta")), n) for n, p in enumerate(players)]
        for c in conns:
            c.recv_until(lambda m: m["type"] == "view")
        seat = conns[0].last_view["view"]["to_act"][0]
        conns[seat].act(conns[seat].last_view["view"]["legal"][0], "u1", version=0)
        for c in conns:
            msg, got = c.recv_until(lambda m: m["type"] in ("delta", "view") and m["version"] == 1)
            assert msg["type"] == "delta" and msg["base"] == 0


def test_a_page_of_another_build_is_told_to_reload(client):
    """hello.build (or ?build=) names the /v/<build>/ the page's modules came from: another
    build than the server's gets ``reload`` with the server's right after the welcome; the
    server's own build, or none, gets no such message."""
    room, players = make_room(client, VARIANT, SEATS, short_options(VARIANT), seed=8)
    ours = client.app.state.static.build
    with ExitStack() as stack:
        old = Client(stack.enter_context(client.websocket_connect(f"/api/rooms/{room['code']}/ws")), 0)
        old.send({"type": "hello", "token": players[0]["token"], "build": "0123456789ab"})
        welcome = old.recv()
        assert welcome["type"] == "welcome"
        reload = old.recv()
        assert reload["type"] == "reload" and reload["build"] == ours
        by_url = Client(stack.enter_context(client.websocket_connect(
            f"/api/rooms/{room['code']}/ws?token={players[1]['token']}&build=0123456789ab")), 1)
        by_url.recv_until(lambda m: m["type"] == "reload")
        for n, build in ((2, ours), (1, None)):
            hello = {"type": "hello", "token": players[n]["token"]}
            if build:
                hello["build"] = build
            c = Client(stack.enter_context(client.websocket_connect(f"/api/rooms/{room['code']}/ws")), n)
            c.send(hello)
            _, got = c.recv_until(lambda m: m["type"] == "view")
            c.send({"type": "ping", "nonce": 1})
            _, more = c.recv_until(lambda m: m["type"] == "pong")
            assert "reload" not in [m["type"] for m in got + more]


def test_a_delta_sets_only_the_keys_that_changed(client):
    room, players = make_room(client, VARIANT, SEATS, short_options(VARIANT), seed=5)
    with ExitStack() as stack:
        conns = [hello(client, stack, room["code"], p, n, ["delta"]) for n, p in enumerate(players)]
        before = {n: c.last_view["view"] for n, c in enumerate(conns)}
        view = conns[0].last_view["view"]
        seat = view["to_act"][0]
        legal = conns[seat].last_view["view"]["legal"]
        conns[seat].act(legal[0], "only", version=0)
        for n, c in enumerate(conns):
            delta, _ = c.recv_until(lambda m: m["type"] == "delta")
            assert delta["base"] == 0 and delta["version"] == 1
            assert "scoresheet" not in delta["set"] and "options" not in delta["set"]
            for key, value in delta["set"].items():
                assert before[n].get(key) != value, key


def test_room_codes_are_short_case_insensitive_and_old_codes_work(client, kozyr):
    host = new_player(client)
    room = client.post("/api/rooms", json={"variant": VARIANT}, headers=auth(host)).json()
    code = room["code"]
    assert len(code) == 8 and set(code) <= set(CODE_ALPHABET) and code == code.upper()
    lower = client.get(f"/api/rooms/{code.lower()}")
    assert lower.status_code == 200 and lower.json()["code"] == code
    # The websocket too: a lower-case link joins the same room.
    with ExitStack() as stack:
        c = Client(stack.enter_context(client.websocket_connect(
            f"/api/rooms/{code.lower()}/ws?token={host['token']}")), 0)
        welcome, _ = c.recv_until(lambda m: m["type"] == "welcome")
        assert welcome["room"] == code and welcome["seat"] == 0
    # An older 12-character mixed-case code keeps working as it was.
    old = "aB3_k9-Xq2Zw"
    with kozyr.db.write() as s:
        s.get(m.Room, kozyr_room_id(kozyr, code)).code = old
    kozyr.rooms.codes.clear()
    kozyr.rooms.snapshots.clear()
    assert client.get(f"/api/rooms/{old}").json()["code"] == old
    assert client.get(f"/api/rooms/{old.upper()}").status_code == 404


def kozyr_room_id(kozyr, code: str) -> int:
    from sqlalchemy import select
    with kozyr.db.read() as s:
        return s.scalar(select(m.Room.id).where(m.Room.code == code))


def test_the_room_says_family_variant_name_and_host(client):
    host = new_player(client)
    room = client.post("/api/rooms", json={"variant": VARIANT}, headers=auth(host)).json()
    assert room["family"] == find_variant(VARIANT).family == "thousand"
    assert room["variant_name"] == find_variant(VARIANT).name
    assert room["host"] == {"id": host["id"], "name": host["name"], "bot_key": None}
    assert all("bot_key" in s for s in room["seats"])


def test_invite_qr_code_is_an_svg_of_the_link(client):
    host = new_player(client)
    code = client.post("/api/rooms", json={"variant": VARIANT}, headers=auth(host)).json()["code"]
    r = client.get(f"/api/rooms/{code.lower()}/qr.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.lstrip().startswith("<svg") and "</svg>" in r.text
    assert client.get("/api/rooms/NOPE2345/qr.svg").status_code == 404


@pytest.fixture
def strict_client(database_url):
    with serve(database_url, room_lookup_burst=3, room_lookup_per_minute=0.001) as c:
        yield c


def test_guessing_room_codes_is_rate_limited_per_address(strict_client):
    c = strict_client
    host = new_player(c)
    code = c.post("/api/rooms", json={"variant": VARIANT}, headers=auth(host)).json()["code"]
    for guess in ("AAAA2222", "BBBB3333", "CCCC4444"):
        r = c.get(f"/api/rooms/{guess}")
        assert r.status_code == 404 and r.json()["code"] == "unknown_room"
    r = c.get("/api/rooms/DDDD5555")
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"
    # Now every look-up from that address is refused, a real code too (else 429 vs 200
    # would still tell a guesser which codes exist) ...
    assert c.get(f"/api/rooms/{code}").status_code == 429
    with ExitStack() as stack:
        ws = Client(stack.enter_context(c.websocket_connect(f"/api/rooms/{code}/ws?token={host['token']}")), 0)
        err = ws.recv()
        assert err["type"] == "error" and err["code"] == "rate_limited"
    # ... while other addresses are not affected.
    kozyr = c.app.state
    assert "testclient" in kozyr.rooms.code_guard.misses and "10.0.0.9" not in kozyr.rooms.code_guard.misses
    kozyr.rooms.code_guard.check("10.0.0.9")
