"""Bots at the table: in seats the host filled with a bot, and in a person's seat after
the room's turn timeout (a takeover, ended by the person's next action or reconnect).

A bot is a player row of its own (one per level, ``token_hash = "bot:<level>"``,
``bot_level`` set; no token can ever hash to that), so seats, match_players,
history and export treat it like anybody.  Bots act through the same loop as
people: one asyncio task per match looks at ``to_act`` under the match's lock;
when a bot is to act it waits ``bot_delay``, deep-copies the engine match under
the lock, lets the bot think on the copy in a worker thread, and commits the
action only if the match is still at the version it thought about (else it
looks again) → the action log → the views are pushed, as for a person."""

from __future__ import annotations

import asyncio
import copy
import logging
import secrets
from contextlib import suppress

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from engine import IllegalAction
from engine.bots import LEVELS, make_bot

from ..db import models as m
from ..db import store
from ..errors import Conflict, Forbidden, Invalid, NotFound
from .live import LiveMatch, Stale

log = logging.getLogger("kozyr.bots")


#: The stored (English) names of the bots of each level, by slot 1..3; the client shows
#: the translated name of the seat's ``bot_key`` (README "Agreed additions").
BOT_NAMES = {"random": ("Dotty", "Lotty", "Scotty"),
             "basic": ("Sam", "Max", "Tom"),
             "strong": ("Ada", "Alan", "Grace")}
SLOTS = 3


def bot_name(level: str, slot: int = 1) -> str:
    names = BOT_NAMES.get(level)
    return names[slot - 1] if names else f"Bot ({level}) {slot}"


def level_name(level: str) -> str:
    return f"Bot ({level})"


# -- the database side -------------------------------------------------------------


def bot_player(s, level: str, slot: int = 1) -> m.Player:
    """The player row of bot ``slot`` of ``level`` (created the first time)."""
    key = f"bot:{level}-{slot}"
    player = s.scalar(select(m.Player).where(m.Player.token_hash == key))
    if player is not None:
        return player
    try:
        with s.begin_nested():
            player = m.Player(token_hash=key, name=bot_name(level, slot), bot_level=level, bot_slot=slot)
            s.add(player)
            s.flush()
    except IntegrityError:  # another request created it just now
        player = s.scalar(select(m.Player).where(m.Player.token_hash == key))
    return player


def room_bots(s, room: m.Room) -> dict[int, tuple[str, str]]:
    """{seat: (level, bot_key)} of the room's seats that hold a bot."""
    rows = s.execute(select(m.Seat.seat_no, m.Player.bot_level, m.Player.bot_slot)
                     .join(m.Player, m.Player.id == m.Seat.player_id)
                     .where(m.Seat.room_id == room.id, m.Player.bot_level.is_not(None)))
    return {r[0]: (r[1], m.bot_key(r[1], r[2])) for r in rows}


def match_bot_levels(s, match_id: str) -> dict[int, str]:
    """{seat: level} of a match's bot seats (as seated when it started)."""
    rows = s.execute(select(m.MatchPlayer.seat_no, m.Player.bot_level)
                     .join(m.Player, m.Player.id == m.MatchPlayer.player_id)
                     .where(m.MatchPlayer.match_id == match_id, m.Player.bot_level.is_not(None)))
    return {r[0]: r[1] for r in rows}


def _check_change(s, room: m.Room, seat_no: int, player: m.Player) -> m.Seat:
    if room.host_id != player.id:
        raise Forbidden("only the host seats or removes bots", code="not_host")
    if not 0 <= seat_no < room.seat_count:
        raise NotFound(f"no seat {seat_no} in this room (seats 0..{room.seat_count - 1})")
    match = store.current_match(s, room)
    if match is not None and match.status == "playing":
        raise Conflict("a match is being played; seats change between matches", code="match_running")
    return s.get(m.Seat, (room.id, seat_no))


def seat_bot(s, room: m.Room, seat_no: int, player: m.Player, level: str) -> None:
    if level not in LEVELS:
        raise Invalid(f"unknown bot level {level!r}; known: {', '.join(LEVELS)}", code="unknown_level")
    seat = _check_change(s, room, seat_no, player)
    if seat.player_id is not None and s.get(m.Player, seat.player_id).bot_level is None:
        raise Conflict(f"seat {seat_no} is taken", code="seat_taken")
    # The lowest slot of that level not seated elsewhere in the room: three basic bots
    # are three players (Sam, Max, Tom).
    others = {key for n, (_, key) in room_bots(s, room).items() if n != seat_no}
    slot = next((k for k in range(1, SLOTS + 1) if f"{level}-{k}" not in others), None)
    if slot is None:
        raise Conflict(f"the room already holds {SLOTS} {level} bots", code="too_many_bots")
    seat.player_id = bot_player(s, level, slot).id  # an empty seat, or another bot
    s.flush()


def unseat_bot(s, room: m.Room, seat_no: int, player: m.Player) -> None:
    seat = _check_change(s, room, seat_no, player)
    if seat.player_id is None or s.get(m.Player, seat.player_id).bot_level is None:
        raise Conflict(f"seat {seat_no} holds no bot", code="no_bot")
    seat.player_id = None
    s.flush()


