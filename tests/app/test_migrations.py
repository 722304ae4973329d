"""Migrations: run at start-up, idempotent, and safe when two processes start at once."""

from __future__ import annotations

import threading
from contextlib import ExitStack

import pytest
from alembic import command
from sqlalchemy import create_engine, inspect

from app.config import sqlalchemy_url
from app.db.migrate import alembic_config, upgrade

from .conftest import scratch_pg_database


@pytest.fixture
def stack():
    with ExitStack() as st:
        yield st


TABLES = {"players", "rooms", "seats", "matches", "match_players", "actions", "score_rows",
          "role_rows", "chat_messages", "seat_results"}


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
    with scratch_pg_database() as url:
        _migrate_at_once(sqlalchemy_url(url))


def _migrate_at_once(url: str) -> None:
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


def test_0004_fills_the_typed_columns_from_the_stored_rows(tmp_path):
    import json

    from sqlalchemy import text
    engine = create_engine(f"sqlite:///{tmp_path / 't.db'}")
    cfg = alembic_config()
    row = {"deal": 1, "dealer": 1, "declarer": 0, "bid": 120, "contract": 120, "scores": [120, 10, -5],
           "totals": [120, 10, -5], "marriages": [[0, "S"], [0, "H"]], "trump": "H"}
    role = {"round": 0, "titles": ["king", "prince", "soldier"], "tricks": [9, 8, 7]}
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0003")
        conn.execute(text("INSERT INTO players (id, token_hash, name, created_at) VALUES (1, 'h', 'H', '2026-01-01')"))
        conn.execute(text("INSERT INTO rooms (id, code, variant, options, seat_count, host_id, created_at) "
                          "VALUES (1, 'R', 'thousand-1000', '{}', 3, 1, '2026-01-01')"))
        conn.execute(text("INSERT INTO matches (id, room_id, number, variant, options, seat_count, seed, "
                          "status, version, created_at) VALUES ('M', 1, 1, 'thousand-1000', '{}', 3, 1, "
                          "'finished', 9, '2026-01-01')"))
        conn.execute(text("INSERT INTO score_rows (match_id, deal, row) VALUES ('M', 1, :row)"),
                     {"row": json.dumps(row)})
        conn.execute(text("INSERT INTO role_rows (match_id, idx, round, row) VALUES ('M', 0, 0, :row)"),
                     {"row": json.dumps(role)})
    upgrade(engine)
    with engine.connect() as conn:
        deal = conn.execute(text("SELECT dealer, declarer, contract, bid, made, trump FROM score_rows")).one()
        lines = conn.execute(text("SELECT kind, seat, score, declarer, made, bid, marriages, title "
                                  "FROM seat_results ORDER BY kind, seat")).all()
    assert tuple(deal) == (1, 0, "120", 120, 1, "H")
    assert [tuple(x) for x in lines] == [
        ("deal", 0, 120.0, 1, 1, 120, 2, None), ("deal", 1, 10.0, 0, None, None, 0, None),
        ("deal", 2, -5.0, 0, None, None, 0, None),
        ("round", 0, None, 0, None, None, 0, "king"), ("round", 1, None, 0, None, None, 0, "prince"),
        ("round", 2, None, 0, None, None, 0, "soldier")]
    engine.dispose()


