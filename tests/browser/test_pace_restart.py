"""A turn-based match between two browser contexts across a server restart (issue 33,
"Real parts in tests"): one player moves by clicking, the other goes away (his deadline
stands still, the restart keeps it so), comes back, and when his time passes his seat's
bot makes that one move; both tables follow.  The server's deadline clock is moved on
through its clock file (app/clock.py), never slept for."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from .conftest import LAPTOP, PHONE, _free_port, start_server, stop_server
from .helpers import call, new_room, open_seat

HOUR = 3600
TURN = {"pace": "turn", "move_seconds": HOUR, "on_deadline": "bot", "vacation_days": 7}


def version_of(page) -> int:
    return int(page.locator(".felt").get_attribute("data-version"))


def wait_version(page, above: int) -> None:
    page.wait_for_function(f"() => Number(document.querySelector('.felt').dataset.version) > {above}",
                           timeout=30000)


def my_game(base: str, code: str, who: dict) -> dict:
    return next(g for g in call(base, "GET", "/api/players/me/games", who["token"]) if g["room"] == code)


def test_a_turn_based_match_goes_on_across_a_restart_with_a_vacation_and_a_bot_move(tmp_path, browser, new_page):
    clock = tmp_path / "clock-offset"
    clock.write_text("0")

    def advance(seconds: float) -> None:
        clock.write_text(str(float(clock.read_text()) + seconds))
    port = _free_port()
    proc, base = start_server(tmp_path, port, KOZYR_CLOCK_FILE=str(clock))
    try:
        code, players = new_room(base, "thousand-1000-2p", ["Ola", "Jan"], pace=TURN)
        mover = next(i for i, p in enumerate(players) if my_game(base, code, p)["my_turn"])
        other = 1 - mover
        pages = {mover: open_seat(new_page, base, code, players[mover], LAPTOP, lang="pl"),
                 other: open_seat(new_page, base, code, players[other], PHONE, lang="ru")}
        pages[mover].locator("[data-role=pace-line].mine").wait_for()
        start = version_of(pages[mover])
        # The awaited player moves by clicking; the other is awaited now.
        pages[mover].locator(".controls button[data-action]").first.click()
        wait_version(pages[other], start)
        pages[other].locator("[data-role=pace-line].mine").wait_for()
        # He goes away for two days: his deadline stands still.
        until = (datetime.now(UTC) + timedelta(days=2)).isoformat()
        assert call(base, "PUT", "/api/players/me/away", players[other]["token"], {"until": until})["away_until"]
        pages[mover].locator("[data-role=pace-line][data-state=paused]").wait_for()

        # The server restarts; both tables come back by themselves, the deadline as it was.
        stop_server(proc)
        proc, base2 = start_server(tmp_path, port, KOZYR_CLOCK_FILE=str(clock))
        assert base2 == base
        for page in pages.values():
            page.locator("[data-role=pace-line][data-state=paused]").wait_for(timeout=30000)
        moved = version_of(pages[mover])
        row = my_game(base, code, players[other])
        assert row["my_turn"] and row["pace"] == "turn"
        # Two hours later (on the server's clock) his move's hour has not run: he is away.
        advance(2 * HOUR)
        due = datetime.fromisoformat(my_game(base, code, players[other])["due"])
        assert due > datetime.now(UTC) + timedelta(days=1)

        # Back: his hour runs again; when it has passed, his seat's bot makes that one move.
        assert call(base, "PUT", "/api/players/me/away", players[other]["token"], {"until": None})["away_until"] is None
        pages[mover].locator("[data-role=pace-line][data-state=due]").wait_for()
        advance(HOUR + 60)
        for page in pages.values():
            wait_version(page, moved)
        assert pages[other].locator("[data-role=bot-plays-you]").count() == 0  # his seat is still his
        for page in pages.values():
            assert not page.errors, page.errors
    finally:
        stop_server(proc)
