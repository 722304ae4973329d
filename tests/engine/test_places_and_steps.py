"""What the engine says so that a client need not work it out: the final places
of a match (``result()["places"]``), who took each trick and the talon at each
step of a finished deal (``deal_positions``: ``won_by``, ``talon_to``) and
whether a Тысяча declarer made his contract (the scoresheet row's ``made``)."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from engine import VARIANTS
from engine.places import places_of

from .test_korol_common import random_match, title_counts
from .test_positions import one_deal
from .test_thousand import LOSE_LAST, STRONG, STRONG_TALON, act, new, set_totals, tricks

SWEEP_1000 = ("AS 9S 9C", "TS JS 9H", "AC JC 9D", "TC QC JD", "AD KC QD", "TD QS KD",
              "AH JH QH", "TH KS KH")


def finished(variant_id: str, seed: int, seats: int | None = None, options: dict | None = None):
    return one_deal(variant_id, seed, lambda m: m.is_over(), seats, options)


# -- final places -----------------------------------------------------------------


def test_places_winners_first_then_equal_totals_share_T29_K14():
    assert places_of([1001, 880, 1001], [0, 2]) == [1, 3, 1]
    assert places_of([1020, 1020, 0], [1]) == [2, 1, 3]  # the declarer took the tie (T-29)
    assert places_of([1000, 600, 600, 200], [0]) == [1, 2, 2, 4]  # no rule below first: shared
    assert places_of([5, 5, 5], [0, 1, 2]) == [1, 1, 1]


def test_places_the_declarer_wins_a_tie_the_other_is_second_T29():
    m = new("thousand-1001", STRONG, STRONG_TALON)
    set_totals(m, [1020, 900, 0])
    act(m, "bid:100", "pass", "pass", "give:JH>2", "give:9H>0", "contract:120")
    tricks(m, *SWEEP_1000)
    assert m.result() == {"totals": [1020, 1020, 0], "winners": [1], "goal": 1001,
                          "places": [2, 1, 3]}


def test_places_a_tie_without_the_declarer_is_shared_T29():
    m = new("thousand-1001", STRONG, STRONG_TALON)
    set_totals(m, [986, 1000, 1001])
    act(m, "bid:100", "pass", "pass", "give:JH>2", "give:TH>0", "contract:120")
    tricks(m, *LOSE_LAST)
    assert m.result()["totals"] == [1001, 880, 1001] and m.result()["places"] == [1, 3, 1]


@pytest.mark.parametrize("variant_id", ["king-classic", "king-ordered", "king-3p"])
def test_places_follow_the_totals_K14(variant_id):
    for seed in range(3):
        r = finished(variant_id, seed).result()
        totals = r["totals"]
        assert r["places"] == [1 + sum(t > mine for t in totals) for mine in totals]
        assert [s for s, p in enumerate(r["places"]) if p == 1] == r["winners"]


@pytest.mark.parametrize("variant_id", ["thousand-1000", "thousand-1001"])
def test_places_of_a_whole_match_T29(variant_id):
    m = finished(variant_id, 2, seats=3, options={"goal": 300})
    r = m.result()
    assert [s for s, p in enumerate(r["places"]) if p == 1] == r["winners"]
    others = [s for s in range(3) if s not in r["winners"]]
    for a in others:
        for b in others:  # below the winners: by total, equal totals share
            assert (r["places"][a] < r["places"][b]) == (r["totals"][a] > r["totals"][b])


def test_places_tie_R4():
    """Every place, not only the first, by points, then King titles, then the last title."""
    seen_ties = 0
    for variant in ("korol-ru", "krol-pl"):
        for seed in range(12):
            m = random_match(variant, seed, 1)
            points, kings, last = title_counts(m)
            order = sorted(range(4), key=lambda s: (-points[s], -kings[s], last[s]))
            places = m.result()["places"]
            assert [places[s] for s in order] == [1, 2, 3, 4]  # the last titles differ: no tie
            assert [s for s in range(4) if places[s] == 1] == m.result()["winners"]
            seen_ties += len(set(points)) < 4
    assert seen_ties  # a points tie below or at the top was broken


# -- the steps of a finished deal -------------------------------------------------


def first_deal_steps(variant_id: str, seed: int) -> tuple[object, list[dict]]:
    m = one_deal(variant_id, seed)
    return m, m.deal_positions(1)["steps"]


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_won_by_names_the_seat_that_took_the_trick_C4(variant_id):
    for seed in range(3):
        m, steps = first_deal_steps(variant_id, seed)
        assert steps[0]["won_by"] is None and steps[0]["talon_to"] is None
        winners = []
        for prev, now in pairwise(steps):
            if now["won_by"] is None:
                continue
            w = now["won_by"]
            winners.append(w)
            card = now["action"][1].split(":")[1]
            trick = {c for _, c in prev["trick"]} | {card}
            assert len(prev["trick"]) >= 1 and trick <= set(now["taken"][w])
            assert not trick & set((prev["taken"] or [[]] * m.seats)[w])
        # the tricks of the deal, each once, in order: the history's last trick is the last
        if winners:
            assert winners[-1] == m.view(None)["last_trick"]["winner"]
        assert len(winners) == sum(1 for s in steps[1:] if s["won_by"] is not None)


def test_won_by_and_talon_to_of_a_thousand_deal_T14_T20():
    m = new("thousand-1001", STRONG, STRONG_TALON)
    act(m, "bid:100", "pass", "pass", "give:JH>2", "give:TH>0", "contract:120")
    tricks(m, *LOSE_LAST)
    steps = m.deal_positions(1)["steps"]
    assert [s["talon_to"] for s in steps[:5]] == [None, None, None, 1, None]  # T-14 at the last pass
    assert steps[7]["won_by"] is None and steps[8]["won_by"] is None
    assert steps[9]["won_by"] == 1  # AS 9S 9C: the first trick is seat 1's (T-20)
    assert [s["won_by"] for s in steps[9::3]] == [1, 1, 1, 1, 1, 1, 1, 0]  # the last is seat 0's


def test_talon_to_at_the_last_give_in_1000_T17():
    m = new("thousand-1000", STRONG, STRONG_TALON)
    act(m, "bid:100", "pass", "pass", "contract:120", "give:JH>2", "give:9H>0")
    tricks(m, *SWEEP_1000)
    steps = m.deal_positions(1)["steps"]
    assert [i for i, s in enumerate(steps) if s["talon_to"] is not None] == [6]
    assert steps[6]["talon_to"] == 1 and "TH" in steps[6]["hands"][1]


def test_talon_to_at_the_pair_taken_in_2p_T19():
    hands = {1: "AS TS AC TC AD TD AH TH KH QH", 0: "KS QS JS 9S KC QC JC 9C KD QD"}
    m = new("thousand-1000-2p", hands, "JH 9H JD 9D", dealer=0)
    act(m, "bid:100", "pass", "contract:120", "take:top")
    rng = random.Random(0)
    while not m.history():
        seat = m.to_act()[0]
        m.apply(seat, rng.choice([a for a in m.legal_actions(seat) if a != "refuse"]))
    steps = m.deal_positions(1)["steps"]
    assert [i for i, s in enumerate(steps) if s["talon_to"] is not None] == [4]
    assert steps[4]["talon_to"] == 1 and {"JH", "9H"} <= set(steps[4]["hands"][1])


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_talon_to_where_the_talon_goes_into_a_hand_T14_T17_T19_M10_M11(variant_id):
    """Where the family has a talon, ``talon_to`` is the declarer at the step the talon
    went into his hand; Кинг and Король / Król have none (always None)."""
    for seed in range(4):
        m, steps = first_deal_steps(variant_id, seed)
        for prev, now in pairwise(steps):
            emptied = bool(prev["talon"]) and now["talon"] == []
            if now["talon_to"] is None:
                assert not emptied or now is steps[-1], now["action"]
                continue
            assert emptied and now["talon_to"] == now["declarer"]
            assert set(prev["talon"]) & set(now["hands"][now["talon_to"]])
        if m.variant.family != "thousand":
            assert all(s["talon_to"] is None for s in steps)


# -- made / failed ------------------------------------------------------------------


def test_row_says_whether_the_contract_was_made_T25_T15_T18():
    m = new("thousand-1001", STRONG, STRONG_TALON)
    act(m, "bid:100", "pass", "pass", "give:JH>2", "give:TH>0", "contract:120")
    tricks(m, *LOSE_LAST)
    assert m.scoresheet()[-1]["made"] is False  # 105 < 120 (T-25)
    m = new("thousand-1000", STRONG, STRONG_TALON)
    act(m, "bid:100", "pass", "pass", "contract:120", "give:JH>2", "give:9H>0")
    tricks(m, *SWEEP_1000)
    assert m.scoresheet()[-1]["made"] is True
    m = new("thousand-1001", STRONG, STRONG_TALON)
    act(m, "pass", "pass", "throw")  # T-12 / T-15: not played out
    assert m.scoresheet()[-1]["made"] is None
    m = new("thousand-1000", STRONG, STRONG_TALON)
    act(m, "bid:100", "pass", "pass", "contract:120", "refuse")  # T-18
    assert m.scoresheet()[-1]["made"] is None and m.scoresheet()[-1]["scores"][1] == -120
