"""Web Push: the server's VAPID key pair, each device's push subscription, each
player's notification choices and quiet hours; email: a player's address.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-04 21:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0019'
down_revision = '0018'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'vapid_keys',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('private_key', sa.String(64), nullable=False),
        sa.Column('public_key', sa.String(100), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        'push_subscriptions',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id'), nullable=False),
        sa.Column('device', sa.String(64), nullable=False, unique=True),
        sa.Column('endpoint', sa.String(2048), nullable=False),
        sa.Column('p256dh', sa.String(128), nullable=False),
        sa.Column('auth', sa.String(64), nullable=False),
        sa.Column('lang', sa.String(4), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index('ix_push_subscriptions_player_id', 'push_subscriptions', ['player_id'])
    op.create_index('ix_push_subscriptions_endpoint', 'push_subscriptions', ['endpoint'])
    op.create_table(
        'notification_prefs',
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id'), primary_key=True),
        sa.Column('kinds', sa.JSON(), nullable=False),
        sa.Column('quiet_from', sa.String(5), nullable=True),
        sa.Column('quiet_to', sa.String(5), nullable=True),
        sa.Column('time_zone', sa.String(64), nullable=False),
        sa.Column('email', sa.Boolean(), nullable=False, server_default=sa.true()),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        'email_addresses',
        sa.Column('player_id', sa.Integer(), sa.ForeignKey('players.id'), primary_key=True),
        sa.Column('address', sa.String(254), nullable=False),
        sa.Column('verified_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('verify_hash', sa.String(64), nullable=True, unique=True),
        sa.Column('verify_until', sa.DateTime(timezone=True), nullable=True),
        sa.Column('unsubscribe', sa.String(64), nullable=False, unique=True),
        sa.Column('lang', sa.String(4), nullable=False),
        sa.Column('base_url', sa.String(300), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('email_addresses')
    op.drop_table('notification_prefs')
    op.drop_index('ix_push_subscriptions_endpoint', 'push_subscriptions')
    op.drop_index('ix_push_subscriptions_player_id', 'push_subscriptions')
    op.drop_table('push_subscriptions')
    op.drop_table('vapid_keys')
