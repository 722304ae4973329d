"""Players: no sign-up; a random token and a display name."""

from __future__ import annotations

from functools import partial
from typing import Annotated

from fastapi import APIRouter, Query, Request, Response
from starlette.concurrency import run_in_threadpool

from ..config import Settings
from ..db.errors import BadName, RateLimited, UnknownPlayer
from ..errors import responses
from ..rooms.text import clean_name
from .deps import (
    AUTH,
    ROOM,
    DeadlinesDep,
    HistoryDep,
    PlayerDep,
    PlayersDep,
    RoomCode,
    SettingsDep,
    client_address,
)
from .schemas import (
    MAX_ID,
    Away,
    Count,
    Id,
    MatchSummary,
    MyGame,
    PlayerCreate,
    PlayerMe,
    PlayerPublic,
    PlayerStats,
    PlayerWithToken,
    StatusFilter,
    Timestamp,
    VariantFilter,
)

router = APIRouter(prefix="/api/players", tags=["players"])
# the club / preset filters of a player's matches, statistics and rating history (issue 37)
ClubFilter = Annotated[int, Query(ge=1, le=MAX_ID, description="only the matches of this club's rooms")]
PresetFilter = Annotated[str, Query(min_length=1, max_length=80, pattern=r"^[^\x00-\x1f\x7f]+$",
                                    description="only the matches opened from a club preset of this name")]


def valid_name(body: PlayerCreate, settings: Settings) -> str:
    """The trimmed display name, or 422 ``invalid_name``."""
    try:
        return clean_name(body.name, settings.max_name_length)
    except ValueError as e:
        raise BadName(str(e)) from None


@router.post("", response_model=PlayerWithToken, status_code=201,
             responses=responses(BadName, RateLimited, body=True))
async def create_player(body: PlayerCreate, players: PlayersDep, settings: SettingsDep, request: Request) -> dict:
    """A new player and his token.  422 ``invalid_name``; 429 ``rate_limited`` past
    ``KOZYR_PLAYER_CREATE_BURST`` new players from one client address (refilled at
    ``KOZYR_PLAYER_CREATE_PER_MINUTE``): each new player may host rooms of his own."""
    return await players.create(valid_name(body, settings), client_address(request))


@router.get("/me", response_model=PlayerMe, responses=responses(*AUTH))
async def me(player: PlayerDep, deadlines: DeadlinesDep) -> dict:
    return {"id": player.id, "name": player.name, "away_until": await deadlines.away_until(player.id)}


@router.put("/me/away", response_model=PlayerMe, responses=responses(*AUTH, body=True))
async def set_away(body: Away, player: PlayerDep, deadlines: DeadlinesDep) -> dict:
    """Away (a vacation) until ``until``, or back now (null): the running deadlines of my
    seats in turn-based rooms stand still meanwhile, each room up to its
    ``vacation_days`` (README "Pace, deadlines ..."). A time past means back now; one
    more than 365 days ahead is taken as 365 days."""
    until = await deadlines.set_away(player.id, body.until)
    return {"id": player.id, "name": player.name, "away_until": until}


@router.patch("/me", response_model=PlayerPublic, responses=responses(*AUTH, BadName, body=True))
async def rename(body: PlayerCreate, player: PlayerDep, players: PlayersDep, settings: SettingsDep) -> dict:
    return await players.rename(player.id, valid_name(body, settings))


@router.get("/me/matches", response_model=list[MatchSummary], responses=responses(*AUTH))
async def my_matches(player: PlayerDep, history: HistoryDep,
                     variant: VariantFilter | None = None,
                     with_player: Annotated[int | None, Query(ge=1, le=MAX_ID,
                                                             description="only matches with this player too")] = None,
                     since: Timestamp | None = None, until: Timestamp | None = None,
                     status: StatusFilter | None = None, club: ClubFilter | None = None,
                     preset: PresetFilter | None = None,
                     limit: int = Query(50, ge=1, le=500), offset: Count = 0) -> list[dict]:
    return await run_in_threadpool(partial(
        history.matches, player_id=player.id, with_player=with_player, variant=variant,
        since=since, until=until, status=status, club=club, preset=preset, limit=limit, offset=offset))


@router.get("/me/games", response_model=list[MyGame], responses=responses(*AUTH))
async def my_games(player: PlayerDep, history: HistoryDep) -> list[dict]:
    """My running matches across rooms: those waiting for me first, then those waiting for
    others, the longest waiting first (README "My games")."""
    return await run_in_threadpool(history.games, player.id)


@router.put("/me/muted-rooms/{code}", status_code=204, responses=responses(*AUTH, *ROOM))
async def mute_room(code: RoomCode, player: PlayerDep, history: HistoryDep) -> Response:
    """Mute a room: My games still lists its matches, the header's count leaves them out."""
    await run_in_threadpool(history.mute, player.id, code, True)
    return Response(status_code=204)


@router.delete("/me/muted-rooms/{code}", status_code=204, responses=responses(*AUTH, *ROOM))
async def unmute_room(code: RoomCode, player: PlayerDep, history: HistoryDep) -> Response:
    await run_in_threadpool(history.mute, player.id, code, False)
    return Response(status_code=204)


@router.get("/{player_id}/stats", response_model=PlayerStats, responses=responses(UnknownPlayer))
async def stats(history: HistoryDep, player_id: Id, club: ClubFilter | None = None,
                preset: PresetFilter | None = None) -> dict:
    """What the player's finished deals say: deals, contracts declared and made, bids,
    marriages, Король titles (the typed score / role rows); with ``club`` / ``preset``
    only the matches of that club / opened from a preset of that name."""
    return await run_in_threadpool(partial(history.stats, player_id, club=club, preset=preset))
