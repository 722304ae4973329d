"""Notifications in Chromium (README "Notifications (Web Push)"): a push the server sends
reaches the local push service (tests/pushservice.py: VAPID checked, payload decrypted
with the subscription's key made here; Chromium cannot reach a real push service, so
pushManager.subscribe is not available and the test registers its own keys through the
server's route), and that payload, delivered to the page's worker through the DevTools
protocol, shows a notification whose click takes the open window to the room.  The
settings block on the player's page: this device's state, the choices and quiet hours,
saved at each change."""

from __future__ import annotations

import json
import os
import re

import pytest

from tests.mailserver import running_inbox
from tests.pushservice import PushService

from .conftest import LAPTOP, PHONE, SCREENSHOTS, _free_port, start_server, stop_server
from .helpers import call


@pytest.fixture(scope="module")
def push():
    with PushService() as service:
        yield service


@pytest.fixture(scope="module")
def inbox():
    with running_inbox() as box:
        yield box


@pytest.fixture(scope="module")
def pushing_server(tmp_path_factory, push, inbox, server):  # `server`: Chromium is there
    proc, base = start_server(tmp_path_factory.mktemp("push"), _free_port(),
                              KOZYR_PUSH_COALESCE_SECONDS="0.2", KOZYR_PUSH_MIN_INTERVAL="0",
                              KOZYR_SMTP_URL=f"smtp://127.0.0.1:{inbox.port}")
    try:
        yield base
    finally:
        stop_server(proc)


def signed_in(new_page, base, player, path="/", viewport=LAPTOP, lang="en"):
    page = new_page(viewport, lang=lang)
    page.context.grant_permissions(["notifications"], origin=base)
    page.goto(base + "/healthz")
    me = {"id": player["id"], "name": player["name"], "token": player["token"]}
    page.evaluate(f"localStorage.setItem('kozyr.player', {json.dumps(json.dumps(me))})")
    page.goto(base + path)
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=15000)
    return page


def worker_registration(page):
    """(a DevTools session with the ServiceWorker domain on, the registration whose worker
    controls this page)."""
    cdp = page.context.new_cdp_session(page)
    me = cdp.send("Target.getTargetInfo")["targetInfo"]["targetId"]
    versions: list[dict] = []
    cdp.on("ServiceWorker.workerVersionUpdated", lambda e: versions.extend(e["versions"]))
    cdp.send("ServiceWorker.enable")
    for _ in range(100):
        reg = next((v["registrationId"] for v in versions if me in v.get("controlledClients", [])), None)
        if reg:
            return cdp, reg
        page.wait_for_timeout(100)
    raise AssertionError(versions)


def test_a_server_push_shows_a_notification_and_its_click_opens_the_room(pushing_server, push, new_page):
    base = pushing_server
    host, friend = (call(base, "POST", "/api/players", body={"name": n}) for n in ("Аня", "Ola"))
    room = call(base, "POST", "/api/rooms", host["token"], {"variant": "thousand-1000-2p", "seats": 2})
    call(base, "POST", f"/api/rooms/{room['code']}/seats/1", friend["token"])
    call(base, "POST", f"/api/rooms/{room['code']}/start", host["token"])
    page = signed_in(new_page, base, friend, "/#/games", lang="pl")
    sub = push.subscriber("browser-friend")
    call(base, "POST", "/api/players/me/push-subscriptions", friend["token"], sub.json("pl"))
    again = call(base, "POST", f"/api/rooms/{room['code']}/again", host["token"])
    code = again["room"]["code"]
    payload = push.wait(sub.name)[0]  # verified and decrypted by the push service
    assert payload == {"title": "Zaproszenie do gry", "body": "Аня zaprasza Cię do nowego pokoju (Tysiąc we dwóch).",
                       "url": f"/room/{code}", "tag": f"room-{code}"}
    cdp, reg = worker_registration(page)
    cdp.send("ServiceWorker.deliverPushMessage", {"origin": base, "registrationId": reg,
                                                  "data": json.dumps(payload, ensure_ascii=False)})
    shown = []
    for _ in range(150):
        shown = page.evaluate("""async () => (await (await navigator.serviceWorker.ready).getNotifications())
            .map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data.url }))""")
        if shown:
            break
        page.wait_for_timeout(100)
    assert shown == [payload]
    # A click, dispatched in the worker: the open window (on My games) is taken to the room.
    worker = next(w for w in page.context.service_workers if w.url.endswith("/sw.js"))
    worker.evaluate("""async () => {
        const [n] = await self.registration.getNotifications();
        try { self.dispatchEvent(new NotificationEvent('notificationclick', { notification: n })); }
        catch (e) { /* a synthetic event may not waitUntil; the handler has started all the same */ } }""")
    page.wait_for_url(f"**/room/{code}", timeout=15000)
    page.locator(".lobby, .felt, .room-lobby").first.wait_for()
    assert not page.errors, page.errors


