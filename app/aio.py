"""Two small asyncio helpers every background loop of the server uses.

On Python 3.11 ``asyncio.wait_for`` loses a cancellation that arrives in the same step
as the awaited thing finishing (it returns the result instead of raising): a loop
``while True: await wait_for(event.wait(), t)`` cancelled at shutdown just as the event
is set runs on, and a shutdown that awaits it never ends.  ``asyncio.timeout`` (3.11)
keeps the cancellation, so the loops wait with :func:`wait_event`; and a shutdown waits
for a cancelled task a bounded time with :func:`stop_task`, so one stuck task cannot
hold the process."""

from __future__ import annotations

import asyncio
import logging

log = logging.getLogger("kozyr.aio")

STOP_SECONDS = 5.0  # the longest a shutdown waits for one cancelled task


async def wait_event(event: asyncio.Event, seconds: float | None) -> bool:
    """Wait until ``event`` is set (True) or ``seconds`` have passed (False; None: no limit)."""
    if seconds is None:
        await event.wait()
        return True
    try:
        async with asyncio.timeout(seconds):
            await event.wait()
        return True
    except TimeoutError:
        return False


async def stop_task(task: asyncio.Task | None, seconds: float = STOP_SECONDS) -> bool:
    """Cancel ``task`` and wait until it has ended, ``seconds`` at most; False (and a
    warning) if it is still running then.  A task of another event loop (a test may
    start an app in one loop and stop it in another) is cancelled there, not awaited."""
    if task is None or task.done():
        return True
    loop = asyncio.get_running_loop()
    if task.get_loop() is not loop:
        if not task.get_loop().is_closed():
            task.get_loop().call_soon_threadsafe(task.cancel)
        return True
    task.cancel()
    done, _ = await asyncio.wait({task}, timeout=seconds)
    if not done:
        log.warning("task %s did not end within %.1f s of its cancellation", task.get_name(), seconds)
        return False
    if not task.cancelled() and task.exception() is not None:
        log.warning("task %s ended with %r", task.get_name(), task.exception())
    return True
