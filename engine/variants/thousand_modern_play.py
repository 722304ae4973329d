"""Modern Тысяча: the trick play (rules M-15, M-16, M-17; T-20, T-21, T-22, T-23).

A mixin of :class:`engine.variants.thousand_modern.ModernThousandMatch`; the
state it uses is set up there in ``_start_deal``.
"""

from __future__ import annotations

from ..core import LogEntry
from ..tricks import is_trumped, winning_play
from .thousand_cards import STRENGTH, SUIT_CARDS

PUBLIC: frozenset = frozenset()
ACES = ("AS", "AC", "AD", "AH")


class PlayMixin:
    def _may_declare(self, seat: int) -> bool:
        """M-16: only after taking a trick (T-23, 1000 form), or on any lead."""
        return self.options["marriage_first_lead"] or self.tricks_won[seat] > 0

    def _legal_play(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        if self.trick:
            return ["play:" + c for c in self._playable(hand)]
        acts = ["play:" + c for c in hand]
        if self._may_declare(seat):
            for suit in "SCDH":  # M-16
                if "K" + suit in hand and "Q" + suit in hand:
                    acts += ["marriage:K" + suit, "marriage:Q" + suit]
            if self.options["ace_marriage"] and all(a in hand for a in ACES):  # M-17
                acts += ["marriage:" + a for a in ACES]
        if self.first_lead and self._may_write_off():  # M-14: up to the first lead
            acts.append("writeoff")
        return acts

    def _beat_floor(self, suit: str) -> int:
        return max(STRENGTH[c] for _, c in self.trick if c[1] == suit)

    def _playable(self, hand: list[str]) -> list[str]:
        """M-15: follow; with must_beat beat the led suit; else trump (and overtrump)."""
        trick, trump = self.trick, self.trump
        led = trick[0][1][1]
        follow = [c for c in hand if c[1] == led]
        if follow:
            if self.options["must_beat"] and not is_trumped(trick, trump):  # T-22
                best = self._beat_floor(led)
                higher = [c for c in follow if STRENGTH[c] > best]
                if higher:
                    return higher
            return follow
        if trump is not None:
            trumps = [c for c in hand if c[1] == trump]
            if trumps:
                if self.options["must_overtrump"] and is_trumped(trick, trump):
                    best = self._beat_floor(trump)
                    higher = [c for c in trumps if STRENGTH[c] > best]
                    if higher:
                        return higher
                return trumps
        return list(hand)

    def _note_follow(self, seat: int, card: str) -> None:
        """What a follower's card tells everyone about his hand (for determinize)."""
        trick, trump = self.trick, self.trump
        led = trick[0][1][1]
        bans = self.bans[seat]
        must_beat = self.options["must_beat"]
        if card[1] != led:
            bans |= SUIT_CARDS[led]  # void in the led suit
            if trump is not None and card[1] != trump:
                bans |= SUIT_CARDS[trump]  # and in trumps
            elif (trump is not None and self.options["must_overtrump"]
                  and is_trumped(trick, trump)):
                best = self._beat_floor(trump)
                if STRENGTH[card] < best:  # could not overtrump
                    bans.update(c for c in SUIT_CARDS[trump] if STRENGTH[c] > best)
        elif must_beat and not is_trumped(trick, trump):
            best = self._beat_floor(led)
            if STRENGTH[card] < best:  # could not beat
                bans.update(c for c in SUIT_CARDS[led] if STRENGTH[c] > best)

    def _do_play(self, seat: int, card: str, action: str) -> None:
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
        trick.append((seat, card))
        self.played_by[card] = seat
        self.log.append(LogEntry(seat, action, None, PUBLIC))
        if len(trick) < self.trick_size:
            self.turn = self.next_seat[seat]
            return
        winner = winning_play(trick, self.trump, STRENGTH)[0]  # C-4
        self.won[winner] += [c for _, c in trick]
        self.tricks_won[winner] += 1
        self.last_trick = {"cards": [[s, c] for s, c in trick], "winner": winner}
        self.trick = []
        self.turn = winner  # T-20
        if not self.hands[winner]:
            self._score_played()

    def _why_not_this_card(self, seat: int, kind: str, card: str) -> str | None:
        hand = self.hands[seat]
        if kind == "marriage":
            if self.trick:
                return "a marriage is declared only when leading (rule M-16)"
            if card[0] == "A":
                return "an ace marriage needs all four aces and the option (rule M-17)"
            if card[0] not in "KQ" or "K" + card[1] not in hand or "Q" + card[1] not in hand:
                return "you do not hold both the K and the Q of that suit (rule M-16)"
            return "a marriage may be declared only after taking a trick (rule M-16)"
        if not self.trick:
            return None
        led = self.trick[0][1][1]
        if card[1] != led and any(c[1] == led for c in hand):
            return "you must follow the led suit (rule M-15)"
        if card[1] == led:
            return "you must beat the highest card of the led suit (rule M-15)"
        if card[1] == self.trump:
            return "you must play a higher trump (rule M-15)"
        return "you cannot follow suit, so you must play a trump (rule M-15)"
