"""The modern Тысяча (thousand-ru) at the table, by clicking: a strike (M-6), a blind call
(M-5) and a write-off (M-14, M-21) made by one person in the browser, the other seats over
the websocket.  The table shows what the view and the scoresheet rows say (M-30, M-33, M-34):
the voided deal's summary, the write-off's sentence, the barrel's mark in the sheet.

The deal's cards come from the server's seed; the policy below makes the three decisions as
soon as the engine offers them (the blind call first: it is offered only while nobody sits
on the barrel; a strike needs a weak hand: ``redeal_weak_below`` at its top,
40, makes one likely in the first deals)."""

from __future__ import annotations

import random
import re

import pytest

from .conftest import PHONE
from .helpers import (
    RAW_TEXT,
    Player,
    WsTable,
    new_room,
    no_sideways_overflow,
    open_seat,
    registered,
    state,
    visible_text,
)

WIDE = {"width": 1366, "height": 768}
NAMES = ["Анна-Мария Константинопольская", "Zofia Łęcka-Wierzbicka", "Bartholomew Featherstone"]


def sync(page, version: int) -> None:
    page.wait_for_function(
        f"() => {{ const f = document.querySelector('.felt'); return f && f.dataset.version === '{version}'"
        " && f.dataset.busy !== 'true'; }", timeout=15000)


def click_confirmed(page, action: str) -> None:
    page.locator(f".controls [data-action='{action}']").first.click()
    page.locator("[data-role='confirm-yes']").click()


def other_seat(view: dict, legal: list[str], rng: random.Random) -> str:
    """The websocket seats: accept every deal, pass whenever they may, never write off."""
    for a in ("accept", "pass"):
        if a in legal:
            return a
    rest = [a for a in legal if a not in ("strike", "writeoff") and not a.startswith("blind")]
    return sorted(rest)[0] if rest and rest[0].startswith("bid:") else rng.choice(rest or legal)


def blind_scored(table: WsTable) -> bool:
    """A blind deal is in the sheet (one struck after the blind call has no row, M-34)."""
    return any(r.get("blind") for r in table.view["scoresheet"])


def play_to_goals(table: WsTable, page, me: int, done: dict) -> None:
    rng = random.Random(5)
    person = Player(page)
    for _ in range(900):
        if all(done.values()):
            return
        v = table.view
        assert v["phase"] != "match_over", f"the match ended first: {done}"
        seat = v["to_act"][0]
        legal = table.views[seat]["view"]["legal"]
        if seat != me:
            table.act(seat, other_seat(table.views[seat]["view"], legal, rng))
            continue
        mine = table.views[me]["view"]
        sync(page, table.views[me]["version"])
        if "strike" in legal and not done["strike"]:
            click_confirmed(page, "strike")
            done["strike"] = True
        elif "blind:120" in legal:  # offered while nobody sits on the barrel (M-5): take it at once
            if not blind_scored(table):
                click_confirmed(page, "blind:120")
                done["blind"] = True
            else:
                page.locator(".controls [data-action='bid:100']").click()
        elif "writeoff" in legal and done["strike"] and blind_scored(table):
            click_confirmed(page, "writeoff")
            done["writeoff"] = True
        elif "accept" in legal:
            page.locator(".controls [data-action='accept']").click()
        elif mine["phase"] == "bidding" and "pass" in legal:
            bids = sorted((a for a in legal if a.startswith("bid:")), key=lambda a: int(a[4:]))
            want = done["strike"] and blind_scored(table) and bids  # to declare, then write off
            page.locator(f".controls [data-action='{bids[0] if want else 'pass'}']").click()
        else:
            person.move(state(page))
        for i in range(table.seats):
            table.read_until_view(i)
    raise AssertionError(f"the goals were not reached: {done}")


def check_page(page, where: str) -> None:
    text = visible_text(page)
    raw = re.search(RAW_TEXT, text)
    assert raw is None, f"{where}: raw text {raw.group(0)!r} in {text[:400]}"
    assert "modern." not in text, where
    assert no_sideways_overflow(page), f"{where}: sideways overflow"
    assert not page.errors, page.errors


