"""Strong bots think in other processes (README "Where the work runs").

A strong bot's decision is a search of up to ``bot_think_ms`` of CPU.  On a thread it
would hold the GIL against the event loop and take one of the few worker threads that
serve every room's database reads, so one busy table would slow everybody's joins and
chat.  Its decisions go to a ``concurrent.futures.ProcessPoolExecutor`` instead:
``bot_processes`` workers, start method ``spawn`` (a fresh interpreter each: nothing of
the server's threads or sockets is inherited), started with the first strong decision
(from a worker thread: a submit on the event loop never starts a process).

A request (``Ask``) carries the match as the engine rebuilds it — variant, seats,
seed, options, first dealer, presets and the played log (rule C-3) — a few KiB to
pickle, against tens of KiB for the engine match itself.  Each worker keeps the
matches it has replayed and applies only the actions logged since it last saw one,
so a decision usually replays nothing.  The answer is only a proposal: the bot
runner submits it through ``MatchLoop.submit`` at the version it asked about, where
the engine checks it and a stale one (the match moved on) is dropped.

A request also carries when it was asked (``asked_at``, wall clock): the time it waited
for a free worker is taken off the bot's budget (``SearchBot(waited=...)``), so a table
waits about ``bot_think_ms`` (the expert: three times that) from asking, however many
strong tables share the workers; a decision that waited its whole budget plays the rule
of thumb (``bench/bot_latency.py``, bench/RESULTS.md "Bots at the table: the wait").

This module imports only the engine, the standard library and engines.py (which imports
only the engine) at the top: it is what every worker process imports."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.bots import make_bot
from engine.bots.coach import advise, review

from .engines import new_engine

if TYPE_CHECKING:  # pragma: no cover
    from engine import Match

    from .live import LiveMatch

log = logging.getLogger("kozyr.bots")

#: Bot levels whose decisions go to the pool.  ``random`` and ``basic`` take 0.01-0.05 ms
#: of CPU a decision (at most 0.34 ms over 18,000 decisions in every variant): less than
#: sending them anywhere, so they decide on the event loop.
POOLED = frozenset({"strong", "expert"})
#: Matches a worker keeps replayed (the least recently asked about go first).
KEPT_MATCHES = 32


@dataclass(frozen=True, slots=True)
class Logged:
    """A match as its log rebuilds it in a worker: how it was started, then its actions."""

    match_id: str
    variant: str
    seats: int
    seed: int
    options: dict | None
    first_dealer: int | None
    preset_deals: list | None
    actions: list[tuple[int, str]]
    deal_seeds: bool = field(default=False, kw_only=True)  # the per-deal seed mode (engines.py)


@dataclass(frozen=True, slots=True)
class Ask(Logged):
    """What a worker needs to decide for ``seat``: the match as its log rebuilds it."""

    seat: int
    level: str
    bot_seed: int
    ms: float
    asked_at: float = field(default=0.0, kw_only=True)  # time.time() when asked (0: unknown)

    def waited(self) -> float:
        """Seconds since the decision was asked (its wait for a free worker), 0 if unknown."""
        return max(0.0, time.time() - self.asked_at) if self.asked_at else 0.0


def ask_for(live: LiveMatch, seat: int, level: str, bot_seed: int, ms: float) -> Ask:
    """(Under live.lock.)  The request for ``seat``'s next action in ``live`` now."""
    return Ask(live.id, live.variant_id, live.seat_count, live.seed, live.options, live.first_dealer,
               live.preset_deals, list(live.engine.actions), seat, level, bot_seed, ms,
               deal_seeds=live.deal_seeds, asked_at=time.time())


@dataclass(frozen=True, slots=True)
class ReviewAsk(Logged):
    """What a worker needs for the coach's review of ``seat`` in the finished deal
    ``deal`` (engine/bots/coach.py ``review``): the match as its log rebuilds it, and the
    fixed rollout budget of each decision."""

    deal: int
    seat: int
    rollouts: int
    gap: float


# -- in a worker process ---------------------------------------------------------------

_kept: OrderedDict[str, Match] = OrderedDict()


