"""Request and response models of the REST API, the one error body (Problem) and the
bounds of every integer the API takes (ids fit the databases' 32-bit columns)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    JsonValue,
    StrictBool,
)
from pydantic.config import JsonDict

from engine import VARIANTS, find_variant
from engine.bots import LEVELS

MAX_ID = 2**31 - 1  # ids are 32-bit integers in both databases
MAX_COUNT = 2**31 - 1  # offsets and other counts: far past any table, far inside SQLite's 64 bits
SEAT_COUNTS = sorted({n for v in VARIANTS for n in find_variant(v).seat_counts})
MAX_SEAT = SEAT_COUNTS[-1] - 1
VARIANT_IDS = list(VARIANTS)
FAMILIES = sorted({find_variant(v).family for v in VARIANTS})
BOT_LEVELS = list(LEVELS)
MAX_SEED = 2**63 - 1
MATCH_STATUSES = ["playing", "finished", "abandoned"]
KEY = r"^[A-Za-z0-9_-]+$"  # room codes and match ids, old and new (url-safe, no NUL for PostgreSQL)


def enum(values: Iterable[str]) -> JsonDict:
    """``json_schema_extra`` of a text field documented with its known values (an OpenAPI
    enum); the check stays where the rule lives (the engine), which answers its own
    error code for other values."""
    known: list[JsonValue] = list(values)
    return {"enum": known}


def one_of(values: Iterable[str], description: str) -> Any:
    return Field(description=description, json_schema_extra=enum(values))


def known(values: Iterable[str]) -> AfterValidator:
    """A validator refusing (422 invalid_request) text not among ``values``: for
    parameters no other rule checks (a family in a path)."""
    allowed = frozenset(values)

    def check(value: str) -> str:
        if value not in allowed:
            raise ValueError(f"one of {', '.join(sorted(allowed))}")
        return value
    return AfterValidator(check)


def _iso_only(value: object) -> object:
    """Pydantic also reads a number as a Unix time; the API takes ISO 8601 only."""
    if isinstance(value, int | float) or (isinstance(value, str) and _is_number(value)):
        raise ValueError("an ISO 8601 date-time, e.g. 2026-01-31T18:00:00Z")
    return value


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


class FieldError(BaseModel):
    loc: list[str | int] = Field(description="where: body / query / path / header, then the field")
    msg: str
    type: str


class Problem(BaseModel):
    """Every error answer of the API: what went wrong for a person, and a stable ``code``."""

    detail: str = Field(description="what went wrong, for a person")
    code: str = Field(description="stable, for programs: e.g. unknown_room, seat_taken, invalid_request")
    errors: list[FieldError] | None = Field(None, description="422 invalid_request: each field refused")


class PlayerCreate(BaseModel):
    name: str = Field(max_length=200,
                      description="display name: 1-40 characters after trimming, any script, "
                                  "no control characters (422 invalid_name)")


class PlayerPublic(BaseModel):
    id: int
    name: str


class PlayerMe(PlayerPublic):
    away_until: str | None = Field(None, description="away (a vacation) until then: the deadlines of "
                                   "my seats in turn-based rooms pause, each room up to its vacation_days")


def _time_as_text(value: object) -> object:
    """A time comes as RFC 3339 text (as the OpenAPI says), never a number."""
    if value is not None and not isinstance(value, str):
        raise ValueError("a time is written as text with its zone, e.g. 2027-01-01T18:00:00Z")
    return value


AwareTime = Annotated[AwareDatetime, BeforeValidator(_time_as_text)]  # RFC 3339 text with its zone


class Away(BaseModel):
    until: Annotated[AwareDatetime | None, BeforeValidator(_time_as_text)] = Field(description="away until (a time with its zone; at most 365 days "
                                        "ahead are kept); null or a time past: back now")


class PlayerWithToken(PlayerPublic):
    token: str = Field(description="keep it secret: it proves who may act for a seat")


class VariantPublic(BaseModel):
    id: str
    family: str
    name: str
    seat_counts: list[int]
    options: list[dict[str, Any]]


PACE = "live: everyone at the table together; turn: turn-based, each move has move_seconds"
MOVE = "a turn-based room's time for a move, in seconds (300 ... 604800); default: KOZYR_MOVE_SECONDS (24 h)"
ON_DEADLINE = ("a turn-based move's time passed: bot: the seat's bot plays that one move (the seat "
               "stays the player's); wait: the match waits for him (the host may let a bot play)")
VACATION = "the longest vacation (days) of a player that holds a deadline of this room"
MOVE_SECONDS = (300, 604800)
COACH = ("the coach: any seated player may ask for a hint at his turn (the strong bot's choice "
         "with a reason), and everyone sees the coach is on; never in a rated room (422 coach_in_rated_room)")


class RoomDefaults(BaseModel):
    """The room form's fields besides the rules (a club preset keeps them as its room
    defaults)."""

    seats: int | None = Field(None, ge=SEAT_COUNTS[0], le=SEAT_COUNTS[-1],
                              description="seat count, one of the variant's seat_counts; default: its first")
    take_seat: StrictBool = Field(True, description="the host takes seat 0")
    takeover_seconds: float | None = Field(
        None, ge=0, le=86400, description="a bot plays for a player who has not acted this long "
        "(until the player's own committed action or `back`; a reconnect alone does not end it); 0: never; default: the server's KOZYR_TURN_TIMEOUT")
    rated: StrictBool = Field(False, description="finished matches move the players' ratings (app/ratings.py)")
    takeback: Literal["off", "agree"] | None = Field(
        None, description="take-backs: off, or by agreement of every other person seated; "
        "default: agree, but off in a rated room")
    abandoned: Literal["counts", "ignored"] = Field(
        "ignored", description="a match the host stops before its end: counts for standings and "
        "ratings as it stood, or is ignored")
    pace: Literal["live", "turn"] = Field("live", description=PACE)
    move_seconds: float | None = Field(None, ge=MOVE_SECONDS[0], le=MOVE_SECONDS[1], description=MOVE)
    on_deadline: Literal["bot", "wait"] = Field("bot", description=ON_DEADLINE)
    vacation_days: int = Field(14, ge=0, le=60, description=VACATION)
    coach: bool = Field(False, description=COACH)


class RoomCreate(RoomDefaults):
    variant: str | None = Field(None, description="a variant id (GET /api/variants); needed unless "
                                "`preset` gives it", json_schema_extra=enum(VARIANT_IDS))
    options: dict[str, Any] | None = Field(None, description="the variant's options (GET /api/variants; "
                                                            "422 invalid_options)")
    preset: int | None = Field(None, ge=1, le=MAX_ID, description=(
        "a club preset's id (the caller a member of its club): the room copies its variant, options "
        "and room defaults (fields given here override the defaults; variant and options must not "
        "be given: 422 preset_fixes_rules)"))


class ClubRef(BaseModel):
    id: int
    name: str


class OptionChange(BaseModel):
    option: str
    value: Any = Field(description="the room's value")
    default: Any = Field(description="the variant's default")


class PresetRef(BaseModel):
    """The club preset a room was opened from: its name as copied then, and what the
    room's options change from the variant's defaults (data; the client words it)."""

    name: str = Field(description="as it was when the room was opened (the room keeps its copy)")
    club: ClubRef | None
    differs: list[OptionChange]


class SeatPublic(BaseModel):
    seat: int
    player: int | None
    name: str | None
    connected: bool
    is_bot: bool = False
    level: str | None = Field(None, description="the bot's level when is_bot")
    bot_key: str | None = Field(None, description='a bot\'s "<level>-<slot>", e.g. basic-2; null: a person')
    takeover: bool = Field(False, description="a bot plays for the absent player now")


class HostPublic(BaseModel):
    id: int
    name: str
    bot_key: str | None = None


class RoomMatch(BaseModel):
    id: str
    number: int
    status: str
    version: int


class RoomPublic(BaseModel):
    code: str
    variant: str
    variant_name: str
    family: str
    options: dict[str, Any]
    seat_count: int
    host: HostPublic
    seats: list[SeatPublic]
    status: str = Field(description="waiting | playing | finished | abandoned")
    match: RoomMatch | None
    invite_path: str
    invite_url: str | None = None
    created_at: str
    takeover_seconds: float | None = None
    rated: bool = False
    takeback: str = "agree"
    abandoned: str = "ignored"
    pace: str = Field("live", description=PACE)
    move_seconds: float | None = Field(None, description=MOVE)
    on_deadline: str = Field("bot", description=ON_DEADLINE)
    vacation_days: int = Field(14, description=VACATION)
    coach: bool = Field(False, description=COACH)
    preset: PresetRef | None = Field(None, description="a club's room: the preset it was opened from")


class BotSeat(BaseModel):
    level: str = Field("basic", description="a bot level (GET /api/bots)", json_schema_extra=enum(BOT_LEVELS))


class RoomSettings(BaseModel):
    """Only the fields given change."""
    takeover_seconds: float | None = Field(None, ge=0, le=86400, description="a live room's turn "
                                           "timeout before a bot takes over; None / 0: off")
    pace: Literal["live", "turn"] | None = Field(None, description=PACE)
    move_seconds: float | None = Field(None, ge=MOVE_SECONDS[0], le=MOVE_SECONDS[1], description=MOVE)
    on_deadline: Literal["bot", "wait"] | None = Field(None, description=ON_DEADLINE)
    vacation_days: int | None = Field(None, ge=0, le=60, description=VACATION)
    coach: bool | None = Field(None, description=COACH)


class BotLevel(BaseModel):
    level: str
    name: str
    description: str


class StartMatch(BaseModel):
    seed: int | None = Field(None, ge=0, le=MAX_SEED,
                             description="testing aid; ignored unless the server allows it")


class ChatPublic(BaseModel):
    id: int
    player: int
    name: str
    seat: int | None
    text: str
    time: str


class MatchPlayerPublic(BaseModel):
    seat: int
    player: int
    name: str
    bot_key: str | None = None


class MatchResult(BaseModel):
    """The engine's ``result()`` of a finished match (or the running totals of one the
    host stopped), with the family's own keys (goal, kings, titles, relative ...)."""

    model_config = ConfigDict(extra="allow")
    totals: list[int | float] = Field(default_factory=list, description="per seat")
    winners: list[int] = Field(default_factory=list, description="the seats that won (none when stopped)")
    places: list[int] = Field(
        default_factory=list,
        description="per seat, 1 = first: the engine's places, the family's tie rules applied "
                    "(T-29, M-29, K-14, R-4); equal totals share a place where the rules say "
                    "nothing (1, 2, 2, 4). A stopped match: by its running totals")


