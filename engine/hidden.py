"""Dealing the cards a seat does not know anew (the tool of ``determinize``):
random placement into slots that respect known voids and known cards."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any


def assign_hidden(cards: Iterable[str], slots: Sequence[tuple[Any, int, frozenset | set]],
                  rng: random.Random) -> dict[Any, list[str]]:
    """Deal ``cards`` at random into ``slots`` = ``[(key, size, forbidden), ...]``.

    The sizes must add up to the number of cards.  ``forbidden`` holds suits
    (a seat known to be void in them) and / or card codes (cards a seat is
    known not to hold); a slot never receives a forbidden card.  The cards are first put in a canonical
    order, so the result depends only on the set of cards and the rng.
    """
    pool = sorted(cards)
    total = sum(size for _, size, _ in slots)
    if total != len(pool):
        raise ValueError(f"assign_hidden: {len(pool)} cards for {total} places")
    for _ in range(200):
        rng.shuffle(pool)
        out = _greedy_fill(pool, slots, rng)
        if out is not None:
            return out
    out = _exact_fill(sorted(pool), slots, rng)
    if out is None:
        raise ValueError("assign_hidden: the known voids leave no way to place the cards")
    return out


def _greedy_fill(pool: list[str], slots, rng) -> dict | None:
    # Fill the most constrained slots first, from a shuffled pool.
    order = sorted(range(len(slots)), key=lambda i: -len(slots[i][2]))
    remaining = list(pool)
    out: dict[Any, list[str]] = {}
    for i in order:
        key, size, banned = slots[i]
        take = ([c for c in remaining if c[1] not in banned and c not in banned][:size]
                if banned else remaining[:size])
        if len(take) < size:
            return None
        taken = set(take)
        remaining = [c for c in remaining if c not in taken]
        out[key] = take
    return out


def _exact_fill(pool: list[str], slots, rng) -> dict | None:
    # Backtracking for tight void constraints (rare).
    rng.shuffle(pool)
    left = [size for _, size, _ in slots]
    put: list[list[str]] = [[] for _ in slots]

    def place(i: int) -> bool:
        if i == len(pool):
            return True
        card = pool[i]
        idx = list(range(len(slots)))
        rng.shuffle(idx)
        for j in idx:
            if left[j] and card[1] not in slots[j][2] and card not in slots[j][2]:
                left[j] -= 1
                put[j].append(card)
                if place(i + 1):
                    return True
                put[j].pop()
                left[j] += 1
        return False

    if not place(0):
        return None
    return {slots[j][0]: put[j] for j in range(len(slots))}
