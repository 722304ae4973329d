"""Every query of the server, as plain functions of a Session (or Connection).

Callers own the transaction (``Database.read()`` / ``Database.write()``).  What
goes wrong raises a domain error (app/db/errors.py); app/errors.py maps those
to HTTP statuses.  Policy (who may do what) is the services' (app/rooms/)."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Integer, bindparam, func, insert, or_, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, aliased

from . import models as m
from . import rows
from .errors import MatchRunning, NoBot, SeatTaken, UnknownMatch, UnknownRoom, UnknownSeat
from .tokens import token_hash

#: Room codes: no 0/O, 1/I/L look-alikes; 8 of 31 characters is about 40 bits, which
#: the look-up rate limit (app/limits.py CodeGuard) keeps out of a guesser's reach.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 8


def new_room_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_code() -> str:
    """A match id: 80 bits as 20 lower-case hex digits, so no id can ever read as a card
    code (rule C-2 codes are upper-case) in a message that is checked for leaked cards."""
    return secrets.token_hex(10)


def new_seed() -> int:
    return secrets.randbelow(2**62)


# -- players ------------------------------------------------------------------


def create_player(s: Session, name: str) -> tuple[m.Player, str]:
    """A person and his first device's token (app/db/accounts.py keeps device tokens)."""
    from .accounts import device_token

    player = m.Player(token_hash=f"person:{secrets.token_hex(16)}", name=name)  # no token's hash
    s.add(player)
    s.flush()
    return player, device_token(s, player.id, m.utcnow())


def rename_player(s: Session, player_id: int, name: str) -> m.Player:
    row = s.get_one(m.Player, player_id)
    row.name = name
    s.flush()
    return row


def ping(s: Session) -> None:
    s.execute(text("SELECT 1"))


def find_player(s: Session, player_id: int) -> m.Player | None:
    return s.get(m.Player, player_id)


def player_row(s: Session, player_id: int) -> m.Player:
    return s.get_one(m.Player, player_id)


def find_match(s: Session, match_id: str) -> m.Match | None:
    return s.get(m.Match, match_id) if isinstance(match_id, str) and len(match_id) <= 32 else None


def match_row(s: Session, match_id: str) -> m.Match:
    row = find_match(s, match_id)
    if row is None:
        raise UnknownMatch(f"no match {match_id!r}")
    return row


def room_code_of(s: Session, room_id: int) -> str:
    return s.get_one(m.Room, room_id).code


def find_match_and_code(s: Session, match_id: str) -> tuple[m.Match, str] | None:
    """The match and its room's code, in one query (None: no such match)."""
    if not isinstance(match_id, str) or len(match_id) > 32:
        return None
    found = s.execute(_MATCH_AND_CODE, {"match": match_id}).first()
    return None if found is None else (found[0], found[1])


_MATCH_AND_CODE = (select(m.Match, m.Room.code).join(m.Room, m.Room.id == m.Match.room_id)
                   .where(m.Match.id == bindparam("match")))


def player_by_token(s: Session, token: str | None) -> m.Player | None:
    if not token or len(token) > 200:
        return None
    return players_by_tokens(s, [token]).get(token)


def players_by_tokens(s: Session, tokens: list[str]) -> dict[str, m.Player]:
    """The players of these device tokens (one query for many: a storm of joins), by
    token; unknown (or signed-out) tokens are left out."""
    from .accounts import players_by_device_tokens

    digests = {token_hash(t): t for t in tokens if t and len(t) <= 200}
    if not digests:
        return {}
    return {digests[digest]: player for digest, player in players_by_device_tokens(s, list(digests))}


# -- rooms and seats ------------------------------------------------------------


def create_room(s: Session, host: m.Player, variant: str, options: dict, seat_count: int,
                take_seat: int | None) -> m.Room:
    room = m.Room(code=new_room_code(), variant=variant, options=options, seat_count=seat_count,
                  host_id=host.id)
    s.add(room)
    s.flush()
    for n in range(seat_count):
        s.add(m.Seat(room_id=room.id, seat_no=n, player_id=host.id if n == take_seat else None))
    s.flush()
    return room


