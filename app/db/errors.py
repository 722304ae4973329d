"""Domain errors: what went wrong, in the words of the rooms and matches, with a stable
``code``.  They know nothing of HTTP: app/errors.py maps them to statuses, in one place."""

from __future__ import annotations

import math


class DomainError(Exception):
    code = "error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code


# -- kinds (app/errors.py gives each an HTTP status) ----------------------------------

class Missing(DomainError):
    code = "not_found"


class Clash(DomainError):
    code = "conflict"


class NotAllowed(DomainError):
    code = "forbidden"


class Invalid(DomainError):
    code = "invalid"


class OverLimit(DomainError):
    code = "rate_limited"


class BadToken(DomainError):
    code = "bad_token"


# -- the errors themselves ---------------------------------------------------------------

class UnknownRoom(Missing):
    code = "unknown_room"


class UnknownMatch(Missing):
    code = "unknown_match"


class UnknownDeal(Missing):
    code = "unknown_deal"


class UnknownPlayer(Missing):
    code = "unknown_player"


class UnknownSeat(Missing):
    code = "not_found"


class UnknownVariant(Missing):
    code = "unknown_variant"


class SeatTaken(Clash):
    code = "seat_taken"


class MatchRunning(Clash):
    code = "match_running"


class CoachOff(Clash):
    """The coach's review of a deal: only of a match played with the coach on (issue 36)."""

    code = "coach_off"


class SeatsEmpty(Clash):
    code = "seats_empty"


class NoBot(Clash):
    code = "no_bot"


class TooManyBots(Clash):
    code = "too_many_bots"


class NotHost(NotAllowed):
    code = "not_host"


class NotYourSeat(NotAllowed):
    code = "not_your_seat"


class NotInMatch(NotAllowed):
    """Only a player of a room's last match calls its people to a new room."""

    code = "not_in_match"


class BotsDisabled(NotAllowed):
    code = "bots_disabled"


class BadVariant(Invalid):
    code = "unknown_variant"


class BadOptions(Invalid):
    code = "invalid_options"


class CoachRated(Invalid):
    """The coach gives hints: never in a rated room (issue 36)."""

    code = "coach_in_rated_room"


class BadName(Invalid):
    code = "invalid_name"


class UnknownLevel(Invalid):
    code = "unknown_level"


class TooManyRooms(Clash):
    """A cap, not a rate: it frees when one of the host's rooms finishes, not after a
    time, so it is a 409 (a 429 would have to say when to retry)."""

    code = "too_many_rooms"


class RateLimited(OverLimit):
    """``retry_after``: seconds until the limit lets a request through again (the
    ``Retry-After`` header of the 429 answer)."""

    code = "rate_limited"

    def __init__(self, message: str, *, retry_after: float, code: str | None = None) -> None:
        super().__init__(message, code=code)
        self.retry_after = max(1, math.ceil(retry_after))
