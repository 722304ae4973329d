"""A room's pace on the client (issue 33; README "Pace, deadlines, vacations"): the room
form's live / turn-based choice reaching the server, a turn-based table saying who is
awaited, since when and the deadline, My games' deadlines, and away until a date.  The
server decides who is awaited and when a move is due; the page only shows it."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest

from .clocked import clocked_server
from .conftest import LAPTOP, PHONE
from .helpers import WsTable, call, client_module, new_room, open_seat
from .lobby_helpers import as_player, no_sideways_overflow, player

TURN = {"pace": "turn", "move_seconds": 86400, "on_deadline": "wait", "vacation_days": 14}
I18N = client_module("i18n.js")


@pytest.fixture(scope="module")
def clocked(tmp_path_factory, browser):
    """A server of this module's own whose deadline clock the tests move on."""
    with clocked_server(tmp_path_factory.mktemp("clocked")) as c:
        yield c


def shown(page, iso: str) -> str:
    """A deadline's moment as the page's language writes it (weekday, date, time)."""
    return page.evaluate(f"(iso) => {I18N}.then((m) => m.dateTime(iso, m.WHEN))", iso)


def my_turn_game(server, code: str, who: dict) -> dict:
    return next(g for g in call(server, "GET", "/api/players/me/games", who["token"]) if g["room"] == code)


def test_a_turn_based_room_made_through_the_form_reaches_the_server(server, new_page):
    host = player(server, "Prowadząca")
    page = as_player(new_page(LAPTOP, lang="pl"), host)
    page.goto(server + "/")
    form = page.locator("[data-role=create-room]")
    form.wait_for()
    # live is the default: the turn clock shows, a deadline does not
    assert form.locator("input[name=pace][value=live]").is_checked()
    assert form.locator("[data-role=pace-turn]").is_hidden()
    assert form.locator("input[name=takeover_seconds]").is_visible()
    form.locator("label[data-pace=turn]").click()
    assert form.locator("input[name=takeover_seconds]").is_hidden()
    moves = form.locator("select[name=move_seconds]")
    assert moves.locator("option").all_inner_texts() == ["5 minut", "1 godzina", "12 godzin", "24 godziny", "3 dni", "7 dni"]
    assert moves.input_value() == "86400"  # 24 h, the README's default
    moves.select_option("259200")
    form.locator("select[name=on_deadline]").select_option("wait")
    form.locator("input[name=vacation_days]").fill("7")
    form.locator("[data-role=create]").click()
    page.wait_for_url("**/room/*")
    code = page.url.rsplit("/", 1)[1]
    room = call(server, "GET", f"/api/rooms/{code}")
    assert (room["pace"], room["move_seconds"], room["on_deadline"], room["vacation_days"]) == ("turn", 259200, "wait", 7)

    # the host's settings in the lobby start from the room's, and change it (PATCH)
    settings = page.locator("[data-role=takeover-form]")
    settings.wait_for()
    assert settings.locator("input[name=pace][value=turn]").is_checked()
    assert settings.locator("select[name=move_seconds]").input_value() == "259200"
    settings.locator("select[name=move_seconds]").select_option("43200")
    settings.locator("select[name=on_deadline]").select_option("bot")
    settings.locator("button[type=submit]").click()
    page.wait_for_function("() => window.kozyr.page.room.move_seconds === 43200")
    room = call(server, "GET", f"/api/rooms/{code}")
    assert (room["pace"], room["move_seconds"], room["on_deadline"]) == ("turn", 43200, "bot")

    # a guest reads the pace in words, in the invitation and the lobby
    guest = as_player(new_page(PHONE, lang="ru"), player(server, "Гость"))
    guest.goto(f"{server}/room/{code}")
    said = guest.locator("[data-role=room-pace]")
    said.wait_for()
    assert said.inner_text() == "Пошагово: 12 часов на ход; потом ход делает бот; отпуск до 7 дней"
    no_sideways_overflow(guest)

    # and back to live: the turn clock again
    settings.locator("label[data-pace=live]").click()
    settings.locator("input[name=takeover_seconds]").fill("45")
    settings.locator("button[type=submit]").click()
    page.wait_for_function("() => window.kozyr.page.room.pace === 'live'")
    room = call(server, "GET", f"/api/rooms/{code}")
    assert (room["pace"], room["takeover_seconds"]) == ("live", 45)
    assert not page.errors and not guest.errors, (page.errors, guest.errors)


