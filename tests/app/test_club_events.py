"""Club events (issue 37 items 4 and 6; README "Clubs", Events): admins create, change and
cancel; members answer and change their answer; refusals change nothing; the club page
lists the upcoming ones with counts and my answer; the reminder an hour before goes once
(the clock moved, never slept), also with two processes on PostgreSQL; the .ics parses
and keeps the zone.  On SQLite and PostgreSQL (conftest's ``database_url``)."""

from __future__ import annotations

import os
import threading
from contextlib import ExitStack
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from alembic import command
from icalendar import Calendar
from sqlalchemy import create_engine, inspect

from app.club_events import REMIND_BEFORE
from app.config import sqlalchemy_url
from app.db.migrate import alembic_config

from .conftest import scratch_pg_database, serve, serve_two
from .helpers import auth, new_player
from .test_clubs import make_club, page, refused

WARSAW = "Europe/Warsaw"


@pytest.fixture(scope="module")
def own_database(database_url, tmp_path_factory):
    """A database of this module's own: its sweeps, with the clock moved on by days, must
    find no other test's reminders due (nor other tests' ours)."""
    if database_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path_factory.mktemp('club_events') / 'kozyr.db'}"
    else:
        with scratch_pg_database(fsync=False) as url:
            yield url


@pytest.fixture(scope="module")
def eclient(own_database):
    with serve(own_database, deadline_sweeper=False) as c:  # the tests sweep by hand
        yield c


def club_with(c, members: int = 2) -> tuple[int, dict, list[dict]]:
    """A private club: its owner and ``members`` active members (by an invite link)."""
    owner = new_player(c)
    cid = make_club(c, owner)["club"]["id"]
    token = c.post(f"/api/clubs/{cid}/invites", headers=auth(owner)).json()["token"]
    people = [new_player(c) for _ in range(members)]
    for p in people:
        assert c.post(f"/api/club-invites/{token}/join", headers=auth(p)).status_code == 200
    return cid, owner, people


def later(c, **delta) -> datetime:
    """A time ahead of the app's clock (which the tests move), in Warsaw's zone."""
    return (c.app.state.clock.now() + timedelta(**delta)).astimezone(ZoneInfo(WARSAW)).replace(microsecond=0)


def new_event(c, cid, who, **body) -> dict:
    r = c.post(f"/api/clubs/{cid}/events", headers=auth(who), json={
        "title": "Пятничная тысяча", "starts_at": later(c, days=3).isoformat(), "time_zone": WARSAW, **body})
    assert r.status_code == 201, r.text
    return r.json()


