"""How much better the bots play than the level below them, duplicate style.

    .venv/bin/python bench/bots.py --quick                 # a few minutes
    .venv/bin/python bench/bots.py --jobs 2                # the full run (under half an hour on 2 quiet cores)
    .venv/bin/python bench/bots.py --variant king-classic --iterations 100 --units 40

Every unit (a deal, or a whole match) is played several times on the same
cards: once with rule-of-thumb bots ("basic") in every seat, then, for each
seat in turn, once with the strong bot in that seat and once with the random
bot there, every other seat basic.  The figures are the differences of that
seat's result, averaged over the seats of a unit, then over the units:

* Тысяча and Кинг: points per deal.  A unit is one deal of a seeded match (units
  spread over the match's deals; Тысяча: its first 6): the deals before it are played by basic bots, so every contract of Кинг and the
  scores of Тысяча occur; the unit's deal has the same cards in every run.
* Король / Król: R-4 points (King 3, Prince 2, Soldier 1) per whole match
  (one reign after the crowning unless --reigns says otherwise).

The full run plays 200 deals of each Тысяча variant (its scores swing by whole
contracts), 100 of each Кинг variant, 30 matches of Король and 50 of Król
(whose gain per match is the smallest), at 60 iterations a decision (see
``DEFAULTS``): 600 deals, 300 deals and 80 matches a family.

Each mean is shown with its 95% confidence interval (normal approximation
over units), with the strong bot's mean and 99th-percentile time per search
decision (decisions with one legal action are not searched and not counted),
as CPU time of the process and as wall-clock time (the two differ when the
machine is shared).  The strong bot searches ``--iterations`` rollouts a
decision, capped at ``--ms`` of wall-clock time (800 by default, the server's
``bot_think_ms``; ``--ms 0``: no cap); ``capped`` counts the decisions the cap
ended (a capped search depends on the machine's speed, an uncapped one on the
seeds only).  ``cpu s`` is the CPU time all units of a variant took:
divided by ``--jobs`` it is about the wall time on a quiet machine.
"""

from __future__ import annotations

import argparse
import copy
import math
import os
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import VARIANTS, find_variant  # noqa: E402
from engine.bots import HeuristicBot, RandomBot, SearchBot  # noqa: E402
from engine.bots.search import TITLE_POINTS  # noqa: E402

UNIT_CAP = 200_000  # actions; a unit that never ends is a bug
#: Units per variant: deals for Тысяча and Кинг, matches for Король / Król.
#: Тысяча's scores swing by whole contracts, so it needs more deals than Кинг.
DEFAULTS = {"quick": {"thousand": 6, "king": 6, "korol": 2},
            "full": {"thousand": 200, "king": 100, "korol": 30,
                     "krol-pl": 50}}  # Król's gain per match is the smallest
FULL_ITERATIONS = 60
#: The strong bot's wall-clock cap per decision, as the server's bots have it
#: (``app/config.py`` ``bot_think_ms``); ``--ms 0`` searches by iterations only.
DEFAULT_MS = 800


def seats_for(variant_id: str) -> int:
    counts = find_variant(variant_id).seat_counts
    return 3 if 3 in counts else counts[0]  # Тысяча: 3, nobody sits out (modern: not 2)


def make(level: str, seed: int, args) -> object:
    if level == "strong":
        return SearchBot(seed, iterations=args.iterations, ms=args.ms or None)
    return (HeuristicBot if level == "basic" else RandomBot)(seed)


def run(match, bots, stop_rows: int | None, times: list[float]) -> None:
    for _ in range(UNIT_CAP):
        if match.is_over() or (stop_rows is not None and len(match.scoresheet()) >= stop_rows):
            return
        seat = match.to_act()[0]
        bot = bots[seat]
        t0, c0 = time.perf_counter(), time.process_time()
        action = bot.act(match, seat)
        if isinstance(bot, SearchBot) and bot.last_stats:
            times.append((time.process_time() - c0, time.perf_counter() - t0,
                          bot.last_stats.get("stop") == "deadline"))
        match.apply(seat, action)
    raise SystemExit(f"{match.variant.id}: unit did not end")


def standings(match) -> list[int]:
    pts = [0] * match.seats
    for row in match.role_table():
        for s, title in enumerate(row["titles"]):
            pts[s] += TITLE_POINTS.get(title, 0)
    return pts


