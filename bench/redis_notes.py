"""CPU per cross-process note through Redis (app/rooms/fanout.py's path in
miniature): publish notes in pipelines of 50 and receive them on a pattern
subscription, in one process, and print the process CPU per note.  redis-py parses
replies with hiredis (C) when it is installed (pyproject: ``redis[hiredis]``), else
in Python; run it under both to compare.

    .venv/bin/python bench/redis_notes.py [--url redis://127.0.0.1:6379/0] [--notes 20000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time

import redis.asyncio as redis
from redis.utils import HIREDIS_AVAILABLE


async def run(url: str, n: int) -> float:
    note = json.dumps({"kind": "match", "match": "m" * 32, "version": 17,
                       "logged": [16, 2, "play:AS", "c" * 20]})
    pub, sub = redis.Redis.from_url(url), redis.Redis.from_url(url)
    ps = sub.pubsub(ignore_subscribe_messages=True)
    await ps.psubscribe("kozyr-bench:*")
    got = 0

    async def listen() -> None:
        nonlocal got
        async for m in ps.listen():
            if m["type"] == "pmessage":
                got += 1
                if got == n:
                    return

    task = asyncio.create_task(listen())
    await asyncio.sleep(0.2)
    cpu = time.process_time()
    for _ in range(0, n, 50):
        async with pub.pipeline(transaction=False) as p:
            for j in range(50):
                p.publish(f"kozyr-bench:room{j}", note)
            await p.execute()
    await task
    cpu = time.process_time() - cpu
    await ps.aclose()
    await pub.aclose()
    await sub.aclose()
    return cpu / n


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--notes", type=int, default=20000)
    args = parser.parse_args()
    per = asyncio.run(run(args.url, args.notes))
    print(f"hiredis {'yes' if HIREDIS_AVAILABLE else 'no'}: publish + receive {per * 1e6:.1f} us of CPU per note")


if __name__ == "__main__":
    main()
