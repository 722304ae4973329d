"""Audit scenarios on the edges of modern Тысяча: the order of M-23 (bolt
fine before mounting and the dump), counts kept by `row` bolts, the view
during a blind deal, determinization after redeal requests, replay across a
voided deal, worked out by hand from rules/thousand-modern.md."""

from __future__ import annotations

import random

import pytest

from engine import IllegalAction, find_variant
from engine.variants.thousand_cards import card_points
from tests.engine.modern_audit import (
    LEADS,
    LEADS_PLAIN,
    LOSE1,
    LOSE1_PLAY,
    do,
    legal,
    lose1_deal,
    new,
    one,
    play_out,
    strong,
    strong_deal,
)
from tests.engine.test_thousand_modern_audit_deal import NINES


def test_bolt_fine_then_dump_M23_M24_M28():
    # seat 0: bolts in deals 1 and 2, declares 220 in deal 3 (455 -> 675), third bolt in
    # deal 4: 675 - 120 = 555, dumped to 0 in step 5
    m = new("thousand-ru", presets=[strong(d % 3) for d in range(4)], barrel="off",
            start_total_0=455)
    rows = [strong_deal(m, 220) for _ in range(4)]
    assert rows[2]["totals"][0] == 675
    assert rows[3]["events"][0] == ["bolt", "bolt_penalty", "dump"]
    assert rows[3]["totals"][0] == 0 and rows[3]["scores"][0] == -675 and rows[3]["written"][0] == 0


def test_bolt_fine_before_mounting_M23():
    # seat 0 at 880 - 1 ... a fine keeps a seat below T: 990 - 120 = 870 < 880 stays off
    m = new("thousand-ru", presets=[strong(d % 3) for d in range(4)], start_total_0=650)
    rows = [strong_deal(m, 220) for _ in range(3)]
    assert rows[2]["totals"][0] == 870 and rows[2]["on_barrel"][0] is False
    row = strong_deal(m, 220)  # third bolt: 870 + 0 - 120 = 750
    assert row["totals"][0] == 750 and row["events"][0] == ["bolt", "bolt_penalty"]


def test_row_bolts_kept_for_sitter_M24():
    presets = [strong(0, 4), strong(1, 4)]
    m = new("thousand-ru", seats=4, presets=presets, bolt_count="row")
    r1 = strong_deal(m, 220)
    assert r1["bolts"] == [0, 0, 1, 1]
    r2 = strong_deal(m, 220)  # dealer 1 sits out, seat 2 declares: 3, 0 bolt
    assert r2["sitting_out"] == 1 and r2["declarer"] == 2
    assert r2["bolts"] == [1, 0, 0, 2]


def _rotated(preset: dict, k: int) -> dict:
    """A 3-seat preset with every seat s moved to seat s + k."""
    hands = [[] for _ in range(3)]
    for s, h in enumerate(preset["hands"]):
        hands[(s + k) % 3] = list(h)
    return {"hands": hands, "rest": list(preset["rest"])}


@pytest.mark.parametrize("count,expected", [("row", [2, 0, 0]), ("total", [2, 0, 1])])
def test_bolt_count_row_and_total_M24(count, expected):
    # deal 1 (strong): seats 2 and 0 bolt; deal 2 (lose1 one seat on: dealer 1, seat 2
    # declares, seat 1 takes 13 points, seat 0 none): seat 0 bolts again; with `row` the
    # declarer's count goes back to 0
    m = new("thousand-ru", presets=[strong(0), _rotated(LOSE1, 1)], bolt_count=count, blind=False)
    strong_deal(m, 220)
    do(m, "bid:100", "pass", "pass", "give:9S>0", "give:QH>1", "contract:100", *LOSE1_PLAY)
    row = m.scoresheet()[-1]
    assert row["declarer"] == 2 and row["written"] == [0, 15, 100]
    assert row["bolts"] == expected


def test_blind_view_during_blind_deal_M33():
    m = new("thousand-ru", presets=[strong(0)])
    do(m, "blind:120", "pass", "pass")
    assert m.view(0)["blind"] == 1 and m.view(None)["bid"] == 120
    do(m, "give:AD>2", "give:TD>0", "contract:120")
    assert m.view(2)["blind"] == 1
    assert m.view(None)["bids"] == [[1, "blind:120"], [2, "pass"], [0, "pass"]]


def test_blind_winning_bid_is_120_M4_M5_M30():
    m = new("thousand-ru", presets=[strong(0)])
    do(m, "blind:120", "pass", "pass")
    row = strong_deal(m, 120, bids=())
    assert row["bid"] == 120 and row["contract"] == 120 and row["written"] == [0, 240, 0]


