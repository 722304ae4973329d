"""Rooms: create, look at, take / leave a seat, start a match or a rematch, chat, history."""

from __future__ import annotations

import io
from functools import partial
from typing import Annotated

import segno
from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from ..clubs import Clubs
from ..db.errors import (
    BadOptions,
    BadVariant,
    CoachRated,
    MatchRunning,
    NotHost,
    NotYourSeat,
    SeatsEmpty,
    SeatTaken,
    TooManyRooms,
    UnknownSeat,
)
from ..errors import responses
from ..rooms.service import Caller
from .deps import (
    AUTH,
    PRESET,
    ROOM,
    ClubsDep,
    HistoryDep,
    PlayDep,
    PlayerDep,
    RoomCode,
    RoomsDep,
    SettingsDep,
)
from .schemas import (
    MAX_SEAT,
    ChatPublic,
    Count,
    Id,
    MatchSummary,
    RoomCreate,
    RoomPublic,
    StartMatch,
    StatusFilter,
    Timestamp,
    VariantFilter,
)

SeatNo = Annotated[int, Path(ge=0, le=MAX_SEAT, description="a seat number, from 0")]
SEAT = (UnknownSeat,)  # a {seat} beyond the room's seats

router = APIRouter(prefix="/api/rooms", tags=["rooms"])


def with_invite(room: dict, request: Request) -> dict:
    base = request.app.state.settings.public_url or str(request.base_url)
    room["invite_url"] = base.rstrip("/") + room["invite_path"]
    return room


async def with_preset(body: RoomCreate, player: Caller, clubs: Clubs) -> tuple[RoomCreate, dict | None]:
    """The room form with its club preset's rules and room defaults (fields given in ``body``
    overriding the defaults), and the preset (None: ``body`` names none)."""
    if body.preset is None:
        return body, None
    preset = await clubs.preset_for_room(player, body.preset, body.variant, body.options)
    try:  # a preset stored before a room field's bounds changed is refused, not a 500
        body = RoomCreate.model_validate({**preset["room"], **body.model_dump(exclude_unset=True),
                                          "variant": preset["variant"], "options": preset["options"]})
    except ValidationError as e:
        raise BadOptions(f"the preset's room defaults no longer fit: {e.errors()[0]['msg']}") from None
    return body, preset


@router.post("", response_model=RoomPublic, status_code=201,
             responses=responses(*AUTH, BadVariant, BadOptions, CoachRated, TooManyRooms, *PRESET, body=True))
async def create_room(body: RoomCreate, player: PlayerDep, rooms: RoomsDep, clubs: ClubsDep,
                      request: Request) -> dict:
    """A new room; with ``preset``, a club's room with the preset's rules and defaults."""
    body, preset = await with_preset(body, player, clubs)
    if body.variant is None:
        raise BadVariant("give a variant (GET /api/variants) or a club preset")
    room = await rooms.create_room(player, body.variant, body.options, body.seats, body.take_seat,
                                   body.takeover_seconds, body.rated, body.takeback, body.abandoned,
                                   body.model_dump(include={"pace", "move_seconds", "on_deadline", "vacation_days"}),
                                   preset, body.coach)
    return with_invite(room, request)


@router.get("/{code}", response_model=RoomPublic, responses=responses(*ROOM))
async def get_room(code: RoomCode, rooms: RoomsDep, request: Request) -> dict:
    return with_invite(await rooms.room(code), request)


@router.get("/{code}/qr.svg", response_class=Response,
            responses={200: {"content": {"image/svg+xml": {}}}, **responses(*ROOM)})
async def invite_qr(code: RoomCode, request: Request) -> Response:
    """The room's invite link as a QR code (SVG, drawn by segno)."""
    url = with_invite({"invite_path": f"/room/{code}"}, request)["invite_url"]
    return qr_svg(url, f"Kozyr room {code}")


def qr_svg(url: str, title: str, cache: str = "public, max-age=86400") -> Response:
    """An invite link as a QR code (SVG, drawn by segno): a room's, a club's."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, border=2, xmldecl=False,
                                    svgns=True, title=title)
    return Response(out.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": cache})


@router.post("/{code}/seats/{seat}", response_model=RoomPublic,
             responses=responses(*AUTH, *ROOM, *SEAT, SeatTaken, MatchRunning))
async def take_seat(code: RoomCode, seat: SeatNo, player: PlayerDep, rooms: RoomsDep, request: Request) -> dict:
    return with_invite(await rooms.change_seat(code, seat, player, take=True), request)


@router.delete("/{code}/seats/{seat}", response_model=RoomPublic,
               responses=responses(*AUTH, *ROOM, *SEAT, NotYourSeat, MatchRunning))
async def leave_seat(code: RoomCode, seat: SeatNo, player: PlayerDep, rooms: RoomsDep, request: Request) -> dict:
    return with_invite(await rooms.change_seat(code, seat, player, take=False), request)


@router.post("/{code}/start", response_model=RoomPublic,
             responses=responses(*AUTH, *ROOM, NotHost, MatchRunning, SeatsEmpty, body=True))
async def start(code: RoomCode, player: PlayerDep, play: PlayDep, settings: SettingsDep, request: Request,
                body: StartMatch | None = None) -> dict:
    """The host starts a match once every seat is taken."""
    seed = body.seed if body is not None and settings.allow_fixed_seed else None
    return with_invite(await play.start_match(code, player, seed=seed), request)


@router.post("/{code}/rematch", response_model=RoomPublic,
             responses=responses(*AUTH, *ROOM, NotHost, MatchRunning, SeatsEmpty))
async def rematch(code: RoomCode, player: PlayerDep, play: PlayDep, request: Request) -> dict:
    """A new match in the same room with the same seats, once the last one is over."""
    return with_invite(await play.start_match(code, player), request)


@router.get("/{code}/chat", response_model=list[ChatPublic], responses=responses(*ROOM))
async def chat(code: RoomCode, rooms: RoomsDep, limit: int = Query(100, ge=1, le=500)) -> list[dict]:
    return await run_in_threadpool(rooms.chat_lines, code, limit)


@router.get("/{code}/matches", response_model=list[MatchSummary], responses=responses(*ROOM))
async def room_matches(code: RoomCode, history: HistoryDep, player: Id | None = None,
                       variant: VariantFilter | None = None, since: Timestamp | None = None,
                       until: Timestamp | None = None, status: StatusFilter | None = None,
                       limit: int = Query(50, ge=1, le=500), offset: Count = 0) -> list[dict]:
    return await run_in_threadpool(partial(
        history.matches, room_code=code, player_id=player, variant=variant, since=since,
        until=until, status=status, limit=limit, offset=offset))
