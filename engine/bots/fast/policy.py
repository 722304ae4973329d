"""Play-out policies for the compact state: ``policy(state, legal, rng) -> code``."""

from __future__ import annotations

import random
from typing import Any

from .state import MARRY, QUIT


def random_policy(state: Any, legal: list[int], rng: random.Random) -> int:
    """Any legal code, uniformly (never the quit of Тысяча: a play-out plays the deal)."""
    n = len(legal)
    if legal[-1] >= QUIT and n > 1:  # the quit is listed last
        n -= 1
    return legal[int(rng.random() * n)]


def _beats(state: Any, code: int) -> bool:
    """Would ``code`` take the lead of the trick as it stands (rule C-4)?"""
    best = state.best
    suit = code // 9
    if suit == best // 9:
        return code > best
    return suit == state.trump


def greedy_policy(state: Any, legal: list[int], rng: random.Random) -> int:
    """A cheap rule of thumb: declare the best marriage you may; when tricks are
    wanted, lead high side cards, win a trick as cheaply as you can, else throw
    your lowest card; in Кинг's negative deals the other way round (lead low,
    stay under the trick with your highest card that does, else play high)."""
    trump = state.trump
    marry = [c for c in legal if MARRY <= c < QUIT]
    if marry:
        return max(marry)
    cards = [c for c in legal if c < MARRY]
    avoid = not state.wants_tricks()
    if not state.trick:
        if avoid:
            return min(cards, key=lambda c: (c % 9, c))
        return max(cards, key=lambda c: (c // 9 != trump, c % 9, c))
    win = [c for c in cards if _beats(state, c)]
    if avoid:
        under = [c for c in cards if c not in win]
        return max(under or cards, key=lambda c: (c % 9, c))
    if win:
        return min(win, key=lambda c: (c // 9 == trump, c % 9, c))
    return min(cards, key=lambda c: (c // 9 == trump, c % 9, c))
