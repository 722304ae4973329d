"""Тысяча: hidden information — views, redacted logs and determinize (rule C-5,
with the face-down cards of rules T-14, T-17, T-19 and what play reveals, T-21 … T-23)."""

from __future__ import annotations

import random

from tests.engine.test_thousand import STRONG, STRONG_TALON, act, new, tricks
from tests.engine.test_thousand_play import beat_deal


def hands_of(m):
    return [sorted(m.hands[s]) for s in range(m.seats)]


def twins(m, seat, n=40):
    rng = random.Random(7)
    return [m.determinize(seat, rng) for _ in range(n)]


def test_views_show_only_own_hand_C5():
    m = new("thousand-1001", STRONG, STRONG_TALON)
    v = m.view(2)
    assert v["hand"] == ["KS", "QS", "JS", "9S", "KC", "QC", "JC"]  # sorted S C D H, high first
    assert v["hand_sizes"] == [7, 7, 7] and v["face_up"] == [] and v["talon_size"] == 3
    assert "AS" not in repr(v) and "TH" not in repr(v)
    assert m.view(None)["hand"] == [] and m.view(None)["legal"] == []
    assert v["legal"] == [] and m.legal_actions(2) == []  # not its turn


def test_give_in_1000_known_to_giver_and_receiver_only_T17_C5():
    m = beat_deal()  # seat 1 gave JH to seat 2 and 9H to seat 0 from the shown talon
    assert [1, "give:JH>2"] in m.view(2)["log"] and [1, "give:??>0"] in m.view(2)["log"]
    assert [1, "give:9H>0"] in m.view(0)["log"] and [1, "give:??>2"] in m.view(0)["log"]
    assert [1, "give:JH>2"] in m.view(1)["log"] and [1, "give:9H>0"] in m.view(1)["log"]
    assert m.actions[4:6] == [(1, "give:JH>2"), (1, "give:9H>0")]  # the full log keeps them


def test_give_in_1001_face_down_T14_C5():
    m = new("thousand-1001", STRONG, STRONG_TALON)
    act(m, "bid:100", "pass", "pass", "give:AS>2", "give:JH>0")
    assert m.view(0)["log"][-2:] == [[1, "give:??>2"], [1, "give:JH>0"]]
    assert m.view(2)["log"][-2:] == [[1, "give:AS>2"], [1, "give:??>0"]]
    assert "AS" not in repr(m.view(0)) and "AS" in m.view(2)["hand"]


def test_determinize_keeps_seat_knowledge_of_1000_talon_T17_C5():
    m = beat_deal()
    for twin in twins(m, 0):  # seat 0 got 9H; TH and JH went one to seat 1, one to seat 2
        h = hands_of(twin)
        assert h[0] == hands_of(m)[0] and "9H" in h[0]
        assert ("TH" in h[1]) != ("TH" in h[2]) and ("JH" in h[1]) != ("JH" in h[2])
        assert ("TH" in h[1]) == ("JH" in h[2]) and twin.view(0) == m.view(0)
    placements = {"TH" in hands_of(t)[1] for t in twins(m, 0)}
    assert placements == {True, False}  # both are possible for seat 0
    for twin in twins(m, 1):  # the declarer knows where both went
        assert "JH" in hands_of(twin)[2] and "9H" in hands_of(twin)[0]


def test_determinize_keeps_1001_talon_with_declarer_or_one_give_T14_C5():
    m = new("thousand-1001", STRONG, STRONG_TALON)
    act(m, "bid:100", "pass", "pass", "give:JH>2", "give:AS>0", "contract:100")
    for twin in twins(m, 2):  # seat 2 has JH; TH, 9H: with seat 1, or one of them given to 0
        h = hands_of(twin)
        talon_with_0 = [c for c in ("TH", "9H") if c in h[0]]
        assert len(talon_with_0) <= 1
        assert all(c in h[1] for c in ("TH", "9H") if c not in talon_with_0)
    for twin in twins(m, 1):
        assert "AS" in hands_of(twin)[0] and "JH" in hands_of(twin)[2]


def test_determinize_keeps_voids_bans_and_marriage_partners_T21_T22_T23():
    m = beat_deal()
    tricks(m, "QC KC TC")  # seat 0 wins
    act(m, "marriage:QD", "play:TD", "play:JC")  # seat 2 shows a void in diamonds (trumps)
    act(m, "marriage:KH", "play:JH")  # seat 2 could not beat KH: holds no AH
    for twin in twins(m, 0):
        h = hands_of(twin)
        assert "QH" in h[1]  # the partner of the declared KH
        assert not any(c[1] == "D" for c in h[2])  # seat 2 showed a diamond void
        assert twin.view(0) == m.view(0)


def test_determinize_keeps_two_player_pair_and_discards_T19_C5():
    hands = {1: "AS TS AC TC AD TD AH TH KS KC", 0: "QS JS 9S QC JC 9C KD QD JD 9D"}
    m = new("thousand-1000-2p", hands, "KH QH JH 9H")
    act(m, "bid:120", "pass", "contract:120", "take:top", "discard:KH", "discard:KC")
    for twin in twins(m, 0):  # KH, QH were shown: with seat 1 or discarded, never aside
        locs = twin.card_locations()
        assert not {"KH", "QH"} & set(locs["aside"])
        assert locs["hand:0"] == m.card_locations()["hand:0"]
    seen = {tuple(sorted(t.card_locations()["discard"])) for t in twins(m, 0)}
    assert len(seen) > 1
    for twin in twins(m, 1):  # the declarer knows his discards
        assert sorted(twin.card_locations()["discard"]) == ["KC", "KH"]
        assert sorted(twin.card_locations()["hand:1"]) == sorted(m.card_locations()["hand:1"])
