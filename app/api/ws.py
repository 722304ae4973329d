"""The websocket route: live play in a room.

``/api/rooms/{code}/ws?token=...`` (or a first ``hello`` message with the
token).  See protocol.py and README.md "Server" for the messages."""

from __future__ import annotations

import asyncio
import json
import logging

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from .. import protocol as p
from ..db import models as m
from ..db import store
from ..errors import NotFound
from ..limits import RateLimited, TokenBucket
from ..rooms.hub import Conn, dumps
from ..rooms.service import Kozyr
from .deps import client_address

router = APIRouter(tags=["live"])
log = logging.getLogger("kozyr.ws")


def _first_error(e: ValidationError) -> str:
    err = e.errors()[0]
    where = ".".join(str(x) for x in err.get("loc", ()) if x not in ("function-after",))
    return f"{where}: {err.get('msg')}" if where else str(err.get("msg"))


async def _refuse(ws: WebSocket, code: str, message: str, close_code: int) -> None:
    """Say why, then close; a client that already left is no error."""
    try:
        await ws.send_text(dumps({"type": "error", "version": 0, "match": None, "code": code,
                                  "message": message}))
        await ws.close(code=close_code)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass


async def _receive_text(ws: WebSocket) -> str | None:
    """The next text (or UTF-8 bytes) message; None when the client went away."""
    msg = await ws.receive()
    if msg["type"] == "websocket.disconnect":
        return None
    if msg.get("text") is not None:
        return msg["text"]
    data = msg.get("bytes") or b""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return "\x00<binary>"


@router.websocket("/api/rooms/{code}/ws")
async def room_socket(ws: WebSocket, code: str) -> None:
    kozyr: Kozyr = ws.app.state.kozyr
    limit = kozyr.settings.max_message_bytes
    await ws.accept()
    try:
        code = await kozyr.resolve_code(code, client_address(ws))  # the stored code from here on
    except NotFound:
        return await _refuse(ws, p.UNKNOWN_ROOM, f"no room {code!r}", 4404)
    except RateLimited as e:
        return await _refuse(ws, p.RATE_LIMITED, e.message, 4429)

    token = ws.query_params.get("token")
    last_version = ws.query_params.get("last_version")
    accept: list[str] = []
    if not token:
        try:
            text = await asyncio.wait_for(_receive_text(ws), kozyr.settings.hello_timeout)
        except (TimeoutError, WebSocketDisconnect):
            return await _refuse(ws, p.BAD_TOKEN, "send hello with your token first", 4401)
        if text is None:
            return
        try:
            if len(text) > limit:
                raise ValueError("too large")
            hello = p.client_message.validate_json(text)
            if not isinstance(hello, p.Hello):
                raise ValueError("not hello")
        except (ValueError, ValidationError):
            return await _refuse(ws, p.BAD_TOKEN, "the first message must be hello with your token", 4401)
        token = hello.token
        last_version = hello.last_version
        accept = hello.accept or []

    def identify():
        with kozyr.db.read() as s:
            player = store.player_by_token(s, token)
            if player is None:
                return None
            room = store.room_by_code(s, code)
            return player, store.seat_of_player(s, room, player.id)
    found = await run_in_threadpool(identify)
    if found is None:
        return await _refuse(ws, p.BAD_TOKEN, "unknown player token", 4403)
    player, seat = found
    conn = Conn(ws, code, player.id, player.name, seat, kozyr.settings.max_send_queue)
    conn.metrics = kozyr.metrics
    conn.delta = p.DELTA in accept
    kozyr.hub.join(conn)
    log.info("player %s joined room %s (seat %s, last version %s)", player.id, code, seat, last_version)
    try:
        await _session(kozyr, conn, player, limit)
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("websocket of player %s in room %s failed", player.id, code)
    finally:
        kozyr.hub.leave(conn)
        await conn.close()
        kozyr.forget_if_idle(code)
        log.info("player %s left room %s", player.id, code)
        try:
            await kozyr.announce_room(code)
        except Exception:  # the server may be shutting down
            pass


async def _session(kozyr: Kozyr, conn: Conn, player: m.Player, limit: int) -> None:
    ws = conn.ws
    live = await kozyr.current_live(conn.room_code)

    def stamp() -> tuple[int, str | None]:
        current = kozyr.live.get(kozyr.room_current.get(conn.room_code, ""))
        return (current.version, current.id) if current else (0, None)

    settings = kozyr.settings
    bucket = TokenBucket(settings.messages_per_second, settings.message_burst)
    version, match_id = stamp()
    conn.send({"type": "welcome", "version": version, "match": match_id, "room": conn.room_code,
               "player": player.id, "name": player.name, "seat": conn.seat})
    if live is not None:
        async with live.lock:
            if kozyr.fanout is not None:  # other processes may have moved the match on
                await kozyr.run(live.catch_up, kozyr.db)
            conn.send(kozyr.view_message(live, conn))
        # A reconnect does not end a takeover: only the person's action or "back" does.
        timer = kozyr.bots.timer_message(live)
        if timer is not None:
            conn.send(timer)
    else:
        conn.send(kozyr.view_message(None, conn))
    await kozyr.announce_room(conn.room_code)

    while True:
        text = await _receive_text(ws)
        if text is None:
            return
        if conn.closed:
            return
        version, match_id = stamp()

        def error(code: str, message: str, client_id: str | None = None,
                  version: int = version, match_id: str | None = match_id) -> None:
            conn.send({"type": "error", "version": version, "match": match_id, "code": code,
                       "message": message, "client_id": client_id})

        if not bucket.take():  # limits.py: a token bucket per connection
            if bucket.strikes >= settings.flood_close_after:
                log.warning("player %s flooded room %s; closing", conn.player_id, conn.room_code)
                await conn.drain(0.5)
                await ws.close(code=1008)
                return
            if bucket.strikes == 1 or bucket.strikes % 10 == 0:  # do not echo a flood 1:1
                error(p.RATE_LIMITED, f"at most {settings.messages_per_second:g} messages a second")
            continue
        if len(text) > limit // 4 and len(text.encode("utf-8", "surrogatepass")) > limit:
            error(p.TOO_LARGE, f"a message may hold at most {limit} bytes")
            continue
        try:
            msg = p.client_message.validate_json(text)
        except ValidationError as e:
            client_id = None
            try:
                raw = json.loads(text)
                if isinstance(raw, dict) and isinstance(raw.get("client_id"), str):
                    client_id = raw["client_id"][:64]
            except (ValueError, RecursionError):  # deep nesting: pydantic said so already
                pass
            error(p.BAD_MESSAGE, _first_error(e), client_id)
            continue
        if isinstance(msg, p.ActionIn):
            await kozyr.act(conn, msg)
        elif isinstance(msg, p.ChatIn):
            await kozyr.chat(conn, msg.text, version, match_id)
        elif isinstance(msg, p.Ping):
            conn.send({"type": "pong", "version": version, "match": match_id, "nonce": msg.nonce})
        elif isinstance(msg, p.Hello):  # a resume on an open socket: send the state again
            if msg.accept is not None:
                conn.delta = p.DELTA in msg.accept
            live = await kozyr.current_live(conn.room_code)
            if live is not None:
                async with live.lock:
                    conn.send(kozyr.view_message(live, conn))
            else:
                conn.send(kozyr.view_message(None, conn))
        elif isinstance(msg, p.Back):
            await kozyr.back(conn)
        elif isinstance(msg, p.TakeoverIn):
            await kozyr.take_over(conn, msg.seat)
