"""Migrations: run at start-up, idempotent, and safe when two processes start at once."""

from __future__ import annotations

import secrets
import threading

import pytest
from alembic import command
from sqlalchemy import create_engine, inspect

from app.config import sqlalchemy_url
from app.db.migrate import alembic_config, upgrade

from .conftest import PG_URL, _pg_admin

TABLES = {"players", "rooms", "seats", "matches", "match_players", "actions", "score_rows",
          "role_rows", "chat_messages"}


def test_postgres_urls_use_psycopg3():
    assert sqlalchemy_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert sqlalchemy_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert sqlalchemy_url("sqlite:///x.db") == "sqlite:///x.db"


def test_sqlite_upgrade_downgrade_upgrade(tmp_path):
    engine = create_engine(f"sqlite:///{tmp_path / 'm.db'}")
    upgrade(engine)
    upgrade(engine)  # a second start changes nothing
    assert TABLES <= set(inspect(engine).get_table_names())
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "base")
    assert not TABLES & set(inspect(engine).get_table_names())
    upgrade(engine)
    assert TABLES <= set(inspect(engine).get_table_names())
    engine.dispose()


@pytest.mark.postgres
def test_two_processes_migrating_at_once_on_postgres():
    try:
        admin = _pg_admin()
    except Exception as e:  # pragma: no cover
        pytest.skip(f"PostgreSQL not reachable: {e}")
    name = f"kozyr_test_{secrets.token_hex(6)}"
    admin.execute(f'CREATE DATABASE "{name}"')
    url = sqlalchemy_url(f"{PG_URL.rpartition('/')[0]}/{name}")
    engines = [create_engine(url) for _ in range(3)]
    errors: list[BaseException] = []

    def run(engine):
        try:
            upgrade(engine)
        except BaseException as e:  # pragma: no cover - the failure we look for
            errors.append(e)

    try:
        threads = [threading.Thread(target=run, args=(e,)) for e in engines]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not errors, errors
        assert TABLES <= set(inspect(engines[0]).get_table_names())
    finally:
        for e in engines:
            e.dispose()
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def test_0003_turns_the_one_bot_row_per_level_into_slot_1(tmp_path):
    from sqlalchemy import text
    engine = create_engine(f"sqlite:///{tmp_path / 'b.db'}")
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0002")
        conn.execute(text("INSERT INTO players (token_hash, name, created_at, bot_level) "
                          "VALUES ('bot:basic', 'Bot (basic)', '2026-11-30 00:00:00', 'basic')"))
    upgrade(engine)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT token_hash, name, bot_level, bot_slot FROM players")).all()
    assert [tuple(r) for r in rows] == [("bot:basic-1", "Sam", "basic", 1)]
    engine.dispose()
