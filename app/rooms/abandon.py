"""Stopping a match before its end (README "Abandoned matches").

The host sends ``end_match`` (the client asks him to confirm first): the match's
log gets a last entry ``abandon`` through the one path of an action
(MatchLoop.submit), so every process sees it by the same log and no action is
applied after it (LiveMatch.prepare refuses them).  The match gets status
``abandoned`` with the running totals as its result; the room option
``abandoned`` says whether it counts for standings and ratings (``counts``:
placed by those totals, app/ratings.py) or not (``ignored``, the default).
The host alone decides, as he alone starts matches and seats bots: everyone
at the table sees the match stopped, and by whom (the room message)."""

from __future__ import annotations

from .. import protocol as p
from .hub import Conn
from .live import ABANDON
from .loop import MatchLoop
from .service import RoomService


class Abandon:
    def __init__(self, rooms: RoomService, matches: MatchLoop) -> None:
        self.rooms = rooms
        self.matches = matches

    async def end_match(self, conn: Conn) -> None:
        error = self.rooms.error
        snap = await self.rooms.snapshot(conn.room_code)
        if snap["host"]["id"] != conn.player_id:
            return error(conn, p.NOT_HOST, "only the host ends the match")
        live = await self.matches.current(conn.room_code)
        if live is None or live.finished:
            return error(conn, p.NO_MATCH, "no match is being played in this room")
        if live.takeback is not None:
            return error(conn, p.TAKEBACK_OPEN, "a take-back request is open; end the match once it is answered")
        seat = conn.seat if conn.seat is not None else -1  # a host who watches
        # The server's own entry (no client_id, no ack): everyone sees the room message.
        if await self.matches.submit(live, seat, ABANDON, None, None) is None:
            error(conn, p.NO_MATCH, "the match could not be stopped now; try again")
        return None
