"""Keyboard and screen-reader play: the live announcer (#announcer, static/js/announce.js)
says each card played and "your turn" in the page's language, the arrow keys move along
the hand, Enter plays, and the focus never falls back to <body> (static/js/store.js)."""

from __future__ import annotations

import json

from .conftest import LAPTOP, PHONE
from .helpers import WsTable, new_room, open_seat
from .scenes import LEADS, NAMES, SCENES, Scene, single_action_cards, to_act_with

# Card names as said, written here from the languages themselves (not from the client).
RANKS = {"ru": {"9": "девятка", "T": "десятка", "J": "валет", "Q": "дама", "K": "король", "A": "туз"},
         "pl": {"9": "dziewiątka", "T": "dziesiątka", "J": "walet", "Q": "dama", "K": "król", "A": "as"}}
SUITS = {"ru": {"S": "пик", "C": "треф", "D": "бубён", "H": "червей"},
         "pl": {"S": "pik", "C": "trefl", "D": "karo", "H": "kier"}}
YOUR_TURN = {"ru": "Ваш ход", "pl": "Twój ruch"}


def said(card: str, lang: str) -> str:
    return f"{RANKS[lang][card[0]]} {SUITS[lang][card[1]]}"


def announced(page) -> list[str]:
    return page.locator("#announcer p").all_inner_texts()


def wait_announced(page, text: str) -> None:
    page.wait_for_function("(t) => [...document.querySelectorAll('#announcer p')].some((p) => p.textContent.includes(t))",
                           arg=text)


def focus_is_on_the_page(page) -> bool:
    return page.evaluate("() => document.activeElement !== null && document.activeElement !== document.body")


def test_the_announcer_says_each_card_and_your_turn_and_the_keyboard_plays_T20(server, new_page, screenshots):
    code, players, seat, table = LEADS.bring(server)  # T-20: the browser's seat leads to the first trick
    try:
        page = open_seat(new_page, server, code, players[seat], LAPTOP, lang="ru")
        wait_announced(page, YOUR_TURN["ru"])
        # the hand by keyboard: Tab reaches a card, the arrows move along, Enter plays
        playable = page.locator(".hand .card.playable")
        assert playable.count() >= 2
        # a card with one action (a marriage's K or Q has two and would open its chooser)
        single = single_action_cards(page)
        target = next(i for i in [*range(1, playable.count()), 0] if i in single)
        playable.first.focus()
        page.keyboard.press("ArrowRight")
        assert page.evaluate("() => document.activeElement.dataset.card") == playable.nth(1).get_attribute("data-card")
        page.keyboard.press("Home")
        for _ in range(target):
            page.keyboard.press("ArrowRight")
        card = page.evaluate("() => document.activeElement.dataset.card")
        assert card == playable.nth(target).get_attribute("data-card")
        assert page.evaluate("() => document.activeElement.getAttribute('aria-label')") == said(card, "ru")
        for size, viewport, lang in (("laptop", LAPTOP, "ru"), ("phone", PHONE, "pl"), ("phone", PHONE, "en")):
            page.set_viewport_size(viewport)
            page.locator("#lang").select_option(lang)
            page.wait_for_timeout(100)
            page.screenshot(path=str(screenshots / f"keyboard-focus-{size}-{lang}.png"))
        page.locator("#lang").select_option("ru")
        page.set_viewport_size(LAPTOP)
        assert page.evaluate("() => document.activeElement.dataset.card") == card, "a language switch moved the focus"
        page.keyboard.press("Enter")
        for i in range(table.seats):
            table.read_until_view(i)
        wait_announced(page, f"вы: {said(card, 'ru')}")
        assert focus_is_on_the_page(page), "the focus fell back to <body> after the card was played"
        # the next seat plays (over the websocket); its card is said with its name, now in Polish
        page.locator("#lang").select_option("pl")
        nxt = table.view["to_act"][0]
        action = next(a for a in table.views[nxt]["view"]["legal"] if a.startswith("play:"))
        table.act(nxt, action)
        wait_announced(page, f"{players[nxt]['name']}: {said(action[5:], 'pl')}")
        lines = announced(page)
        assert not any("♠" in x or "♥" in x or "♦" in x or "♣" in x for x in lines), lines
        assert focus_is_on_the_page(page)
        assert not page.errors, page.errors
    finally:
        table.close()