def test_an_admin_creates_changes_and_cancels_an_event(eclient):
    c = eclient
    cid, owner, (ann, bob) = club_with(c)
    preset = c.post(f"/api/clubs/{cid}/presets", headers=auth(owner),
                    json={"name": "Наша", "variant": "thousand-1000"}).json()
    start = later(c, days=3)
    ev = new_event(c, cid, owner, starts_at=start.isoformat(), duration_minutes=150, note="у Ани",
                   preset=preset["id"])
    assert ev["title"] == "Пятничная тысяча" and ev["time_zone"] == WARSAW and ev["note"] == "у Ани"
    assert datetime.fromisoformat(ev["starts_at"]) == start and ev["starts_at"].endswith("+00:00")  # kept in UTC
    assert datetime.fromisoformat(ev["local_start"]).utcoffset() == start.utcoffset()  # shown in its own zone
    assert ev["duration_minutes"] == 150 and ev["preset"] == {"id": preset["id"], "name": "Наша"}
    assert ev["counts"] == {"yes": 0, "no": 0, "maybe": 0} and ev["my_answer"] is None and ev["answers"] == []
    eid = ev["id"]
    # the club page lists it for every member
    assert [e["id"] for e in page(c, cid, ann)["events"]] == [eid]
    # a change: only the fields given; the preset dropped by null
    r = c.patch(f"/api/clubs/{cid}/events/{eid}", headers=auth(owner),
                json={"title": "Тысяча в субботу", "starts_at": (start + timedelta(days=1)).isoformat(), "preset": None})
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["title"] == "Тысяча в субботу" and got["preset"] is None and got["note"] == "у Ани"
    assert got["duration_minutes"] == 150
    assert datetime.fromisoformat(got["starts_at"]) == start + timedelta(days=1)
    # a member may not change or cancel it; an outsider does not see a private club's event
    refused(c.patch(f"/api/clubs/{cid}/events/{eid}", headers=auth(ann), json={"title": "x"}), 403, "not_club_admin")
    refused(c.post(f"/api/clubs/{cid}/events/{eid}/cancel", headers=auth(ann)), 403, "not_club_admin")
    refused(c.post(f"/api/clubs/{cid}/events", headers=auth(ann), json={
        "title": "x", "starts_at": later(c, days=1).isoformat(), "time_zone": WARSAW}), 403, "not_club_admin")
    eve = new_player(c)
    refused(c.get(f"/api/clubs/{cid}/events/{eid}", headers=auth(eve)), 404, "unknown_club")
    refused(c.put(f"/api/clubs/{cid}/events/{eid}/rsvp", headers=auth(eve), json={"answer": "yes"}), 404,
            "unknown_club")
    refused(c.get(f"/api/clubs/{cid}/events/{eid}/event.ics", headers=auth(eve)), 404, "unknown_club")
    refused(c.get(f"/api/clubs/{cid}/events/99999", headers=auth(owner)), 404, "unknown_event")
    other, other_owner, _ = club_with(c, 0)
    refused(c.get(f"/api/clubs/{other}/events/{eid}", headers=auth(other_owner)), 404, "unknown_event")
    # cancelled: off the page, no more answers or changes
    r = c.post(f"/api/clubs/{cid}/events/{eid}/cancel", headers=auth(owner))
    assert r.status_code == 200 and r.json()["cancelled"] is True
    assert page(c, cid, ann)["events"] == []
    assert c.get(f"/api/clubs/{cid}/events/{eid}", headers=auth(ann)).json()["cancelled"] is True
    refused(c.post(f"/api/clubs/{cid}/events/{eid}/cancel", headers=auth(owner)), 409, "event_cancelled")
    refused(c.patch(f"/api/clubs/{cid}/events/{eid}", headers=auth(owner), json={"title": "x"}), 409,
            "event_cancelled")
    refused(c.put(f"/api/clubs/{cid}/events/{eid}/rsvp", headers=auth(ann), json={"answer": "yes"}), 409,
            "event_cancelled")


def test_bad_input_is_refused_and_changes_nothing(eclient):
    c = eclient
    cid, owner, _ = club_with(c, 0)
    ev = new_event(c, cid, owner)
    start = later(c, days=2).isoformat()
    bad = [
        ({"title": "x", "starts_at": start, "time_zone": "Mars/Olympus"}, "invalid_event"),
        ({"title": "x", "starts_at": start, "time_zone": "Europe/Nowhere"}, "invalid_event"),
        ({"title": "x", "starts_at": start, "time_zone": "Europe"}, "invalid_event"),  # a folder of the zones
        ({"title": "x", "starts_at": "0001-01-01T00:00:00+05:00", "time_zone": WARSAW}, "invalid_event"),
        ({"title": "x", "starts_at": "9999-12-31T23:00:00-05:00", "time_zone": WARSAW}, "invalid_event"),
        ({"title": "x", "starts_at": later(c, hours=-1).isoformat(), "time_zone": WARSAW}, "invalid_event"),
        ({"title": "x", "starts_at": later(c, days=800).isoformat(), "time_zone": WARSAW}, "invalid_event"),
        ({"title": "x", "starts_at": "2031-01-01T19:00:00", "time_zone": WARSAW}, "invalid_request"),  # no zone
        ({"title": "x", "starts_at": 1893456000, "time_zone": WARSAW}, "invalid_request"),
        ({"title": "\u200b", "starts_at": start, "time_zone": WARSAW}, "invalid_name"),
        ({"title": "x", "starts_at": start, "time_zone": WARSAW, "duration_minutes": 0}, "invalid_request"),
        ({"title": "x", "starts_at": start, "time_zone": WARSAW, "note": "\x07"}, "invalid_name"),
        ({"title": "x", "starts_at": start, "time_zone": "../etc/passwd"}, "invalid_request"),
    ]
    for body, code in bad:
        refused(c.post(f"/api/clubs/{cid}/events", headers=auth(owner), json=body), 422, code)
    refused(c.post(f"/api/clubs/{cid}/events", headers=auth(owner), json={
        "title": "x", "starts_at": start, "time_zone": WARSAW, "preset": 99999}), 404, "unknown_preset")
    refused(c.patch(f"/api/clubs/{cid}/events/{ev['id']}", headers=auth(owner),
                    json={"title": "new", "time_zone": "Nowhere/City"}), 422, "invalid_event")
    refused(c.put(f"/api/clubs/{cid}/events/{ev['id']}/rsvp", headers=auth(owner), json={"answer": "perhaps"}), 422,
            "invalid_request")
    events = page(c, cid, owner)["events"]
    assert [(e["id"], e["title"], e["time_zone"]) for e in events] == [(ev["id"], ev["title"], WARSAW)]
    assert events[0]["counts"] == {"yes": 0, "no": 0, "maybe": 0}


