"""What the exact play of a deal's last tricks costs (engine/bots/fast/endgame.py).

Basic bots play matches; at every trick play position with at most 6 tricks left a
compact state is kept.  Printed per variant: a fast play-out from those positions
to the deal's end by the compact rule of thumb, and with its last 2 / 3 tricks
played exactly (``playout(..., exact=N)``), in microseconds a play-out, and how
often the exact end gives the seat to play another score than the rule of thumb.

    .venv/bin/python bench/endgame.py --variant korol-ru --positions 300
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import find_variant  # noqa: E402
from engine.bots import make_bot  # noqa: E402
from engine.bots.fast import from_match, greedy_policy, playout  # noqa: E402
from engine.bots.fast.endgame import cards_left  # noqa: E402


def positions(vid: str, count: int) -> list:
    v = find_variant(vid)
    seats = 4 if 4 in v.seat_counts and v.family != "thousand" else 3
    out: list = []
    seed = 0
    while len(out) < count:
        seed += 1
        m = v.new_match(seats, seed=seed)
        bots = [make_bot("basic", s) for s in range(seats)]
        rng = random.Random(seed)
        while not m.is_over() and len(out) < count:
            s = m.to_act()[0]
            if m.phase == "play" and rng.random() < 0.3:
                state = from_match(m)
                if 0 < cards_left(state) <= 6 * state.size:
                    out.append(state)
            m.apply(s, bots[s].act(m, s))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", action="append", help="repeatable; default: one of each family")
    ap.add_argument("--positions", type=int, default=300)
    args = ap.parse_args()
    print(f"# python bench/endgame.py {' '.join(sys.argv[1:])}")
    for vid in args.variant or ["korol-ru", "krol-pl", "thousand-1001", "thousand-ru", "king-classic"]:
        states = positions(vid, args.positions)
        line = [f"{vid}: {len(states)} positions, a play-out"]
        base: list[int] = []
        for exact in (0, 2, 3):
            changed = 0
            t0 = time.perf_counter()
            for i, st in enumerate(states):
                scores = playout(st.copy(), greedy_policy, random.Random(i), exact)
                if exact == 0:
                    base.append(scores[st.turn])
                else:
                    changed += scores[st.turn] != base[i]
            us = 1e6 * (time.perf_counter() - t0) / len(states)
            line.append(f"exact {exact}: {us:,.0f} us" + (f" ({changed / len(states):.0%} another score)" if exact else ""))
        print("; ".join(line), flush=True)


if __name__ == "__main__":
    main()
