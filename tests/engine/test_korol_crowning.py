"""Король / Król: the crowning (round 0), rules R-10 .. R-15 and R-30 .. R-35.

Also the helpers (preset deals written as card codes, a scripted play) that
the other Король / Król test files import.
"""

import pytest

from engine import IllegalAction, find_variant

# -- helpers -----------------------------------------------------------------------


def deal(*hands: str, rest: str = "") -> dict:
    """A preset deal: one string of card codes per seat, in the order dealt."""
    return {"hands": [h.split() for h in hands], "rest": rest.split()}


def new(variant: str, presets: list[dict], *, first_dealer: int = 0, **options):
    return find_variant(variant).new_match(4, seed=7, options=options, first_dealer=first_dealer,
                                           preset_deals=presets)


def act(m, *actions: str) -> None:
    """Apply actions in turn, each by the seat to act; a bare card code is a play."""
    for a in actions:
        seat = m.to_act()[0]
        m.apply(seat, "play:" + a if len(a) == 2 else a)


def autoplay(m, tricks: int) -> None:
    """Play ``tricks`` tricks: the leader plays his strongest card (trumps first),
    every other player his weakest (plain cards first)."""
    strength = m.strength
    done = 0
    while done < tricks and not m.is_over() and m.phase == "play":
        seat = m.to_act()[0]
        trump, trick = m.trump, m.trick
        cards = [a[5:] for a in m.legal_actions(seat)]

        def power(c, trump=trump):
            return (c[1] == trump, strength[c])

        card = max(cards, key=power) if not trick else min(cards, key=power)
        m.apply(seat, "play:" + card)
        if not m.trick:
            done += 1


def seat_log(m, seat):
    return m.view(seat)["log"]


# -- the Russian crowning used by the reign tests ---------------------------------------

# D1, dealer 0: seat 0 holds every spade (the dealer's last card AS: trump spades)
RU_D1 = deal("6S 7S 8S 9S TS JS QS KS AS",
             "6C 7C 8C 9C TC JC QC KC AC",
             "6D 7D 8D 9D TD JD QD KD AD",
             "6H 7H 8H 9H TH JH QH KH AH")
# D2, dealer 1 (trump hearts, his last card KH); seat 2 leads the 6H, seat 0's AH takes it
RU_D2 = deal("AH AS KS QS JS TS 9S 8S 7S",
             "AC KC 7H 8H 9H TH JH QH KH",
             "6H 6S AD KD QD JD TD 9D 8D",
             "7D 6D 6C 7C 8C 9C TC JC QC")
# D3, dealer 2, three active (3, 1, 2); rest[0] = 6H turned: trump hearts
RU_D3 = deal("",
             "AH AC KC AD KD QD JD TD 9D",
             "AS KS QS JS TS 9S 8S 7S 6D",
             "KH 6S 6C 7C 8C 9C TC JC QC",
             rest="6H 7H 8H 9H TH JH QH 8D 7D")


def ru_crowned_mixed(*reign_deals: dict, reigns: int = 1):
    """A korol-ru match whose crowning made seat 2 King, 0 Prince, 1 Soldier, 3 Peasant."""
    m = new("korol-ru", ready_deals() + [READY_D4, *reign_deals], reigns=reigns)
    autoplay(m, 27)
    act(m, "7H", "6C", "AH", "8H")
    assert m.view(None)["round"] == 1
    return m


def ru_crowned(*reign_deals: dict, reigns: int = 1):
    """A korol-ru match whose crowning made seat 0 King, 1 Prince, 2 Soldier, 3 Peasant."""
    m = new("korol-ru", [RU_D1, RU_D2, RU_D3, *reign_deals], reigns=reigns)
    autoplay(m, 9)  # D1: seat 0 takes all nine
    act(m, "6H", "6D", "AH", "7H")  # D2 trick 1: seat 0 reaches 10
    autoplay(m, 8)  # seat 1 takes the other eight
    act(m, "KH", "AH", "6D")  # D3 trick 1: seat 1 reaches 9
    autoplay(m, 8)  # seat 2 takes the other eight
    assert m.view(None)["round"] == 1
    return m


