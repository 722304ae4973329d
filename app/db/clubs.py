"""Clubs (issue 37): members and roles, invite links, presets, seasons (SQL).

Policy (who may do what) is app/clubs.py's; the season's table rows and club
ratings are added to by app/ratings.py as each counted match ends (one path for
a live match and for a season created over matches already played).  The club
page's statements are index ranges: members by the primary key (club, player),
rooms by ``ix_rooms_club`` and
``ix_matches_club_finished``, recent matches by ``ix_matches_club_finished``, the
season table by the primary key of ``season_rows`` (migration 0020)."""

from __future__ import annotations

import secrets
from datetime import datetime

from sqlalchemy import and_, bindparam, case, delete, func, select
from sqlalchemy.orm import Session

from . import models as m
from . import ratings as rsql
from .errors import Clash, Invalid, Missing, NotAllowed
from .store import utc

ROLES = ("owner", "admin", "member")


class UnknownClub(Missing):
    code = "unknown_club"


class UnknownInvite(Missing):
    """An invite token that is unknown or revoked (alike)."""

    code = "unknown_invite"


class UnknownPreset(Missing):
    code = "unknown_preset"


class UnknownSeason(Missing):
    code = "unknown_season"


class UnknownMember(Missing):
    code = "unknown_member"


class NotMember(NotAllowed):
    code = "not_member"


class NotClubAdmin(NotAllowed):
    code = "not_club_admin"


class NotClubOwner(NotAllowed):
    code = "not_club_owner"


class AlreadyMember(Clash):
    code = "already_member"


class OwnerStays(Clash):
    """The owner leaves (or is removed, or demoted) only after handing the club over."""

    code = "owner_must_transfer"


class PresetNameTaken(Clash):
    code = "preset_name_taken"


class SeasonClosed(Clash):
    code = "season_closed"


class BadSeason(Invalid):
    code = "invalid_season"


class PresetFixesRules(Invalid):
    """A room from a preset takes the preset's variant and options, not the body's."""

    code = "preset_fixes_rules"


# -- clubs and members -----------------------------------------------------------------


def create_club(s: Session, owner_id: int, name: str, description: str, colour: str, listed: bool) -> m.Club:
    club = m.Club(name=name, description=description, colour=colour, listed=listed, owner_id=owner_id)
    s.add(club)
    s.flush()
    now = m.utcnow()
    s.add(m.ClubMember(club_id=club.id, player_id=owner_id, role="owner", status="active",
                       requested_at=now, joined_at=now))
    s.flush()
    return club


def club_row(s: Session, club_id: int, *, lock: bool = False) -> m.Club:
    q = select(m.Club).where(m.Club.id == club_id)
    if lock:
        q = q.with_for_update()
    club = s.scalar(q)
    if club is None:
        raise UnknownClub(f"no club {club_id}")
    return club


def membership(s: Session, club_id: int, player_id: int) -> m.ClubMember | None:
    return s.get(m.ClubMember, (club_id, player_id))


def member_count(s: Session, club_id: int) -> int:
    return int(s.scalar(select(func.count()).select_from(m.ClubMember)
                        .where(m.ClubMember.club_id == club_id, m.ClubMember.status == "active")) or 0)


# Built once, the club or season a parameter (the club page runs them on every read).
_ORDER = case((m.ClubMember.role == "owner", 0), (m.ClubMember.role == "admin", 1), else_=2)
_MEMBERS = (select(m.ClubMember.player_id, m.Player.name, m.ClubMember.role, m.ClubMember.requested_at,
                   m.ClubMember.joined_at)
            .join(m.Player, m.Player.id == m.ClubMember.player_id)
            .where(m.ClubMember.club_id == bindparam("club"), m.ClubMember.status == bindparam("status"))
            .order_by(_ORDER, m.Player.name, m.ClubMember.player_id))
_TABLE = (select(m.SeasonRow.player_id, m.Player.name, m.SeasonRow.matches, m.SeasonRow.points,
                 m.SeasonRow.wins, m.SeasonRow.place_sum, m.SeasonRow.total_sum)
          .join(m.Player, m.Player.id == m.SeasonRow.player_id)
          .where(m.SeasonRow.season_id == bindparam("season"), m.Player.bot_level.is_(None)))
