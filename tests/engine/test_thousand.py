"""Тысяча: the deck, the deal, the bidding, the scoring and the end of a match
(rules T-1 … T-13, T-24 … T-30 of ../shared/rules/thousand.md, and C-1 … C-7).

Deals are written inline: ``hands`` maps a seat to its cards, ``talon`` is the
rest (its first card on top).  With ``dealer=0`` and three players the calling
order is 1, 2, 0; with four, seat 0 sits out and the order is 1, 2, 3.
"""

from __future__ import annotations

import pytest

from engine import IllegalAction, find_variant
from engine.cards import parse_cards
from engine.variants.thousand_cards import CARD_POINTS, DECK, STRENGTH, round_to_5, round_to_10

# -- helpers shared by the other test_thousand_* files -------------------------


def new(variant: str, hands: dict[int, str], talon: str, *, seats: int | None = None,
        dealer: int = 0, options: dict | None = None, seed: int = 0):
    seats = seats or (2 if variant.endswith("-2p") else 3)
    preset = {"hands": [parse_cards(hands.get(s, "")) for s in range(seats)],
              "rest": parse_cards(talon)}
    return find_variant(variant).new_match(seats, seed=seed, first_dealer=dealer,
                                           preset_deals=[preset], options=options)


def act(match, *actions: str) -> None:
    """Apply each action for the seat whose turn it is."""
    for a in actions:
        match.apply(match.to_act()[0], a)


def tricks(match, *plays: str) -> None:
    """Play tricks written as card codes in play order ("AS 9S 9C");
    a written action ("marriage:KH") is applied as it is."""
    for trick in plays:
        for code in trick.split():
            act(match, code if ":" in code else "play:" + code)


def set_totals(match, totals: list[int]) -> None:
    """Start the match from these totals (as if earlier deals had been played)."""
    match.start_from_totals(totals)


# A deal where the first hand (seat 1) holds every ace and ten after the talon.
STRONG = {1: "AS TS AC TC AD TD AH", 2: "KS QS JS 9S KC QC JC", 0: "KD QD JD 9D KH QH 9C"}
STRONG_TALON = "TH JH 9H"
# 1001: seat 1 bids 100, gives JH to seat 2 and TH to seat 0, names 120; he
# then loses the last trick (9H KS TH: 14 points) to seat 0.
LOSE_LAST = ("AS 9S 9C", "TS JS 9D", "AC JC JD", "TC QC QD", "AD KC KD", "TD QS QH",
             "AH JH KH", "9H KS TH")


def strong_1001_failed(**kw):
    m = new("thousand-1001", STRONG, STRONG_TALON, **kw)
    act(m, "bid:100", "pass", "pass", "give:JH>2", "give:TH>0", "contract:120")
    tricks(m, *LOSE_LAST)
    return m


def strong_1000_all(variant: str = "thousand-1000", before=None, **kw):
    """1000: seat 1 keeps TH, gives JH to 2 and 9H to 0, names 120 and takes every trick."""
    m = new(variant, STRONG, STRONG_TALON, **kw)
    if before is not None:
        set_totals(m, before)
    act(m, "bid:100", "pass", "pass", "contract:120", "give:JH>2", "give:9H>0")
    tricks(m, "AS 9S 9C", "TS JS 9H", "AC JC 9D", "TC QC JD", "AD KC QD", "TD QS KD",
           "AH JH QH", "TH KS KH")
    return m


# -- cards (T-1, T-2, T-3) ----------------------------------------------------------


def test_deck_of_24_ranked_A_T_K_Q_J_9_T1():
    assert len(DECK) == 24 and len(set(DECK)) == 24
    assert sorted(DECK, key=STRENGTH.get, reverse=True)[:4] == ["AS", "AC", "AD", "AH"]
    assert [c for c in sorted(DECK, key=STRENGTH.get, reverse=True) if c[1] == "H"] == \
        ["AH", "TH", "KH", "QH", "JH", "9H"]


def test_card_points_T2():
    assert [CARD_POINTS[c] for c in ["AS", "TS", "KS", "QS", "JS", "9S"]] == [11, 10, 4, 3, 2, 0]
    assert sum(CARD_POINTS.values()) == 120


