"""Король (korol-ru): the reign, rules R-20 .. R-27.

Every test starts from the same crowning (see test_korol_crowning.py): seat 2
is King, 0 Prince, 1 Soldier and 3 the Peasant, so the title order 2, 0, 1, 3
differs from the seat order.
"""

import random

import pytest

from engine import IllegalAction, find_variant

from .test_korol_crowning import act, autoplay, deal, ru_crowned, ru_crowned_mixed

# A reign deal, dealt 2, 0, 1, 3: the Peasant (3) holds AH KH and the turned 6H.
TRIBUTE = deal("6D 7D 8D 9D TD JD QD KD AD",
               "7H 8H 9H TH JH QH QS KS AS",
               "6C 7C 8C 9C TC JC QC KC AC",
               "AH KH 6S 7S 8S 9S TS JS 6H")
# The Peasant's only trump is the turned 6H; the King holds the 7H.
ONE_TRUMP = deal("6D 7D 8D 9D TD JD QD KD AD",
                 "8H 9H TH JH QH KH AH AS AC",
                 "7H 6C 7C 8C 9C TC JC QC KC",
                 "6S 7S 8S 9S TS JS QS KS 6H")


def test_turn_order_by_title_and_the_peasant_deals_R20_R21_R22_R27():
    m = ru_crowned_mixed(TRIBUTE)
    v = m.view(None)
    assert v["titles"] == ["prince", "soldier", "king", "peasant"]
    assert v["order"] == [2, 0, 1, 3]  # rule R-20: King, Prince, Soldier, Peasant
    assert v["dealer"] == 3  # rule R-21: the Peasant deals
    assert v["trump"] == "H" and v["face_up"] == ["6H"]  # rule R-22: as in R-11
    assert v["tallies"] == [0, 0, 0, 0]  # rule R-27: tallies restart
    assert v["phase"] == "tribute"
    act(m, "give:6C>3", "give:6D>3")
    assert m.to_act() == [2]
    act(m, "AC")
    assert m.to_act() == [0]  # rule R-20: then the Prince, the Soldier, the Peasant
    act(m, "7D")
    assert m.to_act() == [1]
    act(m, "7H")  # the Soldier trumps
    assert m.to_act() == [3]
    act(m, "6C")  # he follows with the club the King gave him
    assert m.view(None)["last_trick"]["winner"] == 1
    assert m.to_act() == [2]  # rule R-24: the King leads again


def test_the_king_then_the_prince_take_the_highest_trumps_R23():
    m = ru_crowned_mixed(TRIBUTE)
    assert m.phase == "tribute" and m.to_act() == [2]
    assert "AH" in m.view(2)["hand"] and "AH" not in m.view(3)["hand"]
    assert [2, "take:AH"] in m.view(2)["log"]  # the taker sees the card he got
    assert [2, "take:??"] in m.view(0)["log"] and [2, "take:??"] in m.view(1)["log"]
    assert [2, "take:??"] in m.view(None)["log"] and [2, "take:??"] in m.view(3)["log"]
    legal = m.legal_actions(2)
    assert "give:AH>3" not in legal and len(legal) == 9  # not the card just taken
    with pytest.raises(IllegalAction, match="R-23"):
        m.apply(2, "give:AH>3")
    act(m, "give:6C>3")
    assert "6C" in m.view(3)["hand"]
    assert [2, "give:6C>3"] in m.view(3)["log"]
    assert [2, "give:??>3"] in m.view(0)["log"]
    assert m.to_act() == [0] and "KH" in m.view(0)["hand"]  # the Prince takes the next trump
    act(m, "give:6D>3")
    assert m.phase == "play" and m.to_act() == [2]
    assert m.view(None)["hand_sizes"] == [9, 9, 9, 9]


def test_a_trump_the_king_gives_back_counts_for_the_prince_R23():
    m = ru_crowned_mixed(ONE_TRUMP)
    assert "6H" in m.view(2)["hand"]
    act(m, "give:7H>3")
    assert m.to_act() == [0]
    assert "7H" in m.view(0)["hand"] and "7H" not in m.view(3)["hand"]