# -- a whole deal without a mouse ------------------------------------------------------

TAB_LIMIT = 80


def tab_until(page, predicate_js: str, arg=None) -> None:
    """Press Tab until predicate(document.activeElement, arg) holds (the focus order, as a
    keyboard player meets it)."""
    for _ in range(TAB_LIMIT):
        if page.evaluate(f"(arg) => {{ const el = document.activeElement; return !!({predicate_js}); }}", arg):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {predicate_js} ({arg})")


def act_by_keyboard(page, action: str) -> None:
    """Do ``action`` with the keys alone: a button is reached with Tab, a card with Tab
    and then the arrow keys; a card with several actions opens its chooser."""
    kind, _, rest = action.partition(":")
    card = rest.split(">")[0] if kind in ("play", "give", "discard", "marriage", "take", "swap") else None
    if card is None:
        tab_until(page, "el.dataset && el.dataset.action === arg", action)
        page.keyboard.press("Enter")
        return
    tab_until(page, "el.classList.contains('card') && el.classList.contains('playable')")
    for _ in range(12):
        if page.evaluate("() => document.activeElement.dataset.card") == card:
            break
        page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.dataset.card") == card, f"the arrows never reached {card}"
    several = len(page.evaluate("() => document.activeElement.dataset.actions").split()) > 1
    page.keyboard.press("Enter")
    if several:  # the chooser: its buttons, one per action on that card
        page.locator("[data-role=chooser]").wait_for()
        tab_until(page, "el.dataset && el.dataset.action === arg", action)
        page.keyboard.press("Enter")


def keyboard_choice(view: dict) -> str:
    legal = view["legal"]
    for prefix in ("bid:", "give:", "contract:", "play:"):
        for a in legal:
            if a.startswith(prefix):
                return a
    return next(a for a in legal if a not in ("throw", "writeoff", "strike"))


def others_choice(view: dict) -> str:
    """The other seats open the bidding if nobody has (so the keyboard seat always has
    a bid to answer, T-12 aside), then pass; in play, their first legal card."""
    legal = view["legal"]
    if view["phase"] == "bidding":
        opened = any(a.startswith("bid:") for _, a in view.get("log") or [])
        bids = [a for a in legal if a.startswith("bid:")]
        if bids and not opened:
            return bids[0]
        if "pass" in legal:
            return "pass"
    return next((a for a in legal if a.startswith("play:")), legal[0])


def test_a_whole_thousand_deal_by_keyboard_alone_T8_T14_T20(server, new_page):
    """T-8 bidding, T-14 the talon, the gives and the contract, T-20 every trick: the
    browser's seat does each with the keyboard, and after every action the focus is on
    the page (not <body>)."""
    code, players = new_room(server, "thousand-1001", NAMES[:3])
    table = WsTable(server, code, [p["token"] for p in players])
    try:
        me = 0
        page = open_seat(new_page, server, code, players[me], LAPTOP, lang="ru")
        deal = table.view["deal"]
        kinds = set()
        for _ in range(200):
            v = table.views[me]["view"]
            if v["deal"] != deal or v["phase"] == "match_over":
                break
            seat = v["to_act"][0]
            if seat != me:
                table.act(seat, others_choice(table.views[seat]["view"]))
                continue
            version = table.views[me]["version"]
            page.wait_for_function("(v) => window.kozyr.page && window.kozyr.page.state.version >= v", arg=version)
            action = keyboard_choice(v)
            kinds.add(action.split(":")[0])
            act_by_keyboard(page, action)
            for i in range(table.seats):
                table.read_until_view(i)
            page.wait_for_function("(v) => window.kozyr.page.state.version > v", arg=version)
            assert page.evaluate("() => document.activeElement !== document.body"), f"focus on <body> after {action}"
            if not (set(table.views[me]["view"]["to_act"]) & {me}):  # my turn is over: back to the hand
                page.wait_for_timeout(300)
                assert page.evaluate("() => !!document.activeElement.closest('.hand')"), (action, page.evaluate("() => document.activeElement.outerHTML.slice(0, 200)"))
        assert {"bid", "give", "contract", "play"} <= kinds, kinds
        assert table.views[me]["view"]["deal"] != deal, "the deal did not end"
        assert not page.errors, page.errors
    finally:
        table.close()


