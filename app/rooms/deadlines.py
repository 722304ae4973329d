"""Deadlines: the one clock of both paces (README "Pace, deadlines, vacations").

A match has at most one running deadline, a row of ``deadlines`` (migration 0018):
the person awaited (``seat``) at the match's ``version``, since when, due when.  The
bots' task of the match (bots.py ``_drive``) says who is awaited after every change
(``track``); this module writes the row, keeps a copy in memory for the ``timer``
messages and tells the room.  A live room's clock is its ``takeover_seconds`` (when
it passes, a bot takes the seat over until the player acts); a turn-based room's is
``move_seconds`` (when it passes, ``on_deadline``: the seat's bot plays that one move,
or the match waits: the row is marked ``expired``).

One sweeper task per process fires what is due: it claims due rows in a transaction
(``FOR UPDATE SKIP LOCKED`` on PostgreSQL: two processes never claim the same row;
SQLite has one writer at a time) by moving their ``due_at`` a lease ahead, then fires
each through the ordinary paths: ``BotRunner.fire`` (a takeover, or a bot's move
through the match loop, applied only at the deadline's version).  A process that dies
after its claim leaves the row to fire again when the lease ends; a second firing of
the same version cannot move the match twice (the move is checked against the version).
Reminders (a quarter of a turn-based move's time left) are claimed the same way, and
so is the other timed work the sweeper is given (``others``: club events' reminders).

A take-back request open in the match holds the clock (``pause`` / ``resume``); a
player away (``away_until``) holds the clocks of his seats in turn-based rooms, each
room up to its ``vacation_days`` (``retime``).  Times are the ``Clock``'s (app/clock.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol

from anyio import to_thread
from sqlalchemy import delete, func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from ..aio import stop_task, wait_event
from ..clock import Clock
from ..config import Settings
from ..db import models as m
from ..db import store
from ..db.session import Database
from .hub import Hub
from .live import LiveMatch
from .loop import MatchLoop
from .peers import Peers
from .ports import ClockTable as Table
from .ports import DeadlineBots

log = logging.getLogger("kozyr.deadlines")

#: The Notifier's call (app/push; README "Pace ... the agreed interface"): it only queues.
Notify = Callable[..., None]


class Timed(Protocol):
    """Other timed work the sweeper fires too (a club event's reminder, app/club_events.py):
    ``sweep`` claims and fires what is due (claimed in the database, so once with several
    processes); ``next_due`` (a worker thread) says when the next falls due."""

    async def sweep(self) -> object: ...

    def next_due(self) -> datetime | None: ...


COLUMNS = ("match_id", "room_id", "seat", "version", "since", "due_at", "seconds", "paused_left",
           "resume_at", "remind_at", "state")


def iso(t: datetime | None) -> str | None:
    return None if t is None else store.utc(t)


def aware(t: datetime | None) -> datetime | None:
    """SQLite gives naive datetimes back (UTC): make them aware."""
    if t is None or t.tzinfo is not None:
        return t
    return t.replace(tzinfo=UTC)


def left_at(row: dict, now: datetime) -> float | None:
    """Seconds of the move's time left at ``now`` (frozen while paused); None: none."""
    if row["state"] != "running":
        return 0.0
    if row["due_at"] is None:
        return row["paused_left"]
    start = max(now, row["resume_at"]) if row["resume_at"] is not None else now
    return max(0.0, (row["due_at"] - start).total_seconds())


def retime(row: dict, left: float, resume: datetime | None, now: datetime, turn: bool) -> None:
    """Set the row's times for ``left`` seconds of the move's time counting from
    ``resume`` (a vacation's end; None or past: from now) and its reminder (turn-based:
    when a quarter of the move's time is left, if that is still ahead)."""
    start = resume if resume is not None and resume > now else now
    row["resume_at"] = start if start > now else None
    row["due_at"] = start + timedelta(seconds=left)
    row["paused_left"] = None
    quarter = row["seconds"] / 4
    row["remind_at"] = (row["due_at"] - timedelta(seconds=quarter)) if turn and left > quarter else None


def away_resume(away_until: datetime | None, vacation_days: int, now: datetime) -> datetime | None:
    """When a vacation till ``away_until`` lets a deadline run again (within the room's
    limit from now); None: not away."""
    away_until = aware(away_until)
    if away_until is None or away_until <= now or vacation_days <= 0:
        return None
    return min(away_until, now + timedelta(days=vacation_days))


class Deadlines:
    #: the bots (composition root: they need this first) and the Notifier (app/push)
    bots: DeadlineBots
    notify: Notify | None = None

    def __init__(self, settings: Settings, db: Database, hub: Hub, peers: Peers, matches: MatchLoop,
                 clock: Clock) -> None:
        self.settings = settings
        self.db = db
        self.hub = hub
        self.peers = peers
        self.matches = matches
        self.clock = clock
        self.wake = asyncio.Event()
        self.task: asyncio.Task | None = None
        self.stopping = False
        self.fired = 0  # deadlines this process fired (tests, metrics)
        self.others: list[Timed] = []  # other timed work this sweeper fires (the composition root's)
        self.reminded = 0

    # -- the clock of one match -------------------------------------------------------

    async def load(self, live: LiveMatch, table: Table) -> None:
        """(A table new in memory.)  The match's running deadline, if it has one."""
        def read() -> dict | None:
            with self.db.read() as s:
                row = s.get(m.Deadline, live.id)
                return None if row is None else self._plain(row)
        table.deadline = await to_thread.run_sync(read)

    @staticmethod
    def _plain(row: m.Deadline) -> dict:
        out = {k: getattr(row, k) for k in COLUMNS}
        for k in ("since", "due_at", "resume_at", "remind_at"):
            out[k] = aware(out[k])
        return out

    async def track(self, live: LiveMatch, table: Table, seat: int | None, *, force: bool = False) -> None:
        """(The bots' task, after every change.)  ``seat``: the person awaited now (None:
        nobody: a bot is to act, or the match is over).  Writes the deadline if it is a
        new one, drops it if none runs any more, and tells the room."""
        seconds = table.seconds()
        version = live.version
        row = table.deadline
        if seat is None or seconds <= 0 or live.finished:
            if row is not None:
                table.deadline = None
                await to_thread.run_sync(self._drop, live.id, version)
                self._tell(live, table)
            return
        if row is not None and row["version"] == version and row["seat"] == seat:
            if not force and row["seconds"] == seconds:
                if row["state"] == "running" and row["due_at"] is None and live.takeback is None:
                    await self.hold(live, False)  # held by a request that is gone (a restart)
                return
            force = True  # the same move, timed again (a new length, a takeover ended)
        turn = table.pace.get("pace") == "turn"
        now = self.clock.now()
        new = {"match_id": live.id, "room_id": live.room_id, "seat": seat, "version": version,
               "since": now, "seconds": seconds, "state": "running"}
        held = live.takeback is not None
        # What the row will most likely say, at once (a socket joining meanwhile sees it);
        # the row as stored (a vacation, another process's) follows.
        table.deadline = guess = dict(new)
        retime(guess, seconds, None, now, turn)
        if held:
            guess.update(due_at=None, paused_left=seconds, remind_at=None)
        self._tell(live, table)
        stored, written, player = await to_thread.run_sync(self._write, new, turn, held, force,
                                                           int(table.pace.get("vacation_days") or 0))
        if table.deadline is guess:
            table.deadline = stored
            if stored != guess:
                self._tell(live, table)
        if stored["due_at"] is not None:
            self.wake_at(stored["due_at"])
        if written and turn and player is not None and self.notify is not None:
            self.notify(player, "turn", room=live.room_code, match=live.id, due=iso(stored["due_at"]))

    def _write(self, new: dict, turn: bool, held: bool, force: bool, vacation_days: int
               ) -> tuple[dict, bool, int | None]:
        """(A worker thread.)  Upsert the deadline unless a newer one is stored (another
        process's); the row as stored, whether this wrote it, the awaited person."""
        now = new["since"]
        with self.db.write() as s:
            person = s.execute(
                select(m.Player.id, m.Player.away_until, m.Player.bot_level)
                .join(m.MatchPlayer, m.MatchPlayer.player_id == m.Player.id)
                .where(m.MatchPlayer.match_id == new["match_id"], m.MatchPlayer.seat_no == new["seat"])).first()
            resume = away_resume(person[1], vacation_days, now) if person is not None and turn else None
            row = dict(new)
            retime(row, new["seconds"], resume, now, turn)
            if held:  # a take-back request is open: the clock waits for it
                row.update(due_at=None, paused_left=new["seconds"], remind_at=None)
            row.setdefault("paused_left", None)
            insert = pg_insert if self.db.is_postgres else sqlite_insert
            stmt = insert(m.Deadline).values(**row)
            table = m.Deadline.__table__
            newer = (table.c.version < stmt.excluded.version) | (
                (table.c.version == stmt.excluded.version) & (table.c.seat != stmt.excluded.seat))
            stmt = stmt.on_conflict_do_update(
                index_elements=[table.c.match_id], set_={k: stmt.excluded[k] for k in COLUMNS if k != "match_id"},
                where=None if force else newer)
            # a row comes back when it was inserted or updated (not when a newer one stays)
            written = s.execute(stmt.returning(table.c.version)).first() is not None
            stored = self._plain(s.get_one(m.Deadline, new["match_id"], populate_existing=True))
        player = person[0] if person is not None and person[2] is None else None
        return stored, written, player

    def _drop(self, match_id: str, version: int) -> None:
        with self.db.write() as s:
            s.execute(delete(m.Deadline).where(m.Deadline.match_id == match_id, m.Deadline.version <= version))

    def message(self, live: LiveMatch, table: Table | None, *, always: bool = False) -> dict | None:
        """The ``timer`` message now (None: the room has no clock; ``always``: then one
        that says no clock runs)."""
        seconds = table.seconds() if table is not None else 0.0
        if table is None or (seconds <= 0 and not always):
            return None
        row = table.deadline
        base = {"type": "timer", "version": live.version, "match": live.id, "pace": table.pace.get("pace", "live"),
                "total": seconds or None}
        if row is None or row["version"] != live.version or live.finished:
            return {**base, "seat": None, "seconds": None, "since": None, "due": None, "paused": False,
                    "expired": False}
        now = self.clock.now()
        left = left_at(row, now)
        paused = row["due_at"] is None or (row["resume_at"] is not None and row["resume_at"] > now)
        return {**base, "seat": row["seat"], "seconds": None if left is None else round(left, 3),
                "total": row["seconds"], "since": iso(row["since"]),
                "due": None if row["state"] != "running" else iso(row["due_at"]),
                "paused": paused and row["state"] == "running", "expired": row["state"] == "expired"}

    def _tell(self, live: LiveMatch, table: Table) -> None:
        """The room hears the clock (a clock switched off: that no clock runs)."""
        msg = self.message(live, table, always=True)
        if msg is not None:
            self.hub.broadcast(live.room_code, msg)

    # -- holding the clock ---------------------------------------------------------------

    async def hold(self, live: LiveMatch, held: bool) -> None:
        """A take-back request opened (``held``) or closed: the match's clock stops with
        the time left kept, or runs on from now."""
        table = self.bots.tables.get(live.id)
        if table is None:
            return
        row = table.deadline
        if row is None or row["state"] != "running" or row["version"] != live.version:
            return
        now = self.clock.now()
        if held == (row["due_at"] is None):
            return
        turn = table.pace.get("pace") == "turn"
        new = dict(row)
        if held:
            new.update(paused_left=left_at(row, now), due_at=None, remind_at=None, resume_at=None)
        else:
            retime(new, float(row["paused_left"] or 0), None, now, turn)
        table.deadline = await to_thread.run_sync(self._set, new)
        self._tell(live, table)
        if new["due_at"] is not None:
            self.wake_at(new["due_at"])

    def _set(self, row: dict) -> dict:
        with self.db.write() as s:
            s.execute(update(m.Deadline).where(m.Deadline.match_id == row["match_id"],
                                                m.Deadline.version == row["version"])
                      .values(**{k: row[k] for k in COLUMNS if k != "match_id"}))
            got = s.get(m.Deadline, row["match_id"], populate_existing=True)
            return row if got is None else self._plain(got)

    async def away_until(self, player_id: int) -> str | None:
        def read() -> datetime | None:
            with self.db.read() as s:
                return store.away_until(s, player_id)
        until = aware(await to_thread.run_sync(read))
        return iso(until) if until is not None and until > self.clock.now() else None

    async def set_away(self, player_id: int, until: datetime | None) -> str | None:
        """The player is away until ``until`` (None, or a time past: back now; at most 365
        days ahead); his clocks are timed again."""
        now = self.clock.now()
        if until is not None:
            asked = until
            try:
                until = None if asked <= now else min(asked, now + timedelta(days=365))
            except OverflowError:  # year 1 or 9999 with a zone: beyond UTC's calendar
                until = None if asked.year < 2000 else now + timedelta(days=365)

        def write() -> None:
            with self.db.write() as s:
                store.set_away(s, player_id, until)
        await to_thread.run_sync(write)
        await self.away(player_id)
        return iso(until)

    async def away(self, player_id: int) -> list[str]:
        """The player's vacation changed (``players.away_until``, already written): the
        running deadlines of his seats in turn-based rooms are timed again (the time
        left kept); the matches concerned, whose rooms are told."""
        now = self.clock.now()

        def work() -> list[tuple[str, str]]:
            done = []
            with self.db.write() as s:
                until = s.get_one(m.Player, player_id).away_until
                q = (select(m.Deadline, m.Room.vacation_days, m.Room.code)
                     .join(m.Room, m.Room.id == m.Deadline.room_id)
                     .join(m.MatchPlayer, (m.MatchPlayer.match_id == m.Deadline.match_id)
                           & (m.MatchPlayer.seat_no == m.Deadline.seat))
                     .where(m.MatchPlayer.player_id == player_id, m.Room.pace == "turn",
                            m.Deadline.state == "running", m.Deadline.due_at.is_not(None)))
                for dl, days, code in s.execute(q).all():
                    row = self._plain(dl)
                    left = left_at(row, now) or 0.0
                    retime(row, left, away_resume(until, int(days or 0), now), now, True)
                    for k in ("due_at", "resume_at", "remind_at", "paused_left"):
                        setattr(dl, k, row[k])
                    done.append((dl.match_id, code))
            return done
        changed = await to_thread.run_sync(work)
        for match_id, code in changed:
            await self.reread(match_id)
            await self.peers.publish(code, {"kind": "deadline", "match": match_id})
        return [match_id for match_id, _ in changed]

    async def reread(self, match_id: str) -> None:
        """The row changed elsewhere (a vacation, another process): read it and tell the room."""
        table = self.bots.tables.get(match_id)
        live = self.matches.live.get(match_id)
        if table is None or live is None:
            return
        await self.load(live, table)
        self._tell(live, table)
        if table.deadline is not None and table.deadline["due_at"] is not None:
            self.wake_at(table.deadline["due_at"])

    # -- the sweeper ------------------------------------------------------------------------

    def wake_at(self, due: datetime) -> None:
        """A deadline of this process's writing is due then: the sweeper looks again now
        (it sleeps until the earliest due time, or ``deadline_poll`` at most)."""
        self.wake.set()

    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        self.stopping = True
        task, self.task = self.task, None
        await stop_task(task)

    async def _run(self) -> None:
        poll = self.settings.deadline_poll
        while not self.stopping:
            self.wake.clear()
            try:
                await self.sweep()
                for other in self.others:
                    try:
                        await other.sweep()
                    except Exception:
                        log.exception("the sweep of %s failed", type(other).__name__)
                nxt = await to_thread.run_sync(self._next)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the deadline sweep failed")
                nxt = None
            delay = poll
            if nxt is not None:
                delay = min(poll, max(0.005, (nxt - self.clock.now()).total_seconds()))
            await wait_event(self.wake, delay)

    def _next(self) -> datetime | None:
        with self.db.read() as s:
            due, remind = s.execute(select(func.min(m.Deadline.due_at), func.min(m.Deadline.remind_at))
                                    .where(m.Deadline.state == "running")).one()
        times = [t for t in (aware(due), aware(remind), *(x.next_due() for x in self.others)) if t is not None]
        return min(times) if times else None

    async def sweep(self, limit: int = 200) -> list[str]:
        """Fire every due deadline and send every due reminder (claimed by this process);
        the matches whose deadline fired."""
        now = self.clock.now()
        due, reminders = await to_thread.run_sync(self._claim, now, limit)
        for claim in reminders:
            self.reminded += 1
            if self.notify is not None and claim["player"] is not None:
                self.notify(claim["player"], "reminder", room=claim["code"], match=claim["match_id"],
                            due=iso(claim["due_at"]))
        fired = []
        for claim in due:
            if self.stopping:  # a claimed row fires again after its lease, here or elsewhere
                break
            try:
                if await self._fire(claim):
                    fired.append(claim["match_id"])
            except Exception:
                log.exception("match %s: the deadline could not fire", claim["match_id"])
        self.fired += len(fired)
        return fired

    def _claim(self, now: datetime, limit: int) -> tuple[list[dict], list[dict]]:
        """(A worker thread.)  Claim the due deadlines and reminders: one transaction, the
        rows locked (others' locked rows skipped); a due row's ``due_at`` moves a lease
        ahead (a ``wait`` room's is ``expired`` instead), a reminder's time is cleared."""
        lease = timedelta(seconds=self.settings.deadline_lease)
        who = (select(m.MatchPlayer.player_id).where(m.MatchPlayer.match_id == m.Deadline.match_id,
                                                      m.MatchPlayer.seat_no == m.Deadline.seat)
               .scalar_subquery())
        with self.db.write() as s:
            rows = s.execute(
                select(m.Deadline, m.Room.pace, m.Room.on_deadline, m.Room.code)
                .join(m.Room, m.Room.id == m.Deadline.room_id)
                .where(m.Deadline.state == "running", m.Deadline.due_at <= now)
                .order_by(m.Deadline.due_at).limit(limit)
                .with_for_update(skip_locked=True, of=m.Deadline)).all()
            due = []
            for dl, pace, on_deadline, code in rows:
                wait = pace == "turn" and on_deadline == "wait"
                if wait:
                    dl.state, dl.due_at, dl.remind_at = "expired", None, None
                else:
                    dl.due_at = now + lease
                due.append({**self._plain(dl), "pace": pace, "wait": wait, "code": code})
            reminders = []
            for dl, code, player in s.execute(
                    select(m.Deadline, m.Room.code, who)
                    .join(m.Room, m.Room.id == m.Deadline.room_id)
                    .where(m.Deadline.state == "running", m.Deadline.remind_at <= now)
                    .limit(limit).with_for_update(skip_locked=True, of=m.Deadline)).all():
                dl.remind_at = None
                reminders.append({**self._plain(dl), "code": code, "player": player})
        return due, reminders

    async def _fire(self, claim: dict) -> bool:
        live = await self.matches.get_live(claim["match_id"])
        if live is None or live.finished:
            await to_thread.run_sync(self._drop, claim["match_id"], claim["version"])
            return False
        table = await self.bots.attach(live)
        if claim["wait"]:  # the match waits: the room hears the deadline has passed
            if table.deadline is not None and table.deadline["version"] == claim["version"]:
                table.deadline = {**table.deadline, "state": "expired", "due_at": None, "remind_at": None}
            self._tell(live, table)
            log.info("match %s: seat %d's deadline passed; the match waits", live.id, claim["seat"])
            return True
        return await self.bots.fire(live, claim["seat"], claim["version"], takeover=claim["pace"] != "turn")

    async def on_note(self, note: dict) -> None:
        """Another process changed a match's deadline outside a move (a vacation)."""
        match_id = note.get("match")
        if isinstance(match_id, str):
            await self.reread(match_id)

