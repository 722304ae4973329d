"""Тысяча: the trick play (rules T-20 … T-23, C-4, C-6)."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from tests.engine.test_thousand import act, marriage_deal_1001, new, tricks


def legal_cards(m, seat=None):
    seat = m.to_act()[0] if seat is None else seat
    return sorted(a for a in m.legal_actions(seat) if a.startswith("play:"))


def plays(*cards):
    return sorted("play:" + c for c in cards)


def beat_deal():
    """1000, seat 1 declares 100 and keeps TH; after the talon:
    seat 1: KH QH TH AD TD 9D QC 9C
    seat 2: AS TS KS JS AC KC JC JH
    seat 0: QS 9S KD QD JD TC AH 9H"""
    m = new("thousand-1000", {1: "KH QH AD TD 9D QC 9C", 2: "AS TS KS JS AC KC JC",
                              0: "QS 9S KD QD JD TC AH"}, "TH JH 9H")
    act(m, "bid:100", "pass", "pass", "contract:100", "give:JH>2", "give:9H>0")
    return m


def test_declarer_leads_winner_leads_next_T20():
    m = beat_deal()
    assert m.to_act() == [1]
    tricks(m, "QC KC TC")
    assert m.to_act() == [0] and m.view(None)["last_trick"]["winner"] == 0


def test_must_follow_then_trump_T21():
    m = marriage_deal_1001()  # seat 0 won the first trick
    assert {"marriage:KH", "marriage:QH", "marriage:KD", "marriage:QD"} <= set(m.legal_actions(0))
    act(m, "marriage:KH")
    assert legal_cards(m, 1) == plays("AH")  # follow suit
    act(m, "play:AH")
    assert len(legal_cards(m, 2)) == 7  # void in hearts, no trump: any card
    act(m, "play:9S")
    act(m, "play:AS")  # seat 1 won; seat 2 follows spades (1001: any spade)
    assert legal_cards(m, 2) == plays("KS", "QS", "JS")
    with pytest.raises(IllegalAction, match="T-21"):
        m.apply(2, "play:KC")
    act(m, "play:JS")
    assert legal_cards(m, 0) == plays("QH")  # void in spades: must trump
    with pytest.raises(IllegalAction, match="trump"):
        m.apply(0, "play:9C")


def test_no_duty_to_overtrump_T21():
    m = new("thousand-1001", {1: "KH QH 9H AS TS KS QS", 2: "AH AC TC KC QC JC JS",
                              0: "TH JH AD TD KD QD JD"}, "9S 9C 9D")
    act(m, "bid:100", "pass", "pass", "give:9C>2", "give:9D>0", "contract:100")
    tricks(m, "marriage:KH AH TH")  # hearts are trump; seat 2 wins
    act(m, "play:AC")
    assert legal_cards(m, 0) == plays("JH")  # void in clubs: a trump
    act(m, "play:JH")
    assert legal_cards(m, 1) == plays("QH", "9H")  # 9H does not beat JH, and is allowed


def test_must_beat_T22():
    m = beat_deal()
    assert legal_cards(m, 1) == plays("KH", "QH", "TH", "AD", "TD", "9D", "QC", "9C")
    act(m, "play:QC")
    assert legal_cards(m, 2) == plays("AC", "KC")  # higher than QC; not JC
    with pytest.raises(IllegalAction, match="T-22"):
        m.apply(2, "play:JC")
    act(m, "play:KC")
    assert legal_cards(m, 0) == plays("TC")  # higher than every club in the trick


def test_trick_led_in_trumps_must_be_beaten_T22():
    m = beat_deal()
    tricks(m, "QC KC TC")  # seat 0 wins
    act(m, "marriage:QD")  # diamonds are trump, the QD led is a trump
    assert legal_cards(m, 1) == plays("AD", "TD")  # not 9D
    act(m, "play:TD", "play:JC")
    act(m, "marriage:KH")  # seat 1 won: hearts are trump now
    assert legal_cards(m, 2) == plays("JH")  # cannot beat: any heart
    act(m, "play:JH")
    assert legal_cards(m, 0) == plays("AH")  # must beat the trump lead


def test_trumped_trick_any_card_of_led_suit_T22():
    m = beat_deal()
    tricks(m, "QC KC TC", "marriage:QD TD JC", "marriage:KH JH AH")
    act(m, "play:QS")  # seat 0 leads spades; trump is hearts
    assert legal_cards(m, 1) == plays("QH", "TH")  # void: must trump
    act(m, "play:QH")  # the trick is trumped
    assert legal_cards(m, 2) == plays("AS", "TS", "KS", "JS")  # JS too: any spade
    act(m, "play:JS")
    assert m.view(None)["last_trick"]["winner"] == 1  # rule C-4: the trump wins


def test_1001_has_no_duty_to_beat_T22():
    m = new("thousand-1001", {1: "KH QH AD TD 9D QC 9C", 2: "AS TS KS JS AC KC JC",
                              0: "QS 9S KD QD JD TC AH"}, "TH JH 9H")
    act(m, "bid:100", "pass", "pass", "give:JH>2", "give:9H>0", "contract:100", "play:QC")
    assert legal_cards(m, 2) == plays("AC", "KC", "JC")


def test_marriage_changes_trump_and_scores_T23():
    m = beat_deal()
    assert "marriage:KH" not in m.legal_actions(1)  # 1000: not before taking a trick
    with pytest.raises(IllegalAction, match="after taking a trick"):
        m.apply(1, "marriage:KH")
    tricks(m, "QC KC TC")
    act(m, "marriage:QD")
    v = m.view(2)
    assert v["trump"] == "D" and v["marriages"] == [[0, "D"]]
    act(m, "play:TD", "play:JC")
    assert m.view(None)["last_trick"] == {"cards": [[0, "QD"], [1, "TD"], [2, "JC"]], "winner": 1}
    act(m, "marriage:KH")
    assert m.view(None)["trump"] == "H" and m.view(None)["marriages"] == [[0, "D"], [1, "H"]]
    with pytest.raises(IllegalAction):
        m.apply(2, "marriage:KS")  # only when leading


def test_1001_marriage_on_the_first_lead_T23():
    m = new("thousand-1001", {1: "KH QH AD TD 9D QC 9C", 2: "AS TS KS JS AC KC JC",
                              0: "QS 9S KD QD JD TC AH"}, "TH JH 9H")
    act(m, "bid:100", "pass", "pass", "give:JH>2", "give:9H>0", "contract:100")
    assert {"marriage:KH", "marriage:QH"} <= set(m.legal_actions(1))
    assert m.view(None)["trump"] is None  # no trump when play begins
    act(m, "marriage:QH")
    assert m.view(None)["trump"] == "H"
    assert "marriage:KH" not in m.legal_actions(1)
    with pytest.raises(IllegalAction, match="T-23"):
        m.apply(2, "marriage:AS")


def test_card_not_in_hand_and_out_of_turn_change_nothing_C6():
    m = beat_deal()
    before = [m.view(s) for s in range(3)]
    for seat, action in [(1, "play:AS"), (2, "play:AS"), (1, "play:XX"), (1, "bid:100"),
                         (1, "marriage:9C"), (3, "play:QC"), (1, "give:TH>2")]:
        with pytest.raises(IllegalAction):
            m.apply(seat, action)
    assert [m.view(s) for s in range(3)] == before and len(m.actions) == 6
