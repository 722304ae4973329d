"""Король / Król's trick play on the compact state: following (R-2), the leads
(R-5, R-12, R-24, R-25; R-34, R-44), titles after each trick (R-14, R-15, R-27;
R-35, R-45), a leaver's cards handed on (R-46) and the deal's end (R-3)."""

from __future__ import annotations

from typing import Any

from ...variants.korol_play import TITLES, KorolMatch
from .state import SUIT_MASK, PlayState, bits

_TARGETS = {("korol-ru", 0): (10, 9, 8), ("korol-ru", 1): (9, 9, 9), ("krol-pl", 0): (9, 9, 9),
            ("krol-pl", 1): (9, 9, 9)}


class KorolState(PlayState):
    """Scores: the deal's row ``scores``, the tricks each seat took in it (R-7).
    ``new_titles``: the titles taken in this round so far (None: still active);
    ``done`` when the deal ends (R-3) or the round does (the last title given)."""

    __slots__ = ("ru", "round", "order", "active", "n_active", "tally", "won_at", "targets",
                 "leavers", "new_titles", "seat_of", "prince_leads", "lead_duty", "round_ended")

    def __init__(self, match: KorolMatch, view: dict, where: dict[str, list[str]]) -> None:
        self._base(match, view, where)
        vid = match.variant.id
        self.ru = vid == "korol-ru"
        self.round = view["round"]
        self.targets = _TARGETS[vid, min(self.round, 1)]
        self.order = tuple(view["order"])
        live = set(view["active"])
        self.active = [s in live for s in range(4)]
        self.n_active = len(live)
        self.tally = list(view["tallies"])
        self.won_at = [match.round_tricks_won(s) for s in range(4)]
        self.new_titles = list(view["new_titles"])
        self.leavers = sum(1 for t in self.new_titles if t)
        self.seat_of = {t: s for s, t in enumerate(view["titles"]) if t}
        self.prince_leads = view.get("prince_leads", 0)
        rows = view["scoresheet"]
        start = rows[-1]["totals"] if rows and rows[-1].get("round") == self.round else [0] * 4
        self.tricks = [t - s for t, s in zip(self.tally, start, strict=True)]  # this deal's
        self.round_ended = False
        self.lead_duty = False
        if not view["trick"]:  # the engine says whether this lead must be a trump
            legal = match.legal_actions(self.turn)
            self.lead_duty = len(legal) < len(where[f"hand:{self.turn}"])
        self._recount()
        self._lay_trick(view)

    def _copy_into(self, t: Any) -> None:
        t.ru, t.round, t.order, t.targets, t.seat_of = self.ru, self.round, self.order, self.targets, self.seat_of
        t.active, t.tally, t.new_titles = self.active.copy(), self.tally.copy(), self.new_titles.copy()
        t.won_at = self.won_at.copy()  # its lists are replaced, never changed
        t.n_active, t.leavers, t.prince_leads = self.n_active, self.leavers, self.prince_leads
        t.lead_duty, t.round_ended = self.lead_duty, self.round_ended

    def _recount(self) -> None:
        order, active = self.order, self.active
        self.nxt = {}
        for i, s in enumerate(order):
            self.nxt[s] = next((order[(i + k) % 4] for k in range(1, 5) if active[order[(i + k) % 4]]), -1)
        self.size = self.n_active

    def legal(self) -> list[int]:
        hand = self.hands[self.turn]
        if not self.trick:
            if self.lead_duty and self.trump >= 0:
                trumps = hand & SUIT_MASK[self.trump]
                if trumps:
                    return bits(trumps)
            return bits(hand)
        follow = hand & SUIT_MASK[self.led]  # follow, else anything
        return bits(follow or hand)

    def _after_trick(self, winner: int) -> None:
        self.tally[winner] += 1
        self.won_at[winner] = self.won_at[winner] + [sum(self.tally)]
        if self.tally[winner] >= self.targets[self.leavers]:
            self._award()
        if self.n_active <= 1:
            self.round_ended = self.done = True
            return
        for s in self.order:
            if self.active[s] and not self.hands[s]:
                self.done = True
                return
        self._next_lead(winner)

    def _award(self) -> None:
        """R-14, R-15, R-27, R-35, R-45: titles in order, each at its target."""
        while self.n_active > 1:
            target = self.targets[self.leavers]
            ready = [s for s in self.order if self.active[s] and self.tally[s] >= target]
            if not ready:
                break
            seat = min(ready, key=lambda s: self.won_at[s][target - 1])
            self._leave(seat, TITLES[self.leavers])
        if self.n_active == 1:
            last = next(s for s in self.order if self.active[s])
            self.new_titles[last] = TITLES[3]
            self.active[last] = False
            self.n_active = 0

    def _leave(self, seat: int, title: str) -> None:
        self.new_titles[seat] = title
        self.active[seat] = False
        self.n_active -= 1
        self.leavers += 1
        self._recount()
        cards, self.hands[seat] = self.hands[seat], 0
        if not self.ru and self.round:  # to this reign's Soldier, then its Sweeper
            titles = ("soldier", "peasant")
            receiver = self.seat_of[titles[self.leavers - 1]] if self.leavers <= 2 else None
            if receiver is not None and self.active[receiver]:
                self.hands[receiver] |= cards

    def _next_lead(self, winner: int) -> None:
        if self.ru and self.round:
            leader = next(s for s in self.order if self.active[s])
            duty = False
            if leader == self.seat_of["prince"] and not self.active[self.seat_of["king"]]:
                duty = self.prince_leads < 2
                self.prince_leads += 1
            self.turn, self.lead_duty = leader, duty
            return
        # the winner leads; R-5: the next active player if he left
        self.turn = winner if self.active[winner] else self.nxt[winner]
        self.lead_duty = self.ru and sum(self.tricks) < 2  # the first two leads

    def scores(self) -> list[int]:
        return list(self.tricks)
