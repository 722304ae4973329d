"""The coach (issue 36): a room may have the coach on (hints at the table); never in a
rated room.  A match played while its room had the coach on is ``coached``: it counts
in no club season (issue 37).

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-05 00:30:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0021'
down_revision = '0020'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ALTER TABLE ... ADD COLUMN, also on SQLite: a batch copy of rooms would need
    # the foreign_keys pragma off, and the server migrates with it on (see 0020).
    op.add_column('rooms', sa.Column('coach', sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column('matches', sa.Column('coached', sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('matches') as batch:
        batch.drop_column('coached')
    with op.batch_alter_table('rooms') as batch:
        batch.drop_column('coach')
