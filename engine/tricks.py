"""The trick mechanics every family shares (rule C-4): who wins a trick, which
cards may follow, and what a follower's card reveals about his hand.

A trick is a sequence of ``(seat, card)`` pairs (tuples or two-item lists) in
play order; ``strength`` maps a card code to the strength of its rank within
its suit (:func:`engine.cards.card_strengths`).  What differs between the
families' follow rules is data, a :class:`FollowRule`:

=============  ===========  ==========  ==================================
family         must trump   must beat   rules
=============  ===========  ==========  ==================================
Тысяча 1001    yes          no          T-21
Тысяча 1000    yes          yes         T-21, T-22 (unless trumped)
Кинг           yes          no          K-3, K-12 (K-7 on top, in king.py)
Король / Król  no           no          R-2
=============  ===========  ==========  ==================================

The lead (who may lead what) is each family's own rule and stays there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Trick = Sequence[Sequence]  # [(seat, card), ...] or [[seat, card], ...]


def winning_play(trick: Trick, trump: str | None, strength: dict[str, int]) -> tuple[int, str]:
    """The (seat, card) that wins the trick so far: the highest trump, else the
    highest card of the led suit (rule C-4)."""
    best_seat, best = trick[0]
    best_trump = best[1] == trump
    for seat, card in trick[1:]:
        suit = card[1]
        if suit == best[1]:
            if strength[card] > strength[best]:
                best_seat, best = seat, card
        elif suit == trump and not best_trump:
            best_seat, best, best_trump = seat, card, True
    return best_seat, best


def is_trumped(trick: Trick, trump: str | None) -> bool:
    """True when a trump has been played to a trick led in another suit."""
    if trump is None or not trick or trick[0][1][1] == trump:
        return False
    return any(card[1] == trump for _, card in trick[1:])


@dataclass(frozen=True)
class FollowRule:
    """How a card may follow a trick: the led suit if held (rule C-4) and then,
    per family, the duty to beat and the duty to trump (see the table above)."""

    must_trump: bool
    why_follow: str
    why_trump: str = ""
    must_beat: bool = False  # beat the highest card of the led suit, unless the trick is trumped
    why_beat: str = ""

    def playable(self, hand: Sequence[str], trick: Trick, trump: str | None,
                 strength: dict[str, int]) -> tuple[list[str], str]:
        """The cards of ``hand`` that may follow ``trick`` (not empty), and the
        reason why no other card may ("" when any card may)."""
        led = trick[0][1][1]
        follow = [c for c in hand if c[1] == led]
        if follow:
            if self.must_beat and not is_trumped(trick, trump):
                best = max(strength[c] for _, c in trick if c[1] == led)
                higher = [c for c in follow if strength[c] > best]
                if higher:
                    return higher, self.why_beat
            return follow, self.why_follow
        if self.must_trump and trump is not None:
            trumps = [c for c in hand if c[1] == trump]
            if trumps:
                return trumps, self.why_trump
        return list(hand), ""

    def playable_codes(self, hand: Sequence[str], trick: Trick, trump: str | None,
                       strength: dict[str, int], codes: dict[str, str]) -> list[str]:
        """:meth:`playable` written as actions (``codes``: card -> action text), in one
        pass over the hand in the common case (the search bots' inner loop)."""
        if not self.must_beat:
            led = trick[0][1][1]
            out = [codes[c] for c in hand if c[1] == led]
            if out:
                return out
        return [codes[c] for c in self.playable(hand, trick, trump, strength)[0]]

    def why_not(self, card: str, hand: Sequence[str], trick: Trick, trump: str | None,
                strength: dict[str, int]) -> str:
        """Why ``card`` (held) may not follow ``trick``; "" if it may."""
        cards, why = self.playable(hand, trick, trump, strength)
        if card in cards:
            return ""
        led = trick[0][1][1]
        if card[1] != led and any(c[1] == led for c in hand):
            return self.why_follow
        return why

    def reveals(self, trick: Trick, card: str, trump: str | None,
                strength: dict[str, int]) -> tuple[tuple[str, ...], int | None]:
        """What following ``trick`` with ``card`` shows everyone about the rest of
        the player's hand: the suits he holds none of, and the strength above
        which he holds no card of the led suit (None: nothing learnt)."""
        led = trick[0][1][1]
        if card[1] != led:  # void in the led suit, and in trumps if he had to trump and did not
            if self.must_trump and trump is not None and card[1] != trump:
                return (led, trump), None
            return (led,), None
        if self.must_beat and not is_trumped(trick, trump):
            best = max(strength[c] for _, c in trick if c[1] == led)
            if strength[card] < best:  # he could not beat it
                return (), best
        return (), None
