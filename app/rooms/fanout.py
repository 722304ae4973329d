"""Fan-out across server processes over Redis pub/sub (when REDIS_URL is set).

After a process commits an action (or a room changes, or a chat line is
said) it publishes a small note on ``kozyr:room:<code>``; every other process
with sockets in that room brings its copy of the match up to date from the
database (the action log is the truth) and pushes views.  No sticky sessions
are needed behind a load balancer."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .service import Kozyr

log = logging.getLogger("kozyr.fanout")
PREFIX = "kozyr:room:"


class RedisFanout:
    def __init__(self, url: str, kozyr: Kozyr) -> None:
        import redis.asyncio as aioredis
        self.redis = aioredis.from_url(url)
        self.kozyr = kozyr
        self.origin = secrets.token_hex(6)
        self.task: asyncio.Task | None = None
        self.pending: set[asyncio.Task] = set()

    async def start(self) -> None:
        await self.redis.ping()
        self.pubsub = self.redis.pubsub()
        await self.pubsub.psubscribe(PREFIX + "*")
        self.task = asyncio.create_task(self._listen())
        log.info("fan-out over redis as %s", self.origin)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            try:
                await self.task
            except (asyncio.CancelledError, Exception):
                pass
        try:
            await self.pubsub.aclose()
            await self.redis.aclose()
        except Exception:
            pass

    async def publish(self, code: str, note: dict) -> None:
        try:
            await self.redis.publish(PREFIX + code, json.dumps({**note, "origin": self.origin}))
        except Exception as e:  # fan-out is best effort; the log in the database is the truth
            log.warning("redis publish failed: %s", e)

    async def _listen(self) -> None:
        while True:
            try:
                async for raw in self.pubsub.listen():
                    if raw.get("type") != "pmessage":
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
                await asyncio.sleep(1)

    async def _handle(self, channel, data) -> None:
        channel = channel.decode() if isinstance(channel, bytes) else channel
        note = json.loads(data)
        if note.get("origin") == self.origin:
            return
        code = channel[len(PREFIX):]
        if not self.kozyr.hub.conns(code):
            # Nobody here watches the room; just forget what may be stale.
            if note.get("kind") == "room":
                self.kozyr.room_current.pop(code, None)
            return
        try:
            await self.kozyr.on_remote(code, note)
        except Exception:
            log.exception("could not apply a note from another process for room %s", code)
