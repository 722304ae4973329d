"""Audit scenarios for modern Тысяча, worked out by hand from
rules/thousand-modern.md (the deals are described in modern_audit.py)."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from tests.engine.modern_audit import (
    LEADS,
    LEADS_PLAIN,
    LOSE1,
    do,
    legal,
    lose1_deal,
    new,
    one,
    opening,
    play_out,
    strong,
    strong_deal,
)


def test_blind_offer_before_the_deal_M5_M33():
    m = new("thousand-ru", presets=[strong(0)])
    v = m.view(1)
    assert v["phase"] == "bidding"
    assert v["hand"] == [] and v["hand_sizes"] == [0, 0, 0] and v["talon_size"] == 0
    assert sorted(v["legal"]) == ["bid:100", "blind:120"]
    assert m.to_act() == [1]
    assert m.view(None)["deal"] == 1 and m.view(None)["dealer"] == 0


def test_no_blind_in_tysiac_pl_forced_100_M4():
    m = new("tysiac-pl", presets=[strong(0)])
    assert m.view(1)["hand_sizes"] == [7, 7, 7]
    assert legal(m) == ["bid:100"]
    with pytest.raises(IllegalAction):
        m.apply(1, "pass")


def test_bids_jump_and_cap_M7_T10():
    m = new("thousand-ru", presets=[strong(0)])
    opening(m)
    # seat 2 holds KS QS KC QC: cap 120 + 40 + 60 = 220, steps of 5 from 105
    acts = legal(m)
    bids = sorted(int(a[4:]) for a in acts if a.startswith("bid:"))
    assert "pass" in acts and bids == list(range(105, 221, 5))
    do(m, "bid:115")  # a jump is allowed
    # seat 0 holds KD QD: 120 + 80
    bids = sorted(int(a[4:]) for a in legal(m) if a.startswith("bid:"))
    assert "pass" in legal(m) and bids == list(range(120, 201, 5))
    do(m, "pass")
    # seat 1 (the forced opener) holds KH QH: up to 220
    bids = sorted(int(a[4:]) for a in legal(m) if a.startswith("bid:"))
    assert bids == list(range(120, 221, 5))
    do(m, "pass")
    v = m.view(None)
    assert v["declarer"] == 2 and v["bid"] == 115
    assert v["bids"] == [[1, "bid:100"], [2, "bid:115"], [0, "pass"], [1, "pass"]]


def test_bid_cap_none_is_400_M7():
    m = new("tysiac-pl", presets=[strong(0)], bid_cap="none")
    do(m, "bid:100")
    bids = sorted(int(a[4:]) for a in legal(m) if a.startswith("bid:"))
    assert bids == list(range(110, 401, 10))


def test_talon_shown_and_gives_M10():
    m = new("thousand-ru", presets=[strong(0)])
    do(m, "bid:100", "pass", "pass")
    v = m.view(2)
    assert v["phase"] == "talon" and v["face_up"] == ["AD", "TD", "TH"]
    assert v["talon_size"] == 0 and v["hand_sizes"] == [7, 10, 7]
    assert [None, "show:AD,TD,TH"] in v["log"]
    acts = legal(m)
    gives = sorted(a for a in acts if a.startswith("give:"))
    assert len(gives) == 20 and "give:AD>2" in gives and "give:KH>0" in gives
    assert "writeoff" in acts and "strike" not in acts  # talon 31 points: no strike (M-13)
    do(m, "give:AD>2")
    assert m.view(0)["log"][-1] == [1, "give:??>2"]
    assert m.view(2)["log"][-1] == [1, "give:AD>2"]
    assert sorted(a for a in legal(m) if a.startswith("give:")) == [
        f"give:{c}>0" for c in sorted(["AS", "TS", "AC", "TC", "AH", "KH", "QH", "TD", "TH"])]
    do(m, "give:TD>0")
    v = m.view(None)
    assert v["hand_sizes"] == [8, 8, 8] and v["phase"] == "talon"
    # M-12: 100 … 120 + ♥ 100 on his 8 cards, ascending, with writeoff
    acts = legal(m)
    contracts = [a for a in acts if a.startswith("contract:")]
    assert contracts == [f"contract:{n}" for n in range(100, 221, 5)]
    assert "writeoff" in acts
    do(m, "contract:220")
    v = m.view(None)
    assert v["phase"] == "play" and v["face_up"] == [] and v["contract"] == 220
    assert m.to_act() == [1]


def test_marriage_not_on_first_lead_M16():
    m = new("thousand-ru", presets=[strong(0)])
    do(m, "bid:100", "pass", "pass", "give:AD>2", "give:TD>0", "contract:120")
    acts = legal(m)
    assert not [a for a in acts if a.startswith("marriage:")]
    assert "writeoff" in acts and "play:KH" in acts  # M-14: up to the first lead
    do(m, "play:AS", "play:KS", "play:JS")
    assert "writeoff" not in legal(m)
    assert {"marriage:KH", "marriage:QH"} <= set(legal(m))


def test_marriage_first_lead_option_M16():
    m = new("thousand-ru", presets=[strong(0)], marriage_first_lead=True)
    do(m, "bid:100", "pass", "pass", "give:AD>2", "give:TD>0", "contract:120")
    assert {"marriage:KH", "marriage:QH"} <= set(legal(m))


def test_played_deal_row_M19_M24_M30():
    m = new("thousand-ru", presets=[strong(0)])
    row = strong_deal(m, 220)
    assert row["deal"] == 1 and row["dealer"] == 0 and row["declarer"] == 1
    assert row["bid"] == 100 and row["contract"] == 220 and row["made"] is True
    assert row["writeoff"] is False and row["blind"] is False and row["golden"] is False
    assert row["sitting_out"] is None
    assert row["tricks"] == [0, 8, 0]
    assert row["points_raw"] == [0, 120, 0] and row["points"] == [0, 120, 0]
    assert row["written"] == [0, 220, 0] and row["scores"] == [0, 220, 0]
    assert row["totals"] == [0, 220, 0]
    assert row["bolts"] == [1, 0, 1]
    assert row["events"] == [["bolt"], [], ["bolt"]]
    assert row["marriages"] == [[1, "H"]]
    assert row["falls"] == [0, 0, 0] and row["writeoffs"] == [0, 0, 0]
    assert row["on_barrel"] == [False, False, False] and row["barrel_left"] == [None, None, None]
    v = m.view(None)
    assert v["deal"] == 2 and v["dealer"] == 1 and v["totals"] == [0, 220, 0] and v["bolts"] == [1, 0, 1]


def test_failed_contract_is_minus_contract_M19():
    m = new("thousand-ru", presets=[strong(0)])
    row = strong_deal(m, 220, leads=LEADS_PLAIN)  # 120 points, no marriage declared
    assert row["made"] is False and row["written"] == [0, -220, 0] and row["totals"] == [0, -220, 0]
    assert row["marriages"] == []


def test_opponent_rounding_ru_M18_M19():
    m = new("thousand-ru", presets=[LOSE1], blind=False)
    row = lose1_deal(m, 100)
    assert row["tricks"] == [1, 7, 0]
    assert row["points_raw"] == [13, 107, 0]
    assert row["points"] == [15, 105, 0]  # 13 -> 15 (3 up), 107 -> 105 (2 down)
    assert row["written"] == [15, 100, 0] and row["totals"] == [15, 100, 0]
    assert row["bolts"] == [0, 0, 1]


def test_opponent_rounding_pl_M18():
    m = new("tysiac-pl", presets=[LOSE1])
    row = lose1_deal(m, 100)
    assert row["points_raw"] == [13, 107, 0] and row["points"] == [10, 110, 0]
    assert row["written"] == [10, 100, 0] and row["bolts"] == [0, 0, 0]


def test_raw_points_decide_the_contract_M19():
    m = new("tysiac-pl", presets=[LOSE1])
    row = lose1_deal(m, 110)  # raw 107 < 110 although it rounds to 110
    assert row["made"] is False and row["written"] == [10, -110, 0]


def test_declarer_rounds_option_M19():
    m = new("tysiac-pl", presets=[LOSE1], declarer_rounds=True)
    row = lose1_deal(m, 110)
    assert row["made"] is True and row["written"] == [10, 110, 0]


def test_bolt_fine_every_third_M24():
    presets = [strong(d % 3) for d in range(4)]
    m = new("thousand-ru", presets=presets)
    rows = [strong_deal(m, 220) for _ in range(4)]
    assert [r["declarer"] for r in rows] == [1, 2, 0, 1]
    assert rows[2]["bolts"] == [2, 2, 2]
    assert rows[3]["events"] == [["bolt", "bolt_penalty"], [], ["bolt", "bolt_penalty"]]
    assert rows[3]["written"] == [0, 220, 0]
    assert rows[3]["scores"] == [-120, 220, -120]
    assert rows[3]["totals"] == [100, 440, 100]
    assert rows[3]["bolts"] == [0, 2, 0]


def test_bolt_count_row_resets_M24():
    # deal 1: seats 2, 0 bolt; deal 2 (seat 0 takes 13 points in lose1 rotated?) -> use strong:
    # with `row`, the declarer's count goes back to 0 too.
    presets = [strong(0), strong(1)]
    m = new("thousand-ru", presets=presets, bolt_count="row")
    strong_deal(m, 220)
    row = strong_deal(m, 220)
    assert row["declarer"] == 2
    assert row["bolts"] == [2, 1, 0]


def test_bolts_zero_tricks_and_penalty_option_M24():
    m = new("tysiac-pl", presets=[LOSE1], bolts="zero_tricks", bolt_penalty=55)
    row = lose1_deal(m, 100)
    assert row["bolts"] == [0, 0, 1] and row["events"] == [[], [], ["bolt"]]


def test_bolts_off_in_pl_M24():
    m = new("tysiac-pl", presets=[strong(0)])
    row = strong_deal(m, 220)
    assert row["bolts"] == [0, 0, 0] and row["events"] == [[], [], []]
    assert m.view(None)["bolts"] == [0, 0, 0]


def test_blind_deal_doubles_declarer_M5_M22():
    m = new("thousand-ru", presets=[strong(0)])
    do(m, "blind:120")
    v = m.view(2)
    assert v["blind"] == 1 and v["hand_sizes"] == [7, 7, 7]
    bids = sorted(int(a[4:]) for a in legal(m) if a.startswith("bid:"))
    assert bids[0] == 125
    do(m, "pass", "pass")
    assert "writeoff" not in legal(m)
    do(m, "give:AD>2", "give:TD>0")
    contracts = [a for a in legal(m) if a.startswith("contract:")]
    assert contracts[0] == "contract:120" and contracts[-1] == "contract:220"
    assert "writeoff" not in legal(m)
    do(m, "contract:140")
    assert "writeoff" not in legal(m)
    play_out(m, LEADS)
    row = m.scoresheet()[-1]
    assert row["blind"] is True and row["written"] == [0, 280, 0] and row["totals"] == [0, 280, 0]
    assert row["bolts"] == [1, 0, 1]


def test_blind_lapses_when_outbid_M5():
    m = new("thousand-ru", presets=[strong(0)])
    do(m, "blind:120", "bid:125")
    assert m.view(None)["blind"] is None
    do(m, "pass")
    # the first hand is an ordinary bidder again: pass or up to his cap 220
    acts = legal(m)
    assert "pass" in acts and "bid:130" in acts and "bid:220" in acts
    do(m, "bid:130", "pass")
    v = m.view(None)
    assert v["declarer"] == 1 and v["bid"] == 130
    assert "writeoff" in legal(m)
    row = strong_deal(m, 130, bids=())
    assert row["blind"] is False and row["written"] == [0, 130, 0]


def test_blind_failed_is_doubled_minus_M22():
    m = new("thousand-ru", presets=[strong(0)])
    do(m, "blind:120", "pass", "pass")
    row = strong_deal(m, 220, leads=LEADS_PLAIN, bids=())
    assert row["written"] == [0, -440, 0] and row["totals"] == [0, -440, 0]


def test_blind_min_total_M5():
    m = new("thousand-ru", presets=[strong(0)], blind_min_total=5)
    assert m.view(None)["hand_sizes"] == [7, 7, 7] and legal(m) == ["bid:100"]
    m = new("thousand-ru", presets=[strong(0)], blind_min_total=-100, start_total_1=-100)
    assert sorted(legal(m)) == ["bid:100", "blind:120"]


def test_silence_M8():
    m = new("thousand-ru", presets=[strong(0)], silence=True, silence_below=-100,
            start_total_1=-100, start_total_2=-100)
    # seat 1 is silenced: no blind, but still the forced 100
    assert m.view(None)["hand_sizes"] == [7, 7, 7] and legal(m) == ["bid:100"]
    do(m, "bid:100")
    assert legal(m) == ["pass"]  # seat 2 silenced (-100 <= -100)
    do(m, "pass")
    assert "bid:105" in legal(m)  # seat 0 at 0 may bid
    do(m, "pass")
    assert m.view(None)["declarer"] == 1


def test_write_off_minus_half_M14_M21():
    m = new("thousand-ru", presets=[strong(0)])
    do(m, "bid:100", "bid:105", "pass", "pass", "give:AD>0", "give:TD>1")
    assert m.view(None)["declarer"] == 2
    # seat 2 (KS QS KC QC + 9S 9C 9D + AD TD) names 105 then writes off
    do(m, "contract:115")
    do(m, "writeoff")
    row = m.scoresheet()[-1]
    assert row["writeoff"] is True and row["made"] is None and row["contract"] == 115
    assert row["written"] == [60, 60, -115]  # 5 * ceil(115 / 10)
    assert row["totals"] == [60, 60, -115]
    assert row["tricks"] == [0, 0, 0] and row["points_raw"] == [0, 0, 0] and row["points"] == [0, 0, 0]
    assert row["writeoffs"] == [0, 0, 1] and row["bolts"] == [0, 0, 0]
    assert row["marriages"] == []
    assert m.view(None)["writeoffs_left"] == [3, 3, 2]


@pytest.mark.parametrize("amount,each", [(100, 50), (105, 55), (120, 60), (125, 65)])
def test_write_off_half_rounding_before_contract_M21(amount, each):
    m = new("thousand-ru", presets=[strong(0)], blind=False)
    do(m, "bid:100")
    if amount > 100:
        do(m, f"bid:{amount}", "pass", "pass")
    else:
        do(m, "pass", "pass")
    do(m, "writeoff")  # while giving: A is the winning bid
    row = m.scoresheet()[-1]
    d = row["declarer"]
    assert row["contract"] is None and row["bid"] == amount
    assert row["written"][d] == -amount
    assert [w for s, w in enumerate(row["written"]) if s != d] == [each, each]


def test_bomba_pl_once_a_match_M14_M21():
    m = new("tysiac-pl", presets=[strong(0), strong(1), strong(2), strong(0)])
    do(m, "bid:100", "pass", "pass")
    assert m.view(None)["writeoffs_left"] == [1, 1, 1]
    do(m, "writeoff")
    row = m.scoresheet()[-1]
    assert row["written"] == [60, 0, 60] and row["totals"] == [60, 0, 60]
    assert m.view(None)["writeoffs_left"] == [1, 0, 1]
    strong_deal(m, 220)  # deal 2: seat 2
    strong_deal(m, 220)  # deal 3: seat 0
    do(m, "bid:100", "pass", "pass")  # deal 4: seat 1 again
    assert m.view(None)["declarer"] == 1 and "writeoff" not in legal(m)


def test_writeoff_off_M14():
    m = new("thousand-ru", presets=[strong(0)], writeoff="off")
    do(m, "bid:100", "pass", "pass")
    assert "writeoff" not in legal(m)
    assert m.view(None)["writeoffs_left"] == [0, 0, 0]


def test_writeoff_limit_zero_means_none_M33():
    m = new("thousand-ru", presets=[strong(0)], writeoff_limit=0)
    assert m.view(None)["writeoffs_left"] == [None, None, None]


def test_writeoff_pays_sixty_with_minus_M21():
    m = new("thousand-ru", presets=[strong(0)], writeoff_pays="sixty", blind=False)
    do(m, "bid:100", "bid:150", "pass", "pass", "writeoff")
    assert m.scoresheet()[-1]["written"] == [60, 60, -150]


def test_writeoff_does_not_count_bolts_M24():
    m = new("thousand-ru", presets=[strong(0)], bolt_count="row")
    strong_deal(m, 220)
    do(m, "bid:100", "pass", "pass", "writeoff")  # deal 2, seat 2 writes off
    row = m.scoresheet()[-1]
    assert row["bolts"] == [1, 0, 1] and row["events"] == [[], [], []]


def test_seat_to_act_only_M32():
    m = new("thousand-ru", presets=[strong(0)])
    with pytest.raises(IllegalAction):
        m.apply(2, "bid:100")
    assert m.legal_actions(2) == [] and one(m) == 1
