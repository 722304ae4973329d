"""Club tournaments (issue 37 item 4): routes under /api/clubs/{club_id}/tournaments.
Policy and rounds: app/tournaments.py; README "Clubs", Tournaments."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field, StrictBool, StrictInt

from ..db.clubs import NotClubAdmin, UnknownMember, UnknownPreset
from ..db.errors import BadName
from ..db.tournaments import (
    BadTournament,
    SignUpClosed,
    TournamentFull,
    TournamentOver,
    TournamentStarted,
    TournamentTooSmall,
    UnknownTournament,
)
from ..errors import responses
from ..tournaments import MAX_ENTRANTS, MAX_ROUNDS, Tournaments
from .clubs import ADMIN, MEMBER, SEEN, ClubId, PlayerId, TournamentBrief
from .deps import PlayerDep
from .schemas import MAX_ID

router = APIRouter(prefix="/api/clubs", tags=["clubs"])

TournamentId = Annotated[int, Path(ge=1, le=MAX_ID, description="a tournament's id")]


def get_tournaments(request: Request) -> Tournaments:
    return request.app.state.tournaments


TournamentsDep = Annotated[Tournaments, Depends(get_tournaments)]


class TournamentCreate(BaseModel):
    name: str = Field(min_length=1, max_length=80)
    preset: StrictInt = Field(ge=1, le=MAX_ID, description="a preset of the club: its variant, options and room "
                              "defaults are copied; its seat count is the table size")
    format: Literal["round_robin", "swiss"]
    rounds: StrictInt | None = Field(None, ge=1, le=MAX_ROUNDS, description="Swiss: needed (422 invalid_tournament); "
                                     "round robin: default a whole cycle, more repeat it")
    points: list[Annotated[StrictInt, Field(ge=0, le=1000)]] = Field(
        [3, 1, 0, 0], min_length=1, max_length=4, description="points for 1st, 2nd, ... place at a table; a bye "
        "scores 1st place's")
    entrants: list[Annotated[StrictInt, Field(ge=1, le=MAX_ID)]] = Field(
        [], max_length=MAX_ENTRANTS, description="active members of the club (404 unknown_member)")
    sign_up: StrictBool = Field(True, description="members may enter themselves until the start")


class EntrantBody(BaseModel):
    player: StrictInt = Field(ge=1, le=MAX_ID, description="an active member (an admin), or the caller himself")


class Entrant(BaseModel):
    player: int
    name: str


class TableSeat(BaseModel):
    seat: int
    player: int
    name: str
    place: int | None = Field(description="once the match has ended and counted")
    points: float | None


class TournamentTable(BaseModel):
    table: int
    room: str | None = Field(description="the room's code (null while it is being opened)")
    invite_path: str | None
    match: str | None
    status: str = Field(description="waiting | playing | finished | abandoned")
    seats: list[TableSeat]


class TournamentRound(BaseModel):
    round: int
    tables: list[TournamentTable]
    byes: list[Entrant]


class StandingRow(BaseModel):
    rank: int
    player: int
    name: str
    points: float
    matches: int
    byes: int
    wins: int
    average_place: float | None
    buchholz: float = Field(description="the points of every opponent met, summed (the Swiss tie-break)")
    head_to_head: int = Field(description="among those equal on points: tables finished ahead of them, less "
                              "behind (the round robin's tie-break)")


class Me(BaseModel):
    entrant: bool


class TournamentPublic(TournamentBrief):
    entrants: list[Entrant] = Field(description="in the entrants' order once started (the pairings start from it)")
    me: Me
    schedule: list[TournamentRound] = Field(description="the rounds opened so far, each its tables and byes")
    standings: list[StandingRow] = Field(description="README \"Clubs\", Tournaments: the tie-breaks")


T = (*SEEN, UnknownTournament)
CHANGE = (*MEMBER, NotClubAdmin, UnknownTournament, TournamentStarted)


@router.get("/{club_id}/tournaments", response_model=list[TournamentBrief], responses=responses(*SEEN))
async def tournaments(club_id: ClubId, player: PlayerDep, t: TournamentsDep) -> list[dict]:
    """The club's tournaments, newest first."""
    return await t.listing(player, club_id)


@router.post("/{club_id}/tournaments", status_code=201, response_model=TournamentPublic,
             responses=responses(*ADMIN, UnknownPreset, UnknownMember, BadName, BadTournament, body=True))
async def create_tournament(club_id: ClubId, body: TournamentCreate, player: PlayerDep, t: TournamentsDep) -> dict:
    """A new tournament (admin), open for entrants until it starts."""
    return await t.create(player, club_id, body.model_dump())


@router.get("/{club_id}/tournaments/{tournament_id}", response_model=TournamentPublic, responses=responses(*T))
async def tournament(club_id: ClubId, tournament_id: TournamentId, player: PlayerDep, t: TournamentsDep) -> dict:
    """The tournament: entrants, its rounds' tables (with their rooms) and byes, the standings."""
    return await t.get(player, club_id, tournament_id)


@router.post("/{club_id}/tournaments/{tournament_id}/entrants", response_model=TournamentPublic,
             responses=responses(*CHANGE, SignUpClosed, UnknownMember, TournamentFull, body=True))
async def add_entrant(club_id: ClubId, tournament_id: TournamentId, body: EntrantBody, player: PlayerDep,
                      t: TournamentsDep) -> dict:
    """Enter a member (an admin), or oneself where the tournament lets members sign up."""
    return await t.add_entrant(player, club_id, tournament_id, body.player)


@router.delete("/{club_id}/tournaments/{tournament_id}/entrants/{member_id}", response_model=TournamentPublic,
               responses=responses(*CHANGE, UnknownMember))
async def remove_entrant(club_id: ClubId, tournament_id: TournamentId, member_id: PlayerId, player: PlayerDep,
                         t: TournamentsDep) -> dict:
    """Take an entrant out (an admin), or withdraw oneself, before the start."""
    return await t.remove_entrant(player, club_id, tournament_id, member_id)


@router.post("/{club_id}/tournaments/{tournament_id}/start", response_model=TournamentPublic,
             responses=responses(*ADMIN, UnknownTournament, TournamentStarted, TournamentTooSmall))
async def start_tournament(club_id: ClubId, tournament_id: TournamentId, player: PlayerDep,
                           t: TournamentsDep) -> dict:
    """Start (admin): the first round's tables are opened and their matches started."""
    return await t.start(player, club_id, tournament_id)


@router.post("/{club_id}/tournaments/{tournament_id}/end", response_model=TournamentPublic,
             responses=responses(*ADMIN, UnknownTournament, TournamentOver))
async def end_tournament(club_id: ClubId, tournament_id: TournamentId, player: PlayerDep,
                         t: TournamentsDep) -> dict:
    """End early (admin): no more rounds; matches being played finish and count."""
    return await t.end(player, club_id, tournament_id)


@router.get("/{club_id}/tournaments/{tournament_id}/standings.csv", response_class=Response,
            responses={200: {"content": {"text/csv": {}}}, **responses(*T)})
async def standings_csv(club_id: ClubId, tournament_id: TournamentId, player: PlayerDep,
                        t: TournamentsDep) -> Response:
    """The standings as CSV (rank, player, name, points, matches, byes, wins, average_place,
    buchholz, head_to_head)."""
    text = await t.standings_csv(player, club_id, tournament_id)
    return Response(text, media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="kozyr-club-{club_id}-tournament-{tournament_id}.csv"'})
