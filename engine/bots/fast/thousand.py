"""Тысяча's trick play on the compact state: classic (rules T-20 … T-29) and modern
(M-15 … M-22).  The tables (card points, marriage values, rounding) are the
engine's own (:mod:`engine.variants.thousand_cards`)."""

from __future__ import annotations

from typing import Any

from ... import Match
from ...variants.thousand_cards import (
    ACE_MARRIAGE,
    ALL_NINES,
    CARD_POINTS,
    FINE_AT_850,
    MARRIAGE_VALUE,
    NEAR_850,
    REFUSAL_GAIN,
    THROWN_FORCED_GAIN,
    card_points,
    marriages_held,
    round_to_5,
    round_to_10,
)
from ...variants.thousand_modern_score import ACE_SITTER
from .state import MARRY, QUIT, SUIT_MASK, SUITS, PlayState, bits, card_codes

MODERN = frozenset({"thousand-ru", "tysiac-pl"})
_QUIT_OF = {"thousand-1001": "throw", "thousand-1000": "refuse", "thousand-1000-2p": "refuse"}


def _suit_points() -> list[int]:
    """Card points of every 9-bit suit mask (rule T-2), for the Тысяча codes."""
    code_of, _ = card_codes("thousand-1001", 3)
    by_bit = [0] * 9
    for card, code in code_of.items():
        if card[1] == "S":
            by_bit[code] = CARD_POINTS[card]
    return [sum(p for b, p in enumerate(by_bit) if m >> b & 1) for m in range(512)]


SUIT_POINTS = _suit_points()
_K, _Q, _A = 3, 2, 5  # strengths of K, Q, A in the order 9 J Q K T A (rule T-1)


def points_of(mask: int) -> int:
    p = SUIT_POINTS
    return p[mask & 511] + p[mask >> 9 & 511] + p[mask >> 18 & 511] + p[mask >> 27 & 511]


