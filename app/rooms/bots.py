"""Bots at the table: in seats the host filled with a bot, and in a person's seat after
the room's turn timeout or when the host says so (a takeover, ended only by the
person's own committed action or ``back``).

A bot is a player row of its own (one per level and slot 1..3, ``token_hash =
"bot:<level>-<slot>"``, ``bot_level`` / ``bot_slot`` set; no token can ever hash
to that), so seats, match_players, history and export treat it like anybody.
Bots act through the people's path, ``MatchLoop.submit`` (loop.py): one asyncio
task per match looks at ``to_act`` under the match's lock; when a bot is to act
it waits ``bot_delay``, then decides: a ``random`` or ``basic`` bot at once, under
the lock, from the seat's view of the live match (well under a millisecond); a
``strong`` bot in a worker process (botpool.py), sent the match's log.  The action
is submitted like a person's and applied only if the match is still at the version
the bot decided on (else it looks again).  The same task says who is awaited after
each change, for the match's deadline (deadlines.py: the live turn clock and a
turn-based room's move deadline; a passed one comes back here as ``fire``)."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from contextlib import suppress
from functools import partial

from anyio import to_thread

from engine import Action
from engine.bots import make_bot

from ..aio import stop_task
from ..config import Settings
from ..db import store
from ..db.session import Database
from .botpool import POOLED, BotPool, ask_for
from .hub import Hub
from .live import LiveMatch
from .loop import MatchLoop
from .ports import BotDeadlines, RoomMemory

log = logging.getLogger("kozyr.bots")


#: The stored (English) names of the bots of each level, by slot 1..3; the client shows
#: the translated name of the seat's ``bot_key`` (README "Agreed additions").
BOT_NAMES = {"random": ("Dotty", "Lotty", "Scotty"),
             "basic": ("Sam", "Max", "Tom"),
             "strong": ("Ada", "Alan", "Grace"),
             "expert": ("Edsger", "Barbara", "Donald")}
SLOTS = 3


def bot_name(level: str, slot: int = 1) -> str:
    names = BOT_NAMES.get(level)
    return names[slot - 1] if names else f"Bot ({level}) {slot}"


def level_name(level: str) -> str:
    return f"Bot ({level})"


# -- the live side -------------------------------------------------------------------


class Table:
    """The bots of one live match."""

    def __init__(self, levels: dict[int, str], pace: dict) -> None:
        self.levels = levels  # seats the host gave to bots
        self.takeover: set[int] = set()  # people's seats a bot plays for now
        self.pace = pace  # the room's clock (store.PACE_KEYS)
        self.bots: dict[tuple[int, str], object] = {}
        self.version = -1  # the version the bots look at ...
        self.since = 0.0  # ... since this loop time (a bot waits bot_delay from it)
        self.deadline: dict | None = None  # the match's deadline row as written (deadlines.py)
        self.retime = False  # the awaited person's clock starts again (a takeover ended)
        self.wake = asyncio.Event()
        self.task: asyncio.Task | None = None

    def automatic(self, seat: int) -> bool:
        return seat in self.levels or seat in self.takeover

    def seconds(self) -> float:
        """The length of the room's clock: a turn-based room's move, a live room's turn
        before a takeover (0: none)."""
        if self.pace.get("pace") == "turn":
            return float(self.pace.get("move_seconds") or 0)
        return float(self.pace.get("takeover_seconds") or 0)

    def idle(self) -> bool:
        return not self.levels and not self.takeover and self.seconds() <= 0


class BotRunner:
    #: the deadlines (set by the composition root: they need the bots first)
    deadlines: BotDeadlines
    #: told of every change of a match (app/rooms/play.py Play.nudge)
    changed: Callable[[LiveMatch], None] | None = None

    def __init__(self, settings: Settings, db: Database, hub: Hub, rooms: RoomMemory,
                 matches: MatchLoop, decided: Callable[[str, float], None] | None = None) -> None:
        """``decided(level, seconds)``: told of every pooled decision, asked to answered."""
        self.settings = settings
        self.decided = decided
        self.db = db
        self.hub = hub
        self.rooms = rooms
        self.matches = matches
        self.tables: dict[str, Table] = {}
        self.stopped = False
        self.pool = BotPool(settings.bot_processes)  # where strong bots think

    # -- the loop ------------------------------------------------------------------

    def takeover_of(self, match_id: str | None) -> set[int]:
        table = self.tables.get(match_id) if match_id else None
        return table.takeover if table is not None else set()

    async def pace_changed(self, match_id: str | None, pace: dict) -> None:
        """The host changed the room's clock (store.PACE_KEYS): it applies to the match at once."""
        table = self.tables.get(match_id) if match_id else None
        live = self.matches.live.get(match_id) if match_id else None
        if table is None or live is None:
            return
        table.pace = pace
        if table.idle():  # no clock any more: it stops for good
            await self.deadlines.track(live, table, None)
        await self.poke(live)

    async def attach(self, live: LiveMatch) -> Table:
        table = self.tables.get(live.id)
        if table is None:
            settings = self._room_settings(live)
            if settings is None:
                def load() -> tuple[dict[int, str], dict]:
                    with self.db.read() as s:
                        return store.bot_settings(s, live.id, live.room_id)
                settings = await to_thread.run_sync(load)
            table = self.tables.get(live.id)
            if table is None:
                fresh = Table(*settings)
                await self.deadlines.load(live, fresh)  # a deadline survives a restart
                table = self.tables.setdefault(live.id, fresh)
        return table

    def _room_settings(self, live: LiveMatch) -> tuple[dict[int, str], dict] | None:
        """The match's bot seats and clock from its room's state in memory, when the
        match is the room's current one (seats change only between matches, so they
        are the match's); None: read them."""
        snap = self.rooms.cached(live.room_code)
        if snap is None or not snap["match"] or snap["match"]["id"] != live.id:
            return None
        levels = {s["seat"]: str(s["level"]) for s in snap["seats"] if s["level"] is not None}
        return levels, store.pace_of(snap)

    async def poke(self, live: LiveMatch) -> None:
        """Something happened in the match: let its bots look (cheap when it has none)."""
        if self.stopped:
            return
        if self.changed is not None:
            self.changed(live)
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
        table.retime = True  # the player's clock starts again
        log.info("match %s: seat %d is back from the bot", live.id, seat)
        table.wake.set()
        self.rooms.announce(live.room_code)
        await self.poke(live)
        return True

    async def take_over(self, live: LiveMatch, seat: int) -> None:
        """The host lets a bot play ``seat`` now (a bot's own seat: nothing to do)."""
        table = await self.attach(live)
        if seat in table.levels or seat in table.takeover:
            return
        table.takeover.add(seat)
        log.info("match %s: the host lets a bot play seat %d", live.id, seat)
        self.rooms.announce(live.room_code)
        await self.poke(live)

    # -- the clock (timer messages; deadlines.py) ------------------------------------------

    async def timer_message(self, live: LiveMatch | None) -> dict | None:
        """The room's clock now (None: the room has none); a match loaded from its log
        since (a restart, an eviction) reads its deadline."""
        if live is None or live.finished:
            return None
        table = self.tables.get(live.id) or await self.attach(live)
        return self.deadlines.message(live, table)

    async def fire(self, live: LiveMatch, seat: int, version: int, *, takeover: bool) -> bool:
        """(The deadline sweeper.)  ``seat``'s time at ``version`` has passed: a bot takes
        the seat over (``takeover``: a live room), or plays this one move for the player
        (a turn-based room).  False if the match has moved on or the seat is a bot's."""
        table = await self.attach(live)
        async with live.lock:
            waiting = (live.version == version and not live.finished and not table.automatic(seat)
                       and seat in live.engine.to_act())
        if not waiting:
            await self.poke(live)
            return False
        if takeover:
            table.takeover.add(seat)
            log.info("match %s: a bot takes over seat %d (its time passed)", live.id, seat)
            self.rooms.announce(live.room_code)
            await self.poke(live)
            return True
        log.info("match %s: seat %d's deadline passed; its bot plays the move", live.id, seat)
        return await self._play(live, table, seat, version, lambda: not table.automatic(seat))

    async def _drive(self, live: LiveMatch, table: Table) -> None:
        settings = self.settings
        loop = asyncio.get_running_loop()
        try:
            while not self.stopped:
                table.wake.clear()
                if live.finished or self.matches.live.get(live.id) is not live:
                    break
                async with live.lock:
                    version = live.version
                    to_act = [] if live.finished else list(live.engine.to_act())
                now = loop.time()
                if version != table.version:
                    table.version, table.since = version, now
                auto = [s for s in to_act if table.automatic(s)]
                people = [s for s in to_act if not table.automatic(s)]
                retime, table.retime = table.retime, False
                await self.deadlines.track(live, table, people[0] if people and not auto else None,
                                           force=retime)
                if auto:
                    wait = table.since + settings.bot_delay - now
                    if settings.bot_delay > 0 and settings.bot_trick_pause > 0:
                        async with live.lock:
                            taken = live.version == version and trick_just_taken(live.engine)
                        if taken:  # let the people see the finished trick before a bot leads again
                            wait += settings.bot_trick_pause
                    if wait > 0:
                        await asyncio.sleep(wait)
                    await self._play(live, table, auto[0], version, partial(table.automatic, auto[0]))
                    continue
                if not table.wake.is_set():
                    break  # nothing to wait for: the next poke starts a new task
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("match %s: the bot loop failed", live.id)
        finally:
            if live.finished:
                with suppress(Exception):
                    await self.deadlines.track(live, table, None)
                self.tables.pop(live.id, None)

    def _bot(self, table: Table, seat: int, level: str):
        bot = table.bots.get((seat, level))
        if bot is None:
            bot = table.bots[(seat, level)] = make_bot(level, secrets.randbelow(2**31))
        return bot

    async def _play(self, live: LiveMatch, table: Table, seat: int, version: int,
                    mine: Callable[[], bool]) -> bool:
        """A bot decides ``seat``'s action at ``version`` and submits it, while ``mine()``
        (the seat is still the bot's to play); whether it was applied."""
        level = table.levels.get(seat) or self.settings.takeover_level
        try:
            async with live.lock:
                if live.version != version or live.finished or not mine():
                    return False
                ask = (ask_for(live, seat, level, secrets.randbelow(2**31), self.settings.bot_think_ms)
                       if level in POOLED else None)
                if ask is None:  # cheap: here, from the seat's view (the bot reads nothing else)
                    action = self._bot(table, seat, level).act(live.engine, seat)
            if ask is not None:  # a worker process thinks; the match may move on meanwhile
                asked = time.perf_counter()
                action = await self.pool.decide(ask)
                if self.decided is not None:
                    self.decided(level, time.perf_counter() - asked)
        except Exception:
            log.exception("match %s: the %s bot of seat %d failed", live.id, level, seat)
            await asyncio.sleep(1.0)
            return False
        # The match may have moved on (or the player come back) while it thought.
        seq = await self.matches.submit(live, seat, action, None, version, still=lambda: (
            live.version == version and not live.finished and mine()))
        if seq is None and live.version == version and not live.finished:
            await asyncio.sleep(1.0)  # refused or not recorded: do not retry in a tight loop
        return seq is not None

    async def stop(self) -> None:
        self.stopped = True
        tasks = [t.task for t in self.tables.values() if t.task is not None and not t.task.done()]
        await asyncio.gather(*(stop_task(task) for task in tasks))
        await self.pool.stop()


def trick_just_taken(engine) -> bool:
    """The last action played the last card of a trick (the table holds that trick for a
    moment: a bot about to lead waits ``bot_trick_pause`` more): the table is empty and
    the view's ``last_trick`` ends with that very card of that seat."""
    if not engine.actions:
        return False
    view = engine.view(None)
    last = view.get("last_trick")
    if view.get("trick") or not last:
        return False
    seat, action = engine.actions[-1]
    return [seat, Action.parse(action).card] == list(last["cards"][-1])