def test_the_settings_show_this_device_and_save_the_choices(pushing_server, push, new_page):
    base = pushing_server
    player = call(base, "POST", "/api/players", body={"name": "Zofia"})
    page = signed_in(new_page, base, player, f"/#/player/{player['id']}")
    panel = page.locator(".player-notifications")
    panel.wait_for()
    # headless Chromium has PushManager: the device is off until subscribed
    assert page.locator("[data-role=push-state]").inner_text() == "Off on this device."
    sub = push.subscriber("browser-settings")
    call(base, "POST", "/api/players/me/push-subscriptions", player["token"], sub.json("en"))
    page.reload()
    page.locator("[data-role=push-toggle]", has_text="Turn off").wait_for()
    assert page.locator("[data-role=push-state]").inner_text() == "On: this device gets notifications."
    chat = page.get_by_label("Chat messages")
    assert not chat.is_checked()
    chat.check()
    page.locator("[data-role=notif-saved]", has_text="Saved.").wait_for()
    page.get_by_label("No notifications at night").check()
    page.locator("[data-role=quiet-start]").fill("23:30")
    page.locator("[data-role=quiet-start]").dispatch_event("change")
    for _ in range(50):
        prefs = call(base, "GET", "/api/players/me/notifications", player["token"])
        if prefs["quiet_from"] == "23:30":
            break
        page.wait_for_timeout(100)
    assert prefs["kinds"]["chat"] is True and prefs["quiet_from"] == "23:30" and prefs["quiet_to"] == "08:00"
    page.locator("[data-role=push-toggle]").click()  # off: this device's subscription is deleted
    page.locator("[data-role=push-toggle]", has_text="Turn on").wait_for()
    assert call(base, "GET", "/api/players/me/push-subscriptions", player["token"]) is None
    assert not page.errors, page.errors


def test_where_push_is_unavailable_the_settings_say_so(pushing_server, new_page):
    base = pushing_server
    player = call(base, "POST", "/api/players", body={"name": "Борис"})
    page = new_page(PHONE, lang="ru")
    page.add_init_script("delete window.PushManager")
    page.goto(base + "/healthz")
    me = {"id": player["id"], "name": player["name"], "token": player["token"]}
    page.evaluate(f"localStorage.setItem('kozyr.player', {json.dumps(json.dumps(me))})")
    page.goto(f"{base}/#/player/{player['id']}")
    state = page.locator("[data-role=push-state]")
    state.wait_for()
    assert "не принимает push-уведомления" in state.inner_text() and "приглашения видны" in state.inner_text()
    assert page.locator("[data-role=push-toggle]").is_hidden()
    # the choices stay usable, and large enough to touch
    box = page.get_by_label("новое сообщение в чате").bounding_box()
    label = page.locator(".notif-kinds label.check").first.bounding_box()
    assert box and label and label["height"] >= 44


def test_an_email_address_is_confirmed_by_its_link(pushing_server, inbox, new_page):
    base = pushing_server
    player = call(base, "POST", "/api/players", body={"name": "Grażyna"})
    page = signed_in(new_page, base, player, f"/#/player/{player['id']}", lang="pl")
    block = page.locator(".notif-email")
    block.wait_for()
    page.get_by_label("Adres e-mail").fill("grazyna@example.org")
    page.locator("[data-role=email-save]").click()
    page.locator("[data-role=email-state]", has_text="Link potwierdzający wysłano na grazyna@example.org").wait_for()
    mail = inbox.wait("grazyna@example.org")[0]
    link = re.search(r"http://\S+/#/email/verify/[\w-]+", mail.get_content()).group(0)
    page.goto(link)
    page.locator("[data-role=email-link]", has_text="Potwierdzono: wiadomości będą iść na grazyna@example.org").wait_for()
    assert "/#/email/verify" not in page.url  # the secret left the address bar
    page.goto(f"{base}/#/player/{player['id']}")
    page.locator("[data-role=email-state]", has_text="Wiadomości idą na grazyna@example.org").wait_for()
    assert page.locator("[data-role=email-on]").is_checked()
    if os.environ.get("KOZYR_SCREENSHOTS"):  # make screenshots: the block with a confirmed address
        SCREENSHOTS.mkdir(exist_ok=True)
        for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
            page.set_viewport_size(viewport)
            page.wait_for_timeout(200)
            page.locator(".player-notifications").screenshot(path=str(SCREENSHOTS / f"notifications-email-{size}-pl.png"))
    assert not page.errors, page.errors
