"""The coach at the table (app/rooms/coach.py, issue 36 item 6): a room option, never in
a rated room, seen by everyone; ``hint`` answers the asking seat at its turn with a
legal action and a reason, on its socket only."""

from __future__ import annotations

from contextlib import ExitStack

import pytest

from .conftest import serve
from .helpers import auth, make_room, open_table, short_options


@pytest.fixture(scope="module")
def coach_client(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('coach') / 'kozyr.db'}"
    with serve(url, bot_think_ms=40, bot_processes=1) as c:
        yield c


def test_no_coach_in_a_rated_room(coach_client):
    c = coach_client
    room, players = make_room(c, "king-classic", 4, start=False, settings={"coach": True})
    assert room["coach"] is True and room["rated"] is False
    r = c.post("/api/rooms", json={"variant": "king-classic", "seats": 4, "rated": True, "coach": True},
               headers=auth(players[0]))
    assert r.status_code == 422 and r.json()["code"] == "coach_in_rated_room", r.text
    rated, rp = make_room(c, "king-classic", 4, start=False, settings={"rated": True})
    r = c.patch(f"/api/rooms/{rated['code']}", json={"coach": True}, headers=auth(rp[0]))
    assert r.status_code == 422 and r.json()["code"] == "coach_in_rated_room"
    assert c.get(f"/api/rooms/{rated['code']}").json()["coach"] is False  # nothing changed
    # The host turns the coach off and on again; everybody reads it in the room.
    r = c.patch(f"/api/rooms/{room['code']}", json={"coach": False}, headers=auth(players[0]))
    assert r.status_code == 200 and r.json()["coach"] is False
    r = c.patch(f"/api/rooms/{room['code']}", json={"coach": True}, headers=auth(players[1]))
    assert r.status_code == 403  # only the host


def test_hint_at_your_turn_only_and_only_to_you(coach_client):
    c = coach_client
    room, players = make_room(c, "thousand-ru", 3, short_options("thousand-ru"), seed=11,
                              settings={"coach": True})
    with ExitStack() as stack:
        clients = open_table(c, stack, room, players)
        view = clients[0].last_view["view"]
        turn = view["to_act"][0]
        idle = next(s for s in range(3) if s != turn)
        clients[idle].send({"type": "hint"})
        err, _ = clients[idle].recv_until(lambda m: m["type"] in ("error", "hint"))
        assert err["type"] == "error" and err["code"] == "not_your_turn"
        clients[turn].send({"type": "hint"})
        hint, _ = clients[turn].recv_until(lambda m: m["type"] in ("error", "hint"), timeout=60)
        assert hint["type"] == "hint", hint
        mine = clients[turn].last_view
        assert hint["seat"] == turn and hint["version"] == mine["version"]
        assert hint["action"] in mine["view"]["legal"]
        assert isinstance(hint["reason"].get("code"), str)
        # Asked again at the same version: the same advice, not worked out again.
        given = c.app.state.coach.given
        clients[turn].send({"type": "hint"})
        again, _ = clients[turn].recv_until(lambda m: m["type"] in ("error", "hint"), timeout=60)
        assert (again["action"], again["reason"]) == (hint["action"], hint["reason"])
        assert c.app.state.coach.given == given
        # Nobody else heard it.
        for other in clients:
            if other is not clients[turn]:
                assert all(m["type"] != "hint" for m in other.seen)


def test_a_match_with_the_coach_on_is_coached(coach_client):
    """A match started in a room with the coach on, or during which the host turns it on,
    is ``coached``: it counts in no club season (app/ratings.py)."""
    from app.db import models as m

    c = coach_client
    on, _ = make_room(c, "king-classic", 4, short_options("king-classic"), seed=3, settings={"coach": True})
    off, players = make_room(c, "king-classic", 4, short_options("king-classic"), seed=4)
    with c.app.state.db.read() as s:
        assert s.get(m.Match, on["match"]["id"]).coached is True
        assert s.get(m.Match, off["match"]["id"]).coached is False
    r = c.patch(f"/api/rooms/{off['code']}", json={"coach": True}, headers=auth(players[0]))
    assert r.status_code == 200 and r.json()["coach"] is True
    with c.app.state.db.read() as s:
        assert s.get(m.Match, off["match"]["id"]).coached is True


def test_hint_needs_the_coach_on(coach_client):
    c = coach_client
    room, players = make_room(c, "king-classic", 4, short_options("king-classic"), seed=5)
    assert room["coach"] is False
    with ExitStack() as stack:
        clients = open_table(c, stack, room, players)
        turn = clients[0].last_view["view"]["to_act"][0]
        clients[turn].send({"type": "hint"})
        err, _ = clients[turn].recv_until(lambda m: m["type"] in ("error", "hint"))
        assert err["code"] == "coach_off"
