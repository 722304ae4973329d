"""What a play-out is worth to a seat: the deal's points, or the match's.

The search bots play a sample to the end of the deal and ask one of two
questions of it:

* :func:`deal_points` — the seat's own result of that deal (Тысяча and Кинг:
  its score in the deal's row; Король / Król: the R-4 points of the title the
  deal brought it, or those its tally lets it expect while the round is open).
  This was the only value before issue 36; ``value="deal"`` keeps it.
* :func:`match_value` — its chance of winning the match, estimated from the
  public match position after the deal.  Тысяча and Кинг: every seat's total
  (Тысяча: barrel and bolt fines are in the totals already), how far the match
  still runs (Тысяча: the points the leader still needs to the goal; Кинг: the
  deals left) and how much one deal moves a total; the chance is a softmax of
  the totals with a temperature that grows with the square root of what is
  left to play: early on a point gained against the others counts as one
  point, near the end the lead is what counts.  Король / Król
  (:func:`korol_chance`): a title is worth more than its R-4 points, because
  the titles in force shape the next round (a King leads every trick and
  takes the Peasant's best trump: a crowned King stays King in two reigns of
  three and wins two matches of three, among basic bots); so the round being played falls as
  :func:`race_outcomes` says, and from each way it may fall the rounds left are
  followed exactly through the titles' measured moves (:data:`TITLE_MOVES`) to
  R-4's standings.  A finished match is worth 1 to its winner (shared by a tie)
  and 0 to the rest.  Both read only the sample, a full copy the bot made for
  itself (``determinize``), never the real match.

A play-out of the trick play on the compact state (:mod:`.fast`, the search's
``playouts="fast"``) ends without the engine: :func:`fast_deal_points` and
:func:`fast_match_value` ask the same two questions of the compact state and of
the public position when the play began (``before``: the seat's view of the
sample).  The match value there is an estimate on top of an estimate: the
deal's scores are added to the totals as they are (Тысяча's rules applied after
a deal's row -- the barrel, bolts, the dump, M-23 -- are not), a match is over
when Кинг's last deal or Король's last round is played or a Тысяча total reaches
the goal, and a tie for the win is shared (Король / Król: after R-4's tie-breaks).
"""

from __future__ import annotations

import functools
import math

from ..variants.korol_play import POINTS as TITLE_POINTS  # rule R-4
from ..variants.korol_play import TITLES, standing_key

#: How much one deal moves a seat's total (a rough standard deviation) and how
#: many points a leader gains in a deal, per family: the scale of the softmax.
DEAL_SPREAD = {"thousand": 70.0, "king": 8.0, "korol": 1.3}
LEADER_PACE = 55.0  # Тысяча: points the leader gains in an average deal


def deal_points(m, seat: int, family: str, rows0: int, roles0: int) -> float:
    """The seat's result of the deal that was being played (see the module doc)."""
    if family != "korol":
        rows = m.scoresheet()
        if len(rows) > rows0:
            return float(rows[rows0]["scores"][seat])
        return 0.0
    roles = m.role_table()
    if len(roles) > roles0:
        return float(TITLE_POINTS.get(roles[roles0]["titles"][seat], 0))
    return _round_titles(m.view(seat), m.seats)[seat]


def _round_titles(v: dict, seats: int) -> list[float]:
    """Король / Król with the round still open: the R-4 points each seat's title is
    worth, a title taken counted in full, the untitled seats' expected points from
    :func:`race_points` on their tallies and the round's targets (``targets``)."""
    new = v.get("new_titles") or [None] * seats
    tallies = v.get("tallies") or [0] * seats
    out = [float(TITLE_POINTS[t]) if t else 0.0 for t in new]
    open_seats = sorted((s for s in range(seats) if not new[s]), key=lambda s: -tallies[s])
    if open_seats:
        taken = sum(1 for t in new if t)
        expected = race_points(tuple(tallies[s] for s in open_seats), taken, tuple(v.get("targets") or ()))
        for s, x in zip(open_seats, expected, strict=True):
            out[s] = x
    return out


