"""Audit scenarios for the order of applying a deal (M-23), the frozen and
open barrel (M-25 … M-27), the dump (M-28), the end (M-29) and the start
totals (M-31), worked out by hand from rules/thousand-modern.md."""

from __future__ import annotations

import pytest

from tests.engine.modern_audit import (
    LEADS,
    LEADS_PLAIN,
    LOSE1,
    do,
    legal,
    lose1_deal,
    new,
    play_out,
    strong,
    strong_deal,
)


def test_barrel_floor_and_getting_off_M12_M25_M29():
    m = new("thousand-ru", presets=[strong(0)], start_total_1=880)
    v = m.view(None)
    assert v["on_barrel"] == [False, True, False] and v["barrel_left"] == [None, 3, None]
    assert legal(m) == ["bid:100"]  # M-5: no blind while a seat is on the barrel
    do(m, "bid:100", "pass", "pass", "give:AD>2", "give:TD>0")
    contracts = [a for a in legal(m) if a.startswith("contract:")]
    assert contracts == [f"contract:{n}" for n in range(120, 221, 5)]
    do(m, "contract:120")
    play_out(m, LEADS)
    row = m.scoresheet()[-1]
    assert row["written"] == [0, 120, 0] and row["totals"] == [0, 1000, 0]
    assert row["events"] == [["bolt"], ["barrel_off"], ["bolt"]]
    assert row["on_barrel"] == [False, False, False] and row["barrel_left"] == [None, None, None]
    assert m.is_over() and m.result() == {"totals": [0, 1000, 0], "winners": [1], "goal": 1000,
                                          "places": [2, 1, 2]}
    v = m.view(None)
    assert v["phase"] == "match_over" and v["golden"] is False and m.to_act() == []


def test_barrel_floor_goal_strict_M12():
    m = new("thousand-ru", presets=[strong(0)], start_total_1=880, goal_strict=True)
    do(m, "bid:100", "pass", "pass", "give:AD>2", "give:TD>0")
    assert [a for a in legal(m) if a.startswith("contract:")][0] == "contract:125"
    m = new("tysiac-pl", presets=[strong(0)], barrel="frozen", barrel_gap=120, start_total_1=880,
            goal_strict=True)
    do(m, "bid:100", "pass", "pass", "give:AD>2", "give:TD>0")
    assert [a for a in legal(m) if a.startswith("contract:")][0] == "contract:130"


def test_barrel_floor_above_cap_M12():
    # seat 1 on the barrel holding no marriage after giving KH and QH away: cap 120 but
    # with a gap of 150 the floor 150 is still offered (and is the only contract)
    m = new("thousand-ru", presets=[strong(0)], barrel_gap=150, start_total_1=850)
    do(m, "bid:100", "pass", "pass", "give:KH>2", "give:QH>0")
    assert [a for a in legal(m) if a.startswith("contract:")] == ["contract:150"]


def test_barrel_failed_contract_keep_M25():
    m = new("thousand-ru", presets=[strong(0)], start_total_1=880)
    row = strong_deal(m, 220, leads=LEADS_PLAIN)  # 120 < 220: fails
    assert row["written"] == [0, -220, 0] and row["totals"] == [0, 880, 0]
    assert row["scores"] == [0, 0, 0] and row["events"] == [["bolt"], [], ["bolt"]]
    assert row["on_barrel"] == [False, True, False] and row["barrel_left"] == [None, 2, None]
    assert not m.is_over()


def test_barrel_failed_contract_minus_M25_M26():
    m = new("thousand-ru", presets=[strong(0)], start_total_1=880, barrel_fail="minus")
    row = strong_deal(m, 220, leads=LEADS_PLAIN)
    assert row["totals"] == [0, 660, 0] and row["falls"] == [0, 1, 0]
    assert row["events"][1] == ["barrel_fall"]
    assert row["on_barrel"] == [False, False, False] and row["barrel_left"] == [None, None, None]


# M-21: "Let A be the contract if one was named, else the winning bid." The barrel
# floor (M-12) only bounds the contracts a barrel seat may name; before a contract is
# named A is the bid, on the barrel or not. Seat 1 declares at 100 throughout.
GIVES = ("give:AD>2", "give:TD>0")


