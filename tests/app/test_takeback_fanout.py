"""Take-back votes across two server processes (two apps) on one PostgreSQL and one
Redis (README "Take-backs", several processes): asked on process A, answered by seats
connected to process B; while the request is open neither process applies anything;
decline, expiry and agreement are seen on both; the undo is journaled once."""

from __future__ import annotations

import time
from contextlib import ExitStack

import pytest

from engine import find_variant

from .conftest import scratch_pg_database, serve_two
from .helpers import act_and_wait, connect, make_room

VARIANT = "thousand-ru"  # 3 seats; a bid after the deal's first call can be taken back
SEED = 7
pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def tb_database():
    """A PostgreSQL database of this module's own (``kozyr_tb_*``), dropped afterwards."""
    with scratch_pg_database(fsync=False) as url:
        yield url


@pytest.fixture
def two_servers(tb_database):
    yield from serve_two(tb_database)


def _plan() -> tuple[int, str, int, str]:
    """(first seat, its first call, the asker, the bid he will take back), from a
    reference match of the same seed: the asker acts right after the deal's first call
    (which shows every seat its hand and so cannot be taken back)."""
    match = find_variant(VARIANT).new_match(3, seed=SEED)
    first = match.to_act()[0]
    call = next(a for a in match.legal_actions(first) if a.startswith("bid:"))
    match.apply(first, call)
    asker = match.to_act()[0]
    return first, call, asker, next(a for a in match.legal_actions(asker) if a.startswith("bid:"))


def _table(a, b, stack):
    """The asker's seat on process A, both other seats on process B; the asker's bid made."""
    first, call, asker, bid = _plan()
    room, players = make_room(a, VARIANT, 3, seed=SEED)
    clients = [connect(a if seat == asker else b, stack, room["code"], player, seat)
               for seat, player in enumerate(players)]
    for c in clients:
        c.wait_view(0)
    act_and_wait(clients, first, call, 0)
    before = {c.seat: c.last_view["view"] for c in clients}
    act_and_wait(clients, asker, bid, 1)
    return room, clients, asker, bid, before


def _open(clients, asker: int) -> list[int]:
    clients[asker].send({"type": "takeback"})
    others = [s for s in range(3) if s != asker]
    for c in clients:
        msg, _ = c.recv_until(lambda m: m["type"] in ("takeback", "error"))
        assert msg["type"] == "takeback", msg
        assert msg["seat"] == asker and sorted(msg["waiting"]) == others
    return others


def _done(clients, result: str) -> list[dict]:
    out = []
    for c in clients:
        done, got = c.recv_until(lambda m: m["type"] == "takeback_done")
        assert done["result"] == result, done
        out.append(got)
    return out


@pytest.mark.timeout(120)
def test_takeback_asked_on_one_process_agreed_on_the_other(two_servers):
    a, b = two_servers
    with ExitStack() as stack:
        room, clients, asker, bid, before = _table(a, b, stack)
        match_id = room["match"]["id"]
        others = _open(clients, asker)
        # Process B holds a copy of A's request: its people get takeback_open, its bots wait.
        copy = b.app.state.live[match_id].takeback
        assert copy is not None and copy.owner == a.app.state.peers.fanout.origin
        clients[others[0]].act("pass", "while-open", 2)
        err, _ = clients[others[0]].recv_until(lambda m: m["type"] == "error")
        assert err["code"] == "takeback_open"
        # A bot's action on B (no client_id: the bots' way through the one path) waits too.
        kb = b.app.state
        live_b = kb.live[match_id]
        assert b.portal.call(kb.matches.submit, live_b, others[0], "pass", None, 2) is None
        assert live_b.version == 2
        # The first agreement (from B) is seen on both processes: one answer left.
        clients[others[0]].send({"type": "takeback_answer", "agree": True})
        for c in clients:
            msg, _ = c.recv_until(lambda m: m["type"] == "takeback")
            assert msg["waiting"] == [others[1]]
        clients[others[1]].send({"type": "takeback_answer", "agree": True})
        for c, got in zip(clients, _done(clients, "undone"), strict=True):
            view = next(m for m in got if m["type"] == "view")  # the view first, then the news
            assert view["version"] == 3 and view["view"] == before[c.seat]
        # The undo is journaled once, and both processes agree on the log.
        for server in (a, b):
            detail = server.get(f"/api/matches/{match_id}").json()
            assert detail["version"] == 3
            assert [t["undone"] for t in detail["takebacks"]] == [1]
        assert a.app.state.live[match_id].takeback is None
        assert b.app.state.live[match_id].takeback is None
        # The match goes on from either process.
        act_and_wait(clients, asker, bid, 3)


@pytest.mark.timeout(120)
def test_takeback_declined_and_expired_across_processes_change_nothing(two_servers):
    a, b = two_servers
    with ExitStack() as stack:
        room, clients, asker, _, _ = _table(a, b, stack)
        match_id = room["match"]["id"]
        after = {c.seat: c.last_view["view"] for c in clients}
        others = _open(clients, asker)
        clients[others[1]].send({"type": "takeback_answer", "agree": False})  # declined on B
        for got in _done(clients, "declined"):
            assert got[-1]["version"] == 2
        assert b.app.state.live[match_id].takeback is None
        a.app.state.settings.takeback_seconds = 0.5  # the owner's clock decides
        try:
            _open(clients, asker)
            started = time.monotonic()
            _done(clients, "expired")
            assert time.monotonic() - started < takebacks_grace()  # the owner's close, not the copy's own
        finally:
            a.app.state.settings.takeback_seconds = 30.0
        for server in (a, b):
            detail = server.get(f"/api/matches/{match_id}").json()
            assert detail["version"] == 2 and detail["takebacks"] == []
        for c in clients:
            assert c.last_view["view"] == after[c.seat]
        # A late answer on B is refused there; the match goes on.
        clients[others[0]].send({"type": "takeback_answer", "agree": True})
        err, _ = clients[others[0]].recv_until(lambda m: m["type"] == "error")
        assert err["code"] == "takeback_refused"


def takebacks_grace() -> float:
    from app.rooms.takeback import Takebacks
    return 0.5 + Takebacks.GRACE


@pytest.mark.timeout(120)
def test_host_ends_the_match_on_one_process_the_other_applies_nothing_more(two_servers):
    """The ``abandon`` entry travels by the same log: process B shows the room stopped and
    refuses the next action (README "Abandoned matches")."""
    a, b = two_servers
    with ExitStack() as stack:
        room, clients, asker, bid, _ = _table(a, b, stack)
        host = clients[0]  # the host's seat; its process is A when he is the asker, else B
        host.send({"type": "end_match"})
        for c in clients:
            c.recv_until(lambda m: m["type"] == "room" and m["room"]["status"] == "abandoned")
        other = clients[1] if asker == 0 else clients[asker]  # a seat on the other process
        other.act("pass", "after-end", 3)
        err, _ = other.recv_until(lambda m: m["type"] == "error")
        assert err["code"] == "illegal" and "stopped" in err["message"]
        for server in (a, b):
            detail = server.get(f"/api/matches/{room['match']['id']}").json()
            assert detail["status"] == "abandoned" and detail["version"] == 3