# The Peasant (3) holds QH and the turned 6H; the Soldier holds the hearts above.
LOW_TRUMP = deal("6D 7D 8D 9D TD JD QD KD AD",
                 "AH KH JH TH 9H 8H 7H QS KS",
                 "6C 7C 8C 9C TC JC QC KC AC",
                 "QH AS 6S 7S 8S 9S TS JS 6H")


def _peasant_hands(m, seat: int, n: int = 60) -> list[set[str]]:
    rng = random.Random(5)
    return [set(m.determinize(seat, rng).card_locations()["hand:3"]) for _ in range(n)]


def test_the_taker_knows_the_peasant_holds_no_higher_trump_R23():
    m = ru_crowned_mixed(LOW_TRUMP)
    assert "QH" in m.view(2)["hand"]  # the King took the Peasant's highest trump
    # so in the King's samples the Peasant never holds the KH or the AH
    assert all(not {"KH", "AH"} & hand for hand in _peasant_hands(m, 2))
    # the Soldier saw nothing: his samples may give the Peasant any card he cannot see
    assert any({"QH"} & hand for hand in _peasant_hands(m, 1))
    rng = random.Random(6)
    twins = [m.determinize(0, rng) for _ in range(30)]  # the Prince's, who cannot see the hearts
    assert any({"KH", "AH"} & set(t.card_locations()["hand:3"]) for t in twins)
    for twin in twins:  # and in them the King knows only what is true there
        twin.check_knowledge()
    act(m, "give:6C>3")  # the King gives a club: he still knows
    assert all(not {"KH", "AH"} & hand for hand in _peasant_hands(m, 2))
    assert "6H" in m.view(0)["hand"]  # the Prince took the Peasant's last trump
    act(m, "give:6D>3")  # a card the King did not see: he no longer knows
    assert any({"KH", "AH"} & hand for hand in _peasant_hands(m, 2))
    # the Prince still knows the Peasant holds no heart (and where his 6D went)
    hands = _peasant_hands(m, 0)
    assert all("6D" in hand and not any(c[1] == "H" for c in hand) for hand in hands)
    m.check_knowledge()


def test_no_trump_shows_the_hand_to_the_taker_only_R23():
    m = ru_crowned_mixed(ONE_TRUMP)
    act(m, "give:6C>3")  # the Peasant now holds no trump
    assert m.to_act() == [0]
    shown = [None, "show:KS,QS,JS,TS,9S,8S,7S,6S,6C"]
    assert shown in m.view(0)["log"]  # the Prince sees the Peasant's hand (rule C-5)
    for seat in (None, 1, 2, 3):
        assert shown not in m.view(seat)["log"]
    assert m.legal_actions(0) == ["take:" + c for c in "KS QS JS TS 9S 8S 7S 6S 6C".split()] + ["keep"]
    act(m, "take:KS")
    assert "KS" in m.view(0)["hand"]
    assert [0, "take:??"] in m.view(1)["log"]
    assert "give:KS>3" not in m.legal_actions(0)
    act(m, "give:6D>3")
    assert m.phase == "play"
    assert sorted(m.view(3)["hand"]) == sorted("QS JS TS 9S 8S 7S 6S 6C 6D".split())


def test_the_taker_may_decline_R23():
    m = ru_crowned_mixed(ONE_TRUMP)
    act(m, "give:6C>3", "keep")
    assert m.phase == "play" and m.to_act() == [2]
    assert [0, "keep"] in m.view(1)["log"]


# The King will hold all nine hearts after the tribute and take every trick.
KING_RUNS = deal("6D 7D 8D 9D TD JD QD KD AD",
                 "6C 7C 8C 9C TC JC QC KC AC",
                 "7H 8H 9H TH JH QH KH AH 6S",
                 "7S 8S 9S TS JS QS KS AS 6H")
