"""Modern Тысяча: scoring a deal (rules M-18 … M-30).

A mixin of :class:`engine.variants.thousand_modern.ModernThousandMatch`.
``_apply_deal`` is M-23 step by step: written scores, bolts, the new totals
with the barrel, mounting / knock-off / third fall, the dump, the row, the end.
"""

from __future__ import annotations

from .thousand_cards import MARRIAGE_VALUE, marriages_held, round_to_5, round_to_10
from .thousand_modern_state import ModernState

ACE_SITTER = 50  # M-20: aces_marriage
DUMP = 555  # M-28


class ScoreMixin(ModernState):
    def _round(self, points: int) -> int:
        """M-18: to 5 as T-24 in 1001, or to 10 as in 1000 (a 5 up with round5_up)."""
        if self.options["round_to"] == 5:
            return round_to_5(points)
        return round_to_10(points, self.options["round5_up"])

    def _sitter(self, raw: list[int], rounded: list[int], written: list[int]) -> None:
        """M-20: the dealer who sits out writes his talon (played or written off)."""
        out = self.sitting_out
        talon = self._talon_points(raw, rounded)
        if out is None:
            return
        if self.options["sitter_scores"] == "points":
            written[out] = rounded[out]
        else:
            aces = sum(1 for c in talon if c[0] == "A")
            married = sum(MARRIAGE_VALUE[s] for s in marriages_held(talon))
            written[out] = ACE_SITTER * aces + married

    def _score_play(self) -> None:
        """M-19, M-22: the written scores of a deal played to its last trick."""
        declarer = self.declarer
        raw, rounded, married = self._deal_points()  # M-18, M-16, M-17
        written = [0] * self.seats
        for s in self.calling:
            if s == declarer:
                count = (rounded[s] if self.options["declarer_rounds"] else raw[s]) + married[s]
                contract = int(self.contract or 0)  # named before the play (M-12)
                written[s] = contract if count >= contract else -contract
            else:
                written[s] = rounded[s] + married[s]
        made = written[declarer] > 0
        self._sitter(raw, rounded, written)
        if self.blind_deal:  # M-22
            written[declarer] *= 2
        if self.golden:
            written = [2 * w for w in written]
        self._apply_deal(written, raw, rounded, played=True, made=made)

    def _score_writeoff(self) -> None:
        """M-21: the declarer writes −A or 0, each opponent half of A or 60."""
        n = self.seats
        # M-21: A = the contract if one was named, else the winning bid. The barrel
        # floor (M-12) bounds the contracts a barrel seat may name; it is no contract,
        # so a write-off before the contract is scored on the bid.
        a = self._stake()
        raw, rounded, written = [0] * n, [0] * n, [0] * n
        written[self.declarer] = -a if self.options["writeoff"] == "minus" else 0
        pay = 5 * -(-a // 10) if self.options["writeoff_pays"] == "half" else 60
        for s in self._opponents():
            written[s] = pay
        self._sitter(raw, rounded, written)
        self.writeoffs[self.declarer] += 1
        self._apply_deal(written, raw, rounded, played=False, made=None)

    # -- M-23: applying a deal ------------------------------------------------

    def _apply_deal(self, written: list[int], raw: list[int], rounded: list[int], *,
                    played: bool, made: bool | None) -> None:
        o = self.options
        n, before, b, declarer = self.seats, self.before, self.in_b, self.declarer
        events: list[list[str]] = [[] for _ in range(n)]
        fine = self._bolts(written, events) if played else [0] * n  # step 2 (M-24)
        totals = list(before)
        frozen = self.barrel == "frozen"
        for s in range(n):  # step 3
            if s not in b:
                totals[s] = before[s] + written[s] + fine[s]
            elif not frozen:  # M-27: only his own contracts count
                totals[s] = before[s] + (written[s] if s == declarer else 0)
            else:
                totals[s] = self._on_barrel(s, written[s], played, made, events[s])
        if frozen:
            self._mount(totals, events)  # step 4 (M-25, M-26)
        if o["dump"]:  # step 5 (M-28)
            for s in range(n):
                hit = totals[s] == DUMP or (o["dump_negative"] and totals[s] == -DUMP)
                if hit and not (frozen and self.on_barrel[s]):
                    totals[s] = 0
                    events[s].append("dump")
        self.totals = totals
        self._close(written, raw, rounded, events, played=played, made=made)

    def _bolts(self, written: list[int], events: list[list[str]]) -> list[int]:
        """M-24: a bolt for an opponent who wrote 0 (or took no trick); a fine at 3."""
        o = self.options
        fine = [0] * self.seats
        if o["bolts"] == "off":
            return fine
        row = o["bolt_count"] == "row"
        for s in self.calling:
            if s in self.in_b:
                continue  # counts of seats in B are kept
            if s == self.declarer:
                if row:
                    self.bolts[s] = 0  # the declarer never gets one
                continue
            got = written[s] == 0 if o["bolts"] == "zero_score" else self.tricks_won[s] == 0
            if not got:
                if row:
                    self.bolts[s] = 0  # three in a row
                continue
            self.bolts[s] += 1
            events[s].append("bolt")
            if self.bolts[s] >= 3:
                fine[s] = -o["bolt_penalty"]
                self.bolts[s] = 0
                events[s].append("bolt_penalty")
        return fine

    def _leave(self, s: int) -> None:
        self.on_barrel[s] = False
        self.barrel_left[s] = None

    def _fall(self, s: int, events: list[str], event: str) -> int:
        self._leave(s)
        self.falls[s] += 1
        events.append(event)
        return self.threshold - self.options["barrel_penalty"]

    def _on_barrel(self, s: int, written: int, played: bool, made: bool | None,
                   events: list[str]) -> int:
        """M-25 rules 1-3 for a seat on the frozen barrel at the start of the deal."""
        o, t = self.options, self.threshold
        if s == self.declarer and played and made and self._reaches(t + written):
            self._leave(s)  # rule 1: off the barrel, to the goal
            events.append("barrel_off")
            return t + written
        if o["barrel_fail"] == "minus" and s == self.declarer and written < 0:
            self._leave(s)  # rule 2: a fall with no further penalty
            self.falls[s] += 1
            events.append("barrel_fall")
            return t + written
        if s != self.sitting_out:  # rule 3: the score is lost, a barrel deal used
            left = int(self.barrel_left[s] or 0) - 1
            self.barrel_left[s] = left
            if left == 0:
                return self._fall(s, events, "barrel_fall")
        return t

    def _mount(self, totals: list[int], events: list[list[str]]) -> None:
        """M-25 mounting, M-26 knock-off and the third fall (step 4 of M-23)."""
        o, t = self.options, self.threshold
        mounted = [s for s in range(self.seats) if s not in self.in_b and totals[s] >= t]
        for s in mounted:
            totals[s] = t
            self.on_barrel[s] = True
            self.barrel_left[s] = o["barrel_deals"]
            events[s].append("barrel_on")
        if mounted and o["barrel_knockoff"]:
            for s in range(self.seats):
                if self.on_barrel[s] and s not in mounted:
                    totals[s] = self._fall(s, events[s], "knocked_off")
        if o["barrel_third_fall"] == "zero":
            for s in range(self.seats):
                if self.falls[s] >= 3:
                    totals[s] = 0
                    self.falls[s] = 0
                    events[s].append("zeroed")

    def _reaches(self, total: int) -> bool:
        """M-29: the goal is reached (passed, with goal_strict)."""
        return total > self.goal if self.options["goal_strict"] else total >= self.goal

    def _close(self, written, raw, rounded, events, *, played: bool, made: bool | None) -> None:
        """M-30 the row, M-34 the struck deals, M-29 the end or the next deal."""
        n = self.seats
        totals = self.totals
        open_barrel = self.barrel == "open"
        limit_used = list(self.writeoffs)
        row = {
            "declarer": self.declarer, "bid": self.bid, "contract": self.contract,
            "made": made if played else None, "writeoff": not played, "blind": self.blind_deal,
            "golden": self.golden, "sitting_out": self.sitting_out,
            "tricks": list(self.tricks_won), "points_raw": raw, "points": rounded,
            "written": written, "bolts": list(self.bolts), "falls": list(self.falls),
            "writeoffs": limit_used,
            "on_barrel": [totals[s] >= self.threshold if open_barrel else self.on_barrel[s]
                          for s in range(n)],
            "barrel_left": list(self.barrel_left), "events": events,
            "marriages": [[s, suit] for s, suit, _ in self.marriages],
            "scores": [totals[s] - self.before[s] for s in range(n)], "totals": list(totals),
        }
        self._dealt = {**self._dealt, "struck": self._struck}  # _dealt is shared by copies
        self._struck = []
        self._end_or_next(row, totals, reached=any(self._reaches(x) for x in totals))  # M-29
