"""Clubs (issue 37): a club, its members and roles, invite links, house-rule presets,
seasons with their table (JSON and CSV).  Policy: app/clubs.py; README "Clubs"."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field, StrictBool, StrictInt

from ..db.clubs import (
    AlreadyMember,
    BadSeason,
    NotClubAdmin,
    NotClubOwner,
    NotMember,
    OwnerStays,
    PresetNameTaken,
    SeasonClosed,
    UnknownClub,
    UnknownInvite,
    UnknownMember,
    UnknownPreset,
    UnknownSeason,
)
from ..db.errors import BadName, BadOptions, BadVariant
from ..errors import responses
from .club_event_schemas import ClubEventPublic
from .deps import AUTH, ClubsDep, PlayerDep
from .rooms import qr_svg
from .schemas import FAMILIES, MAX_ID, VARIANT_IDS, AwareTime, OptionChange, RoomDefaults, enum, known

router = APIRouter(prefix="/api/clubs", tags=["clubs"])
# an invite link's routes and my clubs: paths of their own, not shaped like /api/clubs/{club_id}/...
invites_router = APIRouter(prefix="/api/club-invites", tags=["clubs"])
mine_router = APIRouter(prefix="/api/players/me", tags=["clubs"])
routers = (router, invites_router, mine_router)

ClubId = Annotated[int, Path(ge=1, le=MAX_ID, description="a club's id")]
PlayerId = Annotated[int, Path(ge=1, le=MAX_ID, description="a player's id")]
PresetId = Annotated[int, Path(ge=1, le=MAX_ID, description="a preset's id")]
SeasonId = Annotated[int, Path(ge=1, le=MAX_ID, description="a season's id")]
InviteId = Annotated[int, Path(ge=1, le=MAX_ID, description="an invite's id")]
Token = Annotated[str, Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$",
                            description="an invite link's token")]
COLOUR = r"^#[0-9a-fA-F]{6}$"

SEEN = (*AUTH, UnknownClub)  # a private club is unknown to outsiders
MEMBER = (*SEEN, NotMember)
ADMIN = (*MEMBER, NotClubAdmin)
OWNER = (*MEMBER, NotClubOwner)


# -- bodies and answers ----------------------------------------------------------------------


class ClubCreate(BaseModel):
    name: str = Field(min_length=1, max_length=80, description="the club's name")
    description: str = Field("", max_length=2000)
    colour: str = Field("#3a6ea5", pattern=COLOUR, description="the emblem colour, #rrggbb")
    listed: StrictBool = Field(False, description="listed: anyone signed in sees it and may ask to join (an admin "
                         "approves); private: only members see it, people join by an invite link")


class ClubChange(BaseModel):
    """Only the fields given change."""
    name: str | None = Field(None, min_length=1, max_length=80)
    description: str | None = Field(None, max_length=2000)
    colour: str | None = Field(None, pattern=COLOUR)
    listed: StrictBool | None = None


class Owner(BaseModel):
    id: int
    name: str


class ClubPublic(BaseModel):
    id: int
    name: str
    description: str
    colour: str
    listed: bool
    owner: Owner
    members: int = Field(description="active members")
    created_at: str


class Membership(BaseModel):
    club: int
    player: int
    role: Literal["owner", "admin", "member"]
    status: Literal["active", "pending"] = Field(description="pending: a join request an admin has not approved")


class MyMembership(BaseModel):
    role: str
    status: str


class Member(BaseModel):
    player: int
    name: str
    role: str
    joined_at: str | None
    online: bool = Field(description="at a table now: a socket open in any room, on any of the server's "
                                     "processes (README \"Clubs\")")


class JoinRequest(BaseModel):
    player: int
    name: str
    requested_at: str | None


class MyClub(BaseModel):
    id: int
    name: str
    colour: str
    listed: bool
    role: str
    status: str


class ListedClub(BaseModel):
    id: int
    name: str
    description: str
    colour: str
    members: int = Field(description="active members")


class ClubRoom(BaseModel):
    code: str
    variant: str
    preset: str | None
    pace: str
    seat_count: int
    seats_taken: int
    rated: bool
    status: str = Field(description="waiting | playing")
    invite_path: str
    created_at: str | None


class RecentSeat(BaseModel):
    seat: int
    player: int
    name: str
    bot_key: str | None = Field(None, description='a bot\'s "<level>-<slot>"; null: a person')
    place: int | None


class RecentMatch(BaseModel):
    id: str
    room: str
    variant: str
    preset: str | None
    status: str
    finished_at: str | None
    seats: list[RecentSeat]


class PresetBody(BaseModel):
    name: str = Field(min_length=1, max_length=80, description="unique in the club (409 preset_name_taken)")
    variant: str = Field(description="a variant id", json_schema_extra=enum(VARIANT_IDS))
    options: dict[str, Any] | None = Field(None, description="the variant's options, checked as POST /api/rooms "
                                           "checks them (422 invalid_options)")
    room: RoomDefaults = Field(default_factory=lambda: RoomDefaults.model_validate({}), description="the room defaults (seats, pace, rated ...)")


class PresetPublic(BaseModel):
    id: int
    club: int
    name: str
    variant: str
    options: dict[str, Any] = Field(description="resolved: every option of the variant")
    room: dict[str, Any]
    differs: list[OptionChange] = Field(description="what the options change from the variant's defaults")
    updated_at: str | None


class SeasonCreate(BaseModel):
    name: str = Field(min_length=1, max_length=80)
    starts_at: AwareTime = Field(description="a time with its zone")
    ends_at: AwareTime = Field(description="after starts_at (422 invalid_season)")
    families: list[Annotated[str, Field(json_schema_extra=enum(FAMILIES)), known(FAMILIES)]] = Field(
        min_length=1, max_length=len(FAMILIES), description="the families whose matches count")
    points: list[Annotated[StrictInt, Field(ge=0, le=1000)]] = Field(
        [3, 1, 0, 0], min_length=1, max_length=4, description="points for 1st, 2nd, ... place (a place past "
        "the list: 0)")
    min_matches: StrictInt = Field(0, ge=0, le=10000, description="fewer matches: listed, unranked")


class Winner(BaseModel):
    player: int
    name: str
    points: float
    matches: int


class SeasonBrief(BaseModel):
    id: int
    name: str
    starts_at: str | None
    ends_at: str | None
    families: list[str]
    points: list[int]
    min_matches: int
    closed_at: str | None
    winners: list[Winner] | None = Field(description="kept when the season is closed: rank 1 (those sharing it)")


class TableRow(BaseModel):
    rank: int | None = Field(description="null: fewer than min_matches")
    player: int
    name: str
    matches: int
    points: float
    wins: int
    average_place: float
    qualified: bool


class SeasonRating(BaseModel):
    family: str
    player: int
    name: str
    mu: float
    sigma: float
    ordinal: float = Field(description="mu - 3 sigma")
    matches: int


class SeasonPublic(SeasonBrief):
    table: list[TableRow] = Field(description="README \"Clubs\": the tie-breaks")
    ratings: list[SeasonRating] = Field(description="the club's own ratings in the season, per family, best first")


class TournamentPreset(BaseModel):
    id: int | None = Field(description="null: the preset was deleted since (the tournament keeps its copy)")
    name: str


class TournamentBrief(BaseModel):
    """A club tournament (app/tournaments.py; its routes: app/api/club_tournaments.py)."""
    id: int
    club: int
    name: str
    preset: TournamentPreset
    variant: str
    seat_count: int = Field(description="the table size (the preset's seats)")
    format: Literal["round_robin", "swiss"]
    rounds: int | None = Field(description="null before a round robin's start: a whole cycle")
    points: list[int] = Field(description="for 1st, 2nd, ... place; a bye scores 1st place's")
    sign_up: bool = Field(description="members may enter themselves until the start")
    status: Literal["open", "running", "finished", "ended"]
    round: int = Field(description="the latest round opened (0 before the start)")
    entrant_count: int
    created_by: int
    created_at: str | None
    started_at: str | None
    ended_at: str | None


class ClubPage(BaseModel):
    club: ClubPublic
    me: MyMembership | None
    members: list[Member] = Field(description="the owner first, then admins, then by name")
    pending: list[JoinRequest] = Field(description="join requests (shown to admins only)")
    rooms: list[ClubRoom] = Field(description="the club's rooms waiting or playing, newest first")
    recent_matches: list[RecentMatch]
    presets: list[PresetPublic]
    season: SeasonPublic | None = Field(description="the current season (started, not closed)")
    past_seasons: list[SeasonBrief]
    tournaments: list[TournamentBrief] = Field(description="open and running tournaments first, then the latest "
                                               "ended (5 in all)")
    events: list[ClubEventPublic] = Field(description="upcoming events (not cancelled, not ended), soonest "
                                          "first, with their counts and my answer (app/club_events.py)")


class InvitePublic(BaseModel):
    id: int
    token: str
    invite_path: str
    invite_url: str
    created_at: str | None


class InviteClub(BaseModel):
    id: int
    name: str
    description: str
    colour: str
    members: int


class RoleBody(BaseModel):
    role: Literal["admin", "member"]


class TransferBody(BaseModel):
    player: StrictInt = Field(ge=1, le=MAX_ID, description="an active member, the new owner")


def with_url(invite: dict, request: Request) -> dict:
    base = request.app.state.settings.public_url or str(request.base_url)
    return {**invite, "invite_url": base.rstrip("/") + invite["invite_path"]}


# -- clubs ------------------------------------------------------------------------------------


@router.post("", status_code=201, response_model=ClubPage, responses=responses(*AUTH, BadName, body=True))
async def create_club(body: ClubCreate, player: PlayerDep, clubs: ClubsDep) -> dict:
    """A new club; the caller is its owner."""
    return await clubs.create(player, body.model_dump())


@router.get("", response_model=list[ListedClub], responses=responses())
async def listed_clubs(clubs: ClubsDep,
                       q: str | None = Query(None, max_length=80, description="a part of the name, any case"),
                       limit: int = Query(20, ge=1, le=50), offset: int = Query(0, ge=0, le=10_000)) -> list[dict]:
    """Listed clubs (private ones never), the biggest first: a player may ask to join one."""
    return await clubs.listed(q.strip() if q else None, limit, offset)


@mine_router.get("/clubs", response_model=list[MyClub], responses=responses(*AUTH))
async def my_clubs(player: PlayerDep, clubs: ClubsDep) -> list[dict]:
    """The clubs I am a member of or asked to join."""
    return await clubs.mine(player)


@invites_router.get("/{token}", response_model=InviteClub, responses=responses(UnknownInvite))
async def invite_info(token: Token, clubs: ClubsDep) -> dict:
    """The club an invite link leads to (before joining)."""
    return await clubs.invite_info(token)


@invites_router.get("/{token}/qr.svg", response_class=Response,
            responses={200: {"content": {"image/svg+xml": {}}}, **responses(UnknownInvite)})
async def invite_qr(token: Token, clubs: ClubsDep, request: Request) -> Response:
    """The invite link as a QR code (SVG)."""
    await clubs.invite_info(token)
    url = with_url({"invite_path": f"/club/join/{token}"}, request)["invite_url"]
    return qr_svg(url, "Kozyr club invite", cache="no-store")


@invites_router.post("/{token}/join", response_model=Membership, responses=responses(*AUTH, UnknownInvite))
async def join_by_invite(token: Token, player: PlayerDep, clubs: ClubsDep) -> dict:
    """Join by an invite link: an active member at once (already one: unchanged)."""
    return await clubs.join_by_invite(player, token)


@router.get("/{club_id}", response_model=ClubPage, responses=responses(*SEEN))
async def club_page(club_id: ClubId, player: PlayerDep, clubs: ClubsDep) -> dict:
    """The club page's data."""
    return await clubs.page(player, club_id)


