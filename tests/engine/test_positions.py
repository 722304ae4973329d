"""What a client needs beside the rules: the positions of a finished deal
(``Match.deal_positions``), the calls a page confirms (``view["confirm"]``)
and the description and group of every house rule (rule C-7)."""

from __future__ import annotations

import random

import pytest

from engine import VARIANTS, find_variant
from engine.options import OPTION_GROUPS
from engine.variants.thousand_cards import DECK

from .test_thousand import LOSE_LAST, STRONG, STRONG_TALON, act, new, tricks

PILES = ("talon", "discards", "aside", "stock")


def cards_at(step: dict) -> list[str]:
    """Every card of a step, each pile once (face-up cards lie in another pile too)."""
    out = [c for h in step["hands"] for c in h]
    out += [c for _, c in step["trick"]]
    out += [c for pile in step["taken"] or () for c in pile]
    for key in PILES:
        value = step.get(key) or []
        out += [c for x in value for c in (x if isinstance(x, list) else [x])]
    out += [c for pile in step.get("spares") or () for c in pile]
    return out


def one_deal(variant_id: str, seed: int, done=lambda m: bool(m.history()), seats: int | None = None,
             options: dict | None = None) -> object:
    """A match played by seeded random choices (passing while more than pass and one bid is
    open) until done(match): by default, its first deal finished."""
    variant = find_variant(variant_id)
    m = variant.new_match(seats or max(variant.seat_counts), seed=seed, options=options)
    rng = random.Random(seed)
    while not done(m):
        seat = m.to_act()[0]
        legal = m.legal_actions(seat)
        m.apply(seat, "pass" if "pass" in legal and len(legal) > 2 else rng.choice(legal))
    return m


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_deal_positions_hold_the_whole_deck_at_every_step_C5(variant_id):
    m = one_deal(variant_id, 3)
    deal = m.history()[0]
    out = m.deal_positions(1)
    assert out["deal"] == 1 and len(out["steps"]) == len(deal["actions"]) + 1
    assert out["steps"][0]["action"] is None
    assert [s["action"] for s in out["steps"][1:]] == deal["actions"]
    deck = sorted(m.deck)
    for step in out["steps"]:
        assert sorted(cards_at(step)) == deck, step["action"]
        for key in ("hands", "talon", "trick", "taken", "trump", "marriages", "contract",
                    "declarer"):
            assert key in step
    # Step 0 is the deal as dealt (Кинг's positive deals keep the undealt cards in stock).
    first = out["steps"][0]
    for s, dealt in enumerate(deal["hands"]):
        stock = first.get("stock")
        own = first["hands"][s] + (stock[s] if stock and isinstance(stock[0], list) else [])
        spare = (first.get("spares") or [[]] * m.seats)[s]
        assert sorted(own + spare) == sorted(dealt)
    assert m.deal_positions(1) == out  # the match itself is not changed


def test_deal_positions_of_a_thousand_deal_T14_T20():
    m = new("thousand-1001", STRONG, STRONG_TALON)
    act(m, "bid:100", "pass", "pass", "give:JH>2", "give:TH>0", "contract:120", "play:AS")
    with pytest.raises(ValueError, match="not a finished deal"):
        m.deal_positions(1)
    act(m, "play:9S", "play:9C")  # seat 1 takes the first trick
    tricks(m, *LOSE_LAST[1:])
    assert len(m.history()) == 1
    steps = m.deal_positions(1)["steps"]
    assert steps[0]["talon"] == ["TH", "JH", "9H"] and steps[0]["declarer"] is None
    assert steps[3]["talon"] == [] and len(steps[3]["hands"][1]) == 10  # T-14: taken into hand
    assert steps[3]["face_up"] == ["TH", "JH", "9H"] and steps[3]["declarer"] == 1
    assert "TH" in steps[5]["hands"][0] and "JH" in steps[5]["hands"][2]
    assert steps[6]["contract"] == 120 and steps[6]["face_up"] == []
    assert steps[7]["trick"] == [[1, "AS"]]
    assert steps[9]["trick"] == [] and sorted(steps[9]["taken"][1]) == ["9C", "9S", "AS"]
    last = steps[-1]
    assert last["hands"] == [[], [], []] and sorted(c for p in last["taken"] for c in p) == sorted(DECK)
    with pytest.raises(ValueError):
        m.deal_positions(2)


def test_confirm_names_the_calls_that_cost_points_T15_T18():
    m = new("thousand-1001", STRONG, STRONG_TALON)
    act(m, "bid:100", "pass", "pass")
    assert m.view(1)["confirm"] == ["throw"]  # rule T-15
    assert m.view(2)["confirm"] == [] and m.view(None)["confirm"] == []
    m = new("thousand-1000", STRONG, STRONG_TALON)
    act(m, "bid:100", "pass", "pass", "contract:120")
    assert m.view(1)["confirm"] == ["refuse"]  # rule T-18
    king = find_variant("king-classic").new_match(4, seed=1)
    assert king.view(king.to_act()[0])["confirm"] == []


def test_confirm_names_the_krol_strike_R42():
    m = find_variant("krol-pl").new_match(4, seed=2)
    rng = random.Random(2)
    while m.phase != "strike":
        seat = m.to_act()[0]
        m.apply(seat, rng.choice(m.legal_actions(seat)))
    seat = m.to_act()[0]
    assert m.view(seat)["confirm"] == [a for a in m.legal_actions(seat) if a == "strike"] == ["strike"]


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_every_option_has_a_description_and_a_group_C7(variant_id):
    for entry in find_variant(variant_id).options_schema():
        assert entry["group"] in OPTION_GROUPS, entry
        text = entry["description"]
        assert text and text[0].isupper() and text.endswith("."), entry
        assert entry["rule"] not in text  # no rule ids in what a player reads
