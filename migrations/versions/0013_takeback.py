"""Take-backs: the room option ``takeback`` ("off" | "agree").

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01 11:40:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('rooms') as batch:
        batch.add_column(sa.Column('takeback', sa.String(8), nullable=False, server_default='agree'))


def downgrade() -> None:
    with op.batch_alter_table('rooms') as batch:
        batch.drop_column('takeback')
