"""The authoritative match loop: one engine match per unfinished match, kept in memory.

An action is applied under the match's lock: the engine applies it (an
IllegalAction changes nothing) → the action is handed to the writer thread,
which logs it in a transaction shared by the actions of many rooms and commits
(app/db/writer.py on SQLite; app/db/pg_writer.py on PostgreSQL, which logs it
only if the match row is still at its seq, else the match catches up from the
log) → only then is it acknowledged and are the views sent.  The event loop
never waits on the database.
Another process's action arrives as a note with the action (fanout.py) and is
followed without reading the log when it is the next one.
A match is rebuilt from seed + options + first dealer / presets + the action
log (rule C-3) when it is first needed and whenever memory and database
disagree; one nobody has touched for a while leaves memory (MatchLoop.evict_idle).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple

from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from engine import AgainstTheRules, NotYourTurn
from engine.match import Match as EngineMatch

from ..db import models as m
from ..db import store
from ..db.errors import UnknownMatch
from ..db.session import Database
from .engines import new_engine
from .hub import dumps, fragment

log = logging.getLogger("kozyr.match")

#: A take-back in the action log: ``undo:<seq>`` undoes the action logged at ``seq``
#: (app/rooms/takeback.py).  It raises the version like any action.
UNDO = "undo:"
#: A match stopped before its end (app/rooms/abandon.py): the last entry of its log.
ABANDON = "abandon"


def is_undo(action: str) -> bool:
    """Is ``action`` written as a take-back entry (``undo:...``, well formed or not)?"""
    return action.startswith(UNDO)


def undone_target(action: str) -> int | None:
    """The seq an ``undo:<seq>`` entry undoes (None: not a take-back entry; a client's
    ``undo:x`` too, which MatchLoop.submit refuses before anything reads it)."""
    seq = action[len(UNDO):] if action.startswith(UNDO) else ""
    return int(seq) if seq.isascii() and seq.isdigit() and len(seq) <= 18 else None


def played_log(rows: list) -> list:
    """The log minus take-backs: the rows the engine applies, in order (rule C-3).
    The one place that reads ``undo:`` entries when a match is rebuilt from its log
    (the live match, history, export)."""
    kept: list = []
    for row in rows:
        target = undone_target(row.action)
        if row.action == ABANDON:
            continue
        if target is None:
            kept.append(row)
        elif kept and kept[-1].seq == target:
            kept.pop()
        else:
            raise RuntimeError(f"undo:{target} at {row.seq} does not undo the last action")
    return kept


def abandoned_result(engine: EngineMatch) -> dict:
    """The result of a match stopped before its end: the running totals as they stood
    (app/ratings.py places the seats by them), no winners."""
    return {"totals": list(engine.view(None).get("totals") or []), "winners": [], "abandoned": True}


class Duplicate(Exception):
    """The client already sent this client_id; ``seq`` is the original ack."""

    def __init__(self, seq: int) -> None:
        super().__init__(seq)
        self.seq = seq


class Stale(Exception):
    """The match is no longer at the version the caller expected (a bot thought too long)."""


class LoggedAction(NamedTuple):
    seq: int
    seat: int
    action: str
    client_id: str | None


@dataclass(slots=True)
class Pending:
    """An action applied in memory, not yet committed: what to write, and the
    bookkeeping to adopt once it is."""

    seq: int
    seat: int
    action: str
    client_id: str | None
    saved_scores: int
    saved_roles: int
    over: bool
    scores: list = field(default_factory=list)
    roles: list = field(default_factory=list)
    result: dict | None = None


#: A seat's last view is held between pushes as text: the whole view's JSON, and, for
#: a seat with a connection that accepted deltas, each top-level key's JSON (the
#: delta base).  Strings, and dicts of strings, are not tracked by the garbage
#: collector: the views of every seat of every room, kept until the next action,
#: never lengthen its walks (whole view trees did: hundreds of thousands of live
#: containers in each young collection).
ViewParts = dict[str, str]


#: The view keys whose values the engine shares between the moments of a match and
#: keeps until one of them changes (engine/match.py ``_public_tables``): a match
#: encodes each such value once, not once per step.
SHARED_KEYS = ("last_trick", "scoresheet", "last_deal", "options", "result")


class SharedJson:
    """A match's encodings of what its views share.  The engine hands every seat of
    one moment the same public part of its view (``Match.view_parts``): it is
    encoded once per moment, as one text and (for delta connections) key by key,
    and each seat's view is that and the seat's own part.  Within the public part,
    the big tables (``SHARED_KEYS``) keep their encodings from moment to moment,
    for as long as the engine hands out the same object."""

    __slots__ = ("held", "public", "public_text", "public_parts")

    def __init__(self) -> None:
        self.held: dict[str, tuple[Any, str, Any]] = {}  # key: (value, its JSON, as a fragment)
        self.public: dict | None = None  # the public part the two encodings below are of
        self.public_text: str | None = None
        self.public_parts: ViewParts | None = None

    def encode(self, public: dict, own: dict, parts: bool) -> tuple[str | None, ViewParts | None]:
        """The view ``{**public, **own}`` as ``(its JSON, None)``, or (``parts``) as
        ``(None, each top-level key's JSON)``: the same bytes as ``dumps`` of it."""
        if public is not self.public:
            self.public, self.public_text, self.public_parts = public, None, None
        if parts:  # the text, if it is wanted, is their join (LiveMatch.view_json)
            shared = self.public_parts
            if shared is None:
                tables = self._tables(public)
                shared = self.public_parts = {key: tables[key][1] if key in tables else dumps(value)
                                              for key, value in public.items()}
            return None, {**shared, **{key: dumps(value) for key, value in own.items()}}
        text = self.public_text
        if text is None:
            doc = dict(public)
            for key, hit in self._tables(public).items():
                doc[key] = hit[2]
            try:
                text = dumps(doc)
            except TypeError:  # what only the standard library encodes (hub.dumps) does not take fragments
                text = dumps(public)
            self.public_text = text
        return f"{text[:-1]},{dumps(own)[1:]}", None

    def _tables(self, public: dict) -> dict[str, tuple[Any, str, Any]]:
        """The kept encoding (value, its JSON, as a fragment) of each shared table in
        ``public`` (``SHARED_KEYS``, when not None), made again for a new value."""
        out = {}
        held = self.held
        for key in SHARED_KEYS:
            value = public.get(key)
            if value is None:
                continue
            hit = held.get(key)
            if hit is None or hit[0] is not value:
                text = dumps(value)
                hit = held[key] = (value, text, fragment(text))
            out[key] = hit
        return out


def parts_json(parts: ViewParts) -> str:
    """The JSON object of these parts (a view, or a delta's ``set``)."""
    keys = _KEYS
    return "{" + ",".join([(keys.get(k) or _json_key(k)) + v for k, v in parts.items()]) + "}"


def parts_delta(old: ViewParts, new: ViewParts) -> tuple[ViewParts, list[str]]:
    """The top-level keys of ``new`` whose value differs from ``old`` (``set``) and the
    keys of ``old`` that ``new`` lacks (``unset``): README "Agreed additions", delta."""
    changed = {k: v for k, v in new.items() if old.get(k) != v}
    return changed, [k for k in old if k not in new]


_KEYS: dict[str, str] = {}


def _json_key(key: str) -> str:
    text = _KEYS.get(key)
    if text is None:
        text = _KEYS[key] = dumps(key) + ":"  # the engine's view keys: a few dozen names
    return text


class Shown:
    """A seat's last view: its version, its JSON and (for a delta connection) its
    parts.  One per seat, updated in place: a new tuple per view would live until
    the next action and be walked by the collector on the way (app/gcpace.py)."""

    __slots__ = ("version", "text", "parts")

    def __init__(self, version: int, text: str | None, parts: ViewParts | None) -> None:
        self.version, self.text, self.parts = version, text, parts  # text None: parts_json(parts)


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
        self.deal_seeds = bool(row.deal_seeds)
        self.lock = asyncio.Lock()
        self.engine: EngineMatch = self._new_engine()
        self.log: list[LoggedAction] = []  # every entry of the action log, take-backs too
        self.takeback: Any = None  # the open take-back request (app/rooms/takeback.py), if any
        self.acks: dict[tuple[int, str], int] = {}
        self.saved_scores = 0
        self.saved_roles = 0
        self.abandoned = row.status == "abandoned"  # stopped before its end (app/rooms/abandon.py)
        self.finished = row.status in ("finished", "abandoned")
        # The last view computed per seat: the memo and the base of the next delta (view_json).
        self.shown: dict[int | None, Shown] = {}
        self.shared_json = SharedJson()
        # Memory is the log as read (load, catch-up) or begun (a match started here), and
        # since then this process has followed every note of the match it heard of and no
        # other process has gone away (fanout: a note not followed, the listener broken, a
        # process's goodbye or its presence expired): a connection that joins needs no
        # catch-up read (MatchLoop.send_state); a resume still reads (its client may have
        # seen an action a dead process committed and never published).
        self.fresh = False
        # When the match was last reached (loaded, asked for, acted on: time.monotonic());
        # one left untouched for KOZYR_MATCH_IDLE_SECONDS leaves memory (MatchLoop.evict_idle).
        self.touched = time.monotonic()

    # -- building -------------------------------------------------------------

    def _new_engine(self) -> EngineMatch:
        return new_engine(self.variant_id, self.seat_count, seed=self.seed, options=self.options,
                          first_dealer=self.first_dealer, preset_deals=self.preset_deals,
                          deal_seeds=self.deal_seeds)

    @property
    def version(self) -> int:
        return len(self.log)

    def rebuilt(self, rows: list) -> EngineMatch:
        """A fresh engine match with the log ``rows`` applied (take-backs skipped)."""
        engine = self._new_engine()
        for row in played_log(rows):
            engine.apply(row.seat, row.action)
        return engine

    def _replay(self, rows: list) -> None:
        for row in rows:
            if row.seq != self.version:
                raise RuntimeError(f"match {self.id}: action log has a gap at {self.version}")
            entry = LoggedAction(row.seq, row.seat, row.action, row.client_id)
            if row.action == ABANDON:
                self.abandoned = True
            elif undone_target(row.action) is not None:
                self.engine = self.rebuilt([*self.log, entry])
            else:
                self.engine.apply(row.seat, row.action)
            self.log.append(entry)
            if row.client_id:
                self.acks[(row.seat, row.client_id)] = row.seq

    @classmethod
    def load(cls, db: Database, match_id: str) -> LiveMatch:
        live = cls.load_if_any(db, match_id)
        if live is None:
            raise UnknownMatch(f"no match {match_id!r}")
        return live

    @classmethod
    def load_if_any(cls, db: Database, match_id: str) -> LiveMatch | None:
        """load(), or None if there is no such match (a broken log still raises): the
        match with its room's code, then its log (two queries)."""
        with db.read() as s:
            found = store.find_match_and_code(s, match_id)
            return None if found is None else cls._loaded(s, *found)

    @classmethod
    def _loaded(cls, s: Session, row: m.Match, room_code: str) -> LiveMatch:
        live = cls(row, room_code)
        live._replay(store.actions_of(s, row.id))
        live.saved_scores = len(live.engine.scoresheet())
        live.saved_roles = len(live.engine.role_table())
        live.fresh = True
        return live

    def reload(self, db: Database) -> None:
        """Throw the in-memory state away and rebuild it from the database."""
        fresh = LiveMatch.load(db, self.id)
        self.engine, self.acks, self.log = fresh.engine, fresh.acks, fresh.log
        self.saved_scores, self.saved_roles = fresh.saved_scores, fresh.saved_roles
        self.finished, self.abandoned = fresh.finished, fresh.abandoned

    def catch_up(self, db: Database) -> bool:
        """Apply actions another process logged; True if there were any.  One indexed
        read of the log past our version (a match row's version is bumped in the
        transaction that logs the action, so the log alone says what is new)."""
        with db.engine.connect() as c:
            rows = store.actions_of(c, self.id, self.version)
        if not rows:
            return False
        self.follow_log(rows)
        return True

    def follow(self, seq: int, seat: int, action: str, client_id: str | None) -> None:
        """Apply one action that another process committed at ``seq`` (its note)."""
        self.follow_log([LoggedAction(seq, seat, action, client_id)])

    def follow_log(self, rows: list) -> None:
        """Apply actions another process committed (rows of the log, in order)."""
        self._replay(rows)
        self.finished = self.engine.is_over() or self.abandoned
        self.saved_scores = len(self.engine.scoresheet())
        self.saved_roles = len(self.engine.role_table())

    # -- the action path (under self.lock) -------------------------------------
    #
    # prepare() applies an action in memory and says what to write; write() writes
    # it inside a transaction; done() is called once that transaction committed.
    # The journal (journal.py) drives them: the event loop prepares and a writer
    # thread commits many rooms' actions at once (app/db/writer.py on SQLite,
    # app/db/pg_writer.py on PostgreSQL, which refuses an action whose match row
    # another process moved on).

    def prepare(self, seat: int, action: str, client_id: str | None,
                expect: int | None = None) -> Pending:
        """Apply the action to the engine; raises Stale, Duplicate or IllegalAction
        with nothing changed.  Any other exception leaves memory in doubt: reload()."""
        if client_id is not None and (seat, client_id) in self.acks:
            raise Duplicate(self.acks[(seat, client_id)])
        if expect is not None and self.version != expect:
            raise Stale(self.version)
        if self.abandoned:
            raise NotYourTurn("the match was stopped by the host")  # nobody is to act
        seq = self.version
        entry = LoggedAction(seq, seat, action, client_id)
        if action == ABANDON:  # the host stops the match (app/rooms/abandon.py)
            self.log.append(entry)
            self.abandoned = True
            return Pending(seq, seat, action, client_id, self.saved_scores, self.saved_roles, True,
                           result=abandoned_result(self.engine))
        if undone_target(action) is not None:  # a take-back agreed (app/rooms/takeback.py)
            last = self.log[-1] if self.log else None
            if last is None or undone_target(last.action) is not None or last.seq != undone_target(action):
                raise AgainstTheRules(f"{action} does not undo the last action")
            self.engine = self.rebuilt([*self.log, entry])
        else:
            self.engine.apply(seat, action)  # IllegalAction: nothing changed
        self.log.append(entry)
        pending = Pending(seq, seat, action, client_id, self.saved_scores, self.saved_roles, False)
        over = self.engine.is_over()
        if over or self._rows_may_have_changed():
            sheet = self.engine.scoresheet()
            roles = self.engine.role_table()
            new_scores = [(int(r.get("deal", i + 1)), r) for i, r in enumerate(sheet)]
            pending.scores = new_scores[self.saved_scores:]
            pending.roles = list(enumerate(roles))[self.saved_roles:]
            pending.saved_scores, pending.saved_roles, pending.over = len(sheet), len(roles), over
            if over:
                pending.result = self.engine.result() or {}
        return pending

    def row(self, pending: Pending) -> tuple[str, int, int, str, str | None]:
        """The prepared action as a row of the log (store.record_actions)."""
        return (self.id, pending.seq, pending.seat, pending.action, pending.client_id)

    def has_rows(self, pending: Pending) -> bool:
        """Does the prepared action write more than its log row (a deal or match ended)?"""
        return bool(pending.scores or pending.roles or pending.over)

    def write(self, c: Connection, pending: Pending) -> None:
        """Log the prepared action (and any new score/role rows) in transaction ``c``."""
        store.record_action(c, *self.row(pending))
        self.write_rows(c, pending)

    def write_rows(self, c: Connection, pending: Pending) -> None:
        """The score and role rows, and the end of the match, if the action made them."""
        if pending.scores or pending.roles:
            store.record_rows(c, self.id, self.seat_count, pending.scores, pending.roles)
        if pending.over:
            store.finish_match(c, self.id, pending.result or {}, datetime.now(UTC),
                               status="abandoned" if pending.action == ABANDON else "finished")

    def done(self, pending: Pending) -> None:
        """The prepared action is committed."""
        self.saved_scores, self.saved_roles = pending.saved_scores, pending.saved_roles
        self.finished = pending.over
        if pending.client_id is not None:
            self.acks[(pending.seat, pending.client_id)] = pending.seq

    def _rows_may_have_changed(self) -> bool:
        # scoresheet() / role_table() copy every row; the public part of this moment's
        # views holds the scoresheet too, copied once (only new rows) and kept for the
        # views that are sent next (a new row means a deal ended; role-table rows also
        # come at a deal's end).
        return len(self.engine.view_parts(None)[0]["scoresheet"]) != self.saved_scores

    # -- views ------------------------------------------------------------------

    def seat_of(self, seat: int | None) -> int | None:
        """The seat whose view a connection of ``seat`` gets (None: a spectator's)."""
        return seat if seat is not None and 0 <= seat < self.seat_count else None

    def view(self, seat: int | None) -> dict:
        """``view(seat)`` now, as data."""
        return self.engine.view(seat)

    def view_json(self, seat: int | None, parts: bool = False) -> tuple[str, ViewParts | None]:
        """``view(seat)`` now as JSON, and (``parts``: for a delta connection) as its
        parts; memoized per version and remembered as the seat's delta base."""
        shown = self._shown(seat, parts)
        if shown.text is None:
            shown.text = parts_json(shown.parts or {})
        return shown.text, shown.parts

    def parts_of(self, seat: int | None) -> ViewParts:
        """``view(seat)`` now as its parts only (a delta connection's; memoized the same)."""
        parts = self._shown(seat, True).parts
        assert parts is not None
        return parts

    def _shown(self, seat: int | None, parts: bool) -> Shown:
        shown = self.shown.get(seat)
        version = self.version
        if shown is not None and shown.version == version and (shown.parts is not None or not parts):
            return shown
        text, split = self.shared_json.encode(*self.engine.view_parts(seat), parts)
        if shown is None:
            shown = self.shown[seat] = Shown(version, text, split)
        else:
            shown.version, shown.text, shown.parts = version, text, split
        return shown

