"""The keyed patch step (static/js/patch.js, morphdom): an update changes only what changed.
The live elements of the page are marked with a property of their own; after an update the
marks must still be there: the same nodes, the same focus, the same half-typed text."""

from __future__ import annotations

from .conftest import LAPTOP
from .helpers import call, open_seat
from .lobby_helpers import as_player, player, room_with
from .scenes import LEADS, single_action_cards
from .test_keyboard_reader import said

MARK = "(els) => els.forEach((e) => { e.kozyrMark = e.dataset.card || e.name || 'x'; })"
MARKED = "(els) => els.map((e) => e.kozyrMark || null)"


def test_a_hand_keeps_its_nodes_and_focus_through_language_turns_and_plays_T20(server, new_page):
    code, players, seat, table = LEADS.bring(server)  # T-20: the browser's seat leads
    try:
        page = open_seat(new_page, server, code, players[seat], LAPTOP, lang="ru")
        cards = page.locator(".hand .card")
        cards.first.wait_for()
        before = cards.evaluate_all("(els) => els.map((e) => e.dataset.card)")
        cards.evaluate_all(MARK)
        target = page.locator(".hand .card.playable").nth(single_action_cards(page)[0])
        card = target.get_attribute("data-card")
        target.focus()
        # a language switch rebuilds every region: the nodes stay, the focus stays, the words change
        page.evaluate("() => { const s = document.querySelector('#lang'); s.value = 'pl'; s.dispatchEvent(new Event('change')); }")
        page.wait_for_function("(label) => document.activeElement.getAttribute('aria-label') === label", arg=said(card, "pl"))
        assert page.evaluate("() => document.activeElement.kozyrMark") == card
        assert page.evaluate("() => document.activeElement.getAttribute('aria-label')") == said(card, "pl")
        assert cards.evaluate_all(MARKED) == before, "a language switch replaced the hand's cards"
        # the card is played by keyboard: the other cards are the same nodes, in the same order
        page.keyboard.press("Enter")
        page.locator(f".hand .card[data-card='{card}']").wait_for(state="detached")
        rest = [c for c in before if c != card]
        assert cards.evaluate_all(MARKED) == rest
        for i in range(table.seats):
            table.read_until_view(i)
        # the next seat plays over the websocket: my hand is redrawn for the new turn, its nodes stay
        nxt = table.view["to_act"][0]
        action = next(a for a in table.views[nxt]["view"]["legal"] if a.startswith("play:"))
        table.act(nxt, action)
        page.locator(f".trick [data-card='{action[5:]}']").wait_for()
        assert cards.evaluate_all(MARKED) == rest
        assert not page.errors, page.errors
    finally:
        table.close()


def test_a_half_typed_field_keeps_its_text_node_and_focus_when_the_room_changes(server, new_page):
    host = player(server, "Hostess")
    guest = player(server, "Guest")
    room = room_with(server, host, "thousand-1001", 3)
    page = as_player(new_page(viewport=LAPTOP), host)
    page.goto(f"{server}/room/{room['code']}")
    field = page.locator("[data-role=takeover-form] input[name=takeover_seconds]")
    field.wait_for()
    field.evaluate("(e) => { e.kozyrMark = 'field'; }")
    field.focus()
    page.keyboard.press("Control+A")
    page.keyboard.type("4")
    # a guest sits down: the lobby is drawn again around the field being typed in
    call(server, "POST", f"/api/rooms/{room['code']}/seats/1", guest["token"])
    page.locator(".seat-row[data-seat='1'] .pname").filter(has_text="Guest").wait_for()
    assert field.evaluate("(e) => e.kozyrMark") == "field", "the field was replaced"
    assert field.input_value() == "4"
    assert page.evaluate("() => document.activeElement.name") == "takeover_seconds"
    page.keyboard.type("5")
    assert field.input_value() == "45"
    assert not page.errors, page.errors
