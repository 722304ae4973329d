"""Modern Тысяча: scoring a deal, worked deals with preset hands — rounding,
written scores, the sitter, write-offs, doubling, the order of M-23, bolts,
the frozen and the open barrel, knock-off, the third fall, the dump, the end
and the scoresheet row (rules M-18 … M-31 of thousand-modern.md)."""

from __future__ import annotations

import pytest

from .test_thousand_modern import DEAL98, act, drive_bidding, new, play98, play_sweep, preset, sweep

#: DEAL98 again, but seat 1 takes the last trick with JC (9C JC 9S: 2 points).
PLAY2 = ("0 play:AH", "1 play:9D", "2 play:AS", "0 marriage:KH", "1 play:QD", "2 play:JD",
         "0 play:QH", "1 play:KD", "2 play:TD", "0 play:TH", "1 play:AC", "2 play:JS",
         "0 play:JH", "1 play:QC", "2 play:QS", "0 play:9H", "1 play:KC", "2 play:KS",
         "0 play:AD", "1 play:TC", "2 play:TS", "0 play:9C", "1 play:JC", "2 play:9S")


def declare(m, seat: int = 0) -> None:
    drive_bidding(m, seat)


# -- M-18, M-19: rounding and written scores ---------------------------------------


def test_rounding_M18():
    ru = new(3)
    assert [ru._round(p) for p in (37, 38, 98, 22, 2, 3)] == [35, 40, 100, 20, 0, 5]
    pl = new(3, variant="tysiac-pl")
    assert [pl._round(p) for p in (25, 24, 26, 98)] == [30, 20, 30, 100]
    assert new(3, variant="tysiac-pl", round5_up=False)._round(25) == 20


@pytest.mark.parametrize("variant", ["thousand-ru", "tysiac-pl"])
def test_raw_98_does_not_make_200_M19(variant):
    m = new(3, variant=variant, presets=[DEAL98], bolts="off")
    declare(m)
    row = play98(m, 200)  # 98 raw + the ♥ marriage = 198
    assert row["points_raw"] == [98, 22, 0] and row["points"] == [100, 20, 0]
    assert row["tricks"] == [7, 1, 0] and row["marriages"] == [[0, "H"]]
    assert row["written"] == [-200, 20, 0] and row["made"] is False
    assert row["scores"] == [-200, 20, 0] and row["totals"] == [-200, 20, 0]


def test_declarer_rounds_makes_it_M19():
    m = new(3, presets=[DEAL98], declarer_rounds=True, bolts="off")
    declare(m)
    row = play98(m, 200)  # 98 → 100, + 100
    assert row["written"] == [200, 20, 0] and row["made"] is True


# -- M-20, M-21, M-22: the sitter, write-offs, doubling ------------------------------


@pytest.mark.parametrize("sitter,expected", [("points", 20), ("aces_marriage", 150)])
def test_sitting_out_dealer_M20(sitter, expected):
    m = new(4, presets=[preset(4, 3, {}, talon="AS KH QH")], sitter_scores=sitter)
    declare(m)
    act(m, "0 writeoff")  # played out or written off, he writes the same
    row = m.scoresheet()[0]
    assert row["sitting_out"] == 3 and row["written"][3] == expected
    assert row["points_raw"][3] == 18 and row["points"][3] == 20


@pytest.mark.parametrize("amount,half", [(105, 55), (115, 60), (120, 60), (125, 65)])
def test_writeoff_pays_half_raised_to_5_M21(amount, half):
    m = new(3, bid_cap="none")
    act(m, "0 bid:100", f"1 bid:{amount}", "2 pass", "0 pass", "1 writeoff")
    row = m.scoresheet()[0]
    assert row["written"] == [half, -amount, half] and row["contract"] is None
    assert row["points"] == [0, 0, 0] and row["tricks"] == [0, 0, 0] and row["writeoff"]


