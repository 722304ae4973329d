"""Fixtures of the load and fault tests: the machine's PostgreSQL (a fresh database
per session, dropped afterwards; see tests/app/conftest.py) and Redis, and one real
server process on SQLite per test module (``server``)."""

from __future__ import annotations

import pytest

from tests.app.conftest import pg_database  # noqa: F401  (a fixture)

from .procs import REDIS_URL, ServerProc


@pytest.fixture(scope="session")
def redis_url() -> str:
    try:
        import redis
        redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except Exception as e:  # pragma: no cover - depends on the machine
        pytest.skip(f"Redis not reachable at {REDIS_URL}: {e}")
    return REDIS_URL


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``kozyr serve`` on a fresh SQLite file, shared by the tests of one module."""
    path = tmp_path_factory.mktemp("server")
    srv = ServerProc(f"sqlite:///{path / 'kozyr.db'}", path / "server.log").start()
    yield srv
    srv.stop()