def test_members_answer_change_it_and_the_page_counts(eclient):
    c = eclient
    cid, owner, (ann, bob) = club_with(c)
    ev = new_event(c, cid, owner)
    rsvp = f"/api/clubs/{cid}/events/{ev['id']}/rsvp"
    assert c.put(rsvp, headers=auth(ann), json={"answer": "yes"}).json()["my_answer"] == "yes"
    assert c.put(rsvp, headers=auth(bob), json={"answer": "maybe"}).status_code == 200
    r = c.put(rsvp, headers=auth(ann), json={"answer": "no"})  # changed, not added
    assert r.json()["counts"] == {"yes": 0, "no": 1, "maybe": 1}
    assert [(x["player"], x["answer"]) for x in r.json()["answers"]] == [(bob["id"], "maybe"), (ann["id"], "no")]
    mine = page(c, cid, bob)["events"][0]
    assert mine["my_answer"] == "maybe" and mine["counts"] == {"yes": 0, "no": 1, "maybe": 1}
    # a listed club's visitor sees the event but may not answer; one who leaves is not counted
    c.patch(f"/api/clubs/{cid}", headers=auth(owner), json={"listed": True})
    visitor = new_player(c)
    assert c.get(f"/api/clubs/{cid}/events/{ev['id']}", headers=auth(visitor)).status_code == 200
    refused(c.put(rsvp, headers=auth(visitor), json={"answer": "yes"}), 403, "not_member")
    assert c.post(f"/api/clubs/{cid}/leave", headers=auth(bob)).status_code == 204
    assert page(c, cid, owner)["events"][0]["counts"] == {"yes": 0, "no": 1, "maybe": 0}
    # answers close when it starts; the page keeps it until it ends
    c.app.state.clock.advance(3 * 86400 + 60)
    try:
        refused(c.put(rsvp, headers=auth(ann), json={"answer": "yes"}), 409, "event_started")
        assert [e["id"] for e in page(c, cid, ann)["events"]] == [ev["id"]]
        c.app.state.clock.advance(120 * 60)
        assert page(c, cid, ann)["events"] == []
    finally:
        c.app.state.clock.advance(-(3 * 86400 + 60 + 120 * 60))


