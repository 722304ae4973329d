"""Król (krol-pl): the reign, rules R-40 .. R-47.

Every test starts from the same crowning (see test_korol_crowning.py): seat 2
is King, 0 Prince, 3 Soldier and 1 the Sweeper, so the title order is 2, 0, 3, 1.
Reign deals are dealt Prince, King, Soldier, Sweeper; the Prince's (seat 0's)
first card is turned up.
"""

import pytest

from engine import IllegalAction

from .test_korol_crowning import act, autoplay, deal, pl_crowned

SPADES = "6S 7S 8S 9S TS JS QS KS AS"
DIAMONDS = "6D 7D 8D 9D TD JD QD KD AD"
CLUBS = "6C 7C 8C 9C TC JC QC KC AC"
HEARTS = "6H 7H 8H 9H TH JH QH KH AH"

# Trump hearts (the Prince's 9H); the King takes five tricks, the Prince four.
FIVE_FOUR = deal("9H 8H 7H 6H AC KC QC JC TC", DIAMONDS, "AH KH QH JH TH 6C 7C 8C 9C", SPADES)
# Trump spades (the Prince's 6S); the King takes the first four tricks and leaves.
KING_LEAVES = deal("6S 7S 8S 9S 6H 7H 8H 9H TH", "JD QD KD AD JH QH KH AH TS",
                   "AS KS QS JS 6D 7D 8D 9D TD", CLUBS)
PLAIN = deal(HEARTS, SPADES, DIAMONDS, CLUBS)
# The Prince holds no trump above the 9: he may strike.
LOW_PRINCE = deal("6H 7H 8H 9H 6C 7C 8C 9C TC", DIAMONDS, "AH KH QH JH TH AC KC QC JC", SPADES)
# The Prince holds the TH: he may not.
TEN_PRINCE = deal("6H TH 7C 8C 9C TC 6C 7H 8H", DIAMONDS, "AH KH QH JH 9H AC KC QC JC", SPADES)


def give_back(m, cards: str, to: int) -> None:
    act(m, *[f"give:{c}>{to}" for c in cards.split()])


def test_title_order_and_the_sweepers_deal_R40_R41():
    m = pl_crowned(FIVE_FOUR)
    v = m.view(0)
    assert v["titles"] == ["prince", "peasant", "king", "soldier"]  # the Sweeper is stored "peasant"
    assert v["order"] == [2, 0, 3, 1]  # rule R-40: King, Prince, Soldier, Sweeper
    assert v["dealer"] == 1  # rule R-41: the Sweeper deals
    assert v["trump"] == "H" and v["face_up"] == ["9H"]  # the Prince's first card
    assert "9H" in v["hand"] and v["hand_sizes"] == [9, 9, 9, 9]
    assert [None, "show:9H"] in m.view(1)["log"]
    assert v["phase"] == "strike" and m.to_act() == [2]


def test_strikes_three_for_the_king_two_for_the_prince_R42():
    m = pl_crowned(*[LOW_PRINCE] * 7)
    assert m.legal_actions(2) == ["strike", "accept"]
    act(m, "strike", "strike", "strike")
    assert m.to_act() == [2] and m.legal_actions(2) == ["accept"]  # asked all the same
    act(m, "accept")
    assert m.to_act() == [0] and m.legal_actions(0) == ["strike", "accept"]
    act(m, "strike")
    assert m.to_act() == [2] and m.legal_actions(2) == ["accept"]
    act(m, "accept", "strike", "accept")
    assert m.to_act() == [0] and m.legal_actions(0) == ["accept"]  # two strikes used
    with pytest.raises(IllegalAction, match="R-42"):
        m.apply(0, "strike")
    assert m.view(0)["strikes"] == {"king": 3, "prince": 2}
    act(m, "accept")
    assert m.phase == "pool"
    give_back(m, SPADES, 3)
    give_back(m, DIAMONDS, 1)
    autoplay(m, 9)
    assert len([r for r in m.scoresheet() if r["round"] == 1]) == 1  # struck deals: no row
    entry = m.history()[-1]
    assert len(entry["struck"]) == 5 and entry["hands"] == LOW_PRINCE["hands"]
    assert [a for a in entry["actions"] if a[1] == "strike"] == [[2, "strike"]] * 3 + \
        [[0, "strike"]] * 2
    # the King took all nine and left; in the next deal the Prince's count starts again
    assert m.view(2)["new_titles"][2] == "king"
    assert m.view(2)["strikes"] == {"king": 0, "prince": 0}
    assert m.to_act() == [0] and m.legal_actions(0) == ["strike", "accept"]


