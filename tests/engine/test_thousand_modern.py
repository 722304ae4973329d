"""Modern Тысяча (`thousand-ru`, `tysiac-pl`): the deal up to the play —
variants and options, the opening, blind calls, redeal requests, bidding,
silence, golden deals, the talon, the contract, the talon strike, write-offs
and the view (rules M-1 … M-17, M-32 … M-35 of thousand-modern.md).

Deals are written as hands (see ``DEAL98`` in the helpers module)."""

from __future__ import annotations

import random

import pytest

from engine import VARIANTS, IllegalAction, find_variant
from engine.variants.thousand_cards import DECK

# -- helpers (the scoring tests import them too) -------------------------------

QUIET = {"blind": False, "redeal_nines": False, "redeal_weak_below": 0, "redeal_talon_below": 0}


def new(seats: int, *, variant: str = "thousand-ru", presets=None, dealer=None, seed: int = 1,
        **opts):
    """A match with the redeal requests and the blind off unless asked for; by
    default the dealer is the last seat, so seat 0 is the first hand."""
    return find_variant(variant).new_match(
        seats, seed=seed, options={**QUIET, **opts},
        first_dealer=seats - 1 if dealer is None else dealer, preset_deals=presets)


def act(m, *steps: str) -> None:
    for step in steps:
        seat, action = step.split(" ", 1)
        m.apply(int(seat), action)


def preset(seats: int, dealer: int, fixed: dict, talon: str = "") -> dict:
    """Hands as given, the rest filled in deck order; the sitter (4 seats) gets []."""
    hands = {s: c.split() for s, c in fixed.items()}
    rest = talon.split()
    used = {c for h in hands.values() for c in h} | set(rest)
    free = [c for c in DECK if c not in used]
    size = 10 if seats == 2 else 7
    out = []
    for s in range(seats):
        if seats == 4 and s == dealer:
            out.append([])
            continue
        h = hands.get(s, [])
        while len(h) < size:
            h.append(free.pop(0))
        out.append(h)
    while len(rest) < (4 if seats == 2 else 3):
        rest.append(free.pop(0))
    assert not free
    return {"hands": out, "rest": rest}


#: The declarer (seat 0) makes 98 card points plus his ♥ marriage (see ``play98``).
DEAL98 = preset(3, 2, {0: "AH TH KH QH JH 9H 9C", 1: "AC TC KC QC JC 9D QD",
                       2: "AS TS KS QS JS 9S JD"}, talon="AD TD KD")
FH_HAND = "AH TH KH QH JH 9H 9C"  # with the talon AD TD KD: a sweep (``play_sweep``)


def sweep(dealer: int, seats: int) -> dict:
    fh = (dealer + 1) % seats
    return preset(seats, dealer, {fh: FH_HAND}, talon="AD TD KD")


def drive_bidding(m, declarer: int) -> None:
    """The forced opening, then ``declarer`` bids the lowest bid and the others pass."""
    while m.stage in ("bidding", "opening", "strike"):
        seat = m.to_act()[0]
        legal = m.legal_actions(seat)
        if "accept" in legal:
            m.apply(seat, "accept")
        elif "pass" not in legal:
            m.apply(seat, "bid:100")
        elif seat == declarer:
            m.apply(seat, legal[1])
        else:
            m.apply(seat, "pass")


def follow_first(m) -> None:
    """Every follower plays his first legal card until it is the declarer's turn again."""
    while m.trick and not m.is_over():
        seat = m.to_act()[0]
        m.apply(seat, [a for a in m.legal_actions(seat) if a.startswith("play:")][0])


def play_sweep(m, contract: int, *, marriage: bool = True) -> dict:
    """The sweep: gives KD and 9C away, names ``contract``, takes all eight tricks."""
    d = m.declarer
    if m.stage == "give":
        o1, o2 = [s for s in m.calling if s != d]
        act(m, f"{d} give:KD>{o1}", f"{d} give:9C>{o2}")
    act(m, f"{d} contract:{contract}")
    for lead in ("AH", "KH", "QH", "TH", "JH", "9H", "AD", "TD"):
        kind = "marriage" if lead == "KH" and marriage else "play"
        m.apply(d, f"{kind}:{lead}")
        follow_first(m)
    return m.scoresheet()[-1]


