"""The websocket route: live play in a room.

``/api/rooms/{code}/ws?token=...`` (or a first ``hello`` message with the
token).  See protocol.py and README.md "Server" for the messages and limits."""

from __future__ import annotations

import asyncio
import json
import logging
from functools import partial

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from .. import protocol as p
from ..config import Settings
from ..db import store
from ..db.errors import RateLimited, UnknownRoom
from ..limits import TokenBucket
from ..rooms.abandon import Abandon
from ..rooms.coach import Coach
from ..rooms.hub import Conn, Hub, dumps
from ..rooms.loop import MatchLoop
from ..rooms.play import Play
from ..rooms.service import RoomService
from ..rooms.takeback import Takebacks
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


def _too_large(text: str, limit: int) -> bool:
    return len(text) > limit // 4 and len(text.encode("utf-8", "surrogatepass")) > limit


@router.websocket("/api/rooms/{code}/ws")
async def room_socket(ws: WebSocket, code: str) -> None:
    state = ws.app.state  # the parts app/server.py built
    settings: Settings = state.settings
    rooms: RoomService = state.rooms
    limit = settings.max_message_bytes
    try:
        await ws.accept()
    except (WebSocketDisconnect, RuntimeError, OSError):
        return  # the client left during the handshake
    try:
        code = await rooms.resolve_code(code, client_address(ws))  # the stored code from here on
    except UnknownRoom:
        return await _refuse(ws, p.UNKNOWN_ROOM, f"no room {code!r}", 4404)
    except RateLimited as e:
        return await _refuse(ws, p.RATE_LIMITED, e.message, 4429)

    token = ws.query_params.get("token")
    last_version: str | int | None = ws.query_params.get("last_version")
    accept = (ws.query_params.get("accept") or "").split(",")[:8]  # ?accept=delta, as in hello
    build = ws.query_params.get("build")  # ?build=, as in hello
    if not token:
        try:
            text = await asyncio.wait_for(_receive_text(ws), settings.hello_timeout)
        except (TimeoutError, WebSocketDisconnect):
            return await _refuse(ws, p.BAD_TOKEN, "send hello with your token first", 4401)
        if text is None:
            return
        try:
            if _too_large(text, limit):
                raise ValueError("too large")
            hello = p.client_message.validate_json(text)
            if not isinstance(hello, p.Hello):
                raise ValueError("not hello")
        except (ValueError, ValidationError):
            return await _refuse(ws, p.BAD_TOKEN, "the first message must be hello with your token", 4401)
        token = hello.token
        last_version = hello.last_version
        accept = hello.accept or accept
        build = hello.build or build

    player = await state.players.find(token)
    if player is None:
        return await _refuse(ws, p.BAD_TOKEN, "unknown player token", 4403)
    await rooms.snapshot(code)  # from memory after the first join
    player_id, name = player
    conn = Conn(ws, code, player_id, name, rooms.seat_of(code, player_id), settings.max_send_queue)
    conn.metrics = state.metrics
    conn.device = store.token_hash(token or "")  # signing this device out closes the socket
    conn.delta = p.DELTA in accept
    hub: Hub = state.hub
    conn.on_gone = partial(_leave_room, hub, rooms, conn)
    hub.join(conn)
    log.info("player %s joined room %s (seat %s, last version %s)", player_id, code, conn.seat, last_version)
    try:
        await _session(conn, last_version is not None, settings=settings, rooms=rooms, matches=state.matches,
                       play=state.play, takebacks=state.takebacks, abandon=state.abandon, coach=state.coach,
                       reload_to=None if not build or build == state.static.build else state.static.build)
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("websocket of player %s in room %s failed", player_id, code)
    finally:
        _leave_room(hub, rooms, conn)
        await conn.close()
        state.play.left(code)
        log.info("player %s left room %s", player_id, code)