def test_the_reminder_goes_once_an_hour_before_to_yes_and_maybe(eclient):
    """README "Clubs", Events: REMIND_BEFORE the start, to the active members who said yes
    or maybe, kind club_event; claimed in the database, so a second sweep sends nothing;
    a moved start reminds again before the new time; a cancelled event never."""
    c = eclient
    k = c.app.state
    cid, owner, (ann, bob, cara) = club_with(c, 3)
    ev = new_event(c, cid, owner, starts_at=later(c, hours=5).isoformat())
    gone = new_event(c, cid, owner, starts_at=later(c, hours=5).isoformat(), title="Отменится")
    for who, answer in ((ann, "yes"), (bob, "maybe"), (cara, "no")):
        c.put(f"/api/clubs/{cid}/events/{ev['id']}/rsvp", headers=auth(who), json={"answer": answer})
    c.put(f"/api/clubs/{cid}/events/{gone['id']}/rsvp", headers=auth(ann), json={"answer": "yes"})
    c.post(f"/api/clubs/{cid}/events/{gone['id']}/cancel", headers=auth(owner))
    sent: list[tuple] = []
    real, k.club_events.notify = k.club_events.notify, lambda player, kind, **facts: sent.append((player, kind, facts))
    moved = 0.0
    try:
        assert c.portal.call(k.club_events.sweep) == []
        step = 4 * 3600 - REMIND_BEFORE.total_seconds() + 3600 - 30  # 30 s before the reminder
        k.clock.advance(step)
        moved += step
        assert c.portal.call(k.club_events.sweep) == [] and sent == []
        k.clock.advance(60)
        moved += 60
        assert c.portal.call(k.club_events.sweep) == [ev["id"]]
        assert sorted(p for p, _, _ in sent) == sorted([ann["id"], bob["id"]])
        assert {kind for _, kind, _ in sent} == {"club_event"}
        facts = sent[0][2]
        assert facts["club"] == cid and facts["event"] == ev["id"] and facts["title"] == "Пятничная тысяча"
        assert facts["time_zone"] == WARSAW and datetime.fromisoformat(facts["starts"]) == datetime.fromisoformat(ev["starts_at"])
        assert c.portal.call(k.club_events.sweep) == [] and len(sent) == 2  # once only
        # moved two hours later: reminded again before the new start
        r = c.patch(f"/api/clubs/{cid}/events/{ev['id']}", headers=auth(owner),
                    json={"starts_at": (datetime.fromisoformat(ev["starts_at"]) + timedelta(hours=2)).isoformat()})
        assert r.status_code == 200, r.text
        assert [f.get("change") for _, _, f in sent[2:]] == ["moved", "moved"]  # told at once
        k.clock.advance(2 * 3600)
        moved += 2 * 3600
        assert c.portal.call(k.club_events.sweep) == [ev["id"]] and len(sent) == 6
        assert [f.get("change") for _, _, f in sent[4:]] == [None, None]  # the reminder again
    finally:
        k.club_events.notify = real
        k.clock.advance(-moved)


def test_a_move_or_a_cancel_tells_yes_and_maybe_at_once(eclient):
    """README "Clubs", Events, Moved or cancelled: those who said yes or maybe hear of a
    new start and of a cancel at once (kind club_event with ``change``), the admin who did
    it and those who said no are not told; a change of the title alone tells nobody."""
    c = eclient
    k = c.app.state
    cid, owner, (ann, bob, cara) = club_with(c, 3)
    ev = new_event(c, cid, owner)
    for who, answer in ((ann, "yes"), (bob, "maybe"), (cara, "no"), (owner, "yes")):
        c.put(f"/api/clubs/{cid}/events/{ev['id']}/rsvp", headers=auth(who), json={"answer": answer})
    sent: list[tuple] = []
    real, k.club_events.notify = k.club_events.notify, lambda player, kind, **facts: sent.append((player, kind, facts))
    try:
        r = c.patch(f"/api/clubs/{cid}/events/{ev['id']}", headers=auth(owner), json={"title": "Тысяча в субботу"})
        assert r.status_code == 200 and sent == []
        new_start = datetime.fromisoformat(ev["starts_at"]) + timedelta(days=1, hours=2)
        r = c.patch(f"/api/clubs/{cid}/events/{ev['id']}", headers=auth(owner), json={"starts_at": new_start.isoformat()})
        assert r.status_code == 200, r.text
        assert sorted(p for p, _, _ in sent) == sorted([ann["id"], bob["id"]])
        assert all(kind == "club_event" and f["change"] == "moved" and f["title"] == "Тысяча в субботу"
                   and datetime.fromisoformat(f["starts"]) == new_start and f["event"] == ev["id"]
                   for _, kind, f in sent)
        sent.clear()
        # the same start again is no move
        assert c.patch(f"/api/clubs/{cid}/events/{ev['id']}", headers=auth(owner),
                       json={"starts_at": new_start.isoformat()}).status_code == 200
        assert sent == []
        # a refused change tells nobody
        refused(c.patch(f"/api/clubs/{cid}/events/{ev['id']}", headers=auth(ann),
                        json={"starts_at": (new_start + timedelta(hours=1)).isoformat()}), 403, "not_club_admin")
        assert sent == []
        assert c.post(f"/api/clubs/{cid}/events/{ev['id']}/cancel", headers=auth(owner)).status_code == 200
        assert sorted(p for p, _, _ in sent) == sorted([ann["id"], bob["id"]])
        assert {f["change"] for _, _, f in sent} == {"cancelled"}
    finally:
        k.club_events.notify = real


