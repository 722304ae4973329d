"""Reading the others' calls: how likely a sampled deal makes what they did.

``determinize`` deals the hidden cards anew keeping the hard facts only
(voids, shown marriages, where the talon went).  A player reads more: "he
bid 140 and has shown no marriage" makes some hands likelier than others.
:func:`weight` gives a sample an importance weight: the likelihood, under an
opponent model, of the calls every other seat made in this deal, with the
cards the sample gives it.

The opponent model is the rule-of-thumb (basic) bot's own, made soft: in
Тысяча it bids the lowest bid while the hand's estimate
(:func:`heuristic_thousand.estimate`, the same function the basic bot bids
by) covers it and passes otherwise; the soft version says a bid of ``X`` has
probability ``sigmoid((estimate - X) / SOFTNESS)`` and a pass the rest, never
less than ``FLOOR`` either way (people bid on hope, or sit on a good hand).
Per seat only its highest bid and its pass are read (the lower bids follow
from the highest).  The hand a seat held when it called is taken as its sampled hand now plus the
cards it has played in this deal (the log's plays are public); the cards a
declarer took or gave since are not subtracted (hidden from this seat), which
only makes the model a little softer for the declarer.

Король / Król: the basic bot's trick play is a rule (``play_to_win``: lead a sure
winner or from the longest suit; follow with the cheapest sure winner, else the
highest card that takes the lead, else the least useful card), so how a seat
played says much about what it held: "he played low to the King of spades, so
he has no Ace of spades", "he threw a club on a diamond trick nobody had
trumped, so he has no trump", "he led a small club, so he has no sure winner".
Each such play in this deal by another seat still in the round is read
(:func:`plays_read`: what that seat saw then, the log split into tricks without
the rules); a sample in which the basic bot, holding the sample's hand as it was
then (its cards now plus those it has played since), would have played another
card has the likelihood ``PLAY_FLOOR`` for that play (a person may duck, or
take with another card).  These weights are steep, so the search draws its
samples for Король / Król by rejection (``rejects``): it accepts a sample with
the probability of its weight, up to ``TRIES`` draws.

Тысяча's bids and passes and Король's plays are read so far; other families
(and other calls) give every sample the weight 1.
"""

from __future__ import annotations

import math
import random

from ..variants.korol_play import FOLLOW, SORT_KEY, STRENGTH
from .heuristic import HeuristicBot
from .heuristic_thousand import estimate

FLOOR = 0.08  # the least likelihood a call gets, whatever the hand
SOFTNESS = 15.0  # points of estimate over which a call turns from unlikely to likely
PLAY_FLOOR = 0.1  # Король / Król: the likelihood of a play the basic bot would not make
TRIES = 64  # Король / Król: samples drawn at most for one accepted by rejection

#: (seat, what it saw when it played (a view without its hand), the card, the cards
#: it played later in the deal)
Play = tuple[int, dict, str, tuple[str, ...]]
_RNG = random.Random(0)  # the basic bot's trick play draws nothing from it
_BASIC = HeuristicBot()  # the opponent model, one for every play read


def calls(view: dict) -> list[tuple[int, str, int | None]]:
    """The other seats' bids and passes in this deal as ``view`` shows them:
    ``(seat, "bid"|"pass", amount)``, the amount of a pass being the lowest bid it
    declined (``None`` when no bid had been made yet: nothing is read from it)."""
    me = view["seat"]
    out: list[tuple[int, str, int | None]] = []
    high: int | None = None
    step = 0  # the smallest raise seen (5 until one is seen)
    opened = False
    for seat, act in view.get("log") or ():
        if seat is None or not act:
            continue
        if act.startswith("bid:"):
            try:
                amount = int(act[4:])
            except ValueError:
                continue
            if high is not None and amount > high:
                step = min(step or amount - high, amount - high)
            if seat != me and opened:  # the first bid of a deal may be forced: not read
                out.append((seat, "bid", amount))
            opened = True
            high = amount if high is None else max(high, amount)
        elif act == "pass" and seat != me:
            out.append((seat, "pass", None if high is None else high + (step or 5)))
    return out


def played(view: dict) -> dict[int, list[str]]:
    """The cards each seat has played in this deal (public)."""
    out: dict[int, list[str]] = {}
    for seat, act in view.get("log") or ():
        if seat is not None and act and act.startswith(("play:", "marriage:")):
            out.setdefault(seat, []).append(act[act.index(":") + 1:][:2])
    return out


