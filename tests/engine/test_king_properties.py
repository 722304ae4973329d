"""Кинг over seeded random matches: the harness invariants (legality, card
conservation, no view leaks, determinize, illegal actions, replay) plus the
game's own sums: every negative deal adds up to its contract's total (K-9),
every trump deal pays all its tricks (K-13, K-17), classic and 3-player
results add up to 0 (K-14), the ordered table is full at the end (K-16).

50 matches per variant in CI, 1,000 with KOZYR_LONG=1."""

from __future__ import annotations

import random

import pytest

from engine.variants.king_rules import CONTRACT_TOTAL, CONTRACTS, TRICK_PAY
from tests.engine.invariants import matches_per_variant, play_checked

VARIANTS = [("king-classic", 4), ("king-ordered", 4), ("king-3p", 3)]
CHUNKS = 4
# The expensive checks (illegal actions, determinize) every few steps; an
# ordered match is 36 deals long (1,100 actions, each checked), so it is
# checked less often to keep the family's CI run near three minutes.
EVERY = {"king-classic": 7, "king-ordered": 23, "king-3p": 7}
CI_MATCHES = {"king-classic": 50, "king-ordered": 50, "king-3p": 50}


def options_for(variant: str, seed: int) -> dict:
    """Vary the house rules over the seeds: K♥ strictness, a shuffled order."""
    opts: dict = {"king_strict": seed % 2 == 1}
    if variant != "king-ordered" and seed % 3 == 2:
        order = list(CONTRACTS)
        random.Random(seed).shuffle(order)
        opts["order"] = order
    return opts


def check_sums(m) -> None:
    n = m.seats
    hand = len(m.deck) // n
    rows = m.scoresheet()
    for row in rows:
        if row["contract"] == "trump":
            assert sum(row["scores"]) == TRICK_PAY[n] * hand  # rules K-13, K-17
        else:
            assert -sum(row["scores"]) == CONTRACT_TOTAL[n][row["contract"]]  # rule K-9
    result = m.result()
    assert result["totals"] == rows[-1]["totals"]
    if m.variant.id == "king-ordered":
        assert len(rows) == 36
        for row in rows:
            assert sum(row["relative"]) == 0
        for orders in m.view(None)["orders"]:  # rule K-16: the table is full
            assert sorted(o for o in orders if not o.startswith("trump")) == sorted(CONTRACTS)
            assert len(orders) == 9
    else:
        assert len(rows) == 7 + 2 * n
        assert sum(result["totals"]) == 0  # rules K-14, K-17


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("variant,seats", VARIANTS)
def test_random_matches_K9_K13_K14_K16_K17(variant, seats, chunk):
    for seed in range(chunk, matches_per_variant(CI_MATCHES[variant]), CHUNKS):
        m = play_checked(variant, seats, seed, options=options_for(variant, seed),
                         every=EVERY[variant])
        check_sums(m)
