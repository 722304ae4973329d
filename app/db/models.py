"""The tables (SQLAlchemy 2).  The Alembic migration in migrations/ creates them."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.sql.expression import false, true
from sqlalchemy.types import Float


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class Player(Base):
    __tablename__ = "players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # A person: "person:<random>", which no token hashes to (his devices' tokens are in
    # player_tokens, app/db/accounts.py; migration 0016); a bot: "bot:<level>-<slot>".
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # A bot's player row (one per level and slot 1..3, shared by every room): its level
    # and slot; None: a person.  ``bot_key`` ("basic-2") is what the client translates.
    bot_level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    bot_slot: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # Away (a vacation) until then: the deadlines of his seats pause, within each room's
    # ``vacation_days`` (app/rooms/deadlines.py; migration 0018).
    away_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    @property
    def bot_key(self) -> str | None:
        return bot_key(self.bot_level, self.bot_slot)


def bot_key(level: str | None, slot: int | None) -> str | None:
    """``"<level>-<slot>"`` of a bot's player row; None for a person."""
    if level is None:
        return None
    return f"{level}-{slot or 1}"


class Room(Base):
    __tablename__ = "rooms"
    # the club page's waiting rooms: (club, no match yet) newest first
    __table_args__ = (Index("ix_rooms_club", "club_id", "current_match_id", "created_at"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(32), unique=True)
    variant: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict] = mapped_column(JSON)
    seat_count: Mapped[int] = mapped_column(Integer)
    host_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    current_match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # A bot takes over a seat whose player has not acted this many seconds; None / 0: never.
    takeover_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    # Finished matches of this room move the players' ratings (app/ratings.py; migration 0011).
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # Take-backs: "off" | "agree" (by agreement of every other person seated; migration 0013).
    takeback: Mapped[str] = mapped_column(String(8), default="agree", server_default="agree")
    # A match the host stopped before its end: "counts" (standings and ratings as they
    # stood) | "ignored" (app/rooms/abandon.py; migration 0015).
    abandoned: Mapped[str] = mapped_column(String(8), default="ignored", server_default="ignored")
    # The pace (migration 0018): "live" (the turn clock is takeover_seconds: a bot takes
    # the seat over) | "turn" (turn-based: each move has ``move_seconds``; when they pass,
    # ``on_deadline`` "bot": the seat's bot plays that one move | "wait": the match waits).
    pace: Mapped[str] = mapped_column(String(8), default="live", server_default="live")
    move_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    on_deadline: Mapped[str] = mapped_column(String(8), default="bot", server_default="bot")
    # The longest vacation (days) that pauses a deadline of this room.
    vacation_days: Mapped[int] = mapped_column(Integer, default=14, server_default="14")
    # The coach (migration 0021): hints at the table for whoever asks; never in a rated room.
    coach: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # A club's room (migration 0020; app/db/clubs.py): opened from the club's preset
    # ``preset_id``, whose name is copied here (the room keeps its own copy of the rules).
    club_id: Mapped[int | None] = mapped_column(ForeignKey("clubs.id", name="fk_rooms_club"), nullable=True)
    preset_id: Mapped[int | None] = mapped_column(
        ForeignKey("club_presets.id", name="fk_rooms_preset", ondelete="SET NULL"), nullable=True)
    preset_name: Mapped[str | None] = mapped_column(String(80), nullable=True)
    # Its matches deal with the engine's per-deal seed mode (a duplicate's table; rule C-3;
    # migration 0024), and "replay this deal": {"preset_deals", "first_dealer"} of its
    # first match.
    deal_seeds: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    replay_deal: Mapped[dict | None] = mapped_column(JSON, nullable=True)


class Seat(Base):
    __tablename__ = "seats"
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    seat_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)


class Match(Base):
    __tablename__ = "matches"
    __table_args__ = (Index("ix_matches_club_finished", "club_id", "finished_at"),)
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)  # 1, 2, ... within the room
    variant: Mapped[str] = mapped_column(String(64), index=True)
    options: Mapped[dict] = mapped_column(JSON)
    seat_count: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    first_dealer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    preset_deals: Mapped[list | None] = mapped_column(JSON, nullable=True)
    status: Mapped[str] = mapped_column(String(16), default="playing", index=True)  # playing | finished | abandoned
    version: Mapped[int] = mapped_column(Integer, default=0)  # actions applied
    result: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # The room's club and preset name when the match started (migration 0020): the
    # club page's recent matches read ix_matches_club_finished.
    club_id: Mapped[int | None] = mapped_column(ForeignKey("clubs.id", name="fk_matches_club"), nullable=True)
    preset_name: Mapped[str | None] = mapped_column(String(80), nullable=True)
    # The coach was on in its room during the match (migration 0021): it counts in no club season.
    coached: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The engine's per-deal seed mode (rule C-3; migration 0024): app/rooms/live.py new_engine.
    deal_seeds: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class DealReview(Base):
    """The coach's review of one seat's decisions in a finished deal (app/rooms/review.py,
    migration 0025): worked out once, then read."""

    __tablename__ = "deal_reviews"
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    body: Mapped[dict] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class MatchPlayer(Base):
    """Who sat where in a match (seats may change between matches of a room)."""

    __tablename__ = "match_players"
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    name: Mapped[str] = mapped_column(String(200))  # the name at the time of the match


