"""Audit of the variants' identity (M-1), the option table (M-35), the view
keys (M-33) and the history entry (M-34), transcribed by hand from
rules/thousand-modern.md."""

from __future__ import annotations

import pytest

from engine import VARIANTS, find_variant
from tests.engine.modern_audit import LOSE1, do, legal, lose1_deal, new, strong, strong_deal

# name: (type, thousand-ru default, tysiac-pl default, allowed / (min, max, step), rule)
M35 = {
    "goal": ("int", 1000, 1000, (100, 10000, 5), "T-30"),
    "bid_step": ("choice", 5, 10, [5, 10], "M-7"),
    "bid_cap": ("choice", "marriages", "marriages", ["marriages", "none"], "M-7"),
    "round_to": ("choice", 5, 10, [5, 10], "M-18"),
    "round5_up": ("bool", True, True, None, "M-18"),
    "declarer_rounds": ("bool", False, False, None, "M-19"),
    "marriage_first_lead": ("bool", False, False, None, "M-16"),
    "ace_marriage": ("bool", False, False, None, "M-17"),
    "must_beat": ("bool", False, True, None, "M-15"),
    "must_overtrump": ("bool", False, True, None, "M-15"),
    "blind": ("bool", True, False, None, "M-5"),
    "blind_min_total": ("int", 0, 0, (-1000, 1000, 5), "M-5"),
    "golden": ("bool", False, False, None, "M-9"),
    "silence": ("bool", False, False, None, "M-8"),
    "silence_below": ("int", -300, -300, (-1000, 0, 10), "M-8"),
    "redeal_nines": ("bool", True, False, None, "M-6"),
    "redeal_weak_below": ("int", 14, 0, (0, 40, 1), "M-6"),
    "redeal_talon_below": ("int", 5, 0, (0, 30, 1), "M-13"),
    "redeal_talon_nines": ("bool", False, False, None, "M-13"),
    "writeoff": ("choice", "minus", "bomb", ["off", "minus", "bomb"], "M-14"),
    "writeoff_pays": ("choice", "half", "sixty", ["half", "sixty"], "M-21"),
    "writeoff_limit": ("int", 3, 1, (0, 10, 1), "M-14"),
    "sitter_scores": ("choice", "points", "aces_marriage", ["points", "aces_marriage"], "M-20"),
    "bolts": ("choice", "zero_score", "off", ["off", "zero_score", "zero_tricks"], "M-24"),
    "bolt_count": ("choice", "total", "total", ["total", "row"], "M-24"),
    "bolt_penalty": ("int", 120, 120, (0, 500, 5), "M-24"),
    "barrel": ("choice", "frozen", "open", ["off", "frozen", "open"], "M-25"),
    "barrel_gap": ("int", 120, 200, (10, 500, 10), "M-25"),
    "barrel_deals": ("int", 3, 3, (1, 5, 1), "M-25"),
    "barrel_penalty": ("int", 120, 120, (0, 500, 5), "M-25"),
    "barrel_fail": ("choice", "keep", "keep", ["keep", "minus"], "M-25"),
    "barrel_knockoff": ("bool", True, False, None, "M-26"),
    "barrel_third_fall": ("choice", "zero", "none", ["none", "zero"], "M-26"),
    "dump": ("bool", True, False, None, "M-28"),
    "dump_negative": ("bool", False, False, None, "M-28"),
    "goal_strict": ("bool", False, False, None, "M-29"),
    **{f"start_total_{k}": ("int", 0, 0, (-1000, 9995, 5), "M-31") for k in range(4)},
}


def test_variants_M1():
    assert {"thousand-ru", "tysiac-pl"} <= set(VARIANTS)
    for vid in ("thousand-ru", "tysiac-pl"):
        v = find_variant(vid)
        assert v.family == "thousand" and tuple(v.seat_counts) == (2, 3, 4)
    with pytest.raises(ValueError):
        new("thousand-ru", seats=5)
    with pytest.raises(ValueError):
        new("tysiac-pl", seats=1)


@pytest.mark.parametrize("column,vid", [(1, "thousand-ru"), (2, "tysiac-pl")])
def test_option_table_M35(column, vid):
    schema = {e["name"]: e for e in find_variant(vid).options_schema()}
    assert set(schema) == set(M35) and len(find_variant(vid).options_schema()) == 40
    for name, spec in M35.items():
        e = schema[name]
        kind, default, extra, rule = spec[0], spec[column], spec[3], spec[4]
        assert e["type"] == kind, name
        assert e["default"] == default and type(e["default"]) is type(default), name
        assert e["rule"] == rule, name
        if kind == "int":
            assert (e["min"], e["max"], e["step"]) == extra, name
        elif kind == "choice":
            assert sorted(map(str, e["allowed"])) == sorted(map(str, extra)), name


