"""An independent model of the written scores (M-18 … M-22) and of M-23 (the order of applying a deal) written from
rules/thousand-modern.md — bolts (M-24), the frozen barrel (M-25, M-26), the
open barrel (M-27), the dump (M-28), the end (M-29) — checked against every
scoresheet row of seeded matches with many option sets.  The model trusts only
a row's `written`, `declarer`, `sitting_out`, `writeoff` and `tricks`."""

from __future__ import annotations

import random

import pytest

from tests.engine.modern_audit import new
from tests.engine.test_thousand_modern_properties import person_policy

OPTION_SETS = [
    {},
    {"barrel_knockoff": False, "barrel_fail": "minus", "bolt_count": "row", "bolts": "zero_tricks",
     "dump_negative": True, "barrel_deals": 1},
    {"barrel": "open", "barrel_gap": 100, "bolts": "zero_score", "dump": True},
    {"barrel": "frozen", "barrel_gap": 100, "barrel_penalty": 0, "barrel_deals": 1,
     "bolt_penalty": 55},
    {"barrel_third_fall": "none", "goal_strict": True, "golden": True, "bolt_count": "row"},
    {"writeoff": "bomb", "writeoff_pays": "sixty", "writeoff_limit": 0, "barrel_fail": "minus"},
    {"declarer_rounds": True, "round_to": 10, "round5_up": False, "sitter_scores": "aces_marriage",
     "ace_marriage": True, "marriage_first_lead": True},
    {"blind": True, "blind_min_total": -1000, "barrel": "off", "round_to": 5,
     "sitter_scores": "points", "writeoff_limit": 0},
]


class Model:
    def __init__(self, o: dict, seats: int, start: list[int]):
        self.o, self.n = o, seats
        self.totals = list(start)
        self.bolts = [0] * seats
        self.falls = [0] * seats
        self.barrel = o["barrel"]
        self.t = o["goal"] - o["barrel_gap"] if self.barrel != "off" else None
        self.on = [self.barrel == "frozen" and x == self.t for x in start]
        self.left = [o["barrel_deals"] if b else None for b in self.on]

    def reaches(self, x: int) -> bool:
        return x > self.o["goal"] if self.o["goal_strict"] else x >= self.o["goal"]

    def fall(self, s: int, ev: list[str], name: str) -> int:
        self.on[s], self.left[s] = False, None
        self.falls[s] += 1
        ev.append(name)
        return self.t - self.o["barrel_penalty"]

    def apply(self, row: dict) -> dict:
        o, n, t = self.o, self.n, self.t
        before = list(self.totals)
        written, d, out = row["written"], row["declarer"], row["sitting_out"]
        played = not row["writeoff"]
        active = [s for s in range(n) if s != out]
        if self.barrel == "frozen":
            b = {s for s in range(n) if self.on[s]}
        elif self.barrel == "open":
            b = {s for s in range(n) if before[s] >= t}
        else:
            b = set()
        ev = [[] for _ in range(n)]
        fine = [0] * n
        if played and o["bolts"] != "off":  # step 2
            for s in active:
                if s in b:
                    continue
                got = s != d and (written[s] == 0 if o["bolts"] == "zero_score" else row["tricks"][s] == 0)
                if got:
                    self.bolts[s] += 1
                    ev[s].append("bolt")
                    if self.bolts[s] == 3:
                        fine[s] = -o["bolt_penalty"]
                        self.bolts[s] = 0
                        ev[s].append("bolt_penalty")
                elif o["bolt_count"] == "row":
                    self.bolts[s] = 0
        new_totals = list(before)
        for s in range(n):  # step 3
            if s not in b:
                new_totals[s] = before[s] + written[s] + fine[s]
            elif self.barrel == "open":
                new_totals[s] = before[s] + (written[s] if s == d else 0)
            elif s == d and played and written[s] > 0 and self.reaches(t + written[s]):
                new_totals[s] = t + written[s]
                self.on[s], self.left[s] = False, None
                ev[s].append("barrel_off")
            elif o["barrel_fail"] == "minus" and s == d and written[s] < 0:
                new_totals[s] = t + written[s]
                self.on[s], self.left[s] = False, None
                self.falls[s] += 1
                ev[s].append("barrel_fall")
            else:
                new_totals[s] = t
                if s != out:
                    self.left[s] -= 1
                    if self.left[s] == 0:
                        new_totals[s] = self.fall(s, ev[s], "barrel_fall")
        if self.barrel == "frozen":  # step 4
            mounted = [s for s in range(n) if s not in b and new_totals[s] >= t]
            for s in mounted:
                new_totals[s] = t
                self.on[s], self.left[s] = True, o["barrel_deals"]
                ev[s].append("barrel_on")
            if mounted and o["barrel_knockoff"]:
                for s in range(n):
                    if self.on[s] and s not in mounted:
                        new_totals[s] = self.fall(s, ev[s], "knocked_off")
            if o["barrel_third_fall"] == "zero":
                for s in range(n):
                    if self.falls[s] >= 3:
                        new_totals[s], self.falls[s] = 0, 0
                        ev[s].append("zeroed")
        if o["dump"]:  # step 5
            for s in range(n):
                hit = new_totals[s] == 555 or (o["dump_negative"] and new_totals[s] == -555)
                if hit and not (self.barrel == "frozen" and self.on[s]):
                    new_totals[s] = 0
                    ev[s].append("dump")
        self.totals = new_totals
        return {"totals": new_totals, "scores": [new_totals[s] - before[s] for s in range(n)],
                "bolts": list(self.bolts), "falls": list(self.falls), "events": ev,
                "on_barrel": [x >= t for x in new_totals] if self.barrel == "open" else
                list(self.on) if self.barrel == "frozen" else [False] * n,
                "barrel_left": list(self.left)}