def test_a_turn_based_table_says_who_is_awaited_and_the_deadline(server, new_page):
    code, players = new_room(server, "thousand-1001", ["Ola", "Jan", "Ewa"], pace=TURN)
    first = open_seat(new_page, server, code, players[0], LAPTOP, lang="en")
    seat = first.evaluate("() => window.kozyr.page.view.to_act[0]")
    awaited, other = players[seat], players[(seat + 1) % 3]
    game = my_turn_game(server, code, awaited)
    assert game["my_turn"] and game["pace"] == "turn" and game["due"]

    mine = first if seat == 0 else open_seat(new_page, server, code, awaited, LAPTOP, lang="en")
    line = mine.locator("[data-role=pace-line]")
    line.wait_for()
    assert line.get_attribute("data-state") == "due"
    assert "mine" in line.get_attribute("class")
    text = line.inner_text()
    assert text.startswith("Your move · since ")
    assert re.search(r"deadline in 2[34] hours, ", text), text
    assert shown(mine, game["due"]) in text
    # the reader hears the deadline once, when the turn begins
    said = mine.locator("#announcer p").all_inner_texts()
    assert len([s for s in said if s.startswith("Your move. Deadline in ")]) == 1, said

    theirs = open_seat(new_page, server, code, other, PHONE, lang="ru")
    line = theirs.locator("[data-role=pace-line]")
    line.wait_for()
    assert "mine" not in line.get_attribute("class")
    assert line.locator(".pace-who b").inner_text() == f"Ждём: {awaited['name']}"
    assert shown(theirs, game["due"]) in line.inner_text()
    # a turn-based table does not call a closed tab a lost connection
    assert theirs.locator("[data-role=disconnected]").count() == 0
    no_sideways_overflow(theirs)

    # a live room keeps its countdown and has no deadline line
    live_code, live_players = new_room(server, "thousand-1001", ["Tik", "Tak", "Tok"], takeover=60)
    live = open_seat(new_page, server, live_code, live_players[0], LAPTOP)
    live.wait_for_timeout(500)
    assert live.locator("[data-role=pace-line]").count() == 0
    for page in (first, mine, theirs, live):
        assert not page.errors, page.errors


def test_the_deadline_is_said_again_each_minute_not_each_second(clocked, new_page):
    """An hour passes on the server's deadline clock and on the page's (Playwright's clock):
    the line says one hour less, redrawn by the page's own minute."""
    base, advance = clocked
    code, players = new_room(base, "thousand-1001", ["Ola", "Jan", "Ewa"], pace=TURN)
    seat = next(i for i, p in enumerate(players) if my_turn_game(base, code, p)["my_turn"])
    page = new_page(LAPTOP, lang="en")
    page.clock.install()
    as_player(page, players[seat])
    page.goto(f"{base}/room/{code}")
    due = page.locator("[data-role=pace-line] .pace-due")
    due.wait_for()
    first = due.inner_text()
    before = int(re.search(r"in (\d+) hours", first).group(1))
    page.clock.run_for(30_000)
    assert due.inner_text() == first  # no second ticks by
    advance(3600)
    page.clock.run_for(3600_000)
    # (the hour run on the page's clock lets its socket's ping timers fire too: it may be
    # reconnecting for a moment, so the line is waited for, not read at once)
    page.wait_for_function("(want) => (document.querySelector('[data-role=pace-line] .pace-due') || {})"
                           ".textContent?.includes(want)", arg=f"in {before - 1} hours", timeout=20000)
    assert not page.errors, page.errors


