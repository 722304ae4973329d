"""Abuse limits: a token bucket per websocket connection, and one per client address
(CodeGuard) for look-ups of unknown room codes, failed sign-ins and new players.  (The
open-rooms cap is the room service's.)

The numbers live in Settings (``messages_per_second``, ``message_burst``,
``flood_close_after``, ``room_lookup_*``, ``sign_in_*``, ``player_create_*``); README.md
"Server" lists them."""

from __future__ import annotations

import time
from collections import OrderedDict

from .db.errors import RateLimited


class TokenBucket:
    """``rate`` tokens a second up to ``burst``; ``take()`` is False when empty.

    ``strikes`` counts the refusals since the client last kept within its allowance: a
    client that keeps sending into an empty bucket is flooding and gets disconnected by
    the caller.  A message let in by the refill alone (it leaves less than one token)
    does not clear the count: a flood paced at any rate above ``rate`` (say a thousand
    messages a second, so that a token refills every fifty of them) is still one flood.
    Only a message that finds room to spare (the client slowed down) starts it again."""

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
        if self.tokens >= 1:
            self.strikes = 0
        return True


class CodeGuard:
    """Counted events per client address: ``burst`` at once, refilled at
    ``per_minute``.  For room look-ups the events are misses (unknown codes): an address
    that has used them up gets 429 ``rate_limited`` for every room look-up (known codes
    too, or the answer would still tell a guesser which codes exist) until a miss is
    available again.  ``take`` counts an event that is limited itself (a new player).

    At most ``max_addresses`` addresses are remembered (the oldest first forgotten)."""

    def __init__(self, burst: int, per_minute: float, max_addresses: int = 10_000,
                 message: str = "too many look-ups of unknown rooms from your address; wait a minute") -> None:
        self.burst = float(max(1, burst))
        self.rate = per_minute / 60.0
        self.max_addresses = max_addresses
        self.message = message
        self.misses: OrderedDict[str, tuple[float, float]] = OrderedDict()  # addr -> (tokens, when)

    def _tokens(self, addr: str, now: float) -> float:
        tokens, last = self.misses.get(addr, (self.burst, now))
        return min(self.burst, tokens + (now - last) * self.rate)

    def check(self, addr: str) -> None:
        """Raise RateLimited, with the seconds until a miss is back, if ``addr`` has no
        unknown look-up left."""
        tokens = self._tokens(addr, time.monotonic()) if addr in self.misses else self.burst
        if tokens < 1:
            raise RateLimited(self.message, retry_after=(1 - tokens) / self.rate if self.rate > 0 else 3600.0)

    def miss(self, addr: str) -> None:
        """``addr`` looked up a code that names no room."""
        now = time.monotonic()
        tokens = self._tokens(addr, now) - 1
        self.misses[addr] = (tokens, now)
        self.misses.move_to_end(addr)
        while len(self.misses) > self.max_addresses:
            self.misses.popitem(last=False)

    def take(self, addr: str) -> None:
        """Count one event of ``addr``, or raise RateLimited (and count nothing)."""
        self.check(addr)
        self.miss(addr)
