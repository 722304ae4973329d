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
from starlette.concurrency import run_in_threadpool

from ..db import models as m
from ..db import ratings as sql
from ..db import store
from ..db.errors import (
    BotsDisabled,
    MatchRunning,
    Missing,
    NotAllowed,
    SeatTaken,
    TooManyBots,
    TooManyRooms,
    UnknownPlayer,
)
from ..errors import responses
from ..ratings import ordinal
from .deps import AUTH, ROOM, KozyrDep, PlayerDep, RoomCode
from .rooms import with_invite
from .schemas import FAMILIES, MAX_ID, Count, MatchKey, enum, known

router = APIRouter(prefix="/api/players", tags=["player page"])
others = APIRouter(tags=["friends"])  # routes outside /api/players (main.py includes both)
CALL_HOURS = 12  # a call shows on the home page this long
PlayerId = Annotated[int, Path(ge=1, le=MAX_ID, description="a player's id")]
PLAYER = responses(UnknownPlayer)


async def _of_player(kozyr, player_id: int, fn):
    """``fn(conn)`` in a worker thread on a bare Connection (Core selects, no ORM session),
    after checking the player exists (404 otherwise)."""
    def read():
        with kozyr.db.engine.connect() as c:
            _player(c, player_id)
            return fn(c)
    return await run_in_threadpool(read)


def _player(c, player_id: int) -> dict:
    row = sql.player_row(c, player_id)
    if row is None:
        raise UnknownPlayer(f"no player {player_id}")
    return row


@router.get("/{player_id}/page", responses=PLAYER)
async def page(player_id: PlayerId, kozyr: KozyrDep) -> dict:
    """Who, ratings per family (``ordinal`` = mu - 3 sigma), per family: played, won, and
    ``stats``: Тысяча contracts made / average contract / marriages, Кинг average per
    contract, Король reigns as each title."""
    def read() -> dict:
        with kozyr.db.engine.connect() as c:
            p = _player(c, player_id)
            ratings = [{**r, "ordinal": ordinal(r["mu"], r["sigma"])} for r in sql.ratings_of(c, player_id)]
            totals = sql.totals_of(c, player_id)
            return {"player": p, "ratings": ratings, "record": sql.record_by_family(c, player_id, totals),
                    "stats": sql.family_stats(c, player_id, totals)}
    return await run_in_threadpool(read)


Family = Annotated[str, Path(max_length=32, description="a family", json_schema_extra=enum(FAMILIES)),
                   known(FAMILIES)]


@router.get("/{player_id}/ratings/{family}", responses=PLAYER)
async def rating_history(player_id: PlayerId, family: Family, kozyr: KozyrDep,
                         limit: int = Query(100, ge=1, le=1000),
                         before: int | None = Query(None, ge=1, le=MAX_ID,
                                                    description="page on: the last id of the page before")
                         ) -> list[dict]:
    """The rating's history in one family, newest first, ``n``: the player's n-th rated
    match there (``before``: keyset paging)."""
    rows = await _of_player(kozyr, player_id, lambda c: sql.rating_history(c, player_id, family, limit, before))
    return [{**r, "ordinal": ordinal(r["mu"], r["sigma"])} for r in rows]


@router.get("/{player_id}/ratings/{family}/chart", responses=PLAYER)
async def rating_chart(player_id: PlayerId, family: Family, kozyr: KozyrDep,
                       points: int = Query(120, ge=2, le=1000, description="at most this many points")) -> dict:
    """The rating's history for a chart, oldest first: every rated match when there are at
    most ``points``, else ``points`` of them spread evenly from the first to the last
    (``n`` says which; ``matches``: how many there are)."""
    out = await _of_player(kozyr, player_id, lambda c: sql.rating_chart(c, player_id, family, points))
    for x in out["points"]:
        x["ordinal"] = ordinal(x["mu"], x["sigma"])
    return out


@router.get("/{player_id}/head-to-head", responses=PLAYER)
async def head_to_head(player_id: PlayerId, kozyr: KozyrDep, limit: int = Query(50, ge=1, le=500),
                       offset: Count = 0) -> list[dict]:
    """Everybody the player finished matches with: how many, how often placed ahead / behind
    (most matches together first)."""
    return await _of_player(kozyr, player_id, lambda c: sql.head_to_head(c, player_id, limit, offset))


