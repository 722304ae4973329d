"""The websocket messages, as pydantic models with a ``type`` discriminator.

Client → server: ``hello`` (alias ``resume``), ``action``, ``chat``, ``ping``,
``back``, ``takeover``, ``takeback``, ``takeback_answer``, ``end_match``.
Server → client: ``welcome``, ``view``, ``delta``, ``ack``, ``error``, ``chat``,
``presence``, ``room``, ``timer``, ``takeback``, ``takeback_done``, ``pong``, ``reload``.  Every server message carries ``version``:
the number of actions applied in the room's current match (0 without one)
and ``match``, that match's id (or null).  README.md "Server" documents them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Hello(_In):
    type: Literal["hello", "resume"]
    token: str | None = Field(None, max_length=200)
    last_version: int | None = Field(None, ge=0)
    last_match: str | None = Field(None, max_length=64)
    # "delta": after an action, send what changed (``delta``) instead of the whole view
    accept: list[Annotated[str, Field(max_length=32)]] | None = Field(None, max_length=8)
    # the client's build (the /v/<build>/ its modules came from): another than the server's
    # is answered with ``reload`` after the welcome (an old cached page after a deploy)
    build: str | None = Field(None, max_length=32)


class ActionIn(_In):
    type: Literal["action"]
    client_id: str = Field(min_length=1, max_length=64)
    action: str = Field(min_length=1, max_length=200)
    version: int | None = Field(None, ge=0)  # the version the client acted on (stale → error)
    seat: int | None = None  # optional: the seat the client believes it acts for


class ChatIn(_In):
    type: Literal["chat"]
    text: str = Field(max_length=10_000)


class Ping(_In):
    type: Literal["ping"]
    nonce: str | int | None = None


class Back(_In):
    """The seat's own player takes the seat back from the bot playing for him."""
    type: Literal["back"]


class TakeoverIn(_In):
    """The host lets a bot play ``seat`` now (during a match)."""
    type: Literal["takeover"]
    seat: int = Field(ge=0, le=16)


class TakebackIn(_In):
    """Ask to take back one's own last action (app/rooms/takeback.py)."""
    type: Literal["takeback"]


class TakebackAnswer(_In):
    """Agree to or decline the open take-back request."""
    type: Literal["takeback_answer"]
    agree: bool


class EndMatch(_In):
    """The host stops the match before its end (app/rooms/abandon.py)."""
    type: Literal["end_match"]


class HintIn(_In):
    """The coach's advice for the sender's seat at his turn (a room with the coach on):
    answered with a ``hint`` message to this socket (app/rooms/coach.py)."""
    type: Literal["hint"]


class VisibilityIn(_In):
    """The page of this socket was hidden (or shown again): a live match's turn is pushed
    to a player whose pages have been hidden a while (app/rooms/play.py)."""
    type: Literal["visibility"]
    hidden: bool


ClientMessage = Annotated[Hello | ActionIn | ChatIn | Ping | Back | TakeoverIn | TakebackIn | TakebackAnswer
                          | EndMatch | VisibilityIn | HintIn,
                          Field(discriminator="type")]
client_message = TypeAdapter(ClientMessage)


class _Out(BaseModel):
    version: int
    match: str | None = None


class SeatInfo(BaseModel):
    seat: int
    player: int | None = None
    name: str | None = None
    connected: bool = False
    is_bot: bool = False
    level: str | None = None  # a bot's level
    bot_key: str | None = None  # a bot's "<level>-<slot>" (the client translates its name)
    takeover: bool = False  # a bot plays for the absent player


class Welcome(_Out):
    type: Literal["welcome"] = "welcome"
    room: str
    player: int
    name: str
    seat: int | None  # None: a spectator


class ViewMsg(_Out):
    type: Literal["view"] = "view"
    view: dict[str, Any] | None  # None: no match started yet


class Delta(_Out):
    """What changed in the view since version ``base``: ``set`` these top-level keys,
    drop the keys in ``unset`` (only to connections that accepted "delta")."""
    type: Literal["delta"] = "delta"
    base: int
    set: dict[str, Any]
    unset: list[str]


