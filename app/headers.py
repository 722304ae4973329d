"""Security headers on every HTTP answer of the app, set in this one middleware.

Our pages get a Content-Security-Policy that allows only our own scripts and style
sheets (no inline script, no style attribute: the client sets styles through the
CSSOM), images of our own or ``data:`` (the sign-in QR code and the icons in the CSS),
connections to our own origin (its websocket included), no plugins, no ``<base>``, forms
posted only to us, and no framing.  FastAPI's interactive docs (``/docs``, ``/redoc``,
when enabled) are pages FastAPI writes with an inline script and files from a CDN: they
get a policy of their own that allows exactly that, and nothing of ours.
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
CDN = "https://cdn.jsdelivr.net"
DOCS_CSP = "; ".join([
    "default-src 'self'",
    f"script-src 'self' 'unsafe-inline' {CDN}",
    f"style-src 'self' 'unsafe-inline' {CDN} https://fonts.googleapis.com",
    "font-src 'self' https://fonts.gstatic.com",
    "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly",
    "worker-src 'self' blob:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
COMMON = {
    "X-Content-Type-Options": "nosniff",
    # invite links carry the room code in the path: no address of ours goes anywhere
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
}


def security_headers(path: str, docs: frozenset[str] = frozenset()) -> dict[str, str]:
    """The headers of an answer to ``path``."""
    return {"Content-Security-Policy": DOCS_CSP if path in docs else CSP, **COMMON}


class SecurityHeaders:
    """Pure ASGI middleware: adds the headers to every ``http.response.start``;
    websockets pass untouched.  ``docs``: the paths that get ``DOCS_CSP``."""

    def __init__(self, app: ASGIApp, docs: Iterable[str] = ()) -> None:
        self.app = app
        self.docs = frozenset(docs)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        ours = security_headers(scope["path"], self.docs)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in ours.items():
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)
