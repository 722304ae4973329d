"""Fan-out across server processes over Redis pub/sub (when REDIS_URL is set).

After a process commits an action (or a room changes, or a chat line is
said) it publishes a small note on ``kozyr:room:<code>``; every other process
with sockets in that room brings its copy of the match up to date (a match
note carries the committed action: it is applied without reading the log when
it is the next one; otherwise the log in the database, the truth, is read) and
pushes views.  The notes queued meanwhile go out in one pipeline, one round
trip.  No sticky sessions are needed behind a load balancer.

Presence travels on one channel, ``kozyr:presence``: each process says which
players have a socket to it in which rooms.  When a room's set changes it
sends just that room; every ``presence_heartbeat`` seconds it sends all its
non-empty rooms in one message (so a receiver also learns what was emptied
meanwhile).  A report expires after ``presence_expiry`` seconds unless renewed,
so the players of a SIGKILLed process stop showing as connected.  A process
that starts asks the others for a full report; one that stops says goodbye.
All notes of one process go out from one task, in order.

Player notes travel on ``kozyr:players``: a renamed player, or signed-out devices
(their tokens' hashes), that every process forgets (app/directory.py) and whose
sockets it closes (app/signin.py)."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from contextlib import suppress
from typing import TYPE_CHECKING, Protocol

from ..aio import stop_task, wait_event
from ..config import Settings
from .hub import Hub
from .live import LiveMatch

if TYPE_CHECKING:  # pragma: no cover
    from redis.asyncio.client import PubSub

log = logging.getLogger("kozyr.fanout")
PREFIX = "kozyr:room:"
PRESENCE = "kozyr:presence"
PLAYERS = "kozyr:players"


class Receiver(Protocol):
    """Who acts on the other processes' notes (app/server.py)."""

    async def on_remote(self, code: str, note: dict) -> None: ...

    async def presence_changed(self, code: str) -> None: ...

    def forget_room(self, code: str) -> None: ...

    async def on_players_note(self, note: dict) -> None: ...


