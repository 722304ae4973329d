"""Idle matches leave memory and come back from their log (README "Matches in memory").

The sweep is called directly with a ``now`` past the idle time (the server's own
sweeps are off here), so no test waits for a match to become idle."""

from __future__ import annotations

import time
from contextlib import ExitStack

import pytest
from starlette.testclient import TestClient

from app.main import create_app
from engine import find_variant

from .conftest import make_settings, scratch_pg_database, serve_two
from .helpers import act_and_wait, auth, connect, make_room, new_player, open_table

VARIANT = "thousand-ru"  # 3 seats; a bid after the deal's first call can be taken back
SEED = 7
IDLE = 600.0


def evict(client: TestClient, later: float = IDLE + 1) -> int:
    """The sweep, run on the app's event loop as if ``later`` seconds had passed."""
    kozyr = client.app.state
    return client.portal.call(kozyr.matches.evict_idle, IDLE, time.monotonic() + later)


def wait_empty(client: TestClient, code: str) -> None:
    """The room's sockets have left it on the server (their routes ended)."""
    end = time.monotonic() + 10
    while client.app.state.hub.conns(code):
        assert time.monotonic() < end, "the sockets did not leave the room"
        time.sleep(0.01)


def app_for(database_url: str, **extra):
    extra.setdefault("match_sweep_seconds", 0.0)  # the tests sweep themselves
    extra.setdefault("bot_delay", 0.0)
    return create_app(make_settings(database_url, **extra))


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def evict_db(request, tmp_path_factory):
    """A database of this module's own: its matches keep running clocks (deadline rows)
    that no other module's sweep should find due."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('evict') / 'kozyr.db'}"
        return
    with scratch_pg_database(fsync=False) as url:
        yield url


@pytest.fixture(scope="module")
def eclient(evict_db):
    app = app_for(evict_db, takeback_seconds=600.0, bot_delay=600.0)
    with TestClient(app) as c:
        yield c
    app.state.db.dispose()


def _play(clients, live, count: int, version: int = 0) -> int:
    for _ in range(count):
        seat = live.engine.to_act()[0]
        version = act_and_wait(clients, seat, live.engine.legal_actions(seat)[0], version)
    return version


def test_an_idle_match_leaves_memory_and_its_next_action_is_applied_on_the_log(eclient):
    kozyr = eclient.app.state
    room, players = make_room(eclient, VARIANT, 3, seed=SEED)
    code, match_id = room["code"], room["match"]["id"]
    with ExitStack() as stack:
        clients = open_table(eclient, stack, room, players)
        version = _play(clients, kozyr.live[match_id], 2)
        evict(eclient)  # watched: it stays
        assert match_id in kozyr.live
    wait_empty(eclient, code)
    old = kozyr.live[match_id]
    views = [old.view(s) for s in range(3)]
    evict(eclient, later=IDLE - 5)  # not idle long enough
    assert match_id in kozyr.live
    assert evict(eclient) >= 1
    assert match_id not in kozyr.live and kozyr.rooms.cached(code) is None  # the room's state went too
    # The REST room reads the room and shows the log's version.
    r = eclient.get(f"/api/rooms/{code}", headers=auth(players[0]))
    assert r.json()["match"]["version"] == version == 2
    assert match_id not in kozyr.live  # showing the room loads no match
    with ExitStack() as stack:
        clients = open_table(eclient, stack, room, players)  # the joins load it from the log
        live = kozyr.live[match_id]
        assert live is not old and live.version == version
        assert [c.last_view["version"] for c in clients] == [version] * 3
        assert [c.last_view["view"] for c in clients] == views
        # A stale action is refused at the log's version; the right one is applied on top.
        seat = live.engine.to_act()[0]
        action = live.engine.legal_actions(seat)[0]
        clients[seat].act(action, "stale", version - 1)
        err, _ = clients[seat].recv_until(lambda m: m["type"] in ("ack", "error"))
        assert err["type"] == "error" and err["code"] == "stale" and err["version"] == version
        version = act_and_wait(clients, seat, action, version)
    assert eclient.get(f"/api/matches/{match_id}").json()["version"] == version == 3
    ref = find_variant(VARIANT).new_match(3, seed=SEED)
    for entry in kozyr.live[match_id].log:
        ref.apply(entry.seat, entry.action)
    assert [kozyr.live[match_id].view(s) for s in range(3)] == [ref.view(s) for s in range(3)]


def test_an_action_sent_to_an_evicted_match_is_applied_once_loaded(eclient):
    """Reached through the match loop only: a person's action after the eviction loads the
    match (Play.act -> MatchLoop.current -> get_live) and goes through submit."""
    kozyr = eclient.app.state
    room, players = make_room(eclient, VARIANT, 3, seed=SEED)
    code, match_id = room["code"], room["match"]["id"]
    with ExitStack() as stack:
        clients = open_table(eclient, stack, room, players)
        version = _play(clients, kozyr.live[match_id], 1)
        seat = kozyr.live[match_id].engine.to_act()[0]
        action = kozyr.live[match_id].engine.legal_actions(seat)[0]
    wait_empty(eclient, code)
    assert evict(eclient) >= 1 and match_id not in kozyr.live
    with ExitStack() as stack:
        c = connect(eclient, stack, code, players[seat], seat)
        c.recv_until(lambda m: m["type"] == "welcome")
        assert c.wait_view(0)["version"] == version
        # Evicted again between the join and the action (the socket still holds the room,
        # so only a sweep that ignored it could do this): the action still finds the match.
        evict(eclient)
        assert match_id in kozyr.live
        c.act(action, "after", version)
        ack, _ = c.recv_until(lambda m: m["type"] in ("ack", "error"))
        assert ack["type"] == "ack" and ack["seq"] == version
    assert eclient.get(f"/api/matches/{match_id}").json()["version"] == version + 1


def _takeback_plan() -> tuple[int, str, int, str]:
    """(first seat, its first call, the asker, the bid he will take back)."""
    match = find_variant(VARIANT).new_match(3, seed=SEED)
    first = match.to_act()[0]
    call = next(a for a in match.legal_actions(first) if a.startswith("bid:"))
    match.apply(first, call)
    asker = match.to_act()[0]
    return first, call, asker, next(a for a in match.legal_actions(asker) if a.startswith("bid:"))


def test_a_match_with_an_open_takeback_request_stays_until_it_is_answered(eclient):
    kozyr = eclient.app.state
    first, call, asker, bid = _takeback_plan()
    room, players = make_room(eclient, VARIANT, 3, seed=SEED)
    code, match_id = room["code"], room["match"]["id"]
    with ExitStack() as stack:
        clients = open_table(eclient, stack, room, players)
        act_and_wait(clients, first, call, 0)
        act_and_wait(clients, asker, bid, 1)
        clients[asker].send({"type": "takeback"})
        for c in clients:
            c.recv_until(lambda m: m["type"] == "takeback")
    wait_empty(eclient, code)
    evict(eclient)  # nobody here, the request open
    assert kozyr.live[match_id].takeback is not None
    voter = next(s for s in range(3) if s != asker)
    with ExitStack() as stack:
        c = connect(eclient, stack, code, players[voter], voter)
        c.recv_until(lambda m: m["type"] == "takeback")  # shown again on the join
        c.send({"type": "takeback_answer", "agree": False})
        done, _ = c.recv_until(lambda m: m["type"] == "takeback_done")
        assert done["result"] == "declined"
    wait_empty(eclient, code)
    assert evict(eclient) >= 1 and match_id not in kozyr.live  # answered: it may go


def test_a_match_whose_bot_is_about_to_act_stays(eclient):
    """This server's bots wait 600 s before they act: the bot's task is running."""
    kozyr = eclient.app.state
    host = new_player(eclient)
    r = eclient.post("/api/rooms", json={"variant": VARIANT, "seats": 3}, headers=auth(host))
    code = r.json()["code"]
    for seat in (1, 2):
        r = eclient.post(f"/api/rooms/{code}/seats/{seat}/bot", json={"level": "random"}, headers=auth(host))
        assert r.status_code == 200, r.text
    r = eclient.post(f"/api/rooms/{code}/start", headers=auth(host), json={"seed": SEED})
    match_id = r.json()["match"]["id"]
    live = kozyr.live[match_id]
    with ExitStack() as stack:
        c = connect(eclient, stack, code, host, 0)
        c.wait_view(0)
        version = 0
        if live.engine.to_act() == [0]:  # the host acts first: then a bot is to act
            version = act_and_wait([c], 0, live.engine.legal_actions(0)[0], 0)
    wait_empty(eclient, code)
    assert live.engine.to_act()[0] in (1, 2) and live.version == version
    evict(eclient)
    assert kozyr.live[match_id] is live and kozyr.bots.tables[match_id].task is not None


def test_a_restart_loads_only_the_matches_that_go_on_with_nobody_there(evict_db):
    app1 = app_for(evict_db, bot_delay=600.0)  # no bot acts before the restart
    with TestClient(app1) as c1:
        people, players = make_room(c1, VARIANT, 3, seed=SEED)
        with ExitStack() as stack:
            clients = open_table(c1, stack, people, players)
            version = _play(clients, app1.state.live[people["match"]["id"]], 2)
        clocked, _ = make_room(c1, VARIANT, 3, seed=SEED, settings={"takeover_seconds": 3600})
        turn, _ = make_room(c1, VARIANT, 3, seed=SEED, settings={"pace": "turn"})
        host = new_player(c1)
        code = c1.post("/api/rooms", json={"variant": VARIANT, "seats": 3, "take_seat": True},
                       headers=auth(host)).json()["code"]
        for seat in (1, 2):
            r = c1.post(f"/api/rooms/{code}/seats/{seat}/bot", json={"level": "random"}, headers=auth(host))
            assert r.status_code == 200, r.text
        botted = c1.post(f"/api/rooms/{code}/start", headers=auth(host), json={"seed": SEED}).json()
    app1.state.db.dispose()
    app2 = app_for(evict_db, bot_delay=600.0)
    with TestClient(app2) as c2:
        live = app2.state.live
        assert botted["match"]["id"] in live  # its bots may be due
        # These wait for their people (or for their deadlines, in the database).
        assert all(x["match"]["id"] not in live for x in (people, clocked, turn))
        with ExitStack() as stack:
            clients = open_table(c2, stack, people, players)
            assert people["match"]["id"] in live
            assert [c.last_view["version"] for c in clients] == [version] * 3
            _play(clients, live[people["match"]["id"]], 1, version)
    app2.state.db.dispose()


@pytest.fixture
def two_servers(pg_database):
    yield from serve_two(pg_database)


@pytest.mark.postgres
@pytest.mark.timeout(120)
def test_an_evicted_match_and_another_processs_notes(two_servers):
    """B evicts the match; A plays on (B hears notes for a room it does not watch and
    loads nothing); a note B is handed directly loads the log, not a stale copy; a
    socket on B then sees A's version and acts on it, and A sees that."""
    a, b = two_servers
    kb = b.app.state
    room, players = make_room(a, VARIANT, 3, seed=SEED)
    code, match_id = room["code"], room["match"]["id"]
    live_a = a.app.state.live[match_id]
    with ExitStack() as stack:
        clients = open_table(a, stack, room, players)
        with ExitStack() as watch:
            watcher = connect(b, watch, code, players[1], 1)
            watcher.wait_view(0)
            version = _play(clients, live_a, 2)
            watcher.wait_view(version)  # B followed A's notes
        wait_empty(b, code)
        assert evict(b) >= 1 and match_id not in kb.live
        version = _play(clients, live_a, 2, version)  # notes B has no socket for
        time.sleep(0.2)  # let them arrive: B must still not have loaded the match
        assert match_id not in kb.live
        # A note handed to B's loop (as when a socket is there): the log is read.
        last = live_a.log[-1]
        note = {"kind": "match", "match": match_id, "version": version,
                "logged": [last.seq, last.seat, last.action, last.client_id]}
        b.portal.call(kb.matches.on_note, note)
        assert kb.live[match_id].version == version
        assert [kb.live[match_id].view(s) for s in range(3)] == [live_a.view(s) for s in range(3)]
        assert evict(b) >= 1 and match_id not in kb.live
        version = _play(clients, live_a, 1, version)
        with ExitStack() as watch:
            late = connect(b, watch, code, players[1], 1)
            assert late.wait_view(0)["version"] == version  # loaded from the log, A's version
            seat = live_a.engine.to_act()[0]
            mover = late if seat == 1 else connect(b, watch, code, players[seat], seat)
            mover.wait_view(version)
            mover.act(live_a.engine.legal_actions(seat)[0], "from-b", version)
            ack, _ = mover.recv_until(lambda m: m["type"] in ("ack", "error"))
            assert ack["type"] == "ack" and ack["seq"] == version
            for c in clients:
                c.wait_view(version + 1)  # A followed B's note
    assert live_a.version == kb.live[match_id].version == version + 1