def room_by_code(s: Session, code: str, *, lock: bool = False) -> m.Room:
    """The room of ``code``: the exact code (older mixed-case codes), else the upper-cased
    one (new codes are stored upper-case, so a code typed in lower case finds its room)."""
    room = None
    for candidate in _code_candidates(code):
        q = select(m.Room).where(m.Room.code == candidate)
        if lock:
            q = q.with_for_update()
        room = s.scalar(q)
        if room is not None:
            break
    if room is None:
        raise UnknownRoom(f"no room {code!r}")
    return room


def _code_candidates(code: object) -> tuple[str, ...]:
    """The stored codes a room code may name, in the order tried: the exact code (older
    mixed-case codes), then the upper-cased one; none for what cannot be a code."""
    if not isinstance(code, str) or len(code) > 32:
        return ()
    return tuple(dict.fromkeys((code, code.upper())))


def seats_of(s: Session, room: m.Room) -> list[tuple[int, int | None, str | None]]:
    """[(seat_no, player_id, name)] in seat order."""
    rows = s.execute(select(m.Seat.seat_no, m.Seat.player_id, m.Player.name)
                     .outerjoin(m.Player, m.Player.id == m.Seat.player_id)
                     .where(m.Seat.room_id == room.id).order_by(m.Seat.seat_no)).all()
    return [(r[0], r[1], r[2]) for r in rows]


def seat_of_player(s: Session, room: m.Room, player_id: int) -> int | None:
    return s.scalar(select(m.Seat.seat_no).where(m.Seat.room_id == room.id,
                                                 m.Seat.player_id == player_id))


def current_match(s: Session, room: m.Room) -> m.Match | None:
    return s.get(m.Match, room.current_match_id) if room.current_match_id else None


def seat_row(s: Session, room: m.Room, seat_no: int) -> m.Seat:
    if not 0 <= seat_no < room.seat_count:
        raise UnknownSeat(f"no seat {seat_no} in this room (seats 0..{room.seat_count - 1})")
    return s.get_one(m.Seat, (room.id, seat_no))


def check_between_matches(s: Session, room: m.Room) -> None:
    match = current_match(s, room)
    if match is not None and match.status == "playing":
        raise MatchRunning("a match is being played; seats change between matches")


def take_seat(s: Session, room: m.Room, seat_no: int, player_id: int) -> None:
    """``player_id`` sits in ``seat_no`` (leaving the seat it held), between matches."""
    seat = seat_row(s, room, seat_no)
    check_between_matches(s, room)
    if seat.player_id == player_id:
        return
    if seat.player_id is not None:
        raise SeatTaken(f"seat {seat_no} is taken")
    held = seat_of_player(s, room, player_id)
    if held is not None:
        s.get_one(m.Seat, (room.id, held)).player_id = None
    seat.player_id = player_id
    s.flush()


def free_seat(s: Session, room: m.Room, seat_no: int) -> int | None:
    """Empty ``seat_no`` between matches; the player who sat there."""
    seat = seat_row(s, room, seat_no)
    check_between_matches(s, room)
    was = seat.player_id
    seat.player_id = None
    s.flush()
    return was


# -- bots -----------------------------------------------------------------------------


def bot_player(s: Session, level: str, slot: int, name: str) -> m.Player:
    """The player row of bot ``slot`` of ``level`` (created the first time)."""
    key = f"bot:{level}-{slot}"
    player = s.scalar(select(m.Player).where(m.Player.token_hash == key))
    if player is not None:
        return player
    try:
        with s.begin_nested():
            player = m.Player(token_hash=key, name=name, bot_level=level, bot_slot=slot)
            s.add(player)
            s.flush()
    except IntegrityError:  # another request created it just now
        player = s.scalars(select(m.Player).where(m.Player.token_hash == key)).one()
    return player


