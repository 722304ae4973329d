"""Dependencies shared by the routes: the server state and the caller's player."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Request
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool

from ..db import models as m
from ..db.errors import BadToken, RateLimited, UnknownRoom
from ..rooms.service import Kozyr
from .schemas import KEY


def get_kozyr(request: Request) -> Kozyr:
    return request.app.state.kozyr


KozyrDep = Annotated[Kozyr, Depends(get_kozyr)]


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


async def current_player(kozyr: KozyrDep, token: TokenDep) -> m.Player:
    if not token:
        raise BadToken("a player token is needed (Authorization: Bearer <token> or X-Player-Token)")
    player = await run_in_threadpool(kozyr.history.player_by_token, token)
    if player is None:
        raise BadToken("unknown player token")
    return player


async def room_code(code: Annotated[str, Path(min_length=1, max_length=64, pattern=KEY, description="a room's code")],
                    request: Request, kozyr: KozyrDep) -> str:
    """The room's stored code for the ``{code}`` of the path (exact, then upper-cased);
    404 ``unknown_room``, or 429 ``rate_limited`` after too many unknown codes from the
    caller's address (limits.CodeGuard)."""
    return await kozyr.rooms.resolve_code(code, client_address(request))


def client_address(conn) -> str:
    return conn.client.host if conn.client is not None else "?"


RoomCode = Annotated[str, Depends(room_code)]
# What the dependencies may raise (for errors.responses): the caller's token, the {code}.
AUTH = (BadToken,)
ROOM = (UnknownRoom, RateLimited)
PlayerDep = Annotated[m.Player, Depends(current_player)]
