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

Per batch one statement (the lock, the check, the UPDATE and the INSERT, over
arrays), sent on its own in autocommit: a single statement is its own
transaction, so a batch costs one round trip.  A batch with more to write (a
deal's or a match's end: ``extra``) is wrapped in BEGIN / COMMIT with it.  Before,
psycopg's BEGIN, a SELECT ... FOR UPDATE, an UPDATE, an INSERT and the COMMIT were
five round trips a batch, each costing the writer thread CPU and the GIL.
"""

from __future__ import annotations

from sqlalchemy.engine import Connection

from . import models as m
from .writer import GroupWriter

# Rows locked in id order (two processes' batches never deadlock on each other: the
# ORDER BY comes before the locking), each action whose match row is at its seq
# logged and its row moved on; the match ids logged come back.
_BATCH = """
WITH u AS (SELECT * FROM unnest(%(m)s::text[], %(s)s::int[], %(t)s::int[], %(a)s::text[], %(c)s::text[])
           AS u(m, s, t, a, c)),
locked AS (SELECT id, version FROM matches WHERE id = ANY(%(m)s) ORDER BY id FOR UPDATE),
ok AS (SELECT u.* FROM u JOIN locked ON locked.id = u.m AND locked.version = u.s),
bump AS (UPDATE matches SET version = ok.s + 1 FROM ok WHERE matches.id = ok.m)
INSERT INTO actions (match_id, seq, seat, action, client_id, created_at)
SELECT ok.m, ok.s, ok.t, ok.a, ok.c, %(now)s FROM ok RETURNING match_id
"""


def record_batch(c: Connection, rows: list[tuple[str, int, int, str, str | None]]) -> set[int]:
    """Log the actions ``rows`` (match_id, seq, seat, action, client_id) whose match row
    is at ``seq``, at most one per match (a second one of the same match is refused
    here); the indexes of the rows refused.  One statement."""
    first: dict[str, int] = {}
    for i, r in enumerate(rows):
        first.setdefault(r[0], i)
    sent = [rows[i] for i in first.values()]
    dbapi = c.connection.dbapi_connection  # psycopg's own: its parameters and arrays
    assert dbapi is not None
    cur = dbapi.cursor()
    try:
        cur.execute(_BATCH, {"m": [r[0] for r in sent], "s": [r[1] for r in sent], "t": [r[2] for r in sent],
                             "a": [r[3] for r in sent], "c": [r[4] for r in sent], "now": m.utcnow()})
        logged = {row[0] for row in cur.fetchall()}
    finally:
        cur.close()
    return {i for i, r in enumerate(rows) if first[r[0]] != i or r[0] not in logged}


class PgGroupWriter(GroupWriter):
    """app/db/writer.py's GroupWriter (one thread, one queue, ``submit(row, extra)``) with
    PostgreSQL's batch: the future of a write refused by ``record_batch`` fails alone
    with ``VersionConflict``."""

    thread_name = "kozyr-pg-writer"
    thread_isolation = "AUTOCOMMIT"  # the batch's one statement is its own transaction

    def _commit(self, batch: list) -> set[int]:
        c = self.thread_conn()
        rows = [item[0] for item in batch]
        if all(extra is None for _, extra, _, _ in batch):
            return record_batch(c, rows)  # one statement, one transaction
        c.exec_driver_sql("BEGIN")
        try:
            refused = record_batch(c, rows)
            for i, (_, extra, _, _) in enumerate(batch):
                if extra is not None and i not in refused:
                    extra(c)
            c.exec_driver_sql("COMMIT")
        except BaseException:
            try:
                c.exec_driver_sql("ROLLBACK")
            except Exception:  # a broken connection: the caller closes it
                pass
            raise
        return refused