def room_bots(s: Session, room: m.Room) -> dict[int, tuple[str, str | None]]:
    """{seat: (level, bot_key)} of the room's seats that hold a bot."""
    rows = s.execute(select(m.Seat.seat_no, m.Player.bot_level, m.Player.bot_slot)
                     .join(m.Player, m.Player.id == m.Seat.player_id)
                     .where(m.Seat.room_id == room.id, m.Player.bot_level.is_not(None)))
    return {r[0]: (str(r[1]), m.bot_key(r[1], r[2])) for r in rows}


def match_bot_levels(s: Session, match_id: str) -> dict[int, str]:
    """{seat: level} of a match's bot seats (as seated when it started)."""
    rows = s.execute(select(m.MatchPlayer.seat_no, m.Player.bot_level)
                     .join(m.Player, m.Player.id == m.MatchPlayer.player_id)
                     .where(m.MatchPlayer.match_id == match_id, m.Player.bot_level.is_not(None)))
    return {r[0]: str(r[1]) for r in rows}


def seat_holds_person(s: Session, room: m.Room, seat_no: int) -> bool:
    seat = seat_row(s, room, seat_no)
    return seat.player_id is not None and s.get_one(m.Player, seat.player_id).bot_level is None


def remove_bot(s: Session, room: m.Room, seat_no: int) -> None:
    seat = seat_row(s, room, seat_no)
    check_between_matches(s, room)
    if seat.player_id is None or s.get_one(m.Player, seat.player_id).bot_level is None:
        raise NoBot(f"seat {seat_no} holds no bot")
    seat.player_id = None
    s.flush()


def bot_settings(s: Session, match_id: str, room_id: int) -> tuple[dict[int, str], dict]:
    """A live match's bot seats and its room's pace (``PACE_KEYS``)."""
    room = s.get_one(m.Room, room_id)
    return match_bot_levels(s, match_id), {key: getattr(room, key) for key in PACE_KEYS}


#: What a room's clock needs: the live turn clock, the pace and its deadline rules.
PACE_KEYS = ("takeover_seconds", "pace", "move_seconds", "on_deadline", "vacation_days")


def pace_of(snap: dict) -> dict:
    """A room state's clock fields (``PACE_KEYS``)."""
    return {key: snap.get(key) for key in PACE_KEYS}


# -- the room as the services keep it in memory -----------------------------------------------


def room_snapshot(s: Session, room: m.Room) -> dict:
    """Everything the server shows of a room that lives in the database (plain data),
    as this transaction sees it (the session flushes first)."""
    s.flush()
    snap = _snapshot(s.connection(), _ROOM_BY_ID, room.id)
    assert snap is not None
    return snap


def room_snapshot_by_code(s: Session, code: str) -> dict:
    """``room_snapshot`` of the room of ``code`` (matched as room_by_code matches it):
    two queries, the room with its host and current match, then its seats."""
    c = s.connection()
    for candidate in _code_candidates(code):
        snap = _snapshot(c, _ROOM_BY_CODE, candidate)
        if snap is not None:
            return snap
    raise UnknownRoom(f"no room {code!r}")


# Built once, with the room as a parameter: building these selects (and the host's
# alias) for every read cost more than running them (a join storm reads one room per
# room new to the process; bench/join_reads.py).  They run on the session's
# connection: plain rows, no ORM loading.
_HOST = aliased(m.Player)
_ROOM = (select(m.Room.id, m.Room.code, m.Room.variant, m.Room.options, m.Room.seat_count,
                m.Room.takeover_seconds, m.Room.rated, m.Room.takeback, m.Room.abandoned,
                m.Room.created_at, m.Room.host_id, _HOST.name, _HOST.bot_level, _HOST.bot_slot,
                m.Match.id, m.Match.number, m.Match.status, m.Match.version,
                m.Room.pace, m.Room.move_seconds, m.Room.on_deadline, m.Room.vacation_days,
                m.Room.club_id, m.Room.preset_id, m.Room.preset_name, m.Club.name,
                m.Room.coach)
         .join(_HOST, _HOST.id == m.Room.host_id)
         .outerjoin(m.Club, m.Club.id == m.Room.club_id)
         .outerjoin(m.Match, m.Match.id == m.Room.current_match_id))
