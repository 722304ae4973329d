"""Bot players per (level, slot 1..3) with English names; players.bot_slot.

The one bot row per level of 0002 (``token_hash = "bot:<level>"``, named
``Bot (<level>)``) becomes that level's slot 1 (``bot:<level>-1``), so seats,
matches and history that point at it keep pointing at the same player.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 10:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None

# The slot-1 names of app/rooms/bots.py BOT_NAMES (a migration keeps its own copy).
FIRST_NAMES = {"random": "Dotty", "basic": "Sam", "strong": "Ada"}


def upgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bot_slot', sa.Integer(), nullable=True))
    players = sa.table('players', sa.column('token_hash', sa.String), sa.column('name', sa.String),
                       sa.column('bot_level', sa.String), sa.column('bot_slot', sa.Integer))
    conn = op.get_bind()
    for level, name in FIRST_NAMES.items():
        conn.execute(players.update().where(players.c.token_hash == f"bot:{level}")
                     .values(token_hash=f"bot:{level}-1", name=name, bot_slot=1))
    # Any other bot row (a level added later): slot 1 as well.
    conn.execute(players.update().where(players.c.bot_level.is_not(None), players.c.bot_slot.is_(None))
                 .values(bot_slot=1))


def downgrade() -> None:
    players = sa.table('players', sa.column('token_hash', sa.String), sa.column('name', sa.String),
                       sa.column('bot_level', sa.String), sa.column('bot_slot', sa.Integer))
    conn = op.get_bind()
    for level in FIRST_NAMES:
        conn.execute(players.update().where(players.c.token_hash == f"bot:{level}-1")
                     .values(token_hash=f"bot:{level}", name=f"Bot ({level})"))
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_column('bot_slot')