def plays_read(view: dict) -> list[Play]:
    """Король / Król: the plays in this deal by the other seats still in the round
    that say something of their hands, each with what that seat saw then: every
    follow, and every lead but a trump's (a lead's duty, R-12 or R-25, may have
    forced a trump; a lead of another suit was free: under the duty the seat held
    no trump).  The log holds the deal's plays in order; every seat in a trick
    plays in the next one too, so a trick ends where a seat that has played in it
    plays again."""
    me = view["seat"]
    active = set(view.get("active") or ())  # the seats still in the round
    log = view.get("log") or []
    plays = [(i, s, a[5:7]) for i, (s, a) in enumerate(log) if s is not None and a and a.startswith("play:")]
    tricks: list[list[tuple[int, int, str]]] = []
    for play in plays:
        if not tricks or any(s == play[1] for _, s, _ in tricks[-1]):
            tricks.append([])
        tricks[-1].append(play)
    trump = view.get("trump")
    out: list[Play] = []
    for t, trick in enumerate(tricks):
        # the seats in the trick: all of them once it is complete, else those in the round
        players = len(active) if view.get("trick") and t == len(tricks) - 1 else len(trick)
        for j, (i, seat, card) in enumerate(trick):
            if seat == me or seat not in active or (j == 0 and card[1] == trump):
                continue
            seen = {"variant": view["variant"], "seats": view["seats"], "seat": seat,
                    "trump": trump, "trick": [[s, c] for _, s, c in trick[:j]],
                    "face_up": view.get("face_up") or [], "log": log[:i], "active": list(range(players))}
            out.append((seat, seen, card, tuple(c for k, s, c in plays if k > i and s == seat)))
    return out


def played_as_basic(seen: dict, hand: list[str], card: str) -> bool:
    """Whether the basic bot, seeing ``seen`` and holding ``hand``, would have
    played ``card`` (True too when ``card`` was the only card it might play): any
    card to lead (see :func:`plays_read`), else as rule R-2 lets it follow."""
    trick = [(s, c) for s, c in seen["trick"]]
    legal = FOLLOW.playable(hand, trick, seen["trump"], STRENGTH)[0] if trick else hand
    if len(legal) == 1:
        return True
    hand = sorted(hand, key=SORT_KEY.__getitem__)  # as the view had it
    return _BASIC.choose({**seen, "hand": hand, "legal": ["play:" + c for c in legal]}, _RNG) == "play:" + card


class Reader:
    """The weight of samples for one decision (see the module doc)."""

    def __init__(self, view: dict, family: str, play_floor: float = PLAY_FLOOR) -> None:
        # per seat the calls that say the most: its highest bid and the pass (the
        # lower bids follow from the highest; the basic bot's calls are not
        # independent draws, so multiplying every raise would overcount)
        top: dict[tuple[int, str], tuple[int, str, int | None]] = {}
        for seat, what, amount in (calls(view) if family == "thousand" else []):
            if amount is None:
                continue
            key = (seat, what)
            if key not in top or (top[key][2] or 0) < amount:
                top[key] = (seat, what, amount)
        self.calls = list(top.values())
        self.played = played(view) if self.calls else {}
        self.bonus = 10 if len(view.get("hand_sizes") or ()) == 3 else 5
        self.plays = plays_read(view) if family == "korol" else []
        #: draw samples by rejection (the weights are steep): Король / Król
        self.rejects = family == "korol"
        self.log_floor = math.log(play_floor)  # a play the basic bot would not make

    @property
    def active(self) -> bool:
        return bool(self.calls or self.plays)

    def weight(self, sample, least: float = 0.0) -> float:
        """The sample's likelihood of the calls and plays observed (1 when nothing
        is read).  With ``least`` > 0 the plays' reading stops, returning 0, once
        the likelihood is known to be at most ``least`` (a rejection draw asks
        no more)."""
        if not self.calls and not self.plays:
            return 1.0
        logw = 0.0
        bound = math.log(least) if least > 0 else -math.inf
        held: dict[int, list[str]] = {}
        for seat, seen, card, later in self.plays:
            if seat not in held:
                held[seat] = sample.bot_view(seat)["hand"]
            if not played_as_basic(seen, [*held[seat], card, *later], card):
                logw += self.log_floor
                if logw <= bound:
                    return 0.0
        hands: dict[int, int] = {}
        for seat, what, amount in self.calls:
            if amount is None:
                continue
            est = hands.get(seat)
            if est is None:
                hand = sample.bot_view(seat)["hand"] + self.played.get(seat, [])
                est = hands[seat] = estimate(hand, self.bonus)
            p_bid = 1.0 / (1.0 + math.exp(-(est - amount) / SOFTNESS))
            p = p_bid if what == "bid" else 1.0 - p_bid
            logw += math.log(FLOOR + (1.0 - FLOOR) * p)
        return math.exp(logw)
