"""Sign-in on another device: a personal one-time link (and its QR code) from the
player's page; opening it on another device makes that device the same player.  Or,
for people who don't keep links, a name + passphrase set on the player's page
(argon2id, argon2-cffi), tried on the sign-in page: failures are limited per client
address (as for links) and per name (app/db/accounts.py claim_attempt)."""

from __future__ import annotations

import io
from datetime import timedelta
from typing import Annotated

import segno
from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field, field_validator
from starlette.concurrency import run_in_threadpool

from ..db import accounts
from ..db.errors import RateLimited
from ..db.store import token_hash
from ..errors import responses
from ..limits import CodeGuard, address_guard
from ..rooms.text import clean_name
from .deps import AUTH, KozyrDep, PlayerDep, TokenDep, client_address
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


def guard(request: Request) -> CodeGuard:
    """Failed sign-ins per client address (one guard per application)."""
    settings = request.app.state.kozyr.settings
    return address_guard(request.app.state, "sign_in_guard", settings.sign_in_burst, settings.sign_in_per_minute,
                         "too many failed sign-ins from your address; wait a minute")


def secret_of(link: str) -> str:
    """The secret of ``.../#/signin/<secret>`` (or the bare secret)."""
    return link.strip().rsplit("/", 1)[-1]


@router.post("/api/players/me/sign-in-link", response_model=SignInLinkOut, status_code=201, responses=responses(*AUTH))
async def new_sign_in_link(player: PlayerDep, kozyr: KozyrDep, request: Request) -> dict:
    """A new personal sign-in link (the older one stops working)."""
    lifetime = timedelta(minutes=kozyr.settings.sign_in_link_minutes)

    def make() -> tuple[str, str]:
        with kozyr.db.write() as s:
            secret, expires = accounts.new_link(s, player.id, lifetime)
            return secret, expires.isoformat()
    secret, expires = await run_in_threadpool(make)
    base = kozyr.settings.public_url or str(request.base_url)
    url = f"{base.rstrip('/')}/#/signin/{secret}"
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, border=2, xmldecl=False, svgns=True,
                                    title="Kozyr sign-in link")
    return {"url": url, "qr_svg": out.getvalue().decode(), "expires_at": expires}


@router.get("/api/players/me/sign-in-link", response_model=SignInLinkState | None, responses=responses(*AUTH))
async def sign_in_link_state(player: PlayerDep, kozyr: KozyrDep) -> dict | None:
    """The newest link's state (never its secret)."""
    def read() -> dict | None:
        with kozyr.db.read() as s:
            return accounts.link_state(s, player.id)
    return await run_in_threadpool(read)


@router.post("/api/sign-in", response_model=PlayerWithToken,
             responses=responses(accounts.SignInLinkRefused, RateLimited, body=True))
async def sign_in(body: SignIn, kozyr: KozyrDep, request: Request) -> dict:
    """Spend a sign-in link: this device's own token of the link's player.  422
    ``sign_in_link_refused`` for an unknown / used / replaced / expired link; 429
    ``rate_limited`` after ``KOZYR_SIGN_IN_BURST`` failures from one address."""
    limits, addr = guard(request), client_address(request)
    limits.check(addr)

    def spend() -> dict:
        with kozyr.db.write() as s:
            player, token = accounts.use_link(s, secret_of(body.link))
            return {"id": player.id, "name": player.name, "token": token}
    try:
        return await run_in_threadpool(spend)
    except accounts.SignInLinkRefused:
        limits.miss(addr)
        raise


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
async def set_passphrase(body: PassphraseIn, player: PlayerDep, kozyr: KozyrDep) -> dict:
    """Sign in elsewhere by this name and passphrase (replaces the old ones); 409
    ``login_taken`` if another player has the name."""
    digest = await kozyr.hashing.hash(body.passphrase)  # on threads of its own (app/hashing.py)

    def save() -> dict:
        with kozyr.db.write() as s:
            return accounts.set_passphrase(s, player.id, body.login, digest)
    return await run_in_threadpool(save)


