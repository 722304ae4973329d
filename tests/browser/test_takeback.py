"""Take-back by agreement in two real browsers (issue 16; README "Take-backs"):
a player plays a card, asks to take it back, the other agrees in his own browser
(a phone), and the card is back in the asker's hand."""

from __future__ import annotations

from .conftest import PHONE
from .helpers import drive, new_room, open_seat, registered

VARIANT = "thousand-1000-2p"


def _single_play(view: dict) -> str | None:
    """A card of the hand whose only action is play:<card> (no marriage chooser)."""
    legal = view["legal"]
    for a in legal:
        if a.startswith("play:"):
            card = a[5:7]
            if sum(1 for b in legal if card in b) == 1:
                return card
    return None


def test_takeback_agreed_in_second_browser_card_back_in_hand(server, new_page, screenshots):
    if VARIANT not in registered(server):
        import pytest
        pytest.skip(f"{VARIANT} is not registered")
    code, players = new_room(server, VARIANT, ["Анна", "Paweł"])

    def stop(views):
        v = views[0]["view"]
        if v["phase"] != "play" or not v["to_act"]:
            return None
        seat = v["to_act"][0]
        mine = views[seat]["view"]
        return seat if not mine["trick"] and _single_play(mine) else None

    match_id, seat, last = drive(server, code, [p["token"] for p in players], stop)
    assert seat is not None
    card = _single_play(last["view"])
    asker = open_seat(new_page, server, code, players[seat])
    other = open_seat(new_page, server, code, players[1 - seat], viewport=PHONE)
    asker.locator(f".hand .card.playable[data-card='{card}']").click()
    asker.locator(f".trick [data-card='{card}']").first.wait_for()
    assert asker.locator(f".hand .card[data-card='{card}']").count() == 0
    asker.locator("[data-role=takeback]").click()
    prompt = other.locator("[data-role=takeback-prompt]")
    prompt.wait_for()
    assert "Анна" in prompt.inner_text() or "Paweł" in prompt.inner_text()
    other.screenshot(path=str(screenshots / "takeback-prompt-phone.png"))
    other.locator("[data-role=takeback-agree]").click()
    asker.locator(f".hand .card[data-card='{card}']").wait_for()
    asker.wait_for_function("() => !document.querySelector('[data-role=takeback-waiting]')")
    assert asker.locator(f".trick [data-card='{card}']").count() == 0
    assert prompt.count() == 0
    assert not asker.errors and not other.errors
    # The match history says so, in the player's words.
    asker.goto(f"{server}/#/match/{match_id}")
    line = asker.locator("[data-role=takebacks] li")
    line.wait_for()
    assert "took back" in line.inner_text() and "agreed by all" in line.inner_text()
