"""The PostgreSQL group writer and journal (app/db/pg_writer.py, app/rooms/journal.py)
as two server processes use them on one database: many rooms' actions in one
commit; when two writers race for the same match at the same seq exactly one
wins and the other's action fails alone (the rest of its batch commits); a
journal whose memory is behind rebuilds the match from the log and refuses a
versioned action as stale, or puts an unversioned one on top."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select, text

from app.db import models as m
from app.db import store
from app.db.migrate import upgrade
from app.db.pg_writer import PgGroupWriter
from app.db.session import Database
from app.db.store import VersionConflict
from app.rooms.journal import PgGroupJournal
from app.rooms.live import LiveMatch, Stale

from .helpers import make_matches

pytestmark = pytest.mark.postgres


@pytest.fixture
def db(pg_database):
    database = Database(pg_database)
    upgrade(database.engine)
    yield database
    database.dispose()


def log_of(db: Database, match_id: str) -> list[tuple[int, str | None]]:
    with db.read() as s:
        return [(r.seq, r.client_id) for r in store.actions_of(s, match_id)]


def test_batches_commit_and_a_lost_race_fails_alone(db):
    ids = make_matches(db, 30, seats=3)
    a, b = PgGroupWriter(db), PgGroupWriter(db)  # two processes' writers

    async def main() -> list:
        # Every match: both writers send seq 0 at once; the others of the batch are
        # independent rooms that must commit whatever happens to the race.
        futs = []
        for match_id in ids:
            futs.append(a.submit((match_id, 0, 0, "pass", "a0")))
            futs.append(b.submit((match_id, 0, 0, "pass", "b0")))
        return await asyncio.gather(*futs, return_exceptions=True)

    try:
        results = asyncio.run(main())
    finally:
        a.stop()
        b.stop()
    for i, match_id in enumerate(ids):
        got = results[2 * i: 2 * i + 2]
        won = [r is None for r in got]
        assert sorted(won) == [False, True], got  # exactly one of the two
        assert isinstance(next(r for r in got if r is not None), VersionConflict)
        assert log_of(db, match_id) == [(0, "a0" if won[0] else "b0")]
    with db.read() as s:
        assert set(s.scalars(select(m.Match.version).where(m.Match.id.in_(ids)))) == {1}
    assert a.batches + b.batches < 2 * len(ids)  # batched, not one commit per action


def test_journal_behind_another_process_rebuilds_from_the_log(db):
    (match_id,) = make_matches(db, 1, seats=3)
    here, there = LiveMatch.load(db, match_id), LiveMatch.load(db, match_id)
    ja, jb = PgGroupJournal(db), PgGroupJournal(db)

    async def main() -> None:
        seat = here.engine.view(None)["to_act"][0]
        first = here.engine.view(seat)["legal"][0]
        assert await ja.commit(here, seat, first, "x0", expect=0) == 0
        # `there` never heard of it (its note is lost): its versioned action is stale ...
        with pytest.raises(Stale):
            await jb.commit(there, seat, first, "y0", expect=0)
        assert there.version == 1 and there.log[0].client_id == "x0"  # ... it was rebuilt from the log
        # Behind once more: an action without a version (legal after x0) lands on top.
        nxt = here.engine.view(None)["to_act"][0]
        second = here.engine.view(nxt)["legal"][0]
        behind = LiveMatch.load(db, match_id)
        behind.log.pop()
        behind.engine = behind.rebuilt(behind.log)
        assert await jb.commit(behind, nxt, second, "y1") == 1
        assert behind.version == 2
        await ja.stop()
        await jb.stop()

    asyncio.run(main())
    assert log_of(db, match_id) == [(0, "x0"), (1, "y1")]


def test_a_batch_with_more_to_write_commits_it_with_its_actions_or_nothing(db):
    """A write with ``extra`` (a deal's or match's end) runs in one transaction with its
    batch's actions; if it fails, none of them is logged and the writer goes on."""
    a, b, c = make_matches(db, 3, seats=3)
    writer = PgGroupWriter(db)

    def finish(conn) -> None:
        conn.exec_driver_sql(f"UPDATE matches SET status = 'finished' WHERE id = '{a}'")

    def broken(conn) -> None:
        conn.exec_driver_sql("UPDATE no_such_table SET x = 1")

    async def main() -> list:
        done = await asyncio.gather(writer.submit((a, 0, 0, "pass", "a0"), finish),
                                    writer.submit((b, 0, 0, "pass", "b0")))
        failed = await asyncio.gather(writer.submit((c, 0, 0, "pass", "c0"), broken), return_exceptions=True)
        after = await writer.submit((c, 0, 0, "pass", "c0"))
        return [*done, *failed, after]

    try:
        results = asyncio.run(main())
    finally:
        writer.stop()
    assert results[0] is None and results[1] is None and results[3] is None
    assert isinstance(results[2], Exception)
    assert log_of(db, a) == [(0, "a0")] and log_of(db, b) == [(0, "b0")]
    assert log_of(db, c) == [(0, "c0")]  # the failed batch left nothing; the next one logged it
    with db.read() as s:
        assert s.get(m.Match, a).status == "finished"
        assert s.get(m.Match, c).version == 1


def test_reads_run_without_a_transaction_and_writes_keep_theirs(db):
    """``db.read()`` on PostgreSQL: each statement is its own transaction (no BEGIN and
    ROLLBACK round trips around a join's reads); ``db.write()`` on the same pooled
    connection afterwards is one transaction again.  In a transaction now() is the
    transaction's start, so after a first statement and a pause it falls behind the
    statement's own timestamp."""

    def same_moment(s) -> bool:
        s.execute(text("SELECT 1"))
        s.execute(text("SELECT pg_sleep(0.02)"))
        return s.execute(text("SELECT now() = statement_timestamp()")).scalar()

    with db.read() as s:
        assert same_moment(s)  # a fresh transaction per statement
        assert s.connection().connection.dbapi_connection.autocommit
    with db.write() as s:
        assert not same_moment(s)  # one transaction from BEGIN to COMMIT
        assert not s.connection().connection.dbapi_connection.autocommit
