"""History that replays from the engine's deal positions: the talon taken into the
declarer's hand, the trump shown, auto-play, the deal's summary; no raw ids; no sideways
overflow; and History opened from the room as a panel keeps the live connection."""

from __future__ import annotations

import random

import pytest

from .helpers import WsTable, call, client_module, drive, play_whole_match_over_api, registered
from .lobby_helpers import SIZES, as_player, no_raw_ids, no_sideways_overflow, player, room_with

_match: dict = {}


def thousand_match(server) -> tuple[str, list[dict], dict]:
    """Three deals of Тысяча (1001: the talon goes into the declarer's hand, T-14), once a module."""
    if not _match:  # three deals played with random legal actions over the websocket
        players = [player(server, n) for n in ("Ольга", "Jerzy", "Sam")]
        room = room_with(server, players[0], "thousand-1001", 3, guests=players[1:])
        call(server, "POST", f"/api/rooms/{room['code']}/start", players[0]["token"])
        rng = random.Random(5)

        def marry(view, legal):  # random play, a marriage whenever one may be declared (T-23), no throw-in
            safe = [a for a in legal if a not in ("throw", "refuse")] or legal
            return next((a for a in legal if a.startswith("marriage:")), None) or rng.choice(safe)

        def enough(views):  # three deals or more, one with a marriage (at most ten)
            view = views[0]["view"]
            married = any(r.get("marriages") for r in view.get("scoresheet") or [])
            return 0 if view["deal"] >= 11 or (view["deal"] >= 4 and married) else None

        with WsTable(server, room["code"], [p["token"] for p in players]) as table:
            table.run(enough, rng, marry)
            match_id = table.views[0]["match"]
        detail = call(server, "GET", f"/api/matches/{match_id}")
        _match.update(id=match_id, players=players, detail=detail)
    return _match["id"], _match["players"], _match["detail"]


def talon_taken_step(server, match_id, detail):
    """(deal index, step, positions) of the first step where the engine says the talon went
    to the declarer (talon_to, T-14)."""
    for i, deal in enumerate(detail["deals"]):
        pos = call(server, "GET", f"/api/matches/{match_id}/deals/{deal['deal']}/positions")
        steps = pos["steps"]
        for k, st in enumerate(steps):
            if st["talon_to"] is not None:
                assert st["talon_to"] == st["declarer"] and not st["talon"]
                return i, k, steps
    raise AssertionError("no deal of this match took the talon")


def open_history(page, server, match_id):
    page.goto(f"{server}/#/match/{match_id}")
    page.locator(".replay [data-role=step]").wait_for()
    page.locator(".replay .replay-board").wait_for()


def go_to_deal(page, index):
    """Forward `index` deals from the one shown."""
    for _ in range(index):
        now = page.locator(".replay h2").inner_text()
        page.locator(".replay [data-role=next-deal]").click()
        page.wait_for_function(f"() => document.querySelector('.replay h2').textContent !== {now!r}")
    page.locator(".replay .replay-board").wait_for()


@pytest.mark.parametrize("lang,size", [("ru", "phone"), ("pl", "desktop"), ("en", "phone"), ("ru", "desktop")])
def test_replay_shows_the_talon_taken_and_the_trump_T14_T23(server, new_page, screenshots, lang, size):
    match_id, _, detail = thousand_match(server)
    index, k, steps = talon_taken_step(server, match_id, detail)
    page = new_page(SIZES[size], lang=lang)
    open_history(page, server, match_id)
    go_to_deal(page, index)
    replay = page.locator(".replay")
    # as dealt: the talon lies in its own row
    assert replay.locator("[data-role=replay-talon] .card").count() == len(steps[0]["talon"]) == 3
    for s, hand in enumerate(steps[0]["hands"]):
        assert replay.locator(f".replay-hand[data-seat='{s}'] .card").count() == len(hand)
    # the step the talon is taken: it is in the declarer's hand, the talon row is gone
    replay.locator(".replay-log li").nth(k - 1).click()
    page.wait_for_function(f"() => document.querySelector('.replay').dataset.step === '{k}'")
    declarer = steps[k]["declarer"]
    assert replay.locator(f".replay-hand[data-seat='{declarer}'] .card").count() == len(steps[k]["hands"][declarer]) == 10
    assert [c.get_attribute("data-card") for c in replay.locator(f".replay-hand[data-seat='{declarer}'] .card").all()] \
        == steps[k]["hands"][declarer]
    assert replay.locator("[data-role=replay-talon]").count() == 0
    assert replay.locator("[data-role=talon-taken]").is_visible()
    assert replay.locator(f".replay-hand[data-seat='{declarer}'] .card.from-talon").count() == 3
    no_sideways_overflow(page)
    page.screenshot(path=str(screenshots / f"history-talon-{lang}-{size}.png"), full_page=True)
    no_raw_ids(page.locator(".history").inner_text())
    # a marriage declared (T-23): the trump and the marriage are shown from that step on
    married = next(i for i, d in enumerate(detail["deals"]) if d["row"].get("marriages"))
    steps = call(server, "GET", f"/api/matches/{match_id}/deals/{detail['deals'][married]['deal']}/positions")["steps"]
    trumped = next(j for j, st in enumerate(steps) if st["trump"])
    for _ in range(index - married):
        now = page.locator(".replay h2").inner_text()
        page.locator(".replay [data-role=prev-deal]").click()
        page.wait_for_function(f"() => document.querySelector('.replay h2').textContent !== {now!r}")
    go_to_deal(page, max(0, married - index))
    assert page.locator(".replay h2").inner_text().endswith(f" {detail['deals'][married]['deal']}")
    replay.locator(".replay-log li").nth(trumped - 1).click()
    page.wait_for_function(f"() => document.querySelector('.replay').dataset.step === '{trumped}'")
    assert replay.locator("[data-role=replay-trump] .suit").inner_text() == {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}[steps[trumped]["trump"]]
    assert replay.locator("[data-role=replay-marriages]").is_visible()
    no_raw_ids(page.locator(".history").inner_text())
    assert not page.errors