@router.patch("/{club_id}", response_model=ClubPage, responses=responses(*ADMIN, BadName, body=True))
async def change_club(club_id: ClubId, body: ClubChange, player: PlayerDep, clubs: ClubsDep) -> dict:
    return await clubs.change(player, club_id, body.model_dump())


@router.post("/{club_id}/join", response_model=Membership, responses=responses(*SEEN, AlreadyMember))
async def ask_to_join(club_id: ClubId, player: PlayerDep, clubs: ClubsDep) -> dict:
    """Ask to join a listed club: pending until an admin approves."""
    return await clubs.ask_to_join(player, club_id)


@router.post("/{club_id}/leave", status_code=204, responses=responses(*SEEN, UnknownMember, OwnerStays))
async def leave(club_id: ClubId, player: PlayerDep, clubs: ClubsDep) -> Response:
    """Leave the club (or withdraw a join request); the owner hands it over first (409)."""
    await clubs.leave(player, club_id)
    return Response(status_code=204)


@router.post("/{club_id}/transfer", response_model=ClubPage,
             responses=responses(*OWNER, UnknownMember, body=True))
async def transfer(club_id: ClubId, body: TransferBody, player: PlayerDep, clubs: ClubsDep) -> dict:
    """The owner hands the club to an active member and stays on as an admin."""
    return await clubs.transfer(player, club_id, body.player)


