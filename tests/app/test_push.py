"""Notifications that reach a closed tab (issue 33, README "Notifications"), on SQLite
and PostgreSQL, through a real local push service (tests/pushservice.py): it checks
each push's VAPID signature and decrypts its aes128gcm body with the subscription's
private key (made here), and what is asserted is the decrypted payload."""

from __future__ import annotations

import re
import threading
import time
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from app.db import models as m
from app.db.migrate import upgrade
from app.db.session import Database
from app.push import keys
from app.push.prefs import quiet_until
from engine import find_variant
from tests.pushservice import PushService, b64d

from .conftest import scratch_pg_database, serve
from .helpers import act_and_wait, auth, connect, make_room, new_player, open_table

ALL_ON = {"turn": True, "reminder": True, "call": True, "takeback": True, "finished": True, "chat": True, "club_event": True}
# A card as the engine writes one ("QS", "10H", "AD"); no push may carry one.
CARD = re.compile(r"\b(?:10|[2-9JQKA])[SCDH]\b")


@pytest.fixture(scope="module")
def push():
    with PushService() as service:
        yield service


@pytest.fixture(scope="module")
def app(database_url, push):
    with serve(database_url, push_coalesce_seconds=0.4, push_min_interval=0.0, push_retry_seconds=0.05,
               push_retries=3, bot_delay=0.0, push_hidden_seconds=0.3) as c:
        yield c


@pytest.fixture(scope="module", autouse=True)
def no_card_in_any_push(push):
    yield
    for got in push.received:
        if "payload" in got:
            assert set(got["payload"]) == {"title", "body", "url", "tag"}, got["payload"]
            assert not CARD.search(" ".join(str(v) for v in got["payload"].values())), got["payload"]


_names = iter(range(10**6))


def subscribed(app, push, lang="en", kinds=None, player=None):
    """A player (new unless given) whose device subscribed with keys made here; his choices set."""
    player = player or new_player(app)
    sub = push.subscriber(f"s{next(_names)}")
    r = app.post("/api/players/me/push-subscriptions", json=sub.json(lang), headers=auth(player))
    assert r.status_code == 201, r.text
    r = app.put("/api/players/me/notifications", headers=auth(player),
                json={"kinds": kinds or ALL_ON, "quiet_from": None, "quiet_to": None, "time_zone": "UTC"})
    assert r.status_code == 200, r.text
    return player, sub


def quiet_for(push, sub, seconds=1.5) -> None:
    time.sleep(seconds)
    assert push.payloads(sub.name) == []


def test_the_vapid_key_is_made_once_and_kept(app, database_url, push):
    r = app.get("/api/push/key")
    assert r.status_code == 200
    key = r.json()["public_key"]
    raw = b64d(key)
    assert len(raw) == 65 and raw[0] == 4
    with serve(database_url) as again:  # a restart (another process) signs with the same pair
        assert again.get("/api/push/key").json()["public_key"] == key
    fresh = keys.Vapid02()
    fresh.generate_keys()
    with serve(database_url, vapid_private_key=keys.raw_private(fresh.private_key)) as own:
        assert own.get("/api/push/key").json()["public_key"] == keys.public_key_of(fresh)


def test_two_processes_starting_at_once_keep_one_key_pair(database_url, tmp_path):
    with ExitStack() as stack:
        url = (f"sqlite:///{tmp_path / 'race.db'}" if database_url.startswith("sqlite")
               else stack.enter_context(scratch_pg_database()))
        dbs = [Database(url) for _ in range(2)]
        upgrade(dbs[0].engine)
        made: list[str] = []
        start = threading.Barrier(2)

        def run(db):
            start.wait()
            made.append(keys.public_key_of(keys.load_or_make(db)))
        threads = [threading.Thread(target=run, args=(db,)) for db in dbs]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        with dbs[0].read() as s:
            stored = s.scalars(select(m.VapidKey)).all()
        assert len(stored) == 1 and made == [stored[0].public_key] * 2
        for db in dbs:
            db.dispose()


def test_a_push_is_signed_and_decrypts_to_the_payload(app, push):
    player, sub = subscribed(app, push, lang="ru")
    room, _ = make_room(app, "thousand-1000", 3, start=False)
    app.app.state.notifier.notify(player["id"], "call", room=room["code"], name="Аня")
    got = push.wait(sub.name)[0]
    assert got == {"title": "Зовут играть", "body": "Аня зовёт вас в новую комнату (Тысяча (1000)).",
                   "url": f"/room/{room['code']}", "tag": f"room-{room['code']}"}
    sent = next(r for r in push.received if r["to"] == sub.name)
    assert sent["claims"]["k"] == app.get("/api/push/key").json()["public_key"]
    assert sent["claims"]["aud"] == push.base and sent["claims"]["sub"].startswith("mailto:")
    assert sent["headers"]["Urgency"] == "normal" and int(sent["headers"]["TTL"]) > 0