class RedisFanout:
    def __init__(self, url: str, settings: Settings, hub: Hub, live: dict[str, LiveMatch],
                 receiver: Receiver) -> None:
        import redis.asyncio as aioredis
        self.redis = aioredis.from_url(url)
        self.hub = hub
        self.live = live
        self.receiver = receiver
        self.origin = secrets.token_hex(6)
        self.pubsub: PubSub | None = None  # start: subscribed to every room's notes
        self.task: asyncio.Task | None = None
        self.pending: set[asyncio.Task] = set()
        self.heartbeat = max(0.05, settings.presence_heartbeat)
        self.expiry = max(self.heartbeat, settings.presence_expiry)
        self.dirty: set[str] = set()  # rooms whose local players may have changed
        self.published: dict[str, frozenset[int]] = {}  # what the others last heard from us
        self.full_wanted = True  # the next presence note is a full report
        self.wake = asyncio.Event()
        self.presence_task: asyncio.Task | None = None
        self.resending: dict[str, bool] = {}  # room -> changed again while being sent
        self.outbox: list[tuple[str, str]] = []  # room notes not sent yet (channel, text)
        self.sender: asyncio.Task | None = None

    async def start(self) -> None:
        """Subscribe and announce this process (a failure: ``stop`` undoes what began)."""
        await self.redis.ping()
        self.pubsub = pubsub = self.redis.pubsub()
        await pubsub.psubscribe(PREFIX + "*")
        await pubsub.subscribe(PRESENCE, PLAYERS)
        self.task = asyncio.create_task(self._listen())
        self.hub.on_change = self.changed
        await self._send_presence({"hello": True})  # the others answer with full reports
        self.presence_task = asyncio.create_task(self._presence_loop())
        log.info("fan-out over redis as %s", self.origin)

    async def stop(self) -> None:
        self.hub.on_change = None
        if self.sender is not None:  # the notes queued so far go out first
            await _bounded(asyncio.shield(self.sender), 5.0)
        if self.presence_task is not None:
            await stop_task(self.presence_task, STOP_SECONDS)
            # Our sockets are about to close: the others need not wait for the expiry.
            await _bounded(self._send_presence({"bye": True}))
        if self.task is not None:
            await stop_task(self.task, STOP_SECONDS)
        # redis-py's close can wait for ever on the socket's wait_closed (seen about once in
        # 20 test runs as a hung shutdown): each step is bounded, then dropped without waiting.
        pubsub = self.pubsub
        if pubsub is not None and not await _bounded(pubsub.aclose()):
            with suppress(Exception):
                if pubsub.connection is not None:
                    await pubsub.connection.disconnect(nowait=True)
        if not await _bounded(self.redis.aclose()):
            with suppress(Exception):
                await self.redis.connection_pool.disconnect(inuse_connections=True)

    async def publish(self, code: str, note: dict) -> None:
        """Queue a room note; one task sends what is queued in one pipeline (one round
        trip to Redis for many rooms' notes, in the order they were queued)."""
        self._queue(PREFIX + code, note)

    def publish_players(self, note: dict) -> None:
        """Queue a player note (a player or tokens to forget) for every other process."""
        self._queue(PLAYERS, note)

    def _queue(self, channel: str, note: dict) -> None:
        self.outbox.append((channel, json.dumps({**note, "origin": self.origin}, separators=(",", ":"))))
        if self.sender is None or self.sender.done():
            self.sender = asyncio.create_task(self._send_notes())

    async def _send_notes(self) -> None:
        while self.outbox:
            notes, self.outbox = self.outbox, []
            try:
                pipe = self.redis.pipeline(transaction=False)
                for channel, text in notes:
                    pipe.publish(channel, text)
                await pipe.execute()
            except Exception as e:  # fan-out is best effort; the log in the database is the truth
                log.warning("redis publish of %d note(s) failed: %s", len(notes), e)

    async def _listen(self) -> None:
        pubsub = self.pubsub
        assert pubsub is not None  # started after the subscription
        while True:
            try:
                async for raw in pubsub.listen():
                    if raw.get("type") not in ("pmessage", "message"):
                        continue
                    # One task per note: a slow catch-up of one room must not hold up
                    # the notes of every other room (they are applied idempotently).
                    task = asyncio.create_task(self._handle(raw["channel"], raw["data"]))
                    self.pending.add(task)
                    task.add_done_callback(self.pending.discard)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("redis listener failed (%s); retrying", e)
                for match_id in list(self.live):  # notes may be lost meanwhile
                    self._missed(match_id)
                await asyncio.sleep(1)

    def _missed(self, match_id: object) -> None:
        """A note of this match was not followed here: the next connection to ask for
        its state reads the log first (MatchLoop.send_state; a resume always does)."""
        live = self.live.get(match_id) if isinstance(match_id, str) else None
        if live is not None:
            live.fresh = False

    # -- presence ------------------------------------------------------------------

    def changed(self, code: str) -> None:
        """The hub's hook: a socket joined or left the room here."""
        self.dirty.add(code)
        self.wake.set()

    async def _send_presence(self, note: dict) -> None:
        try:
            await self.redis.publish(PRESENCE, json.dumps({**note, "origin": self.origin},
                                                          separators=(",", ":")))
        except Exception as e:  # best effort: the heartbeat repeats it
            log.warning("redis publish of presence failed: %s", e)

    async def _presence_loop(self) -> None:
        loop = asyncio.get_running_loop()
        next_beat = loop.time()
        while True:
            try:
                timeout = next_beat - loop.time()
                if timeout > 0 and not self.wake.is_set():
                    await wait_event(self.wake, timeout)
                self.wake.clear()
                if loop.time() >= next_beat:
                    self.full_wanted = True
                    next_beat = loop.time() + self.heartbeat
                    self._expire()
                await self._report()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("presence loop failed; carrying on")
                await asyncio.sleep(1)

    async def _report(self) -> None:
        hub = self.hub
        if self.full_wanted:
            self.full_wanted = False
            self.dirty.clear()
            rooms = {code: frozenset(hub.local_players(code)) for code in list(hub.rooms)}
            self.published = {code: pids for code, pids in rooms.items() if pids}
            await self._send_presence({"full": True, "ttl": self.expiry,
                                       "rooms": {c: sorted(p) for c, p in self.published.items()}})
            return
        if not self.dirty:
            return
        delta = {}
        for code in self.dirty:
            pids = frozenset(hub.local_players(code))
            if pids != self.published.get(code, frozenset()):
                delta[code] = sorted(pids)
                if pids:
                    self.published[code] = pids
                else:
                    self.published.pop(code, None)
        self.dirty.clear()
        if delta:
            await self._send_presence({"ttl": self.expiry, "rooms": delta})

    def _expire(self) -> None:
        changed = self.hub.expire(time.monotonic())
        if changed:
            self._peer_gone()
        for code in changed:
            self._presence_changed(code)

    def _peer_gone(self) -> None:
        """A process said goodbye or stopped reporting: it may have committed actions it
        never published, so every match here reads the log at its next join."""
        for live in self.live.values():
            live.fresh = False

    async def _on_presence(self, note: dict) -> None:
        hub = self.hub
        origin = note.get("origin")
        if not isinstance(origin, str) or origin == self.origin:
            return
        if note.get("hello"):
            self.full_wanted = True  # answer a newcomer with everything we have
            self.wake.set()
            return
        if note.get("bye"):
            changed = hub.drop_origin(origin)
            self._peer_gone()
        else:
            expires = time.monotonic() + float(note.get("ttl") or self.expiry)
            rooms = note.get("rooms") or {}
            changed = {code for code, pids in rooms.items()
                       if hub.set_remote(origin, code, frozenset(int(p) for p in pids), expires)}
            if note.get("full"):  # rooms it no longer reports are empty there
                for code in hub.remote_codes(origin) - rooms.keys():
                    if hub.set_remote(origin, code, frozenset(), 0.0):
                        changed.add(code)
        for code in changed:
            self._presence_changed(code)

    def _presence_changed(self, code: str) -> None:
        """Re-send presence to our sockets in the room, in the background; a change
        that comes while one is being sent is sent once more afterwards."""
        if not self.hub.conns(code):
            return  # the report is kept for a socket that may join later; nobody to tell now
        if code in self.resending:
            self.resending[code] = True
            return
        self.resending[code] = False
        task = asyncio.create_task(self._resend(code))
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def _resend(self, code: str) -> None:
        try:
            while True:
                self.resending[code] = False
                try:
                    await self.receiver.presence_changed(code)
                except Exception:
                    log.exception("could not send presence of room %s", code)
                if not self.resending.get(code):
                    return
        finally:
            self.resending.pop(code, None)

    async def _handle(self, channel, data) -> None:
        channel = channel.decode() if isinstance(channel, bytes) else channel
        note = json.loads(data)
        if note.get("origin") == self.origin:
            return
        if channel == PRESENCE:
            try:
                await self._on_presence(note)
            except Exception:
                log.exception("bad presence note %r", note)
            return
        if channel == PLAYERS:
            await self.receiver.on_players_note(note)
            return
        code = channel[len(PREFIX):]
        if not self.hub.conns(code):
            # Nobody here watches the room; just forget what may be stale.
            if note.get("kind") == "room":
                self.receiver.forget_room(code)
            self._missed(note.get("match"))
            return
        try:
            await self.receiver.on_remote(code, note)
        except Exception:
            log.exception("could not apply a note from another process for room %s", code)


STOP_SECONDS = 2.0  # the longest one step of a shutdown waits on Redis


async def _bounded(aw, seconds: float = STOP_SECONDS) -> bool:
    """Await ``aw`` for at most ``seconds``; False if it failed or took longer."""
    try:
        await asyncio.wait_for(aw, seconds)
        return True
    except (asyncio.CancelledError, Exception):
        return False


