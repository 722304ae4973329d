"""REST plumbing: players, variants, rooms, seats, starting matches, clear 4xx errors."""

from __future__ import annotations

import pytest

from app.api.schemas import SEAT_COUNTS
from engine import VARIANTS, find_variant

from .helpers import auth, make_room, new_player

FIRST = VARIANTS[0] if VARIANTS else None
needs_variant = pytest.mark.skipif(FIRST is None, reason="no variant registered yet")


def test_healthz_checks_the_database(client):
    r = client.get("/healthz")
    assert r.status_code == 200
    assert r.json()["ok"] is True
    assert r.json()["variants"] == list(VARIANTS)


def test_openapi_and_static_page(client):
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    assert "/api/rooms" in paths and "/api/matches/{match_id}" in paths
    r = client.get("/")
    assert r.status_code == 200 and "Kozyr" in r.text


@pytest.mark.parametrize("name", ["Анна", "Paweł Żółć", "  Grzegorz Brzęczyszczykiewicz  ", "Ёж 🦔", "x" * 40])
def test_player_names_in_any_script(client, name):
    p = new_player(client, name)
    assert p["name"] == name.strip()
    assert len(p["token"]) >= 43  # 32 random bytes, url-safe base64
    r = client.get("/api/players/me", headers={"X-Player-Token": p["token"]})
    assert r.status_code == 200 and r.json() == {"id": p["id"], "name": name.strip(), "away_until": None}


@pytest.mark.parametrize("name", ["", "   ", "a\x00b", "tab\there", "new\nline", "\x1b[31mred", "y" * 41])
def test_bad_player_names_are_refused(client, name):
    r = client.post("/api/players", json={"name": name})
    assert r.status_code == 422
    assert r.json()["code"] == "invalid_name"


def test_tokens_are_unique_and_checked(client):
    a, b = new_player(client), new_player(client)
    assert a["token"] != b["token"]
    assert client.get("/api/players/me").status_code == 401
    assert client.get("/api/players/me", headers={"Authorization": "Bearer nope"}).status_code == 401
    r = client.patch("/api/players/me", json={"name": "Żaneta"}, headers=auth(a))
    assert r.json()["name"] == "Żaneta"


def test_variants_listed_from_the_engine(client):
    got = client.get("/api/variants").json()
    assert [v["id"] for v in got] == list(VARIANTS)
    for v in got:
        assert v["options"] == find_variant(v["id"]).options_schema()
    assert client.get("/api/variants/no-such").status_code == 404


@needs_variant
def test_room_create_validates_with_the_engine(client):
    host = new_player(client)
    r = client.post("/api/rooms", json={"variant": "no-such-game"}, headers=auth(host))
    assert r.status_code == 422 and "no-such-game" in r.json()["detail"]
    r = client.post("/api/rooms", json={"variant": FIRST, "options": {"bogus": 1}}, headers=auth(host))
    assert r.status_code == 422 and "bogus" in r.json()["detail"]
    r = client.post("/api/rooms", json={"variant": FIRST, "seats": 99}, headers=auth(host))  # past the schema's bound
    assert r.status_code == 422 and r.json()["code"] == "invalid_request" and "seats" in r.json()["detail"]
    other = next(n for n in SEAT_COUNTS if n not in find_variant(FIRST).seat_counts)  # in bounds, not FIRST's
    r = client.post("/api/rooms", json={"variant": FIRST, "seats": other}, headers=auth(host))
    assert r.status_code == 422 and r.json()["code"] == "invalid_options" and str(other) in r.json()["detail"]
    r = client.post("/api/rooms", json={"variant": FIRST}, headers={"X-Player-Token": "wrong"})
    assert r.status_code == 401


@needs_variant
def test_room_seats_and_start(client):
    variant = find_variant(FIRST)
    n = variant.seat_counts[0]
    host = new_player(client)
    r = client.post("/api/rooms", json={"variant": FIRST}, headers=auth(host))
    assert r.status_code == 201
    room = r.json()
    code = room["code"]
    assert len(code) == 8 and set(code) <= set("23456789ABCDEFGHJKMNPQRSTUVWXYZ")
    assert room["invite_url"].endswith(f"/room/{code}")
    assert room["seat_count"] == n and room["seats"][0]["player"] == host["id"]
    assert room["options"] == variant.resolve_options(None)
    assert client.get(f"/room/{code}").status_code == 200  # the invite link opens the client

    others = [new_player(client) for _ in range(n - 1)]
    # Not full yet: cannot start.
    r = client.post(f"/api/rooms/{code}/start", headers=auth(host))
    assert r.status_code == 409 and r.json()["code"] == "seats_empty"
    r = client.post(f"/api/rooms/{code}/seats/0", headers=auth(others[0]))
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"
    assert client.post(f"/api/rooms/{code}/seats/{n}", headers=auth(others[0])).status_code == 404
    for i, p in enumerate(others, start=1):
        assert client.post(f"/api/rooms/{code}/seats/{i}", headers=auth(p)).status_code == 200
    # A player moves seat: his old seat is freed.
    if n > 2:
        assert client.delete(f"/api/rooms/{code}/seats/1", headers=auth(others[0])).status_code == 200
        r = client.delete(f"/api/rooms/{code}/seats/2", headers=auth(others[0]))
        assert r.status_code == 403
        assert client.post(f"/api/rooms/{code}/seats/1", headers=auth(others[0])).status_code == 200
    r = client.post(f"/api/rooms/{code}/start", headers=auth(others[0]))
    assert r.status_code == 403 and r.json()["code"] == "not_host"
    r = client.post(f"/api/rooms/{code}/start", headers=auth(host))
    assert r.status_code == 200
    room = r.json()
    assert room["status"] == "playing" and room["match"]["version"] == 0
    # During a match seats are fixed and a second start is refused.
    r = client.delete(f"/api/rooms/{code}/seats/1", headers=auth(others[0]))
    assert r.status_code == 409
    assert client.post(f"/api/rooms/{code}/start", headers=auth(host)).status_code == 409
    assert client.post(f"/api/rooms/{code}/rematch", headers=auth(host)).status_code == 409
    # The unfinished match is in the history, without seed or action log.
    matches = client.get(f"/api/rooms/{code}/matches").json()
    assert [m["id"] for m in matches] == [room["match"]["id"]]
    detail = client.get(f"/api/matches/{room['match']['id']}").json()
    assert detail["seed"] is None and detail["status"] == "playing"
    export = client.get(f"/api/matches/{room['match']['id']}/export.json").json()
    assert "seed" not in export and "actions" not in export
    mine = client.get("/api/players/me/matches", headers=auth(host)).json()
    assert room["match"]["id"] in [m["id"] for m in mine]


