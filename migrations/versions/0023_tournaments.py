"""Club tournaments (issue 37 item 4): a tournament with the rules copied from a club
preset, its entrants, and its tables per round (the room and match of each; byes).
A match that ends finds its table by ``ix_tournament_tables_match``.

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-05 03:30:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0023'
down_revision = '0022'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'tournaments',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('club_id', sa.Integer(), sa.ForeignKey('clubs.id'), nullable=False),
        sa.Column('name', sa.String(80), nullable=False),
        sa.Column('preset_id', sa.Integer(), sa.ForeignKey('club_presets.id', ondelete='SET NULL'),
                  nullable=True),
        sa.Column('preset_name', sa.String(80), nullable=False),
        sa.Column('variant', sa.String(64), nullable=False),
        sa.Column('options', sa.JSON(), nullable=False),
        sa.Column('room', sa.JSON(), nullable=False),
        sa.Column('seat_count', sa.Integer(), nullable=False),
        sa.Column('format', sa.String(16), nullable=False),
        sa.Column('rounds', sa.Integer(), nullable=True),
        sa.Column('points', sa.JSON(), nullable=False),
        sa.Column('sign_up', sa.Boolean(), nullable=False, server_default=sa.true()),
        sa.Column('status', sa.String(16), nullable=False, server_default='open'),
        sa.Column('round', sa.Integer(), nullable=False, server_default='0'),
        sa.Column('seed', sa.BigInteger(), nullable=False),
        sa.Column('created_by', sa.Integer(), sa.ForeignKey('players.id'), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index('ix_tournaments_club', 'tournaments', ['club_id', 'created_at'])
    op.create_table(
        'tournament_entrants',
        sa.Column('tournament_id', sa.Integer(), sa.ForeignKey('tournaments.id'), primary_key=True),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id'), primary_key=True),
        sa.Column('number', sa.Integer(), nullable=True),
        sa.Column('joined_at', sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        'tournament_tables',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('tournament_id', sa.Integer(), sa.ForeignKey('tournaments.id'), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('table_no', sa.Integer(), nullable=False),
        sa.Column('seats', sa.JSON(), nullable=False),
        sa.Column('bye', sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column('room_id', sa.Integer(), sa.ForeignKey('rooms.id'), nullable=True),
        sa.Column('match_id', sa.String(32), sa.ForeignKey('matches.id'), nullable=True),
    )
    op.create_index('ix_tournament_tables_round', 'tournament_tables', ['tournament_id', 'round', 'table_no'])
    op.create_index('ix_tournament_tables_match', 'tournament_tables', ['match_id'], unique=True)


def downgrade() -> None:
    op.drop_index('ix_tournament_tables_match', 'tournament_tables')
    op.drop_index('ix_tournament_tables_round', 'tournament_tables')
    op.drop_table('tournament_tables')
    op.drop_table('tournament_entrants')
    op.drop_index('ix_tournaments_club', 'tournaments')
    op.drop_table('tournaments')
