"""The coach's hint (engine/bots/coach.py): a legal action of the seat with a reason,
worked out from what the seat may see only."""

from __future__ import annotations

import random

import pytest

from engine import VARIANTS, find_variant
from engine.bots.coach import advise, explain

BUDGET = {"iterations": 6, "ms": None}  # the search depends on its seeds only


def positions(variant_id: str, seats: int, n: int, seed: int = 0):
    """``n`` positions of random play: (match, seat to act)."""
    rng = random.Random(seed)
    v = find_variant(variant_id)
    out = []
    while len(out) < n:
        match = v.new_match(seats, seed=rng.getrandbits(32))
        for _ in range(rng.randrange(0, 60)):
            to_act = match.to_act()
            if not to_act:
                break
            match.apply(to_act[0], rng.choice(match.legal_actions(to_act[0])))
        if match.to_act():
            out.append((match, match.to_act()[0]))
    return out


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_hint_depends_on_the_seats_view_only(variant_id):
    """Two matches alike in everything the seat sees (the second's hidden cards dealt
    anew by ``determinize``) get the same hint: no other hand, no face-down card leaks
    into it.  The hint is one of the seat's legal actions."""
    v = find_variant(variant_id)
    for match, seat in positions(variant_id, v.seat_counts[-1], 5, seed=len(variant_id)):
        twin = match.determinize(seat, random.Random(7))
        assert twin.view(seat) == match.view(seat)
        a, b = advise(match, seat, seed=3, **BUDGET), advise(twin, seat, seed=3, **BUDGET)
        assert a == b
        assert a["action"] in match.legal_actions(seat)


def test_hint_refuses_a_seat_not_to_act():
    match = find_variant("king-classic").new_match(4, seed=1)
    idle = next(s for s in range(4) if s not in match.to_act())
    with pytest.raises(ValueError):
        advise(match, idle, **BUDGET)


def _view(**parts) -> dict:
    base = {"variant": "thousand-1001", "seats": 3, "seat": 0, "phase": "play", "trump": None,
            "trick": [], "face_up": [], "log": [], "hand_sizes": [7, 7, 7]}
    return {**base, **parts}


def test_bid_reason_counts_marriages_aces_and_tens_T3():
    """An auction call is explained by the hand's marriages (T-3:
    a king and queen of one suit), aces and tens."""
    view = _view(phase="bidding", bid=100, hand=["KH", "QH", "AS", "AD", "TC", "9C", "JS"],
                 legal=["bid:110", "pass"])
    assert explain(view, "bid:120") == {"code": "bid", "value": 120, "marriages": ["H"], "aces": 2, "tens": 1}
    assert explain(view, "pass") == {"code": "pass", "value": 110, "marriages": ["H"], "aces": 2, "tens": 1}
    unseen = {**view, "hand": [], "legal": ["bid:100", "blind:120"]}  # before the hand is looked at (M-5)
    assert explain(unseen, "blind:120") == {"code": "blind_unseen", "value": 120}
    assert explain(unseen, "bid:100") == {"code": "bid_unseen", "value": 100}


def test_play_reasons_follow_the_trick_T20_T21_C4():
    """Leading (T-20), following (T-21) and who wins the trick (C-4) as the reason says."""
    hand = ["AS", "9S", "KH", "9D"]
    # Nothing of spades above the ace is out: the ace leads as the master card.
    lead = _view(hand=hand, legal=["play:" + c for c in hand])
    assert explain(lead, "play:AS") == {"code": "lead_master", "card": "AS"}
    assert explain(lead, "play:9D")["code"] == "lead"
    # A ten of spades led; the seat plays last (third of three): the ace wins for sure.
    last = _view(hand=hand, trick=[[1, "TS"], [2, "JS"]], legal=["play:AS", "play:9S"])
    assert explain(last, "play:AS") == {"code": "win_trick", "card": "AS"}
    assert explain(last, "play:9S") == {"code": "cannot_win", "card": "9S"}


def test_king_negative_deal_ducks_K4():
    """In a deal where tricks cost (Кинг's negative contracts), staying under the trick
    is a duck (K-4: the negative contracts)."""
    view = {"variant": "king-classic", "seats": 4, "seat": 0, "phase": "play", "trump": None,
            "contract": "tricks", "trick": [[3, "KS"]], "face_up": [], "log": [],
            "hand": ["9S", "AS", "7D"], "legal": ["play:9S", "play:AS"], "hand_sizes": [3, 3, 3, 3]}
    assert explain(view, "play:9S") == {"code": "duck", "card": "9S"}
    assert explain(view, "play:AS")["code"] in ("try_win", "win_trick")
