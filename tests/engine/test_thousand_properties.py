"""Property tests: seeded matches of every Тысяча variant never break an invariant.

The policy plays like a person (rules T-8 … T-19 choices made sensibly, cards
at random), so matches end: bids only up to what the hand is worth (T-10
caps them anyway), the contract is usually the winning bid, throwing in or
refusing is rare.  Goals vary (rule T-30) to keep the run short.
"""

from __future__ import annotations

import random

import pytest

from engine.variants.thousand_cards import MARRIAGE_VALUE, card_points, marriages_held
from tests.engine.invariants import matches_per_variant, play_checked

CHUNKS = 4
GOALS = [100, 200, 300, 400]


def person_policy(match, seat: int, legal: list[str], rng: random.Random) -> str:
    quits = [a for a in legal if a in ("throw", "refuse")]
    if quits and rng.random() < 0.03:
        return quits[0]
    rest = [a for a in legal if a not in ("throw", "refuse")] or legal
    bids = [a for a in rest if a.startswith("bid:")]
    if bids or rest == ["pass"]:
        hand = match.hands[seat]
        worth = card_points(hand) + 20 + sum(MARRIAGE_VALUE[s] for s in marriages_held(hand))
        lowest = bids[0] if bids else None
        if lowest and (int(lowest[4:]) <= worth + rng.randrange(20) or "pass" not in rest):
            return lowest
        return "pass"
    if rest[0].startswith("contract:"):
        return rest[0] if rng.random() < 0.9 or len(rest) == 1 else rest[1]
    marriages = [a for a in rest if a.startswith("marriage:")]
    if marriages and rng.random() < 0.7:
        return rng.choice(marriages)
    return rng.choice(rest)


CASES = [("thousand-1001", (3, 4)), ("thousand-1000", (3, 4)), ("thousand-1000-2p", (2,))]


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("variant_id,seat_counts", CASES, ids=[c[0] for c in CASES])
def test_random_matches_keep_invariants_C1_C6(variant_id, seat_counts, chunk):
    n = matches_per_variant()
    for seed in range(chunk, n, CHUNKS):
        seats = seat_counts[seed % len(seat_counts)]
        options = {"goal": GOALS[seed % len(GOALS)]} if seed % 25 else None  # rule T-30
        if variant_id != "thousand-1001" and seed % 7 == 3:
            options = {**(options or {}), "round5_up": False}  # rule T-24 option
        match = play_checked(variant_id, seats, seed, options=options, policy=person_policy)
        totals = match.result()["totals"]
        assert max(totals) >= match.options["goal"]  # rule T-29