def test_the_words_of_a_move_and_a_cancel(eclient):
    from app.push.notifier import Event

    n = eclient.app.state.notifier
    facts = {"club": 7, "club_name": "Четверги", "event": 3, "title": "Тысяча",
             "starts": "2031-01-10T18:00:00+00:00", "time_zone": WARSAW}
    moved = n.compose([Event(5, "club_event", None, None, {**facts, "change": "moved"})], "ru", {}, ZoneInfo("UTC"))
    assert moved == {"title": "Перенесено: Тысяча", "body": "Четверги: «Тысяча» теперь начинается 2031-01-10 19:00 CET.",
                     "url": "/#/club/7", "tag": "club-event-3"}
    off = n.compose([Event(5, "club_event", None, None, {**facts, "change": "cancelled"})], "pl", {}, ZoneInfo("UTC"))
    assert off["title"] == "Odwołane: Тысяча" and off["body"] == "Четверги: „Тысяча” (2031-01-10 19:00 CET) się nie odbędzie."


def test_the_notification_names_the_event_in_its_zone_and_opens_the_club(eclient):
    from app.push.notifier import Event

    n = eclient.app.state.notifier
    e = Event(5, "club_event", None, None, {"club": 7, "club_name": "Четверги", "event": 3, "title": "Тысяча",
                                            "starts": "2031-01-10T18:00:00+00:00", "time_zone": WARSAW})
    note = n.compose([e], "ru", {}, ZoneInfo("UTC"))
    assert note == {"title": "Скоро: Тысяча", "body": "Четверги: «Тысяча» начинается 2031-01-10 19:00 CET.",
                    "url": "/#/club/7", "tag": "club-event-3"}
    assert n.compose([e], "en", {}, ZoneInfo("UTC"))["body"] == "Четверги: Тысяча starts 2031-01-10 19:00 CET."


def test_the_player_chooses_club_event_notifications(eclient):
    c = eclient
    p = new_player(c)
    assert c.get("/api/players/me/notifications", headers=auth(p)).json()["kinds"]["club_event"] is True
    kinds = {k: True for k in ("turn", "reminder", "call", "takeback", "finished", "chat")}
    refused(c.put("/api/players/me/notifications", headers=auth(p), json={"kinds": kinds}), 422, "invalid_request")
    r = c.put("/api/players/me/notifications", headers=auth(p), json={"kinds": {**kinds, "club_event": False}})
    assert r.status_code == 200 and r.json()["kinds"]["club_event"] is False


def test_the_ics_file_parses_and_keeps_the_zone(eclient):
    c = eclient
    cid, owner, (ann,) = club_with(c, 1)
    start = later(c, days=10).replace(hour=19, minute=0, second=0)
    ev = new_event(c, cid, owner, starts_at=start.isoformat(), duration_minutes=90, note="Адрес: ул. Мира, 5; вход со двора")
    r = c.get(ev["ics_path"], headers=auth(ann))
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/calendar")
    assert "attachment" in r.headers["content-disposition"]
    assert b"\r\n" in r.content and all(len(line) <= 75 for line in r.content.split(b"\r\n"))  # RFC 5545 folding
    cal = Calendar.from_ical(r.content)
    assert cal["VERSION"] == "2.0" and cal["PRODID"]
    [tz] = cal.walk("VTIMEZONE")
    assert str(tz["TZID"]) == WARSAW
    [vevent] = cal.walk("VEVENT")
    dtstart = vevent.decoded("DTSTART")
    assert dtstart == start and str(dtstart.tzinfo) == WARSAW and dtstart.hour == 19  # the zone round-trips
    assert vevent["DTSTART"].params["TZID"] == WARSAW
    assert vevent.decoded("DTEND") - dtstart == timedelta(minutes=90)
    assert str(vevent["SUMMARY"]) == "Пятничная тысяча" and str(vevent["UID"]).startswith(f"club-event-{ev['id']}@")
    assert vevent.decoded("DTSTAMP").tzinfo is not None
    assert str(vevent["URL"]).endswith(f"/#/club/{cid}")
    assert "Адрес: ул. Мира, 5; вход со двора" in str(vevent["DESCRIPTION"])
    assert str(vevent["STATUS"]) == "CONFIRMED"
    c.post(f"/api/clubs/{cid}/events/{ev['id']}/cancel", headers=auth(owner))
    again = Calendar.from_ical(c.get(ev["ics_path"], headers=auth(ann)).content)
    assert str(again.walk("VEVENT")[0]["STATUS"]) == "CANCELLED"
    # the OpenAPI says what it gives
    doc = c.get("/openapi.json").json()
    op = doc["paths"]["/api/clubs/{club_id}/events/{event_id}/event.ics"]["get"]
    assert "text/calendar" in op["responses"]["200"]["content"] and {"401", "404", "422"} <= set(op["responses"])
    r = c.delete(ev["ics_path"], headers=auth(ann))  # its own path: only GET there
    assert r.status_code == 405 and "PATCH" not in r.headers["allow"] and "GET" in r.headers["allow"]


