"""Email, the second channel (README "Notifications"), on SQLite and PostgreSQL,
through a real local SMTP server (aiosmtpd): off without ``KOZYR_SMTP_URL``; an
address gets mail only once confirmed by the link mailed to it; the player's choices
hold for mail as for push; every mail carries a one-click unsubscribe (RFC 8058) that
works; a server answering 451 is tried again."""

from __future__ import annotations

import re
import time
from urllib.parse import urlsplit

import pytest

from tests.mailserver import running_inbox

from .conftest import serve
from .helpers import auth, make_room, new_player

ALL_ON = {"turn": True, "reminder": True, "call": True, "takeback": True, "finished": True, "chat": True, "club_event": True}


@pytest.fixture(scope="module")
def inbox():
    with running_inbox() as box:
        yield box


@pytest.fixture(scope="module")
def app(database_url, inbox):
    with serve(database_url, smtp_url=f"smtp://127.0.0.1:{inbox.port}", push_coalesce_seconds=0.3,
               push_min_interval=0.0, push_retry_seconds=0.05, push_retries=3,
               mail_from="Kozyr <kozyr@example.org>") as c:
        yield c


_n = iter(range(10**6))


def confirmed(app, inbox, lang="en"):
    player = new_player(app)
    address = f"player{next(_n)}@example.org"
    r = app.put("/api/players/me/email", json={"address": address, "lang": lang}, headers=auth(player))
    assert r.status_code == 200 and r.json() == {"available": True, "address": address, "verified": False}
    mail = inbox.wait(address)[0]
    token = re.search(r"#/email/verify/([\w-]+)", mail.get_content()).group(1)
    r = app.post("/api/email/verify", json={"token": token})
    assert r.status_code == 200 and r.json()["verified"] is True
    return player, address, mail, token


def test_no_smtp_no_email(client):
    player = new_player(client)
    assert client.get("/api/players/me/email", headers=auth(player)).json() == {
        "available": False, "address": None, "verified": False}
    r = client.put("/api/players/me/email", json={"address": "a@example.org", "lang": "en"}, headers=auth(player))
    assert r.status_code == 403 and r.json()["code"] == "email_disabled"


def test_an_address_gets_mail_once_confirmed_and_unsubscribes_in_one_click(app, inbox):
    player = new_player(app)
    address = f"player{next(_n)}@example.org"
    app.put("/api/players/me/email", json={"address": address, "lang": "ru"}, headers=auth(player))
    confirm = inbox.wait(address)[0]
    assert confirm["Subject"] == "Козырь: подтвердите адрес" and confirm["From"] == "Kozyr <kozyr@example.org>"
    token = re.search(r"http://testserver/#/email/verify/([\w-]+)", confirm.get_content()).group(1)
    room, _ = make_room(app, "thousand-1000", 3, start=False)
    notifier = app.app.state.notifier
    notifier.notify(player["id"], "call", room=room["code"], name="Ola")  # not confirmed yet: nothing
    time.sleep(1.0)
    assert len(inbox.to(address)) == 1
    assert app.post("/api/email/verify", json={"token": "x" * 43}).json()["code"] == "email_link_refused"
    assert app.post("/api/email/verify", json={"token": token}).status_code == 200
    assert app.post("/api/email/verify", json={"token": token}).status_code == 422  # once
    assert app.get("/api/players/me/email", headers=auth(player)).json() == {
        "available": True, "address": address, "verified": True}
    notifier.notify(player["id"], "call", room=room["code"], name="Ola")
    mail = inbox.wait(address, 2)[1]
    assert mail["Subject"] == "Зовут играть"
    text = mail.get_content()
    assert text.startswith("Ola зовёт вас в новую комнату (Тысяча (1000)).")
    assert f"http://testserver/room/{room['code']}" in text
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    one_click = re.fullmatch(r"<(http://testserver/api/email/unsubscribe/[\w-]+)>", mail["List-Unsubscribe"]).group(1)
    assert one_click.rsplit("/", 1)[1] in text  # the same secret in the text's own link
    # the mail client's one click (RFC 8058): a POST with that body
    r = app.post(urlsplit(one_click).path, content="List-Unsubscribe=One-Click",
                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 204
    assert app.get("/api/players/me/notifications", headers=auth(player)).json()["email"] is False
    notifier.notify(player["id"], "call", room=room["code"], name="Ola")
    time.sleep(1.0)
    assert len(inbox.to(address)) == 2
    assert app.post("/api/email/unsubscribe/" + "y" * 43).status_code == 204  # unknown: alike


def test_the_choices_hold_for_mail_and_a_busy_server_is_tried_again(app, inbox):
    player, address, _, _ = confirmed(app, inbox)
    r = app.put("/api/players/me/notifications", headers=auth(player),
                json={"kinds": {**ALL_ON, "chat": False}, "time_zone": "UTC"})
    assert r.status_code == 200 and r.json()["email"] is True
    room, _ = make_room(app, "thousand-1000", 3, start=False)
    notifier = app.app.state.notifier
    notifier.notify(player["id"], "chat", room=room["code"], name="Ola")  # turned off
    time.sleep(1.0)
    assert len(inbox.to(address)) == 1
    inbox.script = ["451 4.3.0 try again later"]
    notifier.notify(player["id"], "finished", room=room["code"], match="m")
    mail = inbox.wait(address, 2)[1]
    assert mail["Subject"] == "The match is over" and not inbox.script


def test_bad_addresses_are_refused_and_change_nothing(app, inbox):
    player, address, _, _ = confirmed(app, inbox)
    for bad in ["no-at-sign", "a@b", "two@@example.org", "x <a@example.org>", "a@example.org\nBcc: b@x.org"]:
        r = app.put("/api/players/me/email", json={"address": bad, "lang": "en"}, headers=auth(player))
        assert r.status_code == 422 and r.json()["code"] == "invalid_request", (bad, r.text)
    r = app.put("/api/players/me/email", json={"address": "ok@example.org", "lang": "de"}, headers=auth(player))
    assert r.status_code == 422
    assert app.get("/api/players/me/email", headers=auth(player)).json() == {
        "available": True, "address": address, "verified": True}
    assert app.delete("/api/players/me/email", headers=auth(player)).status_code == 204
    assert app.get("/api/players/me/email", headers=auth(player)).json()["address"] is None
