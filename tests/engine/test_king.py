"""Кинг (rules/king.md): fixed deals, a few actions, exact results.

Most deals below give each seat one whole suit ("suit deals"): the player to
the dealer's left then leads and wins every trick, which makes scores easy
to check by hand.
"""

from __future__ import annotations

import random

import pytest

from engine import IllegalAction, find_variant
from engine.errors import EngineError
from engine.variants.king_rules import CONTRACT_TOTAL, CONTRACTS, king_deck, penalties
from tests.engine.invariants import cards_in

SUITS_4 = {"S": "AS KS QS JS TS 9S 8S 7S", "C": "AC KC QC JC TC 9C 8C 7C",
           "D": "AD KD QD JD TD 9D 8D 7D", "H": "AH KH QH JH TH 9H 8H 7H"}


def deal(*hands: str) -> dict:
    return {"hands": [h.split() for h in hands], "rest": []}


SUIT_DEAL = deal(SUITS_4["S"], SUITS_4["C"], SUITS_4["D"], SUITS_4["H"])


def new(variant: str = "king-classic", *, presets=(), dealer: int | None = -1, seed: int = 1,
        **options):
    """A match; the dealer is the last seat unless told (so seat 0 leads first)."""
    seats = 3 if variant == "king-3p" else 4
    dealer = seats - 1 if dealer == -1 else dealer
    return find_variant(variant).new_match(seats, seed=seed, options=options or None,
                                           first_dealer=dealer, preset_deals=list(presets))


def play(m, *cards: str) -> None:
    for card in cards:
        m.apply(m.to_act()[0], "play:" + card)


def legal_cards(m, seat=None) -> set[str]:
    seat = m.to_act()[0] if seat is None else seat
    return {a[5:] for a in m.legal_actions(seat) if a.startswith("play:")}


def finish_deal(m, rng=None) -> None:
    """Play the current deal to its end with random legal actions."""
    rng = rng or random.Random(0)
    deal_no = m.deal_no
    while not m.is_over() and m.deal_no == deal_no:
        s = m.to_act()[0]
        m.apply(s, rng.choice(m.legal_actions(s)))


def play_to_deal(m, number: int, rng=None) -> None:
    rng = rng or random.Random(0)
    while m.deal_no < number:
        finish_deal(m, rng)


def random_match(variant: str, seed: int, **kw):
    m = new(variant, seed=seed, dealer=None, **kw)
    rng = random.Random(seed)
    while not m.is_over():
        s = m.to_act()[0]
        m.apply(s, rng.choice(m.legal_actions(s)))
    return m


# -- Cards and deal ------------------------------------------------------------


def test_deck_and_rank_order_K1_C2():
    assert len(king_deck(4)) == 32 and {c[0] for c in king_deck(4)} == set("789TJQKA")
    assert set(king_deck(4)) - set(king_deck(3)) == {"AS", "AC"}
    m = new(presets=[SUIT_DEAL], order=["tricks", *CONTRACTS[1:]])
    # Spades led: A K Q J T 9 8 7, the highest of the led suit wins (rule C-4).
    m2 = new(presets=[deal("7S KC QC JC TC 9C 8C 7C", "AS AC KS QS JS TS 9S 8S",
                           SUITS_4["D"], SUITS_4["H"])])
    play(m2, "7S", "8S", "AD", "AH")
    assert m2.view(None)["last_trick"] == {"cards": [[0, "7S"], [1, "8S"], [2, "AD"], [3, "AH"]],
                                           "winner": 1}
    assert all(len(a) == 7 and a.startswith("play:") for a in m.legal_actions(0))  # rule C-2