class MatchSummary(BaseModel):
    id: str
    room: str
    number: int
    variant: str
    options: dict[str, Any]
    seats: list[MatchPlayerPublic]
    status: str
    version: int
    result: MatchResult | None
    created_at: str
    finished_at: str | None
    preset: str | None = Field(None, description="the club preset's name its room was opened from")
    coached: bool = Field(False, description="played with the coach on: its finished deals have the coach's review")


class MyGame(MatchSummary):
    """A running match of mine: whose turn it is and since when."""
    to_act: list[int] = Field(description="the seats the match waits for")
    my_turn: bool = Field(description="one of my seats is among them")
    since: str = Field(description="when the latest action was made (the start before the first)")
    muted: bool = Field(description="I muted its room: listed, not counted on the badge")
    pace: str = Field("live", description="the room's pace: live | turn")
    due: str | None = Field(None, description="when the awaited seat's time passes (null: no clock, or paused)")
    expired: bool = Field(False, description="a turn-based room that waits: the awaited seat's time has passed")


class MatchDetail(MatchSummary):
    seed: int | None = Field(None, description="revealed once the match is finished")
    first_dealer: int | None = None
    scoresheet: list[dict[str, Any]]
    role_table: list[dict[str, Any]]
    deals: list[dict[str, Any]] = Field(description="every finished deal step by step (rule C-5)")
    takebacks: list[dict[str, Any]] = Field(
        default_factory=list, description="take-backs: seq, undone (its seq), seat, action, text")