def test_writeoff_amounts_M21_M14():
    m = new(3)  # 100 → 50 each
    declare(m)
    act(m, "0 writeoff")
    assert m.scoresheet()[0]["written"] == [-100, 50, 50]
    m = new(3, presets=[DEAL98])  # after the contract: A is the contract
    declare(m)
    act(m, "0 give:KD>1", "0 give:TD>2", "0 contract:140", "0 writeoff")
    assert m.scoresheet()[0]["written"] == [-140, 70, 70]
    assert m.scoresheet()[0]["contract"] == 140
    m = new(3, writeoff="bomb", writeoff_pays="sixty")  # bomba: 0, 60 each
    declare(m)
    act(m, "0 writeoff")
    assert m.scoresheet()[0]["written"] == [0, 60, 60]
    assert m.scoresheet()[0]["writeoffs"] == [1, 0, 0]
    m = new(3, start_total_0=880)  # on the barrel, no contract named: A is the bid
    declare(m)
    act(m, "0 writeoff")
    assert m.scoresheet()[0]["written"] == [-100, 50, 50]


def test_golden_doubles_every_seat_the_sitter_too_M22():
    m = new(4, presets=[sweep(3, 4)], golden=True)
    row = play_sweep(m, 120)
    assert row["golden"] and row["written"] == [240, 0, 0, 50]  # talon AD TD KD: 25 → 50


# -- M-23, M-24: the order of a deal, bolts -----------------------------------------


def sweeps(count: int, **opts):
    """``count`` sweeps, the dealer passing left from seat 2 (first hands 0, 1, 2, 0 ...)."""
    m = new(3, presets=[sweep((2 + k) % 3, 3) for k in range(count)], **opts)
    for _ in range(count):
        declare(m, m.calling[0])
        play_sweep(m, 100)
    return m


def test_bolts_every_third_M24_M23():
    m = sweeps(4, dump=False)
    rows = m.scoresheet()
    assert rows[0]["events"] == [[], ["bolt"], ["bolt"]] and rows[0]["bolts"] == [0, 1, 1]
    last = rows[3]  # seats 1 and 2: third bolt, fined 120 (never the declarer)
    assert last["events"] == [[], ["bolt", "bolt_penalty"], ["bolt", "bolt_penalty"]]
    assert last["written"] == [100, 0, 0] and last["scores"] == [100, -120, -120]
    assert last["bolts"] == [2, 0, 0] and last["totals"] == [200, -20, -20]


def test_bolts_in_a_row_M24():
    m = sweeps(4, bolt_count="row")
    assert m.scoresheet()[3]["bolts"] == [0, 2, 1]
    assert all("bolt_penalty" not in e for r in m.scoresheet() for e in r["events"])


def test_bolt_zero_score_or_zero_tricks_M24():
    for mode, bolts in (("zero_score", [0, 1, 1]), ("zero_tricks", [0, 0, 1])):
        m = new(3, presets=[DEAL98], bolts=mode)
        declare(m)
        act(m, "0 give:KD>1", "0 give:TD>2", "0 contract:100", *PLAY2)
        row = m.scoresheet()[0]
        assert row["points_raw"] == [118, 2, 0] and row["written"] == [100, 0, 0]
        assert row["bolts"] == bolts
    m = new(3, writeoff_limit=0)  # a write-off deal adds no bolt
    declare(m)
    act(m, "0 writeoff")
    assert m.scoresheet()[0]["bolts"] == [0, 0, 0]


# -- M-25: the frozen barrel --------------------------------------------------------


def test_mounting_caps_at_the_barrel_M25():
    m = new(3, presets=[sweep(2, 3)], start_total_0=870)
    row = play_then(m, 220)
    assert row["written"][0] == 220 and row["totals"][0] == 880 and row["scores"][0] == 10
    assert row["events"][0] == ["barrel_on"] and row["on_barrel"][0] is True
    assert row["barrel_left"][0] == 3 and not m.is_over()
    v = m.view(1)
    assert v["on_barrel"] == [True, False, False] and v["barrel_left"] == [3, None, None]


