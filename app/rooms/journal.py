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
- ``PgGroupJournal`` (PostgreSQL): applied here too, committed in batches by one
  writer thread (app/db/pg_writer.py) that locks the batch's match rows and logs
  an action only if its match is still at the action's seq in the database;
  when another process logged one first, the match is rebuilt from the log and
  the action refused as stale (or, sent without a version, tried again).  It
  replaced a transaction of four round trips per action in a worker thread
  (row lock, catch-up, bump, insert), which cost 3-4 ms of server CPU per action."""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from functools import partial

from anyio import to_thread

from engine import IllegalAction

from ..db.pg_writer import PgGroupWriter
from ..db.session import Database
from ..db.store import VersionConflict
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
    """The event loop applies, one writer thread commits many rooms at once: SQLite's
    GroupWriter (app/db/writer.py), or PostgreSQL's (PgGroupJournal)."""

    def __init__(self, db: Database, writer: GroupWriter | None = None) -> None:
        super().__init__(db)
        self.writer = writer if writer is not None else GroupWriter(db)
        self.forget = lambda live: None  # set by the owner: drop a match whose memory is ahead

    async def commit(self, live: LiveMatch, seat: int, action: str, client_id: str | None,
                     expect: int | None = None) -> int:
        for attempt in range(3):
            try:
                return await self._commit_once(live, seat, action, client_id, expect)
            except VersionConflict:
                # Another process logged an action of this match first (its note is on
                # the way): our memory is rebuilt from the log with it.  The caller's
                # version is stale now; an action without one is tried again on top.
                log.info("match %s: another process logged version %d first", live.id, live.version - 1)
                await self._rebuild(live)
                if expect is not None or attempt == 2:
                    raise Stale(live.version) from None
        raise AssertionError  # pragma: no cover

    async def _commit_once(self, live: LiveMatch, seat: int, action: str, client_id: str | None,
                           expect: int | None) -> int:
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
        except VersionConflict:
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


class PgGroupJournal(GroupCommitJournal):
    """PostgreSQL: applied in the event loop on the match as this process knows it,
    committed in batches by app/db/pg_writer.py, which logs an action only if its
    match row (locked) is at the action's seq; if another process got there first,
    the match is rebuilt from the log (see commit).  An action that the match in
    memory refuses as illegal is checked once more against the log (another
    process's action may not have reached us yet), so memory being behind never
    refuses an action the log allows."""

    def __init__(self, db: Database) -> None:
        super().__init__(db, PgGroupWriter(db))

    async def commit(self, live: LiveMatch, seat: int, action: str, client_id: str | None,
                     expect: int | None = None) -> int:
        try:
            return await super().commit(live, seat, action, client_id, expect)
        except IllegalAction:
            if not await to_thread.run_sync(live.catch_up, self.db):
                raise  # memory was the log's: illegal indeed
        return await super().commit(live, seat, action, client_id, expect)


def journal_for(db: Database) -> Journal:
    """SQLite's journal (one writer thread) or PostgreSQL's (app/db/pg_writer.py)."""
    if db.is_sqlite:
        return GroupCommitJournal(db)
    return PgGroupJournal(db)
