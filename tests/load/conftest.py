"""Fixtures of the load and fault tests: the machine's PostgreSQL (a fresh database
per session, dropped afterwards; see tests/app/conftest.py) and Redis."""

from __future__ import annotations

import pytest

from tests.app.conftest import pg_database  # noqa: F401  (a fixture)

from .procs import REDIS_URL


@pytest.fixture(scope="session")
def redis_url() -> str:
    try:
        import redis
        redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except Exception as e:  # pragma: no cover - depends on the machine
        pytest.skip(f"Redis not reachable at {REDIS_URL}: {e}")
    return REDIS_URL