def test_a_king_contract_is_chosen_by_keyboard_K10(server, new_page):
    code, players, seat, table = SCENES["king-choose"].bring(server)
    try:
        page = open_seat(new_page, server, code, players[seat], LAPTOP, lang="pl")
        v = table.views[seat]["view"]
        action = next(a for a in v["legal"] if a.startswith(("trump:", "order:")))
        act_by_keyboard(page, action)
        for i in range(table.seats):
            table.read_until_view(i)
        assert table.views[seat]["view"]["log"][-1] == [seat, action] or table.views[seat]["view"]["deal"] != v["deal"]
        assert page.evaluate("() => document.activeElement !== document.body")
    finally:
        table.close()


def test_table_keys_read_the_table_focus_the_hand_and_pass(server, new_page):
    """S says my hand by suit and the totals in words, H puts the focus on the hand, P
    passes when a pass is on offer (the client sends what view.legal lists)."""
    scene = Scene("thousand-1001", 3, to_act_with(lambda v: v["phase"] == "bidding" and "pass" in v["legal"]))
    code, players, seat, table = scene.bring(server)
    try:
        page = open_seat(new_page, server, code, players[seat], LAPTOP, lang="ru")
        wait_announced(page, YOUR_TURN["ru"])
        page.keyboard.press("s")
        wait_announced(page, "Ваши карты: ")
        line = announced(page)[-1]
        hand = table.views[seat]["view"]["hand"]
        assert all(RANKS["ru"][c[0]] in line for c in hand), (line, hand)
        assert "Итого: " in line
        page.keyboard.press("h")
        assert page.evaluate("() => !!document.activeElement.closest('.hand')")
        # B: the bids; the arrows move along the controls' buttons
        page.keyboard.press("b")
        first = page.evaluate("() => document.activeElement.dataset.action || document.activeElement.className")
        assert first.startswith("bid:") or "num-select" in first, first
        if first.startswith("bid:"):
            page.keyboard.press("ArrowRight")
            second = page.evaluate("() => document.activeElement.dataset.action")
            assert second and second != first and page.evaluate("() => !!document.activeElement.closest('.controls')")
        page.keyboard.press("p")
        for i in range(table.seats):
            table.read_until_view(i)
        assert [seat, "pass"] in table.views[seat]["view"]["log"]
        assert page.evaluate("() => document.activeElement !== document.body")
    finally:
        table.close()


def test_the_announcer_says_the_turn_clock_a_chat_line_and_a_player_gone(server, new_page):
    """The one live region also carries the turn clock of my seat, the others' chat lines
    (the chat list is no live region of its own, so nothing is said twice) and a player
    who lost the connection, in the page's language."""
    code, players = new_room(server, "thousand-1001", NAMES[:3], takeover=600)
    table = WsTable(server, code, [p["token"] for p in players])
    try:
        seat = table.view["to_act"][0]
        page = open_seat(new_page, server, code, players[seat], LAPTOP, lang="ru")
        wait_announced(page, "потом за вас сыграет бот")
        other, third = (seat + 1) % 3, (seat + 2) % 3
        table.socks[other].send(json.dumps({"type": "chat", "text": "привет всем"}))
        wait_announced(page, f"{players[other]['name']} в чате: привет всем")
        assert page.locator(".chat-list[aria-live]").count() == 0
        table.socks[third].close()
        wait_announced(page, f"{players[third]['name']}: связь потеряна")
        # my own chat line is not read back to me
        page.locator("[data-role=chat-form] input").fill("моё")
        page.locator("[data-role=chat-form] input").press("Enter")
        page.locator(".chat-text").filter(has_text="моё").wait_for()
        page.wait_for_timeout(200)
        assert not any("моё" in line for line in announced(page))
        assert not page.errors, page.errors
    finally:
        table.close()
