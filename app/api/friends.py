"""The player's page: ratings per family and their history, matches played / won,
head-to-head, the match list (JSON pages and CSV).  Aggregates in SQL
(app/db/ratings.py) over the typed ``standings`` rows."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response, StreamingResponse

from ..db import models as m
from ..db import ratings as sql
from ..db.errors import (
    BotsDisabled,
    MatchRunning,
    Missing,
    NotInMatch,
    SeatTaken,
    TooManyBots,
    TooManyRooms,
    UnknownPlayer,
)
from ..errors import responses
from .deps import AUTH, ROOM, PagesDep, PlayerDep, RoomCode, RoomsDep
from .players import ClubFilter, PresetFilter
from .rooms import with_invite
from .schemas import FAMILIES, MAX_ID, Count, MatchKey, enum, known

router = APIRouter(prefix="/api/players", tags=["player page"])
others = APIRouter(tags=["friends"])  # routes outside /api/players (main.py includes both)
CALL_HOURS = 12  # a call shows on the home page this long
PlayerId = Annotated[int, Path(ge=1, le=MAX_ID, description="a player's id")]
PLAYER = responses(UnknownPlayer)


@router.get("/{player_id}/page", responses=PLAYER)
async def page(player_id: PlayerId, pages: PagesDep) -> dict:
    """Who, ratings per family (``ordinal`` = mu - 3 sigma), per family: played, won, and
    ``stats``: Тысяча contracts made / average contract / marriages, Кинг average per
    contract, Король reigns as each title."""
    return await pages.page(player_id)


Family = Annotated[str, Path(max_length=32, description="a family", json_schema_extra=enum(FAMILIES)),
                   known(FAMILIES)]


@router.get("/{player_id}/ratings/{family}", responses=PLAYER)
async def rating_history(player_id: PlayerId, family: Family, pages: PagesDep,
                         limit: int = Query(100, ge=1, le=1000),
                         before: int | None = Query(None, ge=1, le=MAX_ID,
                                                    description="page on: the last id of the page before"),
                         club: ClubFilter | None = None, preset: PresetFilter | None = None) -> list[dict]:
    """The rating's history in one family, newest first, ``n``: the player's n-th rated
    match there (``before``: keyset paging); ``club`` / ``preset``: how the rating moved
    in that club's matches / a preset's (the rating stays the one over all matches)."""
    return await pages.rating_history(player_id, family, limit, before, club, preset)


@router.get("/{player_id}/ratings/{family}/chart", responses=PLAYER)
async def rating_chart(player_id: PlayerId, family: Family, pages: PagesDep,
                       points: int = Query(120, ge=2, le=1000, description="at most this many points")) -> dict:
    """The rating's history for a chart, oldest first: every rated match when there are at
    most ``points``, else ``points`` of them spread evenly from the first to the last
    (``n`` says which; ``matches``: how many there are)."""
    return await pages.rating_chart(player_id, family, points)


@router.get("/{player_id}/head-to-head", responses=PLAYER)
async def head_to_head(player_id: PlayerId, pages: PagesDep, limit: int = Query(50, ge=1, le=500),
                       offset: Count = 0) -> list[dict]:
    """Everybody the player finished matches with: how many, how often placed ahead / behind
    (most matches together first)."""
    return await pages.head_to_head(player_id, limit, offset)


@router.get("/{player_id}/finished", responses=responses(UnknownPlayer, sql.UnknownCursor))
async def finished(player_id: PlayerId, pages: PagesDep, limit: int = Query(50, ge=1, le=500),
                   before: Annotated[MatchKey | None, Query(description="page on: the last match id of the page before")]
                   = None,
                   offset: Annotated[Count, Query(description="(older clients) rows to skip")] = 0
                   ) -> list[dict]:
    """The player's finished matches, newest first: variant, seat, place, total.  Page on
    with ``before`` (keyset: as fast on the 500th page as on the first); 422
    ``unknown_cursor`` if it is not one of the player's finished matches."""
    return await pages.finished(player_id, limit, offset, before)


CSV_FIELDS = ["finished_at", "match", "variant", "family", "seat", "place", "total", "room"]
CSV_PAGE = 1000


@router.get("/{player_id}/matches.csv", response_class=Response,
            responses={200: {"content": {"text/csv": {}}}, **PLAYER})
async def matches_csv(player_id: PlayerId, pages: PagesDep) -> Response:
    """Every finished match of the player as CSV, newest first (the columns of ``finished``),
    streamed a keyset page of CSV_PAGE rows at a time."""
    await pages.check(player_id)  # 404 before the first byte

    def rows():
        out = io.StringIO()
        w = csv.DictWriter(out, CSV_FIELDS, lineterminator="\n")
        w.writeheader()
        for page in pages.finished_pages(player_id, CSV_PAGE):
            w.writerows(page)
            yield out.getvalue()
            out.seek(0)
            out.truncate()
        if out.tell():
            yield out.getvalue()
    return StreamingResponse(rows(), media_type="text/csv; charset=utf-8",  # sync: iterated in a thread
                             headers={"Content-Disposition": f'attachment; filename="kozyr-player-{player_id}.csv"'})


# -- "new room with the same people" -------------------------------------------------------


@others.post("/api/rooms/{code}/again", status_code=201, responses=responses(
    *AUTH, *ROOM, NotInMatch, TooManyRooms, SeatTaken, MatchRunning, BotsDisabled, TooManyBots))
async def again(code: RoomCode, player: PlayerDep, rooms: RoomsDep, request: Request) -> dict:
    """A new room like this one (variant, options, seats, rated, turn timeout) hosted by the
    caller, who must have played its last match: he takes his seat, the bots theirs, and
    every other person of that match is called (``GET /api/players/me/calls``); one
    transaction (RoomService.again)."""
    room, people = await rooms.again(code, player)
    return {"room": with_invite(room, request), "called": people}


@router.get("/me/calls", responses=responses(*AUTH))
async def my_calls(player: PlayerDep, pages: PagesDep) -> list[dict]:
    """Open calls to new rooms with the same people (the home page shows them)."""
    return await pages.open_calls(player.id, m.utcnow() - timedelta(hours=CALL_HOURS))


@router.delete("/me/calls/{call_id}", status_code=204, responses=responses(*AUTH, Missing))
async def dismiss(call_id: Annotated[int, Path(ge=1, le=MAX_ID)], player: PlayerDep, pages: PagesDep) -> Response:
    await pages.dismiss_call(player.id, call_id)
    return Response(status_code=204)