def test_replay_auto_plays_to_the_deal_summary(server, new_page, screenshots):
    match_id, _, detail = thousand_match(server)
    page = new_page(SIZES["desktop"], lang="ru")
    open_history(page, server, match_id)
    replay = page.locator(".replay")
    auto = replay.locator("[data-role=auto-play]")
    auto.click()
    assert auto.get_attribute("aria-pressed") == "true"
    page.wait_for_function("() => Number(document.querySelector('.replay').dataset.step) >= 3", timeout=10000)
    auto.click()
    assert auto.get_attribute("aria-pressed") == "false"
    paused = replay.get_attribute("data-step")
    page.wait_for_timeout(1200)
    assert replay.get_attribute("data-step") == paused
    # the last step: the same summary as at the table, every player's change
    deal = detail["deals"][0]
    replay.locator(".replay-log li").last.click()
    summary = replay.locator("[data-role=deal-summary]")
    summary.wait_for()
    changes = summary.locator("[data-role=change]").all_inner_texts()
    assert changes == [(f"+{v}" if v > 0 else str(v)) for v in deal["row"]["scores"]]
    no_raw_ids(page.locator(".history").inner_text())
    page.screenshot(path=str(screenshots / "history-summary-ru-desktop.png"), full_page=True)
    assert not page.errors


def test_history_panel_over_the_table_keeps_the_live_connection(server, new_page, screenshots):
    match_id, players, _ = thousand_match(server)
    room = call(server, "GET", f"/api/matches/{match_id}")["room"]
    page = new_page(SIZES["phone"], lang="pl")
    as_player(page, players[0])
    page.goto(f"{server}/room/{room}")
    page.locator("#status[data-status=online]").wait_for(state="attached")
    page.locator(".felt").wait_for()
    # the table (another module) opens History through this one call
    page.evaluate(f"() => {client_module('history.js')}.then((m) => m.openHistoryPanel({match_id!r}))")
    panel = page.locator("[data-role=history-panel]")
    panel.locator(".replay .replay-board").wait_for()
    assert page.url.endswith(f"/room/{room}")  # no navigation: the room page is still there
    assert page.evaluate("() => window.kozyr.page.socket.ws.readyState") == 1
    assert page.locator("#status").get_attribute("data-status") == "online"
    no_sideways_overflow(page)
    no_raw_ids(panel.inner_text())
    page.screenshot(path=str(screenshots / "history-panel-pl-phone.png"))
    # the language switches inside the panel too
    page.locator("#lang").select_option("ru")
    panel.locator(".replay h2", has_text="Сдача").wait_for()
    panel.locator("[data-role=close-history]").click()
    assert page.locator("[data-role=history-panel]").count() == 0
    assert page.evaluate("() => window.kozyr.page.socket.ws.readyState") == 1
    assert not page.errors


@pytest.mark.parametrize("variant,seats,lang,size", [
    ("king-3p", 3, "pl", "phone"), ("korol-ru", 4, "ru", "phone"), ("krol-pl", 4, "en", "desktop"),
    ("thousand-ru", 3, "ru", "phone"), ("tysiac-pl", 4, "pl", "desktop"), ("thousand-1000-2p", 2, "en", "phone")])
