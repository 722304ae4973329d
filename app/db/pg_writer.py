"""Group commit for PostgreSQL: one thread writes the match loop's actions in batches.

Several server processes share one PostgreSQL, so (unlike SQLite) another
process may have logged an action of the same match meanwhile.  A batch is one
transaction: the match rows of the batch are locked ``FOR UPDATE`` in id order
(two processes' batches never deadlock on each other), each action whose match
row is at the action's seq is logged and its match row moved on, and the
transaction commits (with ``synchronous_commit`` as the database has it: on, by
default, so a committed action survives a crash of the database server too).
Only then are the futures settled: an action is acknowledged only once it is
durable.  An action whose match row is NOT at its seq (another process got
there first) fails alone with ``VersionConflict``; the rest of the batch commits.
If the transaction fails, every write in it fails (nothing of the batch is in
the database) and each caller rebuilds its match from the log.

Per batch: one SELECT … FOR UPDATE, one UPDATE and one INSERT (arrays, not one
statement per action) and one commit, instead of four round trips and a commit
(its WAL flush) per action."""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import Connection

from . import models as m
from .session import Database
from .store import VersionConflict

log = logging.getLogger("kozyr.writer")

_STOP = object()

_LOCK = "SELECT id, version FROM matches WHERE id = ANY(%s) ORDER BY id FOR UPDATE"
_BUMP = ("UPDATE matches SET version = u.version FROM unnest(%s::text[], %s::int[]) AS u(id, version) "
         "WHERE matches.id = u.id")
_LOG = ("INSERT INTO actions (match_id, seq, seat, action, client_id, created_at) "
        "SELECT u.m, u.s, u.t, u.a, u.c, %s "
        "FROM unnest(%s::text[], %s::int[], %s::int[], %s::text[], %s::text[]) AS u(m, s, t, a, c)")


def record_batch(c: Connection, rows: list[tuple[str, int, int, str, str | None]]) -> set[int]:
    """Log the actions ``rows`` (match_id, seq, seat, action, client_id) whose match row
    is at ``seq`` (at most one row per match); the indexes of the rows refused."""
    dbapi = c.connection.dbapi_connection
    assert dbapi is not None
    cur = dbapi.cursor()
    try:
        cur.execute(_LOCK, (sorted({r[0] for r in rows}),))
        at = dict(cur.fetchall())
        refused = set()
        taken: set[str] = set()
        for i, r in enumerate(rows):
            if at.get(r[0]) != r[1] or r[0] in taken:
                refused.add(i)
            else:
                taken.add(r[0])
        ok = [r for i, r in enumerate(rows) if i not in refused]
        if ok:
            cur.execute(_BUMP, ([r[0] for r in ok], [r[1] + 1 for r in ok]))
            cur.execute(_LOG, (m.utcnow(), [r[0] for r in ok], [r[1] for r in ok], [r[2] for r in ok],
                               [r[3] for r in ok], [r[4] for r in ok]))
        return refused
    finally:
        cur.close()


class PgGroupWriter:
    """The same interface as app/db/writer.py's GroupWriter: ``submit(row, extra)``."""

    def __init__(self, db: Database, max_batch: int = 500) -> None:
        self.db = db
        self.max_batch = max_batch
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.thread: threading.Thread | None = None
        self.batches = 0
        self.writes = 0

    def submit(self, row: tuple, extra: Callable[[Connection], Any] | None = None) -> asyncio.Future:
        """Log action ``row`` and run ``extra(connection)`` if given, in the next
        transaction; the future settles after its commit, failure or refusal
        (``VersionConflict``: the match row was not at the row's seq)."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, name="kozyr-pg-writer", daemon=True)
            self.thread.start()
        self.queue.put((row, extra, loop, fut))
        return fut

    def stop(self, timeout: float = 10.0) -> None:
        """Commit what is queued, then end the thread."""
        if self.thread is not None:
            self.queue.put(_STOP)
            self.thread.join(timeout)
            self.thread = None
            if self.batches:
                log.info("pg writer: %d action(s) in %d commit(s)", self.writes, self.batches)

    def _run(self) -> None:
        stopping = False
        while not stopping:
            item = self.queue.get()
            if item is _STOP:
                return
            batch = [item]
            while len(batch) < self.max_batch:
                try:
                    item = self.queue.get_nowait()
                except queue.Empty:
                    break
                if item is _STOP:
                    stopping = True
                    break
                batch.append(item)
            self._write(batch)

    def _write(self, batch: list) -> None:
        error: BaseException | None = None
        refused: set[int] = set()
        try:
            with self.db.write_conn() as c:
                refused = record_batch(c, [item[0] for item in batch])
                for i, (_, extra, _, _) in enumerate(batch):
                    if extra is not None and i not in refused:
                        extra(c)
        except BaseException as e:  # nothing of this batch was committed
            log.error("a batch of %d write(s) failed: %r", len(batch), e)
            error = e
        self.batches += 1
        self.writes += len(batch)
        by_loop: dict[asyncio.AbstractEventLoop, list] = {}  # one wake-up per event loop
        for i, (row, _, loop, fut) in enumerate(batch):
            failed = error if error is not None else (
                VersionConflict(f"match {row[0]} is not at version {row[1]} in the database")
                if i in refused else None)
            by_loop.setdefault(loop, []).append((fut, failed))
        for loop, settled in by_loop.items():
            try:
                loop.call_soon_threadsafe(_settle_all, settled)
            except RuntimeError:  # that event loop is closed: nobody waits any more
                pass


def _settle_all(settled: list[tuple[asyncio.Future, BaseException | None]]) -> None:
    for fut, error in settled:
        if fut.done():
            continue
        if error is not None:
            fut.set_exception(error)
        else:
            fut.set_result(None)
