"""An independent oracle of the legal actions of modern Тысяча, written from
rules/thousand-modern.md (M-4 … M-17, M-32), checked against the engine at
every decision of seeded matches with many option sets.  The oracle reads only
what the acting seat's view shows (and the options)."""

from __future__ import annotations

import random

import pytest

from engine import find_variant
from tests.engine.modern_audit import new
from tests.engine.test_thousand_modern_audit_model import MARRIAGE, POINTS
from tests.engine.test_thousand_modern_properties import person_policy

RANK = {r: 6 - i for i, r in enumerate("ATKQJ9")}

OPTION_SETS = [
    {},
    {"must_beat": True, "must_overtrump": True, "redeal_talon_nines": True, "redeal_weak_below": 30},
    {"golden": True, "silence": True, "silence_below": 0, "ace_marriage": True},
    {"bid_cap": "none", "marriage_first_lead": True, "writeoff": "off", "blind_min_total": 50},
    {"barrel": "frozen", "barrel_gap": 150, "goal_strict": True, "writeoff_limit": 1,
     "must_beat": True, "must_overtrump": False},
    {"must_beat": False, "must_overtrump": True, "ace_marriage": True, "redeal_talon_below": 30},
]


def points(cards) -> int:
    return sum(POINTS[c[0]] for c in cards)


def cap(o: dict, hand: list[str]) -> int:
    if o["bid_cap"] == "none":
        return 400
    return 120 + sum(MARRIAGE[u] for u in "SCDH" if "K" + u in hand and "Q" + u in hand)


def qualifies(o: dict, hand: list[str]) -> bool:
    if o["redeal_nines"] and sum(c[0] == "9" for c in hand) == 4:
        return True
    return o["redeal_weak_below"] > 0 and points(hand) < o["redeal_weak_below"]


