"""Club events (issue 37 item 4): an event of a club at a time, the members' answers,
the reminders (SQL).  Policy is app/club_events.py's.

The club page's upcoming events are an index range: ``ix_club_events_upcoming`` (club,
ends_at > now); their answers' counts and mine by the primary key of
``club_event_rsvps`` (event, player).  The reminders' sweep reads
``ix_club_events_remind`` (remind_at <= now) and claims the rows it takes (``FOR
UPDATE SKIP LOCKED`` on PostgreSQL, as app/rooms/deadlines.py claims deadlines)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import overload
from zoneinfo import ZoneInfo

from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from . import models as m
from .errors import Clash, Invalid, Missing
from .store import utc

ANSWERS = ("yes", "no", "maybe")
#: those told before the event (README "Clubs", Events)
REMINDED = ("yes", "maybe")
UPCOMING = 20  # events on the club page


class UnknownEvent(Missing):
    code = "unknown_event"


class EventCancelled(Clash):
    code = "event_cancelled"


class EventStarted(Clash):
    """Answers are taken until the event starts."""

    code = "event_started"


class BadEvent(Invalid):
    code = "invalid_event"


def event_row(s: Session, club_id: int, event_id: int, *, lock: bool = False) -> m.ClubEvent:
    q = select(m.ClubEvent).where(m.ClubEvent.id == event_id)
    if lock:
        q = q.with_for_update()
    row = s.scalar(q)
    if row is None or row.club_id != club_id:
        raise UnknownEvent(f"no event {event_id} in this club")
    return row


def _active(event_ids):
    """Answers of the events' clubs' active members (one who left is no longer counted)."""
    return (select(m.ClubEventRsvp.event_id, m.ClubEventRsvp.player_id, m.ClubEventRsvp.answer,
                   m.ClubEventRsvp.answered_at, m.Player.name)
            .join(m.ClubEvent, m.ClubEvent.id == m.ClubEventRsvp.event_id)
            .join(m.ClubMember, (m.ClubMember.club_id == m.ClubEvent.club_id)
                  & (m.ClubMember.player_id == m.ClubEventRsvp.player_id) & (m.ClubMember.status == "active"))
            .join(m.Player, m.Player.id == m.ClubEventRsvp.player_id)
            .where(m.ClubEventRsvp.event_id.in_(event_ids)))


def counts(s: Session, event_ids: list[int], player_id: int) -> tuple[dict[int, dict], dict[int, str]]:
    """Each event's answers counted ({yes, no, maybe}) and the player's own answer."""
    out = {e: dict.fromkeys(ANSWERS, 0) for e in event_ids}
    mine: dict[int, str] = {}
    if not event_ids:
        return out, mine
    for event, player, answer, _, _ in s.execute(_active(event_ids)):
        out[event][answer] += 1
        if player == player_id:
            mine[event] = answer
    return out, mine


def answers(s: Session, event_id: int) -> list[dict]:
    """Who answered what: yes first, then maybe, then no; by name within each."""
    rows = list(s.execute(_active([event_id])).all())
    order = {"yes": 0, "maybe": 1, "no": 2}
    rows.sort(key=lambda r: (order[r[2]], r[4].casefold(), r[1]))
    return [{"player": r[1], "name": r[4], "answer": r[2], "answered_at": utc(r[3])} for r in rows]


def event_dict(row: m.ClubEvent, preset_name: str | None, counted: dict, mine: str | None) -> dict:
    starts, ends = aware(row.starts_at), aware(row.ends_at)
    return {"id": row.id, "club": row.club_id, "title": row.title, "note": row.note,
            "starts_at": utc(starts), "ends_at": utc(ends), "time_zone": row.time_zone,
            "local_start": starts.astimezone(ZoneInfo(row.time_zone)).isoformat(),
            "duration_minutes": int((ends - starts).total_seconds() // 60),
            "preset": None if row.preset_id is None else {"id": row.preset_id, "name": preset_name},
            "cancelled": row.cancelled_at is not None, "counts": counted, "my_answer": mine,
            "ics_path": f"/api/clubs/{row.club_id}/events/{row.id}/event.ics"}


def described(s: Session, rows: list[m.ClubEvent], player_id: int) -> list[dict]:
    """The events as the API gives them: with their preset's name, counts and my answer."""
    counted, mine = counts(s, [r.id for r in rows], player_id)
    presets = {r.preset_id for r in rows if r.preset_id is not None}
    names = dict(s.execute(select(m.ClubPreset.id, m.ClubPreset.name).where(m.ClubPreset.id.in_(presets))).all()) \
        if presets else {}
    return [event_dict(r, names.get(r.preset_id or 0), counted[r.id], mine.get(r.id)) for r in rows]