class ThousandState(PlayState):
    """Scores: the deal's row as the engine writes it before any match rule: classic,
    the row's ``scores`` (T-25, T-26, T-27, T-7); modern, its ``written`` scores
    (M-19 … M-22: the barrel, bolts and the dump, M-23 steps 2-5, stay the engine's)."""

    __slots__ = ("modern", "declarer", "contract", "bid", "calling", "married",
                 "declare_any", "quit_ok", "must_beat", "overtrump", "ace_marriage",
                 "discards", "options", "before", "sitter", "sitter_score", "forced",
                 "blind", "golden", "quit", "marriages", "quit_scores")

    def __init__(self, match: Match, view: dict, where: dict[str, list[str]]) -> None:
        vid = match.variant.id
        self._base(match, view, where)
        self.modern = vid in MODERN
        o = self.options = view["options"]
        self.declarer = view["declarer"]
        self.contract = view["contract"]
        self.bid = view["bid"]
        self.calling = calling = tuple(view["active"])
        n = len(calling)
        self.nxt = {s: calling[(i + 1) % n] for i, s in enumerate(calling)}
        self.size = n
        self.tricks = list(view["tricks_won"])
        self.marriages = [(s, suit) for s, suit in view["marriages"]]
        self.married = [0] * self.seats
        for s, suit in self.marriages:
            self.married[s] += ACE_MARRIAGE if suit == "A" else MARRIAGE_VALUE[suit]
        first_lead = not view["trick"] and not any(self.tricks)
        self.discards = card_points(where.get("discard", ()))
        self.before = tuple(view["totals"])
        self.forced = bool(view.get("forced"))
        self.blind = self.modern and view["blind"] is not None and view["blind"] == self.declarer
        self.golden = self.modern and bool(view["golden"])
        self.quit = "writeoff" if self.modern else _QUIT_OF[vid]
        # the quit is offered until the first lead: the engine says whether it is now
        self.quit_ok = first_lead and self.quit in match.legal_actions(self.turn)
        if self.modern:
            self.declare_any = o["marriage_first_lead"]  # M-16
            self.must_beat, self.overtrump = o["must_beat"], o["must_overtrump"]  # M-15
            self.ace_marriage = o["ace_marriage"]  # M-17
        else:
            self.declare_any = vid == "thousand-1001"  # T-23
            self.must_beat, self.overtrump, self.ace_marriage = vid != "thousand-1001", False, False
        self.sitter = view.get("sitting_out") if self.modern else next(
            (s for s in range(self.seats) if s not in calling), None)
        self.sitter_score = 0
        self.quit_scores: list[int] | None = None
        if self.sitter is not None:
            shown = next(a for s, a in view["log"] if s is None and a.startswith("show:"))
            self.sitter_score = self._sitter(shown[5:].split(","))
        self._lay_trick(view)

    def _sitter(self, talon: list[str]) -> int:
        """T-7 / M-20: what the dealer who sits out writes for the talon as dealt."""
        if self.modern and self.options["sitter_scores"] != "points":
            aces = sum(1 for c in talon if c[0] == "A")
            return ACE_SITTER * aces + sum(MARRIAGE_VALUE[s] for s in marriages_held(talon))
        rounded = self._round(card_points(talon))
        if not self.modern and all(c[0] == "9" for c in talon):
            return ALL_NINES
        return rounded

    def _round(self, points: int) -> int:
        """T-24, M-18."""
        if self.modern:
            if self.options["round_to"] == 5:
                return round_to_5(points)
            return round_to_10(points, self.options["round5_up"])
        if self.variant_id == "thousand-1001":
            return round_to_5(points)
        return round_to_10(points, self.options["round5_up"])

    def _copy_into(self, t: Any) -> None:
        t.modern, t.declarer, t.contract, t.bid, t.calling = (
            self.modern, self.declarer, self.contract, self.bid, self.calling)
        t.declare_any, t.must_beat, t.overtrump, t.ace_marriage = (
            self.declare_any, self.must_beat, self.overtrump, self.ace_marriage)
        t.discards, t.options, t.before, t.sitter, t.sitter_score = (
            self.discards, self.options, self.before, self.sitter, self.sitter_score)
        t.forced, t.blind, t.golden, t.quit = self.forced, self.blind, self.golden, self.quit
        t.married, t.marriages = self.married.copy(), self.marriages.copy()
        t.quit_ok, t.quit_scores = self.quit_ok, self.quit_scores

    def extra_key(self) -> tuple:
        return tuple(self.married)  # the marriages declared (the trump is in the key)

    # -- legal (T-21, T-22, T-23; M-15, M-16, M-17) -----------------------------------

    def legal(self) -> list[int]:
        hand = self.hands[self.turn]
        if self.trick:
            return bits(self._follow(hand))
        out = bits(hand)
        if self.declare_any or self.tricks[self.turn] > 0:
            for s in range(4):
                k, q = 9 * s + _K, 9 * s + _Q
                if hand >> k & 1 and hand >> q & 1:
                    out += [q | MARRY, k | MARRY]
            if self.ace_marriage:
                aces = [9 * s + _A for s in range(4)]
                if all(hand >> a & 1 for a in aces):
                    out += [a | MARRY for a in aces]
        if self.quit_ok:
            out.append(QUIT)
        return out

    def _follow(self, hand: int) -> int:
        led = self.led
        follow = hand & SUIT_MASK[led]
        if follow:
            if self.must_beat and not self.trumped:  # T-22: beat the led suit's best
                best = self.best  # untrumped: the led suit's best card
                higher = follow >> (best + 1) << (best + 1)
                if higher:
                    return higher
            return follow
        trump = self.trump
        if trump >= 0:
            trumps = hand & SUIT_MASK[trump]
            if trumps:  # T-21: a trump when void
                if self.overtrump and self.trumped:  # M-15: above the trick's best trump
                    best = self.best
                    higher = trumps >> (best + 1) << (best + 1)
                    if higher:
                        return higher
                return trumps
        return hand

    # -- play -----------------------------------------------------------------------------

    def _special(self, code: int) -> int:
        if code >= QUIT:
            self._score_quit()
            return -1
        card = code & 63
        suit = card // 9
        if card % 9 == _A:  # M-17: 200, no trump
            self.marriages.append((self.turn, "A"))
            self.married[self.turn] += ACE_MARRIAGE
        else:  # T-23: trump at once, the led card included
            self.trump = suit
            self.marriages.append((self.turn, SUITS[suit]))
            self.married[self.turn] += MARRIAGE_VALUE[SUITS[suit]]
        return card

    def _after_trick(self, winner: int) -> None:
        self.quit_ok = False  # T-15, T-18, M-14: only before the first lead
        self.turn = winner  # T-20
        if not self.hands[winner]:
            self.done = True

    # -- scores (T-24 … T-27, M-18 … M-22) -----------------------------------------------

    def points_raw(self) -> list[int]:
        raw = [0] * self.seats
        for s in self.calling:
            raw[s] = points_of(self.won[s]) + (self.discards if s == self.declarer else 0)
        return raw

    def scores(self) -> list[int]:
        if self.quit_scores is not None:
            return list(self.quit_scores)
        raw = self.points_raw()
        out = [0] * self.seats
        d, contract = self.declarer, self.contract or 0
        count_rounded = not self.modern or self.options["declarer_rounds"]
        for s in self.calling:
            rounded = self._round(raw[s])
            if s == d:  # T-25, M-19
                count = (rounded if count_rounded else raw[s]) + self.married[s]
                out[s] = contract if count >= contract else -contract
            else:  # T-26
                out[s] = rounded + self.married[s]
        return self._close(out)

    def _close(self, out: list[int]) -> list[int]:
        if self.modern:
            if self.sitter is not None:
                out[self.sitter] = self.sitter_score
            if self.blind:  # M-22
                out[self.declarer] *= 2
            if self.golden:
                out = [2 * w for w in out]
            return out
        if self.variant_id != "thousand-1001":  # T-27
            for s in self.calling:
                if self.before[s] >= NEAR_850 and out[s] == 0:
                    out[s] = FINE_AT_850
        if self.sitter is not None:  # T-7
            out[self.sitter] = self.sitter_score
        return out

    def _score_quit(self) -> None:
        """T-12 / T-15 throw, T-18 refusal, M-21 write-off: the deal ends unplayed."""
        out = [0] * self.seats
        d = self.declarer
        opponents = [s for s in self.calling if s != d]
        if self.modern:
            a = self.contract if self.contract is not None else self.bid
            out[d] = -a if self.options["writeoff"] == "minus" else 0
            pay = 5 * -(-a // 10) if self.options["writeoff_pays"] == "half" else 60
            for s in opponents:
                out[s] = pay
            if self.sitter is not None:
                out[self.sitter] = self.sitter_score
            self.quit_scores = out  # M-22 never applies: no write-off when blind or golden
        else:
            if self.quit == "refuse":  # T-18
                out[d] = -(self.contract or 0)
                for s in opponents:
                    out[s] = REFUSAL_GAIN
            elif self.forced:  # T-12
                for s in opponents:
                    out[s] = THROWN_FORCED_GAIN
            else:  # T-15
                out[d] = -((self.contract if self.contract is not None else self.bid) or 0)
            self.quit_scores = self._close(out)
        self.done = True

    def _quit_text(self) -> str:
        return self.quit