class Health(BaseModel):
    ok: bool
    database: str
    variants: list[str]


class PlayerStats(BaseModel):
    player: int
    matches: int = Field(description="matches the player sat in")
    finished_matches: int
    deals: int = Field(description="finished deals the player sat in")
    declared: int = Field(description="deals the player played as declarer (Тысяча)")
    made: int = Field(description="of them, contracts made")
    mean_bid: float | None
    best_bid: int | None
    marriages: int
    titles: dict[str, int] = Field(description="Король / Król: rounds ended with each title")
    families: dict[str, Any] = Field(description="the player page's per-family ``stats`` (thousand / king / "
                                                 "korol, as GET /api/players/{id}/page) over the same matches")


# -- bounded integers of paths and queries ------------------------------------------------

Id = Annotated[int, Field(ge=1, le=MAX_ID)]
Count = Annotated[int, Field(ge=0, le=MAX_COUNT)]
Timestamp = Annotated[datetime, BeforeValidator(_iso_only)]  # ISO 8601, as the schema says
MatchKey = Annotated[str, Field(min_length=1, max_length=32, pattern=KEY)]
# the match filters of GET /api/players/me/matches and /api/rooms/{code}/matches
VariantFilter = Annotated[str, Field(json_schema_extra=enum(VARIANT_IDS)), known(VARIANT_IDS)]
StatusFilter = Annotated[str, Field(json_schema_extra=enum(MATCH_STATUSES)), known(MATCH_STATUSES)]
