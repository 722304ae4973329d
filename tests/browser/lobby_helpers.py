"""Helpers of the lobby / invite / history browser tests: players and rooms made over REST,
a page that already knows its player, and the checks every page of ours must pass."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from .helpers import call

if TYPE_CHECKING:
    from playwright.sync_api import Page

# A rule id (T-30, K-5, R-4, M-12, C-7) or an option's raw name (round5_up) in visible text.
RULE_ID = re.compile(r"\b[TKRMC]-\d+\b")
RAW_NAME = re.compile(r"\b[a-z]+\d*_[a-z0-9_]+\b")
RAW_ACTION = re.compile(r"\b[a-z_]+:[\w?>]+")  # an action string: title:king, take:top, give:QS>2

SIZES = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


def player(base: str, name: str) -> dict:
    return call(base, "POST", "/api/players", body={"name": name})


def room_with(base: str, host: dict, variant: str, seats: int, options: dict | None = None,
              guests: list[dict] = (), bots: dict[int, str] | None = None) -> dict:
    """A room made over REST: the host in seat 0, guests in the next seats, bots after them."""
    room = call(base, "POST", "/api/rooms", host["token"], {"variant": variant, "seats": seats, "options": options})
    for n, g in enumerate(guests, start=1):
        room = call(base, "POST", f"/api/rooms/{room['code']}/seats/{n}", g["token"])
    for n, level in (bots or {}).items():
        room = call(base, "POST", f"/api/rooms/{room['code']}/seats/{n}/bot", host["token"], {"level": level})
    return room


def as_player(page: Page, p: dict) -> Page:
    """The page's localStorage holds this player before any script of ours runs."""
    page.context.add_init_script(
        f"localStorage.setItem('kozyr.player', {json.dumps(json.dumps({'id': p['id'], 'name': p['name'], 'token': p['token']}))});")
    return page


def no_sideways_overflow(page: Page) -> None:
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page is {width[0]} px wide in a {width[1]} px viewport"
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')].filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.right > window.innerWidth + 1 && getComputedStyle(el).position !== 'fixed'
          && !el.closest('.scores-wrap, .opt-group:not([open])');
      }).slice(0, 5).map((el) => el.tagName + '.' + el.className + ' ' + Math.round(el.getBoundingClientRect().right))""")
    assert not wide, f"elements past the right edge: {wide}"


def visible_text(page: Page, selector: str = "main") -> str:
    return page.locator(selector).first.inner_text()


def no_raw_ids(text: str) -> None:
    assert not RULE_ID.findall(text), f"rule ids in the visible text: {RULE_ID.findall(text)}"
    assert not RAW_NAME.findall(text), f"raw names in the visible text: {RAW_NAME.findall(text)}"
    assert not RAW_ACTION.findall(text), f"raw actions in the visible text: {RAW_ACTION.findall(text)}"