def play98(m, contract: int) -> dict:
    """DEAL98 played out: seat 1 takes only the last trick (9C AC AS: 22 points)."""
    act(m, "0 give:KD>1", "0 give:TD>2", f"0 contract:{contract}",
        "0 play:AH", "1 play:9D", "2 play:9S", "0 marriage:KH", "1 play:QD", "2 play:JD",
        "0 play:QH", "1 play:KD", "2 play:TD", "0 play:TH", "1 play:JC", "2 play:JS",
        "0 play:JH", "1 play:QC", "2 play:QS", "0 play:9H", "1 play:KC", "2 play:KS",
        "0 play:AD", "1 play:TC", "2 play:TS", "0 play:9C", "1 play:AC", "2 play:AS")
    return m.scoresheet()[-1]


def two_seat_preset() -> dict:
    return {"hands": ["AH TH KH QH JH 9H AS TS 9S 9C".split(),
                      "KS QS JS AC TC KC QC JC KD 9D".split()], "rest": "AD TD QD JD".split()}


# -- variants and options (M-1, M-2, M-35) --------------------------------------


def test_variants_and_seats_M1_M2():
    for vid in ("thousand-ru", "tysiac-pl"):
        v = find_variant(vid)
        assert vid in VARIANTS and v.family == "thousand" and v.seat_counts == (2, 3, 4)
        assert v.name
    m = new(4)
    assert m.view(0)["active"] == [0, 1, 2] and m.view(0)["hand_sizes"] == [7, 7, 7, 0]  # T-4
    assert new(2).view(0)["hand_sizes"] == [10, 10] and new(2).view(0)["talon_size"] == 4  # M-1


def test_options_schema_and_defaults_M35():
    ru, pl = (find_variant(v).options_schema() for v in ("thousand-ru", "tysiac-pl"))
    assert len(ru) == len(pl) == 40
    assert [o["name"] for o in ru] == [o["name"] for o in pl]
    for o in ru:
        assert o["description"] and o["group"] in ("bidding", "talon", "play", "scoring",
                                                   "barrel", "bolts", "match") and o["rule"]
    d_ru = {o["name"]: o["default"] for o in ru}
    d_pl = {o["name"]: o["default"] for o in pl}
    differ = {k for k in d_ru if d_ru[k] != d_pl[k]}
    assert differ == {"bid_step", "round_to", "must_beat", "must_overtrump", "blind",
                      "redeal_nines", "redeal_weak_below", "redeal_talon_below", "writeoff",
                      "writeoff_pays", "writeoff_limit", "sitter_scores", "bolts", "barrel",
                      "barrel_gap", "barrel_knockoff", "barrel_third_fall", "dump"}
    assert d_ru["barrel"] == "frozen" and d_pl["barrel"] == "open" and d_pl["barrel_gap"] == 200


@pytest.mark.parametrize("bad", [{"nope": 1}, {"bid_step": 7}, {"goal": 1003},
                                 {"barrel_gap": 1000}, {"start_total_3": 100},
                                 {"start_total_0": 1000}, {"start_total_0": 885},
                                 {"writeoff": "maybe"}, {"silence_below": 5}])
def test_bad_options_raise_M35_M31(bad):
    with pytest.raises(ValueError):
        find_variant("thousand-ru").new_match(3, seed=1, options=bad)


def test_start_totals_M31():
    # a zero for a missing seat is ignored; T itself starts on the barrel
    m = new(3, start_total_0=880, start_total_1=-40, start_total_3=0)
    v = m.view(None)
    assert v["totals"] == [880, -40, 0] and v["on_barrel"] == [True, False, False]
    assert v["barrel_left"] == [3, None, None]
    # the open barrel allows any start total below the goal
    m = new(3, variant="tysiac-pl", start_total_1=990)
    assert m.view(None)["on_barrel"] == [False, True, False]


