"""Turn-based rooms and the one deadline mechanism (issue 33; README "Pace, deadlines,
vacations"): a room's pace, a deadline kept in the database that fires once (a bot
plays the move, or the match waits), reminders, a take-back request holding the clock,
vacations, a restart, and two processes on PostgreSQL that fire a deadline once.

The deadlines' clock is moved by the tests (``app.state.clock.advance``); the
sweeper runs by hand (``deadline_sweeper=False``): nothing here sleeps for a deadline."""

from __future__ import annotations

import threading
import time
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from app.db import models as m

from .conftest import make_settings, scratch_pg_database, serve, serve_two
from .helpers import auth, connect, make_room, new_player

HOUR = 3600.0
TURN = {"pace": "turn", "move_seconds": HOUR, "takeback": "agree"}


@pytest.fixture(scope="module")
def own_database(database_url, tmp_path_factory):
    """A database of this module's own, of the session's kind: its sweeps (with the clock
    moved on by hours) must find no other test's deadlines due."""
    if database_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path_factory.mktemp('deadlines') / 'kozyr.db'}"
    else:
        with scratch_pg_database(fsync=False) as url:
            yield url


@pytest.fixture(scope="module")
def dclient(own_database):
    with serve(own_database, bot_delay=0.0, bot_think_ms=15, deadline_sweeper=False) as c:
        yield c


def row_of(k, match_id: str) -> dict | None:
    with k.db.read() as s:
        row = s.get(m.Deadline, match_id)
        return None if row is None else {c: getattr(row, c) for c in (
            "seat", "version", "due_at", "remind_at", "paused_left", "resume_at", "state", "seconds")}


def aware(t: datetime | None) -> datetime | None:
    return t if t is None or t.tzinfo else t.replace(tzinfo=UTC)


