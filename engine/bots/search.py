"""The strong and expert bots: determinized search (perfect-information Monte Carlo).

For each decision the bot draws a sample of the deal that fits what the seat
knows (``determinize(rng)``, i.e. ``match.determinize(seat, rng)``: every
hidden card dealt anew), and on that one sample plays every candidate action,
then the rest of the deal with rule-of-thumb bots in every seat (each
candidate on its own copy of the sample, with the same play-out seed): one
*round*.  Rounds go on while the budget lasts, so every candidate is judged on
the same cards (common random numbers) and a sample is drawn once per round,
not once per candidate.

* Inference (:mod:`.inference`): each round's sample is weighted by how
  likely it makes the other seats' calls (Тысяча's bids and passes) under the
  basic bot's policy made soft, and the means are weighted means; in Король /
  Król, where the other seats' plays are read and the weights are steep, the
  sample is drawn by rejection instead (:func:`draw`); ``inference=False``:
  every weight 1.
* Value (:mod:`.value`): ``value="match"`` (the default) scores a play-out by
  the seat's estimated chance of winning the match after the deal, from the
  public match position (its total against the others', how far the match
  still runs); ``value="deal"`` by the seat's own result of the deal.
* Play-outs: ``playouts="engine"`` (the default) steps the whole play-out on
  the engine, the rule-of-thumb bot reading a ``bot_view`` at every step.
  ``playouts="fast"``: the calls before the trick play (bids, the talon,
  contracts, tributes) as before, then the trick play on the compact state
  (:mod:`.fast`) with its compact rule of thumb (``greedy_policy``), valued by
  :func:`.value.fast_match_value` / :func:`.value.fast_deal_points`; a decision in
  the trick play builds the compact state once a sample and plays every candidate
  on a copy of it.  It spends a fraction of the CPU and plays worse: the compact
  rule of thumb is a poorer model of the others than the basic bot itself (whole
  matches at the same budget on the same deals, bench/RESULTS.md 2026-12-05
  "Compact play-outs in the search"), so it is not the default.

Budget: ``ms`` milliseconds of wall-clock time (the server's ``bot_think_ms``
for ``strong``; ``expert`` thinks ``EXPERT_TIME`` times as long), or
``iterations`` rollouts (``CALL_WEIGHT`` times as many for a bid, a contract,
the talon, an order or any decision that is not a card played), whichever
ends first; ``waited`` (seconds the decision waited before it could start: the
server's queue for a worker process) is taken off ``ms``, so a table waits ``ms``
from asking, not more (a decision that waited the whole budget plays the rule of
thumb); with ``ms=None`` the search depends on the seeds only (tests,
``bench/matches.py --rollouts``).  The clock is read before every rollout, and
a rollout is not started when twice the recent rollouts' wall time (a moving
average: it grows when the machine is busy) would take it past the deadline;
a round cut short by the clock is dropped, so the candidates stay on equal
samples (when not even one round fits, the rule of thumb's action is played).  Early stop:
after ``min_rounds`` rounds a candidate whose paired (weighted) difference to
the leader is more than ``z`` standard errors below zero drops out, and the
search ends when one candidate is left (``z`` and ``min_rounds`` by family unless
given: :data:`EARLY_STOP`; the expert's stricter).
"""

from __future__ import annotations

import logging
import math
import random
import time

from .base import Bot, Determinize, family_of
from .fast import from_match, greedy_policy, playout
from .fast.endgame import due
from .heuristic import HeuristicBot, candidates
from .inference import PLAY_FLOOR, TRIES, Reader
from .value import TITLE_POINTS, deal_points, fast_deal_points, fast_match_value, match_value