# -- the opening and the blind (M-3, M-4, M-5) -------------------------------------


def test_forced_opening_M4():
    m = new(3, presets=[DEAL98])
    assert m.to_act() == [0] and m.legal_actions(0) == ["bid:100"]
    with pytest.raises(IllegalAction):
        m.apply(0, "pass")
    act(m, "0 bid:100")
    assert m.to_act() == [1]
    assert m.legal_actions(1)[:3] == ["pass", "bid:105", "bid:110"]  # M-7: jumps allowed
    act(m, "1 pass", "2 pass")
    v = m.view(0)
    assert v["declarer"] == 0 and v["bid"] == 100 and v["phase"] == "talon"


def test_blind_opening_before_the_deal_M5_M3():
    m = new(3, presets=[DEAL98], blind=True)
    for s in (None, 0, 1, 2):
        v = m.view(s)
        assert v["hand"] == [] and v["hand_sizes"] == [0, 0, 0] and v["talon_size"] == 0
        assert v["phase"] == "bidding"
    assert sorted(m.legal_actions(0)) == ["bid:100", "blind:120"]
    assert m.view(0)["confirm"] == ["blind:120"]
    act(m, "0 blind:120")
    v = m.view(0)
    assert len(v["hand"]) == 7 and v["blind"] == 0 and v["bids"] == [[0, "blind:120"]]
    assert m.legal_actions(1)[:2] == ["pass", "bid:125"]  # 120 plus the step


def test_blind_deal_doubles_and_bars_the_writeoff_M5_M22():
    m = new(3, presets=[sweep(2, 3)], blind=True)
    act(m, "0 blind:120", "1 pass", "2 pass")
    assert m.view(0)["blind"] == 0 and "writeoff" not in m.legal_actions(0)  # M-14
    row = play_sweep(m, 120)
    assert row["blind"] is True and row["written"] == [240, 0, 0]


def test_blind_lapses_when_outbid_M5():
    m = new(3, presets=[DEAL98], blind=True, bid_cap="none")
    act(m, "0 blind:120", "1 bid:125")
    assert m.view(0)["blind"] is None
    act(m, "2 pass", "0 pass")
    assert m.view(0)["declarer"] == 1
    # first hand declarer after his blind lapsed: not a blind deal
    m = new(3, presets=[DEAL98], blind=True, bid_cap="none")
    act(m, "0 blind:120", "1 bid:125", "2 pass", "0 bid:130", "1 pass")
    assert m.view(0)["declarer"] == 0 and m.blind_deal is False


def test_no_blind_when_on_barrel_or_below_minimum_or_silenced_M5_M25_M8():
    assert new(3, blind=True, start_total_2=880).stage != "opening"
    assert new(3, blind=True, blind_min_total=50).stage != "opening"
    assert new(3, blind=True, blind_min_total=50, start_total_0=50).stage == "opening"
    m = new(3, blind=True, silence=True, start_total_0=-300)
    assert m.stage != "opening" and m.legal_actions(0) == ["bid:100"]  # M-8


def test_strike_after_blind_offers_the_blind_again_M5_M6():
    nines = preset(3, 2, {0: "9S 9C 9D 9H AH TH KH"})
    m = new(3, presets=[nines, DEAL98], blind=True, redeal_nines=True)
    act(m, "0 blind:120")
    assert m.view(0)["phase"] == "strike" and m.to_act() == [0]
    act(m, "0 strike")
    v = m.view(0)
    assert v["deal"] == 1 and v["hand"] == [] and m.stage == "opening"  # M-34: same deal
    assert v["last_deal"]["voided"] == "strike" and v["log"] == [] and v["scoresheet"] == []
    assert sorted(m.legal_actions(0)) == ["bid:100", "blind:120"]


# -- redeal requests (M-6) ---------------------------------------------------------


