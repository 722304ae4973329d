"""Abuse limits: a token bucket per websocket connection and the open-rooms cap.

The numbers live in Settings (``messages_per_second``, ``message_burst``,
``flood_close_after``, ``max_open_rooms``); README.md "Server" lists them."""

from __future__ import annotations

import time

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from .db import models as m
from .errors import Problem


class TooManyRooms(Problem):
    status, code = 429, "too_many_rooms"


class TokenBucket:
    """``rate`` tokens a second up to ``burst``; ``take()`` is False when empty.

    ``strikes`` counts refusals in a row: a client that keeps sending into an
    empty bucket is flooding and gets disconnected by the caller."""

    __slots__ = ("rate", "burst", "tokens", "last", "strikes")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(max(1, burst))
        self.tokens = self.burst
        self.last = time.monotonic()
        self.strikes = 0

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            self.strikes += 1
            return False
        self.tokens -= 1
        self.strikes = 0
        return True


def open_rooms(s: Session, player_id: int) -> int:
    """Rooms the player hosts whose current match is not finished (or not started)."""
    q = (select(func.count(m.Room.id))
         .outerjoin(m.Match, m.Match.id == m.Room.current_match_id)
         .where(m.Room.host_id == player_id)
         .where(or_(m.Room.current_match_id.is_(None), m.Match.status != "finished")))
    return int(s.execute(q).scalar_one())


def check_open_rooms(s: Session, player_id: int, limit: int) -> None:
    if limit > 0 and open_rooms(s, player_id) >= limit:
        raise TooManyRooms(f"you already host {limit} open rooms; finish or leave one first")
