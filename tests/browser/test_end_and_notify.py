"""Issue 16 in the browser: the host ends a match from the table (with a confirmation),
the replay marks a take-back (struck through), and a call to a new room becomes a
browser notification when the player allowed it (Chromium on 127.0.0.1, a secure
context; the permission granted in the Playwright context).  Screenshots at 1366x768 and
390x844 in ru, pl and en go to /tmp/tb-shots/ (KOZYR_TB_SHOTS)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from .conftest import PHONE
from .helpers import WsTable, call, new_room, open_seat, registered

VARIANT = "thousand-1000-2p"
WIDE = {"width": 1366, "height": 768}
SHOTS = Path(os.environ.get("KOZYR_TB_SHOTS", "/tmp/tb-shots"))
SIZES = [("wide", WIDE), ("phone", PHONE)]
LANGS = ["ru", "pl", "en"]

# Every Notification the page makes is recorded (the real one is still made).
WRAP = """
window.KOZYR_CALL_POLL_MS = 300;
window.__notes = [];
(() => {
  const Real = window.Notification;
  if (!Real) return;
  function Wrapped(title, opts) { window.__notes.push({ title, body: opts && opts.body }); return new Real(title, opts); }
  Object.defineProperty(Wrapped, 'permission', { get: () => Real.permission });
  Wrapped.requestPermission = (...a) => Real.requestPermission(...a);
  window.Notification = Wrapped;
})();
"""


@pytest.fixture(autouse=True)
def _variant(server):
    if VARIANT not in registered(server):
        pytest.skip(f"{VARIANT} is not registered")
    SHOTS.mkdir(parents=True, exist_ok=True)


def _home(new_page, server, player, viewport, lang):
    page = new_page(viewport, lang=lang)
    page.context.grant_permissions(["notifications"])
    page.context.add_init_script(WRAP)
    page.goto(server + "/healthz")
    me = {"id": player["id"], "name": player["name"], "token": player["token"]}
    page.evaluate(f"localStorage.setItem('kozyr.player', {json.dumps(json.dumps(me))})")
    page.goto(server + "/")
    return page


def test_a_call_becomes_a_browser_notification_once_allowed(server, new_page):
    code, players = new_room(server, VARIANT, ["Анна", "Paweł"])
    page = _home(new_page, server, players[1], WIDE, "en")
    toggle = page.locator("[data-role=notify-calls]")
    toggle.wait_for()
    assert page.evaluate("window.isSecureContext") and toggle.is_enabled() and not toggle.is_checked()
    toggle.check()
    page.wait_for_function("() => localStorage.getItem('kozyr.notify_calls') === 'on'")
    assert page.evaluate("window.__notes.length") == 0
    call(server, "POST", f"/api/rooms/{code}/again", players[0]["token"])
    page.wait_for_function("() => window.__notes.length === 1", timeout=10000)
    note = page.evaluate("window.__notes[0]")
    assert "Анна" in note["body"] and note["title"]
    page.wait_for_timeout(900)  # a few more looks: the same call is not notified twice
    assert page.evaluate("window.__notes.length") == 1
    page.reload()
    page.locator(".calls .call").wait_for()  # and the call is on the home page too
    assert page.locator("[data-role=notify-calls]").is_checked()
    assert not page.errors
    # Not allowed (the toggle off): the call is only on the home page.
    other = _home(new_page, server, players[1], WIDE, "en")
    other.evaluate("localStorage.setItem('kozyr.notify_calls', 'off'); localStorage.removeItem('kozyr.calls_notified')")
    other.reload()
    other.locator(".calls .call").wait_for()
    other.wait_for_timeout(900)
    assert other.evaluate("window.__notes.length") == 0


def test_home_toggle_screens(server, new_page):
    _, players = new_room(server, VARIANT, ["Zofia Łęcka", "Борис"])
    for lang in LANGS:
        for size, viewport in SIZES:
            page = _home(new_page, server, players[0], viewport, lang)
            page.locator("[data-role=notify-calls]").wait_for()
            page.screenshot(path=str(SHOTS / f"home-notify-{lang}-{size}.png"))
            option = page.locator("[data-role=create-room] select[name=abandoned]")
            option.scroll_into_view_if_needed()
            assert option.locator("option").count() == 2
            page.screenshot(path=str(SHOTS / f"home-form-abandoned-{lang}-{size}.png"))
            page.context.close()


def test_host_ends_the_match_from_the_table(server, new_page):
    for lang in LANGS:
        for size, viewport in SIZES:
            code, players = new_room(server, VARIANT, ["Анна", "Paweł"])
            host = open_seat(new_page, server, code, players[0], viewport=viewport, lang=lang)
            if (lang, size) == ("en", "wide"):
                guest = open_seat(new_page, server, code, players[1], viewport=PHONE, lang="pl")
                assert guest.locator("[data-role=end-match]").count() == 0  # only the host has it
            host.locator("[data-role=end-match]").click()
            host.locator("[data-role=end-confirm]").wait_for()
            host.screenshot(path=str(SHOTS / f"end-confirm-{lang}-{size}.png"))
            host.locator("[data-role=end-confirm-no]").click()
            assert host.locator("[data-role=end-confirm]").count() == 0
            room = call(server, "GET", f"/api/rooms/{code}")
            assert room["status"] == "playing"
            host.locator("[data-role=end-match]").click()
            host.locator("[data-role=end-confirm-yes]").click()
            host.locator("[data-role=abandoned-standings]").wait_for()
            host.screenshot(path=str(SHOTS / f"end-done-{lang}-{size}.png"))
            if (lang, size) == ("en", "wide"):
                guest.locator("[data-role=abandoned-standings]").wait_for()
                assert guest.locator(".hand .card.playable").count() == 0  # nothing left to do
            room = call(server, "GET", f"/api/rooms/{code}")
            assert room["status"] == "abandoned"
            match = call(server, "GET", f"/api/matches/{room['match']['id']}")
            assert match["status"] == "abandoned"
            assert not host.errors
            host.context.close()


def _single_play(view: dict) -> str | None:
    legal = view["legal"]
    for a in legal:
        if a.startswith("play:") and sum(1 for b in legal if a[5:7] in b) == 1:
            return a
    return None


def _match_with_a_takeback(server) -> str:
    """A take-back agreed in the first deal's play, then the deal played to its end."""
    code, players = new_room(server, VARIANT, ["Анна", "Paweł"])
    rng = random.Random(3)
    with WsTable(server, code, [p["token"] for p in players]) as table:
        def stop(views):
            v = views[0]["view"]
            if v["phase"] != "play" or not v["to_act"]:
                return None
            seat = v["to_act"][0]
            return seat if not views[seat]["view"]["trick"] and _single_play(views[seat]["view"]) else None
        seat = table.run(stop, rng)
        assert seat is not None
        table.act(seat, _single_play(table.views[seat]["view"]))
        table.socks[seat].send(json.dumps({"type": "takeback"}))
        other = 1 - seat
        while json.loads(table.socks[other].recv(timeout=10))["type"] != "takeback":
            pass
        table.socks[other].send(json.dumps({"type": "takeback_answer", "agree": True}))
        for i in range(2):
            table.read_until_view(i)
        table.run(lambda views: 0 if views[0]["view"]["scoresheet"] else None, rng)
        return table.views[0]["match"]


