"""The coach's review of a finished deal (issue 36): one seat's marked decisions,
worked out once and kept, keyed (match, deal, seat).

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-05 04:00:00
"""
import sqlalchemy as sa
from alembic import op

revision = '0025'
down_revision = '0024'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'deal_reviews',
        sa.Column('match_id', sa.String(length=32), sa.ForeignKey('matches.id'), nullable=False),
        sa.Column('deal', sa.Integer(), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('body', sa.JSON(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('match_id', 'deal', 'seat'),
    )


def downgrade() -> None:
    op.drop_table('deal_reviews')
