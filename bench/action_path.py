"""The Python cost of one action on the server's path, without sockets.

Builds the real service (``Server``, app/server.py, on a fresh SQLite file), ``--rooms`` rooms of
four seats with a started Тысяча 1001 match and four connections each whose socket
only counts bytes (the hub's sender tasks still run), then plays ``--actions``
actions round the rooms through the websocket route's own steps
(``client_message.validate_json`` and ``Play.act``: checks, engine, journal, ack,
four views, publish, bots), waiting for the group commit after each round (the
writer thread's; the thread's CPU is not counted).  Prints the thread CPU per action
and, with ``--profile``, the functions that cost the most (cProfile).  What the
bare server (bench/broadcast_server.py) does per action is timed the same way
(``json.loads`` of the message, one ``json.dumps`` of its view), so the ratio
shows the Python the rules, the journal and the views add; the sockets' own cost
(the kernel's) is bench/server.py's to measure.

    .venv/bin/python bench/action_path.py --rooms 200 --actions 20000 [--profile]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import protocol as p  # noqa: E402
from app.config import Settings  # noqa: E402
from app.db import store  # noqa: E402
from app.db.migrate import upgrade  # noqa: E402
from app.rooms.hub import Conn  # noqa: E402
from app.server import Server  # noqa: E402


class FakeSocket:
    """A websocket that keeps nothing: the bytes it was given, counted."""

    def __init__(self) -> None:
        self.bytes = 0

    async def send_text(self, text: str) -> None:
        self.bytes += len(text)

    async def close(self, code: int = 1000) -> None:
        pass


def setup(k: Server, rooms: int) -> list[tuple[str, list[int]]]:
    out = []
    with k.db.write() as s:
        for _ in range(rooms):
            host, _ = store.create_player(s, "host")
            room = store.create_room(s, host, "thousand-1001", {}, 4, 0)
            players = [host.id]
            for seat in range(1, 4):
                guest, _ = store.create_player(s, f"g{seat}")
                store.take_seat(s, room, seat, guest.id)
                players.append(guest.id)
            store.create_match(s, room, seed=random.randrange(1 << 30))
            out.append((room.code, players))
    return out


def bare_action(text: str, version: int) -> str:
    """bench/broadcast_server.py's work for one action, the sends left out."""
    msg = json.loads(text)
    assert msg["type"] == "action"
    return json.dumps({"type": "view", "version": version + 1, "match": "r",
                       "view": {"phase": "play", "to_act": [version % 4], "legal": ["x"], "pad": "x" * 1500}})


async def main_async(args) -> None:
    tmp = tempfile.mkdtemp(prefix="kozyr-action-path-")
    settings = Settings(database_url=f"sqlite:///{tmp}/bench.db", log_level="WARNING")
    k = Server(settings)
    upgrade(k.db.engine)
    rooms = setup(k, args.rooms)
    await k.startup()
    sinks: list[FakeSocket] = []
    tables = []
    for code, players in rooms:
        await k.rooms.snapshot(code)
        conns = []
        for seat, pid in enumerate(players):
            sink = FakeSocket()
            sinks.append(sink)
            conn = Conn(sink, code, pid, f"p{seat}", seat, 1000)  # type: ignore[arg-type]
            k.hub.join(conn)
            await k.matches.send_state(conn)
            conns.append(conn)
        tables.append((code, conns))
    rng = random.Random(1)
    n = 0
    cpu = 0.0
    bytes0 = sum(s.bytes for s in sinks)
    prof = cProfile.Profile() if args.profile else None
    ids = 0
    while n < args.actions:
        round_tasks = []
        for code, conns in tables:
            live = await k.matches.current(code)
            if live is None or live.finished:
                continue
            seat = live.engine.to_act()[0]
            action = rng.choice(live.engine.legal_actions(seat))
            ids += 1
            text = json.dumps({"type": "action", "client_id": f"c{ids}", "action": action,
                               "version": live.version})
            t0 = time.thread_time()
            if prof:
                prof.enable()
            msg = p.client_message.validate_json(text)
            task = asyncio.ensure_future(k.play.act(conns[seat], msg))
            if prof:
                prof.disable()
            cpu += time.thread_time() - t0
            n += 1
            round_tasks.append(task)
        if not round_tasks:  # every match is over
            break
        # the round's actions wait for their group commit, as in the live server
        t0 = time.thread_time()
        if prof:
            prof.enable()
        await asyncio.gather(*round_tasks)
        await asyncio.sleep(0)  # the sender tasks hand the views over
        if prof:
            prof.disable()
        cpu += time.thread_time() - t0
    sent = sum(s.bytes for s in sinks) - bytes0
    t0 = time.thread_time()
    for i in range(args.actions):
        bare_action(f'{{"type":"action","client_id":"c1","action":"x","version":{i}}}', i)
    bare = time.thread_time() - t0
    await k.shutdown()
    print(json.dumps({"rooms": args.rooms, "actions": n, "cpu_us_per_action": round(cpu / n * 1e6, 1),
                      "bare_python_us_per_action": round(bare / args.actions * 1e6, 1),
                      "bytes_sent_per_action": round(sent / n)}))
    if prof:
        stats = pstats.Stats(prof)
        stats.sort_stats(args.sort).print_stats(args.top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--actions", type=int, default=20000)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--sort", default="tottime")
    parser.add_argument("--top", type=int, default=45)
    args = parser.parse_args()
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
