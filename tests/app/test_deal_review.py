"""GET /api/matches/{id}/deals/{n}/review?seat=S: the coach's review of a finished deal
(app/rooms/review.py, issue 36 item 6), on SQLite and PostgreSQL: only of a coached
match; while it is played only the seat's own player may ask, once it is over anybody
signed in (rule C-5); worked out once in the bots' workers, then read from the table;
new reviews limited per player (429 with Retry-After)."""

from __future__ import annotations

import threading
from contextlib import ExitStack

import pytest

from .conftest import serve
from .helpers import auth, make_room, new_player
from .test_abandon import _end
from .test_positions_route import thrown_in_deal


@pytest.fixture(scope="module")
def review_client(database_url):
    with serve(database_url, bot_processes=1, coach_review_rollouts=8, coach_review_burst=1,
               coach_reviews_per_minute=0.5) as c:
        yield c


def _url(match_id: str, deal: int, seat: int) -> str:
    return f"/api/matches/{match_id}/deals/{deal}/review?seat={seat}"


def test_review_of_a_coached_deal(review_client):
    c = review_client
    reviews = c.app.state.reviews
    variant_id, seats, seed = "thousand-1001", 3, 7
    room, players = make_room(c, variant_id, seats, seed=seed, settings={"coach": True})
    match_id = room["match"]["id"]
    assert c.get(_url(match_id, 1, 0), headers=auth(players[0])).json()["code"] == "unknown_deal"
    with ExitStack() as stack:
        game = thrown_in_deal(c, stack, room, players, variant_id, seats, seed)
        # The match goes on: the seat's own player only (C-5: a review reads his hand).
        r = c.get(_url(match_id, 1, 0), headers=auth(players[1]))
        assert r.status_code == 403 and r.json()["code"] == "not_your_seat", r.text
        assert c.get(_url(match_id, 1, 0)).status_code == 401
        worked = reviews.worked
        r = c.get(_url(match_id, 1, 0), headers=auth(players[0]))
        assert r.status_code == 200, r.text
        body = r.json()
        assert reviews.worked == worked + 1
        assert (body["match"], body["deal"], body["seat"]) == (match_id, 1, 0)
        assert body["reviewed"] >= 0 and body["threshold"] > 0
        deal = game.ref.history()[0]["actions"]
        for mark in body["marked"]:
            assert deal[mark["step"]] == [0, mark["action_played"]]
            assert mark["gap"] > body["threshold"] and mark["best_action"] != mark["action_played"]
            assert isinstance(mark["reason"]["code"], str)
        # Asked again: read from the table, not worked out again.
        again = c.get(_url(match_id, 1, 0), headers=auth(players[0]))
        assert again.json() == body and reviews.worked == worked + 1
        # Two asks of one review at once: worked out once, both answered alike (and the
        # second is not counted against the limit of one a burst).
        answers: list = []
        asks = [threading.Thread(target=lambda: answers.append(
            c.get(_url(match_id, 1, 1), headers=auth(players[1])))) for _ in range(2)]
        for t in asks:
            t.start()
        for t in asks:
            t.join()
        assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]
        assert answers[0].json() == answers[1].json() and reviews.worked == worked + 2
        # A new review past the player's limit: 429 with Retry-After; nothing stored.
        host = game.clients[0]
        assert _end(host)["type"] == "room"  # the host stops the match: it is over
    r = c.get(_url(match_id, 1, 2), headers=auth(players[1]))
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"
    assert int(r.headers["Retry-After"]) >= 1
    # Over: anybody signed in reads any seat's stored review.
    stranger = new_player(c)
    assert c.get(_url(match_id, 1, 0), headers=auth(stranger)).json() == body
    assert reviews.worked == worked + 2


def test_review_refusals(review_client):
    c = review_client
    room, players = make_room(c, "king-classic", 4, seed=3)  # the coach off
    me = auth(players[0])
    r = c.get(_url(room["match"]["id"], 1, 0), headers=me)
    assert r.status_code == 409 and r.json()["code"] == "coach_off"
    assert c.get(_url("nope", 1, 0), headers=me).json()["code"] == "unknown_match"
    coached, cp = make_room(c, "thousand-ru", 3, seed=4, settings={"coach": True})
    r = c.get(_url(coached["match"]["id"], 1, 3), headers=auth(cp[0]))  # a 3-seat match
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    assert c.get(_url(coached["match"]["id"], 1, 4), headers=auth(cp[0])).status_code == 422
    r = c.get(_url(coached["match"]["id"], 1, 0), headers=auth(cp[0]))
    assert r.status_code == 404 and r.json()["code"] == "unknown_deal"
    spec = c.get("/openapi.json").json()["paths"]["/api/matches/{match_id}/deals/{deal}/review"]["get"]
    assert {"200", "401", "403", "404", "409", "422", "429"} <= set(spec["responses"])
