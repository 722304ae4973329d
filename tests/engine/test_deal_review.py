"""The coach's review of a finished deal (engine/bots/coach.py ``review`` / ``judge``,
issue 36 item 6): each decision of the seat is weighed from that seat's view and
determinized copies only, at a fixed rollout budget and a seed of its own."""

from __future__ import annotations

import random

import pytest

from engine import find_variant
from engine.bots import make_bot
from engine.bots.coach import REVIEW_GAP, judge, review

BUDGET = {"iterations": 12, "ms": None}  # small and fixed: the search depends on its seeds only


def first_deal(variant_id: str, seats: int, seed: int, bad_seat: int | None = None):
    """The match as dealt and its log through the first deal, played by basic bots;
    with ``bad_seat``, that seat's first bid is the highest it may call (a Тысяча
    contract nobody could make with an ordinary hand).  Also the bad bid's version."""
    m = find_variant(variant_id).new_match(seats, seed=seed)
    start = m.copy()
    basic = make_bot("basic", seed)
    bad = None
    while not m.history():
        s = m.to_act()[0]
        legal = m.legal_actions(s)
        bids = [a for a in legal if a.startswith("bid:")]
        if s == bad_seat and bad is None and bids:
            action = max(bids, key=lambda a: int(a[4:]))
            bad = (len(m.actions), action)
        else:
            action = basic.act(m, s)
        m.apply(s, action)
    return start, list(m.actions), bad


@pytest.mark.parametrize("variant_id,seats", [("thousand-ru", 3), ("king-classic", 4)])
def test_each_decision_is_weighed_from_the_seats_view_only_C5(variant_id, seats):
    """Rule C-5: at every decision of the seat, a twin match whose hidden cards were
    dealt anew by ``determinize`` (the same view) gets the same verdict: no other
    hand and no face-down card reaches the review."""
    start, actions, _ = first_deal(variant_id, seats, seed=21)
    m = start.copy()
    weighed = 0
    for version, (s, a) in enumerate(actions):
        if s == 0 and len(m.legal_actions(0)) > 1:
            twin = m.determinize(0, random.Random(version))
            assert twin.view(0) == m.view(0)
            mine = judge(m, 0, a, seed=version, **BUDGET)
            assert mine == judge(twin, 0, a, seed=version, **BUDGET)
            weighed += mine is not None
        m.apply(s, a)
    assert weighed >= 2


def test_a_deliberately_bad_bid_is_marked_and_the_review_is_the_same_every_time():
    start, actions, (version, bid) = first_deal("thousand-1001", 3, seed=3, bad_seat=0)
    got = review(start, actions, 1, 0, key="m1:1:0", **BUDGET)
    assert got == review(start, actions, 1, 0, key="m1:1:0", **BUDGET)  # deterministic
    assert got["deal"] == 1 and got["seat"] == 0 and got["threshold"] == REVIEW_GAP
    assert got["reviewed"] >= 1
    marked = {x["version"]: x for x in got["marked"]}
    assert version in marked, got
    mark = marked[version]
    assert mark["action_played"] == bid and mark["best_action"] != bid
    assert mark["gap"] > REVIEW_GAP
    assert mark["reason"]["code"] in ("bid", "pass")  # the coach's reason for its own choice
    m = start.copy()
    for s, a in actions[:version]:
        m.apply(s, a)
    assert mark["best_action"] in m.legal_actions(0)
    assert mark["step"] == version  # the first deal starts the log


def test_review_refuses_a_deal_not_finished():
    start, actions, _ = first_deal("king-classic", 4, seed=2)
    with pytest.raises(ValueError):
        review(start, actions, 2, 0, **BUDGET)
    with pytest.raises(ValueError):
        review(start, actions[:-1], 1, 0, **BUDGET)
