"""The in-process fan-out hub: who is connected to which room, and sending to them.

A broadcast never waits for the slowest client: a message is put on the
connection's queue, and a sender task hands what is queued to the ASGI server
(``WebSocket.send_text``); a client that falls too far behind is disconnected (it
can reconnect and resume from a fresh view)."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import defaultdict, deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import orjson
from starlette.websockets import WebSocket

if TYPE_CHECKING:  # pragma: no cover
    from ..metrics import Metrics

log = logging.getLogger("kozyr.hub")


def dumps(msg: Any) -> str:
    """A message (or any JSON value) as compact JSON text.  orjson encodes the views several times faster
    than the standard library (JSON was the largest single cost of an action under
    load); anything it refuses (an integer beyond 64 bits) falls back to json."""
    try:
        return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


def fragment(text: str) -> Any:
    """JSON text that ``dumps`` puts into a message as it is (orjson's Fragment); a
    message holding one cannot take the standard library's fallback (TypeError)."""
    return orjson.Fragment(text)


class Conn:
    """One websocket of a player in a room.  Messages wait in a queue for the
    connection's sender task, which sends them through the ASGI server one after the
    other (uvicorn's ``send`` waits while the socket's write buffer is full); a client
    ``max_queue`` messages behind is dropped.

    The sender task lives only while messages wait: it starts with the first one and
    ends when the queue is empty.  An idle connection then holds no pending future
    between messages: with thousands of sockets, a sender parked on every one kept
    thousands of young objects alive for the collector to walk (app/gcpace.py)."""

    def __init__(self, ws: WebSocket, room_code: str, player_id: int, name: str,
                 seat: int | None, max_queue: int) -> None:
        self.ws = ws
        self.room_code = room_code
        self.player_id = player_id
        self.name = name
        self.seat = seat
        self.max_queue = max_queue
        self.closed = False
        self.device: str | None = None  # the hash of the device token it joined with (sign-out closes it)
        self.delta = False  # hello.accept holds "delta": send deltas after actions
        self.hidden_since: float | None = None  # its page hidden since (monotonic; "visibility")
        # The last view sent (match, version, seat): the base a delta may build on.  Three
        # fields, not a tuple: a tuple made per view would live until the next action and
        # be walked by the collector on the way (app/gcpace.py).
        self.sent_match: str | None = None
        self.sent_version = 0
        self.sent_seat: int | None = None
        self.metrics: Metrics | None = None  # app.metrics.Metrics: counts errors sent and slow clients
        # Called when a dropped client's close frame cannot get out (set by the route: the
        # connection leaves its room at once, not when the route's receive ends).
        self.on_gone: Callable[[], None] | None = None
        self.close_timeout = 2.0
        self.queue: deque[str] = deque()
        self.task: asyncio.Task[None] | None = None  # the sender, while messages wait

    def saw(self, match: str | None, version: int, seat: int | None) -> None:
        """The connection was sent the view of ``seat`` at ``version`` of ``match``."""
        self.sent_match, self.sent_version, self.sent_seat = match, version, seat

    def has_seen(self, match: str, version: int, seat: int | None) -> bool:
        return self.sent_match == match and self.sent_version == version and self.sent_seat == seat

    def send(self, msg: dict | str) -> None:
        if self.closed:
            return
        if self.metrics is not None and isinstance(msg, dict) and msg.get("type") == "error":
            self.metrics.error(str(msg.get("code")))
        self.send_texts((msg if isinstance(msg, str) else dumps(msg),))

    def send_texts(self, texts: tuple[str, ...]) -> None:
        """Queue encoded messages, to be sent in this order."""
        if self.closed:
            return
        if len(self.queue) + len(texts) > self.max_queue:
            self.drop()
            return
        self.queue.extend(texts)
        if self.task is None:
            self.task = asyncio.create_task(self._sender())

    def drop(self) -> None:
        """The client does not read: stop sending (the sender may be stuck in a write)
        and close the socket in the background; nothing here ever awaits it."""
        log.warning("client of player %s in room %s too slow; disconnecting",
                    self.player_id, self.room_code)
        self.closed = True
        if self.metrics is not None:
            self.metrics.slow_clients.inc()
        if self.task is not None:
            self.task.cancel()
        self._closer = asyncio.create_task(self._close_slow())

    async def _close_slow(self) -> None:
        """Close with 1013 (the route's receive then ends); if even the close frame cannot
        get out within ``close_timeout``, the connection leaves its room now (``on_gone``)
        and the route ends at the client's next message or disconnect."""
        try:
            await asyncio.wait_for(self.ws.close(code=1013), self.close_timeout)
        except BaseException:  # already gone, or the close frame itself is stuck
            if self.on_gone is not None:
                self.on_gone()

    async def _sender(self) -> None:
        try:
            while self.queue:
                await self.ws.send_text(self.queue.popleft())
        except Exception:  # the socket went away; the receive loop notices too
            self.closed = True
        finally:
            self.task = None

    async def close(self) -> None:
        self.closed = True
        task = self.task
        if task is None:
            return
        task.cancel()
        try:
            await task
        except (asyncio.CancelledError, Exception):
            pass

    async def drain(self, timeout: float = 2.0) -> None:
        """Let queued messages go out (before closing the socket on purpose)."""
        end = asyncio.get_running_loop().time() + timeout
        while (self.queue or self.task is not None) and not self.closed and asyncio.get_running_loop().time() < end:
            await asyncio.sleep(0.01)


class Hub:
    """Sockets of this process per room, plus (with several processes) what the
    others said about theirs: ``remote[code][origin] = (player ids, expiry)``."""

    def __init__(self) -> None:
        self.rooms: dict[str, set[Conn]] = defaultdict(set)
        self.remote: dict[str, dict[str, tuple[frozenset[int], float]]] = {}
        self.remote_rooms: dict[str, set[str]] = {}  # origin -> codes it reported
        self.on_change: Callable[[str], None] | None = None  # set by the fan-out

    def join(self, conn: Conn) -> None:
        self.rooms[conn.room_code].add(conn)
        if self.on_change is not None:
            self.on_change(conn.room_code)

    def leave(self, conn: Conn) -> None:
        conns = self.rooms.get(conn.room_code)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.rooms[conn.room_code]
        if self.on_change is not None:
            self.on_change(conn.room_code)

    def conns(self, room_code: str) -> list[Conn]:
        return list(self.rooms.get(room_code, ()))

    def broadcast(self, room_code: str, msg: dict) -> None:
        text = dumps(msg)
        for conn in self.conns(room_code):
            conn.send(text)

    def local_players(self, room_code: str) -> set[int]:
        return {c.player_id for c in self.conns(room_code)}

    def connected_players(self, room_code: str) -> set[int]:
        """Players with a socket in the room on this process or (unexpired) on another.
        Also called from worker threads (room_dict): it only reads."""
        players = self.local_players(room_code)
        others = self.remote.get(room_code)
        if others:
            now = time.monotonic()
            for pids, expires in list(others.values()):
                if expires > now:
                    players |= pids
        return players

    def online(self) -> set[int]:
        """Players with a socket in any room, on this process or (unexpired) on another:
        who is at a table now (a club page's "online now").  Only reads, as above."""
        players = {c.player_id for conns in list(self.rooms.values()) for c in list(conns)}
        now = time.monotonic()
        for others in list(self.remote.values()):
            for pids, expires in list(others.values()):
                if expires > now:
                    players |= pids
        return players

    # -- what other processes report (called on the event loop only) ------------

    def set_remote(self, origin: str, code: str, pids: frozenset[int], expires: float) -> bool:
        """Record origin's players in a room (none: forget it); True if the set changed."""
        others = self.remote.get(code)
        before = others.get(origin) if others else None
        if not pids:
            if before is None or others is None:
                return False
            del others[origin]
            if not others:
                del self.remote[code]
            codes = self.remote_rooms.get(origin)
            if codes is not None:
                codes.discard(code)
                if not codes:
                    del self.remote_rooms[origin]
            return True
        self.remote.setdefault(code, {})[origin] = (pids, expires)
        self.remote_rooms.setdefault(origin, set()).add(code)
        return before is None or before[0] != pids or before[1] <= time.monotonic()

    def remote_codes(self, origin: str) -> set[str]:
        return set(self.remote_rooms.get(origin, ()))

    def drop_origin(self, origin: str) -> set[str]:
        """Forget everything origin reported; the rooms whose presence changed."""
        codes = self.remote_codes(origin)
        for code in codes:
            self.set_remote(origin, code, frozenset(), 0.0)
        return codes

    def expire(self, now: float) -> set[str]:
        """Forget reports older than their expiry (a process died); the rooms changed."""
        stale = [(code, origin) for code, others in self.remote.items()
                 for origin, (_, expires) in others.items() if expires <= now]
        for code, origin in stale:
            self.set_remote(origin, code, frozenset(), 0.0)
        return {code for code, _ in stale}
