"""Players: no sign-up; a random token and a display name."""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, Query
from starlette.concurrency import run_in_threadpool

from ..db import models as m
from ..db import store
from ..errors import Invalid
from ..rooms.text import clean_name
from .deps import KozyrDep, PlayerDep
from .matches import summaries
from .schemas import MatchSummary, PlayerCreate, PlayerPublic, PlayerWithToken

router = APIRouter(prefix="/api/players", tags=["players"])


def valid_name(body: PlayerCreate, kozyr) -> str:
    """The trimmed display name, or 422 ``invalid_name``."""
    try:
        return clean_name(body.name, kozyr.settings.max_name_length)
    except ValueError as e:
        raise Invalid(str(e), code="invalid_name") from None


@router.post("", response_model=PlayerWithToken, status_code=201)
async def create_player(body: PlayerCreate, kozyr: KozyrDep) -> dict:
    name = valid_name(body, kozyr)

    def work() -> dict:
        with kozyr.db.write() as s:
            player, token = store.create_player(s, name)
            return {"id": player.id, "name": player.name, "token": token}
    return await run_in_threadpool(work)


@router.get("/me", response_model=PlayerPublic)
async def me(player: PlayerDep) -> dict:
    return {"id": player.id, "name": player.name}


@router.patch("/me", response_model=PlayerPublic)
async def rename(body: PlayerCreate, player: PlayerDep, kozyr: KozyrDep) -> dict:
    name = valid_name(body, kozyr)

    def work() -> dict:
        with kozyr.db.write() as s:
            row = s.get(m.Player, player.id)
            row.name = name
            return {"id": row.id, "name": row.name}
    return await run_in_threadpool(work)


@router.get("/me/matches", response_model=list[MatchSummary])
async def my_matches(player: PlayerDep, kozyr: KozyrDep,
                     variant: str | None = None,
                     with_player: int | None = Query(None, description="only matches with this player too"),
                     since: datetime | None = None, until: datetime | None = None,
                     status: str | None = None,
                     limit: int = Query(50, ge=1, le=500), offset: int = Query(0, ge=0)) -> list[dict]:
    def work() -> list[dict]:
        with kozyr.db.read() as s:
            rows = store.list_matches(s, player_id=player.id, variant=variant, since=since,
                                      until=until, status=status, limit=limit + offset + 500 if with_player
                                      else limit, offset=0 if with_player else offset)
            out = summaries(s, kozyr, rows)
            if with_player is not None:
                out = [x for x in out if any(p["player"] == with_player for p in x["seats"])]
                out = out[offset:offset + limit]
            return out
    return await run_in_threadpool(work)
