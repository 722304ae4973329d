"""The player's page: the sign-in link opened in a second browser context makes it the
same player; ratings with their chart, record, head-to-head; screenshots in ru/pl/en."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE
from .helpers import call, finish_match


def rated_matches(base: str, names: list[str], count: int) -> list[dict]:
    """``count`` rated korol-ru matches (0 reigns) of the same four players."""
    players = [call(base, "POST", "/api/players", body={"name": n}) for n in names]
    room = call(base, "POST", "/api/rooms", players[0]["token"],
                {"variant": "korol-ru", "seats": 4, "options": {"reigns": 0}, "rated": True})
    code = room["code"]
    for n, p in enumerate(players[1:], start=1):
        call(base, "POST", f"/api/rooms/{code}/seats/{n}", p["token"])
    for i in range(count):
        call(base, "POST", f"/api/rooms/{code}/{'start' if i == 0 else 'rematch'}", players[0]["token"])
        finish_match(base, code, [p["token"] for p in players])
    return players


def pt_more(lang: str) -> str:
    return {"en": "More", "ru": "Ещё", "pl": "Więcej"}[lang]


def as_player(page, base: str, player: dict) -> None:
    page.goto(base + "/")
    page.evaluate("p => localStorage.setItem('kozyr.player', JSON.stringify(p))", player)


@pytest.fixture(scope="module")
def friends(server):
    return rated_matches(server, ["Ольга", "Jerzy", "Sam", "Zoë"], 2)


def test_sign_in_link_in_a_second_context_is_the_same_player(server, new_page, friends):
    laptop = new_page()
    as_player(laptop, server, friends[0])
    laptop.goto(server + "/#/player")
    laptop.locator("#new-sign-in-link").click()
    url = laptop.locator(".signin-url").inner_text()
    assert "/#/signin/" in url
    assert laptop.locator("img.signin-qr").get_attribute("src").startswith("data:image/svg+xml")

    phone = new_page(viewport=PHONE)
    phone.goto(url)
    phone.locator(".signed-in").wait_for()
    assert "Ольга" in phone.locator(".signed-in").inner_text()
    assert "/signin/" not in phone.url  # the secret left the address bar
    stored = phone.evaluate("JSON.parse(localStorage.getItem('kozyr.player'))")
    assert stored["id"] == friends[0]["id"] and stored["token"] != friends[0]["token"]
    mine = call(server, "GET", "/api/players/me/matches", friends[0]["token"])
    theirs = call(server, "GET", "/api/players/me/matches", stored["token"])
    assert [m["id"] for m in theirs] == [m["id"] for m in mine] and len(mine) == 2
    # The same link a second time, on a third device: refused.
    other = new_page()
    other.goto(url)
    other.locator(".sign-in-failed").wait_for()
    assert other.evaluate("localStorage.getItem('kozyr.player')") is None
    assert not laptop.errors and not phone.errors and not other.errors


@pytest.mark.parametrize("lang", ["ru", "pl", "en"])
def test_player_page_with_its_chart(server, new_page, friends, screenshots, lang):
    for viewport, tag in ((DESKTOP | {"width": 1366, "height": 768}, "desktop"), (PHONE, "phone")):
        page = new_page(viewport=viewport, lang=lang)
        asked: list[str] = []
        page.on("request", lambda r, asked=asked: asked.append(r.url))
        as_player(page, server, friends[0])
        page.evaluate("l => localStorage.setItem('kozyr.lang', l)", lang)
        page.goto(f"{server}/#/player/{friends[0]['id']}")
        page.locator(".rating-chart svg.chart polyline").wait_for()
        assert page.locator(".player-name").inner_text().startswith("Ольга")
        assert page.locator("table.ratings tbody tr").count() == 1
        # two rated matches: the chart's line has the start and two points
        points = page.locator(".rating-chart polyline").get_attribute("points").split()
        assert len(points) == 3
        assert page.locator("table.record tbody tr td").nth(1).inner_text() == "2"
        page.locator("table.h2h tbody tr").nth(2).wait_for()
        assert page.locator("table.h2h tbody tr").count() == 3
        page.locator("table.finished tbody tr").nth(1).wait_for()
        assert page.locator("#new-sign-in-link").count() == 1
        titles = page.locator("table.korol-stats tbody tr")
        assert titles.count() >= 1  # reigns as each title (korol-ru)
        # the paged API: the chart's route, the match list by keyset (no offset), the CSV link
        assert any("/ratings/korol/chart?points=" in u for u in asked)
        finished = [u for u in asked if "/finished?" in u]
        assert finished and not any("offset=" in u for u in finished)
        assert page.locator("table.finished tbody tr").count() == 2
        assert page.locator(".player-finished button", has_text=pt_more(lang)).is_hidden()  # 2 < a page
        csv_href = page.locator(".player-finished a[download]").get_attribute("href")
        assert csv_href == f"/api/players/{friends[0]['id']}/matches.csv"
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "sideways scrolling"
        page.screenshot(path=str(screenshots / f"player-{lang}-{tag}.png"), full_page=True)
        assert not page.errors
    # someone else's page: no sign-in link
    page = new_page(lang=lang)
    as_player(page, server, friends[1])
    page.goto(f"{server}/#/player/{friends[0]['id']}")
    page.locator(".player-ratings").wait_for()
    assert page.locator("#new-sign-in-link").count() == 0


def test_new_room_with_the_same_people_shows_on_their_home_page(server, new_page, friends):
    host = new_page()
    as_player(host, server, friends[1])
    host.goto(f"{server}/#/player")
    host.locator("table.finished button.again").first.click()
    host.wait_for_url("**/room/**")
    code = host.url.rstrip("/").rsplit("/", 1)[-1]
    friend = new_page(lang="ru")
    as_player(friend, server, friends[0])
    friend.goto(server + "/")
    call = friend.locator(f".calls .call[data-room='{code}']")
    call.wait_for()
    assert "Jerzy" in call.inner_text()
    call.locator("button.primary").click()
    friend.wait_for_url(f"**/room/{code}")
    assert not host.errors and not friend.errors


@pytest.mark.parametrize("lang", ["ru", "pl", "en"])
def test_name_and_passphrase_sign_in_by_clicking(server, new_page, friends, screenshots, lang):
    """Set a passphrase on one's page, sign in with it on a phone (another context): the
    same player; a wrong passphrase says so and signs nobody in."""
    who = friends[["ru", "pl", "en"].index(lang) + 1]
    login = f"{who['name']} {lang}"
    laptop = new_page(viewport=DESKTOP | {"width": 1366, "height": 768}, lang=lang)
    as_player(laptop, server, who)
    laptop.goto(f"{server}/#/player")
    form = laptop.locator("[data-role=passphrase-form]")
    form.locator("input[name=login]").fill(login)
    form.locator("input[name=passphrase]").fill("пароль correct horse")
    form.locator("button[type=submit]").click()
    laptop.locator(".pass-state", has_text=login).wait_for()
    laptop.locator(".player-devices").screenshot(path=str(screenshots / f"player-passphrase-{lang}-desktop.png"))

    phone = new_page(viewport=PHONE, lang=lang)
    phone.goto(f"{server}/#/signin")
    sign = phone.locator("[data-role=sign-in-form]")
    sign.locator("input[name=login]").fill(login.upper())
    sign.locator("input[name=passphrase]").fill("wrong horse battery")
    sign.locator("button[type=submit]").click()
    phone.locator(".signin-page .error", has_text={"ru": "не совпадают", "pl": "nie pasują", "en": "do not match"}[lang]).wait_for()
    assert phone.evaluate("localStorage.getItem('kozyr.player')") is None
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "sideways scrolling"
    phone.screenshot(path=str(screenshots / f"signin-passphrase-{lang}-phone.png"), full_page=True)
    sign.locator("input[name=passphrase]").fill("пароль correct horse")
    sign.locator("button[type=submit]").click()
    phone.locator(".signed-in").wait_for()
    stored = phone.evaluate("JSON.parse(localStorage.getItem('kozyr.player'))")
    assert stored["id"] == who["id"] and stored["token"] != who["token"]
    assert not laptop.errors and not phone.errors


def extra_device(base: str, player: dict) -> dict:
    """One more device of ``player`` signed in by a link (over the API)."""
    link = call(base, "POST", "/api/players/me/sign-in-link", player["token"])["url"]
    return call(base, "POST", "/api/sign-in", body={"link": link})


@pytest.mark.parametrize("lang", ["ru", "pl", "en"])
def test_sign_a_device_out_from_the_devices_list(server, new_page, screenshots, lang):
    """The player's page lists his devices; "sign out" on one: that device's token stops
    working (its page becomes a new player on reload), the others stay; then "sign out
    all other devices" leaves this one alone."""
    import urllib.error

    laptop_player = call(server, "POST", "/api/players", body={"name": f"Ева {lang}"})
    phone_player, tablet_player, old_player = (extra_device(server, laptop_player) for _ in range(3))
    phone = new_page(viewport=PHONE, lang=lang)
    as_player(phone, server, phone_player)
    phone.goto(server + "/")

    laptop = new_page(viewport=DESKTOP | {"width": 1366, "height": 768}, lang=lang)
    as_player(laptop, server, laptop_player)
    laptop.goto(f"{server}/#/player")
    rows = laptop.locator("[data-role=devices] li.device")
    rows.nth(3).wait_for()
    assert rows.count() == 4 and rows.nth(0).locator(".badge").count() == 1  # this device, first
    assert laptop.locator("[data-role=devices] button[data-role=sign-out]").count() == 3
    laptop.locator(".player-devices").screenshot(path=str(screenshots / f"player-devices-{lang}-desktop.png"))

    rows.nth(1).locator("button[data-role=sign-out]").click()  # the phone: the second device
    laptop.wait_for_function("() => document.querySelectorAll('[data-role=devices] li.device').length === 3")
    with pytest.raises(urllib.error.HTTPError) as refused:
        call(server, "GET", "/api/players/me", phone_player["token"])
    assert refused.value.code == 401
    assert call(server, "GET", "/api/players/me", tablet_player["token"])["id"] == laptop_player["id"]
    phone.reload()
    phone.wait_for_function("t => (JSON.parse(localStorage.getItem('kozyr.player') || 'null') || {}).token !== t",
                            arg=phone_player["token"])
    stored = phone.evaluate("JSON.parse(localStorage.getItem('kozyr.player') || 'null')")
    assert stored is None or stored["id"] != laptop_player["id"]  # no longer that player

    laptop.locator("button[data-role=sign-out-others]").click()
    laptop.wait_for_function("() => document.querySelectorAll('[data-role=devices] li.device').length === 1")
    for device in (tablet_player, old_player):
        with pytest.raises(urllib.error.HTTPError):
            call(server, "GET", "/api/players/me", device["token"])
    assert call(server, "GET", "/api/players/me", laptop_player["token"])["id"] == laptop_player["id"]
    assert laptop.locator("button[data-role=sign-out-others]").is_hidden()
    assert laptop.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "sideways scrolling"
    assert not laptop.errors and not phone.errors

    small = new_page(viewport=PHONE, lang=lang)
    extra_device(server, laptop_player)
    as_player(small, server, laptop_player)
    small.goto(f"{server}/#/player")
    small.locator("[data-role=devices] li.device").nth(1).wait_for()
    assert small.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "sideways scrolling"
    small.locator(".player-devices").screenshot(path=str(screenshots / f"player-devices-{lang}-phone.png"))
    assert not small.errors