def test_a_prince_holding_a_trump_above_the_nine_may_not_strike_R42():
    m = pl_crowned(TEN_PRINCE)
    act(m, "accept")
    assert m.to_act() == [0] and m.legal_actions(0) == ["accept"]


def test_pooling_one_card_at_a_time_R43():
    m = pl_crowned(FIVE_FOUR)
    act(m, "accept", "accept")
    v = m.view(None)
    assert v["phase"] == "pool" and v["hand_sizes"] == [18, 0, 18, 0]
    assert [3, "hand>2"] in v["log"] and [1, "hand>0"] in v["log"]
    assert m.to_act() == [2] and len(m.legal_actions(2)) == 18
    assert all(a.endswith(">3") for a in m.legal_actions(2))
    act(m, "give:AS>3")
    assert [2, "give:AS>3"] in m.view(3)["log"] and [2, "give:??>3"] in m.view(0)["log"]
    assert m.view(None)["hand_sizes"] == [18, 0, 17, 1]
    give_back(m, "6S 7S 8S 9S TS JS QS KS", 3)
    assert m.to_act() == [0] and all(a.endswith(">1") for a in m.legal_actions(0))
    give_back(m, DIAMONDS, 1)
    assert m.phase == "play" and m.to_act() == [2]  # rule R-44: the King leads
    assert m.view(None)["hand_sizes"] == [9, 9, 9, 9]


def test_handing_over_trimming_and_uneven_hands_R46_R47_R3_R44_R45():
    m = pl_crowned(FIVE_FOUR, KING_LEAVES, PLAIN)
    act(m, "accept", "accept")
    give_back(m, SPADES, 3)
    give_back(m, DIAMONDS, 1)
    autoplay(m, 9)
    assert m.view(None)["tallies"] == [4, 0, 5, 0]
    assert m.scoresheet()[-1]["scores"] == [4, 0, 5, 0]
    act(m, "accept", "accept")
    give_back(m, CLUBS, 3)
    give_back(m, "JD QD KD AD JH QH KH AH TS", 1)
    assert m.to_act() == [2]  # rule R-44: the King leads every deal's first trick
    autoplay(m, 4)
    v = m.view(3)
    assert v["new_titles"] == [None, None, "king", None]  # rule R-45: 9 tricks
    # rule R-46: the first to leave hands his five cards to this reign's Soldier
    assert v["hand_sizes"] == [5, 5, 0, 10] and [2, "hand>3"] in v["log"]
    assert set("6D 7D 8D 9D TD".split()) <= set(v["hand"])
    assert m.to_act() == [0]  # rule R-5: the next active after the King in title order
    autoplay(m, 5)
    # rule R-3: the Prince and the Sweeper ran out: the deal is over, the Soldier's
    # five cards left are set aside
    assert m.scoresheet()[-1]["deal"] == 5 and sum(m.scoresheet()[-1]["scores"]) == 9
    v = m.view(3)
    # rule R-47: the next deal gives the King's seat's hand to the Soldier, after the strikes
    assert v["phase"] == "strike" and m.to_act() == [0]  # the Prince, though the King has left
    act(m, "accept")
    v = m.view(3)
    assert v["phase"] == "handover" and m.to_act() == [3]
    assert v["hand_sizes"] == [9, 9, 0, 18] and [2, "hand>3"] in v["log"]
    for c in DIAMONDS.split():
        act(m, "discard:" + c)  # one card at a time, down to 9
    assert [3, "discard:??"] in m.view(0)["log"]
    # rule R-43: only the Prince and the Sweeper pool (the King has left)
    assert m.phase == "pool" and m.to_act() == [0]
    give_back(m, SPADES, 1)
    assert m.phase == "play" and m.to_act() == [0]  # rule R-44: the highest active title
    assert m.view(None)["hand_sizes"] == [9, 9, 0, 9]