def test_marriage_values_raise_the_cap_T3():
    m = new("thousand-1001", {1: "KH QH KD QD KC QC 9S", 2: "AS TS KS QS JS AC TC",
                              0: "AD TD JD 9D AH TH JH"}, "JC 9C 9H")
    assert m.legal_actions(1)[-1] == "bid:360"  # 120 + 100 + 80 + 60


# -- seats and the deal (T-4, T-5, T-6, C-1, C-3) -----------------------------------


def test_three_play_every_deal_four_dealer_sits_out_T4_C1():
    m = find_variant("thousand-1000").new_match(4, seed=3, first_dealer=2)
    v = m.view(None)
    assert v["active"] == [0, 1, 3] and v["hand_sizes"] == [7, 7, 0, 7]
    assert m.to_act() == [3]  # first hand: the active player to the dealer's left
    m3 = find_variant("thousand-1001").new_match(3, seed=3, first_dealer=2)
    assert m3.view(None)["active"] == [0, 1, 2] and m3.to_act() == [0]
    m2 = find_variant("thousand-1000-2p").new_match(2, seed=3, first_dealer=0)
    assert m2.view(None)["hand_sizes"] == [10, 10] and m2.to_act() == [1]


def test_first_dealer_from_seed_then_to_the_left_T5_C3():
    dealers = {find_variant("thousand-1001").new_match(3, seed=s).dealer for s in range(30)}
    assert dealers == {0, 1, 2}
    m = new("thousand-1001", STRONG, STRONG_TALON)
    act(m, "pass", "pass", "throw")  # seat 0 plays by rule T-12 and throws in
    assert m.dealer == 1 and m.view(None)["deal"] == 2 and m.to_act() == [2]


def test_deal_sizes_and_seeded_shuffle_T6_C3():
    for vid, seats, hand, talon in [("thousand-1001", 3, 7, 3), ("thousand-1000", 4, 7, 3),
                                    ("thousand-1000-2p", 2, 10, 4)]:
        a = find_variant(vid).new_match(seats, seed=77)
        b = find_variant(vid).new_match(seats, seed=77)
        dealt = a.card_locations()
        assert dealt == b.card_locations()  # rule C-3: same seed, same deal
        sizes = sorted((len(dealt[f"hand:{s}"]) for s in range(seats)), reverse=True)
        assert sizes == [hand] * min(seats, 3) + [0] * (seats - min(seats, 3))
        assert len(dealt["talon"]) == talon
    c = find_variant("thousand-1001").new_match(3, seed=78)
    assert c.card_locations() != find_variant("thousand-1001").new_match(3, seed=77).card_locations()


def test_preset_that_does_not_fit_is_refused_T6():
    with pytest.raises(ValueError):
        new("thousand-1001", {1: "AS TS AC TC AD TD", 2: "KS QS JS 9S KC QC JC",
                              0: "KD QD JD 9D KH QH 9C"}, "TH JH 9H AH")


def test_sitting_out_dealer_scores_the_talon_T7():
    hands = {1: "AS TS AC TC AD TD AH", 2: "KS QS JS 9S KC QC JC", 3: "KD QD JD KH QH TH JH"}
    m = new("thousand-1001", hands, "9C 9D 9H", seats=4)
    act(m, "bid:100", "pass", "pass", "throw")  # the talon was turned up
    row = m.scoresheet()[-1]
    assert row["sitting_out"] == 0 and row["scores"] == [100, -100, 0, 0]  # three 9s: 100
    # Otherwise the talon's card points (here 15), rounded as in T-24.
    hands = {1: "AS TS AC TC AD TD AH", 2: "KS QS JS 9S KC QC JC", 3: "KD QD JD 9D KH 9H 9C"}
    for opts, talon_score in [(None, 20), ({"round5_up": False}, 10)]:
        m = new("thousand-1000", hands, "TH QH JH", seats=4, options=opts)
        act(m, "bid:60", "pass", "pass", "contract:60", "refuse")
        row = m.scoresheet()[-1]
        assert row["points_raw"][0] == 15 and row["scores"] == [talon_score, -60, 60, 60]
    m = new("thousand-1001", hands, "TH QH JH", seats=4)
    act(m, "pass", "pass", "throw")  # rule T-12: seat 3 plays and throws in
    assert m.scoresheet()[-1]["scores"] == [15, 50, 50, 0]


# -- bidding (T-8 … T-13) -----------------------------------------------------------