def test_many_events_become_one_push(app, push):
    player, sub = subscribed(app, push)
    room, _ = make_room(app, "thousand-1000", 3, start=False)
    notifier = app.app.state.notifier
    for n in range(10):  # ten moves by bots: each makes it his turn again in the same match
        notifier.notify(player["id"], "turn", room=room["code"], match="m1",
                        due=(datetime(2026, 12, 5, 8, 0, tzinfo=UTC) + timedelta(minutes=n)).isoformat())
    got = push.wait(sub.name)
    time.sleep(1.0)
    assert push.payloads(sub.name) == got and len(got) == 1
    assert got[0]["title"] == "Your turn"
    assert got[0]["body"] == f"Thousand (1000), room {room['code']}: the table waits for your move until 2026-12-05 08:09 UTC."
    # events of several rooms: one push that sends to My games
    rooms = [make_room(app, "thousand-1000", 3, start=False)[0]["code"] for _ in range(3)]
    for code in rooms:
        notifier.notify(player["id"], "finished", room=code, match=code)
    notifier.notify(player["id"], "chat", room=rooms[0], name="Ola")
    got = push.wait(sub.name, 2)
    time.sleep(1.0)
    assert len(push.payloads(sub.name)) == 2
    assert got[1] == {"title": "Kozyr", "body": "4 new events in your games.", "url": "/#/games", "tag": "kozyr"}


def test_the_players_choices_and_muted_rooms_are_respected(app, push):
    kinds = {**ALL_ON, "call": False, "chat": False}
    player, sub = subscribed(app, push, kinds=kinds)
    loud, _ = make_room(app, "thousand-1000", 3, start=False)
    muted, _ = make_room(app, "thousand-1000", 3, start=False)
    assert app.put(f"/api/players/me/muted-rooms/{muted['code']}", headers=auth(player)).status_code == 204
    notifier = app.app.state.notifier
    notifier.notify(player["id"], "call", room=loud["code"], name="A")  # turned off
    notifier.notify(player["id"], "chat", room=loud["code"], name="A")  # turned off
    notifier.notify(player["id"], "turn", room=muted["code"], match="x")  # muted room
    quiet_for(push, sub)
    notifier.notify(player["id"], "call", room=loud["code"], name="A")
    notifier.notify(player["id"], "turn", room=muted["code"], match="x")
    notifier.notify(player["id"], "finished", room=loud["code"], match="y")
    got = push.wait(sub.name)
    time.sleep(0.8)
    assert push.payloads(sub.name) == got == [{
        "title": "The match is over", "tag": f"room-{loud['code']}", "url": f"/room/{loud['code']}",
        "body": f"Thousand (1000), room {loud['code']}: the match has ended. See the result."}]
    assert app.get("/api/players/me/notifications", headers=auth(player)).json()["kinds"] == kinds


def test_quiet_hours_hold_the_push_until_they_end(app, push):
    player, sub = subscribed(app, push, lang="pl")
    r = app.put("/api/players/me/notifications", headers=auth(player),
                json={"kinds": ALL_ON, "quiet_from": "22:00", "quiet_to": "00:00", "time_zone": "Europe/Warsaw"})
    assert r.status_code == 200 and r.json()["quiet_from"] == "22:00"
    notifier = app.app.state.notifier
    # the clock the notifier reads: 23:59:57 in Warsaw now, going on as real time does
    start, base = time.monotonic(), datetime(2026, 12, 5, 23, 59, 57, tzinfo=ZoneInfo("Europe/Warsaw"))
    notifier.now = lambda: base + timedelta(seconds=time.monotonic() - start)
    try:
        room, _ = make_room(app, "thousand-1000", 3, start=False)
        notifier.notify(player["id"], "turn", room=room["code"], match="q")
        quiet_for(push, sub, 1.5)  # held: still inside the quiet hours
        got = push.wait(sub.name, timeout=10)  # sent once they end, at midnight
        assert got[0]["title"] == "Twój ruch"
        assert time.monotonic() - start >= 2.5
    finally:
        notifier.now = lambda: datetime.now(UTC)


