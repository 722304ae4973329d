"""The coach's review of a finished deal (issue 36): one seat's decisions in the deal,
each searched again by the strong bot from that seat's view at that moment
(engine/bots/coach.py ``review``), the ones where the action played was estimated
worse than the best by more than ``REVIEW_GAP`` marked with what the coach would have
done and why.

Only of a match played with the coach on (``coached``).  Once the match is over its
whole history is public (rule C-5): any signed-in player may ask for any seat's review.
While it is being played only the player who holds the seat may, and only of a
finished deal (its last action cannot be taken back, so the review stays true).

The work is done in the bots' worker processes (botpool.py), never on the event loop,
at a fixed rollout budget (``coach_review_rollouts``) and seeds from the match id, the
deal, the seat and the decision: the same answer every time.  The answer is stored
(table ``deal_reviews``): asking again costs one SELECT.  A review being worked out is
waited for by a second ask of the same one in this process, not worked out twice.  New
reviews are limited per player (``coach_review_burst``, ``coach_reviews_per_minute``)."""

from __future__ import annotations

import asyncio

from anyio import to_thread

from engine.bots.coach import REVIEW_GAP

from ..config import Settings
from ..db import store
from ..db.errors import CoachOff, NotYourSeat, UnknownDeal, UnknownSeat
from ..db.session import Database
from ..limits import CodeGuard
from .botpool import BotPool, ReviewAsk
from .history import OVER
from .replays import ReplayCache

Key = tuple[str, int, int]  # (match, deal, seat)


class DealReviews:
    def __init__(self, settings: Settings, db: Database, replays: ReplayCache, pool: BotPool) -> None:
        self.settings = settings
        self.db = db
        self.replays = replays
        self.pool = pool
        self.limit = CodeGuard(settings.coach_review_burst, settings.coach_reviews_per_minute,
                               message="too many reviews in a minute; wait a little")
        self._busy: dict[Key, asyncio.Task] = {}  # reviews being worked out here
        self.worked = 0  # reviews worked out (tests, metrics)

    async def review(self, player_id: int, match_id: str, deal: int, seat: int) -> dict:
        """The review of ``seat`` in ``deal`` of the match, for ``player_id``: stored,
        being worked out (waited for), or worked out now (counted against his limit)."""
        stored, ask = await to_thread.run_sync(self._load, player_id, match_id, deal, seat)
        if stored is not None:
            return stored
        assert ask is not None
        key = (ask.match_id, deal, seat)
        busy = self._busy.get(key)
        if busy is None:
            self.limit.take(str(player_id))  # RateLimited: 429 with Retry-After
            # A task of its own: an asker who goes away does not stop the others' answer.
            busy = self._busy[key] = asyncio.create_task(self._work(key, ask))
            busy.add_done_callback(lambda task: self._done(key, task))
        return await asyncio.shield(busy)

    async def _work(self, key: Key, ask: ReviewAsk) -> dict:
        body = {"match": ask.match_id, **await self.pool.review(ask)}
        await to_thread.run_sync(self._keep, key, body)
        self.worked += 1
        return body

    def _done(self, key: Key, task: asyncio.Task) -> None:
        self._busy.pop(key, None)
        if not task.cancelled():
            task.exception()  # read here too: every asker may have gone away

    def _load(self, player_id: int, match_id: str, deal: int, seat: int) -> tuple[dict | None, ReviewAsk | None]:
        """(A worker thread.)  The stored review, or what a worker needs to work it out;
        the refusals (unknown match / seat / deal, the coach off, another's seat)."""
        with self.db.read() as s:
            row = store.match_row(s, match_id)
            if not 0 <= seat < row.seat_count:
                raise UnknownSeat(f"match {match_id!r} has no seat {seat}")
            if not row.coached:
                raise CoachOff("this match was played without the coach: it has no review")
            if row.status not in OVER and not any(
                    n == seat and p == player_id for n, p, _ in store.match_players(s, row.id)):
                raise NotYourSeat("while the match is being played only the seat's player may see its review")
            stored = store.deal_review(s, row.id, deal, seat)
            if stored is not None:
                return stored, None
            actions = store.actions_of(s, row.id)
        match = self.replays.get(row, actions)  # the log as played (take-backs skipped)
        if not any(d["deal"] == deal for d in match.history()):
            raise UnknownDeal(f"deal {deal} of match {match_id!r} is not finished")
        return None, ReviewAsk(row.id, row.variant, row.seat_count, row.seed, row.options, row.first_dealer,
                               row.preset_deals, list(match.actions), deal, seat,
                               self.settings.coach_review_rollouts, REVIEW_GAP, deal_seeds=bool(row.deal_seeds))

    def _keep(self, key: Key, body: dict) -> None:
        with self.db.write() as s:
            store.keep_deal_review(s, *key, body)
