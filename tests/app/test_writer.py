"""The SQLite group writer (app/db/writer.py): many rooms' actions in one commit,
each acknowledged only once it is in the database, and a failed batch leaves
nothing of itself behind."""

from __future__ import annotations

import asyncio

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


def test_many_rooms_share_commits_and_each_ack_follows_its_commit(db):
    ids = make_matches(db, 40)
    writer = GroupWriter(db)

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


def test_writes_behind_another_writer_wait_and_are_acknowledged_after_their_commit(db):
    """A worker thread holding SQLite's writer lock (a room being made, say): the
    writer thread waits its turn; nothing is acknowledged before its commit."""
    (match_id,) = make_matches(db, 1)
    writer = GroupWriter(db)

    async def main() -> None:
        await writer.submit((match_id, 0, 0, "pass", "a"))
        db._write_lock.acquire()
        fut = writer.submit((match_id, 1, 0, "pass", "b"))
        await asyncio.sleep(0.2)
        assert not fut.done()  # not acknowledged: not committed
        assert logged(db) == {match_id: (1, 1)}
        db._write_lock.release()
        await fut
        assert logged(db) == {match_id: (2, 2)}

    asyncio.run(main())
    writer.stop()
    assert writer.batches == writer.writes == 2


def test_writes_behind_a_writer_outside_the_lock_wait_for_it(db, tmp_path):
    """A writer that holds SQLite without the process's lock (another program on the
    file, say): the thread waits for it (busy_timeout) and commits the batch once that
    writer is done; nothing is acknowledged before."""
    import sqlite3

    (match_id,) = make_matches(db, 1)
    writer = GroupWriter(db)
    other = sqlite3.connect(tmp_path / "w.db", isolation_level=None)

    async def main() -> None:
        await writer.submit((match_id, 0, 0, "pass", "a"))
        other.execute("BEGIN IMMEDIATE")
        fut = writer.submit((match_id, 1, 0, "pass", "b"))
        await asyncio.sleep(0.3)
        assert not fut.done()
        other.execute("ROLLBACK")
        await fut
        assert logged(db) == {match_id: (2, 2)}

    asyncio.run(main())
    other.close()
    writer.stop()
    assert writer.batches == 2


def test_under_steady_writes_the_wal_starts_again_from_its_head(db, tmp_path):
    """The thread's connection checkpoints the WAL itself (SQLite's autocheckpoint),
    off the loop, and nobody else writes meanwhile: once the whole WAL is copied the
    next write starts it again from its head (SQLite counts those restarts in the WAL
    header's checkpoint sequence number, bytes 12-15), so steady play keeps the WAL
    at about the autocheckpoint's size (1,000 pages) instead of growing without end."""
    ids = make_matches(db, 40)
    writer = GroupWriter(db)
    wal = tmp_path / "w.db-wal"
    page = 4096
    largest = 0

    async def main() -> None:
        nonlocal largest
        for seq in range(200):
            await asyncio.gather(*(writer.submit((i, seq, 0, "pass", None)) for i in ids))
            largest = max(largest, wal.stat().st_size)

    asyncio.run(main())
    writer.stop()
    restarts = int.from_bytes(wal.read_bytes()[12:16], "big")
    assert restarts >= 2, restarts
    assert largest < 1100 * (page + 24), largest
    assert logged(db) == {i: (200, 200) for i in ids}


def test_an_actions_time_is_written_by_sqlalchemy_and_reads_back(db):
    """record_actions stamps a row with the moment it was logged (UTC), through the
    model's DateTime type."""
    from datetime import UTC, datetime, timedelta

    (match_id,) = make_matches(db, 1)
    before = datetime.now(UTC)
    with db.engine.begin() as c:
        store.record_actions(c, [(match_id, 0, 0, "pass", "c0")])
    after = datetime.now(UTC)
    with db.read() as s:
        created = s.execute(select(m.Action.created_at).where(m.Action.match_id == match_id)).scalar_one()
    created = created.replace(tzinfo=UTC) if created.tzinfo is None else created
    assert before - timedelta(milliseconds=1) <= created <= after + timedelta(milliseconds=1)


def test_a_lone_match_is_committed_action_by_action(db):
    """The server's own journal (journal_for): one match acting alone waits for
    nobody; each action is its own commit, acknowledged after it."""
    from app.rooms.journal import journal_for

    journal = journal_for(db)
    writer = journal.writer
    ids = make_matches(db, 2)

    async def main() -> None:
        for seq in range(5):
            await writer.submit((ids[0], seq, seq % 2, "pass", f"c{seq}"))
            assert logged(db)[ids[0]] == (seq + 1, seq + 1)

    asyncio.run(main())
    writer.stop()
    assert logged(db)[ids[0]] == (5, 5)
    assert writer.batches == 5  # one after another: one commit each


def test_writes_that_come_while_the_last_commit_is_fresh_share_the_next_one(db):
    """One rule paces the commits: a batch starts ``interval`` after the one before at
    the earliest.  A write to an idle writer is committed alone; the writes that come
    in the next ``interval`` wait for each other and share one commit."""
    ids = make_matches(db, 4)
    writer = GroupWriter(db, interval=0.5)

    async def main() -> None:
        await writer.submit((ids[0], 0, 0, "pass", "a"))  # idle: committed alone
        later = []
        for match_id in ids[1:]:
            later.append(writer.submit((match_id, 0, 0, "pass", "b")))
            await asyncio.sleep(0.01)  # one at a time, well inside the interval
        await asyncio.gather(*later)

    asyncio.run(main())
    writer.stop()
    assert logged(db) == {i: (1, 1) for i in ids}
    assert (writer.batches, writer.writes) == (2, 4)


def test_a_busier_batch_waits_longer_for_the_next_up_to_max_wait(db):
    """The pace grows with the load: the next batch starts ``interval`` per write of the
    last one after it, never more than ``max_wait`` (a burst shares fewer commits; one
    write after another keeps the short pace of the test above)."""
    writer = GroupWriter(db, interval=0.1, max_wait=0.25)
    assert [writer.gap_after(n) for n in (1, 2, 3, 50)] == [0.1, 0.2, 0.25, 0.25]
    ids = make_matches(db, 5)
    gaps: list[float] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        await writer.submit((ids[0], 0, 0, "pass", "a"))  # idle: alone; the next waits 0.1 s
        await asyncio.gather(*(writer.submit((i, 0, 0, "pass", "b")) for i in ids[1:4]))
        t = loop.time()  # a batch of 3 began just before: the next waits 0.25 s from it
        await writer.submit((ids[4], 0, 0, "pass", "c"))
        gaps.append(loop.time() - t)

    asyncio.run(main())
    writer.stop()
    assert (writer.batches, writer.writes) == (3, 5)
    assert gaps[0] > 0.2  # not the 0.1 s of a lone write's pace
    assert logged(db) == {i: (1, 1) for i in ids}
