"""Tournament pairings (issue 37 item 4): pure functions of the entrants' order and
what has been played, so a round is the same however often it is worked out
(README "Clubs", Tournaments).

A round is ``(tables, byes)``: ``tables`` a list of tables, each the players in seat
order; ``byes`` the players who sit the round out (the entrant count is not a
multiple of the table size).  Players are opaque hashable ids; ``order`` is the
entrants' order (the tournament shuffles it once, by its seed, at the start).

- Round robin, tables of 2: the circle method (the first entrant fixed, the others
  turning one place a round; an odd count gets a bye in place of a player, so each
  entrant has it once a cycle).  A cycle is n - 1 rounds (n odd: n); rounds past it
  repeat the cycle.
- Round robin, tables of 3 or 4 (``spread_round``): each round the byes go to those
  with the fewest byes so far (the later in the order first, so the order turns),
  then the players are split into tables greedily, each table grown by the player who
  has met its members least often (then the earlier in the order), and the split is
  improved by swapping players between tables while that lowers its cost (over each
  pair at a table, 4^(times met) - 1: a third meeting costs more than two second
  ones); this is tried with each of the first STARTS players seated first, and the
  cheapest split kept.  A cycle is as many rounds as it takes
  until every pair has met at least once.
- Swiss, tables of 2 to 4 (``swiss_round``): the byes go to the lowest-ranked among
  those with the fewest byes; the others, in rank order, are seated top down, each
  table the highest-ranked unseated player with the highest-ranked others nobody at
  the table has met, searched with backtracking so that the round has no rematch if
  one exists (within a bounded search); else the fewest rematches greedily."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from itertools import combinations

Player = Hashable
Round = tuple[list[list[Player]], list[Player]]
Met = dict[frozenset, int]

REPEAT = 50  # a pair met before at a table: first the fewest such pairs (the most new ones)
SEARCH_LIMIT = 20_000  # nodes of the Swiss backtracking search before the greedy fallback
STARTS = 8  # splits tried per round-robin round (each begun with another player seated first)


def pair_key(a: Player, b: Player) -> frozenset:
    return frozenset((a, b))


def meetings(rounds: Sequence[Round]) -> Met:
    """How often each pair has sat at one table in ``rounds``."""
    met: Met = {}
    for tables, _ in rounds:
        for table in tables:
            for a, b in combinations(table, 2):
                met[pair_key(a, b)] = met.get(pair_key(a, b), 0) + 1
    return met


def bye_counts(rounds: Sequence[Round]) -> dict[Player, int]:
    out: dict[Player, int] = {}
    for _, byes in rounds:
        for p in byes:
            out[p] = out.get(p, 0) + 1
    return out


# -- round robin ------------------------------------------------------------------------------


def circle_round(order: Sequence[Player], number: int) -> Round:
    """Round ``number`` (0-based) of the circle method for tables of 2; past a cycle the
    cycle repeats.  Who sits first: the fixed entrant every other round, the others by
    the table's place, so each entrant sits first about half the time."""
    players: list[Player | None] = list(order)
    if len(players) % 2:
        players.append(None)  # None's partner has the bye
    n = len(players)
    r = number % (n - 1)
    rest = players[1:]
    rest = rest[-r:] + rest[:-r] if r else rest
    line = [players[0], *rest]
    tables, byes = [], []
    for i in range(n // 2):
        a, b = line[i], line[n - 1 - i]
        if a is None or b is None:
            byes.append(b if a is None else a)
            continue
        first = r % 2 == 0 if i == 0 else i % 2 == 0  # the fixed entrant by round, the others by table
        tables.append([a, b] if first else [b, a])
    return tables, byes


def circle_rounds(n: int) -> int:
    """Rounds of one circle-method cycle for ``n`` entrants."""
    return n - 1 if n % 2 == 0 else n


def _cost(table: Sequence[Player], met: Met) -> int:
    counts = [met.get(pair_key(a, b), 0) for a, b in combinations(table, 2)]
    return sum(REPEAT * (m > 0) + 4 ** m - 1 for m in counts)


def choose_byes(order: Sequence[Player], count: int, byes: dict[Player, int],
                rank: Sequence[Player] | None = None) -> list[Player]:
    """``count`` players to sit out: the fewest byes so far first, then the last of
    ``rank`` (default: the entrants' order) first."""
    line = list(rank if rank is not None else order)
    pos = {p: i for i, p in enumerate(line)}
    return sorted(line, key=lambda p: (byes.get(p, 0), -pos[p]))[:count]


def spread_round(order: Sequence[Player], size: int, before: Sequence[Round]) -> Round:
    """The next round-robin round for tables of ``size`` after ``before`` (see the
    module's text): byes, a greedy split, then improving swaps."""
    met = meetings(before)
    out = choose_byes(order, len(order) % size, bye_counts(before))
    playing = [p for p in order if p not in out]
    best: list[list[Player]] | None = None
    for start in range(min(len(playing), STARTS)):  # several first-seated players: the cheapest split
        tables = _improve(_greedy(playing[start:] + playing[:start], size, met), size, met)
        if best is None or sum(_cost(t, met) for t in tables) < sum(_cost(t, met) for t in best):
            best = tables
    return best or [], out


def _greedy(line: list[Player], size: int, met: Met) -> list[list[Player]]:
    pos = {p: i for i, p in enumerate(line)}
    left = list(line)
    tables: list[list[Player]] = []
    while left:
        table = [left.pop(0)]
        while len(table) < size:
            best = min(left, key=lambda p: (sum(met.get(pair_key(p, q), 0) for q in table), pos[p]))
            left.remove(best)
            table.append(best)
        tables.append(table)
    return tables


def _improve(tables: list[list[Player]], size: int, met: Met) -> list[list[Player]]:
    improved = True
    while improved:  # each swap lowers the total: it ends
        improved = False
        for i, j in combinations(range(len(tables)), 2):
            for x in range(size):
                for y in range(size):
                    a, b = tables[i][x], tables[j][y]
                    ta = [*tables[i][:x], b, *tables[i][x + 1:]]
                    tb = [*tables[j][:y], a, *tables[j][y + 1:]]
                    if _cost(ta, met) + _cost(tb, met) < _cost(tables[i], met) + _cost(tables[j], met):
                        tables[i], tables[j] = ta, tb
                        improved = True
    return tables


def spread_cycle(order: Sequence[Player], size: int, limit: int = 200) -> int:
    """Rounds of one round-robin cycle for tables of 3-4: until every pair has met."""
    pairs = {pair_key(a, b) for a, b in combinations(order, 2)}
    rounds: list[Round] = []
    while len(rounds) < limit:
        rounds.append(spread_round(order, size, rounds))
        if pairs <= set(meetings(rounds)):
            break
    return len(rounds)


def round_robin_cycle(order: Sequence[Player], size: int) -> int:
    return circle_rounds(len(order)) if size == 2 else spread_cycle(order, size)


def round_robin(order: Sequence[Player], size: int, rounds: int) -> list[Round]:
    """The first ``rounds`` rounds of the round robin of ``order`` at tables of ``size``."""
    if size == 2:
        return [circle_round(order, r) for r in range(rounds)]
    out: list[Round] = []
    for _ in range(rounds):
        out.append(spread_round(order, size, out))
    return out


# -- Swiss ----------------------------------------------------------------------------------


def swiss_round(ranked: Sequence[Player], size: int, before: Sequence[Round]) -> Round:
    """The next Swiss round: ``ranked`` is the entrants best first (by the standings
    after ``before``; equal ones in the entrants' order)."""
    met = meetings(before)
    out = choose_byes(ranked, len(ranked) % size, bye_counts(before), rank=ranked)
    line = [p for p in ranked if p not in out]
    nodes = 0

    def fresh(p: Player, table: list[Player]) -> bool:
        return all(met.get(pair_key(p, q), 0) == 0 for q in table)

    def search(left: list[Player]) -> list[list[Player]] | None:
        nonlocal nodes
        if not left:
            return []
        nodes += 1
        if nodes > SEARCH_LIMIT:
            return None
        head, rest = left[0], left[1:]
        for others in combinations(rest, size - 1):  # the highest-ranked first
            if not all(fresh(p, [head, *others[:i]]) for i, p in enumerate(others)):
                continue
            tail = search([p for p in rest if p not in others])
            if tail is not None:
                return [[head, *others], *tail]
            if nodes > SEARCH_LIMIT:
                return None
        return None

    tables = search(line)
    if tables is None:  # every split has a rematch: the fewest, top down
        tables, left = [], list(line)
        while left:
            table = [left.pop(0)]
            while len(table) < size:
                best = min(range(len(left)), key=lambda i: (sum(met.get(pair_key(left[i], q), 0)
                                                                for q in table), i))
                table.append(left.pop(best))
            tables.append(table)
    return tables, out
