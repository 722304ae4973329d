"""The SQLite group writer (app/db/writer.py): many rooms' actions in one commit,
each acknowledged only once it is in the database, and a failed batch leaves
nothing of itself behind."""

from __future__ import annotations

import asyncio
import time

import pytest
from sqlalchemy import func, select

from app.db import models as m
from app.db import store
from app.db.migrate import upgrade
from app.db.session import Database
from app.db.writer import GroupWriter

from .helpers import make_matches


@pytest.fixture
def db(tmp_path):
    database = Database(f"sqlite:///{tmp_path / 'w.db'}")
    upgrade(database.engine)
    yield database
    database.dispose()


def logged(db: Database) -> dict[str, tuple[int, int]]:
    """match id -> (version in the match row, actions in the log)."""
    with db.read() as s:
        versions = dict(s.execute(select(m.Match.id, m.Match.version)).all())
        counts = dict(s.execute(select(m.Action.match_id, func.count())
                                .group_by(m.Action.match_id)).all())
    return {k: (v, counts.get(k, 0)) for k, v in versions.items()}


@pytest.mark.parametrize("inline,gather", [(False, 0.0), (True, 0.0), (True, 0.003)],
                         ids=["thread", "inline", "inline-gathered"])
def test_many_rooms_share_commits_and_each_ack_follows_its_commit(db, inline, gather):
    ids = make_matches(db, 40)
    writer = GroupWriter(db, inline=inline, gather=gather)

    async def room(match_id: str) -> None:
        for seq in range(5):
            await writer.submit((match_id, seq, seq % 2, "pass", f"c{seq}"))
            # Acknowledged: a fresh connection sees the action already.
            with db.read() as s:
                assert s.get(m.Match, match_id).version == seq + 1
                assert [r.seq for r in store.actions_of(s, match_id)] == list(range(seq + 1))

    async def main() -> None:
        await asyncio.gather(*(room(i) for i in ids))

    asyncio.run(main())
    writer.stop()
    assert logged(db) == {i: (5, 5) for i in ids}
    assert writer.writes == 200
    assert writer.batches < writer.writes  # rooms were committed together
    assert writer.inline_batches == (writer.batches if inline else 0)


def test_a_failed_batch_commits_nothing_and_fails_every_write(db):
    good, bad = make_matches(db, 2)
    writer = GroupWriter(db)

    async def main() -> list:
        # The first write holds the thread at the database lock while the next two queue
        # up behind it: they form one batch, and the second is at the wrong version.
        db._write_lock.acquire()
        first = writer.submit((good, 0, 0, "pass", "a"))
        await asyncio.sleep(0.2)
        futs = [writer.submit((good, 1, 1, "pass", "b")), writer.submit((bad, 7, 0, "pass", "c"))]
        db._write_lock.release()
        return await asyncio.gather(first, *futs, return_exceptions=True)

    results = asyncio.run(main())
    writer.stop()
    assert writer.batches == 2
    assert results[0] is None
    assert all(isinstance(r, store.VersionConflict) for r in results[1:])
    assert logged(db) == {good: (1, 1), bad: (0, 0)}


def test_stop_commits_what_is_queued(db):
    (match_id,) = make_matches(db, 1)
    writer = GroupWriter(db)

    async def main() -> None:
        for seq in range(3):
            writer.submit((match_id, seq, 0, "pass", None))
        writer.stop()

    asyncio.run(main())
    assert logged(db) == {match_id: (3, 3)}


def test_inline_commits_come_at_most_once_per_gather_window(db):
    """With ``gather``, a write after a quiet spell is committed at the end of its turn;
    writes that come within the window after a commit wait for the next slot and
    share one commit; none is acknowledged before its commit."""
    a, b = make_matches(db, 2)
    writer = GroupWriter(db, inline=True, gather=0.3)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        start = loop.time()
        await writer.submit((a, 0, 0, "pass", "a0"))  # quiet: at once
        assert loop.time() - start < 0.15 and writer.inline_batches == 1
        second = writer.submit((a, 1, 1, "pass", "a1"))
        await asyncio.sleep(0.05)  # later turns of the loop, within the window
        third = writer.submit((b, 0, 0, "pass", "b0"))
        await asyncio.sleep(0.05)
        assert not second.done() and not third.done()
        assert logged(db) == {a: (1, 1), b: (0, 0)}  # not committed yet
        await asyncio.gather(second, third)
        assert loop.time() - start >= 0.29  # the next slot
        assert logged(db) == {a: (2, 2), b: (1, 1)}

    asyncio.run(main())
    writer.stop()
    assert writer.writes == 3 and writer.batches == writer.inline_batches == 2