@pytest.mark.parametrize("on_barrel", [True, False])
@pytest.mark.parametrize("after_gives", [False, True])
def test_writeoff_before_the_contract_uses_winning_bid_M21(on_barrel, after_gives):
    m = new("thousand-ru", presets=[strong(0)], start_total_1=880 if on_barrel else 0)
    do(m, "bid:100", "pass", "pass", *(GIVES if after_gives else ()), "writeoff")
    row = m.scoresheet()[-1]
    assert row["contract"] is None and row["bid"] == 100 and row["writeoff"]
    assert row["written"] == [50, -100, 50]  # half: 5 x ceil(100 / 10) = 50 each
    if on_barrel:  # M-25 rule 3 (barrel_fail keep): his score is lost, a barrel deal used
        assert row["totals"] == [50, 880, 50] and row["barrel_left"] == [None, 2, None]
    else:
        assert row["totals"] == [50, -100, 50]


@pytest.mark.parametrize("on_barrel", [True, False])
def test_writeoff_after_the_contract_uses_contract_M21(on_barrel):
    # on the barrel the lowest contract is the floor 120 (M-12); 130 for both cases
    m = new("thousand-ru", presets=[strong(0)], start_total_1=880 if on_barrel else 0)
    do(m, "bid:100", "pass", "pass", *GIVES, "contract:130", "writeoff")
    row = m.scoresheet()[-1]
    assert row["contract"] == 130 and row["written"] == [65, -130, 65]  # 5 x ceil(13) = 65


def test_writeoff_at_the_barrel_floor_contract_M21_M12():
    m = new("thousand-ru", presets=[strong(0)], start_total_1=880)
    do(m, "bid:100", "pass", "pass", *GIVES, "contract:120", "writeoff")
    row = m.scoresheet()[-1]
    assert row["contract"] == 120 and row["written"] == [60, -120, 60]
    assert row["totals"] == [60, 880, 60] and row["barrel_left"] == [None, 2, None]


@pytest.mark.parametrize("named,amount", [(False, 100), (True, 120)])
def test_writeoff_on_the_barrel_minus_falls_by_A_M21_M25(named, amount):
    # barrel_fail minus (M-25 rule 2): T + written, a fall with no further penalty
    m = new("thousand-ru", presets=[strong(0)], start_total_1=880, barrel_fail="minus")
    do(m, "bid:100", "pass", "pass", *GIVES, *(["contract:120"] if named else []), "writeoff")
    row = m.scoresheet()[-1]
    assert row["written"][1] == -amount and row["totals"][1] == 880 - amount
    assert row["events"][1] == ["barrel_fall"] and row["falls"] == [0, 1, 0]


@pytest.mark.parametrize("named", [False, True])
def test_writeoff_bomb_and_sixty_on_the_barrel_M21(named):
    # bomb: the declarer writes 0; sixty: each opponent 60 whatever A is
    m = new("thousand-ru", presets=[strong(0)], start_total_1=880, writeoff="bomb",
            writeoff_pays="sixty")
    do(m, "bid:100", "pass", "pass", *GIVES, *(["contract:120"] if named else []), "writeoff")
    row = m.scoresheet()[-1]
    assert row["written"] == [60, 0, 60] and row["totals"] == [60, 880, 60]
    assert row["barrel_left"] == [None, 2, None]


def test_writeoff_bomb_with_half_pays_half_the_bid_M21():
    m = new("thousand-ru", presets=[strong(0)], start_total_1=880, writeoff="bomb")
    do(m, "bid:100", "pass", "pass", *GIVES, "writeoff")
    assert m.scoresheet()[-1]["written"] == [50, 0, 50]


