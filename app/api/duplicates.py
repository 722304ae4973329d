"""Duplicate matches of a club and "replay this deal" (issue 37 item 5).  Policy:
app/duplicates.py; README "Clubs (issue 37)", Duplicate matches."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, Field, StrictInt, model_validator

from ..db.clubs import NotMember, UnknownClub, UnknownPreset
from ..db.duplicates import BadDuplicate, BadRotation, DealHidden, MatchNotOver, UnknownDuplicate
from ..db.errors import (
    BadOptions,
    BadVariant,
    BotsDisabled,
    NotInMatch,
    TooManyBots,
    TooManyRooms,
    UnknownDeal,
    UnknownLevel,
    UnknownMatch,
)
from ..errors import responses
from .deps import AUTH, ClubsDep, DuplicatesDep, PlayerDep
from .rooms import with_invite, with_preset
from .schemas import BOT_LEVELS, MAX_COUNT, MAX_ID, MatchKey, RoomCreate, RoomPublic, enum

router = APIRouter(prefix="/api/clubs", tags=["clubs"])
replay_router = APIRouter(prefix="/api/matches", tags=["matches"])
routers = (router, replay_router)

ClubId = Annotated[int, Path(ge=1, le=MAX_ID, description="a club's id")]
DuplicateId = Annotated[int, Path(ge=1, le=MAX_ID, description="a duplicate's id")]
SEEN = (*AUTH, UnknownClub)


class RosterEntry(BaseModel):
    """One place of the roster: a member of the club, or a bot of a level."""

    player: StrictInt | None = Field(None, ge=1, le=MAX_ID, description="a member's player id")
    bot: str | None = Field(None, max_length=16, description="a bot level (GET /api/bots; 422 unknown_level)",
                            json_schema_extra=enum(BOT_LEVELS))

    @model_validator(mode="after")
    def one_of(self) -> RosterEntry:
        if (self.player is None) == (self.bot is None):
            raise ValueError("give a player or a bot level, not both or neither")
        return self


class DuplicateCreate(BaseModel):
    preset: StrictInt = Field(ge=1, le=MAX_ID, description="a preset of this club: the rules and room fields")
    tables: StrictInt = Field(2, ge=2, le=4, description="tables, 2 .. the seat count")
    players: list[RosterEntry] = Field(min_length=2, max_length=4, description=(
        "the roster, one entry per seat: at table t seat i is held by entry (i + t) mod seats"))


class DuplicateBrief(BaseModel):
    id: int
    club: int
    preset: str
    variant: str
    seat_count: int
    tables: int
    status: Literal["playing", "finished"] = Field(description="finished: every table's match is over")
    created_at: str


class TableSeat(BaseModel):
    seat: int
    position: int = Field(description="the roster entry in this seat")
    player: int | None
    name: str | None


class DuplicateTable(BaseModel):
    table: int
    room: str
    invite_path: str
    match: str | None
    status: str
    deals_finished: int
    seats: list[TableSeat]


class RosterPlace(BaseModel):
    position: int
    player: int | None
    name: str | None


class HandResult(BaseModel):
    seat: int = Field(description="the engine seat dealt this hand at every table")
    scores: list[int | float] = Field(description="per table, the hand's score in the deal")
    held_by: list[int] = Field(description="per table, the roster entry that held it")
    average: int | float


class DealComparison(BaseModel):
    deal: int
    hands: list[HandResult]


class Standing(BaseModel):
    rank: int
    position: int
    name: str | None
    raw: int | float = Field(description="his scores in the compared deals, at every table")
    cards: int | float = Field(description="the sum of the averages of the hands he held")
    skill: int | float = Field(description="raw - cards; the skills add up to 0")


class DuplicatePublic(DuplicateBrief):
    seed: int | None = Field(description="once every table's match is over")
    roster: list[RosterPlace]
    table_list: list[DuplicateTable]
    compared: int = Field(description="deals every table has finished (compared below)")
    deals: list[DealComparison]
    standings: list[Standing]


class ReplayDeal(BaseModel):
    rotation: StrictInt = Field(1, ge=1, le=3, description=(
        "seat i is dealt what seat i + rotation was dealt (1 .. seats - 1; 422 invalid_rotation)"))


@router.post("/{club_id}/duplicates", status_code=201, response_model=DuplicatePublic,
             responses=responses(*SEEN, NotMember, UnknownPreset, BadDuplicate, BadOptions, BadVariant,
                                 BotsDisabled, TooManyBots, TooManyRooms, UnknownLevel, body=True))
async def create_duplicate(club_id: ClubId, body: DuplicateCreate, player: PlayerDep, clubs: ClubsDep,
                           duplicates: DuplicatesDep) -> dict:
    """A duplicate match: ``tables`` rooms of the preset's rules seated from the roster, every
    match started at once with one seed and the per-deal seed mode."""
    await duplicates.check_member(player, club_id)  # a private club stays unknown to outsiders
    room, preset = await with_preset(RoomCreate.model_validate({"preset": body.preset}), player, clubs)
    assert preset is not None
    roster: list[tuple[int | None, str | None]] = [(x.player, x.bot) for x in body.players]
    return await duplicates.create(player, club_id, preset, room.model_dump(), body.tables, roster)


@router.get("/{club_id}/duplicates", response_model=list[DuplicateBrief], responses=responses(*SEEN))
async def list_duplicates(club_id: ClubId, player: PlayerDep, duplicates: DuplicatesDep) -> list[dict]:
    return await duplicates.of_club(player, club_id)


@router.get("/{club_id}/duplicates/{duplicate_id}", response_model=DuplicatePublic,
            responses=responses(*SEEN, UnknownDuplicate))
async def get_duplicate(club_id: ClubId, duplicate_id: DuplicateId, player: PlayerDep,
                        duplicates: DuplicatesDep) -> dict:
    """The tables, the deals every table has finished compared hand by hand, the standings."""
    return await duplicates.detail(player, club_id, duplicate_id)


@replay_router.post("/{match_id}/deals/{deal}/replay", status_code=201, response_model=RoomPublic,
                    responses=responses(*AUTH, UnknownMatch, UnknownDeal, MatchNotOver, DealHidden, NotInMatch,
                                        BadRotation, BadOptions, BotsDisabled, TooManyBots, TooManyRooms,
                                        body=True))
async def replay_deal(match_id: Annotated[MatchKey, Path(description="a match's id")],
                      deal: Annotated[int, Path(ge=1, le=MAX_COUNT)], player: PlayerDep,
                      duplicates: DuplicatesDep, request: Request, body: ReplayDeal | None = None) -> dict:
    """"Replay this deal": a new room like the match's whose first deal is that deal with every
    hand moved ``rotation`` seats; only once the match is over; the caller played it."""
    rotation = body.rotation if body is not None else 1
    return with_invite(await duplicates.replay_deal(player, match_id, deal, rotation), request)
