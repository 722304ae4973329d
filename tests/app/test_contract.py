"""The OpenAPI document as the contract, in process (the live Schemathesis run is
tests/load/test_openapi.py): every error status of every operation declared with the
one error body, answers that keep to it (framework refusals too), 405 with the
documented Allow, 429 with Retry-After, integers past the databases' range refused
with a 422 instead of reaching SQL.  SQLite and PostgreSQL (``client``)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from app.api.schemas import MAX_ID
from app.db.errors import TooManyRooms
from app.errors import http_status
from engine import VARIANTS

from .conftest import serve
from .helpers import auth, new_player

HUGE = 10**30  # past SQLite's 64-bit INTEGER (the OverflowError of issue 34)


def problem(r, status: int, code: str | None = None) -> dict:
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert isinstance(body["detail"], str) and body["detail"] and isinstance(body["code"], str), body
    if code is not None:
        assert body["code"] == code, body
    return body


def test_every_error_status_of_every_operation_is_a_problem(client):
    doc = client.get("/openapi.json").json()
    assert "HTTPValidationError" not in doc["components"]["schemas"]  # FastAPI's own 422 replaced
    problem_ref = "#/components/schemas/Problem"
    operations = 0
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            operations += 1
            statuses = {int(s) for s in op["responses"] if s.isdigit()}
            if op.get("parameters") or "requestBody" in op:
                assert 422 in statuses, (method, path)
            for status in statuses - {200, 201, 204, 503}:
                body = op["responses"][str(status)]["content"]["application/json"]["schema"]
                assert body == {"$ref": problem_ref}, (method, path, status)
                if status == 429:
                    assert "Retry-After" in op["responses"]["429"]["headers"], (method, path)
            if op.get("security"):  # the player's token (Authorization: Bearer, or X-Player-Token)
                assert 401 in statuses, (method, path)
            if "requestBody" in op:
                assert 400 in statuses, (method, path)
    assert operations > 30


def test_errors_declared_from_the_domain_errors_a_route_raises(client):
    doc = client.get("/openapi.json").json()
    take = doc["paths"]["/api/rooms/{code}/seats/{seat}"]["post"]["responses"]
    assert set(take) == {"200", "401", "404", "409", "422", "429"}
    assert "seat_taken" in take["409"]["description"] and "unknown_room" in take["404"]["description"]
    assert set(doc["paths"]["/api/variants/{variant_id}"]["get"]["responses"]) == {"200", "404", "422"}
    assert http_status(TooManyRooms("x")) == 409  # a cap that frees when a room ends: no Retry-After


def test_integers_past_the_databases_range_are_422_not_500(client):
    player = new_player(client)
    r = client.post("/api/rooms", json={"variant": VARIANTS[0]}, headers=auth(player))
    code = r.json()["code"]
    for url in (f"/api/players/me/matches?offset={HUGE}", f"/api/players/me/matches?with_player={HUGE}",
                f"/api/players/me/matches?with_player={MAX_ID + 1}", f"/api/players/{HUGE}/stats",
                f"/api/players/1/head-to-head?offset={HUGE}", f"/api/players/1/ratings/king?before={HUGE}",
                f"/api/rooms/{code}/matches?offset={HUGE}", f"/api/matches/x/deals/{HUGE}/positions",
                f"/api/rooms/{code}/seats/{HUGE}"):
        r = client.post(url, headers=auth(player)) if url.endswith(f"seats/{HUGE}") else \
            client.get(url, headers=auth(player))
        body = problem(r, 422, "invalid_request")
        assert body["errors"] and isinstance(body["errors"][0]["loc"], list), body
    # at the bound itself the request is served (nothing found, no error)
    r = client.get(f"/api/players/me/matches?with_player={MAX_ID}&offset={2**31 - 1}", headers=auth(player))
    assert r.status_code == 200 and r.json() == []
    r = client.post(f"/api/rooms/{code}/start", json={"seed": 2**64}, headers=auth(player))
    problem(r, 422, "invalid_request")


def test_framework_refusals_keep_the_error_body(client):
    player = new_player(client)
    problem(client.get("/api/no-such-thing"), 404, "not_found")
    r = client.options("/api/rooms/ABC")
    problem(r, 405, "method_not_allowed")
    assert r.headers["allow"] == "GET, PATCH"  # every method the OpenAPI gives the path
    r = client.get("/api/rooms")  # POST only: 405, not the static files' 404
    problem(r, 405, "method_not_allowed")
    assert r.headers["allow"] == "POST"
    r = client.put("/api/players/me/calls/3", headers=auth(player))
    assert r.status_code == 405 and r.headers["allow"] == "DELETE"
    r = client.post("/index.html")
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD"
    # a body that is not even text: 400 bad_request (declared on every operation with a body)
    r = client.post("/api/rooms", content=b"\x80\x81", headers={**auth(player), "content-type": "application/json"})
    problem(r, 400, "bad_request")
    r = client.post("/api/rooms", content=b"{", headers={**auth(player), "content-type": "application/json"})
    problem(r, 422, "invalid_request")
    problem(client.get("/api/players/1/ratings/nonesuch"), 422, "invalid_request")  # a family not in the enum
    problem(client.get("/api/players/me/matches?until=0.5", headers=auth(player)), 422, "invalid_request")


def test_429_says_when_to_retry():
    with serve(f"sqlite:///{Path(tempfile.mkdtemp()) / 'k.db'}", room_lookup_burst=1,
               room_lookup_per_minute=2) as c:
        problem(c.get("/api/rooms/NOPE1"), 404, "unknown_room")
        r = c.get("/api/rooms/NOPE2")
        problem(r, 429, "rate_limited")
        assert 1 <= int(r.headers["retry-after"]) <= 30  # a miss comes back every 30 s


@pytest.mark.parametrize("burst", [1])
def test_sign_in_429_says_when_to_retry(burst):
    with serve(f"sqlite:///{Path(tempfile.mkdtemp()) / 'k.db'}", sign_in_burst=burst,
               sign_in_per_minute=0.5) as c:
        problem(c.post("/api/sign-in", json={"link": "nothing"}), 422, "sign_in_link_refused")
        r = c.post("/api/sign-in", json={"link": "nothing"})
        problem(r, 429, "rate_limited")
        assert 60 <= int(r.headers["retry-after"]) <= 120  # one failure back every 120 s


def test_allow_names_the_most_literal_path(client):
    r = client.options("/api/players/me/devices/sign-out-others")  # not /devices/{device_id}
    assert r.status_code == 405 and r.headers["allow"] == "POST"
    r = client.options("/api/players/me/devices/7")
    assert r.status_code == 405 and r.headers["allow"] == "DELETE"
    r = client.delete("/api/players/me/devices/sign-out-others")  # POST only
    assert r.status_code == 405 and r.headers["allow"] == "POST"
    problem(client.delete("/api/players/me/devices/x,y"), 422, "invalid_request")  # not an id