def test_redeal_requests_in_calling_order_M6():
    weak = preset(3, 2, {1: "9S 9C JD JH QS QC QD", 2: "9D 9H JS JC KD KS AS"})
    m = new(3, presets=[weak, DEAL98], redeal_weak_below=14)  # seat 1: 13 points; seat 2: 23
    assert m.view(1)["phase"] == "strike" and m.to_act() == [1]
    assert m.legal_actions(1) == ["strike", "accept"] and m.view(1)["confirm"] == ["strike"]
    act(m, "1 accept")
    assert m.view(0)["phase"] == "bidding" and m.legal_actions(0) == ["bid:100"]
    act(m, "0 bid:100", "1 pass", "2 pass", "0 writeoff")  # a scored deal: struck is []
    assert m.history()[0]["struck"] == []


def test_strike_voids_the_deal_and_history_keeps_it_M6_M34():
    nines = preset(3, 2, {2: "9S 9C 9D 9H AH TH KH"})
    m = new(3, presets=[nines, DEAL98], redeal_nines=True)
    act(m, "2 strike")
    assert m.view(0)["deal"] == 1 and m.view(0)["dealer"] == 2 and m.scoresheet() == []
    assert sorted(m.view(0)["hand"]) == sorted(DEAL98["hands"][0])  # the next preset
    act(m, "0 bid:100", "1 pass", "2 pass", "0 writeoff")
    h = m.history()
    assert len(h) == 1 and len(h[0]["struck"]) == 1
    assert h[0]["struck"][0]["hands"][2] == nines["hands"][2]
    assert h[0]["struck"][0]["actions"] == [[2, "strike"]]
    assert m.replay().view(1) == m.view(1)  # replay across a voided deal
    assert m.deal_positions(1)["steps"][-1]["action"] == [0, "writeoff"]


def test_determinize_keeps_who_was_asked_M6():
    nines = preset(3, 2, {1: "9S 9C 9D 9H AH TH KH"})
    m = new(3, presets=[nines], redeal_nines=True)
    act(m, "1 accept")
    rng = random.Random(3)
    for _ in range(20):
        twin = m.determinize(0, rng)
        assert sum(c[0] == "9" for c in twin.hands[1]) == 4  # asked: qualifies
        assert sum(c[0] == "9" for c in twin.hands[2]) < 4
        assert twin.hands[0] == m.hands[0]


# -- bidding (M-7, M-8) -----------------------------------------------------------


def test_bid_cap_and_step_M7():
    m = new(3, presets=[DEAL98])
    act(m, "0 bid:100")
    assert m.legal_actions(1)[-1] == "bid:180"  # 120 plus the ♣ marriage held (T-10)
    m = new(3, presets=[DEAL98], bid_cap="none")
    act(m, "0 bid:100")
    assert m.legal_actions(1)[-1] == "bid:400"
    pl = new(3, variant="tysiac-pl", presets=[DEAL98])
    act(pl, "0 bid:100")
    assert pl.legal_actions(1)[:2] == ["pass", "bid:110"]
    with pytest.raises(IllegalAction):
        pl.apply(1, "bid:105")


def test_silence_M8():
    m = new(3, presets=[DEAL98], silence=True, start_total_1=-300, start_total_2=-290)
    act(m, "0 bid:100")
    assert m.legal_actions(1) == ["pass"]
    act(m, "1 pass")
    assert "bid:105" in m.legal_actions(2)


# -- golden deals (M-9) ----------------------------------------------------------


