"""Look-ups asked at once are answered by one fetch (app/coalesce.py), and joins use it."""

from __future__ import annotations

import asyncio
import threading

import pytest

from app.coalesce import Coalescer


def test_keys_asked_at_once_are_fetched_in_one_call_and_each_gets_its_own_answer() -> None:
    calls: list[list[str]] = []

    def fetch(keys: list[str]) -> dict[str, int]:
        calls.append(sorted(keys))
        return {k: len(k) for k in keys if k != "missing"}

    async def main() -> list[int | None]:
        c = Coalescer(fetch)
        return await asyncio.gather(*(c.get(k) for k in ["a", "bb", "ccc", "bb", "missing"]))

    assert asyncio.run(main()) == [1, 2, 3, 2, None]
    assert calls == [["a", "bb", "ccc", "missing"]]  # one call, each key once


def test_keys_asked_while_a_fetch_runs_go_in_the_next_one() -> None:
    gate = threading.Event()
    calls: list[list[str]] = []

    def fetch(keys: list[str]) -> dict[str, str]:
        calls.append(sorted(keys))
        if len(calls) == 1:
            gate.wait(5)
        return {k: k.upper() for k in keys}

    async def main() -> list[str | None]:
        c = Coalescer(fetch)
        first = asyncio.create_task(c.get("x"))
        while not calls:
            await asyncio.sleep(0.005)
        later = [asyncio.create_task(c.get(k)) for k in ("y", "z")]
        await asyncio.sleep(0.02)
        gate.set()
        return [await first, *[await t for t in later]]

    assert asyncio.run(main()) == ["X", "Y", "Z"]
    assert calls == [["x"], ["y", "z"]]


def test_a_failed_fetch_fails_its_callers_and_the_next_one_is_tried_afresh() -> None:
    tries = iter([RuntimeError("database away"), None])

    def fetch(keys: list[str]) -> dict[str, int]:
        err = next(tries)
        if err is not None:
            raise err
        return {k: 1 for k in keys}

    async def main() -> int | None:
        c = Coalescer(fetch)
        with pytest.raises(RuntimeError):
            await c.get("k")
        return await c.get("k")

    assert asyncio.run(main()) == 1


def test_a_storm_of_joins_reads_the_tokens_in_few_queries(tmp_path) -> None:
    """Many sockets of fresh players (tokens not cached) joining at once: their players
    are right and the tokens were read in far fewer calls than sockets."""
    from starlette.testclient import TestClient

    from app.main import create_app

    from .conftest import make_settings
    from .helpers import make_room

    app = create_app(make_settings(f"sqlite:///{tmp_path / 'kozyr.db'}"))
    with TestClient(app) as client:
        room, players = make_room(client, "thousand-1001", 3)
        players_dir = app.state.players  # the player directory (app/directory.py)
        players_dir.cache.clear()  # as on another process: no token known yet

        async def storm() -> list[tuple[int, str] | None]:
            return await asyncio.gather(*(players_dir.find(p["token"]) for p in players * 4),
                                        players_dir.find("not-a-token"))

        found = client.portal.call(storm)
        assert found[:-1] == [(p["id"], p["name"]) for p in players * 4]
        assert found[-1] is None
        assert players_dir.reads.calls == 1