# -- the Polish crowning used by the reign tests ------------------------------------------

def clubs_to(seat: int) -> dict:
    """Every club to ``seat`` (its holder of the K♣ leads and takes all nine)."""
    suits = {seat: "C"}
    others = [s for s in range(4) if s != seat]
    for s, suit in zip(others, "SDH", strict=True):
        suits[s] = suit
    return deal(*[" ".join(r + suits[s] for r in "6789TJQKA") for s in range(4)])


def pl_crowned(*reign_deals: dict, reigns: int = 1, **options):
    """A krol-pl match whose crowning made seat 2 King, 0 Prince, 3 Soldier, 1 Sweeper."""
    m = new("krol-pl", [clubs_to(2), clubs_to(0), clubs_to(3), *reign_deals],
            reigns=reigns, **options)
    autoplay(m, 9)
    act(m, "keep", "keep", "keep")  # D2, dealer 1: seats 3, 0, 1 keep their hands
    autoplay(m, 9)
    act(m, "keep", "keep")  # D3, dealer 2: seats 3, 1
    autoplay(m, 9)
    assert m.view(None)["round"] == 1
    return m


# -- korol-ru ---------------------------------------------------------------------------------


def test_crowning_targets_ten_nine_eight_R14_R13_R10_R11():
    m = new("korol-ru", [RU_D1, RU_D2, RU_D3], reigns=0)
    assert m.view(None)["dealer"] == 0
    autoplay(m, 9)
    v = m.view(None)
    assert v["tallies"] == [9, 0, 0, 0]  # rule R-14: 9 is not yet the King's 10
    assert v["new_titles"] == [None] * 4
    assert v["dealer"] == 1  # rule R-10: the deal passes to the left
    act(m, "6H", "6D", "AH", "7H")
    v = m.view(None)
    assert v["tallies"] == [10, 0, 0, 0]  # rule R-13: tallies add up over the deals
    assert v["new_titles"] == ["king", None, None, None]
    assert v["active"] == [1, 2, 3]
    assert v["hand_sizes"] == [0, 8, 8, 8]  # his cards are set aside
    autoplay(m, 8)
    v = m.view(None)
    assert v["tallies"] == [10, 8, 0, 0] and v["new_titles"][1] is None
    assert v["dealer"] == 2  # rule R-10: the next ACTIVE player on the left of 1
    assert v["hand_sizes"] == [0, 9, 9, 9]  # rule R-11: only active players are dealt
    assert v["face_up"] == ["6H"] and v["trump"] == "H"  # rule R-11: rest[0] turned, not taken
    assert m.to_act() == [3]
    act(m, "KH", "AH", "6D")
    assert m.view(None)["new_titles"] == ["king", "prince", None, None]  # rule R-14: 9
    autoplay(m, 8)
    assert m.is_over()
    assert m.role_table() == [{"round": 0, "titles": ["king", "prince", "soldier", "peasant"],
                               "tricks": [10, 9, 8, 0]}]  # rule R-14: soldier at 8
    assert [r["scores"] for r in m.scoresheet()] == [[9, 0, 0, 0], [1, 8, 0, 0], [0, 1, 8, 0]]
    assert [r["totals"] for r in m.scoresheet()] == [[9, 0, 0, 0], [10, 8, 0, 0], [10, 9, 8, 0]]


def test_deal_of_four_turns_the_dealers_last_card_R11():
    m = new("korol-ru", [RU_D1])
    v = m.view(2)
    assert v["trump"] == "S" and v["face_up"] == ["AS"]
    assert "AS" in m.view(0)["hand"]  # it stays in the dealer's hand
    assert [None, "show:AS"] in v["log"]


def test_misfit_preset_raises_when_that_deal_starts_R11():
    bad = deal("6S 7S 8S 9S TS JS QS KS AS", "6C 7C 8C 9C TC JC QC KC AC",
               "6D 7D 8D 9D TD JD QD KD AD", "6H 7H 8H 9H TH JH QH KH AH")
    m = new("korol-ru", [RU_D1, RU_D2, bad], reigns=0)
    autoplay(m, 9)
    act(m, "6H", "6D", "AH", "7H")
    with pytest.raises(ValueError):
        autoplay(m, 8)  # D3 deals three active seats only: four hands do not fit


