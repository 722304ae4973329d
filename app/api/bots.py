"""Bots: the levels, seating / removing a bot (host only), the room's turn timeout."""

from __future__ import annotations

from fastapi import APIRouter, Request

from engine.bots import levels

from ..db.errors import (
    BotsDisabled,
    CoachRated,
    MatchRunning,
    NoBot,
    NotHost,
    SeatTaken,
    TooManyBots,
    UnknownLevel,
)
from ..errors import responses
from ..rooms.bots import level_name
from .deps import AUTH, ROOM, PlayDep, PlayerDep, RoomCode, RoomsDep
from .rooms import SEAT, SeatNo, with_invite
from .schemas import BotLevel, BotSeat, RoomPublic, RoomSettings

router = APIRouter(tags=["bots"])


@router.get("/api/bots", response_model=list[BotLevel])
def list_levels() -> list[dict]:
    """The bot levels a host may seat, weakest first."""
    return [{**lv, "name": level_name(lv["level"])} for lv in levels()]


@router.post("/api/rooms/{code}/seats/{seat}/bot", response_model=RoomPublic, responses=responses(
    *AUTH, *ROOM, *SEAT, BotsDisabled, UnknownLevel, NotHost, SeatTaken, MatchRunning, TooManyBots, body=True))
async def seat_bot(code: RoomCode, seat: SeatNo, player: PlayerDep, rooms: RoomsDep, request: Request,
                   body: BotSeat | None = None) -> dict:
    """The host seats a bot in an empty seat (or changes a bot's level), between matches."""
    level = body.level if body is not None else "basic"
    return with_invite(await rooms.change_bot(code, seat, player, level), request)


@router.delete("/api/rooms/{code}/seats/{seat}/bot", response_model=RoomPublic,
               responses=responses(*AUTH, *ROOM, *SEAT, BotsDisabled, NotHost, NoBot, MatchRunning))
async def remove_bot(code: RoomCode, seat: SeatNo, player: PlayerDep, rooms: RoomsDep, request: Request) -> dict:
    return with_invite(await rooms.change_bot(code, seat, player, None), request)


@router.patch("/api/rooms/{code}", response_model=RoomPublic, responses=responses(*AUTH, *ROOM, NotHost, CoachRated, body=True))
async def room_settings(code: RoomCode, body: RoomSettings, player: PlayerDep, play: PlayDep,
                        request: Request) -> dict:
    """The host changes the room's clock: the live turn timeout after which a bot takes
    over (None / 0: off), the pace, a turn-based move's time, what a passed deadline
    does, the vacation limit, the coach (never in a rated room).  Only the fields given change."""
    return with_invite(await play.set_clock(code, player, body.model_dump(exclude_unset=True)), request)
