"""One Web Push message to one subscription: the payload encrypted for the
subscription's keys (RFC 8291, ``aes128gcm`` content coding, by http-ece), a VAPID
JWT for the push service's origin (RFC 8292, by py-vapid: ``Authorization: vapid
t=<jwt>, k=<public key>``), POSTed with httpx.  pywebpush does the same with two
HTTP stacks of its own (requests and aiohttp); the server already has httpx."""

from __future__ import annotations

import asyncio
import os
import time
from urllib.parse import urlsplit

import http_ece
import httpx
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02
from py_vapid.utils import b64urldecode

#: A VAPID JWT is made for this long and reused for most of it (one signature per push
#: service an hour, not one per push).
JWT_SECONDS = 12 * 3600
JWT_REUSE = 3600
#: Pushes in flight at once (more wait their turn here: httpx's pool grows slow with a
#: long queue of its own).
IN_FLIGHT = 8


def encrypt(payload: bytes, p256dh: str, auth: str) -> bytes:
    """``payload`` as the subscription's browser alone can read it (RFC 8291): a fresh
    sender key pair and salt each time; the body carries the sender's public key."""
    sender = ec.generate_private_key(ec.SECP256R1())
    return http_ece.encrypt(payload, salt=os.urandom(16), private_key=sender,
                            dh=b64urldecode(p256dh.encode()), auth_secret=b64urldecode(auth.encode()),
                            version="aes128gcm")


def audience(endpoint: str) -> str:
    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{parts.netloc}"


class WebPush:
    def __init__(self, vapid: Vapid02, subject: str, timeout: float, ttl: int) -> None:
        self.vapid = vapid
        self.subject = subject
        self.ttl = ttl
        self.client = httpx.AsyncClient(timeout=timeout, limits=httpx.Limits(
            max_connections=IN_FLIGHT, max_keepalive_connections=IN_FLIGHT))
        self.slots = asyncio.Semaphore(IN_FLIGHT)
        self._jwts: dict[str, tuple[float, str]] = {}  # audience -> (reuse until, Authorization)

    def authorization(self, endpoint: str) -> str:
        aud = audience(endpoint)
        now = time.time()
        hit = self._jwts.get(aud)
        if hit is None or hit[0] <= now:
            header = self.vapid.sign({"sub": self.subject, "aud": aud, "exp": int(now) + JWT_SECONDS})
            hit = self._jwts[aud] = (now + JWT_REUSE, header["Authorization"])
        return hit[1]

    async def send(self, sub: dict, payload: bytes, *, urgency: str = "normal", topic: str | None = None) -> httpx.Response:
        """POST ``payload`` to ``sub`` ({endpoint, p256dh, auth}); the push service's answer
        (httpx errors for no answer at all)."""
        headers = {"Authorization": self.authorization(sub["endpoint"]), "Content-Encoding": "aes128gcm",
                   "Content-Type": "application/octet-stream", "TTL": str(self.ttl), "Urgency": urgency}
        if topic:
            headers["Topic"] = topic
        async with self.slots:
            body = encrypt(payload, sub["p256dh"], sub["auth"])
            return await self.client.post(sub["endpoint"], content=body, headers=headers)

    async def close(self) -> None:
        await self.client.aclose()
