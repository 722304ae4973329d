"""Club tournaments in the browser (issue 37 item 4): an admin makes a 4-player round robin
of two rounds on the club page's "New tournament" form, starts it on its page, and the
page shows the rounds opening by themselves (bots play for the entrants, who never sit
down: the preset's turn timeout) and the standings at the end, equal to the API's; a
member sees the same page on the phone.  Screenshots of the club page's Tournaments panel
and of a tournament's page (running, with a bye; finished) at 1366x768 and 390x844 in
ru / pl / en behind KOZYR_SCREENSHOTS=1."""

from __future__ import annotations

import os
import time

import pytest

from .conftest import LAPTOP, PHONE
from .helpers import call, no_sideways_overflow, registered
from .test_accessibility import small_targets

VARIANT = "korol-ru"  # 4 seats; with 0 reigns a crowning deal and the match is over


def _need(server):
    if VARIANT not in registered(server):
        pytest.skip(f"{VARIANT} is not registered")


def as_player(page, server, player) -> None:
    page.goto(server + "/healthz")
    page.evaluate("p => localStorage.setItem('kozyr.player', JSON.stringify(p))",
                  {"id": player["id"], "name": player["name"], "token": player["token"]})


def club_of(server, names: list[str], takeover: float) -> tuple[list[dict], int, int]:
    """A club of ``names`` (the first its owner) with a Король preset of no reigns."""
    people = [call(server, "POST", "/api/players", body={"name": n}) for n in names]
    owner = people[0]
    cid = call(server, "POST", "/api/clubs", owner["token"], {"name": "Клуб по четвергам"})["club"]["id"]
    invite = call(server, "POST", f"/api/clubs/{cid}/invites", owner["token"])
    for p in people[1:]:
        call(server, "POST", f"/api/club-invites/{invite['token']}/join", p["token"])
    preset = call(server, "POST", f"/api/clubs/{cid}/presets", owner["token"], {
        "name": "Быстрый король", "variant": VARIANT, "options": {"reigns": 0},
        "room": {"seats": 4, "takeover_seconds": takeover}})
    return people, cid, preset["id"]


def test_a_four_player_round_robin_of_two_rounds_with_bots(server, new_page):
    _need(server)
    people, cid, _ = club_of(server, ["Ola", "Борис", "Celina", "Dmitri"], takeover=0.05)
    owner, member = people[0], people[2]
    page = new_page(LAPTOP, lang="en")
    as_player(page, server, owner)
    page.goto(f"{server}/#/club/{cid}")
    panel = page.locator("[data-role=club-tournaments]")
    panel.locator("[data-role=new-tournament] > summary").click()
    form = panel.locator("[data-role=tournament-form]")
    form.locator("input[name=name]").fill("Кубок <i>")
    form.locator("input[name=rounds]").fill("2")
    form.locator("input[name=points]").fill("5, x")  # refused in words, nothing sent
    form.locator("[data-role=create-tournament]").click()
    form.locator("[data-role=tournament-error]", has_text="numbers separated by commas").wait_for()
    assert call(server, "GET", f"/api/clubs/{cid}/tournaments", owner["token"]) == []
    form.locator("input[name=points]").fill("5, 3, 1, 0")
    for box in form.locator("input[name=entrants]").all():
        box.check()
    form.locator("[data-role=create-tournament]").click()
    page.wait_for_url(f"**/#/club/{cid}/tournament/*")
    tid = int(page.url.rsplit("/", 1)[1])
    assert page.locator("[data-role=tournament-name]").inner_text() == "Кубок <i>"  # text, never HTML
    assert page.locator("[data-role=tournament-entrants] .member").count() == 4

    page.locator("[data-role=start-tournament]").click()
    # round 1's table appears at once (a room of the club, its match started) ...
    table = page.locator("[data-role=tournament-rounds] [data-round='1'] .tournament-table")
    table.wait_for()
    assert table.locator("a.btn").get_attribute("href").startswith("/room/")
    # ... then round 2's opens by itself, and ends (the page redraws itself every few seconds;
    # looked at again here once the API says so)
    end = time.monotonic() + 30
    while call(server, "GET", f"/api/clubs/{cid}/tournaments/{tid}", owner["token"])["status"] != "finished":
        assert time.monotonic() < end, "the tournament did not finish"
        time.sleep(0.2)
    page.reload()
    page.locator("[data-role=tournament-status]", has_text="finished").wait_for()
    assert page.locator("[data-role=tournament-rounds] .tournament-round").count() == 2
    assert page.locator(".tournament-table[data-status=finished]").count() == 2
    api = call(server, "GET", f"/api/clubs/{cid}/tournaments/{tid}", owner["token"])
    assert api["status"] == "finished" and [r["round"] for r in api["schedule"]] == [1, 2]
    rows = page.locator("[data-role=standings-table] tbody tr")
    assert rows.count() == 4
    shown = {int(tr.get_attribute("data-player")): float(tr.locator("[data-role=points]").inner_text()) for tr in rows.all()}
    assert shown == {r["player"]: r["points"] for r in api["standings"]}
    # the standings add up: over both rounds each player's places' points
    total = {p["id"]: 0.0 for p in people}
    for rnd in api["schedule"]:
        for seat in rnd["tables"][0]["seats"]:
            total[seat["player"]] += [5, 3, 1, 0][seat["place"] - 1]
    assert shown == total
    with page.expect_download() as dl:
        page.locator("[data-role=standings-csv]").click()
    assert "rank,player,name,points" in open(dl.value.path(), encoding="utf-8").read()

    # a member on the phone: the same standings, nothing wider than the screen, the club page lists it
    phone = new_page(PHONE, lang="ru")
    as_player(phone, server, member)
    phone.goto(f"{server}/#/club/{cid}")
    link = phone.locator(f"[data-role=club-tournaments] [data-tournament='{tid}'] a")
    assert "закончен" in phone.locator(f"[data-tournament='{tid}'] [data-role=tournament-status]").inner_text()
    link.click()
    phone.locator("[data-role=standings-table] tbody tr").first.wait_for()
    assert phone.locator("[data-role=standings-table] tbody tr").count() == 4
    assert phone.locator("[data-role=start-tournament]").count() == 0  # no admin's buttons for a member
    assert no_sideways_overflow(phone) and small_targets(phone, 44) == []
    assert not page.errors and not phone.errors, (page.errors, phone.errors)


