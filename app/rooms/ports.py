"""What one part of the room services asks of another, as narrow Protocols: a part
is given its collaborators by constructor (the composition root, app/server.py,
wires them) and names here only what it calls, so no module imports one that
imports it back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # pragma: no cover
    import asyncio

    from .hub import Conn
    from .live import LiveMatch


class RoomMemory(Protocol):
    """The rooms as bots and take-backs see them (app/rooms/service.py RoomService)."""

    def cached(self, code: str) -> dict | None: ...

    def announce(self, code: str) -> None: ...

    def error(self, conn: Conn, code: str, message: str, client_id: str | None = None) -> None: ...

    def notify_away(self, code: str, kind: str, actor: int | None, seats: set[int] | None = None,
                    match: str | None = None, **facts: object) -> None: ...


class LoopRooms(Protocol):
    """What the match loop asks of the rooms."""

    async def current_match_id(self, code: str) -> str | None: ...

    def match_finished(self, live: LiveMatch, *, publish: bool = True) -> None: ...

    def forget_if_idle(self, code: str) -> str | None: ...


class LoopBots(Protocol):
    """What the match loop asks of the bots (app/rooms/bots.py BotRunner)."""

    #: Each match's bots (a BotTable), by match id: a match leaves memory only while its
    #: table holds nothing (MatchLoop.idle), and its table goes with it.
    tables: dict[str, Any]

    async def poke(self, live: LiveMatch) -> None: ...

    async def returned(self, live: LiveMatch | None, seat: int | None) -> bool: ...

    async def timer_message(self, live: LiveMatch | None) -> dict | None: ...


class BotTable(Protocol):
    """What the match loop reads of a match's bots (app/rooms/bots.py Table)."""

    takeover: set[int]  # people's seats a bot plays for now (memory only)
    task: asyncio.Task | None  # the bots' task, while it runs


class Takeovers(Protocol):
    """The people's seats a bot plays for now (the room message shows them)."""

    def takeover_of(self, match_id: str | None) -> set[int]: ...


class MatchResults(Protocol):
    """Standings and ratings of a match that ended (app/ratings.py Ratings)."""

    async def match_over(self, match_id: str) -> None: ...


class ActionClock(Protocol):
    """How long actions took (app/metrics.py Metrics)."""

    def action_done(self, received: float) -> None: ...


class ClockTable(Protocol):
    """A match's bots' table as its clock sees it (app/rooms/bots.py Table)."""

    pace: dict
    deadline: dict | None

    def seconds(self) -> float: ...


class DeadlineBots(Protocol):
    """What the deadlines ask of the bots (app/rooms/bots.py BotRunner)."""

    @property
    def tables(self) -> Mapping[str, ClockTable]: ...

    async def attach(self, live: LiveMatch) -> ClockTable: ...

    async def fire(self, live: LiveMatch, seat: int, version: int, *, takeover: bool) -> bool: ...


class BotDeadlines(Protocol):
    """What the bots (and take-backs) ask of the deadlines (app/rooms/deadlines.py)."""

    async def load(self, live: LiveMatch, table: ClockTable) -> None: ...

    async def track(self, live: LiveMatch, table: ClockTable, seat: int | None, *, force: bool = False) -> None: ...

    def message(self, live: LiveMatch, table: ClockTable | None) -> dict | None: ...

    async def hold(self, live: LiveMatch, held: bool) -> None: ...


class Notify(Protocol):
    """Notifications after a commit (app/push/notifier.py Notifier): only queued."""

    def notify(self, player_id: int, kind: str, room: str | None = None, match: str | None = None,
               **facts: object) -> None: ...
