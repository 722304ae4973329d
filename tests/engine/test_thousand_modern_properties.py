"""Property tests: seeded matches of `thousand-ru` and `tysiac-pl` at 2, 3 and 4
seats never break an invariant of tests/engine/invariants.py (C-1 … C-6):
every card in one place, no view shows another hand, garbage is rejected
without change, determinize keeps the view, replay gives an equal match — also
across voided deals (M-34).

The policy bids like a person (up to what the hand is worth) and plays cards
at random; strikes, blind calls and write-offs are taken now and then, so
voided deals and write-offs occur.  Option sets vary the rules on the way.
"""

from __future__ import annotations

import random

import pytest

import engine.variants.thousand_modern  # noqa: F401  (registers the variants)
from engine.bots import HeuristicBot
from engine.variants.thousand_cards import MARRIAGE_VALUE, card_points, marriages_held
from tests.engine.invariants import matches_per_variant, play_checked

CHUNKS = 3
GOALS = [300, 400, 500, 1000]
OPTION_SETS = [
    {},
    {"golden": True, "silence": True, "silence_below": -100, "ace_marriage": True},
    {"barrel_knockoff": False, "barrel_fail": "minus", "bolt_count": "row",
     "bolts": "zero_tricks", "redeal_talon_nines": True, "dump_negative": True},
    {"barrel": "off", "writeoff_limit": 0, "marriage_first_lead": True, "bid_cap": "none",
     "declarer_rounds": True, "goal_strict": True},
    {"barrel": "open", "barrel_gap": 100, "writeoff": "off", "must_beat": True,
     "must_overtrump": True, "sitter_scores": "aces_marriage", "round_to": 10},
    {"barrel": "frozen", "barrel_gap": 120, "writeoff": "bomb", "writeoff_pays": "sixty",
     "blind": True, "redeal_weak_below": 25, "barrel_third_fall": "zero", "bolts": "zero_score"},
]


def person_policy(match, seat: int, legal: list[str], rng: random.Random) -> str:
    if "strike" in legal and rng.random() < 0.3:
        return "strike"
    if "blind:120" in legal and rng.random() < 0.3:
        return "blind:120"
    if "writeoff" in legal and rng.random() < 0.05:
        return "writeoff"
    rest = [a for a in legal if a not in ("strike", "writeoff", "blind:120")] or legal
    if "accept" in rest:
        return "accept"
    bids = [a for a in rest if a.startswith("bid:")]
    if bids and "pass" not in rest:
        return bids[0]
    if bids or rest == ["pass"]:
        hand = match._hand(seat)
        worth = card_points(hand) + 25 + sum(MARRIAGE_VALUE[s] for s in marriages_held(hand))
        if bids and int(bids[0][4:]) <= worth + rng.randrange(20):
            return bids[0]
        return "pass"
    if rest[0].startswith("contract:"):
        return rest[0] if rng.random() < 0.9 or len(rest) == 1 else rest[1]
    if rng.random() < 0.3:
        return rng.choice(rest)
    # mostly the rule-of-thumb card play, so contracts are made and matches end
    choice = BOT.choose(match.bot_view(seat), rng)
    return choice if choice in rest else rng.choice(rest)


BOT = HeuristicBot(0)
CASES = ["thousand-ru", "tysiac-pl"]


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("variant_id", CASES)
def test_random_matches_keep_invariants_M1_M34(variant_id, chunk):
    n = matches_per_variant(12)
    for seed in range(chunk, n, CHUNKS):
        seats = (2, 3, 4)[seed % 3]
        options = {"goal": GOALS[seed % len(GOALS)], **OPTION_SETS[seed % len(OPTION_SETS)]}
        if options.get("barrel", "x") != "off" and options.get("barrel_gap", 200) >= options["goal"]:
            options["barrel_gap"] = 100
        if seed % 2:  # M-31: a match that starts near the goal ends sooner
            options.update({f"start_total_{k}": options["goal"] - 300 + 40 * k for k in range(seats)})
        match = play_checked(variant_id, seats, seed, options=options, policy=person_policy)
        totals = match.result()["totals"]
        goal = match.options["goal"]
        assert max(totals) > goal if match.options["goal_strict"] else max(totals) >= goal  # M-29
        sheet = match.scoresheet()
        for prev, row in zip([None, *sheet], sheet, strict=False):  # M-30: scores add up
            start = prev["totals"] if prev else [match.options[f"start_total_{k}"] for k in range(seats)]
            assert [a + b for a, b in zip(start, row["scores"], strict=True)] == row["totals"]
        for entry in match.history():
            assert "struck" in entry  # M-34
