"""What a play-out is worth to a seat: the deal's points, or the match's.

The search bots play a sample to the end of the deal and ask one of two
questions of it:

* :func:`deal_points` — the seat's own result of that deal (Тысяча and Кинг:
  its score in the deal's row; Король / Król: the R-4 points of the title the
  deal brought it, or those its tally lets it expect while the round is open).
  This was the only value before issue 36; ``value="deal"`` keeps it.
* :func:`match_value` — its chance of winning the match, estimated from the
  public match position after the deal: every seat's total (Тысяча: barrel
  and bolt fines are in the totals already; Король / Król: the R-4 standings
  plus the titles of the round being played, an untitled seat's the points it
  can expect from its tally, :func:`race_points`), how far the match still runs
  (Тысяча: the points the leader still needs to the goal; Кинг: the deals
  left; Король: the rounds left) and how much one deal moves a total.  The
  chance is a softmax of the totals with a temperature that grows with the
  square root of what is left to play: early on a point gained against the
  others counts as one point, near the end the lead is what counts.  A
  finished match is worth 1 to its winner (shared by a tie) and 0 to the
  rest.  Both read only the sample, a full copy the bot made for itself
  (``determinize``), never the real match.

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
    Prince, Soldier needs), when every later trick goes to one of them at even odds and
    titles are handed out as the engine does (R-14, R-15, R-27, R-35, R-45: each at its
    target, the one who got there first first, the last seat the lowest title).  Early in
    a round a trick more is worth little, near its end nearly a whole title: the search's
    value of a play-out that ends with the round open."""
    n = len(tallies)
    if len(targets) != len(TITLES) - 1:
        raise ValueError(f"a target for each title but the last: {targets!r}")
    if n == 1:
        return (float(TITLE_POINTS[TITLES[-1]]),)
    acc = [0.0] * n
    for winner in range(n):
        t = list(tallies)
        t[winner] += 1
        got: dict[int, float] = {}
        left = list(range(n))
        k = taken
        while len(left) > 1 and k < len(targets):
            ready = [i for i in left if t[i] >= targets[k]]
            if not ready:
                break
            first = max(ready, key=lambda i: t[i] - (i == winner))  # there before this trick
            got[first] = float(TITLE_POINTS[TITLES[k]])
            left.remove(first)
            k += 1
        if len(left) == 1:
            got[left.pop()] = float(TITLE_POINTS[TITLES[-1]])
        if left:
            left.sort(key=lambda i: -t[i])
            for i, x in zip(left, race_points(tuple(t[i] for i in left), k, targets), strict=True):
                got[i] = x
        for i in range(n):
            acc[i] += got[i] / n
    return tuple(acc)


def match_value(m, seat: int, family: str, rows0: int, roles0: int) -> float:
    """The seat's chance of winning the match, estimated (see the module doc)."""
    if m.is_over():
        winners = (m.result() or {}).get("winners") or []
        return 1.0 / len(winners) if seat in winners else 0.0
    v = m.view(seat)
    totals, left = position(v, family, m.seats, len(m.role_table()) > roles0)
    return win_chance(totals, seat, DEAL_SPREAD[family] * math.sqrt(left + 1.0))


def position(v: dict, family: str, seats: int, round_closed: bool = True) -> tuple[list[float], float]:
    """The public match position of a view: each seat's total for the match's
    ranking, and about how many deals (Король: rounds) are left to play."""
    if family == "korol":
        totals = [float(x) for x in v.get("standings") or [0] * seats]
        rounds_left = max(0, (v.get("rounds") or 1) - (v.get("round") or 0) - 1)
        if not round_closed:  # the titles of the round being played, as they stand
            titles = _round_titles(v, seats)
            totals = [t + x for t, x in zip(totals, titles, strict=True)]
            return totals, float(rounds_left)
        return totals, float(rounds_left + 1)
    totals = [float(x) for x in v.get("totals") or [0] * seats]
    if family == "king":
        rows = len(v.get("scoresheet") or ())
        return totals, float(max(0, (v.get("deals_total") or rows) - rows))
    goal = v.get("goal") or (v.get("options") or {}).get("goal") or 1000
    return totals, max(0.0, goal - max(totals)) / LEADER_PACE


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
    the public position ``before`` it and :func:`position` (see the module doc)."""
    n = state.seats
    totals, left = position(_after(state, family, before), family, n, round_closed=False)
    if family == "korol" and state.round_ended and left == 0:  # R-4's standings and tie-breaks
        kings = [sum(r["titles"][s] == "king" for r in before.get("role_table") or ())
                 + (state.new_titles[s] == "king") for s in range(n)]
        keys = [standing_key(totals[s], kings[s], state.new_titles[s]) for s in range(n)]
        return _share([k == max(keys) for k in keys], seat)
    if family != "korol" and left == 0:  # Кинг's last deal played, or a Тысяча total at the goal
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
