"""The coach (issue 36): a hint for the seat to act — the strong bot's choice and a
one-line reason as data.

A hint is computed from what the seat may see and nothing else: the bot decides from
``match.view(seat)`` and the match's determinized copies for that seat (``Bot.act``),
and the reason reads the same view.  The reason is a code with its facts (cards,
suits, counts); the client puts it into words in the reader's language, so the server
never words a rule and the client decides none.

Reason codes (``code``; the facts each carries):

- ``bid`` / ``blind`` / ``contract`` (``value``, ``marriages``: suits of a king and
  queen in the hand, ``aces``, ``tens``) and ``pass`` (the same facts, ``value``: the
  least bid open to the seat) — Тысяча's auction and contract; ``bid_unseen`` /
  ``blind_unseen`` (``value``): a call before the seat has seen its hand (a blind bid's
  moment);
- ``marriage`` (``card``, ``suit``): declare a marriage with the card led;
- ``give_low`` / ``discard_low`` (``card``): it cannot win a trick (a higher card of
  its suit is still out); ``give`` / ``discard`` (``card``) otherwise;
- ``lead_master`` (``card``): it is the highest of its suit still out; ``lead``;
- ``win_trick`` (``card``): it takes the trick for sure (last to play, or the highest
  still out); ``try_win`` (``card``): it takes the trick as it stands; ``ruff``
  (``card``): a trump on another suit; ``duck`` (``card``): it stays under the trick
  (a deal where tricks cost); ``cannot_win`` (``card``): the trick is lost anyway,
  the stronger cards are kept;
- ``trump`` (``suit``, ``count``): the suit the hand is longest in; ``order``
  (``contract``): the contract chosen next;
- ``best`` (``action``): any other decision — the search found it best.

The review of a finished deal (``review``): each decision of one seat in the deal is
searched again from the seat's view and determinized copies at that moment, at a fixed
rollout budget and a seed of its own (the same answer every time), and marked when the
estimate of the action played is below the best candidate's by more than ``REVIEW_GAP``.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from .base import Knowledge, family_of

if TYPE_CHECKING:  # pragma: no cover
    from ..match import Match

#: King contracts where taking a trick can only cost (the negative deals).
_KING_NEGATIVE = frozenset({"tricks", "boys", "girls", "hearts", "last2", "king", "all"})


def advise(match: Match, seat: int, *, level: str = "strong", seed: int = 0, **budget) -> dict:
    """The hint for ``seat`` (who must be to act): ``{"action", "reason"}``."""
    from . import make_bot  # the registry imports this module's neighbours

    if seat not in match.to_act():
        raise ValueError(f"seat {seat} is not to act")
    action = make_bot(level, seed, **budget).act(match, seat)
    return {"action": action, "reason": explain(match.view(seat), action)}


#: A decision is marked when the search's estimate of the action played is below the
#: best candidate's by more than this: the seat's estimated chance of winning the match
#: (the strong bot's value, 0..1), so 0.02 is two percentage points.  A card played
#: early in a long match moves that chance little: mostly bids, contracts and the
#: plays that decide a contract are marked.
REVIEW_GAP = 0.02
#: The review's rollout budget per decision (the search's ``iterations``): fixed, so a
#: review does not depend on the machine's speed.
REVIEW_ROLLOUTS = 200


def judge(match: Match, seat: int, played: str, *, level: str = "strong", seed: int = 0,
          **budget) -> dict | None:
    """The search's estimate of ``played`` (a legal action of ``seat``, who is to act)
    against the search's choice, from the seat's view and determinized copies only:
    ``{"best_action", "gap", "reason"}`` (``gap`` >= 0; ``reason`` explains the best
    action), or None when there was nothing to weigh (one legal action, one candidate)."""
    from . import make_bot
    from .search import SearchBot

    if seat not in match.to_act():
        raise ValueError(f"seat {seat} is not to act")
    bot = make_bot(level, seed, **budget)
    if not isinstance(bot, SearchBot):
        raise ValueError(f"level {level!r} does not search: it has no estimates to compare")
    view = match.view(seat)
    if played not in view["legal"]:
        raise ValueError(f"{played!r} is not a legal action of seat {seat}")
    best = bot.choose(view, None, lambda rng: match.determinize(seat, rng), judge=played)
    means = bot.last_stats.get("means")
    if not means or played not in means:
        return None
    # the gap to the bot's own choice (a candidate dropped early is averaged over the
    # rounds it was in: its mean is not compared)
    return {"best_action": best, "gap": round(max(0.0, means[best] - means[played]), 4),
            "reason": explain(view, best)}


def review_seed(key: str, step: int) -> int:
    """The search seed of one decision of a review: the same for the same decision."""
    return int.from_bytes(hashlib.blake2b(f"{key}:{step}".encode(), digest_size=8).digest(), "big") >> 1


def review(start: Match, actions: list, deal: int, seat: int, *, key: str = "",
           gap: float = REVIEW_GAP, level: str = "strong", **budget) -> dict:
    """The coach's review of ``seat``'s decisions in the finished deal ``deal`` of the
    match that ``actions`` (the played log, applied to ``start``, a match as dealt) make:
    ``{"deal", "seat", "reviewed", "threshold", "marked": [{step, version,
    action_played, best_action, gap, reason}]}``.  ``step`` is the decision's place in
    the deal (the deal's positions before it), ``version`` its place in the log.  A
    decision's seed is ``review_seed(key, version)``.  Raises ``ValueError`` when the
    deal is not finished in ``actions``."""
    budget.setdefault("ms", None)
    budget.setdefault("iterations", REVIEW_ROLLOUTS)
    whole = start.copy()
    for s, a in actions:
        whole.apply(s, a)
    first = 0
    for d in whole.history():
        if d["deal"] == deal:
            break
        first += len(d["actions"])
    else:
        raise ValueError(f"deal {deal} is not finished")
    m = start.copy()
    for s, a in actions[:first]:
        m.apply(s, a)
    marked, reviewed = [], 0
    for step, (s, a) in enumerate(d["actions"]):
        if s == seat and seat in m.to_act() and len(m.legal_actions(seat)) > 1:
            version = first + step
            verdict = judge(m, seat, a, level=level, seed=review_seed(key, version), **budget)
            if verdict is not None:
                reviewed += 1
                if verdict["gap"] > gap and verdict["best_action"] != a:
                    marked.append({"step": step, "version": version, "action_played": a, **verdict})
        m.apply(s, a)
    return {"deal": deal, "seat": seat, "reviewed": reviewed, "threshold": gap, "marked": marked}


def explain(view: dict, action: str) -> dict:
    """Why ``action`` is good for the seat of ``view``, as a reason code with its facts
    (the module's docstring lists them).  Reads ``view`` only."""
    kind, _, arg = action.partition(":")
    hand = view.get("hand") or []
    if kind in ("bid", "blind", "contract"):
        if not hand:  # a blind bid's moment: the hand is not seen yet
            return {"code": f"{kind}_unseen", "value": int(arg)}
        return {"code": kind, "value": int(arg), **_hand_facts(hand)}
    if kind == "pass" and view.get("phase") == "bidding" and hand:
        least = [int(a[4:]) for a in view.get("legal") or () if a.startswith("bid:")]
        return {"code": "pass", "value": min(least) if least else None, **_hand_facts(hand)}
    if kind == "trump":
        return {"code": "trump", "suit": arg, "count": sum(1 for c in hand if c[1] == arg)}
    if kind == "order":
        return {"code": "order", "contract": arg}
    if kind == "marriage":
        return {"code": "marriage", "card": arg, "suit": arg[1]}
    if kind in ("give", "discard"):
        card = arg.split(">", 1)[0]
        if card in hand and "legal" in view:
            low = not Knowledge(view).is_master(card)
            return {"code": f"{kind}_low" if low else kind, "card": card}
        return {"code": kind, "card": card}
    if kind == "play" and "legal" in view:
        return _play_reason(view, arg)
    return {"code": "best", "action": action}


def _hand_facts(hand: list[str]) -> dict:
    suits = {c[1] for c in hand}
    return {"marriages": sorted(s for s in suits if "K" + s in hand and "Q" + s in hand),
            "aces": sum(1 for c in hand if c[0] == "A"),
            "tens": sum(1 for c in hand if c[0] == "T")}


def _play_reason(view: dict, card: str) -> dict:
    k = Knowledge(view)
    if not k.trick:
        return {"code": "lead_master" if k.is_master(card) else "lead", "card": card}
    negative = family_of(view) == "king" and view.get("contract") in _KING_NEGATIVE
    if not k.beats(card):
        return {"code": "duck" if negative else "cannot_win", "card": card}
    if k.is_last() or k.is_master(card):
        return {"code": "win_trick", "card": card}
    led = k.trick[0][1][1]
    if k.trump and card[1] == k.trump and led != k.trump:
        return {"code": "ruff", "card": card}
    return {"code": "try_win", "card": card}