def test_quiet_hours_cross_midnight_in_the_players_zone():
    w = ZoneInfo("Europe/Warsaw")
    at = datetime(2026, 12, 5, 23, 30, tzinfo=w)
    assert quiet_until(at, "22:00", "07:00", "Europe/Warsaw") == datetime(2026, 12, 6, 7, 0, tzinfo=w)
    assert quiet_until(at.replace(hour=3), "22:00", "07:00", "Europe/Warsaw") == datetime(2026, 12, 5, 7, 0, tzinfo=w)
    assert quiet_until(at.replace(hour=12), "22:00", "07:00", "Europe/Warsaw") is None
    assert quiet_until(at, "13:00", "14:00", "Europe/Warsaw") is None
    assert quiet_until(at, "22:00", "22:00", "Europe/Warsaw") is None  # equal ends: none
    # the same moment is 22:30 in UTC: inside 22:00-23:00 there, not in Warsaw
    assert quiet_until(at, "22:00", "23:00", "UTC") == datetime(2026, 12, 5, 23, 0, tzinfo=UTC)
    assert quiet_until(at, "22:00", "23:00", "Europe/Warsaw") is None


def test_gone_subscriptions_are_removed_and_5xx_retried(app, push):
    player, sub = subscribed(app, push)
    notifier = app.app.state.notifier
    push.script[sub.name] = [503, 500, 429]
    notifier.notify(player["id"], "takeback", room=None, match="z", name="B")
    got = push.wait(sub.name)
    assert push.attempts[sub.name] == 4 and got[0]["title"] == "A take-back request"
    assert app.get("/api/players/me/push-subscriptions", headers=auth(player)).json()["endpoint"] == sub.endpoint
    push.script[sub.name] = [410]
    notifier.notify(player["id"], "takeback", room=None, match="z", name="B")
    deadline = time.monotonic() + 10
    while app.get("/api/players/me/push-subscriptions", headers=auth(player)).json() is not None:
        assert time.monotonic() < deadline, "a subscription answered 410 stays"
        time.sleep(0.05)
    assert push.attempts[sub.name] == 5  # 410 is not tried again


def test_a_signed_out_devices_subscription_is_gone(app, push):
    player = new_player(app)
    link = app.post("/api/players/me/sign-in-link", headers=auth(player)).json()["url"]
    phone = app.post("/api/sign-in", json={"link": link}).json()
    _, sub = subscribed(app, push, player=phone)
    _, desk = subscribed(app, push, player=player)
    devices = app.get("/api/players/me/devices", headers=auth(player)).json()
    other = next(d["id"] for d in devices if not d["current"])
    assert app.delete(f"/api/players/me/devices/{other}", headers=auth(player)).status_code == 204
    with app.app.state.db.read() as s:
        left = s.scalars(select(m.PushSubscription.endpoint).where(m.PushSubscription.player_id == player["id"])).all()
    assert left == [desk.endpoint]
    app.app.state.notifier.notify(player["id"], "call", room=None, name="C")
    push.wait(desk.name)
    assert push.payloads(sub.name) == [] and sub.name not in push.attempts