@pytest.mark.postgres
@pytest.mark.skipif(not os.environ.get("KOZYR_LONG"), reason="two apps and Redis: KOZYR_LONG=1")
def test_two_processes_send_a_reminder_once():
    """Both processes sweep the same due reminder at the same moment: one claims it (FOR
    UPDATE SKIP LOCKED), its members are told once."""
    with scratch_pg_database(fsync=False) as url:
        gen = serve_two(url, deadline_sweeper=False)
        a, b = next(gen)
        try:
            cid, owner, (ann,) = club_with(a, 1)
            ev = new_event(a, cid, owner, starts_at=later(a, hours=3).isoformat())
            a.put(f"/api/clubs/{cid}/events/{ev['id']}/rsvp", headers=auth(ann), json={"answer": "yes"})
            sent: list[int] = []
            for client in (a, b):
                client.app.state.club_events.notify = lambda player, kind, **facts: sent.append(player)
                client.app.state.clock.advance(2 * 3600 + 5)
            results: list[list[int]] = []
            go = threading.Barrier(2)

            def sweep(client):
                go.wait()
                results.append(client.portal.call(client.app.state.club_events.sweep))
            threads = [threading.Thread(target=sweep, args=(x,)) for x in (a, b)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            assert sorted(len(r) for r in results) == [0, 1] and sent == [ann["id"]]
        finally:
            gen.close()


def test_the_deadline_sweeper_sends_the_reminders_too(tmp_path):
    """With its sweeper on, a process sends a due reminder by itself (the deadlines'
    loop runs the club events' sweep; README "Clubs", Events).  SQLite: the wiring."""
    import time

    with serve(f"sqlite:///{tmp_path / 'k.db'}", deadline_sweeper=True, deadline_poll=0.05) as c:
        k = c.app.state
        assert k.club_events in k.deadlines.others
        cid, owner, (ann,) = club_with(c, 1)
        ev = new_event(c, cid, owner, starts_at=later(c, hours=2).isoformat())
        c.put(f"/api/clubs/{cid}/events/{ev['id']}/rsvp", headers=auth(ann), json={"answer": "maybe"})
        sent: list[int] = []
        k.club_events.notify = lambda player, kind, **facts: sent.append(player)
        k.clock.advance(3600 + 5)
        try:
            end = time.monotonic() + 10
            while not sent and time.monotonic() < end:
                time.sleep(0.02)
            assert sent == [ann["id"]]
        finally:
            k.clock.advance(-(3600 + 5))


@pytest.mark.parametrize("db", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_0022_club_events_up_down_up(db, tmp_path):
    with ExitStack() as stack:
        url = f"sqlite:///{tmp_path / 'e.db'}" if db == "sqlite" else stack.enter_context(scratch_pg_database())
        engine = create_engine(sqlalchemy_url(url))
        stack.callback(engine.dispose)
        cfg = alembic_config()
        tables = {"club_events", "club_event_rsvps"}
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "0022")
        look = inspect(engine)
        assert tables <= set(look.get_table_names())
        assert {"ix_club_events_upcoming", "ix_club_events_remind"} <= {i["name"] for i in look.get_indexes("club_events")}
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0021")
        assert not tables & set(inspect(engine).get_table_names())
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "0022")
        assert tables <= set(inspect(engine).get_table_names())



def test_the_notification_kinds_are_one_list_everywhere():
    """club_event is declared where the kinds are (app/push/prefs.py KINDS); the API's
    choices and the settings page's boxes keep to that list."""
    from pathlib import Path

    from app.api.push import Kinds
    from app.push.prefs import KINDS

    assert "club_event" in KINDS and tuple(Kinds.model_fields) == KINDS
    js = (Path(__file__).resolve().parents[2] / "static" / "js" / "push.js").read_text(encoding="utf-8")
    assert "export const KINDS = [" + ", ".join(f"'{k}'" for k in KINDS) + "];" in js