_ROOM_BY_ID = _ROOM.where(m.Room.id == bindparam("room"))
_ROOM_BY_CODE = _ROOM.where(m.Room.code == bindparam("room"))
_SEATS = (select(m.Seat.seat_no, m.Seat.player_id, m.Player.name, m.Player.bot_level, m.Player.bot_slot)
          .outerjoin(m.Player, m.Player.id == m.Seat.player_id)
          .where(m.Seat.room_id == bindparam("room")).order_by(m.Seat.seat_no))


def _snapshot(c: Connection, query, key: object) -> dict | None:
    room = c.execute(query, {"room": key}).first()
    if room is None:
        return None
    rows = c.execute(_SEATS, {"room": room[0]}).all()
    return {
        "id": room[0], "code": room[1], "variant": room[2], "options": room[3],
        "seat_count": room[4], "takeover_seconds": room[5],
        "rated": bool(room[6]), "takeback": room[7] or "agree",
        "abandoned": room[8] or "ignored",
        "pace": room[18] or "live", "move_seconds": room[19], "on_deadline": room[20] or "bot",
        "vacation_days": 14 if room[21] is None else room[21],
        "coach": bool(room[26]),
        "host": {"id": room[10], "name": room[11], "bot_key": m.bot_key(room[12], room[13])},
        "seats": [{"seat": x[0], "player": x[1], "name": x[2], "level": x[3],
                   "bot_key": m.bot_key(x[3], x[4])} for x in rows],
        "match": None if room[14] is None else {"id": room[14], "number": room[15],
                                                "status": room[16], "version": room[17]},
        "created_at": utc(room[9]),
        # a club's room: the preset it was opened from (its name as copied then)
        "club": None if room[22] is None else {"id": room[22], "name": room[25]},
        "preset_id": room[23], "preset_name": room[24],
    }


def open_rooms(s: Session, player_id: int) -> int:
    """Rooms the player hosts whose current match is not finished (or not started)."""
    q = (select(func.count(m.Room.id))
         .outerjoin(m.Match, m.Match.id == m.Room.current_match_id)
         .where(m.Room.host_id == player_id)
         .where(or_(m.Room.current_match_id.is_(None), m.Match.status == "playing")))
    return int(s.execute(q).scalar_one())


def utc(dt: datetime | None) -> str | None:
    if dt is None:
        return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.isoformat()


# -- matches ------------------------------------------------------------------


def create_match(s: Session, room: m.Room, seed: int, first_dealer: int | None = None,
                 preset_deals: list | None = None) -> m.Match:
    seats = seats_of(s, room)
    number = (s.scalar(select(func.count()).select_from(m.Match).where(m.Match.room_id == room.id))
              or 0) + 1
    if number == 1 and room.replay_deal is not None and preset_deals is None:
        # "replay this deal" (app/duplicates.py): the room's first match starts with it
        first_dealer, preset_deals = room.replay_deal["first_dealer"], room.replay_deal["preset_deals"]
    match = m.Match(deal_seeds=room.deal_seeds, id=new_code(), room_id=room.id, number=number, variant=room.variant,
                    options=room.options, seat_count=room.seat_count, seed=seed,
                    first_dealer=first_dealer, preset_deals=preset_deals, status="playing", version=0,
                    club_id=room.club_id, preset_name=room.preset_name, coached=room.coach)
    s.add(match)
    s.flush()
    for seat_no, player_id, name in seats:
        s.add(m.MatchPlayer(match_id=match.id, seat_no=seat_no, player_id=player_id, name=name))
    room.current_match_id = match.id
    s.flush()
    return match


