"""Fixtures: every server test runs on SQLite and on the machine's PostgreSQL.

PostgreSQL: a fresh database ``kozyr_test_<random>`` per session on the server of
KOZYR_TEST_PG_URL (default postgresql://postgres@127.0.0.1:5432/test), dropped
afterwards; skipped if that server cannot be reached."""

from __future__ import annotations

import os
import secrets
from contextlib import contextmanager

import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.main import create_app

PG_URL = os.environ.get("KOZYR_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("KOZYR_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
METRICS_TOKEN = "test-metrics"  # KOZYR_METRICS_TOKEN of the tests' servers
METRICS_AUTH = {"Authorization": f"Bearer {METRICS_TOKEN}"}


def _pg_admin():
    import psycopg
    return psycopg.connect(PG_URL, autocommit=True, connect_timeout=3)


@contextmanager
def scratch_pg_database(*, fsync: bool = True):
    """A fresh PostgreSQL database ``kozyr_test_<random>`` (its URL), dropped on leaving;
    the test is skipped if the server cannot be reached."""
    try:
        admin = _pg_admin()
    except Exception as e:  # pragma: no cover - depends on the machine
        pytest.skip(f"PostgreSQL not reachable at {PG_URL}: {e}")
    name = f"kozyr_test_{secrets.token_hex(6)}"
    admin.execute(f'CREATE DATABASE "{name}"')
    if not fsync:
        admin.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
    base, _, _ = PG_URL.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


@pytest.fixture(scope="session")
def pg_database():
    """A fresh PostgreSQL database for this session (URL), dropped at the end.  Tests
    only: no fsync per commit (the server still commits before it acks; the recovery
    test kills the server process, not PostgreSQL)."""
    with scratch_pg_database(fsync=False) as url:
        yield url


@pytest.fixture(scope="session", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request, tmp_path_factory):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('db') / 'kozyr.db'}"
    return request.getfixturevalue("pg_database")


def make_settings(database_url: str, **extra) -> Settings:
    extra.setdefault("messages_per_second", 10_000.0)  # scripted clients play far faster than people
    extra.setdefault("room_lookup_burst", 1_000_000)  # one client address for every test (and fuzzing)
    extra.setdefault("player_create_burst", 1_000_000)  # ... which creates players by the hundred
    extra.setdefault("metrics_token", METRICS_TOKEN)
    # One sweeper per test that wants one: the apps of a test session share a database
    # without Redis (unlike a real deployment's processes), and a sweeper of another
    # app would fire this app's deadlines in its own memory.
    extra.setdefault("deadline_sweeper", False)
    return Settings(database_url=database_url, allow_fixed_seed=True, log_level="WARNING", **extra)


@contextmanager
def serve(database_url: str, **extra):
    """One app on ``database_url`` with ``make_settings(**extra)``: its TestClient, the
    app started and, afterwards, stopped and its database pool closed."""
    app = create_app(make_settings(database_url, **extra))
    try:
        with TestClient(app) as c:
            yield c
    finally:
        app.state.db.dispose()


@pytest.fixture(scope="session")
def client(database_url):
    with serve(database_url) as c:
        yield c


@pytest.fixture
def kozyr(client):
    return client.app.state


def serve_two(database_url: str, **extra):
    """Two apps (two server processes' worth) on one PostgreSQL and one Redis: yields
    their two TestClients; skips when Redis does not answer."""
    try:
        import redis
        redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except Exception as e:  # pragma: no cover - depends on the machine
        pytest.skip(f"Redis not reachable at {REDIS_URL}: {e}")
    apps = [create_app(make_settings(database_url, redis_url=REDIS_URL, **extra)) for _ in range(2)]
    with TestClient(apps[0]) as a, TestClient(apps[1]) as b:
        yield a, b
