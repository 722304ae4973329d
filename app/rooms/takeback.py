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

What may be taken back is decided generically, from the engine's views: not
across a deal's end, not a blind call or a strike, and not an action after
which some seat's view holds a card it did not hold before — other than a card
of the action put face up on the trick (everybody saw it; taking it back hides
nothing else)."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.cards import is_card

from .. import protocol as p
from .hub import Conn
from .live import LiveMatch, undone_target

if TYPE_CHECKING:  # pragma: no cover
    from .service import Kozyr

log = logging.getLogger("kozyr.takeback")

#: Action kinds never taken back: they commit a seat to something it chose blind
#: (a blind call) or end what others answered (a strike).
NEVER = frozenset({"blind", "strike"})


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

    def message(self, live: LiveMatch, viewer: int | None) -> dict:
        """The request as ``viewer`` may see it: the action as his view's log shows it."""
        return {"type": "takeback", "version": live.version, "match": live.id, "seq": self.seq,
                "action": seen_action(live, viewer, self.seat, self.action), "seat": self.seat,
                "asker": self.asker,
                "waiting": sorted(self.waiting),
                "expires_in": round(max(0.0, self.deadline - time.monotonic()), 1)}


def _cards(value: object, into: set[str]) -> set[str]:
    """Every card code anywhere in a view (strings split on punctuation: ``show:JS,9S``)."""
    if isinstance(value, str):
        into.update(t for t in re.split(r"[^0-9A-Za-z?]+", value) if is_card(t))
    elif isinstance(value, dict):
        for v in value.values():
            _cards(v, into)
    elif isinstance(value, list | tuple):
        for v in value:
            _cards(v, into)
    return into


def masked(action: str) -> str:
    """Every card of an action written ``??`` (as a seat that did not see them reads it)."""
    return re.sub(r"(?<![0-9A-Za-z])[6789TJQKA][SCDH](?![0-9A-Za-z])", "??", action)


def seen_action(live: LiveMatch, viewer: int | None, seat: int, action: str) -> str:
    """The last action (of ``seat``) as ``viewer``'s view logs it; face-down cards stay hidden
    (rule C-5): a request never tells a seat more than the action showed it."""
    log_ = live.view(live.seat_of(viewer)).get("log") or []
    if log_ and log_[-1][0] == seat and isinstance(log_[-1][1], str):
        return log_[-1][1]
    return action if viewer == seat else masked(action)


def _face_up(view: dict) -> set[str]:
    return _cards([view.get("trick"), view.get("last_trick")], set())


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
    if last.action.split(":", 1)[0] in NEVER:
        return "a blind call or a strike cannot be taken back"
    now = live.engine
    before = live.rebuilt(live.log[:-1])
    if len(before.history()) != len(now.history()) or now.is_over():
        return "an action that ended a deal cannot be taken back"
    named = _cards(last.action, set())
    for s in range(live.seat_count):
        after_view = now.view(s)
        new = _cards(after_view, set()) - _cards(before.view(s), set()) - (named & _face_up(after_view))
        if new:
            return "that action showed cards to another seat; they cannot be unseen"
    return None


class Takebacks:
    def __init__(self, kozyr: Kozyr) -> None:
        self.k = kozyr

    def _room(self, code: str) -> dict | None:
        return self.k.rooms.snapshots.get(code)

    def _refuse(self, conn: Conn, message: str) -> None:
        self.k.error(conn, p.TAKEBACK_REFUSED, message)

    def _voters(self, live: LiveMatch, room: dict | None, asker: int) -> set[int]:
        """The other seats held by a person the room's bots do not play for now."""
        takeover = self.k.bots.takeover_of(live.id)
        seats = room["seats"] if room else []
        return {s["seat"] for s in seats if s["seat"] != asker and s["player"] is not None
                and s["level"] is None and s["seat"] not in takeover}

    async def ask(self, conn: Conn) -> None:
        k = self.k
        live = await k.matches.current(conn.room_code)
        if live is None:
            return k.error(conn, p.NO_MATCH, "no match has been started in this room")
        room = self._room(conn.room_code)
        async with live.lock:
            why = refusal(live, conn.seat, room)
            if why is not None:
                return self._refuse(conn, why)
            last = live.log[-1]
            waiting = self._voters(live, room, last.seat)
            if waiting:
                request = Request(last.seq, last.seat, last.action, conn.name, waiting,
                                  time.monotonic() + k.settings.takeback_seconds)
                live.takeback = request
                request.expiry = asyncio.create_task(self._expire(live, request))
                self._announce(live, request)
                return None
            request = Request(last.seq, last.seat, last.action, conn.name, set(), 0.0)
            live.takeback = request
        await self._undo(live, request)
        return None

    async def answer(self, conn: Conn, agree: bool) -> None:
        live = await self.k.matches.current(conn.room_code)
        request = live.takeback if live is not None else None
        if live is None or request is None:
            return self._refuse(conn, "no take-back request is open")
        if conn.seat not in request.waiting:
            return self._refuse(conn, "your answer is not asked for")
        if not agree:
            return await self._close(live, request, "declined")
        request.waiting.discard(conn.seat)
        if request.waiting:
            self._announce(live, request)
            return None
        await self._undo(live, request)
        return None

    def _announce(self, live: LiveMatch, request: Request) -> None:
        for conn in self.k.hub.conns(live.room_code):
            conn.send(request.message(live, conn.seat))

    async def _undo(self, live: LiveMatch, request: Request) -> None:
        seq = await self.k.matches.submit(live, request.seat, f"undo:{request.seq}", None, live.version,
                                          takeback=True)
        await self._close(live, request, "declined" if seq is None else "undone")

    async def _expire(self, live: LiveMatch, request: Request) -> None:
        await asyncio.sleep(max(0.0, request.deadline - time.monotonic()))
        await self._close(live, request, "expired", expired=True)

    async def _close(self, live: LiveMatch, request: Request, result: str, *, expired: bool = False) -> None:
        if live.takeback is not request:
            return
        live.takeback = None
        if request.expiry is not None and not expired:
            request.expiry.cancel()
        log.info("match %s: take-back of %s (seq %d) %s", live.id, request.action, request.seq, result)
        self.k.hub.broadcast(live.room_code, {"type": "takeback_done", "version": live.version,
                                              "match": live.id, "seq": request.seq, "result": result})
        await self.k.bots.poke(live)