def play_then(m, contract: int) -> dict:
    declare(m, m.calling[0])
    return play_sweep(m, contract)


def test_off_the_barrel_to_the_goal_M25_M29():
    m = new(3, presets=[sweep(2, 3)], start_total_0=880)
    declare(m)
    act(m, "0 give:KD>1", "0 give:9C>2")
    assert m.legal_actions(0)[0] == "contract:120"
    row = play_sweep(m, 120)
    assert row["totals"][0] == 1000 and row["events"][0] == ["barrel_off"]
    assert m.is_over() and m.result() == {"totals": [1000, 0, 0], "winners": [0], "goal": 1000,
                                          "places": [1, 2, 2]}  # below first, equal totals share


def test_barrel_opponent_loses_its_score_and_falls_M25():
    m = new(3, presets=[DEAL98, DEAL98], start_total_1=880, barrel_deals=2, bolts="off")
    declare(m)
    row = play98(m, 200)
    assert row["written"][1] == 20 and row["totals"][1] == 880 and row["barrel_left"][1] == 1
    declare(m, m.calling[0])  # seat 1 is the first hand now: on the barrel, declarer
    act(m, "1 writeoff")  # keep: the written −100 (M-21: the bid) is lost, last barrel deal used
    row = m.scoresheet()[1]
    assert row["written"][1] == -100 and row["totals"][1] == 760
    assert row["events"][1] == ["barrel_fall"] and row["falls"][1] == 1
    assert row["on_barrel"][1] is False and row["barrel_left"][1] is None


def test_barrel_fail_minus_M25():
    m = new(3, start_total_0=880, barrel_fail="minus")
    declare(m)
    act(m, "0 writeoff")  # M-21: A = the bid 100, so T - 100
    row = m.scoresheet()[0]
    assert row["totals"][0] == 780 and row["events"][0] == ["barrel_fall"]
    assert row["falls"][0] == 1 and row["writeoffs"] == [1, 0, 0]


def test_sitting_out_keeps_barrel_deals_M25_M20():
    m = new(4, start_total_3=880)
    declare(m)
    act(m, "0 writeoff")
    row = m.scoresheet()[0]
    assert row["totals"][3] == 880 and row["barrel_left"][3] == 3


# -- M-26: knock-off and the third fall -----------------------------------------------


def test_knock_off_M26():
    for knock in (True, False):
        m = new(3, start_total_1=880, start_total_2=850, barrel_knockoff=knock)
        declare(m)
        act(m, "0 writeoff")  # seat 2: +50 → mounts
        row = m.scoresheet()[0]
        if knock:
            assert row["totals"] == [-100, 760, 880]
            assert row["events"] == [[], ["knocked_off"], ["barrel_on"]]
            assert row["on_barrel"] == [False, False, True]
        else:
            assert row["totals"] == [-100, 880, 880] and row["barrel_left"] == [None, 2, 3]


def test_knock_off_reaches_a_sitting_out_seat_M26():
    m = new(4, start_total_3=880, start_total_1=850)
    declare(m)
    act(m, "0 writeoff")
    row = m.scoresheet()[0]
    assert row["events"][3] == ["knocked_off"] and row["totals"][3] == 760


@pytest.mark.parametrize("third", ["zero", "none"])
def test_third_fall_M26(third):
    m = new(3, start_total_1=880, barrel_deals=1, barrel_penalty=0, barrel_knockoff=False,
            barrel_third_fall=third, writeoff_limit=0, bid_cap="none")
    for declarer in (0, 2, 2, 0, 2):  # seat 1 falls, mounts, falls, mounts, falls
        declare(m, declarer)
        act(m, f"{declarer} writeoff")
    rows = m.scoresheet()
    assert [r["events"][1] for r in rows[:4]] == [["barrel_fall"], ["barrel_on"],
                                                 ["barrel_fall"], ["barrel_on"]]
    if third == "zero":
        assert rows[4]["events"][1] == ["barrel_fall", "zeroed"]
        assert rows[4]["totals"][1] == 0 and rows[4]["falls"][1] == 0
    else:
        assert rows[4]["totals"][1] == 880 and rows[4]["falls"][1] == 3


