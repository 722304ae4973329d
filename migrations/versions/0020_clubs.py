"""Clubs (issue 37): clubs, their members (role, status), invite links, house-rule
presets, seasons with their table rows and club ratings; rooms and matches carry
the club and the preset's name they were opened from (each room its own copy).

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-05 00:20:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0020'
down_revision = '0019'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'clubs',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('name', sa.String(80), nullable=False),
        sa.Column('description', sa.Text(), nullable=False, server_default=''),
        sa.Column('colour', sa.String(7), nullable=False, server_default='#3a6ea5'),
        sa.Column('listed', sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column('owner_id', sa.Integer(), sa.ForeignKey('players.id'), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        'club_members',
        sa.Column('club_id', sa.Integer(), sa.ForeignKey('clubs.id'), primary_key=True),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id'), primary_key=True),
        sa.Column('role', sa.String(8), nullable=False),
        sa.Column('status', sa.String(8), nullable=False),
        sa.Column('requested_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('joined_at', sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index('ix_club_members_player', 'club_members', ['player_id', 'status'])
    op.create_table(
        'club_invites',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('club_id', sa.Integer(), sa.ForeignKey('clubs.id'), nullable=False),
        sa.Column('token', sa.String(32), nullable=False, unique=True),
        sa.Column('created_by', sa.Integer(), sa.ForeignKey('players.id'), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index('ix_club_invites_club', 'club_invites', ['club_id'])
    op.create_table(
        'club_presets',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('club_id', sa.Integer(), sa.ForeignKey('clubs.id'), nullable=False),
        sa.Column('name', sa.String(80), nullable=False),
        sa.Column('variant', sa.String(64), nullable=False),
        sa.Column('options', sa.JSON(), nullable=False),
        sa.Column('room', sa.JSON(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint('club_id', 'name', name='uq_club_presets_name'),
    )
    op.create_table(
        'seasons',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('club_id', sa.Integer(), sa.ForeignKey('clubs.id'), nullable=False),
        sa.Column('name', sa.String(80), nullable=False),
        sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('ends_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('families', sa.JSON(), nullable=False),
        sa.Column('points', sa.JSON(), nullable=False),
        sa.Column('min_matches', sa.Integer(), nullable=False),
        sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('winners', sa.JSON(), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index('ix_seasons_club', 'seasons', ['club_id', 'starts_at'])
    op.create_table(
        'season_rows',
        sa.Column('season_id', sa.Integer(), sa.ForeignKey('seasons.id'), primary_key=True),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id'), primary_key=True),
        sa.Column('matches', sa.Integer(), nullable=False),
        sa.Column('points', sa.Float(), nullable=False),
        sa.Column('wins', sa.Integer(), nullable=False),
        sa.Column('place_sum', sa.Integer(), nullable=False),
        sa.Column('total_sum', sa.Float(), nullable=False),
    )
    op.create_table(
        'season_ratings',
        sa.Column('season_id', sa.Integer(), sa.ForeignKey('seasons.id'), primary_key=True),
        sa.Column('family', sa.String(32), primary_key=True),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id'), primary_key=True),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('matches', sa.Integer(), nullable=False),
    )
    # Plain ADD COLUMN (no batch copy of the table on SQLite: rooms and matches are
    # referenced by other tables, and dropping them for a copy fails with the server's
    # foreign_keys pragma on).  The foreign keys are named so a downgrade finds them.
    fk_column('rooms', 'club_id', 'clubs', 'fk_rooms_club')
    fk_column('rooms', 'preset_id', 'club_presets', 'fk_rooms_preset', ondelete='SET NULL')
    op.add_column('rooms', sa.Column('preset_name', sa.String(80), nullable=True))
    op.create_index('ix_rooms_club', 'rooms', ['club_id', 'current_match_id', 'created_at'])
    fk_column('matches', 'club_id', 'clubs', 'fk_matches_club')
    op.add_column('matches', sa.Column('preset_name', sa.String(80), nullable=True))
    op.create_index('ix_matches_club_finished', 'matches', ['club_id', 'finished_at'])


def fk_column(table: str, column: str, target: str, name: str, ondelete: str | None = None) -> None:
    """A nullable integer column referencing ``target.id``: on SQLite one ALTER TABLE with
    the constraint inline (Alembic would copy the table), elsewhere Alembic's own."""
    if op.get_context().dialect.name == 'sqlite':
        tail = f' ON DELETE {ondelete}' if ondelete else ''
        op.execute(f'ALTER TABLE {table} ADD COLUMN {column} INTEGER CONSTRAINT {name} '
                   f'REFERENCES {target} (id){tail}')
        return
    op.add_column(table, sa.Column(column, sa.Integer(), nullable=True))
    op.create_foreign_key(name, table, target, [column], ['id'], ondelete=ondelete)


def downgrade() -> None:
    # SQLite: a column with a foreign key is dropped by copying the table (batch), which
    # needs the foreign_keys pragma off (Alembic's own connection has it off).
    op.drop_index('ix_matches_club_finished', 'matches')
    op.drop_index('ix_rooms_club', 'rooms')
    sqlite = op.get_context().dialect.name == 'sqlite'  # its copy leaves the dropped columns' keys out
    with op.batch_alter_table('matches') as batch:
        if not sqlite:
            batch.drop_constraint('fk_matches_club', type_='foreignkey')
        batch.drop_column('preset_name')
        batch.drop_column('club_id')
    with op.batch_alter_table('rooms') as batch:
        if not sqlite:
            batch.drop_constraint('fk_rooms_preset', type_='foreignkey')
            batch.drop_constraint('fk_rooms_club', type_='foreignkey')
        batch.drop_column('preset_name')
        batch.drop_column('preset_id')
        batch.drop_column('club_id')
    op.drop_table('season_ratings')
    op.drop_table('season_rows')
    op.drop_index('ix_seasons_club', 'seasons')
    op.drop_table('seasons')
    op.drop_table('club_presets')
    op.drop_index('ix_club_invites_club', 'club_invites')
    op.drop_table('club_invites')
    op.drop_index('ix_club_members_player', 'club_members')
    op.drop_table('club_members')
    op.drop_table('clubs')
