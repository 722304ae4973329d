"""Rules of thumb for Король / Król: take tricks, keep high trumps, pay tribute
with the lowest card, and judge spare hands, strikes and swaps by strength."""

from __future__ import annotations

import random

from .base import Knowledge, card_of, kind, play_to_win

# hand_strength of an average 9-card hand: no trump (Król's crowning, R-33) ~1.2;
# with a trump suit ~2.3.  Strike only a clearly poor hand (the pooling of R-43
# lets the King keep the best 9 of 18 cards anyway).
AVERAGE_NO_TRUMP = 1.2
STRIKE_BELOW = 1.5


def keep_value(k: Knowledge, card: str) -> float:
    v = k.strength[card]
    if card[1] == k.trump:
        v += 9
    return v


def hand_strength(k: Knowledge, cards=None) -> float:
    """Rough tricks the hand should take: high cards and trumps."""
    cards = k.hand if cards is None else cards
    st = k.strength
    s = 0.0
    for c in cards:
        if c[1] == k.trump:
            s += 0.5 + max(0, st[c] - 4) * 0.12
        elif c[0] == "A":
            s += 0.8
        elif c[0] == "K":
            s += 0.4
    return s


def decide(k: Knowledge, rng: random.Random) -> str | None:
    legal = k.legal
    kinds = {kind(a) for a in legal}
    if "play" in kinds:
        return "play:" + play_to_win(k, [card_of(a) for a in legal if kind(a) == "play"])
    if "give" in kinds or "discard" in kinds:
        acts = [a for a in legal if kind(a) in ("give", "discard")]
        return min(acts, key=lambda a: keep_value(k, card_of(a)))
    if "take" in kinds:  # rule R-23: the Peasant has no trump; take his best card
        takes = [a for a in legal if kind(a) == "take"]
        return max(takes, key=lambda a: keep_value(k, card_of(a)))
    if "swap" in kinds:  # rule R-26: the turned-up trump for our worst card
        swaps = [a for a in legal if kind(a) == "swap"]
        worst = min(swaps, key=lambda a: keep_value(k, card_of(a)))
        if card_of(worst)[1] != k.trump:
            return worst
        return "keep" if "keep" in legal else worst
    if "spare" in kinds:  # rule R-32: an unseen spare hand is an average hand
        if hand_strength(k) < AVERAGE_NO_TRUMP:
            return next(a for a in legal if kind(a) == "spare")
        return "keep"
    if "strike" in legal:  # rule R-42
        return "strike" if hand_strength(k) < STRIKE_BELOW else "accept"
    return None
