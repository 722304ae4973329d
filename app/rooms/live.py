"""The authoritative match loop: one engine match per unfinished match, kept in memory.

An action is applied under the match's lock: (on PostgreSQL the match row is
locked FOR UPDATE and any actions another process logged are applied first)
→ the engine applies it (an IllegalAction changes nothing) → the action is
appended to the log and the transaction commits → only then is it acknowledged.
A match is rebuilt from seed + options + first dealer / presets + the action
log (rule C-3) at start-up and whenever memory and database disagree.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime

from engine import IllegalAction, find_variant
from engine.core import Match as EngineMatch

from ..db import models as m
from ..db import store
from ..db.session import Database

log = logging.getLogger("kozyr.match")


class Duplicate(Exception):
    """The client already sent this client_id; ``seq`` is the original ack."""

    def __init__(self, seq: int) -> None:
        super().__init__(seq)
        self.seq = seq


class Stale(Exception):
    """The match is no longer at the version the caller expected (a bot thought too long)."""


class LiveMatch:
    def __init__(self, row: m.Match, room_code: str) -> None:
        self.id = row.id
        self.room_id = row.room_id
        self.room_code = room_code
        self.variant_id = row.variant
        self.seat_count = row.seat_count
        self.seed = row.seed
        self.options = row.options
        self.first_dealer = row.first_dealer
        self.preset_deals = row.preset_deals
        self.lock = asyncio.Lock()
        self.engine: EngineMatch = self._new_engine()
        self.acks: dict[tuple[int, str], int] = {}
        self.saved_scores = 0
        self.saved_roles = 0
        self.finished = row.status == "finished"

    # -- building -------------------------------------------------------------

    def _new_engine(self) -> EngineMatch:
        return find_variant(self.variant_id).new_match(
            self.seat_count, seed=self.seed, options=self.options,
            first_dealer=self.first_dealer, preset_deals=self.preset_deals)

    @property
    def version(self) -> int:
        return len(self.engine.actions)

    def _replay(self, rows: list) -> None:
        for row in rows:
            if row.seq != self.version:
                raise RuntimeError(f"match {self.id}: action log has a gap at {self.version}")
            self.engine.apply(row.seat, row.action)
            if row.client_id:
                self.acks[(row.seat, row.client_id)] = row.seq

    @classmethod
    def load(cls, db: Database, match_id: str) -> LiveMatch:
        with db.read() as s:
            row = s.get(m.Match, match_id)
            if row is None:
                raise KeyError(match_id)
            room = s.get(m.Room, row.room_id)
            live = cls(row, room.code)
            live._replay(store.actions_of(s, match_id))
            live.saved_scores = len(live.engine.scoresheet())
            live.saved_roles = len(live.engine.role_table())
        return live

    def reload(self, db: Database) -> None:
        """Throw the in-memory state away and rebuild it from the database."""
        fresh = LiveMatch.load(db, self.id)
        self.engine, self.acks = fresh.engine, fresh.acks
        self.saved_scores, self.saved_roles = fresh.saved_scores, fresh.saved_roles
        self.finished = fresh.finished

    def catch_up(self, db: Database) -> bool:
        """Apply actions another process logged; True if there were any."""
        with db.read() as s:
            version = store.lock_match_version(s, self.id, for_update=False)
            if version == self.version:
                return False
            self._replay(store.actions_of(s, self.id, self.version))
            self.finished = self.engine.is_over()
            self.saved_scores = len(self.engine.scoresheet())
            self.saved_roles = len(self.engine.role_table())
            return True

    # -- the action path (runs in a worker thread, under self.lock) ------------

    def commit(self, db: Database, seat: int, action: str, client_id: str | None,
               expect: int | None = None) -> int:
        """Apply and log one action; returns its seq.  Raises IllegalAction (nothing
        changed) or Duplicate (already applied).  If the database fails after the
        engine applied the action, the match is rebuilt from the log."""
        applied = False
        try:
            with db.write_conn() as s:
                in_db = store.lock_match_version(s, self.id, for_update=db.is_postgres)
                if in_db != self.version:  # another process moved on: apply its actions first
                    self._replay(store.actions_of(s, self.id, self.version))
                if expect is not None and self.version != expect:
                    raise Stale(self.version)
                if client_id is not None and (seat, client_id) in self.acks:
                    raise Duplicate(self.acks[(seat, client_id)])
                seq = self.version
                self.engine.apply(seat, action)  # IllegalAction: nothing changed; rollback
                applied = True
                store.record_action(s, self.id, seq, seat, action, client_id)
                pending = self._record_rows(s)
        except (IllegalAction, Duplicate, Stale):
            raise  # nothing changed
        except BaseException:
            # The database failed after the engine applied, or the engine itself failed
            # half-way: memory may be ahead of the log, so rebuild from the log.
            log.exception("match %s: action %r of seat %s failed (applied=%s); rebuilding",
                          self.id, action, seat, applied)
            self.reload(db)
            raise
        self.saved_scores, self.saved_roles, self.finished = pending
        if client_id is not None:
            self.acks[(seat, client_id)] = seq
        return seq

    def _record_rows(self, s) -> tuple[int, int, bool]:
        over = self.engine.is_over()
        if not over and not self._rows_may_have_changed():
            return self.saved_scores, self.saved_roles, False
        sheet = self.engine.scoresheet()
        roles = self.engine.role_table()
        new_scores = [(int(r.get("deal", i + 1)), r) for i, r in enumerate(sheet)][self.saved_scores:]
        new_roles = list(enumerate(roles))[self.saved_roles:]
        if new_scores or new_roles:
            store.record_rows(s, self.id, new_scores, new_roles)
        if over:
            store.finish_match(s, self.id, self.engine.result() or {}, datetime.now(UTC))
        return len(sheet), len(roles), over

    def _rows_may_have_changed(self) -> bool:
        # scoresheet() / role_table() copy every row; look at the base class's list
        # length first when it is there (a new row means a deal ended).
        sheet = getattr(self.engine, "_scoresheet", None)
        if not isinstance(sheet, list):
            return True
        return len(sheet) != self.saved_scores  # role-table rows also come at a deal's end

    # -- views ------------------------------------------------------------------

    def view(self, seat: int | None) -> dict:
        return self.engine.view(seat)

