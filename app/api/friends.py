"""The player's page: ratings per family and their history, matches played / won,
head-to-head, the match list (JSON pages and CSV).  Aggregates in SQL
(app/db/ratings.py) over the typed ``standings`` rows."""

from __future__ import annotations

import csv
import io

from fastapi import APIRouter, Query
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from ..db import models as m
from ..db import ratings as sql
from ..db.errors import Missing
from ..ratings import ordinal
from .deps import KozyrDep

router = APIRouter(prefix="/api/players", tags=["player page"])


class UnknownPlayer(Missing):
    code = "unknown_player"


def _player(s, player_id: int) -> m.Player:
    row = s.get(m.Player, player_id)
    if row is None:
        raise UnknownPlayer(f"no player {player_id}")
    return row


@router.get("/{player_id}/page")
async def page(player_id: int, kozyr: KozyrDep) -> dict:
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
async def rating_history(player_id: int, family: str, kozyr: KozyrDep,
                         limit: int = Query(100, ge=1, le=1000),
                         before: int | None = Query(None, description="page on: the last id of the page before")
                         ) -> list[dict]:
    """The rating's history in one family, newest first (``before``: keyset paging)."""
    def read() -> list[dict]:
        with kozyr.db.read() as s:
            _player(s, player_id)
            rows = sql.rating_history(s, player_id, family, limit, before)
            return [{**r, "ordinal": ordinal(r["mu"], r["sigma"])} for r in rows]
    return await run_in_threadpool(read)


@router.get("/{player_id}/head-to-head")
async def head_to_head(player_id: int, kozyr: KozyrDep, limit: int = Query(50, ge=1, le=500),
                       offset: int = Query(0, ge=0)) -> list[dict]:
    """Everybody the player finished matches with: how many, how often placed ahead / behind."""
    def read() -> list[dict]:
        with kozyr.db.read() as s:
            _player(s, player_id)
            return sql.head_to_head(s, player_id, limit, offset)
    return await run_in_threadpool(read)


@router.get("/{player_id}/finished")
async def finished(player_id: int, kozyr: KozyrDep, limit: int = Query(50, ge=1, le=500),
                   offset: int = Query(0, ge=0)) -> list[dict]:
    """The player's finished matches, newest first: variant, seat, place, total."""
    def read() -> list[dict]:
        with kozyr.db.read() as s:
            _player(s, player_id)
            return sql.match_list(s, player_id, limit, offset)
    return await run_in_threadpool(read)


CSV_FIELDS = ["finished_at", "match", "variant", "family", "seat", "place", "total"]


@router.get("/{player_id}/matches.csv", response_class=Response,
            responses={200: {"content": {"text/csv": {}}}})
async def matches_csv(player_id: int, kozyr: KozyrDep) -> Response:
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
