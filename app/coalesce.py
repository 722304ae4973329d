"""Reads asked for at once, answered by one query: group commit's counterpart for look-ups.

Under a storm of joins (a server restart, a process killed and its sockets moving to
another) every socket asks for its token's player.  One read per socket is one worker
thread's turn and one round trip each; ``Coalescer.get(key)`` instead gathers the keys
asked for while a read runs (and in the same pass of the event loop) and answers them
all with the next call of ``fetch(keys)`` in one worker thread."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Generic, TypeVar

from anyio import to_thread

K = TypeVar("K")
V = TypeVar("V")


class Coalescer(Generic[K, V]):
    def __init__(self, fetch: Callable[[list[K]], dict[K, V]], max_batch: int = 500) -> None:
        self.fetch = fetch
        self.max_batch = max_batch
        self._pending: dict[K, asyncio.Future] = {}
        self._task: asyncio.Task | None = None
        self.calls = 0  # fetch calls so far (tests, benches)

    async def get(self, key: K) -> V | None:
        """``fetch``'s value for ``key`` (None: not in its answer); its errors are raised here."""
        fut = self._pending.get(key)
        if fut is None:
            fut = self._pending[key] = asyncio.get_running_loop().create_future()
            fut.add_done_callback(_retrieve)  # a waiter that left does not leave it unread
            if self._task is None:
                self._task = asyncio.get_running_loop().create_task(self._run())
        return await asyncio.shield(fut)

    async def _run(self) -> None:
        batch: dict[K, asyncio.Future] = {}
        try:
            await asyncio.sleep(0)  # the rest of this pass of the loop asks too
            while self._pending:
                keys = list(self._pending)[: self.max_batch]
                batch = {k: self._pending.pop(k) for k in keys}
                self.calls += 1
                try:
                    found = await to_thread.run_sync(self.fetch, keys)
                except Exception as e:
                    for fut in batch.values():
                        if not fut.done():
                            fut.set_exception(e)
                    continue
                for key, fut in batch.items():
                    if not fut.done():
                        fut.set_result(found.get(key))
        except asyncio.CancelledError:  # shutting down: nobody is left waiting for ever
            for fut in [*batch.values(), *self._pending.values()]:
                fut.cancel()
            self._pending.clear()
            raise
        finally:
            self._task = None


def _retrieve(fut: asyncio.Future) -> None:
    if not fut.cancelled():
        fut.exception()
