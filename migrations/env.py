"""Alembic environment: uses the connection handed over by app.db.migrate, or DATABASE_URL."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from app.config import get_settings, sqlalchemy_url
from app.db.models import Base

config = context.config
target_metadata = Base.metadata


def run_online() -> None:
    conn = config.attributes.get("connection")
    if conn is not None:
        context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(sqlalchemy_url(get_settings().database_url))
    with engine.connect() as connection:
        context.configure(connection=connection, target_metadata=target_metadata,
                          render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


def run_offline() -> None:
    context.configure(url=sqlalchemy_url(get_settings().database_url),
                      target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
