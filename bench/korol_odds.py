"""Король / Król reigns: who takes the tricks, by the title in force; and how the
titles move from one round to the next (``--moves``).

Plays whole matches with basic bots in every seat and counts, for each set of
titles still in the round, the share of the tricks each title in force takes
(the sets seen at least ``--min`` tricks).  With ``--moves`` it counts instead,
for every pair of rounds, the next title of each title's holder (``move[i]``:
the index in TITLES of the title the holder of title ``i`` takes next) and
prints them as engine/bots/value.py's ``TITLE_MOVES`` holds them.  The search's value of a round still
open (engine/bots/value.py, ``race_points``) gives every untitled seat even odds
for each later trick; odds by title from this table were tried and played no
better (bench/RESULTS.md, "Король: the value of a round still open").

    .venv/bin/python bench/korol_odds.py --variant korol-ru --n 300
    .venv/bin/python bench/korol_odds.py --variant krol-pl --n 300
    .venv/bin/python bench/korol_odds.py --variant korol-ru --n 2000 --moves
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import find_variant  # noqa: E402
from engine.bots import make_bot  # noqa: E402


def basic_match(variant: str, seed: int, watch=None):
    """One whole match of basic bots; ``watch(before, after)`` sees every action's
    public views before and after it."""
    m = find_variant(variant).new_match(4, seed=seed)
    bots = [make_bot("basic", seed * 4 + s) for s in range(4)]
    while not m.is_over():
        v = m.view(None) if watch else None
        seat = m.to_act()[0]
        m.apply(seat, bots[seat].act(m, seat))
        if watch:
            watch(v, m.view(None))
    return m


def count(variant: str, n: int) -> tuple[Counter, Counter]:
    """(set of titles in the round, title) -> tricks taken; set -> tricks."""
    by_title: Counter = Counter()
    by_set: Counter = Counter()

    def watch(v: dict, after: dict) -> None:
        if v["round"] == 0 or after["round"] != v["round"]:
            return  # the crowning has no titles in force; a new round restarts the tallies
        for s in range(4):
            if after["tallies"][s] == v["tallies"][s] + 1:
                key = tuple(sorted(v["titles"][a] for a in v["active"]))
                by_title[key, v["titles"][s]] += 1
                by_set[key] += 1

    for seed in range(n):
        basic_match(variant, seed, watch)
    return by_title, by_set


def title_moves(variant: str, n: int) -> Counter:
    """How the titles moved between rounds over ``n`` matches of basic bots."""
    from engine.variants.korol_play import TITLES
    moves: Counter = Counter()
    for seed in range(n):
        rows = basic_match(variant, seed).role_table()
        for a, b in zip(rows, rows[1:], strict=False):
            move = [0] * len(TITLES)
            for s in range(4):
                move[TITLES.index(a["titles"][s])] = TITLES.index(b["titles"][s])
            moves[tuple(move)] += 1
    return moves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="korol-ru")
    ap.add_argument("--n", type=int, default=300, help="matches")
    ap.add_argument("--min", type=int, default=200, help="tricks a set needs to be listed")
    ap.add_argument("--moves", action="store_true", help="count the titles' moves between rounds")
    args = ap.parse_args()
    if args.moves:
        moves = title_moves(args.variant, args.n)
        print(f"# python bench/korol_odds.py --variant {args.variant} --n {args.n} --moves"
              f" ({sum(moves.values())} moves)")
        print(f'    "{args.variant}": {{')
        for move, k in moves.most_common():
            print(f"        {move!r}: {k},")
        print("    },")
        return
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
