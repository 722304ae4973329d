"""Whole deals played by clicking in four (three) real browsers: Тысяча 1001, Кинг, Король."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE
from .helpers import Player, host_room, join_room, play_until, registered, start

NAMES = ["Анна", "Paweł", "Борис", "Zofia Łęcka"]


def seat_players(server, new_page, family, variant, seats, phone_seat=None, langs=()):
    """The host creates the room, the others join by the invite link; the host starts."""
    if variant not in registered(server):
        pytest.skip(f"variant {variant} is not registered in the engine yet")
    langs = list(langs) + ["en"] * seats
    host = new_page(lang=langs[0])
    invite = host_room(host, server, NAMES[0], family, variant, seats)
    assert "/room/" in invite
    pages = [host]
    for n in range(1, seats):
        page = new_page(PHONE if n == phone_seat else None, lang=langs[n])
        assert join_room(page, invite, NAMES[n]) == n
        pages.append(page)
    return host, pages


def test_thousand_1001_one_deal_with_bids_and_talon(server, new_page, screenshots):
    host, pages = seat_players(server, new_page, "thousand", "thousand-1001", 4, phone_seat=2)
    host.locator(".seat-row[data-seat='3'] .pname").wait_for()
    host.screenshot(path=str(screenshots / "lobby.png"))
    start(host)
    for p in pages:
        p.locator(".felt").wait_for()
    # the first bidder bids once, everyone else passes: the declarer takes the talon
    shots = {"done": False, "chooser": False, "bidding": False}

    def chooser_shot(page):
        if not shots["chooser"]:
            shots["chooser"] = True
            page.screenshot(path=str(screenshots / "table-chooser.png"))

    players = [Player(p, bid_first=True, on_chooser=chooser_shot) for p in pages]
    seen = {"phases": set(), "title": False, "handless": set()}

    def done(states):
        seen["phases"].update(s["phase"] for s in states)
        if all(s["phase"] == "bidding" and s["deal"] == 1 for s in states):
            seen["handless"].add(sum(1 for s in states if s["hand"] == 0))
        bidder = [i for i, s in enumerate(states) if s["mine"] and s["phase"] in ("bidding", "talon")]
        if bidder and not shots["bidding"]:
            shots["bidding"] = True
            pages[bidder[0]].screenshot(path=str(screenshots / "table-bidding.png"))
            if bidder[0] != 2:
                pages[bidder[0]].set_viewport_size(PHONE)
                pages[bidder[0]].screenshot(path=str(screenshots / "table-bidding-phone.png"), full_page=True)
                pages[bidder[0]].set_viewport_size(DESKTOP)
        for p, s in zip(pages, states, strict=True):
            if s["mine"] and "Your turn" in p.title():
                seen["title"] = True
        # mid-deal: a trick on the table, seen by a desktop player who holds cards, and by the phone
        desktop = [i for i, s in enumerate(states) if i != 2 and s["hand"] and s["phase"] == "play" and s["trick"] >= 2]
        if desktop and not shots["done"]:
            shots["done"] = True
            pages[desktop[0]].screenshot(path=str(screenshots / "table-desktop.png"))
            if states[2]["hand"]:  # the phone's seat is not the dealer sitting out
                pages[2].screenshot(path=str(screenshots / "table-phone.png"), full_page=True)
            else:
                pages[desktop[0]].set_viewport_size(PHONE)
                pages[desktop[0]].screenshot(path=str(screenshots / "table-phone.png"), full_page=True)
                pages[desktop[0]].set_viewport_size(DESKTOP)
        return all(s["deal"] >= 2 for s in states)

    play_until(players, done)
    assert {"bidding", "talon", "play"} <= seen["phases"]
    assert seen["title"], "the document title never said 'Your turn'"
    clicked = [a for p in players for a in p.clicked]
    assert any(a.startswith("bid:") for a in clicked)
    assert any(a.startswith("give:") for a in clicked), clicked  # the talon: one card to each opponent
    assert any(a.startswith("contract:") for a in clicked)
    # the scoresheet has its first row, on every screen (on the phone behind its button)
    for p in pages:
        p.locator(".scores .sheet tbody tr:not(.empty)").first.wait_for(state="attached")
    # the dealer sat out (4 players): his hand was never dealt
    assert seen["handless"] == {1}
    for p in pages:
        assert not p.errors, p.errors


def test_king_classic_one_deal(server, new_page):
    host, pages = seat_players(server, new_page, "king", "king-classic", 4, langs=["en", "pl"])
    start(host)
    for p in pages:
        p.locator(".felt").wait_for()
    players = [Player(p) for p in pages]
    dimmed = {"max": 0}

    def done(states):
        dimmed["max"] = max([dimmed["max"]] + [s["dimmed"] for s in states if s["mine"]])
        return all(s["deal"] >= 2 for s in states)

    play_until(players, done)
    assert dimmed["max"] > 0, "a card that may not be played was never dimmed"
    # the next deal starts at once; the last trick of the deal is there on demand
    host.locator("[data-role=last-trick]").click()
    assert host.locator(".trick.last .card").count() == 4
    host.locator("[data-role=last-trick]").click()
    assert host.locator(".trick.last").count() == 0
    # in Polish: the scoresheet names the contract the Polish way
    assert "Bez lew" in pages[1].locator(".scores .sheet").inner_text()
    for p in pages:
        p.locator(".scores .sheet tbody tr:not(.empty)").first.wait_for()
        assert not p.errors, p.errors


def test_korol_ru_first_deal_of_the_crowning(server, new_page, screenshots):
    host, pages = seat_players(server, new_page, "korol", "korol-ru", 4, langs=["ru"])
    start(host)
    for p in pages:
        p.locator(".felt").wait_for()
    # the trump card lies face up for everyone
    for p in pages:
        assert p.locator(".face-up .card").count() >= 1
    assert "Коронация" in host.locator(".info-strip").inner_text()
    players = [Player(p) for p in pages]
    shot = {"done": False}

    def done(states):
        if not shot["done"] and states[0]["trick"] >= 2:
            shot["done"] = True
            host.screenshot(path=str(screenshots / "table-korol.png"))
        return all(s["deal"] >= 2 or s["phase"] == "match_over" for s in states)

    play_until(players, done)
    for p in pages:
        p.locator(".scores .sheet").first.wait_for()
        assert not p.errors, p.errors