def test_bidding_order_and_amounts_1001_T8_T9():
    m = new("thousand-1001", STRONG, STRONG_TALON)
    assert m.to_act() == [1]
    assert m.legal_actions(1)[:4] == ["pass", "bid:40", "bid:45", "bid:50"]
    act(m, "bid:50")
    assert m.to_act() == [2] and m.legal_actions(2)[:3] == ["pass", "bid:55", "bid:60"]
    with pytest.raises(IllegalAction):
        m.apply(2, "bid:50")  # not higher
    with pytest.raises(IllegalAction):
        m.apply(2, "bid:57")  # not a multiple of 5


def test_bidding_amounts_1000_T9():
    m = new("thousand-1000", STRONG, STRONG_TALON)
    assert m.legal_actions(1)[:3] == ["pass", "bid:60", "bid:70"]
    with pytest.raises(IllegalAction):
        m.apply(1, "bid:65")
    act(m, "bid:60")
    assert m.legal_actions(2)[:2] == ["pass", "bid:70"]


def test_bid_cap_without_marriage_is_120_T10():
    m = new("thousand-1001", STRONG, STRONG_TALON)
    assert m.legal_actions(1)[-1] == "bid:120"  # seat 1 holds no marriage
    with pytest.raises(IllegalAction, match="T-10"):
        m.apply(1, "bid:125")


def test_bid_cap_with_marriages_T10():
    m = new("thousand-1001", STRONG, STRONG_TALON)
    act(m, "pass")
    assert m.legal_actions(2)[-1] == "bid:220"  # KS QS (40) and KC QC (60)
    act(m, "bid:220")
    assert m.legal_actions(0)[-1] == "bid:300"  # KD QD (80) and KH QH (100)
    assert "bid:225" in m.legal_actions(0) and "bid:305" not in m.legal_actions(0)


def test_passing_is_final_and_last_bidder_declares_T11():
    m = new("thousand-1001", STRONG, STRONG_TALON)
    act(m, "pass", "bid:60", "bid:65")
    assert m.to_act() == [2]  # seat 1 passed: skipped
    act(m, "bid:70", "pass")
    v = m.view(None)
    assert v["declarer"] == 2 and v["bid"] == 70 and v["phase"] == "talon"
    assert v["bids"] == [[1, "pass"], [2, "bid:60"], [0, "bid:65"], [2, "bid:70"], [0, "pass"]]


def test_nobody_bids_1001_dealer_takes_talon_and_may_throw_T12():
    m = new("thousand-1001", STRONG, STRONG_TALON)
    act(m, "pass", "pass")
    v = m.view(0)
    assert v["declarer"] == 0 and v["bid"] == 40 and v["forced"] and v["phase"] == "talon"
    assert v["hand_sizes"] == [10, 7, 7] and "throw" in v["legal"]
    act(m, "throw")
    assert m.scoresheet()[-1]["scores"] == [0, 50, 50]


def test_nobody_bids_1001_plays_on_like_any_declarer_T12():
    m = new("thousand-1001", STRONG, STRONG_TALON)
    act(m, "pass", "pass", "give:9C>1", "give:9D>2")
    assert m.legal_actions(0)[:3] == ["contract:40", "contract:45", "contract:50"]
    act(m, "contract:40")
    assert m.phase == "play" and m.to_act() == [0] and "throw" in m.legal_actions(0)
    act(m, "throw")  # until the first lead, and still 0 / +50 for a T-12 declarer
    assert m.scoresheet()[-1]["scores"] == [0, 50, 50]


def test_nobody_bids_four_players_last_is_dealers_right_T12():
    hands = {1: "AS TS AC TC AD TD AH", 2: "KS QS JS 9S KC QC JC", 3: "KD QD JD 9D KH QH 9C"}
    m = new("thousand-1001", hands, STRONG_TALON, seats=4)
    act(m, "pass", "pass")
    assert m.view(None)["declarer"] == 3 and m.to_act() == [3]
    act(m, "throw")
    assert m.scoresheet()[-1]["scores"] == [10, 50, 50, 0]  # seat 0 sits out: talon 12 -> 10


def test_nobody_bids_1000_contract_before_talon_then_refuse_T12():
    m = new("thousand-1000", STRONG, STRONG_TALON)
    act(m, "pass", "pass")
    v = m.view(0)
    assert v["declarer"] == 0 and v["bid"] == 60 and v["face_up"] == [] and v["talon_size"] == 3
    assert v["legal"][0] == "contract:60" and "refuse" not in v["legal"]
    act(m, "contract:60")
    assert "refuse" in m.legal_actions(0)
    act(m, "refuse")
    assert m.scoresheet()[-1]["scores"] == [-60, 60, 60]