def test_golden_deals_M9():
    m = new(3, presets=[sweep(2, 3)], golden=True, blind=True, silence=True,
            start_total_0=-400)
    v = m.view(0)
    assert v["golden"] and v["phase"] == "talon" and v["declarer"] == 0 and v["bid"] == 120
    assert v["bids"] == [] and "writeoff" not in m.legal_actions(0)
    assert "strike" not in m.legal_actions(0)
    act(m, "0 give:KD>1", "0 give:9C>2")
    assert m.legal_actions(0) == ["contract:120"]
    row = play_sweep(m, 120)
    assert row["golden"] and row["written"] == [240, 0, 0]
    assert [r["golden"] for r in m.scoresheet()] == [True]
    assert m.view(0)["golden"] and m.view(0)["deal"] == 2  # deals 1..n
    # M-9 / M-12 / M-25: 120 whatever the floor; rule 1 uses the doubled score (+240)
    m = new(3, presets=[sweep(2, 3)], golden=True, start_total_0=880, goal_strict=True)
    act(m, "0 give:KD>1", "0 give:9C>2")
    assert m.legal_actions(0) == ["contract:120"]
    row = play_sweep(m, 120)
    assert row["totals"][0] == 1120 and row["events"][0] == ["barrel_off"] and m.is_over()


# -- the talon (M-10, M-11, M-12, M-13, M-14) ---------------------------------------


def test_talon_shown_and_given_M10():
    m = new(3, presets=[DEAL98])
    act(m, "0 bid:100", "1 pass", "2 pass")
    for s in (None, 0, 1, 2):
        v = m.view(s)
        assert v["face_up"] == ["AD", "TD", "KD"] and v["talon_size"] == 0
        assert [None, "show:AD,TD,KD"] in v["log"]
    assert len(m.view(0)["hand"]) == 10
    assert "writeoff" in m.legal_actions(0)
    act(m, "0 give:KD>1")
    assert [0, "give:KD>1"] in m.view(1)["log"] and [0, "give:??>1"] in m.view(2)["log"]
    assert not any(a.endswith(">1") for a in m.legal_actions(0) if a.startswith("give"))
    act(m, "0 give:TD>2")
    assert m.view(0)["hand_sizes"] == [8, 8, 8]
    assert m.legal_actions(0)[0] == "contract:100" and m.legal_actions(0)[-2] == "contract:220"
    assert m.legal_actions(0)[-1] == "writeoff"


def test_two_seat_talon_M11():
    m = new(2, presets=[two_seat_preset()])
    act(m, "0 bid:100", "1 pass")
    assert m.legal_actions(0) == ["take:top", "take:bottom"]  # no write-off yet
    act(m, "0 take:bottom")
    v = m.view(1)
    assert v["face_up"] == ["QD", "JD"] and v["talon_size"] == 0
    assert "writeoff" in m.legal_actions(0)
    act(m, "0 discard:9S", "0 discard:9C")
    assert [0, "discard:??"] in m.view(1)["log"]
    assert m.view(0)["hand_sizes"] == [10, 10] and m.legal_actions(0)[0] == "contract:100"
    assert "strike" not in m.legal_actions(0)


def test_contract_and_barrel_floor_M12():
    m = new(3, presets=[DEAL98], start_total_0=880)
    act(m, "0 bid:100", "1 pass", "2 pass", "0 give:KD>1", "0 give:TD>2")
    acts = m.legal_actions(0)
    assert acts[0] == "contract:120" and "contract:115" not in acts  # the floor
    m = new(3, variant="tysiac-pl", presets=[DEAL98], barrel="frozen", barrel_gap=120,
            goal_strict=True, start_total_0=880)
    act(m, "0 bid:100", "1 pass", "2 pass", "0 give:KD>1", "0 give:TD>2")
    assert m.legal_actions(0)[0] == "contract:130"
    # the floor even above the cap: no marriage in hand
    m = new(3, presets=[preset(3, 2, {0: "AS AC AD 9H JH JD JC"}, talon="9S 9C 9D")],
            start_total_0=880, goal_strict=True)
    act(m, "0 bid:100", "1 pass", "2 pass", "0 give:9S>1", "0 give:9C>2")
    assert [a for a in m.legal_actions(0) if a.startswith("contract")] == ["contract:125"]


