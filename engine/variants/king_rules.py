"""Кинг: the tables of the game (rules/king.md K-1, K-4, K-6 ... K-8, K-13, K-17)
and the scoring of one deal (K-9).  The match itself lives in ``king.py``."""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import card_strengths, make_deck
from ..errors import check

RANKS_LOW_TO_HIGH = "789TJQKA"  # rule K-1: A K Q J T 9 8 7, high to low

#: The seven negative contracts in the order of the table of K-4 (the default
#: order of rule K-5).
CONTRACTS: tuple[str, ...] = ("tricks", "boys", "girls", "hearts", "last2", "king", "all")
TRUMP = "trump"  # the contract column of a positive (trump) deal
SUITS = "SCDH"

# rule K-4 (4 players) and K-17 (3 players): the penalty for one unit of each
# contract ("all" is the six parts together).
PENALTY: dict[int, dict[str, int]] = {
    4: {"tricks": 2, "boys": 4, "girls": 4, "hearts": 2, "last2": 8, "king": 16},
    3: {"tricks": 2, "boys": 5, "girls": 5, "hearts": 2, "last2": 10, "king": 24},
}
# rule K-4 / K-17: the "total" column of the table, which every deal must hit (K-9).
CONTRACT_TOTAL: dict[int, dict[str, int]] = {
    4: {"tricks": 16, "boys": 16, "girls": 16, "hearts": 16, "last2": 16, "king": 16, "all": 96},
    3: {"tricks": 20, "boys": 20, "girls": 20, "hearts": 16, "last2": 20, "king": 24, "all": 120},
}
TRICK_PAY = {4: 3, 3: 4}  # rule K-13 (+3 a trick), K-17 (+4 a trick with three players)

NO_HEART_LEAD = frozenset({"hearts", "king", "all"})  # rule K-6
KING_MUST_GO = frozenset({"king", "all"})  # rule K-7

# rule K-8: the contracts that end as soon as all their penalty cards are taken.
EARLY_END_CARDS: dict[str, frozenset[str]] = {
    "boys": frozenset("J" + s for s in SUITS),
    "girls": frozenset("Q" + s for s in SUITS),
    "hearts": frozenset(r + "H" for r in RANKS_LOW_TO_HIGH),
    "king": frozenset({"KH"}),
}


def king_deck(seats: int) -> list[str]:
    """Rule K-1 / K-17: 32 cards 7..A; with three players without A♠ and A♣."""
    return make_deck(RANKS_LOW_TO_HIGH, without=("AS", "AC") if seats == 3 else ())


def king_strength(deck: Sequence[str]) -> dict[str, int]:
    return card_strengths(deck, RANKS_LOW_TO_HIGH)


def _card_points(seats: int, contract: str) -> dict[str, int]:
    """The penalty of each card taken, for the parts of K-4 that count cards."""
    per = PENALTY[seats]
    parts = ("boys", "girls", "hearts", "king") if contract == "all" else (contract,)
    points: dict[str, int] = {}
    for card in king_deck(seats):
        value = 0
        if "boys" in parts and card[0] == "J":
            value += per["boys"]
        if "girls" in parts and card[0] == "Q":
            value += per["girls"]
        if "hearts" in parts and card[1] == "H":
            value += per["hearts"]
        if "king" in parts and card == "KH":  # in `all` the K♥ counts as a heart and as the King
            value += per["king"]
        if value:
            points[card] = value
    return points


CARD_POINTS = {(n, c): _card_points(n, c) for n in PENALTY for c in CONTRACTS}


def penalties(contract: str, seats: int, won: Sequence[Sequence[str]],
              trick_winners: Sequence[int]) -> list[int]:
    """Penalty points (positive numbers) of each seat for a negative deal (K-4).

    ``won`` holds the cards each seat took, ``trick_winners`` the winner of each
    trick in play order."""
    per = PENALTY[seats]
    points = CARD_POINTS[seats, contract]
    out = [sum(points.get(c, 0) for c in pile) for pile in won] if points else [0] * seats
    if contract in ("tricks", "all"):
        for s in trick_winners:
            out[s] += per["tricks"]
    if contract in ("last2", "all"):
        for s in trick_winners[-2:]:
            out[s] += per["last2"]
    # rule K-9: the penalties of a negative deal add up to the contract's total.
    check(sum(out) == CONTRACT_TOTAL[seats][contract], f"K-9: {contract} penalties {out}")
    return out


def trick_pay(seats: int, trick_winners: Sequence[int], hand_size: int) -> list[int]:
    """Points of each seat for a positive deal (K-13, K-17)."""
    pay = TRICK_PAY[seats]
    out = [0] * seats
    for s in trick_winners:
        out[s] += pay
    check(sum(out) == pay * hand_size, f"K-13: trick pay {out}")
    return out