def test_barrel_three_deals_then_fall_M25():
    m = new("thousand-ru", presets=[strong(0), strong(1), strong(2)], start_total_2=880)
    r1 = strong_deal(m, 220)
    assert r1["totals"] == [0, 220, 880] and r1["bolts"] == [1, 0, 0]
    assert r1["events"] == [["bolt"], [], []] and r1["barrel_left"] == [None, None, 2]
    assert m.view(None)["barrel_left"] == [None, None, 2]
    do(m, "bid:100", "pass", "pass", "writeoff")  # deal 2: seat 2 on the barrel writes off
    r2 = m.scoresheet()[-1]
    assert r2["written"] == [50, 50, -100] and r2["totals"] == [50, 270, 880]  # M-21: A = bid
    assert r2["barrel_left"] == [None, None, 1]
    r3 = strong_deal(m, 220)  # deal 3: seat 0 declares, seat 2's last barrel deal
    assert r3["totals"] == [270, 270, 760] and r3["scores"] == [220, 0, -120]
    assert r3["falls"] == [0, 0, 1] and r3["events"] == [[], ["bolt"], ["barrel_fall"]]
    assert r3["on_barrel"] == [False, False, False] and r3["barrel_left"] == [None, None, None]
    assert m.view(None)["falls"] == [0, 0, 1]


def test_mounting_loses_points_above_T_M25():
    m = new("thousand-ru", presets=[strong(2)], dealer=2, start_total_0=800)
    row = strong_deal(m, 220)
    assert row["declarer"] == 0 and row["written"] == [220, 0, 0]
    assert row["totals"] == [880, 0, 0] and row["scores"] == [80, 0, 0]
    assert row["events"] == [["barrel_on"], ["bolt"], ["bolt"]]
    assert row["on_barrel"] == [True, False, False] and row["barrel_left"] == [3, None, None]
    assert not m.is_over()


def test_no_jump_over_the_barrel_even_past_goal_M25():
    m = new("thousand-ru", presets=[strong(2)], dealer=2, start_total_0=870)
    row = strong_deal(m, 220)  # 870 + 220 = 1090 >= goal, but he was not on the barrel
    assert row["totals"] == [880, 0, 0] and not m.is_over()


def test_knock_off_M26():
    m = new("thousand-ru", presets=[strong(2)], dealer=2, start_total_0=800, start_total_1=880)
    row = strong_deal(m, 220)
    assert row["totals"] == [880, 760, 0] and row["scores"] == [80, -120, 0]
    assert row["events"] == [["barrel_on"], ["knocked_off"], ["bolt"]]
    assert row["falls"] == [0, 1, 0] and row["bolts"] == [0, 0, 1]
    assert row["on_barrel"] == [True, False, False] and row["barrel_left"] == [3, None, None]


def test_no_knock_off_option_M26():
    m = new("thousand-ru", presets=[strong(2)], dealer=2, start_total_0=800, start_total_1=880,
            barrel_knockoff=False)
    row = strong_deal(m, 220)
    assert row["totals"] == [880, 880, 0] and row["events"] == [["barrel_on"], [], ["bolt"]]
    assert row["on_barrel"] == [True, True, False] and row["barrel_left"] == [3, 2, None]


def test_two_mount_together_M26():
    # seat 0 declares 220 from 800; seat 1 takes 0 ... both cannot mount in the strong deal,
    # so mount one with a start total of exactly T - 0: seat 2 at 880 is on the barrel (B),
    # seat 0 mounts and knocks him off; seat 1 gets a bolt.
    m = new("thousand-ru", presets=[strong(2)], dealer=2, start_total_0=800, start_total_2=880)
    row = strong_deal(m, 220)
    assert row["totals"] == [880, 0, 760]
    assert row["events"] == [["barrel_on"], ["bolt"], ["knocked_off"]]


def test_third_fall_zeroes_M26():
    opts = {"barrel_deals": 1, "barrel_penalty": 0, "bolts": "off", "start_total_2": 880}
    m = new("thousand-ru", presets=[strong(d % 3) for d in range(5)], **opts)
    r1 = strong_deal(m, 220)  # seat 2 in B as opponent: his one barrel deal used, falls
    assert r1["totals"] == [0, 220, 880] and r1["events"][2] == ["barrel_fall"]
    assert r1["falls"] == [0, 0, 1] and r1["on_barrel"] == [False, False, False]
    r2 = strong_deal(m, 220)  # seat 2 declares from 880 (not in B): mounts
    assert r2["totals"] == [0, 220, 880] and r2["events"][2] == ["barrel_on"]
    assert not m.is_over()
    r3 = strong_deal(m, 220)  # seat 0 declares; seat 2 falls again
    assert r3["totals"] == [220, 220, 880] and r3["falls"] == [0, 0, 2]
    r4 = strong_deal(m, 220)  # seat 1 declares; seat 2 (not in B) mounts with 0
    assert r4["totals"] == [220, 440, 880] and r4["events"][2] == ["barrel_on"]
    do(m, "bid:100", "pass", "pass", "writeoff")  # deal 5: seat 2 on the barrel writes off
    r5 = m.scoresheet()[-1]
    assert r5["written"] == [50, 50, -100]  # M-21: no contract named, A = the bid
    assert r5["events"][2] == ["barrel_fall", "zeroed"]
    assert r5["totals"] == [270, 490, 0] and r5["falls"] == [0, 0, 0]


