"""Cards, suits, ranks and decks (rule C-2).

A card is written rank + suit: ``TH`` is the ten of hearts.  Internally the
engine keeps cards as these two-character strings (cheap to hash, compare and
send); :class:`Card` is the value object for people and tests that want one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

RANKS = "6789TJQKA"
SUITS = "SCDH"  # ♠ ♣ ♦ ♥ — also the display order of a sorted hand
SUIT_SYMBOLS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
SUIT_ORDER = {s: i for i, s in enumerate(SUITS)}


class Card(NamedTuple):
    """A card as a value: ``Card.parse("TH") == Card("T", "H")``."""

    rank: str
    suit: str

    @classmethod
    def parse(cls, code: str) -> Card:
        if not is_card(code):
            raise ValueError(f"not a card code: {code!r} (rank of {RANKS} + suit of {SUITS})")
        return cls(code[0], code[1])

    def code(self) -> str:
        return self.rank + self.suit

    def __str__(self) -> str:
        return self.rank + self.suit

    def pretty(self) -> str:
        return ("10" if self.rank == "T" else self.rank) + SUIT_SYMBOLS[self.suit]


def is_card(code: object) -> bool:
    """True for a well-formed card code of the 36-card pack (rule C-2)."""
    return isinstance(code, str) and len(code) == 2 and code[0] in RANKS and code[1] in SUITS


def make_deck(ranks: str, *, without: Iterable[str] = ()) -> list[str]:
    """Every card of the given ranks in every suit, minus ``without``."""
    gone = set(without)
    return [r + s for s in SUITS for r in ranks if r + s not in gone]


def strength_table(ranks_low_to_high: str) -> dict[str, int]:
    """Map rank -> strength (higher wins) for a game's rank order."""
    return {r: i for i, r in enumerate(ranks_low_to_high)}


def card_strengths(deck: Iterable[str], ranks_low_to_high: str) -> dict[str, int]:
    """Map card code -> strength of its rank within its suit."""
    table = strength_table(ranks_low_to_high)
    return {c: table[c[0]] for c in deck}


def hand_order(strength: dict[str, int]) -> dict[str, tuple[int, int]]:
    """Card code -> its sort key in a hand, for every card of ``strength``: by suit
    ♠ ♣ ♦ ♥, then high to low within a suit (the view's order).  A match keeps it and
    sorts by a table lookup, not a function call per card."""
    return {c: (SUIT_ORDER[c[1]], -s) for c, s in strength.items()}


_WORDS = re.compile(r"[^0-9A-Za-z?]+")
_SPLIT = re.compile(r"([^0-9A-Za-z?]+)")


def cards_in(value: object, into: set[str] | None = None) -> set[str]:
    """Every card code anywhere in plain data (a view, an action): strings are split
    at punctuation (``show:JS,9S`` holds JS and 9S; ``give:??>2`` holds none)."""
    out = set() if into is None else into
    if isinstance(value, str):
        out.update(t for t in _WORDS.split(value) if is_card(t))
    elif isinstance(value, dict):
        for v in value.values():
            cards_in(v, out)
    elif isinstance(value, list | tuple):
        for v in value:
            cards_in(v, out)
    return out


def masked(text: str) -> str:
    """``text`` with every card code written ``??`` (how a seat that was not shown
    them reads it, rule C-5): ``give:QS>2`` -> ``give:??>2``."""
    parts = _SPLIT.split(text)  # words at the even places, the punctuation between them at the odd
    return "".join("??" if i % 2 == 0 and is_card(p) else p for i, p in enumerate(parts))


def parse_cards(text: str) -> list[str]:
    """``"AH TH KS"`` or ``"AH,TH,KS"`` -> ``["AH", "TH", "KS"]`` (for tests)."""
    codes = text.replace(",", " ").split()
    for code in codes:
        Card.parse(code)
    return codes
