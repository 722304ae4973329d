"""The history page (scoresheet, chart, replay), names shown as text, languages, reconnects."""

from __future__ import annotations

import json

import pytest

from .conftest import PHONE
from .helpers import call, finish_match, host_room, join_room, play_whole_match_over_api, set_name, start

EVIL = "<img src=x onerror=alert(1)>"


def test_history_page_scoresheet_chart_and_replay(server, new_page, screenshots):
    match_id, players = play_whole_match_over_api(server, "king-3p", 3, ["Ольга", "Jerzy", "Sam"])
    page = new_page()
    page.goto(f"{server}/#/match/{match_id}")
    page.locator(".history").wait_for()
    detail = call(server, "GET", f"/api/matches/{match_id}")
    # the scoresheet: one row per deal, the chart: one line per seat
    assert page.locator(".sheet tbody tr").count() == len(detail["scoresheet"])
    assert page.locator("svg.chart polyline").count() == 3
    assert page.locator(".legend").inner_text().split() == ["Ольга", "Jerzy", "Sam"]
    assert page.locator(".winners").count() == 1
    # the replay: all hands as dealt, step forward and back
    replay = page.locator(".replay")
    first = detail["deals"][0]
    assert replay.locator(".replay-hand[data-seat='0'] .card").count() == len(first["hands"][0])
    step = replay.locator("[data-role=step]")
    assert step.inner_text().startswith("Step 0")
    for _ in range(3):
        replay.locator("[data-role=forward]").click()
    assert step.inner_text().startswith("Step 3")
    assert replay.locator(".replay-trick .card").count() == 3
    leader = first["actions"][0][0]
    assert replay.locator(f".replay-hand[data-seat='{leader}'] .card").count() == len(first["hands"][leader]) - 1
    replay.locator("[data-role=back]").click()
    assert step.inner_text().startswith("Step 2")
    assert replay.locator(".replay-trick .card").count() == 2
    replay.locator("[data-role=next-deal]").click()
    assert replay.locator("h2").inner_text().endswith("2")
    page.screenshot(path=str(screenshots / "history.png"), full_page=True)
    phone = new_page(PHONE)
    phone.goto(f"{server}/#/match/{match_id}")
    phone.locator("svg.chart").wait_for()
    phone.screenshot(path=str(screenshots / "history-phone.png"), full_page=True)
    assert not page.errors and not phone.errors


def test_history_of_korol_shows_the_role_table_in_russian(server, new_page, screenshots):
    match_id, _ = play_whole_match_over_api(server, "korol-ru", 4, ["Аня", "Боря", "Вика", "Гоша"], {"reigns": 1})
    detail = call(server, "GET", f"/api/matches/{match_id}")
    page = new_page(lang="ru")
    page.goto(f"{server}/#/match/{match_id}")
    page.locator(".history .sheet.korol").wait_for()
    rows = page.locator(".sheet.korol tbody tr")
    assert rows.count() == len(detail["role_table"]) == 2
    assert rows.nth(0).locator("td").first.inner_text() == "Коронация"
    assert "Король" in rows.nth(1).inner_text() and "Мужик" in rows.nth(1).inner_text()
    assert page.locator("svg.chart polyline").count() == 4
    page.screenshot(path=str(screenshots / "history-korol.png"), full_page=True)
    assert not page.errors


def test_names_and_chat_are_text_never_html(server, new_page, screenshots):
    host = new_page()
    invite = host_room(host, server, "Host", "king", "king-3p", 3)
    guest = new_page(PHONE, lang="pl")
    join_room(guest, invite, EVIL)
    for p in (host, guest):
        p.locator(".seat-row[data-seat='1'] .pname", has_text=EVIL).wait_for()
    # chat: the evil guest says something HTML-looking
    guest.locator("[data-role=chat-form] input").fill("<b>bold</b><img src=y onerror=alert(2)>")
    guest.locator("[data-role=chat-form] button").click()
    for p in (host, guest):
        p.locator(".chat-text", has_text="<b>bold</b><img src=y onerror=alert(2)>").wait_for()
        assert p.locator(".chat-name", has_text=EVIL).count() == 1
        assert p.locator("img:not([data-role=invite-qr])").count() == 0
        assert p.locator(".chat b:not(.chat-name)").count() == 0
    guest.screenshot(path=str(screenshots / "lobby-phone.png"), full_page=True)
    third = new_page()
    join_room(third, invite, "Third")
    start(host)
    for p in (host, guest, third):
        p.locator(".felt").wait_for()
        p.locator(".seat .pname", has_text=EVIL).first.wait_for()
        assert p.locator("img:not([data-role=invite-qr])").count() == 0
        assert p.dialogs == [] and not p.errors


