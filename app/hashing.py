"""Passphrase hashing (argon2id, argon2-cffi) on threads of its own.

A hash takes ``passphrase_memory_kib`` (64 MiB) and about 0.4 s of CPU on purpose.
argon2-cffi calls the C library through CFFI, which releases the GIL for the call
(measured here: a Python loop beside five hashes in a thread ran 15% slower, from
sharing two cores, not 2 s slower, as it would have with the GIL held), so a thread
is the right place; but not one of the few worker threads that serve the database
reads of every room (``worker_threads``): ``hash_threads`` threads of its own, and
sign-ins beyond them wait for each other, never for a join or a chat."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

T = TypeVar("T")


class Hashing:
    def __init__(self, threads: int, time_cost: int, memory_kib: int) -> None:
        self.hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib)
        self.threads = threads
        self._pool: ThreadPoolExecutor | None = None  # made at the first use after start or close
        self._dummy: str | None = None  # a hash nobody's passphrase matches (an unknown name)

    async def _run(self, fn: Callable[..., T], *args) -> T:
        if self._pool is None:  # an app started again after a shutdown (tests do) hashes again
            self._pool = ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix="kozyr-argon2")
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    async def hash(self, passphrase: str) -> str:
        return await self._run(self.hasher.hash, passphrase)

    async def check(self, digest: str | None, passphrase: str) -> tuple[bool, str | None]:
        """Does ``passphrase`` match ``digest``?  And its new hash if the digest's costs
        are not the current ones.  ``digest`` None (an unknown name): checked against a
        dummy hash all the same, so that it takes as long as a wrong passphrase."""
        return await self._run(self._check, digest, passphrase)

    def _check(self, digest: str | None, passphrase: str) -> tuple[bool, str | None]:
        if digest is None:
            if self._dummy is None:
                self._dummy = self.hasher.hash("not anybody's passphrase")
            self._verify(self._dummy, passphrase)
            return False, None
        if not self._verify(digest, passphrase):
            return False, None
        return True, self.hasher.hash(passphrase) if self.hasher.check_needs_rehash(digest) else None

    def _verify(self, digest: str, passphrase: str) -> bool:
        try:
            return self.hasher.verify(digest, passphrase)
        except (VerificationError, InvalidHashError):
            return False

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