def test_third_fall_none_counts_only_M26():
    opts = {"barrel_deals": 1, "barrel_penalty": 0, "bolts": "off", "start_total_2": 880,
            "barrel_third_fall": "none"}
    m = new("thousand-ru", presets=[strong(d % 3) for d in range(5)], **opts)
    for _ in range(4):
        strong_deal(m, 220)
    do(m, "bid:100", "pass", "pass", "writeoff")
    r5 = m.scoresheet()[-1]
    assert r5["events"][2] == ["barrel_fall"] and r5["totals"][2] == 880 and r5["falls"][2] == 3


def test_open_barrel_opponent_adds_nothing_M27():
    m = new("tysiac-pl", presets=[LOSE1], start_total_0=800)
    assert m.view(None)["on_barrel"] == [True, False, False]
    row = lose1_deal(m, 100)
    assert row["written"] == [10, 100, 0] and row["totals"] == [800, 100, 0]
    assert row["scores"] == [0, 100, 0] and row["on_barrel"] == [True, False, False]
    assert row["barrel_left"] == [None, None, None] and row["events"] == [[], [], []]


def test_open_barrel_own_contract_counts_M27():
    m = new("tysiac-pl", presets=[LOSE1], start_total_1=850)
    row = lose1_deal(m, 110)  # raw 107 < 110: -110
    assert row["totals"] == [10, 740, 0] and row["on_barrel"] == [False, False, False]
    m = new("tysiac-pl", presets=[LOSE1], start_total_1=900)
    row = lose1_deal(m, 100)
    assert row["totals"] == [10, 1000, 0] and m.is_over()
    assert m.result()["winners"] == [1]


def test_open_barrel_no_bolts_M27_M24():
    m = new("tysiac-pl", presets=[strong(0)], bolts="zero_score", start_total_2=800)
    row = strong_deal(m, 220)
    assert row["bolts"] == [1, 0, 0] and row["totals"] == [0, 220, 800]


def test_barrel_off_M27():
    m = new("thousand-ru", presets=[strong(0)], barrel="off", start_total_1=900)
    v = m.view(None)
    assert v["on_barrel"] == [False, False, False] and v["barrel_left"] == [None, None, None]
    do(m, "blind:120", "pass", "pass")  # the blind is open: nobody is on a barrel
    row = strong_deal(m, 120, bids=())
    assert row["totals"] == [0, 1140, 0] and m.is_over()


def test_dump_start_total_M28():
    m = new("thousand-ru", presets=[strong(0)], start_total_0=555)
    row = strong_deal(m, 220)
    assert row["totals"] == [0, 220, 0] and row["scores"] == [-555, 220, 0]
    assert row["events"][0] == ["bolt", "dump"]


def test_dump_reaching_555_M28():
    m = new("thousand-ru", presets=[strong(0)], start_total_1=335)
    row = strong_deal(m, 220)
    assert row["totals"] == [0, 0, 0] and row["scores"] == [0, -335, 0]
    assert row["events"][1] == ["dump"]


def test_dump_negative_M28():
    m = new("thousand-ru", presets=[strong(0)], start_total_1=-335)
    row = strong_deal(m, 220, leads=LEADS_PLAIN)
    assert row["totals"] == [0, -555, 0]
    m = new("thousand-ru", presets=[strong(0)], start_total_1=-335, dump_negative=True)
    row = strong_deal(m, 220, leads=LEADS_PLAIN)
    assert row["totals"] == [0, 0, 0] and row["events"][1] == ["dump"]


def test_dump_off_in_pl_M28():
    m = new("tysiac-pl", presets=[strong(0)], start_total_1=335)
    row = strong_deal(m, 220)
    assert row["totals"] == [0, 555, 0]


