"""Whole matches: how often a bot level wins, as players feel it (issue 36).

    .venv/bin/python bench/matches.py --variant thousand-1001 --n 60 --rollouts 40 --goal 500
    .venv/bin/python bench/matches.py --variant king-classic --n 100 --ms 800       # the real budget
    .venv/bin/python bench/matches.py --variant korol-ru --level expert --vs strong --rollouts 40
    .venv/bin/python bench/matches.py --variant thousand-ru --rollouts 40 --no-inference   # the effect alone
    .venv/bin/python bench/matches.py --variant thousand-ru --rollouts 40 --root /work/main  # another checkout's bots

Match ``i`` is played from seed ``--seed + i`` with the tested bot (``--level``,
``strong`` by default) in seat ``i mod seats`` (rotated) and basic bots in the
other seats; with ``--vs strong`` a strong bot sits in another seat (rotated
too) and the figure is how often the tested bot finishes ahead of it (its
place is better; a shared place counts half; chance 50%).  Otherwise the
figure is the tested seat's win share (a win shared by k seats counts 1/k;
chance 1/seats).  Printed: n, the share with its 95% Wilson interval, the
chance, the tested bot's decision times (wall ms p50 / p99 over the
decisions it searched, at most one legal action excluded) and how long the
run took (Король / Król: also the tested seat's title in each round); with ``--sprt P0,P1`` a sequential probability ratio test (α = β =
0.05) stops once the share is shown above P1 or below P0.

Budgets: ``--rollouts N`` searches N rollouts a decision (the expert
``EXPERT_TIME`` times as many) with no clock: the results depend on the
seeds only, so versions compare on equal deals whatever the machine's speed.
``--ms M`` is the server's mode (``bot_think_ms``, the expert thinks longer).
``--goal`` / ``--reigns`` shorten a match (Тысяча's goal, M-35's barrel gap
kept below it; Король's reigns); Кинг's match is its contracts and is not
shortened.  ``--jobs`` processes (the machine is shared: 1 by default).
Partial figures are printed every ``--every`` matches.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

ACTION_CAP = 100_000  # actions in a match; one that never ends is a bug


def setup_path(root: str | None) -> None:
    sys.path.insert(0, str(Path(root).resolve() if root else Path(__file__).resolve().parent.parent))


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share (wins may be fractional: shared wins)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def sprt_llr(scores: list[float], p0: float, p1: float) -> float:
    """The log likelihood ratio of share p1 against p0 (a shared win counts in part)."""
    a, b = math.log(p1 / p0), math.log((1 - p1) / (1 - p0))
    return sum(x * a + (1 - x) * b for x in scores)


def options_for(variant, args) -> dict | None:
    names = {o["name"]: o for o in variant.options_schema()}
    out: dict = {}
    if args.goal is not None and "goal" in names:
        out["goal"] = args.goal
        if "barrel_gap" in names:  # M-35: the barrel's gap stays below the goal
            out["barrel_gap"] = min(names["barrel_gap"]["default"], max(10, args.goal // 40 * 10))
    if args.reigns is not None and "reigns" in names:
        out["reigns"] = args.reigns
    return out or None


def seats_for(variant) -> int:
    counts = variant.seat_counts
    return 3 if 3 in counts else counts[-1]


def make(level: str, seed: int, args):
    from engine.bots import make_bot
    budget = {}
    if level in ("strong", "expert"):
        budget = {"iterations": args.rollouts, "ms": None} if args.rollouts else {"ms": args.ms}
        if args.no_inference:
            budget["inference"] = False
        if args.value:
            budget["value"] = args.value
        if args.z is not None:
            budget["z"] = args.z
        if args.min_rounds is not None:
            budget["min_rounds"] = args.min_rounds
        if args.playouts:
            budget["playouts"] = args.playouts
        if args.endgame is not None and level == args.level:
            budget["endgame"] = args.endgame
    return make_bot(level, seed, **budget)


def play(job) -> dict:
    """One match: the tested seat's score (1 a win, 1/k a shared one, 0 else), times."""
    i, args = job
    setup_path(args.root)
    from engine import find_variant
    variant = find_variant(args.variant)
    n = seats_for(variant)
    seed = args.seed + i
    tested = i % n
    levels = ["basic"] * n
    levels[tested] = args.level
    rival = None
    if args.vs == "strong":
        rival = (tested + 1 + (i // n) % (n - 1)) % n
        levels[rival] = "strong"
    bots = [make(lv, seed * 31 + s, args) for s, lv in enumerate(levels)]
    match = variant.new_match(n, seed=seed, options=options_for(variant, args))
    times: list[float] = []
    t_match = time.perf_counter()
    for _ in range(ACTION_CAP):
        if match.is_over():
            break
        seat = match.to_act()[0]
        bot = bots[seat]
        t0 = time.perf_counter()
        action = bot.act(match, seat)
        if seat == tested and getattr(bot, "last_stats", None):
            times.append(time.perf_counter() - t0)
        match.apply(seat, action)
    else:
        raise SystemExit(f"{args.variant}: match {i} did not end")
    result = match.result()
    if rival is None:
        winners = result["winners"]
        score = 1.0 / len(winners) if tested in winners else 0.0
    else:
        places = result["places"]
        score = 1.0 if places[tested] < places[rival] else 0.5 if places[tested] == places[rival] else 0.0
    titles = [r["titles"][tested] for r in match.role_table()]  # Король / Król: by round
    return {"i": i, "score": score, "times": times, "deals": len(match.scoresheet()),
            "seconds": time.perf_counter() - t_match, "titles": titles}


def pct(times: list[float], q: float) -> float:
    xs = sorted(times)
    return 1000 * xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def report(label: str, out: list[dict], chance: float, t0: float) -> str:
    n = len(out)
    wins = sum(o["score"] for o in out)
    lo, hi = wilson(wins, n)
    times = [t for o in out for t in o["times"]]
    return (f"{label} n={n} share={wins / max(n, 1):.1%} 95% [{lo:.1%}, {hi:.1%}] chance={chance:.0%} "
            f"decisions={len(times)} wall ms p50={pct(times, 0.5):.0f} p99={pct(times, 0.99):.0f} "
            f"max={pct(times, 1.0):.0f} deals/match={statistics.fmean(o['deals'] for o in out) if out else 0:.1f} "
            f"elapsed={time.perf_counter() - t0:.0f}s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", required=True)
    ap.add_argument("--n", type=int, default=40, help="matches (at most)")
    ap.add_argument("--level", default="strong", choices=("strong", "expert", "basic"))
    ap.add_argument("--vs", default="basic", choices=("basic", "strong"))
    ap.add_argument("--rollouts", type=int, help="fixed rollouts a decision, no clock")
    ap.add_argument("--ms", type=float, default=800, help="the strong bot's wall ms (without --rollouts)")
    ap.add_argument("--goal", type=int, help="Тысяча: a shorter match")
    ap.add_argument("--reigns", type=int, help="Король / Król: fewer reigns")
    ap.add_argument("--no-inference", action="store_true", help="search without reading the calls")
    ap.add_argument("--value", choices=("match", "deal"), help="what a play-out is worth (default: match)")
    ap.add_argument("--z", type=float, help="the early stop's standard errors (default: the level's)")
    ap.add_argument("--min-rounds", type=int, help="rounds before the early stop may drop a candidate")
    ap.add_argument("--playouts", choices=("fast", "engine"),
                    help="the trick play of a play-out on the compact state or the engine (default: engine)")
    ap.add_argument("--endgame", type=int,
                    help="the tested bot plays its play-outs' last N tricks exactly (0: never; default: the level's)")
    ap.add_argument("--sprt", help="P0,P1: stop once the share is shown above P1 or below P0")
    ap.add_argument("--root", help="import the engine (and its bots) from this checkout")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--every", type=int, default=10, help="print a partial figure every this many matches")
    args = ap.parse_args()
    setup_path(args.root)
    from engine import find_variant
    variant = find_variant(args.variant)
    n_seats = seats_for(variant)
    chance = 0.5 if args.vs == "strong" else 1.0 / n_seats
    print(f"# {' '.join([Path(sys.executable).name, *sys.argv])}")
    print(f"# pid {os.getpid()}, engine from {args.root or 'this checkout'}, seats {n_seats}, "
          f"options {options_for(variant, args)}, "
          + (f"rollouts {args.rollouts}" if args.rollouts else f"ms {args.ms}"), flush=True)
    label = f"{args.variant} {args.level} vs {args.vs}"
    if args.no_inference:
        label += " (no inference)"
    if args.value:
        label += f" (value {args.value})"
    if args.playouts:
        label += f" (playouts {args.playouts})"
    if args.endgame is not None:
        label += f" (endgame {args.endgame})"
    if args.z is not None or args.min_rounds is not None:
        label += f" (z {args.z}, min rounds {args.min_rounds})"
    p0 = p1 = None
    if args.sprt:
        p0, p1 = (float(x) for x in args.sprt.split(","))
    upper, lower = math.log(0.95 / 0.05), math.log(0.05 / 0.95)
    t0 = time.perf_counter()
    out: list[dict] = []
    jobs = [(i, args) for i in range(args.n)]
    pool = Pool(args.jobs) if args.jobs > 1 else None
    it = pool.imap(play, jobs) if pool else map(play, jobs)
    verdict = ""
    for o in it:
        out.append(o)
        if len(out) % args.every == 0 and len(out) < args.n:
            print("partial: " + report(label, out, chance, t0), flush=True)
        if p0 is not None and p1 is not None:
            llr = sprt_llr([x["score"] for x in out], p0, p1)
            if llr >= upper or llr <= lower:
                verdict = f"SPRT stopped: share {'≥' if llr >= upper else '≤'} " \
                          f"{p1 if llr >= upper else p0} (llr {llr:.2f})"
                break
    if pool:
        pool.terminate()
    print(report(label, out, chance, t0), flush=True)
    if verdict:
        print(verdict)
    by_round: dict[int, Counter] = {}
    for o in out:
        for r, title in enumerate(o["titles"]):
            by_round.setdefault(r, Counter())[title] += 1
    for r, seen in sorted(by_round.items()):  # Король / Król: the tested seat's title by round
        print(f"# round {r} titles: " + ", ".join(f"{t} {seen[t]} ({seen[t] / len(out):.0%})"
                                                  for t in ("king", "prince", "soldier", "peasant")))
    moves: Counter = Counter()
    for o in out:
        moves.update(zip(o["titles"], o["titles"][1:], strict=False))
    order = ("king", "prince", "soldier", "peasant")
    for a in order:  # Король / Król: the tested seat's next title by the title it held
        held = sum(moves[a, b] for b in order)
        if held:
            print(f"# after {a} ({held}): " + ", ".join(f"{b} {moves[a, b] / held:.0%}" for b in order))
    print("# scores by match: " + "".join("1" if o["score"] == 1 else "0" if o["score"] == 0 else "½"
                                          for o in sorted(out, key=lambda o: o["i"])))


if __name__ == "__main__":
    main()
