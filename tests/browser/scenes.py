"""Table states brought about over the websocket, for the table tests and `make screenshots`.

A scene is a variant, its seats (people with 40-character names, or bots), options and a
stop(views) that names the seat whose browser shows the state."""

from __future__ import annotations

import random
from contextlib import contextmanager
from dataclasses import dataclass

import pytest

from .conftest import LAPTOP
from .helpers import WsTable, long_name, new_room, open_seat, registered

NAMES = [long_name("Анна-Мария"), long_name("Zofia Łęcka"), long_name("Bartholomew"), long_name("Ёжик")]


def to_act_with(pred):
    """stop(): the first seat to act whose view satisfies pred(view)."""
    def stop(views):
        for seat in views[0]["view"]["to_act"]:
            v = views[seat]["view"]
            if pred(v):
                return seat
        return None
    return stop


def has(prefix):
    return lambda v: any(a.startswith(prefix) for a in v["legal"])


def playing_out(view, legal):
    """Random play that keeps the deal going: no throw-in or refusal while anything else is legal."""
    rest = [a for a in legal if a not in ("throw", "refuse", "strike")]
    return random.Random(len(view.get("log") or [])).choice(rest) if rest else None


@dataclass
class Scene:
    variant: str
    seats: int
    stop: object
    options: dict | None = None
    prepare: object = None  # prepare(page): clicks made before the screenshots

    def bring(self, server, seed: int = 3):
        """Start a room and play it to the scene; returns (code, players, seat, table) with
        the websocket table still open (close it when done)."""
        code, players = new_room(server, self.variant, NAMES[:self.seats], self.options)
        table = WsTable(server, code, [p["token"] for p in players])
        seat = table.run(self.stop, random.Random(seed), choose=playing_out)
        assert seat is not None, "the match ended before the scene"
        return code, players, seat, table

    @contextmanager
    def shown(self, server, new_page, lang: str = "ru"):
        """The scene in the browser of the seat it names, at laptop size, prepared (its
        clicks made); yields (page, code, players, table); the table closes afterwards.
        Skips when the variant is not registered."""
        if self.variant not in registered(server):
            pytest.skip(f"{self.variant} is not registered")
        code, players, seat, table = self.bring(server)
        try:
            page = open_seat(new_page, server, code, players[seat], LAPTOP, lang=lang)
            page.wait_for_timeout(300)
            if self.prepare:
                self.prepare(page)
            yield page, code, players, table
        finally:
            table.close()


def match_over(views):
    return 0 if views[0]["view"]["phase"] == "match_over" else None


def click(selector):
    def prepare(page):
        page.locator(selector).first.click()
        page.wait_for_timeout(150)
    return prepare


SCENES = {
    "thousand-confirm-throw": Scene("thousand-1001", 3, to_act_with(lambda v: "throw" in v["legal"]),
                                    prepare=click(".controls [data-action='throw']")),
    "thousand-give-chooser": Scene("thousand-1001", 4, to_act_with(has("give:")),
                                   prepare=click(".hand .card.playable")),
    "king-match-over": Scene("king-3p", 3, match_over),
    "korol-match-over": Scene("korol-ru", 4, match_over, {"reigns": 0}),
    "thousand-bidding": Scene("thousand-1001", 4, to_act_with(lambda v: v["phase"] == "bidding" and has("bid:")(v)
                                                              and len(v.get("bids") or []) >= 2)),
    "thousand-talon-give": Scene("thousand-1001", 4, to_act_with(has("give:"))),
    "thousand-talon-contract": Scene("thousand-1001", 4, to_act_with(has("contract:"))),
    "thousand-play": Scene("thousand-1001", 4, to_act_with(lambda v: v["phase"] == "play" and len(v["trick"]) >= 2)),
    "thousand-summary": Scene("thousand-1001", 4, to_act_with(lambda v: v["deal"] >= 2 and has("bid:")(v))),
    "king-choose": Scene("king-classic", 4, to_act_with(has("trump:"))),
    "king-play-late": Scene("king-classic", 4, to_act_with(lambda v: v["deal"] >= 8 and v["phase"] == "play"
                                                           and len(v["trick"]) >= 1)),
    "king-summary": Scene("king-classic", 4, to_act_with(lambda v: v["deal"] >= 3 and v["phase"] == "play" and not v["trick"])),
    "korol-play": Scene("korol-ru", 4, to_act_with(lambda v: v["phase"] == "play" and len(v["trick"]) >= 2),
                        {"reigns": 1}),
    "korol-tribute": Scene("korol-ru", 4, to_act_with(lambda v: v["phase"] == "tribute"), {"reigns": 1}),
    "korol-summary": Scene("korol-ru", 4, to_act_with(lambda v: v["deal"] >= 3 and v["phase"] == "play" and not v["trick"]),
                           {"reigns": 1}),
    "krol-pool": Scene("krol-pl", 4, to_act_with(lambda v: v["phase"] == "pool"), {"reigns": 1}),
}


# T-20: the declarer leads to the first trick; the scene's seat is the one to lead
LEADS = Scene("thousand-1001", 3, to_act_with(lambda v: v["phase"] == "play" and not v["trick"]))


def single_action_cards(page) -> list[int]:
    """Indices among the hand's playable cards of those with one action (a marriage's K or Q
    has two, and a click opens its chooser)."""
    counts = page.locator(".hand .card.playable").evaluate_all(
        "(els) => els.map((e) => e.dataset.actions.split(' ').length)")
    return [i for i, c in enumerate(counts) if c == 1]
