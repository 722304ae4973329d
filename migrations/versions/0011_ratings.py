"""Ratings among friends: rooms.rated, standings (every finished match's places),
ratings (per player and family), rating_events (each rated match's change),
pair_records (head-to-head counts of every two players, kept as matches end),
family_totals (a player's counters per family, added to as each match ends from the
typed seat_results / score_rows of 0004).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 10:40:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rated', sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        'standings',
        sa.Column('match_id', sa.String(32), sa.ForeignKey('matches.id'), primary_key=True),
        sa.Column('seat', sa.Integer(), primary_key=True),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id'), nullable=False),
        sa.Column('family', sa.String(32), nullable=False),
        sa.Column('variant', sa.String(64), nullable=False),
        sa.Column('place', sa.Integer(), nullable=False),
        sa.Column('total', sa.Float(), nullable=False),
        sa.Column('finished_at', sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index('ix_standings_player', 'standings', ['player_id', 'finished_at', 'match_id'])
    op.create_index('ix_standings_player_family', 'standings', ['player_id', 'family', 'place'])
    op.create_table(
        'pair_records',
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id'), primary_key=True),
        sa.Column('other_id', sa.Integer(), sa.ForeignKey('players.id'), primary_key=True),
        sa.Column('matches', sa.Integer(), nullable=False),
        sa.Column('ahead', sa.Integer(), nullable=False),
        sa.Column('behind', sa.Integer(), nullable=False),
    )
    op.create_table(
        'family_totals',
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id'), primary_key=True),
        sa.Column('family', sa.String(32), primary_key=True),
        sa.Column('key', sa.String(48), primary_key=True),
        sa.Column('n', sa.Integer(), nullable=False),
        sa.Column('total', sa.Float(), nullable=False),
    )
    op.create_table(
        'ratings',
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id'), primary_key=True),
        sa.Column('family', sa.String(32), primary_key=True),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('matches', sa.Integer(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        'rating_events',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('match_id', sa.String(32), sa.ForeignKey('matches.id'), nullable=False),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id'), nullable=False),
        sa.Column('family', sa.String(32), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('place', sa.Integer(), nullable=False),
        sa.Column('mu_before', sa.Float(), nullable=False),
        sa.Column('sigma_before', sa.Float(), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint('match_id', 'player_id', name='uq_rating_events_match_player'),
    )
    op.create_index('ix_rating_events_player_family', 'rating_events', ['player_id', 'family', 'id'])


def downgrade() -> None:
    op.drop_index('ix_rating_events_player_family', table_name='rating_events')
    op.drop_table('rating_events')
    op.drop_table('ratings')
    op.drop_table('pair_records')
    op.drop_table('family_totals')
    op.drop_index('ix_standings_player_family', table_name='standings')
    op.drop_index('ix_standings_player', table_name='standings')
    op.drop_table('standings')
    with op.batch_alter_table('rooms', schema=None) as batch_op:
        batch_op.drop_column('rated')