@router.post("/{club_id}/members/{member_id}/approve", response_model=Membership,
             responses=responses(*ADMIN, UnknownMember, AlreadyMember))
async def approve(club_id: ClubId, member_id: PlayerId, player: PlayerDep, clubs: ClubsDep) -> dict:
    return await clubs.approve(player, club_id, member_id)


@router.delete("/{club_id}/members/{member_id}", status_code=204,
               responses=responses(*ADMIN, NotClubOwner, UnknownMember, OwnerStays))
async def remove_member(club_id: ClubId, member_id: PlayerId, player: PlayerDep, clubs: ClubsDep) -> Response:
    """Remove a member or decline a join request (an admin: by the owner only)."""
    await clubs.remove(player, club_id, member_id)
    return Response(status_code=204)


@router.put("/{club_id}/members/{member_id}/role", response_model=Membership,
            responses=responses(*OWNER, UnknownMember, OwnerStays, body=True))
async def set_role(club_id: ClubId, member_id: PlayerId, body: RoleBody, player: PlayerDep,
                   clubs: ClubsDep) -> dict:
    """The owner makes a member an admin or an admin a member."""
    return await clubs.set_role(player, club_id, member_id, body.role)


# -- invites ----------------------------------------------------------------------------------


@router.post("/{club_id}/invites", status_code=201, response_model=InvitePublic, responses=responses(*ADMIN))
async def create_invite(club_id: ClubId, player: PlayerDep, clubs: ClubsDep, request: Request) -> dict:
    """A new invite link (``/club/join/{token}``), good until revoked."""
    return with_url(await clubs.create_invite(player, club_id), request)


