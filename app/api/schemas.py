"""Request and response models of the REST API."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field


class PlayerCreate(BaseModel):
    name: str = Field(description="display name: 1-40 characters, any script")


class PlayerPublic(BaseModel):
    id: int
    name: str


class PlayerWithToken(PlayerPublic):
    token: str = Field(description="keep it secret: it proves who may act for a seat")


class VariantPublic(BaseModel):
    id: str
    family: str
    name: str
    seat_counts: list[int]
    options: list[dict[str, Any]]


class RoomCreate(BaseModel):
    variant: str
    options: dict[str, Any] | None = None
    seats: int | None = Field(None, description="seat count; default: the variant's first")
    take_seat: bool = Field(True, description="the host takes seat 0")
    takeover_seconds: float | None = Field(
        None, ge=0, le=86400, description="a bot plays for a player who has not acted this long "
        "(until the player acts or reconnects); 0: never; default: the server's KOZYR_TURN_TIMEOUT")
    rated: bool = Field(False, description="finished matches move the players' ratings (app/ratings.py)")
    takeback: Literal["off", "agree"] | None = Field(
        None, description="take-backs: off, or by agreement of every other person seated; "
        "default: agree, but off in a rated room")
    abandoned: Literal["counts", "ignored"] = Field(
        "ignored", description="a match the host stops before its end: counts for standings and "
        "ratings as it stood, or is ignored")


class SeatPublic(BaseModel):
    seat: int
    player: int | None
    name: str | None
    connected: bool
    is_bot: bool = False
    level: str | None = Field(None, description="the bot's level when is_bot")
    bot_key: str | None = Field(None, description='a bot\'s "<level>-<slot>", e.g. basic-2; null: a person')
    takeover: bool = Field(False, description="a bot plays for the absent player now")


class HostPublic(BaseModel):
    id: int
    name: str
    bot_key: str | None = None


class RoomMatch(BaseModel):
    id: str
    number: int
    status: str
    version: int


class RoomPublic(BaseModel):
    code: str
    variant: str
    variant_name: str
    family: str
    options: dict[str, Any]
    seat_count: int
    host: HostPublic
    seats: list[SeatPublic]
    status: str = Field(description="waiting | playing | finished | abandoned")
    match: RoomMatch | None
    invite_path: str
    invite_url: str | None = None
    created_at: str
    takeover_seconds: float | None = None
    rated: bool = False
    takeback: str = "agree"
    abandoned: str = "ignored"


class BotSeat(BaseModel):
    level: str = Field("basic", description="random | basic | strong (GET /api/bots)")


class RoomSettings(BaseModel):
    takeover_seconds: float | None = Field(None, ge=0, le=86400, description="None / 0: off")


class BotLevel(BaseModel):
    level: str
    name: str
    description: str


class StartMatch(BaseModel):
    seed: int | None = Field(None, description="testing aid; ignored unless the server allows it")


class ChatPublic(BaseModel):
    id: int
    player: int
    name: str
    seat: int | None
    text: str
    time: str


class MatchPlayerPublic(BaseModel):
    seat: int
    player: int
    name: str
    bot_key: str | None = None


class MatchSummary(BaseModel):
    id: str
    room: str
    number: int
    variant: str
    options: dict[str, Any]
    seats: list[MatchPlayerPublic]
    status: str
    version: int
    result: dict[str, Any] | None
    created_at: str
    finished_at: str | None


class MatchDetail(MatchSummary):
    seed: int | None = Field(None, description="revealed once the match is finished")
    first_dealer: int | None = None
    scoresheet: list[dict[str, Any]]
    role_table: list[dict[str, Any]]
    deals: list[dict[str, Any]] = Field(description="every finished deal step by step (rule C-5)")
    takebacks: list[dict[str, Any]] = Field(
        default_factory=list, description="take-backs: seq, undone (its seq), seat, action, text")


class Health(BaseModel):
    ok: bool
    database: str
    variants: list[str]


class PlayerStats(BaseModel):
    player: int
    matches: int = Field(description="matches the player sat in")
    finished_matches: int
    deals: int = Field(description="finished deals the player sat in")
    declared: int = Field(description="deals the player played as declarer (Тысяча)")
    made: int = Field(description="of them, contracts made")
    mean_bid: float | None
    best_bid: int | None
    marriages: int
    titles: dict[str, int] = Field(description="Король / Król: rounds ended with each title")