_RATINGS = (select(m.SeasonRating.family, m.SeasonRating.player_id, m.Player.name, m.SeasonRating.mu,
                   m.SeasonRating.sigma, m.SeasonRating.matches)
            .join(m.Player, m.Player.id == m.SeasonRating.player_id)
            .where(m.SeasonRating.season_id == bindparam("season"), m.Player.bot_level.is_(None)))


def members(s: Session, club_id: int, status: str) -> list[dict]:
    """The club's members of ``status``: the owner first, then admins, then by name."""
    rows = s.connection().execute(_MEMBERS, {"club": club_id, "status": status}).all()
    return [{"player": r[0], "name": r[1], "role": r[2], "requested_at": utc(r[3]), "joined_at": utc(r[4])}
            for r in rows]


def my_clubs(s: Session, player_id: int) -> list[dict]:
    rows = s.execute(select(m.Club.id, m.Club.name, m.Club.colour, m.Club.listed, m.ClubMember.role,
                            m.ClubMember.status)
                     .join(m.ClubMember, m.ClubMember.club_id == m.Club.id)
                     .where(m.ClubMember.player_id == player_id)
                     .order_by(m.Club.name, m.Club.id)).all()
    return [{"id": r[0], "name": r[1], "colour": r[2], "listed": bool(r[3]), "role": r[4], "status": r[5]}
            for r in rows]


def listed_clubs(s: Session, q: str | None, limit: int, offset: int) -> list[dict]:
    """Listed clubs whose name holds ``q`` (any case, in any alphabet: matched here with
    str.casefold, as SQLite's lower() knows only ASCII), the biggest first: what a
    player looking for a club may see."""
    members = (select(m.ClubMember.club_id, func.count().label("n"))
               .where(m.ClubMember.status == "active").group_by(m.ClubMember.club_id).subquery())
    size = func.coalesce(members.c.n, 0)
    rows = s.execute(select(m.Club.id, m.Club.name, m.Club.description, m.Club.colour, size)
                     .outerjoin(members, members.c.club_id == m.Club.id).where(m.Club.listed.is_(True))
                     .order_by(size.desc(), m.Club.name, m.Club.id)).all()
    if q:
        key = q.casefold()
        rows = [r for r in rows if key in r[1].casefold()]
    return [{"id": r[0], "name": r[1], "description": r[2], "colour": r[3], "members": r[4]}
            for r in rows[offset:offset + limit]]


# -- invites -----------------------------------------------------------------------------


def new_invite(s: Session, club_id: int, by: int) -> m.ClubInvite:
    """An invite link's token: 128 random bits (url-safe), kept as it is: an admin shows
    the link again and again, and revoking it is what ends it."""
    invite = m.ClubInvite(club_id=club_id, token=secrets.token_urlsafe(16), created_by=by)
    s.add(invite)
    s.flush()
    return invite


def open_invites(s: Session, club_id: int) -> list[m.ClubInvite]:
    return list(s.scalars(select(m.ClubInvite).where(m.ClubInvite.club_id == club_id,
                                                     m.ClubInvite.revoked_at.is_(None))
                          .order_by(m.ClubInvite.id)))


def invite_by_token(s: Session, token: str) -> m.ClubInvite:
    invite = s.scalar(select(m.ClubInvite).where(m.ClubInvite.token == token))
    if invite is None or invite.revoked_at is not None:
        raise UnknownInvite("this invite link is unknown or was revoked")
    return invite


# -- presets -------------------------------------------------------------------------------


def presets(s: Session, club_id: int) -> list[m.ClubPreset]:
    return list(s.scalars(select(m.ClubPreset).where(m.ClubPreset.club_id == club_id)
                          .order_by(m.ClubPreset.name, m.ClubPreset.id)))


def preset_row(s: Session, club_id: int | None, preset_id: int) -> m.ClubPreset:
    row = s.get(m.ClubPreset, preset_id)
    if row is None or (club_id is not None and row.club_id != club_id):
        raise UnknownPreset(f"no preset {preset_id}" + ("" if club_id is None else " in this club"))
    return row


def check_preset_name(s: Session, club_id: int, name: str, but: int | None = None) -> None:
    q = select(m.ClubPreset.id).where(m.ClubPreset.club_id == club_id, m.ClubPreset.name == name)
    if but is not None:
        q = q.where(m.ClubPreset.id != but)
    if s.scalar(q) is not None:
        raise PresetNameTaken(f"the club already has a preset named {name!r}")


