"""The host alone: bots in the empty seats (chosen by level, removed again), a whole deal of
Кинг played by clicking against them, and a bot taking over for a player who waits too long."""

from __future__ import annotations

import pytest

from .helpers import Player, host_room, play_until, registered, start

LEVELS = {1: "random", 2: "basic", 3: "strong"}


def add_bot(page, seat: int, level: str) -> None:
    row = page.locator(f".seat-row[data-seat='{seat}']")
    row.locator("[data-role=bot-level]").select_option(level)
    row.locator("[data-role=add-bot]").click()
    row.locator(f".bot-name[data-level='{level}']").wait_for()


def host_with_bots(server, new_page, name, lang="en", takeover=None):
    if "king-classic" not in registered(server):
        pytest.skip("king-classic is not registered in the engine yet")
    host = new_page(lang=lang)
    options = {"takeover_seconds": takeover} if takeover is not None else None
    host_room(host, server, name, "king", "king-classic", 4, options)
    for seat, level in LEVELS.items():
        add_bot(host, seat, level)
    return host


def test_host_seats_bots_and_plays_a_whole_deal_of_king(server, new_page, screenshots):
    host = host_with_bots(server, new_page, "Хозяйка")
    lobby = host.locator(".lobby")
    # each bot shows as a bot, its level in words; no one else's seat has a bot control left
    assert lobby.locator(".badge.bot").count() == 3
    assert lobby.locator(".seat-row[data-seat='3'] .bot-name").inner_text() == "Ada"  # bot_key strong-1
    assert lobby.locator("[data-role=add-bot]").count() == 0
    # the host removes one and seats another level instead
    lobby.locator(".seat-row[data-seat='2'] [data-role=remove-bot]").click()
    lobby.locator(".seat-row[data-seat='2'] [data-role=add-bot]").wait_for()
    assert lobby.locator(".badge.bot").count() == 2
    assert host.locator("[data-role=start]").is_disabled()
    add_bot(host, 2, "basic")
    assert lobby.locator(".seat-row[data-seat='2'] .bot-name").inner_text() == "Sam"  # bot_key basic-1
    host.screenshot(path=str(screenshots / "lobby-bots.png"))
    start(host)
    host.locator(".felt").wait_for()
    # at the table the three bots are marked as bots
    assert host.locator(".opponents .seat .badge.bot").count() == 3
    # ... each by its own name (bot_key random-1: Dotty in English), not "Bot (random)"
    assert host.locator(".opponents .seat[data-seat='1'] .pname").inner_text() == "Dotty"
    player = Player(host)
    seen = {"tricks": 0}

    def done(states):
        seen["tricks"] = max(seen["tricks"], states[0]["trick"])
        return states[0]["deal"] >= 2

    play_until([player], done)
    # the host played the whole first deal (8 tricks of 4 cards) by clicking, the bots the rest
    assert len([a for a in player.clicked if a]) >= 8
    host.locator(".scores .sheet tbody tr:not(.empty)").first.wait_for()
    assert not host.errors, host.errors


def test_bot_names_in_russian_and_polish(server, new_page):
    host = new_page(lang="ru")
    host_room(host, server, "Вера", "king", "king-classic", 4)
    add_bot(host, 1, "strong")
    assert host.locator(".seat-row[data-seat='1'] .bot-name").inner_text() == "Михалыч"
    assert host.locator(".seat-row[data-seat='1'] .badge.bot").inner_text().lower() == "бот"
    host.locator("#lang").select_option("pl")
    host.locator(".seat-row[data-seat='1'] .bot-name", has_text="Zbyszek").wait_for()
    options = host.locator(".seat-row[data-seat='2'] [data-role=bot-level] option").all_inner_texts()
    assert options == ["losowy", "podstawowy", "mocny", "ekspert"]
    assert not host.errors, host.errors


def test_takeover_a_bot_plays_for_the_host_who_waits(server, new_page, screenshots):
    # the timeout set at creation; the host changes it in the room
    host = host_with_bots(server, new_page, "Sleepy", takeover=30)
    form = host.locator("[data-role=takeover-form]")
    assert form.locator("input[name=takeover_seconds]").input_value() == "30"
    form.locator("input[name=takeover_seconds]").fill("1")
    form.locator("button[type=submit]").click()
    host.wait_for_function("() => window.kozyr.page.room.takeover_seconds === 1")
    start(host)
    host.locator(".felt").wait_for()
    # the host does nothing: once its turn has waited a second, a bot plays for it, and says so
    host.locator(".me .seat.takeover [data-role=takeover]").wait_for(timeout=20000)
    host.screenshot(path=str(screenshots / "table-takeover.png"))
    start_version = int(host.locator(".felt").get_attribute("data-version") or 0)
    # the match goes on through the host's turns: eight actions more, or to its end (bots
    # with no delay play a whole match in seconds; on a slow machine the page reads the
    # version late, when fewer than eight may be left)
    host.wait_for_function(
        f"() => Number(document.querySelector('.felt').dataset.version) > {start_version + 8}"
        " || !!(window.kozyr.page.view && window.kozyr.page.view.result)", timeout=60000)
    assert not host.errors, host.errors
