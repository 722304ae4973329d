"""Club tournaments (issue 37 item 4): SQL.  Policy and the rounds' opening are
app/tournaments.py's; the pairings app/tournament_pairing.py's; a table's result is
its match's standings rows (app/ratings.py writes them as the match ends), read here
by the tables' match ids — no second copy of a result."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from . import models as m
from .errors import Clash, Invalid, Missing, NotAllowed
from .ratings import Standing
from .store import utc


class UnknownTournament(Missing):
    code = "unknown_tournament"


class TournamentStarted(Clash):
    """Entrants change, and a tournament starts, only before its start."""

    code = "tournament_started"


class TournamentOver(Clash):
    """A tournament finished or ended early cannot be ended again."""

    code = "tournament_over"


class TournamentTooSmall(Clash):
    code = "tournament_too_small"


class TournamentFull(Clash):
    code = "tournament_full"


class SignUpClosed(NotAllowed):
    """Members sign themselves up only to a tournament that lets them (``sign_up``)."""

    code = "sign_up_closed"


class BadTournament(Invalid):
    code = "invalid_tournament"


def tournament_row(s: Session, club_id: int, tournament_id: int, *, lock: bool = False) -> m.Tournament:
    q = select(m.Tournament).where(m.Tournament.id == tournament_id)
    if lock:
        q = q.with_for_update()
    row = s.scalar(q)
    if row is None or row.club_id != club_id:
        raise UnknownTournament(f"no tournament {tournament_id} in this club")
    return row


def club_tournaments_of(s: Session, club_id: int, limit: int = 50) -> list[m.Tournament]:
    """The club's tournaments, newest first (``ix_tournaments_club``)."""
    return list(s.scalars(select(m.Tournament).where(m.Tournament.club_id == club_id)
                          .order_by(m.Tournament.created_at.desc(), m.Tournament.id.desc()).limit(limit)))


def entrants(s: Session, tournament_id: int) -> list[dict]:
    """The entrants with their names: in the entrants' order once started (``number``),
    before that in the order they entered."""
    rows = s.execute(select(m.TournamentEntrant.player_id, m.Player.name, m.TournamentEntrant.number,
                            m.TournamentEntrant.joined_at)
                     .join(m.Player, m.Player.id == m.TournamentEntrant.player_id)
                     .where(m.TournamentEntrant.tournament_id == tournament_id)).all()
    ordered = sorted(rows, key=lambda r: (r[2] if r[2] is not None else 0, utc(r[3]) or "", r[0]))
    return [{"player": r[0], "name": r[1], "number": r[2], "joined_at": utc(r[3])} for r in ordered]


def entrant_count(s: Session, tournament_id: int) -> int:
    """By the primary key (tournament, player)."""
    return int(s.scalar(select(func.count()).select_from(m.TournamentEntrant)
                        .where(m.TournamentEntrant.tournament_id == tournament_id)) or 0)


def entrant(s: Session, tournament_id: int, player_id: int) -> m.TournamentEntrant | None:
    return s.get(m.TournamentEntrant, (tournament_id, player_id))


def tables(s: Session, tournament_id: int) -> list[m.TournamentTable]:
    """Every table and bye of the tournament, by round and table (``ix_tournament_tables_round``)."""
    return list(s.scalars(select(m.TournamentTable).where(m.TournamentTable.tournament_id == tournament_id)
                          .order_by(m.TournamentTable.round, m.TournamentTable.table_no)))


def table_of_match(s: Session, match_id: str) -> m.TournamentTable | None:
    """The tournament table a match was played at (``ix_tournament_tables_match``)."""
    return s.scalar(select(m.TournamentTable).where(m.TournamentTable.match_id == match_id))


def results(s: Session, match_ids: list[str]) -> dict[str, dict]:
    """Each match's status, room code and, once its standings are written, the place of
    each seat: {match: {status, room, places: {seat: place}}}."""
    if not match_ids:
        return {}
    out: dict[str, dict] = {}
    for mid, status, code in s.execute(select(m.Match.id, m.Match.status, m.Room.code)
                                       .join(m.Room, m.Room.id == m.Match.room_id)
                                       .where(m.Match.id.in_(match_ids))):
        out[mid] = {"status": status, "room": code, "places": {}}
    for mid, seat, place in s.execute(select(Standing.match_id, Standing.seat, Standing.place)
                                      .where(Standing.match_id.in_(match_ids))):
        out[mid]["places"][seat] = place
    return out


def room_codes(s: Session, room_ids: list[int]) -> dict[int, str]:
    if not room_ids:
        return {}
    return dict(s.execute(select(m.Room.id, m.Room.code).where(m.Room.id.in_(room_ids))).all())


def names(s: Session, player_ids: list[int]) -> dict[int, str]:
    if not player_ids:
        return {}
    return dict(s.execute(select(m.Player.id, m.Player.name).where(m.Player.id.in_(player_ids))).all())


def unopened(s: Session) -> list[int]:
    """(Start-up.)  Running tournaments: their latest round may wait for a room, a match,
    or its next round (the process stopped in between)."""
    return list(s.scalars(select(m.Tournament.id).where(m.Tournament.status == "running")))


def brief(row: m.Tournament, entrants: int) -> dict:
    return {"id": row.id, "club": row.club_id, "name": row.name,
            "preset": {"id": row.preset_id, "name": row.preset_name}, "variant": row.variant,
            "seat_count": row.seat_count, "format": row.format, "rounds": row.rounds, "points": row.points,
            "sign_up": bool(row.sign_up), "status": row.status, "round": row.round, "entrant_count": entrants,
            "created_by": row.created_by, "created_at": utc(row.created_at),
            "started_at": utc(row.started_at), "ended_at": utc(row.ended_at)}


def page_tournaments(s: Session, club_id: int, limit: int = 5) -> list[dict]:
    """The club page's tournaments: open and running ones first, then the latest ended."""
    rows = club_tournaments_of(s, club_id, limit=50)
    rows.sort(key=lambda r: r.status not in ("open", "running"))
    return [brief(r, entrant_count(s, r.id)) for r in rows[:limit]]