@pytest.mark.parametrize("viewport,lang", [(WIDE, "en"), (PHONE, "ru")], ids=["desktop", "phone"])
def test_strike_blind_writeoff_by_clicking_M5_M6_M14_M21_M30_M34(server, new_page, screenshots, viewport, lang):
    if "thousand-ru" not in registered(server):
        pytest.skip("thousand-ru is not registered")
    # the two others start at 870, 10 below the barrel (M-25 at 880): any points mount them
    options = {"redeal_weak_below": 40, "start_total_0": 870, "start_total_1": 870}
    for _ in range(30):  # the first dealer is drawn (C-3): a room where seat 2 is the first hand
        code, players = new_room(server, "thousand-ru", NAMES, options)
        table = WsTable(server, code, [p["token"] for p in players])
        if table.view["to_act"] == [2]:
            break
        table.close()
    with table:
        v = table.view
        me = v["to_act"][0]  # the first hand: offered the blind call (M-5)
        assert me == 2 and "blind:120" in table.views[me]["view"]["legal"], v
        page = open_seat(new_page, server, code, players[me], viewport=viewport, lang=lang)
        done = {"strike": False, "blind": False, "writeoff": False}
        voided_seen = []

        # the struck deal's summary: the deal is dealt again, the striker named (M-34)
        def watch():
            ld = table.view.get("last_deal") or {}
            if ld.get("voided") and not voided_seen:
                sync(page, table.views[me]["version"])
                box = page.locator("[data-role='deal-summary'] [data-role='events']")
                box.wait_for()
                assert players[ld["seat"]]["name"][:12] in box.inner_text()
                page.screenshot(path=str(screenshots / f"modern-voided-{lang}.png"))
                voided_seen.append(ld)

        orig_read = table.read_until_view

        def read_and_watch(i):
            orig_read(i)
            if i == table.seats - 1 and done["strike"] and not voided_seen:
                watch()
        table.read_until_view = read_and_watch
        play_to_goals(table, page, me, done)
        table.read_until_view = orig_read
        assert voided_seen and voided_seen[0]["voided"] in ("strike", "talon_strike")
        sync(page, table.views[me]["version"])

        # the write-off's summary names it, with the declarer's written score (M-21)
        row = table.view["scoresheet"][-1]
        assert row["writeoff"] and row["declarer"] == me, row
        summary = page.locator("[data-role='deal-summary']")
        summary.wait_for()
        line = summary.locator("[data-event='writeoff']")
        assert line.count() == 1
        assert players[me]["name"][:12] in line.inner_text()
        assert str(abs(row["written"][me])) in line.inner_text()
        check_page(page, f"{lang} summary")
        page.screenshot(path=str(screenshots / f"modern-writeoff-{lang}-{viewport['width']}.png"))

        # the scoresheet: the write-off's mark, the blind's, and every row's events as marks
        tool = page.locator("[data-role='open-scores']")
        if tool.is_visible():  # the phone: the scores are a panel over the table
            tool.click()
        sheet = page.locator(".sheet.thousand")
        sheet.wait_for()
        assert sheet.locator(".mark[data-event='writeoff']").count() == 1
        assert sheet.locator(".mark[data-event='blind']").count() == 1
        rows = table.view["scoresheet"]
        events = {e for r in rows for ev in r["events"] for e in ev}
        for e in events:
            assert sheet.locator(f".mark[data-event='{e}']").count() >= 1, e
        assert any(any(r["on_barrel"]) for r in rows), rows  # the start totals make it happen
        barrel = sheet.locator(".mark[data-event='barrel_on']")
        assert barrel.count() >= 1
        assert re.search(r"\d", barrel.first.inner_text()), "the barrel mark shows the deals left"
        assert page.locator("[data-role='legend']").count() == 1
        # the counters as of now (M-33 view keys): write-offs left for every seat, the barrel's deals
        now = table.views[me]["view"]
        foot = sheet.locator("[data-role='now']")
        assert foot.locator("[data-stat='writeoffs']").count() == 3
        assert foot.locator("[data-stat='barrel']").count() == sum(bool(x) for x in now["on_barrel"])
        assert str(now["writeoffs_left"][me]) in foot.locator("td").nth(me).inner_text()
        check_page(page, f"{lang} scoresheet")
        page.screenshot(path=str(screenshots / f"modern-sheet-{lang}-{viewport['width']}.png"), full_page=True)

        # the "?" help of the modern phase (strike or bidding here), in words, no ids
        if tool.is_visible():
            tool.click()  # the phone: close the scores panel first
        page.locator("[data-role='help']").click()
        help_text = page.locator("[data-role='help-text']").inner_text()
        assert len(help_text) > 80 and "modern." not in help_text and not re.search(RAW_TEXT, help_text), help_text
        page.locator("[data-role='help']").click()

        # the same table in the other languages
        for other in ("en", "ru", "pl"):
            if other == lang:
                continue
            page.evaluate(f"localStorage.setItem('kozyr.lang', '{other}')")
            page.reload()
            page.locator(".felt").wait_for()
            sync(page, table.views[me]["version"])
            check_page(page, other)
            page.screenshot(path=str(screenshots / f"modern-table-{other}-{viewport['width']}.png"))
