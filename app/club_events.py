"""Club events (issue 37 items 4 and 6): an event of a club at a time, time-zone aware;
admins create, change and cancel it, members answer yes / no / maybe; a reminder
``REMIND_BEFORE`` the start goes to those who said yes or maybe, through the one
notification path (``Notifier.notify``, kind ``club_event``), and so does word at once
when an admin moves its start or cancels it; an event as an
iCalendar file.  SQL in app/db/club_events.py; who may do what is app/clubs.py's
(``Clubs``' checks: a private club is unknown to outsiders).

The reminders are claimed from the database (``remind_at``, cleared in the claiming
transaction, ``FOR UPDATE SKIP LOCKED`` on PostgreSQL), so several processes send each
one once; the deadlines' sweeper of each process runs this sweep too (app/rooms/
deadlines.py ``others``).  Times are the ``Clock``'s (app/clock.py: tests move it)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from anyio import to_thread
from sqlalchemy.orm import Session

from .clock import Clock
from .clubs import Clubs, described, named
from .db import club_events as sql
from .db import clubs as csql
from .db import models as m
from .db.session import Database
from .push.prefs import zone

log = logging.getLogger("kozyr.clubs")

#: How long before an event its reminder goes (README "Clubs", Events).
REMIND_BEFORE = timedelta(hours=1)
#: How far ahead an event may be set.
HORIZON = timedelta(days=2 * 366)


def zone_of(name: str) -> ZoneInfo:
    """The IANA zone ``name`` (422 ``invalid_event`` if there is none of that name)."""
    return zone(name, sql.BadEvent)


def remind_at(starts: datetime, now: datetime) -> datetime | None:
    """When an event starting ``starts`` is reminded of: ``REMIND_BEFORE`` it, unless that
    has passed (an event set or moved less than that ahead is not reminded of)."""
    at = starts - REMIND_BEFORE
    return at if at > now else None


class ClubEvents:
    #: The Notifier's call (app/push): it only queues.
    notify: Callable[..., None] | None = None

    def __init__(self, db: Database, clubs: Clubs, clock: Clock) -> None:
        self.db = db
        self.clubs = clubs
        self.clock = clock
        self.reminded = 0  # reminders this process claimed (tests)

    async def _read(self, work, *args):
        return await self.clubs.read(work, *args)

    async def _write(self, work, *args):
        return await self.clubs.write(work, *args)

    def _checked(self, fields: dict, now: datetime) -> dict:
        """The given fields cleaned and checked before anything is written (422)."""
        out = dict(fields)
        if out.get("title") is not None:
            out["title"] = named(out["title"], "the event's title")
        if out.get("note") is not None:
            out["note"] = described(out["note"])
        if out.get("time_zone") is not None:
            zone_of(out["time_zone"])
        if out.get("starts_at") is not None:
            starts = out["starts_at"]
            if starts <= now:
                raise sql.BadEvent("an event starts in the future")
            if starts - now > HORIZON:
                raise sql.BadEvent("an event starts within two years")
            out["starts_at"] = starts.astimezone(UTC)  # kept in UTC (SQLite keeps no zone)
        return out

    def _one(self, s: Session, row: m.ClubEvent, player_id: int, *, answers: bool = False) -> dict:
        out = sql.described(s, [row], player_id)[0]
        if answers:
            out["answers"] = sql.answers(s, row.id)
        return out

    # -- admins ----------------------------------------------------------------------------

    async def create(self, player, club_id: int, fields: dict) -> dict:
        now = self.clock.now()
        fields = self._checked(fields, now)

        def work(s: Session) -> dict:
            self.clubs.admin(s, club_id, player.id)
            if fields.get("preset") is not None:
                csql.preset_row(s, club_id, fields["preset"])
            starts = fields["starts_at"]
            row = m.ClubEvent(club_id=club_id, title=fields["title"], note=fields.get("note") or "",
                              starts_at=starts, ends_at=starts + timedelta(minutes=fields["duration_minutes"]),
                              time_zone=fields["time_zone"], preset_id=fields.get("preset"),
                              remind_at=remind_at(starts, now), created_by=player.id, created_at=now,
                              updated_at=now)
            s.add(row)
            s.flush()
            return self._one(s, row, player.id, answers=True)
        return await self._write(work)

    async def change(self, player, club_id: int, event_id: int, fields: dict) -> dict:
        """Only the fields given change (``preset`` given as null: none); a new start
        times its reminder again (sent again before the new time)."""
        now = self.clock.now()
        fields = self._checked(fields, now)

        def work(s: Session) -> tuple[dict, dict | None]:
            self.clubs.admin(s, club_id, player.id)
            row = sql.event_row(s, club_id, event_id, lock=s.info["lock"])
            if row.cancelled_at is not None:
                raise sql.EventCancelled("this event is cancelled")
            moved = False
            if "preset" in fields:
                if fields["preset"] is not None:
                    csql.preset_row(s, club_id, fields["preset"])
                row.preset_id = fields["preset"]
            for key in ("title", "note", "time_zone"):
                if fields.get(key) is not None:
                    setattr(row, key, fields[key])
            starts = sql.aware(row.starts_at)
            length = sql.aware(row.ends_at) - starts
            if fields.get("duration_minutes") is not None:
                length = timedelta(minutes=fields["duration_minutes"])
            if fields.get("starts_at") is not None and fields["starts_at"] != starts:
                starts, moved = fields["starts_at"], True
                row.starts_at, row.remind_at = starts, remind_at(starts, now)
            row.ends_at, row.updated_at = starts + length, now
            s.flush()
            return self._one(s, row, player.id, answers=True), sql.told(s, row) if moved else None
        event, told = await self._write(work)
        self._tell(told, "moved", player.id)
        return event

    async def cancel(self, player, club_id: int, event_id: int) -> dict:
        """Off the club page; its reminder is not sent; answers are no longer taken."""
        def work(s: Session) -> tuple[dict, dict]:
            self.clubs.admin(s, club_id, player.id)
            row = sql.event_row(s, club_id, event_id, lock=s.info["lock"])
            if row.cancelled_at is not None:
                raise sql.EventCancelled("this event is cancelled already")
            row.cancelled_at, row.remind_at = self.clock.now(), None
            s.flush()
            return self._one(s, row, player.id, answers=True), sql.told(s, row)
        event, told = await self._write(work)
        self._tell(told, "cancelled", player.id)
        return event

    def _tell(self, told: dict | None, change: str, admin: int) -> None:
        """After the commit: those who said yes or maybe hear at once that the event moved
        or is cancelled (kind ``club_event`` with ``change``), the admin who did it aside."""
        if told is None or self.notify is None:
            return
        for pid in told["players"]:
            if pid != admin:
                self.notify(pid, "club_event", change=change, **self._facts(told))

    @staticmethod
    def _facts(told: dict) -> dict:
        return {k: told[k] for k in ("club", "club_name", "event", "title", "starts", "time_zone")}

    # -- members -----------------------------------------------------------------------------

    async def answer(self, player, club_id: int, event_id: int, answer: str) -> dict:
        """A member's answer, given or changed until the event starts."""
        def work(s: Session) -> dict:
            self.clubs.member(s, club_id, player.id)
            row = sql.event_row(s, club_id, event_id)
            if row.cancelled_at is not None:
                raise sql.EventCancelled("this event is cancelled")
            now = self.clock.now()
            if sql.aware(row.starts_at) <= now:
                raise sql.EventStarted("this event has started: answers are closed")
            sql.set_answer(s, self.db.is_postgres, row.id, player.id, answer, now)
            s.flush()
            return self._one(s, row, player.id, answers=True)
        return await self._write(work)

    async def one(self, player, club_id: int, event_id: int) -> dict:
        def work(s: Session) -> dict:
            self.clubs.visible(s, club_id, player.id)
            return self._one(s, sql.event_row(s, club_id, event_id), player.id, answers=True)
        return await self._read(work)

    async def ics(self, player, club_id: int, event_id: int, base_url: str) -> bytes:
        """The event as an iCalendar file (RFC 5545): its start in its own zone (with the
        zone's VTIMEZONE), its end, what it is, the club page's address; a cancelled
        event says STATUS:CANCELLED (a calendar that has it drops it)."""
        def work(s: Session) -> tuple[dict, str]:
            club, _ = self.clubs.visible(s, club_id, player.id)
            return self._one(s, sql.event_row(s, club_id, event_id), player.id), club.name
        event, club_name = await self._read(work)
        return ics_file(event, club_name, base_url, self.clock.now())

    # -- reminders ------------------------------------------------------------------------------

    def next_due(self) -> datetime | None:
        """(A worker thread.)  When the next reminder is due (the sweeper sleeps till then)."""
        with self.db.read() as s:
            return sql.next_reminder(s)

    async def sweep(self, limit: int = 200) -> list[int]:
        """Send every reminder due (claimed by this process); the events reminded of."""
        now = self.clock.now()

        def claim() -> list[dict]:
            with self.db.write() as s:
                return sql.claim_reminders(s, now, limit)
        claims = await to_thread.run_sync(claim)
        for c in claims:
            self.reminded += 1
            for pid in c["players"]:
                if self.notify is not None:
                    self.notify(pid, "club_event", **self._facts(c))
        return [c["event"] for c in claims]


