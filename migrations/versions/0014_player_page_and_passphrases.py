"""The player page at 10,000 matches, and name + passphrase sign-in: indexes in each query's filter + order (covering
on PostgreSQL, INCLUDE; SQLite ignores it) and rating_events.n (the player's n-th
rated match in the family) for the rating chart's points.

- standings: ix_standings_player (player_id, finished_at, match_id) becomes
  ix_standings_player_recent, the same keys INCLUDE the listed columns: the match
  list's keyset pages from the index alone.
- pair_records: ix_pair_records_top (player_id, matches DESC, other_id) INCLUDE
  (ahead, behind): head-to-head in its order, no sort.
- rating_events: n (backfilled: the count of the player's events in the family up to
  each one); ix_rating_events_chart (player_id, family, n); the history's index
  (player_id, family, id) covering.
- passphrases: a player's sign-in name (login_key: folded, unique) and argon2 hash,
  with the count of wrong passphrases in a row and the lock (app/db/accounts.py).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-01 13:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None

STANDING_COLUMNS = ['variant', 'family', 'seat', 'place', 'total']
HISTORY_COLUMNS = ['n', 'match_id', 'place', 'mu_before', 'sigma_before', 'mu', 'sigma', 'created_at']


def upgrade() -> None:
    op.create_table(
        'passphrases',
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id'), primary_key=True),
        sa.Column('login', sa.String(64), nullable=False),
        sa.Column('login_key', sa.String(200), nullable=False, unique=True),
        sa.Column('hash', sa.String(255), nullable=False),
        sa.Column('failures', sa.Integer(), nullable=False, server_default='0'),
        sa.Column('blocked_until', sa.DateTime(timezone=True), nullable=True),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    )
    op.drop_index('ix_standings_player', table_name='standings')
    op.create_index('ix_standings_player_recent', 'standings', ['player_id', 'finished_at', 'match_id'],
                    postgresql_include=STANDING_COLUMNS)
    op.create_index('ix_pair_records_top', 'pair_records', ['player_id', sa.text('matches DESC'), 'other_id'],
                    postgresql_include=['ahead', 'behind'])
    with op.batch_alter_table('rating_events') as batch:
        batch.add_column(sa.Column('n', sa.Integer(), nullable=False, server_default='0'))
    op.execute("UPDATE rating_events SET n = (SELECT count(*) FROM rating_events e"
               " WHERE e.player_id = rating_events.player_id AND e.family = rating_events.family"
               " AND e.id <= rating_events.id)")
    op.drop_index('ix_rating_events_player_family', table_name='rating_events')
    op.create_index('ix_rating_events_player_family', 'rating_events', ['player_id', 'family', 'id'],
                    postgresql_include=HISTORY_COLUMNS)
    op.create_index('ix_rating_events_chart', 'rating_events', ['player_id', 'family', 'n'],
                    postgresql_include=['mu', 'sigma', 'created_at'])


def downgrade() -> None:
    op.drop_table('passphrases')
    op.drop_index('ix_rating_events_chart', table_name='rating_events')
    op.drop_index('ix_rating_events_player_family', table_name='rating_events')
    with op.batch_alter_table('rating_events') as batch:
        batch.drop_column('n')
    op.create_index('ix_rating_events_player_family', 'rating_events', ['player_id', 'family', 'id'])
    op.drop_index('ix_pair_records_top', table_name='pair_records')
    op.drop_index('ix_standings_player_recent', table_name='standings')
    op.create_index('ix_standings_player', 'standings', ['player_id', 'finished_at', 'match_id'])
