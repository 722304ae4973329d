"""Play-outs per second: the compact play-out state (engine/bots/fast) against
stepping the engine, from the same positions.

    .venv/bin/python bench/playout.py [--positions 60] [--rounds 20] [--variant ID ...]

Positions: for each variant, seeded matches played with random legal actions
until a deal is in its play phase, then a random number of cards into it (a
search decides anywhere in a deal), and a determinized copy for a seat (what
a search bot plays out).  From each position a play-out runs to the end of
the deal, ``--rounds`` times, in four ways:

* ``engine random``: ``match.copy()``, then ``legal_actions`` / ``apply_unchecked``
  with a uniformly random card, to the deal's end;
* ``engine rule``: the play-out of today's strong bot (``SearchBot._rollout``):
  a ``bot_view`` and the rule-of-thumb bot's choice at every step;
* ``fast random``: ``state.copy()`` and ``playout(state, random_policy, rng)``;
* ``fast rule``: the same with ``greedy_policy``, the compact rule of thumb.

``fast build`` is ``from_match`` itself (once per determinized sample in a
search).  Play-outs/s are printed per way, and the ratios fast / engine for
the same kind of policy (random / random, rule / rule).  One core; times are
CPU time of this process (``time.process_time``: other work on a shared
machine does not count), the best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import VARIANTS, find_variant  # noqa: E402
from engine.bots.fast import from_match, greedy_policy, playout, random_policy  # noqa: E402
from engine.bots.heuristic import HeuristicBot  # noqa: E402

QUITS = frozenset({"throw", "refuse", "writeoff"})


def positions(vid: str, count: int, seed: int) -> list:
    """``count`` determinized matches in their play phase, at random depths."""
    rng = random.Random(seed)
    v = find_variant(vid)
    out = []
    while len(out) < count:
        m = v.new_match(rng.choice(v.seat_counts), seed=rng.getrandbits(32))
        for _ in range(rng.randint(1, 4)):  # a later deal now and then (Король's reigns)
            depth = -1
            while not m.is_over():
                s = m.to_act()[0]
                legal = [a for a in m.legal_actions(s) if a.partition(":")[0] not in QUITS]
                if m.phase == "play":
                    if depth < 0:
                        depth = rng.randrange(len(m.card_locations()[f"hand:{s}"]) * 2)
                    if depth == 0:
                        break
                    depth -= 1
                last = m.last_deal
                m.apply(s, rng.choice(legal or m.legal_actions(s)))
                if m.last_deal is not last:
                    depth = -1
            if m.is_over():
                break
        if not m.is_over() and m.phase == "play":
            s = m.to_act()[0]
            out.append(m.determinize(s, rng))
    return out


def engine_random(m, rng: random.Random) -> None:
    m = m.copy()
    last = m.last_deal
    while m.last_deal is last and not m.is_over():
        s = m.to_act()[0]
        legal = m.legal_actions(s)
        plays = [a for a in legal if a not in QUITS] or legal
        m.apply_unchecked(s, plays[int(rng.random() * len(plays))])


def engine_rule(m, rng: random.Random, bot: HeuristicBot) -> None:
    """As ``SearchBot._rollout``: a view and the rule of thumb at every step."""
    m = m.copy()
    rows0 = len(m.scoresheet())
    while not m.is_over():
        s = m.to_act()[0]
        legal = m.legal_actions(s)
        if len(legal) == 1:
            m.apply_unchecked(s, legal[0])
            continue
        v = m.bot_view(s)
        if v["rows"] > rows0:
            break
        m.apply_unchecked(s, bot.choose(v, rng))


def best_of(repeat: int, fn) -> float:
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times)


def measure(vid: str, a: argparse.Namespace, bot: HeuristicBot) -> str:
    """One variant's line: play-outs/s of the four ways, the ratios, builds/s."""
    ps = positions(vid, a.positions, a.seed)
    states = [from_match(m) for m in ps]
    n = len(ps) * a.rounds

    def run_engine_random() -> None:
        rng = random.Random(a.seed)
        for m in ps:
            for _ in range(a.rounds):
                engine_random(m, rng)

    def run_engine_rule() -> None:
        rng = random.Random(a.seed)
        for m in ps:
            for _ in range(a.rounds):
                engine_rule(m, rng, bot)

    def run_fast(policy) -> None:
        rng = random.Random(a.seed)
        for st in states:
            for _ in range(a.rounds):
                playout(st.copy(), policy, rng)

    def run_build() -> None:
        for m in ps:
            from_match(m)

    er = n / best_of(a.repeat, run_engine_random)
    fr = n / best_of(a.repeat, lambda: run_fast(random_policy))
    eh = n / best_of(a.repeat, run_engine_rule)
    fh = n / best_of(a.repeat, lambda: run_fast(greedy_policy))
    fb = len(ps) / best_of(a.repeat, run_build)
    return (f"{vid:18} {er:13.0f} {fr:12.0f} {fr / er:5.1f}x {eh:12.0f} {fh:10.0f} {fh / eh:5.1f}x "
            f"{fb:11.0f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=20, help="play-outs per position and way")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", nargs="*", default=VARIANTS)
    a = ap.parse_args()
    print("command: .venv/bin/python bench/playout.py " + " ".join(sys.argv[1:]))
    print(f"{'variant':18} {'engine random':>13} {'fast random':>12} {'ratio':>6} "
          f"{'engine rule':>12} {'fast rule':>10} {'ratio':>6} {'fast build':>11}   (play-outs/s)")
    bot = HeuristicBot(0)
    for vid in a.variant:
        print(measure(vid, a, bot), flush=True)

if __name__ == "__main__":
    main()
