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

from sqlalchemy.engine import Connection

from . import models as m
from .writer import GroupWriter

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


class PgGroupWriter(GroupWriter):
    """app/db/writer.py's GroupWriter (one thread, one queue, ``submit(row, extra)``) with
    PostgreSQL's batch: the future of a write refused by ``record_batch`` fails alone
    with ``VersionConflict``."""

    thread_name = "kozyr-pg-writer"

    def _commit(self, batch: list) -> set[int]:
        # The thread's own connection, as on SQLite: a pool checkout per batch cost a
        # ping and a reset (two more round trips) and the pool's bookkeeping.
        c = self.thread_conn()
        with c.begin():
            refused = record_batch(c, [item[0] for item in batch])
            for i, (_, extra, _, _) in enumerate(batch):
                if extra is not None and i not in refused:
                    extra(c)
        return refused