def test_first_hand_must_lead_trump_and_so_must_the_first_winner_R12():
    m = new("korol-ru", [deal("6H 7H 8H 9H TH JH QH KH AH",
                              "QS KS 6C 7C 8C 9C TC JC QC",
                              "AS KC AC 9D TD JD QD KD AD",
                              "6S 7S 8S 9S TS JS 6D 7D 8D")], first_dealer=3)
    # dealer 3, his last card 8D: trump diamonds; first hand 0 holds no diamond
    assert m.view(0)["trump"] == "D"
    assert len(m.legal_actions(0)) == 9
    act(m, "AH", "QS", "9D", "6S")  # seat 2 trumps: he must lead a trump now
    assert m.to_act() == [2]
    assert sorted(m.legal_actions(2)) == sorted(f"play:{c}" for c in "TD JD QD KD AD".split())
    with pytest.raises(IllegalAction, match="R-12"):
        m.apply(2, "play:AS")
    act(m, "AD", "6D", "6H", "KS")
    assert len(m.legal_actions(2)) == 7  # trick 3: the winner leads anything


def test_first_hand_with_trumps_must_lead_one_R12():
    m = new("korol-ru", [RU_D1, RU_D2], reigns=0)
    autoplay(m, 9)
    assert m.to_act() == [2]
    assert m.legal_actions(2) == ["play:6H"]  # his only trump


def test_winner_who_leaves_passes_the_lead_and_its_trump_duty_R5_R12():
    m = new("korol-ru", [RU_D1, RU_D2], reigns=0)
    autoplay(m, 9)
    assert m.legal_actions(2) == ["play:6H"]  # rule R-12: his only trump
    act(m, "6H", "6D", "AH", "7H")  # seat 0 wins and leaves as King
    assert m.to_act() == [1]  # rule R-5: the next active player after him
    legal = m.legal_actions(1)
    assert sorted(legal) == sorted("play:" + c for c in "8H 9H TH JH QH KH".split())


def ready_deals():
    """Each dealer holds the whole trump suit and takes all nine: seats 0, 1, 2 reach 9."""
    return [RU_D1,
            deal("6D 7D 8D 9D TD JD QD KD AD", "6S 7S 8S 9S TS JS QS KS AS",
                 "6C 7C 8C 9C TC JC QC KC AC", "6H 7H 8H 9H TH JH QH KH AH"),
            deal("6H 7H 8H 9H TH JH QH KH AH", "6D 7D 8D 9D TD JD QD KD AD",
                 "6S 7S 8S 9S TS JS QS KS AS", "6C 7C 8C 9C TC JC QC KC AC")]


READY_D4 = deal("7H 6S 7S 8S 9S TS JS QS KS",
                "6C 7C 8C 9C TC JC QC KC AC",
                "AH 6D 7D 8D 9D TD JD QD KD",
                "AS AD 8H 9H TH JH QH KH 6H")


def test_already_there_takes_the_next_title_earliest_first_R15_R14():
    m = new("korol-ru", ready_deals() + [READY_D4], reigns=0)
    autoplay(m, 27)
    v = m.view(None)
    assert v["tallies"] == [9, 9, 9, 0] and v["new_titles"] == [None] * 4
    assert m.to_act() == [0] and v["trump"] == "H"
    act(m, "7H", "6C", "AH", "8H")  # seat 2 reaches 10: King
    # Seats 0 and 1 both already hold the Prince's 9: seat 0 reached it at trick 9,
    # seat 1 at trick 18, so seat 0 is Prince and seat 1 (9 >= 8) Soldier at once;
    # the crowning ends mid-deal (rule R-14).
    assert m.is_over()
    assert m.role_table() == [{"round": 0, "titles": ["prince", "soldier", "king", "peasant"],
                               "tricks": [9, 9, 10, 0]}]
    assert m.scoresheet()[-1]["scores"] == [0, 0, 1, 0]
    assert m.result()["totals"] == [2, 1, 3, 0]