def upcoming(s: Session, club_id: int, player_id: int, now: datetime) -> list[dict]:
    """The club's events not cancelled that have not ended, soonest first (the club page)."""
    rows = list(s.scalars(select(m.ClubEvent)
                          .where(m.ClubEvent.club_id == club_id, m.ClubEvent.ends_at > now,
                                 m.ClubEvent.cancelled_at.is_(None))
                          .order_by(m.ClubEvent.starts_at, m.ClubEvent.id).limit(UPCOMING)))
    return described(s, rows, player_id)


def set_answer(s: Session, is_postgres: bool, event_id: int, player_id: int, answer: str, now: datetime) -> None:
    """The player's answer, new or changed (an upsert: two taps at once leave one row)."""
    insert = pg_insert if is_postgres else sqlite_insert
    stmt = insert(m.ClubEventRsvp).values(event_id=event_id, player_id=player_id, answer=answer, answered_at=now)
    s.execute(stmt.on_conflict_do_update(index_elements=["event_id", "player_id"],
                                         set_={"answer": stmt.excluded.answer,
                                               "answered_at": stmt.excluded.answered_at}))


# -- reminders ---------------------------------------------------------------------------------


def claim_reminders(s: Session, now: datetime, limit: int) -> list[dict]:
    """(One transaction.)  The reminders due: each event's row locked (rows another process
    holds are skipped), its ``remind_at`` cleared, so it is sent once; with the members to
    tell (active, answered yes or maybe) and what the notification names."""
    rows = s.execute(select(m.ClubEvent, m.Club.name)
                     .join(m.Club, m.Club.id == m.ClubEvent.club_id)
                     .where(m.ClubEvent.remind_at <= now, m.ClubEvent.cancelled_at.is_(None))
                     .order_by(m.ClubEvent.remind_at).limit(limit)
                     .with_for_update(skip_locked=True, of=m.ClubEvent)).all()
    out = []
    for event, club_name in rows:
        event.remind_at = None
        out.append(told(s, event, club_name))
    return out


def told(s: Session, event: m.ClubEvent, club_name: str | None = None) -> dict:
    """Whom a reminder or a change of ``event`` goes to (its club's active members who said
    yes or maybe: ``players``) and what the notification names."""
    if club_name is None:
        club_name = s.scalar(select(m.Club.name).where(m.Club.id == event.club_id))
    people = [r[1] for r in s.execute(_active([event.id])) if r[2] in REMINDED]
    return {"event": event.id, "club": event.club_id, "club_name": club_name, "title": event.title,
            "starts": utc(aware(event.starts_at)), "time_zone": event.time_zone, "players": sorted(people)}


def next_reminder(s: Session) -> datetime | None:
    return aware(s.scalar(select(func.min(m.ClubEvent.remind_at)).where(m.ClubEvent.cancelled_at.is_(None))))


@overload
def aware(t: datetime) -> datetime: ...
@overload
def aware(t: None) -> None: ...
def aware(t: datetime | None) -> datetime | None:
    """SQLite gives naive datetimes back (UTC)."""
    return t if t is None or t.tzinfo is not None else t.replace(tzinfo=UTC)
