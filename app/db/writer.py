"""Group commit for SQLite: the match loop's actions are written in batches.

SQLite has one writer at a time, and a commit (now and then with a WAL
checkpoint and its fsync) must never stall the event loop that serves every
room.  In the thread mode the loop hands each write to a thread and awaits a
future; the thread takes everything queued, runs it in ONE transaction, commits, and only
then settles the futures, so an action is acknowledged (and its views sent)
only once it is durable.  If the transaction fails, every write in it fails
(nothing of the batch is in the database) and each caller rebuilds its match
from the log.

The thread keeps one connection of its own: a pool checkout, its reset and its
check-in per batch cost more than the two statements (the thread's CPU per
action fell from 0.16-0.30 to 0.05-0.14 ms in paired runs at 200 rooms,
bench/thread_cpu.sh; bench/results/server-perf-2026-12-01.txt).

Inline (SQLite, ``inline=True``, the match loop's writer): a batch is committed on
the event loop itself, at the end of the loop's turn in which its writes came, when
the single-writer lock is free at that moment (else the batch goes to the thread,
which waits for the lock; a "database is locked" from a writer outside the lock
does the same, the loop's connection never waits: busy_timeout=0).  A commit in WAL
mode with synchronous=NORMAL is a few writes into the WAL file, no fsync; in the
server it costs the loop about 80 us of CPU plus 80 us per write, about what the
thread spent on it, and the thread's hand-off (waking it, the GIL passed back and
forth, waking the loop for the ack) is saved: all threads together 0.62 against
0.67 ms per action at 800 rooms, 1.02 against 1.04 at 200, back to back
(bench/results/server-inline-2026-12-01.txt).  The fsync of a WAL checkpoint would
stall the loop, so the loop's connection never checkpoints (wal_autocheckpoint=0):
every ``checkpoint_every`` inline commits it asks the thread for a passive one,
which holds the writer's turn so that the WAL starts again from its head
(``_checkpoint``).
The same promise holds: a write's future settles only after its commit.

``gather`` (seconds; KOZYR_COMMIT_GATHER_MS): under full load the loop commits at
most once per ``gather``; the window it keeps grows with the load: ``gather`` times
the matches that wrote in the last second over ``gather_full``
(KOZYR_COMMIT_GATHER_FULL), at most ``gather`` (``window``).  A write that comes
when the last commit is older than the window is committed at the end of its turn,
as above (a quiet server, a single table, a test playing one match adds no wait and
no timer's wake-up); under load, the writes of several turns wait for the next slot
and share one commit.  A commit's fixed part is most of a one-write commit and grows
with the time since the last one (its code and pages fall out of the caches), so
wider batches pay: at 400 rooms 3 -> 10 -> 20 ms gave the loop 115 -> 80 -> 64 us
of commit per action and the whole server 2.6 -> 2.4 -> 2.2x the bare server's CPU
per action, for p99 7 -> 14 -> 24 ms (bench/results/server-2026-12-03.txt).  Their
acks and views wait at most the window: tens of milliseconds at most, against a
player's round trip of tens and a turn of seconds."""

from __future__ import annotations

import asyncio
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError

from . import store
from .session import Database

log = logging.getLogger("kozyr.writer")

_STOP = object()
_CHECKPOINT = object()


