"""Sign-in on another device: a personal one-time link (and its QR code) from the
player's page; opening it on another device makes that device the same player.  Or,
for people who don't keep links, a name + passphrase set on the player's page
(argon2id, argon2-cffi), tried on the sign-in page: failures are limited per client
address (as for links) and per name.  The player's devices, listed and signed out.
The work is app/signin.py's (SignIns); these are its routes."""

from __future__ import annotations

import io
from typing import Annotated

import segno
from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field, field_validator

from ..db import accounts
from ..db.errors import RateLimited
from ..db.tokens import token_hash
from ..errors import responses
from ..rooms.text import clean_name
from .deps import AUTH, PlayerDep, SettingsDep, SignInsDep, TokenDep, client_address
from .schemas import MAX_ID, PlayerWithToken

router = APIRouter(tags=["sign-in"])


class SignInLinkOut(BaseModel):
    url: str = Field(description="shown once: the secret is stored only as a hash")
    qr_svg: str = Field(description="the link as a QR code (SVG)")
    expires_at: str


class SignInLinkState(BaseModel):
    open: bool
    used: bool
    created_at: str
    expires_at: str


class SignIn(BaseModel):
    link: str = Field(max_length=2000, description="the sign-in link, or just its secret")


@router.post("/api/players/me/sign-in-link", response_model=SignInLinkOut, status_code=201, responses=responses(*AUTH))
async def new_sign_in_link(player: PlayerDep, sign_ins: SignInsDep, settings: SettingsDep,
                           request: Request) -> dict:
    """A new personal sign-in link (the older one stops working)."""
    secret, expires = await sign_ins.new_link(player.id)
    base = settings.public_url or str(request.base_url)
    url = f"{base.rstrip('/')}/#/signin/{secret}"
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, border=2, xmldecl=False, svgns=True,
                                    title="Kozyr sign-in link")
    return {"url": url, "qr_svg": out.getvalue().decode(), "expires_at": expires}


@router.get("/api/players/me/sign-in-link", response_model=SignInLinkState | None, responses=responses(*AUTH))
async def sign_in_link_state(player: PlayerDep, sign_ins: SignInsDep) -> dict | None:
    """The newest link's state (never its secret)."""
    return await sign_ins.link_state(player.id)

@router.post("/api/sign-in", response_model=PlayerWithToken,
             responses=responses(accounts.SignInLinkRefused, RateLimited, body=True))
async def sign_in(body: SignIn, sign_ins: SignInsDep, request: Request) -> dict:
    """Spend a sign-in link: this device's own token of the link's player.  422
    ``sign_in_link_refused`` for an unknown / used / replaced / expired link; 429
    ``rate_limited`` after ``KOZYR_SIGN_IN_BURST`` failures from one address."""
    return await sign_ins.use_link(body.link, client_address(request))

# -- name + passphrase ----------------------------------------------------------------------

PASSPHRASE_MIN = 10


class PassphraseIn(BaseModel):
    login: str = Field(min_length=1, max_length=200, description="the name to sign in with (unique, any case)")
    passphrase: str = Field(min_length=PASSPHRASE_MIN, max_length=200,
                            description=f"at least {PASSPHRASE_MIN} characters; stored only as an argon2 hash")

    @field_validator("login")
    @classmethod
    def clean_login(cls, v: str) -> str:
        return clean_name(v, 40, min_length=2, what="a sign-in name")  # app/rooms/text.py


class PassphraseSignIn(BaseModel):
    login: str = Field(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f\x7f]*$")
    passphrase: str = Field(min_length=1, max_length=200)


class PassphraseState(BaseModel):
    login: str
    updated_at: str


@router.put("/api/players/me/passphrase", response_model=PassphraseState,
            responses=responses(*AUTH, accounts.LoginTaken, body=True))
async def set_passphrase(body: PassphraseIn, player: PlayerDep, sign_ins: SignInsDep) -> dict:
    """Sign in elsewhere by this name and passphrase (replaces the old ones); 409
    ``login_taken`` if another player has the name."""
    return await sign_ins.set_passphrase(player.id, body.login, body.passphrase)

@router.get("/api/players/me/passphrase", response_model=PassphraseState | None, responses=responses(*AUTH))
async def passphrase_state(player: PlayerDep, sign_ins: SignInsDep) -> dict | None:
    """The player's sign-in name, if he set a passphrase (never the passphrase)."""
    return await sign_ins.passphrase_state(player.id)

@router.delete("/api/players/me/passphrase", status_code=204, responses=responses(*AUTH))
async def remove_passphrase(player: PlayerDep, sign_ins: SignInsDep) -> Response:
    await sign_ins.remove_passphrase(player.id)
    return Response(status_code=204)

@router.post("/api/sign-in/passphrase", response_model=PlayerWithToken,
             responses=responses(accounts.SignInRefused, RateLimited, body=True))
async def sign_in_by_passphrase(body: PassphraseSignIn, sign_ins: SignInsDep, request: Request) -> dict:
    """A name and passphrase → this device's own token of that player.  422
    ``sign_in_refused`` for a wrong pair (an unknown name looks the same and takes as
    long); 429 ``rate_limited`` after ``KOZYR_SIGN_IN_BURST`` failures from one address,
    or while the name is locked (``KOZYR_PASSPHRASE_TRIES`` wrong in a row)."""
    return await sign_ins.use_passphrase(body.login, body.passphrase, client_address(request))

# -- devices ---------------------------------------------------------------------------------


class Device(BaseModel):
    id: int
    created_at: str = Field(description="when the device signed in (or the player was made on it)")
    current: bool = Field(description="the device asking")


class SignedOut(BaseModel):
    signed_out: int = Field(description="how many devices were signed out")


def device_of(token: TokenDep) -> str:
    """The hash of the asking device's token (PlayerDep has checked it)."""
    return token_hash(token or "")


DeviceDep = Annotated[str, Depends(device_of)]


@router.get("/api/players/me/devices", response_model=list[Device], responses=responses(*AUTH))
async def my_devices(player: PlayerDep, sign_ins: SignInsDep, device: DeviceDep) -> list[dict]:
    """The player's signed-in devices, oldest first (no token is ever shown)."""
    return await sign_ins.devices(player.id, device)


@router.delete("/api/players/me/devices/{device_id:int}", status_code=204,  # :int: not .../sign-out-others
               responses=responses(*AUTH, accounts.UnknownDevice))
async def sign_out_device(player: PlayerDep, sign_ins: SignInsDep,
                          device_id: Annotated[int, Path(ge=1, le=MAX_ID)]) -> Response:
    """Sign that device out: its token stops working, its open sockets close (4403).
    404 ``unknown_device`` if the player has no such device."""
    await sign_ins.sign_out(player.id, device_id, None)
    return Response(status_code=204)


@router.post("/api/players/me/devices/sign-out-others", response_model=SignedOut, responses=responses(*AUTH))
async def sign_out_other_devices(player: PlayerDep, sign_ins: SignInsDep, device: DeviceDep) -> dict:
    """Sign out every device of the player but the one asking."""
    return {"signed_out": await sign_ins.sign_out(player.id, None, device)}

