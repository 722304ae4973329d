"""Errors with an HTTP status and a stable code, shared by the REST and websocket routes."""

from __future__ import annotations


class Problem(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str, *, code: str | None = None, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        if status:
            self.status = status


class NotFound(Problem):
    status, code = 404, "not_found"


class Forbidden(Problem):
    status, code = 403, "forbidden"


class Unauthorized(Problem):
    status, code = 401, "bad_token"


class Conflict(Problem):
    status, code = 409, "conflict"


class Invalid(Problem):
    status, code = 422, "invalid"