# -- M-27: the open barrel -------------------------------------------------------------


def test_open_barrel_M27():
    m = new(3, variant="tysiac-pl", presets=[DEAL98, sweep(0, 3)], start_total_1=850,
            bolts="zero_score")
    declare(m)
    row = play98(m, 200)
    assert row["written"][1] == 20 and row["totals"][1] == 850  # as opponent: nothing
    assert row["on_barrel"] == [False, True, False] and row["barrel_left"] == [None] * 3
    assert row["bolts"] == [0, 0, 1]
    declare(m, 1)  # his own contract counts
    row = play_sweep(m, 100)
    assert row["totals"][1] == 950 and row["scores"][1] == 100


# -- M-28: the dump --------------------------------------------------------------------


def test_dump_555_after_a_start_total_of_555_M28_M31():
    m = new(3, start_total_0=555, writeoff="bomb")
    declare(m)
    act(m, "0 writeoff")
    row = m.scoresheet()[0]
    assert row["written"][0] == 0 and row["totals"][0] == 0 and row["events"][0] == ["dump"]
    assert row["scores"][0] == -555
    m = new(3, start_total_0=-555, writeoff="bomb", dump_negative=True)
    declare(m)
    act(m, "0 writeoff")
    assert m.scoresheet()[0]["totals"][0] == 0
    m = new(3, start_total_0=-555, writeoff="bomb")
    declare(m)
    act(m, "0 writeoff")
    assert m.scoresheet()[0]["totals"][0] == -555
    m = new(3, goal=675, start_total_1=555, writeoff="bomb")  # on the frozen barrel at 555
    declare(m)
    act(m, "0 writeoff")
    assert m.scoresheet()[0]["totals"][1] == 555


# -- M-29: the end -----------------------------------------------------------------


def test_end_and_winners_M29():
    m = new(3, presets=[DEAL98], barrel="off", start_total_0=900, start_total_1=980)
    declare(m)
    play98(m, 100)
    assert m.is_over() and m.result()["totals"] == [1000, 1000, 0]
    assert m.result()["winners"] == [0]  # the declarer wins a tie (T-29)
    assert m.view(0)["phase"] == "match_over" and m.view(0)["golden"] is False
    m = new(3, presets=[DEAL98], barrel="off", start_total_0=900, goal_strict=True)
    declare(m)
    play98(m, 100)
    assert not m.is_over()  # 1000 does not pass 1000


# -- M-30: the row -------------------------------------------------------------------


def test_scoresheet_row_M30():
    m = new(3, presets=[DEAL98])
    declare(m)
    row = play98(m, 100)
    for key in ("deal", "dealer", "scores", "totals", "declarer", "bid", "contract", "made",
                "writeoff", "blind", "golden", "sitting_out", "tricks", "points_raw", "points",
                "written", "bolts", "falls", "writeoffs", "on_barrel", "barrel_left", "events",
                "marriages"):
        assert key in row
    assert row["deal"] == 1 and row["dealer"] == 2 and row["declarer"] == 0
    assert row["bid"] == 100 and row["contract"] == 100 and row["made"] is True
    assert row["blind"] is False and row["golden"] is False and row["sitting_out"] is None
    assert m.view(0)["last_deal"] == {"deal": 1, "scores": row["scores"]}
    h = m.history()[0]
    assert h["row"] == row and h["struck"] == [] and h["hands"] == DEAL98["hands"]
