"""Rules of thumb for Тысяча: bid by hand strength, give away low cards,
lead aces, declare marriages, follow cheaply."""

from __future__ import annotations

import random

from ..tricks import winning_play
from ..variants.thousand_cards import MARRIAGE_VALUE as MARRIAGE
from ..variants.thousand_cards import RANK_POINTS as POINTS
from ..variants.thousand_cards import in_marriage
from ..variants.thousand_cards import marriages_held as marriages
from .base import SUITS, Knowledge, card_of, kind

RAISE_MARGIN = 25  # points of estimate kept in hand when naming a contract


def estimate(hand, talon_bonus: int = 10) -> int:
    """Points the hand should make as declarer (a rule of thumb, not a rule)."""
    held = set(hand)
    est = 0.8 * sum(POINTS[c[0]] for c in hand) + talon_bonus
    for s in SUITS:
        if "A" + s in held:
            est += 10
            if "T" + s in held:
                est += 6
    est += sum(MARRIAGE[s] for s in marriages(hand))
    return int(est)


def keep_value(k: Knowledge, card: str) -> float:
    held = set(k.hand)
    r, s = card[0], card[1]
    v = {"A": 100, "T": 40, "K": 15, "Q": 12, "J": 5, "9": 1}[r]
    if r == "T" and "A" + s in held:
        v += 30
    if in_marriage(card, held):
        v += 150
    return v + 0.1 * k.strength[card]


def decide(k: Knowledge, rng: random.Random) -> str | None:
    legal = k.legal
    kinds = {kind(a) for a in legal}
    v = k.view
    if "bid" in kinds or (kinds == {"pass"}):
        return _bid(k)
    if "throw" in legal and _hopeless(k):
        return "throw"
    if "contract" in kinds:
        return _contract(k)
    if "take" in kinds:
        return "take:top" if "take:top" in legal else next(a for a in legal if kind(a) == "take")
    if "give" in kinds:
        gives = [a for a in legal if kind(a) == "give"]
        card = min(dict.fromkeys(card_of(a) for a in gives), key=lambda c: keep_value(k, c))
        return next(a for a in gives if card_of(a) == card)
    if "discard" in kinds:
        return "discard:" + _discard(k, [card_of(a) for a in legal if kind(a) == "discard"])
    if "play" in kinds or "marriage" in kinds:
        return _play(k, v)
    return None


def _bid(k: Knowledge) -> str:
    bids = [a for a in k.legal if kind(a) == "bid"]
    if not bids:
        return k.legal[0]
    first = int(bids[0].split(":")[1])
    players = k.players
    bonus = 10 if players == 3 else 5
    if first <= estimate(k.hand, bonus) or "pass" not in k.legal:
        return bids[0]
    return "pass"


def _contract(k: Knowledge) -> str:
    """The winning bid, raised when the hand clearly makes more (T-14, T-16)."""
    offers = [a for a in k.legal if kind(a) == "contract"]
    talon_seen = bool(k.view.get("face_up")) or k.view.get("talon_size") == 0
    target = estimate(k.hand, 0 if talon_seen else 10) - RAISE_MARGIN
    fit = [a for a in offers if int(a.split(":")[1]) <= target]
    return fit[-1] if fit else offers[0]


def _hopeless(k: Knowledge) -> bool:
    v = k.view
    if v.get("declarer") != k.seat:
        return False
    target = v.get("contract") or v.get("bid") or 0
    return estimate(k.hand, 0) < target - (0 if v.get("forced") else 30)


def _discard(k: Knowledge, cards: list[str]) -> str:
    held = set(k.hand)

    def loser(c):
        r, s = c
        if r == "A" or (r == "T" and "A" + s in held):
            return False
        return not in_marriage(c, held)

    losers = [c for c in cards if loser(c)]
    if losers:  # a discard is taken by the declarer: bank the points of a loser
        return max(losers, key=lambda c: (POINTS[c[0]], -k.strength[c]))
    return min(cards, key=lambda c: keep_value(k, c))


def _cost(k: Knowledge, card: str) -> float:
    """What playing a card away costs: its points, its marriage, its mastery."""
    held = set(k.hand)
    r, s = card[0], card[1]
    c = POINTS[r] + 0.1 * k.strength[card]
    if in_marriage(card, held):
        c += 60
    if k.is_master(card):
        c += 15
    if s == k.trump:
        c += 8
    return c


def _play(k: Knowledge, v: dict) -> str:
    legal = k.legal
    mar = [card_of(a) for a in legal if kind(a) == "marriage"]
    cards = [card_of(a) for a in legal if kind(a) == "play"]
    if not k.trick:
        if mar:
            suit = max({c[1] for c in mar}, key=lambda s: MARRIAGE[s])
            return "marriage:Q" + suit
        masters = [c for c in cards if k.is_master(c) and not (c[1] != k.trump and k.trump
                                                                and _opp_void_risk(k, c[1]))]
        if masters:
            return "play:" + max(masters, key=lambda c: (POINTS[c[0]], k.strength[c]))
        return "play:" + min(cards, key=lambda c: _cost(k, c) + (10 if c[0] == "T" else 0))
    w_seat, w_card = winning_play(k.trick, k.trump, k.strength)  # the trick is not empty here
    declarer = v.get("declarer")
    partner_wins = declarer is not None and k.seat != declarer and w_seat != declarer
    winners = [c for c in cards if k.beats(c)]
    last = k.is_last()
    if partner_wins and (last or k.is_master(w_card) or w_card[1] == k.trump):
        safe = [c for c in cards if not k.beats(c)] or cards
        # smear: give the partner points that we would not win with anyway
        return "play:" + max(safe, key=lambda c: POINTS[c[0]] - (_cost(k, c) - POINTS[c[0]]))
    if winners and not partner_wins:
        if last:
            plain = [c for c in winners if not k.is_master(c) or c[0] == "T"]
            if plain:
                return "play:" + max(plain, key=lambda c: (POINTS[c[0]], -k.strength[c]))
            return "play:" + min(winners, key=lambda c: k.strength[c])
        sure = [c for c in winners if k.is_master(c)
                or (c[1] == k.trump and k.trick[0][1][1] != k.trump)]
        if sure:
            return "play:" + min(sure, key=lambda c: (c[1] == k.trump, k.strength[c]))
    return "play:" + min(cards, key=lambda c: _cost(k, c))


def _opp_void_risk(k: Knowledge, suit: str) -> bool:
    """Few cards of the suit left outside our hand: a lead may be trumped."""
    return sum(1 for c in k.unknown if c[1] == suit) < 2
