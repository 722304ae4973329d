"""The server's state, one ``Kozyr`` per process: rooms (``RoomService``), live matches
(``MatchLoop``, loop.py), bots (bots.py), sockets (hub.py), other processes (fanout.py).

REST routes and the websocket route call the services; SQL runs in worker threads
through app/db/store.py, engine work for a match only under that match's lock.

Room state is kept in memory (``RoomService.snapshots``): loaded from the database
once, replaced by the fresh state each change writes, dropped when another
process says the room changed.  ``room`` and ``presence`` messages are built from
it at the moment they are sent, so they carry the version the match has then —
never one older than a view the connection already got."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from anyio import to_thread

from engine import find_variant
from engine.bots import LEVELS

from .. import protocol as p
from ..coalesce import Coalescer
from ..config import Settings
from ..db import models as m
from ..db import store
from ..db.errors import (
    BadOptions,
    BadVariant,
    BotsDisabled,
    MatchRunning,
    NotHost,
    NotYourSeat,
    SeatsEmpty,
    SeatTaken,
    TooManyBots,
    TooManyRooms,
    UnknownLevel,
    UnknownRoom,
)
from ..db.migrate import upgrade
from ..db.session import Database
from ..gcpace import GcPacer, freeze_startup
from ..hashing import Hashing
from ..limits import CodeGuard
from ..metrics import Metrics
from ..ratings import Ratings
from .abandon import Abandon
from .bots import SLOTS, BotRunner, bot_name
from .history import History
from .hub import Conn, Hub
from .live import ABANDON, LiveMatch
from .loop import MatchLoop
from .replays import ReplayCache
from .takeback import Takebacks

if TYPE_CHECKING:  # pragma: no cover
    from .fanout import RedisFanout

log = logging.getLogger("kozyr.rooms")
T = TypeVar("T")


class RoomService:
    """Rooms, seats, bots in seats, the turn timeout, chat, and the room messages."""

    def __init__(self, kozyr: Kozyr) -> None:
        self.k = kozyr
        self.settings = kozyr.settings
        self.db = kozyr.db
        self.hub = kozyr.hub
        self.snapshots: dict[str, dict] = {}  # stored code -> store.room_snapshot()
        self.codes: dict[str, str] = {}  # a code as asked for -> the room's stored code
        self.code_guard = CodeGuard(self.settings.room_lookup_burst, self.settings.room_lookup_per_minute)
        self._chat_buckets: OrderedDict[tuple[str, int], tuple[float, float]] = OrderedDict()
        self._resolving: dict[str, asyncio.Lock] = {}  # code -> the lock of its one look-up

    # -- the room in memory ---------------------------------------------------------------

    async def resolve_code(self, code: str, addr: str) -> str:
        """The stored code of the room ``code`` names (exact, then upper-cased).  Raises
        UnknownRoom, or RateLimited once ``addr`` asked for too many unknown codes."""
        self.code_guard.check(addr)
        known = self._known_code(code)
        if known is not None:
            return known
        # The seats of a room join at once: one of them reads the room, the others wait.
        lock = self._resolving.setdefault(code, asyncio.Lock())
        try:
            async with lock:
                known = self._known_code(code)
                if known is not None:
                    return known
                try:
                    snap = await self.k.run(self._read_room, code)
                except UnknownRoom:
                    self.code_guard.miss(addr)
                    raise
        finally:
            if not lock.locked() and self._resolving.get(code) is lock:
                del self._resolving[code]
        if len(self.codes) > 100_000:  # rooms are never deleted; keep the map bounded anyway
            self.codes.clear()
        self.codes[code] = snap["code"]
        self.snapshots.setdefault(snap["code"], snap)
        return snap["code"]

    def _known_code(self, code: str) -> str | None:
        known = self.codes.get(code)
        if known is None and code in self.snapshots:  # a room this process made or changed
            known = code
        return known

    async def snapshot(self, code: str) -> dict:
        """The room's state (``code`` is a stored code): from memory, else the database."""
        snap = self.snapshots.get(code)
        if snap is None:
            snap = self.snapshots.setdefault(code, await self.k.run(self._read_room, code))
        return snap

    def _read_room(self, code: str) -> dict:
        """(A worker thread.)  The room's state from the database (UnknownRoom if none)."""
        with self.db.read() as s:
            return store.room_snapshot_by_code(s, code)

    def forget(self, code: str) -> None:
        """Another process changed the room: read it afresh when next needed."""
        self.snapshots.pop(code, None)

    async def current_match_id(self, code: str) -> str | None:
        match = (await self.snapshot(code))["match"]
        return match["id"] if match else None

    def room_dict(self, snap: dict) -> dict:
        """The room as ``GET /api/rooms/{code}`` and ``room`` messages show it, now."""
        variant = find_variant(snap["variant"])
        code = snap["code"]
        connected = self.hub.connected_players(code)
        match = snap["match"]
        live = self.k.live.get(match["id"]) if match else None
        takeover = self.k.bots.takeover_of(match["id"] if match else None)
        return {
            "code": code,
            "variant": snap["variant"],
            "variant_name": variant.name,
            "family": variant.family,
            "options": snap["options"],
            "seat_count": snap["seat_count"],
            "host": dict(snap["host"]),
            "seats": [{"seat": s["seat"], "player": s["player"], "name": s["name"],
                       "connected": s["player"] in connected or s["level"] is not None,
                       "is_bot": s["level"] is not None, "level": s["level"], "bot_key": s["bot_key"],
                       "takeover": s["seat"] in takeover} for s in snap["seats"]],
            "takeover_seconds": snap["takeover_seconds"],
            "rated": snap.get("rated", False),
            "takeback": snap.get("takeback", "agree"),
            "abandoned": snap.get("abandoned", "ignored"),
            "status": "waiting" if match is None else match["status"],
            "match": None if match is None else {
                "id": match["id"], "number": match["number"], "status": match["status"],
                "version": live.version if live is not None else match["version"]},
            "invite_path": f"/room/{code}",
            "created_at": snap["created_at"],
        }

    async def room(self, code: str) -> dict:
        return self.room_dict(await self.snapshot(code))

    def seat_of(self, code: str, player_id: int) -> int | None:
        snap = self.snapshots.get(code)
        if snap is None:
            return None
        return next((s["seat"] for s in snap["seats"] if s["player"] == player_id), None)

    # -- telling the sockets ----------------------------------------------------------------

    def announce(self, code: str) -> None:
        """``room`` and ``presence`` to the room's sockets, from memory, now."""
        snap = self.snapshots.get(code)
        if snap is None or not self.hub.conns(code):
            return
        room = self.room_dict(snap)
        match = room["match"]
        stamp = {"version": match["version"] if match else 0, "match": match["id"] if match else None}
        self.hub.broadcast(code, {"type": "room", **stamp, "room": room})
        self.hub.broadcast(code, self._presence(room, stamp))

    def send_presence(self, code: str) -> None:
        snap = self.snapshots.get(code)
        if snap is None or not self.hub.conns(code):
            return
        room = self.room_dict(snap)
        match = room["match"]
        self.hub.broadcast(code, self._presence(room, {
            "version": match["version"] if match else 0, "match": match["id"] if match else None}))

    def _presence(self, room: dict, stamp: dict) -> dict:
        connected = self.hub.connected_players(room["code"])
        seated = {s["player"] for s in room["seats"] if s["player"] is not None}
        return {"type": "presence", **stamp,
                "seats": [{k: s[k] for k in ("seat", "player", "name", "connected", "is_bot", "level",
                                             "bot_key", "takeover")} for s in room["seats"]],
                "spectators": len(connected - seated)}

    async def changed(self, snap: dict, *, new_match: bool = False) -> dict:
        """A change this process wrote: keep the fresh state, re-seat the sockets, tell
        them and the other processes; the room as the REST answer shows it."""
        code = snap["code"]
        self.snapshots[code] = snap
        self._reseat(snap)
        await self.k.publish(code, {"kind": "room", "new_match": new_match})
        self.announce(code)
        return self.room_dict(snap)

    def _reseat(self, snap: dict) -> None:
        seats = {s["player"]: s["seat"] for s in snap["seats"] if s["player"] is not None}
        for conn in self.hub.conns(snap["code"]):
            conn.seat = seats.get(conn.player_id)

    async def on_note(self, code: str, note: dict) -> None:
        """Another process changed the room: read it, re-seat our sockets, tell them."""
        self.forget(code)
        snap = await self.snapshot(code)
        self._reseat(snap)
        self.announce(code)
        if note.get("new_match"):
            live = await self.k.matches.current(code)
            if live is not None:
                async with live.lock:
                    self.k.matches.push_views(live)

    def match_finished(self, live: LiveMatch, *, publish: bool = True) -> None:
        """The match is over (under its lock): the room says so, in order."""
        snap = self.snapshots.get(live.room_code)
        if snap is not None and snap["match"] and snap["match"]["id"] == live.id:
            status = "abandoned" if live.abandoned else "finished"
            if snap["match"]["status"] != status:
                snap["match"] = {**snap["match"], "status": status, "version": live.version}
                self.announce(live.room_code)

    def forget_if_idle(self, code: str) -> None:
        """Nobody is left in the room: drop a finished match and the room's state from
        memory (read again when somebody comes back)."""
        if self.hub.conns(code):
            return
        snap = self.snapshots.pop(code, None)
        match = snap["match"] if snap else None
        live = self.k.live.get(match["id"]) if match else None
        if live is not None and live.finished and not live.lock.locked():
            self.k.matches.forget(live)

    # -- REST operations ------------------------------------------------------------------

    def create_room(self, player: m.Player, variant_id: str, options: dict | None,
                    seats: int | None, take_seat: bool, takeover_seconds: float | None = None,
                    rated: bool = False, takeback: str | None = None,
                    abandoned: str = "ignored") -> dict:
        """(A worker thread.)  A new room; the host takes seat 0 if ``take_seat``."""
        try:
            variant = find_variant(variant_id)
        except KeyError as e:
            raise BadVariant(str(e)) from None
        seat_count = variant.seat_counts[0] if seats is None else seats
        try:
            resolved = variant.resolve_options(options)
            # The engine has the last word on seats, options and their combination.
            variant.new_match(seat_count, seed=0, options=resolved)
        except ValueError as e:
            raise BadOptions(str(e)) from None
        limit = self.settings.max_open_rooms
        with self.db.write() as s:
            if limit > 0 and store.open_rooms(s, player.id) >= limit:
                raise TooManyRooms(f"you already host {limit} open rooms; finish or leave one first")
            host = store.player_row(s, player.id)
            room = store.create_room(s, host, variant.id, resolved, seat_count, 0 if take_seat else None)
            room.takeover_seconds = (takeover_seconds if takeover_seconds is not None
                                     else self.settings.turn_timeout) or None
            room.rated = rated
            # A rated room allows take-backs only when it says so (README, take-backs).
            room.takeback = takeback or ("off" if rated else "agree")
            room.abandoned = abandoned  # does a match the host stops count (app/rooms/abandon.py)
            s.flush()
            snap = store.room_snapshot(s, room)
        self.snapshots[snap["code"]] = snap  # (a dict assignment: safe from a worker thread)
        return self.room_dict(snap)

    async def _write(self, code: str, work: Callable[..., T]) -> dict:
        """Run ``work(session, room)`` in a write transaction with the room row locked
        (PostgreSQL); the room's fresh state."""
        def run() -> dict:
            with self.db.write() as s:
                room = store.room_by_code(s, code, lock=self.db.is_postgres)
                work(s, room)
                s.flush()
                return store.room_snapshot(s, room)
        return await self.k.run(run)

    async def change_seat(self, code: str, seat_no: int, player: m.Player, take: bool) -> dict:
        def work(s, room: m.Room) -> None:
            if take:
                store.take_seat(s, room, seat_no, player.id)
                return
            seat = store.seat_row(s, room, seat_no)
            if seat.player_id != player.id and player.id != room.host_id:
                raise NotYourSeat(f"seat {seat_no} is not yours")
            store.free_seat(s, room, seat_no)
        return await self.changed(await self._write(code, work))

    async def change_bot(self, code: str, seat_no: int, player: m.Player, level: str | None) -> dict:
        """Seat a bot of ``level`` (None: remove the bot) in an empty seat; host only."""
        if level is not None and not self.settings.bots_enabled:
            raise BotsDisabled("bots are switched off on this server")
        if level is not None and level not in LEVELS:
            raise UnknownLevel(f"unknown bot level {level!r}; known: {', '.join(LEVELS)}")

        def work(s, room: m.Room) -> None:
            if room.host_id != player.id:
                raise NotHost("only the host seats or removes bots")
            if level is None:
                store.remove_bot(s, room, seat_no)
                return
            if store.seat_holds_person(s, room, seat_no):
                raise SeatTaken(f"seat {seat_no} is taken")
            store.check_between_matches(s, room)
            # The lowest slot of that level not seated elsewhere in the room: three basic
            # bots are three players (Sam, Max, Tom).
            others = {key for n, (_, key) in store.room_bots(s, room).items() if n != seat_no}
            slot = next((k for k in range(1, SLOTS + 1) if f"{level}-{k}" not in others), None)
            if slot is None:
                raise TooManyBots(f"the room already holds {SLOTS} {level} bots")
            bot = store.bot_player(s, level, slot, bot_name(level, slot))
            store.seat_row(s, room, seat_no).player_id = bot.id  # an empty seat, or another bot
        return await self.changed(await self._write(code, work))

    async def set_takeover(self, code: str, player: m.Player, seconds: float | None) -> dict:
        """The host sets the room's turn timeout (None / 0: off); applies at once."""
        def work(s, room: m.Room) -> None:
            if room.host_id != player.id:
                raise NotHost("only the host changes the room")
            room.takeover_seconds = seconds or None
        snap = await self._write(code, work)
        self.snapshots[code] = snap
        await self.k.bots.timeout_changed(await self.current_match_id(code), seconds)
        return await self.changed(snap)

    async def start_match(self, code: str, player: m.Player, *, seed: int | None = None) -> dict:
        k = self.k

        def work() -> tuple[dict, str, str | None]:
            with self.db.write() as s:
                room = store.room_by_code(s, code, lock=self.db.is_postgres)
                if room.host_id != player.id:
                    raise NotHost("only the host starts a match")
                current = store.current_match(s, room)
                if current is not None and current.status == "playing":
                    raise MatchRunning("a match is already being played")
                empty = [n for n, pid, _ in store.seats_of(s, room) if pid is None]
                if empty:
                    raise SeatsEmpty(f"seats {empty} are empty")
                row = store.create_match(s, room, store.new_seed() if seed is None else seed)
                s.flush()
                k.live[row.id] = live = LiveMatch(row, room.code)
                live.fresh = True  # an empty log, as in memory
                return store.room_snapshot(s, room), row.id, current.id if current else None
        snap, match_id, previous = await k.run(work)
        if previous is not None:
            k.live.pop(previous, None)
        log.info("match %s started in room %s (%s)", match_id, code, snap["variant"])
        room = await self.changed(snap, new_match=True)
        live = k.live.get(match_id)
        if live is not None:
            async with live.lock:
                k.matches.push_views(live)
            await k.bots.poke(live)
        return room

    def chat_lines(self, code: str, limit: int) -> list[dict]:
        """(A worker thread.)  The room's last ``limit`` chat lines."""
        with self.db.read() as s:
            room = store.room_by_code(s, code)
            return [{"id": c.id, "player": c.player_id, "name": name, "seat": c.seat, "text": c.text,
                     "time": store.utc(c.created_at)} for c, name in store.chat_of(s, room, limit)]

    # -- websocket messages -----------------------------------------------------------------

    def _chat_allowed(self, code: str, player_id: int) -> bool:
        rate, burst = self.settings.chat_per_second, float(self.settings.chat_burst)
        now = time.monotonic()
        key = (code, player_id)
        tokens, last = self._chat_buckets.get(key, (burst, now))
        tokens = min(burst, tokens + (now - last) * rate)
        allowed = tokens >= 1
        self._chat_buckets[key] = (tokens - 1 if allowed else tokens, now)
        self._chat_buckets.move_to_end(key)
        while len(self._chat_buckets) > 10_000:  # a full bucket forgotten is a full bucket
            self._chat_buckets.popitem(last=False)
        return allowed

    async def chat(self, conn: Conn, text: str) -> None:
        from .text import clean_chat
        try:
            text = clean_chat(text, self.settings.max_chat_length)
        except ValueError as e:
            return self.k.error(conn, p.CHAT_INVALID, str(e))
        if not self._chat_allowed(conn.room_code, conn.player_id):
            return self.k.error(conn, p.RATE_LIMITED, "too many chat messages; wait a moment")

        def save() -> m.ChatMessage:
            with self.db.write() as s:
                room = store.room_by_code(s, conn.room_code)
                player = store.player_row(s, conn.player_id)
                return store.add_chat(s, room, player, conn.seat, text)
        row = await self.k.run(save)
        version, match = self.k.stamp(conn.room_code)
        out = {"type": "chat", "version": version, "match": match, "id": row.id,
               "player": conn.player_id, "name": conn.name, "seat": conn.seat, "text": text,
               "time": store.utc(row.created_at)}
        self.hub.broadcast(conn.room_code, out)
        await self.k.publish(conn.room_code, {"kind": "chat", "message": out})

    async def back(self, conn: Conn) -> None:
        """``back``: the seat's own player takes the seat back from the bot playing for him."""
        live = await self.k.matches.current(conn.room_code)
        if conn.seat is None:
            return self.k.error(conn, p.NOT_SEATED, "you hold no seat in this room")
        if live is None or live.finished:
            return self.k.error(conn, p.NO_MATCH, "no match is being played in this room")
        if not await self.k.bots.returned(live, conn.seat):
            self.send_presence(conn.room_code)

    async def take_over(self, conn: Conn, seat: int) -> None:
        """``takeover``: the host lets a bot play ``seat`` now, during a match."""
        snap = await self.snapshot(conn.room_code)
        live = await self.k.matches.current(conn.room_code)
        if snap["host"]["id"] != conn.player_id:
            return self.k.error(conn, p.NOT_HOST, "only the host lets a bot play a seat")
        if live is None or live.finished:
            return self.k.error(conn, p.NO_MATCH, "no match is being played in this room")
        if not 0 <= seat < live.seat_count:
            return self.k.error(conn, p.BAD_MESSAGE, f"seat: no seat {seat} (seats 0..{live.seat_count - 1})")
        await self.k.bots.take_over(live, seat)