@functools.lru_cache(maxsize=1 << 16)
def race_points(tallies: tuple[int, ...], taken: int, targets: tuple[int, ...]) -> tuple[float, ...]:
    """The R-4 points the untitled seats of a round can expect (``tallies``: theirs,
    high first; ``taken``: the titles already gone; ``targets``: the tricks each of King,
    Prince, Soldier needs) from :func:`race_outcomes`.  Early in a round a trick more is
    worth little, near its end nearly a whole title: the deal value of a play-out that
    ends with the round open."""
    acc = [0.0] * len(tallies)
    for titles, p in race_outcomes(tallies, taken, targets):
        for i, t in enumerate(titles):
            acc[i] += p * TITLE_POINTS[TITLES[t]]
    return tuple(acc)


@functools.lru_cache(maxsize=1 << 16)
def race_outcomes(tallies: tuple[int, ...], taken: int,
                  targets: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], float], ...]:
    """How the titles of a round still open may fall: each way (the title index of
    every untitled seat, in the order of ``tallies``) with its chance, when every later
    trick goes to one of the untitled seats at even odds and titles are handed out as
    the engine does (R-14, R-15, R-27, R-35, R-45: each at its target, the one who got
    there first first, the last seat the lowest title).  Exact, by a memoised recursion
    over the tallies."""
    n = len(tallies)
    if len(targets) != len(TITLES) - 1:
        raise ValueError(f"a target for each title but the last: {targets!r}")
    if n <= 1:
        return (((len(TITLES) - 1,) * n, 1.0),)
    acc: dict[tuple[int, ...], float] = {}
    for winner in range(n):
        t = list(tallies)
        t[winner] += 1
        got: dict[int, int] = {}
        left = list(range(n))
        k = taken
        while len(left) > 1 and k < len(targets):
            ready = [i for i in left if t[i] >= targets[k]]
            if not ready:
                break
            first = max(ready, key=lambda i: t[i] - (i == winner))  # there before this trick
            got[first] = k
            left.remove(first)
            k += 1
        if len(left) == 1:
            got[left.pop()] = len(TITLES) - 1
        rest: tuple[tuple[tuple[int, ...], float], ...] = (((), 1.0),)
        if left:
            left.sort(key=lambda i: -t[i])
            rest = race_outcomes(tuple(t[i] for i in left), k, targets)
        for titles, p in rest:
            way = dict(got)
            way.update(zip(left, titles, strict=True))
            key = tuple(way[i] for i in range(n))
            acc[key] = acc.get(key, 0.0) + p / n
    return tuple(acc.items())


def match_value(m, seat: int, family: str, rows0: int, roles0: int) -> float:
    """The seat's chance of winning the match, estimated (see the module doc)."""
    if family == "korol":  # a finished match too: R-4's standings, and the last title's weight
        return korol_chance(m.view(seat), seat, round_closed=len(m.role_table()) > roles0)
    if m.is_over():
        winners = (m.result() or {}).get("winners") or []
        return 1.0 / len(winners) if seat in winners else 0.0
    totals, left = position(m.view(seat), family, m.seats)
    return win_chance(totals, seat, DEAL_SPREAD[family] * math.sqrt(left + 1.0))


def position(v: dict, family: str, seats: int) -> tuple[list[float], float]:
    """The public match position of a Тысяча or Кинг view: each seat's total for the
    match's ranking, and about how many deals are left to play."""
    totals = [float(x) for x in v.get("totals") or [0] * seats]
    if family == "king":
        rows = len(v.get("scoresheet") or ())
        return totals, float(max(0, (v.get("deals_total") or rows) - rows))
    goal = v.get("goal") or (v.get("options") or {}).get("goal") or 1000
    return totals, max(0.0, goal - max(totals)) / LEADER_PACE