@router.get("/{club_id}/invites", response_model=list[InvitePublic], responses=responses(*ADMIN))
async def invites(club_id: ClubId, player: PlayerDep, clubs: ClubsDep, request: Request) -> list[dict]:
    return [with_url(x, request) for x in await clubs.invites(player, club_id)]


@router.delete("/{club_id}/invites/{invite_id}", status_code=204, responses=responses(*ADMIN, UnknownInvite))
async def revoke_invite(club_id: ClubId, invite_id: InviteId, player: PlayerDep, clubs: ClubsDep) -> Response:
    await clubs.revoke_invite(player, club_id, invite_id)
    return Response(status_code=204)


# -- presets ----------------------------------------------------------------------------------

PRESET_ERRORS = (*ADMIN, BadName, BadVariant, BadOptions, PresetNameTaken)


@router.get("/{club_id}/presets", response_model=list[PresetPublic], responses=responses(*SEEN))
async def presets(club_id: ClubId, player: PlayerDep, clubs: ClubsDep) -> list[dict]:
    return await clubs.presets(player, club_id)


@router.post("/{club_id}/presets", status_code=201, response_model=PresetPublic,
             responses=responses(*PRESET_ERRORS, body=True))
async def create_preset(club_id: ClubId, body: PresetBody, player: PlayerDep, clubs: ClubsDep) -> dict:
    return await clubs.save_preset(player, club_id, None, body.name, body.variant, body.options,
                                   body.room.model_dump())


