"""The strong bot: determinized search (perfect-information Monte Carlo).

For each decision it samples deals that fit what the seat knows
(``determinize(rng)``, i.e. ``match.determinize(seat, rng)``: every hidden
card dealt anew), and on each sample plays every candidate action, then the
rest of the deal with rule-of-thumb bots in every seat.  The action with the
best average result for the seat wins.  Every candidate is tried on the same
samples (the same determinize seed and the same rollout seed), so their
averages are compared on equal cards.

The seat's result of a deal: Тысяча and Кинг, its score in the deal's row;
Король / Król, the title the deal brought it (R-4 points) or, with the round
still open, the title its tally ranks it for.

Budget: ``iterations`` rollouts per decision (``CALL_WEIGHT`` times as many
for a bid, a contract, the talon, an order or any other decision that is not
a card played), or ``ms`` milliseconds of wall-clock time, whichever ends
first; at least one sample per candidate.  The clock is read before every
rollout, so a decision overruns ``ms`` by at most one rollout (a few
milliseconds) plus the first round of samples; a round cut short by the
clock is dropped, so every candidate is still judged on the same samples.
With ``ms=None`` the search depends on the seeds only (the tests); the
server passes ``ms`` (``bot_think_ms``, 800 by default) with the default
``iterations``, and ``bench/bots.py`` caps its searches the same way.  Samples go round
the candidates that are still in the race: after a few samples a candidate
clearly worse than the leader on the same samples (paired difference more
than two standard errors below zero) drops out, and the search stops early
when one candidate is left.
"""

from __future__ import annotations

import logging
import random
import time

from ..variants.korol_play import POINTS as TITLE_POINTS  # rule R-4
from .base import Bot, Determinize, family_of
from .heuristic import HeuristicBot, candidates

#: Iterations are multiplied by this for decisions other than playing a card
#: (bids, contracts, the talon, orders, trumps, swaps, strikes): they are few
#: and they weigh the most.  The ``ms`` budget stays the hard cap.
CALL_WEIGHT = 2
_CARD_KINDS = frozenset({"play", "marriage"})
ROLLOUT_LIMIT = 2000  # actions; a deal is far shorter


log = logging.getLogger(__name__)


