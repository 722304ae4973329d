"""The coach (issue 36): a room may have the coach on (hints at the table); never in a
rated room.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-05 00:30:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0020'
down_revision = '0019'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('rooms') as batch:
        batch.add_column(sa.Column('coach', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('rooms') as batch:
        batch.drop_column('coach')