def test_tricks_won_view_M33():
    m = new("thousand-ru", presets=[strong(0)], blind=False)
    do(m, "bid:100", "pass", "pass", "give:AD>2", "give:TD>0", "contract:220",
       "play:AS", "play:KS", "play:JS")
    v = m.view(None)
    assert v["tricks_won"] == [0, 1, 0] and v["last_trick"]
    assert v["contract"] == 220 and v["declarer"] == 1 and v["bid"] == 100


def test_determinize_keeps_asked_hands_qualifying_M6():
    m = new("thousand-ru", presets=[NINES], blind=False, redeal_weak_below=0)
    do(m, "accept")  # seat 2 (four nines) accepted
    for k in range(20):
        d = m.determinize(1, random.Random(k))
        hands = [d._hand(s) for s in range(3)]
        assert hands[1] == m._hand(1)
        nines = {"9S", "9C", "9D", "9H"}
        assert nines <= set(hands[2])  # asked: his dealt hand qualified
        assert not nines <= set(hands[0])


def test_replay_across_voided_deal_M34():
    v = find_variant("thousand-ru")
    m = v.new_match(seats=3, seed=5, first_dealer=0, preset_deals=[NINES, strong(0)])
    do(m, "blind:120", "strike", "bid:100", "pass", "pass")
    assert [a for _, a in m.actions][:2] == ["blind:120", "strike"]
    twin = v.new_match(seats=3, seed=5, first_dealer=0, preset_deals=[NINES, strong(0)])
    for seat, a in m.actions:
        twin.apply(seat, a)
    assert twin.view(1) == m.view(1) and twin.view(None) == m.view(None)


def test_open_barrel_writeoff_own_M27():
    m = new("tysiac-pl", presets=[strong(0)], start_total_1=850, writeoff="minus")
    do(m, "bid:100", "pass", "pass", "writeoff")
    row = m.scoresheet()[-1]
    assert row["totals"] == [60, 750, 60]


def test_open_barrel_sitter_adds_nothing_M27():
    m = new("tysiac-pl", seats=4, presets=[strong(0, 4)], start_total_0=800)
    row = strong_deal(m, 220)
    assert row["written"][0] == 50 and row["totals"][0] == 800 and row["scores"][0] == 0


def test_golden_count_is_seat_number_M9():
    m = new("tysiac-pl", seats=2, golden=True)
    assert m.view(None)["golden"] is True
    # play two write-off-free golden deals by any legal choice, then deal 3 is not golden
    rng = random.Random(3)
    for deal in (1, 2):
        while m.view(None)["deal"] == deal:
            assert m.view(None)["golden"] is True
            s = one(m)
            acts = legal(m)
            m.apply(s, "accept" if "accept" in acts else rng.choice(acts))
    assert m.view(None)["golden"] is False and m.view(None)["phase"] in ("bidding", "strike")


def test_failed_contract_bolts_for_opponents_with_zero_M24():
    m = new("thousand-ru", presets=[strong(0)])
    row = strong_deal(m, 220, leads=LEADS_PLAIN)
    assert row["bolts"] == [1, 0, 1]


def test_sitter_points_rounding_pl_M20():
    m = new("tysiac-pl", seats=4, presets=[strong(0, 4)], sitter_scores="points")
    row = strong_deal(m, 220)
    assert row["points_raw"][0] == 31 and row["points"][0] == 30 and row["written"][0] == 30


def test_round5_down_option_M18():
    # sitter talon 25 points (AD TD JD... ) with round_to 10: 25 -> 30, or 20 with round5_up off
    first = ["AS", "TS", "AC", "TC", "AH", "KH", "QH"]
    talon = ["AD", "TD", "KD"]  # 25 points
    second = ["KS", "QS", "KC", "QC", "9S", "9C", "9D"]
    third = ["JS", "JC", "TH", "QD", "JD", "JH", "9H"]
    for up, expected in ((True, 30), (False, 20)):
        m = new("tysiac-pl", seats=4, presets=[strong(0, 4, hands=(first, second, third), talon=talon)],
                sitter_scores="points", round5_up=up)
        do(m, "bid:100", "pass", "pass", "writeoff")
        row = m.scoresheet()[-1]
        assert row["points_raw"][0] == 25 and row["written"][0] == expected


def test_lose1_ru_totals_M19():
    m = new("thousand-ru", presets=[LOSE1], blind=False)
    assert lose1_deal(m, 105)["written"] == [15, 105, 0]


def test_golden_barrel_short_of_goal_loses_the_score_M9_M25():
    # gap 250: T = 750; the golden contract is 120, +240 takes him only to 990
    m = new("thousand-ru", presets=[strong(0)], golden=True, barrel_gap=250, start_total_1=750)
    do(m, "give:AD>2", "give:TD>0")
    assert legal(m) == ["contract:120"]
    do(m, "contract:120")
    play_out(m, LEADS)
    row = m.scoresheet()[-1]
    assert row["written"] == [0, 240, 0] and row["totals"] == [0, 750, 0]
    assert row["barrel_left"] == [None, 2, None] and row["events"][1] == [] and not m.is_over()


