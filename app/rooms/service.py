"""Rooms: their state in memory, seats, bots in seats, chat, and the room messages
(``RoomService``).  The composition root (app/server.py) wires it with the match
loop (loop.py), the bots (bots.py) and what crosses them (play.py); SQL runs in
worker threads through app/db/store.py.

Room state is kept in memory (``RoomService.snapshots``): loaded from the database
once, replaced by the fresh state each change writes, dropped when another
process says the room changed.  ``room`` and ``presence`` messages are built from
it at the moment they are sent, so they carry the version the match has then —
never one older than a view the connection already got."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from typing import Protocol, TypeVar

from anyio import to_thread
from sqlalchemy.orm import Session

from engine import Variant, find_variant
from engine.bots import LEVELS

from .. import protocol as p
from ..config import Settings
from ..db import models as m
from ..db import ratings as sql
from ..db import store
from ..db.errors import (
    BadOptions,
    BadVariant,
    BotsDisabled,
    CoachRated,
    MatchRunning,
    NotHost,
    NotInMatch,
    NotYourSeat,
    SeatsEmpty,
    SeatTaken,
    TooManyBots,
    TooManyRooms,
    UnknownLevel,
    UnknownRoom,
)
from ..db.session import Database
from ..limits import CodeGuard
from .bots import SLOTS, bot_name
from .hub import Conn, Hub
from .live import LiveMatch
from .peers import Peers
from .ports import Notify, Takeovers

log = logging.getLogger("kozyr.rooms")
T = TypeVar("T")


class Caller(Protocol):
    """The player a REST request comes from (app/directory.py KnownPlayer)."""

    @property
    def id(self) -> int: ...


def resolve_rules(variant_id: str, options: dict | None, seats: int | None) -> tuple[Variant, dict, int]:
    """The one check of a room's rules (a new room's, a club preset's): the variant, its
    options resolved and the seat count (default: the variant's first).  Raises
    BadVariant / BadOptions with the engine's words."""
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
    return variant, resolved, seat_count


@lru_cache(maxsize=64)
def _defaults(variant_id: str) -> dict:
    return find_variant(variant_id).resolve_options(None)


def option_changes(variant_id: str, options: dict) -> list[dict]:
    """What ``options`` change from the variant's defaults, as data the client words:
    [{option, value, default}] in the options' order."""
    defaults = _defaults(variant_id)
    return [{"option": key, "value": value, "default": defaults.get(key)}
            for key, value in options.items() if defaults.get(key) != value]


def preset_of(snap: dict) -> dict | None:
    """The club preset a room was opened from, as ``_new_room`` takes it (None: none):
    a room opened again from it keeps the same copy (its name and club; not the link to
    the preset, which may be gone since)."""
    if snap.get("preset_name") is None or snap.get("club") is None:
        return None
    return {"id": None, "club": snap["club"]["id"], "name": snap["preset_name"]}


class RoomService:
    """Rooms, seats, bots in seats, chat, and the room messages."""

    #: The seats a bot plays for an absent person (app/rooms/bots.py BotRunner; the
    #: composition root sets it: the bots need the rooms first).
    takeovers: Takeovers

    def __init__(self, settings: Settings, db: Database, hub: Hub, peers: Peers,
                 live: dict[str, LiveMatch], notifier: Notify) -> None:
        self.settings = settings
        self.notifier = notifier  # pushes after a commit (app/push/)
        self.db = db
        self.hub = hub
        self.peers = peers
        self.live = live  # the live matches (app/rooms/loop.py MatchLoop.live)
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
                    snap = await to_thread.run_sync(self._read_room, code)
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
            snap = self.snapshots.setdefault(code, await to_thread.run_sync(self._read_room, code))
        return snap

    def _read_room(self, code: str) -> dict:
        """(A worker thread.)  The room's state from the database (UnknownRoom if none)."""
        with self.db.read() as s:
            return store.room_snapshot_by_code(s, code)

    def cached(self, code: str) -> dict | None:
        """The room's state if it is in memory (``code`` is a stored code)."""
        return self.snapshots.get(code)

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
        live = self.live.get(match["id"]) if match else None
        takeover = self.takeovers.takeover_of(match["id"] if match else None)
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
            "pace": snap.get("pace", "live"),
            "move_seconds": snap.get("move_seconds"),
            "on_deadline": snap.get("on_deadline", "bot"),
            "vacation_days": snap.get("vacation_days", 14),
            "rated": snap.get("rated", False),
            "coach": snap.get("coach", False),
            "takeback": snap.get("takeback", "agree"),
            "abandoned": snap.get("abandoned", "ignored"),
            "status": "waiting" if match is None else match["status"],
            "match": None if match is None else {
                "id": match["id"], "number": match["number"], "status": match["status"],
                "version": live.version if live is not None else match["version"]},
            "invite_path": f"/room/{code}",
            "created_at": snap["created_at"],
            "preset": None if snap.get("preset_name") is None else {
                "name": snap["preset_name"], "club": snap["club"],
                "differs": option_changes(snap["variant"], snap["options"])},
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
        await self.peers.publish(code, {"kind": "room", "new_match": new_match})
        self.announce(code)
        return self.room_dict(snap)

    def _reseat(self, snap: dict) -> None:
        seats = {s["player"]: s["seat"] for s in snap["seats"] if s["player"] is not None}
        for conn in self.hub.conns(snap["code"]):
            conn.seat = seats.get(conn.player_id)

    async def on_note(self, code: str) -> None:
        """Another process changed the room: read it, re-seat our sockets, tell them."""
        self.forget(code)
        snap = await self.snapshot(code)
        self._reseat(snap)
        self.announce(code)

    def match_finished(self, live: LiveMatch, *, publish: bool = True) -> None:
        """The match is over (under its lock): the room says so, in order."""
        snap = self.snapshots.get(live.room_code)
        if snap is not None and snap["match"] and snap["match"]["id"] == live.id:
            status = "abandoned" if live.abandoned else "finished"
            if snap["match"]["status"] != status:
                snap["match"] = {**snap["match"], "status": status, "version": live.version}
                self.announce(live.room_code)

    def forget_if_idle(self, code: str) -> str | None:
        """Nobody is left in the room: drop the room's state from memory (read again when
        somebody comes back); the id of its current match, if it had one."""
        if self.hub.conns(code):
            return None
        snap = self.snapshots.pop(code, None)
        match = snap["match"] if snap else None
        return match["id"] if match else None

    # -- REST operations ------------------------------------------------------------------

    def _new_room(self, s: Session, host_id: int, variant_id: str, options: dict | None,
                  seats: int | None, take_seat: bool, takeover_seconds: float | None,
                  rated: bool, takeback: str | None, abandoned: str, pace: dict | None = None,
                  preset: dict | None = None, coach: bool = False, capped: bool = True) -> m.Room:
        """(In a write transaction.)  A new room of ``host_id``; he takes seat 0 if ``take_seat``;
        ``preset``: the club preset ({id, club, name}) the room is opened from; ``capped``:
        the host's cap of open rooms applies (not to a club tournament's tables)."""
        variant, resolved, seat_count = resolve_rules(variant_id, options, seats)
        limit = self.settings.max_open_rooms
        if capped and limit > 0 and store.open_rooms(s, host_id) >= limit:
            raise TooManyRooms(f"you already host {limit} open rooms; finish or leave one first")
        host = store.player_row(s, host_id)
        room = store.create_room(s, host, variant.id, resolved, seat_count, 0 if take_seat else None)
        room.takeover_seconds = (takeover_seconds if takeover_seconds is not None
                                 else self.settings.turn_timeout) or None
        room.rated = rated
        # A rated room allows take-backs only when it says so (README, take-backs).
        room.takeback = takeback or ("off" if rated else "agree")
        room.abandoned = abandoned  # does a match the host stops count (app/rooms/abandon.py)
        self._set_pace(room, pace or {})
        self._set_coach(room, coach)
        if preset is not None:  # a club's room: its own copy of the preset's rules and name
            room.club_id, room.preset_id, room.preset_name = preset["club"], preset["id"], preset["name"]
        s.flush()
        return room

    @staticmethod
    def _set_coach(room: m.Room, coach: bool | None) -> None:
        """(In a write transaction.)  The coach on or off (None: unchanged); never in a
        rated room."""
        if coach is None:
            return
        if coach and room.rated:
            raise CoachRated("a rated room has no coach: hints would help one side of a rated match")
        room.coach = coach

    def _set_pace(self, room: m.Room, pace: dict) -> None:
        """(In a write transaction.)  The room's pace fields given in ``pace`` (README "Pace,
        deadlines ..."); a turn-based room always has its move's length."""
        for key in ("pace", "move_seconds", "on_deadline", "vacation_days"):
            if pace.get(key) is not None:
                setattr(room, key, pace[key])
        if room.pace == "turn" and not room.move_seconds:
            room.move_seconds = self.settings.move_seconds

    async def create_room(self, player: Caller, variant_id: str, options: dict | None,
                          seats: int | None, take_seat: bool, takeover_seconds: float | None = None,
                          rated: bool = False, takeback: str | None = None,
                          abandoned: str = "ignored", pace: dict | None = None,
                          preset: dict | None = None, coach: bool = False,
                          seated: list[int] | None = None,
                          then: Callable[[Session, m.Room], None] | None = None) -> dict:
        """A new room; the host takes seat 0 if ``take_seat``; ``pace``: its pace fields;
        ``preset``: the club preset it is opened from ({id, club, name}; app/clubs.py);
        ``coach``: hints at the table (app/rooms/coach.py).  A club tournament's table
        (app/tournaments.py): ``seated`` its players by seat, taken in the same
        transaction (the host's cap of open rooms does not apply), and ``then(session,
        room)`` run in it too (the table row gets its room)."""
        def write() -> dict:
            with self.db.write() as s:
                room = self._new_room(s, player.id, variant_id, options, seats, take_seat,
                                      takeover_seconds, rated, takeback, abandoned, pace, preset, coach,
                                      capped=seated is None)
                for seat_no, pid in enumerate(seated or []):
                    store.take_seat(s, room, seat_no, pid)
                if then is not None:
                    then(s, room)
                return store.room_snapshot(s, room)
        snap = await to_thread.run_sync(write)
        self.snapshots[snap["code"]] = snap
        return self.room_dict(snap)

    async def again(self, code: str, player: Caller) -> tuple[dict, list[int]]:
        """A new room like ``code`` (variant, options, seats, rated, turn timeout, pace,
        take-backs, abandoned matches) hosted by ``player``, who must have played its last match: he
        takes his seat, the bots theirs, every other person of that match is called —
        one transaction.  The new room and the ids of the people called."""
        old = await self.snapshot(code)
        match = old["match"]
        return await self.call_to_new_room(old, match["id"] if match else None, player,
                                           "only a player of this room's last match calls its people to a new room")

    async def call_to_new_room(self, old: dict, match_id: str | None, player: Caller, refusal: str,
                               replay_deal: dict | None = None) -> tuple[dict, list[int]]:
        """A new room like the room ``old`` (its state) hosted by ``player``, who must have
        played its match ``match_id`` (NotInMatch with ``refusal`` otherwise): he takes his
        seat, the bots theirs, every other person of that match is called; ``replay_deal``:
        the deal its first match starts with (app/duplicates.py).  The new room and the ids
        of the people called."""
        def write() -> tuple[dict, list[int]]:
            with self.db.write() as s:
                played = store.match_seats(s, match_id) if match_id else []
                mine = next((x["seat"] for x in played if x["player"] == player.id), None)
                if mine is None:
                    raise NotInMatch(refusal)
                room = self._new_room(s, player.id, old["variant"], old["options"], old["seat_count"], False,
                                      old["takeover_seconds"] or 0, old.get("rated", False),
                                      old.get("takeback"), old.get("abandoned", "ignored"),
                                      store.pace_of(old), preset_of(old), old.get("coach", False))
                room.replay_deal = replay_deal
                store.take_seat(s, room, mine, player.id)
                for x in played:
                    if x["bot_key"]:
                        self._seat_bot(s, room, x["seat"], self._level_of(x["bot_key"]))
                people = [x["player"] for x in played if not x["bot_key"] and x["player"] != player.id]
                sql.add_calls(s, room.id, player.id, people)
                s.flush()
                return store.room_snapshot(s, room), people
        snap, people = await to_thread.run_sync(write)
        for person in people:  # committed: each one called gets a push (kind "call")
            self.notifier.notify(person, "call", room=snap["code"], name=snap["host"]["name"])
        return await self.changed(snap), people

    async def _write(self, code: str, work: Callable[..., T]) -> dict:
        """Run ``work(session, room)`` in a write transaction with the room row locked
        (PostgreSQL); the room's fresh state."""
        def run() -> dict:
            with self.db.write() as s:
                room = store.room_by_code(s, code, lock=self.db.is_postgres)
                work(s, room)
                s.flush()
                return store.room_snapshot(s, room)
        return await to_thread.run_sync(run)

    async def change_seat(self, code: str, seat_no: int, player: Caller, take: bool) -> dict:
        def work(s, room: m.Room) -> None:
            if take:
                store.take_seat(s, room, seat_no, player.id)
                return
            seat = store.seat_row(s, room, seat_no)
            if seat.player_id != player.id and player.id != room.host_id:
                raise NotYourSeat(f"seat {seat_no} is not yours")
            store.free_seat(s, room, seat_no)
        return await self.changed(await self._write(code, work))

    def _level_of(self, bot_key: str) -> str:
        """The level of a bot's key ("basic-2"), checked (bots on, a known level)."""
        level = bot_key.rsplit("-", 1)[0]
        self._check_level(level)
        return level

    def open_seated(self, s: Session, host_id: int, rules: dict, seating: list[tuple[int, int | None, str | None]],
                    *, deal_seeds: bool = False) -> m.Room:
        """(In a write transaction.)  A new room of ``host_id`` (``rules``: ``_new_room``'s
        arguments by name, no ``take_seat``), every seat taken at once, in the order of
        ``seating``: (seat, a person's id, None) or (seat, None, a bot level); ``deal_seeds``:
        its matches use the per-deal seed mode (a duplicate's table)."""
        room = self._new_room(s, host_id, take_seat=False, **rules)
        room.deal_seeds = deal_seeds
        for seat_no, person, level in seating:
            if level is not None:
                self._check_level(level)
                self._seat_bot(s, room, seat_no, level)
            elif person is not None:
                store.take_seat(s, room, seat_no, person)
        s.flush()
        return room

    def _check_level(self, level: str) -> None:
        if not self.settings.bots_enabled:
            raise BotsDisabled("bots are switched off on this server")
        if level not in LEVELS:
            raise UnknownLevel(f"unknown bot level {level!r}; known: {', '.join(LEVELS)}")

    def _seat_bot(self, s: Session, room: m.Room, seat_no: int, level: str) -> None:
        """(In a write transaction.)  A bot of ``level`` in seat ``seat_no`` (empty, or a bot's)."""
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

    async def change_bot(self, code: str, seat_no: int, player: Caller, level: str | None) -> dict:
        """Seat a bot of ``level`` (None: remove the bot) in an empty seat; host only."""
        if level is not None:
            self._check_level(level)

        def work(s, room: m.Room) -> None:
            if room.host_id != player.id:
                raise NotHost("only the host seats or removes bots")
            if level is None:
                store.remove_bot(s, room, seat_no)
            else:
                self._seat_bot(s, room, seat_no, level)
        return await self.changed(await self._write(code, work))

    async def write_settings(self, code: str, player: Caller, changes: dict) -> dict:
        """The host changes the room's clock: ``takeover_seconds`` (None / 0: off) and the
        pace fields given: the room's fresh state, kept (app/rooms/play.py tells the bots
        and the sockets)."""
        def work(s, room: m.Room) -> None:
            if room.host_id != player.id:
                raise NotHost("only the host changes the room")
            if "takeover_seconds" in changes:
                room.takeover_seconds = changes["takeover_seconds"] or None
            self._set_pace(room, changes)
            self._set_coach(room, changes.get("coach"))
            if room.coach:  # the match under way was coached: it counts in no club season
                store.mark_coached(s, room)
        snap = await self._write(code, work)
        self.snapshots[code] = snap
        return snap

    async def start_match(self, code: str, player: Caller, *, seed: int | None = None
                          ) -> tuple[dict, LiveMatch | None]:
        """A new match in the room (host only, every seat taken, none being played): the
        room as the REST answer shows it, and the match in memory."""
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
                self.live[row.id] = live = LiveMatch(row, room.code)
                live.fresh = True  # an empty log, as in memory
                return store.room_snapshot(s, room), row.id, current.id if current else None
        snap, match_id, previous = await to_thread.run_sync(work)
        if previous is not None:
            self.live.pop(previous, None)
        log.info("match %s started in room %s (%s)", match_id, code, snap["variant"])
        room = await self.changed(snap, new_match=True)
        return room, self.live.get(match_id)

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
            return self.error(conn, p.CHAT_INVALID, str(e))
        if not self._chat_allowed(conn.room_code, conn.player_id):
            return self.error(conn, p.RATE_LIMITED, "too many chat messages; wait a moment")

        def save() -> m.ChatMessage:
            with self.db.write() as s:
                room = store.room_by_code(s, conn.room_code)
                player = store.player_row(s, conn.player_id)
                return store.add_chat(s, room, player, conn.seat, text)
        row = await to_thread.run_sync(save)
        version, match = self.stamp(conn.room_code)
        out = {"type": "chat", "version": version, "match": match, "id": row.id,
               "player": conn.player_id, "name": conn.name, "seat": conn.seat, "text": text,
               "time": store.utc(row.created_at)}
        self.hub.broadcast(conn.room_code, out)
        await self.peers.publish(conn.room_code, {"kind": "chat", "message": out})
        self.notify_away(conn.room_code, "chat", conn.player_id, name=conn.name)

    def notify_away(self, code: str, kind: str, actor: int | None, seats: set[int] | None = None,
                    match: str | None = None, **facts: object) -> None:
        """A push of ``kind`` to each person seated in the room (of ``seats`` only, if
        given) but ``actor`` and those with the room open now (their table shows it)."""
        snap = self.snapshots.get(code)
        if snap is None:
            return
        present = self.hub.connected_players(code)
        for s in snap["seats"]:
            pid = s["player"]
            if (pid is not None and s["level"] is None and pid != actor and pid not in present
                    and (seats is None or s["seat"] in seats)):
                self.notifier.notify(pid, kind, room=code, match=match, **facts)

    def stamp(self, code: str) -> tuple[int, str | None]:
        """(version, match id) of the room's current match, from memory."""
        snap = self.snapshots.get(code)
        match = snap["match"] if snap else None
        live = self.live.get(match["id"]) if match else None
        if live is not None:
            return live.version, live.id
        return (match["version"], match["id"]) if match else (0, None)

    def error(self, conn: Conn, code: str, message: str, client_id: str | None = None) -> None:
        """An ``error`` message to one socket, stamped with the room's match now."""
        version, match = self.stamp(conn.room_code)
        conn.send({"type": "error", "version": version, "match": match, "code": code,
                   "message": message, "client_id": client_id})
