"""The player directory: who a token belongs to, for REST and the websocket alike.

A token's player is remembered for ``KOZYR_TOKEN_CACHE_SECONDS`` (from its first
look-up here, or from ``POST /api/players`` on the process that made the player),
so a reconnect storm or a page's requests read no player rows.  The tokens that
must be read are read together: one query for all those asked while the last one
ran (app/coalesce.py).  A rename forgets the player's tokens here and, through
the fan-out, on every other process (``forget_player``); a signed-out device's
token is forgotten by ``forget_token`` (app/signin.py tells the other processes).

New players are limited per client address (``KOZYR_PLAYER_CREATE_BURST``, refilled
at ``KOZYR_PLAYER_CREATE_PER_MINUTE``): each may host rooms of his own."""

from __future__ import annotations

import time
from typing import NamedTuple

from anyio import to_thread

from .coalesce import Coalescer
from .config import Settings
from .db import store
from .db.session import Database
from .limits import CodeGuard
from .rooms.peers import Peers

#: Tokens remembered at most (the cache is emptied when it grows past this).
MAX_CACHED = 50_000


class KnownPlayer(NamedTuple):
    """The player a token names."""

    id: int
    name: str


class PlayerDirectory:
    def __init__(self, settings: Settings, db: Database, peers: Peers) -> None:
        self.db = db
        self.peers = peers
        self.cache_seconds = settings.token_cache_seconds
        self.creations = CodeGuard(settings.player_create_burst, settings.player_create_per_minute,
                                   message="too many new players from your address; wait a minute")
        self.cache: dict[str, tuple[float, KnownPlayer]] = {}  # token hash -> (until, player)
        self.reads: Coalescer[str, KnownPlayer] = Coalescer(self._read)

    async def find(self, token: str | None) -> KnownPlayer | None:
        """The token's player (None: no such token)."""
        if not token or len(token) > 200:
            return None
        hit = self.cache.get(store.token_hash(token))
        if hit is not None and hit[0] > time.monotonic():
            return hit[1]
        found = await self.reads.get(token)  # one query for the tokens asked at once
        if found is not None:
            self.remember(token, found)
        return found

    def _read(self, tokens: list[str]) -> dict[str, KnownPlayer]:
        """(A worker thread.)  The player of each known token."""
        with self.db.read() as s:
            return {t: KnownPlayer(p.id, p.name) for t, p in store.players_by_tokens(s, tokens).items()}

    def remember(self, token: str, player: KnownPlayer) -> None:
        if len(self.cache) >= MAX_CACHED:
            self.cache.clear()
        self.cache[store.token_hash(token)] = (time.monotonic() + self.cache_seconds, player)

    # -- forgetting -----------------------------------------------------------------------

    def forget_player(self, player_id: int, *, tell_others: bool = True) -> None:
        """Every token of the player is read afresh (he was renamed)."""
        for key in [k for k, (_, p) in self.cache.items() if p.id == player_id]:
            self.cache.pop(key, None)
        if tell_others:
            self.peers.publish_players({"forget_player": player_id})

    def forget_token(self, token_hash: str) -> None:
        """The token (by its stored hash) is read afresh: a signed-out one is refused at once."""
        self.cache.pop(token_hash, None)

    def on_note(self, note: dict) -> None:
        """Another process renamed a player (app/rooms/fanout.py)."""
        if isinstance(note.get("forget_player"), int):
            self.forget_player(note["forget_player"], tell_others=False)

    # -- players --------------------------------------------------------------------------

    async def create(self, name: str, addr: str) -> dict:
        """A new player (``name`` already checked) with his token; remembered here, so his
        first join reads no row.  RateLimited past the creations allowed ``addr``."""
        self.creations.take(addr)

        def write() -> dict:
            with self.db.write() as s:
                player, token = store.create_player(s, name)
                return {"id": player.id, "name": player.name, "token": token}
        out = await to_thread.run_sync(write)
        self.remember(out["token"], KnownPlayer(out["id"], out["name"]))
        return out

    async def rename(self, player_id: int, name: str) -> dict:
        def write() -> dict:
            with self.db.write() as s:
                row = store.rename_player(s, player_id, name)
                return {"id": row.id, "name": row.name}
        out = await to_thread.run_sync(write)
        self.forget_player(player_id)
        return out