# --- screenshots (make screenshots; not in CI) -------------------------------------------------

SIZES = {"laptop": LAPTOP, "phone": PHONE}


@pytest.fixture(scope="module")
def tournament_scene(server):
    """A finished round robin and a running one of 5 entrants (a table playing, a bye:
    no turn timeout, so its match waits for the people)."""
    _need(server)
    people, cid, fast = club_of(server, ["Константин Константинопольский", "Wiesława", "Sam", "Zoë", "Аня"], takeover=0.05)
    owner = people[0]
    done = call(server, "POST", f"/api/clubs/{cid}/tournaments", owner["token"], {
        "name": "Кубок осени", "preset": fast, "format": "round_robin", "rounds": 2,
        "entrants": [p["id"] for p in people[:4]]})
    call(server, "POST", f"/api/clubs/{cid}/tournaments/{done['id']}/start", owner["token"])
    slow = call(server, "POST", f"/api/clubs/{cid}/presets", owner["token"], {
        "name": "Наш король", "variant": VARIANT, "options": {"reigns": 0}, "room": {"seats": 4, "takeover_seconds": 0}})
    running = call(server, "POST", f"/api/clubs/{cid}/tournaments", owner["token"], {
        "name": "Швейцарка зимы", "preset": slow["id"], "format": "swiss", "rounds": 3,
        "entrants": [p["id"] for p in people]})
    call(server, "POST", f"/api/clubs/{cid}/tournaments/{running['id']}/start", owner["token"])
    return {"owner": owner, "club": cid, "done": done["id"], "running": running["id"]}


@pytest.mark.skipif(not os.environ.get("KOZYR_SCREENSHOTS"), reason="screenshots: KOZYR_SCREENSHOTS=1")
@pytest.mark.parametrize("lang", ["ru", "pl", "en"])
@pytest.mark.parametrize("size", list(SIZES))
def test_tournament_pages_screenshots(server, new_page, screenshots, tournament_scene, lang, size):
    s = tournament_scene
    shots = []

    def shot(page, name):
        page.screenshot(path=str(screenshots / f"tournaments-{name}-{size}-{lang}.png"), full_page=True)
        shots.append((name, no_sideways_overflow(page)))

    page = new_page(SIZES[size], lang=lang)
    as_player(page, server, s["owner"])
    page.goto(f"{server}/#/club/{s['club']}")
    panel = page.locator("[data-role=club-tournaments]")
    panel.locator("[data-role=new-tournament] > summary").click()
    panel.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / f"tournaments-club-panel-{size}-{lang}.png"), clip=None)
    shots.append(("club-panel", no_sideways_overflow(page)))
    page.goto(f"{server}/#/club/{s['club']}/tournament/{s['running']}")
    page.locator("[data-role=byes]").wait_for()
    shot(page, "running")
    page.goto(f"{server}/#/club/{s['club']}/tournament/{s['done']}")
    page.wait_for_function("() => document.querySelectorAll('.tournament-round').length === 2 && "
                           "!document.querySelector('.tournament-table[data-status=playing]')", timeout=30000)
    shot(page, "finished")
    assert all(ok for _, ok in shots), shots
    assert not page.errors
