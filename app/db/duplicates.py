"""Duplicate matches in SQL (issue 37 item 5; app/duplicates.py): a duplicate, its tables
(rooms, whose first match is the table's) and what the history needs to keep a deal
hidden until every table has finished it (``gate``)."""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from . import models as m
from .errors import Clash, Invalid, Missing

OVER = ("finished", "abandoned")


class UnknownDuplicate(Missing):
    code = "unknown_duplicate"


class BadDuplicate(Invalid):
    """The tables or the players of a new duplicate do not fit its preset."""

    code = "invalid_duplicate"


class DealHidden(Clash):
    """A duplicate's deal that some table has not finished yet (its cards are secret there)."""

    code = "deal_hidden"


class MatchNotOver(Clash):
    """"Replay this deal" before its match is over (its log holds face-down cards, rule C-5)."""

    code = "match_not_over"


class Gate(NamedTuple):
    """How much of a duplicate table's match may be shown: deals 1..``shown`` (None: all)
    and, ``all_over``, its seed and log (every table's match is over)."""

    shown: int | None
    all_over: bool


OPEN = Gate(None, True)  # a match of no duplicate: as the history always showed it


def create(s: Session, club_id: int, preset_name: str, variant: str, seat_count: int, seed: int,
           created_by: int, room_ids: list[int]) -> m.Duplicate:
    dup = m.Duplicate(club_id=club_id, preset_name=preset_name, variant=variant, seat_count=seat_count,
                      seed=seed, created_by=created_by)
    s.add(dup)
    s.flush()
    for table_no, room_id in enumerate(room_ids):
        s.add(m.DuplicateTable(duplicate_id=dup.id, table_no=table_no, room_id=room_id))
    s.flush()
    return dup


def duplicate_row(s: Session, club_id: int, dup_id: int) -> m.Duplicate:
    dup = s.get(m.Duplicate, dup_id)
    if dup is None or dup.club_id != club_id:
        raise UnknownDuplicate(f"no duplicate {dup_id} in club {club_id}")
    return dup


def of_club(s: Session, club_id: int, limit: int = 50) -> list[m.Duplicate]:
    q = (select(m.Duplicate).where(m.Duplicate.club_id == club_id)
         .order_by(m.Duplicate.created_at.desc(), m.Duplicate.id.desc()).limit(limit))
    return list(s.scalars(q))


def tables(s: Session, dup_id: int) -> list[tuple[int, m.Room, m.Match | None]]:
    """(table number, room, the room's first match or None) in table order."""
    q = (select(m.DuplicateTable.table_no, m.Room, m.Match)
         .join(m.Room, m.Room.id == m.DuplicateTable.room_id)
         .outerjoin(m.Match, (m.Match.room_id == m.Room.id) & (m.Match.number == 1))
         .where(m.DuplicateTable.duplicate_id == dup_id).order_by(m.DuplicateTable.table_no))
    return [(n, room, match) for n, room, match in s.execute(q).all()]


def score_rows(s: Session, match_ids: list[str]) -> dict[str, dict[int, dict]]:
    """Each match's stored scoresheet rows by deal."""
    out: dict[str, dict[int, dict]] = {mid: {} for mid in match_ids}
    if match_ids:
        for mid, deal, row in s.execute(select(m.ScoreRow.match_id, m.ScoreRow.deal, m.ScoreRow.row)
                                        .where(m.ScoreRow.match_id.in_(match_ids))):
            out[mid][deal] = row
    return out


def finished_deals(s: Session, match_ids: list[str]) -> dict[str, int]:
    q = (select(m.ScoreRow.match_id, func.count()).where(m.ScoreRow.match_id.in_(match_ids))
         .group_by(m.ScoreRow.match_id))
    counts = dict(s.execute(q).all())
    return {mid: int(counts.get(mid, 0)) for mid in match_ids}


def gate_of(played: list[tuple[m.Match | None, int]]) -> Gate:
    """The gate over a duplicate's tables ((first match or None, its finished deals)): a
    deal is shown once every table whose match is not over has finished it (a match that
    is over has passed every deal it will play)."""
    running = [n for match, n in played if match is None or match.status not in OVER]
    return Gate(min(running) if running else None, not running)


def gate(s: Session, match: m.Match) -> Gate:
    """The gate of ``match`` (OPEN unless it is the first match of a duplicate's table)."""
    if match.number != 1:
        return OPEN
    dup_id = s.scalar(select(m.DuplicateTable.duplicate_id).where(m.DuplicateTable.room_id == match.room_id))
    if dup_id is None:
        return OPEN
    rows = tables(s, dup_id)
    counts = finished_deals(s, [x.id for _, _, x in rows if x is not None])
    return gate_of([(x, counts.get(x.id, 0) if x is not None else 0) for _, _, x in rows])


class BadRotation(Invalid):
    """"Replay this deal" by a rotation that is not 1 .. seats - 1."""

    code = "invalid_rotation"