def _leave_room(hub: Hub, rooms: RoomService, conn: Conn) -> None:
    """The connection leaves its room and the others are told (when the route ends, and
    before that if a dropped client could not even be sent its close frame)."""
    hub.leave(conn)
    try:
        rooms.announce(conn.room_code)
    except Exception:  # the server may be shutting down
        pass


async def _session(conn: Conn, resume: bool, *, settings: Settings, rooms: RoomService, matches: MatchLoop,
                   play: Play, takebacks: Takebacks, abandon: Abandon, coach: Coach,
                   reload_to: str | None = None) -> None:
    ws = conn.ws
    limit = settings.max_message_bytes
    bucket = TokenBucket(settings.messages_per_second, settings.message_burst)
    version, match_id = rooms.stamp(conn.room_code)
    conn.send({"type": "welcome", "version": version, "match": match_id, "room": conn.room_code,
               "player": conn.player_id, "name": conn.name, "seat": conn.seat})
    if reload_to:  # the page is another build than ours (hello.build): it should reload to ours
        conn.send({"type": "reload", "version": version, "match": match_id, "build": reload_to})
    # A reconnect does not end a takeover: only the person's action or "back" does.
    await matches.send_state(conn, resume)
    rooms.announce(conn.room_code)

    while True:
        text = await _receive_text(ws)
        if text is None or conn.closed:
            return

        if not bucket.take():  # limits.py: a token bucket per connection
            if bucket.strikes >= settings.flood_close_after:
                log.warning("player %s flooded room %s; closing", conn.player_id, conn.room_code)
                await conn.drain(0.5)
                await ws.close(code=1008)
                return
            if bucket.strikes == 1 or bucket.strikes % 10 == 0:  # do not echo a flood 1:1
                rooms.error(conn, p.RATE_LIMITED, f"at most {settings.messages_per_second:g} messages a second")
            continue
        if _too_large(text, limit):
            rooms.error(conn, p.TOO_LARGE, f"a message may hold at most {limit} bytes")
            continue
        try:
            msg = p.client_message.validate_json(text)
        except ValidationError as e:
            client_id = None
            # JSON pydantic could parse (at most 200 levels deep: json.loads stays far from
            # the recursion limit, where any finalizer the collector runs would fail) may
            # name the client_id the error answers.
            if all(err.get("type") != "json_invalid" for err in e.errors()):
                try:
                    raw = json.loads(text)
                    if isinstance(raw, dict) and isinstance(raw.get("client_id"), str):
                        client_id = raw["client_id"][:64]
                except (ValueError, RecursionError):
                    pass
            rooms.error(conn, p.BAD_MESSAGE, _first_error(e), client_id)
            continue
        if isinstance(msg, p.ActionIn):
            await play.act(conn, msg)
        elif isinstance(msg, p.ChatIn):
            await rooms.chat(conn, msg.text)
        elif isinstance(msg, p.Ping):
            version, match_id = rooms.stamp(conn.room_code)
            conn.send({"type": "pong", "version": version, "match": match_id, "nonce": msg.nonce})
        elif isinstance(msg, p.Hello):  # a resume on an open socket: send the state again
            if msg.accept is not None:
                conn.delta = p.DELTA in msg.accept
            await matches.send_state(conn, resume=True)
        elif isinstance(msg, p.Back):
            await play.back(conn)
        elif isinstance(msg, p.TakebackIn):
            await takebacks.ask(conn)
        elif isinstance(msg, p.TakebackAnswer):
            await takebacks.answer(conn, msg.agree)
        elif isinstance(msg, p.TakeoverIn):
            await play.take_over(conn, msg.seat)
        elif isinstance(msg, p.EndMatch):  # the host stops the match (app/rooms/abandon.py)
            await abandon.end_match(conn)
        elif isinstance(msg, p.HintIn):  # the coach's advice (app/rooms/coach.py)
            await coach.hint(conn)
        elif isinstance(msg, p.VisibilityIn):  # the page hid or showed again
            await play.visibility(conn, msg.hidden)
