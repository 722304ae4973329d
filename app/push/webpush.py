"""One Web Push message to one subscription: the payload encrypted for the
subscription's keys (RFC 8291, ``aes128gcm`` content coding, by http-ece), a VAPID
JWT for the push service's origin (RFC 8292, by py-vapid: ``Authorization: vapid
t=<jwt>, k=<public key>``), POSTed with aiohttp's client.  (httpx, which the server
had already, cost 1.5 ms of CPU a push against aiohttp's 0.45 ms, encryption
included, measured side by side against the local push service: bench/RESULTS.md
"Web Push"; pywebpush wraps requests and aiohttp in an API of its own.)"""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import aiohttp
import http_ece
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02
from py_vapid.utils import b64urldecode

#: A VAPID JWT is made for this long and reused for most of it (one signature per push
#: service an hour, not one per push).
JWT_SECONDS = 12 * 3600
JWT_REUSE = 3600
#: Pushes in flight at once (more wait their turn here, not in the client's pool).
IN_FLIGHT = 8


class Unanswered(Exception):
    """The push service gave no answer (no connection, a timeout, a broken reply)."""


@dataclass(frozen=True)
class Answer:
    """The push service's answer: its status, its Retry-After ("" if none) and the start
    of its body (for the log)."""
    status: int
    retry_after: str
    text: str


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
    """(Made in a running event loop: the client's connections are that loop's.)"""

    def __init__(self, vapid: Vapid02, subject: str, timeout: float, ttl: int) -> None:
        self.vapid = vapid
        self.subject = subject
        self.ttl = ttl
        self.client = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=timeout),
                                            connector=aiohttp.TCPConnector(limit=IN_FLIGHT))
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

    async def send(self, sub: dict, payload: bytes, *, urgency: str = "normal", topic: str | None = None) -> Answer:
        """POST ``payload`` to ``sub`` ({endpoint, p256dh, auth}); the push service's answer
        (``Unanswered`` for none at all)."""
        headers = {"Authorization": self.authorization(sub["endpoint"]), "Content-Encoding": "aes128gcm",
                   "Content-Type": "application/octet-stream", "TTL": str(self.ttl), "Urgency": urgency}
        if topic:
            headers["Topic"] = topic
        async with self.slots:
            body = encrypt(payload, sub["p256dh"], sub["auth"])
            try:
                async with self.client.post(sub["endpoint"], data=body, headers=headers) as r:
                    text = await r.text(errors="replace")  # read whole: the connection is kept for the next
                    return Answer(r.status, r.headers.get("Retry-After", ""), text[:200])
            except (aiohttp.ClientError, TimeoutError) as e:
                raise Unanswered(type(e).__name__) from e

    async def close(self) -> None:
        await self.client.close()
