"""Sign-in across devices: player_tokens (a further device's token) and sign_in_links.

Revision ID: 0010
Revises: 0004
Create Date: 2026-12-01 10:30:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0010'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'player_tokens',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id'), nullable=False),
        sa.Column('token_hash', sa.String(64), nullable=False, unique=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index('ix_player_tokens_player_id', 'player_tokens', ['player_id'])
    op.create_table(
        'sign_in_links',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id'), nullable=False),
        sa.Column('token_hash', sa.String(64), nullable=False, unique=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index('ix_sign_in_links_player_id', 'sign_in_links', ['player_id'])


def downgrade() -> None:
    op.drop_index('ix_sign_in_links_player_id', table_name='sign_in_links')
    op.drop_table('sign_in_links')
    op.drop_index('ix_player_tokens_player_id', table_name='player_tokens')
    op.drop_table('player_tokens')