@pytest.mark.parametrize("name,value", [
    ("goal", 1003), ("goal", 95), ("barrel_gap", 125), ("barrel_deals", 0), ("bolt_penalty", 7),
    ("silence_below", 10), ("silence_below", -305), ("redeal_weak_below", 41), ("writeoff", "yes"),
    ("round_to", 3), ("blind", 1), ("blind_min_total", 2), ("start_total_1", 10000),
])
def test_bad_option_values_M35(name, value):
    with pytest.raises(ValueError):
        new("thousand-ru", **{name: value})


def test_options_without_effect_still_validated_M35():
    new("tysiac-pl", barrel_deals=5, barrel_fail="minus", barrel_knockoff=True)  # open barrel
    with pytest.raises(ValueError):
        new("tysiac-pl", barrel_deals=9)


def test_view_keys_M33():
    m = new("thousand-ru", presets=[strong(0)])
    for seat in (None, 0, 1):
        v = m.view(seat)
        for key in ("variant", "phase", "to_act", "hand", "hand_sizes", "trick", "last_trick", "trump",
                    "face_up", "scoresheet", "last_deal", "log", "legal", "bids", "declarer", "bid",
                    "contract", "marriages", "talon_size", "active", "tricks_won", "goal", "totals",
                    "bolts", "falls", "on_barrel", "barrel_left", "writeoffs_left", "golden", "blind",
                    "deal", "dealer"):
            assert key in v, key
        assert v["declarer"] is None and v["bid"] is None and v["bids"] == []
        assert v["goal"] == 1000 and v["active"] == [0, 1, 2] and v["tricks_won"] == [0, 0, 0]
        assert v["writeoffs_left"] == [3, 3, 3] and v["golden"] is False


def test_talon_size_M33():
    m = new("tysiac-pl", presets=[strong(0)])
    assert m.view(None)["talon_size"] == 3
    do(m, "bid:100", "pass", "pass")
    assert m.view(None)["talon_size"] == 0
    m = new("tysiac-pl", seats=2)
    v = m.view(None)
    assert v["talon_size"] == 4 or v["phase"] == "strike"


def test_history_entry_M34():
    m = new("thousand-ru", presets=[strong(0)])
    strong_deal(m, 220)
    h = m.history()
    assert len(h) == 1 and h[0]["struck"] == [] and h[0]["deal"] == 1


def test_open_barrel_blocks_blind_M5_M27():
    m = new("thousand-ru", presets=[strong(0)], barrel="open", barrel_gap=200, start_total_2=800)
    assert m.view(None)["hand_sizes"] == [7, 7, 7] and legal(m) == ["bid:100"]
    m = new("thousand-ru", presets=[strong(0)], barrel="open", barrel_gap=200, start_total_2=795)
    assert sorted(legal(m)) == ["bid:100", "blind:120"]


def test_blind_four_and_two_seats_M5():
    m = new("thousand-ru", seats=4, presets=[strong(2, 4)], dealer=2)
    assert m.to_act() == [3] and sorted(legal(m)) == ["bid:100", "blind:120"]
    assert m.view(None)["hand_sizes"] == [0, 0, 0, 0]
    m = new("thousand-ru", seats=2, dealer=1)
    assert m.to_act() == [0] and sorted(legal(m)) == ["bid:100", "blind:120"]


def test_silence_off_lets_low_totals_bid_M8():
    m = new("thousand-ru", presets=[strong(0)], blind=False, start_total_2=-500)
    do(m, "bid:100")
    assert "bid:105" in legal(m)
    m = new("thousand-ru", presets=[strong(0)], blind=False, silence=True, start_total_2=-290)
    do(m, "bid:100")
    assert "bid:105" in legal(m)  # -290 is above the default -300


def test_bid_step_and_round_to_swapped_M7_M18():
    m = new("thousand-ru", presets=[LOSE1], blind=False, bid_step=10, round_to=10)
    do(m, "bid:100")
    bids = [a for a in legal(m) if a.startswith("bid:")]
    assert bids[0] == "bid:110" and "bid:115" not in bids
    m = new("thousand-ru", presets=[LOSE1], blind=False, bid_step=10, round_to=10)
    row = lose1_deal(m, 100)
    assert row["points"] == [10, 110, 0] and row["written"] == [10, 100, 0]
    m = new("tysiac-pl", presets=[LOSE1], bid_step=5, round_to=5)
    row = lose1_deal(m, 105)
    assert row["points"] == [15, 105, 0] and row["written"] == [15, 105, 0]


def test_goal_strict_open_barrel_M29():
    m = new("tysiac-pl", presets=[LOSE1], start_total_1=900, goal_strict=True)
    lose1_deal(m, 100)
    assert not m.is_over() and m.view(None)["totals"][1] == 1000


def test_not_to_act_and_bad_seat_ENGINE_API():
    m = new("thousand-ru", presets=[strong(0)])
    assert m.legal_actions(0) == [] and m.legal_actions(2) == []
    with pytest.raises(ValueError):
        m.legal_actions(3)
    with pytest.raises(ValueError):
        m.apply(7, "bid:100")