class Action(Base):
    """The match's action log: seed + options + this log reproduce the match (rule C-3)."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("match_id", "seq", name="uq_actions_match_seq"),)
    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"))
    seq: Mapped[int] = mapped_column(Integer)  # 0, 1, ...: the version before the action
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(200))
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ScoreRow(Base):
    """A scoresheet row as the engine gives it (``row``), plus typed columns (rows.py)."""

    __tablename__ = "score_rows"
    __table_args__ = (UniqueConstraint("match_id", "deal", name="uq_score_rows_match_deal"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"))
    deal: Mapped[int] = mapped_column(Integer)
    row: Mapped[dict] = mapped_column(JSON)
    dealer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    declarer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    contract: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    bid: Mapped[int | None] = mapped_column(Integer, nullable=True)
    made: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    trump: Mapped[str | None] = mapped_column(String(8), nullable=True)
    round: Mapped[int | None] = mapped_column(Integer, nullable=True)


class RoleRow(Base):
    __tablename__ = "role_rows"
    __table_args__ = (UniqueConstraint("match_id", "idx", name="uq_role_rows_match_idx"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"))
    idx: Mapped[int] = mapped_column(Integer)  # position in role_table()
    round: Mapped[int] = mapped_column(Integer)
    row: Mapped[dict] = mapped_column(JSON)


class MutedRoom(Base):
    """A room a player muted: its matches are listed in My games but not counted on the
    header's badge (app/rooms/history.py games)."""

    __tablename__ = "muted_rooms"
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Deadline(Base):
    """The one running deadline of a match (both paces; app/rooms/deadlines.py): the
    person awaited (``seat``) at ``version`` since ``since``, ``seconds`` a move; it
    fires at ``due_at`` (None while a take-back request holds it: ``paused_left``
    seconds are kept), a reminder at ``remind_at``.
    ``state``: running | expired (a "wait" room's passed deadline: the match waits)."""

    __tablename__ = "deadlines"
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    seat: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer)
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    due_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)
    seconds: Mapped[float] = mapped_column(Float)
    paused_left: Mapped[float | None] = mapped_column(Float, nullable=True)
    # The awaited player is away (a vacation) until then: the clock stands still till
    # ``resume_at`` (``due_at`` is already moved on by as much).
    resume_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    remind_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)
    state: Mapped[str] = mapped_column(String(8), default="running", server_default="running")