def test_the_replay_marks_a_takeback(server, new_page):
    match_id = _match_with_a_takeback(server)
    detail = call(server, "GET", f"/api/matches/{match_id}")
    (mark,) = detail["takebacks"]
    assert mark["deal"] == 1 and mark["step"] is not None
    for lang in LANGS:
        for size, viewport in SIZES:
            page = new_page(viewport, lang=lang)
            page.goto(f"{server}/#/match/{match_id}")
            row = page.locator("[data-role=replay-undone]")
            row.wait_for()
            assert row.locator("s").count() == 1
            assert row.get_attribute("data-step") == str(mark["step"])
            row.scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"replay-undone-{lang}-{size}.png"))
            if lang == "en":
                assert "taken back, agreed by all" in row.inner_text()
            assert not page.errors
            page.context.close()


OUTDATED = {"ru": "Страница устарела", "pl": "Ta strona jest nieaktualna", "en": "This page is out of date"}


def test_an_unknown_message_asks_for_a_reload_and_the_table_plays_on(server, new_page):
    """A message type this page does not know (an old cached page after a deploy) shows a
    notice with a Reload button; the page keeps its connection and plays on."""
    import re

    from .helpers import Player, state

    for lang in LANGS:
        for size, viewport in SIZES:
            code, players = new_room(server, VARIANT, ["Анна", "Paweł"])
            page = new_page(viewport, lang=lang)
            socks = []

            def through(ws, socks=socks):  # the page's websocket, passed through to the server
                ws.connect_to_server()
                socks.append(ws)
            page.route_web_socket(re.compile(r".*/api/rooms/.*/ws$"), through)
            page.goto(server + "/healthz")
            me = {"id": players[0]["id"], "name": players[0]["name"], "token": players[0]["token"]}
            page.evaluate(f"localStorage.setItem('kozyr.player', {json.dumps(json.dumps(me))})")
            page.goto(f"{server}/room/{code}")
            page.locator(".felt").wait_for()
            assert page.locator("[data-notice=outdated]").count() == 0
            socks[-1].send(json.dumps({"type": "seat_swap_offer", "seat": 1}))  # from a newer server
            notice = page.locator("[data-notice=outdated]")
            notice.wait_for()
            assert OUTDATED[lang] in notice.inner_text()
            assert notice.locator("[data-role=notice-outdated]").is_visible()
            page.screenshot(path=str(SHOTS / f"outdated-{lang}-{size}.png"))
            socks[-1].send(json.dumps({"type": "seat_swap_offer", "seat": 1}))
            page.wait_for_timeout(200)
            assert notice.count() == 1  # one notice, however many such messages
            # the table plays on: this page clicks in its turn, the other seat (over the
            # websocket) in his, and the page's view moves on each time
            with WsTable(server, code, [players[1]["token"]]) as other:
                for _ in range(3):
                    now = page.evaluate("() => ({ version: window.kozyr.page.state.version, to_act: window.kozyr.page.view.to_act })")
                    if 0 in now["to_act"]:
                        Player(page).move(state(page))
                    else:
                        while other.views[0]["version"] < now["version"]:
                            other.read_until_view(0)
                        other.act(0, other.view["legal"][0])
                    page.wait_for_function(f"() => window.kozyr.page.state.version > {now['version']}")
            if (lang, size) == ("en", "wide"):  # Reload loads the page afresh: no notice
                notice.locator("[data-role=notice-outdated]").click()
                page.locator(".felt").wait_for()
                page.wait_for_timeout(300)
                assert page.locator("[data-notice=outdated]").count() == 0
            assert not page.errors, page.errors
            page.context.close()
