"""Tournament pairings as pure functions (app/tournament_pairing.py; README "Clubs",
Tournaments): the round robin's circle method and spread schedule, byes, Swiss."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from app.tournament_pairing import (
    bye_counts,
    meetings,
    pair_key,
    round_robin,
    round_robin_cycle,
    swiss_round,
)


def seated(rnd) -> list:
    tables, byes = rnd
    return [p for t in tables for p in t] + list(byes)


def fair_byes(rounds, players) -> None:
    """Nobody has a second bye before everyone has had one."""
    seen: Counter = Counter()
    for _, byes in rounds:
        for p in byes:
            assert seen[p] <= min(seen[q] for q in players), (p, seen)
            seen[p] += 1


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_two_seat_round_robin_every_pair_meets_exactly_once(n):
    order = [f"p{i}" for i in range(n)]
    cycle = round_robin_cycle(order, 2)
    assert cycle == (n - 1 if n % 2 == 0 else n)
    rounds = round_robin(order, 2, cycle)
    for rnd in rounds:
        assert sorted(seated(rnd)) == sorted(order)  # everyone once a round
        assert all(len(t) == 2 for t in rnd[0])
        assert len(rnd[1]) == n % 2
    met = meetings(rounds)
    assert met == {pair_key(a, b): 1 for a, b in combinations(order, 2)}
    fair_byes(rounds, order)
    assert set(bye_counts(rounds).values()) <= {1} and len(bye_counts(rounds)) == n % 2 * n
    # deterministic, and past the cycle it repeats
    assert round_robin(order, 2, cycle) == rounds
    assert round_robin(order, 2, cycle + 1)[-1] == rounds[0]
    # each player sits first about as often as second
    first = Counter(t[0] for rnd in rounds for t in rnd[0])
    games = Counter(p for rnd in rounds for t in rnd[0] for p in t)
    assert all(abs(2 * first[p] - games[p]) <= 2 for p in order), (first, games)


@pytest.mark.parametrize("n,size", [(4, 4), (8, 4), (6, 3), (9, 3), (7, 3), (10, 4), (5, 4)])
def test_bigger_tables_spread_opponents_and_byes(n, size):
    order = list(range(n))
    cycle = round_robin_cycle(order, size)
    rounds = round_robin(order, size, cycle)
    met = meetings(rounds)
    assert {pair_key(a, b) for a, b in combinations(order, 2)} <= set(met)  # everyone met everyone
    for rnd in rounds:
        assert sorted(seated(rnd)) == order and all(len(t) == size for t in rnd[0])
        assert len(rnd[1]) == n % size
    fair_byes(rounds, order)
    if n == size:
        assert cycle == 1
    # the spread: nobody meets one opponent far more often than another
    assert max(met.values()) - min(met.values()) <= 3, met
    # a longer run keeps the byes fair too
    fair_byes(round_robin(order, size, cycle * 2), order)


@pytest.mark.parametrize("size,n", [(2, 7), (3, 10), (4, 17)])
def test_swiss_avoids_rematches_and_gives_byes_to_the_lowest_ranked(size, n):
    order = list(range(n))  # not a multiple of the size: byes every round
    rounds = []
    for r in range(3):
        ranked = sorted(order, key=lambda p: (-(p * 7 % 5), p))  # some standings
        rnd = swiss_round(ranked, size, rounds)
        tables, byes = rnd
        assert sorted(seated(rnd)) == order
        have = bye_counts(rounds)
        fewest = min(have.get(p, 0) for p in order)
        # the lowest-ranked among those with the fewest byes
        assert byes == [p for p in reversed(ranked) if have.get(p, 0) == fewest][:len(byes)]
        met = meetings(rounds)
        assert all(met.get(pair_key(a, b), 0) == 0 for t in tables for a, b in combinations(t, 2)), (r, tables)
        rounds.append(rnd)
    fair_byes(rounds, order)


def test_swiss_groups_by_score_and_rematches_only_when_it_must():
    ranked = ["a", "b", "c", "d"]
    first = swiss_round(ranked, 2, [])
    assert first == ([["a", "b"], ["c", "d"]], [])  # top down: 1 v 2, 3 v 4
    second = swiss_round(ranked, 2, [first])
    assert second == ([["a", "c"], ["b", "d"]], [])
    third = swiss_round(ranked, 2, [first, second])
    assert third == ([["a", "d"], ["b", "c"]], [])
    # everyone has met everyone: the fewest rematches, still top down
    fourth = swiss_round(ranked, 2, [first, second, third])
    assert sorted(seated(fourth)) == ranked and len(fourth[0]) == 2
