"""What a room's match needs of the rooms (service.py), the match loop (loop.py) and
the bots (bots.py) together: starting a match, the turn timeout, a person's
``action``, ``back`` and ``takeover``, another process's new match, a room left
empty."""

from __future__ import annotations

import asyncio
import time

from .. import protocol as p
from ..db import store
from .bots import BotRunner
from .hub import Conn
from .live import ABANDON, LiveMatch
from .loop import MatchLoop
from .service import Caller, RoomService


class Play:
    def __init__(self, rooms: RoomService, matches: MatchLoop, bots: BotRunner) -> None:
        self.rooms = rooms
        self.matches = matches
        self.bots = bots
        self.nudged: dict[str, tuple[int, int]] = {}  # match -> (version, seat) last pushed "turn"
        self.waits: set[asyncio.Task] = set()  # hidden pages' checks under way
        bots.changed = self.nudge  # after every change of a match: is a hidden page awaited?

    # -- REST ------------------------------------------------------------------------------

    async def start_match(self, code: str, player: Caller, *, seed: int | None = None) -> dict:
        """The host starts a match (or a rematch): everyone's view, the bots wake."""
        room, live = await self.rooms.start_match(code, player, seed=seed)
        if live is not None:
            async with live.lock:
                self.matches.push_views(live)
            await self.bots.poke(live)
        return room

    async def set_clock(self, code: str, player: Caller, changes: dict) -> dict:
        """The host changes the room's turn timeout (None / 0: off) or pace; applies at once."""
        snap = await self.rooms.write_settings(code, player, changes)
        live = await self.matches.current(code)  # loaded if it had left memory
        await self.bots.pace_changed(live.id if live is not None else None,
                                     store.pace_of(snap))
        return await self.rooms.changed(snap)

    # -- websocket messages ------------------------------------------------------------------

    async def act(self, conn: Conn, msg: p.ActionIn) -> None:
        """A person's ``action``: the seat checked, then the match loop's one path."""
        received = time.perf_counter()
        error = self.rooms.error
        if conn.seat is None:
            return error(conn, p.NOT_SEATED, "you hold no seat in this room; spectators cannot act",
                         msg.client_id)
        if msg.seat is not None and msg.seat != conn.seat:
            return error(conn, p.NOT_YOUR_SEAT, f"you hold seat {conn.seat}, not seat {msg.seat}",
                         msg.client_id)
        live = await self.matches.current(conn.room_code)
        if live is None:
            return error(conn, p.NO_MATCH, "no match has been started in this room", msg.client_id)
        if msg.action == ABANDON:  # the server's own entry (app/rooms/abandon.py)
            return error(conn, p.ILLEGAL, "the host stops a match with the end_match message",
                         msg.client_id)
        await self.matches.submit(live, conn.seat, msg.action, msg.client_id, msg.version,
                                  conn=conn, received=received)

    async def back(self, conn: Conn) -> None:
        """``back``: the seat's own player takes the seat back from the bot playing for him."""
        live = await self.matches.current(conn.room_code)
        if conn.seat is None:
            return self.rooms.error(conn, p.NOT_SEATED, "you hold no seat in this room")
        if live is None or live.finished:
            return self.rooms.error(conn, p.NO_MATCH, "no match is being played in this room")
        if not await self.bots.returned(live, conn.seat):
            self.rooms.send_presence(conn.room_code)

    async def take_over(self, conn: Conn, seat: int) -> None:
        """``takeover``: the host lets a bot play ``seat`` now, during a match."""
        snap = await self.rooms.snapshot(conn.room_code)
        live = await self.matches.current(conn.room_code)
        if snap["host"]["id"] != conn.player_id:
            return self.rooms.error(conn, p.NOT_HOST, "only the host lets a bot play a seat")
        if live is None or live.finished:
            return self.rooms.error(conn, p.NO_MATCH, "no match is being played in this room")
        if not 0 <= seat < live.seat_count:
            return self.rooms.error(conn, p.BAD_MESSAGE,
                                    f"seat: no seat {seat} (seats 0..{live.seat_count - 1})")
        await self.bots.take_over(live, seat)

    # -- a page hidden a while: "your turn" by push (README "Notifications") -----------------

    async def visibility(self, conn: Conn, hidden: bool) -> None:
        """``visibility``: the socket's page hid, or showed again.  Once it has been hidden
        ``push_hidden_seconds``, its player gets "turn" when a live match awaits him."""
        if not hidden:
            conn.hidden_since = None
            return
        if conn.hidden_since is None:
            conn.hidden_since = time.monotonic()
            task = asyncio.create_task(self._look_later(conn))
            self.waits.add(task)
            task.add_done_callback(self.waits.discard)

    async def _look_later(self, conn: Conn) -> None:
        await asyncio.sleep(self.rooms.settings.push_hidden_seconds)
        if conn.hidden_since is not None and not conn.closed:
            live = await self.matches.current(conn.room_code)
            if live is not None:
                self.nudge(live)

    def nudge(self, live: LiveMatch) -> None:
        """Each person awaited in this live match whose every page in the room (on this
        process) has been hidden ``push_hidden_seconds`` is told "turn", once a turn."""
        code = live.room_code
        snap = self.rooms.cached(code)
        if live.finished:
            self.nudged.pop(live.id, None)
            return
        if snap is None or snap.get("pace", "live") != "live":
            return  # a turn-based room tells every turn (app/rooms/deadlines.py)
        conns = self.rooms.hub.conns(code)
        if not any(c.hidden_since is not None for c in conns):
            return
        now, wait = time.monotonic(), self.rooms.settings.push_hidden_seconds
        takeover = self.bots.takeover_of(live.id)
        people = {s["seat"]: s["player"] for s in snap["seats"] if s["level"] is None and s["player"] is not None}
        for seat in live.engine.to_act():
            player = people.get(seat)
            if player is None or seat in takeover or self.nudged.get(live.id) == (live.version, seat):
                continue
            pages = [c for c in conns if c.player_id == player]
            if pages and all(c.hidden_since is not None and now - c.hidden_since >= wait for c in pages):
                self.nudged[live.id] = (live.version, seat)
                self.rooms.notifier.notify(player, "turn", room=code, match=live.id)

    # -- the room's life ------------------------------------------------------------------

    async def on_room_note(self, code: str, note: dict) -> None:
        """Another process changed the room (and perhaps started a match in it)."""
        await self.rooms.on_note(code)
        if note.get("new_match"):
            live = await self.matches.current(code)
            if live is not None:
                async with live.lock:
                    self.matches.push_views(live)

    def left(self, code: str) -> None:
        """A socket left the room: once nobody is left, the room's state and a finished
        match are dropped from memory (read again when somebody comes back)."""
        match_id = self.rooms.forget_if_idle(code)
        live = self.matches.live.get(match_id) if match_id else None
        if live is not None and live.finished and not live.lock.locked():
            self.matches.forget(live)
