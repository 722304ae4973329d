"""Sign-in on another device: a personal one-time link, or a name + passphrase
(argon2id, argon2-cffi).  Failed sign-ins are limited per client address (a
``CodeGuard``) and, for passphrases, per name (app/db/accounts.py claim_attempt).
A player's devices are listed and signed out: a signed-out device's token stops
working at once (the player directory forgets it) and its open sockets close,
here and on every other process.  SQL in app/db/accounts.py; the routes are
app/api/auth.py."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import timedelta

from anyio import to_thread

from . import protocol as p
from .config import Settings
from .db import accounts
from .db.errors import RateLimited
from .db.session import Database
from .directory import PlayerDirectory
from .hashing import Hashing
from .limits import CodeGuard
from .rooms.hub import Conn, Hub
from .rooms.peers import Peers


def secret_of(link: str) -> str:
    """The secret of ``.../#/signin/<secret>`` (or the bare secret)."""
    return link.strip().rsplit("/", 1)[-1]


class SignIns:
    def __init__(self, settings: Settings, db: Database, hashing: Hashing, players: PlayerDirectory, hub: Hub,
                 peers: Peers) -> None:
        self.settings = settings
        self.db = db
        self.hashing = hashing  # argon2 on threads of its own (app/hashing.py)
        self.players = players
        self.hub = hub
        self.peers = peers
        self.guard = CodeGuard(settings.sign_in_burst, settings.sign_in_per_minute,  # failures per address
                               message="too many failed sign-ins from your address; wait a minute")

    # -- links -------------------------------------------------------------------------------

    async def new_link(self, player_id: int) -> tuple[str, str]:
        """A new personal sign-in link's (secret, expiry); the older one stops working."""
        lifetime = timedelta(minutes=self.settings.sign_in_link_minutes)

        def make() -> tuple[str, str]:
            with self.db.write() as s:
                secret, expires = accounts.new_link(s, player_id, lifetime)
                return secret, expires.isoformat()
        return await to_thread.run_sync(make)

    async def link_state(self, player_id: int) -> dict | None:
        def read() -> dict | None:
            with self.db.read() as s:
                return accounts.link_state(s, player_id)
        return await to_thread.run_sync(read)

    async def use_link(self, link: str, addr: str) -> dict:
        """Spend a link: this device's own token of the link's player."""
        self.guard.check(addr)

        def spend() -> dict:
            with self.db.write() as s:
                player, token = accounts.use_link(s, secret_of(link))
                return {"id": player.id, "name": player.name, "token": token}
        try:
            return await to_thread.run_sync(spend)
        except accounts.SignInLinkRefused:
            self.guard.miss(addr)
            raise

    # -- name + passphrase -------------------------------------------------------------------

    async def set_passphrase(self, player_id: int, login: str, passphrase: str) -> dict:
        digest = await self.hashing.hash(passphrase)  # outside the transaction: it takes a while on purpose

        def save() -> dict:
            with self.db.write() as s:
                return accounts.set_passphrase(s, player_id, login, digest)
        return await to_thread.run_sync(save)

    async def passphrase_state(self, player_id: int) -> dict | None:
        def read() -> dict | None:
            with self.db.read() as s:
                return accounts.passphrase_state(s, player_id)
        return await to_thread.run_sync(read)

    async def remove_passphrase(self, player_id: int) -> None:
        def write() -> bool:
            with self.db.write() as s:
                return accounts.remove_passphrase(s, player_id)
        await to_thread.run_sync(write)

    async def use_passphrase(self, login: str, passphrase: str, addr: str) -> dict:
        """A name and passphrase -> this device's own token of that player."""
        self.guard.check(addr)
        settings = self.settings
        lock = timedelta(seconds=settings.passphrase_lock_seconds)

        def claim() -> tuple[int, str] | None:
            with self.db.write() as s:  # counted before the check (accounts.claim_attempt)
                return accounts.claim_attempt(s, login, settings.passphrase_tries, lock)

        def signed_in(player_id: int, renewed: str | None) -> dict:
            with self.db.write() as s:
                token = accounts.passphrase_ok(s, player_id, renewed)
                return {**accounts.player_public(s, player_id), "token": token}
        try:
            claimed = await to_thread.run_sync(claim)
            # an unknown name is checked against a dummy hash: it takes as long
            right, renewed = await self.hashing.check(claimed[1] if claimed else None, passphrase)
            if not right or claimed is None:
                raise accounts.SignInRefused(accounts.REFUSED)
            return await to_thread.run_sync(signed_in, claimed[0], renewed)
        except (accounts.SignInRefused, RateLimited):
            self.guard.miss(addr)
            raise

    # -- devices -------------------------------------------------------------------------------

    async def devices(self, player_id: int, current: str) -> list[dict]:
        """The player's signed-in devices, oldest first (``current``: the asking one's hash)."""
        def read() -> list[dict]:
            with self.db.read() as s:
                return accounts.devices(s, player_id, current)
        return await to_thread.run_sync(read)

    async def sign_out(self, player_id: int, device_id: int | None, keep: str | None) -> int:
        """Sign out the player's device ``device_id``, or (None) every one but ``keep``'s
        (accounts.sign_out); how many were."""
        def write() -> list[str]:
            with self.db.write() as s:
                return accounts.sign_out(s, player_id, device_id, keep)
        gone = await to_thread.run_sync(write)
        await self.signed_out(gone)
        return len(gone)

    async def signed_out(self, digests: list[str], *, tell_others: bool = True) -> None:
        """Devices were signed out (their rows are gone): their tokens forgotten, their
        sockets told and closed (4403), and the other processes told the same
        (rooms/fanout.py).  Whatever else a device holds in memory is let go here too."""
        gone = set(digests)
        for digest in gone:
            self.players.forget_token(digest)
        conns = [c for room in list(self.hub.rooms.values()) for c in room if c.device in gone]
        for conn in conns:
            conn.send({"type": "error", "version": 0, "match": None, "code": p.BAD_TOKEN,
                       "message": "this device was signed out"})

        async def close(conn: Conn) -> None:
            await conn.drain(0.5)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.ws.close(code=4403), 2.0)
        await asyncio.gather(*(close(conn) for conn in conns))
        if tell_others:
            self.peers.publish_players({"signed_out": digests})