def mark_coached(s: Session, room: m.Room) -> None:
    """The room's current match, if still being played, had the coach on."""
    if room.current_match_id is not None:
        s.execute(update(m.Match).where(m.Match.id == room.current_match_id, m.Match.status == "playing")
                  .values(coached=True))


def match_players(s: Session, match_id: str) -> list[tuple[int, int, str]]:
    rows = s.execute(select(m.MatchPlayer.seat_no, m.MatchPlayer.player_id, m.MatchPlayer.name)
                     .where(m.MatchPlayer.match_id == match_id)
                     .order_by(m.MatchPlayer.seat_no)).all()
    return [(r[0], r[1], r[2]) for r in rows]


def match_seats(s: Session, match_id: str) -> list[dict]:
    """[{seat, player, name, bot_key}] of a match, in seat order (the name as it was then)."""
    rows = s.execute(select(m.MatchPlayer.seat_no, m.MatchPlayer.player_id, m.MatchPlayer.name,
                            m.Player.bot_level, m.Player.bot_slot)
                     .join(m.Player, m.Player.id == m.MatchPlayer.player_id)
                     .where(m.MatchPlayer.match_id == match_id)
                     .order_by(m.MatchPlayer.seat_no)).all()
    return [{"seat": r[0], "player": r[1], "name": r[2], "bot_key": m.bot_key(r[3], r[4])}
            for r in rows]


_ACTION = m.Action.__table__.c
_ACTIONS = (select(_ACTION.seq, _ACTION.seat, _ACTION.action, _ACTION.client_id)
            .where(_ACTION.match_id == bindparam("match"), _ACTION.seq >= bindparam("from_seq"))
            .order_by(_ACTION.seq))


def actions_of(s: Session | Connection, match_id: str, from_seq: int = 0) -> list:
    """Rows with .seq, .seat, .action, .client_id in log order."""
    c = s.connection() if isinstance(s, Session) else s
    return list(c.execute(_ACTIONS, {"match": match_id, "from_seq": from_seq}))


def set_muted(s: Session, player_id: int, room_id: int, muted: bool) -> None:
    """Mute or unmute a room for a player (idempotent)."""
    row = s.get(m.MutedRoom, (player_id, room_id))
    if muted and row is None:
        s.add(m.MutedRoom(player_id=player_id, room_id=room_id))
    elif not muted and row is not None:
        s.delete(row)


def muted_room_ids(s: Session, player_id: int) -> set[int]:
    return set(s.scalars(select(m.MutedRoom.room_id).where(m.MutedRoom.player_id == player_id)))


def clocks_of(s: Session, match_ids: list[str]) -> dict[str, tuple[str, datetime | None, str | None]]:
    """Each match's room pace and running deadline (due, state; None, None: none)."""
    if not match_ids:
        return {}
    rows = s.execute(select(m.Match.id, m.Room.pace, m.Deadline.due_at, m.Deadline.state)
                     .join(m.Room, m.Room.id == m.Match.room_id)
                     .outerjoin(m.Deadline, m.Deadline.match_id == m.Match.id)
                     .where(m.Match.id.in_(match_ids))).all()
    return {r[0]: (r[1] or "live", r[2], r[3]) for r in rows}


def set_away(s: Session, player_id: int, until: datetime | None) -> None:
    s.get_one(m.Player, player_id).away_until = until


def away_until(s: Session, player_id: int) -> datetime | None:
    return s.get_one(m.Player, player_id).away_until


def last_action_at(s: Session, match_id: str) -> datetime | None:
    """When the match's latest action was stored (None before its first)."""
    return s.scalar(select(func.max(m.Action.created_at)).where(m.Action.match_id == match_id))


def unattended_matches(s: Session) -> list[str]:
    """Ids of the unfinished matches that go on with nobody there, so a process loads
    them when it starts: those with a bot seat (the bot may be due to act; no deadline
    runs while a bot is to act).  Any other match waits for a person, or for its
    deadline (app/rooms/deadlines.py loads it when it fires), and is loaded when
    somebody reaches it (MatchLoop.get_live)."""
    bots = (select(m.MatchPlayer.match_id).join(m.Player, m.Player.id == m.MatchPlayer.player_id)
            .where(m.Player.bot_level.is_not(None)))
    return list(s.scalars(select(m.Match.id).where(m.Match.status == "playing", m.Match.id.in_(bots))))


