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

from ..match import Match
from ..registry import find_variant
from ..tricks import winning_play

Determinize = Callable[[random.Random], Match]

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

    def __init__(self, seed: int = 0, *, strict: bool = False) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        #: False (at a table): a rule of thumb that fails is logged and a safe
        #: default played, so a bot never stops a match; True (tests): it raises.
        self.strict = strict

    def choose(self, view: dict, rng: random.Random | None = None,
               determinize: Determinize | None = None) -> str:
        raise NotImplementedError

    def act(self, match: Match, seat: int) -> str:
        """The action for ``seat``: only its view and determinized copies are used."""
        return self.choose(match.view(seat), None, lambda rng: match.determinize(seat, rng))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} level={self.level} seed={self.seed}>"


_TABLES: dict[tuple[str, int], tuple[dict[str, int], frozenset[str]]] = {}


def card_tables(variant_id: str, seats: int) -> tuple[dict[str, int], frozenset[str]]:
    """The variant's card strengths and deck at that many seats (from the engine's
    own tables: rules T-1, K-1, K-17, R-1), cached."""
    tables = _TABLES.get((variant_id, seats))
    if tables is None:
        variant = find_variant(variant_id)
        tables = _TABLES[variant_id, seats] = (variant.strength(seats),
                                               frozenset(variant.deck(seats)))
    return tables


class Knowledge:
    """What a view tells about the cards of the current deal."""

    __slots__ = ("view", "family", "strength", "deck", "hand", "trump", "trick", "seat",
                 "legal", "players", "_unknown")

    def __init__(self, view: dict) -> None:
        self.view = view
        self.family = family_of(view)
        self.strength, self.deck = card_tables(view["variant"], view["seats"])
        self.hand = view["hand"]
        self.trump = view.get("trump")
        self.trick = [(s, c) for s, c in view.get("trick") or []]
        self.seat = view["seat"]
        self.legal = view["legal"]
        active = view.get("active")
        self.players = len(active) if active else len(view["hand_sizes"])
        self._unknown: set[str] | None = None

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
            self._unknown = set(self.deck - seen)
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


# --------------------------------------------------------------------------
# Trick play shared by the families


def lowest(k: Knowledge, cards: list[str]) -> str:
    """The least useful card: a non-trump before a trump, low before high."""
    return min(cards, key=lambda c: (c[1] == k.trump, k.strength[c], c))


def play_to_win(k: Knowledge, cards: list[str]) -> str:
    """Positive play (trump deals of Кинг, Король): take tricks."""
    if not k.trick:
        return lead_to_win(k, cards)
    winners = [c for c in cards if k.beats(c)]
    if not winners:
        return lowest(k, cards)
    last = k.is_last()
    cheap = min(winners, key=lambda c: (k.strength[c] + (20 if c[1] == k.trump else 0)))
    if last:
        return cheap
    masters = [c for c in winners if k.is_master(c) or
               (c[1] == k.trump and k.trick[0][1][1] != k.trump)]
    if masters:
        return min(masters, key=lambda c: k.strength[c])
    return max(winners, key=lambda c: k.strength[c])


def lead_to_win(k: Knowledge, cards: list[str]) -> str:
    trump = k.trump
    masters = [c for c in cards if k.is_master(c)]
    my_trumps = [c for c in cards if c[1] == trump]
    unknown_trumps = sum(1 for c in k.unknown if c[1] == trump) if trump else 0
    if my_trumps and unknown_trumps and len(my_trumps) >= unknown_trumps:
        tm = [c for c in masters if c[1] == trump]
        if tm:  # draw trumps while we rule them
            return max(tm, key=lambda c: k.strength[c])
    side = [c for c in masters if c[1] != trump]
    if side:
        return max(side, key=lambda c: k.strength[c])
    if masters:
        return max(masters, key=lambda c: k.strength[c])
    plain = [c for c in cards if c[1] != trump] or cards
    if my_trumps:  # short suits first, to trump them later
        return min(plain, key=lambda c: (k.suit_count(c[1]), k.strength[c]))
    return min(plain, key=lambda c: (-k.suit_count(c[1]), k.strength[c]))
