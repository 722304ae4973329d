"""The player's page: ratings per family and their history, matches played / won,
head-to-head, the match list (JSON pages and CSV pages), and the calls to new rooms
with the same people.  Aggregates in SQL (app/db/ratings.py) over the typed
``standings`` rows, on a bare Connection (Core selects, no ORM session)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from typing import TypeVar

from anyio import to_thread
from sqlalchemy.engine import Connection

from .db import ratings as sql
from .db.errors import Missing, UnknownPlayer
from .db.session import Database
from .ratings import ordinal

T = TypeVar("T")


def _player(c: Connection, player_id: int) -> dict:
    row = sql.player_row(c, player_id)
    if row is None:
        raise UnknownPlayer(f"no player {player_id}")
    return row


class PlayerPages:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def _connected(self, fn: Callable[[Connection], T]) -> T:
        """``fn(connection)`` in a worker thread."""
        def read() -> T:
            with self.db.engine.connect() as c:
                return fn(c)
        return await to_thread.run_sync(read)

    async def _of_player(self, player_id: int, fn: Callable[[Connection], T]) -> T:
        """``fn(connection)`` in a worker thread, after checking the player exists (404
        otherwise)."""
        def read(c: Connection) -> T:
            _player(c, player_id)
            return fn(c)
        return await self._connected(read)

    async def page(self, player_id: int) -> dict:
        """Who, ratings per family (``ordinal`` = mu - 3 sigma), per family: played, won,
        and ``stats``."""
        def read(c: Connection) -> dict:
            p = _player(c, player_id)
            ratings = [{**r, "ordinal": ordinal(r["mu"], r["sigma"])} for r in sql.ratings_of(c, player_id)]
            totals = sql.totals_of(c, player_id)
            return {"player": p, "ratings": ratings, "record": sql.record_by_family(c, player_id, totals),
                    "stats": sql.family_stats(c, player_id, totals)}
        return await self._connected(read)

    async def rating_history(self, player_id: int, family: str, limit: int, before: int | None,
                             club: int | None = None, preset: str | None = None) -> list[dict]:
        rows = await self._of_player(player_id, lambda c: sql.rating_history(c, player_id, family, limit, before,
                                                                             club, preset))
        return [{**r, "ordinal": ordinal(r["mu"], r["sigma"])} for r in rows]

    async def rating_chart(self, player_id: int, family: str, points: int) -> dict:
        out = await self._of_player(player_id, lambda c: sql.rating_chart(c, player_id, family, points))
        for x in out["points"]:
            x["ordinal"] = ordinal(x["mu"], x["sigma"])
        return out

    async def head_to_head(self, player_id: int, limit: int, offset: int) -> list[dict]:
        return await self._of_player(player_id, lambda c: sql.head_to_head(c, player_id, limit, offset))

    async def finished(self, player_id: int, limit: int, offset: int, before: str | None) -> list[dict]:
        return await self._of_player(player_id, lambda c: sql.match_list(c, player_id, limit, offset, before))

    async def check(self, player_id: int) -> None:
        """UnknownPlayer unless the player exists."""
        await self._of_player(player_id, lambda c: None)

    def finished_pages(self, player_id: int, size: int) -> Iterator[list[dict]]:
        """(Iterated in a worker thread.)  Every finished match of the player, newest
        first, a keyset page of ``size`` rows at a time, on one connection."""
        with self.db.engine.connect() as c:
            before = None
            while page := sql.match_list(c, player_id, size, before=before):
                yield page
                before = page[-1]["match"]

    # -- calls to a new room with the same people ------------------------------------------

    async def open_calls(self, player_id: int, since: datetime) -> list[dict]:
        def read() -> list[dict]:
            with self.db.read() as s:
                return sql.open_calls(s, player_id, since)
        return await to_thread.run_sync(read)

    async def dismiss_call(self, player_id: int, call_id: int) -> None:
        """Missing unless it is an open call of the player's."""
        def write() -> bool:
            with self.db.write() as s:
                return sql.dismiss_call(s, player_id, call_id)
        if not await to_thread.run_sync(write):
            raise Missing(f"no call {call_id} of yours")
