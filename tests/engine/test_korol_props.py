"""Король / Król: seeded random matches never break an invariant.

The harness (tests/engine/invariants.py) checks legality, card conservation,
views that show no unseen card (rule C-5), determinize, illegal actions
(rule C-6) and replay (rule C-3).  Here we add: what each seat believes it
knows of hidden cards is always true and is kept by determinize; each round's
titles are a permutation of the four (rules R-14, R-27, R-35, R-45); the
standings and winners follow rule R-4.

To keep CI short, four seeds in ten play the crowning alone, four one reign,
one two reigns and one the default three (rule R-4).
"""

import random

import pytest

from .invariants import matches_per_variant, play_checked

VARIANTS = ["korol-ru", "krol-pl"]
CHUNKS = 4
TITLES = ["king", "prince", "soldier", "peasant"]
POINTS = {"king": 3, "prince": 2, "soldier": 1, "peasant": 0}
REIGNS = [1, 0, 0, 2, 1, 0, 3, 1, 0, 1]  # by seed % 10; 3 is the default


def knowing_policy(match, seat, legal, rng):
    """Random play, checking at every step that knowledge is true, and now and
    then that a determinized copy keeps every card the seat knows in place."""
    match.check_knowledge()
    if rng.random() < 0.05:
        me = rng.randrange(4)
        twin = match.determinize(me, rng)
        where = {c: key for key, pile in twin.card_locations().items() for c in pile
                 if key.startswith(("hand:", "spare:")) or key in ("stock", "aside")}
        for card, place in match.known[me].items():
            assert where[card] == place, f"determinize moved {card}, known to seat {me}"
    if "accept" in legal and rng.random() < 0.7:
        return "accept"  # strikes are rarer than acceptance
    return rng.choice(legal)


def check_records(m, reigns: int) -> None:
    table = m.role_table()
    assert [r["round"] for r in table] == list(range(reigns + 1))  # rule R-4
    for row in table:
        assert sorted(row["titles"]) == sorted(TITLES)  # one title per seat per round
    points = [sum(POINTS[r["titles"][s]] for r in table) for s in range(4)]
    kings = [sum(r["titles"][s] == "king" for r in table) for s in range(4)]
    last = [TITLES.index(t) for t in table[-1]["titles"]]
    best = max((points[s], kings[s], -last[s]) for s in range(4))
    result = m.result()
    assert result["totals"] == points
    assert result["winners"] == [s for s in range(4) if (points[s], kings[s], -last[s]) == best]
    assert len(result["winners"]) == 1
    sheet = m.scoresheet()
    for r in range(reigns + 1):
        rows = [row for row in sheet if row["round"] == r]
        assert rows[-1]["totals"] == table[r]["tricks"]  # rule R-7
        assert [sum(row["scores"][s] for row in rows) for s in range(4)] == table[r]["tricks"]


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("variant", VARIANTS)
def test_random_matches_keep_the_invariants(variant, chunk):
    n = matches_per_variant()
    for seed in range(chunk, n, CHUNKS):
        reigns = REIGNS[seed % 10]
        m = play_checked(variant, 4, seed, options={"reigns": reigns}, policy=knowing_policy,
                         every=9 if reigns < 2 else 15)
        check_records(m, reigns)


def test_default_match_is_the_crowning_plus_three_reigns_R4():
    for variant in VARIANTS:
        from engine import find_variant
        m = find_variant(variant).new_match(4, seed=11)
        rng = random.Random(11)
        while not m.is_over():
            s = m.to_act()[0]
            m.apply(s, knowing_policy(m, s, m.legal_actions(s), rng))
        check_records(m, 3)
        assert m.view(0)["phase"] == "match_over"