class VersionConflict(RuntimeError):
    """The match row is not at the version the writer expected."""


def record_action(c: Connection, match_id: str, seq: int, seat: int, action: str,
                  client_id: str | None) -> None:
    record_actions(c, [(match_id, seq, seat, action, client_id)])


# Built once (SQLAlchemy caches their compiled form); executed with a list of parameter
# sets for a batch (executemany).
_BUMP = (update(m.Match).where(m.Match.id == bindparam("b_match"), m.Match.version == bindparam("b_seq"))
         .values(version=bindparam("b_next")))
_LOG = insert(m.Action)


def record_actions(c: Connection, rows: list[tuple[str, int, int, str, str | None]]) -> None:
    """Append actions (match_id, seq, seat, action, client_id) to the log, stamped now;
    each match row must be at version ``seq`` (a guard: two writers of one match never
    both succeed).  Two statements for the whole batch."""
    if not rows:
        return
    moved = c.execute(_BUMP, [{"b_match": r[0], "b_seq": r[1], "b_next": r[1] + 1} for r in rows]).rowcount
    created = m.utcnow()
    c.execute(_LOG, [{"match_id": r[0], "seq": r[1], "seat": r[2], "action": r[3], "client_id": r[4],
                      "created_at": created} for r in rows])
    if moved != len(rows):
        raise VersionConflict(f"{len(rows) - moved} of {len(rows)} match(es) are not at the "
                              "expected version in the database")


def record_rows(c: Connection, match_id: str, seats: int, score_rows: list[tuple[int, dict]],
                role_rows: list[tuple[int, dict]]) -> None:
    """The rows a finished deal (or Король round) added: whole, and as typed columns
    (in ``c``'s transaction, one statement per table)."""
    lines = []
    for deal, row in score_rows:
        lines += rows.seat_rows("deal", deal, row, seats)
    for idx, row in role_rows:
        lines += rows.seat_rows("round", idx, row, seats)
    tables: list[tuple[Any, list[dict]]] = [
        (m.ScoreRow, [{"match_id": match_id, "deal": deal, "row": row, **rows.deal_columns(row)}
                      for deal, row in score_rows]),
        (m.RoleRow, [{"match_id": match_id, "idx": idx, "round": int(row.get("round", idx)), "row": row}
                     for idx, row in role_rows]),
        (m.SeatResult, [{"match_id": match_id, **x} for x in lines]),
    ]
    for model, dicts in tables:
        if dicts:
            c.execute(insert(model), dicts)


def of_preset(q, match_id, club: int | None, preset: str | None):
    """``q`` kept to the matches of a club (``club``) and its preset (``preset``: the
    name the match copied from it; issue 37: statistics by preset)."""
    if club is None and preset is None:
        return q
    chosen = select(m.Match.id)
    if club is not None:
        chosen = chosen.where(m.Match.club_id == club)
    if preset is not None:
        chosen = chosen.where(m.Match.preset_name == preset)
    return q.where(match_id.in_(chosen))


