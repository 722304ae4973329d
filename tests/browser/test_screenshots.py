"""`make screenshots`: every family × phase × size × language of the table, written to
tests/browser/screenshots/table-<scene>-<size>-<lang>.png (not part of the CI run)."""

from __future__ import annotations

import datetime
import os

import pytest

from .conftest import LAPTOP, PHONE
from .helpers import WsTable, call, new_room, open_seat
from .scenes import SCENES

pytestmark = pytest.mark.skipif(not os.environ.get("KOZYR_SCREENSHOTS"), reason="make screenshots")


@pytest.mark.parametrize("scene", sorted(SCENES))
def test_screenshot(server, new_page, screenshots, scene):
    with SCENES[scene].shown(server, new_page) as (page, code, _, _):
        for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
            page.set_viewport_size(viewport)
            for lang in ("ru", "pl", "en"):
                page.locator("#lang").select_option(lang)
                page.wait_for_timeout(100)
                page.screenshot(path=str(screenshots / f"table-{scene}-{size}-{lang}.png"))
        page.locator("[data-role=open-scores]").click()
        page.wait_for_timeout(100)
        page.screenshot(path=str(screenshots / f"table-{scene}-phone-scores.png"))
        page.locator("[data-role=open-scores]").click()
        if scene.endswith("-play"):  # the four-colour deck, and a spectator's table
            page.locator("#four-colour").check()
            page.set_viewport_size(LAPTOP)
            page.screenshot(path=str(screenshots / f"table-{scene}-laptop-four-colour.png"))
            watcher = call(server, "POST", "/api/players", body={"name": "Widz"})
            spectator = open_seat(new_page, server, code, watcher, PHONE, lang="pl")
            spectator.wait_for_timeout(300)
            spectator.screenshot(path=str(screenshots / f"table-{scene}-phone-spectator.png"))
            assert not spectator.errors, spectator.errors
        assert not page.errors, page.errors


# --- a room's pace (issue 33): the room form, a turn-based table, My games, away, offline ---

TURN = {"pace": "turn", "move_seconds": 86400, "on_deadline": "wait", "vacation_days": 14}
PACE_NAMES = ["Анна-Мария Łęcka", "Bartholomew", "Ёжик"]


def _turn_room(server, names=PACE_NAMES, pace=TURN):
    """A started turn-based Тысяча and its players, with the seat whose move it is."""
    code, players = new_room(server, "thousand-1001", names, pace=pace)
    games = [next(g for g in call(server, "GET", "/api/players/me/games", p["token"]) if g["room"] == code) for p in players]
    return code, players, next(i for i, g in enumerate(games) if g["my_turn"])


def _each(page, screenshots, scene, redo=None, full_page=False):
    for size, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        for lang in ("ru", "pl", "en"):
            page.locator("#lang").select_option(lang)
            page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
            page.wait_for_timeout(150)
            if redo:
                redo(page)
            page.screenshot(path=str(screenshots / f"pace-{scene}-{size}-{lang}.png"), full_page=full_page)


PACE_SCENES = ["form", "host-settings", "table-mine", "table-waiting", "games", "away", "offline-move", "offline-page"]


@pytest.fixture(scope="module")
def clocked(tmp_path_factory, browser):
    from .clocked import clocked_server
    with clocked_server(tmp_path_factory.mktemp("clocked")) as c:
        yield c


def test_pace_screenshot_expired(clocked, new_page, screenshots):
    """A deadline passed in a room that waits: the host's table (his controls) and the late player's."""
    base, advance = clocked
    code, players = new_room(base, "thousand-1001", PACE_NAMES, pace=TURN)
    with WsTable(base, code, [p["token"] for p in players]) as table:
        for _ in range(10):  # the host acts while awaited: another seat's deadline passes
            seat = table.view["to_act"][0]
            if seat != 0:
                break
            table.act(seat, table.views[seat]["view"]["legal"][0])
    host = open_seat(new_page, base, code, players[0], LAPTOP)
    late = open_seat(new_page, base, code, players[seat], LAPTOP)
    host.locator("[data-role=pace-line]").wait_for()
    advance(TURN["move_seconds"] + 60)
    host.locator("[data-role=pace-host]").wait_for(timeout=20000)
    late.locator("[data-role=pace-line][data-state=expired]").wait_for()
    _each(host, screenshots, "table-expired-host")
    _each(late, screenshots, "table-expired-late")
    assert not host.errors and not late.errors, (host.errors, late.errors)