# -- the club page's rooms and matches --------------------------------------------------------


def club_rooms(s: Session, club_id: int, limit: int = 50) -> list[dict]:
    """The club's rooms waiting for their first match or playing one, newest first: the
    waiting ones by ``ix_rooms_club`` (club, current match null), the playing ones from
    their matches by ``ix_matches_club_finished`` (club, finished_at null)."""
    taken = (select(func.count()).select_from(m.Seat)
             .where(m.Seat.room_id == m.Room.id, m.Seat.player_id.is_not(None)).scalar_subquery())
    cols = (m.Room.code, m.Room.variant, m.Room.preset_name, m.Room.pace, m.Room.seat_count, m.Room.rated,
            taken, m.Room.created_at, m.Room.id)
    waiting = s.execute(select(*cols).where(m.Room.club_id == club_id, m.Room.current_match_id.is_(None))
                        .order_by(m.Room.created_at.desc(), m.Room.id.desc()).limit(limit)).all()
    playing = s.execute(select(*cols).join(m.Match, m.Match.id == m.Room.current_match_id)
                        .where(m.Match.club_id == club_id, m.Match.finished_at.is_(None),
                               m.Match.status == "playing")
                        .order_by(m.Room.created_at.desc(), m.Room.id.desc()).limit(limit)).all()
    rows = sorted([(r, "waiting") for r in waiting] + [(r, "playing") for r in playing],
                  key=lambda x: (x[0][7], x[0][8]), reverse=True)[:limit]
    return [{"code": r[0], "variant": r[1], "preset": r[2], "pace": r[3] or "live", "seat_count": r[4],
             "rated": bool(r[5]), "status": status, "seats_taken": int(r[6] or 0),
             "invite_path": f"/room/{r[0]}", "created_at": utc(r[7])} for r, status in rows]


def recent_matches(s: Session, club_id: int, limit: int = 10) -> list[dict]:
    """The club's latest ended matches (ix_matches_club_finished), with each seat's
    player and name then, a bot's ``bot_key`` (the client names bots in the reader's
    language), and the result (app/clubs.py places the seats)."""
    rows = s.execute(select(m.Match.id, m.Room.code, m.Match.variant, m.Match.preset_name, m.Match.status,
                            m.Match.result, m.Match.seat_count, m.Match.finished_at)
                     .join(m.Room, m.Room.id == m.Match.room_id)
                     .where(m.Match.club_id == club_id, m.Match.finished_at.is_not(None))
                     .order_by(m.Match.finished_at.desc(), m.Match.id).limit(limit)).all()
    seats: dict[str, list] = {}
    if rows:
        for mid, seat, pid, name, level, slot in s.execute(
                select(m.MatchPlayer.match_id, m.MatchPlayer.seat_no, m.MatchPlayer.player_id, m.MatchPlayer.name,
                       m.Player.bot_level, m.Player.bot_slot)
                .join(m.Player, m.Player.id == m.MatchPlayer.player_id)
                .where(m.MatchPlayer.match_id.in_([r[0] for r in rows]))
                .order_by(m.MatchPlayer.match_id, m.MatchPlayer.seat_no)):
            seats.setdefault(mid, []).append((seat, pid, name, m.bot_key(level, slot)))
    return [{"id": r[0], "room": r[1], "variant": r[2], "preset": r[3], "status": r[4], "result": r[5] or {},
             "seat_count": r[6], "finished_at": utc(r[7]),
             "seats": [{"seat": seat, "player": pid, "name": name, "bot_key": key}
                       for seat, pid, name, key in seats.get(r[0], [])]}
            for r in rows]


# -- seasons ----------------------------------------------------------------------------------


def seasons(s: Session, club_id: int) -> list[m.Season]:
    return list(s.scalars(select(m.Season).where(m.Season.club_id == club_id)
                          .order_by(m.Season.starts_at.desc(), m.Season.id.desc())))


def season_row(s: Session, club_id: int, season_id: int, *, lock: bool = False) -> m.Season:
    q = select(m.Season).where(m.Season.id == season_id)
    if lock:
        q = q.with_for_update()
    row = s.scalar(q)
    if row is None or row.club_id != club_id:
        raise UnknownSeason(f"no season {season_id} in this club")
    return row


