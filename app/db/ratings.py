"""Standings, ratings and the player page's aggregates (SQL).

``standings``: one typed row per seat of every finished match (its place and
total), written when the match ends; the player page's counts and head-to-head
are aggregates over it.  ``ratings``: a player's current rating per family;
``rating_events``: each rated match's before / after, the rating's history."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    and_,
    case,
    func,
    or_,
    select,
    text,
    tuple_,
)
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Mapped, Session, aliased, mapped_column
from sqlalchemy.sql.elements import ColumnElement

from . import models as m
from .errors import Invalid
from .store import of_preset, utc

Reader = Session | Connection


class Standing(m.Base):
    __tablename__ = "standings"
    # ix_standings_player_recent: the match list's keyset pages, newest first, read from the
    # index alone on PostgreSQL (INCLUDE; SQLite ignores it).  Migration 0014.
    __table_args__ = (Index("ix_standings_player_recent", "player_id", "finished_at", "match_id",
                            postgresql_include=["variant", "family", "seat", "place", "total"]),
                      Index("ix_standings_player_family", "player_id", "family", "place"))
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    family: Mapped[str] = mapped_column(String(32))
    variant: Mapped[str] = mapped_column(String(64))
    place: Mapped[int] = mapped_column(Integer)  # 1 = won; ties share a place
    total: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PairRecord(m.Base):
    """Head-to-head of two players over their finished matches (both directions stored)."""

    __tablename__ = "pair_records"
    # the head-to-head list in its order (most matches together first) from the index alone
    __table_args__ = (Index("ix_pair_records_top", "player_id", text("matches DESC"), "other_id",
                            postgresql_include=["ahead", "behind"]),)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    other_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    matches: Mapped[int] = mapped_column(Integer)
    ahead: Mapped[int] = mapped_column(Integer)  # matches player_id placed above other_id
    behind: Mapped[int] = mapped_column(Integer)


class FamilyTotal(m.Base):
    """A player's running counters per family, added to as each match ends (one SQL
    aggregate over that match's typed rows): the player page reads a few rows, however
    many matches he played.  ``key``: played / won (n; total: sum of places), deals,
    declared (total: sum of winning bids), made, marriages, game:<contract> (total: sum
    of scores), title:<title>."""

    __tablename__ = "family_totals"
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    family: Mapped[str] = mapped_column(String(32), primary_key=True)
    key: Mapped[str] = mapped_column(String(48), primary_key=True)
    n: Mapped[int] = mapped_column(Integer)
    total: Mapped[float] = mapped_column(Float)


class Rating(m.Base):
    __tablename__ = "ratings"
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    family: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=m.utcnow)


HISTORY_COLUMNS = ["n", "match_id", "place", "mu_before", "sigma_before", "mu", "sigma", "created_at"]


class RatingEvent(m.Base):
    """``n``: the player's n-th rated match in the family (1, 2, ...; migration 0014): the
    chart picks its points by it.  The two indexes cover their queries on PostgreSQL."""

    __tablename__ = "rating_events"
    __table_args__ = (UniqueConstraint("match_id", "player_id", name="uq_rating_events_match_player"),
                      Index("ix_rating_events_player_family", "player_id", "family", "id",
                            postgresql_include=HISTORY_COLUMNS),
                      Index("ix_rating_events_chart", "player_id", "family", "n",
                            postgresql_include=["mu", "sigma", "created_at"]))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    family: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=m.utcnow)
    n: Mapped[int] = mapped_column(Integer)


# -- writing, when a match ends ---------------------------------------------------------


def counted() -> ColumnElement[bool]:
    """The matches that count for standings and ratings (join ``rooms``): finished ones,
    and those the host stopped in a room whose option ``abandoned`` is ``counts``."""
    return or_(m.Match.status == "finished",
               and_(m.Match.status == "abandoned", m.Room.abandoned == "counts"))


def finished_match(s: Session, match_id: str) -> tuple[m.Match, bool] | None:
    """(the match row, its room's ``rated``) if the match counts (``counted``) and has no
    standings yet."""
    found = s.execute(select(m.Match, m.Room.rated).join(m.Room, m.Room.id == m.Match.room_id)
                      .where(m.Match.id == match_id, counted())).first()
    if found is None:
        return None
    if s.scalar(select(Standing.seat).where(Standing.match_id == match_id).limit(1)) is not None:
        return None
    return found[0], bool(found[1])


def lock_ratings(s: Session) -> None:
    """Rating updates take turns (two matches of one player may end together), and the
    check for a match's standings (``finished_match``) comes after the turn is taken: two
    processes recording one match (one ended it, the other started and caught up) write
    it once.  PostgreSQL: a transaction-scoped advisory lock.  SQLite: a write that
    changes nothing takes the file's writer lock now rather than at the first insert
    (``Database.write``'s lock is one process's only)."""
    if s.get_bind().dialect.name == "postgresql":
        s.execute(text("SELECT pg_advisory_xact_lock(160016)"))
    else:
        s.execute(text("UPDATE standings SET seat = seat WHERE 0"))


def save_standings(s: Session, row: m.Match, family: str, places: list[int], totals: list[float],
                   players: list[int]) -> None:
    when = row.finished_at or m.utcnow()
    for seat, (place, total, pid) in enumerate(zip(places, totals, players, strict=True)):
        s.add(Standing(match_id=row.id, seat=seat, player_id=pid, family=family, variant=row.variant,
                       place=place, total=float(total), finished_at=when))


def count_pairs(s: Session, places: list[int], players: list[int]) -> None:
    """Add a finished match to the head-to-head counts of every two of its players
    (callers hold lock_ratings, so the read-then-write does not race)."""
    ids = sorted(set(players))
    rows = {(r.player_id, r.other_id): r for r in s.scalars(
        select(PairRecord).where(PairRecord.player_id.in_(ids), PairRecord.other_id.in_(ids)))}
    for a, pa in enumerate(players):
        for b, pb in enumerate(players):
            if pa == pb:
                continue
            row = rows.get((pa, pb))
            if row is None:
                row = rows[(pa, pb)] = PairRecord(player_id=pa, other_id=pb, matches=0, ahead=0, behind=0)
                s.add(row)
            row.matches += 1
            row.ahead += int(places[a] < places[b])
            row.behind += int(places[a] > places[b])


def _seat_lines(where):
    """seat_results (h-server's typed rows, migration 0004) joined to the seat's player
    and, for a deal, its score row's contract; grouped per player and kind."""
    sr, mp, sc = m.SeatResult, m.MatchPlayer, m.ScoreRow
    return (select(mp.player_id, sr.kind, sc.contract, sr.title, func.count(),
                   func.coalesce(func.sum(sr.score), 0), func.sum(case((sr.declarer, 1), else_=0)),
                   func.sum(case((sr.made.is_(True), 1), else_=0)),
                   func.coalesce(func.sum(case((sr.declarer, sr.bid), else_=None)), 0),
                   func.sum(sr.marriages))
            .select_from(sr)
            .join(mp, and_(mp.match_id == sr.match_id, mp.seat_no == sr.seat))
            .outerjoin(sc, and_(sc.match_id == sr.match_id, sc.deal == sr.idx, sr.kind == "deal"))
            .where(where).group_by(mp.player_id, sr.kind, sc.contract, sr.title))


def _add_lines(out: dict, family: str, lines) -> None:
    def add(pid: int, key: str, n: float, total: float = 0.0) -> None:
        if n:
            cell = out.setdefault((pid, key), [0, 0.0])
            cell[0] += n
            cell[1] += total
    for pid, kind, contract, title, n, score, declared, made, bids, marriages in lines:
        if kind == "round":
            if title:
                add(pid, f"title:{title}", int(n))
            continue
        if family == "thousand":
            add(pid, "deals", int(n))
            add(pid, "declared", int(declared or 0), float(bids or 0))
            add(pid, "made", int(made or 0))
            add(pid, "marriages", int(marriages or 0))
        elif family == "king" and contract is not None:
            add(pid, f"game:{contract}", int(n), float(score or 0))


def match_totals(s: Session, match_id: str, family: str, places: list[int],
                 players: list[int]) -> dict[tuple[int, str], list[float]]:
    """One finished match's contribution to family_totals, {(player, key): [n, total]}:
    its standings and one SQL aggregate over its seat_results."""
    out: dict[tuple[int, str], list[float]] = {}
    for seat, pid in enumerate(players):
        out[(pid, "played")] = [1, float(places[seat])]
        if places[seat] == 1:
            out[(pid, "won")] = [1, 0.0]
    _add_lines(out, family, s.execute(_seat_lines(m.SeatResult.match_id == match_id)))
    return out


def family_stats_from_rows(s: Session, player_id: int, *, club: int | None = None,
                           preset: str | None = None) -> dict:
    """family_stats aggregated afresh over the player's seat_results: all of them (tests
    compare with the counters) or those of a club / a club preset (``of_preset``: the
    player page's filter, GET /api/players/{id}/stats ``families``)."""
    counts: dict[str, dict] = {}
    for family, in s.execute(select(Standing.family).where(Standing.player_id == player_id).distinct()):
        mine = of_preset(select(Standing.match_id).where(Standing.player_id == player_id, Standing.family == family),
                         Standing.match_id, club, preset)
        _add_lines(counts.setdefault(family, {}), family, s.execute(_seat_lines(
            and_(m.SeatResult.match_id.in_(mine), m.MatchPlayer.player_id == player_id))))
    plain = {f: {key: (int(n), t) for (_, key), (n, t) in c.items()} for f, c in counts.items()}
    return family_stats(s, player_id, plain)


def add_family_totals(s: Session, family: str, counts: dict[tuple[int, str], list[float]]) -> None:
    """Add counters (callers hold lock_ratings: the read-then-write does not race)."""
    if not counts:
        return
    pids = sorted({pid for pid, _ in counts})
    rows = {(r.player_id, r.key): r for r in s.scalars(
        select(FamilyTotal).where(FamilyTotal.family == family, FamilyTotal.player_id.in_(pids)))}
    for (pid, key), (n, total) in counts.items():
        row = rows.get((pid, key))
        if row is None:
            s.add(FamilyTotal(player_id=pid, family=family, key=key, n=int(n), total=float(total)))
        else:
            row.n += int(n)
            row.total += float(total)


def totals_of(s: Reader, player_id: int) -> dict[str, dict[str, tuple[int, float]]]:
    ft = FamilyTotal.__table__.c
    out: dict[str, dict[str, tuple[int, float]]] = {}
    for family, key, n, total in s.execute(select(ft.family, ft.key, ft.n, ft.total)
                                           .where(ft.player_id == player_id).order_by(ft.family, ft.key)):
        out.setdefault(family, {})[key] = (n, total)
    return out


def record_by_family(s: Reader, player_id: int, totals: dict | None = None) -> list[dict]:
    """Per family: finished matches played, won (place 1), average place."""
    totals = totals_of(s, player_id) if totals is None else totals
    return [{"family": f, "played": c["played"][0], "won": c.get("won", (0, 0))[0],
             "average_place": c["played"][1] / c["played"][0]}
            for f, c in totals.items() if c.get("played", (0, 0))[0]]


def family_stats(s: Reader, player_id: int, totals: dict | None = None) -> dict:
    """The page's per-family stats (as family_stats_from_rows), from family_totals."""
    totals = totals_of(s, player_id) if totals is None else totals
    out: dict = {}
    t = totals.get("thousand", {})
    if t.get("deals"):
        declared, made = t.get("declared", (0, 0.0)), t.get("made", (0, 0.0))[0]
        out["thousand"] = {"deals": t["deals"][0], "declared": declared[0], "made": made,
                           "made_percent": round(100 * made / declared[0], 1) if declared[0] else None,
                           "average_bid": declared[1] / declared[0] if declared[0] else None,
                           "marriages": t.get("marriages", (0, 0.0))[0]}
    games = [(k[5:], n, total) for k, (n, total) in totals.get("king", {}).items() if k.startswith("game:")]
    if games:
        out["king"] = {"per_contract": [{"contract": g, "deals": n, "average": total / n}
                                        for g, n, total in sorted(games)]}
    titles = {k[6:]: n for k, (n, _) in totals.get("korol", {}).items() if k.startswith("title:")}
    if titles:
        out["korol"] = {"titles": titles}
    return out


def current_ratings(s: Session, family: str, player_ids: list[int]) -> dict[int, Rating]:
    rows = s.scalars(select(Rating).where(Rating.family == family, Rating.player_id.in_(player_ids)))
    return {r.player_id: r for r in rows}


def save_rating(s: Session, *, match_id: str, player_id: int, family: str, seat: int, place: int,
                before: tuple[float, float], after: tuple[float, float], old: Rating | None) -> None:
    now = m.utcnow()
    if old is None:
        old = Rating(player_id=player_id, family=family, mu=after[0], sigma=after[1], matches=1,
                     updated_at=now)
        s.add(old)
    else:
        old.mu, old.sigma, old.matches, old.updated_at = after[0], after[1], old.matches + 1, now
    s.add(RatingEvent(match_id=match_id, player_id=player_id, family=family, seat=seat, place=place,
                      mu_before=before[0], sigma_before=before[1], mu=after[0], sigma=after[1],
                      created_at=now, n=old.matches))


# -- reading, for the player page -----------------------------------------------------------
# Core selects on the tables (no ORM objects per row), each one index range of the
# player's rows whatever his number of matches (bench/player_page.py prints the plans).
# ``s``: a Session or a bare Connection (the page's routes use a Connection).


def player_row(s: Reader, player_id: int) -> dict | None:
    p = m.Player.__table__.c
    row = s.execute(select(p.id, p.name, p.bot_level, p.bot_slot).where(p.id == player_id)).first()
    if row is None:
        return None
    return {"id": row[0], "name": row[1], "bot_key": m.bot_key(row[2], row[3])}


def ratings_of(s: Reader, player_id: int) -> list[dict]:
    r = Rating.__table__.c
    q = select(r.family, r.mu, r.sigma, r.matches).where(r.player_id == player_id).order_by(r.family)
    return [{"family": f, "mu": mu, "sigma": sigma, "matches": n} for f, mu, sigma, n in s.execute(q)]


def rating_history(s: Reader, player_id: int, family: str, limit: int, before_id: int | None,
                   club: int | None = None, preset: str | None = None) -> list[dict]:
    """The player's rating events in one family, newest first (keyset paging on id:
    ``before_id`` = the last id of the page before); with ``club`` / ``preset`` only
    those of that club's matches / of a club preset of that name (``store.of_preset``)."""
    e = RatingEvent.__table__.c
    q = of_preset(select(e.id, *[e[c] for c in HISTORY_COLUMNS]).where(e.player_id == player_id, e.family == family),
                  e.match_id, club, preset)
    if before_id is not None:
        q = q.where(e.id < before_id)
    return [{"id": r[0], "n": r[1], "match": r[2], "place": r[3], "mu_before": r[4], "sigma_before": r[5],
             "mu": r[6], "sigma": r[7], "time": utc(r[8])}
            for r in s.execute(q.order_by(e.id.desc()).limit(limit))]


def chart_numbers(count: int, points: int) -> list[int]:
    """Which of a player's ``count`` rated matches a chart of at most ``points`` points shows:
    all of them when they fit, else ``points`` spread evenly from the first to the last."""
    if count <= points:
        return list(range(1, count + 1))
    if points == 1:
        return [count]
    return sorted({1 + round(k * (count - 1) / (points - 1)) for k in range(points)})


def rating_chart(s: Reader, player_id: int, family: str, points: int) -> dict:
    """The rating's history in one family for a chart, oldest first: at most ``points``
    of the player's rated matches (chart_numbers), each by its number ``n``: one index
    probe for the count, one for the picked rows (ix_rating_events_chart)."""
    e = RatingEvent.__table__.c
    mine = (e.player_id == player_id, e.family == family)
    count = s.execute(select(func.max(e.n)).where(*mine)).scalar() or 0
    picked = chart_numbers(count, points)
    rows = list(s.execute(select(e.n, e.mu, e.sigma, e.created_at).where(*mine, e.n.in_(picked))
                          .order_by(e.n))) if picked else []
    return {"family": family, "matches": count,
            "points": [{"n": n, "mu": mu, "sigma": sigma, "time": utc(t)} for n, mu, sigma, t in rows]}


def record_from_standings(s: Session, player_id: int) -> list[dict]:
    """Per family: finished matches played, won (place 1), average place — aggregated
    over all the player's standings (record_by_family reads it from family_totals)."""
    q = (select(Standing.family, func.count(), func.sum(case((Standing.place == 1, 1), else_=0)),
                func.avg(Standing.place))
         .where(Standing.player_id == player_id).group_by(Standing.family).order_by(Standing.family))
    return [{"family": f, "played": int(n), "won": int(w or 0), "average_place": float(a)}
            for f, n, w, a in s.execute(q)]


def head_to_head(s: Reader, player_id: int, limit: int, offset: int) -> list[dict]:
    """Everybody the player finished a match with: matches together, who placed ahead
    (the pair_records kept as matches end, read in ix_pair_records_top's order)."""
    pr, players = PairRecord.__table__.c, m.Player.__table__
    p = players.c
    top = (select(pr.other_id, pr.matches, pr.ahead, pr.behind).where(pr.player_id == player_id)
           .order_by(pr.matches.desc(), pr.other_id).limit(limit).offset(offset).subquery())
    q = (select(top.c.other_id, p.name, p.bot_level, p.bot_slot, top.c.matches, top.c.ahead, top.c.behind)
         .join(players, p.id == top.c.other_id).order_by(top.c.matches.desc(), top.c.other_id))
    return [{"player": pid, "name": name, "bot_key": m.bot_key(level, slot), "matches": n,
             "ahead": a, "behind": b} for pid, name, level, slot, n, a, b in s.execute(q)]


def head_to_head_from_standings(s: Session, player_id: int) -> list[tuple[int, int, int, int]]:
    """The same counts aggregated from the standings rows: (other, matches, ahead, behind)
    (tests check pair_records against it)."""
    me, other = aliased(Standing), aliased(Standing)
    q = (select(other.player_id, func.count(), func.sum(case((me.place < other.place, 1), else_=0)),
                func.sum(case((me.place > other.place, 1), else_=0)))
         .select_from(me)
         .join(other, and_(other.match_id == me.match_id, other.player_id != me.player_id))
         .where(me.player_id == player_id).group_by(other.player_id).order_by(other.player_id))
    return [(int(p), int(n), int(a or 0), int(b or 0)) for p, n, a, b in s.execute(q)]


class UnknownCursor(Invalid):
    code = "unknown_cursor"


def match_list(s: Reader, player_id: int, limit: int, offset: int = 0, before: str | None = None) -> list[dict]:
    """The player's finished matches, newest first (finished_at, then match id, both
    descending): variant, place, total, seat, room code.  ``before``: keyset paging, the
    last match id of the page before (UnknownCursor if it is not one of the player's);
    ``offset`` still works (it reads and skips that many index entries).  The page is
    an index range of ix_standings_player_recent; only its rows meet matches and rooms."""
    st, matches, rooms = Standing.__table__.c, m.Match.__table__, m.Room.__table__
    mt, rm = matches.c, rooms.c
    q = select(st.match_id, st.variant, st.family, st.seat, st.place, st.total, st.finished_at) \
        .where(st.player_id == player_id)
    if before is not None:
        cursor = s.execute(select(st.finished_at, st.match_id)
                           .where(st.player_id == player_id, st.match_id == before).limit(1)).first()
        if cursor is None:
            raise UnknownCursor(f"before={before!r} is not a finished match of player {player_id}")
        q = q.where(tuple_(st.finished_at, st.match_id) < tuple_(cursor[0], cursor[1]))
    page = q.order_by(st.finished_at.desc(), st.match_id.desc()).limit(limit).offset(offset).subquery()
    rows = s.execute(select(page, rm.code).join(matches, mt.id == page.c.match_id).join(rooms, rm.id == mt.room_id)
                     .order_by(page.c.finished_at.desc(), page.c.match_id.desc()))
    return [{"match": r[0], "variant": r[1], "family": r[2], "seat": r[3], "place": r[4],
             "total": r[5], "finished_at": utc(r[6]), "room": r[7]} for r in rows]


def unrecorded_matches(s: Session, limit: int = 1000) -> list[str]:
    """Matches that count (``counted``) without standings rows."""
    q = (select(m.Match.id).join(m.Room, m.Room.id == m.Match.room_id).where(counted())
         .where(~select(Standing.seat).where(Standing.match_id == m.Match.id).exists())
         .order_by(m.Match.finished_at).limit(limit))
    return list(s.scalars(q))


# -- calls: "new room with the same people" ----------------------------------------------


class Call(m.Base):
    __tablename__ = "calls"
    __table_args__ = (Index("ix_calls_to", "to_id", "created_at"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    from_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    to_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=m.utcnow)
    dismissed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


def add_calls(s: Session, room_id: int, from_id: int, to_ids: list[int]) -> None:
    for pid in to_ids:
        s.add(Call(room_id=room_id, from_id=from_id, to_id=pid))


def open_calls(s: Session, player_id: int, since: datetime) -> list[dict]:
    """Calls to the player not dismissed, newest first, to rooms whose first match has not started."""
    q = (select(Call.id, m.Room.code, m.Room.variant, m.Player.id, m.Player.name, Call.created_at)
         .join(m.Room, m.Room.id == Call.room_id).join(m.Player, m.Player.id == Call.from_id)
         .where(Call.to_id == player_id, Call.dismissed_at.is_(None), Call.created_at >= since,
                m.Room.current_match_id.is_(None))
         .order_by(Call.id.desc()).limit(20))
    return [{"id": r[0], "room": r[1], "variant": r[2], "from": {"id": r[3], "name": r[4]},
             "time": utc(r[5])} for r in s.execute(q)]


def dismiss_call(s: Session, player_id: int, call_id: int) -> bool:
    row = s.get(Call, call_id)
    if row is None or row.to_id != player_id:
        return False
    row.dismissed_at = m.utcnow()
    return True