#: Король / Król: a point of the round's title next to the chance to win the match, so
#: that a seat whose chance is gone still plays for the best title it can get.
TITLE_WEIGHT = 0.01


def korol_chance(v: dict, seat: int, round_closed: bool = False) -> float:
    """Король / Król: the seat's chance of winning the match from a view's public
    position, plus ``TITLE_WEIGHT`` for each R-4 point of its title in the round
    being played.  With ``round_closed`` the round just played is in the standings
    and its titles are in force; else the round being played falls as
    :func:`race_outcomes` says (the titles taken count as they are), and each way
    it may fall is judged by :func:`title_chances`."""
    rows = v.get("role_table") or []
    seats = len(v["standings"])
    kings = tuple(sum(r["titles"][s] == TITLES[0] for r in rows) for s in range(seats))
    left = (v.get("rounds") or 1) - len(rows)
    variant = v["variant"]
    if round_closed:
        last = tuple(TITLES.index(t) for t in rows[-1]["titles"])
        return (title_chances(variant, tuple(v["standings"]), kings, last, left)[seat]
                + TITLE_WEIGHT * TITLE_POINTS[TITLES[last[seat]]])
    new = v.get("new_titles") or [None] * seats
    tallies = v.get("tallies") or [0] * seats
    fixed = {s: TITLES.index(t) for s, t in enumerate(new) if t}
    open_seats = sorted((s for s in range(seats) if s not in fixed), key=lambda s: -tallies[s])
    ways = race_outcomes(tuple(tallies[s] for s in open_seats), len(fixed), tuple(v.get("targets") or ()))
    total = 0.0
    for titles, p in ways:
        way = dict(fixed)
        way.update(zip(open_seats, titles, strict=True))
        last = tuple(way[s] for s in range(seats))
        standings = tuple(v["standings"][s] + TITLE_POINTS[TITLES[last[s]]] for s in range(seats))
        kings_then = tuple(k + (t == 0) for k, t in zip(kings, last, strict=True))
        total += p * (title_chances(variant, standings, kings_then, last, left - 1)[seat]
                      + TITLE_WEIGHT * TITLE_POINTS[TITLES[last[seat]]])
    return total


#: Король / Król: how the titles move from one round to the next: ``move[i]`` is the
#: title (an index of TITLES) the seat holding title ``i`` takes in the next round;
#: counted over 2,000 whole matches of basic bots a variant (6,000 moves), printed by
#: ``bench/korol_odds.py --moves``.  A crowned King stays King in two reigns of three.
TITLE_MOVES: dict[str, dict[tuple[int, ...], int]] = {
    "korol-ru": {
        (0, 1, 3, 2): 1211, (0, 1, 2, 3): 1131, (1, 0, 2, 3): 680, (0, 3, 1, 2): 526,
        (0, 2, 1, 3): 464, (1, 0, 3, 2): 429, (0, 2, 3, 1): 400, (0, 3, 2, 1): 337,
        (1, 2, 0, 3): 286, (2, 0, 1, 3): 227, (2, 1, 0, 3): 163, (1, 3, 0, 2): 91,
        (2, 0, 3, 1): 16, (3, 0, 1, 2): 12, (3, 1, 0, 2): 8, (3, 2, 0, 1): 3,
        (3, 2, 1, 0): 3, (3, 0, 2, 1): 3, (1, 2, 3, 0): 3, (2, 1, 3, 0): 2,
        (3, 1, 2, 0): 2, (1, 3, 2, 0): 2, (2, 3, 0, 1): 1,
    },
    "krol-pl": {
        (1, 0, 3, 2): 1960, (1, 0, 2, 3): 1481, (0, 1, 2, 3): 1420, (0, 1, 3, 2): 960,
        (0, 2, 1, 3): 179,
    },
}
#: Rounds ahead :func:`title_chances` follows TITLE_MOVES; past them the standings'
#: softmax judges the rounds still left (a match of more reigns than the default three).
HORIZON = 3