def counting_seasons(s: Session, club_id: int, family: str, when: datetime) -> list[m.Season]:
    """The club's open seasons a match of ``family`` that ended ``when`` counts in."""
    rows = s.scalars(select(m.Season).where(m.Season.club_id == club_id, m.Season.closed_at.is_(None),
                                            m.Season.starts_at <= when, m.Season.ends_at > when))
    return [row for row in rows if family in row.families]


def past_matches(s: Session, season: m.Season) -> list[tuple[str, str, list[tuple[int, int, float]]]]:
    """The club's counted matches already in the season (its families, its dates), in the
    order they ended: [(match, family, [(player, place, total)] by seat)] from their
    standings."""
    st = rsql.Standing
    rows = s.execute(select(st.match_id, st.family, st.seat, st.player_id, st.place, st.total)
                     .join(m.Match, m.Match.id == st.match_id)
                     .where(m.Match.club_id == season.club_id, m.Match.coached.is_(False),
                            st.family.in_(list(season.families)),
                            st.finished_at >= season.starts_at, st.finished_at < season.ends_at)
                     .order_by(st.finished_at, st.match_id, st.seat)).all()
    out: list[tuple[str, str, list[tuple[int, int, float]]]] = []
    for mid, family, _seat, pid, place, total in rows:
        if not out or out[-1][0] != mid:
            out.append((mid, family, []))
        out[-1][2].append((pid, place, total))
    return out


def season_rows(s: Session, season_id: int, players: list[int]) -> dict[int, m.SeasonRow]:
    return {r.player_id: r for r in s.scalars(select(m.SeasonRow).where(
        m.SeasonRow.season_id == season_id, m.SeasonRow.player_id.in_(players)))}


def season_ratings(s: Session, season_id: int, family: str, players: list[int]) -> dict[tuple[str, int], m.SeasonRating]:
    return {(family, r.player_id): r for r in s.scalars(select(m.SeasonRating).where(
        m.SeasonRating.season_id == season_id, m.SeasonRating.family == family,
        m.SeasonRating.player_id.in_(players)))}


def add_to_rows(rows: dict[int, m.SeasonRow], season: m.Season, players: list[int], placed: list[int],
                totals: list[float]) -> None:
    """One counted match added to the season's table rows ``rows`` (by player; new
    ones are made: the caller adds them to the session)."""
    points = list(season.points)
    for pid, place, total in zip(players, placed, totals, strict=True):
        row = rows.get(pid)
        if row is None:
            row = rows[pid] = m.SeasonRow(season_id=season.id, player_id=pid, matches=0, points=0.0, wins=0,
                                          place_sum=0, total_sum=0.0)
        row.matches += 1
        row.points += float(points[place - 1]) if place <= len(points) else 0.0
        row.wins += int(place == 1)
        row.place_sum += place
        row.total_sum += float(total)


def set_rating(ratings: dict[tuple[str, int], m.SeasonRating], season_id: int, family: str, player_id: int,
               after: tuple[float, float]) -> None:
    """A player's club rating in the season after one more match (``ratings`` by
    (family, player); a new one is made: the caller adds it to the session)."""
    row = ratings.get((family, player_id))
    if row is None:
        ratings[(family, player_id)] = m.SeasonRating(season_id=season_id, family=family, player_id=player_id,
                                                      mu=after[0], sigma=after[1], matches=1)
    else:
        row.mu, row.sigma = after
        row.matches += 1


def table_rows(s: Session, season_id: int) -> list[dict]:
    """The season's rows of people (bots play, and place, but are not in the table)."""
    rows = s.connection().execute(_TABLE, {"season": season_id}).all()
    return [{"player": r[0], "name": r[1], "matches": r[2], "points": r[3], "wins": r[4],
             "place_sum": r[5], "total_sum": r[6]} for r in rows]


def rating_rows(s: Session, season_id: int) -> list[dict]:
    rows = s.connection().execute(_RATINGS, {"season": season_id}).all()
    return [{"family": r[0], "player": r[1], "name": r[2], "mu": r[3], "sigma": r[4], "matches": r[5]}
            for r in rows]


def remove_member(s: Session, club_id: int, player_id: int) -> None:
    s.execute(delete(m.ClubMember).where(and_(m.ClubMember.club_id == club_id,
                                              m.ClubMember.player_id == player_id)))
