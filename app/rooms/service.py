"""The server's state and the operations on rooms: one object, ``Kozyr``, per process.

REST routes and the websocket route call these; database work runs in worker
threads, engine work for a match only under that match's lock."""

from __future__ import annotations

import asyncio
import gc
import logging
import threading
import time
from collections import OrderedDict
from datetime import UTC, datetime
from functools import partial

from anyio import to_thread

from engine import IllegalAction, find_variant

from .. import protocol as p
from ..config import Settings
from ..db import models as m
from ..db import store
from ..db.migrate import upgrade
from ..db.session import Database
from ..db.writer import GroupWriter
from ..errors import Conflict, Forbidden, Invalid, NotFound
from ..limits import CodeGuard, check_open_rooms
from ..metrics import Metrics
from .bots import BotRunner, room_bots
from .hub import Conn, Hub, dumps
from .live import Duplicate, LiveMatch, Stale, view_delta

log = logging.getLogger("kozyr.rooms")


class Kozyr:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.db = Database(settings.database_url)
        # SQLite: the match loop's writes go through one thread, in group commits.
        self.writer = GroupWriter(self.db) if self.db.is_sqlite else None
        self.hub = Hub()
        self.live: dict[str, LiveMatch] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._chat_buckets: dict[tuple[str, int], tuple[float, float]] = {}
        self._replays: OrderedDict[str, object] = OrderedDict()
        self._replay_lock = threading.Lock()  # the cache is used from worker threads
        self.room_current: dict[str, str] = {}  # room code -> its current match id
        self.codes: dict[str, str] = {}  # a code as asked for -> the room's stored code
        self.code_guard = CodeGuard(settings.room_lookup_burst, settings.room_lookup_per_minute)
        self.fanout = None  # RedisFanout when REDIS_URL is set
        self.bots = BotRunner(self)  # bots in seats and takeovers (rooms/bots.py)
        self.metrics = Metrics(self)  # /metrics (app/metrics.py)

    # -- life cycle -------------------------------------------------------------

    def migrate(self) -> None:
        upgrade(self.db.engine)

    def recover(self) -> int:
        """Rebuild every unfinished match from its seed and action log."""
        with self.db.read() as s:
            ids = [row.id for row in store.unfinished_matches(s)]
        for match_id in ids:
            try:
                self.live[match_id] = LiveMatch.load(self.db, match_id)
            except Exception:
                log.exception("could not rebuild match %s", match_id)
        log.info("recovered %d unfinished match(es)", len(self.live))
        return len(self.live)

    async def startup(self) -> None:
        self.metrics.start_watch()
        if self.settings.run_migrations:
            await to_thread.run_sync(self.migrate)
        await to_thread.run_sync(self.recover)
        if self.settings.gc_freeze:
            tune_gc()
        for live in list(self.live.values()):  # recovered matches' bots play on
            await self.bots.poke(live)
        if self.settings.redis_url:
            from .fanout import RedisFanout
            self.fanout = RedisFanout(self.settings.redis_url, self)
            await self.fanout.start()

    async def publish(self, code: str, note: dict) -> None:
        if self.fanout is not None:
            await self.fanout.publish(code, note)

    async def on_remote(self, code: str, note: dict) -> None:
        """Another process changed the room: catch up and tell our sockets."""
        kind = note.get("kind")
        if kind == "match":
            known = note["match"] in self.live
            live = await self.get_live(note["match"])
            if live is None:
                return
            async with live.lock:
                logged = note.get("logged")  # the committed action itself: no need to read it
                if known and logged and live.version == logged[0] == note.get("version", 0) - 1:
                    changed = await self.follow(live, logged)
                elif known and live.version >= note.get("version", 0):
                    changed = False  # already there (e.g. caught up when a later action came)
                else:
                    changed = await self.run(live.catch_up, self.db)
                if changed or not known:
                    self.push_views(live)
            await self.bots.poke(live)
            if live.finished:
                await self.announce_room(code, publish=False)
        elif kind == "room":
            self.room_current.pop(code, None)
            room = await self.run(self.get_room, code)
            seats = {s["player"]: s["seat"] for s in room["seats"] if s["player"] is not None}
            for conn in self.hub.conns(code):
                conn.seat = seats.get(conn.player_id)
            await self.announce_room(code, room, publish=False)
            live = await self.current_live(code)
            if live is not None and note.get("new_match"):
                async with live.lock:
                    self.push_views(live)
        elif kind == "chat":
            self.hub.broadcast(code, note["message"])

    async def follow(self, live: LiveMatch, logged: list) -> bool:
        """Apply an action another process committed and announced (under live.lock)."""
        try:
            live.follow(*logged)
        except Exception:
            log.exception("match %s: could not follow action %r; reading the log", live.id, logged)
            await self.run(live.reload, self.db)
        return True

    async def shutdown(self) -> None:
        self.metrics.stop_watch()
        await self.bots.stop()
        if self.fanout is not None:
            await self.fanout.stop()

        for conns in list(self.hub.rooms.values()):
            for conn in list(conns):
                await conn.close()
        if self.writer is not None:
            await self.run(self.writer.stop)
        self.db.dispose()

    async def run(self, fn, *args):
        return await to_thread.run_sync(fn, *args)

    async def commit(self, live: LiveMatch, seat: int, action: str, client_id: str | None,
                     expect: int | None = None) -> int:
        """Apply and log one action (call under live.lock); returns its seq once it is
        committed.  Raises Stale, Duplicate or IllegalAction with nothing changed; any
        other exception: not recorded, and the match was rebuilt from the log.

        SQLite: applied here in the event loop, committed by the writer thread together
        with other rooms' actions (the loop never waits on the database).  PostgreSQL:
        in a worker thread with the match row locked (other processes write too)."""
        if self.writer is None:
            return await self.run(live.commit, self.db, seat, action, client_id, expect)
        try:
            pending = live.prepare(seat, action, client_id, expect)
        except (IllegalAction, Duplicate, Stale):
            raise
        except BaseException:
            log.exception("match %s: the engine failed on %r of seat %s; rebuilding", live.id, action, seat)
            await self.run(live.reload, self.db)
            raise
        fut = self.writer.submit(live.row(pending),
                                 partial(live.write_rows, pending=pending) if live.has_rows(pending) else None)
        try:
            await asyncio.shield(fut)
        except asyncio.CancelledError:
            # Our caller is gone, the write is not: settle the match when it lands.
            fut.add_done_callback(lambda f: self._landed(live, pending, f))
            raise
        except BaseException:
            log.exception("match %s: action %r of seat %s not committed; rebuilding",
                          live.id, action, seat)
            await self.run(live.reload, self.db)
            raise
        live.done(pending)
        return pending.seq

    def _landed(self, live: LiveMatch, pending, fut: asyncio.Future) -> None:
        if not fut.cancelled() and fut.exception() is None:
            live.done(pending)
        elif self.live.get(live.id) is live:  # memory is ahead of the log: load it afresh
            del self.live[live.id]

    # -- rooms --------------------------------------------------------------------

    def room_dict(self, s, room: m.Room) -> dict:
        variant = find_variant(room.variant)
        connected = self.hub.connected_players(room.code)
        host = s.get(m.Player, room.host_id)
        match = store.current_match(s, room)
        live = self.live.get(match.id) if match else None
        version = live.version if live is not None else (match.version if match else 0)
        bots = room_bots(s, room)
        takeover = self.bots.takeover_of(match.id if match else None)
        return {
            "code": room.code,
            "variant": room.variant,
            "variant_name": variant.name,
            "family": variant.family,
            "options": room.options,
            "seat_count": room.seat_count,
            "host": {"id": host.id, "name": host.name, "bot_key": host.bot_key},
            "seats": [{"seat": n, "player": pid, "name": name,
                       "connected": pid in connected or n in bots, "is_bot": n in bots,
                       "level": bots[n][0] if n in bots else None,
                       "bot_key": bots[n][1] if n in bots else None, "takeover": n in takeover}
                      for n, pid, name in store.seats_of(s, room)],
            "takeover_seconds": room.takeover_seconds,
            "status": "waiting" if match is None else match.status,
            "match": None if match is None else {
                "id": match.id, "number": match.number, "status": match.status, "version": version},
            "invite_path": f"/room/{room.code}",
            "created_at": utc(room.created_at),
        }

    def create_room(self, player: m.Player, variant_id: str, options: dict | None,
                    seats: int | None, take_seat: bool, takeover_seconds: float | None = None) -> dict:
        try:
            variant = find_variant(variant_id)
        except KeyError as e:
            raise Invalid(str(e), code="unknown_variant") from None
        seat_count = variant.seat_counts[0] if seats is None else seats
        try:
            resolved = variant.resolve_options(options)
            # The engine has the last word on seats, options and their combination.
            variant.new_match(seat_count, seed=0, options=resolved)
        except ValueError as e:
            raise Invalid(str(e), code="invalid_options") from None
        with self.db.write() as s:
            player = s.merge(player)
            check_open_rooms(s, player.id, self.settings.max_open_rooms)
            room = store.create_room(s, player, variant.id, resolved, seat_count,
                                     0 if take_seat else None)
            room.takeover_seconds = (takeover_seconds if takeover_seconds is not None
                                     else self.settings.turn_timeout) or None
            return self.room_dict(s, room)

    async def resolve_code(self, code: str, addr: str) -> str:
        """The stored code of the room ``code`` names (exact, then upper-cased).  Raises
        NotFound, or RateLimited once ``addr`` asked for too many unknown codes."""
        self.code_guard.check(addr)
        known = self.codes.get(code)
        if known is not None:
            return known

        def lookup() -> str:
            with self.db.read() as s:
                return store.room_by_code(s, code).code
        try:
            known = await self.run(lookup)
        except NotFound:
            self.code_guard.miss(addr)
            raise
        if len(self.codes) > 100_000:  # rooms are never deleted; keep the map bounded anyway
            self.codes.clear()
        self.codes[code] = known
        return known

    def get_room(self, code: str) -> dict:
        with self.db.read() as s:
            return self.room_dict(s, store.room_by_code(s, code))

    async def change_seat(self, code: str, seat_no: int, player: m.Player, take: bool) -> dict:
        def work() -> dict:
            with self.db.write() as s:
                room = store.room_by_code(s, code, lock=self.db.is_postgres)
                if take:
                    store.take_seat(s, room, seat_no, player)
                else:
                    store.leave_seat(s, room, seat_no, player)
                seats = {pid: n for n, pid, _ in store.seats_of(s, room) if pid is not None}
                return self.room_dict(s, room), seats
        room, seats = await self.run(work)
        for conn in self.hub.conns(code):
            conn.seat = seats.get(conn.player_id)
        await self.announce_room(code, room)
        return room

    async def start_match(self, code: str, player: m.Player, *, seed: int | None = None) -> dict:
        def work() -> tuple[dict, str]:
            with self.db.write() as s:
                room = store.room_by_code(s, code, lock=self.db.is_postgres)
                if room.host_id != player.id:
                    raise Forbidden("only the host starts a match", code="not_host")
                current = store.current_match(s, room)
                if current is not None and current.status == "playing":
                    raise Conflict("a match is already being played", code="match_running")
                empty = [n for n, pid, _ in store.seats_of(s, room) if pid is None]
                if empty:
                    raise Conflict(f"seats {empty} are empty", code="seats_empty")
                row = store.create_match(s, room, store.new_seed() if seed is None else seed)
                s.flush()
                live = LiveMatch(row, room.code)
                self.live[row.id] = live
                self.room_current[room.code] = row.id
                if current is not None:
                    self.live.pop(current.id, None)
                return self.room_dict(s, room), row.id
        room, match_id = await self.run(work)
        log.info("match %s started in room %s (%s)", match_id, code, room["variant"])
        await self.announce_room(code, room, new_match=True)
        live = self.live.get(match_id)
        if live is not None:
            async with live.lock:
                self.push_views(live)
            await self.bots.poke(live)
        return room

    def forget_if_idle(self, code: str) -> None:
        """Nobody is left in the room: drop a finished match from memory."""
        if self.hub.conns(code):
            return
        match_id = self.room_current.get(code)
        live = self.live.get(match_id) if match_id else None
        if live is not None and live.finished and not live.lock.locked():
            del self.live[match_id]
            self.room_current.pop(code, None)
            self._loading.pop(match_id, None)

    async def announce_room(self, code: str, room: dict | None = None, *, publish: bool = True,
                            new_match: bool = False) -> None:
        if room is None:
            room = await self.run(self.get_room, code)
        if publish:
            await self.publish(code, {"kind": "room", "new_match": new_match})
        match = room["match"]
        self.hub.broadcast(code, {"type": "room", "version": match["version"] if match else 0,
                                  "match": match["id"] if match else None, "room": room})
        self.send_presence(code, room)

    def send_presence(self, code: str, room: dict) -> None:
        connected = self.hub.connected_players(code)
        seated = {s["player"] for s in room["seats"] if s["player"] is not None}
        match = room["match"]
        msg = {"type": "presence", "version": match["version"] if match else 0,
               "match": match["id"] if match else None,
               "seats": [{"seat": s["seat"], "player": s["player"], "name": s["name"],
                          "connected": s["player"] in connected or s.get("is_bot", False),
                          "is_bot": s.get("is_bot", False), "level": s.get("level"),
                          "bot_key": s.get("bot_key"), "takeover": s.get("takeover", False)}
                         for s in room["seats"]],
               "spectators": len(connected - seated)}
        self.hub.broadcast(code, msg)

    async def presence_changed(self, code: str) -> None:
        """Players came or went on another process (rooms/fanout.py): tell our sockets."""
        if self.hub.conns(code):
            self.send_presence(code, await self.run(self.get_room, code))

    # -- live matches -------------------------------------------------------------

    async def get_live(self, match_id: str) -> LiveMatch | None:
        live = self.live.get(match_id)
        if live is not None:
            return live
        lock = self._loading.setdefault(match_id, asyncio.Lock())
        async with lock:
            live = self.live.get(match_id)
            if live is None:
                try:
                    live = await self.run(LiveMatch.load, self.db, match_id)
                except KeyError:
                    return None
                self.live[match_id] = live
        return live

    def push_views(self, live: LiveMatch) -> None:
        """Send every connection in the room its own view, or to one that accepted
        deltas and holds the seat's previous view, what changed (call under live.lock)."""
        version, match_id = live.version, live.id
        bases = dict(live.shown)  # each seat's last view, before this push replaces it
        full: dict[int | None, str] = {}
        deltas: dict[int | None, str] = {}
        for conn in self.hub.conns(live.room_code):
            seat = live.seat_of(conn.seat)
            text = None
            base = bases.get(seat)
            if (conn.delta and base is not None and base[0] != version
                    and conn.sent == (match_id, base[0], seat)):
                if seat not in deltas:
                    deltas[seat] = self._delta_text(live, seat, base)
                text = deltas[seat]
            if text is None:
                text = full.get(seat)
                if text is None:
                    text = full[seat] = dumps({"type": "view", "version": version, "match": match_id,
                                               "view": live.view(seat)})
            conn.sent = (match_id, version, seat)
            conn.send(text)

    def _delta_text(self, live: LiveMatch, seat: int | None, base: tuple[int, dict]) -> str:
        """The delta from ``base`` (version, view) of the seat to its view now."""
        changed, gone = view_delta(base[1], live.view(seat))
        return dumps({"type": "delta", "version": live.version, "match": live.id, "base": base[0],
                      "set": changed, "unset": gone})

    def view_message(self, live: LiveMatch | None, conn: Conn) -> dict:
        """The full view for ``conn`` now (connect, resume); remembered as its base."""
        if live is None:
            conn.sent = None
            return {"type": "view", "version": 0, "match": None, "view": None}
        seat = live.seat_of(conn.seat)
        conn.sent = (live.id, live.version, seat)
        return {"type": "view", "version": live.version, "match": live.id, "view": live.view(seat)}

    async def current_live(self, code: str) -> LiveMatch | None:
        def current() -> str | None:
            with self.db.read() as s:
                return store.room_by_code(s, code).current_match_id
        match_id = self.room_current.get(code)
        if match_id is None:
            match_id = await self.run(current)
            if match_id:
                self.room_current[code] = match_id
        return await self.get_live(match_id) if match_id else None

    async def act(self, conn: Conn, msg: p.ActionIn) -> None:
        received = time.perf_counter()
        live = await self.current_live(conn.room_code)

        def error(code: str, message: str) -> None:
            conn.send({"type": "error", "version": live.version if live else 0,
                       "match": live.id if live else None, "code": code,
                       "message": message, "client_id": msg.client_id})

        if conn.seat is None:
            return error(p.NOT_SEATED, "you hold no seat in this room; spectators cannot act")
        if msg.seat is not None and msg.seat != conn.seat:
            return error(p.NOT_YOUR_SEAT, f"you hold seat {conn.seat}, not seat {msg.seat}")
        if live is None:
            return error(p.NO_MATCH, "no match has been started in this room")
        seat = conn.seat
        async with live.lock:
            if msg.version is not None and msg.version != live.version:
                await self.run(live.catch_up, self.db)  # another process may have moved on
            if msg.version is not None and msg.version != live.version and \
                    (seat, msg.client_id) not in live.acks:
                return error(p.STALE, f"the match is at version {live.version}, not {msg.version}")
            started = time.perf_counter()
            try:
                seq = await self.commit(live, seat, msg.action, msg.client_id)
            except Duplicate as dup:
                conn.send({"type": "ack", "version": live.version, "match": live.id,
                           "client_id": msg.client_id, "seq": dup.seq})
                return
            except IllegalAction as e:
                return error(p.ILLEGAL, str(e))
            except Exception as e:  # logged with its traceback by LiveMatch.commit
                log.error("match %s: action %r of seat %s not recorded: %s", live.id, msg.action, seat, e)
                error(p.INTERNAL, "the server could not record the action; try again")
                self.push_views(live)  # the state as the log has it
                return
            conn.send({"type": "ack", "version": live.version, "match": live.id,
                       "client_id": msg.client_id, "seq": seq})
            self.push_views(live)
            self.metrics.action_done(received)
            finished = live.finished
            version = live.version
        await self.publish(conn.room_code, {"kind": "match", "match": live.id, "version": version,
                                            "logged": [seq, seat, msg.action, msg.client_id]})
        await self.bots.returned(live, seat)  # the person's own committed action ends a takeover
        await self.bots.poke(live)
        log.debug("match %s seq %d seat %d %s (%.1f ms)", live.id, seq, seat, msg.action,
                  (time.perf_counter() - started) * 1000)
        if finished:
            log.info("match %s finished: %s", live.id, live.engine.result())
            await self.announce_room(conn.room_code)

    async def back(self, conn: Conn) -> None:
        """``back``: the seat's own player takes the seat back from the bot playing for him."""
        live = await self.current_live(conn.room_code)
        if conn.seat is None:
            return self._error(conn, live, p.NOT_SEATED, "you hold no seat in this room")
        if live is None or live.finished:
            return self._error(conn, live, p.NO_MATCH, "no match is being played in this room")
        if not await self.bots.returned(live, conn.seat):
            self.send_presence(conn.room_code, await self.run(self.get_room, conn.room_code))

    async def take_over(self, conn: Conn, seat: int) -> None:
        """``takeover``: the host lets a bot play ``seat`` now, during a match."""
        live = await self.current_live(conn.room_code)
        room = await self.run(self.get_room, conn.room_code)
        if room["host"]["id"] != conn.player_id:
            return self._error(conn, live, p.NOT_HOST, "only the host lets a bot play a seat")
        if live is None or live.finished:
            return self._error(conn, live, p.NO_MATCH, "no match is being played in this room")
        if not 0 <= seat < live.seat_count:
            return self._error(conn, live, p.BAD_MESSAGE,
                               f"seat: no seat {seat} (seats 0..{live.seat_count - 1})")
        await self.bots.take_over(live, seat)

    def _error(self, conn: Conn, live: LiveMatch | None, code: str, message: str) -> None:
        conn.send({"type": "error", "version": live.version if live else 0,
                   "match": live.id if live else None, "code": code, "message": message})

    # -- chat ---------------------------------------------------------------------

    def _chat_allowed(self, code: str, player_id: int) -> bool:
        rate, burst = self.settings.chat_per_second, float(self.settings.chat_burst)
        now = time.monotonic()
        tokens, last = self._chat_buckets.get((code, player_id), (burst, now))
        tokens = min(burst, tokens + (now - last) * rate)
        if tokens < 1:
            self._chat_buckets[(code, player_id)] = (tokens, now)
            return False
        self._chat_buckets[(code, player_id)] = (tokens - 1, now)
        return True

    async def chat(self, conn: Conn, text: str, version: int, match: str | None) -> None:
        from .text import clean_chat
        try:
            text = clean_chat(text, self.settings.max_chat_length)
        except ValueError as e:
            conn.send({"type": "error", "version": version, "match": match,
                       "code": p.CHAT_INVALID, "message": str(e)})
            return
        if not self._chat_allowed(conn.room_code, conn.player_id):
            conn.send({"type": "error", "version": version, "match": match,
                       "code": p.RATE_LIMITED, "message": "too many chat messages; wait a moment"})
            return

        def save() -> m.ChatMessage:
            with self.db.write() as s:
                room = store.room_by_code(s, conn.room_code)
                player = s.get(m.Player, conn.player_id)
                return store.add_chat(s, room, player, conn.seat, text)
        row = await self.run(save)
        out = {"type": "chat", "version": version, "match": match, "id": row.id,
               "player": conn.player_id, "name": conn.name, "seat": conn.seat, "text": text,
               "time": row.created_at.astimezone(UTC).isoformat()}
        self.hub.broadcast(conn.room_code, out)
        await self.publish(conn.room_code, {"kind": "chat", "message": out})

    # -- history ------------------------------------------------------------------

    def replayed(self, row: m.Match, actions: list[m.Action]):
        """An engine match rebuilt from the log (cached for finished matches)."""
        key = f"{row.id}@{len(actions)}"
        with self._replay_lock:
            cached = self._replays.get(key)
            if cached is not None:
                self._replays.move_to_end(key)
                return cached
        match = find_variant(row.variant).new_match(
            row.seat_count, seed=row.seed, options=row.options, first_dealer=row.first_dealer,
            preset_deals=row.preset_deals)
        for a in actions:
            match.apply(a.seat, a.action)
        if row.status == "finished":
            with self._replay_lock:
                self._replays[key] = match
                while len(self._replays) > self.settings.history_cache:
                    self._replays.popitem(last=False)
        return match


_gc_tuned = False


def tune_gc() -> None:
    """Keep the collector's pauses short (once per process).

    A full collection walks every tracked object, and about 100,000 of them are the
    modules, classes and routes loaded at start-up, which live as long as the
    process: a pause of 50-300 ms on a busy machine, for every room at once.  They
    are moved out of the collector's sight (gc.freeze).  Young collections run less
    often, so fewer objects age into the old generation, and full collections (of
    the thousands of sockets' objects, nearly all of them alive: they usually find
    nothing) are rare, so that their pause touches well under 1% of actions."""
    global _gc_tuned
    if _gc_tuned:
        return
    _gc_tuned = True
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 100)


def utc(dt: datetime | None) -> str | None:
    if dt is None:
        return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.isoformat()
