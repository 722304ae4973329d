"""Король / Król reigns: who takes the tricks, by the title in force.

Plays whole matches with basic bots in every seat and counts, for each set of
titles still in the round, the share of the tricks each title in force takes
(the sets seen at least ``--min`` tricks).  The search's value of a round still
open (engine/bots/value.py, ``race_points``) gives every untitled seat even odds
for each later trick; odds by title from this table were tried and played no
better (bench/RESULTS.md, "Король: the value of a round still open").

    .venv/bin/python bench/korol_odds.py --variant korol-ru --n 300
    .venv/bin/python bench/korol_odds.py --variant krol-pl --n 300
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import find_variant  # noqa: E402
from engine.bots import make_bot  # noqa: E402


def count(variant: str, n: int) -> tuple[Counter, Counter]:
    """(set of titles in the round, title) -> tricks taken; set -> tricks."""
    by_title: Counter = Counter()
    by_set: Counter = Counter()
    for seed in range(n):
        m = find_variant(variant).new_match(4, seed=seed)
        bots = [make_bot("basic", seed * 4 + s) for s in range(4)]
        while not m.is_over():
            v = m.view(None)
            seat = m.to_act()[0]
            m.apply(seat, bots[seat].act(m, seat))
            after = m.view(None)
            if v["round"] == 0 or after["round"] != v["round"]:
                continue  # the crowning has no titles in force; a new round restarts the tallies
            for s in range(4):
                if after["tallies"][s] == v["tallies"][s] + 1:
                    key = tuple(sorted(v["titles"][a] for a in v["active"]))
                    by_title[key, v["titles"][s]] += 1
                    by_set[key] += 1
    return by_title, by_set


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="korol-ru")
    ap.add_argument("--n", type=int, default=300, help="matches")
    ap.add_argument("--min", type=int, default=200, help="tricks a set needs to be listed")
    args = ap.parse_args()
    by_title, by_set = count(args.variant, args.n)
    print(f"# python bench/korol_odds.py --variant {args.variant} --n {args.n} --min {args.min}")
    print(f'    "{args.variant}": {{')
    for key, tricks in by_set.most_common():
        if tricks < args.min:
            print(f"        # {key}: {tricks} tricks, left out")
            continue
        shares = ", ".join(f'"{t}": {by_title[key, t] / tricks:.3g}' for t in key)
        print(f"        {key!r}: {{{shares}}},  # {tricks} tricks")
    print("    },")


if __name__ == "__main__":
    main()