# -- the live side -------------------------------------------------------------------


class Table:
    """The bots of one live match."""

    def __init__(self, levels: dict[int, str], takeover_seconds: float | None) -> None:
        self.levels = levels  # seats the host gave to bots
        self.takeover: set[int] = set()  # people's seats a bot plays for now
        self.takeover_seconds = float(takeover_seconds or 0)
        self.bots: dict[tuple[int, str], object] = {}
        self.version = -1  # the version the turn timer runs for ...
        self.since = 0.0  # ... since this loop time
        self.clock: int | None = None  # the person's seat whose turn clock runs (timer messages)
        self.clock_state: tuple[int, int] | None = None  # (seat, version) of the last timer sent
        self.wake = asyncio.Event()
        self.task: asyncio.Task | None = None

    def automatic(self, seat: int) -> bool:
        return seat in self.levels or seat in self.takeover

    def idle(self) -> bool:
        return not self.levels and not self.takeover and self.takeover_seconds <= 0


class BotRunner:
    def __init__(self, kozyr) -> None:
        self.kozyr = kozyr
        self.tables: dict[str, Table] = {}
        self.stopped = False

    # -- REST operations ---------------------------------------------------------

    async def change(self, code: str, seat_no: int, player: m.Player, level: str | None) -> dict:
        """Seat a bot of ``level`` (None: remove the bot) in an empty seat (host only)."""
        k = self.kozyr
        if level is not None and not k.settings.bots_enabled:
            raise Forbidden("bots are switched off on this server", code="bots_disabled")

        def work() -> dict:
            with k.db.write() as s:
                room = store.room_by_code(s, code, lock=k.db.is_postgres)
                if level is None:
                    unseat_bot(s, room, seat_no, player)
                else:
                    seat_bot(s, room, seat_no, player, level)
                return k.room_dict(s, room)
        room = await k.run(work)
        await k.announce_room(code, room)
        return room

    async def set_takeover(self, code: str, player: m.Player, seconds: float | None) -> dict:
        """The host sets the room's turn timeout (None / 0: off); applies at once."""
        k = self.kozyr

        def work() -> dict:
            with k.db.write() as s:
                room = store.room_by_code(s, code, lock=k.db.is_postgres)
                if room.host_id != player.id:
                    raise Forbidden("only the host changes the room", code="not_host")
                room.takeover_seconds = seconds or None
                return k.room_dict(s, room)
        room = await k.run(work)
        match = room["match"]
        table = self.tables.get(match["id"]) if match else None
        if table is not None:
            table.takeover_seconds = float(seconds or 0)
            live = k.live.get(match["id"])
            if live is not None:
                if table.takeover_seconds <= 0 and table.clock is not None:
                    self._set_clock(live, table, None)  # the clock stops for good
                else:
                    table.clock_state = None  # a new total: say so
                await self.poke(live)
        await k.announce_room(code, room)
        return room

    # -- the loop ------------------------------------------------------------------

    def takeover_of(self, match_id: str | None) -> set[int]:
        table = self.tables.get(match_id) if match_id else None
        return table.takeover if table is not None else set()

    async def attach(self, live: LiveMatch) -> Table:
        table = self.tables.get(live.id)
        if table is None:
            def load() -> tuple[dict[int, str], float | None]:
                with self.kozyr.db.read() as s:
                    room = s.get(m.Room, live.room_id)
                    return match_bot_levels(s, live.id), room.takeover_seconds
            levels, seconds = await self.kozyr.run(load)
            table = self.tables.setdefault(live.id, Table(levels, seconds))
        return table

    async def poke(self, live: LiveMatch) -> None:
        """Something happened in the match: let its bots look (cheap when it has none)."""
        if self.stopped:
            return
        if live.finished:
            self.tables.pop(live.id, None)
            return
        table = await self.attach(live)
        if table.idle():
            return
        if table.task is None or table.task.done():
            table.task = asyncio.create_task(self._drive(live, table))
        else:
            table.wake.set()

    async def returned(self, live: LiveMatch | None, seat: int | None) -> bool:
        """The player of ``seat`` committed an action or said ``back``: a takeover of the
        seat ends (never on a mere reconnect).  True if one did."""
        if live is None or seat is None:
            return False
        table = self.tables.get(live.id)
        if table is None or seat not in table.takeover:
            return False
        table.takeover.discard(seat)
        table.version = -1  # the player's turn timer starts again
        log.info("match %s: seat %d is back from the bot", live.id, seat)
        table.wake.set()
        await self.kozyr.announce_room(live.room_code)
        await self.poke(live)
        return True

    async def take_over(self, live: LiveMatch, seat: int) -> None:
        """The host lets a bot play ``seat`` now (a bot's own seat: nothing to do)."""
        table = await self.attach(live)
        if seat in table.levels or seat in table.takeover:
            return
        table.takeover.add(seat)
        log.info("match %s: the host lets a bot play seat %d", live.id, seat)
        await self.kozyr.announce_room(live.room_code)
        await self.poke(live)

    # -- the turn clock (timer messages) -----------------------------------------------

    def timer_message(self, live: LiveMatch | None, table: Table | None = None) -> dict | None:
        """The room's turn clock now (None: the room has no takeover_seconds)."""
        if live is None:
            return None
        table = table or self.tables.get(live.id)
        if table is None or table.takeover_seconds <= 0:
            return None
        seconds = None
        if table.clock is not None:
            left = table.since + table.takeover_seconds - asyncio.get_running_loop().time()
            seconds = round(max(0.0, left), 3)
        return {"type": "timer", "version": live.version, "match": live.id, "seat": table.clock,
                "seconds": seconds, "total": table.takeover_seconds}

    def _set_clock(self, live: LiveMatch, table: Table, seat: int | None) -> None:
        """Start the turn clock of ``seat`` for this version, or stop it (None); everyone
        hears of a start or a stop."""
        state = None if seat is None else (seat, table.version)
        if state == table.clock_state:
            return
        table.clock_state = state
        table.clock = seat
        msg = self.timer_message(live, table) or {
            "type": "timer", "version": live.version, "match": live.id, "seat": None,
            "seconds": None, "total": table.takeover_seconds}
        self.kozyr.hub.broadcast(live.room_code, msg)

    async def _drive(self, live: LiveMatch, table: Table) -> None:
        k = self.kozyr
        loop = asyncio.get_running_loop()
        try:
            while not self.stopped:
                table.wake.clear()
                if live.finished or k.live.get(live.id) is not live:
                    break
                async with live.lock:
                    version = live.version
                    to_act = [] if live.finished else list(live.engine.to_act())
                now = loop.time()
                if version != table.version:
                    table.version, table.since = version, now
                auto = [s for s in to_act if table.automatic(s)]
                people = [s for s in to_act if not table.automatic(s)]
                if table.takeover_seconds > 0:
                    self._set_clock(live, table, people[0] if people and not auto else None)
                if auto:
                    wait = table.since + k.settings.bot_delay - now
                    if wait > 0:
                        await asyncio.sleep(wait)
                    await self._play(live, table, auto[0], version)
                    continue
                if to_act and table.takeover_seconds > 0:
                    left = table.since + table.takeover_seconds - now
                    if left <= 0:
                        table.takeover.update(to_act)
                        log.info("match %s: a bot takes over seat(s) %s", live.id, to_act)
                        self._set_clock(live, table, None)
                        await k.announce_room(live.room_code)
                        continue
                    with suppress(TimeoutError):
                        await asyncio.wait_for(table.wake.wait(), left)
                    continue
                if not table.wake.is_set():
                    break  # nothing to wait for: the next poke starts a new task
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("match %s: the bot loop failed", live.id)
        finally:
            if live.finished:
                if table.clock is not None:
                    self._set_clock(live, table, None)
                self.tables.pop(live.id, None)

    def _bot(self, table: Table, seat: int, level: str):
        bot = table.bots.get((seat, level))
        if bot is None:
            budget = {"ms": self.kozyr.settings.bot_think_ms} if level == "strong" else {}
            bot = table.bots[(seat, level)] = make_bot(level, secrets.randbelow(2**31), **budget)
        return bot

    async def _play(self, live: LiveMatch, table: Table, seat: int, version: int) -> None:
        k = self.kozyr
        level = table.levels.get(seat) or k.settings.takeover_level
        bot = self._bot(table, seat, level)
        async with live.lock:
            if live.version != version or live.finished or not table.automatic(seat):
                return
            snapshot = copy.deepcopy(live.engine)  # the bot never touches the live match
        try:
            if level == "random":
                action = bot.act(snapshot, seat)
            else:
                action = await k.run(bot.act, snapshot, seat)
        except Exception:
            log.exception("match %s: the %s bot of seat %d failed", live.id, level, seat)
            await asyncio.sleep(1.0)
            return
        async with live.lock:
            if live.version != version or live.finished or not table.automatic(seat):
                return  # the match moved on (or the player came back) while it thought
            try:
                await k.commit(live, seat, action, None, version)
            except (IllegalAction, Stale) as e:
                log.warning("match %s: bot action %r of seat %d refused: %s", live.id, action, seat, e)
                return
            except Exception as e:  # logged with its traceback by LiveMatch.commit
                log.error("match %s: bot action %r of seat %d not recorded: %s", live.id, action, seat, e)
                k.push_views(live)
                await asyncio.sleep(1.0)
                return
            k.push_views(live)
            finished, new_version = live.finished, live.version
        await k.publish(live.room_code, {"kind": "match", "match": live.id, "version": new_version})
        if finished:
            log.info("match %s finished: %s", live.id, live.engine.result())
            await k.announce_room(live.room_code)

    async def stop(self) -> None:
        self.stopped = True
        tasks = [t.task for t in self.tables.values() if t.task is not None and not t.task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with suppress(asyncio.CancelledError, Exception):
                await task