def test_my_games_shows_each_turn_based_deadline(server, new_page):
    me, a, b = player(server, "Зоя"), player(server, "Ян"), player(server, "Ева")
    codes = []
    for _ in range(3):  # the server's seeds decide who bids first: one room in three is mine at least
        room = call(server, "POST", "/api/rooms", me["token"], {"variant": "thousand-1001", "seats": 3, **TURN})
        for n, p in enumerate((a, b), start=1):
            call(server, "POST", f"/api/rooms/{room['code']}/seats/{n}", p["token"])
        call(server, "POST", f"/api/rooms/{room['code']}/start", me["token"])
        codes.append(room["code"])
    games = call(server, "GET", "/api/players/me/games", me["token"])
    turn = [g for g in games if g["room"] in codes]
    assert all(g["pace"] == "turn" for g in turn)
    page = as_player(new_page(PHONE, lang="ru"), me)
    page.goto(server + "/#/games")
    page.locator("[data-role=games-mine]").wait_for()
    for g in turn:
        row = page.locator(f".game-row[data-room='{g['room']}']")
        due = row.locator("[data-role=game-due]")
        if g["due"] and not g["expired"]:
            assert due.get_attribute("data-state") == "due"
            assert due.inner_text().startswith("срок через ")
            assert shown(page, g["due"]) in due.inner_text()
    mine = [g["room"] for g in games if g["my_turn"]]
    assert page.locator("[data-role=games-mine] .game-row").evaluate_all("(els) => els.map((e) => e.dataset.room)") == mine
    no_sideways_overflow(page)
    assert not page.errors, page.errors


def test_away_until_a_date_is_set_and_cleared(server, new_page):
    me = player(server, "Urlopowicz")
    page = as_player(new_page(LAPTOP, lang="pl"), me)
    page.goto(server + "/#/games")
    box = page.locator("[data-role=away]")
    box.wait_for()
    assert box.get_attribute("data-away") == "false"
    assert box.locator("[data-role=away-back]").count() == 0
    day = (date.today() + timedelta(days=5)).isoformat()
    box.locator("input[name=until]").fill(day)
    box.locator("[data-role=away-set]").click()
    page.locator("[data-role=away][data-away=true]").wait_for()
    until = call(server, "GET", "/api/players/me", me["token"])["away_until"]
    # the end of the chosen day, as the page's clock has it
    assert page.evaluate("([iso, day]) => { const [y, m, d] = day.split('-').map(Number);"
                         " return Date.parse(iso) === new Date(y, m - 1, d, 23, 59).getTime(); }", [until, day])
    assert page.locator("[data-role=away-state]").inner_text().startswith("Urlop do ")
    assert page.locator("[data-role=away] input[name=until]").input_value() == day
    page.locator("[data-role=away-back]").click()
    page.locator("[data-role=away][data-away=false]").wait_for()
    assert call(server, "GET", "/api/players/me", me["token"])["away_until"] is None
    assert page.locator("[data-role=away-state]").inner_text() == "Jesteś na miejscu: terminy biegną normalnie."
    assert not page.errors, page.errors


def test_an_away_player_s_deadline_is_shown_paused(server, new_page):
    code, players = new_room(server, "thousand-1001", ["Ola", "Jan", "Ewa"], pace=TURN)
    seat = next(i for i, p in enumerate(players) if my_turn_game(server, code, p)["my_turn"])
    awaited, other = players[seat], players[(seat + 1) % 3]
    until = (date.today() + timedelta(days=3)).isoformat() + "T12:00:00Z"
    call(server, "PUT", "/api/players/me/away", awaited["token"], {"until": until})
    page = open_seat(new_page, server, code, other, LAPTOP, lang="en")
    line = page.locator("[data-role=pace-line][data-state=paused]")
    line.wait_for()
    assert line.locator(".pace-due").inner_text() == f"Deadline paused: {awaited['name']} is away"
    assert not page.errors, page.errors


