"""Calls: "new room with the same people" — one row per person called to a new room.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01 10:45:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'calls',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('room_id', sa.Integer(), sa.ForeignKey('rooms.id'), nullable=False),
        sa.Column('from_id', sa.Integer(), sa.ForeignKey('players.id'), nullable=False),
        sa.Column('to_id', sa.Integer(), sa.ForeignKey('players.id'), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('dismissed_at', sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index('ix_calls_to', 'calls', ['to_id', 'created_at'])


def downgrade() -> None:
    op.drop_index('ix_calls_to', table_name='calls')
    op.drop_table('calls')
