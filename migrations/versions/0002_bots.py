"""Bots: players.bot_level (a bot's player row), rooms.takeover_seconds (turn timeout).

Additive only: two nullable columns.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 01:30:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bot_level', sa.String(length=16), nullable=True))
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.add_column(sa.Column('takeover_seconds', sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.drop_column('takeover_seconds')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_column('bot_level')
