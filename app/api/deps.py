"""Dependencies shared by the routes: the parts each route uses (app/server.py builds
them; app/main.py puts them on ``app.state``) and the caller's player."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Request
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from ..clubs import Clubs
from ..config import Settings
from ..db.clubs import NotMember, PresetFixesRules, UnknownPreset
from ..db.errors import BadToken, RateLimited, UnknownRoom
from ..directory import KnownPlayer, PlayerDirectory
from ..duplicates import Duplicates
from ..pages import PlayerPages
from ..rooms.deadlines import Deadlines
from ..rooms.history import History
from ..rooms.play import Play
from ..rooms.review import DealReviews
from ..rooms.service import RoomService
from ..signin import SignIns
from .schemas import KEY


def get_settings(request: Request) -> Settings:
    return request.app.state.settings


def get_players(request: Request) -> PlayerDirectory:
    return request.app.state.players


def get_rooms(request: Request) -> RoomService:
    return request.app.state.rooms


def get_play(request: Request) -> Play:
    return request.app.state.play


def get_history(request: Request) -> History:
    return request.app.state.history


def get_pages(request: Request) -> PlayerPages:
    return request.app.state.pages


def get_sign_ins(request: Request) -> SignIns:
    return request.app.state.sign_ins


def get_deadlines(request: Request) -> Deadlines:
    return request.app.state.deadlines


def get_clubs(request: Request) -> Clubs:
    return request.app.state.clubs


def get_reviews(request: Request) -> DealReviews:
    return request.app.state.reviews


SettingsDep = Annotated[Settings, Depends(get_settings)]
PlayersDep = Annotated[PlayerDirectory, Depends(get_players)]
RoomsDep = Annotated[RoomService, Depends(get_rooms)]
PlayDep = Annotated[Play, Depends(get_play)]
HistoryDep = Annotated[History, Depends(get_history)]
PagesDep = Annotated[PlayerPages, Depends(get_pages)]
SignInsDep = Annotated[SignIns, Depends(get_sign_ins)]
DeadlinesDep = Annotated[Deadlines, Depends(get_deadlines)]
ClubsDep = Annotated[Clubs, Depends(get_clubs)]
ReviewsDep = Annotated[DealReviews, Depends(get_reviews)]


def get_duplicates(request: Request) -> Duplicates:
    return request.app.state.duplicates


DuplicatesDep = Annotated[Duplicates, Depends(get_duplicates)]


# The token's two headers, declared as OpenAPI security schemes (either one will do).
bearer = HTTPBearer(auto_error=False, description="Authorization: Bearer <player token>")
player_key = APIKeyHeader(name="X-Player-Token", auto_error=False, description="the player token")


def request_token(authorization: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)] = None,
                  x_player_token: Annotated[str | None, Depends(player_key)] = None) -> str | None:
    """The caller's token: X-Player-Token, else Authorization: Bearer (None: neither)."""
    if x_player_token:
        return x_player_token.strip()
    return authorization.credentials.strip() if authorization else None


TokenDep = Annotated[str | None, Depends(request_token)]


async def current_player(players: PlayersDep, token: TokenDep) -> KnownPlayer:
    if not token:
        raise BadToken("a player token is needed (Authorization: Bearer <token> or X-Player-Token)")
    player = await players.find(token)  # the directory's cache, as for a websocket join
    if player is None:
        raise BadToken("unknown player token")
    return player


async def room_code(code: Annotated[str, Path(min_length=1, max_length=64, pattern=KEY, description="a room's code")],
                    request: Request, rooms: RoomsDep) -> str:
    """The room's stored code for the ``{code}`` of the path (exact, then upper-cased);
    404 ``unknown_room``, or 429 ``rate_limited`` after too many unknown codes from the
    caller's address (limits.CodeGuard)."""
    return await rooms.resolve_code(code, client_address(request))


def client_address(conn) -> str:
    return conn.client.host if conn.client is not None else "?"


RoomCode = Annotated[str, Depends(room_code)]
# What the dependencies may raise (for errors.responses): the caller's token, the {code}.
AUTH = (BadToken,)
ROOM = (UnknownRoom, RateLimited)
PRESET = (UnknownPreset, NotMember, PresetFixesRules)  # a room opened from a club preset
PlayerDep = Annotated[KnownPlayer, Depends(current_player)]
