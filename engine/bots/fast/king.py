"""Кинг's trick play on the compact state (rules K-3, K-6, K-7, K-8, K-12); the
deal's scores by the engine's own functions (``king_rules.penalties``,
``trick_pay``: K-4, K-9, K-13, K-17)."""

from __future__ import annotations

from typing import Any

from ... import Match, find_variant
from ...variants.king_rules import EARLY_END_CARDS, KING_MUST_GO, NO_HEART_LEAD, TRUMP, penalties, trick_pay
from .state import SUIT_MASK, PlayState, bits, mask_of

_HEARTS = SUIT_MASK[3]


class KingState(PlayState):
    """Scores: the deal's row ``scores`` (penalties negative, trump pay positive)."""

    __slots__ = ("contract", "chooser", "no_heart_lead", "king_must_go", "king_strict", "kh", "ah",
                 "penalty_mask", "taken", "hand_size", "before_winners")

    def __init__(self, match: Match, view: dict, where: dict[str, list[str]]) -> None:
        self._base(match, view, where)
        n = self.seats
        self.contract = c = view["contract"]
        self.chooser = view["chooser"]
        self.no_heart_lead = c in NO_HEART_LEAD  # K-6
        self.king_must_go = c in KING_MUST_GO  # K-7
        self.king_strict = self.king_must_go and view["options"]["king_strict"]
        self.kh = self.code_of["KH"]
        self.ah = self.code_of["AH"]
        self.penalty_mask = mask_of(EARLY_END_CARDS.get(c, ()), self.code_of)  # K-8
        self.taken = 0
        for w in self.won:
            self.taken |= w
        self.nxt = {s: (s + 1) % n for s in range(n)}  # C-1: to the left
        self.size = n
        self.tricks = list(view["tricks_taken"])
        self.hand_size = len(find_variant(match.variant.id).deck(n)) // n  # K-2
        # the winners of the tricks before (last2 reads the last two: the last trick's last)
        last = view["last_trick"]["winner"] if any(self.tricks) else None
        before = [s for s in range(n) if s != last for _ in range(self.tricks[s])]
        if last is not None:
            before += [last] * self.tricks[last]
        self.before_winners = tuple(before)
        self._lay_trick(view)

    def _copy_into(self, t: Any) -> None:
        t.contract, t.chooser, t.hand_size = self.contract, self.chooser, self.hand_size
        t.no_heart_lead, t.king_must_go, t.king_strict = self.no_heart_lead, self.king_must_go, self.king_strict
        t.kh, t.ah, t.penalty_mask, t.before_winners = self.kh, self.ah, self.penalty_mask, self.before_winners
        t.taken = self.taken

    def wants_tricks(self) -> bool:
        return self.contract == TRUMP

    def legal(self) -> list[int]:
        seat = self.turn
        hand = self.hands[seat]
        if not self.trick:
            if self.no_heart_lead:  # K-6
                other = hand & ~_HEARTS
                if other and other != hand:
                    return bits(other)
            elif self.trump >= 0 and seat != self.chooser:  # K-12
                other = hand & ~SUIT_MASK[self.trump]
                if other and other != hand:
                    return bits(other)
            return bits(hand)
        follow = hand & SUIT_MASK[self.led]
        if self.king_must_go and hand >> self.kh & 1:  # K-7
            if not follow:
                return [self.kh]
            if self.king_strict and self.led == 3 and any(c == self.ah for _, c in self.trick):
                return [self.kh]
        if follow:  # K-3, K-12
            return bits(follow)
        if self.trump >= 0:
            trumps = hand & SUIT_MASK[self.trump]
            if trumps:
                return bits(trumps)
        return bits(hand)

    def _after_trick(self, winner: int) -> None:
        self.turn = winner  # K-3, K-12
        self.taken |= self.won[winner]
        pm = self.penalty_mask
        if (pm and self.taken & pm == pm) or not self.hands[winner]:  # K-8, or the last trick
            self.done = True

    def trick_winners(self) -> list[int]:
        """The winner of every trick of the deal (those before the state as far as K-4
        needs them: counts, and the last one)."""
        return [*self.before_winners, *self.winners]

    def scores(self) -> list[int]:
        n = self.seats
        if self.contract == TRUMP:
            return trick_pay(n, self.trick_winners(), self.hand_size)  # K-13, K-17
        won = [[self.name_of[c] for c in bits(w)] for w in self.won]
        return [-p for p in penalties(self.contract, n, won, self.trick_winners())]  # K-4, K-9