@pytest.mark.parametrize("lang,word", [("ru", "Сохранить"), ("pl", "Zapisz"), ("en", "Save")])
def test_language_follows_the_browser_and_can_be_switched(new_page, server, lang, word):
    page = new_page(lang=lang)
    page.goto(server + "/")
    assert page.locator("[data-role=name-form] button").inner_text() == word
    page.locator("#lang").select_option("ru" if lang != "ru" else "pl")
    expected = "Сохранить" if lang != "ru" else "Zapisz"
    page.wait_for_function(f"() => document.querySelector('[data-role=name-form] button').textContent === {json.dumps(expected)}")


def test_reconnects_after_a_drop_and_resumes(server, new_page):
    host = new_page()
    invite = host_room(host, server, "Rita", "thousand", "thousand-1000-2p", 2)
    guest = new_page()
    join_room(guest, invite, "Olek")
    start(host)
    for p in (host, guest):
        p.locator(".felt").wait_for()
    version = host.locator(".felt").get_attribute("data-version")
    host.locator("#status[data-status=online]").wait_for(state="attached")
    # the connection drops: "offline" shows, then the client comes back by itself
    host.evaluate("kozyr.page.socket.ws.close()")
    host.locator("#status[data-status=offline]").wait_for()
    host.locator("#status[data-status=online]").wait_for(timeout=10000)
    assert host.locator(".felt").get_attribute("data-version") == version
    # and can act again: whoever is to act clicks the first control offered
    mover = host if host.locator(".felt").get_attribute("data-my-turn") == "true" else guest
    mover.locator(".controls [data-action]").first.click()
    for p in (host, guest):
        p.wait_for_function(f"() => Number(document.querySelector('.felt').dataset.version) > {version}")
    # someone else following the invite link now watches: no hand, no controls
    watcher = new_page()
    watcher.goto(invite)
    set_name(watcher, "Widz")
    watcher.locator(".me.spectator").wait_for()
    assert watcher.locator(".hand .card, [data-action]").count() == 0
    assert not host.errors and not guest.errors and not watcher.errors


def test_home_page_creates_a_room_with_house_rules(server, new_page, screenshots):
    page = new_page()
    page.goto(server + "/")
    set_name(page, "Opcje")
    form = page.locator("[data-role=create-room]")
    form.locator("select[name=family]").select_option("thousand")
    form.locator("select[name=variant]").select_option("thousand-1000")
    form.locator("input[name=goal]").fill("500")
    form.locator("input[name=round5_up]").set_checked(False)
    page.screenshot(path=str(screenshots / "home.png"), full_page=True)
    form.locator("[data-role=create]").click()
    page.wait_for_url("**/room/*")
    code = page.url.rsplit("/", 1)[1]
    room = call(server, "GET", f"/api/rooms/{code}")
    assert room["options"] == {"goal": 500, "round5_up": False}


def test_match_over_then_rematch(server, new_page):
    host = new_page()
    invite = host_room(host, server, "Hania", "king", "king-3p", 3)
    guests = [new_page(), new_page()]
    for n, g in enumerate(guests):
        join_room(g, invite, f"Gość {n + 1}")
    start(host)
    host.locator(".felt").wait_for()
    code = invite.rsplit("/", 1)[1]
    tokens = [json.loads(p.evaluate("localStorage.getItem('kozyr.player')"))["token"] for p in [host, *guests]]
    finish_match(server, code, tokens)
    # everyone sees the end, the winners and a way to the history; the host offers a rematch
    for p in (host, *guests):  # each page draws every view of the match first: allow for a busy machine
        p.locator("[data-role=match-over]").wait_for(timeout=60000)
        p.locator(".lobby a[href^='#/match/']").wait_for()
    host.locator("[data-role=rematch]").click()
    for p in (host, *guests):
        p.wait_for_function("() => document.querySelector('.felt') && document.querySelector('.felt').dataset.deal === '1'"
                            " && !document.querySelector('[data-role=match-over]')")
    room = call(server, "GET", f"/api/rooms/{code}")
    assert room["match"]["number"] == 2 and room["status"] == "playing"