class GroupWriter:
    """SQLite's writer; app/db/pg_writer.py's PgGroupWriter is the same thread and queue
    with PostgreSQL's batch (``_commit``)."""

    thread_name = "kozyr-writer"
    thread_isolation: str | None = None  # the thread's connection's isolation level (None: the engine's)

    def __init__(self, db: Database, max_batch: int = 500, inline: bool = False,
                 checkpoint_every: int = 200, gather: float = 0.0, gather_full: int = 1) -> None:
        self.db = db
        self.gather = gather
        self.gather_full = max(1, gather_full)  # matches writing a second that earn the whole gather
        self._second = 0  # inline: the whole second (time.monotonic) whose writers are counted ...
        self._writers: set[object] = set()  # ... the matches that wrote in it so far
        self._writers_before = 0  # how many wrote in the second before it
        self.last_flush = 0.0  # inline: when the loop last committed (time.monotonic)
        self.max_batch = max_batch
        self.inline = inline and db.is_sqlite
        self.checkpoint_every = checkpoint_every
        self.conn: Connection | None = None  # the thread's own, opened on its first batch
        self.loop_conn: Connection | None = None  # inline: the event loop's own
        self.pending: list[tuple] = []  # inline: the writes of this turn of the loop
        self.inline_batches = 0
        self.checkpoints = 0
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.thread: threading.Thread | None = None
        self.batches = 0
        self.writes = 0

    def submit(self, row: tuple, extra: Callable[[Connection], Any] | None = None) -> asyncio.Future:
        """Log action ``row`` (store.record_actions) and run ``extra(connection)`` if
        given, in the next transaction; the future settles after its commit or failure."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        if self.inline:
            now = time.monotonic()
            self._count_writer(row[0], now)
            if not self.pending:  # at most one commit per window: sooner, at the turn's end
                wait = self.last_flush + self.window() - now
                if wait > 0:
                    loop.call_later(wait, self.flush)
                else:
                    loop.call_soon(self.flush)
            self.pending.append((row, extra, loop, fut))
            return fut
        self._to_thread((row, extra, loop, fut))
        return fut

    def _count_writer(self, match_id: object, now: float) -> None:
        second = int(now)
        if second != self._second:
            self._writers_before = len(self._writers) if second == self._second + 1 else 0
            self._writers, self._second = set(), second
        self._writers.add(match_id)

    def window(self) -> float:
        """How long the loop lets writes gather now (seconds): ``gather`` times the
        matches that wrote in the last second (this one's or the one before, the more)
        over ``gather_full``, at most ``gather``."""
        load = max(self._writers_before, len(self._writers)) / self.gather_full
        return self.gather * min(1.0, load)

    def _to_thread(self, item: object) -> None:
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, name=self.thread_name, daemon=True)
            self.thread.start()
        self.queue.put(item)

    def flush(self) -> None:
        """Inline: commit the queued writes here, now, if no other writer holds SQLite
        (else the thread waits for it); called at the end of a turn or at the next
        gather slot (submit), and before stop."""
        batch, self.pending = self.pending, []
        if not batch:
            return
        self.last_flush = time.monotonic()
        error: BaseException | None = None
        handed = not self.db.try_writing()  # a worker thread is writing (a room, a seat)
        if not handed:
            try:
                if self.loop_conn is None:
                    self.loop_conn = self._open_loop_conn()
                with self.loop_conn.begin():
                    self._write(self.loop_conn, batch)
            except (OperationalError, sqlite3.OperationalError) as e:  # wrapped or raw (store's cursor)
                # "locked": a writer outside the lock, never waited for here
                handed = "locked" in str(e) or "busy" in str(e)
                error = None if handed else e
            except BaseException as e:  # nothing of this batch was committed
                error = e
            finally:
                self.db.done_writing()
        if handed:
            for item in batch:
                self._to_thread(item)
            return
        if error is not None:
            log.error("a batch of %d write(s) failed: %r", len(batch), error)
            self._close_loop_conn()
        self.batches += 1
        self.inline_batches += 1
        self.writes += len(batch)
        _settle_all([(fut, error) for _, _, _, fut in batch])
        if self.inline_batches % self.checkpoint_every == 0:
            self._to_thread(_CHECKPOINT)

    def _open_loop_conn(self) -> Connection:
        conn = self.db.engine.connect()
        conn.exec_driver_sql("PRAGMA wal_autocheckpoint=0")  # the thread checkpoints, off the loop
        conn.exec_driver_sql("PRAGMA busy_timeout=0")  # never wait on the loop (see flush)
        conn.commit()
        return conn

    def _close_loop_conn(self) -> None:
        """Discard the loop's connection (its pragmas stay out of the pool)."""
        conn, self.loop_conn = self.loop_conn, None
        if conn is not None:
            try:
                conn.invalidate()
                conn.close()
            except Exception:
                pass

    @staticmethod
    def _write(conn: Connection, batch: list) -> None:
        store.record_actions(conn, [item[0] for item in batch])
        for _, extra, _, _ in batch:
            if extra is not None:
                extra(conn)

    def stop(self, timeout: float = 10.0) -> None:
        """Commit what is queued, then end the thread (inline writes: flush first)."""
        if self.thread is not None:
            self.queue.put(_STOP)
            self.thread.join(timeout)
            self.thread = None
        self._close_loop_conn()
        if self.batches:
            log.info("writer: %d action(s) in %d commit(s), %d on the loop", self.writes, self.batches,
                     self.inline_batches)

    def _run(self) -> None:
        stopping = False
        while not stopping:
            item = self.queue.get()
            if item is _STOP:
                break
            if item is _CHECKPOINT:
                self._checkpoint()
                continue
            batch = [item]
            while len(batch) < self.max_batch:
                try:
                    item = self.queue.get_nowait()
                except queue.Empty:
                    break
                if item is _STOP:
                    stopping = True
                    break
                if item is _CHECKPOINT:
                    continue  # this batch's own commit may checkpoint (the thread's connection does)
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

    def _checkpoint(self) -> None:
        """Copy the WAL back into the database file (with its fsync), off the loop;
        passive: it waits for no reader, and the next one takes up what it left.

        It holds the writer's turn: the loop's commits meanwhile come to this thread
        (flush hands them over) and are written after it.  Without that, the loop
        appended frames while the checkpoint ran, so the WAL was never wholly copied
        when the next write began, SQLite never started it again from its head, and
        under steady play it grew without end (36 MB in 10 s at 400 rooms), every
        frame written to new blocks that the kernel zeroes first (6% of the server's
        CPU; bench/results/server-2026-12-02c.txt)."""
        try:
            conn = self.thread_conn()
            with self.db.writing():
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
                conn.commit()
            self.checkpoints += 1
        except Exception as e:
            log.warning("WAL checkpoint failed: %r", e)
            self._close()

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