def test_a_sweep_forgets_in_steps_and_gets_them_all(eclient):
    kozyr = eclient.app.state
    ids = []
    for _ in range(3):
        room, _players = make_room(eclient, VARIANT, 3, seed=SEED)
        ids.append(room["match"]["id"])
    assert all(i in kozyr.live for i in ids)
    kozyr.matches.EVICT_STEP = 1  # this server's sweep lets other tasks run after each match
    try:
        gone = eclient.portal.call(kozyr.matches.sweep, IDLE, time.monotonic() + IDLE + 1)
    finally:
        del kozyr.matches.EVICT_STEP
    assert gone >= 3 and not any(i in kozyr.live for i in ids)


def test_the_hosts_turn_timeout_reaches_an_evicted_match(eclient):
    """PATCH takeover_seconds loads the match again and its clock starts: a deadline row
    (app/rooms/deadlines.py), so the match may leave memory again while it runs."""
    from app.db import models as m
    kozyr = eclient.app.state
    room, players = make_room(eclient, VARIANT, 3, seed=SEED)
    code, match_id = room["code"], room["match"]["id"]
    assert evict(eclient) >= 1 and match_id not in kozyr.live
    r = eclient.patch(f"/api/rooms/{code}", json={"takeover_seconds": 600}, headers=auth(players[0]))
    assert r.status_code == 200, r.text
    assert match_id in kozyr.live and kozyr.bots.tables[match_id].pace["takeover_seconds"] == 600
    awaited = kozyr.live[match_id].engine.to_act()[0]
    end = time.monotonic() + 10
    while True:  # the bots' task writes the deadline of the person awaited
        with kozyr.db.read() as s:
            row = s.get(m.Deadline, match_id)
        if row is not None:
            break
        assert time.monotonic() < end, "no deadline was written"
        time.sleep(0.01)
    assert (row.seat, row.version, row.seconds) == (awaited, 0, 600)
    assert evict(eclient) >= 1 and match_id not in kozyr.live  # the clock is in the database