def floor(o: dict, v: dict, seat: int) -> int:
    if o["barrel"] != "frozen" or not v["on_barrel"][seat]:
        return 0
    f = -(-o["barrel_gap"] // o["bid_step"]) * o["bid_step"]
    return f + o["bid_step"] if o["goal_strict"] and f == o["barrel_gap"] else f


def writeoff_ok(o: dict, v: dict, seat: int) -> bool:
    left = v["writeoffs_left"][seat]
    return (o["writeoff"] != "off" and not v["golden"] and v["blind"] != seat
            and (left is None or left > 0))


def amounts(o: dict, low: int, high: int, prefix: str) -> list[str]:
    return [f"{prefix}:{a}" for a in range(100, 401, o["bid_step"]) if low <= a <= high]


def follow(o: dict, v: dict, hand: list[str]) -> list[str]:
    trick, trump = v["trick"], v["trump"]
    led = trick[0][1][1]
    trumped = led != trump and any(c[1] == trump for _, c in trick)
    same = [c for c in hand if c[1] == led]
    if same:
        if o["must_beat"] and not trumped:
            best = max(RANK[c[0]] for _, c in trick if c[1] == led)
            higher = [c for c in same if RANK[c[0]] > best]
            return higher or same
        return same
    trumps = [c for c in hand if trump is not None and c[1] == trump]
    if trumps:
        if o["must_overtrump"] and trumped:
            best = max(RANK[c[0]] for _, c in trick if c[1] == trump)
            higher = [c for c in trumps if RANK[c[0]] > best]
            return higher or trumps
        return trumps
    return list(hand)


def oracle(o: dict, v: dict, seat: int, seats: int) -> set[str]:
    hand, phase = v["hand"], v["phase"]
    first = (v["dealer"] + 1) % seats
    silenced = o["silence"] and v["totals"][seat] <= o["silence_below"]
    if phase == "bidding":
        if not v["bids"]:
            assert seat == first
            if not hand:  # the opening step (M-5)
                return {"blind:120", "bid:100"}
            return {"bid:100"}
        if silenced:
            return {"pass"}
        high = max(int(c.split(":")[1]) for _, c in v["bids"] if c != "pass")
        return {"pass", *amounts(o, high + o["bid_step"], cap(o, hand), "bid")}
    if phase == "strike":
        assert qualifies(o, hand)
        return {"strike", "accept"}
    quit_ = {"writeoff"} if writeoff_ok(o, v, seat) else set()
    if phase == "talon":
        assert v["declarer"] == seat
        mine = [a for s, a in v["log"] if s == seat]
        if seats == 2:
            if not any(a.startswith("take:") for a in mine):
                return {"take:top", "take:bottom"}
            if sum(a.startswith("discard:") for a in mine) < 2:
                return {"discard:" + c for c in hand} | quit_
        else:
            done = {int(a.split(">")[1]) for a in mine if a.startswith("give:")}
            opponents = [s for s in v["active"] if s != seat]
            if len(done) < len(opponents):
                acts = {f"give:{c}>{r}" for r in opponents if r not in done for c in hand} | quit_
                talon = v["face_up"]
                if (not done and not v["golden"] and v["bid"] == 100
                        and ((0 < o["redeal_talon_below"] and points(talon) < o["redeal_talon_below"])
                             or (o["redeal_talon_nines"] and sum(c[0] == "9" for c in talon) >= 2))):
                    acts.add("strike")
                return acts
        if v["golden"]:
            return {"contract:120"}
        low = max(v["bid"], floor(o, v, seat))
        return set(amounts(o, low, max(low, cap(o, hand)), "contract")) | quit_
    assert phase == "play"
    if v["trick"]:
        return {"play:" + c for c in follow(o, v, hand)}
    acts = {"play:" + c for c in hand}
    if o["marriage_first_lead"] or v["tricks_won"][seat] > 0:
        acts |= {f"marriage:{r}{u}" for u in "SCDH" for r in "KQ" if "K" + u in hand and "Q" + u in hand}
        if o["ace_marriage"] and all("A" + u in hand for u in "SCDH"):
            acts |= {"marriage:A" + u for u in "SCDH"}
    if seat == v["declarer"] and sum(v["tricks_won"]) == 0:
        acts |= quit_
    return acts


def check_view(o: dict, v: dict, seats: int) -> None:
    """M-33: the deal's keys as the text defines them."""
    first = (v["dealer"] + 1) % seats
    phase, bids = v["phase"], v["bids"]
    opening = phase == "bidding" and not any(v["hand_sizes"])
    taken = v["declarer"] is not None and (seats != 2 or any(
        a.startswith("take:") for _, a in v["log"]))
    if opening:
        assert v["talon_size"] == 0 and bids == [] and v["face_up"] == []
    elif phase in ("bidding", "strike") or not taken:
        assert v["talon_size"] == (4 if seats == 2 else 3)
    else:
        assert v["talon_size"] == 0
    if phase != "talon":
        assert v["face_up"] == []
    if phase in ("bidding", "strike"):
        assert v["declarer"] is None and v["bid"] is None
    stands = bool(bids) and bids[0] == [first, "blind:120"] and not any(
        s != first and c != "pass" for s, c in bids[1:])
    assert v["blind"] == (first if stands else None)
    if v["golden"]:
        assert bids == [] and v["deal"] <= seats
    assert v["active"] == sorted(s for s in range(seats) if seats != 4 or s != v["dealer"])


@pytest.mark.parametrize("variant", ["thousand-ru", "tysiac-pl"])
def test_legal_actions_match_the_text_M4_M17_M32(variant):
    schema = {e["name"]: e["default"] for e in find_variant(variant).options_schema()}
    decisions = 0
    for seed in range(8):
        seats = (2, 3, 4)[seed % 3]
        extra = {**OPTION_SETS[seed % len(OPTION_SETS)], "goal": 500}
        if extra.get("barrel_gap", schema["barrel_gap"]) >= 500:
            extra["barrel_gap"] = 150
        if seed % 2:
            extra.update({f"start_total_{k}": 300 - 100 * k for k in range(seats)})
        o = {**schema, **extra}
        m = new(variant, seats=seats, seed=100 + seed, dealer=None, **extra)
        rng = random.Random(seed)
        while not m.is_over() and decisions < 400 * (seed + 1):
            (s,) = m.to_act()
            v = m.view(s)
            got = m.legal_actions(s)
            assert len(got) == len(set(got))
            assert set(got) == oracle(o, v, s, seats), (seed, v["phase"], v["log"][-3:])
            check_view(o, v, seats)
            m.apply(s, person_policy(m, s, got, rng))
            decisions += 1
    assert decisions > 1500
