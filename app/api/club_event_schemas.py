"""Club events' bodies and answers (issue 37 item 4): used by the event routes
(app/api/club_events.py) and by the club page (app/api/clubs.py ``ClubPage.events``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, StrictInt

from .schemas import MAX_ID, AwareTime

Answer = Literal["yes", "no", "maybe"]
ZONE = r"^[A-Za-z0-9_+\-/]+$"


class EventCreate(BaseModel):
    title: str = Field(min_length=1, max_length=80, description="by the rule of names (422 invalid_name)")
    starts_at: AwareTime = Field(description="a time with its zone, in the future, within two years "
                                 "(422 invalid_event); kept in UTC")
    time_zone: str = Field(min_length=1, max_length=64, pattern=ZONE,
                           description="the IANA zone the event is set in, e.g. Europe/Warsaw (422 invalid_event "
                           "if unknown): its calendar file's")
    duration_minutes: StrictInt = Field(120, ge=5, le=7 * 24 * 60)
    note: str = Field("", max_length=2000)
    preset: StrictInt | None = Field(None, ge=1, le=MAX_ID, description="a preset of the club to open the "
                                     "room from (404 unknown_preset)")


class EventChange(BaseModel):
    """Only the fields given change; ``preset`` given as null: none."""
    title: str | None = Field(None, min_length=1, max_length=80)
    starts_at: AwareTime | None = None
    time_zone: str | None = Field(None, min_length=1, max_length=64, pattern=ZONE)
    duration_minutes: StrictInt | None = Field(None, ge=5, le=7 * 24 * 60)
    note: str | None = Field(None, max_length=2000)
    preset: StrictInt | None = Field(None, ge=1, le=MAX_ID)


class RsvpBody(BaseModel):
    answer: Answer


class Counts(BaseModel):
    yes: int
    no: int
    maybe: int


class EventPreset(BaseModel):
    id: int
    name: str | None


class EventAnswer(BaseModel):
    player: int
    name: str
    answer: Answer
    answered_at: str | None


class ClubEventPublic(BaseModel):
    id: int
    club: int
    title: str
    note: str
    starts_at: str = Field(description="UTC")
    ends_at: str = Field(description="UTC")
    time_zone: str
    local_start: str = Field(description="the start in the event's own zone, with its offset")
    duration_minutes: int
    preset: EventPreset | None
    cancelled: bool
    counts: Counts = Field(description="the active members' answers")
    my_answer: Answer | None
    ics_path: str


class ClubEventFull(ClubEventPublic):
    answers: list[EventAnswer] = Field(description="yes first, then maybe, then no; by name")