class ChatMessage(Base):
    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_room_id", "room_id", "id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SeatResult(Base):
    """One seat's line of a finished deal (kind "deal") or Король round (kind "round"):
    typed columns the players' statistics read (app/db/rows.py); the player is the
    match's ``match_players`` row of that seat."""

    __tablename__ = "seat_results"
    __table_args__ = (UniqueConstraint("match_id", "kind", "idx", "seat", name="uq_seat_results"),
                      Index("ix_seat_results_match_seat", "match_id", "seat"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"))
    kind: Mapped[str] = mapped_column(String(8))  # deal | round
    idx: Mapped[int] = mapped_column(Integer)  # the deal number, or the role-table index
    seat: Mapped[int] = mapped_column(Integer)
    score: Mapped[float | None] = mapped_column(Float, nullable=True)
    total: Mapped[float | None] = mapped_column(Float, nullable=True)
    declarer: Mapped[bool] = mapped_column(Boolean, default=False)
    made: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    bid: Mapped[int | None] = mapped_column(Integer, nullable=True)
    marriages: Mapped[int] = mapped_column(Integer, default=0)
    tricks: Mapped[int | None] = mapped_column(Integer, nullable=True)
    title: Mapped[str | None] = mapped_column(String(32), nullable=True)


# -- Web Push (app/push/; migration 0019) ---------------------------------------------------


class VapidKey(Base):
    """The server's VAPID key pair (one row, ``id`` 1), made on first start unless
    ``KOZYR_VAPID_PRIVATE_KEY`` gives one (app/push/keys.py)."""

    __tablename__ = "vapid_keys"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    private_key: Mapped[str] = mapped_column(String(64))  # base64url of the raw 32 bytes
    public_key: Mapped[str] = mapped_column(String(100))  # base64url of the uncompressed point
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PushSubscription(Base):
    """A device's Web Push subscription: one per device token (``device``: the token's
    hash; signing the device out deletes it, app/db/accounts.py sign_out); ``lang``:
    the language its notifications are written in."""

    __tablename__ = "push_subscriptions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    device: Mapped[str] = mapped_column(String(64), unique=True)
    endpoint: Mapped[str] = mapped_column(String(2048), index=True)
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    lang: Mapped[str] = mapped_column(String(4))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class NotificationPrefs(Base):
    """What a player wants pushed (a kind each; no row: the defaults of app/push/prefs.py)
    and his quiet hours ("HH:MM" .. "HH:MM" in ``time_zone``; None: none)."""

    __tablename__ = "notification_prefs"
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    kinds: Mapped[dict] = mapped_column(JSON)  # kind -> bool
    quiet_from: Mapped[str | None] = mapped_column(String(5), nullable=True)
    quiet_to: Mapped[str | None] = mapped_column(String(5), nullable=True)
    time_zone: Mapped[str] = mapped_column(String(64), default="UTC")
    # the same choices by email too, to a confirmed address (EmailAddress)
    email: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class EmailAddress(Base):
    """A player's address for the email channel (app/push/mail.py): mails go to it once
    it is confirmed (``verified_at``) by the link sent to it (``verify_hash``: the
    link's secret's SHA-256, until ``verify_until``); ``unsubscribe``: the secret of its
    one-click unsubscribe (RFC 8058; kept as it is: every mail carries it, and all it can
    do is stop the mails); ``lang``: the mails' language; ``base_url``: where links lead."""

    __tablename__ = "email_addresses"
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    address: Mapped[str] = mapped_column(String(254))
    verified_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    verify_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    verify_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    unsubscribe: Mapped[str] = mapped_column(String(64), unique=True)
    lang: Mapped[str] = mapped_column(String(4))
    base_url: Mapped[str] = mapped_column(String(300))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


# -- clubs (issue 37; app/db/clubs.py; migration 0020) --------------------------------------


class Club(Base):
    """A group of players: ``listed`` clubs take join requests (an admin approves them),
    private ones only invite links."""

    __tablename__ = "clubs"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    description: Mapped[str] = mapped_column(Text, default="", server_default="")
    colour: Mapped[str] = mapped_column(String(7), default="#3a6ea5", server_default="#3a6ea5")
    listed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    owner_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ClubMember(Base):
    """``role``: owner | admin | member; ``status``: active | pending (a join request)."""

    __tablename__ = "club_members"
    __table_args__ = (Index("ix_club_members_player", "player_id", "status"),)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    role: Mapped[str] = mapped_column(String(8))
    status: Mapped[str] = mapped_column(String(8))
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    joined_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ClubInvite(Base):
    """An invite link (``/club/join/{token}``): makes whoever opens it a member at once,
    until an admin revokes it (``revoked_at``)."""

    __tablename__ = "club_invites"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"), index=True)
    token: Mapped[str] = mapped_column(String(32), unique=True)
    created_by: Mapped[int] = mapped_column(ForeignKey("players.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ClubPreset(Base):
    """A club's named house rules: a variant, its resolved options and room defaults
    (``room``: the fields of the room form, app/api/schemas.py RoomDefaults)."""

    __tablename__ = "club_presets"
    __table_args__ = (UniqueConstraint("club_id", "name", name="uq_club_presets_name"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"))
    name: Mapped[str] = mapped_column(String(80))
    variant: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict] = mapped_column(JSON)
    room: Mapped[dict] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Season(Base):
    """A club season: the club's matches finished in [starts_at, ends_at) of
    ``families`` count; ``points``: per place (1st, 2nd, ...); ``winners`` kept at close."""

    __tablename__ = "seasons"
    __table_args__ = (Index("ix_seasons_club", "club_id", "starts_at"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"))
    name: Mapped[str] = mapped_column(String(80))
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ends_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    families: Mapped[list] = mapped_column(JSON)
    points: Mapped[list] = mapped_column(JSON)
    min_matches: Mapped[int] = mapped_column(Integer)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    winners: Mapped[list | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SeasonRow(Base):
    """A player's line of a season's table, added to as each counted match ends."""

    __tablename__ = "season_rows"
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    matches: Mapped[int] = mapped_column(Integer)
    points: Mapped[float] = mapped_column(Float)
    wins: Mapped[int] = mapped_column(Integer)
    place_sum: Mapped[int] = mapped_column(Integer)
    total_sum: Mapped[float] = mapped_column(Float)


class SeasonRating(Base):
    """The club's own rating of a player in a family within a season (openskill, the
    model of app/ratings.py)."""

    __tablename__ = "season_ratings"
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id"), primary_key=True)
    family: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)


# -- duplicate matches (issue 37 item 5; app/duplicates.py; migration 0024) ---------------------


class Duplicate(Base):
    """One seed played at several tables (``DuplicateTable``, rooms of the club) with the
    per-deal seed mode, the players rotated from table to table."""

    __tablename__ = "duplicates"
    __table_args__ = (Index("ix_duplicates_club", "club_id", "created_at"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"))
    preset_name: Mapped[str] = mapped_column(String(80))
    variant: Mapped[str] = mapped_column(String(64))
    seat_count: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    created_by: Mapped[int] = mapped_column(ForeignKey("players.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class DuplicateTable(Base):
    """Table ``table_no`` (0, 1, ...) of a duplicate: its room, whose first match is the table's."""

    __tablename__ = "duplicate_tables"
    duplicate_id: Mapped[int] = mapped_column(ForeignKey("duplicates.id"), primary_key=True)
    table_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), unique=True)
class Tournament(Base):
    """A club tournament (issue 37 item 4; app/tournaments.py): the rules copied from a
    club preset when it was made (``variant``, ``options``, ``room``: the preset's room
    defaults; ``seat_count`` the table size), ``format`` round_robin | swiss,
    ``rounds``, ``points`` per place; ``status`` open (sign-up) | running | finished |
    ended (stopped early); ``round``: the latest round opened (0 before the start)."""

    __tablename__ = "tournaments"
    __table_args__ = (Index("ix_tournaments_club", "club_id", "created_at"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"))
    name: Mapped[str] = mapped_column(String(80))
    preset_id: Mapped[int | None] = mapped_column(ForeignKey("club_presets.id", ondelete="SET NULL"),
                                                  nullable=True)
    preset_name: Mapped[str] = mapped_column(String(80))
    variant: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict] = mapped_column(JSON)
    room: Mapped[dict] = mapped_column(JSON)
    seat_count: Mapped[int] = mapped_column(Integer)
    format: Mapped[str] = mapped_column(String(16))
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)  # null: a whole round-robin cycle
    points: Mapped[list] = mapped_column(JSON)
    sign_up: Mapped[bool] = mapped_column(Boolean, default=True)
    status: Mapped[str] = mapped_column(String(16), default="open")
    round: Mapped[int] = mapped_column(Integer, default=0)
    seed: Mapped[int] = mapped_column(BigInteger)
    created_by: Mapped[int] = mapped_column(ForeignKey("players.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TournamentEntrant(Base):
    """An entrant; ``number``: his place in the entrants' order the pairings start from
    (shuffled by the tournament's seed at the start)."""

    __tablename__ = "tournament_entrants"
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    number: Mapped[int | None] = mapped_column(Integer, nullable=True)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TournamentTable(Base):
    """A table of a round: ``seats`` the entrants by seat; its room and the match played
    there (found by ``ix_tournament_tables_match`` when a match ends).  A bye is a row
    with ``bye`` true, the one entrant in ``seats`` and no room."""

    __tablename__ = "tournament_tables"
    __table_args__ = (Index("ix_tournament_tables_round", "tournament_id", "round", "table_no"),
                      Index("ix_tournament_tables_match", "match_id", unique=True))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    round: Mapped[int] = mapped_column(Integer)
    table_no: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list] = mapped_column(JSON)
    bye: Mapped[bool] = mapped_column(Boolean, default=False)
    room_id: Mapped[int | None] = mapped_column(ForeignKey("rooms.id"), nullable=True)
    match_id: Mapped[str | None] = mapped_column(ForeignKey("matches.id"), nullable=True)
# -- club events (issue 37 item 4; app/db/club_events.py; migration 0022) ---------------------


class ClubEvent(Base):
    """A club's event at a time: ``starts_at`` / ``ends_at`` in UTC, ``time_zone`` the
    IANA zone it was set in (its calendar file's); ``remind_at``: when its reminder is
    due (null: sent, or none), cleared by the process that claims it."""

    __tablename__ = "club_events"
    __table_args__ = (Index("ix_club_events_upcoming", "club_id", "ends_at"),
                      Index("ix_club_events_remind", "remind_at"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id"))
    title: Mapped[str] = mapped_column(String(80))
    note: Mapped[str] = mapped_column(Text, default="", server_default="")
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ends_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    time_zone: Mapped[str] = mapped_column(String(64))
    preset_id: Mapped[int | None] = mapped_column(ForeignKey("club_presets.id", ondelete="SET NULL"), nullable=True)
    remind_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_by: Mapped[int] = mapped_column(ForeignKey("players.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    cancelled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ClubEventRsvp(Base):
    """A member's answer to an event: yes | no | maybe (changed in place)."""

    __tablename__ = "club_event_rsvps"
    event_id: Mapped[int] = mapped_column(ForeignKey("club_events.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    answer: Mapped[str] = mapped_column(String(8))
    answered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
