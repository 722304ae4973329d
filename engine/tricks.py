"""The shared trick mechanics (rule C-4): following suit and trick winners.

A trick is a list of ``(seat, card)`` pairs in play order.  ``strength`` maps
a card code to the strength of its rank (see :func:`engine.cards.card_strengths`).
"""

from __future__ import annotations

from collections.abc import Sequence


def cards_of_suit(hand: Sequence[str], suit: str) -> list[str]:
    return [c for c in hand if c[1] == suit]


def has_suit(hand: Sequence[str], suit: str) -> bool:
    for c in hand:
        if c[1] == suit:
            return True
    return False


def follow_choices(hand: Sequence[str], led_suit: str | None, trump: str | None = None,
                   *, must_trump: bool = False) -> list[str]:
    """Cards a player may play to a trick under the plain rule of C-4.

    Follow the led suit if possible; otherwise, with ``must_trump``, a trump if
    he holds one; otherwise anything.
    """
    if led_suit is None:
        return list(hand)
    follow = [c for c in hand if c[1] == led_suit]
    if follow:
        return follow
    if must_trump and trump is not None:
        trumps = [c for c in hand if c[1] == trump]
        if trumps:
            return trumps
    return list(hand)


def winning_play(trick: Sequence[tuple[int, str]], trump: str | None,
                 strength: dict[str, int]) -> tuple[int, str]:
    """The (seat, card) that wins the trick so far: the highest trump, else the
    highest card of the led suit (rule C-4)."""
    best_seat, best = trick[0]
    best_trump = best[1] == trump
    for seat, card in trick[1:]:
        suit = card[1]
        if best_trump:
            if suit == trump and strength[card] > strength[best]:
                best_seat, best = seat, card
        elif suit == trump:
            best_seat, best, best_trump = seat, card, True
        elif suit == best[1] and strength[card] > strength[best]:
            best_seat, best = seat, card
    return best_seat, best


def trick_winner(trick: Sequence[tuple[int, str]], trump: str | None,
                 strength: dict[str, int]) -> int:
    return winning_play(trick, trump, strength)[0]


def is_trumped(trick: Sequence[tuple[int, str]], trump: str | None) -> bool:
    """True when a trump has been played to a trick led in another suit."""
    if trump is None or not trick or trick[0][1][1] == trump:
        return False
    return any(card[1] == trump for _, card in trick[1:])
