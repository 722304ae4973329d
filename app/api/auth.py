"""Sign-in on another device: a personal one-time link (and its QR code) from the
player's page; opening it on another device makes that device the same player."""

from __future__ import annotations

import io
from datetime import timedelta

import segno
from fastapi import APIRouter, Request
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from ..db import accounts
from ..db.errors import RateLimited
from ..limits import CodeGuard
from .deps import KozyrDep, PlayerDep, client_address
from .schemas import PlayerWithToken

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
    state = request.app.state
    if getattr(state, "sign_in_guard", None) is None:
        settings = state.kozyr.settings
        state.sign_in_guard = CodeGuard(settings.sign_in_burst, settings.sign_in_per_minute)
    return state.sign_in_guard


def secret_of(link: str) -> str:
    """The secret of ``.../#/signin/<secret>`` (or the bare secret)."""
    return link.strip().rsplit("/", 1)[-1]


@router.post("/api/players/me/sign-in-link", response_model=SignInLinkOut, status_code=201)
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


@router.get("/api/players/me/sign-in-link", response_model=SignInLinkState | None)
async def sign_in_link_state(player: PlayerDep, kozyr: KozyrDep) -> dict | None:
    """The newest link's state (never its secret)."""
    def read() -> dict | None:
        with kozyr.db.read() as s:
            return accounts.link_state(s, player.id)
    return await run_in_threadpool(read)


@router.post("/api/sign-in", response_model=PlayerWithToken)
async def sign_in(body: SignIn, kozyr: KozyrDep, request: Request) -> dict:
    """Spend a sign-in link: this device's own token of the link's player.  422
    ``sign_in_link_refused`` for an unknown / used / replaced / expired link; 429
    ``rate_limited`` after ``KOZYR_SIGN_IN_BURST`` failures from one address."""
    limits, addr = guard(request), client_address(request)
    try:
        limits.check(addr)
    except RateLimited:
        raise RateLimited("too many failed sign-ins from your address; wait a minute") from None

    def spend() -> dict:
        with kozyr.db.write() as s:
            player, token = accounts.use_link(s, secret_of(body.link))
            return {"id": player.id, "name": player.name, "token": token}
    try:
        return await run_in_threadpool(spend)
    except accounts.SignInLinkRefused:
        limits.miss(addr)
        raise
