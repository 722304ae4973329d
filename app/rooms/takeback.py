"""Take-back by agreement (issue 16; README "Take-backs").

A seated player asks (``takeback``) to take back his own last action while no
later action is applied.  Every other person seated answers (``takeback_answer``);
bots, and seats a bot plays for an absent person, count as agreeing.  While the
request is open the match applies nothing (MatchLoop.submit refuses people's
actions with ``takeback_open``; bots wait); it expires after
``KOZYR_TAKEBACK_SECONDS``.  Agreed by all, the take-back is journaled as its
own entry ``undo:<seq>`` through the one path of an action (MatchLoop.submit),
which raises the version; every rebuild from the log skips undone actions
(live.played_log).

What may be taken back is the engine's decision (``Match.take_back_refusal``:
not across a deal's end, not a kind its family never takes back, not an action
that showed some seat a card); the server adds only who may ask and when."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field

from anyio import to_thread

from engine.cards import masked

from .. import protocol as p
from ..config import Settings
from ..db.session import Database
from .bots import BotRunner
from .hub import Conn, Hub
from .live import LiveMatch, undone_target
from .loop import MatchLoop
from .peers import Peers
from .ports import RoomMemory

log = logging.getLogger("kozyr.takeback")


class Refused(Exception):
    """A take-back request or answer refused; the message says why."""


@dataclass
class Request:
    seq: int
    seat: int
    action: str
    asker: str
    waiting: set[int]
    deadline: float
    expiry: asyncio.Task | None = field(default=None, repr=False)
    #: The fan-out origin of the process that holds the votes (None: this one).
    owner: str | None = None

    def message(self, live: LiveMatch, viewer: int | None) -> dict:
        """The request as ``viewer`` may see it: the action as his view's log shows it."""
        return {"type": "takeback", "version": live.version, "match": live.id, "seq": self.seq,
                "action": seen_action(live, viewer, self.seat, self.action), "seat": self.seat,
                "asker": self.asker,
                "waiting": sorted(self.waiting),
                "expires_in": round(max(0.0, self.deadline - time.monotonic()), 1)}


def seen_action(live: LiveMatch, viewer: int | None, seat: int, action: str) -> str:
    """The last action (of ``seat``) as ``viewer``'s view logs it; face-down cards stay hidden
    (rule C-5): a request never tells a seat more than the action showed it."""
    log_ = live.view(live.seat_of(viewer)).get("log") or []
    if log_ and log_[-1][0] == seat and isinstance(log_[-1][1], str):
        return log_[-1][1]
    return action if viewer == seat else masked(action)


def refusal(live: LiveMatch, seat: int | None, room: dict | None) -> str | None:
    """Why ``seat`` may not take back the last action of ``live`` now (None: it may)."""
    if seat is None or not 0 <= seat < live.seat_count:
        return "spectators cannot take anything back"
    if room is not None and room.get("takeback", "agree") != "agree":
        return ("take-backs are off in this rated room" if room.get("rated")
                else "take-backs are off in this room")
    if live.finished:
        return "the match is over"
    if live.takeback is not None:
        return "a take-back request is already open"
    last = live.log[-1] if live.log else None
    if last is None or undone_target(last.action) is not None:
        return "there is no action to take back"
    if last.seat != seat:
        return f"the last action is seat {last.seat}'s; you can take back only your own"
    return live.engine.take_back_refusal()  # the rules' part: what the action showed or ended