#: Iterations are multiplied by this for decisions other than playing a card
#: (bids, contracts, the talon, orders, trumps, swaps, strikes): they are few
#: and they weigh the most.  The ``ms`` budget stays the hard cap.
CALL_WEIGHT = 2
_CARD_KINDS = frozenset({"play", "marriage"})
ROLLOUT_LIMIT = 2000  # actions; a deal is far shorter
#: The expert's budget against the strong bot's: time (and rollouts), candidates.
EXPERT_TIME = 3
EXPERT_CANDIDATES = 12
VALUES = {"match": match_value, "deal": deal_points}
#: The same values read from a compact play-out (``playouts="fast"``).
FAST_VALUES = {"match": fast_match_value, "deal": fast_deal_points}
PLAYOUTS = ("fast", "engine")
#: The early stop (z standard errors, after this many rounds) by family; "" for the
#: rest.  Король / Król's play-outs vary more against the gaps between candidates: after
#: four rounds a good candidate was often dropped, and a stricter stop that spends more of
#: the budget won more whole matches (bench/RESULTS.md, "Король: the value of a round
#: still open").  The expert's own defaults are stricter still (ExpertBot).
EARLY_STOP: dict[str, tuple[float, int]] = {"": (2.0, 4), "korol": (3.0, 16)}
#: A rollout is started only if this many times the recent rollouts' wall time
#: fits before the deadline (a busy machine's rollouts vary: a margin of one
#: average still overran 800 ms by 0.3 s at the 99th percentile).
PACE_MARGIN = 2.0

log = logging.getLogger(__name__)

__all__ = ["CALL_WEIGHT", "EXPERT_TIME", "TITLE_POINTS", "ExpertBot", "SearchBot", "evaluate"]


def evaluate(m, seat: int, family: str, rows0: int, roles0: int) -> float:
    """The seat's result of the deal that was being played (:func:`.value.deal_points`)."""
    return deal_points(m, seat, family, rows0, roles0)


