"""The in-process fan-out hub: who is connected to which room, and sending to them.

Each connection has its own outgoing queue and sender task, so a broadcast
never waits for the slowest client; a client that falls too far behind is
disconnected (it can reconnect and resume from a fresh view)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections import defaultdict

from starlette.websockets import WebSocket

log = logging.getLogger("kozyr.hub")


def dumps(msg: dict) -> str:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


class Conn:
    def __init__(self, ws: WebSocket, room_code: str, player_id: int, name: str,
                 seat: int | None, max_queue: int) -> None:
        self.ws = ws
        self.room_code = room_code
        self.player_id = player_id
        self.name = name
        self.seat = seat
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.max_queue = max_queue
        self.closed = False
        self.metrics = None  # app.metrics.Metrics: counts errors sent and slow clients
        self.task = asyncio.create_task(self._sender())

    def send(self, msg: dict | str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= self.max_queue:
            self.drop()
            return
        if self.metrics is not None and isinstance(msg, dict) and msg.get("type") == "error":
            self.metrics.error(msg.get("code"))
        self.queue.put_nowait(msg if isinstance(msg, str) else dumps(msg))

    def drop(self) -> None:
        """The client does not read: stop sending (the sender may be stuck in a write)
        and close the socket in the background; nothing here ever awaits it."""
        log.warning("client of player %s in room %s too slow; disconnecting",
                    self.player_id, self.room_code)
        self.closed = True
        if self.metrics is not None:
            self.metrics.slow_clients.inc()
        self.task.cancel()
        self._closer = asyncio.create_task(self._abort())

    async def _abort(self) -> None:
        try:
            await asyncio.wait_for(self.ws.close(code=1013), 2.0)
        except BaseException:  # already gone, or the close frame itself is stuck
            pass

    async def _sender(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    await self.ws.close(code=1013)
                    return
                await self.ws.send_text(text)
        except Exception:  # the socket went away; the receive loop notices too
            self.closed = True

    async def close(self) -> None:
        self.closed = True
        self.task.cancel()
        try:
            await self.task
        except (asyncio.CancelledError, Exception):
            pass

    async def drain(self, timeout: float = 2.0) -> None:
        """Let queued messages go out (before closing the socket on purpose)."""
        end = asyncio.get_running_loop().time() + timeout
        while not self.queue.empty() and not self.closed and asyncio.get_running_loop().time() < end:
            await asyncio.sleep(0.01)


class Hub:
    def __init__(self) -> None:
        self.rooms: dict[str, set[Conn]] = defaultdict(set)

    def join(self, conn: Conn) -> None:
        self.rooms[conn.room_code].add(conn)

    def leave(self, conn: Conn) -> None:
        conns = self.rooms.get(conn.room_code)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.rooms[conn.room_code]

    def conns(self, room_code: str) -> list[Conn]:
        return list(self.rooms.get(room_code, ()))

    def broadcast(self, room_code: str, msg: dict) -> None:
        text = dumps(msg)
        for conn in self.conns(room_code):
            conn.send(text)

    def connected_players(self, room_code: str) -> set[int]:
        return {c.player_id for c in self.conns(room_code)}
