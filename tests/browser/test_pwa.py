"""The installable app in Chromium: the manifest and the service worker (static/sw.js) make
the page installable by Chromium's own verdict (Page.getInstallabilityErrors), the worker
controls the page and keeps the app shell so a room's page opens offline with a clear
state, a push delivered through the DevTools protocol shows a notification, and a move
made while the connection is down is sent when it is back."""

from __future__ import annotations

import shutil

from .conftest import LAPTOP, ROOT, _free_port, start_server, stop_server
from .helpers import call, new_room, open_seat
from .scenes import LEADS, NAMES, single_action_cards


def controlled(page) -> None:
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=15000)


def test_the_app_is_installable_and_its_worker_controls_the_page(server, new_page):
    page = new_page(LAPTOP)
    page.goto(server + "/")
    controlled(page)
    cdp = page.context.new_cdp_session(page)
    errors = [e["errorId"] for e in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]]
    assert [e for e in errors if e != "in-incognito"] == [], errors
    manifest = cdp.send("Page.getAppManifest")
    assert not manifest.get("errors"), manifest.get("errors")
    assert manifest["url"].endswith("/manifest.webmanifest")
    # the worker keeps this build's shell: every versioned file the page loaded is in its cache
    loaded = page.evaluate("() => performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname)"
                           ".filter((p) => p.startsWith('/v/'))")
    assert loaded
    kept = page.evaluate("""async () => { const names = await caches.keys();
        const cache = await caches.open(names.find((n) => n.startsWith('kozyr-')));
        return (await cache.keys()).map((r) => new URL(r.url).pathname); }""")
    assert set(loaded) <= set(kept), set(loaded) - set(kept)
    assert "/" in kept
    assert not page.errors, page.errors


def test_a_room_page_opens_offline_and_comes_back_with_the_connection(server, new_page):
    code, players = new_room(server, "thousand-1001", NAMES[:3])
    page = open_seat(new_page, server, code, players[0], LAPTOP, lang="pl")
    page.locator(".felt").wait_for()
    controlled(page)
    page.context.set_offline(True)
    page.reload()
    # the page and its modules from the worker's cache; the room's state needs the server
    page.locator("[data-role=offline-page]").wait_for()
    assert "Brak połączenia" in page.locator("[data-role=offline-page]").inner_text()
    assert page.locator("header.top .brand").is_visible()
    assert "Brak połączenia" in page.locator("[data-notice=offline]").inner_text()  # the browser's offline, any page
    page.context.set_offline(False)
    page.locator(".felt").wait_for()
    page.locator("[data-notice=offline]").wait_for(state="detached")
    assert not page.errors, page.errors


def test_a_push_shows_a_notification(server, new_page):
    page = new_page(LAPTOP)
    page.context.grant_permissions(["notifications"], origin=server)
    page.goto(server + "/")
    controlled(page)
    cdp = page.context.new_cdp_session(page)
    # the registration whose worker controls this page (other tests' contexts on the same
    # origin have registrations of their own, which the protocol may list too)
    me = cdp.send("Target.getTargetInfo")["targetInfo"]["targetId"]
    versions = []
    cdp.on("ServiceWorker.workerVersionUpdated", lambda e: versions.extend(e["versions"]))
    cdp.send("ServiceWorker.enable")
    reg = None
    for _ in range(100):
        reg = next((v["registrationId"] for v in versions if me in v.get("controlledClients", [])), None)
        if reg:
            break
        page.wait_for_timeout(100)
    assert reg, versions
    cdp.send("ServiceWorker.deliverPushMessage", {
        "origin": server, "registrationId": reg,
        "data": '{"title": "Kozyr", "body": "Ваш ход: Тысяча", "url": "/room/ABCD", "tag": "turn"}'})
    shown = []
    for _ in range(150):  # the worker shows it in its own time
        shown = page.evaluate("""async () => (await (await navigator.serviceWorker.ready).getNotifications())
            .map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data.url }))""")
        if shown:
            break
        page.wait_for_timeout(100)
    assert shown == [{"title": "Kozyr", "body": "Ваш ход: Тысяча", "tag": "turn", "url": "/room/ABCD"}]