def test_850_in_two_player_game_T13():
    hands = {0: "AS TS KS QS JS 9S AC TC KC QC", 1: "AD TD KD QD JD 9D AH TH KH QH"}
    m = new("thousand-1000-2p", hands, "JC 9C JH 9H")
    set_totals(m, [850, 0])
    assert m.to_act() == [1] and "pass" not in m.legal_actions(1)  # may not pass
    act(m, "bid:60")
    assert m.legal_actions(0) == ["pass"]  # at 850: may not bid
    m = new("thousand-1000-2p", hands, "JC 9C JH 9H")
    set_totals(m, [0, 900])
    assert m.legal_actions(1) == ["pass"]
    act(m, "pass")  # then the dealer plays at 60 (rule T-12)
    assert m.view(None)["declarer"] == 0 and m.view(None)["bid"] == 60
    m = new("thousand-1000-2p", hands, "JC 9C JH 9H")
    set_totals(m, [860, 900])  # both at 850: the rule is off
    assert m.legal_actions(1)[:2] == ["pass", "bid:60"]


# -- scoring (T-24 … T-28) ----------------------------------------------------------


def test_rounding_1001_to_5_T24():
    assert [round_to_5(x) for x in (37, 98, 12, 13, 0, 120)] == [35, 100, 10, 15, 0, 120]


def test_rounding_1000_to_10_five_up_and_option_off_T24():
    assert [round_to_10(x) for x in (35, 34, 36, 4, 5)] == [40, 30, 40, 0, 10]
    assert [round_to_10(x, five_up=False) for x in (35, 34, 36, 4, 5)] == [30, 30, 40, 0, 0]


def test_contract_failed_minus_contract_and_rounded_points_T25_T26_T24():
    m = strong_1001_failed()
    row = m.scoresheet()[-1]
    assert row["points_raw"] == [14, 106, 0] and row["points"] == [15, 105, 0]
    assert row["scores"] == [15, -120, 0]  # 105 < 120: minus the contract


def test_contract_made_plus_contract_T25():
    m = strong_1000_all()
    row = m.scoresheet()[-1]
    assert row["points_raw"] == [0, 120, 0] and row["scores"] == [0, 120, 0]


def marriage_deal_1001():
    """Seat 1 declares at 100; seat 0 wins the first trick, then declares hearts."""
    m = new("thousand-1001", {1: "AS TS AC TC AD TD 9H", 2: "KS QS JS 9S KC QC JC",
                              0: "KD QD JD 9D KH QH 9C"}, "AH TH JH")
    act(m, "bid:100", "pass", "pass", "give:JH>2", "give:TH>0", "contract:100")
    tricks(m, "9H JH TH")  # seat 0: 12
    return m


def test_opponents_score_points_and_marriages_T26():
    m = marriage_deal_1001()
    tricks(m, "marriage:KH AH 9S")  # hearts are trump; seat 1 wins with AH: 15
    tricks(m, "AS JS QH")  # seat 0 must trump (rule T-21) and wins: 16
    tricks(m, "9C TC JC", "AC QC 9D", "AD KC JD", "TD QS QD", "TS KS KD")  # seat 1: 12+14+17+16+18
    row = m.scoresheet()[-1]
    assert row["points_raw"] == [28, 92, 0] and row["points"] == [30, 90, 0]
    assert row["marriages"] == [[0, "H"]]
    assert row["scores"] == [130, -100, 0]  # 30 + 100 for hearts; 90 < 100


def test_zero_at_850_fined_100_T27():
    m = strong_1000_all(before=[850, 0, 849])
    row = m.scoresheet()[-1]
    assert row["scores"] == [-100, 120, 0] and row["fined"] == [0]
    assert row["totals"] == [750, 120, 849]
    # not in 1001
    m = new("thousand-1001", STRONG, STRONG_TALON)
    set_totals(m, [850, 0, 0])
    act(m, "bid:100", "pass", "pass", "give:JH>2", "give:9H>0", "contract:120")
    tricks(m, "AS 9S 9C", "TS JS 9H", "AC JC 9D", "TC QC JD", "AD KC QD", "TD QS KD",
           "AH JH QH", "TH KS KH")
    assert m.scoresheet()[-1]["scores"] == [0, 120, 0]


