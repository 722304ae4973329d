"""The one place where errors get their HTTP status (REST; the websocket route sends
the same ``code`` in an ``error`` message).  Domain errors: app/db/errors.py."""

from __future__ import annotations

from .db.errors import BadToken, Clash, DomainError, Invalid, Missing, NotAllowed, OverLimit

STATUS: dict[type[DomainError], int] = {
    BadToken: 401,
    NotAllowed: 403,
    Missing: 404,
    Clash: 409,
    Invalid: 422,
    OverLimit: 429,
}


def http_status(exc: DomainError) -> int:
    for cls in type(exc).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return 400