def test_a_move_made_offline_is_sent_when_the_connection_is_back_T20(server, new_page):
    code, players, seat, table = LEADS.bring(server)  # T-20: the browser's seat leads, its connection down
    try:
        page = open_seat(new_page, server, code, players[seat], LAPTOP, lang="ru")
        playable = page.locator(".hand .card.playable")
        playable.first.wait_for()
        card = playable.nth(single_action_cards(page)[0]).get_attribute("data-card")
        page.context.set_offline(True)
        page.evaluate("() => window.kozyr.page.socket.reconnectNow()")  # the open socket dropped, as a lost network does
        page.locator("#status[data-status=offline]").wait_for()
        page.locator(f".hand .card[data-card='{card}']").click()
        note = page.locator("[data-notice=offline]")
        note.wait_for()
        assert "ваш ход отправится" in note.inner_text()
        assert page.locator(".felt[data-busy=true]").count() == 1, "a second move could be made meanwhile"
        page.context.set_offline(False)
        for i in range(table.seats):
            table.read_until_view(i)
        assert [seat, f"play:{card}"] in table.views[seat]["view"]["log"]
        note.wait_for(state="detached")
        assert not page.errors, page.errors
    finally:
        table.close()



def test_a_deploy_is_offered_as_new_version_reload_and_the_page_moves_whole(tmp_path, browser):
    """A server restarted with a changed client (another build) on the same address: the
    open page's worker update installs the new worker, which waits; the page says "A new
    version of Kozyr is ready" with Reload; the reload comes up under the new worker with
    every module and style sheet from the new build's prefix, none from the old one."""
    tree = tmp_path / "static"
    shutil.copytree(ROOT / "static", tree)
    port = _free_port()
    proc, base = start_server(tmp_path, port, KOZYR_STATIC_DIR=str(tree))
    ctx = browser.new_context(viewport=LAPTOP, locale="pl")
    try:
        page = ctx.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.add_init_script("localStorage.setItem('kozyr.lang', 'pl')")
        page.goto(base + "/")
        controlled(page)
        old = page.evaluate("() => [...document.querySelectorAll('link[rel=stylesheet]')].map((l) => l.href)")[0]
        stop_server(proc)
        with open(tree / "css" / "app.css", "a") as f:
            f.write("\n/* the next build */\n")
        proc, _ = start_server(tmp_path, port, KOZYR_STATIC_DIR=str(tree))
        page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).update()")
        button = page.locator("[data-role=notice-version]")
        button.wait_for()
        assert "Nowa wersja" in page.locator("[data-notice=version]").inner_text()
        with page.expect_navigation():
            button.click()
        controlled(page)
        page.locator("header.top .brand").wait_for()
        new = page.evaluate("() => [...document.querySelectorAll('link[rel=stylesheet]')].map((l) => l.href)")[0]
        prefix = lambda url: url.split("/")[4]  # noqa: E731 - http://host/v/<build>/...
        assert prefix(new) != prefix(old)
        loaded = page.evaluate("() => performance.getEntriesByType('resource').map((r) => r.name).filter((u) => u.includes('/v/'))")
        assert loaded and all(prefix(u) == prefix(new) for u in loaded), loaded
        caches_now = page.evaluate("async () => await caches.keys()")
        assert caches_now == [f"kozyr-{prefix(new)}"], caches_now
        assert not errors, errors
    finally:
        ctx.close()
        stop_server(proc)


def test_a_move_made_offline_after_the_match_moved_on_is_not_played_T20(server, new_page):
    """The same player plays on another device while this page is offline: the move this page
    kept is sent on return with its old version, the server refuses it as stale, and the page
    shows the new state (the other device's card on the table, its own card still in hand)."""
    code, players, seat, table = LEADS.bring(server)  # T-20: this seat leads
    try:
        page = open_seat(new_page, server, code, players[seat], LAPTOP, lang="en")
        page.locator(".hand .card.playable").first.wait_for()
        single = single_action_cards(page)
        assert len(single) >= 2
        playable = page.locator(".hand .card.playable")
        mine, other = (playable.nth(i).get_attribute("data-card") for i in single[:2])
        page.context.set_offline(True)
        page.evaluate("() => window.kozyr.page.socket.reconnectNow()")
        page.locator("#status[data-status=offline]").wait_for()
        page.locator(f".hand .card[data-card='{mine}']").click()
        page.locator("[data-notice=offline]").wait_for()
        table.act(seat, f"play:{other}")  # the other device (the websocket table) plays first
        page.context.set_offline(False)
        page.locator("#toast").filter(has_text="moved on").wait_for()
        page.locator(f".trick [data-card='{other}']").wait_for()
        assert page.locator(f".hand .card[data-card='{mine}']").count() == 1
        log = table.views[seat]["view"]["log"]
        assert [seat, f"play:{other}"] in log and [seat, f"play:{mine}"] not in log
        # and nothing was applied after the refusal: the room's match is at the table's version
        assert call(server, "GET", f"/api/rooms/{code}")["match"]["version"] == table.views[seat]["version"]
        assert not page.errors, page.errors
    finally:
        table.close()