@pytest.mark.parametrize("scene", PACE_SCENES)
def test_pace_screenshot(server, new_page, screenshots, scene):
    from .lobby_helpers import as_player, player
    if scene == "form":
        page = as_player(new_page(LAPTOP), player(server, "Хозяйка стола"))
        page.goto(server + "/")

        def turn_chosen(page):  # a language switch draws the home page anew
            page.locator("[data-role=create-room] label[data-pace=turn]").click()
            page.locator("fieldset.pace").evaluate("(el) => el.scrollIntoView({block: 'center'})")
        page.locator("[data-role=create-room]").wait_for()
        _each(page, screenshots, scene, turn_chosen)
    elif scene == "host-settings":
        host = player(server, "Хозяйка стола")
        room = call(server, "POST", "/api/rooms", host["token"], {"variant": "thousand-1001", "seats": 3, **TURN})
        page = as_player(new_page(LAPTOP), host)
        page.goto(server + room["invite_path"])
        page.locator("[data-role=takeover-form] fieldset.pace").wait_for()
        _each(page, screenshots, scene, full_page=True)
    elif scene in ("table-mine", "table-waiting", "offline-move", "offline-page"):
        code, players, seat = _turn_room(server)
        who = players[seat] if scene != "table-waiting" else players[(seat + 1) % 3]
        page = open_seat(new_page, server, code, who, LAPTOP)
        page.locator("[data-role=pace-line]").wait_for()
        if scene.startswith("offline"):
            page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=15000)
            page.context.set_offline(True)
            if scene == "offline-move":
                page.evaluate("() => window.kozyr.page.socket.reconnectNow()")  # the open socket dropped, as a lost network does
                page.locator("#status[data-status=offline]").wait_for()
                page.locator(".controls [data-action=pass]").click()
            else:
                page.reload()
                page.locator("[data-role=offline-page]").wait_for()
            page.locator("[data-notice=offline]").wait_for()
        _each(page, screenshots, scene)
        page.context.set_offline(False)
    else:  # My games: deadlines, and away
        me = player(server, "Зоя Łęcka")
        others = [player(server, n) for n in PACE_NAMES[1:]]
        for pace in (TURN, {**TURN, "move_seconds": 3600}, {**TURN, "move_seconds": 259200}, {}):
            room = call(server, "POST", "/api/rooms", me["token"], {"variant": "thousand-1001", "seats": 3, **pace})
            for n, p in enumerate(others, start=1):
                call(server, "POST", f"/api/rooms/{room['code']}/seats/{n}", p["token"])
            call(server, "POST", f"/api/rooms/{room['code']}/start", me["token"])
            # moves over the websocket until the room waits for me (an hour per move, live) or for
            # another (24 h, 3 days): rows of both kinds
            mine = pace.get("move_seconds", 3600) == 3600
            with WsTable(server, room["code"], [me["token"]] + [p["token"] for p in others]) as table:
                for _ in range(10):
                    seat = table.view["to_act"][0]
                    if (seat == 0) == mine:
                        break
                    table.act(seat, table.views[seat]["view"]["legal"][0])
        if scene == "away":
            until = (datetime.date.today() + datetime.timedelta(days=10)).isoformat() + "T21:59:00Z"
            call(server, "PUT", "/api/players/me/away", me["token"], {"until": until})
        page = as_player(new_page(LAPTOP), me)
        page.goto(server + "/#/games")
        page.locator("[data-role=away]").wait_for()

        def away_in_sight(page):
            page.locator("[data-role=games-mine]").wait_for()
            if scene == "away":
                page.locator("[data-role=away]").evaluate("(el) => el.scrollIntoView({block: 'end'})")
        _each(page, screenshots, scene, away_in_sight, full_page=scene == "games")
    assert not page.errors, page.errors
