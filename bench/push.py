"""Web Push at RATE pushes per second through the local push service (tests/pushservice.py,
a process of its own that verifies each VAPID token and decrypts each payload, as a push
service would): the real Notifier (app/push/) with a SQLite database of PLAYERS players,
one subscription each; every second each player gets one event (no coalescing, no rate
limit), for SECONDS.  Prints pushes sent and received and the CPU per push of the sender
(this process: the notifier's reads, encryption, VAPID, HTTP) and of the receiver.

    .venv/bin/python bench/push.py [--rate 1000] [--seconds 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.config import Settings, static_root  # noqa: E402
from app.db import store  # noqa: E402
from app.db.migrate import upgrade  # noqa: E402
from app.db.session import Database  # noqa: E402
from app.push import Notifier  # noqa: E402
from app.push import prefs as P  # noqa: E402
from app.push.texts import Texts  # noqa: E402


async def run(args) -> dict:
    receiver = subprocess.Popen([sys.executable, "-m", "tests.pushservice", str(args.rate)], cwd=ROOT,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert receiver.stdout is not None and receiver.stdin is not None
    hello = json.loads(receiver.stdout.readline())

    def stats() -> dict:
        receiver.stdin.write("stats\n")
        receiver.stdin.flush()
        return json.loads(receiver.stdout.readline())

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(database_url=f"sqlite:///{tmp}/push.db", push_coalesce_seconds=0.0,
                            push_min_interval=0.0, log_level="WARNING")
        db = Database(settings.database_url)
        upgrade(db.engine)
        ids = []
        with db.write() as s:
            for i, sub in enumerate(hello["subscriptions"]):
                player, _ = store.create_player(s, f"p{i}")
                ids.append(player.id)
                P.subscribe(s, player.id, f"device-{i}", sub["endpoint"], sub["keys"]["p256dh"],
                            sub["keys"]["auth"], "en")
        notifier = Notifier(settings, db, Texts(static_root(settings) / "i18n"))
        await notifier.start()
        try:
            before_rx, cpu0, t0 = stats(), time.process_time(), time.monotonic()
            for second in range(int(args.seconds)):
                for pid in ids:
                    notifier.notify(pid, "turn", room=None, match=f"m{pid}", due="2026-12-05T08:00:00+00:00")
                await asyncio.sleep(max(0.0, t0 + second + 1 - time.monotonic()))
            expected = len(ids) * int(args.seconds)
            while notifier.stats["sent"] + notifier.stats["failed"] < expected and time.monotonic() < t0 + args.seconds + 60:
                await asyncio.sleep(0.05)
            wall, cpu = time.monotonic() - t0, time.process_time() - cpu0
            after_rx = stats()
        finally:
            await notifier.stop()
            db.dispose()
            receiver.stdin.close()
            receiver.wait(10)
    sent = notifier.stats["sent"]
    received = after_rx["received"] - before_rx["received"]
    return {"asked_rate": args.rate, "seconds": args.seconds, "sent": sent, "failed": notifier.stats["failed"],
            "retried": notifier.stats["retried"],
            "received": received, "refused": after_rx["refused"], "wall_s": round(wall, 2),
            "achieved_per_s": round(sent / wall, 1),
            "sender_cpu_ms_per_push": round(1000 * cpu / max(1, sent), 3),
            "receiver_cpu_ms_per_push": round(1000 * (after_rx["cpu"] - before_rx["cpu"]) / max(1, received), 3)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=int, default=1000, help="pushes per second (= players)")
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    out = asyncio.run(run(args))
    print("command: .venv/bin/python bench/push.py " + shlex.join(sys.argv[1:]))
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