@pytest.mark.parametrize("db", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_0016_moves_each_first_token_to_the_devices(db, tmp_path, stack):
    """A person's first token (players.token_hash) becomes a device row and still signs
    him in; bots keep their key; downgrading puts the first token back."""
    from sqlalchemy import text
    from sqlalchemy.orm import Session

    from app.db import store, tokens

    if db == "sqlite":
        url = f"sqlite:///{tmp_path / 'd.db'}"
    else:  # a database of its own (the session's is in use by the apps of other tests)
        url = stack.enter_context(scratch_pg_database())
    engine = create_engine(sqlalchemy_url(url))
    stack.callback(engine.dispose)
    cfg = alembic_config()
    token = tokens.new_token()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0015")
        conn.execute(text("INSERT INTO players (id, token_hash, name, created_at) VALUES (7, :h, 'Ola', "
                          "CURRENT_TIMESTAMP)"), {"h": tokens.token_hash(token)})
        conn.execute(text("INSERT INTO players (id, token_hash, name, created_at, bot_level, bot_slot) "
                          "VALUES (8, 'bot:basic-1', 'Sam', CURRENT_TIMESTAMP, 'basic', 1)"))
    upgrade(engine)
    with Session(engine) as s:
        assert store.player_by_token(s, token).id == 7
        marks = dict(s.execute(text("SELECT id, token_hash FROM players")).all())
        assert marks == {7: "person:7", 8: "bot:basic-1"}
        assert s.execute(text("SELECT player_id FROM player_tokens")).scalars().all() == [7]
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0015")
        assert conn.execute(text("SELECT token_hash FROM players WHERE id = 7")).scalar() == store.token_hash(token)
        assert conn.execute(text("SELECT count(*) FROM player_tokens")).scalar() == 0


CLUB_TABLES = {"clubs", "club_members", "club_invites", "club_presets", "seasons", "season_rows", "season_ratings"}


@pytest.mark.parametrize("db", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_0020_clubs_up_down_up_keeps_rooms(db, tmp_path, stack):
    """0020 adds the club tables and the rooms' / matches' club columns (on a database
    with rooms, seats and matches, as the server runs it); down removes them and leaves
    the rooms and matches as they were; up again restores them."""
    from sqlalchemy import text

    from app.db.session import Database

    url = f"sqlite:///{tmp_path / 'c.db'}" if db == "sqlite" else stack.enter_context(scratch_pg_database())
    engine = create_engine(sqlalchemy_url(url))
    stack.callback(engine.dispose)
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0019")
        conn.execute(text("INSERT INTO players (id, token_hash, name, created_at) VALUES (1, 'h', 'H', CURRENT_TIMESTAMP)"))
        conn.execute(text("INSERT INTO rooms (id, code, variant, options, seat_count, host_id, created_at) "
                          "VALUES (1, 'R', 'thousand-1000', '{}', 3, 1, CURRENT_TIMESTAMP)"))
        conn.execute(text("INSERT INTO seats (room_id, seat_no, player_id) VALUES (1, 0, 1)"))
        conn.execute(text("INSERT INTO matches (id, room_id, number, variant, options, seat_count, seed, status, "
                          "version, created_at) VALUES ('M', 1, 1, 'thousand-1000', '{}', 3, 1, 'finished', 9, "
                          "CURRENT_TIMESTAMP)"))
    server = Database(url)  # as the server migrates: SQLite with its foreign_keys pragma on
    upgrade(server.engine)
    server.dispose()

    def shape() -> tuple[set, set, set, set]:
        look = inspect(engine)
        rooms = {c["name"] for c in look.get_columns("rooms")}
        matches = {c["name"] for c in look.get_columns("matches")}
        indexes = {i["name"] for t in ("rooms", "matches") for i in look.get_indexes(t)}
        return set(look.get_table_names()), rooms, matches, indexes

    tables, rooms, matches, indexes = shape()
    assert CLUB_TABLES <= tables and {"club_id", "preset_id", "preset_name"} <= rooms
    assert {"club_id", "preset_name"} <= matches and {"ix_rooms_club", "ix_matches_club_finished"} <= indexes
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0019")
    tables, rooms, matches, indexes = shape()
    assert not CLUB_TABLES & tables and not {"club_id", "preset_id", "preset_name"} & rooms
    assert "club_id" not in matches and not {"ix_rooms_club", "ix_matches_club_finished"} & indexes
    with engine.connect() as conn:
        assert conn.execute(text("SELECT code FROM rooms")).scalars().all() == ["R"]
    upgrade(engine)
    assert CLUB_TABLES <= shape()[0]