def test_the_room_codes_events_reach_the_people_away(app, push):
    """A call to a new room ("again"), a chat line, a take-back request and a match's end,
    each to the seated people who are not at the table, never to the one who acted nor a bot."""
    room, players = make_room(app, "thousand-ru", 3, seed=7)
    subs = [subscribed(app, push, player=p)[1] for p in players]
    r = app.post(f"/api/rooms/{room['code']}/again", headers=auth(players[0]))
    assert r.status_code == 201, r.text
    new_code = r.json()["room"]["code"]
    for sub in subs[1:]:
        assert push.wait(sub.name)[0] == {
            "title": "A call to play", "url": f"/room/{new_code}", "tag": f"room-{new_code}",
            "body": f"{players[0]['name']} calls you to a new room ({find_variant('thousand-ru').name})."}
    with ExitStack() as stack:
        clients = open_table(app, stack, room, players[:2])  # seat 2 is away
        clients[0].send({"type": "chat", "text": "ход за тобой"})
        clients[1].recv_until(lambda msg: msg["type"] == "chat")
        chat = push.wait(subs[2].name, 2)[1]
        assert chat["title"] == f"Chat, room {room['code']}" and chat["body"] == f"A new message from {players[0]['name']}."
        assert "ход за тобой" not in str(chat)
        view = clients[0].last_view
        seat = view["view"]["to_act"][0]
        if seat == 2:  # the away seat must not be the one to act: a bid from a third client
            c2 = connect(app, stack, room["code"], players[2], 2)
            c2.recv_until(lambda msg: msg["type"] == "welcome")
            c2.wait_view(0)
            clients.append(c2)
            act_and_wait(clients, 2, next(a for a in c2.last_view["view"]["legal"] if a.startswith("bid:")), 0)
            c2.ws.close()
            seat = clients[0].last_view["view"]["to_act"][0]
        version = clients[0].last_view["version"]
        act_and_wait(clients[:2], seat, next(a for a in clients[seat].last_view["view"]["legal"]
                                             if a.startswith("bid:")), version)
        clients[seat].send({"type": "takeback"})
        clients[seat].recv_until(lambda msg: msg["type"] in ("takeback", "error"))
        asked = push.wait(subs[2].name, 3)[2]
        assert asked["title"] == "A take-back request" and players[seat]["name"] in asked["body"]
        clients[1 - seat].send({"type": "takeback_answer", "agree": False})
        clients[0].recv_until(lambda msg: msg["type"] == "takeback_done")
        clients[0].send({"type": "end_match"})  # the host stops it: its end is told to seat 2
        clients[0].recv_until(lambda msg: msg["type"] == "room" and msg["room"]["status"] == "abandoned")
        ended = push.wait(subs[2].name, 4)[3]
        assert ended["title"] == "The match is over" and ended["url"] == f"/room/{room['code']}"
    time.sleep(0.8)
    assert len(push.payloads(subs[0].name)) == 0  # the actor (and the people at the table) get none
    assert len(push.payloads(subs[1].name)) == 1  # only the call


def test_bad_bodies_are_refused_and_change_nothing(app, push):
    player, sub = subscribed(app, push)
    before = app.get("/api/players/me/push-subscriptions", headers=auth(player)).json()
    prefs = app.get("/api/players/me/notifications", headers=auth(player)).json()
    good = sub.json()
    bad = [
        ({**good, "keys": {**good["keys"], "p256dh": "A" * 87}}, "invalid_subscription"),  # not a point
        ({**good, "keys": {**good["keys"], "auth": "A" * 30}}, "invalid_subscription"),  # 22 bytes
        ({**good, "endpoint": "http://push.example.com/x"}, "invalid_subscription"),  # not https
        ({**good, "lang": "de"}, "invalid_request"),
        ({"endpoint": good["endpoint"], "lang": "en"}, "invalid_request"),
        ({**good, "keys": {**good["keys"], "auth": "no spaces here!"}}, "invalid_request"),
    ]
    for body, code in bad:
        r = app.post("/api/players/me/push-subscriptions", json=body, headers=auth(player))
        assert r.status_code == 422 and r.json()["code"] == code, (body, r.text)
    assert app.post("/api/players/me/push-subscriptions", json=good).status_code == 401
    assert app.get("/api/players/me/push-subscriptions", headers=auth(player)).json() == before
    for body, code in [
        ({"kinds": ALL_ON, "time_zone": "Mars/Olympus"}, "invalid_notifications"),
        ({"kinds": ALL_ON, "quiet_from": "22:00", "time_zone": "UTC"}, "invalid_notifications"),
        ({"kinds": ALL_ON, "quiet_from": "25:00", "quiet_to": "07:00"}, "invalid_request"),
        ({"kinds": {**ALL_ON, "cards": True}}, "invalid_request"),
        ({"kinds": {"turn": True}}, "invalid_request"),
    ]:
        r = app.put("/api/players/me/notifications", json=body, headers=auth(player))
        assert r.status_code == 422 and r.json()["code"] == code, (body, r.text)
    assert app.get("/api/players/me/notifications", headers=auth(player)).json() == prefs
    assert app.delete("/api/players/me/push-subscriptions", headers=auth(player)).status_code == 204
    assert app.get("/api/players/me/push-subscriptions", headers=auth(player)).json() is None
    assert app.delete("/api/players/me/push-subscriptions", headers=auth(player)).status_code == 204


def test_notify_never_raises_into_the_caller(app):
    notifier = app.app.state.notifier
    notifier.notify(1, "no-such-kind")
    notifier.notify("not a number", "turn")  # type: ignore[arg-type]
    notifier.notify(10**9, "turn", room="NOPE", match="none")  # nobody: nothing sent


