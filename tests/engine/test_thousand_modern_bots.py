"""The rule-of-thumb bot's modern calls (engine/bots/heuristic_modern.py): it
strikes a weak hand and never a good one (M-6), writes off a hopeless hand
(M-14), bids knowing the barrel floor (M-12, M-25), never opens blind (M-5);
and the strong bot searches both variants through the generic interface."""

from __future__ import annotations

import pytest

from engine.bots import make_bot

from .test_thousand_modern import act, new, preset


def basic(m, seat: int) -> str:
    return make_bot("basic", 1, strict=True).act(m, seat)


def test_strikes_a_weak_hand_not_a_good_one_M6():
    weak = preset(3, 2, {0: "9S 9C 9D 9H JS JC JD"})
    assert basic(new(3, presets=[weak], redeal_nines=True), 0) == "strike"
    good = preset(3, 2, {0: "9S 9C 9D 9H AH KH QH"})
    assert basic(new(3, presets=[good], redeal_nines=True), 0) == "accept"


def test_never_opens_blind_M5():
    assert basic(new(3, blind=True), 0) == "bid:100"


def test_writes_off_a_hopeless_hand_M14():
    hopeless = preset(3, 2, {0: "9S 9C 9D 9H JS JC JD"}, talon="QS QC JH")
    m = new(3, presets=[hopeless])
    act(m, "0 bid:100", "1 pass", "2 pass")
    assert basic(m, 0) == "writeoff"
    m = new(3, presets=[hopeless], writeoff="off")  # none left: it gives
    act(m, "0 bid:100", "1 pass", "2 pass")
    assert basic(m, 0).startswith("give:")


def test_bids_knowing_the_barrel_floor_M12_M25():
    hand = {1: "AS KS QS AC TC 9D 9H"}  # worth about 110: a bid of 105, not 120
    m = new(3, presets=[preset(3, 2, hand)])
    act(m, "0 bid:100")
    assert basic(m, 1) == "bid:105"
    m = new(3, presets=[preset(3, 2, hand)], start_total_1=880)  # on the barrel: needs 120
    act(m, "0 bid:100")
    assert basic(m, 1) == "pass"


@pytest.mark.parametrize("variant", ["thousand-ru", "tysiac-pl"])
def test_strong_bot_plays_a_deal_M32(variant):
    m = new(3, variant=variant, blind=True, redeal_nines=True, redeal_weak_below=14)
    bot = make_bot("strong", 2, strict=True, iterations=8, ms=None)
    while not m.scoresheet():
        seat = m.to_act()[0]
        action = bot.act(m, seat)
        assert action in m.legal_actions(seat)
        m.apply(seat, action)
    assert m.scoresheet()[0]["deal"] == 1
