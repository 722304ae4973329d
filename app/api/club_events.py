"""Club events (issue 37 items 4 and 6): create, change, cancel, answer, one event with
its answers, its iCalendar file.  Policy: app/club_events.py; README "Clubs", Events."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import Response

from ..club_events import ClubEvents
from ..db.club_events import BadEvent, EventCancelled, EventStarted, UnknownEvent
from ..db.clubs import UnknownPreset
from ..db.errors import BadName
from ..errors import responses
from .club_event_schemas import ClubEventFull, EventChange, EventCreate, RsvpBody
from .clubs import ADMIN, MEMBER, SEEN, ClubId
from .deps import PlayerDep
from .schemas import MAX_ID

router = APIRouter(prefix="/api/clubs", tags=["clubs"])

EventId = Annotated[int, Path(ge=1, le=MAX_ID, description="an event's id")]


def get_club_events(request: Request) -> ClubEvents:
    return request.app.state.club_events


ClubEventsDep = Annotated[ClubEvents, Depends(get_club_events)]


@router.post("/{club_id}/events", status_code=201, response_model=ClubEventFull,
             responses=responses(*ADMIN, BadName, BadEvent, UnknownPreset, body=True))
async def create_event(club_id: ClubId, body: EventCreate, player: PlayerDep, events: ClubEventsDep) -> dict:
    """A new event of the club (an admin); its reminder goes an hour before it starts."""
    return await events.create(player, club_id, body.model_dump())


# a path of its own below the event's (not ".../{event_id}.ics": "5.ics" would also fit the
# shape of PATCH .../{event_id}, and a 405 there would say Allow: GET, PATCH)
@router.get("/{club_id}/events/{event_id}/event.ics", response_class=Response,
            responses={200: {"content": {"text/calendar": {}}}, **responses(*SEEN, UnknownEvent)})
async def event_ics(club_id: ClubId, event_id: EventId, player: PlayerDep, events: ClubEventsDep,
                    request: Request) -> Response:
    """The event as an iCalendar file (RFC 5545), its start in its own time zone."""
    base = request.app.state.settings.public_url or str(request.base_url)
    body = await events.ics(player, club_id, event_id, base)
    return Response(body, media_type="text/calendar; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="kozyr-club-{club_id}-event-{event_id}.ics"'})


@router.get("/{club_id}/events/{event_id}", response_model=ClubEventFull, responses=responses(*SEEN, UnknownEvent))
async def event(club_id: ClubId, event_id: EventId, player: PlayerDep, events: ClubEventsDep) -> dict:
    """One event with who answered what."""
    return await events.one(player, club_id, event_id)


@router.patch("/{club_id}/events/{event_id}", response_model=ClubEventFull,
              responses=responses(*ADMIN, UnknownEvent, EventCancelled, BadName, BadEvent, UnknownPreset, body=True))
async def change_event(club_id: ClubId, event_id: EventId, body: EventChange, player: PlayerDep,
                       events: ClubEventsDep) -> dict:
    """Change an event (an admin): only the fields given; a new start times the reminder again."""
    return await events.change(player, club_id, event_id, body.model_dump(exclude_unset=True))


@router.post("/{club_id}/events/{event_id}/cancel", response_model=ClubEventFull,
             responses=responses(*ADMIN, UnknownEvent, EventCancelled))
async def cancel_event(club_id: ClubId, event_id: EventId, player: PlayerDep, events: ClubEventsDep) -> dict:
    """Cancel an event (an admin): off the club page, no reminder, no more answers."""
    return await events.cancel(player, club_id, event_id)


@router.put("/{club_id}/events/{event_id}/rsvp", response_model=ClubEventFull,
            responses=responses(*MEMBER, UnknownEvent, EventCancelled, EventStarted, body=True))
async def rsvp(club_id: ClubId, event_id: EventId, body: RsvpBody, player: PlayerDep,
               events: ClubEventsDep) -> dict:
    """My answer (a member): yes, no or maybe; changed at will until the event starts."""
    return await events.answer(player, club_id, event_id, body.answer)