class SearchBot(Bot):
    level = "strong"

    def __init__(self, seed: int = 0, *, iterations: int | None = None, ms: float | None = 800,
                 max_candidates: int = 8, strict: bool = False, inference: bool = True,
                 value: str = "match", z: float | None = None, min_rounds: int | None = None,
                 playouts: str = "engine", waited: float = 0.0, endgame: int | None = None) -> None:
        super().__init__(seed, strict=strict)
        if iterations is None and ms is None:
            raise ValueError("a search bot needs a budget: iterations or ms")
        if value not in VALUES:
            raise ValueError(f"unknown value {value!r}; known: {', '.join(VALUES)}")
        if playouts not in PLAYOUTS:
            raise ValueError(f"unknown playouts {playouts!r}; known: {', '.join(PLAYOUTS)}")
        self.iterations = iterations
        # the time the decision already waited to be started (a queue for a worker) is
        # taken off the budget: the answer comes ``ms`` after the decision was asked
        self.ms = None if ms is None else max(0.0, ms - 1000 * max(0.0, waited))
        self.max_candidates = max_candidates
        self.inference = inference
        self.value = value
        self.z = z  # None: the family's (EARLY_STOP)
        self.min_rounds = min_rounds
        self.playouts = playouts
        self.endgame = endgame  # None: the level's by family (endgame_tricks)
        self.policy = HeuristicBot(seed, strict=strict)
        self.last_stats: dict = {}

    def choose(self, view: dict, rng: random.Random | None = None,
               determinize: Determinize | None = None, *, judge: str | None = None) -> str:
        """The action for the seat of ``view``; ``judge``: a legal action that must be
        among the candidates searched (the coach's review estimates the action played)."""
        legal = view["legal"]
        if not legal:
            raise ValueError("the seat has no legal action now")
        rng = rng or self.rng
        self.last_stats = {}
        best = self.policy.choose(view, rng)
        if len(legal) == 1 or determinize is None:
            return best
        cands = candidates(view, best, self.max_candidates)
        if judge is not None and judge in legal and judge not in cands:
            cands = [*cands, judge]
        if len(cands) == 1:
            return cands[0]
        try:
            return self._search(view, rng, determinize, cands, best)
        except Exception:  # a bot must never stop a table: play the rule of thumb
            if self.strict:
                raise
            log.exception("%s: the search failed; playing the rule of thumb", view["variant"])
            return best

    #: the expert's early stop is stricter than the family's (ExpertBot)
    stricter_z = 0.0
    more_rounds = 1.0
    #: tricks at a deal's end that a play-out plays exactly (.fast.endgame), by family
    endgame_tricks: dict[str, int] = {}
    #: Король / Król's reading (inference.py): draws a sample at most, and the
    #: likelihood of a play the basic bot would not make (the expert's: ExpertBot)
    tries = TRIES
    play_floor = PLAY_FLOOR

    def early_stop(self, family: str) -> tuple[float, int]:
        """The early stop's z and minimum rounds: as given, else the family's
        (:data:`EARLY_STOP`), stricter for the expert."""
        z, min_rounds = EARLY_STOP.get(family, EARLY_STOP[""])
        return (z + self.stricter_z if self.z is None else self.z,
                round(min_rounds * self.more_rounds) if self.min_rounds is None else self.min_rounds)

    def _search(self, view, rng, determinize, cands, best) -> str:
        seat = view["seat"]
        family = family_of(view)
        z, min_rounds = self.early_stop(family)
        exact = self.endgame_tricks.get(family, 0) if self.endgame is None else self.endgame
        value = VALUES[self.value]
        fast = self.playouts == "fast"
        before: dict = {}  # the public position (the seat's view of a sample), once drawn
        reader = Reader(view, family, self.play_floor) if self.inference else None
        start = time.perf_counter()
        deadline = None if self.ms is None else start + self.ms / 1000
        budget = self.iterations
        if budget is not None and any(a.split(":", 1)[0] not in _CARD_KINDS for a in cands):
            budget *= CALL_WEIGHT
        values: dict[str, list[float]] = {a: [] for a in cands}
        weights: list[float] = []
        alive = list(cands)
        used = 0
        pace = 0.0  # the recent wall time of a rollout (a moving average)
        stop = "decided"
        while len(alive) > 1:
            sample, w = draw(determinize, rng, reader, self.tries)
            play_seed = rng.getrandbits(64)
            if fast and not before:
                before = sample.view(seat)
            state = self._compact(sample, alive) if fast else None
            got: list[float] = []
            for a in alive:
                t0 = time.perf_counter()
                # a rollout is not started that would likely end past the deadline
                if deadline is not None and t0 + PACE_MARGIN * pace >= deadline:
                    stop = "deadline"  # the round is left unfinished: its results are dropped
                    break
                if state is not None:  # the decision is a card: the whole play-out is compact
                    twin = state.copy()
                    twin.play(twin.code(a))
                    got.append(self._fast_rollout(twin, seat, family, before, random.Random(play_seed), exact))
                else:
                    got.append(self._rollout(sample.copy(), seat, a, family, value,
                                             random.Random(play_seed), before or None, exact))
                spent = time.perf_counter() - t0
                pace = spent if pace == 0 else 0.8 * pace + 0.2 * spent
            if len(got) < len(alive):
                break
            for a, x in zip(alive, got, strict=True):
                values[a].append(x)
            weights.append(w)
            used += len(alive)
            alive = _prune(alive, values, weights, min_rounds, z)
            if budget is not None and used + len(alive) > budget:
                stop = "budget"
                break
            if deadline is not None and time.perf_counter() + PACE_MARGIN * pace >= deadline:
                stop = "deadline"
                break
        # a dropped candidate is averaged over the rounds it was in
        means = {a: sum(w * x for w, x in zip(weights, values[a], strict=False))
                 / (sum(weights[:len(values[a])]) or 1.0) for a in cands}
        total = sum(weights) or 1.0
        # ties go to the rule of thumb, then to the order of the legal list
        choice = max(alive, key=lambda a: (means[a], a == best)) if weights else best
        self.last_stats = {"samples": len(weights), "rollouts": used, "candidates": len(cands),
                           "alive": len(alive), "means": means, "stop": stop,
                           "ess": total ** 2 / (sum(w * w for w in weights) or 1.0),
                           "seconds": time.perf_counter() - start}
        return choice

    @staticmethod
    def _compact(sample, cands: list[str]):
        """The compact state of a sample in its play phase whose candidates are all
        plays (cards, marriages, Тысяча's quits), else None."""
        if sample.phase != "play":
            return None
        state = from_match(sample)
        try:
            for a in cands:
                state.code(a)
        except ValueError:
            return None
        return state

    def _fast_rollout(self, state, seat: int, family: str, before: dict, rng: random.Random,
                      exact: int = 0) -> float:
        """The rest of the deal's play on the compact state (the compact rule of thumb
        in every seat; the last ``exact`` tricks played exactly), valued from
        ``before``, the public position in this deal's play."""
        playout(state, greedy_policy, rng, exact)
        return FAST_VALUES[self.value](state, seat, family, before)

    def _rollout(self, m, seat: int, action: str, family: str, value, rng: random.Random,
                 before: dict | None = None, exact: int = 0) -> float:
        """The rest of the deal on the engine, from ``action``; with ``before`` (fast
        play-outs) the trick play goes on on the compact state once it starts, with
        ``exact`` its last tricks do (played exactly, :mod:`.fast.endgame`)."""
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
            sizes = v["hand_sizes"]
            if m.phase == "play" and (before is not None or (
                    exact and due(sum(sizes), sum(1 for n in sizes if n), exact))):
                return self._fast_rollout(from_match(m), seat, family, before or m.view(seat), rng, exact)
            m.apply_unchecked(s, policy.choose(v, rng))
        return value(m, seat, family, rows0, roles0)


