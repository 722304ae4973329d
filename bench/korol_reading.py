"""Король / Król: how well the search's samples place the hidden cards, with and
without reading the others' plays (engine/bots/inference.py).

Basic bots play whole matches; at every third decision in the trick play with 3 to
6 cards in the hand, the seat to act draws samples of the deal both ways: plain
``determinize`` and the search's ``draw`` (rejection by the reading).  A sample's
score is the share of the other seats' cards it puts in the right hand (the truth
from ``card_locations``, which only this bench reads).  Printed: the mean share
both ways over all positions, and the reader's cost per draw.

    .venv/bin/python bench/korol_reading.py --variant korol-ru --matches 40
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
from engine.bots.inference import PLAY_FLOOR, TRIES, Reader  # noqa: E402
from engine.bots.search import draw  # noqa: E402


def placed(sample, truth: dict, seat: int) -> float:
    """The share of the other seats' cards ``sample`` puts in the right hand."""
    where = sample.card_locations()
    right = total = 0
    for other in range(4):
        if other == seat:
            continue
        for card in truth[f"hand:{other}"]:
            total += 1
            right += card in where[f"hand:{other}"]
    return right / max(total, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="korol-ru")
    ap.add_argument("--matches", type=int, default=40)
    ap.add_argument("--samples", type=int, default=10, help="samples a position, each way")
    ap.add_argument("--tries", type=int, default=TRIES, help="rejection draws a sample at most")
    ap.add_argument("--floor", type=float, default=PLAY_FLOOR,
                    help="the likelihood of a play the basic bot would not make")
    args = ap.parse_args()
    plain = read = 0.0
    spent = 0.0
    positions = 0
    for seed in range(args.matches):
        m = find_variant(args.variant).new_match(4, seed=seed)
        bots = [make_bot("basic", s) for s in range(4)]
        step = 0
        while not m.is_over():
            seat = m.to_act()[0]
            v = m.view(seat)
            if v["phase"] == "play" and 3 <= len(v["hand"]) <= 6 and step % 3 == 0:
                truth = m.card_locations()
                rng = random.Random(seed * 100_000 + step)
                reader = Reader(v, "korol", args.floor)
                for _ in range(args.samples):
                    plain += placed(m.determinize(seat, random.Random(rng.getrandbits(64))), truth, seat)
                    t0 = time.perf_counter()
                    sample, _ = draw(lambda r, s=seat, mm=m: mm.determinize(s, r), rng, reader, args.tries)
                    spent += time.perf_counter() - t0
                    read += placed(sample, truth, seat)
                positions += 1
            m.apply(seat, bots[seat].act(m, seat))
            step += 1
    n = positions * args.samples
    print(f"# python bench/korol_reading.py --variant {args.variant} --matches {args.matches}"
          f" --samples {args.samples} --tries {args.tries} --floor {args.floor}")
    print(f"{args.variant}: {positions} positions; hidden cards placed right: plain {plain / n:.1%},"
          f" read {read / n:.1%}; a draw with the reading {1000 * spent / n:.2f} ms")


if __name__ == "__main__":
    main()
