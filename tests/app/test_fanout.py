"""Two server processes (two apps) on one PostgreSQL and one Redis serve the same room."""

from __future__ import annotations

import random
import time
from contextlib import ExitStack

import pytest

from engine import VARIANTS, find_variant

from .conftest import serve_two
from .helpers import Game, act_and_wait, auth, connect, make_room, short_options

pytestmark = [pytest.mark.postgres, pytest.mark.skipif(not VARIANTS, reason="no variant yet")]


@pytest.fixture
def two_servers(pg_database):
    yield from serve_two(pg_database)


@pytest.mark.timeout(120)
def test_a_room_split_over_two_processes(two_servers):
    a, b = two_servers
    variant_id = VARIANTS[0]
    seats = find_variant(variant_id).seat_counts[0]
    options = short_options(variant_id)
    rng = random.Random(21)
    room, players = make_room(a, variant_id, seats, options, seed=777)
    with ExitStack() as stack:
        # Seat 0 talks to process A, the others to process B.
        clients = []
        for seat, player in enumerate(players):
            c = connect(a if seat == 0 else b, stack, room["code"], player, seat)
            c.wait_view(0)
            clients.append(c)
        game = Game(variant_id, seats, 777, find_variant(variant_id).resolve_options(options),
                    clients, room, players)
        for _ in range(25):
            if game.ref.is_over():
                break
            game.step(rng)
        # A chat line said in B reaches A.
        clients[1].send({"type": "chat", "text": "Cześć z drugiego procesu"})
        msg, _ = clients[0].recv_until(lambda m: m["type"] == "chat")
        assert msg["text"] == "Cześć z drugiego procesu"
        # Both processes agree on the log.
        va = a.get(f"/api/matches/{room['match']['id']}").json()["version"]
        vb = b.get(f"/api/matches/{room['match']['id']}").json()["version"]
        assert va == vb == game.version
        assert a.get(f"/api/rooms/{room['code']}", headers=auth(players[0])).status_code == 200


@pytest.mark.timeout(120)
def test_a_match_loaded_here_and_then_played_elsewhere_unwatched_is_read_again_on_join(two_servers):
    """B loads the match when A starts it (the room note) and shows it without a second
    read; once B's sockets have left, A's actions are notes B does not follow, so the next
    socket on B reads the log first and gets the view at A's version, not B's old one."""
    a, b = two_servers
    variant_id = VARIANTS[0]
    seats = find_variant(variant_id).seat_counts[0]
    room, players = make_room(a, variant_id, seats, short_options(variant_id), start=False)
    code = room["code"]
    with ExitStack() as stack:
        watcher = connect(b, stack, code, players[1], 1)
        watcher.recv_until(lambda m: m["type"] == "welcome")
        r = a.post(f"/api/rooms/{code}/start", headers=auth(players[0]), json=None)
        assert r.status_code == 200, r.text
        watcher.wait_view(0)  # B loaded the match from the log on A's room note
    with ExitStack() as stack:
        clients = [connect(a, stack, code, p, s) for s, p in enumerate(players)]
        for c in clients:
            c.wait_view(0)
        version = 0
        live = a.app.state.live[r.json()["match"]["id"]]
        for _ in range(3):
            seat = live.engine.to_act()[0]
            action = live.engine.legal_actions(seat)[0]
            version = act_and_wait(clients, seat, action, version)
    with ExitStack() as stack:
        late = connect(b, stack, code, players[1], 1)
        view = late.wait_view(0)
        assert view["version"] == version == 3


def _followed_table(a, b, stack, seed: int):
    """A room played on A (every seat there) and watched on B by seat 1's second socket,
    three actions in: B has followed each one from its note.  (room, players, clients on
    A, B's LiveMatch, version.)"""
    variant_id = VARIANTS[0]
    seats = find_variant(variant_id).seat_counts[0]
    room, players = make_room(a, variant_id, seats, short_options(variant_id), seed=seed)
    clients = [connect(a, stack, room["code"], p, s) for s, p in enumerate(players)]
    for c in clients:
        c.wait_view(0)
    watcher = connect(b, stack, room["code"], players[1], 1)
    watcher.wait_view(0)
    live_a = a.app.state.live[room["match"]["id"]]
    version = 0
    for _ in range(3):
        seat = live_a.engine.to_act()[0]
        version = act_and_wait(clients, seat, live_a.engine.legal_actions(seat)[0], version)
    watcher.wait_view(version)  # B followed every note
    return room, players, clients, b.app.state.live[room["match"]["id"]], version


def _count_reads(live, monkeypatch) -> list[int]:
    """Count the catch-up reads of the log of ``live`` (it still reads)."""
    reads = [0]
    original = live.catch_up

    def counted(db):
        reads[0] += 1
        return original(db)
    monkeypatch.setattr(live, "catch_up", counted)
    return reads


@pytest.mark.timeout(120)
def test_a_join_to_a_match_followed_note_by_note_reads_no_log_and_a_resume_does(two_servers, monkeypatch):
    a, b = two_servers
    with ExitStack() as stack:
        room, players, _, live_b, version = _followed_table(a, b, stack, seed=41)
        reads = _count_reads(live_b, monkeypatch)
        joined = connect(b, stack, room["code"], players[0], 0)
        assert joined.wait_view(version)["version"] == version
        assert reads[0] == 0  # the join read nothing: memory followed every note
        resumed = connect(b, stack, room["code"], players[2], 2, hello=True, last_version=version)
        assert resumed.wait_view(version)["version"] == version
        assert reads[0] == 1  # a resume reads the log (its client may have seen more)


@pytest.mark.timeout(120)
def test_after_a_process_says_goodbye_the_next_join_reads_what_it_never_published(two_servers, monkeypatch):
    """Fault: A commits an action and its note never leaves (a process killed between its
    commit and its publish).  Once A's goodbye reaches B, B's next join reads the log and
    shows that action."""
    a, b = two_servers
    kozyr_a = a.app.state
    with ExitStack() as stack:
        room, players, clients, live_b, version = _followed_table(a, b, stack, seed=43)
        live_a = kozyr_a.live[room["match"]["id"]]

        async def lost(code: str, note: dict) -> None:
            return None
        monkeypatch.setattr(kozyr_a.peers, "publish", lost)
        seat = live_a.engine.to_act()[0]
        version = act_and_wait(clients, seat, live_a.engine.legal_actions(seat)[0], version)
        assert live_b.version == version - 1  # B never heard of it
        a.portal.call(kozyr_a.peers.fanout._send_presence, {"bye": True})
        deadline = time.monotonic() + 10
        while live_b.fresh and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not live_b.fresh
        joined = connect(b, stack, room["code"], players[0], 0)
        assert joined.wait_view(version)["version"] == version
        assert live_b.version == version


@pytest.mark.timeout(60)
def test_a_rename_reaches_the_other_process_at_once(two_servers):
    """B remembers a token's player (app/directory.py); a rename on A is forgotten on B
    too (the note on kozyr:players), long before the cache's 30 s are up."""
    from .helpers import new_player

    a, b = two_servers
    me = new_player(a, "Остап")
    assert b.get("/api/players/me", headers=auth(me)).json()["name"] == "Остап"  # B reads, remembers
    assert a.patch("/api/players/me", json={"name": "Остап Б."}, headers=auth(me)).status_code == 200
    deadline = time.monotonic() + 5
    while b.get("/api/players/me", headers=auth(me)).json()["name"] != "Остап Б.":
        assert time.monotonic() < deadline, "B still shows the old name"
        time.sleep(0.05)