@router.put("/{club_id}/presets/{preset_id}", response_model=PresetPublic,
            responses=responses(*PRESET_ERRORS, UnknownPreset, body=True))
async def replace_preset(club_id: ClubId, preset_id: PresetId, body: PresetBody, player: PlayerDep,
                         clubs: ClubsDep) -> dict:
    """Replace the preset whole; rooms opened from it keep their own copy."""
    return await clubs.save_preset(player, club_id, preset_id, body.name, body.variant, body.options,
                                   body.room.model_dump())


@router.delete("/{club_id}/presets/{preset_id}", status_code=204, responses=responses(*ADMIN, UnknownPreset))
async def delete_preset(club_id: ClubId, preset_id: PresetId, player: PlayerDep, clubs: ClubsDep) -> Response:
    await clubs.delete_preset(player, club_id, preset_id)
    return Response(status_code=204)


# -- seasons ----------------------------------------------------------------------------------


@router.get("/{club_id}/seasons", response_model=list[SeasonBrief], responses=responses(*SEEN))
async def seasons(club_id: ClubId, player: PlayerDep, clubs: ClubsDep) -> list[dict]:
    return await clubs.seasons(player, club_id)


@router.post("/{club_id}/seasons", status_code=201, response_model=SeasonPublic,
             responses=responses(*ADMIN, BadName, BadSeason, body=True))
async def create_season(club_id: ClubId, body: SeasonCreate, player: PlayerDep, clubs: ClubsDep) -> dict:
    """A season; the club's matches already ended within its dates count at once."""
    return await clubs.create_season(player, club_id, body.model_dump())


@router.get("/{club_id}/seasons/{season_id}", response_model=SeasonPublic, responses=responses(*SEEN, UnknownSeason))
async def season(club_id: ClubId, season_id: SeasonId, player: PlayerDep, clubs: ClubsDep) -> dict:
    return await clubs.season(player, club_id, season_id)


@router.post("/{club_id}/seasons/{season_id}/close", response_model=SeasonPublic,
             responses=responses(*ADMIN, UnknownSeason, SeasonClosed))
async def close_season(club_id: ClubId, season_id: SeasonId, player: PlayerDep, clubs: ClubsDep) -> dict:
    """No more matches count; the winners are kept on the club page."""
    return await clubs.close_season(player, club_id, season_id)


@router.get("/{club_id}/seasons/{season_id}/table.csv", response_class=Response,
            responses={200: {"content": {"text/csv": {}}}, **responses(*SEEN, UnknownSeason)})
async def season_csv(club_id: ClubId, season_id: SeasonId, player: PlayerDep, clubs: ClubsDep) -> Response:
    """The season's table as CSV (rank, player, name, matches, points, wins, average_place, qualified)."""
    text, _ = await clubs.season_csv(player, club_id, season_id)
    return Response(text, media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="kozyr-club-{club_id}-season-{season_id}.csv"'})