class ExpertBot(SearchBot):
    """The strong bot with ``EXPERT_TIME`` times its budget, more candidates, a
    stricter early stop and a harder reading of the others' plays: ``ms`` /
    ``iterations`` are the strong bot's budget (the server's ``bot_think_ms``),
    multiplied here."""

    level = "expert"
    stricter_z = 0.5  # 2.5 standard errors after 6 rounds where the strong bot's are 2 after 4
    more_rounds = 1.5
    #: Король / Król: it reads the others' plays harder (more of the hidden cards placed
    #: right, bench/korol_reading.py; bench/RESULTS.md "Король: the expert reads harder")
    tries = TRIES * EXPERT_TIME
    play_floor = 0.03

    def __init__(self, seed: int = 0, *, iterations: int | None = None, ms: float | None = 800,
                 max_candidates: int = EXPERT_CANDIDATES, strict: bool = False,
                 inference: bool = True, value: str = "match", z: float | None = None,
                 min_rounds: int | None = None, playouts: str = "engine", waited: float = 0.0,
                 endgame: int | None = None) -> None:
        super().__init__(seed, iterations=None if iterations is None else iterations * EXPERT_TIME,
                         ms=None if ms is None else ms * EXPERT_TIME,
                         max_candidates=max_candidates, strict=strict, inference=inference,
                         value=value, z=z, min_rounds=min_rounds, playouts=playouts, waited=waited,
                         endgame=endgame)


def draw(determinize: Determinize, rng: random.Random, reader: Reader | None, tries: int = TRIES):
    """One sample of the deal and its weight.  Without a reader, or one that reads
    nothing, the weight is 1; a reader whose weights are steep (``rejects``) has the
    sample drawn by rejection: each draw is accepted with the probability of its
    weight, up to ``tries`` draws (none accepted: the likeliest of them), and the
    sample drawn counts with the weight 1; else the reader's weight is the sample's."""
    sample = determinize(random.Random(rng.getrandbits(64)))
    if reader is None or not reader.active:
        return sample, 1.0
    if not reader.rejects:
        return sample, reader.weight(sample)
    best, best_w = sample, -1.0
    for tried in range(tries):
        if tried:
            sample = determinize(random.Random(rng.getrandbits(64)))
        u = rng.random()
        # read no further than it takes to know: rejected, and not the likeliest
        w = reader.weight(sample, least=min(u, best_w))
        if u < w:
            return sample, 1.0
        if w > best_w:
            best, best_w = sample, w
    return best, 1.0


def _prune(alive: list[str], values: dict[str, list[float]], weights: list[float],
           min_rounds: int, z: float) -> list[str]:
    """Drop the candidates clearly worse than the leader on the same (weighted) samples."""
    n = len(weights)
    if n < min_rounds:
        return alive
    total = sum(weights)
    if total <= 0:
        return alive
    ess = total * total / sum(w * w for w in weights)
    if ess < min_rounds:  # a few heavy samples are not yet evidence
        return alive

    def wmean(xs: list[float]) -> float:
        return sum(w * x for w, x in zip(weights, xs, strict=False)) / total

    lead = max(alive, key=lambda a: wmean(values[a]))
    keep = []
    for a in alive:
        if a == lead:
            keep.append(a)
            continue
        diffs = [x - y for x, y in zip(values[a], values[lead], strict=True)]
        mean = wmean(diffs)
        var = sum(w * (d - mean) ** 2 for w, d in zip(weights, diffs, strict=True)) / total
        se = math.sqrt(var / max(ess - 1, 1.0))
        if var == 0 and (mean < 0 or n >= 2 * min_rounds):
            continue  # worse on every sample, or the same on every sample (no matter which)
        if mean + z * se >= 0:
            keep.append(a)
    return keep
