"""Web Push routes (README "Notifications"): the server's VAPID public key, this
device's push subscription, and the player's choices of what to be told and when not.
The sending is app/push/notifier.py's."""

from __future__ import annotations

import binascii
import ipaddress
from typing import Annotated, Literal
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from fastapi import APIRouter, Request, Response
from fastapi import Path as PathParam
from py_vapid.utils import b64urldecode
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from ..db.errors import Invalid, NotAllowed
from ..errors import responses
from ..push import prefs as P
from .auth import DeviceDep
from .deps import AUTH, PlayerDep

router = APIRouter(tags=["notifications"])
B64URL = r"^[A-Za-z0-9_-]+={0,2}$"
CLOCK = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"


class BadSubscription(Invalid):
    code = "invalid_subscription"


class PushKey(BaseModel):
    public_key: str = Field(description="the VAPID public key (base64url, uncompressed P-256 point): "
                                        "pushManager.subscribe's applicationServerKey")


class SubscriptionKeys(BaseModel):
    model_config = ConfigDict(extra="forbid")
    p256dh: str = Field(min_length=80, max_length=100, pattern=B64URL,
                        description="the browser's P-256 public key (base64url, 65 bytes)")
    auth: str = Field(min_length=16, max_length=32, pattern=B64URL,
                      description="the browser's authentication secret (base64url, 16 bytes)")


class SubscriptionIn(BaseModel):
    model_config = ConfigDict(extra="ignore")  # PushSubscription.toJSON() also has expirationTime
    endpoint: str = Field(min_length=12, max_length=2048, pattern=r"^https?://[^\s]+$",
                          description="the push service's URL for this browser (https; http only on this machine)")
    keys: SubscriptionKeys
    lang: Literal["ru", "pl", "en"] = Field(description="the language of this device's notifications")


class SubscriptionOut(BaseModel):
    endpoint: str
    lang: str


