"""One Settings object for the whole server; every default runs with no setup.

Environment variables: ``KOZYR_*`` (e.g. ``KOZYR_PORT=9000``), plus the
conventional ``DATABASE_URL`` and ``REDIS_URL`` read as such.
"""

from __future__ import annotations

from functools import lru_cache

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="KOZYR_", extra="ignore", populate_by_name=True)

    database_url: str = Field("sqlite:///./kozyr.db",
                              validation_alias=AliasChoices("DATABASE_URL", "KOZYR_DATABASE_URL"))
    redis_url: str | None = Field(None, validation_alias=AliasChoices("REDIS_URL", "KOZYR_REDIS_URL"))
    host: str = "127.0.0.1"
    port: int = 8000
    public_url: str = ""  # base of invite links; empty: taken from the request
    log_level: str = "INFO"
    run_migrations: bool = True
    allow_fixed_seed: bool = False  # tests only: let POST /start choose the seed

    # Limits
    max_message_bytes: int = 64 * 1024  # a websocket message larger than this is refused
    max_name_length: int = 40
    max_chat_length: int = 500
    chat_burst: int = 5  # chat messages allowed at once ...
    chat_per_second: float = 0.5  # ... refilled at this rate
    max_send_queue: int = 256  # a client this far behind is disconnected
    hello_timeout: float = 10.0  # seconds to wait for the first message without ?token=
    history_cache: int = 64  # finished matches kept replayed in memory

    # Bots and turn timers: placeholders for the bot worker (not used yet).
    bots_enabled: bool = False
    bot_delay: float = 0.6
    turn_timeout: float = 0.0  # 0: no timeout; else a bot takes over after this many seconds


@lru_cache
def get_settings() -> Settings:
    return Settings()


def sqlalchemy_url(url: str) -> str:
    """Map ``postgres(ql)://`` to the psycopg 3 driver; leave other URLs alone."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url
