"""A room's pace (live | turn) with its move deadline and what a passed deadline does;
a player's vacation ("away until"); the one deadline table of both paces.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-04 20:40:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0018'
down_revision = '0017'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('rooms') as batch:
        batch.add_column(sa.Column('pace', sa.String(8), nullable=False, server_default='live'))
        batch.add_column(sa.Column('move_seconds', sa.Float(), nullable=True))
        batch.add_column(sa.Column('on_deadline', sa.String(8), nullable=False, server_default='bot'))
        batch.add_column(sa.Column('vacation_days', sa.Integer(), nullable=False, server_default='14'))
    with op.batch_alter_table('players') as batch:
        batch.add_column(sa.Column('away_until', sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        'deadlines',
        sa.Column('match_id', sa.String(32), sa.ForeignKey('matches.id'), primary_key=True),
        sa.Column('room_id', sa.Integer(), sa.ForeignKey('rooms.id'), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('since', sa.DateTime(timezone=True), nullable=False),
        sa.Column('due_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('seconds', sa.Float(), nullable=False),
        sa.Column('paused_left', sa.Float(), nullable=True),
        sa.Column('resume_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('remind_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('state', sa.String(8), nullable=False, server_default='running'),
    )
    op.create_index('ix_deadlines_due_at', 'deadlines', ['due_at'])
    op.create_index('ix_deadlines_remind_at', 'deadlines', ['remind_at'])


def downgrade() -> None:
    op.drop_index('ix_deadlines_remind_at', 'deadlines')
    op.drop_index('ix_deadlines_due_at', 'deadlines')
    op.drop_table('deadlines')
    with op.batch_alter_table('players') as batch:
        batch.drop_column('away_until')
    with op.batch_alter_table('rooms') as batch:
        batch.drop_column('vacation_days')
        batch.drop_column('on_deadline')
        batch.drop_column('move_seconds')
        batch.drop_column('pace')