def test_inline_writes_wait_for_another_writer_in_the_thread_and_checkpoint_there(db):
    """On the loop, a batch is committed only if no other writer holds SQLite at that
    moment: else the thread takes it and waits; the loop's connection never
    checkpoints (no fsync on the loop), the thread does, every checkpoint_every commits."""
    (match_id,) = make_matches(db, 1)
    writer = GroupWriter(db, inline=True, checkpoint_every=5)

    async def main() -> None:
        for seq in range(10):
            await writer.submit((match_id, seq, 0, "pass", f"c{seq}"))
        # Each batch was committed before its ack: on the loop, or by the thread when
        # the thread's checkpoint held the writer's turn at that moment (by design).
        assert writer.batches == writer.writes == 10
        assert writer.inline_batches >= 5 and writer.thread is not None  # asked for checkpoints
        db._write_lock.acquire()  # a room being created in a worker thread, say
        fut = writer.submit((match_id, 10, 0, "pass", "c10"))
        await asyncio.sleep(0.2)
        assert not fut.done()  # not acknowledged: not committed
        assert logged(db) == {match_id: (10, 10)}
        db._write_lock.release()
        await fut
        assert logged(db) == {match_id: (11, 11)}

    asyncio.run(main())
    assert writer.loop_conn is not None
    assert writer.loop_conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
    writer.loop_conn.rollback()
    writer.stop()
    # The 11th write went to the thread (the lock was held); of the first ten, any that
    # came while a checkpoint held the writer's turn did too (see above).
    assert writer.batches == writer.writes == 11 and 5 <= writer.inline_batches <= 10
    assert writer.checkpoints == writer.inline_batches // 5  # one per checkpoint_every on the loop
    assert logged(db) == {match_id: (11, 11)}


def test_inline_writes_behind_a_writer_outside_the_lock_wait_in_the_thread(db, tmp_path):
    """A writer that holds SQLite without the process's lock (another program on the
    file, say): the loop's commit gets "database is locked" at once (it never waits),
    and the thread commits the batch once that writer is done; nothing is
    acknowledged before."""
    import sqlite3

    (match_id,) = make_matches(db, 1)
    writer = GroupWriter(db, inline=True)
    other = sqlite3.connect(tmp_path / "w.db", isolation_level=None)

    async def main() -> None:
        await writer.submit((match_id, 0, 0, "pass", "a"))  # on the loop
        other.execute("BEGIN IMMEDIATE")
        fut = writer.submit((match_id, 1, 0, "pass", "b"))
        await asyncio.sleep(0.3)
        assert not fut.done() and writer.inline_batches == 1
        other.execute("ROLLBACK")
        await fut
        assert logged(db) == {match_id: (2, 2)}

    asyncio.run(main())
    other.close()
    writer.stop()
    assert writer.inline_batches == 1 and writer.batches == 2


def test_under_steady_writes_the_wal_starts_again_from_its_head(db, tmp_path):
    """The loop commits every turn while the thread checkpoints: each checkpoint holds
    the writer's turn (the loop's batches meanwhile go to the thread), so once it has
    copied the whole WAL the next write starts the WAL again from its head (SQLite
    counts those restarts in the WAL header's checkpoint sequence number, bytes 12-15).
    Before, the loop's frames kept coming during every checkpoint, the WAL was never
    wholly copied when a write began, and under steady play it grew without end."""
    ids = make_matches(db, 40)
    writer = GroupWriter(db, inline=True, checkpoint_every=10)
    wal = tmp_path / "w.db-wal"

    async def main() -> None:
        for seq in range(200):
            await asyncio.gather(*(writer.submit((i, seq, 0, "pass", None)) for i in ids))

    asyncio.run(main())
    writer.stop()
    restarts = int.from_bytes(wal.read_bytes()[12:16], "big")
    assert writer.checkpoints >= 15
    assert restarts >= writer.checkpoints - 2, (restarts, writer.checkpoints)
    assert logged(db) == {i: (200, 200) for i in ids}


