"""Dealing from the seed (rule C-3): the shuffle and a round-by-round deal.
The deal's log entries are :class:`engine.actions.LogEntry` (rule C-5)."""

from __future__ import annotations

import random
from collections.abc import Sequence

_BITS = [n.bit_length() for n in range(64)]


def shuffle(rng: random.Random, cards: list[str]) -> None:
    """``rng.shuffle(cards)``, the very same permutation drawn from the very same
    bits (rule C-3: a seed deals what it always dealt), without a method call per
    card: ``random.Random.shuffle`` is a Fisher-Yates over ``_randbelow``, which
    draws ``n.bit_length()`` bits until they fall below ``n``."""
    if type(rng) is not random.Random or len(cards) >= len(_BITS):
        rng.shuffle(cards)
        return
    getrandbits, bits = rng.getrandbits, _BITS
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = bits[n]
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def deal_cards_round(deck: list[str], order: Sequence[int], per_seat: int,
                     seats: int) -> tuple[list[list[str]], list[str]]:
    """Deal ``per_seat`` cards one at a time to ``order`` (a list of seats).

    Returns the hands per seat (in the order dealt) and the rest of the deck."""
    hands: list[list[str]] = [[] for _ in range(seats)]
    i = 0
    for _ in range(per_seat):
        for s in order:
            hands[s].append(deck[i])
            i += 1
    return hands, deck[i:]
