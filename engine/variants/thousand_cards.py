"""Тысяча's rule tables, in one place (rules T-1 … T-3, T-7, T-10, T-12, T-13,
T-18, T-21 … T-24, T-27): the deck and its order, card points, marriages, the
bidding cap, the follow rules, the rounding and the fixed scores.  The match
(:mod:`thousand`), the bots and the tests import them from here."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from ..cards import card_strengths, make_deck
from ..errors import EngineError
from ..tricks import FollowRule, winning_play

RANKS_LOW_TO_HIGH = "9JQKTA"  # rule T-1: A, T, K, Q, J, 9 high to low
DECK = make_deck("9TJQKA")  # rule T-1: 24 cards
STRENGTH = card_strengths(DECK, RANKS_LOW_TO_HIGH)
RANK_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}  # rule T-2
CARD_POINTS = {c: RANK_POINTS[c[0]] for c in DECK}
MARRIAGE_VALUE = {"H": 100, "D": 80, "C": 60, "S": 40}  # rule T-3
ACES = ("AS", "AC", "AD", "AH")
ACE_MARRIAGE = 200  # M-17: all four aces, led as a marriage (modern Тысяча's option)
BASE_CAP = 120  # rule T-10
#: Why a declared marriage is never taken back (``Match.take_back_never``): leading its K
#: or Q as a marriage showed that the partner card is in the hand (rule T-23).
MARRIAGE_SHOWN = "a marriage declared showed where its partner card is; it cannot be unseen"
SUIT_CARDS = {s: frozenset(c for c in DECK if c[1] == s) for s in "SCDH"}

NEAR_850 = 850  # rules T-13, T-27: "the 850 stays 850 whatever the goal"
FINE_AT_850 = -100  # rule T-27: a zero deal at 850 or more
THROWN_FORCED_GAIN = 50  # rule T-12: each opponent when the forced declarer throws in
REFUSAL_GAIN = 60  # rule T-18: each opponent when the declarer refuses
ALL_NINES = 100  # rule T-7: the sitting-out dealer's talon of nines

# Rule T-21: follow suit, else trump, no duty to overtrump; T-22 (1000, 2p):
# beat the highest card of the led suit if you can, unless the trick is trumped.
_WHY_FOLLOW = "you must follow the led suit (rule T-21)"
_WHY_TRUMP = "you cannot follow suit, so you must play a trump (rule T-21)"
FOLLOW_1001 = FollowRule(must_trump=True, why_follow=_WHY_FOLLOW, why_trump=_WHY_TRUMP)
FOLLOW_1000 = FollowRule(must_trump=True, why_follow=_WHY_FOLLOW, why_trump=_WHY_TRUMP,
                         must_beat=True,
                         why_beat="you must beat the highest card of the led suit (rule T-22)")


_MARRIAGE_CARDS = [(s, "K" + s, "Q" + s) for s in "SCDH"]


def marriages_held(hand: Collection[str]) -> list[str]:
    """The suits whose K and Q are both in ``hand`` (rule T-3)."""
    return [s for s, k, q in _MARRIAGE_CARDS if k in hand and q in hand]


def in_marriage(card: str, hand: Collection[str]) -> bool:
    """True when ``card`` is the K or the Q of a marriage held in ``hand`` (rule T-3)."""
    return card[0] in "KQ" and "K" + card[1] in hand and "Q" + card[1] in hand


def bid_cap(hand: Collection[str]) -> int:
    """Rule T-10: 120 without a marriage; plus the value of every marriage held."""
    return BASE_CAP + sum(MARRIAGE_VALUE[s] for s in marriages_held(hand))


def card_points(cards: Iterable[str]) -> int:
    return sum(CARD_POINTS[c] for c in cards)


def round_to_5(points: int) -> int:
    """Rule T-24 in 1001: to the nearest multiple of 5 (37 -> 35, 98 -> 100)."""
    return 5 * ((points + 2) // 5)


def round_to_10(points: int, five_up: bool = True) -> int:
    """Rule T-24 in 1000 and 2p: to the nearest 10, a 5 up (option round5_up) or down."""
    rest = points % 10
    up = rest > 5 or (rest == 5 and five_up)
    return points - rest + (10 if up else 0)


def put_deal_keys(m: Any, v: dict) -> None:
    """The keys every Тысяча view (classic and modern) shows of the deal in play (rule C-5:
    all public): the trick, trump, bids, declarer, bid, contract, marriages, talon size,
    the active seats, tricks won and the goal."""
    v["trick"] = [[s, c] for s, c in m.trick]
    v["trump"] = m.trump
    v["bids"] = [[s, call] for s, call in m.bids]
    v["declarer"] = m.declarer
    v["bid"] = m.bid
    v["contract"] = m.contract
    v["marriages"] = [[s, suit] for s, suit, _ in m.marriages]
    v["talon_size"] = len(m.talon)
    v["active"] = list(m.active)
    v["tricks_won"] = list(m.tricks_won)
    v["goal"] = m.goal


def next_bidder(calling: list[int], passed: Collection[int], seat: int) -> int:
    """The next seat after ``seat``, in calling order, that has not passed (rule T-11:
    passing is final).  Called while at least two seats are still bidding."""
    i = calling.index(seat)
    for k in range(1, len(calling) + 1):
        nxt = calling[(i + k) % len(calling)]
        if nxt not in passed:
            return nxt
    raise EngineError("nobody is left to bid")


def take_pair(m: Any, seat: int, which: str) -> None:
    """Rules T-19, M-11 (two players): the declarer takes the top or the bottom pair
    of the talon, turned up for all; the other pair is set aside unseen."""
    talon = m.talon
    if which == "top":
        pair, m.aside = talon[:2], talon[2:]
    else:
        pair, m.aside = talon[2:], talon[:2]
    m.talon = []
    m.shown = list(pair)
    m._log(None, "show:" + ",".join(pair))
    m.hands[seat].extend(pair)
    m._talon_taken(seat)


def discard_face_down(m: Any, seat: int, card: str, text: str) -> bool:
    """Rules T-19, M-11: one card of the declarer's hand discarded face down (seen
    by him alone, rule C-5); True once both discards are made."""
    m.hands[seat].remove(card)
    m.discards.append(card)
    m._log(seat, text, hidden="discard:??", seen_by=(seat,))
    return len(m.discards) == 2


def play_to_trick(m: Any, seat: int, card: str, entry: Any) -> int | None:
    """A card (already out of the hand) put on the trick, classic and modern alike:
    the log ``entry``, then the next seat's turn or, with the trick full, its winner
    (rule C-4) takes it and leads (T-20).  Returns the winner of a full trick."""
    trick = m.trick
    trick.append((seat, card))
    m.played_by[card] = seat
    m.log.append(entry)
    if len(trick) < m.trick_size:
        m.turn = m.next_seat[seat]
        return None
    winner: int = winning_play(trick, m.trump, STRENGTH)[0]
    m.won[winner] += [c for _, c in trick]
    m.tricks_won[winner] += 1
    m.last_trick = {"cards": [[s, c] for s, c in trick], "winner": winner}
    m.trick = []
    m.turn = winner
    return winner


def locations(m: Any) -> dict[str, list[str]]:
    """Where every card of a Тысяча deal lies (classic and modern; for invariant tests)."""
    locs = {f"hand:{s}": list(h) for s, h in enumerate(m.hands)}
    locs.update({f"won:{s}": list(w) for s, w in enumerate(m.won)})
    locs["talon"] = list(m.talon)
    locs["trick"] = [c for _, c in m.trick]
    locs["discard"] = list(m.discards)
    locs["aside"] = list(m.aside)
    return locs


def positions(m: Any, face_up: list[str]) -> dict:
    """The Тысяча keys of a ``deal_positions`` step (classic and modern)."""
    return {"talon": list(m.talon), "trick": [[s, c] for s, c in m.trick],
            "taken": [list(w) for w in m.won], "trump": m.trump,
            "marriages": [[s, suit] for s, suit, _ in m.marriages],
            "contract": m.contract, "declarer": m.declarer, "face_up": face_up,
            "discards": list(m.discards), "aside": list(m.aside)}