def test_a_passed_deadline_waits_and_the_host_may_let_a_bot_move(clocked, new_page):
    base, advance = clocked
    code, players = new_room(base, "thousand-1001", ["Gospodyni", "Jan", "Ewa"], pace=TURN)
    with WsTable(base, code, [p["token"] for p in players]) as table:
        for _ in range(10):  # the host acts while the host is awaited: another seat's deadline passes
            seat = table.view["to_act"][0]
            if seat != 0:
                break
            table.act(seat, table.views[seat]["view"]["legal"][0])
    host = open_seat(new_page, base, code, players[0], PHONE, lang="pl")
    late = open_seat(new_page, base, code, players[seat], LAPTOP, lang="en")
    host.locator("[data-role=pace-line][data-state=due]").wait_for()
    advance(TURN["move_seconds"] + 120)
    line = host.locator("[data-role=pace-line][data-state=expired]")
    line.wait_for(timeout=20000)
    assert "Czas na ruch minął — partia czeka" in line.inner_text()
    late.locator("[data-role=pace-line][data-state=expired]").wait_for()
    assert "Time is up — the game waits for your move" in late.locator("[data-role=pace-line]").inner_text()
    assert late.locator("[data-role=pace-host]").count() == 0  # not the host: no host's controls
    version = int(host.locator(".felt").get_attribute("data-version"))
    host.locator("[data-role=pace-host] [data-role=pace-bot]").click()  # the host lets a bot make the move
    host.wait_for_function(f"() => Number(document.querySelector('.felt').dataset.version) > {version}", timeout=20000)
    late.locator("[data-role=bot-plays-you]").wait_for()  # the late player's page says a bot plays now
    host.locator("[data-role=pace-line][data-state=expired]").wait_for(state="detached")
    for page in (host, late):
        assert not page.errors, page.errors


def test_a_passed_deadline_in_a_bot_room_is_one_bot_move(clocked, new_page):
    base, advance = clocked
    code, players = new_room(base, "thousand-1001", ["Ola", "Jan", "Ewa"], pace={**TURN, "on_deadline": "bot"})
    seat = next(i for i, p in enumerate(players) if my_turn_game(base, code, p)["my_turn"])
    page = open_seat(new_page, base, code, players[seat], LAPTOP, lang="ru")
    page.locator("[data-role=pace-line].mine").wait_for()
    version = int(page.locator(".felt").get_attribute("data-version"))
    advance(TURN["move_seconds"] + 120)
    page.wait_for_function(f"() => Number(document.querySelector('.felt').dataset.version) > {version}", timeout=20000)
    # that one move was the bot's: the seat stays mine, no bot plays on for me
    assert page.locator("[data-role=bot-plays-you]").count() == 0
    assert not page.errors, page.errors


def test_a_take_back_request_pauses_the_deadline(server, new_page):
    code, players = new_room(server, "thousand-1001", ["Ola", "Jan", "Ewa"], pace=TURN)
    seat = next(i for i, p in enumerate(players) if my_turn_game(server, code, p)["my_turn"])
    asker = open_seat(new_page, server, code, players[seat], LAPTOP, lang="en")
    other = open_seat(new_page, server, code, players[(seat + 2) % 3], LAPTOP, lang="ru")
    other.locator("[data-role=pace-line][data-state=due]").wait_for()
    asker.locator(".controls button[data-action]").first.click()
    asker.locator("[data-role=takeback]").click()  # asks the others to take that move back
    line = other.locator("[data-role=pace-line][data-state=paused]")
    line.wait_for()
    assert line.locator(".pace-due").inner_text() == "Срок на паузе, пока решается возврат хода"
    third = open_seat(new_page, server, code, players[(seat + 1) % 3], PHONE, lang="pl")
    for page in (other, third):  # every other person seated agrees
        page.locator("[data-role=takeback-agree]").click()
    other.locator("[data-role=pace-line][data-state=due]").wait_for()  # taken back: the clock runs again
    for page in (asker, other, third):
        assert not page.errors, page.errors