class Timer(_Out):
    """The match's clock (app/rooms/deadlines.py): ``seat`` (None: no clock runs) is
    awaited since ``since`` and has ``seconds`` left (from when the message was sent) of
    ``total``, due at ``due`` (None while ``paused``: a take-back request is open or the
    player is away); then a bot takes over (``pace`` live), or plays the move or the
    match waits (turn: ``expired`` once it has passed in a room that waits)."""
    type: Literal["timer"] = "timer"
    seat: int | None
    seconds: float | None
    total: float | None
    pace: Literal["live", "turn"] = "live"
    since: str | None = None
    due: str | None = None
    paused: bool = False
    expired: bool = False


class Ack(_Out):
    type: Literal["ack"] = "ack"
    client_id: str
    seq: int  # the action's place in the log (version before it)


class Error(_Out):
    type: Literal["error"] = "error"
    code: str
    message: str
    client_id: str | None = None


class ChatOut(_Out):
    type: Literal["chat"] = "chat"
    id: int
    player: int
    name: str
    seat: int | None
    text: str
    time: str


class Presence(_Out):
    type: Literal["presence"] = "presence"
    seats: list[SeatInfo]
    spectators: int


class RoomMsg(_Out):
    type: Literal["room"] = "room"
    room: dict[str, Any]  # the same shape as GET /api/rooms/{code}


class TakebackMsg(_Out):
    """A take-back request is open: ``asker`` wants action ``seq`` (``action`` of ``seat``)
    taken back; ``waiting``: the seats whose answer is awaited; it expires in ``expires_in`` s."""
    type: Literal["takeback"] = "takeback"
    seq: int
    action: str
    seat: int
    asker: str
    waiting: list[int]
    expires_in: float


class TakebackDone(_Out):
    type: Literal["takeback_done"] = "takeback_done"
    seq: int
    result: Literal["undone", "declined", "expired", "overtaken"]


class Pong(_Out):
    type: Literal["pong"] = "pong"
    nonce: str | int | None = None


class HintMsg(_Out):
    """The coach's advice for ``seat`` at ``version`` (only to the socket that asked):
    ``action`` is one of the seat's legal actions then; ``reason``: ``code`` and its
    facts (engine/bots/coach.py lists them; the client words them)."""
    type: Literal["hint"] = "hint"
    seat: int
    action: str
    reason: dict[str, Any]


class Reload(_Out):
    """The page's build (``hello.build``) is not the server's: it should reload."""
    type: Literal["reload"] = "reload"
    build: str


ServerMessage = Annotated[Welcome | ViewMsg | Delta | Ack | Error | ChatOut | Presence | RoomMsg
                          | Timer | TakebackMsg | TakebackDone | Pong | Reload | HintMsg,
                          Field(discriminator="type")]
#: Validates what the server sends (the server builds plain dicts for speed; tests check them).
server_message = TypeAdapter(ServerMessage)

# Error codes (``error.code``)
BAD_MESSAGE = "bad_message"  # not JSON, unknown type, missing / wrong fields
TOO_LARGE = "too_large"  # over the message size limit
BAD_TOKEN = "bad_token"  # unknown player token
UNKNOWN_ROOM = "unknown_room"
NOT_SEATED = "not_seated"  # a spectator tried to act
NOT_YOUR_SEAT = "not_your_seat"  # the action names a seat the player does not hold
NO_MATCH = "no_match"  # no match in progress
STALE = "stale"  # the action was made on an older version
ILLEGAL = "illegal"  # the engine refused the action (its reason is the message)
RATE_LIMITED = "rate_limited"
CHAT_INVALID = "chat_invalid"
COACH_OFF = "coach_off"  # a hint asked in a room without the coach
NOT_YOUR_TURN = "not_your_turn"  # a hint asked while the seat is not to act
NOT_HOST = "not_host"  # a host-only message (takeover) from somebody else
INTERNAL = "internal"
TAKEBACK_REFUSED = "takeback_refused"  # a take-back request or answer refused (the reason is the message)
TAKEBACK_OPEN = "takeback_open"  # an action while a take-back request is open: nothing applied

DELTA = "delta"  # hello.accept: this connection takes delta messages
