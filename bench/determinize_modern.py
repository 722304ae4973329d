"""Cost of ``determinize`` in modern Тысяча after the talon, with and without a
seat that was asked to strike (M-6: the dealt hands must agree with the
requests, so an asked seat's hand is dealt again until it qualifies).

    .venv/bin/python bench/determinize_modern.py [--calls 300]

Prints ms per call for the declarer (seat 1) and an opponent (seat 0), and the
ratio asked / not asked in the same run.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.engine.modern_audit import do, new, strong  # noqa: E402
from tests.engine.test_thousand_modern_audit_deal import NINES  # noqa: E402

PLAY = ["bid:100", "pass", "pass", "give:AD>2", "give:TD>0", "contract:100", "play:AS"]


def per_call(m, seat: int, calls: int) -> float:
    t = time.process_time()
    for k in range(calls):
        m.determinize(seat, random.Random(k))
    return (time.process_time() - t) / calls * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=300)
    calls = ap.parse_args().calls
    asked = new("thousand-ru", presets=[NINES], blind=False)
    do(asked, "accept", *PLAY)
    plain = new("thousand-ru", presets=[strong(0)], blind=False)
    do(plain, *PLAY)
    for seat in (1, 0):
        a, p = per_call(asked, seat, calls), per_call(plain, seat, calls)
        print(f"seat {seat}: asked {a:.3f} ms, not asked {p:.3f} ms, ratio {a / p:.2f}")


if __name__ == "__main__":
    main()
