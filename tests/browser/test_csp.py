"""The client under the app's Content-Security-Policy in real Chromium: home, a table in
play (cards, the trick, choosers and confirmations, panels), the invite QR, the history
and the player page with its sign-in QR raise no CSP violation and no console error; the
assets come from the build prefix, compressed.

Every browser test also fails on a violation (conftest.new_page); these walk the pages
on purpose and also refuse console errors."""

from __future__ import annotations

import re

import pytest

from .conftest import LAPTOP, PHONE
from .helpers import call, finish_match, open_seat, set_name
from .scenes import SCENES


def watch_console(page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def clean(page, console: list[str]) -> None:
    assert not page.csp, page.csp
    assert not console, console
    assert not page.errors, page.errors


RESOURCES_JS = """() => performance.getEntriesByType('resource')
  .filter((e) => e.initiatorType === 'script' || e.initiatorType === 'link' || e.initiatorType === 'other')
  .map((e) => ({ url: e.name, encoded: e.encodedBodySize, decoded: e.decodedBodySize }))"""


def test_the_watch_sees_a_violation(server, new_page):
    """The recorder of conftest works: a style attribute set by script is refused and
    reported (then forgotten, so this test does not fail on it)."""
    page = new_page()
    page.goto(server + "/")
    page.locator("[data-role=name-form]").wait_for()
    page.evaluate("document.querySelector('main').setAttribute('style', 'outline: 3px solid red')")
    page.evaluate("() => { const s = document.createElement('script'); s.textContent = 'window.ran = 1'; document.body.append(s); }")
    page.wait_for_function("() => document.querySelector('main').getAttribute('style') !== null")
    page.wait_for_timeout(300)
    assert page.evaluate("getComputedStyle(document.querySelector('main')).outlineStyle") != "solid"
    assert page.evaluate("window.ran") is None
    directives = " ".join(page.csp)
    assert "style-src-attr" in directives and "script-src-elem" in directives, page.csp
    page.csp.clear()


def test_home_page_under_the_csp_with_its_assets_prefixed_and_compressed(server, new_page):
    page = new_page(LAPTOP)
    console = watch_console(page)
    page.goto(server + "/")
    set_name(page, "Ирина")
    form = page.locator("[data-role=create-room]")
    form.wait_for()
    form.locator("select[name=family]").select_option("thousand")
    page.wait_for_timeout(200)
    resources = page.evaluate(RESOURCES_JS)
    ours = [r for r in resources if r["url"].startswith(server) and re.search(r"\.(js|css)$", r["url"])]
    assert len(ours) >= 15, ours  # the style sheets and the module graph of app.js
    prefix = server + "/v/"
    build = {r["url"][len(prefix):].split("/", 1)[0] for r in ours if r["url"].startswith(prefix)}
    assert len(build) == 1 and all(r["url"].startswith(prefix) for r in ours), ours
    for r in ours:  # sent gzipped: fewer bytes on the wire than the file has
        assert 0 < r["encoded"] < r["decoded"], r
    clean(page, console)


@pytest.mark.parametrize("scene", ["thousand-confirm-throw", "thousand-give-chooser", "thousand-summary"])
def test_a_table_in_play_under_the_csp(server, new_page, scene):
    sc = SCENES[scene]
    code, players, seat, table = sc.bring(server)
    try:
        for viewport in (LAPTOP, PHONE):
            page = open_seat(new_page, server, code, players[seat], viewport, lang="pl")
            console = watch_console(page)
            page.reload()
            page.locator(".hand .card").first.wait_for()
            sc.prepare and sc.prepare(page)  # the confirmation or the chooser opened by a click
            if scene == "thousand-confirm-throw":
                page.locator("[data-role=confirm]").wait_for()
                page.locator("[data-role=confirm-no]").click()
            if scene == "thousand-give-chooser":
                page.locator("[data-role=chooser]").wait_for()
            if scene == "thousand-summary":
                page.locator("[data-role=deal-summary]").wait_for()
            # the hand's spread (--n, set through the CSSOM) reached the style sheet
            assert page.evaluate("getComputedStyle(document.querySelector('.hand')).getPropertyValue('--n').trim()") \
                == str(page.locator(".hand .card").count())
            help_button = page.locator("[data-role=help]")
            if help_button.count():
                help_button.first.click()
            if viewport == PHONE:  # the scores panel over the table (beside it on a laptop)
                page.locator("[data-role=open-scores]").click()
                page.locator("[data-role=scores]").wait_for()
                page.locator("[data-role=open-scores]").click()  # and closed again
            page.locator("[data-role=open-invite]").click()
            qr = page.locator("img[data-role=invite-qr]")
            qr.wait_for()
            page.wait_for_function("() => document.querySelector('img[data-role=invite-qr]').naturalWidth > 0")
            page.keyboard.press("Escape")
            page.wait_for_timeout(300)
            clean(page, console)
        if scene == "thousand-give-chooser":  # one action sent by clicking: the next view comes
            version = page.evaluate("Number(document.querySelector('.felt').dataset.version)")
            page.locator("[data-role=chooser] [data-action]").first.click()
            page.wait_for_function(f"() => Number(document.querySelector('.felt').dataset.version) > {version}")
            page.wait_for_timeout(300)
            clean(page, console)
    finally:
        table.close()


def test_player_page_history_and_sign_in_qr_under_the_csp(server, new_page):
    players = [call(server, "POST", "/api/players", body={"name": n}) for n in ["Ola", "Kuba", "Ann", "Zed"]]
    room = call(server, "POST", "/api/rooms", players[0]["token"],
                {"variant": "korol-ru", "seats": 4, "options": {"reigns": 0}, "rated": True})
    for n, p in enumerate(players[1:], start=1):
        call(server, "POST", f"/api/rooms/{room['code']}/seats/{n}", p["token"])
    call(server, "POST", f"/api/rooms/{room['code']}/start", players[0]["token"])
    match_id = finish_match(server, room["code"], [p["token"] for p in players])
    page = new_page(LAPTOP, lang="ru")
    console = watch_console(page)
    page.goto(server + "/")
    page.evaluate("p => localStorage.setItem('kozyr.player', JSON.stringify(p))",
                  {k: players[0][k] for k in ("id", "name", "token")})
    page.goto(f"{server}/#/player")
    page.locator(".rating-chart svg.chart polyline").wait_for()
    page.locator("#new-sign-in-link").click()
    page.wait_for_function("() => (document.querySelector('img.signin-qr') || {}).naturalWidth > 0")  # a data: SVG
    page.goto(f"{server}/#/match/{match_id}")
    page.locator("[data-role=step]").first.wait_for()
    page.locator("[data-role=forward]").first.click()
    page.wait_for_timeout(300)
    clean(page, console)