def test_talon_strike_M13():
    poor = preset(3, 2, {}, talon="9S 9C JD")  # 2 points
    m = new(3, presets=[poor, DEAL98], redeal_talon_below=5)
    act(m, "0 bid:100", "1 pass", "2 pass")
    assert "strike" in m.legal_actions(0) and "strike" in m.view(0)["confirm"]
    act(m, "0 strike")
    assert m.view(0)["last_deal"]["voided"] == "talon_strike" and m.scoresheet() == []
    assert m.view(0)["deal"] == 1
    # not after the first give, not above 100, not with 5 points
    m = new(3, presets=[poor], redeal_talon_below=5)
    act(m, "0 bid:100", "1 pass", "2 pass", f"0 give:{m.hands[0][0]}>1")
    assert "strike" not in m.legal_actions(0)
    m = new(3, presets=[poor], redeal_talon_below=5, bid_cap="none")
    act(m, "0 bid:100", "1 bid:105", "2 pass", "0 pass")
    assert "strike" not in m.legal_actions(1)
    m = new(3, presets=[poor], redeal_talon_below=2, redeal_talon_nines=True)
    act(m, "0 bid:100", "1 pass", "2 pass")
    assert "strike" in m.legal_actions(0)  # two nines


def test_writeoff_window_and_limit_M14():
    m = new(3, presets=[DEAL98, DEAL98], writeoff_limit=1)
    act(m, "0 bid:100", "1 pass", "2 pass", "0 give:KD>1", "0 give:TD>2", "0 contract:100")
    assert "writeoff" in m.legal_actions(0)  # up to his first lead
    act(m, "0 writeoff")
    assert m.view(0)["writeoffs_left"] == [0, 1, 1]
    assert m.scoresheet()[0]["writeoff"] and m.scoresheet()[0]["made"] is None
    m = new(3, presets=[DEAL98], writeoff="off")
    act(m, "0 bid:100", "1 pass", "2 pass")
    assert "writeoff" not in m.legal_actions(0) and m.view(0)["writeoffs_left"] == [0, 0, 0]
    m = new(3, presets=[DEAL98], writeoff_limit=0)
    assert m.view(0)["writeoffs_left"] == [None, None, None]
    act(m, "0 bid:100", "1 pass", "2 pass", "0 give:KD>1", "0 give:TD>2", "0 contract:100",
        "0 play:AH")
    assert "writeoff" not in m.legal_actions(1) + m.legal_actions(0)


# -- play (M-15, M-16, M-17) ------------------------------------------------------------


def test_marriage_only_after_a_trick_M16():
    m = new(3, presets=[DEAL98])
    act(m, "0 bid:100", "1 pass", "2 pass", "0 give:KD>1", "0 give:TD>2", "0 contract:200")
    assert "marriage:KH" not in m.legal_actions(0)
    act(m, "0 play:AH", "1 play:9D", "2 play:9S")
    assert "marriage:KH" in m.legal_actions(0) and "marriage:QH" in m.legal_actions(0)
    act(m, "0 marriage:KH")
    assert m.view(1)["trump"] == "H" and m.view(1)["marriages"] == [[0, "H"]]
    m = new(3, presets=[DEAL98], marriage_first_lead=True)
    act(m, "0 bid:100", "1 pass", "2 pass", "0 give:KD>1", "0 give:TD>2", "0 contract:100")
    assert "marriage:KH" in m.legal_actions(0)


def test_ace_marriage_M17():
    aces = preset(3, 2, {0: "AS AC AD AH 9H JH JD"}, talon="KH QH 9D")
    m = new(3, presets=[aces], ace_marriage=True, marriage_first_lead=True)
    act(m, "0 bid:100", "1 pass", "2 pass")
    act(m, "0 give:9H>1", "0 give:9D>2")
    act(m, "0 contract:100")
    assert {"marriage:AS", "marriage:AH"} <= set(m.legal_actions(0))
    act(m, "0 marriage:AS")
    v = m.view(1)
    assert v["trump"] is None and v["marriages"] == [[0, "A"]]
    assert not any(a.startswith("marriage:A") for a in m.legal_actions(1))


