"""Тысяча: the talon, throwing in and refusing (rules T-14 … T-19, C-5, C-6)."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from tests.engine.test_thousand import STRONG, STRONG_TALON, act, new, tricks


def test_1001_talon_shown_taken_and_given_face_down_T14_C5():
    m = new("thousand-1001", STRONG, STRONG_TALON)
    act(m, "bid:100", "pass", "pass")
    for seat in (None, 0, 1, 2):
        v = m.view(seat)
        assert v["phase"] == "talon" and v["face_up"] == ["TH", "JH", "9H"]
        assert v["log"][-1] == [None, "show:TH,JH,9H"] and v["hand_sizes"] == [7, 10, 7]
    with pytest.raises(IllegalAction):
        m.apply(1, "contract:100")  # the cards are passed first
    act(m, "give:JH>2")
    assert m.view(1)["log"][-1] == [1, "give:JH>2"]
    assert m.view(2)["log"][-1] == [1, "give:JH>2"]
    assert m.view(0)["log"][-1] == [1, "give:??>2"]
    assert m.view(None)["log"][-1] == [1, "give:??>2"]
    assert all(a.endswith(">0") for a in m.legal_actions(1) if a.startswith("give:"))
    act(m, "give:AS>0")  # any card of his choice
    assert m.view(None)["hand_sizes"] == [8, 8, 8]
    legal = m.legal_actions(1)
    assert legal[0] == "contract:100" and legal[-2:] == ["contract:120", "throw"]
    for bad in ("contract:95", "contract:125", "contract:103"):
        with pytest.raises(IllegalAction):
            m.apply(1, bad)
    act(m, "contract:110")
    v = m.view(0)
    assert v["phase"] == "play" and v["contract"] == 110 and v["face_up"] == [] and m.to_act() == [1]


def test_1001_contract_cap_on_the_hand_after_giving_T14():
    m = new("thousand-1001", STRONG, STRONG_TALON)
    act(m, "pass", "bid:200", "pass")  # seat 2 holds KS QS and KC QC: cap 220
    act(m, "give:QS>0", "give:QC>1")  # both marriages given away: cap now 120
    assert [a for a in m.legal_actions(2) if a != "throw"] == ["contract:200"]
    m = new("thousand-1001", STRONG, STRONG_TALON)
    act(m, "pass", "bid:200", "pass", "give:9S>0", "give:9H>1")
    assert [a for a in m.legal_actions(2) if a != "throw"] == \
        ["contract:200", "contract:205", "contract:210", "contract:215", "contract:220"]


def test_1001_throw_in_minus_bid_or_contract_T15():
    m = new("thousand-1001", STRONG, STRONG_TALON)
    act(m, "bid:100", "pass", "pass", "throw")  # before naming: minus the winning bid
    assert m.scoresheet()[-1]["scores"] == [0, -100, 0] and m.scoresheet()[-1]["thrown"]
    m = new("thousand-1001", STRONG, STRONG_TALON)
    act(m, "bid:100", "pass", "pass", "give:JH>2", "give:9H>0", "contract:115")
    assert "throw" in m.legal_actions(1)  # until the first lead
    act(m, "throw")
    assert m.scoresheet()[-1]["scores"] == [0, -115, 0]
    m = new("thousand-1001", STRONG, STRONG_TALON)
    act(m, "bid:100", "pass", "pass", "give:JH>2", "give:9H>0", "contract:115", "play:AS")
    act(m, "play:9S")
    assert "throw" not in m.legal_actions(0)
    with pytest.raises(IllegalAction, match="T-15"):
        m.apply(0, "refuse")


def test_1000_contract_before_the_talon_T16():
    m = new("thousand-1000", STRONG, STRONG_TALON)
    act(m, "bid:100", "pass", "pass")
    v = m.view(1)
    assert v["phase"] == "talon" and v["face_up"] == [] and v["talon_size"] == 3
    assert v["legal"] == ["contract:100", "contract:110", "contract:120"]  # cap 120
    for bad in ("contract:90", "contract:130", "contract:105", "give:TH>2", "refuse"):
        with pytest.raises(IllegalAction):
            m.apply(1, bad)
    act(m, "contract:110")
    assert m.view(0)["face_up"] == ["TH", "JH", "9H"]
    assert not any(a.startswith("contract:") for a in m.legal_actions(1))  # no change after


def test_1000_talon_one_card_kept_two_given_T17_C5():
    m = new("thousand-1000", STRONG, STRONG_TALON)
    act(m, "bid:100", "pass", "pass", "contract:100")
    assert m.view(0)["log"][-1] == [None, "show:TH,JH,9H"]
    assert sorted(m.legal_actions(1)) == sorted(
        [f"give:{c}>{s}" for s in (2, 0) for c in ("TH", "JH", "9H")] + ["refuse"])
    with pytest.raises(IllegalAction):
        m.apply(1, "give:AS>2")  # from the talon only
    act(m, "give:JH>2")
    assert m.view(2)["log"][-1] == [1, "give:JH>2"]
    assert m.view(0)["log"][-1] == [1, "give:??>2"]  # only giver and receiver know
    assert m.view(0)["face_up"] == ["TH", "JH", "9H"]  # the talon as shown, not what is left
    act(m, "give:9H>0")
    assert m.view(1)["hand_sizes"] == [8, 8, 8] and "TH" in m.view(1)["hand"]  # the last is his
    assert m.view(2)["log"][-1] == [1, "give:??>0"]
    assert m.phase == "play" and m.to_act() == [1] and m.view(0)["face_up"] == []


def test_refuse_minus_contract_plus_60_each_T18():
    m = new("thousand-1000", STRONG, STRONG_TALON)
    act(m, "bid:100", "pass", "pass", "contract:110", "give:JH>2", "give:9H>0")
    assert "refuse" in m.legal_actions(1)  # until the first card is led
    act(m, "refuse")
    row = m.scoresheet()[-1]
    assert row["scores"] == [60, -110, 60] and row["refused"] and row["contract"] == 110
    m = new("thousand-1000", STRONG, STRONG_TALON)
    act(m, "bid:100", "pass", "pass", "contract:110", "give:JH>2", "give:9H>0", "play:AS")
    assert "refuse" not in m.legal_actions(2) and "refuse" not in m.legal_actions(1)


def test_refuse_in_two_player_game_after_taking_a_pair_T18():
    hands = {1: "AS TS AC TC AD TD AH TH KS KC", 0: "QS JS 9S QC JC 9C KD QD JD 9D"}
    m = new("thousand-1000-2p", hands, "KH QH JH 9H")
    act(m, "bid:100", "pass", "contract:100")
    assert m.legal_actions(1) == ["take:top", "take:bottom"]  # no refusing yet
    act(m, "take:bottom")
    assert "refuse" in m.legal_actions(1)
    act(m, "refuse")
    assert m.scoresheet()[-1]["scores"] == [60, -100]


def test_two_player_talon_pairs_and_discards_T19_C5():
    hands = {1: "AS TS AC TC AD TD AH TH KS KC", 0: "QS JS 9S QC JC 9C KD QD JD 9D"}
    m = new("thousand-1000-2p", hands, "KH QH JH 9H")  # top KH QH, bottom JH 9H
    act(m, "bid:120", "pass", "contract:120", "take:top")
    for seat in (None, 0, 1):
        v = m.view(seat)
        assert v["face_up"] == ["KH", "QH"] and v["log"][-2:] == [[1, "take:top"], [None, "show:KH,QH"]]
    assert m.view(None)["hand_sizes"] == [10, 12]
    act(m, "discard:KS", "discard:KC")
    assert m.view(0)["log"][-2:] == [[1, "discard:??"], [1, "discard:??"]]
    assert m.view(1)["log"][-1] == [1, "discard:KC"]
    assert m.view(None)["hand_sizes"] == [10, 10] and m.phase == "play"
    # The other pair (JH, 9H) is seen by no one during the deal.
    for seat in (None, 0, 1):
        blob = repr(m.view(seat))
        assert "JH" not in blob and "9H" not in blob
    assert "marriage:KH" not in m.legal_actions(1)  # 2p: only after a trick (T-23)
    tricks(m, "AS QS", "TS JS", "AC QC", "TC JC", "AD KD", "TD QD")
    assert "marriage:KH" in m.legal_actions(1)
    tricks(m, "marriage:KH 9S", "QH 9C", "AH JD", "TH 9D")
    row = m.scoresheet()[-1]
    # 110 in tricks + 8 in the discards (they count as his): 118 -> 120; + 100 for hearts
    assert row["points_raw"] == [0, 118] and row["points"] == [0, 120]
    assert row["marriages"] == [[1, "H"]] and row["scores"] == [0, 120]
    assert m.history()[0]["talon"] == ["KH", "QH", "JH", "9H"]  # public once the deal is over


def test_take_bottom_pair_T19():
    hands = {1: "AS TS AC TC AD TD AH TH KS KC", 0: "QS JS 9S QC JC 9C KD QD JD 9D"}
    m = new("thousand-1000-2p", hands, "KH QH JH 9H")
    act(m, "bid:60", "pass", "contract:60", "take:bottom")
    assert m.view(0)["face_up"] == ["JH", "9H"] and "JH" in m.view(1)["hand"]
    assert sorted(m.card_locations()["aside"]) == ["KH", "QH"]