def unit(job) -> dict:
    """One unit: the all-basic run, then strong and random in each seat."""
    variant_id, u, args = job
    cpu0 = time.process_time()
    variant = find_variant(variant_id)
    n = seats_for(variant_id)
    base_seed = args.seed + 1000 * u
    per_match = variant.family == "korol"
    if per_match:
        opts = {"reigns": args.reigns} if args.reigns is not None else None
        start = variant.new_match(n, seed=base_seed, options=opts)
        rows = None
    else:
        start = variant.new_match(n, seed=base_seed)
        deals = start.view(0).get("deals_total") or 6
        deals = min(deals, args.prefix_deals)
        count = units_for(variant_id, args)
        prefix = u * deals // count if count < deals else u % deals  # deals before the unit's
        run(start, [HeuristicBot(base_seed + s) for s in range(n)], prefix, [])
        rows = len(start.scoresheet()) + 1

    def result(levels: list[str], times: list[float]) -> list[float]:
        m = copy.deepcopy(start)
        bots = [make(lv, base_seed + 7 * s + 1, args) for s, lv in enumerate(levels)]
        run(m, bots, rows, times)
        if per_match:
            return standings(m)
        return m.scoresheet()[rows - 1]["scores"] if rows <= len(m.scoresheet()) else [0] * n

    times: list[float] = []
    basic = result(["basic"] * n, times)
    strong_gain, basic_gain = [], []
    for s in range(n):
        with_strong = result(["strong" if i == s else "basic" for i in range(n)], times)
        with_random = result(["random" if i == s else "basic" for i in range(n)], [])
        strong_gain.append(with_strong[s] - basic[s])
        basic_gain.append(basic[s] - with_random[s])
    return {"strong": statistics.fmean(strong_gain), "basic": statistics.fmean(basic_gain),
            "times": times, "cpu": time.process_time() - cpu0}


def units_for(variant_id: str, args) -> int:
    """Units of a variant: ``--units`` / ``--matches`` when given, else the run's default."""
    family = find_variant(variant_id).family
    given = args.matches if family == "korol" else args.units
    table = DEFAULTS[args.mode]
    return given or table.get(variant_id) or table[family]


def ci(xs: list[float]) -> str:
    if not xs:
        return "n/a"
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return f"{m:+.2f}"
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
    return f"{m:+7.2f} ± {half:5.2f}"


def ms(times: list[float]) -> str:
    """Mean / 99th percentile in milliseconds."""
    if not times:
        return "-"
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    return f"{1000 * statistics.fmean(times):.0f} / {1000 * p99:.0f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="a few minutes: few units, small budget")
    ap.add_argument("--variant", action="append", help="only these variants")
    ap.add_argument("--iterations", type=int, help="strong bot: rollouts per decision")
    ap.add_argument("--ms", type=float, default=DEFAULT_MS,
                    help=f"strong bot: wall-clock cap in ms per decision (default {DEFAULT_MS}, "
                         "the server's; 0: none)")
    ap.add_argument("--units", type=int, help="deals (Тысяча, Кинг) per variant "
                    "(full run: Тысяча 200, Кинг 100)")
    ap.add_argument("--matches", type=int, help="matches (Король / Król) per variant "
                    "(full run: Король 30, Król 50)")
    ap.add_argument("--reigns", type=int, help="Король / Król option `reigns` (R-4)")
    ap.add_argument("--prefix-deals", type=int, default=40,
                    help="units are spread over the first this many deals of a match")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="processes (the machine is shared)")
    args = ap.parse_args()
    args.mode = "quick" if args.quick else "full"
    args.reigns = 1 if args.reigns is None else args.reigns
    if args.iterations is None:
        args.iterations = 30 if args.quick else FULL_ITERATIONS
    ids = args.variant or VARIANTS
    print(f"# {' '.join([Path(sys.executable).name, *sys.argv])}")
    budget = f"iterations={args.iterations}" + (f" ms={args.ms}" if args.ms else "")
    print(f"# python {sys.version.split()[0]}, pid {os.getpid()}, strong budget {budget}, "
          f"jobs {args.jobs}, seed {args.seed}")
    print("# units: Тысяча/Кинг points per deal; Король/Król R-4 points per match; "
          "± = 95% CI over units")
    print(f"{'variant':<17} {'units':>5} {'strong - basic':>16} {'basic - random':>16} "
          f"{'cpu ms mean/p99':>16} {'wall ms mean/p99':>16} {'decisions':>9} {'wall s':>7} "
          f"{'cpu s':>7} {'capped':>6}")
    for vid in ids:
        count = units_for(vid, args)
        jobs = [(vid, u, args) for u in range(count)]
        t0 = time.perf_counter()
        if args.jobs > 1:
            with Pool(args.jobs) as pool:
                out = pool.map(unit, jobs)
        else:
            out = [unit(j) for j in jobs]
        cpu = sorted(t[0] for o in out for t in o["times"])
        wall = sorted(t[1] for o in out for t in o["times"])
        print(f"{vid:<17} {count:>5} {ci([o['strong'] for o in out]):>16} "
              f"{ci([o['basic'] for o in out]):>16} {ms(cpu):>16} {ms(wall):>16} "
              f"{len(cpu):>9} {time.perf_counter() - t0:>7.0f} "
              f"{sum(o['cpu'] for o in out):>7.0f} "
              f"{sum(t[2] for o in out for t in o['times']):>6}", flush=True)


if __name__ == "__main__":
    main()