def test_scoresheet_row_columns_T28():
    m = strong_1001_failed()
    row = m.scoresheet()[0]
    for key in ("deal", "dealer", "declarer", "bid", "contract", "points_raw", "points",
                "marriages", "scores", "totals", "thrown", "refused", "forced"):
        assert key in row
    assert (row["deal"], row["dealer"], row["declarer"], row["bid"], row["contract"]) == (1, 0, 1, 100, 120)
    assert m.history()[0]["row"] == row and m.history()[0]["talon"] == ["TH", "JH", "9H"]
    assert m.view(2)["last_deal"] == {"deal": 1, "scores": [15, -120, 0]}


# -- end of the match (T-29, T-30) --------------------------------------------------


def test_match_ends_at_goal_and_declarer_wins_a_tie_T29():
    m = new("thousand-1000", STRONG, STRONG_TALON)
    set_totals(m, [1000, 880, 900])
    act(m, "bid:100", "pass", "pass", "contract:120", "give:JH>2", "give:9H>0")
    tricks(m, "AS 9S 9C", "TS JS 9H", "AC JC 9D", "TC QC JD", "AD KC QD", "TD QS KD",
           "AH JH QH", "TH KS KH")
    # seats 0 and 2 score 0 at 850 and are fined (T-27); seat 1 reaches 1000
    assert m.is_over() and m.phase == "match_over" and m.to_act() == []
    assert m.result()["totals"] == [900, 1000, 800] and m.result()["winners"] == [1]


def test_tie_without_the_declarer_is_shared_T29():
    m = new("thousand-1001", STRONG, STRONG_TALON)
    set_totals(m, [986, 1000, 1001])
    act(m, "bid:100", "pass", "pass", "give:JH>2", "give:TH>0", "contract:120")
    tricks(m, *LOSE_LAST)
    assert m.result()["totals"] == [1001, 880, 1001]
    assert m.result()["winners"] == [0, 2]


def test_declarer_in_a_tie_wins_it_T29():
    m = new("thousand-1001", STRONG, STRONG_TALON)
    set_totals(m, [1020, 900, 0])
    act(m, "bid:100", "pass", "pass", "give:JH>2", "give:9H>0", "contract:120")
    tricks(m, "AS 9S 9C", "TS JS 9H", "AC JC 9D", "TC QC JD", "AD KC QD", "TD QS KD",
           "AH JH QH", "TH KS KH")
    assert m.result()["totals"] == [1020, 1020, 0] and m.result()["winners"] == [1]


def test_goal_option_T30_C7():
    schema = {o["name"]: o for o in find_variant("thousand-1001").options_schema()}
    assert schema["goal"] == {"name": "goal", "type": "int", "default": 1001, "rule": "T-30",
                              "label": "Play to", "min": 100, "max": 10000, "step": 1,
                              "group": "match",
                              "description": "The total a player must reach to win the match."}
    assert "round5_up" not in schema
    schema = {o["name"]: o for o in find_variant("thousand-1000-2p").options_schema()}
    assert schema["goal"]["default"] == 1000 and schema["round5_up"]["rule"] == "T-24"
    for bad in (99, 10001, "500", True):
        with pytest.raises(ValueError):
            find_variant("thousand-1000").new_match(3, seed=1, options={"goal": bad})
    with pytest.raises(ValueError):
        find_variant("thousand-1001").new_match(3, seed=1, options={"round5_up": False})
    m = strong_1000_all(options={"goal": 100})
    assert m.is_over() and m.result()["winners"] == [1]
    assert m.view(0)["options"] == {"goal": 100, "round5_up": True}  # rule C-7: stored


def test_seat_counts_and_variants_C1():
    assert find_variant("thousand-1001").seat_counts == (3, 4)
    assert find_variant("thousand-1000-2p").seat_counts == (2,)
    with pytest.raises(ValueError):
        find_variant("thousand-1000-2p").new_match(3, seed=1)


def test_card_codes_on_the_wire_C2():
    m = new("thousand-1001", STRONG, STRONG_TALON)
    act(m, "bid:100", "pass", "pass")
    assert "give:TH>2" in m.legal_actions(1)  # TH: the ten of hearts
    assert all(len(c) == 2 for c in m.view(1)["hand"]) and "TH" in m.view(1)["hand"]
