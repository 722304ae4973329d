"""The bot interface and the card knowledge every bot reads from a view.

A bot decides from what its seat may know and nothing else:

* ``bot.choose(view, rng=None, determinize=None) -> action`` — ``view`` is
  ``match.view(seat)``; ``determinize(rng)`` (search bots only) returns a copy
  of the match in which every card hidden from the seat is dealt anew
  (``match.determinize(seat, rng)``).
* ``bot.act(match, seat)`` is the convenience wrapper the server uses: it
  passes exactly those two things, never the match itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..core import Match, find_variant
from ..tricks import winning_play

Determinize = Callable[[random.Random], Match]

#: Rank order, low to high, per family (rules T-1, K-1, R-1).
RANK_ORDER = {"thousand": "9JQKTA", "king": "789TJQKA", "korol": "6789TJQKA"}
SUITS = "SCDH"
_FAMILY: dict[str, str] = {}


def family_of(view: dict) -> str:
    vid = view["variant"]
    fam = _FAMILY.get(vid)
    if fam is None:
        fam = _FAMILY[vid] = find_variant(vid).family
    return fam


class Bot:
    """Base class: a seeded decision maker for one seat."""

    level = "base"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: dict, rng: random.Random | None = None,
               determinize: Determinize | None = None) -> str:
        raise NotImplementedError

    def act(self, match: Match, seat: int) -> str:
        """The action for ``seat``: only its view and determinized copies are used."""
        return self.choose(match.view(seat), None, lambda rng: match.determinize(seat, rng))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} level={self.level} seed={self.seed}>"


_STRENGTH: dict[str, dict[str, int]] = {
    fam: {r + s: i for i, r in enumerate(order) for s in SUITS} for fam, order in RANK_ORDER.items()}
_DECK: dict[str, frozenset] = {}


def _deck(variant: str, family: str) -> frozenset:
    deck = _DECK.get(variant)
    if deck is None:
        cards = set(_STRENGTH[family])
        if variant == "king-3p":  # rule K-17: no A♠, A♣
            cards -= {"AS", "AC"}
        deck = _DECK[variant] = frozenset(cards)
    return deck


class Knowledge:
    """What a view tells about the cards of the current deal."""

    __slots__ = ("view", "family", "strength", "hand", "trump", "trick", "seat",
                 "legal", "players", "_unknown")

    def __init__(self, view: dict) -> None:
        self.view = view
        self.family = family_of(view)
        self.strength = _STRENGTH[self.family]
        self.hand = view["hand"]
        self.trump = view.get("trump")
        self.trick = [(s, c) for s, c in view.get("trick") or []]
        self.seat = view["seat"]
        self.legal = view["legal"]
        active = view.get("active")
        self.players = len(active) if active else len(view["hand_sizes"])
        self._unknown = None

    @property
    def unknown(self) -> set[str]:
        """Cards of the deck this seat has not seen played, held or face up."""
        if self._unknown is None:
            seen = set(self.hand)
            seen.update(self.view.get("face_up") or ())
            for _, act in self.view.get("log") or ():
                if act and act.startswith(("play:", "marriage:")):
                    seen.add(act[act.index(":") + 1:][:2])
            seen.update(c for _, c in self.trick)
            self._unknown = set(_deck(self.view["variant"], self.family) - seen)
        return self._unknown

    # -- trick helpers ---------------------------------------------------------

    def winner(self) -> tuple[int, str] | None:
        if not self.trick:
            return None
        return winning_play(self.trick, self.trump, self.strength)

    def beats(self, card: str) -> bool:
        """Would ``card`` win the trick as it stands?"""
        if not self.trick:
            return True
        return winning_play(self.trick + [(self.seat, card)], self.trump,
                            self.strength)[0] == self.seat

    def is_last(self) -> bool:
        """Does this seat play the last card of the trick?"""
        return len(self.trick) == self.players - 1

    def higher_unknown(self, card: str) -> int:
        """How many cards of its suit, higher than ``card``, others may hold."""
        st = self.strength[card]
        return sum(1 for c in self.unknown if c[1] == card[1] and self.strength[c] > st)

    def is_master(self, card: str) -> bool:
        return self.higher_unknown(card) == 0

    def suit_count(self, suit: str, cards=None) -> int:
        return sum(1 for c in (self.hand if cards is None else cards) if c[1] == suit)


def kind(action: str) -> str:
    return action.split(":", 1)[0]


def card_of(action: str) -> str:
    """``play:TH`` / ``give:QS>2`` / ``swap:8S`` -> the card code."""
    return action.split(":", 1)[1][:2]
