"""The one place where errors get their HTTP status (REST; the websocket route sends
the same ``code`` in an ``error`` message), and the OpenAPI ``responses`` every route
declares from the errors it may raise.  Domain errors: app/db/errors.py; the body of
every error answer: ``Problem`` (app/api/schemas.py), written by app/main.py."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from .api.schemas import Problem
from .db.errors import BadToken, Clash, DomainError, Invalid, Missing, NotAllowed, OverLimit

STATUS: dict[type[DomainError], int] = {
    BadToken: 401,
    NotAllowed: 403,
    Missing: 404,
    Clash: 409,
    Invalid: 422,
    OverLimit: 429,
}
INVALID_REQUEST = "invalid_request"  # 422: the request does not fit the OpenAPI schema
BAD_BODY = "bad_request"  # 400: a body that cannot be parsed at all (not JSON of any kind)
RETRY_AFTER = {"Retry-After": {"description": "seconds until the limit lets a request through again",
                               "schema": {"type": "integer", "minimum": 1}}}


def status_of(kind: type[DomainError]) -> int:
    for cls in kind.__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return 400


def http_status(exc: DomainError) -> int:
    return status_of(type(exc))


def http_code(status: int) -> str:
    """The ``code`` of an error answered by the framework itself (unknown path 404,
    405, 400 unparsable body, 413 ...): its reason phrase, e.g. ``method_not_allowed``."""
    try:
        return HTTPStatus(status).phrase.lower().replace(" ", "_").replace("-", "_")
    except ValueError:
        return "error"


def responses(*errors: type[DomainError], body: bool = False) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route that may raise ``errors`` (domain error classes):
    a Problem body under each of their statuses, the codes each status carries listed
    in its description; always 422 ``invalid_request`` (the request does not fit the
    schema); with ``body``, 400 ``bad_request`` (a body that cannot be parsed); 429
    with its ``Retry-After`` header."""
    codes: dict[int, list[str]] = {422: [INVALID_REQUEST]}
    if body:
        codes[400] = [BAD_BODY]
    for kind in errors:
        codes.setdefault(status_of(kind), []).append(kind.code)
    out: dict[int | str, dict[str, Any]] = {}
    for status in sorted(codes):
        entry: dict[str, Any] = {"model": Problem, "description": f"{HTTPStatus(status).phrase}; code: "
                                 + ", ".join(dict.fromkeys(codes[status]))}
        if status == 429:
            entry["headers"] = RETRY_AFTER
        out[status] = entry
    return out