def _dealt(ask: Logged) -> Match:
    """The match of ``ask`` as dealt, before any action."""
    return new_engine(ask.variant, ask.seats, seed=ask.seed, options=ask.options,
                      first_dealer=ask.first_dealer, preset_deals=ask.preset_deals, deal_seeds=ask.deal_seeds)


def _replayed(ask: Ask) -> Match:
    """The match of ``ask``: a kept one brought up to date, or replayed from its seed."""
    match = _kept.pop(ask.match_id, None)
    done = 0 if match is None else len(match.actions)
    if match is None or done > len(ask.actions) or match.actions != ask.actions[:done]:
        match = _dealt(ask)
        done = 0  # a take-back, or a match this worker has not seen
    for seat, action in ask.actions[done:]:
        match.apply(seat, action)
    _kept[ask.match_id] = match
    while len(_kept) > KEPT_MATCHES:
        _kept.popitem(last=False)
    return match


def ready() -> int:
    """(A worker.)  Its process id, once this module (and the engine) is imported there."""
    return os.getpid()


def think(ask: Ask) -> tuple[str, int]:
    """(A worker.)  The bot's action, and the worker's process id."""
    bot = make_bot(ask.level, ask.bot_seed, ms=ask.ms, waited=ask.waited())
    return bot.act(_replayed(ask), ask.seat), os.getpid()


def hint(ask: Ask) -> tuple[dict, int]:
    """(A worker.)  The coach's hint for the seat (engine/bots/coach.py), and the pid."""
    return advise(_replayed(ask), ask.seat, level=ask.level, seed=ask.bot_seed, ms=ask.ms,
                  waited=ask.waited()), os.getpid()


def deal_review(ask: ReviewAsk) -> tuple[dict, int]:
    """(A worker.)  The coach's review of the seat's decisions in the deal, and the pid.
    Each decision's search seed comes from the match id, the deal and the seat."""
    key = f"{ask.match_id}:{ask.deal}:{ask.seat}"
    return review(_dealt(ask), ask.actions, ask.deal, ask.seat, key=key, gap=ask.gap,
                  iterations=ask.rollouts, ms=None), os.getpid()


# -- in the server -----------------------------------------------------------------------


class BotPool:
    """The worker processes of strong bots, started with the first decision asked."""

    def __init__(self, processes: int) -> None:
        self.processes = max(1, processes)
        self._executor: ProcessPoolExecutor | None = None
        self._starting = asyncio.Lock()
        self.pids: set[int] = set()  # the workers that have answered (tests, logs)
        self.decisions = 0

    async def decide(self, ask: Ask) -> str:
        """The action a worker proposes for ``ask``; its errors are raised here."""
        action = await self._ask(think, ask)
        self.decisions += 1
        return action

    async def advise(self, ask: Ask) -> dict:
        """The coach's hint for ``ask`` (``{"action", "reason"}``), from a worker."""
        return await self._ask(hint, ask)

    async def review(self, ask: ReviewAsk) -> dict:
        """The coach's review of a finished deal for one seat (engine/bots/coach.py), from a worker."""
        return await self._ask(deal_review, ask)

    async def _ask(self, work, ask: Ask | ReviewAsk):
        executor = await self._running()
        try:
            answer, pid = await asyncio.get_running_loop().run_in_executor(executor, work, ask)
        except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh next time
            log.error("a bot worker process died; starting new ones")
            if self._executor is executor:
                self._executor = None
                executor.shutdown(wait=False, cancel_futures=True)
            raise
        self.pids.add(pid)
        return answer

    async def _running(self) -> ProcessPoolExecutor:
        async with self._starting:
            if self._executor is None:
                self._executor = await asyncio.to_thread(self._start)
            return self._executor

    def _start(self) -> ProcessPoolExecutor:
        """(A thread.)  The pool with every worker started and the engine imported in it
        (a submit while no worker is idle starts one more, up to ``processes``)."""
        executor = ProcessPoolExecutor(self.processes, mp_context=multiprocessing.get_context("spawn"))
        pids = {f.result() for f in [executor.submit(ready) for _ in range(self.processes)]}
        log.info("bot worker processes started: %s", sorted(pids))
        return executor

    async def stop(self) -> None:
        """Shut the workers down (a decision under way is waited for; queued ones are dropped)."""
        async with self._starting:
            executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