def playable(m, seat: int, hand: str, trick: str, trump) -> list[str]:
    """The cards ``seat`` may play to ``trick`` ("0:QH 1:9C") holding ``hand``."""
    m.hands[seat] = hand.split()
    m.trick = [(int(x[0]), x[2:]) for x in trick.split()]
    m.trump = trump
    return sorted(m._playable(m.hands[seat]))


def test_following_must_beat_and_overtrump_M15():
    for variant in ("thousand-ru", "tysiac-pl"):
        m = new(3, variant=variant)
        beat = m.options["must_beat"]
        # ♥ trump, QH led, the follower holds KH and 9H: with must_beat off 9H is legal
        assert playable(m, 1, "KH 9H AS", "0:QH", "H") == (["KH"] if beat else ["9H", "KH"])
        # a trick led in trumps counts as led, not trumped; a trumped trick needs no beating
        assert playable(m, 2, "AC 9C", "0:KC 1:TC", None) == (["AC"] if beat else ["9C", "AC"])
        assert playable(m, 2, "AC 9C", "0:KC 1:9H", "H") == ["9C", "AC"]
        # void: a trump; with must_overtrump a higher one than the trick's
        over = m.options["must_overtrump"]
        assert playable(m, 2, "TH 9H AS", "0:KC 1:JH", "H") == (["TH"] if over else ["9H", "TH"])
        assert playable(m, 2, "9H AS", "0:KC 1:JH", "H") == ["9H"]  # no higher: any trump
        assert playable(m, 2, "AS JS", "0:KC 1:JH", "H") == ["AS", "JS"]  # no trump: any card
        # must_overtrump does not govern following a trump lead (M-15 precise point)
        m = new(3, must_beat=False, must_overtrump=True)
        assert playable(m, 1, "KH 9H AS", "0:QH", "H") == ["9H", "KH"]


# -- phases, view and the stage tables (M-32, M-33) ----------------------------------


def test_phases_and_view_keys_M32_M33():
    m = new(4, presets=[sweep(3, 4)])
    v = m.view(None)
    for key in ("bids", "declarer", "bid", "contract", "marriages", "talon_size", "active",
                "tricks_won", "goal", "totals", "bolts", "falls", "on_barrel", "barrel_left",
                "writeoffs_left", "golden", "blind", "deal", "dealer", "confirm"):
        assert key in v
    assert v["declarer"] is None and v["bid"] is None and v["active"] == [0, 1, 2]
    assert v["talon_size"] == 3 and v["phase"] == "bidding"
    act(m, "0 bid:100", "1 pass", "2 pass")
    assert m.view(3)["phase"] == "talon" and m.view(3)["hand"] == []
    act(m, "0 give:KD>1", "0 give:9C>2")
    assert m.legal_actions(0)[0] == "contract:100"  # contracts ascend
    act(m, "0 contract:100")
    assert m.view(0)["phase"] == "play" and m.view(0)["face_up"] == []
    assert m.view(0)["tricks_won"] == [0, 0, 0, 0]


def test_garbage_is_rejected_without_change_C6_M32():
    m = new(3, presets=[DEAL98])
    before = m.view(0)
    for bad in ("bid:99", "blind:120", "contract:100", "writeoff", "strike", "play:AH", "x"):
        with pytest.raises(IllegalAction):
            m.apply(0, bad)
    assert m.view(0) == before




def test_determinize_keeps_who_was_asked_after_the_talon_M6():
    nines = preset(3, 2, {0: "AH TH KH QH JH AD AC", 1: "9S 9C 9D 9H KS QS JS"},
                   talon="TD KD QD")
    m = new(3, presets=[nines], redeal_nines=True)
    act(m, "1 accept", "0 bid:100", "1 pass", "2 pass", "0 give:KD>1", "0 give:QD>2",
        "0 contract:100", "0 play:AH")
    rng = random.Random(5)
    for _ in range(10):
        twin = m.determinize(0, rng)  # the declarer: seat 1's dealt hand had four nines
        dealt = [c for c in twin.hands[1] + [c for c, p in twin.played_by.items() if p == 1]
                 if c != "KD"]
        assert sum(c[0] == "9" for c in dealt) == 4
