"""The match loop: the one path of every action, a person's or a bot's.

``MatchLoop.submit(live, seat, action, client_id, expected_version)`` under the
match's lock: checks once (stale, duplicate — the seat is the caller's:
the websocket route checked the token's seat, a bot plays its own) → the
journal applies and commits it (journal.py) → ``ack`` to the sender → every
connection's view or delta → (the match over: the room, from memory) → after
the lock: the committed action is published to the other processes, a
person's own action ends a takeover of the seat, the bots are poked.

Every message a connection gets is queued in order and stamped with the
match's version at that moment, so within one match the versions a connection
sees never go down.

A match lives in memory only while it is used: ``get_live`` loads it from its log
when something reaches it (a socket, an action, another process's note, a bot),
and a sweep (every ``KOZYR_MATCH_SWEEP_SECONDS``) forgets one nobody has
touched for ``KOZYR_MATCH_IDLE_SECONDS`` and nothing holds (a socket in its room,
a take-back request, its bots, a load or an action under way).  At start-up only
the matches that go on with nobody there are loaded (``recover``)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from anyio import to_thread

from engine import IllegalAction

from .. import protocol as p
from ..db import store
from ..db.session import Database
from .hub import Conn, Hub, dumps
from .journal import GroupCommitJournal, journal_for
from .live import Duplicate, LiveMatch, Stale, is_undo, parts_delta, parts_json
from .peers import Peers
from .ports import ActionClock, BotTable, LoopBots, LoopRooms, MatchResults

log = logging.getLogger("kozyr.match")


def view_text(version: int, match_json: str, view_json: str) -> str:
    """A ``view`` message (README "Server")."""
    return f'{{"type":"view","version":{version},"match":{match_json},"view":{view_json}}}'


def delta_text(version: int, match_json: str, base_version: int, base: dict[str, str],
               parts: dict[str, str]) -> str:
    """A ``delta`` message (README "Agreed additions"): what changed from ``base``."""
    changed, gone = parts_delta(base, parts)
    return (f'{{"type":"delta","version":{version},"match":{match_json},"base":{base_version},'
            f'"set":{parts_json(changed)},"unset":{dumps(gone)}}}')


class MatchLoop:
    #: The bots (app/rooms/bots.py BotRunner; the composition root sets it: the bots
    #: need the match loop first).
    bots: LoopBots

    def __init__(self, db: Database, hub: Hub, peers: Peers, live: dict[str, LiveMatch], rooms: LoopRooms,
                 results: MatchResults, clock: ActionClock) -> None:
        self.db = db
        self.hub = hub
        self.peers = peers
        self.rooms = rooms
        self.results = results  # standings and ratings (app/ratings.py)
        self.clock = clock  # kozyr_action_seconds (app/metrics.py)
        self.journal = journal_for(db)
        if isinstance(self.journal, GroupCommitJournal):
            self.journal.forget = self.forget
        self.live = live
        self._loading: dict[str, asyncio.Lock] = {}
        self._sweeper: asyncio.Task | None = None

    def recover(self) -> int:
        """(Start-up, a worker thread.)  Rebuild from seed and action log the unfinished
        matches that go on with nobody there (a bot seat: store.unattended_matches), so
        their bots play on; any other match is loaded when somebody, or its deadline,
        reaches it (get_live)."""
        with self.db.read() as s:
            ids = store.unattended_matches(s)
        for match_id in ids:
            try:
                self.live[match_id] = LiveMatch.load(self.db, match_id)
            except Exception:
                log.exception("could not rebuild match %s", match_id)
        log.info("recovered %d unfinished match(es) that go on unattended", len(self.live))
        return len(self.live)

    # -- live matches in memory -------------------------------------------------------

    async def get_live(self, match_id: str) -> LiveMatch | None:
        """The live match of ``match_id`` (loaded from the log if need be; None: no such
        match): the one way to a match in memory, which counts as touching it."""
        live = self.live.get(match_id)
        if live is not None:
            live.touched = time.monotonic()
            return live
        lock = self._loading.setdefault(match_id, asyncio.Lock())
        loaded = False
        async with lock:
            live = self.live.get(match_id)
            if live is None:
                live = await to_thread.run_sync(LiveMatch.load_if_any, self.db, match_id)
                if live is None:
                    self._loading.pop(match_id, None)
                    return None
                self.live[match_id] = live
                loaded = True
        live.touched = time.monotonic()
        if loaded:  # loaded again (a restart, an eviction): its bots look, as after start-up
            await self.bots.poke(live)
        return live

    async def current(self, code: str) -> LiveMatch | None:
        """The room's current match (from the room's state in memory)."""
        match_id = await self.rooms.current_match_id(code)
        return await self.get_live(match_id) if match_id else None

    def forget(self, live: LiveMatch) -> None:
        """Drop a match from memory (it is rebuilt from the log when next needed)."""
        if self.live.get(live.id) is live:
            del self.live[live.id]
            self._loading.pop(live.id, None)

    # -- idle matches leave memory -------------------------------------------------------

    def idle(self, live: LiveMatch, since: float) -> bool:
        """May ``live`` leave memory?  Nobody has touched it after ``since``
        (time.monotonic()) and nothing holds it: no socket in its room here, no
        take-back request open, no action or load under way, and its bots hold nothing
        (no task running, no seat taken over).  Everything else about a match is in its
        log, so get_live rebuilds the same match."""
        if live.touched > since or live.lock.locked() or live.takeback is not None:
            return False
        if self.hub.conns(live.room_code):
            return False
        loading = self._loading.get(live.id)
        if loading is not None and loading.locked():
            return False
        table: BotTable | None = self.bots.tables.get(live.id)
        return table is None or not (table.takeover or (table.task is not None and not table.task.done()))

    #: Matches one step of a sweep forgets at most before other tasks run (freeing a
    #: match's engine state is most of the cost: about 20 µs a match here).
    EVICT_STEP = 256

    def evict_idle(self, idle: float, now: float | None = None, limit: int | None = None) -> int:
        """Forget every match (at most ``limit``) untouched for ``idle`` seconds before
        ``now`` (default: the monotonic clock now) that nothing holds (``idle``), with
        its bots' table and its room's state when nobody is in the room (both read
        again with it); how many.  Synchronous: no other task runs between the look
        and the forgetting."""
        since = (time.monotonic() if now is None else now) - idle
        gone = []
        for live in self.live.values():
            if self.idle(live, since):
                gone.append(live)
                if len(gone) == limit:
                    break
        for live in gone:
            self.forget(live)
            self.bots.tables.pop(live.id, None)
            self.rooms.forget_if_idle(live.room_code)
        return len(gone)

    def start_sweeps(self, every: float, idle: float) -> None:
        """Every ``every`` seconds, forget the matches idle for ``idle`` (0: never)."""
        if every > 0 and idle > 0 and self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep(every, idle))

    async def sweep(self, idle: float, now: float | None = None) -> int:
        """One sweep: ``evict_idle`` in steps of EVICT_STEP matches, other tasks running
        between them; how many matches left memory."""
        total = 0
        while True:
            gone = self.evict_idle(idle, now, self.EVICT_STEP)
            total += gone
            if gone < self.EVICT_STEP:
                return total
            await asyncio.sleep(0)

    async def _sweep(self, every: float, idle: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                gone = await self.sweep(idle)
            except Exception:
                log.exception("the sweep for idle matches failed")
                continue
            if gone:
                log.info("%d idle match(es) left memory; %d in memory", gone, len(self.live))

    # -- the one path of an action ---------------------------------------------------

    async def submit(self, live: LiveMatch, seat: int, action: str, client_id: str | None,
                     expected_version: int | None, *, conn: Conn | None = None,
                     received: float | None = None, still: Callable[[], bool] | None = None,
                     takeback: bool = False) -> int | None:
        """Apply, commit, acknowledge and show one action of ``seat``; its seq, or None
        if it was refused (the sender got the error) or ``still()`` said no (a bot whose
        moment has passed).  ``client_id`` None: a bot's action.  ``takeback``: the
        ``undo:<seq>`` of an agreed take-back (app/rooms/takeback.py), the only
        entry applied while a take-back request is open."""
        received = time.perf_counter() if received is None else received
        live.touched = time.monotonic()

        def refuse(code: str, message: str) -> None:
            if conn is not None:
                conn.send({"type": "error", "version": live.version, "match": live.id, "code": code,
                           "message": message, "client_id": client_id})
            else:
                log.warning("match %s: bot action %r of seat %d refused: %s", live.id, action, seat, message)

        async with live.lock:
            if still is not None and not still():
                return None
            if not takeback and is_undo(action):  # undo:<anything> from a client: never parsed
                refuse(p.ILLEGAL, "a take-back is asked with the takeback message")
                return None
            if not takeback and live.takeback is not None:
                if conn is not None:  # a bot waits silently (poked when the request closes)
                    refuse(p.TAKEBACK_OPEN, "a take-back request is open; nothing is applied until it is answered")
                return None
            if (expected_version is not None and expected_version != live.version
                    and self.peers.shared):
                if await to_thread.run_sync(live.catch_up, self.db):  # another process moved on
                    self.push_views(live)  # (its note not here yet): unseen by our connections too
            try:
                before = live.version
                seq = await self.journal.commit(live, seat, action, client_id, expected_version)
            except Duplicate as dup:
                if conn is not None:
                    conn.send({"type": "ack", "version": live.version, "match": live.id,
                               "client_id": client_id, "seq": dup.seq})
                return None
            except Stale:
                refuse(p.STALE, f"the match is at version {live.version}, not {expected_version}")
                if live.version != before:  # the journal found the log ahead (a dead process's
                    self.push_views(live)   # last action, never published): nobody here saw it
                return None
            except IllegalAction as e:
                refuse(p.ILLEGAL, str(e))
                if live.version != before:  # the journal caught up with the log meanwhile
                    self.push_views(live)
                return None
            except Exception as e:  # logged with its traceback by the journal
                log.error("match %s: action %r of seat %s not recorded: %s", live.id, action, seat, e)
                refuse(p.INTERNAL, "the server could not record the action; try again")
                self.push_views(live)  # the state as the log has it
                return None
            ack = None if conn is None else (conn, dumps({"type": "ack", "version": live.version, "match": live.id,
                                                          "client_id": client_id, "seq": seq}))
            self.push_views(live, ack)
            self.clock.action_done(received)
            if live.finished:
                log.info("match %s finished: %s", live.id, live.engine.result())
                self.rooms.match_finished(live)  # the room message, from memory, in order
        await self.peers.publish(live.room_code, {"kind": "match", "match": live.id, "version": seq + 1,
                                         "logged": [seq, seat, action, client_id]})
        if live.finished:
            await self.results.match_over(live.id)  # standings and ratings (app/ratings.py)
        if client_id is not None:
            await self.bots.returned(live, seat)  # the person's own committed action ends a takeover
        await self.bots.poke(live)
        return seq

    # -- another process's action ---------------------------------------------------------

    async def on_note(self, note: dict) -> None:
        """Another process committed an action (its note): catch up and show it."""
        known = note["match"] in self.live
        live = await self.get_live(note["match"])
        if live is None:
            return
        async with live.lock:
            logged = note.get("logged")  # the committed action itself: no need to read it
            version = int(note.get("version", 0))
            if known and logged and live.version == logged[0] == version - 1:
                try:
                    live.follow(*logged)
                except Exception:
                    log.exception("match %s: could not follow action %r; reading the log", live.id, logged)
                    await to_thread.run_sync(live.reload, self.db)
                changed = True
            elif known and live.version >= version:
                changed = False  # already there (e.g. caught up when a later action came)
            else:
                changed = await to_thread.run_sync(live.catch_up, self.db)
            if changed or not known:
                self.push_views(live)
            if live.finished:
                self.rooms.match_finished(live, publish=False)
        await self.bots.poke(live)

    # -- views -------------------------------------------------------------------------

    def push_views(self, live: LiveMatch, ack: tuple[Conn, str] | None = None) -> None:
        """Send every connection in the room its own view, or to one that accepted
        deltas and holds the seat's previous view, what changed (call under live.lock).
        ``ack``: the sender of the action and its ack, which it gets first, together
        with its view (one write)."""
        version, match_id, match_json = live.version, live.id, dumps(live.id)
        full: dict[int | None, str] = {}
        deltas: dict[int | None, str] = {}
        conns = self.hub.conns(live.room_code)
        if ack is not None:
            if ack[0] in conns:
                conns.remove(ack[0])
                conns.insert(0, ack[0])
            else:  # the sender's socket has left the room meanwhile
                ack[0].send(ack[1])
                ack = None
        seat_of = live.seat_of
        split = {seat_of(c.seat) for c in conns if c.delta}  # seats that need parts
        # each such seat's last view (version, parts), before this push replaces it
        bases = {seat: (shown.version, shown.parts) for seat, shown in live.shown.items()
                 if seat in split} if split else {}
        # Every text first, then every write: the views are built back to back, and
        # the sends too (each a system call), not one interleaved with the other.
        out: list[tuple[Conn, str]] = []
        for conn in conns:
            seat = seat_of(conn.seat)
            text = None
            base = bases.get(seat)
            if (conn.delta and base is not None and base[0] != version and base[1] is not None
                    and conn.has_seen(match_id, base[0], seat)):
                if seat not in deltas:
                    deltas[seat] = delta_text(version, match_json, base[0], base[1], live.parts_of(seat))
                text = deltas[seat]
            if text is None:
                text = full.get(seat)
                if text is None:
                    text = full[seat] = view_text(version, match_json, live.view_json(seat, seat in split)[0])
            conn.saw(match_id, version, seat)
            out.append((conn, text))
        for conn, text in out:
            conn.send_texts((ack[1], text) if ack is not None and conn is ack[0] else (text,))

    def view_message(self, live: LiveMatch | None, conn: Conn) -> str:
        """The full view for ``conn`` now (connect, resume); remembered as its base."""
        if live is None:
            conn.saw(None, 0, None)
            return dumps({"type": "view", "version": 0, "match": None, "view": None})
        seat = live.seat_of(conn.seat)
        conn.saw(live.id, live.version, seat)
        return view_text(live.version, dumps(live.id), live.view_json(seat, conn.delta)[0])

    async def send_state(self, conn: Conn, resume: bool = False) -> LiveMatch | None:
        """The connection's full view now (and the turn clock): on connect and resume.
        ``resume``: the client says it has seen a version before (a reconnect)."""
        live = await self.current(conn.room_code)
        if live is None:
            conn.send(self.view_message(None, conn))
            return None
        async with live.lock:
            if self.peers.shared and (resume or not live.fresh):
                # Other processes may have moved the match on: a note not followed here,
                # or a resume (its client may have seen more than the notes told us).
                # A join to a match followed note by note reads nothing.
                live.fresh = True  # before the read: a note missed meanwhile clears it again
                try:
                    caught_up = await to_thread.run_sync(live.catch_up, self.db)
                except BaseException:
                    live.fresh = False
                    raise
                if caught_up:
                    self.push_views(live)  # unseen by the room's other connections too
            conn.send(self.view_message(live, conn))
            timer = await self.bots.timer_message(live)
            if timer is not None:
                conn.send(timer)
            if live.takeback is not None:  # an open take-back request (app/rooms/takeback.py)
                conn.send(live.takeback.message(live, conn.seat))
        return live

    async def stop(self) -> None:
        if self._sweeper is not None:  # cancelled, not awaited (as the other start-up tasks):
            self._sweeper.cancel()      # a step is synchronous, so none is cut in half
            self._sweeper = None
        await self.journal.stop()
