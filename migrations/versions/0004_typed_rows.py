"""Typed score / role rows: score_rows gains dealer, declarer, contract, bid, made,
trump, round; seat_results holds one typed line per seat of every finished deal and
Король round (score, total, declarer, made, bid, marriages, tricks, title), filled
from the rows already stored.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 10:30:00
"""
import json

import sqlalchemy as sa
from alembic import op

from app.db.rows import deal_columns, seat_rows

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None

DEAL_COLUMNS = [('dealer', sa.Integer()), ('declarer', sa.Integer()), ('contract', sa.String(length=32)),
                ('bid', sa.Integer()), ('made', sa.Boolean()), ('trump', sa.String(length=8)),
                ('round', sa.Integer())]


def upgrade() -> None:
    with op.batch_alter_table('score_rows', schema=None) as batch_op:
        for name, type_ in DEAL_COLUMNS:
            batch_op.add_column(sa.Column(name, type_, nullable=True))
        batch_op.create_index('ix_score_rows_contract', ['contract'], unique=False)
    op.create_table('seat_results',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('match_id', sa.String(length=32), nullable=False),
    sa.Column('kind', sa.String(length=8), nullable=False),
    sa.Column('idx', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('score', sa.Float(), nullable=True),
    sa.Column('total', sa.Float(), nullable=True),
    sa.Column('declarer', sa.Boolean(), nullable=False),
    sa.Column('made', sa.Boolean(), nullable=True),
    sa.Column('bid', sa.Integer(), nullable=True),
    sa.Column('marriages', sa.Integer(), nullable=False),
    sa.Column('tricks', sa.Integer(), nullable=True),
    sa.Column('title', sa.String(length=32), nullable=True),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('match_id', 'kind', 'idx', 'seat', name='uq_seat_results')
    )
    with op.batch_alter_table('seat_results', schema=None) as batch_op:
        batch_op.create_index('ix_seat_results_match_seat', ['match_id', 'seat'], unique=False)

    # Fill the new columns from the rows already stored.
    conn = op.get_bind()
    scores = sa.table('score_rows', sa.column('id', sa.Integer), sa.column('match_id', sa.String),
                      sa.column('deal', sa.Integer), sa.column('row', sa.JSON),
                      *[sa.column(name, type_) for name, type_ in DEAL_COLUMNS])
    roles = sa.table('role_rows', sa.column('match_id', sa.String), sa.column('idx', sa.Integer),
                     sa.column('row', sa.JSON))
    matches = sa.table('matches', sa.column('id', sa.String), sa.column('seat_count', sa.Integer))
    results = sa.table('seat_results', *[sa.column(n) for n in (
        'match_id', 'kind', 'idx', 'seat', 'score', 'total', 'declarer', 'made', 'bid', 'marriages',
        'tricks', 'title')])
    seats = dict(conn.execute(sa.select(matches.c.id, matches.c.seat_count)).all())
    lines = []
    for sid, match_id, deal, row in conn.execute(
            sa.select(scores.c.id, scores.c.match_id, scores.c.deal, scores.c.row)).all():
        row = json.loads(row) if isinstance(row, str) else row
        conn.execute(scores.update().where(scores.c.id == sid).values(**deal_columns(row)))
        lines += [{"match_id": match_id, **x} for x in seat_rows("deal", deal, row, seats.get(match_id, 0))]
    for match_id, idx, row in conn.execute(sa.select(roles.c.match_id, roles.c.idx, roles.c.row)).all():
        row = json.loads(row) if isinstance(row, str) else row
        lines += [{"match_id": match_id, **x} for x in seat_rows("round", idx, row, seats.get(match_id, 0))]
    if lines:
        conn.execute(results.insert(), lines)


def downgrade() -> None:
    with op.batch_alter_table('seat_results', schema=None) as batch_op:
        batch_op.drop_index('ix_seat_results_match_seat')
    op.drop_table('seat_results')
    with op.batch_alter_table('score_rows', schema=None) as batch_op:
        batch_op.drop_index('ix_score_rows_contract')
        for name, _ in DEAL_COLUMNS:
            batch_op.drop_column(name)
