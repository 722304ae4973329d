"""Club events (issue 37 item 4): an event of a club at a time (UTC, with the IANA zone
it was set in), its reminder's time, and the members' answers (yes / no / maybe).

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-05 03:20:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0022'
down_revision = '0021'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'club_events',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('club_id', sa.Integer(), sa.ForeignKey('clubs.id'), nullable=False),
        sa.Column('title', sa.String(80), nullable=False),
        sa.Column('note', sa.Text(), nullable=False, server_default=''),
        sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('ends_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('time_zone', sa.String(64), nullable=False),
        sa.Column('preset_id', sa.Integer(), sa.ForeignKey('club_presets.id', ondelete='SET NULL'), nullable=True),
        sa.Column('remind_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('created_by', sa.Integer(), sa.ForeignKey('players.id'), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('cancelled_at', sa.DateTime(timezone=True), nullable=True),
    )
    # the club page's upcoming events: (club, ends_at > now); the reminders' sweep: remind_at <= now
    op.create_index('ix_club_events_upcoming', 'club_events', ['club_id', 'ends_at'])
    op.create_index('ix_club_events_remind', 'club_events', ['remind_at'])
    op.create_table(
        'club_event_rsvps',
        sa.Column('event_id', sa.Integer(), sa.ForeignKey('club_events.id', ondelete='CASCADE'), primary_key=True),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id'), primary_key=True),
        sa.Column('answer', sa.String(8), nullable=False),
        sa.Column('answered_at', sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('club_event_rsvps')
    op.drop_index('ix_club_events_remind', 'club_events')
    op.drop_index('ix_club_events_upcoming', 'club_events')
    op.drop_table('club_events')
