"""Modern Тысяча: the trick play (rules M-15, M-16, M-17; T-20, T-21, T-22, T-23).

A mixin of :class:`engine.variants.thousand_modern.ModernThousandMatch`; the
state it uses is set up there in ``_start_deal``.
"""

from __future__ import annotations

from ..actions import Action
from ..tricks import is_trumped
from .thousand_cards import DECK, STRENGTH, SUIT_CARDS, in_marriage, marriages_held, play_to_trick
from .thousand_modern_state import ModernState, card_of

ACES = ("AS", "AC", "AD", "AH")
PLAY_CODES = {c: "play:" + c for c in DECK}


class PlayMixin(ModernState):
    def _may_declare(self, seat: int) -> bool:
        """M-16: only after taking a trick (T-23, 1000 form), or on any lead."""
        return self.options["marriage_first_lead"] or self.tricks_won[seat] > 0

    def _legal_play(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        codes = PLAY_CODES
        if self.trick:
            return [codes[c] for c in self._playable(hand)]
        acts = [codes[c] for c in hand]
        if self._may_declare(seat):
            for suit in marriages_held(hand):  # M-16
                acts += ["marriage:K" + suit, "marriage:Q" + suit]
            if self.options["ace_marriage"] and all(a in hand for a in ACES):  # M-17
                acts += ["marriage:" + a for a in ACES]
        if self.first_lead and self._may_write_off():  # M-14: up to the first lead
            acts.append("writeoff")
        return acts

    def _beat_floor(self, suit: str) -> int:
        return max(STRENGTH[c] for _, c in self.trick if c[1] == suit)

    def _overtrumps(self, card: str) -> bool:
        """M-15: a follower trumping a trumped trick led in another suit."""
        trump = self.trump
        return (self.options["must_overtrump"] and trump is not None and card[1] == trump
                and self.trick[0][1][1] != trump and is_trumped(self.trick, trump))

    def _playable(self, hand: list[str]) -> list[str]:
        """M-15: the shared follow rule (T-21, T-22 with must_beat), then the
        duty to overtrump."""
        cards = self.follow.playable(hand, self.trick, self.trump, STRENGTH)[0]
        if self._overtrumps(cards[0]):
            best = self._beat_floor(self.trump)
            higher = [c for c in cards if STRENGTH[c] > best]
            if higher:
                return higher
        return cards

    def _note_follow(self, seat: int, card: str) -> None:
        """What a follower's card tells everyone about his hand (for determinize)."""
        voids, below = self.follow.reveals(self.trick, card, self.trump, STRENGTH)
        bans = self.bans[seat]
        for suit in voids:
            bans |= SUIT_CARDS[suit]
        if below is not None:  # could not beat the led suit
            bans.update(c for c in SUIT_CARDS[card[1]] if STRENGTH[c] > below)
        if self._overtrumps(card):
            best = self._beat_floor(self.trump)
            if STRENGTH[card] < best:  # could not overtrump
                bans.update(c for c in SUIT_CARDS[self.trump] if STRENGTH[c] > best)

    def _do_play(self, seat: int, act: Action) -> None:
        card, action = card_of(act), act.text
        self.hands[seat].remove(card)
        trick = self.trick
        if trick:
            self._note_follow(seat, card)
        else:
            self.first_lead = False
            if action[0] == "m":  # a marriage:
                if card[0] == "A":  # M-17: 200, no trump; the other aces are his
                    self.marriages.append((seat, "A", card))
                    for s in range(self.seats):
                        if s != seat:
                            self.bans[s].update(a for a in ACES if a != card)
                else:  # M-16: the suit is trump at once, the led card included
                    self.trump = card[1]
                    self.marriages.append((seat, card[1], card))
        winner = play_to_trick(self, seat, card, act.public[seat])  # C-4, T-20
        if winner is not None and not self.hands[winner]:
            self._score_played()

    def _why_not_this_card(self, seat: int, kind: str, card: str) -> str | None:
        hand = self.hands[seat]
        if kind == "marriage":
            if self.trick:
                return "a marriage is declared only when leading (rule M-16)"
            if card[0] == "A":
                return "an ace marriage needs all four aces and the option (rule M-17)"
            if not in_marriage(card, hand):
                return "you do not hold both the K and the Q of that suit (rule M-16)"
            return "a marriage may be declared only after taking a trick (rule M-16)"
        if not self.trick:
            return None
        why = self.follow.why_not(card, hand, self.trick, self.trump, STRENGTH)
        return why or "you must play a higher trump than the trick's (rule M-15)"