def test_whole_deck_dealt_and_first_dealer_from_seed_K2_C3():
    for variant, size in (("king-classic", 8), ("king-3p", 10)):
        seats = 3 if variant == "king-3p" else 4
        m = find_variant(variant).new_match(seats, seed=5)
        assert m.view(None)["hand_sizes"] == [size] * seats
        again = find_variant(variant).new_match(seats, seed=5)
        assert again.dealer == m.dealer and again.hands == m.hands  # rule C-3
    dealers = {find_variant("king-classic").new_match(4, seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}


def test_deal_passes_left_after_negative_deals_K2():
    m = new(dealer=2)
    seen = []
    while m.deal_no <= 7:
        seen.append(m.dealer)
        finish_deal(m)
    assert seen == [2, 3, 0, 1, 2, 3, 0]


# -- Negative deals --------------------------------------------------------------


def test_dealer_left_leads_must_follow_winner_leads_K3_C1():
    m = new(presets=[deal("AS 7S AC 7C AD 7D KH 7H", "KS 8S KC 8C KD 8D AH 8H",
                          "QS 9S QC 9C QD 9D QH 9H", "JS TS JC TC JD TD JH TH")], dealer=3)
    assert m.view(None)["contract"] == "tricks" and m.to_act() == [0]
    play(m, "7S")
    assert m.to_act() == [1]  # rule C-1: play passes to the left
    assert legal_cards(m) == {"KS", "8S"}  # rule K-3: follow suit
    with pytest.raises(IllegalAction, match="follow"):
        m.apply(1, "play:KC")
    play(m, "KS", "9S", "TS")
    assert m.view(None)["last_trick"]["winner"] == 1 and m.to_act() == [1]


def test_penalty_table_4_players_K4():
    won = [["JS", "JC", "QS", "7H"], ["JD", "QC", "QD", "QH", "KH"], ["JH", "8H", "9H"], ["TH", "AH"]]
    winners = [0, 1, 2, 3, 0, 1, 2, 3]
    assert penalties("tricks", 4, won, winners) == [4, 4, 4, 4]
    assert penalties("boys", 4, won, winners) == [8, 4, 4, 0]
    assert penalties("girls", 4, won, winners) == [4, 12, 0, 0]
    assert penalties("hearts", 4, won, winners) == [2, 4, 6, 4]
    assert penalties("last2", 4, won, winners) == [0, 0, 8, 8]
    assert penalties("king", 4, won, winners) == [0, 16, 0, 0]
    assert penalties("all", 4, won, winners) == [18, 40, 22, 16]  # K♥ counts twice
    assert CONTRACT_TOTAL[4] == {c: 16 for c in CONTRACTS[:-1]} | {"all": 96}


def test_penalty_table_3_players_K4_K17():
    won = [["JS", "JC", "QS", "7H"], ["JD", "QC", "QD", "QH", "KH"], ["JH", "8H", "9H", "TH", "AH"]]
    winners = [0, 1, 2, 0, 1, 2, 0, 1, 2, 0]
    assert penalties("tricks", 3, won, winners) == [8, 6, 6]
    assert penalties("boys", 3, won, winners) == [10, 5, 5]
    assert penalties("girls", 3, won, winners) == [5, 15, 0]
    assert penalties("hearts", 3, won, winners) == [2, 4, 10]
    assert penalties("last2", 3, won, winners) == [10, 0, 10]
    assert penalties("king", 3, won, winners) == [0, 24, 0]
    assert penalties("all", 3, won, winners) == [35, 54, 31]
    assert [CONTRACT_TOTAL[3][c] for c in CONTRACTS] == [20, 20, 20, 16, 20, 24, 120]


def test_penalties_written_as_minus_in_the_scoresheet_K4_K15():
    # The suit deal in `all`: seat 0 leads spades and wins all eight tricks.
    m = new(presets=[SUIT_DEAL], order=["all", *CONTRACTS[:-1]])
    for _ in range(32):
        s = m.to_act()[0]
        m.apply(s, m.legal_actions(s)[0])
    row = m.scoresheet()[0]
    assert row["contract"] == "all" and row["scores"] == [-96, 0, 0, 0] and row["totals"] == [-96, 0, 0, 0]


def test_order_option_K5_C7():
    schema = {o["name"]: o for o in find_variant("king-classic").options_schema()}
    assert schema["order"]["type"] == "permutation" and schema["order"]["rule"] == "K-5"
    assert schema["order"]["default"] == list(CONTRACTS) == schema["order"]["allowed"]
    assert "order" not in {o["name"] for o in find_variant("king-ordered").options_schema()}
    order = ["boys", "tricks", "all", "king", "girls", "last2", "hearts"]
    m = new(order=order)
    assert m.view(1)["options"]["order"] == order  # rule C-7: stored and shown
    contracts = []
    while m.deal_no <= 7:
        contracts.append(m.view(None)["contract"])
        finish_deal(m)
    assert contracts == order
    assert [r["contract"] for r in m.scoresheet()] == order
    with pytest.raises(ValueError):
        new(order=["boys", "tricks"])
    with pytest.raises(ValueError):
        new(order=["boys", "boys", "all", "king", "girls", "last2", "hearts"])


def test_no_heart_lead_while_holding_another_suit_K6():
    hands = deal("AH KH QH JH AS KS QS JS", "TH 9H 8H 7H TS 9S 8S 7S", SUITS_4["C"], SUITS_4["D"])
    for contract in ("hearts", "king", "all"):
        m = new(presets=[hands], order=[contract, *[c for c in CONTRACTS if c != contract]])
        assert legal_cards(m, 0) == {"AS", "KS", "QS", "JS"}
        with pytest.raises(IllegalAction, match="K-6"):
            m.apply(0, "play:AH")
    for contract in ("tricks", "boys", "girls", "last2"):
        m = new(presets=[hands], order=[contract, *[c for c in CONTRACTS if c != contract]])
        assert "AH" in legal_cards(m, 0)
    # Holding nothing but hearts, he leads a heart.
    m = new(presets=[deal(SUITS_4["H"], SUITS_4["C"], SUITS_4["D"], SUITS_4["S"])],
            order=["hearts", *[c for c in CONTRACTS if c != "hearts"]])
    assert legal_cards(m, 0) == set(SUITS_4["H"].split())


def test_king_must_go_when_void_K7():
    # Spades led; seat 3 holds only hearts with the K♥: he must play it.
    for contract in ("king", "all"):
        m = new(presets=[SUIT_DEAL], order=[contract, *[c for c in CONTRACTS if c != contract]])
        play(m, "7S", "7C", "7D")
        assert legal_cards(m) == {"KH"}
        with pytest.raises(IllegalAction, match="K-7"):
            m.apply(3, "play:AH")
    m = new(presets=[SUIT_DEAL])  # in `tricks` he may keep it
    play(m, "7S", "7C", "7D")
    assert legal_cards(m) == set(SUITS_4["H"].split())


# The leader (seat 0) runs three spades, then has only hearts and leads 7H;
# seat 1 plays A♥ and seat 2 holds K♥ Q♥.
STRICT_DEAL = deal("AS KS QS 7H 8H 9H TH JH", "8S 7S AH AC KC QC JC TC",
                   "JS TS 9S KH QH 7C 8C 9C", SUITS_4["D"])


def _to_king_under_ace(**options):
    m = new(presets=[STRICT_DEAL], order=["king", *[c for c in CONTRACTS if c != "king"]], **options)
    play(m, "AS", "7S", "9S", "7D", "KS", "8S", "TS", "8D", "QS", "TC", "JS", "9D")
    assert m.to_act() == [0] and legal_cards(m) == {"7H", "8H", "9H", "TH", "JH"}
    play(m, "7H", "AH")
    return m


def test_king_under_the_ace_without_king_strict_K7():
    m = _to_king_under_ace()
    assert legal_cards(m) == {"KH", "QH"}
    play(m, "QH")
    assert m.view(None)["hand_sizes"][2] == 4


def test_king_under_the_ace_with_king_strict_K7():
    m = _to_king_under_ace(king_strict=True)
    assert legal_cards(m) == {"KH"}
    with pytest.raises(IllegalAction, match="K-7"):
        m.apply(2, "play:QH")
    schema = {o["name"]: o for o in find_variant("king-3p").options_schema()}
    assert schema["king_strict"] == {"name": "king_strict", "type": "bool", "default": False,
                                     "rule": "K-7", "label": schema["king_strict"]["label"],
                                     "group": "play",
                                     "description": schema["king_strict"]["description"]}


def test_king_strict_needs_the_ace_in_the_trick_K7():
    # Hearts led without the A♥ in the trick: K♥ Q♥ both allowed even with the option.
    # The same deal with the A♥ moved behind seat 2 (to seat 3).
    hands = deal("AS KS QS 7H 8H 9H TH JH", "8S 7S AD AC KC QC JC TC", "JS TS 9S KH QH 7C 8C 9C",
                 "AH KD QD JD TD 9D 8D 7D")
    m = new(presets=[hands], order=["king", *[c for c in CONTRACTS if c != "king"]], king_strict=True)
    play(m, "AS", "7S", "9S", "7D", "KS", "8S", "TS", "8D", "QS", "TC", "JS", "9D", "7H", "AD")
    assert legal_cards(m) == {"KH", "QH"}


def test_early_end_when_all_penalty_cards_are_taken_K8():
    # `king`: the K♥ falls in the first trick; the deal ends there.
    m = new(presets=[SUIT_DEAL], order=["king", *[c for c in CONTRACTS if c != "king"]])
    play(m, "7S", "7C", "7D", "KH")
    row = m.scoresheet()[0]
    assert row["scores"] == [-16, 0, 0, 0] and m.deal_no == 2
    assert m.history()[0]["early_end"] is True and len(m.history()[0]["actions"]) == 4
    # `boys`: all four jacks in the first trick.
    m = new(presets=[SUIT_DEAL], order=["boys", *[c for c in CONTRACTS if c != "boys"]])
    play(m, "JS", "JC", "JD", "JH")
    assert m.scoresheet()[0]["scores"] == [-16, 0, 0, 0] and m.deal_no == 2
    # `girls` goes on while a queen is out, then stops.
    m = new(presets=[SUIT_DEAL], order=["girls", *[c for c in CONTRACTS if c != "girls"]])
    play(m, "QS", "QC", "QD", "7H")
    assert m.deal_no == 1
    play(m, "7S", "7C", "7D", "QH")
    assert m.deal_no == 2 and m.scoresheet()[0]["scores"] == [-16, 0, 0, 0]
    # no early end in `tricks`, `last2` and `all`
    for contract in ("tricks", "last2", "all"):
        m = new(presets=[SUIT_DEAL], order=[contract, *[c for c in CONTRACTS if c != contract]])
        play(m, "JS", "JC", "JD", "KH" if contract == "all" else "JH")
        assert m.deal_no == 1


def _first(m, seat):
    return m.legal_actions(seat)[0][5:]


def test_early_end_in_hearts_K8():
    # Seat 0 runs spades; the others, void, drop their hearts: all gone in three tricks.
    hands = deal(SUITS_4["S"], "AH KH QH AC KC QC JC TC", "JH TH 9H 9C 8C 7C AD KD",
                 "8H 7H QD JD TD 9D 8D 7D")
    m = new(presets=[hands], order=["hearts", *[c for c in CONTRACTS if c != "hearts"]])
    play(m, "AS", "AH", "JH", "8H", "KS", "KH", "TH", "7H", "QS", "QH")
    assert m.deal_no == 1
    play(m, "9H")
    assert m.deal_no == 1 and m.to_act() == [3]  # the trick is completed first
    play(m, "7D")
    assert m.deal_no == 2 and m.scoresheet()[0]["scores"] == [-16, 0, 0, 0]
    assert m.history()[0]["early_end"] is True and len(m.history()[0]["actions"]) == 12


def test_every_negative_deal_adds_up_to_its_total_K9():
    for variant in ("king-classic", "king-3p", "king-ordered"):
        for seed in range(3):
            m = random_match(variant, seed)
            seats = m.seats
            for row in m.scoresheet():
                if row["contract"] != "trump":
                    assert -sum(row["scores"]) == CONTRACT_TOTAL[seats][row["contract"]]
    # The engine checks it: scoring a deal that lost a penalty card fails loudly.
    with pytest.raises(EngineError, match="K-9"):
        penalties("boys", 4, [["JS"], ["JC"], ["JD"], []], list(range(4)) * 2)


# -- Positive deals --------------------------------------------------------------


def test_dealers_and_choosers_rotate_K10():
    m = new(dealer=1)
    dealers, choosers = [], []
    while not m.is_over():
        dealers.append(m.dealer)
        choosers.append(m.view(None)["chooser"])
        finish_deal(m)
    assert dealers[:7] == [1, 2, 3, 0, 1, 2, 3] and choosers[:7] == [None] * 7
    assert dealers[7:] == [0, 3, 2, 1, 0, 3, 2, 1]
    assert choosers[7:] == [3, 2, 1, 0, 3, 2, 1, 0]  # to the right; each twice
    assert [r["chooser"] for r in m.scoresheet()[7:]] == choosers[7:]
    m = new("king-3p", dealer=0)
    dealers, choosers = [], []
    while not m.is_over():
        dealers.append(m.dealer)
        choosers.append(m.view(None)["chooser"])
        finish_deal(m)
    assert dealers == [0, 1, 2, 0, 1, 2, 0, 1, 0, 2, 1, 0, 2]
    assert choosers[7:] == [0, 2, 1, 0, 2, 1]


# Deal 8 of a match whose first dealer is 1: dealer 0, the chooser is seat 3.
# His first three cards are A♠ K♠ Q♠ and the last card dealt to him is 7♥.
POSITIVE_DEAL = deal("JS TS 9S 8S 7S AC KC QC", "JC AD KD QD JD TD AH 9H",
                     "9D 8D 7D KH QH JH TH 8H", "AS KS QS 7C 8C 9C TC 7H")


def _at_positive_deal(preset=POSITIVE_DEAL, variant="king-classic"):
    m = new(variant, presets=[SUIT_DEAL] * 7 + [preset], dealer=1)
    play_to_deal(m, 8)
    assert m.dealer == 0 and m.to_act() == [3]
    return m


def test_chooser_sees_only_three_cards_K11_C5():
    m = _at_positive_deal()
    v = m.view(3)
    assert v["phase"] == "choose" and v["hand"] == ["AS", "KS", "QS"]
    assert v["hand_sizes"] == [0, 0, 0, 3] and v["trump"] is None and v["face_up"] == []
    assert m.legal_actions(3) == ["trump:S", "trump:C", "trump:D", "trump:H", "trump:last"]
    assert m.view(0)["hand"] == [] and m.legal_actions(0) == []
    for seat in (None, 0, 1, 2):
        assert {"AS", "KS", "QS", "7H"}.isdisjoint(str(m.view(seat)["hand"]))
    with pytest.raises(IllegalAction, match="K-11"):
        m.apply(3, "trump:none")


def test_trump_by_the_last_card_K11():
    m = _at_positive_deal()
    m.apply(3, "trump:last")
    v = m.view(0)
    assert v["trump"] == "H" and v["face_up"] == ["7H"] and v["phase"] == "play"
    assert [None, "show:7H"] in v["log"] and [3, "trump:last"] in v["log"]
    assert v["hand_sizes"] == [8, 8, 8, 8] and m.to_act() == [3]
    play(m, "7H")  # the card stays shown until the deal ends
    assert m.view(1)["face_up"] == ["7H"]
    finish_deal(m)
    assert m.view(1)["face_up"] == [] and m.scoresheet()[7]["by_last"] is True
    assert m.scoresheet()[7]["trump"] == "H" and m.scoresheet()[7]["chooser"] == 3


def test_named_trump_K11():
    m = _at_positive_deal()
    m.apply(3, "trump:C")
    assert m.view(2)["trump"] == "C" and m.view(2)["face_up"] == []
    assert sorted(m.view(3)["hand"]) == sorted(POSITIVE_DEAL["hands"][3])


def test_must_trump_no_overtrump_and_who_leads_trumps_K12():
    m = _at_positive_deal()
    m.apply(3, "trump:last")  # hearts
    assert "7H" in legal_cards(m)  # the chooser may lead a trump holding other suits
    play(m, "AS")
    assert legal_cards(m) == {"JS", "TS", "9S", "8S", "7S"}  # follow suit first
    play(m, "7S")
    assert legal_cards(m) == {"AH", "9H"}  # void in spades: must trump
    with pytest.raises(IllegalAction, match="K-12"):
        m.apply(1, "play:AD")
    play(m, "AH")
    assert legal_cards(m) == {"KH", "QH", "JH", "TH", "8H"}  # even a trump that cannot win
    play(m, "8H")
    assert m.view(None)["last_trick"]["winner"] == 1 and m.to_act() == [1]
    # Seat 1 is not the chooser: no trump lead while he holds other suits.
    assert legal_cards(m) == {"JC", "AD", "KD", "QD", "JD", "TD"}
    with pytest.raises(IllegalAction, match="K-12"):
        m.apply(1, "play:9H")


def test_only_trumps_left_may_lead_a_trump_K12():
    only_trumps = deal(SUITS_4["C"], SUITS_4["H"], SUITS_4["D"], SUITS_4["S"])
    m = _at_positive_deal(only_trumps)
    m.apply(3, "trump:D")
    play(m, "AS", "7C", "7H")
    assert legal_cards(m) == set(SUITS_4["D"].split())  # void in spades: must trump
    play(m, "7D")
    assert m.to_act() == [2] and legal_cards(m) == set(SUITS_4["D"].split()) - {"7D"}


def test_three_points_a_trick_K13():
    m = _at_positive_deal()
    m.apply(3, "trump:S")
    finish_deal(m)
    row = m.scoresheet()[7]
    assert row["contract"] == "trump" and sum(row["scores"]) == 24
    assert all(s % 3 == 0 for s in row["scores"])
    assert m.history()[7]["hands"] == POSITIVE_DEAL["hands"]


# -- Result ---------------------------------------------------------------------


def test_result_sums_to_zero_and_winners_K14():
    for variant in ("king-classic", "king-3p"):
        for seed in range(4):
            m = random_match(variant, seed)
            res = m.result()
            assert sum(res["totals"]) == 0
            assert res["totals"] == m.scoresheet()[-1]["totals"]
            best = max(res["totals"])
            assert res["winners"] == [s for s, t in enumerate(res["totals"]) if t == best]
            assert m.view(0)["phase"] == "match_over" and m.to_act() == []


def test_scoresheet_rows_K15():
    m = random_match("king-classic", 7)
    rows = m.scoresheet()
    assert [r["deal"] for r in rows] == list(range(1, 16))
    running = [0] * 4
    for r in rows:
        running = [a + b for a, b in zip(running, r["scores"], strict=True)]
        assert r["totals"] == running
        assert {"deal", "dealer", "contract", "chooser", "trump", "scores", "totals"} <= set(r)
    assert [r["contract"] for r in rows] == list(CONTRACTS) + ["trump"] * 8
    assert all(r["trump"] in tuple("SCDH") and r["chooser"] is not None for r in rows[7:])
    assert [h["row"] for h in m.history()] == rows


# -- king-ordered ------------------------------------------------------------------


def test_ordered_first_order_and_table_K16():
    m = new("king-ordered", presets=[SUIT_DEAL], dealer=0)
    v = m.view(1)
    assert v["phase"] == "choose" and m.to_act() == [1] and v["hand_sizes"] == [8, 8, 8, 8]
    assert m.legal_actions(1) == ["order:" + c for c in CONTRACTS] + [
        "order:trump:S", "order:trump:C", "order:trump:D", "order:trump:H"]
    assert "trump:last" not in m.legal_actions(1)  # he has seen his whole hand
    m.apply(1, "order:boys")
    v = m.view(3)
    assert v["orders"] == [[], ["boys"], [], []] and v["contract"] == "boys"
    assert m.to_act() == [1] and v["phase"] == "play"  # the orderer leads
    finish_deal(m)
    assert m.dealer == 1 and m.to_act() == [2]  # the deal passes to the left
    row = m.scoresheet()[0]
    assert row["orderer"] == 1 and row["contract"] == "boys"
    assert sum(row["relative"]) == 0
    assert row["relative"] == [t - sum(row["totals"]) / 4 for t in row["totals"]]


def test_ordered_offers_only_what_is_owed_K16():
    m = new("king-ordered", dealer=3)
    rng = random.Random(3)
    # seat 0 orders at deals 1, 5, 9, ...: boys, then two trump deals
    picks = {1: "order:boys", 5: "order:trump:H", 9: "order:trump:H"}
    while m.deal_no <= 13:
        if m.phase == "choose" and m.to_act() == [0]:
            pick = picks.get(m.deal_no)
            if pick:
                m.apply(0, pick)
            else:
                legal = m.legal_actions(0)
                assert "order:boys" not in legal and not any("trump" in a for a in legal)
                with pytest.raises(IllegalAction, match="K-16"):
                    m.apply(0, "order:trump:S")
                m.apply(0, legal[0])
            if pick == "order:trump:H":
                assert m.view(0)["trump"] == "H" and m.view(0)["chooser"] == 0
        finish_deal(m, rng)
    assert m.view(None)["orders"][0] == ["boys", "trump:H", "trump:H", "tricks"]


def test_ordered_match_ends_after_36_deals_K16():
    m = random_match("king-ordered", 11)
    rows = m.scoresheet()
    assert len(rows) == 36 and m.is_over()
    assert [r["dealer"] for r in rows] == [(3 + i) % 4 for i in range(36)]  # always to the left
    assert [r["orderer"] for r in rows] == [i % 4 for i in range(36)]
    orders = m.view(None)["orders"]
    for seat in range(4):
        neg = [o for o in orders[seat] if not o.startswith("trump")]
        assert sorted(neg) == sorted(CONTRACTS) and len(orders[seat]) == 9
        assert sum(o.startswith("trump:") for o in orders[seat]) == 2
    penalties_total = -sum(sum(r["scores"]) for r in rows if r["contract"] != "trump")
    assert penalties_total == 768
    assert sum(sum(r["scores"]) for r in rows if r["contract"] == "trump") == 192
    for r in rows:
        assert sum(r["relative"]) == 0
    res = m.result()
    assert res["relative"] == rows[-1]["relative"] and res["totals"] == rows[-1]["totals"]


# -- king-3p ---------------------------------------------------------------------


def test_three_players_deck_and_balance_K17():
    m = new("king-3p", dealer=2)
    assert m.view(0)["hand_sizes"] == [10, 10, 10]
    assert set(m.deck) == set(king_deck(3)) and len(m.deck) == 30
    m = random_match("king-3p", 4)
    rows = m.scoresheet()
    assert len(rows) == 13
    assert -sum(sum(r["scores"]) for r in rows[:7]) == 240
    assert all(sum(r["scores"]) == 40 and all(s % 4 == 0 for s in r["scores"]) for r in rows[7:])
    assert sum(m.result()["totals"]) == 0


def test_three_players_king_costs_24_K17():
    hands = deal("KS QS JS TS 9S 8S 7S KC QC JC", "KD QD JD TD 9D 8D 7D AD TC 9C",
                 "AH KH QH JH TH 9H 8H 7H 8C 7C")
    m = new("king-3p", presets=[hands], order=["king", *[c for c in CONTRACTS if c != "king"]], dealer=2)
    play(m, "KS", "KD", "KH")
    assert m.scoresheet()[0]["scores"] == [-24, 0, 0]


# -- Common rules ------------------------------------------------------------------


def test_views_hide_other_hands_C5():
    m = new(presets=[SUIT_DEAL])
    assert m.view(1)["hand"] == SUITS_4["C"].split()
    assert not set(SUITS_4["S"].split()) & cards_in(m.view(1))
    assert m.view(None)["hand"] == [] and m.view(None)["legal"] == []


def test_illegal_actions_change_nothing_C6():
    m = new(presets=[SUIT_DEAL])
    before = [m.view(s) for s in range(4)]
    for seat, action in [(1, "play:AC"), (0, "play:AC"), (0, "trump:H"), (0, "order:boys"),
                         (0, "play:"), (7, "play:AS"), (0, "play:AS ")]:
        with pytest.raises(IllegalAction):
            m.apply(seat, action)
    assert [m.view(s) for s in range(4)] == before and m.actions == []
    with pytest.raises(ValueError):
        m.legal_actions(4)


# -- Determinization (the search bots' tool) -----------------------------------------


def test_determinize_keeps_what_play_revealed_K7_K12():
    # `king`: seat 1, void in spades, did not drop the K♥, so he does not hold it.
    hands = deal("AS KS QS JS TS 9S 8S 7H", "AC KC QC JC TC 9C 8C 8H",
                 "AD KD QD JD TD 9D 8D 9H", "AH KH QH JH TH 7S 7C 7D")
    m = new(presets=[hands], order=["king", *[c for c in CONTRACTS if c != "king"]])
    play(m, "AS", "AC")
    rng = random.Random(1)
    for _ in range(30):
        twin = m.determinize(0, rng)
        assert "KH" not in twin.hands[1] and not any(c[1] == "S" for c in twin.hands[1])
        assert twin.view(0) == m.view(0)
    # A trump deal: not trumping shows a trump void (rule K-12).
    m = _at_positive_deal()
    m.apply(3, "trump:C")
    play(m, "AS", "7S", "JC", "9D")  # seat 2 neither follows nor trumps
    for _ in range(30):
        twin = m.determinize(0, rng)
        assert not any(c[1] in "SC" for c in twin.hands[2])
        assert twin.view(0) == m.view(0)


def test_determinize_while_the_chooser_chooses_K11():
    m = _at_positive_deal()
    rng = random.Random(2)
    for seat in range(4):
        twin = m.determinize(seat, rng)
        assert twin.view(seat) == m.view(seat)
        assert [len(h) for h in twin.hands] == [0, 0, 0, 3]
    twin = m.determinize(3, rng)
    assert sorted(twin.hands[3]) == ["AS", "KS", "QS"]
    twin.apply(3, "trump:last")
    assert len(twin.view(3)["face_up"]) == 1 and twin.view(3)["hand_sizes"] == [8, 8, 8, 8]


def test_bad_presets_and_options_are_refused_C7():
    with pytest.raises(ValueError, match="preset"):
        new(presets=[deal(SUITS_4["S"], SUITS_4["C"], SUITS_4["D"], "AH KH QH")])
    with pytest.raises(ValueError, match="preset"):
        new(presets=[deal(SUITS_4["S"], SUITS_4["S"], SUITS_4["D"], SUITS_4["H"])])
    with pytest.raises(ValueError, match="preset"):
        new("king-3p", presets=[deal("AS KS QS JS TS 9S 8S 7S KC QC", "JC TC 9C 8C 7C AD KD QD JD TD",
                                     "9D 8D 7D AH KH QH JH TH 9H 8H")])  # A♠ is not in the deck
    with pytest.raises(ValueError, match="unknown option"):
        new("king-ordered", order=list(CONTRACTS))
    with pytest.raises(ValueError):
        new(king_strict="yes")
