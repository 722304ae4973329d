"""The database connection: SQLite (WAL, one writer at a time) or PostgreSQL (psycopg 3)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from ..config import sqlalchemy_url
from . import store


class Database:
    """An engine, a session factory and, for SQLite, the single-writer lock."""

    def __init__(self, url: str) -> None:
        self.url = sqlalchemy_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        self.is_postgres = self.url.startswith("postgresql")
        if self.is_sqlite:
            # Keep the connections: opening one runs the pragmas below, and under a burst
            # of joins the default pool (5 + 10 overflow, closed when returned) opened
            # and closed connections all the time (about 7% of the server's samples).
            self.engine: Engine = create_engine(
                self.url, connect_args={"check_same_thread": False, "timeout": 30},
                pool_size=40, max_overflow=10)
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            self.engine = create_engine(self.url, pool_size=10, max_overflow=20, pool_pre_ping=True)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        # PostgreSQL reads run without a transaction: at READ COMMITTED every statement
        # sees its own snapshot either way, and psycopg's BEGIN and the ROLLBACK at the
        # end were two of a read's round trips (a join's room and match reads on a
        # process new to the room: about a tenth of that process's samples in a join
        # storm).  SQLite's driver starts no transaction for a read anyway.
        self.read_sessions = sessionmaker(
            self.engine.execution_options(isolation_level="AUTOCOMMIT") if self.is_postgres else self.engine,
            expire_on_commit=False)
        self._write_lock = threading.Lock() if self.is_sqlite else None

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A session for reading (PostgreSQL: each statement its own transaction)."""
        with self.read_sessions() as session:
            yield session

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A transaction that commits on success; SQLite writers take turns."""
        lock = self._write_lock
        if lock is not None:
            lock.acquire()
        try:
            with self.sessions() as session, session.begin():
                yield session
        finally:
            if lock is not None:
                lock.release()

    @contextmanager
    def writing(self) -> Iterator[None]:
        """The turn of one writer (SQLite has one at a time; PostgreSQL: no lock)."""
        lock = self._write_lock
        if lock is None:
            yield
            return
        with lock:
            yield

    def ping(self) -> str:
        """Run one statement (the health check); the database's dialect name."""
        with self.read() as s:
            store.ping(s)
        return self.engine.dialect.name

    def dispose(self) -> None:
        self.engine.dispose()


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: a commit survives a process crash
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()
