"""One Settings object for the whole server; every default runs with no setup.

Environment variables: ``KOZYR_*`` (e.g. ``KOZYR_PORT=9000``), plus the
conventional ``DATABASE_URL`` and ``REDIS_URL`` read as such.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="KOZYR_", extra="ignore", populate_by_name=True)

    database_url: str = Field("sqlite:///./kozyr.db",
                              validation_alias=AliasChoices("DATABASE_URL", "KOZYR_DATABASE_URL"))
    redis_url: str | None = Field(None, validation_alias=AliasChoices("REDIS_URL", "KOZYR_REDIS_URL"))
    host: str = "127.0.0.1"
    port: int = 8000
    # permessage-deflate: smaller frames, more CPU per message; off by default
    # (views are a few KiB, and CPU is what limits how many rooms a process serves)
    ws_deflate: bool = False
    public_url: str = ""  # base of invite links; empty: taken from the request
    static_dir: str = ""  # the browser client's files; empty: static/ beside app/
    log_level: str = "INFO"
    access_log: bool = False  # a line per HTTP request (uvicorn.access; ?token= values are redacted)
    run_migrations: bool = True
    allow_fixed_seed: bool = False  # tests only: let POST /start choose the seed
    docs: bool = True  # the API's pages /docs and /redoc (/openapi.json is served either way)
    metrics_token: str = ""  # GET /metrics wants "Authorization: Bearer <this>"; empty: /metrics is 404
    # Addresses whose X-Forwarded-For / X-Forwarded-Proto are believed (comma list of IPs
    # or CIDRs, "*" for any: uvicorn's forwarded_allow_ips): the reverse proxy's.  The
    # client address of rate limits is the forwarded one only behind these.
    trusted_proxies: str = "127.0.0.1"

    # Limits
    max_message_bytes: int = 64 * 1024  # a websocket message larger than this gets too_large ...
    max_frame_bytes: int = 4 * 1024 * 1024  # ... up to this hard cap; larger ones close the socket (1009)
    # uvicorn's websocket implementation (its --ws): "websockets-sansio" answers a
    # handshake the websockets library refuses (a request line over 8 KiB: 414, a header
    # line too long: 431) at once; "websockets" (the legacy one) answers 400
    ws_impl: str = "websockets-sansio"
    # connections the kernel holds for accepting (capped by net.core.somaxconn): a storm
    # of reconnects beyond it is dropped and retried by the clients 1, 3, 7 ... s later
    backlog: int = 4096
    # the event loop uvicorn runs (its --loop): "uvloop", "asyncio" or "auto"
    event_loop: str = "uvloop"
    max_name_length: int = 40
    max_chat_length: int = 500
    chat_burst: int = 5  # chat messages allowed at once ...
    chat_per_second: float = 0.5  # ... refilled at this rate
    max_send_queue: int = 256  # a client this many messages behind is disconnected (1013)
    messages_per_second: float = 20.0  # websocket messages per connection, refilled at this rate ...
    message_burst: int = 40  # ... with this many allowed at once (excess: error rate_limited)
    flood_close_after: int = 100  # this many refused messages in a row close the socket (1008)
    max_open_rooms: int = 20  # rooms a player may host that have no finished match yet (409 too_many_rooms)
    room_lookup_burst: int = 20  # look-ups of unknown room codes per client address at once ...
    room_lookup_per_minute: float = 10.0  # ... refilled at this rate (then 429 rate_limited)
    token_cache_seconds: float = 30.0  # the player directory (REST and websocket) remembers a token's player this long
    hello_timeout: float = 10.0  # seconds to wait for the first message without ?token=
    history_cache: int = 64  # matches kept replayed for history (app/rooms/replays.py)
    gc_freeze: bool = True  # after start-up, hide long-lived objects from the collector
    gc_pace_ms: float = 100.0  # the loop collects the young and middle generations this often (app/gcpace.py); 0: CPython's counts
    gc_full_seconds: float = 600.0  # ... and every generation this often (0: only CPython's own trigger)
    stall_log_ms: float = 50.0  # log event-loop stalls and gc pauses longer than this; 0: never
    # The loop-lag watch's timer (app/metrics.py): every stall at least this long overlaps
    # a tick and is measured (shorter ones when they do).  Each wake-up of an idle loop
    # costs this machine's kind 0.1-0.25 ms of CPU, so 10 ms ticks cost 2-3% of a core.
    lag_watch_ms: float = 50.0
    # Worker threads at once (database work, sync routes; anyio's default limiter): each
    # thread running Python takes the GIL from the event loop for up to 5 ms at a time, so
    # with anyio's 40 a join storm's reads starved the loop (accepts waited seconds); 0: 40.
    worker_threads: int = 4

    # Sign-in on another device (app/api/auth.py)
    sign_in_link_minutes: float = 15.0  # a personal sign-in link works once, for this long
    sign_in_burst: int = 10  # failed sign-ins per client address at once ...
    sign_in_per_minute: float = 5.0  # ... refilled at this rate (then 429 rate_limited)
    player_create_burst: int = 20  # new players (POST /api/players) per client address at once ...
    player_create_per_minute: float = 5.0  # ... refilled at this rate (then 429 rate_limited)
    # Name + passphrase sign-in (argon2id; the defaults are argon2-cffi's, RFC 9106 low memory)
    passphrase_time_cost: int = 3
    passphrase_memory_kib: int = 65536
    # Threads of their own for argon2 (app/hashing.py; argon2-cffi releases the GIL while it
    # hashes): each hash holds passphrase_memory_kib; more sign-ins at once wait their turn
    hash_threads: int = Field(1, ge=1)
    passphrase_tries: int = 5  # wrong passphrases in a row for one name before it is locked ...
    passphrase_lock_seconds: float = 30.0  # ... this long, doubled for each further wrong one (at most 1 hour)

    # Presence across processes (with REDIS_URL; app/rooms/fanout.py)
    presence_heartbeat: float = 5.0  # seconds between a process's reports of who is connected to it
    presence_expiry: float = 15.0  # a report not renewed for this long is dropped (its process died)

    # Bots (app/rooms/bots.py)
    bots_enabled: bool = True  # the host may seat bots
    bot_delay: float = 0.6  # seconds a bot waits before it acts (0 in tests and benches)
    # seconds more a bot waits when the last card completed a trick, so people see the trick
    # held with its taker (the table holds it 1.2 s); only when bot_delay > 0
    bot_trick_pause: float = 1.2
    bot_think_ms: float = 800  # the strong bot's time budget per action (expert: 3x, engine/bots/search.py)
    # Worker processes for strong bots' thinking (app/rooms/botpool.py), started with the
    # first strong decision; default: one per two cores (the event loop keeps the other)
    bot_processes: int = Field(default_factory=lambda: max(1, (os.cpu_count() or 2) // 2), ge=1)
    takeover_level: str = "basic"  # the bot that plays for a player past the turn timeout
    turn_timeout: float = 0.0  # default of a new room's takeover_seconds; 0: no takeover
    takeback_seconds: float = 30.0  # an open take-back request expires after this long (a live room)
    # A match in memory that nobody has touched (no action, socket, note, take-back or bot)
    # for this long leaves memory; the next use loads it from its log (app/rooms/loop.py).
    # 0: matches stay in memory until they end
    match_idle_seconds: float = 600.0
    match_sweep_seconds: float = 60.0  # how often idle matches are looked for

    # The coach (app/rooms/coach.py): new hints a player may ask for at once / a minute
    coach_hint_burst: int = 5
    coach_hints_per_minute: float = 12.0
    # The coach's review of a finished deal (app/rooms/review.py): reviews worked out for
    # a player at once / a minute (a stored one is free), and each decision's rollouts
    coach_review_burst: int = 3
    coach_reviews_per_minute: float = 1.0
    coach_review_rollouts: int = 200

    # Pace and deadlines (app/rooms/deadlines.py)
    move_seconds: float = 86400.0  # a new turn-based room's deadline per move (24 h)
    deadline_poll: float = 1.0  # seconds between the sweeper's looks for due deadlines
    push_hidden_seconds: float = 60.0  # a live match's turn is pushed to a player whose pages are hidden this long
    deadline_sweeper: bool = True  # off: this process fires no deadlines (others do; tests sweep by hand)
    deadline_lease: float = 60.0  # a claimed deadline fires again after this long if its move never came
    clock_file: str | None = None  # tests only: a file holding seconds the deadline clock is moved on

    # Web Push (app/push/): the VAPID key pair is made on first start and kept in the
    # database; a private key here (base64url: the raw 32 bytes, or DER) replaces it.
    vapid_private_key: str = ""
    vapid_subject: str = "mailto:admin@localhost"  # who runs the server (mailto: or https:), sent to push services
    push_coalesce_seconds: float = Field(10.0, ge=0)  # a player's events within this long become one push ...
    push_min_interval: float = Field(60.0, ge=0)  # ... and he gets at most one push this often (the rest wait, coalesced)
    push_retries: int = Field(4, ge=0)  # a push answered 429 / 5xx / not at all is tried again this many times ...
    push_retry_seconds: float = Field(2.0, ge=0)  # ... after this long, doubled each time (or the service's Retry-After)
    push_timeout: float = Field(10.0, gt=0)  # seconds a push service has to answer
    push_ttl: int = Field(86400, ge=0)  # seconds a push service keeps a push for a device that is offline
    push_queue: int = Field(100_000, ge=1)  # events waiting to be sent at most (more: dropped and logged)
    # Email, the second channel (app/push/mail.py): smtp://[user:password@]host[:port]
    # (STARTTLS when the server offers it) or smtps://... (TLS from the start); empty: off.
    smtp_url: str = ""
    mail_from: str = "Kozyr <kozyr@localhost>"  # the From of every mail
    email_link_hours: float = Field(48.0, gt=0)  # an address's confirmation link works this long


@lru_cache
def get_settings() -> Settings:
    return Settings()  # type: ignore[call-arg]  # from the environment


def static_root(settings: Settings) -> Path:
    """The browser client's files: ``KOZYR_STATIC_DIR``, else static/ beside app/."""
    return Path(settings.static_dir) if settings.static_dir else Path(__file__).resolve().parent.parent / "static"


def sqlalchemy_url(url: str) -> str:
    """Map ``postgres(ql)://`` to the psycopg 3 driver; leave other URLs alone."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url
