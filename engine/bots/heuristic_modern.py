"""Rules of thumb for modern Тысяча (`thousand-ru`, `tysiac-pl`).

The card play, the gives and the discards are those of Тысяча
(:mod:`heuristic_thousand`); what this module adds are the modern calls:

* the opening: never blind (the cards are unseen), the forced 100 otherwise;
* redeal requests and the talon strike: strike only a hand that is weak;
* bidding and the contract: knowing the barrel floor (a seat on the frozen
  barrel needs a contract that takes it off), a silenced seat passes, a seat
  with write-offs left may risk a little more;
* the write-off: a hopeless hand is written off while write-offs are left
  (the last one is kept for a worse hand).
"""

from __future__ import annotations

import random

from . import heuristic_thousand as classic
from .base import Knowledge, card_of, kind

keep_value = classic.keep_value
STRIKE_BELOW = 70  # a qualifying hand worth less than this is struck (M-6)
WRITEOFF_GAP = 30  # written off when the estimate falls this far short (M-14)


def _amount(action: str) -> int:
    return int(action.split(":", 1)[1])


def _floor(v: dict, seat: int) -> int:
    """M-12: the contract a seat on the frozen barrel would have to name."""
    return (v.get("barrel_floor") or [0] * 8)[seat]


def _writeoffs_left(v: dict, seat: int) -> int:
    left = (v.get("writeoffs_left") or [0] * 8)[seat]
    return 99 if left is None else left


def decide(k: Knowledge, rng: random.Random) -> str | None:
    legal = k.legal
    kinds = {kind(a) for a in legal}
    if "blind" in kinds:
        return "bid:100"  # the cards are not seen yet: no blind
    if "accept" in legal:
        return "strike" if classic.estimate(k.hand, 10) < STRIKE_BELOW else "accept"
    if "bid" in kinds or kinds == {"pass"}:
        return _bid(k)
    if "writeoff" in legal and _hopeless(k):
        return "writeoff"
    if "strike" in legal:  # the talon strike (M-13): a poor talon and a poor hand
        if classic.estimate(k.hand, 0) < 100:
            return "strike"
    calm = [a for a in legal if a not in ("writeoff", "strike")]
    k.legal = calm
    if "contract" in kinds:
        return _contract(k)
    if "marriage" in kinds and not k.trick:
        aces = [card_of(a) for a in calm if a.startswith("marriage:A")]
        pairs = [a for a in calm if kind(a) == "marriage" and not a.startswith("marriage:A")]
        if aces and not pairs:
            return "marriage:" + max(aces, key=lambda c: (k.is_master(c), c))
        if aces and pairs:
            k.legal = [a for a in calm if not a.startswith("marriage:A")]
    return classic.decide(k, rng)


def _bid(k: Knowledge) -> str:
    v = k.view
    bids = [a for a in k.legal if kind(a) == "bid"]
    if not bids:
        return k.legal[0]
    if "pass" not in k.legal:
        return bids[0]
    need = max(_amount(bids[0]), _floor(v, k.seat))
    bonus = 10 if k.players == 3 else 5
    if _writeoffs_left(v, k.seat) > 0:
        bonus += 5
    return bids[0] if need <= classic.estimate(k.hand, bonus) else "pass"


def _contract(k: Knowledge) -> str:
    offers = [a for a in k.legal if kind(a) == "contract"]
    target = classic.estimate(k.hand, 0) - classic.RAISE_MARGIN
    fit = [a for a in offers if _amount(a) <= target]
    return fit[-1] if fit else offers[0]


def _hopeless(k: Knowledge) -> bool:
    v = k.view
    if v.get("declarer") != k.seat:
        return False
    need = v.get("contract") or max(v.get("bid") or 0, _floor(v, k.seat))
    est = classic.estimate(k.hand, 0)
    if len(k.hand) > 8 and not v.get("contract"):
        est -= 5  # two cards still to give or discard
    gap = WRITEOFF_GAP
    if _writeoffs_left(v, k.seat) == 1 and v.get("rows", len(v.get("scoresheet") or ())) > 0:
        gap += 15  # keep the last write-off for a worse hand
    return est < need - gap
