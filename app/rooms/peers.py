"""The other server processes of one deployment.  With REDIS_URL set the fan-out
(app/rooms/fanout.py) carries notes to them; without it there are none, and a note
goes nowhere."""

from __future__ import annotations

from typing import Protocol


class Fanout(Protocol):
    origin: str

    async def publish(self, code: str, note: dict) -> None: ...

    def publish_players(self, note: dict) -> None: ...


class Peers:
    def __init__(self) -> None:
        self.fanout: Fanout | None = None  # set once the fan-out has started

    @property
    def shared(self) -> bool:
        """Other processes may change the same rooms and matches."""
        return self.fanout is not None

    @property
    def origin(self) -> str | None:
        """This process's name on the fan-out (None: no fan-out)."""
        return self.fanout.origin if self.fanout is not None else None

    async def publish(self, code: str, note: dict) -> None:
        """A note about room ``code`` to every other process."""
        if self.fanout is not None:
            await self.fanout.publish(code, note)

    def publish_players(self, note: dict) -> None:
        """A note about players (a renamed player, signed-out devices) to every other process."""
        if self.fanout is not None:
            self.fanout.publish_players(note)
