"""The per-deal seed mode (``new_match(..., deal_seeds=True)``; rule C-3): deal k's
shuffles come from (seed, k) alone, so two tables of one seed stay in step whatever
one of them redeals; without it every match deals exactly as before."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from engine import VARIANTS, find_variant

# Digests of the deals of a seeded random match per variant and seat count, taken
# before the per-deal mode existed: the default mode must deal the very same cards.
DEALS_BEFORE = {
    ("thousand-1001", 3): (34, "36c630f4c406c86a"), ("thousand-1001", 4): (34, "42638fb5486acbb1"),
    ("thousand-1000", 3): (29, "dbbbf21af8ffe023"), ("thousand-1000", 4): (29, "0d7d7d38cb15e561"),
    ("thousand-1000-2p", 2): (26, "f7585ee49cf1340e"), ("king-classic", 4): (15, "8537d7a6cf2a01c0"),
    ("king-ordered", 4): (19, "32e3549d4f2526a7"), ("king-3p", 3): (13, "48f7c19df2a6244d"),
    ("korol-ru", 4): (16, "0bbd0565506c6281"), ("krol-pl", 4): (13, "d9639449addcf58d"),
    ("thousand-ru", 2): (26, "9e27eeb2207c219c"), ("thousand-ru", 3): (25, "3a3b86b4dc8a9cfb"),
    ("thousand-ru", 4): (25, "3f188b6dadf00993"), ("tysiac-pl", 2): (23, "93f8e07a3a37c410"),
    ("tysiac-pl", 3): (21, "3dbdec95f2674033"), ("tysiac-pl", 4): (21, "bd0aead7b48871a4"),
}
DEALT = ("deal", "dealer", "hands", "talon", "stock", "rest", "struck")


def played(variant: str, seats: int, seed: int, steps: int = 600, **kw):
    m = find_variant(variant).new_match(seats, seed=seed, **kw)
    pick = random.Random(5)
    for _ in range(steps):
        if m.is_over():
            break
        s = m.to_act()[0]
        m.apply(s, pick.choice(m.legal_actions(s)))
    return m


def digest(m) -> tuple[int, str]:
    deals = [{k: v for k, v in h.items() if k in DEALT} for h in m.history()]
    return len(deals), hashlib.sha256(json.dumps(deals, sort_keys=True).encode()).hexdigest()[:16]


def test_every_variant_is_listed():
    assert {v for v, _ in DEALS_BEFORE} == set(VARIANTS)


@pytest.mark.parametrize(("variant", "seats"), sorted(DEALS_BEFORE))
def test_old_seeds_deal_as_before_C3(variant, seats):
    assert digest(played(variant, seats, 20261205)) == DEALS_BEFORE[(variant, seats)]


def until_deal(m, number: int, strike_first: bool | None = None):
    """Play ``m`` (seeded random, never a redeal after the first choice) until deal
    ``number`` is finished; ``strike_first``: the first strike/accept choice."""
    pick = random.Random(3)
    while len(m.history()) < number:
        s = m.to_act()[0]
        legal = m.legal_actions(s)
        if "accept" in legal:
            choice = "strike" if strike_first else "accept"
            strike_first = False
        else:
            choice = pick.choice(legal)
        m.apply(s, choice)
    return m


def modern(deal_seeds: bool):
    # M-6: with redeal_weak_below 40 the first seat asked may demand a redeal
    return find_variant("thousand-ru").new_match(3, seed=1, options={"redeal_weak_below": 40},
                                                 deal_seeds=deal_seeds)


def first_calls(m):
    m.apply(m.to_act()[0], "bid:100")  # the opening call (M-5): then the cards are dealt
    assert m.phase == "strike"
    return m


def test_a_redeal_at_one_table_keeps_later_deals_in_step_C3():
    struck = until_deal(first_calls(modern(True)), 2, strike_first=True)
    kept = until_deal(first_calls(modern(True)), 2, strike_first=False)
    h_struck, h_kept = struck.history(), kept.history()
    assert h_struck[0]["hands"] != h_kept[0]["hands"]  # deal 1 was dealt again at one table
    assert h_struck[1]["dealer"] == h_kept[1]["dealer"]
    assert h_struck[1]["hands"] == h_kept[1]["hands"]  # deal 2 is the same at both
    assert h_struck[1]["talon"] == h_kept[1]["talon"]


def test_without_the_mode_a_redeal_shifts_later_deals_C3():
    struck = until_deal(first_calls(modern(False)), 2, strike_first=True)
    kept = until_deal(first_calls(modern(False)), 2, strike_first=False)
    assert struck.history()[1]["hands"] != kept.history()[1]["hands"]


def test_the_mode_keeps_the_first_dealer_and_changes_the_cards_C3():
    v = find_variant("thousand-1001")
    for seed in range(20):
        a, b = v.new_match(3, seed=seed), v.new_match(3, seed=seed, deal_seeds=True)
        assert a.dealer == b.dealer  # the draw for the first dealer: random.Random(seed)
    a, b = played("thousand-1001", 3, 9, steps=0), played("thousand-1001", 3, 9, steps=0, deal_seeds=True)
    assert a.card_locations() != b.card_locations()


def test_replay_and_take_back_keep_the_mode_C3():
    m = played("tysiac-pl", 3, 11, steps=250, deal_seeds=True)
    assert m.deal_seeds
    twin = m.replay()
    assert twin.deal_seeds and twin.history() == m.history()
    assert all(twin.view(s) == m.view(s) for s in range(3))
    assert m.deal_positions(1)["deal"] == 1


def test_determinize_does_not_know_the_next_deal_C3():
    m = played("thousand-1001", 3, 4, steps=0, deal_seeds=True)
    real = until_deal(m.copy(), 1)
    seat = m.to_act()[0]
    guesses = {json.dumps(until_deal(m.determinize(seat, random.Random(r)), 1).view(seat)["hand"])
               for r in range(3)}
    assert json.dumps(real.view(seat)["hand"]) not in guesses
    assert m.determinize(seat, random.Random(0)).deal_seeds


def test_deal_seeds_must_be_a_bool():
    with pytest.raises(ValueError, match="deal_seeds"):
        find_variant("king-3p").new_match(3, seed=1, deal_seeds=1)