@router.get("/api/players/me/passphrase", response_model=PassphraseState | None, responses=responses(*AUTH))
async def passphrase_state(player: PlayerDep, kozyr: KozyrDep) -> dict | None:
    """The player's sign-in name, if he set a passphrase (never the passphrase)."""
    def read() -> dict | None:
        with kozyr.db.read() as s:
            return accounts.passphrase_state(s, player.id)
    return await run_in_threadpool(read)


@router.delete("/api/players/me/passphrase", status_code=204, responses=responses(*AUTH))
async def remove_passphrase(player: PlayerDep, kozyr: KozyrDep) -> Response:
    def write() -> bool:
        with kozyr.db.write() as s:
            return accounts.remove_passphrase(s, player.id)
    await run_in_threadpool(write)
    return Response(status_code=204)


@router.post("/api/sign-in/passphrase", response_model=PlayerWithToken,
             responses=responses(accounts.SignInRefused, RateLimited, body=True))
async def sign_in_by_passphrase(body: PassphraseSignIn, kozyr: KozyrDep, request: Request) -> dict:
    """A name and passphrase → this device's own token of that player.  422
    ``sign_in_refused`` for a wrong pair (an unknown name looks the same and takes as
    long); 429 ``rate_limited`` after ``KOZYR_SIGN_IN_BURST`` failures from one address,
    or while the name is locked (``KOZYR_PASSPHRASE_TRIES`` wrong in a row)."""
    limits, addr = guard(request), client_address(request)
    limits.check(addr)
    settings = kozyr.settings
    lock = timedelta(seconds=settings.passphrase_lock_seconds)

    def claim() -> tuple[int, str] | None:
        with kozyr.db.write() as s:  # counted before the check (accounts.claim_attempt)
            return accounts.claim_attempt(s, body.login, settings.passphrase_tries, lock)

    def signed_in(player_id: int, renewed: str | None) -> dict:
        with kozyr.db.write() as s:
            token = accounts.passphrase_ok(s, player_id, renewed)
            return {**accounts.player_public(s, player_id), "token": token}
    try:
        claimed = await run_in_threadpool(claim)
        # argon2 on threads of its own (app/hashing.py); an unknown name takes as long
        right, renewed = await kozyr.hashing.check(claimed[1] if claimed else None, body.passphrase)
        if not right or claimed is None:
            raise accounts.SignInRefused(accounts.REFUSED)
        return await run_in_threadpool(signed_in, claimed[0], renewed)
    except accounts.SignInRefused:
        limits.miss(addr)
        raise
    except RateLimited:
        limits.miss(addr)
        raise


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
async def my_devices(player: PlayerDep, kozyr: KozyrDep, device: DeviceDep) -> list[dict]:
    """The player's signed-in devices, oldest first (no token is ever shown)."""
    def read() -> list[dict]:
        with kozyr.db.read() as s:
            return accounts.devices(s, player.id, device)
    return await run_in_threadpool(read)


async def _sign_out(kozyr, player_id: int, device_id: int | None, keep: str | None) -> int:
    def write() -> list[str]:
        with kozyr.db.write() as s:
            return accounts.sign_out(s, player_id, device_id, keep)
    gone = await run_in_threadpool(write)
    await kozyr.signed_out(gone)  # cached look-ups and open sockets, here and in other processes
    return len(gone)


@router.delete("/api/players/me/devices/{device_id:int}", status_code=204,  # :int: not .../sign-out-others
               responses=responses(*AUTH, accounts.UnknownDevice))
async def sign_out_device(player: PlayerDep, kozyr: KozyrDep, device_id: Annotated[int, Path(ge=1, le=MAX_ID)]) -> Response:
    """Sign that device out: its token stops working, its open sockets close (4403).
    404 ``unknown_device`` if the player has no such device."""
    await _sign_out(kozyr, player.id, device_id, None)
    return Response(status_code=204)


@router.post("/api/players/me/devices/sign-out-others", response_model=SignedOut, responses=responses(*AUTH))
async def sign_out_other_devices(player: PlayerDep, kozyr: KozyrDep, device: DeviceDep) -> dict:
    """Sign out every device of the player but the one asking."""
    return {"signed_out": await _sign_out(kozyr, player.id, None, device)}

