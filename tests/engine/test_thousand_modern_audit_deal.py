"""Audit scenarios for four and two seats (M-10, M-11, M-20), redeal
requests and the talon strike (M-6, M-13, M-34), golden deals (M-9), the
duties of play (M-15) and the ace marriage (M-17), worked out by hand from
rules/thousand-modern.md."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from tests.engine.modern_audit import (
    LEADS,
    LEADS_PLAIN,
    SECOND,
    STRONG,
    TALON,
    THIRD,
    do,
    legal,
    new,
    one,
    play_out,
    strong,
    strong_deal,
)

# -- four seats (M-1, M-10, M-20) --------------------------------------------


def test_four_seats_sitter_points_M20_M30():
    m = new("thousand-ru", seats=4, presets=[strong(0, 4)])
    v = m.view(None)
    assert v["active"] == [1, 2, 3] and one(m) == 1
    row = strong_deal(m, 220)
    assert row["sitting_out"] == 0 and row["declarer"] == 1
    assert row["points_raw"] == [31, 120, 0, 0] and row["points"] == [30, 120, 0, 0]
    assert row["written"] == [30, 220, 0, 0] and row["totals"] == [30, 220, 0, 0]
    assert row["tricks"] == [0, 8, 0, 0] and row["bolts"] == [0, 0, 1, 1]
    v = m.view(None)
    assert v["dealer"] == 1 and v["active"] == [0, 2, 3] and one(m) == 2


def test_four_seats_sitter_aces_marriage_M20():
    m = new("tysiac-pl", seats=4, presets=[strong(0, 4)])
    row = strong_deal(m, 220)
    assert row["written"] == [50, 220, 0, 0]


@pytest.mark.parametrize("variant,sitter", [("thousand-ru", 20), ("tysiac-pl", 150)])
def test_sitter_example_AS_KH_QH_M20(variant, sitter):
    first = ["AD", "TD", "AC", "TC", "AH", "TH", "TS"]
    m = new(variant, seats=4, presets=[strong(0, 4, hands=(first, SECOND, THIRD), talon=["AS", "KH", "QH"])])
    row = strong_deal(m, 220)
    assert row["written"][0] == sitter and row["written"][1] == 220


def test_four_seats_writeoff_sitter_still_scores_M20_M21():
    m = new("thousand-ru", seats=4, presets=[strong(0, 4)])
    do(m, "bid:100", "pass", "pass", "writeoff")
    row = m.scoresheet()[-1]
    assert row["written"] == [30, -100, 50, 50]
    assert row["points_raw"] == [31, 0, 0, 0] and row["points"] == [30, 0, 0, 0]


def test_four_seats_barrel_sitter_keeps_deals_M25():
    m = new("thousand-ru", seats=4, presets=[strong(0, 4)], start_total_0=880)
    row = strong_deal(m, 220)
    assert row["totals"][0] == 880 and row["barrel_left"][0] == 3 and row["written"][0] == 30


def test_four_seats_knock_off_sitter_M26():
    m = new("thousand-ru", seats=4, presets=[strong(0, 4)], start_total_0=880, start_total_1=800)
    row = strong_deal(m, 220)
    assert row["totals"] == [760, 880, 0, 0]
    assert row["events"][0] == ["knocked_off"] and row["events"][1] == ["barrel_on"]


def test_four_seats_golden_sitter_doubled_M22():
    m = new("thousand-ru", seats=4, presets=[strong(0, 4)], golden=True)
    assert m.view(None)["phase"] == "talon"
    row = strong_deal(m, 120, bids=())
    assert row["golden"] is True and row["written"] == [60, 240, 0, 0]

# -- two seats (M-11) ----------------------------------------------------------

TWO_DECL = ["AS", "TS", "AC", "TC", "AD", "TD", "AH", "TH", "KH", "QH"]
TWO_OPP = ["KS", "QS", "KC", "QC", "JC", "KD", "QD", "JD", "JH", "9H"]
TWO_TALON = ["9C", "9D", "JS", "9S"]
TWO_PLAIN = ["play:AS", "play:KH", "play:QH", "play:AH", "play:TH", "play:TS", "play:AC",
             "play:TC", "play:AD", "play:TD"]
TWO_MARRIAGE = ["play:AS", "marriage:KH", *TWO_PLAIN[2:]]


def two(**options):
    return new("thousand-ru", seats=2, presets=[{"hands": [TWO_OPP, TWO_DECL], "rest": TWO_TALON}],
               **options)


def test_two_seats_take_and_discard_M11_M14():
    m = two()
    do(m, "bid:100", "pass")
    assert sorted(legal(m)) == ["take:bottom", "take:top"]
    v = m.view(None)
    assert v["talon_size"] == 4 and v["phase"] == "talon"
    do(m, "take:top")
    v = m.view(0)
    assert v["face_up"] == ["9C", "9D"] and [None, "show:9C,9D"] in v["log"]
    assert v["hand_sizes"] == [10, 12] and v["talon_size"] == 0
    acts = legal(m)
    assert "writeoff" in acts and len([a for a in acts if a.startswith("discard:")]) == 12
    do(m, "discard:9C")
    assert m.view(0)["log"][-1] == [1, "discard:??"] and m.view(1)["log"][-1] == [1, "discard:9C"]
    do(m, "discard:9D")
    acts = legal(m)
    assert [a for a in acts if a.startswith("contract:")] == [f"contract:{n}" for n in range(100, 221, 5)]
    assert "writeoff" in acts and "strike" not in acts


def test_two_seats_unseen_pair_takes_no_part_M11_M18_M19():
    m = two(blind=False)
    do(m, "bid:100", "pass", "take:top", "discard:9C", "discard:9D", "contract:120")
    play_out(m, TWO_PLAIN)
    row = m.scoresheet()[-1]
    assert row["points_raw"] == [0, 118] and row["points"] == [0, 120]
    assert row["made"] is False and row["written"] == [0, -120] and row["bolts"] == [1, 0]


def test_two_seats_marriage_218_short_of_220_M19():
    m = two(blind=False)
    do(m, "bid:100", "pass", "take:top", "discard:9C", "discard:9D", "contract:220")
    play_out(m, TWO_MARRIAGE)
    row = m.scoresheet()[-1]
    assert row["written"] == [0, -220] and row["marriages"] == [[1, "H"]]


def test_two_seats_declarer_rounds_M19():
    m = two(blind=False, declarer_rounds=True)
    do(m, "bid:100", "pass", "take:top", "discard:9C", "discard:9D", "contract:220")
    play_out(m, TWO_MARRIAGE)
    assert m.scoresheet()[-1]["written"] == [0, 220]


def test_two_seats_bottom_pair_discards_count_M11():
    m = two(blind=False)
    do(m, "bid:100", "pass", "take:bottom")
    assert m.view(1)["face_up"] == ["JS", "9S"]
    do(m, "discard:JS", "discard:9S", "contract:120")
    play_out(m, TWO_PLAIN)
    row = m.scoresheet()[-1]
    assert row["points_raw"] == [0, 120] and row["written"] == [0, 120]

# -- redeal requests (M-6, M-34) -------------------------------------------

NINES = {"hands": [["JS", "JC", "KD", "QD", "JD", "JH", "QC"], list(STRONG),
                   ["9S", "9C", "9D", "9H", "KS", "QS", "KC"]], "rest": list(TALON)}


def test_four_nines_asked_M6():
    m = new("thousand-ru", presets=[NINES], redeal_weak_below=0)
    do(m, "bid:100")  # the opening step comes first when a blind is open (M-5)
    v = m.view(None)
    assert v["phase"] == "strike" and m.to_act() == [2]
    assert sorted(legal(m)) == ["accept", "strike"]
    do(m, "accept")
    assert m.view(None)["phase"] == "bidding" and one(m) == 2 and "pass" in legal(m)


def test_forced_opening_after_requests_M4_M6():
    # without a blind call the forced 100 comes after the requests
    m = new("thousand-ru", presets=[NINES], blind=False)
    assert m.view(None)["phase"] == "strike" and m.to_act() == [2]
    do(m, "accept")
    assert legal(m) == ["bid:100"] and one(m) == 1


def test_strike_voids_deal_same_dealer_M6_M34():
    m = new("thousand-ru", presets=[NINES, strong(0)])
    do(m, "blind:120", "strike")
    v = m.view(1)
    assert v["deal"] == 1 and v["dealer"] == 0 and m.scoresheet() == []
    assert v["phase"] == "bidding" and v["hand"] == [] and v["blind"] is None  # M-5: offered again
    assert sorted(legal(m)) == ["bid:100", "blind:120"] and v["log"] == []
    row = strong_deal(m, 220)
    assert row["deal"] == 1 and row["totals"] == [0, 220, 0]
    h = m.history()[0]
    assert len(h["struck"]) == 1
    s = h["struck"][0]
    assert s["hands"] == NINES["hands"] and s["talon"] == TALON
    assert [a for _, a in s["actions"]] == ["blind:120", "strike"] or s["actions"] == [[1, "blind:120"], [2, "strike"]]
    assert m.view(None)["deal"] == 2


def test_weak_hand_threshold_M6():
    # seat 2 holds 11 points: asked at 12, not at 11
    m = new("tysiac-pl", presets=[NINES], redeal_weak_below=12)
    assert m.view(None)["phase"] == "strike" and m.to_act() == [2]
    m = new("tysiac-pl", presets=[NINES], redeal_weak_below=11)
    assert m.view(None)["phase"] == "bidding" and legal(m) == ["bid:100"]


def test_requests_in_calling_order_M6():
    # seat 2 (11 points) and seat 0 (18) are below 19, seat 1 (60) is not
    m = new("tysiac-pl", presets=[NINES], redeal_weak_below=19)
    assert m.to_act() == [2]
    do(m, "accept")
    assert m.to_act() == [0]
    do(m, "accept")
    assert m.view(None)["phase"] == "bidding" and legal(m) == ["bid:100"]


def test_no_requests_in_pl_M6():
    m = new("tysiac-pl", presets=[NINES])
    assert m.view(None)["phase"] == "bidding"

# -- talon strike (M-13) -----------------------------------------------------

LOW_TALON = {"hands": [["TD", "KD", "QD", "JD", "TH", "JC", "9H"], list(STRONG),
                       ["KS", "QS", "KC", "QC", "AD", "9D", "JS"]], "rest": ["9S", "9C", "JH"]}


def test_talon_strike_M13_M34():
    m = new("thousand-ru", presets=[LOW_TALON, strong(0)], blind=False)
    do(m, "bid:100", "pass", "pass")
    assert "strike" in legal(m) and "writeoff" in legal(m)
    do(m, "strike")
    v = m.view(None)
    assert v["deal"] == 1 and v["dealer"] == 0 and m.scoresheet() == [] and legal(m) == ["bid:100"]
    strong_deal(m, 220)
    assert len(m.history()[0]["struck"]) == 1


def test_talon_strike_closed_after_first_give_M13():
    m = new("thousand-ru", presets=[LOW_TALON], blind=False)
    do(m, "bid:100", "pass", "pass", "give:9S>2")
    assert "strike" not in legal(m)


def test_talon_strike_only_at_100_M13():
    m = new("thousand-ru", presets=[LOW_TALON], blind=False)
    do(m, "bid:100", "bid:105", "pass", "pass")
    assert m.view(None)["declarer"] == 2 and "strike" not in legal(m)


def test_talon_strike_nines_option_M13():
    m = new("tysiac-pl", presets=[LOW_TALON])
    do(m, "bid:100", "pass", "pass")
    assert "strike" not in legal(m)
    m = new("tysiac-pl", presets=[LOW_TALON], redeal_talon_nines=True)
    do(m, "bid:100", "pass", "pass")
    assert "strike" in legal(m)

# -- golden deals (M-9) ------------------------------------------------------


def test_golden_deals_M9_M22_M33():
    m = new("thousand-ru", presets=[strong(d % 3) for d in range(4)], golden=True)
    for deal in range(1, 4):
        v = m.view(None)
        assert v["golden"] is True and v["phase"] == "talon" and v["bids"] == []
        assert v["bid"] == 120 and v["declarer"] == deal % 3
        acts = legal(m)
        assert "writeoff" not in acts and "strike" not in acts
        d = one(m)
        a, b = [s for s in v["active"] if s != d]
        do(m, f"give:AD>{a}", f"give:TD>{b}")
        assert [x for x in legal(m) if x.startswith("contract:")] == ["contract:120"]
        assert "writeoff" not in legal(m)
        do(m, "contract:120")
        play_out(m, LEADS)
        row = m.scoresheet()[-1]
        assert row["golden"] is True and row["bid"] == 120 and row["written"][d] == 240
    assert m.view(None)["totals"] == [240, 240, 240]
    assert m.scoresheet()[0]["bolts"] == [1, 0, 1]
    v = m.view(None)
    assert v["golden"] is False and v["phase"] == "bidding" and sorted(legal(m)) == ["bid:100", "blind:120"]


def test_golden_failed_doubled_and_bolt_after_doubling_M22_M24():
    m = new("thousand-ru", presets=[strong(0)], golden=True)
    do(m, "give:AD>2", "give:TD>0", "contract:120")
    play_out(m, LEADS_PLAIN)  # 120 >= 120: made
    row = m.scoresheet()[-1]
    assert row["written"] == [0, 240, 0] and row["bolts"] == [1, 0, 1]


def test_golden_voided_deal_does_not_count_M9_M34():
    m = new("thousand-ru", presets=[NINES, strong(0)], golden=True, seats=3)
    assert m.view(None)["phase"] == "strike"
    do(m, "strike")
    v = m.view(None)
    assert v["golden"] is True and v["deal"] == 1 and v["phase"] == "talon"


def test_golden_silenced_first_hand_declares_M8_M9():
    m = new("thousand-ru", presets=[strong(0)], golden=True, silence=True, start_total_1=-300)
    v = m.view(None)
    assert v["declarer"] == 1 and v["phase"] == "talon"


def test_golden_on_barrel_contract_120_wins_with_240_M9_M25():
    m = new("thousand-ru", presets=[strong(0)], golden=True, start_total_1=880, barrel_gap=150,
            goal=1030)
    do(m, "give:AD>2", "give:TD>0")
    assert [x for x in legal(m) if x.startswith("contract:")] == ["contract:120"]
    do(m, "contract:120")
    play_out(m, LEADS)
    assert m.is_over() and m.result()["totals"] == [0, 1120, 0]

# -- duties of play (M-15) -----------------------------------------------------

# seat 1 leads AC (both others follow with their only club), then marriage:QD.
TRUMP_LEAD = {"hands": [["TD", "JD", "AS", "TS", "AH", "TH", "JH"],
                        ["AC", "TC", "KC", "QC", "KD", "QD", "9S"],
                        ["AD", "9D", "KS", "QS", "KH", "QH", "9H"]], "rest": ["JC", "9C", "JS"]}
OVERTRUMP = {"hands": [["TD", "JD", "AH", "TH", "KH", "QH", "9H"],
                       ["AC", "TC", "KC", "QC", "KD", "QD", "9D"],
                       ["AD", "AS", "TS", "KS", "QS", "JS", "9S"]], "rest": ["JC", "9C", "JH"]}


def _to_trick2(variant, preset, **options):
    m = new(variant, presets=[preset], blind=False, redeal_talon_below=0, **options)
    do(m, "bid:100", "pass", "pass", "give:9C>2", "give:JC>0", "contract:100",
       "play:AC", "play:9C", "play:JC", "marriage:QD")
    assert m.view(None)["trump"] == "D"
    return m


def test_trump_lead_follow_M15():
    m = _to_trick2("thousand-ru", TRUMP_LEAD)
    assert sorted(legal(m)) == ["play:9D", "play:AD"]
    m = _to_trick2("thousand-ru", TRUMP_LEAD, must_overtrump=True)
    assert sorted(legal(m)) == ["play:9D", "play:AD"]  # following a trump lead: must_beat alone
    m = _to_trick2("tysiac-pl", TRUMP_LEAD)
    assert legal(m) == ["play:AD"]


@pytest.mark.parametrize("variant,expected", [("thousand-ru", ["play:9D", "play:KD"]),
                                              ("tysiac-pl", ["play:KD"])])
def test_must_overtrump_M15(variant, expected):
    m = _to_trick2(variant, OVERTRUMP)
    do(m, "play:AD")
    assert sorted(legal(m)) == ["play:JD", "play:TD"]
    do(m, "play:TD", "play:9S")  # seat 2 won with AD and leads a spade
    assert legal(m) == ["play:JD"]  # seat 0 has no spade: he must trump
    do(m, "play:JD")
    assert sorted(legal(m)) == expected


def test_must_beat_led_suit_M15():
    m = new("tysiac-pl", presets=[OVERTRUMP])
    do(m, "bid:100", "pass", "pass", "give:9C>2", "give:JC>0", "contract:100", "play:QC")
    # seat 2 holds 9C only; seat 0 holds JC only: forced either way
    assert legal(m) == ["play:9C"]


def test_must_beat_unless_trumped_M15():
    m = new("tysiac-pl", presets=[OVERTRUMP], must_overtrump=False)
    do(m, "bid:100", "pass", "pass", "give:9C>2", "give:JC>0", "contract:100",
       "play:AC", "play:9C", "play:JC", "marriage:QD", "play:AD", "play:TD")
    # seat 2 leads 9S: seat 0 trumps with JD; seat 1 has no spade: any trump without must_overtrump
    do(m, "play:9S", "play:JD")
    assert sorted(legal(m)) == ["play:9D", "play:KD"]

# -- the ace marriage (M-17) ----------------------------------------------------


def test_ace_marriage_M17():
    m = new("thousand-ru", presets=[strong(0)], ace_marriage=True, blind=False)
    do(m, "bid:100", "pass", "pass", "give:TD>0", "give:TH>2")
    # cap: 120 + ♥ 100 on AS TS AC TC AH KH QH AD; the aces do not raise it
    assert [a for a in legal(m) if a.startswith("contract:")][-1] == "contract:220"
    do(m, "contract:220")
    assert not [a for a in legal(m) if a.startswith("marriage:")]
    do(m, "play:TS", "play:9S", "play:JS")
    acts = set(legal(m))
    assert {"marriage:AS", "marriage:AC", "marriage:AD", "marriage:AH", "marriage:KH", "marriage:QH"} <= acts
    do(m, "marriage:AD")
    v = m.view(None)
    assert v["trump"] is None and v["marriages"] == [[1, "A"]]
    play_out(m, ["play:AS", "play:AC", "play:TC", "play:AH", "play:KH", "play:QH"])
    row = m.scoresheet()[-1]
    assert row["marriages"] == [[1, "A"]] and row["points_raw"] == [0, 120, 0]
    assert row["written"] == [0, 220, 0]


def test_ace_marriage_off_by_default_M17():
    m = new("thousand-ru", presets=[strong(0)], blind=False)
    do(m, "bid:100", "pass", "pass", "give:TD>0", "give:TH>2", "contract:100",
       "play:TS", "play:9S", "play:JS")
    assert not [a for a in legal(m) if a.startswith("marriage:A")]


def test_marriage_only_while_holding_both_M16():
    m = new("thousand-ru", presets=[strong(0)], blind=False)
    do(m, "bid:100", "pass", "pass", "give:AD>2", "give:QH>0", "contract:100",
       "play:AS", "play:KS", "play:JS")
    assert not [a for a in legal(m) if a.startswith("marriage:")]
    with pytest.raises(IllegalAction):
        m.apply(1, "marriage:KH")


# -- an opponent's marriage (M-16, M-19), two seats ------------------------------

OPP_DECL = ["AS", "TS", "AC", "TC", "AD", "TD", "AH", "TH", "9S", "JS"]
OPP_OPP = ["KS", "QS", "KC", "QC", "KD", "QD", "KH", "QH", "JC", "JD"]
OPP_TALON = ["9C", "9D", "JH", "9H"]


@pytest.mark.parametrize("variant,points,written0", [("thousand-ru", [5, 115], 105),
                                                      ("tysiac-pl", [0, 110], 100)])
def test_opponent_marriage_counts_for_him_M16_M19(variant, points, written0):
    m = new(variant, seats=2, presets=[{"hands": [OPP_OPP, OPP_DECL], "rest": OPP_TALON}], blind=False)
    do(m, "bid:100", "pass", "take:top", "discard:9C", "discard:9D", "contract:100")
    do(m, "play:9S", "play:KS")  # seat 0 takes the first trick (4 points)
    assert one(m) == 0 and "marriage:KH" in legal(m)
    do(m, "marriage:KH", "play:AH", "play:TH", "play:QH")
    assert m.view(None)["trump"] == "H"
    play_out(m, ["play:AS", "play:TS", "play:AC", "play:TC", "play:AD", "play:TD", "play:JS"])
    row = m.scoresheet()[-1]
    assert row["tricks"] == [1, 9] and row["points_raw"] == [4, 114] and row["points"] == points
    assert row["marriages"] == [[0, "H"]]
    assert row["written"] == [written0, 100] and row["made"] is True


def test_golden_two_seats_M9():
    m = new("thousand-ru", seats=2, golden=True,
            presets=[{"hands": [TWO_OPP, TWO_DECL], "rest": TWO_TALON}])
    v = m.view(None)
    assert v["phase"] == "talon" and v["declarer"] == 1 and v["bid"] == 120
    assert sorted(legal(m)) == ["take:bottom", "take:top"]
    do(m, "take:bottom")
    assert "writeoff" not in legal(m)
    do(m, "discard:JS", "discard:9S")
    assert legal(m) == ["contract:120"]
    do(m, "contract:120")
    play_out(m, TWO_PLAIN)
    row = m.scoresheet()[-1]
    assert row["golden"] is True and row["written"] == [0, 240] and row["bolts"] == [1, 0]


def test_history_of_deal_after_strike_holds_played_hands_M34():
    m = new("thousand-ru", presets=[NINES, strong(0)])
    do(m, "bid:100", "strike")
    strong_deal(m, 220)
    h = m.history()[0]
    assert h["hands"] == strong(0)["hands"] and h["talon"] == TALON
    assert h["struck"][0]["hands"] == NINES["hands"] and h["row"]["deal"] == 1


def test_contract_when_cap_fell_below_the_bid_M12():
    # seat 2 wins at 220 on his two marriages, then gives KS and KC away: cap 120, so
    # the winning bid is his only contract
    m = new("thousand-ru", presets=[strong(0)], blind=False)
    do(m, "bid:100", "bid:220", "pass", "pass", "give:KS>0", "give:KC>1")
    assert [a for a in legal(m) if a.startswith("contract:")] == ["contract:220"]


# -- a trick worth 2 points (M-18, M-24), two seats ---------------------------------

Z_DECL = ["AS", "TS", "KS", "QS", "9S", "AC", "TC", "AD", "TD", "AH"]
Z_OPP = ["JS", "KC", "QC", "JC", "KD", "QD", "JD", "KH", "QH", "JH"]
Z_TALON = ["9C", "9D", "TH", "9H"]


@pytest.mark.parametrize("bolts,expected", [("zero_score", [1, 0]), ("zero_tricks", [0, 0])])
def test_two_point_trick_rounds_to_a_bolt_M18_M24(bolts, expected):
    m = new("thousand-ru", seats=2, presets=[{"hands": [Z_OPP, Z_DECL], "rest": Z_TALON}], blind=False,
            bolts=bolts)
    do(m, "bid:100", "pass", "take:top", "discard:9C", "discard:9D", "contract:100",
       "play:9S", "play:JS", "play:KC", "play:AC")
    play_out(m, ["play:AS", "play:TS", "play:KS", "play:QS", "play:TC", "play:AD", "play:TD", "play:AH"])
    row = m.scoresheet()[-1]
    assert row["tricks"] == [1, 9] and row["points_raw"] == [2, 108] and row["points"] == [0, 110]
    assert row["written"] == [0, 100] and row["bolts"] == expected


def test_two_seats_writeoff_after_contract_M14_M21():
    m = two(blind=False)
    do(m, "bid:100", "pass", "take:top", "discard:9C", "discard:9D", "contract:135")
    assert "writeoff" in legal(m)  # at his first lead
    do(m, "writeoff")
    row = m.scoresheet()[-1]
    assert row["written"] == [70, -135] and row["contract"] == 135 and row["made"] is None


def test_writeoff_at_first_lead_three_seats_M14_M21():
    m = new("thousand-ru", presets=[strong(0)], blind=False)
    do(m, "bid:100", "pass", "pass", "give:AD>2", "give:TD>0", "contract:160", "writeoff")
    row = m.scoresheet()[-1]
    assert row["written"] == [80, -160, 80] and row["contract"] == 160
    assert row["tricks"] == [0, 0, 0] and row["bolts"] == [0, 0, 0]


def test_blind_four_seats_strike_offered_again_M5_M6():
    nines4 = {"hands": [[], *NINES["hands"][1:], NINES["hands"][0]], "rest": list(TALON)}
    m = new("thousand-ru", seats=4, presets=[nines4, strong(0, 4)])
    do(m, "blind:120")
    assert m.view(None)["phase"] == "strike" and m.to_act() == [2]
    do(m, "strike")
    assert sorted(legal(m)) == ["bid:100", "blind:120"] and m.to_act() == [1]
    do(m, "blind:120", "pass", "pass")
    assert m.view(None)["declarer"] == 1 and m.view(None)["blind"] == 1


def test_must_beat_lifted_once_trumped_M15():
    m = new("tysiac-pl", presets=[TRUMP_LEAD])
    do(m, "bid:100", "pass", "pass", "give:9C>2", "give:JC>0", "contract:100",
       "play:AC", "play:9C", "play:JC", "marriage:QD", "play:AD", "play:TD")
    do(m, "play:KS")
    assert sorted(legal(m)) == ["play:AS", "play:TS"]  # must beat KS
    do(m, "play:AS", "play:9S")
    assert one(m) == 0
    do(m, "play:JH")
    assert legal(m) == ["play:KD"]  # no heart: must trump
    do(m, "play:KD")
    assert sorted(legal(m)) == ["play:9H", "play:KH", "play:QH"]  # trumped: any heart


def test_gives_hidden_from_sitter_and_hand_sorted_M10_ENGINE_API():
    m = new("thousand-ru", seats=4, presets=[strong(0, 4)], blind=False)
    do(m, "bid:100", "pass", "pass", "give:AD>2", "give:TD>3")
    assert m.view(0)["log"][-2:] == [[1, "give:??>2"], [1, "give:??>3"]]
    assert m.view(None)["log"][-2:] == [[1, "give:??>2"], [1, "give:??>3"]]
    assert m.view(3)["log"][-2:] == [[1, "give:??>2"], [1, "give:TD>3"]]
    assert m.view(0)["hand"] == [] and m.view(0)["hand_sizes"] == [0, 8, 8, 8]
    assert m.view(1)["hand"] == ["AS", "TS", "AC", "TC", "AH", "TH", "KH", "QH"]
    assert m.view(2)["hand"] == ["KS", "QS", "9S", "KC", "QC", "9C", "AD", "9D"]


def test_talon_strike_four_seats_sitter_scores_nothing_M13_M34():
    low4 = {"hands": [[], *LOW_TALON["hands"][1:], LOW_TALON["hands"][0]], "rest": LOW_TALON["rest"]}
    m = new("thousand-ru", seats=4, presets=[low4, strong(0, 4)], blind=False)
    do(m, "bid:100", "pass", "pass", "strike")
    v = m.view(None)
    assert m.scoresheet() == [] and v["totals"] == [0, 0, 0, 0] and v["deal"] == 1
    assert v["last_deal"]["scores"] == [0, 0, 0, 0]
    row = strong_deal(m, 220)
    assert row["written"] == [30, 220, 0, 0] and len(m.history()[0]["struck"]) == 1