MARRIAGE = {"S": 40, "C": 60, "D": 80, "H": 100, "A": 200}
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}


def rounded(o: dict, x: int) -> int:
    if o["round_to"] == 5:
        return 5 * round(x / 5)  # no half-way case for whole numbers
    rest = x % 10
    return x - rest + (10 if rest > 5 or (rest == 5 and o["round5_up"]) else 0)


def check_written(o: dict, row: dict, talon: list[str], seats: int) -> None:
    """M-18 … M-22 from the row's raw points, marriages and the dealt talon."""
    d, out = row["declarer"], row["sitting_out"]
    want = [0] * seats
    if out is not None:  # M-20
        raw = sum(POINTS[c[0]] for c in talon)
        assert row["points_raw"][out] == raw and row["points"][out] == rounded(o, raw)
        if o["sitter_scores"] == "points":
            want[out] = rounded(o, raw)
        else:
            want[out] = 50 * sum(c[0] == "A" for c in talon) + sum(
                MARRIAGE[u] for u in "SCDH" if "K" + u in talon and "Q" + u in talon)
    opponents = [s for s in range(seats) if s not in (d, out)]
    if row["writeoff"]:  # M-21
        a = row["contract"] if row["contract"] is not None else row["bid"]  # never the floor
        want[d] = -a if o["writeoff"] == "minus" else 0
        for s in opponents:
            want[s] = 5 * -(-a // 10) if o["writeoff_pays"] == "half" else 60
    else:  # M-19
        married = [0] * seats
        for s, u in row["marriages"]:
            married[s] += MARRIAGE[u]
        for s in [d, *opponents]:
            assert row["points"][s] == rounded(o, row["points_raw"][s])
        count = (row["points"][d] if o["declarer_rounds"] else row["points_raw"][d]) + married[d]
        made = count >= row["contract"]
        assert row["made"] is made
        want[d] = row["contract"] if made else -row["contract"]
        for s in opponents:
            want[s] = row["points"][s] + married[s]
        if row["blind"]:  # M-22
            want[d] *= 2
    if row["golden"]:
        want = [2 * w for w in want]
    assert row["written"] == want, row


@pytest.mark.parametrize("variant", ["thousand-ru", "tysiac-pl"])
def test_rows_follow_the_order_of_M23(variant):
    from engine import find_variant

    checked = 0
    for seed in range(18):
        seats = (2, 3, 4)[seed % 3]
        extra = dict(OPTION_SETS[seed % len(OPTION_SETS)])
        goal = (400, 500, 600)[seed % 3]
        extra["goal"] = goal
        if extra.get("barrel", "x") != "off" and extra.get("barrel_gap", 200) >= goal:
            extra["barrel_gap"] = 100
        schema = {e["name"]: e["default"] for e in find_variant(variant).options_schema()}
        o = {**schema, **extra}
        t = goal - o["barrel_gap"]
        start = [(t - 40 + 25 * k) // 5 * 5 for k in range(seats)]
        if o["barrel"] == "frozen":
            start = [min(x, t) for x in start]
        extra.update({f"start_total_{k}": start[k] for k in range(seats)})
        m = new(variant, seats=seats, seed=seed, dealer=None, **extra)
        model = Model(o, seats, start)
        rng = random.Random(seed)
        rows = 0
        while not m.is_over() and rows < 40:
            s = m.to_act()[0]
            m.apply(s, person_policy(m, s, m.legal_actions(s), rng))
            sheet = m.scoresheet()
            while rows < len(sheet):
                row = sheet[rows]
                check_written(o, row, m.history()[rows]["talon"], seats)
                want = model.apply(row)
                for key, value in want.items():
                    assert row[key] == value, (seed, rows + 1, key, row)
                rows += 1
                checked += 1
        if m.is_over():
            totals = model.totals
            assert any(model.reaches(x) for x in totals)
            top = max(totals)
            tied = [s for s in range(seats) if totals[s] == top]
            d = m.scoresheet()[-1]["declarer"]
            assert m.result()["winners"] == ([d] if d in tied else tied)
    assert checked > 50