class Kozyr:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.db = Database(settings.database_url)
        self.hub = Hub()
        self.fanout: RedisFanout | None = None  # when REDIS_URL is set
        self.matches = MatchLoop(self)  # live matches and the path of every action (loop.py)
        self.takebacks = Takebacks(self)  # take-back requests and votes (takeback.py)
        self.abandon = Abandon(self)  # the host stops a match before its end (abandon.py)
        self.live = self.matches.live
        self.rooms = RoomService(self)
        self.bots = BotRunner(self)  # bots in seats and takeovers (rooms/bots.py)
        self.history = History(self)  # matches, exports, players (rooms/history.py)
        self.ratings = Ratings(self)  # standings and ratings of finished matches (app/ratings.py)
        self.metrics = Metrics(self)  # /metrics (app/metrics.py)
        self.gc = GcPacer(settings.gc_pace_ms / 1000, settings.gc_full_seconds)  # app/gcpace.py
        # argon2 on threads of its own, not the database's worker threads (app/hashing.py)
        self.hashing = Hashing(settings.hash_threads, settings.passphrase_time_cost,
                               settings.passphrase_memory_kib)
        self._tokens: dict[str, tuple[float, int, str]] = {}  # token hash -> (until, id, name)
        self._token_reads: Coalescer[str, tuple[int, str]] = Coalescer(self._players_of_tokens)
        self.replays = ReplayCache(settings.history_cache)  # history's replays (replays.py)

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
        """Ready to serve; if a step fails (the database or Redis unreachable), what the
        earlier steps started is stopped again before the error goes on (the collector's
        thresholds and callback are the whole process's)."""
        if self.settings.worker_threads > 0:  # every to_thread.run_sync without a limiter of its own
            to_thread.current_default_thread_limiter().total_tokens = self.settings.worker_threads
        try:
            self.metrics.start_watch()
            if self.settings.run_migrations:
                await self.run(self.migrate)
            await self.run(self.recover)
            await self.run(self.ratings.catch_up)
            if self.settings.gc_freeze:
                freeze_startup()
            self.gc.start()
            for live in list(self.live.values()):  # recovered matches' bots play on
                await self.bots.poke(live)
            if self.settings.redis_url:
                from .fanout import RedisFanout
                fanout = RedisFanout(self.settings.redis_url, self)
                try:
                    await fanout.start()
                except BaseException:
                    await fanout.stop()
                    raise
                self.fanout = fanout
        except BaseException:
            try:
                await self.shutdown()
            except Exception:
                log.exception("stopping what a failed start-up had started")
            raise

    async def shutdown(self) -> None:
        self.metrics.stop_watch()
        self.gc.stop()
        await self.bots.stop()
        if self.fanout is not None:
            await self.fanout.stop()
        for conns in list(self.hub.rooms.values()):
            for conn in list(conns):
                await conn.close()
        await self.matches.stop()
        self.hashing.close()
        self.db.dispose()

    async def run(self, fn: Callable[..., T], *args) -> T:
        return await to_thread.run_sync(fn, *args)

    # -- other processes ------------------------------------------------------------

    async def publish(self, code: str, note: dict) -> None:
        if self.fanout is not None:
            await self.fanout.publish(code, note)

    async def on_remote(self, code: str, note: dict) -> None:
        """Another process changed the room: catch up and tell our sockets."""
        kind = note.get("kind")
        if kind == "match":
            await self.matches.on_note(note)
        elif kind == "room":
            await self.rooms.on_note(code, note)
        elif kind == "chat":
            self.hub.broadcast(code, note["message"])
        elif kind == "takeback":  # a take-back request's votes (app/rooms/takeback.py)
            await self.takebacks.on_note(note)

    async def presence_changed(self, code: str) -> None:
        """Players came or went on another process (rooms/fanout.py): tell our sockets."""
        if self.hub.conns(code):
            await self.rooms.snapshot(code)
            self.rooms.send_presence(code)

    # -- small helpers of the websocket route -------------------------------------------

    async def player_by_token(self, token: str | None) -> tuple[int, str] | None:
        """(id, name) of the token's player; remembered for a while (joins and reconnect
        storms read no rows), forgotten on a rename here (another process's rename
        shows within ``token_cache_seconds``)."""
        if not token or len(token) > 200:
            return None
        key = store.token_hash(token)
        now = time.monotonic()
        hit = self._tokens.get(key)
        if hit is not None and hit[0] > now:
            return hit[1], hit[2]

        found = await self._token_reads.get(token)  # one query for the tokens asked at once
        if found is not None:
            self.remember_token(token, *found)
        return found

    def _players_of_tokens(self, tokens: list[str]) -> dict[str, tuple[int, str]]:
        """(A worker thread.)  (id, name) of each known token's player."""
        with self.db.read() as s:
            return {t: (p.id, p.name) for t, p in store.players_by_tokens(s, tokens).items()}

    def remember_token(self, token: str, player_id: int, name: str) -> None:
        """Remember a token's player (a look-up, or a player just created here: his
        first join then reads no row)."""
        if len(self._tokens) > 50_000:
            self._tokens.clear()
        self._tokens[store.token_hash(token)] = (
            time.monotonic() + self.settings.token_cache_seconds, player_id, name)

    def renamed(self, player_id: int) -> None:
        for key in [k for k, v in self._tokens.items() if v[1] == player_id]:
            del self._tokens[key]

    async def signed_out(self, digests: list[str], publish: bool = True) -> None:
        """Devices were signed out (app/api/auth.py; their rows are gone): their tokens'
        players forgotten, their sockets told and closed (4403), and the other processes
        told the same (rooms/fanout.py).  Whatever else a device holds in memory is let
        go here too."""
        gone = set(digests)
        for key in gone:
            self._tokens.pop(key, None)
        conns = [c for room in list(self.hub.rooms.values()) for c in room if c.device in gone]
        for conn in conns:
            conn.send({"type": "error", "version": 0, "match": None, "code": p.BAD_TOKEN,
                       "message": "this device was signed out"})
        async def close(conn: Conn) -> None:
            await conn.drain(0.5)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.ws.close(code=4403), 2.0)
        await asyncio.gather(*(close(conn) for conn in conns))
        if publish and self.fanout is not None:
            await self.fanout.publish_sign_out(digests)

    def stamp(self, code: str) -> tuple[int, str | None]:
        """(version, match id) of the room's current match, from memory."""
        snap = self.rooms.snapshots.get(code)
        match = snap["match"] if snap else None
        live = self.live.get(match["id"]) if match else None
        if live is not None:
            return live.version, live.id
        return (match["version"], match["id"]) if match else (0, None)

    def error(self, conn: Conn, code: str, message: str, client_id: str | None = None) -> None:
        version, match = self.stamp(conn.room_code)
        conn.send({"type": "error", "version": version, "match": match, "code": code,
                   "message": message, "client_id": client_id})

    async def act(self, conn: Conn, msg: p.ActionIn) -> None:
        """A person's ``action``: the seat checked, then the match loop's one path."""
        received = time.perf_counter()
        if conn.seat is None:
            return self.error(conn, p.NOT_SEATED, "you hold no seat in this room; spectators cannot act",
                              msg.client_id)
        if msg.seat is not None and msg.seat != conn.seat:
            return self.error(conn, p.NOT_YOUR_SEAT, f"you hold seat {conn.seat}, not seat {msg.seat}",
                              msg.client_id)
        live = await self.matches.current(conn.room_code)
        if live is None:
            return self.error(conn, p.NO_MATCH, "no match has been started in this room", msg.client_id)
        if msg.action == ABANDON:  # the server's own entry (app/rooms/abandon.py)
            return self.error(conn, p.ILLEGAL, "the host stops a match with the end_match message",
                              msg.client_id)
        await self.matches.submit(live, conn.seat, msg.action, msg.client_id, msg.version,
                                  conn=conn, received=received)

    # -- history ------------------------------------------------------------------

    def replayed(self, row: m.Match, actions: list):
        """An engine match rebuilt from the log, kept per (match, version) (replays.py)."""
        return self.replays.get(row, actions)

utc = store.utc
