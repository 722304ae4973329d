"""The coach at the table in Chromium (issue 36 item 6): in a room with the coach on,
everyone sees it is on; at my turn a Hint button asks the server, and its advice shows
in my language with the card or button it names marked.  Desktop and phone, ru / pl / en."""

from __future__ import annotations

import os
import re

import pytest

from .conftest import PHONE
from .helpers import RAW_TEXT, new_room, open_seat

DESKTOP = {"width": 1366, "height": 768}
# Two in every run; all six languages x sizes for the screenshots (make screenshots).
CASES = [("ru", PHONE, "phone"), ("pl", DESKTOP, "desktop")]
if os.environ.get("KOZYR_SCREENSHOTS"):
    CASES += [("en", DESKTOP, "desktop"), ("en", PHONE, "phone"), ("ru", DESKTOP, "desktop"), ("pl", PHONE, "phone")]
WORDS = {"en": "Coach", "ru": "Тренер", "pl": "Trener"}


@pytest.mark.parametrize("lang,viewport,size", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_hint_button_shows_advice_in_words(server, new_page, screenshots, lang, viewport, size):
    code, players = new_room(server, "thousand-ru", ["Анна"], bots={1: "basic", 2: "basic"},
                             pace={"coach": True})
    page = open_seat(new_page, server, code, players[0], viewport=viewport, lang=lang)
    page.locator("[data-role=coach-on]").wait_for()
    assert WORDS[lang] in page.locator("[data-role=coach-on]").inner_text()
    page.locator("[data-role=hint]").wait_for(timeout=20_000)  # my turn comes (the bots play at once)
    page.locator("[data-role=hint]").click()
    line = page.locator("[data-role=hint-text]")
    line.wait_for(timeout=20_000)
    text = line.inner_text()
    assert text.startswith(WORDS[lang]) and "—" in text
    assert not re.search(RAW_TEXT, text), text
    assert page.locator(".hinted").count() == 1  # the card or button it advises
    page.screenshot(path=str(screenshots / f"coach-{lang}-{size}.png"))
    assert not page.errors
