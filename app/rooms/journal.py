"""The journal: how an action applied to a live match becomes durable.

``Journal.commit(live, seat, action, client_id, expect)`` applies the action to
the engine match and appends it to the action log; it returns the action's seq
once it is committed, and only then may the caller acknowledge it.  It raises
``Duplicate`` (the seat already sent that client_id: nothing applied),
``Stale`` (the match is not at ``expect``) or ``IllegalAction`` with nothing
changed; after any other exception the action is not recorded and the match
was rebuilt from the log.  Call it under ``live.lock``.

Two implementations, one per database:

- ``GroupCommitJournal`` (SQLite): applied here in the event loop, committed by
  the writer thread together with other rooms' actions (app/db/writer.py), so
  the event loop never waits on the disk;
- ``RowLockJournal`` (PostgreSQL): in a worker thread, with the match row
  locked ``FOR UPDATE``; actions another process logged are applied first."""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from functools import partial

from anyio import to_thread

from engine import IllegalAction

from ..db import store
from ..db.session import Database
from ..db.writer import GroupWriter
from .live import Duplicate, LiveMatch, Pending, Stale

log = logging.getLogger("kozyr.journal")


class Journal(ABC):
    def __init__(self, db: Database) -> None:
        self.db = db

    @abstractmethod
    async def commit(self, live: LiveMatch, seat: int, action: str, client_id: str | None,
                     expect: int | None = None) -> int:
        """Apply and log one action (under live.lock); its seq once committed."""

    async def stop(self) -> None:  # noqa: B027 - most journals have nothing queued
        """Commit what is queued (on shutdown)."""

    async def _rebuild(self, live: LiveMatch) -> None:
        await to_thread.run_sync(live.reload, self.db)


class GroupCommitJournal(Journal):
    """SQLite: the event loop applies, one writer thread commits many rooms at once."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self.writer = GroupWriter(db)
        self.forget = lambda live: None  # set by the owner: drop a match whose memory is ahead

    async def commit(self, live: LiveMatch, seat: int, action: str, client_id: str | None,
                     expect: int | None = None) -> int:
        try:
            pending = live.prepare(seat, action, client_id, expect)
        except (IllegalAction, Duplicate, Stale):
            raise
        except BaseException:
            log.exception("match %s: the engine failed on %r of seat %s; rebuilding", live.id, action, seat)
            await self._rebuild(live)
            raise
        fut = self.writer.submit(live.row(pending),
                                 partial(live.write_rows, pending=pending) if live.has_rows(pending) else None)
        try:
            await asyncio.shield(fut)
        except asyncio.CancelledError:
            # Our caller is gone, the write is not: settle the match when it lands.
            fut.add_done_callback(lambda f: self._landed(live, pending, f))
            raise
        except BaseException:
            log.exception("match %s: action %r of seat %s not committed; rebuilding", live.id, action, seat)
            await self._rebuild(live)
            raise
        live.done(pending)
        return pending.seq

    def _landed(self, live: LiveMatch, pending: Pending, fut: asyncio.Future) -> None:
        if not fut.cancelled() and fut.exception() is None:
            live.done(pending)
        else:
            self.forget(live)  # memory is ahead of the log: load it afresh next time

    async def stop(self) -> None:
        await to_thread.run_sync(self.writer.stop)


class RowLockJournal(Journal):
    """PostgreSQL: each action in its own transaction, with the match row locked."""

    async def commit(self, live: LiveMatch, seat: int, action: str, client_id: str | None,
                     expect: int | None = None) -> int:
        return await to_thread.run_sync(self._commit, live, seat, action, client_id, expect)

    def _commit(self, live: LiveMatch, seat: int, action: str, client_id: str | None,
                expect: int | None) -> int:
        applied = False
        try:
            with self.db.write_conn() as c:
                in_db = store.lock_match_version(c, live.id, for_update=True)
                if in_db != live.version:  # another process moved on: apply its actions first
                    live.follow_log(store.actions_of(c, live.id, live.version))
                pending = live.prepare(seat, action, client_id, expect)
                applied = True
                live.write(c, pending)
        except (IllegalAction, Duplicate, Stale):
            raise  # nothing changed
        except BaseException:
            # The database failed after the engine applied, or the engine itself failed
            # half-way: memory may be ahead of the log, so rebuild from the log.
            log.exception("match %s: action %r of seat %s failed (applied=%s); rebuilding",
                          live.id, action, seat, applied)
            live.reload(self.db)
            raise
        live.done(pending)
        return pending.seq


def journal_for(db: Database) -> Journal:
    return GroupCommitJournal(db) if db.is_sqlite else RowLockJournal(db)
