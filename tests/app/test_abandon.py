"""Abandoned matches (README "Abandoned matches"), on SQLite and PostgreSQL: the host
stops a match from the table (``end_match``); its log ends with ``abandon``, its status is
``abandoned`` and nothing more is applied; the room option ``abandoned`` says whether a
stopped rated match moves ratings (placed by the totals as they stood) or not."""

from __future__ import annotations

import random
from contextlib import ExitStack

from .helpers import auth, connect, make_room, new_player, open_table

VARIANT = "thousand-1000"


def _play_a_deal(clients, live, rng) -> None:
    """Random play until the first deal is over (so the totals differ)."""
    while not live.engine.history():
        view = clients[0].last_view
        seat = view["view"]["to_act"][0]
        legal = clients[seat].last_view["view"]["legal"]
        action = "pass" if "pass" in legal else rng.choice(legal)
        clients[seat].act(action, f"c{view['version']}", view["version"])
        ack, _ = clients[seat].recv_until(lambda m: m["type"] in ("ack", "error"))
        assert ack["type"] == "ack", ack
        for c in clients:
            c.wait_view(view["version"] + 1)


def _end(host) -> dict:
    host.send({"type": "end_match"})
    msg, _ = host.recv_until(lambda m: m["type"] in ("error", "room") and (
        m["type"] == "error" or m["room"]["status"] == "abandoned"))
    return msg


def test_end_match_refused_for_non_hosts_and_without_a_match(client, kozyr):
    room, players = make_room(client, VARIANT, 3, start=False)
    with ExitStack() as stack:
        host = connect(client, stack, room["code"], players[0], 0)
        host.recv_until(lambda m: m["type"] == "welcome")
        msg = _end(host)
        assert msg["code"] == "no_match"
    room, players = make_room(client, VARIANT, 3, seed=3)
    with ExitStack() as stack:
        clients = open_table(client, stack, room, players)
        watcher = connect(client, stack, room["code"], new_player(client), None)
        watcher.recv_until(lambda m: m["type"] == "welcome")
        for c in (clients[1], watcher):
            msg = _end(c)
            assert msg["code"] == "not_host" and "host" in msg["message"]
        # Nobody may write the server's own entry as an action.
        seat = clients[0].last_view["view"]["to_act"][0]
        clients[seat].act("abandon", "sneaky", 0)
        err, _ = clients[seat].recv_until(lambda m: m["type"] == "error")
        assert err["code"] == "illegal"
        assert kozyr.live[room["match"]["id"]].version == 0 and not kozyr.live[room["match"]["id"]].finished


def test_host_ends_the_match_everyone_sees_it_and_nothing_more_is_applied(client, kozyr):
    room, players = make_room(client, VARIANT, 3, seed=4)
    match_id, code = room["match"]["id"], room["code"]
    with ExitStack() as stack:
        clients = open_table(client, stack, room, players)
        views = {c.seat: c.last_view["view"] for c in clients}
        msg = _end(clients[0])
        assert msg["room"]["match"]["status"] == "abandoned" and msg["room"]["match"]["version"] == 1
        for c in clients[1:]:
            c.recv_until(lambda m: m["type"] == "room" and m["room"]["status"] == "abandoned")
        for c in clients:  # the entry raises the version (the view first); the table stays as it was
            assert c.last_view["version"] == 1 and c.last_view["view"] == views[c.seat]
        seat = views[0]["to_act"][0]
        clients[seat].act(views[seat]["legal"][0], "after", 1)
        err, _ = clients[seat].recv_until(lambda m: m["type"] == "error")
        assert err["code"] == "illegal" and "stopped" in err["message"]
        again = _end(clients[0])
        assert again["code"] == "no_match"
    detail = client.get(f"/api/matches/{match_id}").json()
    assert detail["status"] == "abandoned" and detail["finished_at"] and detail["seed"] is not None
    assert detail["result"]["abandoned"] is True
    listed = client.get(f"/api/rooms/{code}/matches?status=abandoned").json()
    assert [m["id"] for m in listed] == [match_id]
    # Rebuilt from its log (as after a restart) it is still stopped.
    from app.rooms.live import LiveMatch
    fresh = LiveMatch.load(kozyr.db, match_id)
    assert fresh.abandoned and fresh.finished and fresh.version == 1
    # The host may start the next match.
    r = client.post(f"/api/rooms/{code}/rematch", headers=auth(players[0]))
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "playing"


def _rated(client, abandoned: str | None) -> tuple[dict, list[dict]]:
    room, players = make_room(client, VARIANT, 3, seed=12,
                              settings={"rated": True, **({"abandoned": abandoned} if abandoned is not None else {})})
    assert room["abandoned"] == (abandoned or "ignored")
    return room, players


def _family_rating(client, player) -> dict | None:
    page = client.get(f"/api/players/{player['id']}/page").json()
    return next((r for r in page["ratings"] if r["family"] == "thousand"), None)


def test_a_stopped_rated_match_counts_only_when_the_room_says_so(client, kozyr):
    for option in ("counts", None):
        room, players = _rated(client, option)
        live = kozyr.live[room["match"]["id"]]
        with ExitStack() as stack:
            clients = open_table(client, stack, room, players)
            _play_a_deal(clients, live, random.Random(5))
            totals = list(live.engine.view(None)["totals"])
            _end(clients[0])
        finished = [client.get(f"/api/players/{p['id']}/finished").json() for p in players]
        ratings = [_family_rating(client, p) for p in players]
        if option != "counts":
            assert all(f == [] for f in finished) and ratings == [None, None, None]
            continue
        assert [f[0]["total"] for f in finished] == totals
        order = sorted(range(3), key=lambda s: -totals[s])
        places = [f[0]["place"] for f in finished]
        assert places[order[0]] == 1 and places[order[0]] <= places[order[1]] <= places[order[2]]
        assert all(r is not None and r["matches"] == 1 for r in ratings)
        if totals[order[0]] > totals[order[2]]:  # the leader when it stopped gains most
            assert ratings[order[0]]["mu"] > ratings[order[2]]["mu"]