def test_a_player_gets_at_most_one_push_per_interval(database_url, push):
    """KOZYR_PUSH_MIN_INTERVAL: what comes after a push waits for the interval and joins the next."""
    with serve(database_url, push_coalesce_seconds=0.1, push_min_interval=2.0) as app:
        player, sub = subscribed(app, push)
        room, _ = make_room(app, "thousand-1000", 3, start=False)
        notifier = app.app.state.notifier
        notifier.notify(player["id"], "turn", room=room["code"], match="a")
        push.wait(sub.name)
        first = time.monotonic()
        for match in ("b", "c", "d"):
            notifier.notify(player["id"], "turn", room=room["code"], match=match)
            time.sleep(0.2)
        got = push.wait(sub.name, 2)
        assert time.monotonic() - first >= 1.5  # not before the interval is over
        time.sleep(0.5)
        assert len(push.payloads(sub.name)) == 2
        assert got[1]["body"] == f"Room {room['code']}: 3 new events."



def test_a_turn_based_move_and_its_reminder_reach_the_awaited_player(app, push):
    """Deadlines (app/rooms/deadlines.py) through the notifier: the awaited player of a
    turn-based match gets "Your turn" with the deadline, and, when a quarter of the move's
    time is left (the deadlines' clock moved on, the sweep run by hand), the reminder."""
    k = app.app.state
    people, sub_of = [], {}
    for _ in range(2):
        person, sub = subscribed(app, push)
        people.append(person)
        sub_of[person["id"]] = sub.name
    room = app.post("/api/rooms", json={"variant": "thousand-1000-2p", "seats": 2, "pace": "turn",
                                        "move_seconds": 3600}, headers=auth(people[0])).json()
    assert app.post(f"/api/rooms/{room['code']}/seats/1", headers=auth(people[1])).status_code == 200
    started = app.post(f"/api/rooms/{room['code']}/start", headers=auth(people[0]), json={"seed": 3}).json()
    live = k.live[started["match"]["id"]]
    awaited = people[live.engine.to_act()[0]]
    turn = push.wait(sub_of[awaited["id"]])[0]
    assert turn["title"] == "Your turn" and turn["url"] == f"/room/{room['code']}"
    assert room["code"] in turn["body"]
    k.clock.advance(3600 * 0.75 + 5)
    assert live.id not in app.portal.call(k.deadlines.sweep)  # a reminder, not the deadline
    reminder = push.wait(sub_of[awaited["id"]], 2)[1]
    assert reminder["title"] == "Your move is still awaited" and reminder["url"] == f"/room/{room['code']}"
    waiting = next(p for p in people if p is not awaited)
    assert push.payloads(sub_of[waiting["id"]]) == []  # the one not awaited hears nothing



def test_a_live_turn_reaches_a_player_whose_page_has_been_hidden_a_while(app, push):
    """A live match: the awaited player's page hides ("visibility"); after
    push_hidden_seconds he is told "turn" -- once; the other, whose page shows, is not."""
    people, sub_of = [], {}
    for _ in range(2):
        person, sub = subscribed(app, push)
        people.append(person)
        sub_of[person["id"]] = sub.name
    room = app.post("/api/rooms", json={"variant": "thousand-1000-2p", "seats": 2},
                    headers=auth(people[0])).json()
    assert app.post(f"/api/rooms/{room['code']}/seats/1", headers=auth(people[1])).status_code == 200
    started = app.post(f"/api/rooms/{room['code']}/start", headers=auth(people[0]), json={"seed": 3}).json()
    live = app.app.state.live[started["match"]["id"]]
    seat = live.engine.to_act()[0]
    awaited, other = people[seat], people[1 - seat]
    with ExitStack() as stack:
        pages = {n: connect(app, stack, room["code"], people[n], n) for n in (0, 1)}
        for c in pages.values():
            c.wait_view(0)
        pages[1 - seat].send({"type": "visibility", "hidden": False})
        pages[seat].send({"type": "visibility", "hidden": True})
        turn = push.wait(sub_of[awaited["id"]])[0]
        assert turn["title"] == "Your turn" and turn["url"] == f"/room/{room['code']}"
        pages[seat].send({"type": "visibility", "hidden": True})  # said again: no second push
        pages[seat].send({"type": "ping", "nonce": 1})
        pages[seat].recv_until(lambda msg: msg["type"] == "pong")
    assert len(push.payloads(sub_of[awaited["id"]])) == 1
    assert push.payloads(sub_of[other["id"]]) == []
