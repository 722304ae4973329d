"""Duplicate matches (issue 37 item 5): a club's duplicate plays one seed at several
tables (rooms) with the per-deal seed mode (rule C-3, engine ``deal_seeds``); rooms and
matches say whether their engine uses that mode; a room opened by "replay this deal"
keeps the deal (its preset and first dealer) for its first match.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-05 03:30:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0024'
down_revision = '0023'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMNs, also on SQLite (see 0021).
    op.add_column('rooms', sa.Column('deal_seeds', sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column('rooms', sa.Column('replay_deal', sa.JSON(), nullable=True))
    op.add_column('matches', sa.Column('deal_seeds', sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        'duplicates',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('club_id', sa.Integer(), sa.ForeignKey('clubs.id'), nullable=False),
        sa.Column('preset_name', sa.String(80), nullable=False),
        sa.Column('variant', sa.String(64), nullable=False),
        sa.Column('seat_count', sa.Integer(), nullable=False),
        sa.Column('seed', sa.BigInteger(), nullable=False),
        sa.Column('created_by', sa.Integer(), sa.ForeignKey('players.id'), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index('ix_duplicates_club', 'duplicates', ['club_id', 'created_at'])
    op.create_table(
        'duplicate_tables',
        sa.Column('duplicate_id', sa.Integer(), sa.ForeignKey('duplicates.id'), primary_key=True),
        sa.Column('table_no', sa.Integer(), primary_key=True),
        sa.Column('room_id', sa.Integer(), sa.ForeignKey('rooms.id'), nullable=False, unique=True),
    )


def downgrade() -> None:
    op.drop_table('duplicate_tables')
    op.drop_index('ix_duplicates_club', table_name='duplicates')
    op.drop_table('duplicates')
    with op.batch_alter_table('matches') as batch:
        batch.drop_column('deal_seeds')
    with op.batch_alter_table('rooms') as batch:
        batch.drop_column('replay_deal')
        batch.drop_column('deal_seeds')