@router.get("/{player_id}/finished", responses=responses(UnknownPlayer, sql.UnknownCursor))
async def finished(player_id: PlayerId, kozyr: KozyrDep, limit: int = Query(50, ge=1, le=500),
                   before: Annotated[MatchKey | None, Query(description="page on: the last match id of the page before")]
                   = None,
                   offset: Annotated[Count, Query(description="(older clients) rows to skip")] = 0
                   ) -> list[dict]:
    """The player's finished matches, newest first: variant, seat, place, total.  Page on
    with ``before`` (keyset: as fast on the 500th page as on the first); 422
    ``unknown_cursor`` if it is not one of the player's finished matches."""
    return await _of_player(kozyr, player_id, lambda c: sql.match_list(c, player_id, limit, offset, before))


CSV_FIELDS = ["finished_at", "match", "variant", "family", "seat", "place", "total", "room"]
CSV_PAGE = 1000


@router.get("/{player_id}/matches.csv", response_class=Response,
            responses={200: {"content": {"text/csv": {}}}, **PLAYER})
async def matches_csv(player_id: PlayerId, kozyr: KozyrDep) -> Response:
    """Every finished match of the player as CSV, newest first (the columns of ``finished``),
    streamed a keyset page of CSV_PAGE rows at a time."""
    await _of_player(kozyr, player_id, lambda c: None)  # 404 before the first byte

    def rows():
        out = io.StringIO()
        w = csv.DictWriter(out, CSV_FIELDS, lineterminator="\n")
        w.writeheader()
        with kozyr.db.engine.connect() as c:
            before = None
            while page := sql.match_list(c, player_id, CSV_PAGE, before=before):
                w.writerows(page)
                before = page[-1]["match"]
                yield out.getvalue()
                out.seek(0)
                out.truncate()
        if out.tell():
            yield out.getvalue()
    return StreamingResponse(rows(), media_type="text/csv; charset=utf-8",  # sync: iterated in a thread
                             headers={"Content-Disposition": f'attachment; filename="kozyr-player-{player_id}.csv"'})


# -- "new room with the same people" -------------------------------------------------------


class NotInMatch(NotAllowed):
    code = "not_in_match"


@others.post("/api/rooms/{code}/again", status_code=201, responses=responses(
    *AUTH, *ROOM, NotInMatch, TooManyRooms, SeatTaken, MatchRunning, BotsDisabled, TooManyBots))
async def again(code: RoomCode, player: PlayerDep, kozyr: KozyrDep, request: Request) -> dict:
    """A new room like this one (variant, options, seats, rated, turn timeout) hosted by the
    caller, who must have played its last match: he takes his seat, the bots theirs, and
    every other person of that match is called (``GET /api/players/me/calls``)."""
    room = await kozyr.rooms.room(code)
    match = room["match"]

    def seats() -> list[dict]:
        with kozyr.db.read() as s:
            return store.match_seats(s, match["id"]) if match else []
    played = await run_in_threadpool(seats)
    mine = next((x["seat"] for x in played if x["player"] == player.id), None)
    if mine is None:
        raise NotInMatch("only a player of this room's last match calls its people to a new room")
    new = await run_in_threadpool(
        lambda: kozyr.rooms.create_room(player, room["variant"], room["options"], room["seat_count"], False,
                                        room["takeover_seconds"] or 0, room.get("rated", False),
                                        room.get("takeback"), room.get("abandoned", "ignored")))
    new_code = new["code"]
    await kozyr.rooms.change_seat(new_code, mine, player, take=True)
    for x in played:
        if x["bot_key"]:
            level = x["bot_key"].rsplit("-", 1)[0]
            new = await kozyr.rooms.change_bot(new_code, x["seat"], player, level)
    people = [x["player"] for x in played if not x["bot_key"] and x["player"] != player.id]

    def call() -> None:
        with kozyr.db.write() as s:
            sql.add_calls(s, store.room_by_code(s, new_code).id, player.id, people)
    await run_in_threadpool(call)
    out = with_invite(await kozyr.rooms.room(new_code), request)
    return {"room": out, "called": people}


@router.get("/me/calls", responses=responses(*AUTH))
async def my_calls(player: PlayerDep, kozyr: KozyrDep) -> list[dict]:
    """Open calls to new rooms with the same people (the home page shows them)."""
    since = m.utcnow() - timedelta(hours=CALL_HOURS)

    def read() -> list[dict]:
        with kozyr.db.read() as s:
            return sql.open_calls(s, player.id, since)
    return await run_in_threadpool(read)


@router.delete("/me/calls/{call_id}", status_code=204, responses=responses(*AUTH, Missing))
async def dismiss(call_id: Annotated[int, Path(ge=1, le=MAX_ID)], player: PlayerDep, kozyr: KozyrDep) -> Response:
    def write() -> bool:
        with kozyr.db.write() as s:
            return sql.dismiss_call(s, player.id, call_id)
    if not await run_in_threadpool(write):
        raise Missing(f"no call {call_id} of yours")
    return Response(status_code=204)
