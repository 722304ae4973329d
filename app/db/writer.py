"""Group commit for SQLite: the match loop's actions are written in batches.

SQLite has one writer at a time, and a commit (now and then with a WAL
checkpoint and its fsync) must never stall the event loop that serves every
room.  The loop hands each write to one writer thread and awaits a future; the
thread takes everything queued, runs it in ONE transaction (holding the
single-writer lock, app/db/session.py), commits, and only then settles the
futures, so an action is acknowledged (and its views sent) only once it is
durable.  If the transaction fails, every write in it fails (nothing of the
batch is in the database) and each caller rebuilds its match from the log.
While the thread commits, the next writes queue up and share the next commit.

One rule paces the commits: a batch starts at least ``interval`` seconds (2 ms) for
each write of the batch before it after that one started, and never more than
``max_wait`` (10 ms) after it.  A write that finds the thread idle for longer is
committed at once; one write after another (a table of bots) waits at most 2 ms; under
load the batches grow and the writes of up to 10 ms share one transaction, so the
thread wakes, takes the GIL and commits about a hundred times a second, not once a
write.  A batch costs far more than a row of it (the statements: ~60 us for one row,
~330 us for twenty; and the wake-up), and while the thread runs Python it holds the
GIL the event loop needs: at 1,000 actions a second the thread's statements took 104 us
of CPU an action with a 2 ms pace and 53 us with this one (bench/RESULTS.md "Load").

The thread keeps one connection of its own: a pool checkout, its reset and its
check-in per batch cost more than the two statements.  SQLite checkpoints the
WAL itself (``wal_autocheckpoint``) on this connection, off the loop.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import Connection

from . import store
from .session import Database

log = logging.getLogger("kozyr.writer")

_STOP = object()


class GroupWriter:
    """SQLite's writer; app/db/pg_writer.py's PgGroupWriter is the same thread and queue
    with PostgreSQL's batch (``_commit``)."""

    thread_name = "kozyr-writer"
    thread_isolation: str | None = None  # the thread's connection's isolation level (None: the engine's)

    def __init__(self, db: Database, max_batch: int = 500, interval: float = 0.002,
                 max_wait: float = 0.010) -> None:
        self.db = db
        self.max_batch = max_batch
        self.interval = interval
        self.max_wait = max(max_wait, interval)
        self.conn: Connection | None = None  # the thread's own, opened on its first batch
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.thread: threading.Thread | None = None
        self.batches = 0
        self.writes = 0

    def submit(self, row: tuple, extra: Callable[[Connection], Any] | None = None) -> asyncio.Future:
        """Log action ``row`` (store.record_actions) and run ``extra(connection)`` if
        given, in the next transaction; the future settles after its commit or failure."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)
            self.thread.start()
        self.queue.put((row, extra, loop, fut))
        return fut

    def gap_after(self, writes: int) -> float:
        """The least time from the start of a batch of ``writes`` to the next one's."""
        return min(self.max_wait, self.interval * writes)

    @staticmethod
    def _write(conn: Connection, batch: list) -> None:
        store.record_actions(conn, [item[0] for item in batch])
        for _, extra, _, _ in batch:
            if extra is not None:
                extra(conn)

    def stop(self, timeout: float = 10.0) -> None:
        """Commit what is queued, then end the thread."""
        if self.thread is not None:
            self.queue.put(_STOP)
            self.thread.join(timeout)
            self.thread = None
        if self.batches:
            log.info("writer: %d action(s) in %d commit(s)", self.writes, self.batches)

    def _run(self) -> None:
        stopping = False
        started = 0.0
        gap = 0.0  # the least time from the last batch's start to the next one's
        while not stopping:
            item = self.queue.get()
            if item is _STOP:
                break
            wait = started + gap - time.monotonic()
            if wait > 0:  # the last batch began less than ``gap`` ago: let more come
                time.sleep(wait)
            started = time.monotonic()
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
            error: BaseException | None = None
            refused: set[int] = set()
            try:
                refused = self._commit(batch)
            except BaseException as e:  # nothing of this batch was committed
                log.error("a batch of %d write(s) failed: %r", len(batch), e)
                error = e
                self._close()  # a fresh connection for the next batch
            self.batches += 1
            self.writes += len(batch)
            gap = self.gap_after(len(batch))
            # One wake-up per event loop for the whole batch, not one per write.
            by_loop: dict[asyncio.AbstractEventLoop, list] = {}
            for i, (row, _, loop, fut) in enumerate(batch):
                failed = error if error is not None else (
                    store.VersionConflict(f"match {row[0]} is not at version {row[1]} in the database")
                    if i in refused else None)
                by_loop.setdefault(loop, []).append((fut, failed))
            for loop, settled in by_loop.items():
                try:
                    loop.call_soon_threadsafe(_settle_all, settled)
                except RuntimeError:  # that event loop is closed: nobody waits any more
                    pass
        self._close()

    def _commit(self, batch: list) -> set[int]:
        """One transaction for the batch, with the single-writer lock (SQLite) held; the
        indexes of the writes refused (none here: one process owns a SQLite file)."""
        conn = self.thread_conn()
        with self.db.writing(), conn.begin():
            self._write(conn, batch)
        return set()

    def thread_conn(self) -> Connection:
        """(The thread.)  Its own connection, opened on first use and kept; a failed batch
        closes it (_close) and the next one connects afresh."""
        if self.conn is None:
            conn = self.db.engine.connect()
            self.conn = conn if self.thread_isolation is None else \
                conn.execution_options(isolation_level=self.thread_isolation)
        return self.conn

    def _close(self) -> None:
        conn, self.conn = self.conn, None
        _close(conn)


def _close(conn: Connection | None) -> None:
    if conn is not None:
        try:
            conn.close()
        except Exception:  # a broken connection: the pool discards it
            pass


def _settle_all(settled: list[tuple[asyncio.Future, BaseException | None]]) -> None:
    for fut, error in settled:
        if fut.done():
            continue
        if error is not None:
            fut.set_exception(error)
        else:
            fut.set_result(None)