def test_no_dump_on_frozen_barrel_M28():
    # goal 675: T = 555; seat 1 mounts at 555 and is not dumped
    m = new("thousand-ru", presets=[strong(0)], goal=675, start_total_1=335)
    row = strong_deal(m, 220)
    assert row["totals"] == [0, 555, 0] and row["events"][1] == ["barrel_on"]
    m = new("thousand-ru", presets=[strong(0)], goal=675, start_total_2=555)
    row = strong_deal(m, 220)
    assert row["totals"] == [0, 220, 555] and row["events"][2] == []


def test_goal_reached_without_barrel_M29():
    m = new("thousand-ru", presets=[strong(0)], barrel="off", blind=False, start_total_1=780)
    strong_deal(m, 220)
    assert m.is_over() and m.result() == {"totals": [0, 1000, 0], "winners": [1], "goal": 1000,
                                          "places": [2, 1, 2]}


def test_goal_strict_needs_more_M29():
    m = new("thousand-ru", presets=[strong(0)], barrel="off", blind=False, start_total_1=780,
            goal_strict=True)
    strong_deal(m, 220)
    assert not m.is_over() and m.view(None)["totals"] == [0, 1000, 0]


def test_tie_goes_to_declarer_M29():
    m = new("thousand-ru", presets=[LOSE1], barrel="off", blind=False, start_total_0=985,
            start_total_1=900)
    lose1_deal(m, 100)
    assert m.result() == {"totals": [1000, 1000, 0], "winners": [1], "goal": 1000,
                          "places": [2, 1, 3]}  # the other 1000 is second


def test_tie_without_declarer_shares_M29():
    m = new("thousand-ru", presets=[strong(0)], barrel="off", blind=False, start_total_0=950,
            start_total_2=950)
    do(m, "bid:100", "pass", "pass", "writeoff")
    assert m.result() == {"totals": [1000, -100, 1000], "winners": [0, 2], "goal": 1000,
                          "places": [1, 3, 1]}


def test_highest_total_wins_M29():
    m = new("thousand-ru", presets=[strong(0)], barrel="off", blind=False, start_total_0=990,
            start_total_2=960)
    do(m, "bid:100", "pass", "pass", "writeoff")
    assert m.result()["winners"] == [0] and m.result()["totals"] == [1040, -100, 1010]


@pytest.mark.parametrize("opts", [
    {"start_total_3": 5},  # no such seat with 3 seats
    {"start_total_0": 1000},  # at the goal
    {"start_total_0": 885},  # above T on the frozen barrel
    {"goal": 200, "barrel_gap": 200},  # gap not below the goal
    {"start_total_0": 3},  # not a multiple of 5
    {"nonsense": 1},
    {"bid_step": 7},
])
def test_bad_options_raise_M31_M35(opts):
    with pytest.raises(ValueError):
        new("thousand-ru", **opts)


@pytest.mark.parametrize("variant,opts", [
    ("thousand-ru", {"start_total_3": 0}),
    ("thousand-ru", {"start_total_0": 880}),
    ("thousand-ru", {"barrel": "off", "goal": 100, "barrel_gap": 500}),
    ("tysiac-pl", {"start_total_0": 990}),
    ("thousand-ru", {"start_total_0": -1000}),
])
def test_good_options_M31_M35(variant, opts):
    m = new(variant, **opts)
    assert m.view(None)["totals"][0] == opts.get("start_total_0", 0)


def test_start_totals_in_view_M31_M33():
    m = new("tysiac-pl", seats=4, start_total_0=100, start_total_3=-50)
    assert m.view(None)["totals"] == [100, 0, 0, -50]


def test_two_seats_start_on_the_barrel_M31_M26():
    # both start at T; nobody mounts in deal 1, so nobody is knocked off
    m = new("thousand-ru", presets=[strong(0)], start_total_0=880, start_total_2=880)
    v = m.view(None)
    assert v["on_barrel"] == [True, False, True] and v["barrel_left"] == [3, None, 3]
    row = strong_deal(m, 220)
    assert row["totals"] == [880, 220, 880] and row["barrel_left"] == [2, None, 2]
    assert row["events"] == [[], [], []] and row["bolts"] == [0, 0, 0]