# Three active after the King left: dealt 0, 1, 3; rest[0] = 6S turned (trump spades).
AFTER_KING = deal("7S 8S 9S 6C 7C 8C 9C TC JC",
                  "AS KS QS 6D 7D 8D 9D TD JD",
                  "",
                  "QC KC AC QD KD AD 6H 7H 8H",
                  rest="6S TS JS 9H TH JH QH KH AH")


def king_leaves(*more):
    m = ru_crowned_mixed(KING_RUNS, AFTER_KING, *more)
    act(m, "give:6S>3", "keep")  # the King gives back his spade; the Prince declines
    autoplay(m, 9)
    assert m.view(None)["new_titles"] == [None, None, "king", None]  # rule R-27: 9 tricks
    return m


def test_after_the_king_left_the_peasant_swaps_for_the_turned_trump_R26_R22():
    m = king_leaves()
    v = m.view(3)
    assert v["phase"] == "swap" and m.to_act() == [3]  # rule R-26: no tribute
    assert v["hand_sizes"] == [9, 9, 0, 9] and v["face_up"] == ["6S"]  # rule R-22: as R-11
    assert m.legal_actions(3)[-1] == "keep" and len(m.legal_actions(3)) == 10
    act(m, "swap:6H")
    assert "6S" in m.view(3)["hand"] and "6H" not in m.view(3)["hand"]
    assert [3, "swap:6H"] in m.view(3)["log"] and [3, "swap:??"] in m.view(0)["log"]
    assert m.view(0)["trump"] == "S"  # the trump suit does not change
    assert m.card_locations()["stock"][0] == "6H"


def test_the_prince_takes_over_and_leads_two_trumps_R25_R24():
    m = king_leaves()
    act(m, "keep")
    assert m.to_act() == [0]  # rule R-25: the Prince leads
    assert sorted(m.legal_actions(0)) == ["play:7S", "play:8S", "play:9S"]
    act(m, "7S", "AS", "6H")  # the Soldier wins
    assert m.to_act() == [0]  # rule R-24: still the Prince
    assert sorted(m.legal_actions(0)) == ["play:8S", "play:9S"]  # second forced lead
    act(m, "8S", "KS", "7H")
    assert m.to_act() == [0]
    assert len(m.legal_actions(0)) == 7  # the duty is over, though he holds the 9S


def test_dealer_is_the_peasant_or_the_lowest_active_title_R21():
    variant = find_variant("korol-ru")
    for seed in range(6):
        m = variant.new_match(4, seed=seed, options={"reigns": 2})
        rng = random.Random(seed)
        deal_no = None
        while not m.is_over():
            if m.deal_no != deal_no and m.round > 0:
                deal_no = m.deal_no
                active = m.view(None)["active"]
                peasant = m.titles.index("peasant")
                assert m.dealer == (peasant if m.active[peasant] else active[-1])
                assert m.order == sorted(range(4), key=lambda s: ["king", "prince", "soldier",
                                                                  "peasant"].index(m.titles[s]))
            s = m.to_act()[0]
            m.apply(s, rng.choice(m.legal_actions(s)))


def test_reign_new_titles_at_nine_each_R27_R7():
    m = ru_crowned(reigns=1)
    rng = random.Random(3)
    while not m.is_over():
        s = m.to_act()[0]
        m.apply(s, rng.choice(m.legal_actions(s)))
    row = m.role_table()[1]
    assert sorted(row["titles"]) == ["king", "peasant", "prince", "soldier"]
    for seat, title in enumerate(row["titles"]):
        if title != "peasant":
            assert row["tricks"][seat] == 9  # rule R-27: 9 for every title of a reign
        else:
            assert row["tricks"][seat] < 9
    reign_rows = [r for r in m.scoresheet() if r["round"] == 1]
    assert reign_rows[-1]["totals"] == row["tricks"]  # rule R-7
    sums = [sum(r["scores"][s] for r in reign_rows) for s in range(4)]
    assert sums == row["tricks"]