def test_an_actions_time_is_written_as_sqlalchemy_keeps_it_and_reads_back(db, monkeypatch):
    """record_actions stamps a row with ``store.sqlite_now``: the text SQLAlchemy's
    DateTime keeps on SQLite, read back as the moment it was logged (UTC)."""
    from datetime import UTC, datetime, timedelta

    for clock in (1764633600.0, 1764633600.5, 1764633601.999999, 1764633601.9999997, 1796169599.000001):
        monkeypatch.setattr(store.time, "time", lambda clock=clock: clock)
        assert store.sqlite_now() == datetime.fromtimestamp(clock, UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    monkeypatch.undo()
    (match_id,) = make_matches(db, 1)
    before = datetime.now(UTC)
    with db.engine.begin() as c:
        store.record_actions(c, [(match_id, 0, 0, "pass", "c0")])
    after = datetime.now(UTC)
    with db.read() as s:
        created = s.execute(select(m.Action.created_at).where(m.Action.match_id == match_id)).scalar_one()
    created = created.replace(tzinfo=UTC) if created.tzinfo is None else created
    assert before - timedelta(milliseconds=1) <= created <= after + timedelta(milliseconds=1)


def test_the_gather_window_grows_with_the_matches_writing_a_second(db):
    """Under load the loop lets writes gather up to ``gather``; with few matches acting
    (a lone table, a test) the window is next to nothing, so nothing waits for a
    commit that no other match would share."""
    ids = make_matches(db, 8)
    writer = GroupWriter(db, inline=True, gather=0.020, gather_full=4)
    assert writer.window() == 0.0  # nobody wrote yet
    writer._count_writer(ids[0], 100.2)
    writer._count_writer(ids[0], 100.3)  # the same match again counts once
    assert writer.window() == pytest.approx(0.005)
    writer._count_writer(ids[1], 100.4)
    assert writer.window() == pytest.approx(0.010)
    for i in ids[2:]:
        writer._count_writer(i, 100.9)
    assert writer.window() == pytest.approx(0.020)  # 8 matches, 4 earn the whole gather
    writer._count_writer(ids[0], 101.1)  # a new second: the last one's 8 still count
    assert writer.window() == pytest.approx(0.020)
    writer._count_writer(ids[0], 102.5)  # the second before held one match
    assert writer.window() == pytest.approx(0.005)
    writer._count_writer(ids[0], 110.0)  # seconds with no write: only this one counts
    assert writer.window() == pytest.approx(0.005)


def test_a_lone_match_under_the_default_settings_waits_next_to_nothing(db):
    """The server's own journal (journal_for with the default settings): one match
    acting alone gets a window of a 400th of the 20 ms gather, 400 matches the whole."""
    from app.config import Settings
    from app.rooms.journal import journal_for

    settings = Settings()
    journal = journal_for(db, settings.commit_gather_ms / 1000, settings.commit_gather_full)
    writer = journal.writer
    ids = make_matches(db, 2)

    async def main() -> None:
        for seq in range(5):
            await writer.submit((ids[0], seq, seq % 2, "pass", f"c{seq}"))
        assert writer.window() == pytest.approx(0.020 / 400)
        now = time.monotonic()  # one moment: no second turns between the counts
        for n in range(400):
            writer._count_writer(f"other{n}", now)
        assert writer.window() == pytest.approx(0.020)

    asyncio.run(main())
    writer.stop()
    assert logged(db)[ids[0]] == (5, 5)
    assert writer.batches == writer.inline_batches == 5  # one after another: one commit each