# -- krol-pl -----------------------------------------------------------------------------------


def test_no_trump_and_the_KC_holder_leads_R33_R34():
    m = new("krol-pl", [clubs_to(2)], first_dealer=0)
    v = m.view(None)
    assert v["trump"] is None and v["face_up"] == []  # rule R-33
    assert v["phase"] == "play" and m.to_act() == [2]  # rule R-34: he holds the K♣


def test_first_lead_card_option_R34():
    m = new("krol-pl", [clubs_to(2)], first_dealer=0, first_lead_card="AH")
    assert m.to_act() == [3]  # seat 3 holds the hearts
    schema = {o["name"]: o for o in find_variant("krol-pl").options_schema()}
    assert schema["first_lead_card"]["type"] == "card"
    assert schema["first_lead_card"]["default"] == "KC" and schema["first_lead_card"]["rule"] == "R-34"
    assert len(schema["first_lead_card"]["allowed"]) == 36
    with pytest.raises(ValueError):
        new("krol-pl", [], first_lead_card="XX")
    assert "first_lead_card" not in {o["name"] for o in find_variant("korol-ru").options_schema()}


def test_all_four_seats_dealt_and_the_deal_passes_left_R30_R31_R35():
    m = new("krol-pl", [clubs_to(0), clubs_to(1), clubs_to(2)], reigns=0)
    autoplay(m, 9)
    v = m.view(None)
    assert v["new_titles"] == ["king", None, None, None]  # rule R-35: 9 tricks
    assert v["dealer"] == 1  # rule R-30
    assert v["hand_sizes"] == [0, 9, 9, 9] and v["spares"] == [9, 0, 0, 0]  # rule R-31
    assert v["phase"] == "spare" and m.to_act() == [2]  # rule R-32: from the dealer's left
    act(m, "keep", "keep", "keep")
    autoplay(m, 9)
    v = m.view(None)
    assert v["new_titles"] == ["king", "prince", None, None] and v["tallies"] == [9, 9, 0, 0]
    assert v["dealer"] == 2 and v["spares"] == [9, 9, 0, 0]
    assert m.to_act() == [3]
    act(m, "keep", "keep")
    autoplay(m, 9)
    assert m.is_over()
    assert m.role_table()[0]["titles"] == ["king", "prince", "soldier", "peasant"]
    assert m.role_table()[0]["tricks"] == [9, 9, 9, 0]
    assert [r["dealer"] for r in m.scoresheet()] == [0, 1, 2]


def test_spare_hands_are_swapped_unseen_and_passed_on_R32():
    m = new("krol-pl", [clubs_to(0), clubs_to(1)], reigns=0)
    autoplay(m, 9)
    spare = clubs_to(1)["hands"][0]  # the hand dealt to seat 0, who is King
    mine2 = m.view(2)["hand"]
    assert m.legal_actions(2) == ["spare:0", "keep"]
    assert not set(spare) & set(str(m.view(2)))  # nobody has seen it
    act(m, "spare:0")
    assert sorted(m.view(2)["hand"]) == sorted(spare)
    assert m.view(None)["spares"] == [9, 0, 0, 0]
    assert [2, "spare:0"] in m.view(3)["log"]
    assert not set(mine2) & set(str(m.view(3)))
    act(m, "spare:0")  # seat 3 takes the hand seat 2 gave up
    assert sorted(m.view(3)["hand"]) == sorted(mine2)
    act(m, "keep")
    assert m.phase == "play"
    # rule R-34: the K♣ went with seat 1's clubs; he still holds it and leads
    assert m.to_act() == [1]


def test_first_hand_leads_when_the_KC_lies_in_a_spare_hand_R34_R32():
    d2 = clubs_to(0)  # the clubs, K♣ among them, are dealt to seat 0: a spare hand
    m = new("krol-pl", [clubs_to(0), d2], reigns=0)
    autoplay(m, 9)
    act(m, "keep", "keep", "keep")
    assert m.phase == "play" and m.to_act() == [2]  # the first hand (dealer 1's left)