def test_unknown_room_and_match(client):
    p = new_player(client)
    for path in ("/api/rooms/nope", "/api/rooms/nope/matches", "/api/rooms/nope/chat"):
        r = client.get(path)
        assert r.status_code == 404 and r.json()["code"] == "unknown_room", path
    assert client.post("/api/rooms/nope/seats/0", headers=auth(p)).status_code == 404
    assert client.post("/api/rooms/nope/start", headers=auth(p)).status_code == 404
    assert client.get("/api/matches/nope").status_code == 404
    assert client.get("/api/matches/nope/export.json").status_code == 404


@needs_variant
def test_history_filters(client):
    n = find_variant(FIRST).seat_counts[0]
    room, players = make_room(client, FIRST, n)
    code = room["code"]
    assert len(client.get(f"/api/rooms/{code}/matches", params={"variant": FIRST}).json()) == 1
    other = next(v for v in VARIANTS if v != FIRST)
    assert client.get(f"/api/rooms/{code}/matches", params={"variant": other}).json() == []
    r = client.get(f"/api/rooms/{code}/matches", params={"variant": "other"})  # not a variant: the enum refuses it
    assert r.status_code == 422 and r.json()["code"] == "invalid_request"
    assert len(client.get(f"/api/rooms/{code}/matches", params={"player": players[1]["id"]}).json()) == 1
    assert client.get(f"/api/rooms/{code}/matches", params={"player": 10**9}).json() == []
    r = client.get(f"/api/rooms/{code}/matches", params={"since": "2999-01-01T00:00:00Z"})
    assert r.json() == []
    r = client.get(f"/api/rooms/{code}/matches", params={"until": "2999-01-01T00:00:00Z",
                                                        "since": "2000-01-01T00:00:00Z"})
    assert len(r.json()) == 1
    mine = client.get("/api/players/me/matches", headers=auth(players[1]),
                      params={"with_player": players[0]["id"]}).json()
    assert [m["id"] for m in mine] == [room["match"]["id"]]


def test_a_player_made_here_joins_without_a_token_look_up(client, monkeypatch):
    """A join storm of new players reads no player row: the process that created the
    player remembers his token (README, joins); an unknown token is still refused."""
    from contextlib import ExitStack

    from app.db import store

    from .helpers import connect

    room, players = make_room(client, FIRST, find_variant(FIRST).seat_counts[0])
    real, reads = store.players_by_tokens, []

    def counted(s, tokens):
        reads.extend(tokens)
        return real(s, tokens)

    monkeypatch.setattr(store, "players_by_tokens", counted)
    with ExitStack() as stack:
        for seat, p in enumerate(players):
            c = connect(client, stack, room["code"], p, seat)
            msg, _ = c.recv_until(lambda m: m["type"] in ("welcome", "error"))
            assert msg["type"] == "welcome" and msg["player"] == p["id"], msg
    assert reads == []
    stranger = {"token": "x" * 43}
    with ExitStack() as stack:
        c = connect(client, stack, room["code"], stranger, None)
        msg, _ = c.recv_until(lambda m: m["type"] in ("welcome", "error"))
        assert msg["type"] == "error" and msg["code"] == "bad_token"
    assert reads == ["x" * 43]


def test_worker_threads_are_capped_so_reads_cannot_starve_the_loop(client):
    """Every to_thread call without a limiter of its own (the database work, sync routes)
    shares KOZYR_WORKER_THREADS threads in the app's event loop, not anyio's 40."""
    from anyio import to_thread

    async def limit() -> float:
        return to_thread.current_default_thread_limiter().total_tokens
    settings = client.app.state.settings
    assert settings.worker_threads == 4
    assert client.portal.call(limit) == settings.worker_threads
    # Still served when more requests come at once than there are threads.
    import concurrent.futures
    with concurrent.futures.ThreadPoolExecutor(12) as pool:
        codes = list(pool.map(lambda _: client.get("/healthz").status_code, range(24)))
    assert codes == [200] * 24
