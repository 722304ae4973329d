"""app/aio.py: a background loop cancelled at shutdown ends, even when the cancellation
arrives in the same step as its wake-up (the race that held a test session's shutdown)."""

from __future__ import annotations

import asyncio

from app.aio import stop_task, wait_event


async def _loop(event: asyncio.Event, rounds: list[int]) -> None:
    while True:
        event.clear()
        await wait_event(event, 10.0)
        rounds.append(1)


def test_cancel_with_the_wake_up_in_one_step_ends_the_loop():
    async def main() -> None:
        event = asyncio.Event()
        rounds: list[int] = []
        task = asyncio.create_task(_loop(event, rounds))
        await asyncio.sleep(0)  # the loop waits on the event
        event.set()  # the wake-up and the cancellation in the same step
        assert await stop_task(task, 2.0)
        assert task.cancelled()
        assert rounds == []  # the cancellation won: the loop did not run another round

    asyncio.run(main())


def test_wait_event_says_whether_it_was_woken():
    async def main() -> tuple[bool, bool]:
        event = asyncio.Event()
        asyncio.get_running_loop().call_later(0.01, event.set)
        woken = await wait_event(event, 5.0)
        event.clear()
        return woken, await wait_event(event, 0.01)

    assert asyncio.run(main()) == (True, False)


def test_stop_task_gives_up_on_a_task_that_ignores_its_cancellation():
    release = asyncio.Event()

    async def stubborn() -> None:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            await release.wait()  # ignores the cancellation until released

    async def main() -> bool:
        task = asyncio.create_task(stubborn())
        await asyncio.sleep(0)
        ended = await stop_task(task, 0.05)
        release.set()
        await task
        return ended

    assert asyncio.run(main()) is False
