"""Every device token of a person in ``player_tokens`` (listed and revocable one by one).

A person's first token was ``players.token_hash``; it moves to a ``player_tokens`` row
(created with the player), and ``players.token_hash`` keeps a marker that no token
hashes to (``person:<id>``; sha256 hex has no colon).  Bots keep ``bot:<level>-<slot>``.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-04 04:30:00
"""
from alembic import op


revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("INSERT INTO player_tokens (player_id, token_hash, created_at) "
               "SELECT id, token_hash, created_at FROM players "
               "WHERE bot_level IS NULL AND token_hash NOT LIKE 'person:%'")
    op.execute("UPDATE players SET token_hash = 'person:' || id "
               "WHERE bot_level IS NULL AND token_hash NOT LIKE 'person:%'")


def downgrade() -> None:
    # Each person's oldest device token goes back to players.token_hash (a person signed
    # out everywhere keeps the marker: no token of his works, as before).
    first = ("(SELECT t.token_hash FROM player_tokens t WHERE t.player_id = players.id "
             "ORDER BY t.id LIMIT 1)")
    op.execute(f"UPDATE players SET token_hash = {first} "
               f"WHERE token_hash LIKE 'person:%' AND {first} IS NOT NULL")
    op.execute("DELETE FROM player_tokens WHERE token_hash IN (SELECT token_hash FROM players)")
