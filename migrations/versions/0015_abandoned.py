"""Abandoned matches: the room option ``abandoned`` ("counts" | "ignored").

A match the host stops before its end gets status ``abandoned`` (a string column
already); this option says whether such a match counts for standings and ratings.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-01 13:20:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('rooms') as batch:
        batch.add_column(sa.Column('abandoned', sa.String(8), nullable=False, server_default='ignored'))


def downgrade() -> None:
    with op.batch_alter_table('rooms') as batch:
        batch.drop_column('abandoned')