class SearchBot(Bot):
    level = "strong"

    def __init__(self, seed: int = 0, *, iterations: int | None = 200, ms: float | None = 800,
                 max_candidates: int = 8, strict: bool = False) -> None:
        super().__init__(seed, strict=strict)
        if iterations is None and ms is None:
            raise ValueError("a search bot needs a budget: iterations or ms")
        self.iterations = iterations
        self.ms = ms
        self.max_candidates = max_candidates
        self.policy = HeuristicBot(seed, strict=strict)
        self.last_stats: dict = {}

    def choose(self, view: dict, rng: random.Random | None = None,
               determinize: Determinize | None = None) -> str:
        legal = view["legal"]
        if not legal:
            raise ValueError("the seat has no legal action now")
        rng = rng or self.rng
        self.last_stats = {}
        best = self.policy.choose(view, rng)
        if len(legal) == 1 or determinize is None:
            return best
        cands = candidates(view, best, self.max_candidates)
        if len(cands) == 1:
            return cands[0]
        try:
            return self._search(view, rng, determinize, cands, best)
        except Exception:  # a bot must never stop a table: play the rule of thumb
            if self.strict:
                raise
            log.exception("%s: the search failed; playing the rule of thumb", view["variant"])
            return best

    def _search(self, view, rng, determinize, cands, best) -> str:
        seat = view["seat"]
        family = family_of(view)
        start = time.perf_counter()
        deadline = None if self.ms is None else start + self.ms / 1000
        budget = self.iterations
        if budget is not None and any(a.split(":", 1)[0] not in _CARD_KINDS for a in cands):
            budget *= CALL_WEIGHT
        values: dict[str, list[float]] = {a: [] for a in cands}
        alive = list(cands)
        used = 0
        stop = "decided"
        while len(alive) > 1:
            deal_seed = rng.getrandbits(64)
            play_seed = rng.getrandbits(64)
            for i, a in enumerate(alive):
                if values[a] and deadline is not None and time.perf_counter() >= deadline:
                    for b in alive[:i]:  # the round is left unfinished: drop its samples
                        values[b].pop()
                    stop = "deadline"
                    break
                sample = determinize(random.Random(deal_seed))
                values[a].append(self._rollout(sample, seat, a, family, random.Random(play_seed)))
            else:
                used += len(alive)
                alive = _prune(alive, values)
                if budget is not None and used + len(alive) > budget:
                    stop = "budget"
                    break
                if deadline is not None and time.perf_counter() >= deadline:
                    stop = "deadline"
                    break
                continue
            break
        n = len(values[alive[0]])
        means = {a: sum(values[a]) / len(values[a]) for a in cands}
        # ties go to the rule of thumb, then to the order of the legal list
        choice = max(alive, key=lambda a: (means[a], a == best))
        self.last_stats = {"samples": n, "rollouts": used, "candidates": len(cands),
                           "alive": len(alive), "means": means, "stop": stop,
                           "seconds": time.perf_counter() - start}
        return choice

    def _rollout(self, m, seat: int, action: str, family: str, rng: random.Random) -> float:
        rows0 = len(m.scoresheet())
        roles0 = len(m.role_table())
        m.apply_unchecked(seat, action)
        policy = self.policy
        for _ in range(ROLLOUT_LIMIT):
            if m.is_over():
                break
            s = m.to_act()[0]
            legal = m.legal_actions(s)
            if len(legal) == 1:
                m.apply_unchecked(s, legal[0])
                continue
            v = m.bot_view(s)
            if v["rows"] > rows0:
                break
            m.apply_unchecked(s, policy.choose(v, rng))
        return evaluate(m, seat, family, rows0, roles0)


def evaluate(m, seat: int, family: str, rows0: int, roles0: int) -> float:
    """The seat's result of the deal that was being played (see the module doc)."""
    if family != "korol":
        rows = m.scoresheet()
        if len(rows) > rows0:
            return float(rows[rows0]["scores"][seat])
        return 0.0
    roles = m.role_table()
    if len(roles) > roles0:
        return float(TITLE_POINTS.get(roles[roles0]["titles"][seat], 0))
    v = m.view(seat)
    new = v.get("new_titles") or []
    if seat < len(new) and new[seat]:
        return float(TITLE_POINTS.get(new[seat], 0))
    # round still open: rank the untitled players by tally for the titles left
    left = sorted((TITLE_POINTS[t] for t in TITLE_POINTS
                   if t not in [x for x in new if x]), reverse=True)
    tallies = v.get("tallies") or [0] * m.seats
    open_seats = [s for s in range(m.seats) if not (s < len(new) and new[s])]
    open_seats.sort(key=lambda s: -tallies[s])
    ahead = sum(1 for s in open_seats if tallies[s] > tallies[seat])
    level = sum(1 for s in open_seats if tallies[s] == tallies[seat])
    pts = left[ahead:ahead + level] or [0]
    mean = sum(tallies[s] for s in open_seats) / max(1, len(open_seats))
    return sum(pts) / len(pts) + 0.1 * (tallies[seat] - mean)


def _prune(alive: list[str], values: dict[str, list[float]], min_samples: int = 4,
           z: float = 2.0) -> list[str]:
    """Drop the candidates that are clearly worse than the leader on the same samples."""
    n = len(values[alive[0]])
    if n < min_samples:
        return alive
    lead = max(alive, key=lambda a: sum(values[a]))
    keep = []
    for a in alive:
        if a == lead:
            keep.append(a)
            continue
        diffs = [x - y for x, y in zip(values[a], values[lead], strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean + z * (var / n) ** 0.5 >= 0 and not (var == 0 and mean < 0):
            keep.append(a)
    return keep