def test_history_of_every_family_has_no_raw_ids_and_fits(server, new_page, screenshots, variant, seats, lang, size):
    if variant not in registered(server):
        pytest.skip(f"{variant} is not registered")
    players = [player(server, n) for n in ("Аня", "Bartek", "Carol", "Даша")[:seats]]
    room = room_with(server, players[0], variant, seats, guests=players[1:])
    call(server, "POST", f"/api/rooms/{room['code']}/start", players[0]["token"])
    match_id = drive(server, room["code"], [p["token"] for p in players],
                     lambda views: 0 if views[0]["view"]["deal"] >= 5 else None)[0]
    page = new_page(SIZES[size], lang=lang)
    open_history(page, server, match_id)
    replay = page.locator(".replay")
    # every action of the deal is named in the log; the last step shows the deal's summary
    replay.locator(".replay-log li").last.click()
    replay.locator("[data-role=deal-summary]").wait_for()
    no_raw_ids(page.locator(".history").inner_text())
    no_sideways_overflow(page)
    page.screenshot(path=str(screenshots / f"history-{variant}-{lang}-{size}.png"), full_page=True)
    steps = call(server, "GET", f"/api/matches/{match_id}/deals/1/positions")["steps"]
    played = next((j for j, st in enumerate(steps) if len(st["trick"]) >= 2), None)
    if played is not None:  # a trick in play: its cards with their players' names inside the slots
        replay.locator(".replay-log li").nth(played - 1).click()
        slots = replay.locator(".replay-trick .replay-slot")
        assert [slots.nth(i).locator(".card").get_attribute("data-card") for i in range(slots.count())] \
            == [c for _, c in steps[played]["trick"]]
    for n in range(1, 4):  # the later deals (titles, swaps, gives, strikes): every log entry in words
        go_to_deal(page, 1)
        assert replay.locator("h2").inner_text().endswith(f" {n + 1}")
        no_raw_ids(replay.inner_text())
        no_sideways_overflow(page)
    assert not page.errors


def test_history_link_of_the_lobby_opens_a_panel_and_keeps_the_room_online(server, new_page):
    match_id, players = play_whole_match_over_api(server, "king-3p", 3, ["Ира", "Olek", "Tom"])
    room = call(server, "GET", f"/api/matches/{match_id}")["room"]
    page = new_page(SIZES["desktop"], lang="ru")
    as_player(page, players[1])
    page.goto(f"{server}/room/{room}")
    page.locator("#status[data-status=online]").wait_for(state="attached")
    page.locator(".lobby [data-role=history-link]").click()
    page.locator("[data-role=history-panel] .replay .replay-board").wait_for()
    assert page.url.endswith(f"/room/{room}")
    assert page.evaluate("() => window.kozyr.page.socket.ws.readyState") == 1
    page.keyboard.press("Escape")
    assert page.locator("[data-role=history-panel]").count() == 0
    assert page.locator("#status").get_attribute("data-status") == "online"
    assert not page.errors


@pytest.mark.parametrize("lang", ["ru", "pl", "en"])
def test_replay_names_the_engine_s_trick_winner_and_talon_taker_C4_T14(server, new_page, screenshots, lang):
    """The trick winner and the talon taker are the positions' won_by and talon_to, as the
    engine says; the page works out neither (positions altered on the way say otherwise,
    and the page follows them)."""
    match_id, _, detail = thousand_match(server)
    deal = detail["deals"][0]["deal"]
    steps = call(server, "GET", f"/api/matches/{match_id}/deals/{deal}/positions")["steps"]
    k = next(i for i, st in enumerate(steps) if st["won_by"] is not None)
    taken = next(i for i, st in enumerate(steps) if st["talon_to"] is not None)
    page = new_page(SIZES["desktop"], lang=lang)
    open_history(page, server, match_id)
    replay = page.locator(".replay")
    replay.locator(".replay-log li").nth(k - 1).click()
    page.wait_for_function(f"() => document.querySelector('.replay').dataset.step === '{k}'")
    winner = replay.locator("[data-role=trick-winner]")
    assert winner.get_attribute("data-seat") == str(steps[k]["won_by"])
    played = [[int(f.get_attribute("data-seat")), f.locator(".card").get_attribute("data-card")]
              for f in replay.locator(".replay-trick .replay-slot").all()]
    card = steps[k]["action"][1].split(":")[1]
    assert played == [*steps[k - 1]["trick"], [steps[k]["action"][0], card]]
    page.screenshot(path=str(screenshots / f"history-trick-winner-{lang}-desktop.png"), full_page=True)
    page.set_viewport_size(SIZES["phone"])
    winner.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / f"history-trick-winner-{lang}-phone.png"))
    # positions that name other seats: the page shows those
    other, taker = (steps[k]["won_by"] + 1) % 3, (steps[taken]["talon_to"] + 2) % 3
    altered = [dict(st) for st in steps]
    altered[k]["won_by"] = other
    altered[taken]["talon_to"] = taker

    def fake(route):
        route.fulfill(json={"deal": deal, "steps": altered})
    page.route(f"**/api/matches/{match_id}/deals/{deal}/positions", fake)
    open_history(page, server, match_id)
    replay.locator(".replay-log li").nth(taken - 1).click()
    page.wait_for_function(f"() => document.querySelector('.replay').dataset.step === '{taken}'")
    assert replay.locator("[data-role=talon-taken]").get_attribute("data-seat") == str(taker)
    replay.locator(".replay-log li").nth(k - 1).click()
    page.wait_for_function(f"() => document.querySelector('.replay').dataset.step === '{k}'")
    assert winner.get_attribute("data-seat") == str(other)
    no_raw_ids(page.locator(".history").inner_text())
    assert not page.errors