class Takebacks:
    """Take-back requests and their votes.  With several processes (PostgreSQL + Redis)
    the request lives in the process of the asker's connection, its *owner*: it holds
    the votes and the expiry and alone journals the ``undo:``.  The owner publishes the
    request on the room's fan-out channel (note ``kind: takeback``, ``op: open``, again
    after each agreement); every other process keeps a copy on its live match, so it
    too applies nothing while the request is open (people get ``takeback_open``, bots
    wait) and shows it to its sockets.  An answer given on another process travels to
    the owner as ``op: vote``; the owner's ``op: close`` (declined / expired / undone,
    with the version after the undo) closes every copy.  A copy whose owner went
    silent closes itself ``expired`` a little after the deadline."""

    #: Seconds a copy of another process's request outlives its deadline before it
    #: closes itself (the owner's own close normally comes first).
    GRACE = 3.0

    def __init__(self, settings: Settings, db: Database, hub: Hub, peers: Peers, rooms: RoomMemory,
                 matches: MatchLoop, bots: BotRunner) -> None:
        self.settings = settings
        self.db = db
        self.hub = hub
        self.peers = peers
        self.rooms = rooms
        self.matches = matches
        self.bots = bots

    def _room(self, code: str) -> dict | None:
        return self.rooms.cached(code)

    def lifetime(self, room: dict | None) -> float:
        """How long a request stays open: in a turn-based room as long as a move may."""
        if room is not None and room.get("pace") == "turn" and room.get("move_seconds"):
            return float(room["move_seconds"])
        return self.settings.takeback_seconds

    def _refuse(self, conn: Conn, message: str) -> None:
        self.rooms.error(conn, p.TAKEBACK_REFUSED, message)

    def _origin(self) -> str | None:
        return self.peers.origin

    def _voters(self, live: LiveMatch, room: dict | None, asker: int) -> set[int]:
        """The other seats held by a person the room's bots do not play for now."""
        takeover = self.bots.takeover_of(live.id)
        seats = room["seats"] if room else []
        return {s["seat"] for s in seats if s["seat"] != asker and s["player"] is not None
                and s["level"] is None and s["seat"] not in takeover}

    async def _catch_up(self, live: LiveMatch) -> None:
        """(Under live.lock, several processes.)  Apply what other processes logged; show it."""
        if self.peers.shared and await to_thread.run_sync(live.catch_up, self.db):
            self.matches.push_views(live)

    async def ask(self, conn: Conn) -> None:
        live = await self.matches.current(conn.room_code)
        if live is None:
            return self.rooms.error(conn, p.NO_MATCH, "no match has been started in this room")
        room = self._room(conn.room_code)
        async with live.lock:
            await self._catch_up(live)  # the last action may be another process's
            why = refusal(live, conn.seat, room)
            if why is not None:
                return self._refuse(conn, why)
            last = live.log[-1]
            waiting = self._voters(live, room, last.seat)
            request = Request(last.seq, last.seat, last.action, conn.name, waiting,
                              time.monotonic() + self.lifetime(room))
            live.takeback = request
            if waiting:
                request.expiry = asyncio.create_task(self._expire(live, request, 0.0))
                await self._announce(live, request)
                await self.bots.deadlines.hold(live, True)  # the match's clock waits for the answers
                return None
        await self._undo(live, request)
        return None

    async def answer(self, conn: Conn, agree: bool) -> None:
        live = await self.matches.current(conn.room_code)
        request = live.takeback if live is not None else None
        if live is None or request is None:
            return self._refuse(conn, "no take-back request is open")
        seat = conn.seat
        if seat is None or seat not in request.waiting:
            return self._refuse(conn, "your answer is not asked for")
        if request.owner is not None:  # another process holds the votes
            request.waiting.discard(seat)
            await self.peers.publish(live.room_code, self._note(live, request, "vote", seat=seat, agree=agree))
            return None
        await self._vote(live, request, seat, agree)
        return None

    async def _vote(self, live: LiveMatch, request: Request, seat: int, agree: bool) -> None:
        """(The owner.)  One seat's answer."""
        if live.takeback is not request or seat not in request.waiting:
            return
        if not agree:
            return await self._close(live, request, "declined")
        request.waiting.discard(seat)
        if request.waiting:
            return await self._announce(live, request)
        await self._undo(live, request)

    def _note(self, live: LiveMatch, request: Request, op: str, **extra) -> dict:
        return take_back_note(live.id, request.seq, request.owner or self._origin(), op, **extra)

    async def _announce(self, live: LiveMatch, request: Request) -> None:
        for conn in self.hub.conns(live.room_code):
            conn.send(request.message(live, conn.seat))
        if request.owner is None:
            await self.peers.publish(live.room_code, self._note(
                live, request, "open", version=request.seq + 1, seat=request.seat, action=request.action,
                asker=request.asker, waiting=sorted(request.waiting),
                expires_in=max(0.0, request.deadline - time.monotonic())))

    async def _undo(self, live: LiveMatch, request: Request) -> None:
        """(The owner.)  Agreed by all: the ``undo:`` through the one path of an action, once."""
        seq = await self.matches.submit(live, request.seat, f"undo:{request.seq}", None, request.seq + 1,
                                          takeback=True)
        if seq is not None:
            result = "undone"
        elif live.version != request.seq + 1:
            result = "overtaken"  # another process applied an action before it heard of the request
        else:
            result = "declined"
        await self._close(live, request, result)

    async def _expire(self, live: LiveMatch, request: Request, grace: float) -> None:
        await asyncio.sleep(max(0.0, request.deadline - time.monotonic()) + grace)
        await self._close(live, request, "expired", expired=True)

    async def _close(self, live: LiveMatch, request: Request, result: str, *, expired: bool = False) -> None:
        if live.takeback is not request:
            return
        live.takeback = None
        if request.expiry is not None and not expired:
            request.expiry.cancel()
        log.info("match %s: take-back of %s (seq %d) %s", live.id, request.action, request.seq, result)
        self.hub.broadcast(live.room_code, {"type": "takeback_done", "version": live.version,
                                              "match": live.id, "seq": request.seq, "result": result})
        if request.owner is None:
            await self.peers.publish(live.room_code, self._note(live, request, "close", result=result,
                                                            version=live.version))
        await self.bots.deadlines.hold(live, False)  # the clock runs on (an undo: a new one)
        await self.bots.poke(live)

    # -- another process's request (notes of kind "takeback", from fanout.py) -------------

    async def on_note(self, note: dict) -> None:
        live = await self.matches.get_live(str(note.get("match")))
        if live is None:
            return
        op, seq, owner = note.get("op"), int(note["seq"]), note.get("owner")
        request = live.takeback
        if op == "vote":
            if (owner == self._origin() and request is not None and request.owner is None
                    and request.seq == seq):
                if note.get("overtaken"):
                    await self._close(live, request, "overtaken")
                else:
                    await self._vote(live, request, int(note["seat"]), bool(note["agree"]))
            return
        if op == "close":
            if request is None or request.owner != owner or request.seq != seq:
                return
            async with live.lock:
                if live.version < int(note.get("version", 0)):  # the undo's own note may come later
                    await self._catch_up(live)
            await self._close(live, request, str(note["result"]))
            return
        if op != "open":
            return
        async with live.lock:
            if live.version < int(note["version"]):  # the asked-for action's note may come later
                await self._catch_up(live)
            request = live.takeback
            if request is not None and request.owner is None and request.seq == seq:
                # The same seat asked on two processes at once: the smaller origin's stands.
                mine = self._origin() or ""
                if mine < str(owner):
                    return
                if request.expiry is not None:
                    request.expiry.cancel()
                live.takeback = request = None
            if live.version != int(note["version"]):  # we applied another action meanwhile
                await self.peers.publish(live.room_code, take_back_note(live.id, seq, owner, "vote", overtaken=True))
                return
            deadline = time.monotonic() + float(note.get("expires_in", 0))
            if request is not None and request.owner == owner and request.seq == seq:
                request.waiting, request.deadline = set(note["waiting"]), deadline
            else:
                request = Request(seq, int(note["seat"]), str(note["action"]), str(note["asker"]),
                                  set(note["waiting"]), deadline, owner=str(owner))
                live.takeback = request
                request.expiry = asyncio.create_task(self._expire(live, request, self.GRACE))
            await self._announce(live, request)


def take_back_note(match_id: str, seq: int, owner: str | None, op: str, **extra) -> dict:
    """A room note about the take-back request of ``match_id`` for action ``seq`` whose
    votes ``owner`` (a fan-out origin) holds."""
    return {"kind": "takeback", "op": op, "match": match_id, "seq": seq, "owner": owner, **extra}
