"""Random-play throughput of the engine, per variant.

    .venv/bin/python bench/engine.py [--seconds 2] [--runs 5] [--variant ID ...]
    .venv/bin/python bench/engine.py --compare ../engine-old   # beside another checkout
    .venv/bin/python bench/engine.py --profile thousand-1001    # where the time goes

Plays whole seeded matches with uniformly random legal actions (no views),
the inner loop of every bot: ``to_act`` → ``legal_actions`` → ``apply``.
Prints matches/s and actions/s (median of several runs) on one core.
Тысяча is bid "like a person" (see ``policy``), or its matches never end.

``--compare DIR`` runs the same loop on the engine of another checkout (say a
``git worktree`` of an older commit) in the same run: each run of each
variant is a fresh process, old and new taking turns so both see the same
machine, and the ratio new / old of the medians is printed.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
if "--root" in sys.argv:  # a worker measuring another checkout's engine
    sys.path.insert(0, str(Path(sys.argv[sys.argv.index("--root") + 1]).resolve()))
else:
    sys.path.insert(0, str(HERE))

from engine import VARIANTS, find_variant  # noqa: E402


def seats_for(variant_id: str) -> int:
    return max(find_variant(variant_id).seat_counts)


def thousand_policy(match, seat, legal, rng):
    """Random card play; bids and contracts kept near the minimum so scores grow.

    Relies only on the order of ``legal`` (pass first, then bids low to high;
    the winning bid first among contracts; throw / refuse last).  Modern
    Тысяча: no blind call, redeal requests accepted (M-5, M-6)."""
    first = legal[0]
    if first == "blind:120" or legal[-1] == "accept":
        return legal[-1]
    if first == "pass":
        return first if len(legal) == 1 or rng.random() < 0.55 else legal[1]
    if first[0] in "bc":  # a forced bid (T-13) or the contract list
        return first
    n = len(legal)
    if n > 1 and legal[-1] in ("throw", "refuse"):
        n -= 1
    return legal[int(rng.random() * n)]


#: Modern Тысяча: the barrel is left by a made contract only, which random card
#: play seldom makes (a match at the defaults may pass 200,000 actions).
OPTIONS = {"thousand-ru": {"goal": 500, "barrel": "off"},
           "tysiac-pl": {"goal": 500, "barrel": "off"}}


def random_policy(match, seat, legal, rng):
    return legal[int(rng.random() * len(legal))]


def run(variant_id: str, seconds: float, seed0: int) -> tuple[int, int, float]:
    variant = find_variant(variant_id)
    seats = seats_for(variant_id)
    policy = thousand_policy if variant.family == "thousand" else random_policy
    rng = random.Random(seed0)
    matches = actions = 0
    start = time.perf_counter()
    cpu = time.process_time()
    deadline = start + seconds
    seed = seed0
    while time.perf_counter() < deadline:
        m = variant.new_match(seats, seed=seed, options=OPTIONS.get(variant_id))
        seed += 1
        budget = 200_000  # a match that never ends is a bug, not a benchmark
        while not m.over and budget:
            seat = m.to_act()[0]
            legal = m.legal_actions(seat)
            m.apply(seat, policy(m, seat, legal, rng))
            actions += 1
            budget -= 1
        if not budget:
            raise SystemExit(f"{variant_id}: match with seed {seed - 1} did not end")
        matches += 1
    run.cpu = time.process_time() - cpu  # type: ignore[attr-defined]
    return matches, actions, time.perf_counter() - start


def worker(root: str, variant_id: str, seconds: float, seed: int) -> dict:
    """One run in a fresh process on the engine of ``root``."""
    out = subprocess.run([sys.executable, __file__, "--worker", "--root", root, "--variant",
                          variant_id, "--seconds", str(seconds), "--seed", str(seed)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def compare(args: argparse.Namespace, ids: list[str]) -> None:
    old = str(Path(args.compare).resolve())
    print(f"# new: {HERE}  old: {old}")
    print("# actions per second of process CPU time (a shared machine's waits left out)")
    print(f"{'variant':<18} {'old actions/s':>14} {'new actions/s':>14} {'new/old':>8}")
    for vid in ids:
        rates: dict[str, list[float]] = {"old": [], "new": []}
        for r in range(args.runs):
            order = [("old", old), ("new", str(HERE))]
            for name, root in (order if r % 2 == 0 else order[::-1]):
                try:
                    res = worker(root, vid, args.seconds, 1000 * r)
                except subprocess.CalledProcessError:
                    rates[name].append(float("nan"))  # a variant the old engine lacks
                    continue
                rates[name].append(res["actions"] / res["cpu"])
        o, n = statistics.median(rates["old"]), statistics.median(rates["new"])
        print(f"{vid:<18} {o:>14,.0f} {n:>14,.0f} {n / o:>7.2f}x", flush=True)


def profile(variant_id: str, seconds: float) -> None:
    import cProfile
    import pstats
    prof = cProfile.Profile()
    prof.runcall(run, variant_id, seconds, 0)
    stats = pstats.Stats(prof).strip_dirs().sort_stats("tottime")
    total = sum(row[2] for row in stats.stats.values())  # type: ignore[attr-defined]
    print(f"# profile of {variant_id}: {total:.2f}s in all; by own time:")
    stats.print_stats(25)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=2.0, help="time per run")
    ap.add_argument("--runs", type=int, default=5, help="runs per variant (median reported)")
    ap.add_argument("--variant", action="append", help="only these variants")
    ap.add_argument("--compare", metavar="DIR", help="also measure the engine of this checkout")
    ap.add_argument("--profile", metavar="ID", help="profile one variant instead")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--root", help=argparse.SUPPRESS)
    ap.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    ids = args.variant or VARIANTS
    if args.worker:
        m, a, dt = run(ids[0], args.seconds, args.seed)
        print(json.dumps({"matches": m, "actions": a, "seconds": dt, "cpu": run.cpu}))
        return
    print(f"# {' '.join([Path(sys.executable).name, *sys.argv])}")
    print(f"# python {sys.version.split()[0]}, {args.runs} runs x {args.seconds}s each, one core")
    if args.profile:
        profile(args.profile, args.seconds)
        return
    if args.compare:
        compare(args, ids)
        return
    print(f"{'variant':<18} {'seats':>5} {'matches/s':>10} {'actions/s':>11} {'actions/match':>14}")
    for vid in ids:
        rates_m, rates_a, per_match = [], [], []
        for r in range(args.runs):
            m, a, dt = run(vid, args.seconds, 1000 * r)
            rates_m.append(m / dt)
            rates_a.append(a / dt)
            per_match.append(a / max(m, 1))
        print(f"{vid:<18} {seats_for(vid):>5} {statistics.median(rates_m):>10.1f} "
              f"{statistics.median(rates_a):>11,.0f} {statistics.median(per_match):>14.0f}")


if __name__ == "__main__":
    main()
