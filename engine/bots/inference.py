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

Only Тысяча's bids and passes are read so far; other families (and other
calls) give every sample the weight 1.
"""

from __future__ import annotations

import math

from .heuristic_thousand import estimate

FLOOR = 0.08  # the least likelihood a call gets, whatever the hand
SOFTNESS = 15.0  # points of estimate over which a call turns from unlikely to likely


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


class Reader:
    """The weight of samples for one decision (see the module doc)."""

    def __init__(self, view: dict, family: str) -> None:
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

    @property
    def active(self) -> bool:
        return bool(self.calls)

    def weight(self, sample) -> float:
        """The sample's likelihood of the calls observed (1 when nothing is read)."""
        if not self.calls:
            return 1.0
        hands: dict[int, int] = {}
        logw = 0.0
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
