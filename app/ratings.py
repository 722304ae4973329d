"""Ratings among friends (and a club season's table and ratings): the final standings
of a finished match, and, in a rated room, everybody's rating in the match's family
moved by openskill's Plackett–Luce model (2–4 players, ties share a place).  Bots
are rated like anybody: each bot row (level, slot) is a player of its own.

A rating is shown as its ``ordinal`` (mu - 3 sigma: grows as the system gets
surer), on openskill's scale (a new player: mu 25, sigma 8.33, ordinal 0).

A match the host stopped before its end (status ``abandoned``, app/rooms/abandon.py)
counts only in a room whose option ``abandoned`` is ``counts`` (the one condition:
``db.ratings.counted``); its result holds the running totals as they stood and no
winners, so the seats are placed by those totals."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from anyio import to_thread
from openskill.models import PlackettLuce
from sqlalchemy.orm import Session

from engine import find_variant

from .db import clubs, store
from .db import models as m
from .db import ratings as sql
from .db.session import Database

log = logging.getLogger("kozyr.ratings")
MODEL = PlackettLuce()


def places(result: dict, seat_count: int) -> list[int]:
    """Each seat's place (1 = first): the engine's ``result()["places"]`` (the family's
    tie rules applied).  A result without them (a match the host stopped, a match
    finished before the engine gave places): the winners first, then the others by
    total, higher first; equal totals share a place (1, 2, 2, 4)."""
    given = result.get("places")
    if isinstance(given, list) and len(given) == seat_count:
        return [int(p) for p in given]
    totals = [float(t) for t in result.get("totals") or [0] * seat_count]
    winners = set(result.get("winners") or [])
    key = [(0 if seat in winners else 1, -totals[seat]) for seat in range(seat_count)]
    return [1 + sum(1 for other in key if other < mine) for mine in key]


def with_places(result: dict | None, seat_count: int) -> dict | None:
    """``result`` with ``places`` (see :func:`places`) when it has totals to place."""
    if not result or "places" in result or len(result.get("totals") or []) != seat_count:
        return result
    return {**result, "places": places(result, seat_count)}


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def rate(before: list[tuple[float, float]], placed: list[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) per seat from the seats' (mu, sigma) before and their places."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    rated = MODEL.rate(teams, ranks=[float(p) for p in placed])
    return [(team[0].mu, team[0].sigma) for team in rated]


def moved(old: dict[int, tuple[float, float]], players: list[int],
          placed: list[int]) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """The one rating update (a player's rating, a club season's): each seat's (mu,
    sigma) before (``old``, else a newcomer's) and after the match."""
    default = MODEL.rating()
    before = [old.get(p, (default.mu, default.sigma)) for p in players]
    return before, rate(before, placed)


def count_in_season(s: Session, season: m.Season, family: str, players: list[int], placed: list[int],
                    totals: list[float]) -> None:
    """A counted match of the season's club that just ended, added to the season
    (callers hold lock_ratings): see ``tally``."""
    rows = clubs.season_rows(s, season.id, players)
    ratings = clubs.season_ratings(s, season.id, family, players)
    tally(rows, ratings, season, family, players, placed, totals)
    s.add_all([*rows.values(), *ratings.values()])


def tally(rows: dict, ratings: dict, season: m.Season, family: str, players: list[int], placed: list[int],
          totals: list[float]) -> None:
    """One match in a season: its table rows (points per place, wins, places) and the
    club's own ratings in the family (``moved``), in ``rows`` / ``ratings``.  A match
    with one player in two seats is left out."""
    if len(set(players)) != len(players):
        return
    clubs.add_to_rows(rows, season, players, placed, totals)
    before = {p: (ratings[(family, p)].mu, ratings[(family, p)].sigma) for p in players if (family, p) in ratings}
    _, after = moved(before, players, placed)
    for pid, new in zip(players, after, strict=True):
        clubs.set_rating(ratings, season.id, family, pid, new)


def fill_season(s: Session, season: m.Season) -> int:
    """A new season over matches already played (its start in the past): each of them
    counted, in the order they ended, as if the season had been open then (callers
    hold lock_ratings); the rows are written once at the end.  How many."""
    done = clubs.past_matches(s, season)
    rows: dict = {}
    ratings: dict = {}
    for _match, family, seats in done:
        tally(rows, ratings, season, family, [x[0] for x in seats], [x[1] for x in seats],
              [x[2] for x in seats])
    s.add_all([*rows.values(), *ratings.values()])
    return len(done)


class Ratings:
    #: told after a match's standings are written (the composition root sets it: a club
    #: tournament's next round, app/tournaments.py Tournaments.match_ended)
    ended: Callable[[str], Awaitable[None]] | None = None

    def __init__(self, db: Database) -> None:
        self.db = db

    async def match_over(self, match_id: str) -> None:
        """The match ended here: its standings (and ratings) in their own transaction,
        then ``ended``.  A failure is logged; the match and its actions are already
        committed."""
        try:
            await to_thread.run_sync(self.record, match_id)
        except Exception:
            log.exception("match %s: standings / ratings not recorded", match_id)
        if self.ended is not None:
            await self.ended(match_id)

    def record(self, match_id: str) -> bool:
        """(A worker thread.)  Standings of a finished match, once; ratings if its room is
        rated.  False when there was nothing to do (not finished, or done already)."""
        with self.db.write() as s:
            sql.lock_ratings(s)
            found = sql.finished_match(s, match_id)
            if found is None:
                return False
            row, rated = found
            family = find_variant(row.variant).family
            seats = store.match_players(s, row.id)
            players = [pid for _, pid, _ in seats]
            result = row.result or {}
            placed = places(result, row.seat_count)
            totals = [float(t) for t in result.get("totals") or [0] * row.seat_count]
            sql.save_standings(s, row, family, placed, totals, players)
            sql.count_pairs(s, placed, players)
            sql.add_family_totals(s, family, sql.match_totals(s, row.id, family, placed, players))
            if rated and len(set(players)) == len(players) >= 2:
                old = sql.current_ratings(s, family, players)
                before, after = moved({p: (r.mu, r.sigma) for p, r in old.items()}, players, placed)
                for seat, pid in enumerate(players):
                    sql.save_rating(s, match_id=row.id, player_id=pid, family=family, seat=seat,
                                    place=placed[seat], before=before[seat], after=after[seat],
                                    old=old.get(pid))
            if row.club_id is not None and not row.coached:  # coached matches count in no season
                for season in clubs.counting_seasons(s, row.club_id, family, row.finished_at or m.utcnow()):
                    count_in_season(s, season, family, players, placed, totals)
            return True

    def catch_up(self) -> int:
        """(Start-up.)  Finished matches whose standings were not written (the process
        stopped in between): written now."""
        with self.db.read() as s:
            ids = sql.unrecorded_matches(s)
        return sum(1 for match_id in ids if self.record(match_id))
