"""Players: no sign-up; a random token and a display name."""

from __future__ import annotations

from functools import partial
from typing import Annotated

from fastapi import APIRouter, Query, Request
from starlette.concurrency import run_in_threadpool

from ..db.errors import BadName, RateLimited, UnknownPlayer
from ..errors import responses
from ..limits import address_guard
from ..rooms.text import clean_name
from .deps import AUTH, KozyrDep, PlayerDep, client_address
from .schemas import (
    MAX_ID,
    Count,
    Id,
    MatchSummary,
    PlayerCreate,
    PlayerPublic,
    PlayerStats,
    PlayerWithToken,
    StatusFilter,
    Timestamp,
    VariantFilter,
)

router = APIRouter(prefix="/api/players", tags=["players"])


def valid_name(body: PlayerCreate, kozyr) -> str:
    """The trimmed display name, or 422 ``invalid_name``."""
    try:
        return clean_name(body.name, kozyr.settings.max_name_length)
    except ValueError as e:
        raise BadName(str(e)) from None


@router.post("", response_model=PlayerWithToken, status_code=201,
             responses=responses(BadName, RateLimited, body=True))
async def create_player(body: PlayerCreate, kozyr: KozyrDep, request: Request) -> dict:
    """A new player and his token.  422 ``invalid_name``; 429 ``rate_limited`` past
    ``KOZYR_PLAYER_CREATE_BURST`` new players from one client address (refilled at
    ``KOZYR_PLAYER_CREATE_PER_MINUTE``): each new player may host rooms of his own."""
    name = valid_name(body, kozyr)
    settings = kozyr.settings
    address_guard(request.app.state, "player_create_guard", settings.player_create_burst,
                  settings.player_create_per_minute,
                  "too many new players from your address; wait a minute").take(client_address(request))
    out = await run_in_threadpool(kozyr.history.create_player, name)
    kozyr.remember_token(out["token"], out["id"], out["name"])
    return out


@router.get("/me", response_model=PlayerPublic, responses=responses(*AUTH))
async def me(player: PlayerDep) -> dict:
    return {"id": player.id, "name": player.name}


@router.patch("/me", response_model=PlayerPublic, responses=responses(*AUTH, BadName, body=True))
async def rename(body: PlayerCreate, player: PlayerDep, kozyr: KozyrDep) -> dict:
    name = valid_name(body, kozyr)

    out = await run_in_threadpool(kozyr.history.rename, player.id, name)
    kozyr.renamed(player.id)
    return out


@router.get("/me/matches", response_model=list[MatchSummary], responses=responses(*AUTH))
async def my_matches(player: PlayerDep, kozyr: KozyrDep,
                     variant: VariantFilter | None = None,
                     with_player: Annotated[int | None, Query(ge=1, le=MAX_ID,
                                                             description="only matches with this player too")] = None,
                     since: Timestamp | None = None, until: Timestamp | None = None,
                     status: StatusFilter | None = None,
                     limit: int = Query(50, ge=1, le=500), offset: Count = 0) -> list[dict]:
    return await run_in_threadpool(partial(
        kozyr.history.matches, player_id=player.id, with_player=with_player, variant=variant,
        since=since, until=until, status=status, limit=limit, offset=offset))


@router.get("/{player_id}/stats", response_model=PlayerStats, responses=responses(UnknownPlayer))
async def stats(kozyr: KozyrDep, player_id: Id) -> dict:
    """What the player's finished deals say: deals, contracts declared and made, bids,
    marriages, Король titles (the typed score / role rows)."""
    return await run_in_threadpool(kozyr.history.stats, player_id)
