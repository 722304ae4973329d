"""WCAG 2.1 A/AA by axe-core (bundled by axe-playwright-python) on every page a player
sees: home, the room form, the lobby, the table in every family and phase, the deal
summary, the end of a match, history and replay, the player page, my games.  Each scene is
built once; the size (1366x768, 390x844) and the language (ru, pl, en) are switched in
the page, so every scene is checked six times for the price of one."""

from __future__ import annotations

import pytest

from .conftest import LAPTOP, PHONE
from .helpers import play_whole_match_over_api
from .lobby_helpers import as_player, player, room_with
from .scenes import SCENES

AXE_OPTIONS = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
               "resultTypes": ["violations"]}

# One scene of each family and phase the table shows (scenes.py builds them).
TABLE_SCENES = ["thousand-bidding", "thousand-talon-give", "thousand-give-chooser", "thousand-talon-contract",
                "thousand-confirm-throw", "thousand-play", "thousand-summary", "king-choose", "king-play-late",
                "king-summary", "king-match-over", "korol-tribute", "korol-play", "korol-summary",
                "korol-match-over", "krol-pool"]


def axe_violations(page, where: str, sizes: tuple[str, ...] = ("laptop", "phone"),
                   langs: tuple[str, ...] = ("ru", "pl", "en")) -> list[str]:
    """axe-core's WCAG 2.1 A/AA violations of the page as it is, at both sizes and in
    ru / pl / en (or those of ``sizes`` and ``langs``), one line each (rule, impact, the
    first few elements)."""
    from axe_playwright_python.sync_playwright import Axe
    axe = Axe()
    found = []
    for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        if size not in sizes:
            continue
        page.set_viewport_size(viewport)
        for lang in langs:
            page.locator("#lang").select_option(lang)
            page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
            page.wait_for_timeout(60)
            for v in axe.run(page, options=AXE_OPTIONS).response["violations"]:
                nodes = [" ".join(n["target"]) for n in v["nodes"]]
                found.append(f"{where} {size} {lang}: {v['id']} ({v['impact']}) x{len(nodes)} {nodes[:4]}")
            found += [f"{where} {size} {lang}: {x}" for x in small_targets(page, 44 if viewport == PHONE else 24)]
    return found


def small_targets(page, least: int) -> list[str]:
    """Touch targets under the size asked for: buttons, header tools and selects under
    `least` px high on the phone (44) or 24 px elsewhere, and the part of each card one can act
    with that shows in an overlapping hand under 24 px wide (WCAG 2.2, 2.5.8)."""
    return page.evaluate("""(least) => {
        const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0
          && getComputedStyle(el).visibility !== 'hidden'; };
        const out = [];
        for (const el of document.querySelectorAll('button, select, .tool, [role=button]:not(.card)')) {
          if (!shown(el) || el.closest('.sr-only, .replay-log')) continue;
          const r = el.getBoundingClientRect();
          if (r.height < least - 0.5) out.push(`${el.tagName}.${el.className} "${el.textContent.trim().slice(0, 20)}" ${Math.round(r.height)} px high`);
        }
        for (const hand of document.querySelectorAll('.hand')) {
          const cards = [...hand.querySelectorAll('.card')].filter(shown);
          cards.forEach((c, i) => {
            if (c.getAttribute('tabindex') !== '0') return;
            const r = c.getBoundingClientRect();
            const next = cards[i + 1] && cards[i + 1].getBoundingClientRect();
            const strip = next && Math.abs(next.top - r.top) < 1 ? next.left - r.left : r.width;
            if (strip < 23.5) out.push(`card ${c.dataset.card}: a strip of ${strip.toFixed(1)} px`);
          });
        }
        return out;
    }""", least)


def test_home_room_form_and_lobby_have_no_wcag_violations(server, new_page):
    host = player(server, "Алла")
    page = as_player(new_page(LAPTOP), host)
    page.goto(server + "/")
    page.locator("[data-role=create-room]").wait_for()
    found = axe_violations(page, "home+form")
    room = room_with(server, host, "thousand-1001", 3)
    page.goto(server + room["invite_path"])
    page.locator(".lobby, .room, main").first.wait_for()
    page.wait_for_timeout(300)
    found += axe_violations(page, "lobby")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("scene", TABLE_SCENES)
def test_the_table_has_no_wcag_violations(server, new_page, scene):
    with SCENES[scene].shown(server, new_page) as (page, _, _, _):
        found = axe_violations(page, scene)
        page.locator("[data-role=open-scores]").click()
        page.wait_for_timeout(100)
        found += axe_violations(page, scene + " scores")
    assert not found, "\n".join(found)


def test_history_replay_and_player_page_have_no_wcag_violations(server, new_page):
    match_id, players = play_whole_match_over_api(server, "king-3p", 3, ["Ольга", "Jerzy", "Sam"])
    page = new_page(LAPTOP)
    page.goto(f"{server}/#/match/{match_id}")
    page.locator(".history .replay").wait_for()
    found = axe_violations(page, "history")
    for _ in range(5):
        page.locator(".replay [data-role=forward]").click()
    found += axe_violations(page, "replay")
    me = as_player(new_page(LAPTOP), players[0])
    me.goto(f"{server}/#/player/{players[0]['id']}")
    me.locator(".player-page, main").first.wait_for()
    me.wait_for_timeout(300)
    found += axe_violations(me, "player")
    me.goto(f"{server}/#/games")
    me.locator("[data-role=games-mine]").wait_for()
    found += axe_violations(me, "my games")
    assert not found, "\n".join(found)


def test_pace_settings_turn_based_table_and_away_have_no_wcag_violations(server, new_page):
    """A turn-based room's settings (the host's lobby, the deadline's fields in sight), the
    table with the deadline line of my move, and My games with a deadline and away set."""
    import datetime

    from .helpers import call, new_room, open_seat
    turn = {"pace": "turn", "move_seconds": 86400, "on_deadline": "wait", "vacation_days": 14}
    host = player(server, "Пошаговая")
    room = call(server, "POST", "/api/rooms", host["token"], {"variant": "thousand-1001", "seats": 3, **turn})
    page = as_player(new_page(LAPTOP), host)
    page.goto(server + room["invite_path"])
    page.locator("[data-role=takeover-form] [data-role=pace-turn]").wait_for()
    found = axe_violations(page, "room settings")
    code, players = new_room(server, "thousand-1001", ["Ola", "Jan", "Ewa"], pace=turn)
    games = [next(g for g in call(server, "GET", "/api/players/me/games", p["token"]) if g["room"] == code) for p in players]
    awaited = players[next(i for i, g in enumerate(games) if g["my_turn"])]
    table = open_seat(new_page, server, code, awaited, LAPTOP)
    table.locator("[data-role=pace-line].mine").wait_for()
    found += axe_violations(table, "turn-based table")
    until = (datetime.date.today() + datetime.timedelta(days=4)).isoformat() + "T18:00:00Z"
    call(server, "PUT", "/api/players/me/away", awaited["token"], {"until": until})
    mine = as_player(new_page(LAPTOP), awaited)
    mine.goto(server + "/#/games")
    mine.locator("[data-role=away][data-away=true]").wait_for()
    found += axe_violations(mine, "my games away")
    assert not found, "\n".join(found)