def player_stats(s: Session, player_id: int, *, club: int | None = None, preset: str | None = None) -> dict:
    """What a player's finished deals say (seat_results of the matches he sat in), all
    of them or those of a club's preset (``of_preset``)."""
    r = m.SeatResult
    mp = m.MatchPlayer
    on = (r.match_id == mp.match_id) & (r.seat == mp.seat_no) & (mp.player_id == player_id)
    deals = s.execute(of_preset(select(
        func.count(), func.sum(func.cast(r.declarer, Integer)),
        func.sum(func.cast(r.made.is_(True), Integer)), func.avg(r.bid), func.max(r.bid),
        func.sum(r.marriages)).join(mp, on).where(r.kind == "deal"), r.match_id, club, preset)).one()
    titles = dict(s.execute(of_preset(select(r.title, func.count()).join(mp, on)
                                      .where(r.kind == "round", r.title.is_not(None)), r.match_id, club, preset)
                            .group_by(r.title)).all())
    played = s.scalar(of_preset(select(func.count()).select_from(mp).where(mp.player_id == player_id),
                                mp.match_id, club, preset)) or 0
    finished = s.scalar(of_preset(select(func.count()).select_from(mp).join(m.Match, m.Match.id == mp.match_id)
                                  .where(mp.player_id == player_id, m.Match.status == "finished"),
                                  mp.match_id, club, preset)) or 0
    return {"player": player_id, "matches": played, "finished_matches": finished,
            "deals": deals[0] or 0, "declared": deals[1] or 0, "made": deals[2] or 0,
            "mean_bid": round(float(deals[3]), 1) if deals[3] is not None else None,
            "best_bid": deals[4], "marriages": deals[5] or 0,
            "titles": {str(k): v for k, v in titles.items()}}


def finish_match(c: Connection, match_id: str, result: dict, when: datetime,
                 status: str = "finished") -> None:
    """The match ended (``finished``) or was stopped by its host (``abandoned``)."""
    c.execute(update(m.Match).where(m.Match.id == match_id)
              .values(status=status, result=result, finished_at=when))


def list_matches(s: Session, *, room_id: int | None = None, player_id: int | None = None,
                 with_player: int | None = None, variant: str | None = None,
                 since: datetime | None = None, until: datetime | None = None,
                 status: str | None = None, club: int | None = None, preset: str | None = None,
                 limit: int = 100, offset: int = 0) -> list[m.Match]:
    q = of_preset(select(m.Match), m.Match.id, club, preset)
    if room_id is not None:
        q = q.where(m.Match.room_id == room_id)
    for pid in (player_id, with_player):
        if pid is not None:
            q = q.where(m.Match.id.in_(select(m.MatchPlayer.match_id)
                                       .where(m.MatchPlayer.player_id == pid)))
    if variant:
        q = q.where(m.Match.variant == variant)
    if since is not None:
        q = q.where(m.Match.created_at >= since)
    if until is not None:
        q = q.where(m.Match.created_at <= until)
    if status:
        q = q.where(m.Match.status == status)
    q = q.order_by(m.Match.created_at.desc(), m.Match.id).limit(limit).offset(offset)
    return list(s.scalars(q))


# -- chat -----------------------------------------------------------------------


def add_chat(s: Session, room: m.Room, player: m.Player, seat: int | None, text: str) -> m.ChatMessage:
    msg = m.ChatMessage(room_id=room.id, player_id=player.id, seat=seat, text=text)
    s.add(msg)
    s.flush()
    return msg


def chat_of(s: Session, room: m.Room, limit: int = 100) -> list[tuple[m.ChatMessage, str]]:
    rows = s.execute(select(m.ChatMessage, m.Player.name)
                     .join(m.Player, m.Player.id == m.ChatMessage.player_id)
                     .where(m.ChatMessage.room_id == room.id)
                     .order_by(m.ChatMessage.id.desc()).limit(limit)).all()
    return [(r[0], r[1]) for r in reversed(rows)]


# -- the coach's reviews of finished deals (app/rooms/review.py) --------------------------


def deal_review(s: Session, match_id: str, deal: int, seat: int) -> dict | None:
    """The stored review of ``seat`` in ``deal`` of the match, if worked out already."""
    row = s.get(m.DealReview, (match_id, deal, seat))
    return None if row is None else row.body


def keep_deal_review(s: Session, match_id: str, deal: int, seat: int, body: dict) -> None:
    """Store a review (another process may have stored the same one first: it stays)."""
    try:
        with s.begin_nested():
            s.add(m.DealReview(match_id=match_id, deal=deal, seat=seat, body=body))
    except IntegrityError:
        pass