def ics_file(event: dict, club_name: str, base_url: str, now: datetime) -> bytes:
    """The calendar file of ``event`` (an API event dict): RFC 5545 by ``icalendar``
    (imported here: only this route needs it), its VTIMEZONE the zone's rules around
    the event's year."""
    from icalendar import Calendar, Event, vText

    zone = ZoneInfo(event["time_zone"])
    cal = Calendar()
    cal.add("prodid", "-//Kozyr//club events//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    ev = Event()
    host = base_url.split("://", 1)[-1].split("/", 1)[0] or "kozyr"
    ev.add("uid", f"club-event-{event['id']}@{host}")
    ev.add("dtstamp", now.astimezone(UTC))
    ev.add("dtstart", datetime.fromisoformat(event["starts_at"]).astimezone(zone))
    ev.add("dtend", datetime.fromisoformat(event["ends_at"]).astimezone(zone))
    ev.add("summary", event["title"])
    url = f"{base_url.rstrip('/')}/#/club/{event['club']}"
    words = [club_name]
    if event["preset"]:
        words.append(event["preset"]["name"])
    if event["note"]:
        words.append(event["note"])
    ev.add("description", vText("\n".join(words + [url])))
    ev.add("url", url)
    ev.add("status", "CANCELLED" if event["cancelled"] else "CONFIRMED")
    cal.add_component(ev)
    year = datetime.fromisoformat(event["starts_at"]).year
    cal.add_missing_timezones(first_date=date(year - 1, 1, 1), last_date=date(year + 2, 1, 1))
    return cal.to_ical()
