"""The player's page: ratings per family and their history, matches played / won,
head-to-head, the match list (JSON pages and CSV).  Aggregates in SQL
(app/db/ratings.py) over the typed ``standings`` rows."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from ..db import models as m
from ..db import ratings as sql
from ..db import store
from ..db.errors import Missing, NotAllowed, UnknownPlayer
from ..ratings import ordinal
from .deps import KozyrDep, PlayerDep, RoomCode
from .rooms import with_invite

router = APIRouter(prefix="/api/players", tags=["player page"])
others = APIRouter(tags=["friends"])  # routes outside /api/players (main.py includes both)
CALL_HOURS = 12  # a call shows on the home page this long
MAX_ID = 2**31 - 1  # ids are 32-bit integers in both databases
PlayerId = Annotated[int, Path(ge=1, le=MAX_ID, description="a player's id")]


async def _of_player(kozyr, player_id: int, fn):
    """``fn(session)`` in a worker thread, after checking the player exists (404 otherwise)."""
    def read():
        with kozyr.db.read() as s:
            _player(s, player_id)
            return fn(s)
    return await run_in_threadpool(read)


def _player(s, player_id: int) -> m.Player:
    row = s.get(m.Player, player_id)
    if row is None:
        raise UnknownPlayer(f"no player {player_id}")
    return row


@router.get("/{player_id}/page")
async def page(player_id: PlayerId, kozyr: KozyrDep) -> dict:
    """Who, ratings per family (``ordinal`` = mu - 3 sigma), per family: played, won, and
    ``stats``: Тысяча contracts made / average contract / marriages, Кинг average per
    contract, Король reigns as each title."""
    def read() -> dict:
        with kozyr.db.read() as s:
            p = _player(s, player_id)
            ratings = [{**r, "ordinal": ordinal(r["mu"], r["sigma"])} for r in sql.ratings_of(s, player_id)]
            totals = sql.totals_of(s, player_id)
            return {"player": {"id": p.id, "name": p.name, "bot_key": p.bot_key},
                    "ratings": ratings, "record": sql.record_by_family(s, player_id, totals),
                    "stats": sql.family_stats(s, player_id, totals)}
    return await run_in_threadpool(read)


@router.get("/{player_id}/ratings/{family}")
async def rating_history(player_id: PlayerId, family: str, kozyr: KozyrDep,
                         limit: int = Query(100, ge=1, le=1000),
                         before: int | None = Query(None, ge=1, le=MAX_ID,
                                                    description="page on: the last id of the page before")
                         ) -> list[dict]:
    """The rating's history in one family, newest first (``before``: keyset paging)."""
    rows = await _of_player(kozyr, player_id, lambda s: sql.rating_history(s, player_id, family, limit, before))
    return [{**r, "ordinal": ordinal(r["mu"], r["sigma"])} for r in rows]


@router.get("/{player_id}/head-to-head")
async def head_to_head(player_id: PlayerId, kozyr: KozyrDep, limit: int = Query(50, ge=1, le=500),
                       offset: int = Query(0, ge=0, le=MAX_ID)) -> list[dict]:
    """Everybody the player finished matches with: how many, how often placed ahead / behind."""
    return await _of_player(kozyr, player_id, lambda s: sql.head_to_head(s, player_id, limit, offset))


@router.get("/{player_id}/finished")
async def finished(player_id: PlayerId, kozyr: KozyrDep, limit: int = Query(50, ge=1, le=500),
                   offset: int = Query(0, ge=0, le=MAX_ID)) -> list[dict]:
    """The player's finished matches, newest first: variant, seat, place, total."""
    return await _of_player(kozyr, player_id, lambda s: sql.match_list(s, player_id, limit, offset))


CSV_FIELDS = ["finished_at", "match", "variant", "family", "seat", "place", "total", "room"]


@router.get("/{player_id}/matches.csv", response_class=Response,
            responses={200: {"content": {"text/csv": {}}}})
async def matches_csv(player_id: PlayerId, kozyr: KozyrDep) -> Response:
    """Every finished match of the player as CSV (newest first)."""
    def read() -> str:
        out = io.StringIO()
        w = csv.DictWriter(out, CSV_FIELDS, lineterminator="\n")
        w.writeheader()
        with kozyr.db.read() as s:
            _player(s, player_id)
            offset = 0
            while rows := sql.match_list(s, player_id, 1000, offset):
                w.writerows(rows)
                offset += len(rows)
        return out.getvalue()
    body = await run_in_threadpool(read)
    return Response(body, media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="kozyr-player-{player_id}.csv"'})


# -- "new room with the same people" -------------------------------------------------------


class NotInMatch(NotAllowed):
    code = "not_in_match"


@others.post("/api/rooms/{code}/again", status_code=201)
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


@router.get("/me/calls")
async def my_calls(player: PlayerDep, kozyr: KozyrDep) -> list[dict]:
    """Open calls to new rooms with the same people (the home page shows them)."""
    since = m.utcnow() - timedelta(hours=CALL_HOURS)

    def read() -> list[dict]:
        with kozyr.db.read() as s:
            return sql.open_calls(s, player.id, since)
    return await run_in_threadpool(read)


@router.delete("/me/calls/{call_id}", status_code=204)
async def dismiss(call_id: Annotated[int, Path(ge=1, le=MAX_ID)], player: PlayerDep, kozyr: KozyrDep) -> Response:
    def write() -> bool:
        with kozyr.db.write() as s:
            return sql.dismiss_call(s, player.id, call_id)
    if not await run_in_threadpool(write):
        raise Missing(f"no call {call_id} of yours")
    return Response(status_code=204)


@others.get("/api/matches/{match_id}/scoresheet.csv", response_class=Response,
            responses={200: {"content": {"text/csv": {}}}})
async def scoresheet_csv(match_id: str, kozyr: KozyrDep) -> Response:
    """The scoresheet (a row per finished deal: scores and totals per seat) and, where the
    family has one, the role table (a row per round: each seat's title and tricks)."""
    detail = await run_in_threadpool(kozyr.history.detail, match_id)
    names = [x["name"] for x in detail["seats"]]
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["deal", "dealer", *[f"{n} score" for n in names], *[f"{n} total" for n in names]])
    for row in detail["scoresheet"]:
        scores, totals = row.get("scores") or [], row.get("totals") or []
        w.writerow([row.get("deal"), row.get("dealer"), *scores, *totals])
    if detail["role_table"]:
        w.writerow([])
        w.writerow(["round", *[f"{n} title" for n in names], *[f"{n} tricks" for n in names]])
        for row in detail["role_table"]:
            w.writerow([row.get("round"), *(row.get("titles") or []), *(row.get("tricks") or [])])
    return Response(out.getvalue(), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="kozyr-{match_id}.csv"'})