class Kinds(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    turn: bool = Field(description="my turn (turn-based rooms), with the deadline")
    reminder: bool = Field(description="a deadline of mine is near")
    call: bool = Field(description="a friend calls me to a new room")
    takeback: bool = Field(description="a take-back request waits for my answer")
    finished: bool = Field(description="a match of mine ended")
    chat: bool = Field(description="a message in a room's chat")
    club_event: bool = Field(description="a club event I said yes or maybe to starts within the hour, is moved or is cancelled")


class Notifications(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    kinds: Kinds
    quiet_from: Annotated[str, Field(pattern=CLOCK)] | None = Field(
        None, description="quiet hours from (HH:MM, the player's time), with quiet_to; null: none")
    quiet_to: Annotated[str, Field(pattern=CLOCK)] | None = Field(None, description="quiet hours until (HH:MM)")
    time_zone: str = Field("UTC", min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_+\-/]+$",
                           description="the IANA time zone of the quiet hours (e.g. Europe/Warsaw)")
    email: bool = Field(True, description="the same by email too, to the player's confirmed address")


def checked_subscription(body: SubscriptionIn) -> None:
    """BadSubscription unless the keys are a P-256 point and a 16-byte secret and the
    endpoint is https (http only to this machine's own addresses, for trying out)."""
    try:
        point, secret = b64urldecode(body.keys.p256dh.encode()), b64urldecode(body.keys.auth.encode())
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except (ValueError, binascii.Error):
        raise BadSubscription("keys.p256dh is not a P-256 public key (base64url of 65 bytes)") from None
    if len(point) != 65 or len(secret) != 16:
        raise BadSubscription("keys.p256dh must be 65 bytes and keys.auth 16 bytes (base64url)")
    parts = urlsplit(body.endpoint)
    if not parts.hostname:
        raise BadSubscription("endpoint is not a URL")
    if parts.scheme != "https" and not _loopback(parts.hostname):
        raise BadSubscription("endpoint must be an https URL")


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@router.get("/api/push/key", response_model=PushKey)
async def push_key(request: Request) -> dict:
    """The server's VAPID public key, for ``pushManager.subscribe({applicationServerKey})``."""
    return {"public_key": request.app.state.notifier.public_key}


@router.get("/api/players/me/push-subscriptions", response_model=SubscriptionOut | None,
            responses=responses(*AUTH))
async def my_subscription(player: PlayerDep, device: DeviceDep, request: Request) -> dict | None:
    """This device's push subscription (null: none)."""
    def read() -> dict | None:
        with request.app.state.db.read() as s:
            return P.subscribed(s, device)
    return await run_in_threadpool(read)


@router.post("/api/players/me/push-subscriptions", response_model=SubscriptionOut, status_code=201,
             responses=responses(*AUTH, BadSubscription, body=True))
async def subscribe(body: SubscriptionIn, player: PlayerDep, device: DeviceDep, request: Request) -> dict:
    """This device's push subscription (``PushSubscription.toJSON()`` plus ``lang``),
    replacing the one it had: one per device (its token).  422 ``invalid_subscription``
    for keys that are no P-256 key / 16-byte secret, or an endpoint that is not https."""
    checked_subscription(body)

    def write() -> None:
        with request.app.state.db.write() as s:
            P.subscribe(s, player.id, device, body.endpoint, body.keys.p256dh, body.keys.auth, body.lang)
    await run_in_threadpool(write)
    return {"endpoint": body.endpoint, "lang": body.lang}


@router.delete("/api/players/me/push-subscriptions", status_code=204, responses=responses(*AUTH))
async def unsubscribe(player: PlayerDep, device: DeviceDep, request: Request) -> Response:
    """No more pushes to this device (204, also when it had no subscription)."""
    def write() -> None:
        with request.app.state.db.write() as s:
            P.unsubscribe(s, device)
    await run_in_threadpool(write)
    return Response(status_code=204)


@router.get("/api/players/me/notifications", response_model=Notifications, responses=responses(*AUTH))
async def my_notifications(player: PlayerDep, request: Request) -> dict:
    """What the player is told by push, and his quiet hours (defaults until he chooses)."""
    def read() -> dict:
        with request.app.state.db.read() as s:
            return P.prefs_of(s, player.id)
    return await run_in_threadpool(read)


@router.put("/api/players/me/notifications", response_model=Notifications,
            responses=responses(*AUTH, P.BadPrefs, body=True))
async def set_notifications(body: Notifications, player: PlayerDep, request: Request) -> dict:
    """Replace the player's choices.  422 ``invalid_notifications`` for an unknown time
    zone or quiet hours with one end only (nothing is changed)."""
    def write() -> dict:
        with request.app.state.db.write() as s:
            return P.save_prefs(s, player.id, body.kinds.model_dump(), body.quiet_from, body.quiet_to,
                                body.time_zone, body.email)
    return await run_in_threadpool(write)


# -- email, the second channel (app/push/mail.py) ----------------------------------------------


class EmailDisabled(NotAllowed):
    code = "email_disabled"


class EmailIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    address: str = Field(min_length=3, max_length=254, pattern=r"^[^@\s<>,;:\"\x00-\x1f\x7f]+@[^@\s<>,;:\"\x00-\x1f\x7f]+\.[^@\s<>,;:\"\x00-\x1f\x7f]+$",
                         description="where the mails go, once confirmed by the link sent there")
    lang: Literal["ru", "pl", "en"] = Field(description="the language of the mails")


class EmailState(BaseModel):
    available: bool = Field(description="this server sends mail (KOZYR_SMTP_URL is set)")
    address: str | None = None
    verified: bool = False


class EmailLink(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=16, max_length=200, pattern=r"^[A-Za-z0-9_-]+$")


@router.get("/api/players/me/email", response_model=EmailState, responses=responses(*AUTH))
async def my_email(player: PlayerDep, request: Request) -> dict:
    """The player's address for mail (if any) and whether it is confirmed."""
    def read() -> dict | None:
        with request.app.state.db.read() as s:
            return P.email_of(s, player.id)
    found = await run_in_threadpool(read)
    return {"available": request.app.state.notifier.mailer.enabled, **(found or {})}


@router.put("/api/players/me/email", response_model=EmailState, responses=responses(*AUTH, EmailDisabled, body=True))
async def set_email(body: EmailIn, player: PlayerDep, request: Request) -> dict:
    """A new address (unconfirmed until the link mailed to it is opened; the old one is
    replaced).  403 ``email_disabled`` when the server sends no mail."""
    notifier = request.app.state.notifier
    if not notifier.mailer.enabled:
        raise EmailDisabled("this server sends no mail (KOZYR_SMTP_URL is not set)")
    base = (request.app.state.settings.public_url or str(request.base_url)).rstrip("/")
    await notifier.confirm_email(player.id, body.address, body.lang, base)
    return {"available": True, "address": body.address, "verified": False}


@router.delete("/api/players/me/email", status_code=204, responses=responses(*AUTH))
async def remove_email(player: PlayerDep, request: Request) -> Response:
    def write() -> None:
        with request.app.state.db.write() as s:
            P.remove_email(s, player.id)
    await run_in_threadpool(write)
    return Response(status_code=204)


@router.post("/api/email/verify", response_model=EmailState, responses=responses(P.EmailLinkRefused, body=True))
async def verify_email(body: EmailLink, request: Request) -> dict:
    """Confirm an address by its link's secret (422 ``email_link_refused``: unknown, used,
    replaced or expired)."""
    def write() -> dict:
        with request.app.state.db.write() as s:
            return P.verify_email(s, body.token)
    return {"available": True, **await run_in_threadpool(write)}


@router.post("/api/email/unsubscribe/{token}", status_code=204, responses=responses())
async def unsubscribe_email(token: Annotated[str, PathParam(min_length=16, max_length=200, pattern=r"^[A-Za-z0-9_-]+$")],
                            request: Request) -> Response:
    """One-click unsubscribe (RFC 8058: every mail's ``List-Unsubscribe`` and
    ``List-Unsubscribe-Post: List-Unsubscribe=One-Click``): no more mails to that
    player.  204 whatever the token (a guesser learns nothing)."""
    def write() -> bool:
        with request.app.state.db.write() as s:
            return P.unsubscribe_email(s, token)
    await run_in_threadpool(write)
    return Response(status_code=204)
