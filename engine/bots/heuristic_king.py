"""Rules of thumb for Кинг: duck and dump penalty cards in negative deals,
take tricks in trump deals, order the contract that suits the hand."""

from __future__ import annotations

import random

from ..variants.king_rules import CONTRACTS
from .base import SUITS, Knowledge, card_of, kind, play_to_win

NEGATIVE = CONTRACTS  # rule K-4


def penalty(contract: str, card: str) -> int:
    """Penalty weight of a card under a contract (rule K-4, 4-player values)."""
    p = 0
    if contract in ("boys", "all") and card[0] == "J":
        p += 4
    if contract in ("girls", "all") and card[0] == "Q":
        p += 4
    if contract in ("hearts", "all") and card[1] == "H":
        p += 2
    if contract in ("king", "all") and card == "KH":
        p += 16
    return p


def keep_value(k: Knowledge, card: str) -> float:
    contract = k.view.get("contract")
    if contract in NEGATIVE:  # keep low, harmless cards
        return -penalty(contract, card) * 10 - k.strength[card]
    return k.strength[card] + (10 if card[1] == k.trump else 0)


def decide(k: Knowledge, rng: random.Random) -> str | None:
    legal = k.legal
    kinds = {kind(a) for a in legal}
    if "trump" in kinds:
        return _choose_trump(k)
    if "order" in kinds:
        return _order(k)
    if "play" in kinds:
        cards = [card_of(a) for a in legal if kind(a) == "play"]
        contract = k.view.get("contract")
        if contract in NEGATIVE:
            return "play:" + play_negative(k, cards, contract)
        return "play:" + play_to_win(k, cards)
    return None


def _suit_score(cards, suit, strength) -> float:
    mine = [c for c in cards if c[1] == suit]
    return 3 * len(mine) + sum(max(0, strength[c] - 3) for c in mine)


def _choose_trump(k: Knowledge) -> str:
    # rule K-11: the chooser sees only his first three cards
    best = max(SUITS, key=lambda s: _suit_score(k.hand, s, k.strength))
    if _suit_score(k.hand, best, k.strength) < 5 and "trump:last" in k.legal:
        return "trump:last"
    return "trump:" + best


def _order(k: Knowledge) -> str:
    """Order what this hand does best relative to the table's average."""
    hand = k.hand
    st = k.strength
    high = sum(1 for c in hand if st[c] >= 6)  # K, A
    low = sum(1 for c in hand if st[c] <= 2)  # 7, 8, 9
    scores = {}
    for a in k.legal:
        what = a.split(":", 1)[1]
        if what.startswith("trump:"):
            s = what[-1]
            mine = [c for c in hand if c[1] == s]
            tricks = sum(1 for c in hand if c[0] == "A") + max(0, len(mine) - 2) + 0.5 * sum(
                1 for c in mine if c[0] in "KQ")
            scores[a] = 3 * tricks - 6
            continue
        risk = (high - low) / max(1, len(hand))  # > 0: we will take tricks
        base = {"tricks": 4, "boys": 4, "girls": 4, "hearts": 4, "last2": 4, "king": 4, "all": 24}
        own = sum(penalty(what, c) for c in hand)
        exposed = sum(penalty(what, c) for c in hand if _guarded(hand, c, st) is False)
        est = base.get(what, 4) * (1 + risk) + 0.5 * exposed + 0.1 * own
        if what == "king" and "KH" in hand and not _guarded(hand, "KH", st):
            est += 8
        scores[a] = base.get(what, 4) - est
    return max(k.legal, key=lambda a: scores.get(a, -99))


def _guarded(hand, card, st) -> bool:
    """A penalty card with two lower cards of its suit can usually be ducked."""
    lower = sum(1 for c in hand if c[1] == card[1] and st[c] < st[card])
    return lower >= 2


def play_negative(k: Knowledge, cards: list[str], contract: str) -> str:
    st = k.strength
    pen = {c: penalty(contract, c) for c in cards}
    tricks_left = len(k.hand)
    if contract == "last2" and tricks_left > 3:
        # early tricks cost nothing: shed high cards now
        if not k.trick or cards[0][1] != k.trick[0][1][1]:
            return max(cards, key=lambda c: st[c])
        return max(cards, key=lambda c: st[c])
    if not k.trick:
        return min(cards, key=lambda c: (pen[c] * 10 - 3 * k.higher_unknown(c) + st[c]
                                         - (2 if k.suit_count(c[1]) == 1 else 0)))
    led = k.trick[0][1][1]
    following = cards[0][1] == led
    if not following:  # void: dump the worst card
        return max(cards, key=lambda c: (pen[c] * 10 + st[c] + 2 * (k.suit_count(c[1]) == 1)
                                         + k.higher_unknown(c) * -0.5))
    under = [c for c in cards if not k.beats(c)]
    if under:
        return max(under, key=lambda c: (pen[c] * 10 + st[c]))
    if k.is_last():
        clean = [c for c in cards if pen[c] == 0] or cards
        return max(clean, key=lambda c: st[c])
    return min(cards, key=lambda c: (pen[c], st[c]))