def wait_for(pred, timeout: float = 10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = pred()
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError("the condition never held")


def turn_match(client, settings: dict | None = None, seats: int = 2, variant: str = "thousand-1000-2p"):
    room, players = make_room(client, variant, seats, settings={**TURN, **(settings or {})}, seed=7)
    k = client.app.state
    match_id = room["match"]["id"]
    row = wait_for(lambda: row_of(k, match_id))  # the bots' task writes it after the start
    return room, players, match_id, row


def actions_of(k, match_id: str) -> list[tuple[int, int, str]]:
    with k.db.read() as s:
        return [tuple(r) for r in s.execute(select(m.Action.seq, m.Action.seat, m.Action.action)
                                            .where(m.Action.match_id == match_id).order_by(m.Action.seq))]


def test_a_rooms_pace_is_kept_changed_by_the_host_and_checked(dclient):
    host, other = new_player(dclient), new_player(dclient)
    r = dclient.post("/api/rooms", json={"variant": "thousand-1001", "pace": "turn", "move_seconds": 43200,
                                         "on_deadline": "wait", "vacation_days": 7}, headers=auth(host))
    assert r.status_code == 201, r.text
    room = r.json()
    assert (room["pace"], room["move_seconds"], room["on_deadline"], room["vacation_days"]) == ("turn", 43200, "wait", 7)
    code = room["code"]
    # Bad input: a clear 422 and nothing changes.
    for bad in ({"move_seconds": 10}, {"pace": "slow"}, {"on_deadline": "never"}, {"vacation_days": 99}):
        r = dclient.patch(f"/api/rooms/{code}", json=bad, headers=auth(host))
        assert r.status_code == 422, (bad, r.text)
    assert dclient.patch(f"/api/rooms/{code}", json={"pace": "live"}, headers=auth(other)).status_code == 403
    got = dclient.get(f"/api/rooms/{code}").json()
    assert (got["pace"], got["move_seconds"], got["on_deadline"], got["vacation_days"]) == ("turn", 43200, "wait", 7)
    # Only the fields given change.
    r = dclient.patch(f"/api/rooms/{code}", json={"move_seconds": 300}, headers=auth(host))
    assert r.status_code == 200 and (r.json()["pace"], r.json()["move_seconds"]) == ("turn", 300)
    # A turn-based room without a length gets the server's default (24 h).
    r = dclient.post("/api/rooms", json={"variant": "thousand-1001", "pace": "turn"}, headers=auth(host))
    assert r.json()["move_seconds"] == 86400
    # A live room stays as before.
    r = dclient.post("/api/rooms", json={"variant": "thousand-1001"}, headers=auth(host))
    assert (r.json()["pace"], r.json()["move_seconds"]) == ("live", None)


def test_again_keeps_the_rooms_pace(dclient):
    room, players, match_id, _ = turn_match(dclient, {"on_deadline": "wait", "vacation_days": 3})
    r = dclient.post(f"/api/rooms/{room['code']}/again", headers=auth(players[1]))
    assert r.status_code == 201, r.text
    again = r.json()["room"]
    assert (again["pace"], again["move_seconds"], again["on_deadline"], again["vacation_days"]) == \
        ("turn", HOUR, "wait", 3)


def test_a_passed_deadline_lets_the_seats_bot_play_that_one_move(dclient):
    room, players, match_id, row = turn_match(dclient)
    k = dclient.app.state
    live = k.live[match_id]
    seat, version = row["seat"], row["version"]
    assert seat in live.engine.to_act() and version == live.version == 0
    assert row["state"] == "running" and row["seconds"] == HOUR
    assert aware(row["due_at"]) - k.clock.now() > timedelta(minutes=59)
    # Not yet due: nothing fires.
    k.clock.advance(HOUR - 60)
    assert match_id not in dclient.portal.call(k.deadlines.sweep)
    k.clock.advance(61)
    assert match_id in dclient.portal.call(k.deadlines.sweep)
    wait_for(lambda: live.version == 1)
    assert actions_of(k, match_id)[0][:2] == (0, seat)  # the seat's own move, by its bot
    assert seat not in k.bots.takeover_of(match_id)  # the seat stays the player's
    nxt = wait_for(lambda: (r := row_of(k, match_id)) and r["version"] == 1 and r)
    assert nxt["seat"] == live.engine.to_act()[0] and aware(nxt["due_at"]) > k.clock.now() + timedelta(minutes=59)
    # The same deadline never fires twice.
    assert match_id not in dclient.portal.call(k.deadlines.sweep)
    assert live.version == 1


def test_a_room_that_waits_marks_the_deadline_expired_and_the_match_waits(dclient):
    room, players, match_id, row = turn_match(dclient, {"on_deadline": "wait"})
    k = dclient.app.state
    live = k.live[match_id]
    seat = row["seat"]
    with ExitStack() as stack:
        watcher = connect(dclient, stack, room["code"], players[1 - seat], 1 - seat)
        k.clock.advance(HOUR + 1)
        assert match_id in dclient.portal.call(k.deadlines.sweep)
        timer, _ = watcher.recv_until(lambda msg: msg["type"] == "timer" and msg["expired"])
        assert timer["seat"] == seat and timer["due"] is None and timer["pace"] == "turn"
    assert row_of(k, match_id)["state"] == "expired" and live.version == 0
    assert match_id not in dclient.portal.call(k.deadlines.sweep)  # nothing more happens by itself
    games = dclient.get("/api/players/me/games", headers=auth(players[seat])).json()
    mine = next(g for g in games if g["id"] == match_id)
    assert mine["my_turn"] and mine["expired"] and mine["pace"] == "turn" and mine["due"] is None
    # The player acts after all: the match goes on with a fresh deadline.
    with ExitStack() as stack:
        c = connect(dclient, stack, room["code"], players[seat], seat)
        view, _ = c.recv_until(lambda msg: msg["type"] == "view")
        legal = view["view"]["legal"]
        c.act("pass" if "pass" in legal else legal[0], "late", version=0)
        c.recv_until(lambda msg: msg["type"] == "ack")
    nxt = wait_for(lambda: (r := row_of(k, match_id)) and r["version"] == 1 and r)
    assert nxt["state"] == "running"


def test_a_reminder_goes_out_when_a_quarter_of_the_time_is_left(dclient):
    room, players, match_id, row = turn_match(dclient)
    k = dclient.app.state
    sent: list[tuple] = []
    real, k.deadlines.notify = k.deadlines.notify, lambda player, kind, **facts: sent.append((player, kind, facts))
    try:
        assert aware(row["remind_at"]) == aware(row["due_at"]) - timedelta(seconds=HOUR / 4)
        k.clock.advance(HOUR * 0.75 - 30)
        dclient.portal.call(k.deadlines.sweep)
        assert not [x for x in sent if x[2]["match"] == match_id and x[1] == "reminder"]
        k.clock.advance(60)
        dclient.portal.call(k.deadlines.sweep)
        reminders = [x for x in sent if x[2]["match"] == match_id and x[1] == "reminder"]
        assert len(reminders) == 1 and reminders[0][0] == players[row["seat"]]["id"]
        assert reminders[0][2]["room"] == room["code"] and reminders[0][2]["due"]
        dclient.portal.call(k.deadlines.sweep)  # once only
        assert len([x for x in sent if x[2]["match"] == match_id and x[1] == "reminder"]) == 1
    finally:
        k.deadlines.notify = real


def test_the_awaited_player_is_told_it_is_his_turn(dclient):
    k = dclient.app.state
    sent: list[tuple] = []
    real, k.deadlines.notify = k.deadlines.notify, lambda player, kind, **facts: sent.append((player, kind, facts))
    try:
        room, players, match_id, row = turn_match(dclient)
        turns = wait_for(lambda: [x for x in sent if x[1] == "turn" and x[2]["match"] == match_id])
        assert turns[0][0] == players[row["seat"]]["id"] and turns[0][2]["due"]
    finally:
        k.deadlines.notify = real


def test_a_take_back_request_holds_the_clock_and_its_answer_lets_it_run(dclient):
    room, players, match_id, row = turn_match(dclient)
    k = dclient.app.state
    live = k.live[match_id]
    seat = row["seat"]
    with ExitStack() as stack:
        cs = {n: connect(dclient, stack, room["code"], players[n], n) for n in (0, 1)}
        view, _ = cs[seat].recv_until(lambda msg: msg["type"] == "view")
        legal = view["view"]["legal"]
        cs[seat].act("pass" if "pass" in legal else legal[0], "m1", version=0)
        cs[seat].recv_until(lambda msg: msg["type"] == "ack")
        running = wait_for(lambda: (r := row_of(k, match_id)) and r["version"] == 1 and r)
        k.clock.advance(600)
        cs[seat].send({"type": "takeback"})
        timer, _ = cs[1 - seat].recv_until(lambda msg: msg["type"] == "timer" and msg["paused"])
        held = row_of(k, match_id)
        assert held["due_at"] is None and abs(held["paused_left"] - (HOUR - 600)) < 5
        assert timer["due"] is None and abs(timer["seconds"] - (HOUR - 600)) < 5
        # Paused: however long the request stays open, nothing fires.
        k.clock.advance(HOUR * 2)
        assert match_id not in dclient.portal.call(k.deadlines.sweep)
        cs[1 - seat].send({"type": "takeback_answer", "agree": False})
        cs[seat].recv_until(lambda msg: msg["type"] == "takeback_done")
        again = wait_for(lambda: (r := row_of(k, match_id)) and r["due_at"] is not None and r)
        left = (aware(again["due_at"]) - k.clock.now()).total_seconds()
        assert abs(left - (HOUR - 600)) < 5 and again["version"] == running["version"] == live.version


def test_a_vacation_holds_the_clock_within_the_rooms_limit(dclient):
    room, players, match_id, row = turn_match(dclient, {"vacation_days": 2})
    k = dclient.app.state
    seat = row["seat"]
    me = players[seat]
    now = k.clock.now()
    left = (aware(row["due_at"]) - now).total_seconds()
    # Bad input: a clear error, nothing changes.
    for bad in ({"until": "2027-01-01T00:00:00"}, {"until": "soon"}, {}):  # no zone, no time
        r = dclient.put("/api/players/me/away", json=bad, headers=auth(me))
        assert r.status_code == 422, (bad, r.text)
    assert dclient.get("/api/players/me", headers=auth(me)).json()["away_until"] is None
    assert row_of(k, match_id)["due_at"] == row["due_at"]
    # A time past is "back now"; one far ahead is kept as 365 days.
    r = dclient.put("/api/players/me/away", json={"until": (now - timedelta(days=1)).isoformat()}, headers=auth(me))
    assert r.status_code == 200 and r.json()["away_until"] is None
    for far in ((now + timedelta(days=400)).isoformat(), "9999-12-31T23:59:59-01:00"):
        r = dclient.put("/api/players/me/away", json={"until": far}, headers=auth(me))
        kept = datetime.fromisoformat(r.json()["away_until"])
        assert abs((kept - (k.clock.now() + timedelta(days=365))).total_seconds()) < 60
    r = dclient.put("/api/players/me/away", json={"until": "0001-01-01T00:00:00+01:00"}, headers=auth(me))
    assert r.status_code == 200 and r.json()["away_until"] is None  # the calendar's edge: no 500
    assert dclient.put("/api/players/me/away", json={"until": None}, headers=auth(me)).json()["away_until"] is None
    # Away for five days: the room holds the clock for two.
    until = now + timedelta(days=5)
    r = dclient.put("/api/players/me/away", json={"until": until.isoformat()}, headers=auth(me))
    assert r.status_code == 200, r.text
    assert dclient.get("/api/players/me", headers=auth(me)).json()["away_until"]
    held = row_of(k, match_id)
    resume = aware(held["resume_at"])
    assert abs((resume - (now + timedelta(days=2))).total_seconds()) < 5
    assert abs((aware(held["due_at"]) - resume).total_seconds() - left) < 5
    with ExitStack() as stack:
        c = connect(dclient, stack, room["code"], players[1 - seat], 1 - seat)
        timer, _ = c.recv_until(lambda msg: msg["type"] == "timer")
        assert timer["paused"] and abs(timer["seconds"] - left) < 5
    k.clock.advance(HOUR * 24)  # a day later: still held
    assert match_id not in dclient.portal.call(k.deadlines.sweep)
    # Back early: the clock runs on with the time that was left.
    r = dclient.put("/api/players/me/away", json={"until": None}, headers=auth(me))
    assert r.status_code == 200 and r.json()["away_until"] is None
    back = row_of(k, match_id)
    assert back["resume_at"] is None
    assert abs((aware(back["due_at"]) - k.clock.now()).total_seconds() - left) < 5


def test_a_deadline_survives_a_restart_and_fires_after_it(own_database):
    url = own_database
    extra = dict(bot_delay=0.0, bot_think_ms=15, deadline_sweeper=False)
    with serve(url, **extra) as c1:
        room, players, match_id, row = turn_match(c1)
        offset = c1.app.state.clock.offset
    with serve(url, **extra) as c2:
        k = c2.app.state
        k.clock.advance(offset)
        with ExitStack() as stack:
            c = connect(c2, stack, room["code"], players[0], 0)
            timer, _ = c.recv_until(lambda msg: msg["type"] == "timer" and msg["seat"] is not None)
        assert timer["seat"] == row["seat"] and datetime.fromisoformat(timer["due"]) == aware(row["due_at"])
        k.clock.advance(HOUR + 1)
        assert match_id in c2.portal.call(k.deadlines.sweep)
        wait_for(lambda: len(actions_of(k, match_id)) == 1)


def test_a_clock_file_moves_a_servers_deadline_clock(tmp_path):
    from app.clock import Clock
    f = tmp_path / "offset"
    clock = Clock(str(f))
    before = clock.now()
    f.write_text("7200")
    assert timedelta(hours=2) <= clock.now() - before < timedelta(hours=2, minutes=1)


@pytest.mark.postgres
def test_two_processes_fire_a_deadline_once():
    """Both processes sweep the same due deadline at the same moment: one claims it
    (FOR UPDATE SKIP LOCKED), one move is made.  A database of its own: the moved clocks
    would find other tests' deadlines due too."""
    with scratch_pg_database(fsync=False) as url:
        _fire_once_with_two_processes(url)


def _fire_once_with_two_processes(url: str) -> None:
    gen = serve_two(url, bot_delay=0.0, deadline_sweeper=False)  # they sweep when told
    a, b = next(gen)
    try:
        ka, kb = a.app.state, b.app.state
        fired_before = ka.deadlines.fired + kb.deadlines.fired
        room, players, match_id, row = turn_match(a)
        ka.clock.advance(HOUR + 5)
        kb.clock.advance(HOUR + 5)
        results: list[list[str]] = []
        go = threading.Barrier(2)

        def sweep(client):
            go.wait()
            results.append(client.portal.call(client.app.state.deadlines.sweep))
        threads = [threading.Thread(target=sweep, args=(c,)) for c in (a, b)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert sorted(r.count(match_id) for r in results) == [0, 1]
        assert ka.deadlines.fired + kb.deadlines.fired - fired_before == 1
        wait_for(lambda: len(actions_of(ka, match_id)) >= 1)
        with ka.db.read() as s:
            moves = s.scalar(select(func.count()).select_from(m.Action).where(m.Action.match_id == match_id))
        assert moves == 1
    finally:
        gen.close()


def test_settings_default_move_seconds_is_a_day():
    assert make_settings("sqlite://").move_seconds == 86400
