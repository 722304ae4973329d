"""Тысяча's cards: order, points, marriages and the bidding cap (rules T-1, T-2, T-3, T-10)."""

from __future__ import annotations

from ..cards import card_strengths, make_deck

RANKS_LOW_TO_HIGH = "9JQKTA"  # rule T-1: A, T, K, Q, J, 9 high to low
DECK = make_deck("9TJQKA")  # rule T-1: 24 cards
STRENGTH = card_strengths(DECK, RANKS_LOW_TO_HIGH)
CARD_POINTS = {c: {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}[c[0]] for c in DECK}  # rule T-2
MARRIAGE_VALUE = {"H": 100, "D": 80, "C": 60, "S": 40}  # rule T-3
BASE_CAP = 120  # rule T-10
SUIT_CARDS = {s: frozenset(c for c in DECK if c[1] == s) for s in "SCDH"}


def marriages_held(hand) -> list[str]:
    """The suits whose K and Q are both in ``hand`` (rule T-3)."""
    return [s for s in "SCDH" if "K" + s in hand and "Q" + s in hand]


def bid_cap(hand) -> int:
    """Rule T-10: 120 without a marriage; plus the value of every marriage held."""
    return BASE_CAP + sum(MARRIAGE_VALUE[s] for s in marriages_held(hand))


def card_points(cards) -> int:
    return sum(CARD_POINTS[c] for c in cards)