def title_chances(variant: str, standings: tuple[int, ...], kings: tuple[int, ...],
                  last: tuple[int, ...], left: int, depth: int = HORIZON) -> tuple[float, ...]:
    """Король / Król: each seat's chance of winning the match from the standings, the
    King titles and the titles in force (``last``, indices of TITLES) with ``left``
    rounds still to play, the titles moving as :data:`TITLE_MOVES` counted them; a
    finished match goes by R-4 (points, then King titles, then the last title), a tie
    for the win shared."""
    seats = range(len(standings))
    order = sorted(seats, key=lambda s: (standings[s], kings[s], last[s]))  # one state for
    key = tuple((standings[s], kings[s], last[s]) for s in order)  # every seating of it
    got = _title_chances(variant, key, left, depth)
    out = [0.0] * len(standings)
    for s, x in zip(order, got, strict=True):
        out[s] = x
    return tuple(out)


@functools.lru_cache(maxsize=1 << 16)
def _title_chances(variant: str, key: tuple[tuple[int, int, int], ...], left: int,
                   depth: int) -> tuple[float, ...]:
    if left <= 0:
        keys = [standing_key(p, k, TITLES[t]) for p, k, t in key]
        return tuple(_share([x == max(keys) for x in keys], s) for s in range(len(key)))
    if depth == 0:
        spread = DEAL_SPREAD["korol"] * math.sqrt(left + 1.0)
        return tuple(win_chance([float(p) for p, _, _ in key], s, spread) for s in range(len(key)))
    moves = TITLE_MOVES[variant]
    count = sum(moves.values())
    acc = [0.0] * len(key)
    for move, n in moves.items():
        nxt = [move[t] for _, _, t in key]
        got = title_chances(variant, tuple(p + TITLE_POINTS[TITLES[t]] for (p, _, _), t in zip(key, nxt, strict=True)),
                            tuple(k + (t == 0) for (_, k, _), t in zip(key, nxt, strict=True)),
                            tuple(nxt), left - 1, depth - 1)
        for i, x in enumerate(got):
            acc[i] += x * n / count
    return tuple(acc)


def _after(state, family: str, before: dict) -> dict:
    """The public position ``before`` a compact play-out with the play-out's deal added:
    Король / Król its tallies and titles, the other families its row's scores."""
    if family == "korol":
        return {**before, "new_titles": state.new_titles, "tallies": state.tally}
    totals = [x + d for x, d in zip(before.get("totals") or [0] * state.seats, state.scores(), strict=True)]
    return {**before, "totals": totals, "scoresheet": [*(before.get("scoresheet") or ()), None]}


def fast_deal_points(state, seat: int, family: str, before: dict) -> float:
    """:func:`deal_points` of a compact play-out that has reached its deal's end."""
    if family == "korol":
        return _round_titles(_after(state, family, before), state.seats)[seat]
    return float(state.scores()[seat])


def fast_match_value(state, seat: int, family: str, before: dict) -> float:
    """:func:`match_value` of a compact play-out that has reached its deal's end, from
    the public position ``before`` it (see the module doc)."""
    v = _after(state, family, before)
    if family == "korol":
        return korol_chance(v, seat)
    totals, left = position(v, family, state.seats)
    if left == 0:  # Кинг's last deal played, or a Тысяча total at the goal
        return _share([t == max(totals) for t in totals], seat)
    return win_chance(totals, seat, DEAL_SPREAD[family] * math.sqrt(left + 1.0))


def _share(won: list[bool], seat: int) -> float:
    """A finished match's worth to a seat: 1 shared by the winners."""
    return 1.0 / sum(won) if won[seat] else 0.0


def win_chance(totals: list[float], seat: int, temperature: float) -> float:
    """A softmax of the totals: higher is better (Кинг's penalties are negative)."""
    t = max(temperature, 1e-6)
    top = max(totals)
    weights = [math.exp((x - top) / t) for x in totals]
    return weights[seat] / sum(weights)