def test_frozen_barrel_pl_floor_200_M12():
    m = new("tysiac-pl", presets=[strong(0)], barrel="frozen", start_total_1=800)
    do(m, "bid:100", "pass", "pass", "give:AD>2", "give:TD>0")
    assert [a for a in legal(m) if a.startswith("contract:")] == ["contract:200", "contract:210",
                                                                   "contract:220"]


def test_open_barrel_has_no_floor_M12():
    m = new("tysiac-pl", presets=[strong(0)], start_total_1=800)
    do(m, "bid:100", "pass", "pass", "give:AD>2", "give:TD>0")
    assert [a for a in legal(m) if a.startswith("contract:")][0] == "contract:100"


@pytest.mark.parametrize("action", ["contract:105", "contract:90", "contract:230", "give:AD>1",
                                    "give:9H>2", "bid:130", "pass", "writeoffs", "play:AS", ""])
def test_illegal_actions_change_nothing_M32(action):
    m = new("tysiac-pl", presets=[strong(0)])
    do(m, "bid:100", "pass", "pass", "give:AD>2", "give:TD>0")
    before = m.view(1)
    with pytest.raises(IllegalAction):
        m.apply(1, action)
    assert m.view(1) == before


def test_second_marriage_changes_trump_M16():
    # seat 2 declares 220 on KS QS KC QC; he leads AD (from the talon) and wins, declares
    # the club marriage; seat 1 takes it with AC and declares the heart marriage
    m = new("thousand-ru", presets=[strong(0)], blind=False)
    do(m, "bid:100", "bid:220", "pass", "pass")
    assert m.view(None)["declarer"] == 2
    do(m, "give:9S>0", "give:9C>1", "contract:220", "play:AD", "play:JD", "play:AH")
    assert one(m) == 2
    do(m, "marriage:QC")
    assert m.view(None)["trump"] == "C"
    assert legal(m) == ["play:JC"]
    do(m, "play:JC", "play:AC")
    assert one(m) == 1 and m.view(None)["tricks_won"] == [0, 1, 1]
    do(m, "marriage:KH")
    v = m.view(None)
    assert v["trump"] == "H" and v["marriages"] == [[2, "C"], [1, "H"]]


def _dealt(d, s: int, gives: dict[int, str]) -> set[str]:
    """Seat s's dealt hand in a determinized match, the gives being known."""
    held = set(d._hand(s)) | {c for c, by in d.played_by.items() if by == s}
    if s == d.declarer:
        return (held | set(gives.values())) - set(d.shown)
    return held - {gives[s]}


def test_determinize_after_the_talon_keeps_requests_M6():
    # seat 2 was asked (four nines) and accepted; seat 0 was not asked.  After the talon
    # and the gives, every determinization for the declarer (who knows his gives) deals
    # seat 2 a hand that held the four nines and seat 0 one that did not qualify.
    m = new("thousand-ru", presets=[NINES], blind=False, redeal_weak_below=0)
    do(m, "accept", "bid:100", "pass", "pass", "give:AD>2", "give:TD>0", "contract:100",
       "play:AS")
    nines = {"9S", "9C", "9D", "9H"}
    for k in range(30):
        d = m.determinize(1, random.Random(k))
        assert d.view(1) == m.view(1)
        assert nines <= _dealt(d, 2, {2: "AD", 0: "TD"})
        hand0 = _dealt(d, 0, {2: "AD", 0: "TD"})
        assert not nines <= hand0
    m = new("thousand-ru", presets=[NINES], blind=False)  # 11 points: weak as well
    do(m, "accept", "bid:100", "pass", "pass", "give:AD>2", "give:TD>0")
    for k in range(30):
        d = m.determinize(1, random.Random(k))
        dealt2 = _dealt(d, 2, {2: "AD", 0: "TD"})
        assert nines <= dealt2 or card_points(sorted(dealt2)) < 14
        hand0 = _dealt(d, 0, {2: "AD", 0: "TD"})
        assert not nines <= hand0 and card_points(sorted(hand0)) >= 14
    m = new("thousand-ru", presets=[NINES], blind=False, redeal_weak_below=0)
    do(m, "accept", "bid:100", "pass", "pass", "give:AD>2", "give:TD>0", "contract:100",
       "play:AS")
    for k in range(30):  # seat 0 knows only his own give (TD): seat 2's is one of his cards
        d = m.determinize(0, random.Random(k))
        held2 = set(d._hand(2)) | {c for c, by in d.played_by.items() if by == 2}
        assert nines <= held2
