"""Bytes and CPU per action per seat: full ``view`` messages against ``delta`` messages.

    .venv/bin/python bench/deltas.py [--matches 3] [--variant ID ...]

Plays whole seeded matches of each variant with bench/engine.py's policies and,
after every action, builds what the server sends each seat (app/rooms/service.py
push_views): the full view message, and the delta from the seat's previous view
(app/rooms/loop.py view_text / delta_text; the delta from the views' parts,
app/rooms/live.py SharedJson, which encodes the values the seats share once).  Prints
the mean bytes per action per seat of each, and the CPU per action (all seats) of
building the messages: views alone, + encoding the full views, + diffing and
encoding the deltas.  The views are the same in both columns, so the difference
is the diff's cost against the encoding it saves."""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.rooms.hub import dumps  # noqa: E402
from app.rooms.live import SharedJson  # noqa: E402
from app.rooms.loop import delta_text, view_text  # noqa: E402
from bench.engine import random_policy, seats_for, thousand_policy  # noqa: E402
from engine import VARIANTS, find_variant  # noqa: E402


def measure(variant_id: str, matches: int) -> dict:
    variant = find_variant(variant_id)
    seats = seats_for(variant_id)
    policy = thousand_policy if variant.family == "thousand" else random_policy
    rng = random.Random(7)
    out = dict(actions=0, full_bytes=0, delta_bytes=0, t_views=0.0, t_full=0.0, t_delta=0.0)
    clock = time.process_time
    match = dumps("M" * 12)
    for n in range(matches):
        m = variant.new_match(seats, seed=1000 + n)
        full_json, parts_json = SharedJson(), SharedJson()  # as the server encodes (live.py)
        last = {s: parts_json.encode(*m.view_parts(s), True)[1] for s in range(seats)}
        version = 0
        while not m.over:
            seat = m.to_act()[0]
            m.apply(seat, policy(m, seat, m.legal_actions(seat), rng))
            version += 1
            t0 = clock()
            views = {s: m.view_parts(s) for s in range(seats)}
            t1 = clock()
            full = [view_text(version, match, full_json.encode(*views[s], False)[0]) for s in range(seats)]
            t2 = clock()
            parts = {s: parts_json.encode(*views[s], True)[1] for s in range(seats)}
            deltas = [delta_text(version, match, version - 1, last[s], parts[s]) for s in range(seats)]
            t3 = clock()
            last = parts
            out["actions"] += 1
            out["full_bytes"] += sum(len(x.encode()) for x in full)
            out["delta_bytes"] += sum(len(x.encode()) for x in deltas)
            out["t_views"] += t1 - t0
            out["t_full"] += t2 - t1
            out["t_delta"] += t3 - t2
    out["seats"] = seats
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=3, help="whole matches per variant")
    ap.add_argument("--variant", action="append", help="only these variants")
    args = ap.parse_args()
    print(f"# {' '.join([Path(sys.executable).name, *sys.argv])}")
    print(f"{'variant':<18} {'seats':>5} {'actions':>8} {'view B/seat':>12} {'delta B/seat':>13} "
          f"{'ratio':>6} {'views us':>9} {'+enc full us':>13} {'+diff+enc delta us':>19}")
    for vid in args.variant or VARIANTS:
        r = measure(vid, args.matches)
        a, per = r["actions"], r["actions"] * r["seats"]
        print(f"{vid:<18} {r['seats']:>5} {a:>8} {r['full_bytes'] / per:>12.0f} {r['delta_bytes'] / per:>13.0f} "
              f"{r['delta_bytes'] / r['full_bytes']:>6.2f} {1e6 * r['t_views'] / a:>9.0f} "
              f"{1e6 * r['t_full'] / a:>13.0f} {1e6 * r['t_delta'] / a:>19.0f}")


if __name__ == "__main__":
    main()
