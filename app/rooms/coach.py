"""The coach at the table (issue 36): a seated player whose turn it is asks ``hint`` and
gets the strong bot's choice for his seat with a reason (engine/bots/coach.py), on his
socket only.  Only in a room with the coach on — never a rated one (the room service
refuses the combination) — and every seat sees ``coach: true`` in the room.

A hint is worked out in the bots' worker processes (botpool.py) from the match's log,
like a strong bot's move, and from the seat's view and determinized copies only.  The
answer for one seat at one version is kept (asking again costs nothing); new answers
are limited per player (``coach_hint_burst`` at once, ``coach_hints_per_minute``)."""

from __future__ import annotations

import hashlib
import logging
from collections import OrderedDict

from .. import protocol as p
from ..config import Settings
from ..db.errors import RateLimited
from ..limits import CodeGuard
from .botpool import BotPool, ask_for
from .hub import Conn
from .loop import MatchLoop
from .service import RoomService

log = logging.getLogger("kozyr.coach")

KEPT = 512  # hints kept (match, version, seat)


class Coach:
    def __init__(self, settings: Settings, rooms: RoomService, matches: MatchLoop, pool: BotPool) -> None:
        self.settings = settings
        self.rooms = rooms
        self.matches = matches
        self.pool = pool
        self.kept: OrderedDict[tuple[str, int, int], dict] = OrderedDict()
        self.limit = CodeGuard(settings.coach_hint_burst, settings.coach_hints_per_minute,
                               message="too many hints in a minute; wait a little")
        self.given = 0  # hints worked out (tests, metrics)

    async def hint(self, conn: Conn) -> None:
        """``hint``: the coach's advice for the asking seat, now."""
        error = self.rooms.error
        snap = await self.rooms.snapshot(conn.room_code)
        if not snap.get("coach"):
            return error(conn, p.COACH_OFF, "the coach is off in this room")
        if conn.seat is None:
            return error(conn, p.NOT_SEATED, "you hold no seat in this room; the coach helps players")
        live = await self.matches.current(conn.room_code)
        if live is None or live.finished:
            return error(conn, p.NO_MATCH, "no match is being played in this room")
        async with live.lock:
            if conn.seat not in live.engine.to_act():
                return error(conn, p.NOT_YOUR_TURN, "the coach advises at your turn; it is not your turn")
            key = (live.id, live.version, conn.seat)
            answer = self.kept.get(key)
            if answer is None:
                try:
                    self.limit.take(str(conn.player_id))
                except RateLimited as e:
                    return error(conn, p.RATE_LIMITED, str(e))
                # The same seat at the same version gets the same advice on every process.
                seed = int.from_bytes(hashlib.blake2b(repr(key).encode(), digest_size=4).digest(), "big")
                ask = ask_for(live, conn.seat, "strong", seed, self.settings.bot_think_ms)
        if answer is None:
            try:
                answer = await self.pool.advise(ask)
            except Exception:
                log.exception("match %s: the coach failed", key[0])
                return error(conn, p.INTERNAL, "the coach could not work out a hint; try again")
            self.given += 1
            self.kept[key] = answer
            while len(self.kept) > KEPT:
                self.kept.popitem(last=False)
        conn.send({"type": "hint", "version": key[1], "match": key[0], "seat": key[2],
                   "action": answer["action"], "reason": answer["reason"]})
